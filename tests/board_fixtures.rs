//! The fixture mods of the board kinds no bundled game uses yet (`tests/fixtures/boards`: a
//! square grid with walls, rings with a one-way track, an explicit graph) load, play to the end,
//! and walk the way their boards say: walls on edges block a step, one-way links go one way.

use meeple_engine::game::record::to_record;
use meeple_engine::game::{Engine, Events, GameSetup, GameState};
use meeple_engine::loader::load_mod;
use meeple_engine::rules::Ruleset;
use meeple_engine::sim::{self, SimConfig};
use std::sync::Arc;

fn fixture(name: &str) -> Arc<Ruleset> {
    let folder = meeple_tests::root().join("tests/fixtures/boards").join(name);
    match load_mod(&folder) {
        Ok(loaded) => loaded.ruleset,
        Err(problems) => panic!("{name}: {}", problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")),
    }
}

/// The labels of the spaces the seat to move may step to from where its token stands.
fn steps_from(rules: &Arc<Ruleset>, state: &mut GameState, engine: &mut Engine, from: &str) -> Vec<String> {
    let space = state.board.find(from).expect("a space of the board");
    let piece = state.seat_piece(state.turn.seat).expect("the token") as usize;
    state.pieces[piece].space = space;
    let mut legal = Vec::new();
    engine.legal_actions(state, &mut legal).unwrap();
    let mut labels: Vec<String> = legal
        .iter()
        .filter(|a| !a.is_pass())
        .filter_map(|a| {
            to_record(rules, state, state.turn.seat, a).args.get("to").and_then(|v| v.as_str().map(String::from))
        })
        .collect();
    labels.sort();
    labels
}

#[test]
fn walls_on_edges_block_steps() {
    let rules = fixture("square_walls");
    let mut engine = Engine::new(rules.clone()).unwrap();
    let mut state = engine.new_game(&GameSetup::new(&rules, 1, 2, "human"), &mut Events::discard()).unwrap();
    // B00: a wall below it (to B01); A00 is North's home with its own token gone from it.
    assert_eq!(steps_from(&rules, &mut state, &mut engine, "B00"), ["A00", "C00"]);
    // E00 has rock below it (E01); D00 and F00 are free.
    assert_eq!(steps_from(&rules, &mut state, &mut engine, "E00"), ["D00", "F00"]);
    // G03: a wall to its right (H03); rock is not next to it.
    assert_eq!(steps_from(&rules, &mut state, &mut engine, "G03"), ["F03", "G02", "G04"]);
}

#[test]
fn one_way_links_are_walked_one_way() {
    let rules = fixture("rings");
    let mut engine = Engine::new(rules.clone()).unwrap();
    let mut state = engine.new_game(&GameSetup::new(&rules, 1, 2, "human"), &mut Events::discard()).unwrap();
    let from = state.board.find("outer 3").expect("outer 3");
    let labels = steps_from(&rules, &mut state, &mut engine, "outer 3");
    // The outer ring is walked clockwise only: forward to outer 4, never back to outer 2.
    assert!(labels.contains(&"outer 4".to_string()), "{labels:?}");
    assert!(!labels.contains(&"outer 2".to_string()), "{labels:?}");
    assert!(!state.board.neighbors(from).is_empty());
}

#[test]
fn every_board_fixture_plays_to_the_end() {
    for name in ["square_walls", "rings", "graph"] {
        let rules = fixture(name);
        let config = SimConfig {
            games: 20,
            seed: 3,
            seats: 2,
            levels: vec!["medium".into()],
            rotate: false,
            rotate_first: false,
            threads: 2,
        };
        let (_, games) = sim::run(rules, &config, &|_| {}).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(games.len(), 20, "{name}");
        assert!(games.iter().all(|g| g.actions > 0), "{name}: every game was played");
    }
}
