//! Dice Wars battles match the exact odds. For every attacker/defender pair the exact chance
//! that the attacker's sum is strictly greater is computed here by convolution of d6 sums; the
//! engine's `chance` must equal it, and seeded battles through the mod's real attack action
//! must conquer at that rate within the binomial standard error.

use meeple_engine::board::{BoardSpec, GraphLinkSpec, GraphSpaceSpec, GraphSpec};
use meeple_engine::game::{Action, Engine, Events, GameSetup, GameState};
use meeple_engine::rng::GameRng;
use meeple_tests::d6_sum_distribution as sum_distribution;
use meeple_tests::load;

/// P(attacker's sum > defender's sum): the attacker wins only when strictly greater.
fn exact_win(attacker: usize, defender: usize) -> f64 {
    let a = sum_distribution(attacker);
    let d = sum_distribution(defender);
    let mut p = 0.0;
    for (sa, pa) in a.iter().enumerate() {
        for (sd, pd) in d.iter().enumerate() {
            if sa > sd {
                p += pa * pd;
            }
        }
    }
    p
}

/// Two territories side by side, plus a third of the attacker's so a battle does not end the game.
fn duel(rules: &std::sync::Arc<meeple_engine::rules::Ruleset>, attacker: i64, defender: i64) -> (Engine, GameState) {
    let space = |id: &str| GraphSpaceSpec { id: id.into(), terrain: None, pos: None, home: None, name: None };
    let board = BoardSpec::Graph(GraphSpec {
        terrain: Some("land".into()),
        spaces: vec![space("from"), space("to"), space("home")],
        links: vec![
            GraphLinkSpec::Pair(["from".into(), "to".into()]),
            GraphLinkSpec::Pair(["from".into(), "home".into()]),
        ],
    });
    let mut setup = GameSetup::new(rules, 1, 2, "human");
    setup.board = Some(board);
    let mut engine = Engine::new(rules.clone()).unwrap();
    let mut state = engine.new_game(&setup, &mut Events::discard()).unwrap();
    let dice = rules.counter_index("dice").unwrap() as u16;
    for (label, owner, count) in [("from", 0, attacker), ("to", 1, defender), ("home", 0, 1)] {
        let s = state.board.find(label).unwrap();
        state.set_owner(s, owner);
        *state.counter_mut(s, dice) = count;
    }
    state.turn.seat = 0;
    (engine, state)
}

#[test]
fn engine_chance_equals_the_convolution_table() {
    let rules = load("dice_wars");
    let attack = rules.action_index("attack").unwrap() as u16;
    for attacker in 1..=8 {
        for defender in 1..=8 {
            let (mut engine, state) = duel(&rules, attacker, defender);
            let action = Action::rule(attack, &[0, 1]);
            let chance = engine.chance(&state, &action).unwrap();
            let exact = exact_win(attacker as usize, defender as usize);
            assert!((chance - exact).abs() < 1e-12, "{attacker} vs {defender}: engine {chance}, exact {exact}");
        }
    }
    // Two hand-checked cells: 1 vs 1 is 15/36; 2 vs 1 is 1 - P(2d6 <= 1d6)
    // = 1 - (0 + 1 + 3 + 6 + 10 + 15) / 216 = 181/216.
    assert!((exact_win(1, 1) - 15.0 / 36.0).abs() < 1e-15);
    assert!((exact_win(2, 1) - 181.0 / 216.0).abs() < 1e-15);
}

#[test]
fn seeded_battles_conquer_at_the_exact_rate() {
    let rules = load("dice_wars");
    let attack = rules.action_index("attack").unwrap() as u16;
    let battles_per_cell = 20_000u64;
    let mut report = Vec::new();
    for attacker in 1..=8i64 {
        for defender in 1..=8i64 {
            let (mut engine, start) = duel(&rules, attacker, defender);
            let to = start.board.find("to").unwrap();
            let action = Action::rule(attack, &[0, 1]);
            if attacker == 1 {
                // A territory with one die cannot attack at all.
                let mut state = start.clone();
                assert!(engine.apply(&mut state, &action, &mut Events::discard()).is_err());
                continue;
            }
            let mut wins = 0u64;
            for battle in 0..battles_per_cell {
                let mut state = start.clone();
                state.rng = GameRng::from_seed_and_stream(1234, (attacker * 8 + defender) as u64 * 1_000_000 + battle);
                engine.apply(&mut state, &action, &mut Events::discard()).unwrap();
                if state.owners[to as usize] == 0 {
                    wins += 1;
                }
            }
            let p = exact_win(attacker as usize, defender as usize);
            let observed = wins as f64 / battles_per_cell as f64;
            let standard_error = (p * (1.0 - p) / battles_per_cell as f64).sqrt();
            // 4.5 standard errors: a false alarm over all 56 cells has odds of about 1 in 2500.
            let tolerance = 4.5 * standard_error;
            report.push(format!(
                "{attacker} vs {defender}: exact {p:.4}, observed {observed:.4}, tolerance {tolerance:.4}"
            ));
            assert!((observed - p).abs() <= tolerance, "{}", report.last().unwrap());
        }
    }
    println!("{}", report.join("\n"));
}
