//! Death Dome through the engine where a scenario test cannot reach. The arena: no team's
//! corner may be better placed than another's, so the arena turned a quarter round (each base
//! onto the next team's, clockwise) must be the arena again — every square's terrain and every
//! wall. (Seat order is the one advantage left: the mod draws who moves first before every
//! match, and `docs/performance.md` measures it.) And the window's words for a long game: cards
//! by their labels, a game of five matches counted in matches.

use std::collections::BTreeMap;

use meeple_engine::game::{Engine, Events, GameSetup};
use meeple_tests::load;

#[test]
fn the_arena_is_the_same_seen_from_every_base() {
    let rules = load("death_dome");
    let mut engine = Engine::new(rules.clone()).unwrap();
    let state = engine.new_game(&GameSetup::new(&rules, 1, 4, "medium"), &mut Events::discard()).unwrap();
    let board = &state.board;
    let size = 17;
    // A quarter turn clockwise: column c, row r goes to column (size - 1 - r), row c.
    let turned = |col: i32, row: i32| (size - 1 - row, col);
    let by_cell: BTreeMap<(i32, i32), usize> =
        board.spaces().iter().enumerate().map(|(id, space)| ((space.col, space.row), id)).collect();
    assert_eq!(by_cell.len(), (size * size) as usize);
    let mut differences = Vec::new();
    for space in board.spaces() {
        let other = &board.spaces()[by_cell[&turned(space.col, space.row)]];
        // Red's base turns onto blue's, blue's onto green's, and so on round.
        let home_turned = space.home.map(|seat| (seat + 1) % 4);
        if other.terrain != space.terrain || other.home != home_turned {
            differences.push(format!("{} → {}", space.label, other.label));
        }
    }
    let mut walls = 0;
    for edge in board.edges() {
        let Some(wall) = edge.wall else { continue };
        walls += 1;
        let (a, b) = (&board.spaces()[edge.a as usize], &board.spaces()[edge.b as usize]);
        let a2 = by_cell[&turned(a.col, a.row)] as u32;
        let b2 = by_cell[&turned(b.col, b.row)] as u32;
        let same = board.edge_between(a2, b2).map(|e| board.edge(e).wall) == Some(Some(wall));
        if !same {
            differences.push(format!("the wall {}|{}", a.label, b.label));
        }
    }
    assert!(walls >= 24, "the arena's walls are read: {walls}");
    assert!(differences.is_empty(), "not the same a quarter turn round: {differences:?}");
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
