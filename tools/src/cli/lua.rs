//! `meeple lua`: evaluate Lua in a mod's sandbox with the `game` API on a new game; a console
//! (read–eval–print loop) without `-e`.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use clap::Args;
use meeple_engine::game::{Engine, Events, GameSetup};
use meeple_engine::lua::HookRuntime;

#[derive(Args)]
pub struct LuaArgs {
    /// The mod: a bundled mod's id or a mod folder.
    #[arg(name = "MOD")]
    mod_name: String,
    /// Evaluate this and exit.
    #[arg(short = 'e', long = "eval")]
    expression: Option<String>,
    /// The seed of the game the console works on.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn run(args: LuaArgs) -> Result<ExitCode, String> {
    let rules = super::load(&args.mod_name)?;
    let setup = GameSetup::new(&rules, args.seed, rules.manifest.seats.default_count() as usize, "human");
    let mut engine = Engine::new(rules.clone()).map_err(|e| e.to_string())?;
    let mut events = Events::recording();
    let mut state = engine.new_game(&setup, &mut events).map_err(|e| e.to_string())?;
    let mut runtime = HookRuntime::new(rules.clone()).map_err(|e| e.to_string())?;
    if let Some(code) = args.expression {
        return match runtime.eval(&code, &mut state, &mut events) {
            Ok(text) => {
                super::out!("{text}");
                Ok(ExitCode::SUCCESS)
            }
            Err(message) => {
                eprintln!("error: {message}");
                Ok(ExitCode::FAILURE)
            }
        };
    }
    super::out!(
        "{} {} — Lua console. The `game` table reads and changes a new game. Ctrl-D quits.",
        rules.manifest.name,
        rules.manifest.version
    );
    let stdin = std::io::stdin();
    loop {
        print!("> ");
        std::io::stdout().flush().ok();
        let mut line = String::new();
        if stdin.lock().read_line(&mut line).map_err(|e| e.to_string())? == 0 {
            super::out!();
            return Ok(ExitCode::SUCCESS);
        }
        if line.trim().is_empty() {
            continue;
        }
        match runtime.eval(line.trim(), &mut state, &mut events) {
            Ok(text) if text.is_empty() => {}
            Ok(text) => super::out!("{text}"),
            Err(message) => super::out!("error: {message}"),
        }
    }
}
