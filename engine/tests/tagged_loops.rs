//! Loops over spaces whose condition starts with `tagged(space, "tag")` skip the other
//! terrains without the evaluator (a fast path): they must give what the same condition written
//! the other way round gives, which goes through the evaluator for every space.

mod common;

use common::{manifest, new_game, write_mod};
use meeple_engine::game::{Action, Events};
use meeple_engine::loader::load_mod;

const BOARD: &str = r#"
[board]
kind = "square"
columns = 6
rows = 3
layout = ["g.g..g", ".gg.g.", "g....g"]
legend = { "." = "plain", "g" = "gold" }

[terrain.plain]
[terrain.gold]
tags = ["rich"]
stats = { worth = 3 }

[vars]
fast_count = -1
slow_count = -1
fast_sum = -1
slow_sum = -1
fast_min = -1
slow_min = -1

[actions.measure]
label = "Measure"
params = [{ name = "from", kind = "space" }]
when = "from.row == 1 and from.column == 1"
effect = [
  "fast_count = count_of(space, tagged(space, 'rich') and space.column > 2)",
  "slow_count = count_of(space, space.column > 2 and tagged(space, 'rich'))",
  "fast_sum = sum_of(space, space.terrain.worth + space.row, tagged(space, 'rich'))",
  "slow_sum = sum_of(space, space.terrain.worth + space.row, space.row > 0 and tagged(space, 'rich'))",
  "fast_min = min_of(space, distance(from, space), tagged(space, 'rich') and distance(from, space) > 1)",
  "slow_min = min_of(space, distance(from, space), distance(from, space) > 1 and tagged(space, 'rich'))",
]

[end]
win = "seat.number == 99"
"#;

#[test]
fn a_loop_led_by_tagged_gives_what_the_evaluator_gives() {
    let manifest = manifest("tagged_loops");
    let folder = write_mod("tagged_loops", &[("mod.toml", manifest.as_bytes()), ("data.toml", BOARD.as_bytes())]);
    let loaded = load_mod(&folder);
    std::fs::remove_dir_all(&folder).ok();
    let rules = loaded.unwrap_or_else(|p| panic!("{p:?}")).ruleset;
    let (mut engine, mut state, _) = new_game(&rules, 1, 2);
    let measure =
        Action::rule(rules.action_index("measure").unwrap() as u16, &[i64::from(state.board.find("A00").unwrap())]);
    engine.apply(&mut state, &measure, &mut Events::discard()).unwrap();
    let var = |id: &str| state.vars[rules.vars.iter().position(|v| v.id == id).unwrap()];
    // Gold: A00 C00 F00 B01 C01 E01 A02 F02. Columns > 2 (from 1: C and on): C00 F00 C01 E01 F02.
    assert_eq!((var("fast_count"), var("slow_count")), (5, 5));
    // Worth 3 each plus the row (from 1 at the top): rows 1, 1, 1, 2, 2, 2, 3, 3 → 24 + 15.
    assert_eq!((var("fast_sum"), var("slow_sum")), (39, 39));
    // From A00, gold squares more than one step away: C00 (2), F00 (5), C01 (2), E01 (4), A02 (2), F02 (5).
    assert_eq!((var("fast_min"), var("slow_min")), (2, 2));
}
