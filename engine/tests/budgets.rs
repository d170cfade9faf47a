//! A phase's budget read and given back by the rules: `used("group")` counts the uses of an
//! action or action group in the current phase, and `refund("group", n)` gives uses back — a
//! card's "one more move". What is given back is spent again like any use, and a use not yet
//! taken cannot be given back.

mod common;

use common::{legal, load_data, new_game};
use meeple_engine::game::{Action, ActionError, ActionKind, Engine, Events, GameState};
use meeple_engine::rules::Ruleset;

/// One runner on a track of six spaces; a phase allows one step (group `stride`: a step or a
/// leap) and any number of hastes, each giving the step back once it is used.
const TRACK: &str = r#"
[board]
kind = "graph"
terrain = "road"
spaces = [{ id = "s0" }, { id = "s1" }, { id = "s2" }, { id = "s3" }, { id = "s4" }, { id = "s5" }]
links = [["s0", "s1"], ["s1", "s2"], ["s2", "s3"], ["s3", "s4"], ["s4", "s5"]]

[terrain.road]

[resources.hastes]
initial = 2

[pieces.runner]

[setup]
effect = ["place('runner', seat(1), space('s0'))", "place('runner', seat(2), space('s5'))"]

[turn]
phases = [{ id = "run", actions = ["step", "leap", "haste"], budget = { stride = 1 } }]

[actions.step]
label = "Step"
group = "stride"
params = [{ name = "who", kind = "piece", owned_by = "me" }, { name = "to", kind = "space", adjacent_to = "who.space" }]
effect = ["who.space = to"]

[actions.leap]
label = "Leap"
group = "stride"
params = [{ name = "who", kind = "piece", owned_by = "me" }, { name = "to", kind = "space", where = "distance(who.space, to) == 2" }]
effect = ["who.space = to"]

[actions.haste]
label = "Haste"
when = "me.hastes > 0 and used('stride') > 0"
effect = ["me.hastes -= 1", "refund('stride', 1)"]

[end]
win = "seat.number == 99"
"#;

fn rule(rules: &Ruleset, id: &str) -> u16 {
    rules.action_index(id).unwrap() as u16
}

/// The action ids the current seat may take now.
fn offered(rules: &Ruleset, engine: &mut Engine, state: &GameState) -> Vec<String> {
    let mut ids: Vec<String> = legal(engine, state)
        .into_iter()
        .filter_map(|a| match a.kind {
            ActionKind::Rule(index) => Some(rules.actions[index as usize].id.clone()),
            _ => None,
        })
        .collect();
    ids.dedup();
    ids
}

fn step_to(rules: &Ruleset, state: &GameState, to: &str) -> Action {
    Action::rule(rule(rules, "step"), &[0, state.board.find(to).unwrap() as i64])
}

#[test]
fn a_refund_gives_a_spent_use_back_once() {
    let rules = load_data("budget_refund", TRACK).unwrap_or_else(|e| panic!("{e}"));
    let (mut engine, mut state, _) = new_game(&rules, 1, 2);
    let mut events = Events::recording();
    assert_eq!(offered(&rules, &mut engine, &state), ["step", "leap"], "nothing used: no haste to play");
    let step = step_to(&rules, &state, "s1");
    engine.apply(&mut state, &step, &mut events).unwrap();
    assert_eq!(offered(&rules, &mut engine, &state), ["haste"], "the stride is spent");
    let step = step_to(&rules, &state, "s2");
    let refused = engine.apply(&mut state, &step, &mut events).unwrap_err();
    assert!(matches!(refused, ActionError::BudgetSpent { .. }), "{refused}");
    engine.apply(&mut state, &Action::rule(rule(&rules, "haste"), &[]), &mut events).unwrap();
    assert_eq!(state.seats[0].resources[0], 1);
    // The use given back is a use of the group: a leap as well as a step.
    assert_eq!(offered(&rules, &mut engine, &state), ["step", "leap"]);
    let leap = Action::rule(rule(&rules, "leap"), &[0, state.board.find("s3").unwrap() as i64]);
    engine.apply(&mut state, &leap, &mut events).unwrap();
    assert_eq!(Some(state.pieces[0].space), state.board.find("s3"));
    assert_eq!(offered(&rules, &mut engine, &state), ["haste"], "spent again");
}

#[test]
fn refund_and_used_name_a_budget_slot() {
    let misspelt =
        TRACK.replace("refund('stride', 1)", "refund('strides', 1)").replace("used('stride')", "used('strid')");
    let text = load_data("budget_misspelt", &misspelt).unwrap_err();
    assert!(
        text.contains("strides") && text.contains("strid") && text.matches("did you mean `stride`").count() == 2,
        "{text}"
    );
    assert!(text.contains("data.toml:"), "located: {text}");
    let unquoted = TRACK.replace("refund('stride', 1)", "refund(stride, 1)");
    let text = load_data("budget_unquoted", &unquoted).unwrap_err();
    assert!(text.contains("the first argument of `refund` is a quoted action or action group"), "{text}");
}
