//! `meeple test`: run mods' Lua scenario tests and print `N passed, N failed`.

use std::process::ExitCode;

use clap::Args;
use meeple_engine::{loader, scenario};

#[derive(Args)]
pub struct TestArgs {
    /// Mod ids or folders (every bundled mod when none).
    mods: Vec<String>,
    /// Only tests whose name contains this text.
    #[arg(long)]
    filter: Option<String>,
    /// Print every test, not only failures.
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
        for result in scenario::run_mod_tests(&rules, &files.tests, &files.test_helpers, args.filter.as_deref()) {
            match &result.failure {
                None => {
                    passed += 1;
                    if args.verbose {
                        println!("ok    {} › {}", result.file, result.name);
                    }
                }
                Some(message) => {
                    failed += 1;
                    println!("FAIL  {} › {}\n      {message}", result.file, result.name);
                }
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
