//! Benchmark: how long the "hard" computer player (`ai::player("hard", seed)`, the search
//! player) takes to decide in Dunes of Terror with eight characters on the full 26 x 100 map.
//! Several seeded games are played to their end with hard players at two seats (one a side) and
//! medium players at the other six; every decision of the hard seats is timed from the real
//! position it was taken in. Prints the number of decisions and their median, 90th and 99th
//! percentile and worst time, overall, by kind and by the number of characters alive. The issue
//! asks for at most 1 s a decision on the project's 2-core machine.
//!
//! Decisions get cheaper as characters die (shorter look-ahead rounds), and a game that stalls
//! (characters that no longer approach each other) would run to the mod's 4000-turn limit with
//! many cheap decisions pulling the overall median down: hence the figures by characters alive.
//!
//! `cargo bench -p meeple-tests --bench dunes_ai`

use std::time::{Duration, Instant};

use meeple_engine::ai;
use meeple_engine::game::{Action, ActionKind, Engine, Events, GameSetup, GameState, Outcome};
use meeple_engine::rules::Ruleset;

const SEATS: usize = 8;
/// The seats the hard player takes; the others are medium. With seats alternating between the
/// sides, seat 1 is police and seat 2 terrorists.
const HARD_SEATS: [u8; 2] = [0, 1];
/// The games' seeds.
const SEEDS: [u64; 10] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
/// A safety net: actions a game may take at most (medium games end well before).
const MAX_ACTIONS: usize = 50_000;

/// One timed decision.
struct Decision {
    time: Duration,
    seed: u64,
    turn: u32,
    seat: u8,
    /// Characters alive when it was taken.
    alive: usize,
    /// What was decided: the action's id, and whether it was a rolled action's second step.
    what: String,
}

fn describe(rules: &Ruleset, state: &GameState, action: &Action) -> String {
    let step = if state.turn.pending.is_some() { " (after the roll)" } else { "" };
    match action.kind {
        ActionKind::Rule(index) => format!("{}{step}", rules.actions[index as usize].id),
        ActionKind::Pass => "pass".into(),
        ActionKind::Leave => "leave".into(),
        ActionKind::Cancel => "cancel".into(),
    }
}

fn play(engine: &mut Engine, seed: u64, decisions: &mut Vec<Decision>) {
    let rules = engine.rules().clone();
    let setup = GameSetup::new(&rules, seed, SEATS, "medium");
    let mut state = engine.new_game(&setup, &mut Events::discard()).expect("the game starts");
    let mut players: Vec<_> = (0..SEATS as u64)
        .map(|seat| {
            let level = if HARD_SEATS.contains(&(seat as u8)) { "hard" } else { "medium" };
            ai::player(level, seed * 1000 + seat).expect("the level exists")
        })
        .collect();
    let mut events = Events::discard();
    let started = Instant::now();
    let first = decisions.len();
    let mut actions = 0;
    while state.outcome.is_none() && actions < MAX_ACTIONS {
        let seat = state.turn.seat;
        let action = if HARD_SEATS.contains(&seat) {
            let clock = Instant::now();
            let action = players[seat as usize].decide(engine, &state).unwrap();
            let time = clock.elapsed();
            let what = describe(&rules, &state, &action);
            let alive = state.pieces.iter().filter(|p| p.alive).count();
            decisions.push(Decision { time, seed, turn: state.turn.number, seat, alive, what });
            action
        } else {
            players[seat as usize].decide(engine, &state).unwrap()
        };
        engine.apply(&mut state, &action, &mut events).expect("a computer player's action applies");
        actions += 1;
    }
    let hard = &decisions[first..];
    let result = match &state.outcome {
        Some(Outcome::Win { seats }) => {
            let side = state.seats[seats[0] as usize].side;
            format!("won by {}", rules.data.seats.sides[side as usize].id)
        }
        Some(Outcome::Draw { .. }) => "drawn".into(),
        None => format!("stopped after {MAX_ACTIONS} actions"),
    };
    eprintln!(
        "seed {seed}: {result} after {} turns, {actions} actions; {} hard decisions taking {:.1} s of {:.1} s; \
         slowest {:.0} ms",
        state.turn.number,
        hard.len(),
        hard.iter().map(|d| d.time.as_secs_f64()).sum::<f64>(),
        started.elapsed().as_secs_f64(),
        hard.iter().map(|d| d.time).max().unwrap_or_default().as_secs_f64() * 1000.0,
    );
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    // Nearest rank.
    let rank = ((p / 100.0) * sorted.len() as f64).ceil().max(1.0) as usize;
    sorted[rank.min(sorted.len()) - 1]
}

fn main() {
    let rules = meeple_tests::load("dunes_of_terror");
    let mut engine = Engine::new(rules.clone()).expect("the engine starts");
    eprintln!(
        "dunes_ai: {SEATS} characters, hard at seats {:?}, medium elsewhere; seeds {SEEDS:?}; {} cores",
        HARD_SEATS.map(|s| s + 1),
        std::thread::available_parallelism().map_or(0, |n| n.get()),
    );
    let mut decisions = Vec::new();
    for seed in SEEDS {
        play(&mut engine, seed, &mut decisions);
    }
    let mut times: Vec<Duration> = decisions.iter().map(|d| d.time).collect();
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let total: Duration = times.iter().sum();
    println!(
        "hard decisions: {}; median {:.2} ms, 90th percentile {:.2} ms, 99th percentile {:.2} ms, worst {:.2} ms, \
         mean {:.2} ms; over 1 s: {}",
        times.len(),
        ms(percentile(&times, 50.0)),
        ms(percentile(&times, 90.0)),
        ms(percentile(&times, 99.0)),
        ms(*times.last().expect("the hard seats decided")),
        ms(total) / times.len() as f64,
        times.iter().filter(|t| t.as_secs_f64() > 1.0).count(),
    );
    // Per kind of decision, and the slowest ones.
    let mut kinds: Vec<String> = decisions.iter().map(|d| d.what.clone()).collect();
    kinds.sort();
    kinds.dedup();
    for kind in kinds {
        let mut of_kind: Vec<Duration> = decisions.iter().filter(|d| d.what == kind).map(|d| d.time).collect();
        of_kind.sort();
        println!(
            "  {kind:<28} {:>6} decisions; median {:>8.2} ms, 90th percentile {:>8.2} ms, worst {:>8.2} ms",
            of_kind.len(),
            ms(percentile(&of_kind, 50.0)),
            ms(percentile(&of_kind, 90.0)),
            ms(*of_kind.last().unwrap()),
        );
    }
    // By the number of characters alive: more characters, longer look-ahead rounds.
    for alive in (2..=SEATS).rev() {
        let mut with: Vec<Duration> = decisions.iter().filter(|d| d.alive == alive).map(|d| d.time).collect();
        if with.is_empty() {
            continue;
        }
        with.sort();
        println!(
            "  {alive} characters alive {:>11} decisions; median {:>8.2} ms, 90th percentile {:>8.2} ms, worst {:>8.2} ms",
            with.len(),
            ms(percentile(&with, 50.0)),
            ms(percentile(&with, 90.0)),
            ms(*with.last().unwrap()),
        );
    }
    decisions.sort_by_key(|d| std::cmp::Reverse(d.time));
    println!("slowest:");
    for d in decisions.iter().take(5) {
        println!(
            "  {:>8.2} ms  seed {} turn {} seat {} ({} characters alive): {}",
            ms(d.time),
            d.seed,
            d.turn,
            d.seat + 1,
            d.alive,
            d.what
        );
    }
}
