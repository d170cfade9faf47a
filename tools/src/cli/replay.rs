//! `meeple replay`: re-simulate a saved game from its seed and actions; with `--verify`, fail
//! unless the replayed state's hash equals the saved one.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use meeple_engine::game::render::outcome_json;
use meeple_engine::game::{Engine, Events};
use meeple_engine::save::SaveFile;

#[derive(Args)]
pub struct ReplayArgs {
    /// The save file.
    file: PathBuf,
    /// Exit with 1 unless the replay reproduces the saved state exactly.
    #[arg(long)]
    verify: bool,
    /// The mod folder or id to use instead of the one the save names.
    #[arg(long = "mod")]
    mod_name: Option<String>,
}

pub fn run(args: ReplayArgs) -> Result<ExitCode, String> {
    let save = SaveFile::read(&args.file).map_err(|e| e.to_string())?;
    // A mod named on the command line may be a folder; the one the save names is an id only.
    let rules = match &args.mod_name {
        Some(name) => super::load_with(name, &save.setup.options)?,
        None => super::load_by_id(&save.mod_ref.id, &save.setup.options)?,
    };
    if rules.manifest.version != save.mod_ref.version {
        eprintln!(
            "note: the save was made with {} {}, this is version {}",
            save.mod_ref.id, save.mod_ref.version, rules.manifest.version
        );
    }
    let mut engine = Engine::new(rules).map_err(|e| e.to_string())?;
    let shown = args.file.display().to_string();
    match save.replay(&mut engine, &shown, &mut Events::discard()) {
        Ok((state, history)) => {
            super::out!(
                "{shown}: {} actions replayed, turn {}, hash {} matches{}",
                history.len(),
                state.turn.number,
                state.hash_hex(),
                state.outcome.as_ref().map(|o| format!(", result {}", outcome_json(o))).unwrap_or_default()
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(error) => {
            eprintln!("error: {error}");
            Ok(if args.verify { ExitCode::FAILURE } else { ExitCode::from(2) })
        }
    }
}
