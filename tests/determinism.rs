//! Same mod, seed and actions give the same game, bit for bit: two runs of the same seeded
//! games agree on every state hash and every save; a save replays to its hash; simulation
//! results do not depend on the number of threads.

use meeple_engine::game::{Engine, Events, GameSetup};
use meeple_engine::save::SaveFile;
use meeple_engine::sim::{self, SimConfig};
use meeple_engine::{ai, game::Action};
use meeple_tests::load;

/// Plays a seeded game with greedy players, returning the setup, history and final state.
fn play(seed: u64, seats: usize) -> (GameSetup, Vec<(u8, Action)>, meeple_engine::game::GameState) {
    let rules = load("dice_wars");
    let mut engine = Engine::new(rules.clone()).unwrap();
    let setup = GameSetup::new(&rules, seed, seats, "greedy");
    let mut events = Events::discard();
    let mut state = engine.new_game(&setup, &mut events).unwrap();
    let mut players: Vec<_> = (0..seats).map(|i| ai::player("greedy", seed * 31 + i as u64).unwrap()).collect();
    let mut history = Vec::new();
    let mut legal = Vec::new();
    while state.outcome.is_none() {
        engine.legal_actions(&state, &mut legal).unwrap();
        let seat = state.to_act();
        let action = legal[players[seat as usize].choose(&mut engine, &state, &legal).unwrap()];
        engine.apply(&mut state, &action, &mut events).unwrap();
        history.push((seat, action));
    }
    (setup, history, state)
}

#[test]
fn same_seed_same_game_and_same_save() {
    let rules = load("dice_wars");
    for seed in 0..20 {
        let seats = 2 + (seed as usize % 7);
        let (setup_a, history_a, state_a) = play(seed, seats);
        let (_, history_b, state_b) = play(seed, seats);
        assert_eq!(history_a, history_b, "seed {seed}");
        assert_eq!(state_a.hash(), state_b.hash(), "seed {seed}");
        let save_a = serde_json::to_string(&SaveFile::new(&rules, &setup_a, &history_a, &state_a)).unwrap();
        let save_b = serde_json::to_string(&SaveFile::new(&rules, &setup_a, &history_b, &state_b)).unwrap();
        assert_eq!(save_a, save_b, "seed {seed}");
    }
}

#[test]
fn a_saved_game_replays_to_its_hash() {
    let rules = load("dice_wars");
    let (setup, history, state) = play(77, 4);
    let save = SaveFile::new(&rules, &setup, &history, &state);
    let path = std::env::temp_dir().join(format!("meeple-determinism-{}.json", std::process::id()));
    save.write(&path).unwrap();
    let loaded = SaveFile::read(&path).unwrap();
    std::fs::remove_file(&path).ok();
    let mut engine = Engine::new(rules.clone()).unwrap();
    let (replayed, replayed_history) = loaded.replay(&mut engine, "save", &mut Events::discard()).unwrap();
    assert_eq!(replayed.hash(), state.hash());
    assert_eq!(replayed_history, history);
    assert_eq!(loaded.state.unwrap().hash(), state.hash(), "the snapshot loads back identical");
    // A save whose actions were edited no longer verifies.
    let mut tampered = SaveFile::new(&rules, &setup, &history, &state);
    tampered.actions.truncate(tampered.actions.len() - 1);
    assert!(tampered.replay(&mut engine, "tampered", &mut Events::discard()).is_err());
}

#[test]
fn simulation_results_do_not_depend_on_threads() {
    let rules = load("dice_wars");
    let config = |threads| SimConfig {
        games: 60,
        seed: 5,
        seats: 4,
        levels: vec!["greedy".into(), "random".into()],
        rotate: true,
        rotate_first: false,
        threads,
    };
    let (one, games_one) = sim::run(rules.clone(), &config(1), &|_| {}).unwrap();
    let (two, games_two) = sim::run(rules, &config(2), &|_| {}).unwrap();
    let strip = |r: &sim::SimReport| {
        let mut v = serde_json::to_value(r).unwrap();
        v.as_object_mut().unwrap().remove("timing");
        v
    };
    assert_eq!(strip(&one), strip(&two));
    assert_eq!(serde_json::to_string(&games_one).unwrap(), serde_json::to_string(&games_two).unwrap());
    let total: f64 = one.per_seat.iter().map(|s| s.wins.rate).sum::<f64>() + one.draws.rate;
    assert!((total - 1.0).abs() < 1e-12, "win rates and draws sum to 1: {total}");
}

#[test]
fn every_level_plays_reproducibly_and_legally() {
    // Each level against the medium one, twice with the same seeds: the same games; every action
    // a level takes is one the engine lists (the engine refuses anything else, which `play_one`
    // reports as an error).
    let rules = load("dice_wars");
    for level in ["easy", "medium", "hard"] {
        let config = SimConfig {
            games: 2,
            seed: 5,
            seats: 2,
            levels: vec![level.into(), "medium".into()],
            rotate: true,
            rotate_first: false,
            threads: 1,
        };
        let run = || {
            let mut engine = Engine::new(rules.clone()).unwrap();
            (0..config.games)
                .map(|i| {
                    let game = sim::play_one(&mut engine, &config, i).expect("the game plays to its end");
                    (format!("{:?}", game.outcome), game.turns)
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(run(), run(), "level {level}");
    }
}

/// A setup option changes the data (Dunes of Terror's small map has 26 x 30 tiles), the game's
/// setup records it, a save replays only with the mod loaded with it, and a setup naming other
/// options than those the mod was loaded with is refused.
#[test]
fn setup_options_are_recorded_and_replayed() {
    use meeple_engine::loader::load_mod_with;
    use meeple_engine::options::Choices;
    let folder = meeple_tests::mods_dir().join("dunes_of_terror");
    let small = Choices::from([("map_size".to_string(), "small".to_string())]);
    let rules = load_mod_with(&folder, &small).expect("loads").ruleset;
    assert_eq!(rules.chosen_options, small);
    let mut engine = Engine::new(rules.clone()).unwrap();
    let setup = GameSetup::new(&rules, 9, 4, "greedy");
    assert_eq!(setup.options, small, "the setup records the options");
    let mut state = engine.new_game(&setup, &mut Events::discard()).unwrap();
    assert_eq!(state.board.space_count(), 26 * 30);
    let mut player = ai::player("greedy", 1).unwrap();
    let mut history = Vec::new();
    for _ in 0..40 {
        let seat = state.to_act();
        let action = player.decide(&mut engine, &state).unwrap();
        engine.apply(&mut state, &action, &mut Events::discard()).unwrap();
        history.push((seat, action));
    }
    let save = SaveFile::new(&rules, &setup, &history, &state);
    let text = serde_json::to_string(&save).unwrap();
    assert!(text.contains("\"map_size\": \"small\"") || text.contains("\"map_size\":\"small\""));
    let (replayed, _) = save.replay(&mut Engine::new(rules.clone()).unwrap(), "save", &mut Events::discard()).unwrap();
    assert_eq!(replayed.hash_hex(), state.hash_hex());
    // The default (large) map cannot replay it.
    let large = load("dunes_of_terror");
    assert_eq!(large.chosen_options.get("map_size").map(String::as_str), Some("large"));
    let refused = save.replay(&mut Engine::new(large).unwrap(), "save", &mut Events::discard());
    assert!(refused.is_err());
    let message = refused.err().unwrap().to_string();
    assert!(message.contains("map_size = small"), "{message}");
}
