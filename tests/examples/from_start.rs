//! The benchmark's comparison as a fixed amount of work for instruction counts: the 64 Dice Wars
//! games of `meeple sim --seed 1` played from their start positions, by the engine or by the
//! plain-Rust baseline. Run under `valgrind --tool=callgrind --toggle-collect='*play_all*'` so
//! only the play is counted (see docs/performance.md).

#[allow(dead_code)]
#[path = "../benches/dice_wars_baseline.rs"]
mod baseline;

use meeple_engine::ai;
use meeple_engine::game::{Engine, Events, GameSetup, GameState};
use meeple_engine::sim;

const SEATS: usize = 4;
const SEED: u64 = 1;
const POSITIONS: u64 = 64;

#[inline(never)]
fn engine_play_all(engine: &mut Engine, starts: &[(GameState, Vec<u64>)]) -> u32 {
    let mut turns = 0;
    for (start, seeds) in starts {
        let mut state = start.clone();
        let mut players: Vec<_> = seeds.iter().map(|&seed| ai::player("greedy", seed).expect("greedy")).collect();
        let mut events = Events::discard();
        while state.outcome.is_none() {
            let action = players[state.turn.seat as usize].decide(engine, &state).unwrap();
            engine.apply(&mut state, &action, &mut events).expect("a legal action applies");
        }
        turns += state.turn.number;
    }
    turns
}

#[inline(never)]
fn baseline_play_all(odds: &baseline::Odds, starts: &[(baseline::Map, baseline::Game, Vec<u64>)]) -> u32 {
    let mut turns = 0;
    for (map, game, seeds) in starts {
        let mut players: Vec<_> = seeds.iter().map(|&seed| baseline::Greedy::new(seed)).collect();
        turns += baseline::play(map, odds, game.clone(), &mut players).turn;
    }
    turns
}

fn main() {
    let which = std::env::args().nth(1).unwrap_or_else(|| "engine".into());
    let rules = meeple_tests::load("dice_wars");
    let mut engine = Engine::new(rules.clone()).expect("engine");
    let starts: Vec<(GameState, Vec<u64>)> = (0..POSITIONS)
        .map(|index| {
            let seed = sim::derive_seed(SEED, index);
            let setup = GameSetup::new(&rules, seed, SEATS, "greedy");
            let state = engine.new_game(&setup, &mut Events::discard()).expect("the game starts");
            (state, (0..SEATS as u64).map(|seat| sim::derive_seed(seed, 1000 + seat)).collect())
        })
        .collect();
    let turns = match which.as_str() {
        "baseline" => {
            let odds = baseline::Odds::new();
            let starts: Vec<_> = starts
                .iter()
                .map(|(state, seeds)| {
                    let (map, game) = baseline::from_engine(&rules, state);
                    (map, game, seeds.clone())
                })
                .collect();
            baseline_play_all(&odds, &starts)
        }
        _ => engine_play_all(&mut engine, &starts),
    };
    println!("{which}: {POSITIONS} games, {turns} turns");
}
