//! A fixed amount of engine work (the first N games of `meeple sim dice_wars --seed 1`, greedy
//! players, one thread) for instruction-count profiling: `valgrind --tool=callgrind` gives the
//! same count for the same binary every run, unlike timings on a shared machine.

use meeple_engine::game::Engine;
use meeple_engine::sim::{SimConfig, play_one};

fn main() {
    let games: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(64);
    let rules = meeple_tests::load("dice_wars");
    let mut engine = Engine::new(rules).expect("engine");
    let config = SimConfig {
        games,
        seed: 1,
        seats: 4,
        levels: vec!["greedy".into()],
        rotate: false,
        rotate_first: false,
        threads: 1,
    };
    let mut turns = 0u64;
    for index in 0..games {
        turns += u64::from(play_one(&mut engine, &config, index).expect("game").turns);
    }
    println!("{games} games, {turns} turns");
}
