//! Checks that the plain Rust Dice Wars of the benchmark (`benches/dice_wars_baseline.rs`) does
//! the same work as the engine playing `mods/dice_wars`: the same odds, and games with the same
//! statistics from the same start positions, so the benchmark compares equal work.

#[path = "benches/dice_wars_baseline.rs"]
mod baseline;

use meeple_engine::ai;
use meeple_engine::game::{Action, ActionKind, Engine, Events, GameSetup, GameState, Outcome};
use meeple_engine::sim;

const SEATS: usize = 4;
const GAMES: u64 = 300;

/// What the comparison needs of one game: the winner (None for a draw) and its length.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Played {
    winner: Option<u8>,
    turns: u32,
    attacks: u32,
}

struct Stats {
    mean_turns: f64,
    var_turns: f64,
    mean_attacks: f64,
    var_attacks: f64,
    first_seat_wins: f64,
    draws: f64,
}

fn stats(games: &[Played]) -> Stats {
    let n = games.len() as f64;
    let mean = |f: &dyn Fn(&Played) -> f64| games.iter().map(f).sum::<f64>() / n;
    let mean_turns = mean(&|g| f64::from(g.turns));
    let mean_attacks = mean(&|g| f64::from(g.attacks));
    Stats {
        mean_turns,
        var_turns: mean(&|g| (f64::from(g.turns) - mean_turns).powi(2)),
        mean_attacks,
        var_attacks: mean(&|g| (f64::from(g.attacks) - mean_attacks).powi(2)),
        first_seat_wins: games.iter().filter(|g| g.winner == Some(0)).count() as f64 / n,
        draws: games.iter().filter(|g| g.winner.is_none()).count() as f64 / n,
    }
}

fn start(engine: &mut Engine, index: u64) -> (GameState, Vec<u64>) {
    let seed = sim::derive_seed(1, index);
    let setup = GameSetup::new(engine.rules(), seed, SEATS, "greedy");
    let state = engine.new_game(&setup, &mut Events::discard()).expect("the game starts");
    (state, (0..SEATS as u64).map(|seat| sim::derive_seed(seed, 1000 + seat)).collect())
}

fn play_engine(engine: &mut Engine, mut state: GameState, seeds: &[u64]) -> Played {
    let mut players: Vec<_> = seeds.iter().map(|&s| ai::player("greedy", s).expect("greedy exists")).collect();
    let mut events = Events::discard();
    let mut attacks = 0;
    while state.outcome.is_none() {
        let action = players[state.turn.seat as usize].decide(engine, &state).unwrap();
        attacks += u32::from(!action.is_pass());
        engine.apply(&mut state, &action, &mut events).expect("a legal action applies");
    }
    let winner = match state.outcome {
        Some(Outcome::Win { ref seats }) => Some(seats[0]),
        _ => None,
    };
    Played { winner, turns: state.turn.number, attacks }
}

fn play_baseline(map: &baseline::Map, game: baseline::Game, seeds: &[u64]) -> Played {
    let odds = baseline::Odds::new();
    let mut players: Vec<_> = seeds.iter().map(|&s| baseline::Greedy::new(s)).collect();
    let game = baseline::play(map, &odds, game, &mut players);
    let winner = match game.result {
        Some(baseline::Outcome::Win(seat)) => Some(seat),
        _ => None,
    };
    Played { winner, turns: game.turn, attacks: game.attacks }
}

#[test]
fn odds_table_equals_the_engines_chance() {
    let rules = meeple_tests::load("dice_wars");
    let mut engine = Engine::new(rules.clone()).unwrap();
    let (mut state, _) = start(&mut engine, 0);
    let mut legal = Vec::new();
    engine.legal_actions(&state, &mut legal).unwrap();
    let attack: Action = *legal.iter().find(|a| matches!(a.kind, ActionKind::Rule(_))).expect("an attack");
    let dice = rules.counter_index("dice").unwrap();
    let counters = state.counter_count as usize;
    let odds = baseline::Odds::new();
    for a in 2..=8u8 {
        for d in 1..=8u8 {
            state.counters[attack.args[0] as usize * counters + dice] = i64::from(a);
            state.counters[attack.args[1] as usize * counters + dice] = i64::from(d);
            let engine_chance = engine.chance(&state, &attack).expect("attacks have odds");
            // Exactly equal: the greedy player compares what attacks are worth, made of chances,
            // for ties and against its minimum.
            assert_eq!(engine_chance, odds.chance(a, d), "{a} dice against {d}");
        }
    }
    assert!((odds.chance(2, 1) - 0.837_963).abs() < 1e-6, "{}", odds.chance(2, 1));
    assert!((odds.chance(3, 3) - 0.453_575).abs() < 1e-6, "{}", odds.chance(3, 3));
}

#[test]
fn baseline_games_match_the_engines() {
    let rules = meeple_tests::load("dice_wars");
    let mut engine = Engine::new(rules.clone()).unwrap();
    let mut engine_games = Vec::new();
    let mut same_stream = Vec::new();
    let mut own_stream = Vec::new();
    for index in 0..GAMES {
        let (state, seeds) = start(&mut engine, index);
        let (map, game) = baseline::from_engine(&rules, &state);
        // The baseline's own streams, unrelated to the engine's.
        let mut independent = game.clone();
        independent.rng = baseline::Random::from_seed(sim::derive_seed(99, index));
        let other_seeds: Vec<u64> = seeds.iter().map(|s| s ^ 0x5555_5555).collect();
        same_stream.push(play_baseline(&map, game, &seeds));
        own_stream.push(play_baseline(&map, independent, &other_seeds));
        engine_games.push(play_engine(&mut engine, state, &seeds));
    }
    let identical = engine_games.iter().zip(&same_stream).filter(|(e, b)| e == b).count();
    let (e, s, o) = (stats(&engine_games), stats(&same_stream), stats(&own_stream));
    eprintln!("{GAMES} games from the same start positions; {identical} identical with the engine's random stream");
    for (name, st) in [("engine", &e), ("baseline, same stream", &s), ("baseline, own stream", &o)] {
        eprintln!(
            "{name:>22}: turns {:.1}, attacks {:.1}, first seat wins {:.3}, draws {:.3}",
            st.mean_turns, st.mean_attacks, st.first_seat_wins, st.draws
        );
    }
    // Each figure may differ by at most four standard errors of the difference of two means.
    let n = GAMES as f64;
    for (name, b) in [("same stream", &s), ("own stream", &o)] {
        for (what, x, y, var_x, var_y) in [
            ("mean turns", b.mean_turns, e.mean_turns, b.var_turns, e.var_turns),
            ("mean attacks", b.mean_attacks, e.mean_attacks, b.var_attacks, e.var_attacks),
            (
                "first-seat win rate",
                b.first_seat_wins,
                e.first_seat_wins,
                b.first_seat_wins * (1.0 - b.first_seat_wins),
                e.first_seat_wins * (1.0 - e.first_seat_wins),
            ),
            ("draw rate", b.draws, e.draws, b.draws * (1.0 - b.draws), e.draws * (1.0 - e.draws)),
        ] {
            let tolerance = 4.0 * ((var_x + var_y) / n).sqrt();
            assert!((x - y).abs() <= tolerance, "{name}: {what} {x:.3} vs engine {y:.3} (tolerance {tolerance:.3})");
        }
    }
}
