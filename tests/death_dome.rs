//! Death Dome through the engine where a scenario test cannot reach. The arena: no team's
//! corner may be better placed than another's, so the arena turned a quarter round (each base
//! onto the next team's, clockwise) must be the arena again — every square's terrain and every
//! wall. (Seat order is the one advantage left: the mod draws who moves first before every
//! match, and `docs/performance.md` measures it.) Three teams play in an arena of their own,
//! chosen by the setup for three: its halves mirror each other and its bases are equally far
//! apart. And the window's words for a long game: cards by their labels, a game of five matches
//! counted in matches.

use std::collections::BTreeMap;

use meeple_engine::game::{Engine, Events, GameSetup};
use meeple_tests::{load, mods_dir};

/// The squares and walls of `board` (17 by 17) that `moved` does not carry onto their like:
/// a square onto one of another terrain or base (`moved_home` says whose base a base goes
/// to), a wall onto an edge without the same wall. Also how many edges have a wall.
fn unlike_when_moved(
    board: &meeple_engine::board::Board,
    moved: impl Fn(i32, i32) -> (i32, i32),
    moved_home: impl Fn(u8) -> u8,
) -> (Vec<String>, usize) {
    let by_cell: BTreeMap<(i32, i32), usize> =
        board.spaces().iter().enumerate().map(|(id, space)| ((space.col, space.row), id)).collect();
    assert_eq!(by_cell.len(), 17 * 17);
    let mut differences = Vec::new();
    for space in board.spaces() {
        let other = &board.spaces()[by_cell[&moved(space.col, space.row)]];
        if other.terrain != space.terrain || other.home != space.home.map(&moved_home) {
            differences.push(format!("{} → {}", space.label, other.label));
        }
    }
    let mut walls = 0;
    for edge in board.edges() {
        let Some(wall) = edge.wall else { continue };
        walls += 1;
        let (a, b) = (&board.spaces()[edge.a as usize], &board.spaces()[edge.b as usize]);
        let a2 = by_cell[&moved(a.col, a.row)] as u32;
        let b2 = by_cell[&moved(b.col, b.row)] as u32;
        if board.edge_between(a2, b2).map(|e| board.edge(e).wall) != Some(Some(wall)) {
            differences.push(format!("the wall {}|{}", a.label, b.label));
        }
    }
    (differences, walls)
}

#[test]
fn the_arena_is_the_same_seen_from_every_base() {
    let rules = load("death_dome");
    let mut engine = Engine::new(rules.clone()).unwrap();
    let state = engine.new_game(&GameSetup::new(&rules, 1, 4, "medium"), &mut Events::discard()).unwrap();
    // A quarter turn clockwise: column c, row r goes to column 16 - r, row c; red's base turns
    // onto blue's, blue's onto green's, and so on round.
    let (differences, walls) = unlike_when_moved(&state.board, |col, row| (16 - row, col), |seat| (seat + 1) % 4);
    assert!(walls >= 24, "the arena's walls are read: {walls}");
    assert!(differences.is_empty(), "not the same a quarter turn round: {differences:?}");
}

/// With three teams the setup picks the arena of three bases: red's and blue's in the top
/// corners, green's in the middle of the bottom edge. Left and right mirror each other (red's
/// side onto blue's) but for green's control point on blue's side, a row nearer blue (L12, where
/// the mirror has L13: play goes red, blue, green, and in the exact mirror image blue won less
/// and green more). With diagonal moves (the larger of the column and row differences) every
/// base is 12 squares from each other base, 6 from two of the three bridges, 2 from two control
/// points of its own, 6 from two it shares with a neighbour and from the tower's centre.
#[test]
fn three_teams_get_an_arena_of_three_bases_mirrored_and_equally_far_apart() {
    let four = load("death_dome");
    let chosen = meeple_engine::options::for_seats(&four.data.options, &Default::default(), 3);
    assert_eq!(chosen.get("arena").map(String::as_str), Some("three_bases"));
    let rules = meeple_engine::loader::load_mod_with(&mods_dir().join("death_dome"), &chosen).unwrap().ruleset;
    let mut engine = Engine::new(rules.clone()).unwrap();
    let state = engine.new_game(&GameSetup::new(&rules, 1, 3, "medium"), &mut Events::discard()).unwrap();
    let board = &state.board;
    // Left and right swapped: red's base onto blue's, green's onto itself.
    let (mut differences, walls) =
        unlike_when_moved(board, |col, row| (16 - col, row), |seat| [1, 0, 2][seat as usize]);
    assert!(walls >= 18, "six short walls and twelve tall ones, and the diagonals across them: {walls}");
    differences.sort();
    assert_eq!(differences, ["F12 → L12", "F13 → L13", "L12 → F12", "L13 → F13"], "mirrored but for L12");

    let cells = |seat: u8| -> Vec<(i32, i32)> {
        board.spaces().iter().filter(|s| s.home == Some(seat)).map(|s| (s.col, s.row)).collect()
    };
    let bases: Vec<Vec<(i32, i32)>> = (0..3).map(cells).collect();
    assert!(bases.iter().all(|b| b.len() == 9), "three bases of nine squares");
    let from_base = |seat: usize, (col, row): (i32, i32)| -> i32 {
        bases[seat].iter().map(|&(c, r)| (c - col).abs().max((r - row).abs())).min().unwrap()
    };
    for a in 0..3 {
        for b in 0..3 {
            if a != b {
                let apart = bases[b].iter().map(|&cell| from_base(a, cell)).min().unwrap();
                assert_eq!(apart, 12, "bases {a} and {b}");
            }
        }
    }
    let of_terrain = |names: &[&str]| -> Vec<(i32, i32)> {
        let ids: Vec<usize> = names.iter().map(|n| rules.terrain_index(n).unwrap()).collect();
        board.spaces().iter().filter(|s| ids.contains(&(s.terrain as usize))).map(|s| (s.col, s.row)).collect()
    };
    let bridges = of_terrain(&["bridge"]);
    let points = of_terrain(&["control", "tower_centre"]);
    assert_eq!((bridges.len(), points.len()), (3, 10), "three bridges; nine control points and the tower's centre");
    let mut totals = Vec::new();
    for seat in 0..3 {
        let mut to_bridges: Vec<i32> = bridges.iter().map(|&b| from_base(seat, b)).collect();
        to_bridges.sort();
        assert_eq!(to_bridges, [6, 6, 8], "base {seat} to the bridges");
        let to_points: Vec<i32> = points.iter().map(|&p| from_base(seat, p)).collect();
        assert_eq!(to_points.iter().filter(|&&d| d == 2).count(), 2, "base {seat}: two points of its own");
        assert_eq!(to_points.iter().filter(|&&d| d == 6).count(), 3, "base {seat}: two shared and the centre");
        totals.push(to_points.iter().sum::<i32>());
    }
    // Red and blue as far from the control points together; green a square farther (L12 is a
    // square nearer blue and red alike).
    assert_eq!(totals, [75, 75, 76], "from each base to every control point, summed");
}

/// The window's log names the cards a team draws by their labels ("Bomb [A] 2"), never by the
/// mod's ids, and a game over after five matches counts its matches (rounds start afresh in
/// each).
#[test]
fn the_window_names_cards_by_label_and_counts_matches() {
    let rules = load("death_dome");
    let setup = GameSetup::new(&rules, 3, 2, "medium");
    let mut session = meeple::player::Session::new(rules.clone(), setup.clone()).unwrap();
    let bomb = rules.card_ids.iter().position(|id| id == "bomb").unwrap() as u16;
    let drawn = meeple_engine::game::Event::CardsDrawn { seat: 0, deck: 0, cards: vec![bomb] };
    let text = meeple::player::describe::event(&rules, &session.state, &drawn).unwrap();
    assert!(text.contains("draws Bomb [A] 2"), "{text}");
    assert_eq!(session.stats().matches, 1);
    let mut engine = Engine::new(rules.clone()).unwrap();
    let mut state = engine.new_game(&setup, &mut Events::discard()).unwrap();
    let mut players: Vec<_> = (0..2).map(|i| meeple_engine::ai::player("medium", 30 + i).unwrap()).collect();
    for _ in 0..20_000 {
        if state.outcome.is_some() {
            break;
        }
        let action = players[state.to_act() as usize].decide(&mut engine, &state).expect("a decision");
        engine.apply(&mut state, &action, &mut Events::discard()).expect("a legal action");
    }
    assert!(state.outcome.is_some(), "the game ends");
    session.state = state;
    assert_eq!(session.stats().matches, 5, "five matches");
}
