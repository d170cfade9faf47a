//! Benchmark: how long the "hard" computer player takes to decide in Death Dome with four teams
//! of four units. Seeded games are played to their end (five matches) with a hard player at
//! seat 1 and medium players at the others; every decision of the hard seat — its moves, its
//! shop purchases and its answers out of turn (its sealed card stacks, where its jailed units go)
//! — is timed from the real position it was taken in. Prints the decisions' median, 90th and
//! 99th percentile and worst time, overall and by kind. The issue asks for at most 1 s a
//! decision on the project's 2-core machine.
//!
//! `cargo bench -p meeple-tests --bench death_dome_ai`

use std::time::{Duration, Instant};

use meeple_engine::ai;
use meeple_engine::game::{Action, ActionKind, Engine, Events, GameSetup};
use meeple_engine::rules::Ruleset;

const SEATS: usize = 4;
const HARD_SEAT: u8 = 0;
const SEEDS: [u64; 2] = [1, 2];
/// A safety net: actions a game may take at most (a game takes some 1,200).
const MAX_ACTIONS: usize = 20_000;

fn describe(rules: &Ruleset, action: &Action) -> String {
    match action.kind {
        ActionKind::Rule(index) => rules.actions[index as usize].id.clone(),
        ActionKind::Pass => "pass".into(),
        ActionKind::Leave => "leave".into(),
        ActionKind::Cancel => "cancel".into(),
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let rank = ((p / 100.0) * sorted.len() as f64).ceil().max(1.0) as usize;
    sorted[rank.min(sorted.len()) - 1]
}

fn main() {
    let rules = meeple_tests::load("death_dome");
    let mut engine = Engine::new(rules.clone()).expect("the engine starts");
    eprintln!("death_dome_ai: {SEATS} teams, hard at seat {}, medium elsewhere; seeds {SEEDS:?}", HARD_SEAT + 1);
    let mut decisions: Vec<(Duration, String)> = Vec::new();
    for seed in SEEDS {
        let setup = GameSetup::new(&rules, seed, SEATS, "medium");
        let mut state = engine.new_game(&setup, &mut Events::discard()).expect("the game starts");
        let mut players: Vec<_> = (0..SEATS as u64)
            .map(|seat| {
                let level = if seat as u8 == HARD_SEAT { "hard" } else { "medium" };
                ai::player(level, seed * 1000 + seat).expect("the level exists")
            })
            .collect();
        let started = Instant::now();
        let mut actions = 0;
        while state.outcome.is_none() && actions < MAX_ACTIONS {
            let seat = state.to_act();
            let clock = Instant::now();
            let action = players[seat as usize].decide(&mut engine, &state).expect("a decision");
            if seat == HARD_SEAT {
                decisions.push((clock.elapsed(), describe(&rules, &action)));
            }
            engine.apply(&mut state, &action, &mut Events::discard()).expect("a computer player's action applies");
            actions += 1;
        }
        eprintln!(
            "seed {seed}: {:?} after {} turns, {actions} actions, {:.1} s",
            state.outcome,
            state.turn.number,
            started.elapsed().as_secs_f64()
        );
    }
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let mut times: Vec<Duration> = decisions.iter().map(|d| d.0).collect();
    times.sort();
    println!(
        "hard decisions: {}; median {:.2} ms, 90th percentile {:.2} ms, 99th percentile {:.2} ms, worst {:.2} ms; over 1 s: {}",
        times.len(),
        ms(percentile(&times, 50.0)),
        ms(percentile(&times, 90.0)),
        ms(percentile(&times, 99.0)),
        ms(*times.last().expect("the hard seat decided")),
        times.iter().filter(|t| t.as_secs_f64() > 1.0).count(),
    );
    let mut kinds: Vec<String> = decisions.iter().map(|d| d.1.clone()).collect();
    kinds.sort();
    kinds.dedup();
    for kind in kinds {
        let mut of_kind: Vec<Duration> = decisions.iter().filter(|d| d.1 == kind).map(|d| d.0).collect();
        of_kind.sort();
        println!(
            "  {kind:<14} {:>6} decisions; median {:>8.2} ms, 90th percentile {:>8.2} ms, worst {:>8.2} ms",
            of_kind.len(),
            ms(percentile(&of_kind, 50.0)),
            ms(percentile(&of_kind, 90.0)),
            ms(*of_kind.last().unwrap()),
        );
    }
}
