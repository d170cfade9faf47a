//! Walks that pieces block: a `reachable_from` parameter's `through` condition, read for each
//! space, decides which spaces the walk may enter — on its way or at its end.

mod common;

use common::{legal, manifest, new_game, write_mod};
use meeple_engine::game::ActionKind;
use meeple_engine::loader::load_mod;

/// A corridor A00–G00: red's runner on A00 and its guard on B00, blue's brute on D00; the
/// walk goes through red's pieces but not blue's, and ends on an empty square.
const CORRIDOR: &str = r#"
[board]
kind = "square"
columns = 7
rows = 1
terrain = "floor"

[terrain.floor]

[pieces.runner]
[pieces.guard]
[pieces.brute]

[seats]
sides = [{ id = "red" }, { id = "blue" }]

[setup]
effect = [
  "place('runner', seat(1), space('A00'))",
  "place('guard', seat(1), space('B00'))",
  "place('brute', seat(2), space('D00'))",
]

[actions.run]
label = "Run"
params = [
  { name = "who", kind = "piece", owned_by = "me", where = "who.kind == \"runner\"" },
  { name = "to", kind = "space", reachable_from = "who.space", steps = "5", THROUGH where = "pieces_at(to) == 0" },
]
effect = ["who.space = to"]

[end]
win = "seat.number == 99"
"#;

fn destinations(through: &str) -> Vec<String> {
    let data = CORRIDOR.replace("THROUGH ", through);
    let id = if through.is_empty() { "walk_open" } else { "walk_through" };
    let manifest = manifest(id);
    let folder = write_mod(id, &[("mod.toml", manifest.as_bytes()), ("data.toml", data.as_bytes())]);
    let loaded = load_mod(&folder);
    std::fs::remove_dir_all(&folder).ok();
    let rules =
        loaded.unwrap_or_else(|p| panic!("{}", p.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("\n"))).ruleset;
    let (mut engine, state, _) = new_game(&rules, 1, 2);
    legal(&mut engine, &state)
        .into_iter()
        .filter(|a| matches!(a.kind, ActionKind::Rule(_)))
        .map(|a| state.board.space(a.args[1] as u32).label.clone())
        .collect()
}

#[test]
fn through_lets_a_walk_pass_friends_and_stops_it_at_enemies() {
    assert_eq!(destinations(""), ["C00", "E00", "F00"], "without `through` every piece is walked past");
    let through = "through = \"count_of(piece, piece.space == space and piece.owner != me) == 0\", ";
    assert_eq!(destinations(through), ["C00"], "past the guard; the brute on D00 closes the corridor");
}

/// The squares a one-square step from A00 reaches on a 3×3 eight-neighbour grid with `walls`.
fn one_step_from_a00(walls: &str) -> Vec<String> {
    let data = format!(
        "[board]\nkind = \"square\"\ncolumns = 3\nrows = 3\nneighbours = 8\nterrain = \"floor\"\nwalls = [{walls}]\n\n\
         [terrain.floor]\n[terrain.stone]\npassable = false\n\n[pieces.runner]\n\n\
         [setup]\neffect = [\"place('runner', seat(1), space('A00'))\"]\n\n\
         [actions.step]\nlabel = \"Step\"\nparams = [\n  {{ name = \"who\", kind = \"piece\", owned_by = \"me\" }},\n  \
         {{ name = \"to\", kind = \"space\", reachable_from = \"who.space\", steps = \"1\" }},\n]\neffect = [\"who.space = to\"]\n\n\
         [end]\nwin = \"seat.number == 99\"\n"
    );
    let manifest = manifest("corner_step");
    let folder = write_mod("corner_step", &[("mod.toml", manifest.as_bytes()), ("data.toml", data.as_bytes())]);
    let loaded = load_mod(&folder);
    std::fs::remove_dir_all(&folder).ok();
    let rules =
        loaded.unwrap_or_else(|p| panic!("{}", p.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("\n"))).ruleset;
    let (mut engine, state, _) = new_game(&rules, 1, 2);
    let mut reached: Vec<String> = legal(&mut engine, &state)
        .into_iter()
        .filter(|a| matches!(a.kind, ActionKind::Rule(_)))
        .map(|a| state.board.space(a.args[1] as u32).label.clone())
        .collect();
    reached.sort();
    reached
}

#[test]
fn a_diagonal_step_cuts_no_wall_corner() {
    let wall = |a: &str, b: &str| format!("{{ between = [\"{a}\", \"{b}\"], kind = \"stone\" }}");
    assert_eq!(one_step_from_a00(""), ["A01", "B00", "B01"]);
    assert_eq!(
        one_step_from_a00(&wall("A00", "B00")),
        ["A01", "B01"],
        "one wall ending at the corner: round it by A01"
    );
    let straight = format!("{}, {}", wall("A00", "B00"), wall("A01", "B01"));
    assert_eq!(one_step_from_a00(&straight), ["A01"], "a straight wall through the corner closes the diagonal");
    let corner = format!("{}, {}", wall("A00", "B00"), wall("A00", "A01"));
    assert!(one_step_from_a00(&corner).is_empty(), "an L closing A00 in");
    let far_side = format!("{}, {}", wall("B00", "B01"), wall("A01", "B01"));
    assert_eq!(one_step_from_a00(&far_side), ["A01", "B00"], "an L closing B01 in");
}

/// The fixture `trek`: a bridge priced by `enter_cost`, a walk that `stops` on an enemy's
/// square, and `walk_spent` read by the effects after the walker has moved.
#[test]
fn walks_priced_by_the_board_stop_at_enemies_and_say_what_they_spent() {
    let rules = common::fixture("trek");
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/trek/tests/trek.lua");
    let results = meeple_engine::scenario::run_mod_tests(&rules, &[file], &[], None);
    assert_eq!(results.len(), 3);
    for result in &results {
        assert!(result.failure.is_none(), "{}: {:?}", result.name, result.failure);
    }
}

/// `walk_spent` names a walk parameter and is read in effects only; `enter_cost` and `stops`
/// are about a walk. Each mistake is refused where written.
#[test]
fn walk_keys_and_walk_spent_are_checked_where_written() {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/trek");
    let data = std::fs::read_to_string(folder.join("data.toml"))
        .unwrap()
        .replace("\"who.mp -= walk_spent(to)\"", "\"who.mp -= walk_spent(too)\"")
        .replace(
            "[actions.bridge]\nlabel = \"Bridge\"\nparams = [{ name = \"at\", kind = \"space\",",
            "[actions.bridge]\nlabel = \"Bridge\"\nwhen = \"walk_spent(at) > 0\"\nparams = [{ name = \"at\", kind = \"space\", stops = \"true\",",
        );
    let manifest = std::fs::read(folder.join("mod.toml")).unwrap();
    let written = write_mod("trek", &[("mod.toml", &manifest), ("data.toml", data.as_bytes())]);
    let problems: Vec<String> = common::problems(&written).iter().map(|p| p.to_string()).collect();
    std::fs::remove_dir_all(&written).ok();
    let problems = problems.join("\n");
    for expected in [
        "[actions.hike] key `effect[1]`: `too` is not a parameter filled by a walk (`reachable_from`); did you mean `to`?",
        "[actions.bridge] key `when`: `walk_spent` is known only in effects",
        "[actions.bridge.params[0]] key `stops`: `stops` is about a `reachable_from` walk",
    ] {
        assert!(problems.contains(expected), "missing {expected:?} in:\n{problems}");
    }
}
