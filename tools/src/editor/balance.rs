//! The editor's balance panel: computer-versus-computer games of the mod as saved ("before") and
//! as edited ("after"), played in the background on all cores with the same seeds, then each
//! seat's or side's win rate with its 95% interval, the first-player advantage and the game
//! length side by side, in a table and a bar chart.
//!
//! Both runs play games `0..N` with seeds derived from one seed, exactly as `meeple sim` does
//! (`sim::play_one` per game), so the comparison is paired: the two runs differ only by the edit.
//! The games are played here rather than through `sim::run` because a run must be cancellable
//! (a designer who edits again does not want the old run to keep every core busy), and
//! `sim::run` cannot be stopped; the results are the same game for game.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use egui::{Color32, RichText};
use egui_plot::{Bar, BarChart, Legend, Line, Plot};
use meeple_engine::defs::FirstSeat;
use meeple_engine::game::Outcome;
use meeple_engine::loader::Overlay;
use meeple_engine::options::{self, Choices};
use meeple_engine::rules::Ruleset;
use meeple_engine::sim::{self, GameSummary, Rate, SimConfig};

/// The computer levels a designer can choose, weakest first.
pub const LEVELS: [&str; 3] = ["easy", "medium", "hard"];

/// What the error of a run stopped by `cancel` says.
pub const CANCELLED: &str = "cancelled";

/// How often the window redraws while games are played, to move the progress bars.
const REPAINT_WHILE_RUNNING: Duration = Duration::from_millis(100);

const BEFORE_COLOR: Color32 = Color32::from_rgb(0x6f, 0x9b, 0xd1);
const AFTER_COLOR: Color32 = Color32::from_rgb(0xe8, 0x8f, 0x3a);

/// What to play: the same for the before and after runs, so they can be compared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BalanceSettings {
    pub games: u64,
    /// One computer level (see [`LEVELS`]) at every seat.
    pub level: String,
    pub seats: usize,
    /// Every game's seed is derived from this one; fixed, so reruns give the same games.
    pub seed: u64,
}

impl BalanceSettings {
    /// Enough games for a quick answer: intervals about ±7 points at 50%.
    pub const DEFAULT_GAMES: u64 = 200;

    /// The defaults for a mod: its default seat count, medium computers, 200 games, seed 1.
    pub fn for_rules(rules: &Ruleset) -> Self {
        Self {
            games: Self::DEFAULT_GAMES,
            level: "medium".into(),
            seats: rules.manifest.seats.default_count() as usize,
            seed: 1,
        }
    }

    /// The simulation these settings ask for, on `threads` worker threads.
    pub fn sim_config(&self, threads: usize) -> SimConfig {
        SimConfig {
            games: self.games,
            seed: self.seed,
            seats: self.seats,
            levels: vec![self.level.clone()],
            // With one level rotation changes nothing; it is on so that mixed levels, should the
            // panel offer them, play every seat equally often.
            rotate: true,
            rotate_first: false,
            threads,
        }
    }
}

/// Whether results are counted per seat or per side (team).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grouping {
    /// The mod has no sides: every seat plays for itself.
    Seats,
    /// The mod has sides: a win is the whole side's.
    Sides,
}

/// One seat, or one side with its seats, and how often it won.
#[derive(Clone, Debug, PartialEq)]
pub struct Competitor {
    /// The seat's name ("Seat 1", or the mod's seat name) or the side's label.
    pub label: String,
    /// Its seats, 0-based.
    pub seats: Vec<usize>,
    /// Games won, out of all games.
    pub wins: Rate,
    /// Games won, out of the games someone won (draws left out): the figure to compare with
    /// the fair share, which draws would otherwise push down.
    pub share_of_won: Rate,
}

/// How much more than its fair share the first seat (or its side) wins.
#[derive(Clone, Debug, PartialEq)]
pub struct FirstPlayerAdvantage {
    /// The competitor the first seat belongs to.
    pub label: String,
    /// Its share of the won games minus the fair share, as a fraction (0.05 is 5 points).
    pub advantage: f64,
    /// The 95% interval of the advantage.
    pub low: f64,
    pub high: f64,
}

/// What a balance run found.
#[derive(Clone, Debug, PartialEq)]
pub struct BalanceResult {
    pub grouping: Grouping,
    /// Per seat, or per side that has seats, in seat or side order.
    pub competitors: Vec<Competitor>,
    pub draws: Rate,
    /// Games someone won (not drawn).
    pub won_games: u64,
    /// Each competitor's fair share of the won games: one over the number of competitors.
    pub fair_share: f64,
    /// `Err` says why it is not measured (first seat drawn at random, no game won).
    pub first_player: Result<FirstPlayerAdvantage, String>,
    pub turns_mean: f64,
    pub turns_median: f64,
    pub games: u64,
    /// Wall-clock time of the run; 0 when the result was not timed.
    pub seconds: f64,
    pub games_per_second: f64,
}

impl BalanceResult {
    /// The competitors whose share of the won games is off their fair share beyond the 95%
    /// interval, each with a sentence saying so.
    pub fn imbalances(&self) -> Vec<String> {
        if self.won_games == 0 {
            return Vec::new();
        }
        self.competitors
            .iter()
            .filter(|c| c.share_of_won.low > self.fair_share || c.share_of_won.high < self.fair_share)
            .map(|c| {
                let direction = if c.share_of_won.low > self.fair_share { "more" } else { "less" };
                format!(
                    "{} won {} of the won games, {direction} than the fair share of {}",
                    c.label,
                    rate_text(&c.share_of_won),
                    percent(self.fair_share)
                )
            })
            .collect()
    }
}

/// The label of seat `seat` (0-based), as a game set up with defaults names it.
pub fn seat_label(rules: &Ruleset, seat: usize) -> String {
    rules.data.seats.names.get(seat).cloned().unwrap_or_else(|| format!("Seat {}", seat + 1))
}

/// Counts the games' outcomes per seat, or per side when the mod has sides (seats go round the
/// sides in order, as `GameSetup::new` assigns them). Timing is left at 0: see `BalanceRun`.
pub fn summarize(rules: &Ruleset, config: &SimConfig, games: &[GameSummary]) -> BalanceResult {
    let sides = &rules.data.seats.sides;
    let (grouping, mut competitors): (Grouping, Vec<(String, Vec<usize>)>) = if sides.is_empty() {
        (Grouping::Seats, (0..config.seats).map(|seat| (seat_label(rules, seat), vec![seat])).collect())
    } else {
        let grouped = sides
            .iter()
            .enumerate()
            .map(|(s, side)| {
                let label = side.label.clone().unwrap_or_else(|| side.id.clone());
                (label, (0..config.seats).filter(|seat| seat % sides.len() == s).collect::<Vec<_>>())
            })
            .filter(|(_, seats)| !seats.is_empty())
            .collect();
        (Grouping::Sides, grouped)
    };
    let mut competitor_of_seat = vec![None; config.seats];
    for (c, (_, seats)) in competitors.iter().enumerate() {
        for &seat in seats {
            competitor_of_seat[seat] = Some(c);
        }
    }
    let total = games.len() as u64;
    let mut wins = vec![0u64; competitors.len()];
    let mut won_games = 0u64;
    let mut draws = 0u64;
    for game in games {
        match &game.outcome {
            Outcome::Win { seats } => {
                won_games += 1;
                // A side wins once however many of its seats are listed.
                let mut winners: Vec<usize> =
                    seats.iter().filter_map(|&s| competitor_of_seat.get(s as usize).copied().flatten()).collect();
                winners.sort_unstable();
                winners.dedup();
                for c in winners {
                    wins[c] += 1;
                }
            }
            Outcome::Draw { .. } => draws += 1,
        }
    }
    let fair_share = if competitors.is_empty() { 0.0 } else { 1.0 / competitors.len() as f64 };
    let first_player = if rules.data.seats.first == FirstSeat::Random {
        Err("the mod draws the first seat at random".to_string())
    } else if won_games == 0 {
        Err("no game was won".to_string())
    } else {
        match competitor_of_seat.first().copied().flatten() {
            Some(c) => {
                let share = Rate::new(wins[c], won_games);
                Ok(FirstPlayerAdvantage {
                    label: competitors[c].0.clone(),
                    advantage: share.rate - fair_share,
                    low: share.low - fair_share,
                    high: share.high - fair_share,
                })
            }
            None => Err("no seats".to_string()),
        }
    };
    let mut turns: Vec<u32> = games.iter().map(|g| g.turns).collect();
    turns.sort_unstable();
    let turns_median = match turns.len() {
        0 => 0.0,
        n if n % 2 == 1 => f64::from(turns[n / 2]),
        n => (f64::from(turns[n / 2 - 1]) + f64::from(turns[n / 2])) / 2.0,
    };
    let turns_mean =
        if turns.is_empty() { 0.0 } else { turns.iter().map(|&t| f64::from(t)).sum::<f64>() / turns.len() as f64 };
    BalanceResult {
        grouping,
        competitors: competitors
            .drain(..)
            .zip(&wins)
            .map(|((label, seats), &w)| Competitor {
                label,
                seats,
                wins: Rate::new(w, total),
                share_of_won: Rate::new(w, won_games),
            })
            .collect(),
        draws: Rate::new(draws, total),
        won_games,
        fair_share,
        first_player,
        turns_mean,
        turns_median,
        games: total,
        seconds: 0.0,
        games_per_second: 0.0,
    }
}

/// What the worker threads and the panel share.
struct Shared {
    done: AtomicU64,
    cancel: AtomicBool,
}

/// Games of one ruleset played on a background thread: progress can be read at any time, the
/// result is picked up with [`BalanceRun::poll`], and dropping the run cancels it (each worker
/// stops after the game it is playing).
pub struct BalanceRun {
    rules: Arc<Ruleset>,
    settings: BalanceSettings,
    shared: Arc<Shared>,
    receiver: mpsc::Receiver<Result<BalanceResult, String>>,
    finished: Option<Result<BalanceResult, String>>,
}

impl BalanceRun {
    /// Starts playing `settings.games` games of `rules` on `threads` worker threads (all cores
    /// when 0).
    pub fn start(rules: Arc<Ruleset>, settings: BalanceSettings, threads: usize) -> Self {
        let threads = if threads == 0 { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { threads };
        let shared = Arc::new(Shared { done: AtomicU64::new(0), cancel: AtomicBool::new(false) });
        let (sender, receiver) = mpsc::channel();
        let config = settings.sim_config(threads);
        let spawned = {
            let rules = rules.clone();
            let shared = shared.clone();
            std::thread::Builder::new().name("balance".into()).spawn(move || {
                // The receiver may be gone (the run was dropped): nobody wants the result then.
                let _ = sender.send(play_games(&rules, &config, &shared));
            })
        };
        let finished = spawned.err().map(|e| Err(format!("could not start a thread: {e}")));
        Self { rules, settings, shared, receiver, finished }
    }

    pub fn rules(&self) -> &Arc<Ruleset> {
        &self.rules
    }

    pub fn settings(&self) -> &BalanceSettings {
        &self.settings
    }

    /// Games finished so far.
    pub fn games_done(&self) -> u64 {
        self.shared.done.load(Ordering::Relaxed)
    }

    pub fn games_total(&self) -> u64 {
        self.settings.games
    }

    /// The result once every game is played (or the run failed or was cancelled); `None`
    /// while games are still being played. Never blocks.
    pub fn poll(&mut self) -> Option<&Result<BalanceResult, String>> {
        if self.finished.is_none() {
            self.finished = match self.receiver.try_recv() {
                Ok(result) => Some(result),
                Err(mpsc::TryRecvError::Empty) => None,
                Err(mpsc::TryRecvError::Disconnected) => Some(Err("the games stopped with an internal error".into())),
            };
        }
        self.finished.as_ref()
    }

    /// Waits for the result.
    pub fn wait(&mut self) -> &Result<BalanceResult, String> {
        if self.finished.is_none() {
            self.finished =
                Some(self.receiver.recv().unwrap_or_else(|_| Err("the games stopped with an internal error".into())));
        }
        self.finished.as_ref().expect("set above")
    }

    pub fn is_running(&mut self) -> bool {
        self.poll().is_none()
    }

    /// Asks the workers to stop after their current game; the result becomes "cancelled".
    pub fn cancel(&self) {
        self.shared.cancel.store(true, Ordering::Relaxed);
    }

    fn was_cancelled(&self) -> bool {
        self.shared.cancel.load(Ordering::Relaxed)
    }
}

impl Drop for BalanceRun {
    fn drop(&mut self) {
        self.cancel();
    }
}

/// Plays games `0..config.games` through `sim::run_until` (the same games as `sim::run`),
/// stopping early when cancelled.
fn play_games(rules: &Arc<Ruleset>, config: &SimConfig, shared: &Shared) -> Result<BalanceResult, String> {
    // Workers report out of order: keep the highest count.
    let progress = |done: u64| {
        shared.done.fetch_max(done, Ordering::Relaxed);
    };
    let Some((report, games)) = sim::run_until(rules.clone(), config, &progress, &shared.cancel)? else {
        return Err(CANCELLED.into());
    };
    let mut result = summarize(rules, config, &games);
    result.seconds = report.timing.seconds;
    result.games_per_second = if result.seconds > 0.0 { result.games as f64 / result.seconds } else { 0.0 };
    Ok(result)
}

/// The panel: settings, the "Run balance check" button, progress, and the before/after table and
/// chart. Holds the last runs, so a rerun after another edit plays only the edited mod when the
/// saved one and the settings are unchanged.
#[derive(Default)]
pub struct BalancePanel {
    /// `None` until the panel first sees a mod; then the mod's defaults, changed by the person.
    pub settings: Option<BalanceSettings>,
    /// Worker threads per run; all cores when 0.
    pub threads: usize,
    before: Option<BalanceRun>,
    after: Option<BalanceRun>,
    /// Why the last check could not start (the mod does not load with the choices for the
    /// seat count played).
    pub problem: Option<String>,
}

impl BalancePanel {
    /// The settings, set to `rules`' defaults the first time.
    pub fn settings_for(&mut self, rules: &Ruleset) -> &mut BalanceSettings {
        self.settings.get_or_insert_with(|| BalanceSettings::for_rules(rules))
    }

    /// The run of the mod as saved, if one was started.
    pub fn before_run(&mut self) -> Option<&mut BalanceRun> {
        self.before.as_mut()
    }

    /// The run of the mod as edited, if one was started.
    pub fn after_run(&mut self) -> Option<&mut BalanceRun> {
        self.after.as_mut()
    }

    /// Whether games are being played.
    pub fn is_running(&mut self) -> bool {
        self.before.as_mut().is_some_and(BalanceRun::is_running)
            || self.after.as_mut().is_some_and(BalanceRun::is_running)
    }

    /// What the button does: plays `before` (unless the last run of it with these settings is
    /// still good) and `after` when there is an edit.
    pub fn start(&mut self, before: &Arc<Ruleset>, after: Option<&Arc<Ruleset>>, overlay: &Overlay) {
        let settings = self.settings_for(before).clone();
        let threads = self.threads;
        // Both versions with the setup choices for the seat count played (a map for three, say):
        // the saved one loaded from the files, the edited one with the unsaved texts.
        let fitted = |rules: &Arc<Ruleset>, overlay: &Overlay| {
            options::rules_for_seats(rules, &Choices::new(), settings.seats, overlay).map_err(|problems| {
                let shown: Vec<String> = problems.iter().map(ToString::to_string).collect();
                format!("the mod does not load for {} seats:\n{}", settings.seats, shown.join("\n"))
            })
        };
        let before = &match fitted(before, &Overlay::new()) {
            Ok(rules) => rules,
            Err(problem) => {
                self.problem = Some(problem);
                return;
            }
        };
        let after = match after.map(|after| fitted(after, overlay)).transpose() {
            Ok(after) => after,
            Err(problem) => {
                self.problem = Some(problem);
                return;
            }
        };
        self.problem = None;
        let after = after.as_ref();
        let reusable = |run: &mut Option<BalanceRun>, rules: &Arc<Ruleset>| {
            run.as_mut().is_some_and(|run| {
                Arc::ptr_eq(&run.rules, rules)
                    && run.settings == settings
                    && !run.was_cancelled()
                    && run.poll().is_none_or(|result| result.is_ok())
            })
        };
        if !reusable(&mut self.before, before) {
            self.before = Some(BalanceRun::start(before.clone(), settings.clone(), threads));
        }
        match after.filter(|after| !Arc::ptr_eq(after, before)) {
            Some(after) if !reusable(&mut self.after, after) => {
                self.after = Some(BalanceRun::start(after.clone(), settings.clone(), threads));
            }
            Some(_) => {}
            None => self.after = None,
        }
    }

    /// Stops the runs in progress.
    pub fn cancel(&mut self) {
        for run in [&mut self.before, &mut self.after].into_iter().flatten() {
            if run.is_running() {
                run.cancel();
            }
        }
    }

    /// Draws the panel. `before` is the mod as saved; `after` the mod as edited, `None` when
    /// there is no unsaved edit.
    pub fn ui(&mut self, ui: &mut egui::Ui, before: &Arc<Ruleset>, after: Option<&Arc<Ruleset>>, overlay: &Overlay) {
        ui.heading("Balance");
        ui.label(
            "Computer players play the mod as saved (before) and as edited (after) with the same seeds, \
             so the two runs differ only by the edit.",
        );
        ui.add_space(4.0);
        self.settings_ui(ui, before);
        ui.horizontal(|ui| {
            if ui.button("Run balance check").clicked() {
                self.start(before, after, overlay);
            }
            if self.is_running() && ui.button("Cancel").clicked() {
                self.cancel();
            }
        });
        if after.is_none() {
            ui.label(RichText::new("No unsaved edit: only the mod as saved is played.").weak());
        }
        if let Some(problem) = &self.problem {
            ui.colored_label(Color32::LIGHT_RED, problem);
        }
        self.progress_ui(ui);
        if self.is_running() {
            ui.ctx().request_repaint_after(REPAINT_WHILE_RUNNING);
        }
        self.stale_note_ui(ui, before, after);
        let before_result = self.before.as_mut().and_then(|run| run.poll()).and_then(|r| r.as_ref().ok()).cloned();
        let after_result = self.after.as_mut().and_then(|run| run.poll()).and_then(|r| r.as_ref().ok()).cloned();
        if let Some(before_result) = &before_result {
            ui.add_space(8.0);
            verdict_ui(ui, "Before", before_result);
            if let Some(after_result) = &after_result {
                verdict_ui(ui, "After", after_result);
            }
            ui.add_space(4.0);
            table_ui(ui, before_result, after_result.as_ref());
            ui.add_space(8.0);
            plot_ui(ui, before_result, after_result.as_ref());
        }
    }

    fn settings_ui(&mut self, ui: &mut egui::Ui, before: &Ruleset) {
        let range = before.manifest.seats;
        let settings = self.settings_for(before);
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Games");
            ui.add(egui::DragValue::new(&mut settings.games).range(10..=100_000).speed(10.0)).labelled_by(label.id);
            ui.add_space(12.0);
            let label = ui.label("Computer level");
            egui::ComboBox::from_id_salt("balance level")
                .selected_text(settings.level.clone())
                .show_ui(ui, |ui| {
                    for level in LEVELS {
                        ui.selectable_value(&mut settings.level, level.to_string(), level);
                    }
                })
                .response
                .labelled_by(label.id);
            ui.add_space(12.0);
            let label = ui.label("Seats");
            ui.add(egui::DragValue::new(&mut settings.seats).range(range.min as usize..=range.max as usize))
                .labelled_by(label.id);
            ui.add_space(12.0);
            let label = ui.label("Seed");
            ui.add(egui::DragValue::new(&mut settings.seed)).labelled_by(label.id);
        });
    }

    fn progress_ui(&mut self, ui: &mut egui::Ui) {
        egui::Grid::new("balance progress").num_columns(2).show(ui, |ui| {
            for (name, run) in [("Before (as saved)", &mut self.before), ("After (as edited)", &mut self.after)] {
                let Some(run) = run else { continue };
                ui.label(name);
                let (done, total) = (run.games_done(), run.games_total());
                match run.poll() {
                    None => {
                        let fraction = if total == 0 { 1.0 } else { done as f32 / total as f32 };
                        ui.add(
                            egui::ProgressBar::new(fraction)
                                .desired_width(320.0)
                                .text(format!("{done} / {total} games")),
                        );
                    }
                    Some(Ok(result)) => {
                        ui.label(format!(
                            "{} games in {:.1} s ({:.0} games per second)",
                            result.games, result.seconds, result.games_per_second
                        ));
                    }
                    Some(Err(error)) if error == CANCELLED => {
                        ui.label(format!("Cancelled after {done} of {total} games"));
                    }
                    Some(Err(error)) => {
                        ui.label(RichText::new(format!("Failed: {error}")).color(Color32::LIGHT_RED));
                    }
                }
                ui.end_row();
            }
        });
    }

    /// Says when the results shown no longer match the mod or the settings.
    fn stale_note_ui(&self, ui: &mut egui::Ui, before: &Arc<Ruleset>, after: Option<&Arc<Ruleset>>) {
        let mut reasons = Vec::new();
        if let Some(run) = &self.before {
            if !Arc::ptr_eq(&run.rules, before) {
                reasons.push("the mod was saved");
            }
            if self.settings.as_ref() != Some(&run.settings) {
                reasons.push("the settings changed");
            }
        }
        if let Some(run) = &self.after
            && after.is_none_or(|after| !Arc::ptr_eq(&run.rules, after))
        {
            reasons.push("the edit changed");
        }
        if !reasons.is_empty() {
            ui.label(
                RichText::new(format!("Since these runs {}: run again to update.", reasons.join(" and ")))
                    .color(Color32::from_rgb(0xe0, 0xb0, 0x40)),
            );
        }
    }
}

/// "Balanced" or what is not, for one run.
fn verdict_ui(ui: &mut egui::Ui, name: &str, result: &BalanceResult) {
    let imbalances = result.imbalances();
    let who = match result.grouping {
        Grouping::Seats => "seat",
        Grouping::Sides => "side",
    };
    if imbalances.is_empty() {
        ui.label(format!(
            "{name}: balanced: every {who} won its fair share of the won games, within the 95% intervals."
        ));
    } else {
        ui.label(
            RichText::new(format!("{name}: unbalanced: {}.", imbalances.join("; ")))
                .color(Color32::from_rgb(0xe0, 0xb0, 0x40)),
        );
    }
}

/// The before/after table: one row per seat or side, then draws, the first-player advantage and
/// game length.
fn table_ui(ui: &mut egui::Ui, before: &BalanceResult, after: Option<&BalanceResult>) {
    let columns = if after.is_some() { 4 } else { 2 };
    egui::Grid::new("balance table").striped(true).num_columns(columns).spacing([24.0, 4.0]).show(ui, |ui| {
        ui.label(RichText::new("").strong());
        ui.label(RichText::new("Before").strong());
        if after.is_some() {
            ui.label(RichText::new("After").strong());
            ui.label(RichText::new("Change").strong());
        }
        ui.end_row();
        for label in competitor_labels(before, after) {
            let find = |result: &BalanceResult| result.competitors.iter().find(|c| c.label == label).map(|c| c.wins);
            rate_row(ui, &format!("{label} wins"), find(before), after.map(find));
        }
        rate_row(ui, "Draws", Some(before.draws), after.map(|a| Some(a.draws)));

        let first_label = match (&before.first_player, after.map(|a| &a.first_player)) {
            (Ok(first), _) | (_, Some(Ok(first))) => format!("First-player advantage ({})", first.label),
            _ => "First-player advantage".to_string(),
        };
        ui.label(first_label);
        ui.label(advantage_text(&before.first_player));
        if let Some(after) = after {
            ui.label(advantage_text(&after.first_player));
            match (&before.first_player, &after.first_player) {
                (Ok(b), Ok(a)) => ui.label(points_change(a.advantage - b.advantage)),
                _ => ui.label("–"),
            };
        }
        ui.end_row();

        number_row(ui, "Mean turns", before.turns_mean, after.map(|a| a.turns_mean));
        number_row(ui, "Median turns", before.turns_median, after.map(|a| a.turns_median));
        ui.label("Games");
        ui.label(before.games.to_string());
        if let Some(after) = after {
            ui.label(after.games.to_string());
            ui.label("");
        }
        ui.end_row();
    });
}

/// The seats' or sides' labels of both runs, before's first (an edit may rename a side).
fn competitor_labels(before: &BalanceResult, after: Option<&BalanceResult>) -> Vec<String> {
    let mut labels: Vec<String> = before.competitors.iter().map(|c| c.label.clone()).collect();
    for competitor in after.into_iter().flat_map(|a| &a.competitors) {
        if !labels.contains(&competitor.label) {
            labels.push(competitor.label.clone());
        }
    }
    labels
}

fn rate_row(ui: &mut egui::Ui, label: &str, before: Option<Rate>, after: Option<Option<Rate>>) {
    ui.label(label);
    ui.label(before.as_ref().map_or_else(|| "–".to_string(), rate_text));
    if let Some(after) = after {
        ui.label(after.as_ref().map_or_else(|| "–".to_string(), rate_text));
        ui.label(match (before, after) {
            (Some(b), Some(a)) => points_change(a.rate - b.rate),
            _ => "–".to_string(),
        });
    }
    ui.end_row();
}

fn number_row(ui: &mut egui::Ui, label: &str, before: f64, after: Option<f64>) {
    ui.label(label);
    ui.label(format!("{before:.1}"));
    if let Some(after) = after {
        ui.label(format!("{after:.1}"));
        ui.label(format!("{:+.1}", after - before));
    }
    ui.end_row();
}

/// `0.485` as `48.5%`.
pub fn percent(fraction: f64) -> String {
    format!("{:.1}%", fraction * 100.0)
}

/// A rate with its interval: `48.5% (44.1–52.9)`.
pub fn rate_text(rate: &Rate) -> String {
    format!("{} ({:.1}–{:.1})", percent(rate.rate), rate.low * 100.0, rate.high * 100.0)
}

/// A change of a rate, in percentage points: `+2.5 points`.
pub fn points_change(change: f64) -> String {
    format!("{:+.1} points", change * 100.0)
}

/// The first-player advantage with its interval, `+3.2 points (-1.1 to +7.5)`, or why there is
/// none.
pub fn advantage_text(first: &Result<FirstPlayerAdvantage, String>) -> String {
    match first {
        Ok(first) => {
            format!("{} ({:+.1} to {:+.1})", points_change(first.advantage), first.low * 100.0, first.high * 100.0)
        }
        Err(why) => format!("not measured: {why}"),
    }
}

/// Win rates as bars, before and after side by side per seat or side, with their 95% intervals as
/// vertical lines.
fn plot_ui(ui: &mut egui::Ui, before: &BalanceResult, after: Option<&BalanceResult>) {
    let labels = competitor_labels(before, after);
    let runs: Vec<(&str, &BalanceResult, Color32)> = std::iter::once(("Before (as saved)", before, BEFORE_COLOR))
        .chain(after.map(|a| ("After (as edited)", a, AFTER_COLOR)))
        .collect();
    let width = 0.8 / runs.len() as f64;
    // The interval lines must stand out on the bars in dark and light themes alike.
    let interval_color = ui.visuals().strong_text_color();
    let axis_labels = labels.clone();
    Plot::new("balance plot")
        .height(240.0)
        .legend(Legend::default())
        .include_y(0.0)
        .y_axis_label("Win rate (%)")
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .show_grid([false, true])
        .x_axis_formatter(move |mark, _| {
            let index = mark.value.round();
            if (mark.value - index).abs() < 1e-6 && index >= 0.0 {
                axis_labels.get(index as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .show(ui, |plot| {
            for (r, (name, result, color)) in runs.iter().enumerate() {
                let offset = (r as f64 - (runs.len() - 1) as f64 / 2.0) * width;
                let mut bars = Vec::new();
                for (i, label) in labels.iter().enumerate() {
                    let Some(competitor) = result.competitors.iter().find(|c| &c.label == label) else { continue };
                    let x = i as f64 + offset;
                    bars.push(
                        Bar::new(x, competitor.wins.rate * 100.0)
                            .width(width * 0.9)
                            .name(label)
                            .fill(color.gamma_multiply(0.6)),
                    );
                    plot.line(
                        Line::new(*name, vec![[x, competitor.wins.low * 100.0], [x, competitor.wins.high * 100.0]])
                            .id(("balance interval", r, i))
                            .color(interval_color)
                            .width(2.0)
                            .allow_hover(false),
                    );
                }
                plot.bar_chart(BarChart::new(*name, bars).color(*color).id(("balance bars", r)));
            }
        });
}
