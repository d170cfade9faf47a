//! Scenario tests written in Lua (`mods/<id>/tests/*.lua`), run by `meeple test`.
//!
//! A test file registers tests with `test(name, function() ... end)`. Inside, `scenario.new{}`
//! starts a game (seed, seats, optionally a small fixed board), the test arranges the state
//! (`g:set_owner`, `g:set_counter`, `g:place`, `g:force_dice`), applies actions (`g:act{...}`) and checks
//! state and events (`expect_eq`, `g:events()`). Each test file runs in its own sandbox.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use mlua::chunk::ChunkMode;
use mlua::{Lua, LuaSerdeExt, MultiValue, Table, UserData, UserDataMethods, Value as LuaValue};

use crate::board::BoardSpec;
use crate::diag::{did_you_mean, shown};
use crate::game::record::{from_record, to_record};
use crate::game::render::{event_json, outcome_json, state_json};
use crate::game::state::{NO_SEAT, SeatStatus};
use crate::game::{Action, ActionRecord, Engine, Events, GameSetup, GameState, SeatSetup};
use crate::lua::{sandbox, show_value};
use crate::rules::Ruleset;

/// How long one test may run before it is stopped.
const TEST_TIME_LIMIT: Duration = Duration::from_secs(60);

/// The outcome of one test.
#[derive(Clone, Debug)]
pub struct TestResult {
    pub file: String,
    pub name: String,
    /// `None` when it passed; otherwise the failure, starting with `file:line:`.
    pub failure: Option<String>,
}

/// Runs every test file of a mod; `filter` keeps tests whose name contains it. `helpers` are
/// loaded before each test file (in order), into the same sandbox; they share code through
/// the global table `helpers`.
pub fn run_mod_tests(
    rules: &Arc<Ruleset>,
    test_files: &[std::path::PathBuf],
    helpers: &[std::path::PathBuf],
    filter: Option<&str>,
) -> Vec<TestResult> {
    run_mod_tests_within(rules, test_files, helpers, filter, TEST_TIME_LIMIT)
}

/// [`run_mod_tests`] with another time limit per test (and per file's loading); the
/// instruction limit scales with it.
/// A test file's text, read under the rules of every mod file (an ordinary file, not too big).
fn read_text(path: &std::path::Path) -> Result<String, String> {
    let bytes = crate::loader::read(path).map_err(|d| d.message)?;
    String::from_utf8(bytes).map_err(|_| "the file is not valid UTF-8 text; save it as UTF-8".to_string())
}

pub fn run_mod_tests_within(
    rules: &Arc<Ruleset>,
    test_files: &[std::path::PathBuf],
    helpers: &[std::path::PathBuf],
    filter: Option<&str>,
    time_limit: Duration,
) -> Vec<TestResult> {
    let mut helper_sources = Vec::new();
    for path in helpers {
        let shown = path.to_string_lossy().replace('\\', "/");
        match read_text(path) {
            Ok(text) => helper_sources.push((shown, text)),
            Err(e) => {
                let failure = Some(format!("{shown}: cannot read: {e}"));
                return vec![TestResult { file: shown, name: "(loading the helpers)".into(), failure }];
            }
        }
    }
    let mut results = Vec::new();
    for path in test_files {
        results.extend(run_file(rules, path, &helper_sources, filter, time_limit));
    }
    results
}

/// Lua helpers every test file gets.
const PRELUDE: &str = r#"
helpers = {}
local tests = {}
function test(name, body)
  if type(name) ~= "string" or type(body) ~= "function" then
    error("test(name, function() ... end) expects a name and a function", 2)
  end
  tests[#tests + 1] = { name = name, body = body }
end
function __tests() return tests end
-- A value as a failed expectation shows it: a long string cut, a table to a few levels and a
-- few dozen values, and a table met again inside itself as <cycle>.
local function show(v, depth, budget, path)
  if type(v) == "string" then
    if #v > 60 then return string.format("%q", v:sub(1, 60)) .. "… (" .. #v .. " bytes)" end
    return string.format("%q", v)
  end
  if type(v) ~= "table" then return tostring(v) end
  depth, budget, path = depth or 0, budget or { 100 }, path or {}
  if path[v] then return "<cycle>" end
  if depth >= 8 then return "{…}" end
  path[v] = true
  local parts = {}
  local function add(text)
    if #parts >= 20 or budget[1] <= 0 then
      parts[#parts + 1] = "…"
      return false
    end
    budget[1] = budget[1] - 1
    parts[#parts + 1] = text()
    return true
  end
  for _, x in ipairs(v) do
    if not add(function() return show(x, depth + 1, budget, path) end) then break end
  end
  if #parts == 0 and next(v) ~= nil then
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = { text = tostring(k), key = k } end
    table.sort(keys, function(x, y) return x.text < y.text end)
    for _, k in ipairs(keys) do
      if not add(function() return k.text .. " = " .. show(v[k.key], depth + 1, budget, path) end) then break end
    end
  end
  path[v] = nil
  return "{" .. table.concat(parts, ", ") .. "}"
end
-- Whether two values are equal, tables by content. A pair of tables compared already, or
-- being compared further up (the tables hold themselves), counts as equal, so shared and
-- cyclic tables are compared once; nesting deeper than 100 levels is refused.
local function same(a, b, depth, assumed)
  if type(a) ~= type(b) then return false end
  if type(a) ~= "table" then return a == b end
  depth, assumed = depth or 0, assumed or {}
  local compared = assumed[a]
  if compared and compared[b] then return true end
  if depth >= 100 then return nil, "the tables are nested deeper than 100 levels" end
  if not compared then
    compared = {}
    assumed[a] = compared
  end
  compared[b] = true
  for k, v in pairs(a) do
    local equal, problem = same(v, b[k], depth + 1, assumed)
    if not equal then return equal, problem end
  end
  for k in pairs(b) do if a[k] == nil then return false end end
  return true
end
function expect_eq(actual, expected, message)
  local equal, problem = same(actual, expected)
  if problem then error((message and (message .. ": ") or "") .. "expect_eq: " .. problem, 2) end
  if not equal then
    error((message and (message .. ": ") or "") .. "expected " .. show(expected) .. ", got " .. show(actual), 2)
  end
end
function expect(condition, message)
  if not condition then error(message or "expectation failed", 2) end
end
function expect_error(body, pattern)
  local ok, err = pcall(body)
  if ok then error("expected an error" .. (pattern and (" matching " .. show(pattern)) or ""), 2) end
  if pattern and not string.find(tostring(err), pattern, 1, true) then
    error("expected an error containing " .. show(pattern) .. ", got " .. show(tostring(err)), 2)
  end
end
function expect_near(actual, expected, tolerance, message)
  if type(actual) ~= "number" or math.abs(actual - expected) > tolerance then
    error((message and (message .. ": ") or "") .. "expected " .. tostring(expected) .. " ± " .. tostring(tolerance) .. ", got " .. show(actual), 2)
  end
end
"#;

fn run_file(
    rules: &Arc<Ruleset>,
    path: &Path,
    helpers: &[(String, String)],
    filter: Option<&str>,
    time_limit: Duration,
) -> Vec<TestResult> {
    let shown = path.to_string_lossy().replace('\\', "/");
    let fail_file = |message: String| {
        vec![TestResult { file: shown.clone(), name: "(loading the file)".into(), failure: Some(message) }]
    };
    let text = match read_text(path) {
        Ok(text) => text,
        Err(e) => return fail_file(format!("{shown}: cannot read: {e}")),
    };
    let (lua, budget) = match sandbox::new_state() {
        Ok(state) => state,
        Err(e) => return fail_file(sandbox::error_text(&e)),
    };
    if let Err(e) = install(&lua, rules.clone()) {
        return fail_file(sandbox::error_text(&e));
    }
    budget.start_for(time_limit);
    // Text only: Lua bytecode is not checked by the VM and can break out of it.
    if let Err(e) = lua.load(PRELUDE).set_name("=prelude").set_mode(ChunkMode::Text).exec() {
        return fail_file(sandbox::error_text(&e));
    }
    for (helper_path, helper_text) in helpers {
        let chunk = sandbox::compile(&lua, helper_text, &format!("@{helper_path}"));
        if let Err(e) = chunk.and_then(|chunk| chunk.call::<()>(())) {
            return fail_file(sandbox::error_text(&e));
        }
    }
    let chunk = sandbox::compile(&lua, &text, &format!("@{shown}"));
    if let Err(e) = chunk.and_then(|chunk| chunk.call::<()>(())) {
        return fail_file(sandbox::error_text(&e));
    }
    let tests: Table = match lua.globals().get::<mlua::Function>("__tests").and_then(|f| f.call(())) {
        Ok(t) => t,
        Err(e) => return fail_file(sandbox::error_text(&e)),
    };
    let mut results = Vec::new();
    for entry in tests.sequence_values::<Table>().flatten() {
        let name: String = entry.get("name").unwrap_or_default();
        if filter.is_some_and(|f| !name.contains(f)) {
            continue;
        }
        let body: mlua::Function = match entry.get("body") {
            Ok(f) => f,
            Err(_) => continue,
        };
        budget.start_for(time_limit);
        let failure = body.call::<()>(()).err().map(|e| sandbox::error_text(&e));
        results.push(TestResult { file: shown.clone(), name, failure });
    }
    if results.is_empty() && filter.is_none() {
        return fail_file(format!("{shown}: the file registers no tests; use test(\"name\", function() ... end)"));
    }
    results
}

/// A game under test.
struct Scenario {
    engine: Engine,
    state: GameState,
    events: Events,
    /// Index in `events` where the last `act` began.
    last_action: usize,
    setup: GameSetup,
    history: Vec<(u8, Action)>,
}

fn install(lua: &Lua, rules: Arc<Ruleset>) -> mlua::Result<()> {
    let scenario = lua.create_table()?;
    let new = lua.create_function(move |lua, options: Option<Table>| {
        let options = match options {
            Some(t) => t,
            None => lua.create_table()?,
        };
        let seed: u64 = options.get::<Option<u64>>("seed")?.unwrap_or(1);
        let seats: Vec<SeatSetup> = match options.get::<LuaValue>("seats")? {
            LuaValue::Nil => (0..rules.manifest.seats.default_count()).map(|i| seat(&rules, i as usize)).collect(),
            // Refused as `new_game` would refuse it, before building that many seats (which
            // could exhaust memory).
            LuaValue::Integer(n) if n > i64::from(rules.manifest.seats.max) => {
                let range = rules.manifest.seats;
                return Err(runtime(format!("this game takes {} to {} seats, not {n}", range.min, range.max)));
            }
            LuaValue::Integer(n) => (0..n.max(0)).map(|i| seat(&rules, i as usize)).collect(),
            LuaValue::Table(names) => names
                .sequence_values::<String>()
                .map(|n| n.map(|name| SeatSetup { name, controller: "human".into(), side: None, player: None }))
                .collect::<mlua::Result<_>>()?,
            other => {
                return Err(mlua::Error::runtime(format!(
                    "seats: expected a number or a list of names, got {}",
                    other.type_name()
                )));
            }
        };
        let board: Option<BoardSpec> = match options.get::<LuaValue>("board")? {
            LuaValue::Nil => None,
            value => {
                check_plain_size(&value, "board")?;
                Some(lua.from_value(value).map_err(|e| mlua::Error::runtime(format!("board: {e}")))?)
            }
        };
        let setup = GameSetup { seed, seats, board, options: Default::default() };
        let mut engine = Engine::new(rules.clone()).map_err(|e| mlua::Error::runtime(e.to_string()))?;
        let mut events = Events::recording();
        let state = engine.new_game(&setup, &mut events).map_err(|e| mlua::Error::runtime(e.to_string()))?;
        Ok(Scenario { engine, state, events, last_action: 0, setup, history: Vec::new() })
    })?;
    scenario.set("new", new)?;
    lua.globals().set("scenario", scenario)?;
    Ok(())
}

/// Most values a table handed to the runner as data (an action, a board) may hold, counting
/// a table each time it is reached.
const MAX_PLAIN_VALUES: usize = 100_000;

/// Refuses a table too large to convert: one holding the same table twice at every level
/// doubles the work with each level, and conversion would not end; one holding itself would
/// be converted for ever.
fn check_plain_size(value: &LuaValue, what: &str) -> mlua::Result<()> {
    enum Refusal {
        TooLarge,
        HoldsItself,
    }
    fn count(value: &LuaValue, path: &mut Vec<*const std::ffi::c_void>, seen: &mut usize) -> Result<(), Refusal> {
        *seen += 1;
        if *seen > MAX_PLAIN_VALUES || path.len() > 64 {
            return Err(Refusal::TooLarge);
        }
        if let LuaValue::Table(table) = value {
            let address = table.to_pointer();
            if path.contains(&address) {
                return Err(Refusal::HoldsItself);
            }
            path.push(address);
            for pair in table.pairs::<LuaValue, LuaValue>() {
                let (key, item) = pair.map_err(|_| Refusal::TooLarge)?;
                count(&key, path, seen)?;
                count(&item, path, seen)?;
            }
            path.pop();
        }
        Ok(())
    }
    count(value, &mut Vec::new(), &mut 0).map_err(|refusal| match refusal {
        Refusal::TooLarge => {
            runtime(format!("{what}: the table is too large or too deep (more than {MAX_PLAIN_VALUES} values)"))
        }
        Refusal::HoldsItself => runtime(format!("{what}: the table holds itself (a cycle)")),
    })
}

fn seat(rules: &Ruleset, i: usize) -> SeatSetup {
    SeatSetup {
        name: rules.data.seats.names.get(i).cloned().unwrap_or_else(|| format!("Seat {}", i + 1)),
        controller: "human".into(),
        side: None,
        player: None,
    }
}

fn runtime(message: impl Into<String>) -> mlua::Error {
    mlua::Error::runtime(message.into())
}

impl Scenario {
    fn rules(&self) -> Arc<Ruleset> {
        self.engine.rules().clone()
    }

    fn space(&self, value: &LuaValue) -> mlua::Result<u32> {
        let count = self.state.owners.len() as i64;
        match value {
            LuaValue::String(s) => {
                let label = s.to_string_lossy();
                self.state
                    .board
                    .find(&label)
                    .ok_or_else(|| runtime(format!("no space is labelled `{}`", shown(&label))))
            }
            LuaValue::Integer(n) if (1..=count).contains(n) => Ok((*n - 1) as u32),
            other => Err(runtime(format!("expected a space label or 1..{count}, got {}", show_value(other)))),
        }
    }

    /// A piece by its 1-based id.
    fn piece(&self, piece: usize) -> mlua::Result<usize> {
        piece
            .checked_sub(1)
            .filter(|p| *p < self.state.pieces.len())
            .ok_or_else(|| runtime(format!("no piece {piece}")))
    }

    fn piece_kind(&self, id: &str) -> mlua::Result<u16> {
        let rules = self.rules();
        if let Some(kind) = rules.piece_kind_index(id) {
            return Ok(kind as u16);
        }
        let kinds: Vec<&str> = rules.piece_kinds.iter().map(|k| k.id.as_str()).collect();
        let hint = match did_you_mean(id, kinds.iter().copied()) {
            Some(near) => format!("; did you mean `{near}`?"),
            None if kinds.is_empty() => "; the mod declares no `[pieces]`".into(),
            None => format!("; the mod's piece kinds: {}", kinds.join(", ")),
        };
        Err(runtime(format!("unknown piece kind `{}`{hint}", shown(id))))
    }

    fn item(&self, id: &str) -> mlua::Result<u16> {
        self.rules().item_index(id).map(|i| i as u16).ok_or_else(|| runtime(format!("unknown item `{}`", shown(id))))
    }

    /// The position of an item a piece holds.
    fn held(&self, piece: usize, item: &str) -> mlua::Result<(usize, usize)> {
        let p = self.piece(piece)?;
        let i = self.item(item)?;
        let position = self.state.pieces[p].items.iter().position(|h| h.item == i);
        position.map(|pos| (p, pos)).ok_or_else(|| runtime(format!("piece {piece} holds no `{}`", shown(item))))
    }

    fn seat(&self, value: &LuaValue) -> mlua::Result<u8> {
        match value {
            LuaValue::Integer(n) if (1..=self.state.seats.len() as i64).contains(n) => Ok((*n - 1) as u8),
            other => Err(runtime(format!("expected a seat 1..{}, got {}", self.state.seats.len(), show_value(other)))),
        }
    }

    fn record(&self, lua: &Lua, table: Table) -> mlua::Result<ActionRecord> {
        let table = LuaValue::Table(table);
        check_plain_size(&table, "an action")?;
        let json: serde_json::Value = lua.from_value(table)?;
        serde_json::from_value(json)
            .map_err(|e| runtime(format!("an action is a table like {{ action = \"attack\", from = \"3\" }}: {e}")))
    }

    fn act(&mut self, lua: &Lua, table: Table) -> mlua::Result<Result<(), String>> {
        let record = self.record(lua, table)?;
        let rules = self.rules();
        let (seat, action) = match from_record(&rules, &self.state, &record) {
            Ok(pair) => pair,
            Err(e) => return Ok(Err(e)),
        };
        self.last_action = self.events.len();
        match self.engine.apply_as(&mut self.state, seat, &action, &mut self.events) {
            Ok(()) => {
                self.history.push((seat, action));
                Ok(Ok(()))
            }
            Err(e) => Ok(Err(e.to_string())),
        }
    }
}

impl UserData for Scenario {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        // ----- reading -----
        methods.add_method("owner", |_, g, space: LuaValue| {
            let s = g.space(&space)?;
            let owner = g.state.owners[s as usize];
            Ok((owner != NO_SEAT).then_some(i64::from(owner) + 1))
        });
        methods.add_method("counter", |_, g, (space, name): (LuaValue, String)| {
            let s = g.space(&space)?;
            let c = g
                .rules()
                .counter_index(&name)
                .ok_or_else(|| runtime(format!("unknown space counter `{}`", shown(&name))))?;
            Ok(g.state.counter(s, c as u16))
        });
        methods.add_method("resource", |_, g, (seat, name): (LuaValue, String)| {
            let s = g.seat(&seat)?;
            let r = g
                .rules()
                .resource_index(&name)
                .ok_or_else(|| runtime(format!("unknown resource `{}`", shown(&name))))?;
            Ok(g.state.seats[s as usize].resources[r])
        });
        methods.add_method("var", |_, g, name: String| {
            let v =
                g.rules().var_index(&name).ok_or_else(|| runtime(format!("unknown variable `{}`", shown(&name))))?;
            Ok(g.state.vars[v])
        });
        methods.add_method("stat", |_, g, (piece, name): (usize, String)| {
            let p =
                piece.checked_sub(1).filter(|p| *p < g.state.pieces.len()).ok_or_else(|| runtime("no such piece"))?;
            let s = g.rules().stat_index(&name).ok_or_else(|| runtime(format!("unknown stat `{}`", shown(&name))))?;
            Ok(g.state.pieces[p].stats[s])
        });
        methods.add_method("piece_space", |_, g, piece: usize| {
            let p = g.piece(piece)?;
            Ok(g.state.board.get_space(g.state.pieces[p].space).map(|s| s.label.clone()))
        });
        methods.add_method("alive", |_, g, piece: usize| Ok(g.piece(piece).is_ok_and(|p| g.state.pieces[p].alive)));
        methods.add_method("piece_of", |_, g, seat: LuaValue| {
            let s = g.seat(&seat)?;
            Ok(g.state.pieces.iter().position(|p| p.alive && p.owner == s).map(|p| p + 1))
        });
        methods.add_method("items", |lua, g, piece: usize| {
            let p = g.piece(piece)?;
            let rules = g.rules();
            let list = lua.create_table()?;
            for held in &g.state.pieces[p].items {
                list.push(rules.items[held.item as usize].id.clone())?;
            }
            Ok(list)
        });
        methods.add_method("charges", |_, g, (piece, item): (usize, String)| {
            let (p, position) = g.held(piece, &item)?;
            Ok(g.state.pieces[p].items[position].charges)
        });
        methods.add_method("awaiting", |_, g, ()| {
            Ok(g.state.turn.pending.as_ref().map(|p| g.rules().actions[p.action as usize].id.clone()))
        });
        methods.add_method("turn", |_, g, ()| Ok(g.state.turn.number));
        methods.add_method("round", |_, g, ()| Ok(g.state.turn.round));
        methods.add_method("current_seat", |_, g, ()| Ok(i64::from(g.state.turn.seat) + 1));
        methods.add_method("owned", |_, g, seat: LuaValue| Ok(g.state.owned_count(g.seat(&seat)?)));
        methods.add_method("seat_status", |_, g, seat: LuaValue| {
            Ok(match g.state.seats[g.seat(&seat)? as usize].status {
                SeatStatus::Active => "active",
                SeatStatus::Left => "left",
                SeatStatus::Eliminated => "eliminated",
            })
        });
        methods.add_method("space_count", |_, g, ()| Ok(g.state.owners.len()));
        methods.add_method("labels", |_, g, ()| {
            Ok(g.state.board.spaces().iter().map(|s| s.label.clone()).collect::<Vec<_>>())
        });
        methods.add_method("neighbors", |_, g, space: LuaValue| {
            let s = g.space(&space)?;
            Ok(g.state
                .board
                .neighbors(s)
                .iter()
                .map(|(n, _)| g.state.board.space(*n).label.clone())
                .collect::<Vec<_>>())
        });
        methods.add_method("outcome", |lua, g, ()| match &g.state.outcome {
            Some(outcome) => lua.to_value(&outcome_json(outcome)),
            None => Ok(LuaValue::Nil),
        });
        methods.add_method("over", |_, g, ()| Ok(g.state.outcome.is_some()));
        methods.add_method("state", |lua, g, ()| lua.to_value(&state_json(&g.rules(), &g.state)));
        methods.add_method("hash", |_, g, ()| Ok(g.state.hash_hex()));
        methods.add_method("events", |lua, g, all: Option<bool>| {
            let rules = g.rules();
            let from = if all.unwrap_or(false) { 0 } else { g.last_action };
            let list: Vec<serde_json::Value> =
                g.events.list()[from..].iter().map(|e| event_json(&rules, &g.state, e)).collect();
            lua.to_value(&list)
        });
        methods.add_method_mut("legal", |lua, g, ()| {
            let rules = g.rules();
            let mut actions = Vec::new();
            g.engine.legal_actions(&g.state, &mut actions).map_err(|e| runtime(e.to_string()))?;
            let seat = g.state.turn.seat;
            let records: Vec<ActionRecord> = actions.iter().map(|a| to_record(&rules, &g.state, seat, a)).collect();
            lua.to_value(&records)
        });
        methods.add_method_mut("chance", |lua, g, table: Table| {
            let record = g.record(lua, table)?;
            let rules = g.rules();
            let (_, action) = from_record(&rules, &g.state, &record).map_err(runtime)?;
            Ok(g.engine.chance(&g.state, &action))
        });
        methods.add_method_mut("preview", |lua, g, table: Table| {
            let record = g.record(lua, table)?;
            let rules = g.rules();
            let (_, action) = from_record(&rules, &g.state, &record).map_err(runtime)?;
            let figures = lua.create_table()?;
            for (label, value) in g.engine.preview(&g.state, &action) {
                figures.set(label, value)?;
            }
            Ok(figures)
        });

        // ----- arranging (test set-up, not game actions) -----
        methods.add_method_mut("set_owner", |_, g, (space, seat): (LuaValue, LuaValue)| {
            let s = g.space(&space)?;
            let owner = match seat {
                LuaValue::Nil => NO_SEAT,
                v => g.seat(&v)?,
            };
            g.state.set_owner(s, owner);
            Ok(())
        });
        methods.add_method_mut("set_counter", |_, g, (space, name, value): (LuaValue, String, i64)| {
            let s = g.space(&space)?;
            let rules = g.rules();
            let c = rules
                .counter_index(&name)
                .ok_or_else(|| runtime(format!("unknown space counter `{}`", shown(&name))))?;
            *g.state.counter_mut(s, c as u16) = rules.space_counters[c].clamp(value);
            Ok(())
        });
        methods.add_method_mut("set_resource", |_, g, (seat, name, value): (LuaValue, String, i64)| {
            let s = g.seat(&seat)?;
            let rules = g.rules();
            let r =
                rules.resource_index(&name).ok_or_else(|| runtime(format!("unknown resource `{}`", shown(&name))))?;
            g.state.seats[s as usize].resources[r] = rules.resources[r].clamp(value);
            Ok(())
        });
        methods.add_method_mut("set_var", |_, g, (name, value): (String, i64)| {
            let rules = g.rules();
            let v = rules.var_index(&name).ok_or_else(|| runtime(format!("unknown variable `{}`", shown(&name))))?;
            g.state.vars[v] = rules.vars[v].clamp(value);
            Ok(())
        });
        methods.add_method_mut("set_status", |_, g, (seat, status): (LuaValue, String)| {
            let s = g.seat(&seat)?;
            g.state.seats[s as usize].status = match status.as_str() {
                "active" => SeatStatus::Active,
                "left" => SeatStatus::Left,
                "eliminated" => SeatStatus::Eliminated,
                other => return Err(runtime(format!("unknown status `{}` (active, left, eliminated)", shown(other)))),
            };
            Ok(())
        });
        methods.add_method_mut("set_turn", |_, g, (seat, number): (LuaValue, Option<u32>)| {
            g.state.turn.seat = g.seat(&seat)?;
            if let Some(number) = number {
                g.state.turn.number = number;
            }
            g.state.turn.used.iter_mut().for_each(|u| *u = 0);
            g.state.turn.pending = None;
            Ok(())
        });
        methods.add_method_mut("force_dice", |_, g, faces: Vec<u32>| {
            g.state.forced_faces.extend(faces);
            Ok(())
        });
        methods.add_method("forced_left", |_, g, ()| Ok(g.state.forced_faces.len()));
        methods.add_method_mut("set_stat", |_, g, (piece, name, value): (usize, String, i64)| {
            let p = g.piece(piece)?;
            let rules = g.rules();
            let s = rules.stat_index(&name).ok_or_else(|| runtime(format!("unknown stat `{}`", shown(&name))))?;
            g.state.pieces[p].stats[s] = rules.stats[s].clamp(value);
            Ok(())
        });
        methods.add_method_mut("place", |_, g, (kind, seat, space): (String, LuaValue, LuaValue)| {
            let kind = g.piece_kind(&kind)?;
            let owner = match seat {
                LuaValue::Nil => NO_SEAT,
                v => g.seat(&v)?,
            };
            let space = g.space(&space)?;
            let rules = g.rules();
            let piece =
                crate::game::changes::place_piece(&rules, &mut g.state, &mut Events::discard(), kind, owner, space)
                    .map_err(|e| runtime(e.to_string()))?;
            Ok(i64::from(piece) + 1)
        });
        methods.add_method_mut("remove", |_, g, piece: usize| {
            let p = g.piece(piece)?;
            if !g.state.pieces[p].alive {
                return Err(runtime(format!("piece {piece} was already removed")));
            }
            crate::game::changes::remove_piece(&mut g.state, &mut Events::discard(), p as u32);
            Ok(())
        });
        methods.add_method_mut("move_piece", |_, g, (piece, space): (usize, LuaValue)| {
            let p = g.piece(piece)?;
            g.state.pieces[p].space = g.space(&space)?;
            Ok(())
        });
        methods.add_method_mut("give", |_, g, (piece, item): (usize, String)| {
            let p = g.piece(piece)?;
            let rules = g.rules();
            let i = g.item(&item)?;
            let mut events = Events::discard();
            crate::game::changes::give_item(&rules, &mut g.state, &mut events, p as u32, i)
                .map_err(|e| runtime(e.to_string()))?;
            Ok(())
        });
        methods.add_method_mut("set_charges", |_, g, (piece, item, value): (usize, String, i64)| {
            let (p, position) = g.held(piece, &item)?;
            g.state.pieces[p].items[position].charges = value.max(0);
            Ok(())
        });

        // ----- playing -----
        methods.add_method_mut("act", |lua, g, table: Table| match g.act(lua, table)? {
            Ok(()) => Ok(()),
            Err(reason) => Err(runtime(format!("the action was refused: {reason}"))),
        });
        methods.add_method_mut("try", |lua, g, table: Table| {
            let hash = g.state.hash_hex();
            match g.act(lua, table)? {
                Ok(()) => Ok(MultiValue::from_iter([LuaValue::Boolean(true)])),
                Err(reason) => {
                    // A refused action must leave the state exactly as it was.
                    if g.state.hash_hex() != hash {
                        return Err(runtime("a refused action changed the game state"));
                    }
                    Ok(MultiValue::from_iter([LuaValue::Boolean(false), LuaValue::String(lua.create_string(&reason)?)]))
                }
            }
        });
        methods.add_method_mut("pass", |lua, g, ()| {
            let table = lua.create_table()?;
            table.set("action", "pass")?;
            match g.act(lua, table)? {
                Ok(()) => Ok(()),
                Err(reason) => Err(runtime(format!("passing was refused: {reason}"))),
            }
        });
        methods.add_method_mut("play", |_, g, (level, limit): (String, Option<u64>)| {
            // Lets computer players of one level finish the game (or `limit` actions).
            let mut players: Vec<Box<dyn crate::ai::Player>> = (0..g.state.seats.len())
                .map(|i| crate::ai::player(&level, 7 + i as u64))
                .collect::<Result<_, _>>()
                .map_err(runtime)?;
            let mut taken = 0u64;
            while g.state.outcome.is_none() && taken < limit.unwrap_or(u64::MAX) {
                let seat = g.state.turn.seat;
                let action =
                    players[seat as usize].decide(&mut g.engine, &g.state).map_err(|e| runtime(e.to_string()))?;
                g.last_action = g.events.len();
                g.engine.apply(&mut g.state, &action, &mut g.events).map_err(|e| runtime(e.to_string()))?;
                g.history.push((seat, action));
                taken += 1;
            }
            Ok(taken)
        });
        methods.add_method_mut("replay_hash", |_, g, ()| {
            // Re-simulates the recorded actions from the same setup; equal to `hash()` when the
            // game is deterministic and no test arrangement changed the state.
            let mut events = Events::discard();
            let state = g.engine.replay(&g.setup, &g.history, &mut events).map_err(|e| runtime(e.to_string()))?;
            Ok(state.hash_hex())
        });
    }
}
