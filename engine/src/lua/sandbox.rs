//! A sandboxed Lua state: only the safe standard libraries, no file or process access, no
//! loading of code or bytecode at run time, no randomness but the game's, and limits on
//! instructions and memory so a runaway hook is stopped with a located error.
//!
//! What a mod can and cannot do, and which tests check it: `docs/security.md`.
//!
//! Besides removing libraries, the sandbox wraps a few library functions (in Lua, in the chunk
//! `[sandbox]`, keeping the originals in locals no mod can reach):
//! - `pcall`, `xpcall`, `coroutine.resume` and `coroutine.close` re-raise the limit error once a
//!   limit is hit, so no protected call can swallow it and run on, and `xpcall` no longer runs
//!   its message handler then (Lua runs it with hooks off after an error the hook raised);
//! - `coroutine.create` and `coroutine.wrap` count the instructions a new coroutine may run
//!   before its own instruction hook first fires;
//! - `setmetatable` refuses `__gc` (finalizers run with hooks off, at moments the game does not
//!   choose) and `__mode` (weak tables show when the collector ran);
//! - `pairs` visits keys in a fixed order (string hashes are seeded at random per state);
//! - the string pattern functions replay their search first and count its steps
//!   (`patterns.rs`), and functions that copy or move much data count it, so work done inside
//!   one C call is limited like instructions.

use std::cell::{Cell, RefCell};
use std::cmp::Ordering;
use std::rc::Rc;
use std::time::{Duration, Instant};

use mlua::chunk::ChunkMode;
use mlua::{HookTriggers, Lua, LuaOptions, MultiValue, StdLib, Table, Value as LuaValue, VmState};

use super::patterns::{self, Counter, GmatchPosition};

/// Memory a mod's Lua state may use.
pub const MEMORY_LIMIT: usize = 64 * 1024 * 1024;
/// VM instructions one call into Lua may run (about 20 ms here); deterministic, unlike a clock,
/// so a heavy hook fails the same way on every machine.
pub const INSTRUCTION_LIMIT: u64 = 5_000_000;
/// Wall-clock backstop for one call, in case instructions are slow (e.g. huge string work);
/// together they stop an endless loop within 100 ms.
pub const TIME_LIMIT: Duration = Duration::from_millis(80);
/// Deepest nesting of Lua calls a hook may reach (a recursion this deep is a runaway).
pub const MAX_CALL_DEPTH: usize = 2_000;
/// How often (in instructions) the limits are checked. Any count hook already makes Lua test
/// every instruction, so a short period costs little (measured: 5 % slower than every 1 000
/// instructions), and it bounds how long a run of costly instructions goes unchecked.
const CHECK_EVERY: u32 = 100;
/// Bytes a library function copies or scans that count as one instruction. Copying into
/// fresh memory costs about 2.5 ns a byte here, an instruction about 4 ns: one byte, one
/// instruction is on the safe side.
const BYTES_PER_INSTRUCTION: u64 = 1;
/// The chunk name of the sandbox's own wrappers; errors name the mod's line instead.
const SANDBOX_CHUNK: &str = "[sandbox]";
/// The message of a Lua memory error (`LUA_ERRMEM`), as `pcall` returns it.
const LUA_MEMORY_MESSAGE: &str = "not enough memory";

/// The per-call budget, shared by the instruction hook and the wrapped library functions.
#[derive(Clone)]
pub struct Budget(Rc<BudgetState>);

struct BudgetState {
    used: Cell<u64>,
    limit: Cell<u64>,
    time_limit: Cell<Duration>,
    deadline: Cell<Option<Instant>>,
    /// The error of the limit this call hit, located; protected calls re-raise it.
    stopped: RefCell<Option<String>>,
}

impl Budget {
    fn new() -> Self {
        Self(Rc::new(BudgetState {
            used: Cell::new(0),
            limit: Cell::new(INSTRUCTION_LIMIT),
            time_limit: Cell::new(TIME_LIMIT),
            deadline: Cell::new(None),
            stopped: RefCell::new(None),
        }))
    }

    /// Starts a fresh budget for one call into Lua.
    pub fn start(&self) {
        self.start_for(TIME_LIMIT);
    }

    /// Starts a budget with a longer time limit (scenario tests run whole games from Lua).
    /// The instruction limit still applies, scaled to the time.
    pub fn start_for(&self, limit: Duration) {
        let scale = (limit.as_millis() / TIME_LIMIT.as_millis()).max(1) as u64;
        self.0.used.set(0);
        self.0.limit.set(INSTRUCTION_LIMIT.saturating_mul(scale));
        self.0.time_limit.set(limit);
        self.0.deadline.set(Some(Instant::now() + limit));
        self.0.stopped.replace(None);
    }

    /// Instructions this call may still run.
    fn remaining(&self) -> u64 {
        self.0.limit.get().saturating_sub(self.0.used.get())
    }

    /// Counts `units` instructions; why the call must stop, if it must.
    fn over(&self, units: u64) -> Option<String> {
        let used = self.0.used.get().saturating_add(units);
        self.0.used.set(used);
        let limit = self.0.limit.get();
        if used > limit {
            return Some(format!("the script ran more than {limit} instructions and was stopped"));
        }
        if self.0.deadline.get().is_some_and(|deadline| Instant::now() > deadline) {
            let millis = self.0.time_limit.get().as_millis();
            return Some(format!("the script ran longer than {millis} ms and was stopped"));
        }
        None
    }

    /// Records that the call hit a limit; the first error recorded is the one raised from
    /// then on, so every protected call that catches it sees the same.
    fn stop(&self, message: String) -> String {
        self.0.stopped.borrow_mut().get_or_insert(message).clone()
    }

    fn stopped(&self) -> Option<String> {
        self.0.stopped.borrow().clone()
    }

    /// Counts work a library function is about to do, stopping the call when it is over a
    /// limit. `what` names the function in the error.
    fn spend(&self, lua: &Lua, units: u64, what: &str) -> mlua::Result<()> {
        if let Some(stopped) = self.stopped() {
            return Err(mlua::Error::runtime(stopped));
        }
        match self.over(units) {
            None => Ok(()),
            Some(reason) => {
                let message = self.stop(format!("{}{reason} (in {what})", location_prefix(lua)));
                Err(mlua::Error::runtime(message))
            }
        }
    }

    /// A step counter for work replayed before a library function runs, stopped where the
    /// budget (or the clock) runs out.
    fn counter(&self) -> Counter {
        Counter::new(self.remaining(), self.0.deadline.get())
    }
}

/// Counts work the game API does for a hook (copying data in and out of Lua), stopping the
/// call when it is over a limit.
pub(crate) fn charge(lua: &Lua, units: u64, what: &str) -> mlua::Result<()> {
    let budget = lua.app_data_ref::<Budget>().map(|b| b.clone());
    match budget {
        Some(budget) => budget.spend(lua, units, what),
        None => Ok(()),
    }
}

/// `bytes` of data as instructions.
pub(crate) fn bytes_as_instructions(bytes: usize) -> u64 {
    bytes as u64 / BYTES_PER_INSTRUCTION
}

/// `file:line: ` for [`caller_location`], or nothing when the mod's function is not on the
/// stack any more (it ended with a tail call: `return string.find(...)`).
fn location_prefix(lua: &Lua) -> String {
    caller_location(lua).map(|location| format!("{location}: ")).unwrap_or_default()
}

/// `file:line` of the innermost Lua function of the mod on the stack (not the sandbox's
/// wrappers, not C functions).
fn caller_location(lua: &Lua) -> Option<String> {
    for level in 0..64 {
        let frame = lua.inspect_stack(level, |debug| {
            let source = debug.source();
            (source.what, source.short_src.map(|s| s.into_owned()), debug.current_line())
        });
        let Some((what, source, line)) = frame else { break };
        if let (Some(source), Some(line)) = (source, line)
            && what != "C"
            && source != SANDBOX_CHUNK
        {
            return Some(format!("{source}:{line}"));
        }
    }
    None
}

/// Creates a sandboxed Lua state with limits installed.
pub fn new_state() -> mlua::Result<(Lua, Budget)> {
    let lua = Lua::new_with(
        StdLib::COROUTINE | StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::UTF8,
        LuaOptions::default(),
    )?;
    lua.set_memory_limit(MEMORY_LIMIT)?;
    let globals = lua.globals();
    // `warn` writes to the process's error stream once a mod turns warnings on.
    for name in ["dofile", "loadfile", "load", "require", "loadstring", "module", "print", "warn"] {
        globals.raw_set(name, LuaValue::Nil)?;
    }
    let string: Table = globals.get("string")?;
    string.raw_set("dump", LuaValue::Nil)?;
    let math: Table = globals.get("math")?;
    math.raw_set("random", LuaValue::Nil)?;
    math.raw_set("randomseed", LuaValue::Nil)?;
    // `collectgarbage("count")` is harmless and useful; every other option is refused.
    let collect = lua.create_function(|lua, option: Option<String>| match option.as_deref() {
        Some("count") => Ok(lua.used_memory() as f64 / 1024.0),
        _ => Err(mlua::Error::runtime("collectgarbage is not available in mods (only \"count\")")),
    })?;
    globals.raw_set("collectgarbage", collect)?;

    let budget = Budget::new();
    lua.set_app_data(budget.clone());
    install_wrappers(&lua, &budget)?;

    let hook_budget = budget.clone();
    lua.set_global_hook(HookTriggers::new().every_nth_instruction(CHECK_EVERY), move |lua, debug| {
        if let Some(stopped) = hook_budget.stopped() {
            return Err(mlua::Error::runtime(stopped));
        }
        // A runaway recursion is stopped by its depth, long before Lua's own stack limit: growing
        // a stack of a million slots and unwinding it takes longer than the time limit allows.
        // `lua_getstack` walks only as deep as the stack is, so shallow code pays a few steps.
        let too_deep = lua.inspect_stack(MAX_CALL_DEPTH, |_| ()).is_some();
        let reason = if too_deep {
            Some(format!("stack overflow: calls were nested deeper than {MAX_CALL_DEPTH} levels"))
        } else {
            hook_budget.over(u64::from(CHECK_EVERY))
        };
        let Some(reason) = reason else { return Ok(VmState::Continue) };
        // Name the script and line the runaway code is at, like any other Lua error.
        let source = debug.source().short_src.map(|s| s.into_owned());
        let location = match (source, debug.current_line()) {
            (Some(source), Some(line)) if source != SANDBOX_CHUNK => format!("{source}:{line}: "),
            _ => location_prefix(lua),
        };
        Err(mlua::Error::runtime(hook_budget.stop(format!("{location}{reason} (an endless loop?)"))))
    })?;
    Ok((lua, budget))
}

/// The Lua side of the wrappers: each local has the name of the function it holds, so Lua's
/// own messages about bad arguments name the function the mod called.
const WRAPPERS: &str = r#"
local checks = ...
local type, rawget, error = type, rawget, error
local rethrow, charge_bytes, charge_count = checks.rethrow, checks.charge_bytes, checks.charge_count

do
  local pcall, xpcall, stopped = pcall, xpcall, checks.stopped
  _G.pcall = function(...) return rethrow(pcall(...)) end
  -- Lua runs a message handler where the error is raised, before unwinding; for the error the
  -- instruction hook raises, that is with hooks off, so once a limit is hit it is not run.
  _G.xpcall = function(f, handler, ...)
    if type(handler) ~= "function" then return xpcall(f, handler, ...) end
    return rethrow(xpcall(f, function(e) if stopped() then return e end return handler(e) end, ...))
  end
end
do
  local resume, close, create, wrap = coroutine.resume, coroutine.close, coroutine.create, coroutine.wrap
  local started = checks.coroutine_started
  coroutine.resume = function(...) return rethrow(resume(...)) end
  coroutine.close = function(...) return rethrow(close(...)) end
  coroutine.create = function(...) started() return create(...) end
  coroutine.wrap = function(...) started() return wrap(...) end
end
do
  local setmetatable = setmetatable
  _G.setmetatable = function(t, mt, ...)
    if type(mt) == "table" and (rawget(mt, "__gc") ~= nil or rawget(mt, "__mode") ~= nil) then
      error("setmetatable: __gc and __mode are not available to mods (when the garbage collector runs is not part of the game)", 2)
    end
    return setmetatable(t, mt, ...)
  end
end
do
  local pairs, ordered = pairs, checks.ordered_pairs
  _G.pairs = function(t, ...)
    local next_in_order = ordered(t)
    if next_in_order then return next_in_order, t, nil end
    return pairs(t, ...)
  end
end
do
  local find, match, gmatch, gsub = string.find, string.match, string.gmatch, string.gsub
  local check_find, check_gsub, gmatch_steps = checks.find, checks.gsub, checks.gmatch
  string.find = function(...) check_find(true, ...) return find(...) end
  string.match = function(...) check_find(false, ...) return match(...) end
  string.gsub = function(...) check_gsub(...) return gsub(...) end
  string.gmatch = function(...)
    local step = gmatch_steps(...)
    local next_match = gmatch(...)
    return function() step() return next_match() end
  end
end
do
  local rep, sub, format, upper, lower, reverse = string.rep, string.sub, string.format, string.upper, string.lower, string.reverse
  local check_rep, check_sub = checks.rep, checks.sub
  string.rep = function(...) check_rep(...) return rep(...) end
  string.sub = function(...) check_sub(...) return sub(...) end
  string.format = function(...) charge_bytes(...) return format(...) end
  string.upper = function(...) charge_bytes(...) return upper(...) end
  string.lower = function(...) charge_bytes(...) return lower(...) end
  string.reverse = function(...) charge_bytes(...) return reverse(...) end
  -- `pack` can make megabytes from a short format (`"c8000000"`): what it made is charged.
  local pack, unpack = string.pack, string.unpack
  string.pack = function(...) local packed = pack(...) charge_bytes(packed) return packed end
  string.unpack = function(...) charge_bytes(...) return unpack(...) end
end
do
  local len, offset = utf8.len, utf8.offset
  utf8.len = function(...) charge_bytes(...) return len(...) end
  utf8.offset = function(...) charge_bytes(...) return offset(...) end
end
do
  local insert, remove, move, sort, concat = table.insert, table.remove, table.move, table.sort, table.concat
  local check_move, charge_sort = checks.move, checks.sort
  -- These move every element after the position, as many as `#t` says (a `__len` may say many).
  table.insert = function(t, ...) if type(t) == "table" then charge_count(#t) end return insert(t, ...) end
  table.remove = function(t, ...) if type(t) == "table" then charge_count(#t) end return remove(t, ...) end
  table.move = function(...) check_move(...) return move(...) end
  table.sort = function(t, ...) if type(t) == "table" then charge_sort(#t) end return sort(t, ...) end
  local check_concat = checks.concat
  table.concat = function(t, sep, i, j)
    if type(t) == "table" then check_concat(i, j == nil and #t or j) end
    return concat(t, sep, i, j)
  end
end
"#;

/// A Lua value as the bytes Lua's string functions see (numbers are converted), or `None`
/// when Lua would refuse it (and report the bad argument itself).
fn as_text(lua: &Lua, value: LuaValue) -> mlua::Result<Option<mlua::LuaString>> {
    match value {
        LuaValue::String(s) => Ok(Some(s)),
        v @ (LuaValue::Integer(_) | LuaValue::Number(_)) => lua.coerce_string(v),
        _ => Ok(None),
    }
}

/// An optional integer argument as Lua reads it, `None` when Lua would refuse it.
fn as_integer(lua: &Lua, value: LuaValue, default: i64) -> mlua::Result<Option<i64>> {
    match value {
        LuaValue::Nil => Ok(Some(default)),
        v => lua.coerce_integer(v),
    }
}

/// A count as Lua computed it (`#t`, maybe through `__len`), as instructions; any number
/// counts, however large.
fn count_units(value: &LuaValue) -> u64 {
    match value {
        LuaValue::Integer(n) => (*n).max(0) as u64,
        LuaValue::Number(x) if *x > 0.0 => x.min(u64::MAX as f64) as u64,
        _ => 0,
    }
}

/// The Rust side of the wrappers.
fn install_wrappers(lua: &Lua, budget: &Budget) -> mlua::Result<()> {
    let checks = lua.create_table()?;

    let b = budget.clone();
    checks.raw_set(
        "rethrow",
        lua.create_function(move |_, results: MultiValue| {
            if let Some(stopped) = b.stopped() {
                return Err(mlua::Error::runtime(stopped));
            }
            // A memory error is final too: catching it only lets a bomb try again.
            let failed = matches!(results.front(), Some(LuaValue::Boolean(false)));
            let out_of_memory = match results.get(1) {
                Some(LuaValue::String(s)) => s.as_bytes() == LUA_MEMORY_MESSAGE.as_bytes(),
                Some(LuaValue::Error(e)) => matches!(**e, mlua::Error::MemoryError(_)),
                _ => false,
            };
            if failed && out_of_memory {
                return Err(mlua::Error::runtime(b.stop(memory_message())));
            }
            Ok(results)
        })?,
    )?;

    let b = budget.clone();
    checks.raw_set("stopped", lua.create_function(move |_, ()| Ok(b.stopped().is_some()))?)?;

    let b = budget.clone();
    checks.raw_set(
        "coroutine_started",
        // A new coroutine counts its own instructions from zero; it may run up to a period
        // without the hook firing, so that much is counted when it is made.
        lua.create_function(move |lua, ()| b.spend(lua, u64::from(CHECK_EVERY), "coroutine.create"))?,
    )?;

    let b = budget.clone();
    checks.raw_set(
        "charge_bytes",
        lua.create_function(move |lua, values: MultiValue| {
            let bytes: usize =
                values.iter().map(|v| if let LuaValue::String(s) = v { s.as_bytes().len() } else { 0 }).sum();
            b.spend(lua, bytes_as_instructions(bytes), "a string function")
        })?,
    )?;

    let b = budget.clone();
    checks.raw_set(
        "charge_count",
        lua.create_function(move |lua, count: LuaValue| b.spend(lua, count_units(&count), "a table function"))?,
    )?;

    let b = budget.clone();
    checks.raw_set(
        "sort",
        lua.create_function(move |lua, count: LuaValue| {
            let n = count_units(&count);
            b.spend(lua, n.saturating_mul(u64::from(n.max(2).ilog2() + 1)), "table.sort")
        })?,
    )?;

    let b = budget.clone();
    checks.raw_set(
        "move",
        lua.create_function(move |lua, (_, first, last): (LuaValue, LuaValue, LuaValue)| {
            let (Some(first), Some(last)) = (as_integer(lua, first, 0)?, as_integer(lua, last, 0)?) else {
                return Ok(());
            };
            let count = (i128::from(last) - i128::from(first) + 1).clamp(0, i128::from(u64::MAX)) as u64;
            b.spend(lua, count, "table.move")
        })?,
    )?;

    let b = budget.clone();
    checks.raw_set(
        "concat",
        lua.create_function(move |lua, (first, last): (LuaValue, LuaValue)| {
            let (Some(first), Some(last)) = (as_integer(lua, first, 1)?, as_integer(lua, last, 0)?) else {
                return Ok(());
            };
            let count = (i128::from(last) - i128::from(first) + 1).clamp(0, i128::from(u64::MAX)) as u64;
            b.spend(lua, count, "table.concat")
        })?,
    )?;

    let b = budget.clone();
    checks.raw_set(
        "rep",
        lua.create_function(move |lua, (text, count, separator): (LuaValue, LuaValue, LuaValue)| {
            let (Some(text), Some(count)) = (as_text(lua, text)?, as_integer(lua, count, 0)?) else { return Ok(()) };
            let separator = match separator {
                LuaValue::Nil => 0,
                v => as_text(lua, v)?.map_or(0, |s| s.as_bytes().len()),
            };
            let piece = (text.as_bytes().len() + separator) as u128;
            if piece == 0 || count <= 0 {
                return Ok(());
            }
            let bytes = count as u128 * piece;
            if bytes > MEMORY_LIMIT as u128 {
                let message = format!("{}{} (in string.rep)", location_prefix(lua), memory_message());
                return Err(mlua::Error::runtime(b.stop(message)));
            }
            // Lua copies the piece once per repetition: a one-byte piece repeated costs per
            // repetition, a long one per byte.
            let units = count as u64 + (bytes / u128::from(BYTES_PER_INSTRUCTION)) as u64;
            b.spend(lua, units, "string.rep")
        })?,
    )?;

    let b = budget.clone();
    checks.raw_set(
        "sub",
        lua.create_function(move |lua, (text, first, last): (LuaValue, LuaValue, LuaValue)| {
            let (Some(text), Some(first), Some(last)) =
                (as_text(lua, text)?, as_integer(lua, first, 1)?, as_integer(lua, last, -1)?)
            else {
                return Ok(());
            };
            let len = text.as_bytes().len();
            let start = patterns::start_index(first, len);
            // Lua's `getendpos`: the end position, 1-based, clipped to the string.
            let end = if last > len as i64 {
                len
            } else if last >= 0 {
                last as usize
            } else if last < -(len as i64) {
                0
            } else {
                (len as i64 + last + 1) as usize
            };
            b.spend(lua, bytes_as_instructions(end.saturating_sub(start)), "string.sub")
        })?,
    )?;

    let b = budget.clone();
    checks.raw_set(
        "find",
        lua.create_function(
            move |lua, (is_find, subject, pattern, init, plain): (bool, LuaValue, LuaValue, LuaValue, LuaValue)| {
                let (Some(subject), Some(pattern), Some(init)) =
                    (as_text(lua, subject)?, as_text(lua, pattern)?, as_integer(lua, init, 1)?)
                else {
                    return Ok(());
                };
                let plain = !matches!(plain, LuaValue::Nil | LuaValue::Boolean(false));
                let mut counter = b.counter();
                let _ = patterns::find(&subject.as_bytes(), &pattern.as_bytes(), init, plain, is_find, &mut counter);
                b.spend(lua, counter.steps, if is_find { "string.find" } else { "string.match" })
            },
        )?,
    )?;

    let b = budget.clone();
    checks.raw_set(
        "gsub",
        lua.create_function(move |lua, (subject, pattern, _, limit): (LuaValue, LuaValue, LuaValue, LuaValue)| {
            let (Some(subject), Some(pattern)) = (as_text(lua, subject)?, as_text(lua, pattern)?) else {
                return Ok(());
            };
            let Some(limit) = as_integer(lua, limit, i64::MAX)? else { return Ok(()) };
            let mut counter = b.counter();
            let _ = patterns::gsub(&subject.as_bytes(), &pattern.as_bytes(), limit, &mut counter);
            b.spend(lua, counter.steps, "string.gsub")
        })?,
    )?;

    let b = budget.clone();
    checks.raw_set(
        "gmatch",
        lua.create_function(move |lua, (subject, pattern, init): (LuaValue, LuaValue, LuaValue)| {
            let texts = (as_text(lua, subject)?, as_text(lua, pattern)?, as_integer(lua, init, 1)?);
            let b = b.clone();
            let mut state = match texts {
                (Some(subject), Some(pattern), Some(init)) => {
                    let position = GmatchPosition::new(subject.as_bytes().len(), init);
                    Some((subject, pattern, position))
                }
                // Lua's `gmatch` refuses these arguments right after this.
                _ => None,
            };
            lua.create_function_mut(move |lua, ()| {
                let Some((subject, pattern, position)) = state.as_mut() else { return Ok(()) };
                let mut counter = b.counter();
                let _ = position.step(&subject.as_bytes(), &pattern.as_bytes(), &mut counter);
                b.spend(lua, counter.steps, "string.gmatch")
            })
        })?,
    )?;

    let b = budget.clone();
    checks.raw_set(
        "ordered_pairs",
        lua.create_function(move |lua, value: LuaValue| {
            let LuaValue::Table(table) = value else { return Ok(LuaValue::Nil) };
            // A table with its own `__pairs` iterates as it says, through Lua's `pairs`.
            if table.metatable().is_some_and(|mt| mt.raw_get::<LuaValue>("__pairs").is_ok_and(|v| !v.is_nil())) {
                return Ok(LuaValue::Nil);
            }
            let mut keys: Vec<LuaValue> =
                table.pairs::<LuaValue, LuaValue>().map(|pair| pair.map(|(k, _)| k)).collect::<mlua::Result<_>>()?;
            let n = keys.len() as u64;
            b.spend(lua, n.saturating_mul(u64::from(n.max(2).ilog2() + 1)), "pairs")?;
            keys.sort_by(key_order);
            let mut next = 0;
            let iterator = lua.create_function_mut(move |_, ()| {
                while next < keys.len() {
                    let key = keys[next].clone();
                    next += 1;
                    // A field cleared during the traversal is skipped, as `next` would.
                    let value: LuaValue = table.raw_get(key.clone())?;
                    if !value.is_nil() {
                        return Ok((key, value));
                    }
                }
                Ok((LuaValue::Nil, LuaValue::Nil))
            })?;
            Ok(LuaValue::Function(iterator))
        })?,
    )?;

    lua.load(WRAPPERS).set_name(format!("={SANDBOX_CHUNK}")).set_mode(ChunkMode::Text).call::<()>(checks)
}

/// The order `pairs` visits keys in: numbers by value, then strings byte by byte, then
/// `false` and `true`; other keys (tables, functions) keep the table's own order, which no
/// game can depend on (their addresses differ from run to run).
fn key_order(a: &LuaValue, b: &LuaValue) -> Ordering {
    fn rank(v: &LuaValue) -> u8 {
        match v {
            LuaValue::Integer(_) | LuaValue::Number(_) => 0,
            LuaValue::String(_) => 1,
            LuaValue::Boolean(_) => 2,
            _ => 3,
        }
    }
    match (a, b) {
        (LuaValue::Integer(x), LuaValue::Integer(y)) => x.cmp(y),
        (LuaValue::Integer(x), LuaValue::Number(y)) => (*x as f64).total_cmp(y),
        (LuaValue::Number(x), LuaValue::Integer(y)) => x.total_cmp(&(*y as f64)),
        (LuaValue::Number(x), LuaValue::Number(y)) => x.total_cmp(y),
        (LuaValue::String(x), LuaValue::String(y)) => x.as_bytes().cmp(&y.as_bytes()),
        (LuaValue::Boolean(x), LuaValue::Boolean(y)) => x.cmp(y),
        _ => rank(a).cmp(&rank(b)),
    }
}

fn memory_message() -> String {
    format!("the script used more than {} MiB of memory", MEMORY_LIMIT / (1024 * 1024))
}

/// The first line of a Lua error, which names `script:line` (tracebacks are dropped).
pub fn error_text(error: &mlua::Error) -> String {
    let text = match error {
        mlua::Error::CallbackError { cause, traceback } => {
            // An error the engine's API raises (a bad argument to `meeple.on` or `game.…`) has
            // no position of its own: name the mod's line that made the call.
            let message = error_text(cause);
            let located = message.split_once(": ").is_some_and(|(start, _)| {
                start.rsplit_once(':').is_some_and(|(_, n)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            });
            return match traceback.lines().find_map(traceback_location) {
                Some(location) if !located => format!("{location}: {message}"),
                _ => message,
            };
        }
        mlua::Error::MemoryError(_) => return memory_message(),
        mlua::Error::SyntaxError { message, .. } => message.clone(),
        mlua::Error::RuntimeError(message) => message.clone(),
        other => other.to_string(),
    };
    let first = text.lines().next().unwrap_or_default().trim();
    if first == LUA_MEMORY_MESSAGE {
        return memory_message();
    }
    // A library function the sandbox wraps reports bad arguments at the wrapper's line; name
    // the mod's line instead, the first frame of the traceback outside the sandbox.
    if let Some(rest) = first.strip_prefix(SANDBOX_CHUNK).and_then(|r| r.strip_prefix(':'))
        && let Some((_, message)) = rest.split_once(':')
        && let Some(location) = text.lines().skip(1).find_map(traceback_location)
    {
        return format!("{location}:{message}");
    }
    first.to_string()
}

/// `file:line` of a traceback line of the mod's code (`\tfile.lua:12: in function ...`).
fn traceback_location(line: &str) -> Option<&str> {
    let (location, _) = line.trim().split_once(": ")?;
    let (source, number) = location.rsplit_once(':')?;
    let mod_code = source != SANDBOX_CHUNK && source != "[C]" && number.bytes().all(|b| b.is_ascii_digit());
    mod_code.then_some(location)
}

/// The line of the first to-be-closed variable (`local x <close> = …`) in a chunk's text, if any.
///
/// Mods may not declare them: Lua calls their `__close` while an error unwinds, and after the
/// instruction hook stopped a script that call runs with hooks off, so a loop there could never
/// be stopped. Nothing a game does needs to release a resource at scope exit. Strings and
/// comments are skipped, so only real code is refused.
pub fn close_attribute_line(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut line = 1;
    let mut i = 0;
    // The level of a long bracket opening at `at` (`[[` is 0, `[==[` is 2), if one does.
    let long_bracket = |at: usize| -> Option<usize> {
        let mut j = at + 1;
        while bytes.get(j) == Some(&b'=') {
            j += 1;
        }
        (bytes.get(at) == Some(&b'[') && bytes.get(j) == Some(&b'[')).then_some(j - at - 1)
    };
    // Skips a long string or comment whose opening bracket of `level` starts at `at`; gives the
    // index after its closing bracket, counting the lines it spans.
    let skip_long = |at: usize, level: usize, line: &mut usize| -> usize {
        let close: Vec<u8> = std::iter::once(b']').chain(std::iter::repeat_n(b'=', level)).chain([b']']).collect();
        let mut j = at + level + 2;
        while j < bytes.len() && !bytes[j..].starts_with(&close) {
            *line += usize::from(bytes[j] == b'\n');
            j += 1;
        }
        (j + close.len()).min(bytes.len())
    };
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                line += 1;
                i += 1;
            }
            b'-' if bytes.get(i + 1) == Some(&b'-') => {
                if let Some(level) = long_bracket(i + 2) {
                    i = skip_long(i + 2, level, &mut line);
                } else {
                    while i < bytes.len() && bytes[i] != b'\n' {
                        i += 1;
                    }
                }
            }
            b'[' if long_bracket(i).is_some() => {
                let level = long_bracket(i).unwrap_or(0);
                i = skip_long(i, level, &mut line);
            }
            quote @ (b'"' | b'\'') => {
                i += 1;
                while i < bytes.len() && bytes[i] != quote && bytes[i] != b'\n' {
                    // An escape skips the next byte (`\"`, `\\`, or a line break after `\`).
                    if bytes[i] == b'\\' && i + 1 < bytes.len() {
                        line += usize::from(bytes[i + 1] == b'\n');
                        i += 1;
                    }
                    i += 1;
                }
                i += 1;
            }
            b'<' => {
                let mut j = i + 1;
                while bytes.get(j).is_some_and(|b| b" \t\r\n".contains(b)) {
                    j += 1;
                }
                let word = bytes[j..].iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count();
                let mut k = j + word;
                while bytes.get(k).is_some_and(|b| b" \t\r\n".contains(b)) {
                    k += 1;
                }
                if &bytes[j..j + word] == b"close" && bytes.get(k) == Some(&b'>') {
                    return Some(line);
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    None
}

/// Refuses a chunk that declares a to-be-closed variable, with an error located like Lua's
/// own (`chunk:line: …`); see [`close_attribute_line`].
pub fn refuse_close_attribute(text: &str, chunk_name: &str) -> mlua::Result<()> {
    match close_attribute_line(text) {
        Some(line) => Err(mlua::Error::SyntaxError {
            message: format!(
                "{chunk_name}:{line}: to-be-closed variables (`<close>`) are not available to mods (their `__close` \
                 would run where the limits cannot stop it)"
            ),
            incomplete_input: false,
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod close_attribute_tests {
    use super::close_attribute_line;

    #[test]
    fn finds_the_attribute_in_code_only() {
        assert_eq!(close_attribute_line("local a <close> = x"), Some(1));
        assert_eq!(close_attribute_line("local a = 1\nlocal b<  close\n> = x"), Some(2));
        assert_eq!(close_attribute_line("local a <const> = 1\nif a < close then end"), None);
        assert_eq!(close_attribute_line("local s = '<close>' -- <close>\nlocal t = \"a\\\"<close>\""), None);
        assert_eq!(
            close_attribute_line("--[==[\n<close>\n]==]\nlocal s = [[\n<close>]]\nlocal x <close> = y"),
            Some(6)
        );
        assert_eq!(close_attribute_line("x = a<close>b"), Some(1), "refused even where it would not parse");
    }
}
