//! Battles that last: a battle is rules, not an engine concept — stats on the bands in it, a
//! round fought by a hook at the start of the attacker's turns — and the engine gives the hook
//! what pairing needs: `game.spread` (a larger group over a smaller one, as evenly as can be,
//! at random) and `game.shuffle`, both drawing from the game's stream. The fixture `siege`.

mod common;

use std::path::Path;

use common::{fixture, new_game};
use meeple_engine::game::{Action, Events};

fn siege_folder() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/siege")
}

#[test]
fn the_fixtures_scenario_tests_pass() {
    let rules = fixture("siege");
    let file = siege_folder().join("tests/siege.lua");
    let results = meeple_engine::scenario::run_mod_tests(&rules, &[file], &[], None);
    assert_eq!(results.len(), 4);
    for result in &results {
        assert!(result.failure.is_none(), "{}: {:?}", result.name, result.failure);
    }
}

/// A battle over two turns replays to the same state from the same seed, and the pairing
/// differs between seeds (the same seed always draws the same).
#[test]
fn a_battle_over_turns_replays_and_its_pairing_follows_the_seed() {
    let rules = fixture("siege");
    let advance = Action::rule(rules.action_index("advance").unwrap() as u16, &[0, 1]);
    let play = |seed: u64| {
        let (mut engine, mut state, _) = new_game(&rules, seed, 2);
        for action in [advance, Action::pass(), Action::pass()] {
            engine.apply(&mut state, &action, &mut Events::discard()).unwrap();
        }
        state
    };
    let mut survivors = std::collections::BTreeSet::new();
    for seed in 1..=30 {
        let state = play(seed);
        assert_eq!(state.hash(), play(seed).hash(), "seed {seed}");
        survivors.insert((1..=3).filter(|&unit| state.pieces[unit].alive).collect::<Vec<_>>());
    }
    assert!(survivors.len() > 1, "the pairing never changed with the seed: {survivors:?}");
}

/// `game.spread` of n items over m targets, for every n and m from 1 to 10: every item gets a
/// target, the loads differ by at most 1, and every target gets one when n ≥ m. A hook checks
/// each split and fails the action if one is wrong.
#[test]
fn spread_is_as_even_as_can_be_for_every_split() {
    let hooks = r#"
function check(n, m)
  local items, onto = {}, {}
  for i = 1, n do items[i] = 100 + i end
  for j = 1, m do onto[j] = 200 + j end
  local targets = game.spread(items, onto)
  local loads = {}
  for j = 1, m do loads[200 + j] = 0 end
  assert(#targets == n, "every item gets a target")
  for i = 1, n do loads[targets[i]] = loads[targets[i]] + 1 end
  local low, high = math.huge, 0
  for _, load in pairs(loads) do low = math.min(low, load); high = math.max(high, load) end
  assert(high - low <= 1, "loads " .. low .. " to " .. high .. " for " .. n .. " over " .. m)
  local shuffled = game.shuffle(items)
  table.sort(shuffled)
  for i = 1, n do assert(shuffled[i] == items[i], "a shuffle keeps every value") end
end
"#;
    let data = r#"
[board]
kind = "graph"
terrain = "field"
spaces = [{ id = "a" }]
links = []

[terrain.field]

[actions.check]
label = "Check"
params = [{ name = "n", kind = "number", min = "1", max = "10" }, { name = "m", kind = "number", min = "1", max = "10" }]
effect = ["hook('check', n, m)"]

[end]
win = "seat.number == 99"
"#;
    let manifest = common::manifest("spread");
    let folder = common::write_mod(
        "spread",
        &[("mod.toml", manifest.as_bytes()), ("data.toml", data.as_bytes()), ("hooks/main.lua", hooks.as_bytes())],
    );
    let rules = common::loaded(&folder);
    std::fs::remove_dir_all(&folder).ok();
    let (mut engine, mut state, _) = new_game(&rules, 1, 2);
    let check = rules.action_index("check").unwrap() as u16;
    for n in 1..=10 {
        for m in 1..=10 {
            for _ in 0..5 {
                engine
                    .apply(&mut state, &Action::rule(check, &[n, m]), &mut Events::discard())
                    .unwrap_or_else(|e| panic!("{n} over {m}: {e}"));
            }
        }
    }
}
