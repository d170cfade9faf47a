//! The editor's balance panel on the bundled games: what it counts from simulated games
//! (exact counts and intervals), that a background run gives what `sim::run` gives, that it can
//! be cancelled, and the panel driven by its labels (egui_kittest).

use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use meeple::editor::balance::*;
use meeple_engine::defs::FirstSeat;
use meeple_engine::game::Outcome;
use meeple_engine::loader::load_mod;
use meeple_engine::rules::Ruleset;
use meeple_engine::sim::{self, GameSummary, Rate, SimConfig};

fn dice_wars() -> Arc<Ruleset> {
    meeple_tests::load("dice_wars")
}

/// Dice Wars with seat 1 moving first, for the first-player figures, which need a fixed first
/// seat: the bundled mod draws who starts. Loaded once from a copy of the mod's files.
fn dice_wars_seat_1_first() -> Arc<Ruleset> {
    static RULES: OnceLock<Arc<Ruleset>> = OnceLock::new();
    RULES
        .get_or_init(|| {
            let folder = std::env::temp_dir().join(format!("meeple-balance-{}", std::process::id())).join("dice_wars");
            std::fs::create_dir_all(&folder).unwrap();
            for file in ["mod.toml", "board.toml", "rules.toml"] {
                let text = std::fs::read_to_string(meeple_tests::mods_dir().join("dice_wars").join(file)).unwrap();
                std::fs::write(folder.join(file), text.replace("first = \"random\"", "first = \"first\"")).unwrap();
            }
            let rules = load_mod(&folder).unwrap_or_else(|e| panic!("{e:?}")).ruleset;
            std::fs::remove_dir_all(folder.parent().unwrap()).ok();
            assert_eq!(rules.data.seats.first, FirstSeat::First);
            rules
        })
        .clone()
}

fn dunes() -> Arc<Ruleset> {
    meeple_tests::load("dunes_of_terror")
}

fn config(seats: usize) -> SimConfig {
    SimConfig { games: 0, seed: 1, seats, levels: vec!["easy".into()], rotate: true, rotate_first: false, threads: 1 }
}

fn game(index: u64, outcome: Outcome, turns: u32) -> GameSummary {
    GameSummary {
        index,
        seed: index,
        levels: vec!["easy".into()],
        outcome,
        turns,
        rounds: 0,
        actions: 0,
        chosen: Vec::new(),
    }
}

fn win(seats: &[u8]) -> Outcome {
    Outcome::Win { seats: seats.to_vec() }
}

fn draw() -> Outcome {
    Outcome::Draw { shares: vec![(0, 1), (1, 1)] }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-4
}

#[test]
fn summarize_counts_wins_per_seat_without_sides() {
    let rules = dice_wars_seat_1_first();
    // 10 games of 3 seats: seat 1 wins 5, seat 2 wins 3, seat 3 wins 0, 2 draws.
    let mut games = Vec::new();
    for i in 0..5 {
        games.push(game(i, win(&[0]), 10));
    }
    for i in 5..8 {
        games.push(game(i, win(&[1]), 20));
    }
    games.push(game(8, draw(), 50));
    games.push(game(9, draw(), 50));
    let result = summarize(&rules, &config(3), &games);
    assert_eq!(result.grouping, Grouping::Seats);
    assert_eq!(result.games, 10);
    let labels: Vec<&str> = result.competitors.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(labels, (1..=3).map(|s| seat_label(&rules, s - 1)).collect::<Vec<_>>());
    let wins: Vec<u64> = result.competitors.iter().map(|c| c.wins.count).collect();
    assert_eq!(wins, [5, 3, 0]);
    assert_eq!(result.competitors[0].wins, Rate::new(5, 10));
    assert_eq!(result.competitors[0].share_of_won, Rate::new(5, 8));
    assert_eq!(result.draws, Rate::new(2, 10));
    // Wilson interval of 5 in 10: 23.7%–76.3%.
    assert!(close(result.competitors[0].wins.low, 0.2366) && close(result.competitors[0].wins.high, 0.7634));
    assert!(close(result.fair_share, 1.0 / 3.0));
    let first = result.first_player.as_ref().expect("measured");
    assert_eq!(first.label, seat_label(&rules, 0));
    let share = Rate::new(5, 8);
    assert!(close(first.advantage, 5.0 / 8.0 - 1.0 / 3.0));
    assert!(close(first.low, share.low - 1.0 / 3.0) && close(first.high, share.high - 1.0 / 3.0));
    // Turns: 5 × 10, 3 × 20, 2 × 50 → mean 21, median of the 5th and 6th (10 and 20) = 15.
    assert!(close(result.turns_mean, 21.0));
    assert!(close(result.turns_median, 15.0));
    // Seat 3 won none of the 8 won games: its interval (0–32.4%) ends below the fair share
    // of 33.3%, so it is reported; seats 1 and 2's intervals contain the fair share.
    let imbalances = result.imbalances();
    assert_eq!(imbalances.len(), 1, "{imbalances:?}");
    assert!(imbalances[0].starts_with(&seat_label(&rules, 2)), "{imbalances:?}");
    assert_eq!(rate_text(&result.competitors[0].wins), "50.0% (23.7–76.3)");
}

#[test]
fn summarize_counts_a_side_once_per_won_game() {
    let rules = dunes();
    assert_eq!(rules.data.seats.sides.len(), 2);
    // Four seats: 1 and 3 on the first side, 2 and 4 on the second. A side's win lists all
    // its seats (or only the survivors); it counts once.
    let games = vec![
        game(0, win(&[0, 2]), 30),
        game(1, win(&[0]), 31),
        game(2, win(&[2]), 32),
        game(3, win(&[1, 3]), 33),
        game(4, draw(), 40),
    ];
    let result = summarize(&rules, &config(4), &games);
    assert_eq!(result.grouping, Grouping::Sides);
    assert_eq!(result.competitors.len(), 2);
    assert_eq!(result.competitors[0].label, rules.data.seats.sides[0].label.clone().unwrap());
    assert_eq!(result.competitors[0].seats, [0, 2]);
    assert_eq!(result.competitors[1].seats, [1, 3]);
    assert_eq!(result.competitors[0].wins, Rate::new(3, 5));
    assert_eq!(result.competitors[1].wins, Rate::new(1, 5));
    assert_eq!(result.competitors[0].share_of_won, Rate::new(3, 4));
    assert_eq!(result.draws, Rate::new(1, 5));
    assert_eq!(result.fair_share, 0.5);
    let first = result.first_player.as_ref().expect("measured");
    assert_eq!(first.label, result.competitors[0].label);
    assert!(close(first.advantage, 0.25));
    assert!(close(result.turns_mean, 33.2));
    assert!(close(result.turns_median, 32.0));
}

#[test]
fn summarize_of_no_games_measures_nothing() {
    let result = summarize(&dice_wars_seat_1_first(), &config(2), &[]);
    assert_eq!(result.games, 0);
    assert_eq!(result.first_player, Err("no game was won".to_string()));
    assert_eq!(result.turns_mean, 0.0);
    assert!(result.imbalances().is_empty());
}

#[test]
fn no_first_player_advantage_is_measured_where_the_first_seat_is_drawn() {
    let rules = dice_wars();
    assert_eq!(rules.data.seats.first, FirstSeat::Random);
    let result = summarize(&rules, &config(2), &[game(0, win(&[0]), 10)]);
    assert_eq!(result.first_player, Err("the mod draws the first seat at random".to_string()));
}

#[test]
fn a_run_gives_what_sim_run_gives() {
    let rules = dice_wars();
    let settings = BalanceSettings { games: 40, level: "easy".into(), seats: 2, seed: 1 };
    let mut run = BalanceRun::start(rules.clone(), settings.clone(), 2);
    let result = run.wait().clone().expect("the games play");
    assert_eq!(run.games_done(), 40);
    let config = settings.sim_config(2);
    let (report, games) = sim::run(rules.clone(), &config, &|_| {}).expect("the games play");
    assert_eq!(result.games, report.games);
    let wins: Vec<u64> = result.competitors.iter().map(|c| c.wins.count).collect();
    let reported: Vec<u64> = report.per_seat.iter().map(|s| s.wins.count).collect();
    assert_eq!(wins, reported);
    assert_eq!(result.draws, report.draws);
    assert!(close(result.turns_mean, report.turns_mean) && close(result.turns_median, report.turns_median));
    let expected = summarize(&rules, &config, &games);
    assert_eq!(BalanceResult { seconds: 0.0, games_per_second: 0.0, ..result }, expected);
}

#[test]
fn a_cancelled_run_says_so() {
    let settings = BalanceSettings { games: 100_000, level: "easy".into(), seats: 2, seed: 1 };
    let mut run = BalanceRun::start(dice_wars(), settings, 1);
    run.cancel();
    assert_eq!(run.wait(), &Err(CANCELLED.to_string()));
    assert!(run.games_done() < 100_000);
}

#[test]
fn a_bad_seat_count_is_reported() {
    let settings = BalanceSettings { games: 10, level: "easy".into(), seats: 1, seed: 1 };
    let mut run = BalanceRun::start(dice_wars(), settings, 1);
    let error = run.wait().clone().expect_err("one seat is too few");
    assert!(error.contains("not 1"), "{error}");
}

struct PanelState {
    panel: BalancePanel,
    before: Arc<Ruleset>,
    after: Option<Arc<Ruleset>>,
}

#[test]
fn the_panel_runs_before_and_after_and_reuses_before() {
    let before = dice_wars();
    // The same mod loaded again stands in for an edit: another ruleset with the same seeds
    // must give the very same games, so every change reads zero.
    let after = dice_wars();
    let mut panel = BalancePanel::default();
    panel.threads = 2;
    *panel.settings_for(&before) = BalanceSettings { games: 20, level: "easy".into(), seats: 2, seed: 1 };
    let state = PanelState { panel, before, after: Some(after) };
    let mut harness = Harness::builder().with_size(egui::vec2(1000.0, 800.0)).build_ui_state(
        |ui, state: &mut PanelState| state.panel.ui(ui, &state.before, state.after.as_ref(), &Default::default()),
        state,
    );
    harness.run();
    assert!(harness.query_by_label("Games").is_some());
    harness.get_by_label("Run balance check").click();
    harness.run();
    let started = Instant::now();
    while harness.state_mut().panel.is_running() {
        assert!(started.elapsed() < Duration::from_secs(120), "the games take too long");
        std::thread::sleep(Duration::from_millis(20));
        harness.step();
    }
    harness.run();
    let before_result = harness.state_mut().panel.before_run().unwrap().poll().unwrap().clone().unwrap();
    let after_result = harness.state_mut().panel.after_run().unwrap().poll().unwrap().clone().unwrap();
    assert_eq!(before_result.games, 20);
    assert_eq!(before_result.competitors, after_result.competitors);
    let first = &before_result.competitors[0];
    harness.get_by_label(&format!("{} wins", first.label));
    assert_eq!(harness.query_all_by_label(&rate_text(&first.wins)).count(), 2, "before and after");
    assert!(harness.query_all_by_label("+0.0 points").count() >= 3);
    assert_eq!(harness.query_all_by_label_contains("20 games in").count(), 2);
    assert!(harness.query_by_label_contains("First-player advantage").is_some());

    // Another edit: the saved mod's run is kept, only the edited mod plays again.
    let edited = dice_wars();
    harness.state_mut().after = Some(edited.clone());
    harness.run();
    assert!(harness.query_by_label_contains("the edit changed").is_some());
    harness.get_by_label("Run balance check").click();
    harness.run();
    let panel = &mut harness.state_mut().panel;
    assert!(panel.before_run().unwrap().poll().is_some(), "the saved mod's run is reused");
    assert!(Arc::ptr_eq(panel.after_run().unwrap().rules(), &edited));
    panel.after_run().unwrap().wait().as_ref().expect("the games play");
}

/// A mod with a map for each seat count is played on the one for the seats chosen: Death Dome
/// with three teams in its arena of three bases, as edited when an edit is given.
#[test]
fn the_panel_plays_the_map_made_for_the_seat_count() {
    let before = meeple_tests::load("death_dome");
    assert_eq!(before.chosen_options.get("arena").map(String::as_str), Some("four_corners"));
    let mut panel = BalancePanel::default();
    panel.threads = 2;
    *panel.settings_for(&before) = BalanceSettings { games: 10, level: "easy".into(), seats: 3, seed: 1 };
    // An unsaved edit of the three bases' file: the edited run plays it, the saved one does not.
    let folder = before.folder.clone().expect("loaded from its folder");
    let file = folder.join("arena_three.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    let edited = text.replace("\"...........c.....\",", "\".................\",");
    assert_ne!(edited, text, "the edit takes away green's control point L12");
    let overlay = meeple_engine::loader::Overlay::from([(file, edited)]);
    panel.start(&before, Some(&before.clone()), &overlay);
    assert_eq!(panel.problem, None);
    let control = |rules: &Arc<Ruleset>| {
        let state = meeple_engine::game::Engine::new(rules.clone())
            .unwrap()
            .new_game(
                &meeple_engine::game::GameSetup::new(rules, 1, 3, "easy"),
                &mut meeple_engine::game::Events::discard(),
            )
            .unwrap();
        let control = rules.terrain_index("control").unwrap();
        state.board.spaces().iter().filter(|s| s.terrain as usize == control).count()
    };
    let saved = panel.before_run().unwrap().rules().clone();
    assert_eq!(saved.chosen_options.get("arena").map(String::as_str), Some("three_bases"));
    assert_eq!(control(&saved), 9);
    let as_edited = panel.after_run().expect("the edited mod plays too").rules().clone();
    assert_eq!(control(&as_edited), 8, "the edit is played");
    for run in [panel.before_run().unwrap()] {
        assert_eq!(run.wait().as_ref().expect("the games play").games, 10);
    }
    panel.after_run().unwrap().wait().as_ref().expect("the edited games play");
}
