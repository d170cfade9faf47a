//! Lua hooks: a mod's `hooks/*.lua` loaded once into a sandboxed state per engine, called at
//! named events (`meeple.on("turn_end", fn)`) and from rules (`hook("name", ...)`).
//!
//! Architecture invariant: hooks see the game only through the `game` API table, which reads
//! and changes the one game state being played; their own persistent data is plain data stored
//! in that state (`game.get`/`game.put`), so saves never hold Lua values.
//!
//! Calls are cheap: the Lua state, the API functions and the hook function handles are created
//! once; for each call the game state is swapped into the Lua state's app data (two moves, no
//! allocation) and swapped back afterwards.

mod api;
pub mod api_doc;
mod bytecode;
mod lexer;
mod patterns;
pub mod sandbox;

pub(crate) use api::show_value;

use std::sync::Arc;

use mlua::{Function, Lua, Value as LuaValue};

use crate::defs::EventKind;
use crate::game::state::GameState;
use crate::game::{Events, RuleError};
use crate::rules::ir::Value;
use crate::rules::{HookSource, Ruleset};

/// What the `game` API works on during a call.
pub(crate) struct HookCell {
    pub state: GameState,
    pub events: Events,
    pub writable: bool,
    pub active: bool,
    pub rules: Arc<Ruleset>,
    /// How a read-only hook draws while the engine works out odds; `None`: it cannot draw.
    pub draws: Option<Draws>,
    /// Whether the hook read anything of the game since the flag was last cleared: a hook that
    /// reads nothing but its arguments and its draws gives the same odds in every state.
    pub read_game: bool,
}

/// How `game.roll` and `game.random` draw in a read-only hook while the engine works out the
/// odds of a figure (see `game::odds`). Elsewhere a read-only hook cannot draw at all.
pub(crate) enum Draws {
    /// Every outcome in turn: draw `i` of this run takes outcome `forced[i]` (counted from 0);
    /// a draw beyond those met before takes outcome 0, and `sizes` records how many outcomes
    /// each draw had, so the caller can move on to the next combination.
    Forced { forced: Vec<u32>, sizes: Vec<u32>, next: usize },
    /// Samples, from a stream of the odds' own (never the game's). `paths` multiplies the
    /// numbers of outcomes of the draws made: over random runs, its mean is the number of
    /// combinations an enumeration would run (Knuth's estimate of a tree's size).
    Sampled { rng: Box<crate::rng::GameRng>, paths: f64 },
}

impl Draws {
    /// One draw among `outcomes` equally likely outcomes, as an index from 0.
    pub(crate) fn draw(&mut self, outcomes: u32) -> Result<u32, String> {
        match self {
            Draws::Sampled { rng, paths } => {
                *paths *= f64::from(outcomes);
                Ok(rng.below(outcomes))
            }
            Draws::Forced { forced, sizes, next } => {
                let i = *next;
                *next += 1;
                match sizes.get(i) {
                    Some(&size) if size == outcomes => Ok(forced[i]),
                    Some(&size) => Err(format!(
                        "drew from {outcomes} outcomes where the same dice before gave {size}: to work out its odds, \
                         a hook must draw the same way whenever its arguments, the game and the dice it drew so far \
                         are the same"
                    )),
                    None => {
                        sizes.push(outcomes);
                        forced.push(0);
                        Ok(0)
                    }
                }
            }
        }
    }
}

/// A problem loading a hook file: the file, the line when known, and the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HookLoadError {
    pub file: String,
    pub line: u32,
    pub message: String,
}

/// One mod's Lua state with its hooks loaded.
pub struct HookRuntime {
    lua: Lua,
    budget: sandbox::Budget,
    /// Functions called by `hook("name")`, by the ruleset's hook index.
    functions: Vec<Option<Function>>,
    /// Handlers registered with `meeple.on`, by event.
    handlers: Vec<(EventKind, Function)>,
    /// Instructions every call into this state has run, in all (as counted).
    instructions_done: u64,
    /// Instructions the hook calls of the current piece of work may still run together
    /// ([`sandbox::WORK_INSTRUCTION_LIMIT`]); [`HookRuntime::begin_work`] refills it.
    work_left: u64,
    /// While the odds of a hook's draws are worked out: the instructions those runs may still
    /// take. They count apart from the piece of work and from `instructions_done`, since the
    /// odds remember their results: what runs then depends on what was worked out before, and
    /// nothing that decides a game may.
    odds_left: Option<u64>,
}

impl HookRuntime {
    /// Loads every hook file of the ruleset. Fails with the first file's error; use
    /// [`HookRuntime::load_all`] to collect every problem.
    pub fn new(rules: Arc<Ruleset>) -> Result<Self, RuleError> {
        Self::load_all(rules).map_err(|errors| {
            let first = &errors[0];
            RuleError::new(format!("{}:{}: {}", first.file, first.line, first.message))
        })
    }

    /// Loads every hook file, reporting every file that fails and every `hook("name")` that
    /// names no Lua function.
    pub fn load_all(rules: Arc<Ruleset>) -> Result<Self, Vec<HookLoadError>> {
        let setup_error =
            |e: mlua::Error| vec![HookLoadError { file: "<lua>".into(), line: 0, message: sandbox::error_text(&e) }];
        let (lua, budget) = sandbox::new_state().map_err(setup_error)?;
        let registry = lua.create_table().map_err(setup_error)?;
        api::install(&lua, &registry).map_err(setup_error)?;
        lua.set_app_data(HookCell {
            state: GameState::placeholder(),
            events: Events::discard(),
            writable: false,
            active: false,
            rules: rules.clone(),
            draws: None,
            read_game: false,
        });
        let mut errors = Vec::new();
        // Loading every hook file is one piece of work: the files share one budget, so a mod of
        // a thousand files that each loop at load is stopped as one that loops in one file.
        let mut work_left = sandbox::WORK_INSTRUCTION_LIMIT;
        for source in &rules.hooks {
            budget.start_within(work_left);
            let chunk_name = format!("@{}", source.chunk_name);
            let loaded = sandbox::compile(&lua, &source.text, &chunk_name).and_then(|chunk| chunk.call::<()>(()));
            work_left = work_left.saturating_sub(budget.used().max(u64::from(sandbox::CHECK_EVERY)));
            if let Err(e) = loaded {
                let text = sandbox::error_text(&e);
                errors.push(locate(&source.chunk_name, &source.display_path, &text));
            }
        }
        let globals = lua.globals();
        let mut functions = Vec::with_capacity(rules.hook_names.len());
        for name in &rules.hook_names {
            match globals.raw_get::<LuaValue>(name.as_str()) {
                Ok(LuaValue::Function(f)) => functions.push(Some(f)),
                _ => functions.push(None),
            }
        }
        budget.start_within(sandbox::WORK_INSTRUCTION_LIMIT);
        if let Err(e) = sandbox::freeze_globals(&lua) {
            errors.push(HookLoadError { file: "<lua>".into(), line: 0, message: sandbox::error_text(&e) });
        }
        let mut handlers = Vec::new();
        if let Ok(list) = registry.raw_get::<mlua::Table>("handlers") {
            for pair in list.sequence_values::<mlua::Table>() {
                let Ok(pair) = pair else { continue };
                let (Ok(event), Ok(function)) = (pair.raw_get::<String>(1), pair.raw_get::<Function>(2)) else {
                    continue;
                };
                if let Some(kind) = EventKind::ALL.iter().find(|k| k.name() == event) {
                    handlers.push((*kind, function));
                }
            }
        }
        if errors.is_empty() {
            Ok(Self {
                lua,
                budget,
                functions,
                handlers,
                instructions_done: 0,
                work_left: sandbox::WORK_INSTRUCTION_LIMIT,
                odds_left: None,
            })
        } else {
            Err(errors)
        }
    }

    /// The syntax errors of hook files, found by compiling them without running them: what can
    /// still be checked when the rest of the mod is too broken to load the hooks for real.
    pub fn syntax_errors(hooks: &[HookSource]) -> Vec<HookLoadError> {
        let Ok((lua, _budget)) = sandbox::new_state() else { return Vec::new() };
        hooks
            .iter()
            .filter_map(|source| {
                let error = sandbox::compile(&lua, &source.text, &format!("@{}", source.chunk_name)).err()?;
                Some(locate(&source.chunk_name, &source.display_path, &sandbox::error_text(&error)))
            })
            .collect()
    }

    /// Names referenced by `hook("name")` that no hook file defines as a global function.
    pub fn missing_functions<'a>(&self, rules: &'a Ruleset) -> Vec<&'a str> {
        rules
            .hook_names
            .iter()
            .zip(&self.functions)
            .filter(|(_, f)| f.is_none())
            .map(|(name, _)| name.as_str())
            .collect()
    }

    /// The hooks' globals: Lua's own, the API tables and what the hook files defined (kept
    /// apart once the files are loaded, when the globals are frozen).
    pub fn globals(&self) -> mlua::Table {
        sandbox::frozen_globals(&self.lua).unwrap_or_else(|| self.lua.globals())
    }

    /// Global functions the hook files define, for "did you mean".
    pub fn defined_functions(&self) -> Vec<String> {
        let mut names = Vec::new();
        for pair in self.globals().pairs::<String, LuaValue>() {
            if let Ok((name, LuaValue::Function(_))) = pair
                && !BUILTIN_GLOBALS.contains(&name.as_str())
            {
                names.push(name);
            }
        }
        names.sort();
        names
    }

    /// Whether any handler is registered with `meeple.on`.
    pub fn has_event_hooks(&self) -> bool {
        !self.handlers.is_empty()
    }

    /// Clears what belongs to one game (nothing today: hook data lives in the game state).
    pub fn reset_game(&mut self) {}

    /// Starts a piece of work whose hook calls share [`sandbox::WORK_INSTRUCTION_LIMIT`]: the
    /// engine calls it as an action, a game's start or a read-only judging begins, so what a
    /// call may run depends only on that work, never on what ran before it.
    /// Instructions every call into this state has run, in all: what a computer player that
    /// budgets its look-ahead counts of the hooks.
    pub(crate) fn instructions_done(&self) -> u64 {
        self.instructions_done
    }

    pub(crate) fn begin_work(&mut self) {
        self.work_left = sandbox::WORK_INSTRUCTION_LIMIT;
    }

    /// The underlying Lua state, for the `meeple lua` console.
    pub fn lua(&self) -> &Lua {
        &self.lua
    }

    /// Calls a `hook("name", ...)` function with the game state.
    /// Calls the function of hook index `index` (named `name`, for messages).
    pub(crate) fn call_function(
        &mut self,
        index: u16,
        name: &str,
        args: &[Value],
        state: &mut GameState,
        events: &mut Events,
        writable: bool,
    ) -> Result<Value, RuleError> {
        let Some(function) = self.functions.get(index as usize).cloned().flatten() else {
            return Err(RuleError::new(format!("no Lua function `{name}` is defined in the mod's hooks")));
        };
        // Small argument lists go as tuples, which need no allocation.
        let a = |i: usize| args.get(i).copied().map_or(LuaValue::Nil, to_lua);
        let result = self.with_state(state, events, writable, |_lua| match args.len() {
            0 => function.call::<LuaValue>(()),
            1 => function.call::<LuaValue>(a(0)),
            2 => function.call::<LuaValue>((a(0), a(1))),
            3 => function.call::<LuaValue>((a(0), a(1), a(2))),
            _ => function.call::<LuaValue>(mlua::Variadic::from_iter(args.iter().map(|v| to_lua(*v)))),
        });
        let value = result.map_err(|e| self.rule_error(format!("hook `{name}`: {}", sandbox::error_text(&e))))?;
        match value {
            LuaValue::Integer(n) => Ok(Value::Int(n)),
            LuaValue::Number(x) if x.fract() == 0.0 && x.is_finite() => Ok(Value::Int(x as i64)),
            LuaValue::Boolean(b) => Ok(Value::Int(i64::from(b))),
            LuaValue::Nil => Ok(Value::Int(0)),
            other => {
                // Name where the function is written, as Lua's own errors do.
                let info = function.info();
                let defined = match (info.short_src, info.line_defined) {
                    (Some(source), Some(line)) => format!(" (defined at {source}:{line})"),
                    _ => String::new(),
                };
                Err(RuleError::new(format!(
                    "hook `{name}`{defined} returned {}; it must return a whole number, true/false or nothing",
                    describe_lua(&other)
                )))
            }
        }
    }

    /// Calls hook `index` read-only with its draws made by `draws` (see [`Draws`]): one run of
    /// the odds' enumeration or sampling. Returns the result, the draws as the run left them, and
    /// whether the hook read anything of the game.
    pub(crate) fn call_drawing(
        &mut self,
        index: u16,
        name: &str,
        args: &[Value],
        state: &mut GameState,
        draws: Draws,
    ) -> (Result<Value, RuleError>, Draws, bool) {
        if let Some(mut cell) = self.lua.app_data_mut::<HookCell>() {
            cell.draws = Some(draws);
            cell.read_game = false;
        }
        let result = self.call_function(index, name, args, state, &mut Events::discard(), false);
        let (draws, read_game) = match self.lua.app_data_mut::<HookCell>() {
            Some(mut cell) => (cell.draws.take(), cell.read_game),
            None => (None, true),
        };
        let draws = draws.unwrap_or(Draws::Forced { forced: Vec::new(), sizes: Vec::new(), next: 0 });
        (result, draws, read_game)
    }

    /// Starts working out the odds of a hook's draws: the runs until [`HookRuntime::end_odds`]
    /// share `limit` instructions of their own.
    pub(crate) fn begin_odds(&mut self, limit: u64) {
        self.odds_left = Some(limit);
    }

    /// Ends working out odds; whether the runs stayed within their limit.
    pub(crate) fn end_odds(&mut self) -> bool {
        self.odds_left.take().is_some_and(|left| left > 0)
    }

    /// Calls every handler registered for an event, in registration order, with the seat
    /// (1-based) the event concerns.
    pub(crate) fn dispatch(
        &mut self,
        event: EventKind,
        seat: u8,
        state: &mut GameState,
        events: &mut Events,
    ) -> Result<(), RuleError> {
        if !self.handlers.iter().any(|(e, _)| *e == event) {
            return Ok(());
        }
        let handlers: Vec<Function> =
            self.handlers.iter().filter(|(e, _)| *e == event).map(|(_, f)| f.clone()).collect();
        for handler in handlers {
            let result = self.with_state(state, events, true, |_lua| handler.call::<()>(i64::from(seat) + 1));
            result.map_err(|e| self.rule_error(format!("{} hook: {}", event.name(), sandbox::error_text(&e))))?;
            if state.outcome.is_some() {
                break;
            }
        }
        Ok(())
    }

    /// The error of the call that just failed: of its own kind when the watchdog stopped it (see
    /// [`RuleError::out_of_time`]), since that stop depends on the machine, not on the game.
    fn rule_error(&self, message: String) -> RuleError {
        if self.budget.out_of_time() { RuleError::out_of_time(message) } else { RuleError::new(message) }
    }

    /// Evaluates a chunk of Lua in the sandbox with a game state readable and writable (the
    /// `meeple lua` console). Returns the values, printed.
    pub fn eval(&mut self, code: &str, state: &mut GameState, events: &mut Events) -> Result<String, String> {
        self.begin_work();
        let lua = self.lua.clone();
        // An expression shows its value; anything else runs as a statement.
        let function = sandbox::compile(&lua, &format!("return {code}"), "=console")
            .or_else(|_| sandbox::compile(&lua, code, "=console"))
            .map_err(|e| sandbox::error_text(&e))?;
        // The console keeps its own names: it reads the hooks' globals, but what it assigns
        // stays in its own table, never among the hooks' (which are frozen).
        function.set_environment(self.console_env()?).map_err(|e| sandbox::error_text(&e))?;
        let values = self
            .with_state(state, events, true, |_lua| function.call::<mlua::MultiValue>(()))
            .map_err(|e| sandbox::error_text(&e))?;
        Ok(values.iter().map(api::show_value).collect::<Vec<_>>().join("\t"))
    }

    /// The console's own globals, made at its first use: a table that reads through to the
    /// hooks' globals.
    fn console_env(&self) -> Result<mlua::Table, String> {
        const KEY: &str = "meeple_console_env";
        if let Ok(env) = self.lua.named_registry_value::<mlua::Table>(KEY) {
            return Ok(env);
        }
        let made = (|| {
            let env = self.lua.create_table()?;
            let meta = self.lua.create_table()?;
            meta.raw_set("__index", self.lua.globals())?;
            env.set_metatable(Some(meta))?;
            self.lua.set_named_registry_value(KEY, &env)?;
            Ok::<_, mlua::Error>(env)
        })();
        made.map_err(|e| sandbox::error_text(&e))
    }

    fn with_state<R>(
        &mut self,
        state: &mut GameState,
        events: &mut Events,
        writable: bool,
        call: impl FnOnce(&Lua) -> mlua::Result<R>,
    ) -> mlua::Result<R> {
        {
            let mut cell =
                self.lua.app_data_mut::<HookCell>().ok_or_else(|| mlua::Error::runtime("hook state missing"))?;
            std::mem::swap(&mut cell.state, state);
            std::mem::swap(&mut cell.events, events);
            cell.writable = writable;
            cell.active = true;
        }
        self.budget.start_within(self.odds_left.unwrap_or(self.work_left));
        let result = call(&self.lua);
        let used = self.budget.used().max(u64::from(sandbox::CHECK_EVERY));
        match self.odds_left.as_mut() {
            Some(left) => *left = left.saturating_sub(used),
            None => {
                self.work_left = self.work_left.saturating_sub(used);
                self.instructions_done = self.instructions_done.saturating_add(used);
            }
        }
        if let Some(mut cell) = self.lua.app_data_mut::<HookCell>() {
            std::mem::swap(&mut cell.state, state);
            std::mem::swap(&mut cell.events, events);
            cell.active = false;
        }
        result
    }
}

/// Lua's own globals, left out of "did you mean" suggestions for hook names.
const BUILTIN_GLOBALS: &[&str] = &[
    "assert",
    "error",
    "getmetatable",
    "ipairs",
    "next",
    "pairs",
    "pcall",
    "rawequal",
    "rawget",
    "rawlen",
    "rawset",
    "select",
    "setmetatable",
    "tonumber",
    "tostring",
    "type",
    "xpcall",
    "warn",
    "collectgarbage",
];

/// Lua's view of an engine value: seats, spaces and pieces as 1-based numbers.
pub(crate) fn to_lua(value: Value) -> LuaValue {
    match value {
        Value::Nil => LuaValue::Nil,
        Value::Bool(b) => LuaValue::Boolean(b),
        Value::Int(n) => LuaValue::Integer(n),
        Value::Num(x) => LuaValue::Number(x),
        Value::Seat(s) => LuaValue::Integer(i64::from(s) + 1),
        Value::Space(s) | Value::Piece(s) => LuaValue::Integer(i64::from(s) + 1),
        Value::Id(i) => LuaValue::Integer(i64::from(i) + 1),
        // A held item as its action argument (`piece * 256 + position`, both from 0).
        Value::Held(..) => LuaValue::Integer(value.as_int()),
    }
}

pub(crate) fn describe_lua(value: &LuaValue) -> String {
    match value {
        LuaValue::Nil => "nil".into(),
        LuaValue::Boolean(_) => "a boolean".into(),
        LuaValue::Integer(_) | LuaValue::Number(_) => "a number".into(),
        LuaValue::String(_) => "a string".into(),
        LuaValue::Table(_) => "a table".into(),
        LuaValue::Function(_) => "a function".into(),
        LuaValue::Thread(_) => "a coroutine".into(),
        other => format!("a {}", other.type_name()),
    }
}

/// Splits `path:line: message` into its parts.
fn locate(chunk_name: &str, display_path: &str, text: &str) -> HookLoadError {
    let rest = text.strip_prefix(chunk_name).and_then(|r| r.strip_prefix(':'));
    if let Some(rest) = rest
        && let Some((line, message)) = rest.split_once(':')
        && let Ok(line) = line.trim().parse::<u32>()
    {
        return HookLoadError { file: display_path.to_string(), line, message: message.trim().to_string() };
    }
    HookLoadError { file: display_path.to_string(), line: 0, message: text.to_string() }
}
