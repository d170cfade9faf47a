//! Scenario tests written in Lua (`mods/<id>/tests/*.lua`), run by `meeple test`.
//!
//! A test file registers tests with `test(name, function() ... end)`. Inside, `scenario.new{}`
//! starts a game (seed, seats, optionally a small fixed board), the test arranges the state
//! (`g:set_owner`, `g:set_counter`, `g:place`, `g:set_hand`, `g:set_deck`, `g:force_dice`,
//! `g:force_random`), applies actions (`g:act{...}`) and checks state and events (`expect_eq`,
//! `g:events()`); what it `print`s is kept with its result. Each test file runs in its own sandbox.
//!
//! A test's own Lua is limited by a count of instructions ([`TEST_INSTRUCTION_LIMIT`]), so it
//! passes or fails the same way on every machine; the wall-clock watchdog ([`TEST_WATCHDOG`])
//! only guards against a machine far too slow, and its stop ends the run
//! ([`TestResult::out_of_time`]) instead of failing a test.

use std::path::{Path, PathBuf};
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

/// VM instructions one test's own Lua may run (and the loading of one test file): 50 hook
/// calls' worth, about a second of plain Lua here — far more than arranging and checking a game
/// takes. The games it plays run their hooks in their own engines, under the limits of any game.
pub const TEST_INSTRUCTION_LIMIT: u64 = 50 * sandbox::INSTRUCTION_LIMIT;
/// The wall-clock watchdog of one test, the games it plays included: far past what a test under
/// its counted limits takes. Meeting it stops the whole run ("the machine was too slow"), never
/// fails the test.
pub const TEST_WATCHDOG: Duration = Duration::from_secs(300);
/// Bytes of `print` output kept for one test; the rest is left out, saying so.
pub const MAX_TEST_OUTPUT: usize = 64 * 1024;

/// The limits tests run under: [`TestLimits::DEFAULT`] for `meeple test`.
#[derive(Clone, Copy, Debug)]
pub struct TestLimits {
    /// Instructions one test (or the loading of one test file) may run.
    pub instructions: u64,
    /// Its wall-clock watchdog.
    pub watchdog: Duration,
}

impl TestLimits {
    pub const DEFAULT: TestLimits = TestLimits { instructions: TEST_INSTRUCTION_LIMIT, watchdog: TEST_WATCHDOG };
}

/// The outcome of one test.
#[derive(Clone, Debug)]
pub struct TestResult {
    pub file: String,
    pub name: String,
    /// `None` when it passed; otherwise the whole failure message, starting with `file:line:`.
    pub failure: Option<String>,
    /// What the test printed with `print`, line by line.
    pub output: Vec<String>,
    /// Whether the watchdog stopped the test (the machine was too slow): `failure` says so, and
    /// the run stopped there, since the result says nothing about the mod.
    pub out_of_time: bool,
}

impl TestResult {
    fn failed(file: &str, name: &str, message: String) -> Self {
        Self {
            file: file.to_string(),
            name: name.to_string(),
            failure: Some(message),
            output: Vec::new(),
            out_of_time: false,
        }
    }
}

/// Runs every test file of a mod; `filter` keeps tests whose name contains it. `helpers` are
/// loaded before each test file (in order), into the same sandbox; they share code through
/// the global table `helpers`. When the watchdog stops a test, the run stops there: the last
/// result is [`TestResult::out_of_time`].
pub fn run_mod_tests(
    rules: &Arc<Ruleset>,
    test_files: &[PathBuf],
    helpers: &[PathBuf],
    filter: Option<&str>,
) -> Vec<TestResult> {
    run_mod_tests_within(rules, test_files, helpers, filter, TestLimits::DEFAULT)
}

/// What `meeple test` prints of one test: `ok`, `FAIL` or `STOP` (the watchdog's), the file and
/// the name; what it printed (`| …`); every line of its failure. A test that passed and printed
/// nothing shows only when `verbose`. Lua paths are shown from inside the mod folder named
/// `folder_name` ([`inside_mod_folder`]).
pub fn result_lines(result: &TestResult, folder_name: &str, verbose: bool) -> Vec<String> {
    let status = match (&result.failure, result.out_of_time) {
        (_, true) => "STOP",
        (Some(_), false) => "FAIL",
        (None, false) if verbose || !result.output.is_empty() => "ok",
        (None, false) => return Vec::new(),
    };
    // A test's name, output and failure are the mod's words: shown short and without terminal
    // escapes (a name of megabytes, or one that sets the window's title, stays in the test).
    let name = crate::diag::shown_up_to(&result.name, 200);
    let mut lines = vec![format!("{status:<5} {} › {name}", inside_mod_folder(&result.file, folder_name))];
    lines.extend(result.output.iter().map(|line| format!("      | {}", crate::diag::printable(line))));
    if let Some(message) = &result.failure {
        let message = crate::diag::printable(&inside_mod_folder(message, folder_name));
        lines.extend(message.lines().map(|line| format!("      {line}")));
    }
    lines
}

/// A mod folder's own name, as its Lua files are named in messages (`cards/hooks/cards.lua`),
/// however the folder was given (`.`, a path).
pub fn mod_folder_name(folder: &Path) -> String {
    std::fs::canonicalize(folder)
        .ok()
        .and_then(|f| f.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_default()
}

/// `text` with the Lua paths of the mod in the folder named `folder_name`
/// (`cards/hooks/cards.lua`, `cards/tests/…`) shown from inside it (`hooks/cards.lua`): what a
/// modder working in the folder opens. Only a path that starts there is shortened, not one that
/// goes through a folder of that name (`/home/me/cards/hooks/…`).
pub fn inside_mod_folder(text: &str, folder_name: &str) -> String {
    if folder_name.is_empty() {
        return text.to_string();
    }
    let mut shown = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        let starts_path = ["hooks/", "tests/"].iter().any(|kind| {
            rest.strip_prefix(folder_name).and_then(|r| r.strip_prefix('/')).is_some_and(|r| r.starts_with(kind))
        });
        let at_boundary = shown.chars().last().is_none_or(|c| !(c.is_alphanumeric() || "/\\_.-".contains(c)));
        if starts_path && at_boundary {
            rest = &rest[folder_name.len() + 1..];
            continue;
        }
        let mut chars = rest.chars();
        shown.extend(chars.next());
        rest = chars.as_str();
    }
    shown
}

/// A test file's text, read under the rules of every mod file (an ordinary file, not too big).
fn read_text(path: &std::path::Path) -> Result<String, String> {
    let bytes = crate::loader::read(path).map_err(|d| d.message)?;
    String::from_utf8(bytes).map_err(|_| "the file is not valid UTF-8 text; save it as UTF-8".to_string())
}

/// [`run_mod_tests`] under other limits per test (and per file's loading).
pub fn run_mod_tests_within(
    rules: &Arc<Ruleset>,
    test_files: &[PathBuf],
    helpers: &[PathBuf],
    filter: Option<&str>,
    limits: TestLimits,
) -> Vec<TestResult> {
    let mut helper_sources = Vec::new();
    for path in helpers {
        let shown = shown_path(path);
        match read_text(path) {
            Ok(text) => helper_sources.push((shown, text)),
            Err(e) => {
                return vec![TestResult::failed(&shown, "(loading the helpers)", format!("{shown}: cannot read: {e}"))];
            }
        }
    }
    let mut results = Vec::new();
    for path in test_files {
        results.extend(run_file(rules, path, &helper_sources, filter, limits));
        if results.last().is_some_and(|r| r.out_of_time) {
            break;
        }
    }
    results
}

/// How a test or helper file is named in messages: from the mod's folder on
/// (`cards/tests/odds.lua`), as hook files are, when it lies in the mod's `tests` folder;
/// otherwise as given.
fn shown_path(path: &Path) -> String {
    let in_tests_folder = path.parent().filter(|parent| parent.file_name().is_some_and(|n| n == "tests"));
    let mod_name = in_tests_folder
        .and_then(Path::parent)
        .and_then(|folder| std::fs::canonicalize(folder).ok())
        .and_then(|folder| folder.file_name().map(|n| n.to_string_lossy().into_owned()));
    match (mod_name, path.file_name()) {
        (Some(mod_name), Some(file)) => format!("{mod_name}/tests/{}", file.to_string_lossy()),
        _ => path.to_string_lossy().replace('\\', "/"),
    }
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
-- `print` writes to the test's output, as Lua's would: values made text and joined by tabs.
do
  local emit, tostring, select, concat = __emit, tostring, select, table.concat
  __emit = nil
  function print(...)
    local parts = {}
    for i = 1, select('#', ...) do parts[i] = tostring((select(i, ...))) end
    emit(concat(parts, "\t"))
  end
end
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
    limits: TestLimits,
) -> Vec<TestResult> {
    let shown = shown_path(path);
    let fail_file = |message: String| vec![TestResult::failed(&shown, "(loading the file)", message)];
    let text = match read_text(path) {
        Ok(text) => text,
        Err(e) => return fail_file(format!("{shown}: cannot read: {e}")),
    };
    let (lua, budget) = match sandbox::new_state() {
        Ok(state) => state,
        Err(e) => return fail_file(sandbox::error_message(&e)),
    };
    if let Err(e) = install(&lua, rules.clone()) {
        return fail_file(sandbox::error_message(&e));
    }
    lua.set_app_data(TestOutput::default());
    // The result of a failed step: the watchdog's stop (in the test's Lua or in a game it
    // plays) ends the run, anything else is the test's failure.
    let outcome = |lua: &Lua, name: &str, error: Option<mlua::Error>| {
        let output = lua.app_data_mut::<TestOutput>().map(|mut o| std::mem::take(&mut *o).lines).unwrap_or_default();
        let watchdog = lua.remove_app_data::<StoppedByWatchdog>().map(|stop| stop.0);
        let out_of_time = budget.out_of_time() || watchdog.is_some();
        let failure = match (watchdog, error) {
            (Some(message), _) => Some(message),
            (None, error) => error.map(|e| sandbox::error_message(&e)),
        };
        TestResult { file: shown.clone(), name: name.to_string(), failure, output, out_of_time }
    };
    budget.start_with(limits.instructions, limits.watchdog);
    // Text only: Lua bytecode is not checked by the VM and can break out of it.
    if let Err(e) = lua.load(PRELUDE).set_name("=prelude").set_mode(ChunkMode::Text).exec() {
        return vec![outcome(&lua, "(loading the file)", Some(e))];
    }
    for (helper_path, helper_text) in helpers {
        let chunk = sandbox::compile(&lua, helper_text, &format!("@{helper_path}"));
        if let Err(e) = chunk.and_then(|chunk| chunk.call::<()>(())) {
            return vec![outcome(&lua, "(loading the file)", Some(e))];
        }
    }
    let chunk = sandbox::compile(&lua, &text, &format!("@{shown}"));
    if let Err(e) = chunk.and_then(|chunk| chunk.call::<()>(())) {
        return vec![outcome(&lua, "(loading the file)", Some(e))];
    }
    let tests: Table = match lua.globals().get::<mlua::Function>("__tests").and_then(|f| f.call(())) {
        Ok(t) => t,
        Err(e) => return vec![outcome(&lua, "(loading the file)", Some(e))],
    };
    // What the file printed while loading belongs to no test; it goes with the first.
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
        budget.start_with(limits.instructions, limits.watchdog);
        GAMES_MADE.set((0, 0));
        let result = outcome(&lua, &name, body.call::<()>(()).err());
        let stop = result.out_of_time;
        results.push(result);
        if stop {
            break;
        }
    }
    if results.is_empty() && filter.is_none() {
        return fail_file(format!("{shown}: the file registers no tests; use test(\"name\", function() ... end)"));
    }
    results
}

/// What the tests of one file print, for the test running now.
#[derive(Default)]
struct TestOutput {
    lines: Vec<String>,
    bytes: usize,
}

/// The watchdog stopped a game the test plays: the message, for the run to end with.
struct StoppedByWatchdog(String);

/// An engine error as the test's Lua error. The watchdog's stop is remembered, so that the run
/// ends there instead of counting it as the test's failure.
fn engine_error(lua: &Lua, message: String, out_of_time: bool) -> mlua::Error {
    if out_of_time {
        lua.set_app_data(StoppedByWatchdog(message.clone()));
    }
    runtime(message)
}

/// `print`'s Rust side: keeps the line, counting its bytes as instructions, up to
/// [`MAX_TEST_OUTPUT`] bytes per test.
fn emit(lua: &Lua, line: mlua::LuaString) -> mlua::Result<()> {
    let bytes = line.as_bytes();
    sandbox::charge(lua, sandbox::bytes_as_instructions(bytes.len()), "print")?;
    let Some(mut output) = lua.app_data_mut::<TestOutput>() else { return Ok(()) };
    if output.bytes > MAX_TEST_OUTPUT {
        return Ok(());
    }
    output.bytes += bytes.len();
    if output.bytes > MAX_TEST_OUTPUT {
        output.lines.push(format!(
            "… (the rest of the output is left out: a test prints at most {} KiB)",
            MAX_TEST_OUTPUT / 1024
        ));
        return Ok(());
    }
    let text = String::from_utf8_lossy(&bytes).into_owned();
    output.lines.extend(text.split('\n').map(str::to_string));
    Ok(())
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
    lua.globals().raw_set("__emit", lua.create_function(|lua, line: mlua::LuaString| emit(lua, line))?)?;
    let scenario = lua.create_table()?;
    // The mod as loaded with other setup choices than the run's, for the games that ask for them.
    let loaded_with = std::cell::RefCell::new(Vec::new());
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
        let first_seat = match options.get::<Option<i64>>("first")? {
            None => None,
            Some(n) if n >= 1 && n as usize <= seats.len() => Some((n - 1) as u8),
            Some(n) => return Err(runtime(format!("first: seat {n} is not one of the game's {} seats", seats.len()))),
        };
        let game_rules = rules_for(&rules, &loaded_with, &options, seats.len())?;
        let setup = GameSetup { seed, seats, board, options: Default::default(), first_seat };
        let (games, spaces) = GAMES_MADE.get();
        if games >= MAX_TEST_GAMES {
            return Err(runtime(format!(
                "a test may start at most {MAX_TEST_GAMES} games (each is memory of its own, outside the Lua limit)"
            )));
        }
        let mut engine = Engine::new(game_rules).map_err(|e| mlua::Error::runtime(e.to_string()))?;
        let mut events = Events::recording();
        let state =
            engine.new_game(&setup, &mut events).map_err(|e| engine_error(lua, e.to_string(), e.is_out_of_time()))?;
        let spaces = spaces.saturating_add(state.board.space_count() as u64);
        GAMES_MADE.set((games + 1, spaces));
        if spaces > MAX_TEST_SPACES {
            return Err(runtime(format!(
                "the games a test starts may have at most {MAX_TEST_SPACES} spaces together (each game holds its \
                 board, outside the Lua limit)"
            )));
        }
        Ok(Scenario { engine, state, events, last_action: 0, setup, history: Vec::new() })
    })?;
    scenario.set("new", new)?;
    lua.globals().set("scenario", scenario)?;
    Ok(())
}

/// The rules a game of `seat_count` seats plays by: the mod loaded with the setup choices
/// `scenario.new{ options = { ... } }` asks for, the others fitted to the seat count (an option's
/// default, or its first choice for that many seats). Loaded once per set of choices a file
/// asks for.
fn rules_for(
    rules: &Arc<Ruleset>,
    loaded_with: &std::cell::RefCell<Vec<(crate::options::Choices, Arc<Ruleset>)>>,
    options: &Table,
    seat_count: usize,
) -> mlua::Result<Arc<Ruleset>> {
    let mut asked = crate::options::Choices::new();
    match options.get::<LuaValue>("options")? {
        LuaValue::Nil => {}
        LuaValue::Table(table) => {
            for pair in table.pairs::<String, String>() {
                let (option, choice) =
                    pair.map_err(|e| runtime(format!("options: a table of option = \"choice\" strings: {e}")))?;
                if !rules.data.options.contains_key(&option) {
                    let hint = did_you_mean(&option, rules.data.options.keys().map(String::as_str))
                        .map(|s| format!("; did you mean `{s}`?"))
                        .unwrap_or_default();
                    return Err(runtime(format!("options: the mod has no setup option `{}`{hint}", shown(&option))));
                }
                asked.insert(option, choice);
            }
        }
        other => return Err(runtime(format!("options: expected a table, got {}", other.type_name()))),
    }
    let wanted = crate::options::for_seats(&rules.data.options, &asked, seat_count);
    if let Some((_, loaded)) = loaded_with.borrow().iter().find(|(choices, _)| *choices == wanted) {
        return Ok(loaded.clone());
    }
    let loaded =
        crate::options::rules_for_seats(rules, &asked, seat_count, &Default::default()).map_err(|problems| {
            let shown: Vec<String> = problems.iter().map(ToString::to_string).collect();
            runtime(format!("options: the mod does not load with them:\n{}", shown.join("\n")))
        })?;
    loaded_with.borrow_mut().push((wanted, loaded.clone()));
    Ok(loaded)
}

/// Games one test may start with `scenario.new`: each has an engine and a state of its own, memory
/// the Lua limit does not see.
pub const MAX_TEST_GAMES: usize = 1_000;
/// Spaces the games one test starts may have together: a board is held by each game.
pub const MAX_TEST_SPACES: u64 = 1_000_000;

thread_local! {
    /// Games the running test has started, and their spaces.
    static GAMES_MADE: std::cell::Cell<(usize, u64)> = const { std::cell::Cell::new((0, 0)) };
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

/// The ids of cards, for messages.
fn cards_ids(rules: &Ruleset, cards: &[u16]) -> Vec<String> {
    cards.iter().map(|c| rules.card_ids[*c as usize].clone()).collect()
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

    fn deck(&self, id: &str) -> mlua::Result<u16> {
        let rules = self.rules();
        if let Some(deck) = rules.deck_index(id) {
            return Ok(deck as u16);
        }
        let hint = match did_you_mean(id, rules.decks.iter().map(|d| d.id.as_str())) {
            Some(near) => format!("; did you mean `{near}`?"),
            None if rules.decks.is_empty() => "; the mod declares no decks".into(),
            None => format!(
                "; the mod's decks: {}",
                rules.decks.iter().map(|d| d.id.as_str()).collect::<Vec<_>>().join(", ")
            ),
        };
        Err(runtime(format!("unknown deck `{}`{hint}", shown(id))))
    }

    /// A card of `deck` by its id.
    fn card(&self, deck: u16, id: &str) -> mlua::Result<u16> {
        let rules = self.rules();
        let info = &rules.decks[deck as usize];
        let in_deck = |card: &u16| rules.card_ids[*card as usize] == id;
        if let Some(card) = info.cards.iter().copied().find(in_deck) {
            return Ok(card);
        }
        let mut ids: Vec<&str> = info.cards.iter().map(|c| rules.card_ids[*c as usize].as_str()).collect();
        ids.dedup();
        let hint =
            did_you_mean(id, ids.iter().copied()).map(|near| format!("; did you mean `{near}`?")).unwrap_or_default();
        Err(runtime(format!("deck `{}` has no card `{}`{hint}", info.id, shown(id))))
    }

    /// Takes one copy of `card` out of its deck's piles or another seat's hand, for the hand of
    /// `seat` the test arranges; the draw pile's top copy first.
    fn take_card(&mut self, seat: u8, deck: u16, card: u16, id: &str) -> mlua::Result<()> {
        let piles = &mut self.state.decks[deck as usize];
        if let Some(at) = piles.draw.iter().rposition(|c| *c == card) {
            piles.draw.remove(at);
            return Ok(());
        }
        if let Some(at) = piles.discard.iter().rposition(|c| *c == card) {
            piles.discard.remove(at);
            return Ok(());
        }
        let others = self.state.seats.iter_mut().enumerate().filter(|(other, _)| *other != seat as usize);
        for (_, other) in others {
            if let Some(at) = other.hand.iter().position(|held| *held == (deck, card)) {
                other.remove_card(at);
                return Ok(());
            }
        }
        Err(runtime(format!("set_hand: every `{}` of the deck is already in this hand", shown(id))))
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
            Err(e) if e.is_out_of_time() => Err(engine_error(lua, e.to_string(), true)),
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
        methods.add_method("terrain", |_, g, space: LuaValue| {
            let s = g.space(&space)?;
            let terrain = g.state.board.space(s).terrain as usize;
            Ok(g.rules().terrain.get(terrain).map(|t| t.id.clone()))
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
        methods.add_method("piece_owner", |_, g, piece: usize| {
            let p = g.piece(piece)?;
            let owner = g.state.pieces[p].owner;
            Ok((owner != NO_SEAT).then(|| i64::from(owner) + 1))
        });
        methods.add_method("inside", |_, g, piece: usize| {
            let p = g.piece(piece)?;
            let holder = g.state.pieces[p].inside;
            Ok((holder != crate::game::state::NO_PIECE).then(|| i64::from(holder) + 1))
        });
        methods.add_method("contents", |_, g, holder: usize| {
            let h = g.piece(holder)?;
            Ok(crate::game::changes::contents(&g.state, h as u32).map(|p| i64::from(p) + 1).collect::<Vec<_>>())
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
        methods.add_method("attached", |_, g, piece: usize| {
            let p = g.piece(piece)?;
            let rules = g.rules();
            Ok(g.state.pieces[p]
                .cards
                .iter()
                .map(|(_, card)| rules.card_ids[*card as usize].clone())
                .collect::<Vec<_>>())
        });
        methods.add_method("charges", |_, g, (piece, item): (usize, String)| {
            let (p, position) = g.held(piece, &item)?;
            Ok(g.state.pieces[p].items[position].charges)
        });
        methods.add_method("deck", |lua, g, deck: String| {
            let deck = g.deck(&deck)?;
            let rules = g.rules();
            let piles = &g.state.decks[deck as usize];
            // Top first: the top of a pile is the end of its vector.
            let ids = |pile: &[u16]| cards_ids(&rules, &pile.iter().rev().copied().collect::<Vec<_>>());
            let table = lua.create_table()?;
            table.set("draw", ids(&piles.draw))?;
            table.set("discard", ids(&piles.discard))?;
            Ok(table)
        });
        methods.add_method("awaiting", |_, g, ()| {
            Ok(g.state.turn.pending.as_ref().map(|p| g.rules().actions[p.action as usize].id.clone()))
        });
        methods.add_method("turn", |_, g, ()| Ok(g.state.turn.number));
        methods.add_method("round", |_, g, ()| Ok(g.state.turn.round));
        methods.add_method("current_seat", |_, g, ()| Ok(i64::from(g.state.turn.seat) + 1));
        methods.add_method("seat_to_act", |_, g, ()| Ok(i64::from(g.state.to_act()) + 1));
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
            g.engine
                .legal_actions(&g.state, &mut actions)
                .map_err(|e| engine_error(lua, e.to_string(), e.is_out_of_time()))?;
            let seat = g.state.to_act();
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
            let margins = lua.create_table()?;
            let figures_of_rules = g
                .engine
                .preview(&g.state, &action)
                .map_err(|e| engine_error(lua, e.to_string(), e.is_out_of_time()))?;
            for figure in figures_of_rules {
                let margin = match figure.method {
                    crate::game::Method::Certain | crate::game::Method::Exact => 0.0,
                    crate::game::Method::Sampled { margin } => margin,
                };
                figures.set(figure.label.as_str(), figure.value)?;
                margins.set(figure.label, margin)?;
            }
            Ok((figures, margins))
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
        methods.add_method_mut("force_random", |_, g, numbers: Vec<i64>| {
            g.state.forced_random.extend(numbers);
            Ok(())
        });
        methods.add_method("forced_random_left", |_, g, ()| Ok(g.state.forced_random.len()));
        methods.add_method_mut("set_hand", |_, g, (seat, deck, cards): (LuaValue, String, Vec<String>)| {
            let seat = g.seat(&seat)?;
            let deck = g.deck(&deck)?;
            let cards = cards.iter().map(|id| g.card(deck, id)).collect::<mlua::Result<Vec<u16>>>()?;
            // The seat's cards of this deck go back under the draw pile, in the order held, so
            // they are drawn last; then each named card is taken from wherever it is.
            let held: Vec<u16> =
                g.state.seats[seat as usize].hand.iter().filter(|(d, _)| *d == deck).map(|(_, card)| *card).collect();
            g.state.seats[seat as usize].retain_cards(|(d, _)| *d != deck);
            let piles = &mut g.state.decks[deck as usize];
            for card in held.into_iter().rev() {
                piles.draw.insert(0, card);
            }
            for (card, id) in cards.iter().zip(&cards_ids(&g.rules(), &cards)) {
                g.take_card(seat, deck, *card, id)?;
                g.state.seats[seat as usize].hand.push((deck, *card));
            }
            Ok(())
        });
        methods.add_method_mut("set_deck", |_, g, (deck, cards): (String, Vec<String>)| {
            let deck = g.deck(&deck)?;
            let cards = cards.iter().map(|id| g.card(deck, id)).collect::<mlua::Result<Vec<u16>>>()?;
            let ids = cards_ids(&g.rules(), &cards);
            // Taken from the piles (not from hands: `set_hand` arranges those), then put on top
            // of the draw pile, whose top is the end of the vector: the first named on top.
            let mut taken = Vec::with_capacity(cards.len());
            for (card, id) in cards.iter().zip(&ids) {
                let piles = &mut g.state.decks[deck as usize];
                let found = match piles.draw.iter().rposition(|c| c == card) {
                    Some(at) => Some(piles.draw.remove(at)),
                    None => piles.discard.iter().rposition(|c| c == card).map(|at| piles.discard.remove(at)),
                };
                match found {
                    Some(card) => taken.push(card),
                    None => {
                        // Put back what was taken, so a refused arrangement changes nothing.
                        g.state.decks[deck as usize].draw.extend(taken.iter().rev());
                        return Err(runtime(format!(
                            "set_deck: no `{}` is left in the draw or discard pile (one is in a hand: use set_hand)",
                            shown(id)
                        )));
                    }
                }
            }
            g.state.decks[deck as usize].draw.extend(taken.iter().rev());
            Ok(())
        });
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
        methods.add_method_mut("place_between", |_, g, (kind, seat, a, b): (String, LuaValue, LuaValue, LuaValue)| {
            let kind = g.piece_kind(&kind)?;
            let owner = match seat {
                LuaValue::Nil => NO_SEAT,
                v => g.seat(&v)?,
            };
            let (a, b) = (g.space(&a)?, g.space(&b)?);
            let rules = g.rules();
            let piece = crate::game::changes::place_piece_between(
                &rules,
                &mut g.state,
                &mut Events::discard(),
                kind,
                owner,
                a,
                b,
            )
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
            let to = g.space(&space)?;
            crate::game::changes::move_piece(&mut g.state, &mut Events::discard(), p as u32, to)
                .map_err(|e| runtime(e.to_string()))
        });
        methods.add_method_mut("set_inside", |_, g, (piece, holder): (usize, Option<usize>)| {
            let p = g.piece(piece)?;
            let h = match holder {
                Some(holder) => g.piece(holder)? as u32,
                None => crate::game::state::NO_PIECE,
            };
            let rules = g.rules();
            crate::game::changes::set_inside(&rules, &mut g.state, &mut Events::discard(), p as u32, h)
                .map_err(|e| runtime(e.to_string()))
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
        methods.add_method_mut("play", |lua, g, (level, limit): (String, Option<u64>)| {
            // Lets computer players of one level finish the game (or `limit` actions).
            let mut players: Vec<Box<dyn crate::ai::Player>> = (0..g.state.seats.len())
                .map(|i| crate::ai::player(&level, 7 + i as u64))
                .collect::<Result<_, _>>()
                .map_err(runtime)?;
            let mut taken = 0u64;
            while g.state.outcome.is_none() && taken < limit.unwrap_or(u64::MAX) {
                let seat = g.state.to_act();
                let action = players[seat as usize]
                    .decide(&mut g.engine, &g.state)
                    .map_err(|e| engine_error(lua, e.to_string(), e.is_out_of_time()))?;
                g.last_action = g.events.len();
                g.engine
                    .apply(&mut g.state, &action, &mut g.events)
                    .map_err(|e| engine_error(lua, e.to_string(), e.is_out_of_time()))?;
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
