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
//!   protected calls and coroutine bodies name the mod's line in a library function's error
//!   where Lua would name the wrapper's;
//! - `coroutine.create` and `coroutine.wrap` count the instructions a new coroutine may run
//!   before its own instruction hook first fires;
//! - no metatable ever holds `__gc` (finalizers run with hooks off, at moments the game does
//!   not choose), `__close` (a to-be-closed value is closed with hooks off in a coroutine the
//!   limits stopped) or `__mode` (weak tables show when the collector ran): `setmetatable`
//!   refuses them and seals the metatable against gaining them later, the string metatable
//!   included (`getmetatable`, `setmetatable` and `rawset` see through the seal);
//! - `pairs` visits keys in a fixed order (string hashes are seeded at random per state);
//! - the string pattern functions replay their search first and count its steps
//!   (`patterns.rs`), and functions that copy, convert or make much data count it, so work done
//!   inside one C call is limited like instructions.
//!
//! To-be-closed variables (`local x <close>`) are refused when a chunk is compiled
//! ([`compile`]).

use std::cell::{Cell, RefCell};
use std::cmp::Ordering;
use std::rc::Rc;
use std::time::{Duration, Instant};

use mlua::chunk::ChunkMode;
use mlua::{Function, HookTriggers, Lua, LuaOptions, MultiValue, StdLib, Table, Value as LuaValue, VmState};

use super::bytecode::{self, Scan};
use super::lexer;
use super::patterns::{self, Counter, GmatchPosition};

/// Memory a mod's Lua state may use.
pub const MEMORY_LIMIT: usize = 64 * 1024 * 1024;
/// VM instructions one call into Lua may run (about 20 ms here); deterministic, unlike a clock,
/// so a heavy hook fails the same way on every machine.
pub const INSTRUCTION_LIMIT: u64 = 5_000_000;
/// VM instructions all the hook calls of one piece of work may run together: one action with
/// every event handler and hook it sets off, one game's start, one computer player's judging of
/// a position. Each call still has its own [`INSTRUCTION_LIMIT`]; this bounds a mod that
/// registers many handlers that each use most of theirs. Every call counts at least
/// [`CHECK_EVERY`] instructions towards it, so many tiny calls are bounded too.
pub const WORK_INSTRUCTION_LIMIT: u64 = 50_000_000;
/// The wall-clock watchdog of one call: far beyond what the counted limits allow (5 000 000
/// instructions take about 20 ms here), so only a machine fifty times too slow, or work the
/// counters cannot see (`..` and comparisons of strings of megabytes), meets it. It never decides a game: its stop is an error of its own kind
/// ([`Budget::out_of_time`], `RuleError::is_out_of_time`) that ends the command or game, since a
/// replay elsewhere would not stop there.
pub const WATCHDOG: Duration = Duration::from_secs(1);
/// Deepest nesting of Lua calls a hook may reach (a recursion this deep is a runaway).
pub const MAX_CALL_DEPTH: usize = 2_000;
/// How often (in instructions) the limits are checked. Any count hook already makes Lua test
/// every instruction, so a short period costs little (measured: 5 % slower than every 1 000
/// instructions), and it bounds how long a run of costly instructions goes unchecked.
pub(crate) const CHECK_EVERY: u32 = 100;
/// What an error caught by a protected call (`pcall`, `xpcall`, a coroutine's body) counts, in
/// instructions: raising, unwinding to and handling one takes about as long as a thousand
/// instructions here.
const CAUGHT_ERROR_INSTRUCTIONS: u64 = 1_000;
/// Bytes a library function copies or scans that count as one instruction. Copying into
/// fresh memory costs about 2.5 ns a byte here, an instruction about 4 ns: one byte, one
/// instruction is on the safe side.
const BYTES_PER_INSTRUCTION: u64 = 1;
/// The chunk name of the sandbox's own wrappers; errors name the mod's line instead.
const SANDBOX_CHUNK: &str = "[sandbox]";
/// The message of a Lua memory error (`LUA_ERRMEM`), as `pcall` returns it.
const LUA_MEMORY_MESSAGE: &str = "not enough memory";

thread_local! {
    /// The watchdog of calls started on this thread, when [`with_watchdog`] set one.
    static WATCHDOG_HERE: Cell<Option<Duration>> = const { Cell::new(None) };
}

/// Runs `work` with the wall-clock watchdog of every hook call it starts on this thread set to
/// `limit` instead of [`WATCHDOG`]: how tests stand in for a machine that is far too slow, to
/// show that no rule's result depends on the clock.
pub fn with_watchdog<R>(limit: Duration, work: impl FnOnce() -> R) -> R {
    let before = WATCHDOG_HERE.with(|w| w.replace(Some(limit)));
    let result = work();
    WATCHDOG_HERE.with(|w| w.set(before));
    result
}

fn watchdog() -> Duration {
    WATCHDOG_HERE.with(Cell::get).unwrap_or(WATCHDOG)
}

/// The per-call budget, shared by the instruction hook and the wrapped library functions.
#[derive(Clone)]
pub struct Budget(Rc<BudgetState>);

struct BudgetState {
    used: Cell<u64>,
    limit: Cell<u64>,
    watchdog: Cell<Duration>,
    deadline: Cell<Option<Instant>>,
    /// Whether `limit` is what the work this call belongs to has left, not the call's own.
    limited_by_work: Cell<bool>,
    /// The error of the limit this call hit, located; protected calls re-raise it.
    stopped: RefCell<Option<String>>,
    /// Whether the stop was the watchdog's, not a counted limit's.
    out_of_time: Cell<bool>,
}

impl Budget {
    fn new() -> Self {
        Self(Rc::new(BudgetState {
            used: Cell::new(0),
            limit: Cell::new(INSTRUCTION_LIMIT),
            watchdog: Cell::new(WATCHDOG),
            deadline: Cell::new(None),
            limited_by_work: Cell::new(false),
            stopped: RefCell::new(None),
            out_of_time: Cell::new(false),
        }))
    }

    /// Starts a fresh budget of [`INSTRUCTION_LIMIT`] for one call into Lua, under the watchdog.
    pub fn start(&self) {
        self.start_with(INSTRUCTION_LIMIT, watchdog());
    }

    /// Starts a budget of `instructions` under a watchdog of `limit` (scenario tests run whole
    /// games from Lua, with a larger count and a longer watchdog).
    pub fn start_with(&self, instructions: u64, limit: Duration) {
        self.0.used.set(0);
        self.0.limit.set(instructions);
        self.0.watchdog.set(limit);
        self.0.deadline.set(Instant::now().checked_add(limit));
        self.0.limited_by_work.set(false);
        self.0.stopped.replace(None);
        self.0.out_of_time.set(false);
    }

    /// Starts a budget for one call of a piece of work whose calls share
    /// [`WORK_INSTRUCTION_LIMIT`]: the call may run [`INSTRUCTION_LIMIT`] instructions, or what
    /// the work has left when that is less.
    pub(crate) fn start_within(&self, work_left: u64) {
        self.start();
        if work_left < INSTRUCTION_LIMIT {
            self.0.limit.set(work_left);
            self.0.limited_by_work.set(true);
        }
    }

    /// Instructions the call ran, as counted (every [`CHECK_EVERY`] instructions, and the work
    /// library functions counted).
    pub(crate) fn used(&self) -> u64 {
        self.0.used.get()
    }

    /// Starts a budget of [`INSTRUCTION_LIMIT`] instructions and no watchdog: what tests use to
    /// check that work is counted, whatever else the machine is doing.
    pub fn start_counting_only(&self) {
        self.start();
        self.0.deadline.set(None);
    }

    /// Whether the call was stopped by the wall-clock watchdog rather than by a counted limit:
    /// then its error says so, and must end the command or game instead of deciding anything.
    pub fn out_of_time(&self) -> bool {
        self.0.out_of_time.get()
    }

    /// Counts `units` instructions without checking the limits: for work counted where raising
    /// the limit's error is not possible (a message handler); the next check stops the call.
    fn count(&self, units: u64) {
        self.0.used.set(self.0.used.get().saturating_add(units));
    }

    /// Instructions this call may still run.
    fn remaining(&self) -> u64 {
        self.0.limit.get().saturating_sub(self.0.used.get())
    }

    /// Counts `units` instructions; why the call must stop, if it must. A counted limit is
    /// checked first: what passes it passes it on every machine.
    fn over(&self, units: u64) -> Option<String> {
        let used = self.0.used.get().saturating_add(units);
        self.0.used.set(used);
        let limit = self.0.limit.get();
        if used > limit {
            if self.0.limited_by_work.get() {
                return Some(format!(
                    "the hooks of one action (or of one game's start, or the loading of the hook files) ran \
                     more than {WORK_INSTRUCTION_LIMIT} instructions together and were stopped"
                ));
            }
            return Some(format!("the script ran more than {limit} instructions and was stopped"));
        }
        if self.0.deadline.get().is_some_and(|deadline| Instant::now() > deadline) {
            self.0.out_of_time.set(true);
            return Some(out_of_time_message(self.0.watchdog.get()));
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
    /// budget runs out.
    fn counter(&self) -> Counter {
        Counter::new(self.remaining())
    }
}

/// What the watchdog's stop says: not a mistake of the mod's rules, and not reproducible.
fn out_of_time_message(watchdog: Duration) -> String {
    format!(
        "the machine was too slow: the script was still running after {} of wall-clock time, far \
         past what its counted limits allow here (the machine is overloaded, or the mod does work the \
         limits cannot count); this is not a result of the game, so it stops here",
        shown_duration(watchdog)
    )
}

fn shown_duration(duration: Duration) -> String {
    if duration >= Duration::from_secs(1) && duration.subsec_millis() == 0 {
        format!("{} s", duration.as_secs())
    } else {
        format!("{} ms", duration.as_millis())
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

/// `file:line` where the mod called the wrapper of the sandbox whose line an error names: Lua
/// locates an error a library function raises at the function's caller, which is a wrapper
/// here. Called from the message handler: `handlers` frames of the sandbox's own run between it
/// and the function that raised the error. `None` when a C function called the wrapper
/// (`pcall(string.rep)`), where Lua gives no position either.
fn wrapper_caller_location(lua: &Lua, handlers: usize) -> Option<String> {
    let mut level = 1 + handlers;
    // The function that raised the error: a C function reports at its caller, Lua code where
    // it is (then it is the sandbox's own code).
    let raiser_is_c = lua.inspect_stack(level, |debug| debug.source().what == "C")?;
    if raiser_is_c {
        level += 1;
    }
    loop {
        let frame = lua.inspect_stack(level, |debug| {
            let source = debug.source();
            (source.what, source.short_src.map(|s| s.into_owned()), debug.current_line())
        });
        let (what, source, line) = frame?;
        match (what, source, line) {
            (_, Some(source), _) if source == SANDBOX_CHUNK => level += 1,
            ("C", _, _) => return None,
            (_, Some(source), Some(line)) => return Some(format!("{source}:{line}")),
            _ => return None,
        }
        if level > 64 {
            return None;
        }
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
        // a stack of a million slots and unwinding it takes long, and counts little.
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
        let hint = if hook_budget.out_of_time() { "" } else { " (an endless loop?)" };
        Err(mlua::Error::runtime(hook_budget.stop(format!("{location}{reason}{hint}"))))
    })?;
    Ok((lua, budget))
}

/// The Lua side of the wrappers: each local has the name of the function it holds, so Lua's
/// own messages about bad arguments name the function the mod called.
const WRAPPERS: &str = r##"
local checks = ...
local type, rawget, rawset, rawlen, error, select, next = type, rawget, rawset, rawlen, error, select, next
local rethrow, charge_bytes, charge_count, locate = checks.rethrow, checks.charge_bytes, checks.charge_count, checks.locate
-- Below this many bytes or values a call does too little work to be worth counting apart.
local LONG = 256

do
  local pcall, xpcall, stopped = pcall, xpcall, checks.stopped
  -- A library function reports a bad argument at its caller's line, which is a wrapper here:
  -- the message handler (`locate`) names the mod's line instead, while the stack is still there.
  _G.pcall = function(...)
    if select("#", ...) == 0 then return pcall() end
    return rethrow(xpcall((...), locate, select(2, ...)))
  end
  -- Lua runs a message handler where the error is raised, before unwinding; for the error the
  -- instruction hook raises, that is with hooks off, so once a limit is hit it is not run.
  _G.xpcall = function(f, handler, ...)
    if type(handler) ~= "function" then return xpcall(f, handler, ...) end
    return rethrow(xpcall(f, function(e) if stopped() then return e end return handler(locate(e, 1)) end, ...))
  end
end
do
  local resume, close, create, wrap, xpcall = coroutine.resume, coroutine.close, coroutine.create, coroutine.wrap, xpcall
  local started = checks.coroutine_started
  -- A coroutine's body runs under the same message handler as `pcall`, for the same reason.
  local function finish(ok, ...)
    if ok then return ... end
    error((...), 0)
  end
  local function body(f)
    if type(f) ~= "function" then return f end
    return function(...) return finish(xpcall(f, locate, ...)) end
  end
  coroutine.resume = function(...) return rethrow(resume(...)) end
  coroutine.close = function(...) return rethrow(close(...)) end
  coroutine.create = function(f, ...) started() return create(body(f), ...) end
  coroutine.wrap = function(f, ...) started() return wrap(body(f), ...) end
end
do
  -- Metatables. `__gc` and `__close` make Lua call the mod's code where the limits cannot stop
  -- it (finalizers, and closing a to-be-closed value after a stop, run with hooks off), and
  -- `__mode` shows when the collector ran; a metatable may never hold them. A table given as
  -- a metatable is sealed so that it cannot gain them later either: its own (real) metatable
  -- becomes a guard the mod never sees, whose `__newindex` refuses those keys, and `rawset`
  -- refuses them on a sealed table. A sealed table may still have a metatable of the mod's (a
  -- class inheriting from another): the guard then stands for it, forwarding each metamethod
  -- to what the mod's metatable holds at that moment, and `getmetatable` answers the mod's.
  local setmetatable, getmetatable = setmetatable, getmetatable
  local real_metatable, set_real_metatable, address = checks.real_metatable, checks.set_real_metatable, checks.address
  local LOGICAL = checks.logical_key -- a guard's field: the mod's metatable, or false for none
  local FORBIDDEN = { __gc = true, __mode = true, __close = true }
  local function refuse(what, key, level)
    error(what .. key .. " is not available to mods (finalizers and closing run where the limits cannot stop them; weak tables show when the garbage collector ran)", level + 1)
  end
  -- The metatable the mod gave `t`, when `t` is a table whose real metatable is a guard.
  local function guarded(t)
    local real = real_metatable(t)
    if real == nil then return nil, false end
    local logical = rawget(real, LOGICAL)
    if logical == nil then return real, false end
    return logical or nil, true
  end
  local function metafield(v, event)
    local mt
    if type(v) == "table" then mt = guarded(v) else mt = getmetatable(v) end
    if type(mt) == "table" then return rawget(mt, event) end
    return nil
  end
  local function binary(event, message)
    return function(a, b)
      local handler = metafield(a, event)
      if handler == nil then handler = metafield(b, event) end
      if handler == nil then error(message, 2) end
      return handler(a, b)
    end
  end
  local function compare(event)
    return function(a, b)
      local handler = metafield(a, event)
      if handler == nil then handler = metafield(b, event) end
      if handler ~= nil then return handler(a, b) end
      if event == "__eq" then return false end
      if type(a) == type(b) then error("attempt to compare two " .. type(a) .. " values", 2) end
      error("attempt to compare " .. type(a) .. " with " .. type(b), 2)
    end
  end
  local plain_guard = { [LOGICAL] = false }
  plain_guard.__newindex = function(t, key, value)
    if FORBIDDEN[key] then refuse("", key, 2) end
    rawset(t, key, value)
  end
  local forwarding_guard = {
    __newindex = function(t, key, value)
      if FORBIDDEN[key] then refuse("", key, 2) end
      local handler = metafield(t, "__newindex")
      if handler == nil then rawset(t, key, value)
      elseif type(handler) == "function" then handler(t, key, value)
      else handler[key] = value end
    end,
    __index = function(t, key)
      local handler = metafield(t, "__index")
      if handler == nil then return nil end
      if type(handler) == "function" then return handler(t, key) end
      return handler[key]
    end,
    __call = function(t, ...)
      local handler = metafield(t, "__call")
      if handler == nil then error("attempt to call a table value", 2) end
      return handler(t, ...)
    end,
    __tostring = function(t)
      local handler = metafield(t, "__tostring")
      if handler ~= nil then return handler(t) end
      local name = metafield(t, "__name")
      return (type(name) == "string" and name or "table") .. ": " .. address(t)
    end,
    __len = function(t)
      local handler = metafield(t, "__len")
      if handler == nil then return rawlen(t) end
      return handler(t)
    end,
    __pairs = function(t)
      local handler = metafield(t, "__pairs")
      if handler == nil then return next, t, nil end
      local iterator, state, first = handler(t)
      return iterator, state, first
    end,
    -- Lua passes the operand twice to the unary ones.
    __unm = binary("__unm", "attempt to perform arithmetic on a table value"),
    __bnot = binary("__bnot", "attempt to perform bitwise operation on a table value"),
    __concat = binary("__concat", "attempt to concatenate a table value"),
    __eq = compare("__eq"),
    __lt = compare("__lt"),
    __le = compare("__le"),
  }
  for _, event in next, { "__add", "__sub", "__mul", "__div", "__mod", "__pow", "__idiv" } do
    forwarding_guard[event] = binary(event, "attempt to perform arithmetic on a table value")
  end
  for _, event in next, { "__band", "__bor", "__bxor", "__shl", "__shr" } do
    forwarding_guard[event] = binary(event, "attempt to perform bitwise operation on a table value")
  end
  -- One guard per table that has a metatable of the mod's; the forwarders are shared.
  local function guard_for(logical)
    if logical == nil then return plain_guard end
    local guard = { [LOGICAL] = logical }
    for event, forwarder in next, forwarding_guard do guard[event] = forwarder end
    return guard
  end
  local function seal(mt)
    local real = real_metatable(mt)
    if real == nil then set_real_metatable(mt, plain_guard)
    elseif rawget(real, LOGICAL) == nil then set_real_metatable(mt, guard_for(real)) end
  end
  checks.seal = seal

  _G.setmetatable = function(...)
    local t, mt = ...
    if type(mt) == "table" then
      for key in next, FORBIDDEN do
        if rawget(mt, key) ~= nil then refuse("setmetatable: ", key, 2) end
      end
      seal(mt)
    end
    if type(t) == "table" and (type(mt) == "table" or mt == nil and select("#", ...) >= 2) then
      local logical, sealed = guarded(t)
      if sealed then
        if logical ~= nil and rawget(logical, "__metatable") ~= nil then
          error("cannot change a protected metatable", 2)
        end
        set_real_metatable(t, guard_for(mt))
        return t
      end
    end
    return setmetatable(...)
  end
  _G.getmetatable = function(...)
    local v = ...
    if type(v) == "table" then
      local logical, sealed = guarded(v)
      if sealed then
        if logical == nil then return nil end
        local protected = rawget(logical, "__metatable")
        if protected ~= nil then return protected end
        return logical
      end
    end
    return getmetatable(...)
  end
  _G.rawset = function(t, key, ...)
    if FORBIDDEN[key] and type(t) == "table" and select(2, guarded(t)) then refuse("rawset: ", key, 2) end
    return rawset(t, key, ...)
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
  -- The result can be far longer than the subject (`gsub(s, ".", long)`): it is counted too.
  string.gsub = function(...)
    check_gsub(...)
    local result, count = gsub(...)
    charge_bytes(result)
    return result, count
  end
  string.gmatch = function(...)
    local step = gmatch_steps(...)
    local next_match = gmatch(...)
    return function() step() return next_match() end
  end
end
do
  local rep, sub, format, upper, lower, reverse = string.rep, string.sub, string.format, string.upper, string.lower, string.reverse
  local byte, char = string.byte, string.char
  local check_rep, check_sub, check_byte = checks.rep, checks.sub, checks.byte
  string.rep = function(...) check_rep(...) return rep(...) end
  string.sub = function(...) check_sub(...) return sub(...) end
  -- `%s` copies what `__tostring` made, however long: the result is counted too.
  string.format = function(...)
    charge_bytes(...)
    local formatted = format(...)
    charge_bytes(formatted)
    return formatted
  end
  string.upper = function(...) charge_bytes(...) return upper(...) end
  string.lower = function(...) charge_bytes(...) return lower(...) end
  string.reverse = function(...) charge_bytes(...) return reverse(...) end
  -- These make one value per byte or per argument.
  string.byte = function(...)
    if select("#", ...) >= 3 then check_byte(...) end
    return byte(...)
  end
  string.char = function(...)
    local count = select("#", ...)
    if count > LONG then charge_count(count) end
    return char(...)
  end
  -- `pack` can make megabytes from a short format (`"c8000000"`): what it made is charged.
  local pack, unpack = string.pack, string.unpack
  string.pack = function(...) local packed = pack(...) charge_bytes(packed) return packed end
  string.unpack = function(...) charge_bytes(...) return unpack(...) end
  -- Arithmetic on strings converts them to numbers in the string metatable's metamethods,
  -- reading every digit of a long one.
  local strings = getmetatable("")
  for _, event in next, { "__add", "__sub", "__mul", "__div", "__mod", "__pow", "__unm", "__idiv" } do
    local original = rawget(strings, event)
    if original then
      rawset(strings, event, function(a, b) charge_bytes(a, b) return original(a, b) end)
    end
  end
  -- The string metatable is shared by every string and reachable by every mod: sealed like
  -- any metatable, so that no string becomes closable (a generic `for` closes its fourth value).
  checks.seal(strings)
end
do
  local len, offset, codepoint, char = utf8.len, utf8.offset, utf8.codepoint, utf8.char
  local check_byte = checks.byte
  utf8.len = function(...) charge_bytes(...) return len(...) end
  utf8.offset = function(...) charge_bytes(...) return offset(...) end
  utf8.codepoint = function(...)
    if select("#", ...) >= 3 then check_byte(...) end
    return codepoint(...)
  end
  utf8.char = function(...)
    local count = select("#", ...)
    if count > LONG then charge_count(count) end
    return char(...)
  end
end
do
  local tonumber = tonumber
  -- Reading a numeral reads all of it.
  _G.tonumber = function(...)
    local v = ...
    if type(v) == "string" and #v > LONG then charge_bytes(v) end
    return tonumber(...)
  end
  _G.select = function(...)
    local count = select("#", ...)
    if count > LONG then charge_count(count) end
    return select(...)
  end
end
do
  local insert, remove, move, sort, concat, unpack = table.insert, table.remove, table.move, table.sort, table.concat, table.unpack
  local check_move, charge_sort, check_range = checks.move, checks.sort, checks.range
  -- These move every element after the position, as many as `#t` says (a `__len` may say many).
  table.insert = function(t, ...) if type(t) == "table" then charge_count(#t) end return insert(t, ...) end
  table.remove = function(t, ...) if type(t) == "table" then charge_count(#t) end return remove(t, ...) end
  table.move = function(...) check_move(...) return move(...) end
  table.sort = function(t, ...) if type(t) == "table" then charge_sort(#t) end return sort(t, ...) end
  table.concat = function(t, sep, i, j)
    if type(t) == "table" then check_range(i, j == nil and #t or j, "table.concat") end
    local joined = concat(t, sep, i, j)
    charge_bytes(joined)
    return joined
  end
  table.unpack = function(t, i, j)
    if type(t) == "table" then check_range(i, j == nil and #t or j, "table.unpack", 4) end
    return unpack(t, i, j)
  end
end
"##;

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

/// How many bytes of a string of `len` bytes the positions `first..=last` cover, read as
/// `string.sub` reads them (negative positions count from the end, both are clipped).
fn span(len: usize, first: i64, last: i64) -> usize {
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
    end.saturating_sub(start)
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
        "range",
        // `table.concat` and `table.unpack` visit every position from `first` to `last`.
        // `weight`: instructions per position (reading a value through the table's metamethods
        // costs several).
        lua.create_function(move |lua, (first, last, what, weight): (LuaValue, LuaValue, String, Option<u64>)| {
            let (Some(first), Some(last)) = (as_integer(lua, first, 1)?, as_integer(lua, last, 0)?) else {
                return Ok(());
            };
            let count = (i128::from(last) - i128::from(first) + 1).clamp(0, i128::from(u64::MAX)) as u64;
            b.spend(lua, count.saturating_mul(weight.unwrap_or(1)), &what)
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
            b.spend(lua, bytes_as_instructions(span(text.as_bytes().len(), first, last)), "string.sub")
        })?,
    )?;

    let b = budget.clone();
    checks.raw_set(
        "byte",
        // `string.byte` and `utf8.codepoint` make a value per byte of their range.
        lua.create_function(move |lua, (text, first, last): (LuaValue, LuaValue, LuaValue)| {
            let Some(text) = as_text(lua, text)? else { return Ok(()) };
            let Some(first) = as_integer(lua, first, 1)? else { return Ok(()) };
            let Some(last) = as_integer(lua, last, first)? else { return Ok(()) };
            b.spend(lua, span(text.as_bytes().len(), first, last) as u64, "a string function")
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

    // Metatables as Lua stores them, below what `getmetatable` shows (the sealing guards).
    let logical_key = lua.create_table()?;
    checks.raw_set("logical_key", logical_key.clone())?;
    checks.raw_set(
        "real_metatable",
        lua.create_function(|_, value: LuaValue| match value {
            LuaValue::Table(table) => Ok(table.metatable()),
            _ => Ok(None),
        })?,
    )?;
    checks.raw_set(
        "set_real_metatable",
        lua.create_function(|_, (table, metatable): (Table, Option<Table>)| table.set_metatable(metatable))?,
    )?;
    checks.raw_set("address", lua.create_function(|_, table: Table| Ok(format!("{:p}", table.to_pointer())))?)?;
    let b = budget.clone();
    checks.raw_set(
        "locate",
        // The message handler of protected calls: a message located in the sandbox's own chunk
        // (a library function's bad argument, reported at its caller) names the mod's line.
        // `handlers` counts the sandbox's Lua frames between the handler and the error (the
        // wrapper of `xpcall` calls it from the mod's handler).
        //
        // Every error a protected call catches passes here, and is counted: raising and
        // catching one costs hundreds of instructions' time, and a loop that only raises
        // errors (`while true do pcall(again) end` at Lua's C-stack limit) would otherwise run
        // for seconds within the instruction limit. Counted, not checked here: the count hook
        // stops the call within the next 100 instructions.
        lua.create_function(move |lua, (error, handlers): (LuaValue, Option<usize>)| {
            b.count(CAUGHT_ERROR_INSTRUCTIONS);
            let LuaValue::String(text) = &error else { return Ok(error) };
            let bytes = text.as_bytes();
            let Some(message) = sandbox_located(&bytes) else { return Ok(error) };
            let located = match wrapper_caller_location(lua, handlers.unwrap_or(0)) {
                Some(location) => format!("{location}: {}", String::from_utf8_lossy(message)),
                None => String::from_utf8_lossy(message).into_owned(),
            };
            Ok(LuaValue::String(lua.create_string(located)?))
        })?,
    )?;

    let b = budget.clone();
    checks.raw_set(
        "ordered_pairs",
        lua.create_function(move |lua, value: LuaValue| {
            let LuaValue::Table(table) = value else { return Ok(LuaValue::Nil) };
            // A table with its own `__pairs` (in the metatable the mod gave it) iterates as it
            // says, through Lua's `pairs`.
            let metatable = table.metatable().and_then(|real| match real.raw_get::<LuaValue>(&logical_key) {
                Ok(LuaValue::Table(logical)) => Some(logical),
                Ok(LuaValue::Boolean(false)) => None,
                _ => Some(real),
            });
            if metatable.is_some_and(|mt| mt.raw_get::<LuaValue>("__pairs").is_ok_and(|v| !v.is_nil())) {
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

/// The message of `[sandbox]:12: message`, an error located in the sandbox's own chunk.
fn sandbox_located(text: &[u8]) -> Option<&[u8]> {
    let rest = text.strip_prefix(SANDBOX_CHUNK.as_bytes())?.strip_prefix(b":")?;
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    let message = rest[digits..].strip_prefix(b": ")?;
    (digits > 0).then_some(message)
}

fn memory_message() -> String {
    format!("the script used more than {} MiB of memory", MEMORY_LIMIT / (1024 * 1024))
}

/// The first line of a Lua error, which names `script:line` (tracebacks are dropped).
pub fn error_text(error: &mlua::Error) -> String {
    describe_error(error, false)
}

/// The whole message of a Lua error, every line of it, without the traceback: what `meeple test`
/// shows of a failed test, whose message may span lines.
pub fn error_message(error: &mlua::Error) -> String {
    describe_error(error, true)
}

fn describe_error(error: &mlua::Error, whole: bool) -> String {
    let text = match error {
        mlua::Error::CallbackError { cause, traceback } => {
            // An error the engine's API raises (a bad argument to `meeple.on` or `game.…`) has
            // no position of its own: name the mod's line that made the call.
            let message = describe_error(cause, whole);
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
    // The message, and the lines where a traceback's locations are looked for.
    let (first, trace): (&str, Vec<&str>) = if whole {
        let (message, traceback) = text.split_once("\nstack traceback:").unwrap_or((&text, ""));
        (message.trim(), traceback.lines().collect())
    } else {
        (text.lines().next().unwrap_or_default().trim(), text.lines().skip(1).collect())
    };
    if first == LUA_MEMORY_MESSAGE {
        return memory_message();
    }
    // `error({})` and `error()`: Lua shows the value as an address, or as `nil`, with no
    // position (it locates only messages); say what was raised, where.
    if let Some(what) = raised_value(first) {
        let message = format!(
            "the script raised {what} as an error, not a message (error(…) takes a text saying what went wrong)"
        );
        return match trace.iter().find_map(|line| traceback_location(line)) {
            Some(location) => format!("{location}: {message}"),
            None => message,
        };
    }
    // A library function the sandbox wraps reports bad arguments at the wrapper's line; name
    // the mod's line instead, the first frame of the traceback outside the sandbox.
    if let Some(rest) = first.strip_prefix(SANDBOX_CHUNK).and_then(|r| r.strip_prefix(':'))
        && let Some((_, message)) = rest.split_once(':')
        && let Some(location) = trace.iter().find_map(|line| traceback_location(line))
    {
        return format!("{location}:{}", cut(message));
    }
    cut(first)
}

/// Most characters of a message a script raised that are shown: a script may raise a message
/// of megabytes, and every place that shows an error would copy all of it.
const MAX_MESSAGE_CHARS: usize = 2_000;

fn cut(message: &str) -> String {
    match message.char_indices().nth(MAX_MESSAGE_CHARS) {
        Some((end, _)) => format!("{}… ({} bytes)", &message[..end], message.len()),
        None => message.to_string(),
    }
}

/// What an error value other than a message was, from how Lua's `tostring` shows it (`nil`,
/// `table: 0x55d0c…`, or a `__name` instead of `table`).
fn raised_value(shown: &str) -> Option<String> {
    if shown == "nil" {
        return Some("nothing (nil)".into());
    }
    let (kind, address) = shown.split_once(": 0x")?;
    let is_address = !address.is_empty() && address.bytes().all(|b| b.is_ascii_hexdigit());
    let is_name = !kind.is_empty() && !kind.contains(char::is_whitespace);
    if !is_address || !is_name {
        return None;
    }
    Some(match kind {
        "table" => "a table".into(),
        "function" | "builtin" => "a function".into(),
        "thread" => "a coroutine".into(),
        "userdata" => "a userdata".into(),
        name => format!("a table (`{}`)", crate::diag::shown(name)),
    })
}

/// `file:line` of a traceback line of the mod's code (`\tfile.lua:12: in function ...`).
fn traceback_location(line: &str) -> Option<&str> {
    let (location, _) = line.trim().split_once(": ")?;
    let (source, number) = location.rsplit_once(':')?;
    let mod_code = source != SANDBOX_CHUNK && source != "[C]" && number.bytes().all(|b| b.is_ascii_digit());
    mod_code.then_some(location)
}

/// The line of the first to-be-closed variable (`local x <close> = …`) in a chunk's text, if
/// any, however it is spaced or commented (`lexer.rs` reads the text as Lua does).
pub fn close_attribute_line(text: &str) -> Option<usize> {
    lexer::close_attribute_line(text)
}

/// Compiles a mod's text (a hook file, a scenario test file, the console's input) as text only
/// (Lua does not check bytecode, and crafted bytecode can break out of the VM), refusing
/// to-be-closed variables with an error located like Lua's own (`chunk:line: …`).
///
/// Mods may not declare them: Lua calls their `__close` while an error unwinds, and after the
/// instruction hook stopped a coroutine that call runs with hooks off, so a loop there could
/// never be stopped. The text is searched first, to name the line; then the compiled code of
/// the chunk and every function in it is searched for the instruction that marks such a
/// variable (`bytecode.rs`), which no spelling of the text can avoid. `chunk_name` is Lua's
/// (`@hooks/main.lua`, `=console`).
/// What a hook that assigns a global after loading is told.
pub const GLOBALS_FROZEN: &str = "hooks keep nothing in Lua globals between calls: what a call leaves there \
     would be lost from saves and replays, and would change what later calls (previews, computer players) see. Keep \
     data in the game with game.put/game.get, or in a `local` of the function";

/// Freezes the globals once the hook files are loaded: what they defined stays readable, and
/// assigning a global (new or old) is an error naming [`GLOBALS_FROZEN`]. A hook's result then
/// cannot depend on how often hooks ran before — which previews, computer players and the odds
/// run them any number of times, and a replay does not. (A file's own `local`s kept between
/// calls are not caught; the docs ask hooks not to.)
pub(crate) fn freeze_globals(lua: &Lua) -> mlua::Result<()> {
    let freeze = lua
        .load(
            r#"
local message = ...
local next, rawset, setmetatable, error, tostring = next, rawset, setmetatable, error, tostring
local G, frozen = _G, {}
for key, value in next, G do frozen[key] = value end
for key in next, frozen do rawset(G, key, nil) end
local raw_set = frozen.rawset
frozen.rawset = function(t, ...)
  if t == G then error(message, 2) end
  return raw_set(t, ...)
end
setmetatable(G, {
  __index = frozen,
  __newindex = function(_, key) error(message .. " (the global `" .. tostring(key) .. "`)", 2) end,
  __metatable = false,
})
return frozen
"#,
        )
        .set_name("=freeze")
        .into_function()?;
    let frozen: mlua::Table = freeze.call(GLOBALS_FROZEN)?;
    lua.set_named_registry_value("meeple_frozen_globals", frozen)
}

/// The globals the hook files defined, after [`freeze_globals`].
pub(crate) fn frozen_globals(lua: &Lua) -> Option<mlua::Table> {
    lua.named_registry_value("meeple_frozen_globals").ok()
}

pub fn compile(lua: &Lua, text: &str, chunk_name: &str) -> mlua::Result<Function> {
    let shown = chunk_name.strip_prefix(['@', '=']).unwrap_or(chunk_name);
    let refusal = |line: Option<usize>| mlua::Error::SyntaxError {
        message: format!(
            "{shown}:{}: to-be-closed variables (`<close>`) are not available to mods (their `__close` would run \
             where the limits cannot stop it)",
            line.map_or_else(|| "?".to_string(), |l| l.to_string())
        ),
        incomplete_input: false,
    };
    if let Some(line) = close_attribute_line(text) {
        return Err(refusal(Some(line)));
    }
    let function = lua.load(text).set_name(chunk_name).set_mode(ChunkMode::Text).into_function()?;
    match bytecode::to_be_closed_line(&function.dump(false)) {
        Scan::Clean => Ok(function),
        Scan::Found(line) => Err(refusal(line)),
        // Another Lua than the one vendored: refused rather than trusted.
        Scan::Unreadable => Err(mlua::Error::runtime(format!("{shown}: the compiled code could not be checked"))),
    }
}
