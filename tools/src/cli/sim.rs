//! `meeple sim`: computer-versus-computer games on all cores, with a progress bar on a terminal
//! and a report of win rates (95% intervals), draws, game length and speed.

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::Args;
use meeple_engine::sim::{self, SimConfig, SimReport};

/// The most worker threads `--threads` may ask for: each holds an engine with its own Lua
/// state, so a mistyped count would exhaust the memory instead of running faster.
const MAX_THREADS: usize = 1024;

/// The worker threads a simulation uses: as asked, but never more than the machine's cores —
/// each thread holds an engine with a Lua state of up to 64 MiB, and threads past the cores
/// only add memory, not speed. The results do not depend on the number of threads.
fn worker_threads(asked: Option<usize>) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    match asked {
        Some(asked) if asked > cores => {
            eprintln!("note: {asked} threads asked for; using this machine's {cores} cores");
            cores
        }
        Some(asked) => asked.max(1),
        None => cores,
    }
}

#[derive(Args)]
pub struct SimArgs {
    /// The mod: a bundled mod's id or a mod folder.
    #[arg(name = "MOD")]
    mod_name: String,
    /// How many games.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// The seed every game's seed is derived from.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Seats per game (the mod's default when absent).
    #[arg(long)]
    players: Option<usize>,
    /// Computer level per seat, repeatable (`--ai hard --ai medium`): easy, medium or hard (also
    /// named random, greedy, search); cycled over the seats.
    #[arg(long = "ai", default_value = "greedy")]
    levels: Vec<String>,
    /// Rotate the levels one seat further each game, so each plays every seat equally often.
    #[arg(long)]
    rotate: bool,
    /// Let a different seat move first each game (seat 1 in the first, seat 2 in the next…),
    /// so each moves first, second… equally often: how fair the seats' places are, apart from
    /// the order of play.
    #[arg(long)]
    rotate_first: bool,
    /// Worker threads (all cores when absent).
    #[arg(long)]
    threads: Option<usize>,
    /// Print a machine-readable JSON summary instead of the table.
    #[arg(long)]
    json: bool,
    /// Also print one JSON line per game, before the summary: `index`, `seed`, the `levels`
    /// at each seat, the `outcome` (seats numbered from 1, as in `meeple run`), `turns`,
    /// `rounds` and `actions`.
    #[arg(long)]
    per_game: bool,
    /// Also print how often the players chose each action: times a game on average, and the
    /// share of games it was chosen in at all (always in the JSON summary).
    #[arg(long)]
    actions: bool,
    /// A setup option of the mod, as OPTION=CHOICE (repeatable), e.g. `--option map_size=small`.
    #[arg(long = "option", value_name = "OPTION=CHOICE")]
    options: Vec<String>,
}

pub fn run(args: SimArgs) -> Result<ExitCode, String> {
    let asked = super::parse_options(&args.options)?;
    let rules = super::load_with(&args.mod_name, &asked)?;
    if let Some(seats) = args.players {
        super::check_seats(&rules, seats)?;
    }
    let seats = args.players.unwrap_or(rules.manifest.seats.default_count() as usize);
    let rules = super::fit_to_seats(rules, &asked, seats)?;
    if args.threads.is_some_and(|threads| threads > MAX_THREADS) {
        return Err(format!("`--threads`: at most {MAX_THREADS} threads"));
    }
    let config = SimConfig {
        games: args.games,
        seed: args.seed,
        seats,
        levels: args.levels.clone(),
        rotate: args.rotate,
        rotate_first: args.rotate_first,
        threads: worker_threads(args.threads),
    };
    let bar = if std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(config.games);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games  {per_sec}  eta {eta}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        Some(bar)
    } else {
        None
    };
    let progress = |done: u64| {
        if let Some(bar) = &bar {
            bar.set_position(done);
        }
    };
    let (report, games) = sim::run(rules, &config, &progress)?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    if args.per_game {
        for game in &games {
            // Seats numbered from 1, as everywhere people read them.
            let mut line = serde_json::to_value(game).map_err(|e| e.to_string())?;
            line["outcome"] = meeple_engine::game::render::outcome_json(&game.outcome);
            super::out!("{}", serde_json::to_string(&line).map_err(|e| e.to_string())?);
        }
    }
    if args.json {
        super::out!("{}", serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?);
    } else {
        print_table(&report, args.actions);
    }
    Ok(ExitCode::SUCCESS)
}

fn percent(x: f64) -> String {
    format!("{:5.1}%", x * 100.0)
}

fn print_table(report: &SimReport, actions: bool) {
    super::out!(
        "{} {}: {} games, {} seats, seed {}, levels {}{}{}",
        report.mod_id,
        report.mod_version,
        report.games,
        report.seats,
        report.seed,
        report.levels.join(" "),
        if report.rotate { " (rotated)" } else { "" },
        if report.rotate_first { ", the first seat rotated" } else { "" }
    );
    super::out!("seat  wins    rate    95% interval");
    for seat in &report.per_seat {
        super::out!(
            "{:>4}  {:>6}  {}  {} – {}",
            seat.seat,
            seat.wins.count,
            percent(seat.wins.rate),
            percent(seat.wins.low),
            percent(seat.wins.high)
        );
    }
    super::out!(
        "draw  {:>6}  {}  {} – {}",
        report.draws.count,
        percent(report.draws.rate),
        percent(report.draws.low),
        percent(report.draws.high)
    );
    for level in &report.per_level {
        super::out!(
            "level {:<8} won {:>6} of {:>6} games  {}  ({} – {})",
            level.level,
            level.wins.count,
            level.games,
            percent(level.wins.rate),
            percent(level.wins.low),
            percent(level.wins.high)
        );
    }
    super::out!(
        "turns: mean {:.1}, median {:.1}; rounds: mean {:.1}; actions: mean {:.1}",
        report.turns_mean,
        report.turns_median,
        report.rounds_mean,
        report.actions_mean
    );
    if actions {
        super::out!("action chosen          per game   in games");
        for used in &report.actions_chosen {
            super::out!("{:<22} {:>8.2}   {}", used.action, used.per_game, percent(used.games.rate));
        }
    }
    super::out!(
        "{:.2} s on {} threads: {:.1} games/s",
        report.timing.seconds,
        report.timing.threads,
        report.timing.games_per_second
    );
}
