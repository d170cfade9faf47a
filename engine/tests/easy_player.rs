//! The easy player plays at random, or, with the mod's `ai.easy_slips`, only that share of its
//! decisions, taking the rest as the medium player does.

mod common;

use common::write_mod;
use meeple_engine::ai;
use meeple_engine::game::{Action, Engine, Events, GameSetup, GameState};
use meeple_engine::rules::Ruleset;
use std::sync::Arc;

/// A game with one good action (score 5) and three poor ones (score 1), and `ai` settings.
fn game_with(ai_settings: &str) -> (Arc<Ruleset>, Engine, GameState) {
    let mut data = String::from(
        "[board]\nkind = \"graph\"\nterrain = \"land\"\nspaces = [{ id = \"a\", home = 0 }, { id = \"b\", home = 1 }]\nlinks = [[\"a\", \"b\"]]\n\n[terrain.land]\n\n[end]\nwin = \"seat.number == 99\"\nturn_limit = 20\n\n",
    );
    data.push_str("[actions.good]\nlabel = \"Good\"\neffect = []\nai = { score = \"5\" }\n\n");
    for i in 1..=3 {
        data.push_str(&format!("[actions.poor{i}]\nlabel = \"Poor {i}\"\neffect = []\nai = {{ score = \"1\" }}\n\n"));
    }
    data.push_str("[turn]\nphases = [{ id = \"main\", actions = [\"good\", \"poor1\", \"poor2\", \"poor3\"] }]\n\n");
    data.push_str(ai_settings);
    let folder = write_mod(
        "slips",
        &[
            (
                "mod.toml",
                b"id = \"slips\"\nname = \"Slips\"\nversion = \"1.0.0\"\napi = 1\ndescription = \"x\"\nseats = { min = 2, max = 2 }\n",
            ),
            ("data.toml", data.as_bytes()),
        ],
    );
    let rules = common::loaded(&folder);
    let mut engine = Engine::new(rules.clone()).unwrap();
    let state = engine.new_game(&GameSetup::new(&rules, 1, 2, "computer"), &mut Events::discard()).unwrap();
    (rules, engine, state)
}

fn easy_choices(engine: &mut Engine, state: &GameState, seeds: std::ops::Range<u64>) -> Vec<Action> {
    seeds.map(|seed| ai::player("easy", seed).unwrap().decide(engine, state).unwrap()).collect()
}

#[test]
fn without_slips_the_easy_player_is_the_random_player() {
    let (_, mut engine, state) = game_with("");
    let easy = easy_choices(&mut engine, &state, 0..60);
    let random: Vec<Action> =
        (0..60).map(|seed| ai::player("random", seed).unwrap().decide(&mut engine, &state).unwrap()).collect();
    assert_eq!(easy, random);
    let kinds: std::collections::BTreeSet<String> = easy.iter().map(|a| format!("{:?}", a.kind)).collect();
    assert!(kinds.len() >= 4, "it does play at random: {kinds:?}");
}

#[test]
fn with_no_slips_it_always_takes_the_best() {
    let (rules, mut engine, state) = game_with("[ai]\neasy_slips = 0\n");
    let good = Action::rule(rules.action_index("good").unwrap() as u16, &[]);
    assert!(easy_choices(&mut engine, &state, 0..60).iter().all(|a| *a == good));
}

/// With 40% slips over 4,000 seeds, the good action is taken 60% + 40% / n of the time, n the
/// legal actions (the four and passing): 68%. Three standard deviations are 2.2 points.
#[test]
fn a_share_of_slips_is_a_share_of_random_decisions() {
    let (rules, mut engine, state) = game_with("[ai]\neasy_slips = 0.4\n");
    let good = Action::rule(rules.action_index("good").unwrap() as u16, &[]);
    let mut legal = Vec::new();
    engine.legal_actions(&state, &mut legal).unwrap();
    assert_eq!(legal.len(), 5, "{legal:?}");
    let trials = 4000;
    let taken = easy_choices(&mut engine, &state, 0..trials).iter().filter(|a| **a == good).count();
    let expected = 0.6 + 0.4 / 5.0;
    let share = taken as f64 / trials as f64;
    let deviation = 3.0 * (expected * (1.0 - expected) / trials as f64).sqrt();
    assert!((share - expected).abs() < deviation, "{share} against {expected} ± {deviation}");
}
