//! Benchmark: what "generic" costs. Whole 4-player Dice Wars games with the greedy computer
//! player at every seat, played through the engine and the `dice_wars` mod, against the same
//! rules and player written plainly in Rust (`dice_wars_baseline.rs`) from the same positions.
//!
//! `cargo bench -p meeple-tests --bench dice_wars`; figures and their reading in
//! `docs/performance.md`.

mod dice_wars_baseline;

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput};
use dice_wars_baseline as baseline;
use meeple_engine::ai;
use meeple_engine::game::{Engine, Events, GameSetup, GameState};
use meeple_engine::rules::Ruleset;
use meeple_engine::sim::{self, SimConfig};

const SEATS: usize = 4;
/// The seed every game's seed is derived from (as `meeple sim --seed`).
const SEED: u64 = 1;
/// Start positions compared engine against baseline: games 0..POSITIONS of `meeple sim`.
const POSITIONS: usize = 64;

fn config(games: u64) -> SimConfig {
    SimConfig {
        games,
        seed: SEED,
        seats: SEATS,
        levels: vec!["greedy".into()],
        rotate: false,
        rotate_first: false,
        threads: 1,
    }
}

/// The start position of `meeple sim` game `index` (board built, dice dealt, first turn begun)
/// with its computer players' seeds.
struct Start {
    state: GameState,
    player_seeds: Vec<u64>,
}

fn start(engine: &mut Engine, index: u64) -> Start {
    let seed = sim::derive_seed(SEED, index);
    let setup = GameSetup::new(engine.rules(), seed, SEATS, "greedy");
    let state = engine.new_game(&setup, &mut Events::discard()).expect("the game starts");
    Start { state, player_seeds: (0..SEATS as u64).map(|seat| sim::derive_seed(seed, 1000 + seat)).collect() }
}

/// Plays on from a start position with the engine's greedy players, as `sim::play_one` does.
/// Returns the final state and the number of attacks.
fn play_engine(engine: &mut Engine, start: &Start) -> (GameState, u32) {
    let mut state = start.state.clone();
    let mut players: Vec<_> =
        start.player_seeds.iter().map(|&seed| ai::player("greedy", seed).expect("greedy exists")).collect();
    let mut events = Events::discard();
    let mut attacks = 0;
    while state.outcome.is_none() {
        let action = players[state.turn.seat as usize].decide(engine, &state).unwrap();
        attacks += u32::from(!action.is_pass());
        engine.apply(&mut state, &action, &mut events).expect("a legal action applies");
    }
    (state, attacks)
}

/// A start position as the baseline sees it.
struct BaselineStart {
    map: baseline::Map,
    game: baseline::Game,
    player_seeds: Vec<u64>,
}

fn play_baseline(odds: &baseline::Odds, start: &BaselineStart) -> baseline::Game {
    let mut players: Vec<_> = start.player_seeds.iter().map(|&seed| baseline::Greedy::new(seed)).collect();
    baseline::play(&start.map, odds, start.game.clone(), &mut players)
}

/// Prints what the compared games are like, so the figures can be read per battle and per turn.
fn describe(rules: &Ruleset, engine: &mut Engine, starts: &[Start], odds: &baseline::Odds) {
    let n = starts.len() as f64;
    let (mut turns, mut attacks, mut same) = (0u64, 0u64, 0usize);
    let (mut base_turns, mut base_attacks) = (0u64, 0u64);
    let mut spaces = 0usize;
    for start in starts {
        let (state, engine_attacks) = play_engine(engine, start);
        let (map, game) = baseline::from_engine(rules, &start.state);
        let played = play_baseline(odds, &BaselineStart { map, game, player_seeds: start.player_seeds.clone() });
        turns += u64::from(state.turn.number);
        attacks += u64::from(engine_attacks);
        base_turns += u64::from(played.turn);
        base_attacks += u64::from(played.attacks);
        spaces += state.board.space_count();
        same += usize::from(state.owners == played.owner && state.turn.number == played.turn);
    }
    eprintln!(
        "dice_wars: {} start positions, {:.1} territories; engine {:.1} turns, {:.1} attacks a game; \
         baseline {:.1} turns, {:.1} attacks a game; {same} of {} games identical",
        starts.len(),
        spaces as f64 / n,
        turns as f64 / n,
        attacks as f64 / n,
        base_turns as f64 / n,
        base_attacks as f64 / n,
        starts.len(),
    );
}

fn benches(c: &mut Criterion) {
    let rules = meeple_tests::load("dice_wars");
    let mut engine = Engine::new(rules.clone()).expect("the engine starts");
    let starts: Vec<Start> = (0..POSITIONS as u64).map(|i| start(&mut engine, i)).collect();
    let odds = baseline::Odds::new();
    let baseline_starts: Vec<BaselineStart> = starts
        .iter()
        .map(|s| {
            let (map, game) = baseline::from_engine(&rules, &s.state);
            BaselineStart { map, game, player_seeds: s.player_seeds.clone() }
        })
        .collect();
    describe(&rules, &mut engine, &starts, &odds);

    let mut group = c.benchmark_group("dice_wars");
    group.sample_size(20).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(5));

    // One whole game per iteration, each from a new seed, exactly as `meeple sim` plays it:
    // board generation, setup, and the greedy loop.
    group.throughput(Throughput::Elements(1));
    let mut index = 0u64;
    let one = config(u64::MAX);
    group.bench_function("engine_from_setup", |b| {
        b.iter(|| {
            let summary = sim::play_one(&mut engine, &one, index).expect("the game plays");
            index += 1;
            black_box(summary.turns)
        })
    });

    // Board generation and setup alone, to subtract.
    let mut index = 0u64;
    group.bench_function("engine_setup_only", |b| {
        b.iter(|| {
            let s = start(&mut engine, index);
            index += 1;
            black_box(s.state.turn.number)
        })
    });

    // The same 64 games from their start positions, engine and baseline: one iteration plays
    // all of them, so both sides do exactly the same set of games.
    group.throughput(Throughput::Elements(POSITIONS as u64));
    group.bench_function("engine_from_start_x64", |b| {
        b.iter(|| {
            let mut turns = 0;
            for start in &starts {
                turns += play_engine(&mut engine, start).0.turn.number;
            }
            black_box(turns)
        })
    });
    group.bench_function("baseline_from_start_x64", |b| {
        b.iter(|| {
            let mut turns = 0;
            for start in &baseline_starts {
                turns += play_baseline(&odds, start).turn;
            }
            black_box(turns)
        })
    });

    // Cloning a start position, which both sides do once per game.
    group.throughput(Throughput::Elements(1));
    group.bench_function("engine_clone_state", |b| b.iter(|| black_box(starts[0].state.clone())));
    group.finish();
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    benches(&mut criterion);
    criterion.final_summary();
}
