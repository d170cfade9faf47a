//! The headless subcommands, one file each, plus what they share: loading a mod by name and
//! printing its problems.

pub mod check;
pub mod lua;
pub mod replay;
pub mod run;
pub mod schema;
pub mod sim;
pub mod test;

use std::sync::Arc;

use meeple_engine::loader::{self, LoadedMod};
use meeple_engine::rules::Ruleset;

/// Loads a mod named by id or folder, printing its problems to stderr on failure.
pub fn load(name: &str) -> Result<Arc<Ruleset>, String> {
    let folder = loader::resolve_mod(name).map_err(|d| d.to_string())?;
    match loader::load_mod(&folder) {
        Ok(LoadedMod { ruleset, warnings }) => {
            for warning in warnings {
                eprintln!("{warning}");
            }
            Ok(ruleset)
        }
        Err(problems) => {
            for problem in &problems {
                eprintln!("{problem}");
            }
            Err(format!(
                "{}: {} problem{} (see above)",
                folder.display(),
                problems.len(),
                if problems.len() == 1 { "" } else { "s" }
            ))
        }
    }
}

/// Every bundled mod's folder.
pub fn bundled() -> Vec<std::path::PathBuf> {
    loader::discover(&loader::bundled_mods_dir())
}
