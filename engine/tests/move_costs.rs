//! What a piece kind pays for each terrain (`[pieces.<id>] move_costs`) on the walks it is the
//! walker of: a `reachable_from` parameter's `walker`, `walk_distance(a, b, walker)`. A corridor
//! A00–E00 of plain, forest, forest, water, plain: soldiers pay 2 for forest and cannot enter
//! water; rangers pay 1 for forest and 2 for water, which nobody else may enter; a walk with no
//! walker pays each terrain's own `move_cost` (forest 3).

mod common;

use common::{legal, load_data, new_game};
use meeple_engine::game::ActionKind;

const CORRIDOR: &str = r#"
[board]
kind = "square"
columns = 5
rows = 1
layout = ["pffwp"]
legend = { p = "plain", f = "forest", w = "water" }

[terrain.plain]
[terrain.forest]
move_cost = 3
[terrain.water]
passable = false

[pieces.soldier]
move_costs = { forest = 2, water = 0 }
[pieces.ranger]
move_costs = { forest = 1, water = 2 }

[vars]
soldier_way = 0
ranger_way = 0
way_on_foot = 0

# The ways to the end of the corridor, as each walker and a walk with none reckon them.
[setup]
effect = [
  "place('soldier', seat(1), space('A00'))", "place('ranger', seat(1), space('A00'))",
  { for_each = "piece", where = "piece.kind == 'soldier'", do = ["soldier_way = walk_distance(piece.space, space('E00'), piece)"] },
  { for_each = "piece", where = "piece.kind == 'ranger'", do = ["ranger_way = walk_distance(piece.space, space('E00'), piece)"] },
  "way_on_foot = walk_distance(space('A00'), space('E00'))",
]

[actions.march]
label = "March"
params = [
  { name = "who", kind = "piece", owned_by = "me" },
  { name = "to", kind = "space", reachable_from = "who.space", steps = "4", walker = "who" },
]
effect = ["who.space = to"]

[actions.stroll]
label = "Stroll"
params = [
  { name = "who", kind = "piece", owned_by = "me" },
  { name = "to", kind = "space", reachable_from = "who.space", steps = "4" },
]
effect = ["who.space = to"]

[end]
win = "seat.number == 99"
"#;

/// Where `action` takes the piece of kind `kind` from A00.
fn destinations(action: &str, kind: &str) -> Vec<String> {
    let rules = load_data("corridor", CORRIDOR).unwrap();
    let (mut engine, state, _) = new_game(&rules, 1, 2);
    let wanted = rules.action_index(action).unwrap() as u16;
    let walker = state.pieces.iter().position(|p| rules.piece_kinds[p.kind as usize].id == kind).unwrap() as i64;
    legal(&mut engine, &state)
        .into_iter()
        .filter(|a| a.kind == ActionKind::Rule(wanted) && a.args[0] == walker)
        .map(|a| state.board.space(a.args[1] as u32).label.clone())
        .collect()
}

#[test]
fn each_kind_pays_its_own_costs_on_its_walks() {
    assert_eq!(destinations("march", "soldier"), ["B00", "C00"], "forest at 2 twice, never into water");
    assert_eq!(destinations("march", "ranger"), ["B00", "C00", "D00"], "forest at 1, water at 2");
    for kind in ["soldier", "ranger"] {
        assert_eq!(destinations("stroll", kind), ["B00"], "no walker: the forest's own 3");
    }
}

#[test]
fn walk_distance_prices_the_walk_for_its_walker() {
    let rules = load_data("corridor", CORRIDOR).unwrap();
    let (_, state, _) = new_game(&rules, 1, 2);
    let var = |id: &str| state.vars[rules.vars.iter().position(|v| v.id == id).unwrap()];
    assert_eq!(var("ranger_way"), 1 + 1 + 2 + 1);
    assert_eq!(var("soldier_way"), -1, "no way past the water");
    assert_eq!(var("way_on_foot"), -1, "water is impassable to a walk with no walker");
}

#[test]
fn costs_no_walk_pays_and_walkers_without_a_walk_are_refused_where_written() {
    let unused = CORRIDOR.replace(", walker = \"who\"", "").replace(", piece)\"", ")\"");
    let found = load_data("corridor", &unused).unwrap_err();
    assert!(
        found.contains("data.toml:16:14: error: [pieces.soldier] key `move_costs`: no walk has a walker")
            && found.contains("[pieces.ranger] key `move_costs`: no walk has a walker"),
        "{found}"
    );
    let stray =
        CORRIDOR.replace("steps = \"4\" }", "steps = \"4\" }, { name = \"x\", kind = \"space\", walker = \"who\" }");
    let found = load_data("corridor", &stray).unwrap_err();
    assert!(
        found.contains("data.toml:46:118: error: [actions.stroll.params[2]] key `walker`: `walker` is about a `reachable_from` walk"),
        "{found}"
    );
    let not_a_piece = CORRIDOR.replace("walker = \"who\"", "walker = \"who.space\"");
    let found = load_data("corridor", &not_a_piece).unwrap_err();
    assert!(
        found.contains(
            "data.toml:38:87: error: [actions.march.params[1]] key `walker`: expected a piece, found a space"
        ),
        "{found}"
    );
}
