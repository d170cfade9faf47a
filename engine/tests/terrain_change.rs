//! A space's terrain changed in play (`space.terrain = 'marsh'`): from then on everything that
//! reads terrain reads the new one — walks and their cached costs, sight, yields, conditions —
//! the change is an event every seat sees, and it is part of the state saves and replays keep.
//! A mistaken assignment is refused at load with its location.

mod common;

use common::{legal, load_data, new_game};
use meeple_engine::game::{Action, ActionKind, Events, GameState};
use meeple_engine::rules::Ruleset;

/// A corridor A00–E00 of meadow; flooding a meadow makes it marsh, which costs 3 to enter and
/// yields nothing. A walker at A00 walks 3 points a turn.
const CORRIDOR: &str = r#"
[board]
kind = "square"
columns = 5
rows = 1
layout = ["mmmmm"]
legend = { m = "meadow" }

[terrain.meadow]
stats = { grass = 2 }
[terrain.marsh]
move_cost = 3
stats = { grass = 0 }

[pieces.walker]

[resources.hay]

[vars]
way = 0

[setup]
effect = ["place('walker', seat(1), space('A00'))", "way = walk_distance(space('A00'), space('E00'))"]

[turn]
phases = [{ id = "main", actions = ["walk", "flood", "mow", "measure"] }]

[actions.walk]
label = "Walk"
params = [
  { name = "who", kind = "piece", owned_by = "me" },
  { name = "to", kind = "space", reachable_from = "who.space", steps = "3" },
]
effect = ["who.space = to"]

[actions.flood]
label = "Flood"
params = [{ name = "at", kind = "space", where = "at.terrain == 'meadow'" }]
effect = ["at.terrain = 'marsh'"]

[actions.mow]
label = "Mow"
effect = [{ for_each = "space", do = ["me.hay += space.terrain.grass"] }]

[actions.measure]
label = "Measure"
effect = ["way = walk_distance(space('A00'), space('E00'))"]

[end]
win = "seat.number == 99"
"#;

fn act(rules: &Ruleset, id: &str, args: &[i64]) -> Action {
    Action::rule(rules.action_index(id).unwrap() as u16, args)
}

fn at(state: &GameState, label: &str) -> i64 {
    state.board.find(label).unwrap() as i64
}

/// Where the walker may walk now.
fn walks(rules: &Ruleset, engine: &mut meeple_engine::game::Engine, state: &GameState) -> Vec<String> {
    let walk = rules.action_index("walk").unwrap() as u16;
    legal(engine, state)
        .into_iter()
        .filter(|a| a.kind == ActionKind::Rule(walk))
        .map(|a| state.board.space(a.args[1] as u32).label.clone())
        .collect()
}

#[test]
fn a_flooded_space_is_marsh_for_every_rule_that_reads_terrain() {
    let rules = load_data("flooding", CORRIDOR).unwrap_or_else(|e| panic!("{e}"));
    let (mut engine, mut state, _) = new_game(&rules, 1, 2);
    let mut events = Events::recording();
    let way = rules.var_index("way").unwrap();
    assert_eq!(state.vars[way], 4, "four meadows from A00 to E00");
    assert_eq!(walks(&rules, &mut engine, &state), ["B00", "C00", "D00"]);

    let flood_b = act(&rules, "flood", &[at(&state, "B00")]);
    engine.apply(&mut state, &flood_b, &mut events).unwrap();
    let marsh = rules.terrain_index("marsh").unwrap() as u16;
    assert_eq!(state.board.space(at(&state, "B00") as u32).terrain, marsh);
    // The walk pays 3 for the marsh: B00 only (the cached costs of the meadow are not reused).
    assert_eq!(walks(&rules, &mut engine, &state), ["B00"]);
    engine.apply(&mut state, &act(&rules, "measure", &[]), &mut events).unwrap();
    assert_eq!(state.vars[way], 6, "3 for the marsh and 1 for each of three meadows");
    // Yields read the new terrain: four meadows of 2 grass, a marsh of none.
    engine.apply(&mut state, &act(&rules, "mow", &[]), &mut events).unwrap();
    assert_eq!(state.seats[0].resources[0], 8);
    // The condition reads it too: B00 cannot be flooded again.
    let err = engine.apply(&mut state, &flood_b, &mut events).unwrap_err();
    assert!(err.to_string().contains("`at` does not satisfy its condition"), "{err}");

    // Every seat sees the change, named.
    let seen: Vec<_> = events
        .take()
        .iter()
        .filter(|e| matches!(e, meeple_engine::game::Event::TerrainChanged { .. }))
        .map(|e| meeple_engine::game::render::event_json(&rules, &state, e).to_string())
        .collect();
    assert_eq!(seen, [r#"{"event":"terrain_changed","from":"meadow","space":"B00","to":"marsh"}"#]);
}

#[test]
fn a_changed_terrain_is_kept_by_saves_and_replays() {
    let rules = load_data("flooding_saved", CORRIDOR).unwrap_or_else(|e| panic!("{e}"));
    let (mut engine, mut state, _) = new_game(&rules, 1, 2);
    let untouched = state.clone();
    let actions = [act(&rules, "flood", &[at(&state, "C00")]), act(&rules, "flood", &[at(&state, "D00")])];
    for action in &actions {
        engine.apply(&mut state, action, &mut Events::discard()).unwrap();
    }
    assert_ne!(state.hash_hex(), untouched.hash_hex(), "the terrain is part of the state");
    assert_eq!(untouched.board.space(at(&untouched, "C00") as u32).terrain, 0, "a state before it is unchanged");

    // The same actions again give the same state.
    let (mut engine, mut again, _) = new_game(&rules, 1, 2);
    for action in &actions {
        engine.apply(&mut again, action, &mut Events::discard()).unwrap();
    }
    assert_eq!(again.hash_hex(), state.hash_hex());
    // Written and read back, the marshes stay marshes.
    let text = serde_json::to_string(&state).unwrap();
    let read: GameState = serde_json::from_str(&text).unwrap();
    assert_eq!(read.hash_hex(), state.hash_hex());
    assert_eq!(walks(&rules, &mut engine, &read), ["B00"], "the marsh at C00 would take 1 + 3 of 3 points");
}

#[test]
fn assigning_terrain_wrongly_is_refused_where_it_is_written() {
    let misspelt = CORRIDOR.replace("at.terrain = 'marsh'", "at.terrain = 'mursh'");
    let text = load_data("flooding_misspelt", &misspelt).unwrap_err();
    assert!(text.contains("mursh") && text.contains("did you mean `marsh`"), "{text}");
    assert!(text.contains("data.toml:"), "located: {text}");
    let added = CORRIDOR.replace("at.terrain = 'marsh'", "at.terrain += 1");
    let text = load_data("flooding_added", &added).unwrap_err();
    assert!(text.contains("`+=` and `-=` need a number"), "{text}");
}
