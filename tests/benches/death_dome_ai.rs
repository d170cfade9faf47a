//! Benchmark: how long the "hard" computer player takes to decide in Death Dome with four teams
//! of four units. Seeded games are played to their end (five matches) with a hard player at
//! seat 1 and medium players at the others; every decision of the hard seat — its moves, its
//! shop purchases and its answers out of turn (its sealed card stacks, where its jailed units go)
//! — is timed from the real position it was taken in. Prints the decisions' median, 90th and
//! 99th percentile and worst time, overall and by kind. The issue asks for at most 1 s a
//! decision on the project's 2-core machine.
//!
//! `cargo bench -p meeple-tests --bench death_dome_ai`

const SEATS: usize = 4;
const HARD_SEAT: u8 = 0;
const SEEDS: [u64; 2] = [1, 2];
/// A safety net: actions a game may take at most (a game takes some 1,200).
const MAX_ACTIONS: usize = 20_000;

fn main() {
    let rules = meeple_tests::load("death_dome");
    eprintln!("death_dome_ai: {SEATS} teams, hard at seat {}, medium elsewhere; seeds {SEEDS:?}", HARD_SEAT + 1);
    let decisions = meeple_tests::time_hard_decisions(&rules, SEATS, HARD_SEAT, &SEEDS, MAX_ACTIONS);
    meeple_tests::print_decision_times(&decisions);
}
