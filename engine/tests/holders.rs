//! Holders: a piece inside a piece. A kind with a `capacity` (and `holds`, the kinds it takes)
//! holds pieces put in with `piece.inside = holder`; they stand on its space, go where it goes,
//! change hands with it and are removed with it. The fixture `convoy`: wagons that carry up to
//! three pieces, at most one of them a guard. Its scenario tests (`tests/convoy.lua`) play the
//! rules through; the tests here check the events, the refusals at load, a failed action, saves
//! of games without holders, and the invariants over random play.

mod common;

use std::path::Path;

use common::{fixture, load_data, new_game};
use meeple_engine::game::state::NO_PIECE;
use meeple_engine::game::{Action, Event, Events};

fn convoy_folder() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/convoy")
}

#[test]
fn the_fixtures_scenario_tests_pass() {
    let rules = fixture("convoy");
    let file = convoy_folder().join("tests/convoy.lua");
    let results = meeple_engine::scenario::run_mod_tests(&rules, &[file], &[], None);
    assert_eq!(results.len(), 8);
    for result in &results {
        assert!(result.failure.is_none(), "{}: {:?}", result.name, result.failure);
    }
}

/// Loading, driving and seizing send one event per piece, seen by every seat, in id order.
#[test]
fn each_piece_that_goes_in_moves_or_changes_hands_is_reported() {
    let rules = fixture("convoy");
    let (mut engine, mut state, _) = new_game(&rules, 1, 2);
    let act = |engine: &mut meeple_engine::game::Engine,
               state: &mut meeple_engine::game::GameState,
               id: &str,
               args: &[i64]| {
        let mut events = Events::recording();
        let action = Action::rule(rules.action_index(id).unwrap() as u16, args);
        engine.apply(state, &action, &mut events).unwrap_or_else(|e| panic!("{id}: {e}"));
        let events = events.take();
        for event in &events {
            for seat in 0..2 {
                assert_eq!(event.seen_by(&rules, seat).as_ref(), Some(event), "nothing about holders is hidden");
            }
        }
        events
            .into_iter()
            .filter(|e| {
                matches!(
                    e,
                    Event::PieceInsideChanged { .. } | Event::PieceMoved { .. } | Event::PieceOwnerChanged { .. }
                )
            })
            .collect::<Vec<_>>()
    };
    let (a, b) = (state.board.find("a").unwrap(), state.board.find("b").unwrap());
    assert_eq!(
        act(&mut engine, &mut state, "load", &[1, 0]),
        [Event::PieceInsideChanged { piece: 1, from: None, to: Some(0) }]
    );
    act(&mut engine, &mut state, "load", &[2, 0]);
    assert_eq!(
        act(&mut engine, &mut state, "drive", &[0, i64::from(b)]),
        [
            Event::PieceMoved { piece: 0, from: Some(a), to: Some(b) },
            Event::PieceMoved { piece: 1, from: Some(a), to: Some(b) },
            Event::PieceMoved { piece: 2, from: Some(a), to: Some(b) },
        ]
    );
    engine.apply(&mut state, &Action::pass(), &mut Events::discard()).unwrap();
    let seized = act(&mut engine, &mut state, "seize", &[0]);
    assert_eq!(
        seized,
        (0..3).map(|piece| Event::PieceOwnerChanged { piece, from: Some(0), to: Some(1) }).collect::<Vec<_>>()
    );
    let json = meeple_engine::game::render::event_json(
        &rules,
        &state,
        &Event::PieceInsideChanged { piece: 1, from: Some(0), to: None },
    );
    assert_eq!(json, serde_json::json!({ "event": "piece_inside_changed", "piece": 2, "from": 1, "to": null }));
    let view = meeple_engine::game::render::state_json(&rules, &state);
    assert_eq!(view["pieces"][1]["inside"], serde_json::json!(1), "a crate names its wagon");
    assert!(view["pieces"][0].get("inside").is_none(), "a wagon is inside nothing");
}

/// A statement that puts a piece where there is no room fails the whole action, which leaves
/// the game exactly as it was: the guard placed before the failing line is not left behind.
#[test]
fn an_action_that_overfills_a_holder_changes_nothing() {
    let rules = fixture("convoy");
    let (mut engine, mut state, _) = new_game(&rules, 1, 2);
    let hire = Action::rule(rules.action_index("hire").unwrap() as u16, &[0]);
    engine.apply(&mut state, &hire, &mut Events::discard()).expect("the first guard fits");
    let before = state.clone();
    let error = engine.apply(&mut state, &hire, &mut Events::discard()).expect_err("a second guard does not");
    assert!(error.to_string().contains("a wagon holds at most 1 of guard at once"), "{error}");
    assert_eq!(state.hash(), before.hash());
    assert_eq!(state.pieces.len(), 5, "no guard placed by the failed hire");
}

/// A game without holders saves as before: no piece says it is inside nothing.
#[test]
fn pieces_inside_nothing_save_as_before() {
    let rules = fixture("convoy");
    let (_, state, _) = new_game(&rules, 1, 2);
    let saved = serde_json::to_string(&state).unwrap();
    assert!(!saved.contains("inside"), "{saved}");
    let back: meeple_engine::game::GameState = serde_json::from_str(&saved).unwrap();
    assert!(back.pieces.iter().all(|p| p.inside == NO_PIECE));
    assert_eq!(back.hash(), state.hash());
}

/// Random play keeps every invariant (contents on their holder's space, holders alive and not
/// inside anything, no holder over its capacity), a failed action changes nothing, and the
/// game replays to the same state.
#[test]
fn random_play_keeps_holders_sound_and_replays() {
    // `hire` is offered for a full wagon too, and fails there, changing nothing.
    common::random_play_replays(&fixture("convoy"), 40, 60);
}

/// `capacity` and `holds` are checked where written: an unknown kind (with a suggestion), a
/// count of 0, a holder inside a holder, and `holds` with no room at all.
#[test]
fn broken_holders_are_refused_where_written() {
    let data = r#"
[board]
kind = "graph"
terrain = "road"
spaces = [{ id = "a" }]
links = []

[terrain.road]

[pieces.wagon]
capacity = 3
holds = { crat = 2, guard = 0, barge = 1 }

[pieces.barge]
capacity = 2

[pieces.shed]
capacity = 0
holds = { crate = 1 }

[pieces.crate]
[pieces.guard]

[end]
win = "seat.number == 99"
"#;
    let problems = load_data("holders", data).expect_err("broken");
    for expected in [
        "data.toml:12:18: error: [pieces.wagon.holds] key `crat`: unknown piece kind `crat`; did you mean `crate`?",
        "data.toml:12:29: error: [pieces.wagon.holds] key `guard`: holds 0 of `guard`: leave `guard` out instead",
        "data.toml:12:40: error: [pieces.wagon.holds] key `barge`: `barge` holds pieces itself, and holders do not go inside holders",
        "data.toml:18:12: error: [pieces.shed] key `capacity`: a `capacity` of 0 holds nothing, so `holds` would never be used",
    ] {
        assert!(problems.contains(expected), "missing {expected:?} in:\n{problems}");
    }
}

/// `inside_count` and `can_enter` read the holder; `pieces_at` counts what stands on a space
/// by itself, not what is inside a holder there.
#[test]
fn counting_what_is_inside() {
    let data = std::fs::read_to_string(convoy_folder().join("data.toml")).unwrap().replace(
        "[end]",
        r#"[vars]
inside = 0
crates = 0
standing = 0
room = 0

[actions.count]
label = "Count"
params = [{ name = "wagon", kind = "piece", where = "wagon.kind == 'wagon'" }]
effect = [
  "inside = inside_count(wagon)",
  "crates = inside_count(wagon, 'crate')",
  "standing = pieces_at(wagon.space)",
  "room = count_of(piece, piece.kind != 'wagon' and can_enter(piece, wagon))",
]

[end]"#,
    );
    let hooks = std::fs::read(convoy_folder().join("hooks/main.lua")).unwrap();
    let manifest = std::fs::read(convoy_folder().join("mod.toml")).unwrap();
    let folder = common::write_mod(
        "convoy",
        &[("mod.toml", &manifest), ("data.toml", data.as_bytes()), ("hooks/main.lua", &hooks)],
    );
    let rules = common::loaded(&folder);
    std::fs::remove_dir_all(&folder).ok();
    let (mut engine, mut state, _) = new_game(&rules, 1, 2);
    let load = |args: &[i64]| Action::rule(rules.action_index("load").unwrap() as u16, args);
    engine.apply(&mut state, &load(&[1, 0]), &mut Events::discard()).unwrap();
    let count = Action::rule(rules.action_index("count").unwrap() as u16, &[0]);
    engine.apply(&mut state, &count, &mut Events::discard()).unwrap();
    let var = |name: &str| state.vars[rules.var_index(name).unwrap()];
    assert_eq!((var("inside"), var("crates"), var("standing")), (1, 1, 2), "the wagon and the crate beside it");
    assert_eq!(var("room"), 2, "both crates may go in: one already is, one has room");
}
