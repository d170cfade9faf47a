//! Actions nobody chooses: an action `automatic = true` is never offered; an effect performs it
//! with `perform("id", …)`, giving its first parameters, and the rules choose the rest — the
//! legal completion with the highest `ai.score`, ties drawn from the game's random stream. The
//! fixture `wilds`: a wolf of nobody's prowls towards the nearest hunter on seat 1's turn.

mod common;

use std::path::Path;

use common::{fixture, load_data, new_game};
use meeple_engine::game::{Action, Event, Events};

fn wilds_folder() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/wilds")
}

#[test]
fn the_fixtures_scenario_tests_pass() {
    let rules = fixture("wilds");
    let file = wilds_folder().join("tests/wilds.lua");
    let results = meeple_engine::scenario::run_mod_tests(&rules, &[file], &[], None);
    assert_eq!(results.len(), 3);
    for result in &results {
        assert!(result.failure.is_none(), "{}: {:?}", result.name, result.failure);
    }
}

/// From D00 the wolf's two best squares, B00 and F00, tie: the game's random stream decides,
/// about half and half over 400 seeds, and the same seed always decides the same. Every seat
/// sees the performed action.
#[test]
fn ties_are_drawn_from_the_games_stream_and_replay() {
    let rules = fixture("wilds");
    let (b00, f00) = {
        let (_, state, _) = new_game(&rules, 1, 2);
        (state.board.find("B00").unwrap(), state.board.find("F00").unwrap())
    };
    let mut to_b = 0;
    for seed in 1..=400u64 {
        let (mut engine, mut state, _) = new_game(&rules, seed, 2);
        let mut events = Events::recording();
        engine.apply(&mut state, &Action::pass(), &mut events).unwrap();
        let wolf = state.pieces[2].space;
        assert!(wolf == b00 || wolf == f00, "seed {seed}: the wolf went to {wolf}");
        to_b += usize::from(wolf == b00);
        let performed: Vec<Event> =
            events.take().into_iter().filter(|e| matches!(e, Event::Performed { .. })).collect();
        assert_eq!(performed.len(), 1, "seed {seed}: one prowl");
        for seat in 0..2 {
            assert_eq!(performed[0].seen_by(&rules, seat).as_ref(), Some(&performed[0]));
        }
        if seed == 1 {
            let json = meeple_engine::game::render::event_json(&rules, &state, &performed[0]);
            assert_eq!(json["event"], "performed");
            assert_eq!(json["action"], "prowl");
            assert_eq!((&json["who"], &json["seat"]), (&serde_json::json!(3), &serde_json::json!(1)));
        }
        let (mut again, mut replay, _) = new_game(&rules, seed, 2);
        again.apply(&mut replay, &Action::pass(), &mut Events::discard()).unwrap();
        assert_eq!(replay.hash(), state.hash(), "seed {seed}");
    }
    // 400 fair coin flips: 200 ± 3 standard deviations (10 each).
    assert!((170..=230).contains(&to_b), "B00 chosen {to_b} times of 400");
}

/// A seat is never offered an automatic action, and it is listed in no phase.
#[test]
fn an_automatic_action_is_never_offered() {
    let rules = fixture("wilds");
    let (mut engine, state, _) = new_game(&rules, 1, 2);
    let prowl = rules.action_index("prowl").unwrap() as u16;
    let legal = common::legal(&mut engine, &state);
    assert!(!legal.iter().any(|a| a.kind == meeple_engine::game::ActionKind::Rule(prowl)), "{legal:?}");
    assert!(rules.phases.iter().all(|phase| !phase.actions.contains(&prowl)));
}

/// An automatic action that performs itself stops at the depth limit: the action that started
/// it fails, changing nothing.
#[test]
fn performing_without_end_fails_at_the_depth_limit() {
    let data = std::fs::read_to_string(wilds_folder().join("data.toml")).unwrap().replace(
        "effect = [\"who.space = to\"]\nai = {",
        "effect = [\"who.space = to\", \"perform('prowl', who)\"]\nai = {",
    );
    let hooks = std::fs::read(wilds_folder().join("hooks/main.lua")).unwrap();
    let manifest = std::fs::read(wilds_folder().join("mod.toml")).unwrap();
    let folder = common::write_mod(
        "wilds",
        &[("mod.toml", &manifest), ("data.toml", data.as_bytes()), ("hooks/main.lua", &hooks)],
    );
    let rules = common::loaded(&folder);
    std::fs::remove_dir_all(&folder).ok();
    let (mut engine, mut state, _) = new_game(&rules, 1, 2);
    let before = state.hash();
    let error = engine.apply(&mut state, &Action::pass(), &mut Events::discard()).expect_err("endless");
    assert!(error.to_string().contains("automatic actions perform one another at most 8 deep"), "{error}");
    assert_eq!(state.hash(), before);
}

/// `perform` of an action that is not automatic, an automatic action in a phase's list, and
/// an automatic action with `after_roll` choices or `response` are refused where written.
#[test]
fn automatic_actions_are_checked_where_written() {
    let data = r#"
[board]
kind = "graph"
terrain = "plain"
spaces = [{ id = "a" }, { id = "b" }]
links = [["a", "b"]]

[terrain.plain]

[turn]
phases = [{ id = "main", actions = ["roam", "poke"] }]

[actions.drift]
label = "Drift"
automatic = true
response = true
params = [{ name = "to", kind = "space" }]
rolls = { d = "1d6" }
after_roll = [{ name = "then", kind = "space" }]
effect = ["perform('poke')"]

[actions.roam]
label = "Roam"
automatic = true

[actions.poke]
label = "Poke"
effect = ["perform('drfit')"]

[end]
win = "seat.number == 99"
"#;
    let problems = load_data("automatic", data).expect_err("broken");
    for expected in [
        "`roam` is automatic (`automatic = true`): an effect performs it with `perform(\"roam\", …)`; no phase lists it",
        "[actions.drift] key `response`: an automatic action is performed in one go: it takes no `response`",
        "[actions.drift] key `after_roll`: an automatic action is performed in one go: it takes no `after_roll`",
        "`poke` is not automatic: only an action with `automatic = true` is performed by the rules",
        "unknown action `drfit`; did you mean `drift`?",
    ] {
        assert!(problems.contains(expected), "missing {expected:?} in:\n{problems}");
    }
}
