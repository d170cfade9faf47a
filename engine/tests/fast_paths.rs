//! The engine's fast paths agree with its general ones: "my space, then a neighbour" actions
//! listed and checked without the evaluator give the same actions and verdicts as the same
//! action forced through the general path; scores kept by dice counts equal the evaluator's;
//! and end checks skipped for unchanged seats still eliminate and crown exactly when the
//! formulas say.

mod common;

use common::{manifest, write_mod};
use meeple_engine::game::{Action, ActionKind, Engine, Events, GameSetup, GameState};
use meeple_engine::loader::load_mod;
use meeple_engine::rng::GameRng;

/// Two copies of an attack: `quick` has the shape the listing walks in one loop; `slow` is the
/// same with `when = "true"`, which sends it through the general recursion and evaluator.
const DATA: &str = r#"
[board]
kind = "graph"
terrain = "land"
spaces = [{ id = "a" }, { id = "b" }, { id = "c" }, { id = "d" }, { id = "e" }, { id = "f" }, { id = "g" }]
links = [["a", "b"], ["b", "c"], ["c", "d"], ["d", "e"], ["e", "f"], ["f", "a"], ["a", "d"], ["g", "c"]]

[terrain.land]

[space_counters.dice]
max = 8

[setup]
effect = [
  "deal_spaces()",
  { for_each = "space", where = "space.owner != none", do = ["space.dice = 1"] },
  { for_each = "seat", do = ["distribute('dice', 3 * owned(seat), seat, 8)"] },
]

[vars]
spill = 0

[turn]
on_end = ["spill = distribute('dice', 3, me, 8)"]

[actions.quick]
label = "Quick"
params = [
  { name = "from", kind = "space", owned_by = "me", where = "from.dice > 1" },
  { name = "to", kind = "space", adjacent_to = "from", where = "to.owner != me" },
]
rolls = { attack = "(from.dice)d6", defence = "(to.dice)d6" }
success = "attack > defence"
on_success = ["to.owner = me", "to.dice = from.dice - 1"]
effect = ["from.dice = 1"]

ai = { score = "chance * to.dice - (1 - chance) * (from.dice - 1)" }

# `quick`'s score, with a term that keeps it off the table of scores by dice counts.
[actions.unkept]
label = "Unkept"
params = [
  { name = "from", kind = "space", owned_by = "me", where = "from.dice > 1" },
  { name = "to", kind = "space", adjacent_to = "from", where = "to.owner != me" },
]
rolls = { attack = "(from.dice)d6", defence = "(to.dice)d6" }
success = "attack > defence"
ai = { score = "chance * to.dice - (1 - chance) * (from.dice - 1) + 0 * owned(me)" }

[actions.slow]
label = "Slow"
params = [
  { name = "from", kind = "space", owned_by = "me", where = "from.dice > 1" },
  { name = "to", kind = "space", adjacent_to = "from", where = "to.owner != me" },
]
when = "true"
rolls = { attack = "(from.dice)d6", defence = "(to.dice)d6" }
success = "attack > defence"
on_success = ["to.owner = me", "to.dice = from.dice - 1"]
effect = ["from.dice = 1"]

[end]
eliminate = "owned(seat) == 0"
win = "owned(seat) == space_count()"
"#;

fn engine() -> Engine {
    let manifest = manifest("fast").replace("max = 2", "max = 3");
    let folder = write_mod("fast", &[("mod.toml", manifest.as_bytes()), ("data.toml", DATA.as_bytes())]);
    let rules = load_mod(&folder).map_err(|p| format!("{p:?}")).expect("the fixture loads").ruleset;
    Engine::new(rules).expect("engine")
}

fn index_of(engine: &Engine, id: &str) -> u16 {
    engine.rules().actions.iter().position(|a| a.id == id).expect("action exists") as u16
}

/// The arguments of the listed actions of one rule, in listing order.
fn listed(engine: &mut Engine, state: &GameState, rule: u16) -> Vec<[i64; 2]> {
    let mut all = Vec::new();
    engine.legal_actions(state, &mut all).unwrap();
    all.iter().filter(|a| a.kind == ActionKind::Rule(rule)).map(|a| [a.args[0], a.args[1]]).collect()
}

/// Whether an action is accepted, and the message when it is not.
fn verdict(engine: &mut Engine, state: &GameState, action: &Action) -> Result<(), String> {
    let mut copy = state.clone();
    engine.apply(&mut copy, action, &mut Events::discard()).map_err(|e| e.to_string())
}

#[test]
fn quick_listing_and_checking_agree_with_the_general_path() {
    let mut engine = engine();
    let (quick, slow) = (index_of(&engine, "quick"), index_of(&engine, "slow"));
    let mut picker = GameRng::from_seed(7);
    let (mut positions, mut compared) = (0, 0);
    for seed in 0..40 {
        let setup = GameSetup::new(engine.rules(), seed, 3, "human");
        let mut state = engine.new_game(&setup, &mut Events::discard()).expect("the game starts");
        while state.outcome.is_none() && positions < 2000 {
            positions += 1;
            let fast_list = listed(&mut engine, &state, quick);
            assert_eq!(fast_list, listed(&mut engine, &state, slow), "seed {seed}: the two listings differ");
            // Every pair of spaces, legal or not (and some off the board), gets the same verdict
            // with the same reason from both paths.
            let spaces = state.board.space_count() as i64;
            for from in -1..=spaces {
                for to in -1..=spaces {
                    let (a, b) = (Action::rule(quick, &[from, to]), Action::rule(slow, &[from, to]));
                    let (va, vb) = (verdict(&mut engine, &state, &a), verdict(&mut engine, &state, &b));
                    assert_eq!(
                        va.is_ok(),
                        fast_list.contains(&[from, to]),
                        "seed {seed}: {from}->{to} listed vs checked"
                    );
                    assert_eq!(va.map_err(|e| e.replace("quick", "X")), vb.map_err(|e| e.replace("slow", "X")));
                    compared += 1;
                }
            }
            let mut all = Vec::new();
            engine.legal_actions(&state, &mut all).unwrap();
            let pick = all[picker.below(all.len() as u32) as usize];
            engine.apply(&mut state, &pick, &mut Events::discard()).expect("a listed action applies");
        }
    }
    assert!(positions > 200 && compared > 10_000, "too little was compared: {positions} positions");
}

#[test]
fn skipped_end_checks_still_eliminate_and_crown_on_time() {
    // After every action the outcome and every seat's status must be what the formulas give
    // when evaluated afresh: eliminated exactly when owning nothing, won exactly when owning all.
    let mut engine = engine();
    let mut picker = GameRng::from_seed(11);
    let mut winners = 0;
    for seed in 0..60 {
        let setup = GameSetup::new(engine.rules(), seed, 3, "human");
        let mut state = engine.new_game(&setup, &mut Events::discard()).expect("the game starts");
        let total = state.board.space_count();
        for _ in 0..2000 {
            if state.outcome.is_some() {
                break;
            }
            let mut all = Vec::new();
            engine.legal_actions(&state, &mut all).unwrap();
            // Attack whenever possible, so that games end.
            let attacks: Vec<Action> = all.iter().copied().filter(|a| matches!(a.kind, ActionKind::Rule(_))).collect();
            let choices = if attacks.is_empty() { &all } else { &attacks };
            let pick = choices[picker.below(choices.len() as u32) as usize];
            engine.apply(&mut state, &pick, &mut Events::discard()).expect("a listed action applies");
            for seat in 0..3u8 {
                let owned = state.owners.iter().filter(|&&o| o == seat).count();
                let status = state.seats[seat as usize].status;
                let eliminated = status == meeple_engine::game::SeatStatus::Eliminated;
                assert_eq!(owned == 0, eliminated, "seed {seed}: seat {seat} owns {owned}, status {status:?}");
                if owned == total {
                    assert!(state.outcome.is_some(), "seed {seed}: seat {seat} owns everything but has not won");
                }
            }
        }
        winners += usize::from(state.outcome.is_some());
    }
    assert!(winners > 40, "only {winners} of 60 games ended");
}

/// A contest's score that reads only `chance` and the two dice counts is worked out once per
/// pair of counts and then read from a table: it equals, on every candidate of many positions,
/// the same score that the evaluator works out each time.
#[test]
fn scores_kept_by_dice_counts_equal_the_evaluators() {
    let mut engine = engine();
    let (quick, unkept) = (index_of(&engine, "quick"), index_of(&engine, "unkept"));
    let mut compared = 0;
    for seed in 0..30 {
        let rules = engine.rules().clone();
        let mut state = engine.new_game(&GameSetup::new(&rules, seed, 3, "human"), &mut Events::discard()).unwrap();
        let mut rng = GameRng::from_seed(seed);
        for _ in 0..40 {
            if state.outcome.is_some() {
                break;
            }
            for args in listed(&mut engine, &state, quick) {
                // Asked twice: the second answer comes from the table.
                for _ in 0..2 {
                    let kept = engine.ai_score(&state, &Action::rule(quick, &args)).unwrap().unwrap().0;
                    let worked = engine.ai_score(&state, &Action::rule(unkept, &args)).unwrap().unwrap().0;
                    assert!((kept - worked).abs() < 1e-12, "seed {seed} {args:?}: {kept} vs {worked}");
                    compared += 1;
                }
            }
            let mut all = Vec::new();
            engine.legal_actions(&state, &mut all).unwrap();
            let action = all[rng.below(all.len() as u32) as usize];
            engine.apply(&mut state, &action, &mut Events::discard()).unwrap();
        }
    }
    assert!(compared > 500, "{compared}");
}
