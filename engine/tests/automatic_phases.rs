//! Automatic phases (`automatic = true`): stages nobody chooses in — a harvest, an upkeep —
//! run their `on_start`, wait for the answers to what they offered, then end by themselves.
//! The mod below: each turn is `harvest` (automatic: every field owned yields 1 to 4 grain),
//! `work` (sow a field, or pass), then `winter` (automatic: a grain is eaten; a seat left with
//! none is offered a compulsory `ration`: it gives up a field for 2 grain).

mod common;

use common::{legal, load_data, new_game};
use meeple_engine::game::{Action, ActionKind, Engine, Event, Events, GameState};
use meeple_engine::rules::Ruleset;

const SEASONS: &str = r#"
[board]
kind = "graph"
terrain = "field"
spaces = [{ id = "a", home = 0 }, { id = "b" }, { id = "c" }, { id = "d", home = 1 }]
links = [["a", "b"], ["b", "c"], ["c", "d"]]

[terrain.field]
stats = { grain_low = 1, grain_high = 4 }

[resources.grain]
min = -10

[setup]
effect = ["space('a').owner = seat(1)", "space('d').owner = seat(2)"]

[turn]
phases = [
  { id = "harvest", automatic = true, on_start = [
    { for_each = "space", where = "space.owner == me", do = ["me.grain += random(space.terrain.grain_low, space.terrain.grain_high)"] },
  ] },
  { id = "work", actions = ["sow"] },
  { id = "winter", automatic = true, on_start = [
    "me.grain -= 1",
    { if = "me.grain <= 0 and owned(me) > 0", then = ["offer('ration', me)"] },
  ] },
]

[actions.sow]
label = "Sow"
params = [{ name = "to", kind = "space", where = "to.owner == none" }]
when = "me.grain >= 3"
effect = ["me.grain -= 3", "to.owner = me"]

[actions.ration]
label = "Ration"
response = true
may_decline = false
params = [{ name = "field", kind = "space", owned_by = "me" }]
effect = ["field.owner = none", "me.grain += 2"]

[end]
win = "seat.number == 99"
"#;

fn phase(rules: &Ruleset, state: &GameState) -> String {
    rules.phases[state.turn.phase as usize].id.clone()
}

fn grain(rules: &Ruleset, state: &GameState, seat: usize) -> i64 {
    state.seats[seat].resources[rules.resources.iter().position(|r| r.id == "grain").unwrap()]
}

fn apply(engine: &mut Engine, state: &mut GameState, action: &Action) -> Vec<Event> {
    let mut events = Events::recording();
    engine.apply(state, action, &mut events).unwrap_or_else(|e| panic!("{action:?}: {e}"));
    events.take()
}

#[test]
fn an_automatic_phase_runs_and_ends_by_itself() {
    let rules = load_data("seasons", SEASONS).unwrap();
    let (mut engine, mut state, mut events) = new_game(&rules, 1, 2);
    // The harvest ran and ended: the first seat is at work with its yield.
    assert_eq!((state.to_act(), phase(&rules, &state)), (0, "work".into()));
    let first_yield = grain(&rules, &state, 0);
    assert!((1..=4).contains(&first_yield), "{first_yield}");
    let phases: Vec<u16> = events
        .take()
        .iter()
        .filter_map(|e| if let Event::PhaseStarted { phase } = e { Some(*phase) } else { None })
        .collect();
    assert_eq!(phases, [0, 1], "the log names the harvest, then the work");
    // At work only sowing and passing are offered; nothing is ever offered in the harvest.
    let offered: Vec<ActionKind> = legal(&mut engine, &state).iter().map(|a| a.kind).collect();
    assert!(offered.iter().all(|k| matches!(k, ActionKind::Pass | ActionKind::Rule(_))));
    // Passing the work runs the winter (a grain eaten) and, with grain left, the next turn's
    // harvest: the second seat is at work.
    let events = apply(&mut engine, &mut state, &Action::pass());
    assert_eq!(grain(&rules, &state, 0), first_yield - 1);
    assert_eq!((state.to_act(), phase(&rules, &state)), (1, "work".into()));
    let started: Vec<String> = events
        .iter()
        .filter_map(|e| {
            if let Event::PhaseStarted { phase } = e { Some(rules.phases[*phase as usize].id.clone()) } else { None }
        })
        .collect();
    assert_eq!(started, ["winter", "harvest", "work"]);
}

#[test]
fn an_automatic_phase_waits_for_the_answer_to_its_offer() {
    let rules = load_data("seasons", SEASONS).unwrap();
    // A seed whose first harvest is a single grain: winter eats it and offers the ration.
    let (mut engine, mut state) = (1..200)
        .map(|seed| {
            let (engine, state, _) = new_game(&rules, seed, 2);
            (engine, state)
        })
        .find(|(_, state)| grain(&rules, state, 0) == 1)
        .expect("some seed yields 1");
    apply(&mut engine, &mut state, &Action::pass());
    assert_eq!(phase(&rules, &state), "winter", "the winter waits");
    assert_eq!(state.to_act(), 0, "for the first seat's answer");
    let answers = legal(&mut engine, &state);
    let ration = rules.action_index("ration").unwrap() as u16;
    assert!(!answers.is_empty() && answers.iter().all(|a| a.kind == ActionKind::Rule(ration)), "{answers:?}");
    apply(&mut engine, &mut state, &answers[0]);
    assert_eq!(grain(&rules, &state, 0), 2, "0 + 2 for the field given up");
    assert_eq!((state.to_act(), phase(&rules, &state)), (1, "work".into()), "then the winter ends by itself");
}

#[test]
fn the_harvest_yields_each_amount_of_its_range_alike() {
    let rules = load_data("seasons", SEASONS).unwrap();
    let mut counts = [0u32; 5];
    let games = 4_000;
    for seed in 0..games {
        let (_, state, _) = new_game(&rules, seed, 2);
        counts[grain(&rules, &state, 0) as usize] += 1;
    }
    assert_eq!(counts[0], 0);
    // Each of 1..4 a quarter of the time: 1,000 expected, 4.4 standard deviations is ±120.
    for (amount, &count) in counts.iter().enumerate().skip(1) {
        assert!((880..=1120).contains(&count), "{amount} grain {count} times of {games}");
    }
}

#[test]
fn choices_written_into_an_automatic_phase_and_turns_with_no_choice_are_refused() {
    let listed = SEASONS
        .replace(r#"{ id = "harvest", automatic = true,"#, r#"{ id = "harvest", automatic = true, actions = ["sow"],"#);
    let found = load_data("seasons", &listed).unwrap_err();
    assert!(
        found.contains(
            "[turn.phases[0]] key `actions`: an `automatic` phase offers no choice, so it takes no `actions`"
        ),
        "{found}"
    );
    let idle = SEASONS.replace(r#"{ id = "work", actions = ["sow"] },"#, "");
    let found = load_data("seasons", &idle).unwrap_err();
    assert!(found.contains("every phase is `automatic`: the turn would never give a seat a choice"), "{found}");
}
