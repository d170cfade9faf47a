//! Shared helpers for the tests and benchmarks that exercise the bundled mods.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use meeple_engine::loader::{discover, load_mod};
use meeple_engine::rules::Ruleset;

/// The workspace root.
/// P(the sum of `n` six-sided dice = s), for s in 0..=6n: the exact distribution, by
/// convolution, that odds tests compare the engine against.
pub fn d6_sum_distribution(n: usize) -> Vec<f64> {
    let mut dist = vec![1.0];
    for _ in 0..n {
        let mut next = vec![0.0; dist.len() + 6];
        for (s, p) in dist.iter().enumerate() {
            for face in 1..=6 {
                next[s + face] += p / 6.0;
            }
        }
        dist = next;
    }
    dist
}

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ is inside the workspace").to_path_buf()
}

/// The bundled mods' folder.
pub fn mods_dir() -> PathBuf {
    root().join("mods")
}

/// Every bundled mod folder.
pub fn bundled() -> Vec<PathBuf> {
    discover(&mods_dir())
}

/// Loads a bundled mod by id, panicking with every problem if it does not load.
pub fn load(id: &str) -> Arc<Ruleset> {
    match load_mod(&mods_dir().join(id)) {
        Ok(loaded) => loaded.ruleset,
        Err(problems) => {
            panic!("{id} does not load:\n{}", problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))
        }
    }
}

/// The text of a panic's payload, for tests that catch panics and report them.
pub fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "(a panic without a message)".into())
}

/// The hard computer player's decision times in whole games: seeded games of `rules` (with
/// `seats`), played to their end (or `max_actions`) with the hard player at `hard_seat` and
/// medium players elsewhere; every decision of the hard seat is timed from the real position it
/// was taken in, with what it decided (the action's id, `pass`…). For the benchmarks.
pub fn time_hard_decisions(
    rules: &Arc<Ruleset>,
    seats: usize,
    hard_seat: u8,
    seeds: &[u64],
    max_actions: usize,
) -> Vec<(std::time::Duration, String)> {
    use meeple_engine::ai;
    use meeple_engine::game::{ActionKind, Engine, Events, GameSetup};
    let mut engine = Engine::new(rules.clone()).expect("the engine starts");
    let mut decisions = Vec::new();
    for &seed in seeds {
        let setup = GameSetup::new(rules, seed, seats, "medium");
        let mut state = engine.new_game(&setup, &mut Events::discard()).expect("the game starts");
        let mut players: Vec<_> = (0..seats as u64)
            .map(|seat| {
                let level = if seat as u8 == hard_seat { "hard" } else { "medium" };
                ai::player(level, seed * 1000 + seat).expect("the level exists")
            })
            .collect();
        let started = std::time::Instant::now();
        let mut actions = 0;
        while state.outcome.is_none() && actions < max_actions {
            let seat = state.to_act();
            let clock = std::time::Instant::now();
            let action = players[seat as usize].decide(&mut engine, &state).expect("a decision");
            if seat == hard_seat {
                let what = match action.kind {
                    ActionKind::Rule(index) => rules.actions[index as usize].id.clone(),
                    ActionKind::Pass => "pass".into(),
                    ActionKind::Leave => "leave".into(),
                    ActionKind::Cancel => "cancel".into(),
                };
                decisions.push((clock.elapsed(), what));
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
    decisions
}

/// Prints decision times as [`time_hard_decisions`] gives them: their median, 90th and 99th
/// percentile and worst, and how many took over 1 s, overall and by what was decided.
pub fn print_decision_times(decisions: &[(std::time::Duration, String)]) {
    use std::time::Duration;
    fn percentile(sorted: &[Duration], p: f64) -> Duration {
        let rank = ((p / 100.0) * sorted.len() as f64).ceil().max(1.0) as usize;
        sorted[rank.min(sorted.len()) - 1]
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
