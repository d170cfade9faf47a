//! Odds over dice a Lua hook draws: `expect` and `chance(condition)` run the hook once for each
//! combination of its `game.roll`/`game.random` draws (exact, remembered), or sample it from a
//! seeded stream of their own when the combinations are too many, and say how far the figure may
//! then be off. The fixture mod `hook_odds` has one action per case.

mod common;

use meeple_engine::game::{Action, ActionKind, Engine, Figure, GameState, MAX_PARAMS, Method};
use meeple_engine::rules::Ruleset;

fn action(rules: &Ruleset, id: &str, args: &[i64]) -> Action {
    let mut action = Action { kind: ActionKind::Rule(rules.action_index(id).unwrap() as u16), args: [0; MAX_PARAMS] };
    action.args[..args.len()].copy_from_slice(args);
    action
}

fn figure<'a>(figures: &'a [Figure], label: &str) -> &'a Figure {
    figures.iter().find(|f| f.label == label).unwrap_or_else(|| panic!("no `{label}` in {figures:?}"))
}

fn start() -> (std::sync::Arc<Ruleset>, Engine, GameState) {
    let rules = common::fixture("hook_odds");
    let (engine, state, _) = common::new_game(&rules, 7, 2);
    (rules, engine, state)
}

/// One die through a table (the grazing sniper rifle): six runs of the hook give the exact
/// chance, 4/6, and mean, 160/6, and a figure built on `expect` is exact too.
#[test]
fn a_hook_drawing_one_die_gives_exact_odds() {
    let (rules, mut engine, state) = start();
    let figures = engine.preview(&state, &action(&rules, "graze", &[])).unwrap();
    let chance = figure(&figures, "Chance to hit");
    assert!((chance.value - 4.0 / 6.0).abs() < 1e-12, "{chance:?}");
    assert_eq!(chance.method, Method::Exact);
    let mean = figure(&figures, "Expected damage");
    assert!((mean.value - 160.0 / 6.0).abs() < 1e-12, "{mean:?}");
    assert_eq!(mean.method, Method::Exact);
    assert!((figure(&figures, "Expected double").value - 320.0 / 6.0).abs() < 1e-12);
}

/// Two bullets that hit on 4+ and roll again per hit: 441 combinations, enumerated. The chance
/// that a spray of n does damage is 1 - 1/2^n, its mean 1.75 × n.
#[test]
fn dice_drawn_after_dice_are_enumerated_combination_by_combination() {
    let (rules, mut engine, state) = start();
    for bullets in 1..=3 {
        let figures = engine.preview(&state, &action(&rules, "spray", &[bullets])).unwrap();
        let chance = figure(&figures, "Chance to hit");
        assert!((chance.value - (1.0 - 0.5f64.powi(bullets as i32))).abs() < 1e-12, "{bullets}: {chance:?}");
        let mean = figure(&figures, "Expected damage");
        assert!((mean.value - 1.75 * bullets as f64).abs() < 1e-9, "{bullets}: {mean:?}");
        assert_eq!((chance.method, mean.method), (Method::Exact, Method::Exact), "{bullets} bullets");
    }
}

/// Ten bullets have 21^10 combinations: the hook is sampled, from a stream seeded by the call,
/// so the figure is the same in every engine; its margin covers the truth.
#[test]
fn a_hook_with_too_many_combinations_is_sampled_with_a_margin() {
    let (rules, mut engine, state) = start();
    let spray = action(&rules, "spray", &[10]);
    let figures = engine.preview(&state, &spray).unwrap();
    for (label, truth) in [("Chance to hit", 1.0 - 0.5f64.powi(10)), ("Expected damage", 17.5)] {
        let shown = figure(&figures, label);
        let Method::Sampled { margin } = shown.method else { panic!("{label} should be sampled: {shown:?}") };
        assert!(margin > 0.0 && margin < truth * 0.05, "{label}: margin {margin}");
        assert!((shown.value - truth).abs() <= 2.0 * margin, "{label}: {} vs {truth} ± {margin}", shown.value);
    }
    // Asked again, and asked of a fresh engine: the same figures, to the last bit.
    assert_eq!(engine.preview(&state, &spray).unwrap(), figures);
    let (_, mut fresh, state) = start();
    assert_eq!(fresh.preview(&state, &spray).unwrap(), figures);
}

/// A hook that reads the game (the target's armour) is worked out again in a changed game.
#[test]
fn a_hook_that_reads_the_game_is_worked_out_for_each_state() {
    let (rules, mut engine, mut state) = start();
    let b = state.board.find("b").unwrap();
    let pierce = action(&rules, "pierce", &[i64::from(b)]);
    let mean = |engine: &mut Engine, state: &GameState| engine.preview(state, &pierce).unwrap()[0].value;
    assert!((mean(&mut engine, &state) - 2.5).abs() < 1e-12);
    let armour = rules.counter_index("armour").unwrap() as u16;
    *state.counter_mut(b, armour) = 2;
    assert!((mean(&mut engine, &state) - 0.75).abs() < 1e-12, "(0 + 0 + 1 + 2) / 4");
}

/// A hook whose draws change from run to run (it keeps a count in a Lua global) has no odds:
/// the preview fails, naming the figure and what the hook did, instead of showing a wrong one.
#[test]
fn a_hook_that_draws_differently_when_run_again_is_an_error() {
    let (rules, mut engine, state) = start();
    let error = engine.preview(&state, &action(&rules, "fickle", &[])).expect_err("no odds").to_string();
    assert!(error.contains("data.toml:46:33 actions.fickle.preview.\"Expected damage\""), "{error}");
    assert!(error.contains("draw"), "{error}");
}

/// The commonest way a hook would keep a count between calls — a Lua global — is refused where
/// it happens: previews, computer players and the odds run hooks any number of times, and a
/// replay does not, so such a count would make the same game come out differently.
#[test]
fn a_hook_cannot_keep_data_in_lua_globals() {
    let manifest = common::manifest("counting");
    let data = r#"
[board]
kind = "graph"
terrain = "land"
spaces = [{ id = "a" }, { id = "b" }]
links = [["a", "b"]]

[terrain.land]

[vars]
seen = 0

[actions.count]
label = "Count"
effect = ["seen = hook('count')"]
"#;
    let hooks = "LIMIT = 3\nfunction count() CALLS = (CALLS or 0) + 1 return math.min(CALLS, LIMIT) end\n";
    let folder = common::write_mod(
        "counting",
        &[("mod.toml", manifest.as_bytes()), ("data.toml", data.as_bytes()), ("hooks/count.lua", hooks.as_bytes())],
    );
    let rules = common::loaded(&folder);
    let (mut engine, mut state, _) = common::new_game(&rules, 1, 2);
    let count = action(&rules, "count", &[]);
    let error = engine.apply(&mut state, &count, &mut meeple_engine::game::Events::discard()).unwrap_err().to_string();
    assert!(error.contains("hooks keep nothing in Lua globals"), "{error}");
    assert!(error.contains("the global `CALLS`"), "{error}");
    assert!(error.contains("count.lua:2"), "the line that assigns: {error}");
}
