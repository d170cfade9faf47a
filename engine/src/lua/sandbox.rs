//! A sandboxed Lua state: only the safe standard libraries, no file or process access, no
//! loading of code or bytecode at run time, no randomness but the game's, and limits on
//! instructions and memory so a runaway hook is stopped with a located error.

use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use mlua::{HookTriggers, Lua, LuaOptions, StdLib, Value as LuaValue, VmState};

/// Memory a mod's Lua state may use.
pub const MEMORY_LIMIT: usize = 64 * 1024 * 1024;
/// VM instructions one call into Lua may run (about 30 ms here); deterministic, unlike a clock,
/// so a heavy hook fails the same way on every machine.
pub const INSTRUCTION_LIMIT: u64 = 5_000_000;
/// Wall-clock backstop for one call, in case instructions are slow (e.g. huge string work);
/// together they stop an endless loop within 100 ms.
pub const TIME_LIMIT: Duration = Duration::from_millis(80);
/// How often (in instructions) the limits are checked.
const CHECK_EVERY: u32 = 1_000;

/// The per-call budget, shared with the instruction hook.
#[derive(Clone)]
pub struct Budget {
    used: Rc<Cell<u64>>,
    scale: Rc<Cell<u64>>,
    deadline: Rc<Cell<Option<Instant>>>,
}

impl Budget {
    /// Starts a fresh budget for one call into Lua.
    pub fn start(&self) {
        self.start_for(TIME_LIMIT);
    }

    /// Starts a budget with a longer time limit (scenario tests run whole games from Lua).
    /// The instruction limit still applies, scaled to the time.
    pub fn start_for(&self, limit: Duration) {
        self.used.set(0);
        self.scale.set((limit.as_millis() / TIME_LIMIT.as_millis()).max(1) as u64);
        self.deadline.set(Some(Instant::now() + limit));
    }
}

/// Creates a sandboxed Lua state with limits installed.
pub fn new_state() -> mlua::Result<(Lua, Budget)> {
    let lua = Lua::new_with(
        StdLib::COROUTINE | StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::UTF8,
        LuaOptions::default(),
    )?;
    lua.set_memory_limit(MEMORY_LIMIT)?;
    let globals = lua.globals();
    for name in ["dofile", "loadfile", "load", "require", "loadstring", "module", "collectgarbage", "print"] {
        globals.raw_set(name, LuaValue::Nil)?;
    }
    let string: mlua::Table = globals.get("string")?;
    string.raw_set("dump", LuaValue::Nil)?;
    let math: mlua::Table = globals.get("math")?;
    math.raw_set("random", LuaValue::Nil)?;
    math.raw_set("randomseed", LuaValue::Nil)?;
    // `collectgarbage("count")` is harmless and useful; every other option is refused.
    let collect = lua.create_function(|lua, option: Option<String>| match option.as_deref() {
        Some("count") => Ok(lua.used_memory() as f64 / 1024.0),
        _ => Err(mlua::Error::runtime("collectgarbage is not available in mods (only \"count\")")),
    })?;
    globals.raw_set("collectgarbage", collect)?;

    let budget =
        Budget { used: Rc::new(Cell::new(0)), scale: Rc::new(Cell::new(1)), deadline: Rc::new(Cell::new(None)) };
    let hook_budget = budget.clone();
    lua.set_global_hook(HookTriggers::new().every_nth_instruction(CHECK_EVERY), move |_lua, debug| {
        let used = hook_budget.used.get() + u64::from(CHECK_EVERY);
        hook_budget.used.set(used);
        let limit = INSTRUCTION_LIMIT.saturating_mul(hook_budget.scale.get());
        let over_time = hook_budget.deadline.get().is_some_and(|deadline| Instant::now() > deadline);
        if used > limit || over_time {
            // Name the script and line the runaway code is at, like any other Lua error.
            let source = debug.source().short_src.map(|s| s.to_string()).unwrap_or_else(|| "?".into());
            let line = debug.current_line().map_or_else(|| "?".into(), |l| l.to_string());
            let what =
                if used > limit { format!("ran more than {limit} instructions") } else { "ran too long".to_string() };
            return Err(mlua::Error::runtime(format!(
                "{source}:{line}: the script {what} and was stopped (an endless loop?)"
            )));
        }
        Ok(VmState::Continue)
    })?;
    Ok((lua, budget))
}

/// The first line of a Lua error, which names `script:line` (tracebacks are dropped).
pub fn error_text(error: &mlua::Error) -> String {
    let text = match error {
        mlua::Error::CallbackError { cause, .. } => return error_text(cause),
        mlua::Error::MemoryError(_) => {
            return format!("the script used more than {} MiB of memory", MEMORY_LIMIT / (1024 * 1024));
        }
        mlua::Error::SyntaxError { message, .. } => message.clone(),
        mlua::Error::RuntimeError(message) => message.clone(),
        other => other.to_string(),
    };
    text.lines().next().unwrap_or_default().trim().to_string()
}
