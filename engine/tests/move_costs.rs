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

/// A holder walks at the pace of what is inside it: each terrain costs the most any kind inside
/// pays, and a terrain any of them cannot enter stops it. Empty, it walks as its own kind. A
/// band on A00: empty, it pays the terrain's own costs; with a ranger inside, the ranger's; with
/// a soldier too, the soldier's forest and no water. `walk_distance` follows each change.
#[test]
fn a_holder_walks_at_the_pace_of_the_slowest_inside() {
    let data = CORRIDOR
        .replace(
            "[vars]",
            r#"[pieces.band]
capacity = 2

[actions.join]
label = "Join"
params = [
  { name = "who", kind = "piece", owned_by = "me", where = "who.kind != 'band' and who.inside == none" },
  { name = "band", kind = "piece", owned_by = "me", where = "band.kind == 'band'" },
]
effect = ["who.inside = band"]

[actions.measure]
label = "Measure"
params = [{ name = "band", kind = "piece", owned_by = "me", where = "band.kind == 'band'" }]
effect = ["band_way = walk_distance(band.space, space('E00'), band)"]

[vars]
band_way = 0"#,
        )
        .replace("[setup]\neffect = [", "[setup]\neffect = [\"place('band', seat(1), space('A00'))\", ");
    let rules = load_data("corridor", &data).unwrap_or_else(|p| panic!("{p}"));
    let (mut engine, mut state, _) = new_game(&rules, 1, 2);
    let index = |id: &str| rules.action_index(id).unwrap() as u16;
    let kind_of = |id: &str| rules.piece_kinds.iter().position(|k| k.id == id).unwrap() as u16;
    let piece_of = |state: &meeple_engine::game::GameState, id: &str| {
        state.pieces.iter().position(|p| p.kind == kind_of(id)).unwrap() as i64
    };
    let band = piece_of(&state, "band");
    let band_walks = |engine: &mut meeple_engine::game::Engine, state: &mut meeple_engine::game::GameState| {
        let ends: Vec<String> = legal(engine, state)
            .into_iter()
            .filter(|a| a.kind == ActionKind::Rule(index("march")) && a.args[0] == band)
            .map(|a| state.board.space(a.args[1] as u32).label.clone())
            .collect();
        let measure = meeple_engine::game::Action::rule(index("measure"), &[band]);
        engine.apply(state, &measure, &mut meeple_engine::game::Events::discard()).unwrap();
        (ends, state.vars[rules.var_index("band_way").unwrap()])
    };
    assert_eq!(band_walks(&mut engine, &mut state), (vec!["B00".to_string()], -1), "empty: the forest's own 3");
    let join = |who: i64| meeple_engine::game::Action::rule(index("join"), &[who, band]);
    let ranger = piece_of(&state, "ranger");
    engine.apply(&mut state, &join(ranger), &mut meeple_engine::game::Events::discard()).unwrap();
    let ranger_pace = band_walks(&mut engine, &mut state);
    assert_eq!(ranger_pace, (vec!["B00".into(), "C00".into(), "D00".into()], 1 + 1 + 2 + 1), "the ranger's pace");
    let soldier = piece_of(&state, "soldier");
    engine.apply(&mut state, &join(soldier), &mut meeple_engine::game::Events::discard()).unwrap();
    assert_eq!(band_walks(&mut engine, &mut state), (vec!["B00".into(), "C00".into()], -1), "the soldier's pace");
}

/// A holder that gives `move_costs` of its own walks no faster than they allow, whatever it
/// holds: a cart (forest 4, water 1) with a ranger inside (forest 1, water 2) pays the most of
/// both on each terrain. Empty: forest 4 + 4, water 1, plain 1 to E00; with the ranger: water
/// costs the ranger's 2.
#[test]
fn a_holder_with_its_own_costs_walks_no_faster_than_they_allow() {
    let data = CORRIDOR
        .replace(
            "[vars]",
            r#"[pieces.cart]
capacity = 1
move_costs = { forest = 4, water = 1 }

[actions.load]
label = "Load"
params = [
  { name = "who", kind = "piece", owned_by = "me", where = "who.kind == 'ranger'" },
  { name = "cart", kind = "piece", owned_by = "me", where = "cart.kind == 'cart' and inside_count(cart) == 0" },
]
effect = ["who.inside = cart"]

[actions.measure]
label = "Measure"
params = [{ name = "cart", kind = "piece", owned_by = "me", where = "cart.kind == 'cart'" }]
effect = ["cart_way = walk_distance(cart.space, space('E00'), cart)"]

[vars]
cart_way = 0"#,
        )
        .replace("[setup]\neffect = [", "[setup]\neffect = [\"place('cart', seat(1), space('A00'))\", ");
    let rules = load_data("corridor", &data).unwrap_or_else(|p| panic!("{p}"));
    let (mut engine, mut state, _) = new_game(&rules, 1, 2);
    let index = |id: &str| rules.action_index(id).unwrap() as u16;
    let kind_of = |id: &str| rules.piece_kinds.iter().position(|k| k.id == id).unwrap() as u16;
    let cart = state.pieces.iter().position(|p| p.kind == kind_of("cart")).unwrap() as i64;
    let ranger = state.pieces.iter().position(|p| p.kind == kind_of("ranger")).unwrap() as i64;
    let cart_way = |engine: &mut meeple_engine::game::Engine, state: &mut meeple_engine::game::GameState| {
        let measure = meeple_engine::game::Action::rule(index("measure"), &[cart]);
        engine.apply(state, &measure, &mut meeple_engine::game::Events::discard()).unwrap();
        state.vars[rules.var_index("cart_way").unwrap()]
    };
    assert_eq!(cart_way(&mut engine, &mut state), 4 + 4 + 1 + 1, "empty: the cart's own costs");
    let load = meeple_engine::game::Action::rule(index("load"), &[ranger, cart]);
    engine.apply(&mut state, &load, &mut meeple_engine::game::Events::discard()).unwrap();
    assert_eq!(cart_way(&mut engine, &mut state), 4 + 4 + 2 + 1, "the cart's forest and the ranger's water");
}
