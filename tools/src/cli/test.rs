//! `meeple test`: run mods' Lua scenario tests and print `N passed, N failed`.
//!
//! Each failure is printed whole (every line of its message), and so is what a test printed
//! with `print`, under the test's name. Lua paths are shown from inside the mod folder
//! (`hooks/cards.lua:46`, `tests/cards.lua:12`), whatever folder the command was given.

use std::process::ExitCode;

use clap::Args;
use meeple_engine::{loader, scenario};

#[derive(Args)]
pub struct TestArgs {
    /// Mod ids or folders (every bundled mod when none).
    mods: Vec<String>,
    /// Only tests whose name contains this text.
    #[arg(long, value_name = "NAME")]
    filter: Option<String>,
    /// Print every test, not only failures and tests that printed something.
    #[arg(long, short)]
    verbose: bool,
}

pub fn run(args: TestArgs) -> Result<ExitCode, String> {
    let folders = if args.mods.is_empty() {
        super::bundled()
    } else {
        args.mods.iter().map(|m| loader::resolve_mod(m).map_err(|d| d.to_string())).collect::<Result<_, _>>()?
    };
    let (mut passed, mut failed) = (0, 0);
    for folder in folders {
        let rules = super::load(&folder.to_string_lossy())?;
        let files = loader::mod_files(&folder).map_err(|d| d.to_string())?;
        let folder_name = scenario::mod_folder_name(&folder);
        for result in scenario::run_mod_tests(&rules, &files.tests, &files.test_helpers, args.filter.as_deref()) {
            if result.out_of_time {
                print_lines(&scenario::result_lines(&result, &folder_name, true));
                super::out!("{passed} passed, {failed} failed before the run was stopped");
                let message = result.failure.as_deref().unwrap_or_default();
                return Err(format!(
                    "the tests were stopped: {}",
                    scenario::inside_mod_folder(message, &folder_name).lines().next().unwrap_or_default()
                ));
            }
            match &result.failure {
                None => passed += 1,
                Some(_) => failed += 1,
            }
            print_lines(&scenario::result_lines(&result, &folder_name, args.verbose));
        }
    }
    if let Some(filter) = &args.filter
        && passed + failed == 0
    {
        return Err(format!("no test's name contains `{filter}`"));
    }
    super::out!("{passed} passed, {failed} failed");
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

fn print_lines(lines: &[String]) {
    for line in lines {
        super::out!("{line}");
    }
}
