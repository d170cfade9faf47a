//! Forces of Conquest through the engine where a scenario test cannot reach: its maps. No
//! player's base range may be better placed than another's: each map, moved so that one base
//! range lands on the next (a half turn for two, a mirror for three, a quarter turn for four),
//! is the same map, and the base ranges are equally far apart (steps, four neighbours each, and
//! on Three Crowns a soldier's movement points).

use std::collections::BTreeMap;

use meeple_engine::board::Board;
use meeple_engine::game::{Engine, Events, GameSetup};
use meeple_tests::{load, mods_dir};

/// The board of a game for `seats`, on the map the setup chooses for that many.
fn board_for(seats: usize) -> std::sync::Arc<Board> {
    let defaults = load("forces_of_conquest");
    let chosen = meeple_engine::options::for_seats(&defaults.data.options, &Default::default(), seats);
    let rules = meeple_engine::loader::load_mod_with(&mods_dir().join("forces_of_conquest"), &chosen).unwrap().ruleset;
    let mut engine = Engine::new(rules.clone()).unwrap();
    let state = engine.new_game(&GameSetup::new(&rules, 1, seats, "medium"), &mut Events::discard()).unwrap();
    state.board
}

/// The spaces `moved` carries onto one of another terrain or base range (`moved_home` says
/// whose range a range goes to).
fn unlike_when_moved(
    board: &Board,
    moved: impl Fn(i32, i32) -> (i32, i32),
    moved_home: impl Fn(u8) -> u8,
) -> Vec<String> {
    let by_cell: BTreeMap<(i32, i32), usize> =
        board.spaces().iter().enumerate().map(|(id, space)| ((space.col, space.row), id)).collect();
    board
        .spaces()
        .iter()
        .filter(|space| {
            let other = &board.spaces()[by_cell[&moved(space.col, space.row)]];
            other.terrain != space.terrain || other.home != space.home.map(&moved_home)
        })
        .map(|space| space.label.clone())
        .collect()
}

/// The middle of each base range, by seat, and the steps between each two.
fn distances_between_ranges(board: &Board, seats: u8) -> Vec<i32> {
    let middles: Vec<(i32, i32)> = (0..seats)
        .map(|seat| {
            let cells: Vec<(i32, i32)> =
                board.spaces().iter().filter(|s| s.home == Some(seat)).map(|s| (s.col, s.row)).collect();
            assert_eq!(cells.len(), 9, "seat {seat}'s range is three by three");
            (cells.iter().map(|c| c.0).sum::<i32>() / 9, cells.iter().map(|c| c.1).sum::<i32>() / 9)
        })
        .collect();
    let mut out = Vec::new();
    for a in 0..middles.len() {
        for b in a + 1..middles.len() {
            out.push((middles[a].0 - middles[b].0).abs() + (middles[a].1 - middles[b].1).abs());
        }
    }
    out
}

#[test]
fn two_shores_is_the_same_seen_from_either_base() {
    let board = board_for(2);
    assert_eq!(board.spaces().len(), 144);
    assert!(unlike_when_moved(&board, |col, row| (11 - col, 11 - row), |seat| 1 - seat).is_empty());
    assert_eq!(distances_between_ranges(&board, 2), vec![18]);
}

/// The cell of each seat's base range nearest the board's middle (where the best land is, and
/// where the computer players found their bases), by seat.
fn inner_corners(board: &Board, seats: u8) -> Vec<usize> {
    let (columns, rows) = board.spaces().iter().fold((0, 0), |(c, r), s| (c.max(s.col), r.max(s.row)));
    (0..seats)
        .map(|seat| {
            let from_middle = |s: &meeple_engine::board::Space| (2 * s.col - columns).abs() + (2 * s.row - rows).abs();
            let cells = board.spaces().iter().enumerate().filter(|(_, s)| s.home == Some(seat));
            cells.min_by_key(|(_, s)| from_middle(s)).map(|(id, _)| id).unwrap()
        })
        .collect()
}

/// The fewest movement points a piece of `kind` spends walking from `from` to each space (its
/// kind's `move_costs`; `None` where it cannot go).
fn walking_costs(board: &Board, kind: &meeple_engine::rules::PieceKindInfo, from: usize) -> Vec<Option<u32>> {
    let mut cost = vec![None; board.spaces().len()];
    let mut frontier = std::collections::BinaryHeap::new();
    cost[from] = Some(0);
    frontier.push(std::cmp::Reverse((0u32, from)));
    while let Some(std::cmp::Reverse((spent, at))) = frontier.pop() {
        if cost[at].is_some_and(|known| known < spent) {
            continue;
        }
        for &(next, _) in board.neighbors(at as _) {
            let Some(step) = kind.move_costs[board.spaces()[next as usize].terrain as usize].filter(|&c| c > 0) else {
                continue;
            };
            if cost[next as usize].is_none_or(|known| spent + step < known) {
                cost[next as usize] = Some(spent + step);
                frontier.push(std::cmp::Reverse((spent + step, next as usize)));
            }
        }
    }
    cost
}

/// Three Crowns is fair where it matters most: from the inner corner of each base range every
/// other's is as many steps away and as many movement points for a soldier (it was not so in
/// 0.2: a costly way between the top two made the bottom base everyone's nearest target, and it
/// won one game in six).
#[test]
fn three_crowns_mirrors_the_top_bases_and_keeps_their_inner_corners_equally_far_apart() {
    let board = board_for(3);
    assert_eq!(board.spaces().len(), 17 * 11);
    let mirrored = unlike_when_moved(&board, |col, row| (16 - col, row), |seat| [1, 0, 2][seat as usize]);
    assert!(mirrored.is_empty(), "{mirrored:?}");
    let rules = load("forces_of_conquest");
    let soldier = rules.piece_kinds.iter().find(|kind| kind.id == "soldier").unwrap();
    let corners = inner_corners(&board, 3);
    let labels: Vec<&str> = corners.iter().map(|&id| board.spaces()[id].label.as_str()).collect();
    assert_eq!(labels, ["C02", "O02", "I08"]);
    for (a, &from) in corners.iter().enumerate() {
        let walks = walking_costs(&board, soldier, from);
        for &to in &corners[a + 1..] {
            let (x, y) = (&board.spaces()[from], &board.spaces()[to]);
            assert_eq!((x.col - y.col).abs() + (x.row - y.row).abs(), 12, "{} to {}", x.label, y.label);
            assert_eq!(walks[to], Some(12), "a soldier from {} to {}", x.label, y.label);
        }
    }
}

#[test]
fn four_winds_is_the_same_seen_from_every_base() {
    let board = board_for(4);
    assert_eq!(board.spaces().len(), 196);
    // A quarter turn clockwise: column c, row r goes to column 13 - r, row c; each range onto
    // the next one round (1 top left, 2 top right, 3 bottom right, 4 bottom left).
    let turned = unlike_when_moved(&board, |col, row| (13 - row, col), |seat| (seat + 1) % 4);
    assert!(turned.is_empty(), "{turned:?}");
    assert_eq!(distances_between_ranges(&board, 4), vec![11, 22, 11, 11, 22, 11]);
}

/// What the window says of a player in Forces of Conquest: beside its resources, the upkeep its
/// units will eat and its armies (the mod's `seats.figures`, worked out by the rules); a piece
/// lists the stats its kind has — a flag none, an army its movement left, a soldier its own —
/// not every number every piece carries.
#[test]
fn the_window_shows_upkeep_due_and_only_the_stats_a_piece_has() {
    use meeple::player::panels::{figure_lines, piece_lines};
    use meeple_engine::game::Action;
    let rules = load("forces_of_conquest");
    let mut engine = Engine::new(rules.clone()).unwrap();
    let mut state = engine.new_game(&GameSetup::new(&rules, 1, 2, "medium"), &mut Events::discard()).unwrap();
    let found = rules.action_index("found_base").unwrap() as u16;
    let a00 = state.board.space_ids().find(|&s| state.board.space(s).label == "A00").unwrap() as i64;
    let l11 = state.board.space_ids().find(|&s| state.board.space(s).label == "L11").unwrap() as i64;
    engine.apply(&mut state, &Action::rule(found, &[a00]), &mut Events::discard()).unwrap();
    engine.apply(&mut state, &Action::rule(found, &[l11]), &mut Events::discard()).unwrap();
    assert_eq!(figure_lines(&rules, &state, 0), ["Upkeep due: 0", "Armies (of 10): 0"]);
    // Two soldiers and a defender: 1 + 1 + 2 food, in three armies of one.
    for unit in ["train_soldier", "train_soldier", "train_defender"] {
        let train = Action::rule(rules.action_index(unit).unwrap() as u16, &[]);
        engine.apply(&mut state, &train, &mut Events::discard()).unwrap();
    }
    assert_eq!(figure_lines(&rules, &state, 0), ["Upkeep due: 4", "Armies (of 10): 3"]);
    // What is missing is said in the game's words, with the figures of the moment.
    let mut legal = Vec::new();
    engine.legal_actions(&state, &mut legal).unwrap();
    let ranger = rules.action_index("train_ranger").unwrap() as u16;
    let food = state.seats[0].resources[rules.resource_index("food").unwrap()];
    let why = engine.unavailable_reason(&state, &legal, ranger);
    assert_eq!(why, Some(format!("needs 25 food, {food} in store")));
    let kind_of = |id: &str| rules.piece_kinds.iter().position(|k| k.id == id).unwrap() as u16;
    let first = |kind: &str| state.pieces.iter().position(|p| p.alive && p.kind == kind_of(kind)).unwrap() as u32;
    assert!(piece_lines(&rules, &state, first("flag")).is_empty(), "{:?}", piece_lines(&rules, &state, first("flag")));
    assert_eq!(piece_lines(&rules, &state, first("soldier")), ["Attack: 2", "Defence: 2", "Movement: 4", "Upkeep: 1"]);
    let army = piece_lines(&rules, &state, first("army"));
    assert_eq!(army[0], "Inside (1):", "a new army has no movement left and lists its soldier: {army:?}");
    // Armies on one territory are told apart by what they hold, in lists and the log.
    let merge = rules.action_index("merge").unwrap() as u16;
    let armies: Vec<i64> = (0..state.pieces.len() as i64)
        .filter(|&p| state.pieces[p as usize].alive && state.pieces[p as usize].kind == kind_of("army"))
        .collect();
    engine.apply(&mut state, &Action::rule(merge, &[armies[0], armies[1]]), &mut Events::discard()).unwrap();
    let names: Vec<String> = (0..state.pieces.len() as u32)
        .filter(|&p| state.pieces[p as usize].alive && state.pieces[p as usize].kind == kind_of("army"))
        .map(|p| meeple::player::describe::piece(&rules, &state, p))
        .collect();
    assert_eq!(names, ["Seat 1's army (soldier ×2) at A00", "Seat 1's army (defender) at A00"]);
    // An army gone rogue is nobody's: the mod's `[seats] nobody` names it, `nobody_color`
    // draws it (before, it was a bare "army" in light grey, like a neutral marker).
    let rogue = (0..state.pieces.len() as u32)
        .find(|&p| state.pieces[p as usize].alive && state.pieces[p as usize].kind == kind_of("army"))
        .unwrap();
    for piece in state.pieces.iter_mut().filter(|q| q.inside == rogue) {
        piece.owner = meeple_engine::game::state::NO_SEAT;
    }
    state.pieces[rogue as usize].owner = meeple_engine::game::state::NO_SEAT;
    assert_eq!(meeple::player::describe::piece(&rules, &state, rogue), "Rogues' army (soldier ×2) at A00");
    assert_eq!(
        meeple::player::describe::seat_color(&rules, &state, meeple_engine::game::state::NO_SEAT),
        egui::Color32::from_rgb(0x3a, 0x30, 0x30)
    );
}

/// Choosing where an army moves, a territory with an enemy army on it is a target (ringed red,
/// as enemy land is), though nobody owns the ground: moving there starts a battle.
#[test]
fn a_territory_with_an_enemy_army_is_a_target_in_the_choice() {
    use meeple::player::Session;
    use meeple_engine::game::{Action, ActionKind};
    let rules = load("forces_of_conquest");
    let mut session = Session::new(rules.clone(), GameSetup::new(&rules, 1, 2, "human")).unwrap();
    let label_of = |session: &Session, id: u32| session.state.board.space(id).label.clone();
    let space = |session: &Session, label: &str| {
        session.state.board.space_ids().find(|&s| label_of(session, s) == label).unwrap()
    };
    let found = rules.action_index("found_base").unwrap() as u16;
    let (a00, l11) = (space(&session, "A00"), space(&session, "L11"));
    session.act(Action::rule(found, &[i64::from(a00)])).unwrap();
    session.act(Action::rule(found, &[i64::from(l11)])).unwrap();
    session.act(Action::rule(rules.action_index("train_soldier").unwrap() as u16, &[])).unwrap();
    let army_kind = rules.piece_kinds.iter().position(|k| k.id == "army").unwrap() as u16;
    let mp_left = rules.stats.iter().position(|s| s.id == "mp_left").unwrap();
    let b00 = space(&session, "B00");
    session.edit_state(|state| {
        let army = state.pieces.iter().position(|p| p.alive && p.kind == army_kind).unwrap();
        state.pieces[army].stats[mp_left] = 2;
        // An empty army of seat 2 on B00, nobody's ground.
        let mut enemy = state.pieces[army].clone();
        enemy.owner = 1;
        enemy.space = b00;
        state.pieces.push(enemy);
    });
    session.select(ActionKind::Rule(rules.action_index("move").unwrap() as u16));
    let army = session.options()[0].arg;
    session.choose(army);
    let targets: Vec<String> = session.options().into_iter().filter(|o| o.hostile).map(|o| o.label).collect();
    assert_eq!(targets, ["B00"], "{:?}", session.options());
}
