//! Dice Wars at a table of two: who moves first is drawn from the game's seeded stream, so
//! seat 1 wins about half the games between equal computer players (it won 88% when it always
//! moved first), the same seed starts the same seat and a save replays it; and two medium
//! players finish their games instead of freezing behind stacks of 8 until the turn limit
//! (3.3% of games did).

use meeple_engine::game::{Engine, Events, GameSetup, Outcome};
use meeple_engine::save::SaveFile;
use meeple_engine::sim::{self, SimConfig};
use meeple_engine::{ai, game::Action};
use meeple_tests::load;

/// Games per check: enough for the bounds below, played in about a second.
const GAMES: u64 = 1000;

/// The seat (from 0) a game of `seats` seats with this seed starts with.
fn first_seat(engine: &mut Engine, seed: u64, seats: usize) -> u8 {
    let setup = GameSetup::new(engine.rules(), seed, seats, "greedy");
    engine.new_game(&setup, &mut Events::discard()).unwrap().turn.seat
}

/// `count` out of `total` is within four standard errors of a fair coin's half.
fn about_half(count: u64, total: u64) -> bool {
    let n = total as f64;
    let tolerance = 4.0 * (0.25 / n).sqrt();
    (count as f64 / n - 0.5).abs() <= tolerance
}

/// The probability of at most `count` successes in `total` trials of probability `p`.
fn binomial_cdf(count: u64, total: u64, p: f64) -> f64 {
    // Term by term from k = 0, in logarithms so that large totals do not underflow.
    let (ln_p, ln_q) = (p.ln(), (1.0 - p).ln());
    let mut ln_choose = 0.0;
    let mut sum = 0.0;
    for k in 0..=count {
        if k > 0 {
            ln_choose += ((total - k + 1) as f64).ln() - (k as f64).ln();
        }
        sum += (ln_choose + k as f64 * ln_p + (total - k) as f64 * ln_q).exp();
    }
    sum
}

/// The exact (Clopper–Pearson) one-sided 95% upper bound of a rate seen `count` times in
/// `total` trials: the rate at which seeing so few would happen only 5% of the time.
fn upper_bound_95(count: u64, total: u64) -> f64 {
    let (mut low, mut high) = (count as f64 / total as f64, 1.0);
    for _ in 0..60 {
        let mid = (low + high) / 2.0;
        if binomial_cdf(count, total, mid) > 0.05 { low = mid } else { high = mid }
    }
    high
}

#[test]
fn the_bounds_are_the_textbook_ones() {
    // No event in n trials: the bound is 1 - 0.05^(1/n), about 3/n (the "rule of three").
    assert!((upper_bound_95(0, 1000) - (1.0 - 0.05f64.powf(1e-3))).abs() < 1e-9);
    assert!((upper_bound_95(0, 1000) - 0.002_991).abs() < 1e-6);
    // One event in 1000: 0.4735% (tables of the exact binomial bound).
    assert!((upper_bound_95(1, 1000) - 0.004_735).abs() < 1e-5, "{}", upper_bound_95(1, 1000));
    assert!(about_half(530, 1000) && !about_half(570, 1000) && !about_half(878, 1000));
}

/// Two medium players at a table of two, `GAMES` seeded games: seat 1 moves first in about half
/// of them and wins about half of them; a draw (the 1,000-turn safety net: a table of two has
/// no other) is rare, its exact 95% upper bound below 0.5%.
#[test]
fn two_medium_players_seat_1_wins_about_half_and_games_finish() {
    let rules = load("dice_wars");
    let config = SimConfig {
        games: GAMES,
        seed: 1,
        seats: 2,
        levels: vec!["medium".into()],
        rotate: false,
        rotate_first: false,
        threads: 2,
    };
    let (report, games) = sim::run(rules.clone(), &config, &|_| {}).unwrap();
    let mut engine = Engine::new(rules).unwrap();
    let (mut seat_1_first, mut seat_1_wins, mut first_mover_wins, mut won, mut draws) = (0, 0, 0, 0, 0);
    for game in &games {
        let first = first_seat(&mut engine, game.seed, 2);
        seat_1_first += u64::from(first == 0);
        match &game.outcome {
            Outcome::Win { seats } => {
                won += 1;
                seat_1_wins += u64::from(seats == &[0]);
                first_mover_wins += u64::from(seats == &[first]);
            }
            Outcome::Draw { .. } => {
                draws += 1;
                assert!(
                    game.turns > 1000,
                    "game {}: drawn after {} turns, before the turn limit",
                    game.index,
                    game.turns
                );
            }
        }
    }
    eprintln!(
        "{GAMES} games: seat 1 moved first in {seat_1_first}; of {won} won, seat 1 won {seat_1_wins} and the first \
         mover {first_mover_wins}; {draws} drawn (mean {:.1} turns)",
        report.turns_mean
    );
    assert_eq!(games.len() as u64, GAMES);
    assert!(about_half(seat_1_first, GAMES), "seat 1 moved first in {seat_1_first} of {GAMES} games");
    assert!(about_half(seat_1_wins, won), "seat 1 won {seat_1_wins} of {won} games");
    let bound = upper_bound_95(draws, GAMES);
    assert!(bound < 0.005, "{draws} of {GAMES} games drawn: the draw rate may be up to {:.2}%", 100.0 * bound);
}

/// Every table size starts with each seat about as often; the same seed starts the same one.
#[test]
fn the_first_seat_is_drawn_fairly_and_the_seed_decides_it() {
    let rules = load("dice_wars");
    let mut engine = Engine::new(rules).unwrap();
    for seats in [2, 3, 4, 8] {
        let games = 60 * seats as u64;
        let mut starts = vec![0u64; seats];
        for index in 0..games {
            let seed = sim::derive_seed(7, index);
            let first = first_seat(&mut engine, seed, seats);
            assert_eq!(first_seat(&mut engine, seed, seats), first, "seed {seed}: the same seed, the same first seat");
            starts[first as usize] += 1;
        }
        // Each count is binomial(games, 1/seats): within four standard deviations of its mean.
        let p = 1.0 / seats as f64;
        let (mean, sd) = (games as f64 * p, (games as f64 * p * (1.0 - p)).sqrt());
        for (seat, &count) in starts.iter().enumerate() {
            assert!(
                (count as f64 - mean).abs() <= 4.0 * sd,
                "{seats} seats: seat {} started {count} of {games} games (expected {mean:.0} ± {:.0})",
                seat + 1,
                4.0 * sd
            );
        }
    }
}

/// A save of a game that seat 2 started names no order of its own: its seed draws the same
/// first seat again, so loading it replays the same turns to the same hash.
#[test]
fn a_save_replays_the_drawn_order() {
    let rules = load("dice_wars");
    let mut engine = Engine::new(rules.clone()).unwrap();
    let seed = (0..100).find(|&seed| first_seat(&mut engine, seed, 2) == 1).expect("a game seat 2 starts");
    let setup = GameSetup::new(&rules, seed, 2, "greedy");
    let mut events = Events::discard();
    let mut state = engine.new_game(&setup, &mut events).unwrap();
    let mut players: Vec<_> = (0..2).map(|seat| ai::player("medium", seed + seat).unwrap()).collect();
    let mut history: Vec<(u8, Action)> = Vec::new();
    while state.outcome.is_none() && history.len() < 60 {
        let seat = state.turn.seat;
        let action = players[seat as usize].decide(&mut engine, &state).unwrap();
        engine.apply(&mut state, &action, &mut events).unwrap();
        history.push((seat, action));
    }
    assert_eq!(history[0].0, 1, "seat 2 took the first action");
    let json = serde_json::to_vec(&SaveFile::new(&rules, &setup, &history, &state)).unwrap();
    let loaded = SaveFile::parse(&json, "order.json").unwrap();
    let (replayed, replayed_history) =
        loaded.replay(&mut Engine::new(rules).unwrap(), "order.json", &mut Events::discard()).unwrap();
    assert_eq!(replayed_history, history, "the same seats take the same actions");
    assert_eq!(replayed.hash(), state.hash());
}

/// A round is every seat's turn once, counted from the seat that moved first: at a table of
/// three whose first seat was drawn as seat 2 or 3, round 2 begins when that seat moves again,
/// not when seat 1 does.
#[test]
fn rounds_count_from_the_seat_that_moved_first() {
    let rules = load("dice_wars");
    let mut engine = Engine::new(rules.clone()).unwrap();
    let seed = (0..100).find(|&seed| first_seat(&mut engine, seed, 3) == 1).expect("a seed that starts seat 2");
    let setup = GameSetup::new(&rules, seed, 3, "human");
    let mut state = engine.new_game(&setup, &mut Events::discard()).unwrap();
    let mut seen = Vec::new();
    while seen.len() < 7 && state.outcome.is_none() {
        seen.push((state.turn.seat, state.turn.round));
        engine.apply(&mut state, &Action::pass(), &mut Events::discard()).unwrap();
    }
    assert_eq!(seen, vec![(1, 1), (2, 1), (0, 1), (1, 2), (2, 2), (0, 2), (1, 3)]);
}
