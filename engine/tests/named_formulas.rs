//! Named formulas and effect blocks (`[formulas]`, `[effects]`) on the `named` fixture, whose
//! action `shoot` uses them and `shoot_written` says the same with everything written out: a
//! formula with parameters gives the same answers in a `where`, an effect, a preview, an
//! `ai.score` and an `end` condition; an effect block changes the game; formulas and effects use
//! one another whatever order they are written in. Then what the checker says about calls and
//! definitions that are wrong, and about an error inside a formula while a game runs.
//!
//! The fixture's board (`engine/tests/fixtures/named/data.toml`): `a ── b ── c ── d ── e`.
//! Pieces after setup: 0 = seat 1's soldier on `a` (rifle at position 0, pistol at 1), 1 = seat
//! 2's soldier on `c`, 2 = seat 2's scout on `e`, 3 = seat 2's scout on `b` with 5 health.

mod common;

use std::sync::Arc;

use common::{MINIMAL_DATA, fixture, legal, manifest, new_game, problems, write_mod};
use meeple_engine::game::{Action, ActionError, ActionKind, Engine, GameState, Outcome};
use meeple_engine::rules::Ruleset;
use meeple_engine::rules::ir::held_arg;

const SOLDIER: u32 = 0;
const FOE_SOLDIER: u32 = 1;
const FAR_SCOUT: u32 = 2;
const NEAR_SCOUT: u32 = 3;
const RIFLE: u8 = 0;
const PISTOL: u8 = 1;

fn index(rules: &Ruleset, id: &str) -> u16 {
    rules.action_index(id).unwrap_or_else(|| panic!("no action {id}")) as u16
}

/// `action` (shoot or shoot_written) with a weapon of the soldier, at a target.
fn shot(rules: &Ruleset, action: &str, weapon: u8, target: u32) -> Action {
    Action::rule(index(rules, action), &[held_arg(SOLDIER, weapon), i64::from(target)])
}

/// The (weapon, target) pairs of an action's legal choices.
fn choices(engine: &mut Engine, state: &GameState, rules: &Ruleset, action: &str) -> Vec<(u8, u32)> {
    legal(engine, state)
        .into_iter()
        .filter(|a| a.kind == ActionKind::Rule(index(rules, action)))
        .map(|a| ((a.args[0] % 256) as u8, a.args[1] as u32))
        .collect()
}

fn health(rules: &Ruleset, state: &GameState, piece: u32) -> i64 {
    state.pieces[piece as usize].stats[rules.stat_index("health").expect("health")]
}

fn score(rules: &Ruleset, state: &GameState, seat: usize) -> i64 {
    state.seats[seat].resources[rules.resource_index("score").expect("score")]
}

fn kills(rules: &Ruleset, state: &GameState) -> i64 {
    state.vars[rules.var_index("kills").expect("kills")]
}

/// Every figure of an action's preview, as (label, value).
fn preview(engine: &mut Engine, state: &GameState, action: &Action) -> Vec<(String, f64)> {
    engine.preview(state, action).expect("the preview works out").into_iter().map(|f| (f.label, f.value)).collect()
}

/// What changes when seat 1 shoots with `dice` forced: the target's health, whether it is still
/// in play, seat 1's score, the kills, and the game's outcome.
fn after_shot(
    rules: &Arc<Ruleset>,
    action: &str,
    weapon: u8,
    target: u32,
    dice: &[u32],
) -> (i64, bool, i64, i64, Option<Outcome>) {
    let (mut engine, mut state, mut events) = new_game(rules, 7, 2);
    state.forced_faces.extend(dice);
    engine.apply(&mut state, &shot(rules, action, weapon, target), &mut events).expect("the shot is legal");
    let piece = &state.pieces[target as usize];
    (health(rules, &state, target), piece.alive, score(rules, &state, 0), kills(rules, &state), state.outcome.clone())
}

#[test]
fn a_formula_in_a_where_offers_what_the_written_out_condition_offers() {
    let rules = fixture("named");
    let (mut engine, state, _) = new_game(&rules, 1, 2);
    // The rifle reaches 4 steps (every foe), the pistol 2 (not the scout on `e`).
    let expected = vec![
        (RIFLE, FOE_SOLDIER),
        (RIFLE, FAR_SCOUT),
        (RIFLE, NEAR_SCOUT),
        (PISTOL, FOE_SOLDIER),
        (PISTOL, NEAR_SCOUT),
    ];
    assert_eq!(choices(&mut engine, &state, &rules, "shoot"), expected);
    assert_eq!(choices(&mut engine, &state, &rules, "shoot_written"), expected);
}

#[test]
fn a_formula_in_a_preview_and_a_score_gives_the_written_out_figures() {
    let rules = fixture("named");
    let (mut engine, state, _) = new_game(&rules, 1, 2);
    // 2d6 hits 7 times on average; each hit does `multiplier - falloff × (steps - 1)`.
    let cases = [
        (RIFLE, FOE_SOLDIER, 7.0 * 8.0),
        (RIFLE, FAR_SCOUT, 7.0 * 4.0),
        (RIFLE, NEAR_SCOUT, 7.0 * 10.0),
        (PISTOL, FOE_SOLDIER, 7.0 * 3.0),
        (PISTOL, NEAR_SCOUT, 7.0 * 6.0),
    ];
    for (weapon, target, damage) in cases {
        let named = shot(&rules, "shoot", weapon, target);
        let written = shot(&rules, "shoot_written", weapon, target);
        let figures = preview(&mut engine, &state, &named);
        assert_eq!(figures, vec![("damage".to_string(), damage), ("luck".to_string(), 3.0)], "{weapon} at {target}");
        assert_eq!(figures, preview(&mut engine, &state, &written), "{weapon} at {target}");
        // The score adds the luck a formula reads through a Lua hook.
        assert_eq!(engine.ai_score(&state, &named).unwrap(), Some((damage + 3.0, None)));
        assert_eq!(engine.ai_score(&state, &named).unwrap(), engine.ai_score(&state, &written).unwrap());
    }
}

#[test]
fn a_formula_in_an_effect_and_an_effect_block_change_the_game_as_written_out() {
    let rules = fixture("named");
    // 4 + 5 hits of the rifle at 2 steps: 9 × 8 = 72.
    let named = after_shot(&rules, "shoot", RIFLE, FOE_SOLDIER, &[4, 5]);
    assert_eq!(named, (100 - 72, true, 72, 0, None));
    assert_eq!(named, after_shot(&rules, "shoot_written", RIFLE, FOE_SOLDIER, &[4, 5]));
    // The pistol at 2 steps does 3 a hit: 2 hits, 6.
    let named = after_shot(&rules, "shoot", PISTOL, FOE_SOLDIER, &[1, 1]);
    assert_eq!(named, (94, true, 6, 0, None));
    assert_eq!(named, after_shot(&rules, "shoot_written", PISTOL, FOE_SOLDIER, &[1, 1]));
    // The scout next door has 5 health: 2 hits of 10 beat it; the effect block `hit` scores the
    // whole damage and runs `knock_out`, which takes it off the board and counts the kill.
    let named = after_shot(&rules, "shoot", RIFLE, NEAR_SCOUT, &[1, 1]);
    assert_eq!(named, (0, false, 20, 1, None));
    assert_eq!(named, after_shot(&rules, "shoot_written", RIFLE, NEAR_SCOUT, &[1, 1]));
}

#[test]
fn a_formula_in_an_end_condition_eliminates_a_seat_with_no_pieces_left() {
    let rules = fixture("named");
    let (mut engine, mut state, mut events) = new_game(&rules, 3, 2);
    let health_stat = rules.stat_index("health").expect("health");
    state.pieces[FOE_SOLDIER as usize].stats[health_stat] = 1;
    state.pieces[FAR_SCOUT as usize].stats[health_stat] = 1;
    for (target, left) in [(NEAR_SCOUT, 2), (FOE_SOLDIER, 1), (FAR_SCOUT, 0)] {
        assert_eq!(state.outcome, None, "seat 2 still has pieces before shooting {target}");
        state.forced_faces.extend([1, 1]);
        engine.apply(&mut state, &shot(&rules, "shoot", RIFLE, target), &mut events).expect("legal");
        assert!(!state.pieces[target as usize].alive, "{target} is beaten");
        assert_eq!(state.pieces.iter().filter(|p| p.alive && p.owner == 1).count(), left);
    }
    // `forces(seat) == 0` held for seat 2: it is out, and seat 1 is the last one playing.
    assert_eq!(state.outcome, Some(Outcome::Win { seats: vec![0] }));
}

/// The problems of the minimal mod with `extra` added to its data, one a line.
fn load_problems(extra: &str, hooks: &str) -> String {
    let data = format!("{MINIMAL_DATA}\n{extra}");
    let manifest = manifest("named_errors");
    let mut files: Vec<(&str, &[u8])> = vec![("mod.toml", manifest.as_bytes()), ("data.toml", data.as_bytes())];
    if !hooks.is_empty() {
        files.push(("hooks/main.lua", hooks.as_bytes()));
    }
    let folder = write_mod("named_errors", &files);
    let found = problems(&folder).iter().map(|p| p.to_string()).collect::<Vec<_>>().join("\n");
    std::fs::remove_dir_all(&folder).ok();
    found
}

#[test]
fn a_formula_cannot_roll_dice_or_use_odds_and_says_why() {
    for (value, what) in [
        ("1d6 + bonus", "dice cannot be used in a formula"),
        ("random(1, 6)", "`random` cannot be used in a formula"),
        ("chance", "`chance` cannot be used in a formula"),
        ("expect(bonus)", "`expect` cannot be used in a formula"),
    ] {
        let found =
            load_problems(&format!("[formulas.roll]\nparams = [\"bonus: whole number\"]\nvalue = \"{value}\"\n"), "");
        assert!(found.contains(what), "{value}: {found}");
        assert!(found.contains("pass the roll in"), "{value}: {found}");
        assert!(found.contains("data.toml:23:"), "located in the formula's value: {found}");
    }
}

#[test]
fn a_hook_reached_through_formulas_is_refused_where_lua_does_not_run_naming_the_chain() {
    let extra = "[resources.reserve]\ninitial = 0\n\n[formulas.fortune]\nvalue = \"hook('luck')\"\n\n\
                 [formulas.luckier]\nvalue = \"fortune() + 1\"\n\n[actions.try]\nlabel = \"Try\"\nwhen = \"luckier() > 1\"\neffect = [\"me.reserve += luckier()\"]\n";
    let found = load_problems(extra, "function luck() return 1 end\n");
    assert!(
        found.contains(
            "`luckier` calls the hook `luck` through `fortune`, and hooks cannot be called here: an action's `when`"
        ),
        "{found}"
    );
    // One problem only: the effect may call it.
    assert_eq!(found.matches(": error:").count(), 1, "{found}");
}

#[test]
fn an_effect_block_is_a_statement_and_a_formula_is_not_one() {
    let extra = "[effects.grow]\nparams = [\"at: space\"]\ndo = [\"at.dice += 1\"]\n\n\
                 [actions.try]\nlabel = \"Try\"\nparams = [{ name = \"from\", kind = \"space\", owned_by = \"me\" }]\n\
                 when = \"grow(from) > 0\"\neffect = [\"grow(from)\", \"grow(from, from)\"]\n";
    let found = load_problems(extra, "");
    assert!(found.contains("`grow` is an effect block: it runs as a statement of its own"), "{found}");
    assert!(found.contains("`grow` takes 1 argument (at: space), not 2"), "{found}");
    assert_eq!(found.matches(": error:").count(), 2, "{found}");
}

#[test]
fn a_formula_and_an_effect_need_names_of_their_own() {
    let extra = "[formulas.grow]\nvalue = \"1\"\n\n[effects.grow]\ndo = [\"bonus += 1\"]\n\n\
                 [formulas.me]\nvalue = \"2\"\n";
    let found = load_problems(&extra.replace("bonus += 1", "end_turn()"), "");
    assert!(found.contains("`grow` names a formula too"), "{found}");
    assert!(found.contains("`me` is a reserved word"), "{found}");
}

#[test]
fn an_error_inside_a_formula_while_playing_names_the_formula_and_where_it_is_written() {
    let extra = "[formulas.share]\nparams = [\"total: whole number\", \"parts: whole number\"]\n\
                 value = \"total / parts\"\n\n[actions.split]\nlabel = \"Split\"\neffect = [\"me.reserve += share(6, 0)\"]\n";
    let data = format!("{MINIMAL_DATA}\n[resources.reserve]\ninitial = 0\n{extra}");
    let folder = write_mod(
        "named_runtime",
        &[("mod.toml", manifest("named_runtime").as_bytes()), ("data.toml", data.as_bytes())],
    );
    let rules = common::loaded(&folder);
    std::fs::remove_dir_all(&folder).ok();
    let (mut engine, mut state, mut events) = new_game(&rules, 1, 2);
    let before = state.hash();
    let split = Action::rule(index(&rules, "split"), &[]);
    match engine.apply(&mut state, &split, &mut events) {
        Err(ActionError::Rule(error)) => {
            let message = error.message();
            assert!(message.contains("data.toml:29:10 actions.split.effect: "), "{message}");
            assert!(message.contains("data.toml:25:9 formulas.share.value: division by zero"), "{message}");
        }
        other => panic!("expected a rule error, got {other:?}"),
    }
    assert_eq!(state.hash(), before, "the refused action changed nothing");
}

#[test]
fn formulas_used_inside_one_another_too_deep_or_too_often_are_refused() {
    // A chain of 40, each using the next: the 33rd inside the others is too deep.
    let mut chain = String::new();
    for i in 0..40 {
        let value = if i == 39 { "1".to_string() } else { format!("c{}() + 1", i + 1) };
        chain += &format!("[formulas.c{i}]\nvalue = \"{value}\"\n");
    }
    let found = load_problems(&chain, "");
    assert!(found.contains("at most 32 deep: `c0` → … → `c31` → `c32` is deeper"), "{found}");
    assert_eq!(found.matches(": error:").count(), 1, "{found}");
    // Each uses the one before twice: written out, twice as long at every step.
    let mut doubling = "[formulas.d0]\nvalue = \"1\"\n".to_string();
    for i in 1..20 {
        doubling += &format!("[formulas.d{i}]\nvalue = \"d{0}() + d{0}()\"\n", i - 1);
    }
    let found = load_problems(&doubling, "");
    assert!(found.contains("[formulas.d13] key `value`: with the named formulas and effects it uses written out in place, this is 32765 parts long, more than 20000"), "{found}");
    assert_eq!(found.matches(": error:").count(), 1, "{found}");
}

#[test]
fn a_function_or_formula_written_without_parentheses_says_how_to_call_it() {
    let data = common::MINIMAL_DATA.replace(
        "effect = [\"from.dice += 1\"]",
        "effect = [\"from.dice += seat_count\", \"from.dice += bonus\"]\n\n[formulas.bonus]\nvalue = \"2\"",
    );
    let manifest = common::manifest("no_parentheses");
    let folder =
        common::write_mod("no_parentheses", &[("mod.toml", manifest.as_bytes()), ("data.toml", data.as_bytes())]);
    let text = common::problems(&folder).iter().map(|p| p.to_string()).collect::<Vec<_>>().join("\n");
    std::fs::remove_dir_all(&folder).ok();
    assert!(
        text.contains("`seat_count` is a function, called with parentheses") && text.contains("seat_count()"),
        "{text}"
    );
    assert!(text.contains("`bonus` is a formula of `[formulas]`, called with parentheses"), "{text}");
}
