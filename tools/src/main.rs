//! The `meeple` command: play, check, simulate, run, replay and test mods.
//!
//! Architecture invariant: this crate sits on the engine and never the reverse; it parses
//! arguments, prints, and opens windows, while every rule lives in `meeple-engine` and the mods.

mod cli;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Meeple: a generic engine for turn-based board, dice and card games.
///
/// Without a command, opens the window with the bundled games.
#[derive(Parser)]
#[command(name = "meeple", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Validate mods and report every problem (every bundled mod when none is named), with
    /// each setup option at its default and with each of its other choices.
    Check {
        /// Mod ids or mod folders.
        mods: Vec<String>,
    },
    /// Play computer-versus-computer games and report win rates, draws and game length.
    Sim(cli::sim::SimArgs),
    /// Apply a scripted list of actions and print the events and the final state as JSON: all
    /// of it (the referee's view), or with --as SEAT only what that seat may see.
    Run(cli::run::RunArgs),
    /// Re-simulate a saved game and check its state hash.
    Replay(cli::replay::ReplayArgs),
    /// Run mods' Lua scenario tests (every bundled mod when none is named).
    Test(cli::test::TestArgs),
    /// Evaluate Lua in a mod's sandbox, with a new game's state (a console without -e).
    Lua(cli::lua::LuaArgs),
    /// Create a new mod folder from a template (one per board kind) that passes `check` and `test`.
    New(cli::new::NewArgs),
    /// Regenerate the generated files: JSON Schemas and Lua annotations in schemas/, the reference pages in docs/modding/.
    Schema {
        /// Where to write them.
        #[arg(long, default_value = "schemas")]
        out: std::path::PathBuf,
        /// Only check that the files are up to date; exit 1 when they are not.
        #[arg(long)]
        check: bool,
    },
    /// Serve tables online: an authoritative server people join over WebSocket (see
    /// docs/online.md).
    Serve(cli::serve::ServeArgs),
    /// Load a server with many scripted clients playing whole games (starts one when no
    /// --server is given), and report actions a second, round trips and memory.
    Bots(cli::serve::BotsArgs),
    /// Open the window: the launcher, or a game of MOD.
    Play(PlayArgs),
    /// Open the editor on a mod (a bundled mod's id, or a folder).
    Edit {
        /// The mod to edit; without one, the launcher (each game has an Edit button).
        #[arg(name = "MOD")]
        mod_name: Option<String>,
        /// Edit a bundled mod's own files instead of being asked (for the mod's developers).
        #[arg(long)]
        in_place: bool,
        /// Open the map painter on this board: `board`, or `boards.<id>` (a grid with a layout).
        #[arg(long, value_name = "BOARD")]
        paint: Option<String>,
    },
}

#[derive(clap::Args, Default)]
struct PlayArgs {
    /// The mod to select (an id or a folder); with --start, the game to start.
    #[arg(name = "MOD")]
    mod_name: Option<String>,
    /// Start a game of MOD with its default setup at once, skipping the launcher.
    #[arg(long, requires = "MOD")]
    start: bool,
    /// The seed of a game started with --start.
    #[arg(long)]
    seed: Option<u64>,
    /// Open a saved game and continue it.
    #[arg(long, conflicts_with = "replay")]
    open: Option<std::path::PathBuf>,
    /// Open a saved game in the replay viewer.
    #[arg(long)]
    replay: Option<std::path::PathBuf>,
}

fn play(args: PlayArgs) -> Result<ExitCode, String> {
    let options = meeple::player::StartOptions {
        mod_name: args.mod_name,
        start: args.start,
        seed: args.seed,
        replay: args.replay.is_some(),
        open: args.replay.or(args.open),
        ..Default::default()
    };
    meeple::player::run(options)?;
    Ok(ExitCode::SUCCESS)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => play(PlayArgs::default()),
        Some(Command::Play(args)) => play(args),
        Some(Command::Edit { mod_name, in_place, paint }) => {
            let edit = mod_name.is_some();
            let options = meeple::player::StartOptions { mod_name, edit, in_place, paint, ..Default::default() };
            meeple::player::run(options).map(|()| ExitCode::SUCCESS)
        }
        Some(Command::Check { mods }) => cli::check::run(&mods),
        Some(Command::Sim(args)) => cli::sim::run(args),
        Some(Command::Run(args)) => cli::run::run(args),
        Some(Command::Replay(args)) => cli::replay::run(args),
        Some(Command::Test(args)) => cli::test::run(args),
        Some(Command::Lua(args)) => cli::lua::run(args),
        Some(Command::New(args)) => cli::new::run(args),
        Some(Command::Schema { out, check }) => cli::schema::run(&out, check),
        Some(Command::Serve(args)) => cli::serve::run(args),
        Some(Command::Bots(args)) => cli::serve::bots(args),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            // Errors may quote a mod's words or a line of a file: printed safely and short.
            eprintln!("error: {}", meeple_engine::diag::printable(&message));
            ExitCode::FAILURE
        }
    }
}
