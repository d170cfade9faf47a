//! Death Dome through the engine where a scenario test cannot reach: the arena itself. No
//! team's corner may be better placed than another's, so the arena turned a quarter round (each
//! base onto the next team's, clockwise) must be the arena again — every square's terrain and
//! every wall. (Seat order is the one advantage left, and `docs/performance.md` measures it.)

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
