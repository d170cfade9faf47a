//! Pieces between spaces: a kind `on_edge` stands between two neighbouring spaces (a wall built
//! on a border), put there with `place_between`; it never moves, touches both sides, and, with a
//! `wall` terrain, prices or closes the walks that cross it (`passes`). The fixture `rampart`:
//! palisades on a five-by-three field that their own side crosses for 1 more and the other side
//! not at all, each holding one guard. Its scenario tests (`tests/rampart.lua`) play the rules
//! through; the tests here check the events, the refusals at load, saves and random play.

mod common;

use std::path::Path;

use common::{fixture, load_data, new_game};
use meeple_engine::game::state::NO_SPACE;
use meeple_engine::game::{Action, Event, Events};

fn rampart_folder() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rampart")
}

#[test]
fn the_fixtures_scenario_tests_pass() {
    let rules = fixture("rampart");
    let file = rampart_folder().join("tests/rampart.lua");
    let results = meeple_engine::scenario::run_mod_tests(&rules, &[file], &[], None);
    assert_eq!(results.len(), 6);
    for result in &results {
        assert!(result.failure.is_none(), "{}: {:?}", result.name, result.failure);
    }
}

/// Building sends one event that names both sides, seen by every seat; the piece is saved with
/// its other side, and pieces in one space save as before.
#[test]
fn a_piece_built_between_two_spaces_is_reported_and_saved_with_both() {
    let rules = fixture("rampart");
    let (mut engine, mut state, _) = new_game(&rules, 1, 2);
    let saved = serde_json::to_string(&state).unwrap();
    assert!(!saved.contains("across"), "no piece between spaces yet: {saved}");
    let (b01, c01) = (state.board.find("B01").unwrap(), state.board.find("C01").unwrap());
    let build = Action::rule(rules.action_index("build").unwrap() as u16, &[i64::from(c01), i64::from(b01)]);
    let mut events = Events::recording();
    engine.apply(&mut state, &build, &mut events).unwrap();
    let placed: Vec<Event> =
        events.take().into_iter().filter(|e| matches!(e, Event::PiecePlacedBetween { .. })).collect();
    let palisade = rules.piece_kinds.iter().position(|k| k.id == "palisade").unwrap() as u16;
    let expected = Event::PiecePlacedBetween { piece: 2, kind: palisade, owner: Some(0), space: b01, across: c01 };
    assert_eq!(placed, [expected.clone()], "the lower id first, whichever was named first");
    for seat in 0..2 {
        assert_eq!(expected.seen_by(&rules, seat).as_ref(), Some(&expected));
    }
    let json = meeple_engine::game::render::event_json(&rules, &state, &expected);
    assert_eq!(
        json,
        serde_json::json!({ "event": "piece_placed_between", "piece": 3, "kind": "palisade", "owner": 1, "space": "B01", "across": "C01" })
    );
    let view = meeple_engine::game::render::state_json(&rules, &state);
    assert_eq!(
        (&view["pieces"][2]["space"], &view["pieces"][2]["across"]),
        (&serde_json::json!("B01"), &serde_json::json!("C01"))
    );
    let back: meeple_engine::game::GameState = serde_json::from_str(&serde_json::to_string(&state).unwrap()).unwrap();
    assert_eq!((back.pieces[2].space, back.pieces[2].across), (b01, c01));
    assert_eq!(back.pieces[0].across, NO_SPACE);
    assert_eq!(back.hash(), state.hash());
}

/// Random play (building, walking, garrisoning, razing, and the shift that always fails) keeps
/// every invariant, a failed action changes nothing, and the game replays to the same state.
#[test]
fn random_play_keeps_pieces_between_spaces_sound_and_replays() {
    // `shift` always fails, changing nothing.
    common::random_play_replays(&fixture("rampart"), 30, 60);
}

/// A kind's `wall` and `passes`, and `place` against `place_between`, are checked where
/// written.
#[test]
fn walls_and_placing_between_are_checked_where_written() {
    let data = r#"
[board]
kind = "square"
columns = 2
rows = 1
terrain = "plain"

[terrain.plain]

[pieces.gate]
wall = "plain"

[pieces.fence]
on_edge = true
wall = "plian"

[pieces.post]
passes = "allies"

[pieces.cart]
capacity = 2
holds = { fence = 1 }

[setup]
effect = ["place('fence', seat(1), space('A00'))", "place_between('post', seat(1), space('A00'), space('B00'))"]

[end]
win = "seat.number == 99"
"#;
    let problems = load_data("walls", data).expect_err("broken");
    for expected in [
        "data.toml:11:8: error: [pieces.gate] key `wall`: only a kind `on_edge` (standing between two spaces) is a wall: add `on_edge = true`",
        "data.toml:15:8: error: [pieces.fence] key `wall`: unknown terrain `plian`; did you mean `plain`?",
        "data.toml:18:10: error: [pieces.post] key `passes`: `passes` says who crosses a wall: give the kind a `wall` terrain too",
        "data.toml:22:19: error: [pieces.cart.holds] key `fence`: `fence` stands between two spaces and cannot go inside a holder",
        "a fence stands between two spaces (`on_edge`): write place_between(\"fence\", seat, a, b)",
        "a post stands in a space: write place(\"post\", seat, space), or make its kind `on_edge`",
    ] {
        assert!(problems.contains(expected), "missing {expected:?} in:\n{problems}");
    }
}

/// `place_between` of spaces that are not neighbours fails the action, changing nothing.
#[test]
fn placing_between_spaces_that_are_not_neighbours_fails() {
    let data = std::fs::read_to_string(rampart_folder().join("data.toml")).unwrap().replace(
        "[end]",
        "[actions.far]\nlabel = \"Far\"\neffect = [\"place_between('palisade', me, space('A00'), space('C00'))\"]\n\n[end]",
    );
    let rules = load_data("rampart", &data).unwrap_or_else(|p| panic!("{p}"));
    let (mut engine, mut state, _) = new_game(&rules, 1, 2);
    let before = state.hash();
    let far = Action::rule(rules.action_index("far").unwrap() as u16, &[]);
    let error = engine.apply(&mut state, &far, &mut Events::discard()).expect_err("not neighbours");
    assert!(error.to_string().contains("A00 and C00 are not neighbours"), "{error}");
    assert_eq!(state.hash(), before);
}
