//! The headless subcommands, one file each, plus what they share: loading a mod by name and
//! printing its problems.

pub mod check;
pub mod lua;
pub mod new;
pub mod replay;
pub mod run;
pub mod schema;
pub mod sim;
pub mod test;

use std::sync::Arc;

use meeple_engine::loader::{self, LoadedMod};
use meeple_engine::options::Choices;
use meeple_engine::rules::Ruleset;

/// Loads a mod named by id or folder, printing its problems to stderr on failure.
pub fn load(name: &str) -> Result<Arc<Ruleset>, String> {
    load_with(name, &Choices::new())
}

/// Loads a mod with setup options chosen (`--option size=small`).
pub fn load_with(name: &str, options: &Choices) -> Result<Arc<Ruleset>, String> {
    let folder = loader::resolve_mod(name).map_err(|d| d.to_string())?;
    match loader::load_mod_with(&folder, options) {
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

/// Parses `--option KEY=CHOICE` arguments.
pub fn parse_options(given: &[String]) -> Result<Choices, String> {
    given
        .iter()
        .map(|text| match text.split_once('=') {
            Some((key, choice)) if !key.trim().is_empty() => Ok((key.trim().to_string(), choice.trim().to_string())),
            _ => Err(format!("`--option {text}`: write it as OPTION=CHOICE, e.g. `--option map_size=small`")),
        })
        .collect()
}

/// Every bundled mod's folder.
pub fn bundled() -> Vec<std::path::PathBuf> {
    loader::discover(&loader::bundled_mods_dir())
}
