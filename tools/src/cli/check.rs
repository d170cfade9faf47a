//! `meeple check`: validate mods and print every problem, `file:line:col` first. A mod is
//! loaded with its setup options at their defaults and once with each other choice.

use std::process::ExitCode;

use meeple_engine::{loader, options};

pub fn run(mods: &[String]) -> Result<ExitCode, String> {
    let folders = if mods.is_empty() {
        let found = super::bundled();
        if found.is_empty() {
            return Err(format!("no mods found in {}", loader::bundled_mods_dir().display()));
        }
        found
    } else {
        mods.iter().map(|m| loader::resolve_mod(m).map_err(|d| d.to_string())).collect::<Result<_, _>>()?
    };
    let mut failed = 0;
    for folder in &folders {
        match options::load_every_choice(folder).and_then(|loaded| {
            // A scenario test that does not parse is a problem of the mod too.
            let tests = loader::scenario_syntax_problems(folder);
            if tests.is_empty() { Ok(loaded) } else { Err(tests) }
        }) {
            Ok(loaded) => {
                for warning in &loaded.warnings {
                    eprintln!("{}", meeple_engine::diag::printable(&warning.to_string()));
                }
                let rules = &loaded.ruleset;
                super::out!(
                    "ok    {} {} ({}): {} action{}, {} hook file{}",
                    rules.manifest.id,
                    rules.manifest.version,
                    folder.display(),
                    rules.actions.len(),
                    if rules.actions.len() == 1 { "" } else { "s" },
                    rules.hooks.len(),
                    if rules.hooks.len() == 1 { "" } else { "s" }
                );
            }
            Err(problems) => {
                failed += 1;
                for problem in &problems {
                    eprintln!("{}", meeple_engine::diag::printable(&problem.to_string()));
                }
                super::out!(
                    "FAIL  {}: {} problem{}",
                    folder.display(),
                    problems.len(),
                    if problems.len() == 1 { "" } else { "s" }
                );
            }
        }
    }
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
