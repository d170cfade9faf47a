//! Computer-versus-computer simulation on all cores, with the statistics designers need: each
//! seat's win rate with a 95% interval, draws, game length, how often each action was chosen,
//! speed.
//!
//! Results depend only on the ruleset, the seed and the settings, never on the number of
//! threads or their timing: game `i` uses its own derived seeds, and results are gathered in
//! game order.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde::Serialize;

use crate::ai;
use crate::game::{ActionKind, Engine, Events, GameSetup, Outcome};
use crate::rules::Ruleset;

/// What to simulate.
#[derive(Clone, Debug)]
pub struct SimConfig {
    pub games: u64,
    pub seed: u64,
    pub seats: usize,
    /// Computer level per seat; cycled when shorter than the seat count.
    pub levels: Vec<String>,
    /// Rotate the levels one seat further each game, so every level plays every seat equally.
    pub rotate: bool,
    /// Let seat `index % seats` move first in game `index` (instead of the mod's `[seats]
    /// first`), so that every seat moves first, second… equally often: a map's fairness
    /// measured apart from the order of play.
    pub rotate_first: bool,
    pub threads: usize,
}

/// One finished game.
#[derive(Clone, Debug, Serialize)]
pub struct GameSummary {
    pub index: u64,
    pub seed: u64,
    /// Level at each seat in this game.
    pub levels: Vec<String>,
    pub outcome: Outcome,
    pub turns: u32,
    pub rounds: u32,
    pub actions: u64,
    /// How many times the players chose each of the mod's actions, by action index (actions
    /// performed by the rules themselves not counted). Left out of the per-game lines.
    #[serde(skip)]
    pub chosen: Vec<u32>,
}

/// A proportion with its 95% Wilson score interval.
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct Rate {
    pub count: u64,
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

impl Rate {
    /// `count` successes out of `total`, with the Wilson interval at z = 1.96.
    pub fn new(count: u64, total: u64) -> Self {
        if total == 0 {
            return Self { count, rate: 0.0, low: 0.0, high: 0.0 };
        }
        let n = total as f64;
        let p = count as f64 / n;
        let z = 1.959_963_984_540_054_f64;
        let denominator = 1.0 + z * z / n;
        let center = (p + z * z / (2.0 * n)) / denominator;
        let half = z * ((p * (1.0 - p) + z * z / (4.0 * n)) / n).sqrt() / denominator;
        Self { count, rate: p, low: (center - half).max(0.0), high: (center + half).min(1.0) }
    }
}

/// Per-seat figures.
#[derive(Clone, Debug, Serialize)]
pub struct SeatReport {
    /// 1-based.
    pub seat: usize,
    pub wins: Rate,
}

/// Per-level figures (when several levels play).
#[derive(Clone, Debug, Serialize)]
pub struct LevelReport {
    pub level: String,
    /// Games in which this level sat at least once.
    pub games: u64,
    /// Games won by a seat of this level, out of the games it played.
    pub wins: Rate,
}

/// How often the players chose one of the mod's actions: what tells a designer whether the
/// computer players build that wall at all.
#[derive(Clone, Debug, Serialize)]
pub struct ActionUse {
    pub action: String,
    /// Times chosen per game, on average.
    pub per_game: f64,
    /// Games in which it was chosen at least once.
    pub games: Rate,
}

/// The summary `meeple sim` prints.
#[derive(Clone, Debug, Serialize)]
pub struct SimReport {
    #[serde(rename = "mod")]
    pub mod_id: String,
    pub mod_version: String,
    pub games: u64,
    pub seed: u64,
    pub seats: usize,
    pub levels: Vec<String>,
    pub rotate: bool,
    pub rotate_first: bool,
    pub per_seat: Vec<SeatReport>,
    pub per_level: Vec<LevelReport>,
    pub draws: Rate,
    pub turns_mean: f64,
    pub turns_median: f64,
    pub rounds_mean: f64,
    pub actions_mean: f64,
    /// Each action players may choose, in the mod's order (passing and `automatic` actions,
    /// which only the rules perform, not counted).
    pub actions_chosen: Vec<ActionUse>,
    /// Timing figures: they vary between runs, everything else does not.
    pub timing: Timing,
}

#[derive(Clone, Debug, Serialize)]
pub struct Timing {
    pub seconds: f64,
    pub games_per_second: f64,
    pub threads: usize,
}

/// SplitMix64: derives independent seeds from one.
pub fn derive_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed.wrapping_add(index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The levels at each seat of game `index`.
pub fn levels_for(config: &SimConfig, index: u64) -> Vec<String> {
    let shift = if config.rotate { index as usize } else { 0 };
    (0..config.seats).map(|seat| config.levels[(seat + shift) % config.levels.len()].clone()).collect()
}

/// Plays one computer-versus-computer game.
pub fn play_one(engine: &mut Engine, config: &SimConfig, index: u64) -> Result<GameSummary, String> {
    let rules = engine.rules().clone();
    let seed = derive_seed(config.seed, index);
    let levels = levels_for(config, index);
    let mut setup = GameSetup::new(&rules, seed, config.seats, "computer");
    if config.rotate_first {
        setup.first_seat = Some((index % config.seats as u64) as u8);
    }
    for (seat, level) in setup.seats.iter_mut().zip(&levels) {
        seat.controller = level.clone();
    }
    let mut players = levels
        .iter()
        .enumerate()
        .map(|(seat, level)| ai::player(level, derive_seed(seed, 1000 + seat as u64)))
        .collect::<Result<Vec<_>, _>>()?;
    let mut events = Events::discard();
    let mut state = engine.new_game(&setup, &mut events).map_err(|e| format!("game {index}: {e}"))?;
    let mut actions = 0u64;
    let mut chosen = vec![0u32; rules.actions.len()];
    while state.outcome.is_none() {
        let seat = state.to_act() as usize;
        let action = players[seat].decide(engine, &state).map_err(|e| {
            format!("game {index}, turn {}: the computer player could not decide: {e}", state.turn.number)
        })?;
        engine
            .apply(&mut state, &action, &mut events)
            .map_err(|e| format!("game {index}, turn {}: {e}", state.turn.number))?;
        actions += 1;
        if let ActionKind::Rule(index) = action.kind {
            if let Some(count) = chosen.get_mut(index as usize) {
                *count += 1;
            }
        }
    }
    Ok(GameSummary {
        index,
        seed,
        levels,
        outcome: state.outcome.clone().expect("loop ends when the game is over"),
        turns: state.turn.number,
        rounds: state.turn.round,
        actions,
        chosen,
    })
}

/// Runs the simulation. `progress` is called with the number of finished games.
pub fn run(
    rules: Arc<Ruleset>,
    config: &SimConfig,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(SimReport, Vec<GameSummary>), String> {
    let never = AtomicBool::new(false);
    run_until(rules, config, progress, &never).map(|done| done.expect("never cancelled"))
}

/// Runs the simulation as [`run`] does, stopping after the games in play when `cancel` is set
/// (then `Ok(None)`): for simulations a person may call off, like the editor's balance panel.
pub fn run_until(
    rules: Arc<Ruleset>,
    config: &SimConfig,
    progress: &(dyn Fn(u64) + Sync),
    cancel: &AtomicBool,
) -> Result<Option<(SimReport, Vec<GameSummary>)>, String> {
    if config.levels.is_empty() {
        return Err("give at least one computer level".into());
    }
    for level in &config.levels {
        ai::player(level, 0)?;
    }
    let range = rules.manifest.seats;
    if config.seats < range.min as usize || config.seats > range.max as usize {
        return Err(format!(
            "{} takes {} to {} players, not {}",
            rules.manifest.name, range.min, range.max, config.seats
        ));
    }
    let started = Instant::now();
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let failed: Mutex<Option<String>> = Mutex::new(None);
    // Reserved for at most so many games: the count comes from the command line, and a
    // mistyped one must not be allocated before a single game is played.
    let results: Mutex<Vec<GameSummary>> = Mutex::new(Vec::with_capacity(config.games.min(1 << 16) as usize));
    let threads = config.threads.max(1).min(config.games.max(1) as usize);
    let stop = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut engine = match Engine::new(rules.clone()) {
                    Ok(engine) => engine,
                    Err(e) => {
                        *failed.lock().expect("no panics while locked") = Some(e.to_string());
                        stop.store(1, Ordering::Relaxed);
                        return;
                    }
                };
                let mut local = Vec::new();
                loop {
                    if stop.load(Ordering::Relaxed) != 0 || cancel.load(Ordering::Relaxed) {
                        break;
                    }
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= config.games {
                        break;
                    }
                    match play_one(&mut engine, config, index) {
                        Ok(summary) => local.push(summary),
                        Err(e) => {
                            failed.lock().expect("no panics while locked").get_or_insert(e);
                            stop.store(1, Ordering::Relaxed);
                            break;
                        }
                    }
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                }
                results.lock().expect("no panics while locked").append(&mut local);
            });
        }
    });
    if let Some(error) = failed.into_inner().expect("no panics while locked") {
        return Err(error);
    }
    if cancel.load(Ordering::Relaxed) {
        return Ok(None);
    }
    let mut games = results.into_inner().expect("no panics while locked");
    games.sort_by_key(|g| g.index);
    let seconds = started.elapsed().as_secs_f64();
    Ok(Some((summarize(&rules, config, &games, seconds, threads), games)))
}

fn summarize(rules: &Ruleset, config: &SimConfig, games: &[GameSummary], seconds: f64, threads: usize) -> SimReport {
    let total = games.len() as u64;
    let mut seat_wins = vec![0u64; config.seats];
    let mut draws = 0u64;
    let mut level_names: Vec<String> = Vec::new();
    for level in &config.levels {
        if !level_names.contains(level) {
            level_names.push(level.clone());
        }
    }
    let mut level_games = vec![0u64; level_names.len()];
    let mut level_wins = vec![0u64; level_names.len()];
    for game in games {
        for (l, name) in level_names.iter().enumerate() {
            if game.levels.contains(name) {
                level_games[l] += 1;
            }
        }
        match &game.outcome {
            Outcome::Win { seats } => {
                for &seat in seats {
                    seat_wins[seat as usize] += 1;
                }
                for (l, name) in level_names.iter().enumerate() {
                    if seats.iter().any(|&s| &game.levels[s as usize] == name) {
                        level_wins[l] += 1;
                    }
                }
            }
            Outcome::Draw { .. } => draws += 1,
        }
    }
    let mut turns: Vec<u32> = games.iter().map(|g| g.turns).collect();
    turns.sort_unstable();
    let median = match turns.len() {
        0 => 0.0,
        n if n % 2 == 1 => f64::from(turns[n / 2]),
        n => (f64::from(turns[n / 2 - 1]) + f64::from(turns[n / 2])) / 2.0,
    };
    let mean = |f: &dyn Fn(&GameSummary) -> f64| {
        if total == 0 { 0.0 } else { games.iter().map(f).sum::<f64>() / total as f64 }
    };
    SimReport {
        mod_id: rules.manifest.id.clone(),
        mod_version: rules.manifest.version.clone(),
        games: total,
        seed: config.seed,
        seats: config.seats,
        levels: config.levels.clone(),
        rotate: config.rotate,
        rotate_first: config.rotate_first,
        per_seat: seat_wins
            .iter()
            .enumerate()
            .map(|(i, &w)| SeatReport { seat: i + 1, wins: Rate::new(w, total) })
            .collect(),
        per_level: if level_names.len() > 1 {
            level_names
                .iter()
                .enumerate()
                .map(|(l, name)| LevelReport {
                    level: name.clone(),
                    games: level_games[l],
                    wins: Rate::new(level_wins[l], level_games[l]),
                })
                .collect()
        } else {
            Vec::new()
        },
        draws: Rate::new(draws, total),
        turns_mean: mean(&|g| f64::from(g.turns)),
        turns_median: median,
        rounds_mean: mean(&|g| f64::from(g.rounds)),
        actions_mean: mean(&|g| g.actions as f64),
        actions_chosen: rules
            .actions
            .iter()
            .enumerate()
            .filter(|(_, action)| !action.automatic)
            .map(|(index, action)| {
                let count_in = |g: &GameSummary| g.chosen.get(index).copied().unwrap_or(0);
                ActionUse {
                    action: action.id.clone(),
                    per_game: mean(&|g| f64::from(count_in(g))),
                    games: Rate::new(games.iter().filter(|g| count_in(g) > 0).count() as u64, total),
                }
            })
            .collect(),
        timing: Timing { seconds, games_per_second: if seconds > 0.0 { total as f64 / seconds } else { 0.0 }, threads },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_matches_reference_values() {
        // Reference: p = 0.5, n = 100 → (0.4038, 0.5962).
        let r = Rate::new(50, 100);
        assert!((r.low - 0.4038).abs() < 1e-4 && (r.high - 0.5962).abs() < 1e-4, "{r:?}");
        let r = Rate::new(0, 10);
        assert_eq!(r.low, 0.0);
        assert!((r.high - 0.2775).abs() < 1e-4, "{r:?}");
    }

    #[test]
    fn derived_seeds_differ() {
        let seeds: std::collections::BTreeSet<u64> = (0..1000).map(|i| derive_seed(1, i)).collect();
        assert_eq!(seeds.len(), 1000);
    }
}
