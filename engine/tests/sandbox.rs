//! The Lua sandbox against a hostile mod (`fixtures/hostile`, whose `attacks.lua` holds the
//! attacks): escapes to files, processes, loaders, bytecode and the debug library; limits that
//! must hold however a script dodges them (pcall, xpcall, coroutines, `__close` however it is
//! spelled or smuggled in, finalizers, weak tables, string patterns, library calls on large
//! data); memory; recursion; values that hold themselves; randomness; the game API; and the
//! engine going on after every failure. Each attack runs in a hook during play, and
//! where it makes sense also while the hooks load and inside a scenario test.
//! `docs/security.md` says what this guarantees.
//!
//! Timing: the limits are counted, not timed, and stop a script within about 100 ms here; the
//! tests check that the stop came from a limit and names the line, and fail on time only past
//! [`HANG_GUARD`], so a slow machine passes. Run with `--nocapture` to see the measured times.

mod common;

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use common::write_mod;
use meeple_engine::game::state::ScriptValue;
use meeple_engine::game::{Action, Engine, Events, GameSetup, GameState};
use meeple_engine::loader::load_mod;
use meeple_engine::lua::sandbox;
use meeple_engine::rules::Ruleset;
use meeple_engine::scenario::{TestLimits, run_mod_tests_within};

/// Far above the ~100 ms within which the limits stop a script: only a hang fails this.
const HANG_GUARD: Duration = Duration::from_secs(2);

/// A scenario test under the limits of one hook call.
const HOOK_LIMITS: TestLimits = TestLimits { instructions: sandbox::INSTRUCTION_LIMIT, watchdog: sandbox::WATCHDOG };

/// Endless loops, plain and dodging the limit.
const LOOPS: &[&str] = &[
    "endless_loop",
    "pcall_loop",
    "pcall_recursion",
    "xpcall_loop",
    "xpcall_handler_loop",
    "coroutine_loop",
    "coroutine_resume_loop",
    "coroutine_many",
];

/// Work done inside single library calls: patterns that backtrack, searches, copies, moves.
const LIBRARY_WORK: &[&str] = &[
    "pattern_find",
    "pattern_method",
    "pattern_gsub",
    "pattern_gmatch",
    "pattern_number_subject",
    "plain_find",
    "rep_loop",
    "pack_loop",
    "insert_loop",
    "insert_long",
    "move_far",
    "sort_loop",
];

/// Single library calls that convert, or make, much data: stopped by the count of that work
/// (the error says `(in …)`), not by the clock long after.
const COUNTED_CALLS: &[&str] = &[
    "tonumber_loop",
    "string_arithmetic_loop",
    "byte_loop",
    "unpack_loop",
    "select_loop",
    "concat_result_loop",
    "gsub_result_loop",
    "format_result_loop",
];

/// Every way to give a metatable `__close`, `__mode` or `__gc` after `setmetatable` checked it.
const SEALED_METATABLES: &[&str] = &[
    "close_setmetatable",
    "close_added_later",
    "close_rawset",
    "close_inherited",
    "close_string",
    "close_string_rawset",
    "mode_added_later",
    "mode_rawset",
    "mode_inherited",
    "mode_newindex_removed",
    "mode_metatable_replaced",
    "mode_own_metatable",
    "gc_added_later",
];

fn fixture_folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile")
}

fn fixture_file(name: &str) -> String {
    std::fs::read_to_string(fixture_folder().join(name)).expect("fixture file")
}

fn hostile_rules() -> std::sync::Arc<Ruleset> {
    load_mod(&fixture_folder()).expect("the hostile fixture loads").ruleset
}

/// The line of `attacks.lua` marked `--@name`: where the error of attack `name` must point.
fn line_of(name: &str) -> usize {
    let marker = format!("--@{name}");
    let text = fixture_file("hooks/attacks.lua");
    let found = text.lines().position(|line| line.trim_end().ends_with(&marker));
    found.unwrap_or_else(|| panic!("attacks.lua marks no line {marker}")) + 1
}

/// Runs `work` on a thread of its own and fails if it has not finished in a minute: a hang
/// fails the test instead of blocking the run.
fn guarded<T: Send + 'static>(what: String, work: impl FnOnce() -> T + Send + 'static) -> T {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(work());
    });
    match receiver.recv_timeout(Duration::from_secs(60)) {
        Ok(value) => value,
        Err(RecvTimeoutError::Timeout) => panic!("{what} hung"),
        Err(RecvTimeoutError::Disconnected) => panic!("{what} panicked"),
    }
}

fn report(environment: &str, name: &str, elapsed: Duration) {
    println!("measured: {environment:<9} {name:<24} stopped after {:>7.1} ms", elapsed.as_secs_f64() * 1000.0);
    assert!(elapsed < HANG_GUARD, "{environment} {name}: took {elapsed:?}");
}

fn action(rules: &Ruleset, id: &str) -> Action {
    Action::rule(rules.action_index(id).expect("action exists") as u16, &[])
}

fn new_game(engine: &mut Engine, rules: &Ruleset) -> (GameState, Events) {
    let mut events = Events::recording();
    let state = engine.new_game(&GameSetup::new(rules, 1, 2, "human"), &mut events).expect("game starts");
    (state, events)
}

/// Plays the action `attack` with attack `name`; returns its error and how long it took. The
/// action must be refused, leave the state as it was byte for byte and drop its events; then
/// the next legal action works, and so does a harmless hook on the same Lua state.
fn play_attack(name: &'static str) -> (String, Duration) {
    guarded(format!("the hook attack {name}"), move || {
        let rules = hostile_rules();
        let mut engine = Engine::new(rules.clone()).expect("engine");
        let (mut state, mut events) = new_game(&mut engine, &rules);
        state.script_data.insert("attack".into(), ScriptValue::Text(name.into()));
        let before = serde_json::to_string(&state).expect("state serialises");
        let mark = events.len();

        let started = Instant::now();
        let result = engine.apply(&mut state, &action(&rules, "attack"), &mut events);
        let elapsed = started.elapsed();

        let error = match result {
            Err(error) => error.to_string(),
            Ok(()) => panic!("attack {name} succeeded"),
        };
        assert_eq!(serde_json::to_string(&state).unwrap(), before, "{name}: a refused action changed the state");
        assert_eq!(events.len(), mark, "{name}: a refused action left events");
        engine.apply(&mut state, &action(&rules, "calm"), &mut events).expect("the next action works");
        state.script_data.insert("attack".into(), ScriptValue::Text("harmless".into()));
        engine.apply(&mut state, &action(&rules, "attack"), &mut events).expect("the Lua state still works");
        assert_eq!(state.script_data.get("harmless"), Some(&ScriptValue::Int(1)));
        (error, elapsed)
    })
}

/// Loads the fixture with `run_attack(name)` at the end of its hook file; returns the
/// problem's file, line and message, and how long loading took.
fn load_attack(name: &'static str) -> ((String, u32, String), Duration) {
    guarded(format!("loading with attack {name}"), move || {
        let hooks = format!("{}\nrun_attack(\"{name}\")\n", fixture_file("hooks/attacks.lua"));
        let (manifest, data) = (fixture_file("mod.toml"), fixture_file("data.toml"));
        let folder = write_mod(
            "hostile",
            &[
                ("mod.toml", manifest.as_bytes()),
                ("data.toml", data.as_bytes()),
                ("hooks/attacks.lua", hooks.as_bytes()),
            ],
        );
        let started = Instant::now();
        let result = load_mod(&folder);
        let elapsed = started.elapsed();
        let problems = match result {
            Err(problems) => problems,
            Ok(_) => panic!("loading with attack {name} succeeded"),
        };
        assert_eq!(problems.len(), 1, "{problems:?}");
        let problem = &problems[0];
        ((problem.file.clone().unwrap_or_default(), problem.line, problem.message.clone()), elapsed)
    })
}

/// Runs `code` as a scenario test file under `limits`; returns the failure.
fn scenario_failure(file_name: &str, code: String, limits: TestLimits) -> (String, Duration) {
    let what = format!("the scenario test {file_name}");
    let file = std::env::temp_dir().join(format!("meeple-sandbox-{}-{file_name}", std::process::id()));
    std::fs::write(&file, code).expect("write the test file");
    guarded(what, move || {
        let rules = hostile_rules();
        let started = Instant::now();
        let results = run_mod_tests_within(&rules, &[file], &[], None, limits);
        let elapsed = started.elapsed();
        assert_eq!(results.len(), 1, "{results:?}");
        (results[0].failure.clone().expect("the test fails"), elapsed)
    })
}

/// Runs attack `name` inside a scenario test (the attacks file followed by the test), under the
/// limits of a hook call.
fn scenario_attack(name: &str) -> (String, Duration) {
    let code =
        format!("{}\ntest(\"{name}\", function() run_attack(\"{name}\") end)\n", fixture_file("hooks/attacks.lua"));
    scenario_failure(&format!("{name}.lua"), code, HOOK_LIMITS)
}

/// Checks that attack `name` was stopped by a limit, at its marked line, in all three places.
fn assert_stopped_everywhere(name: &'static str, also_at_load_time: bool) {
    let line = line_of(name);
    let (error, elapsed) = play_attack(name);
    assert!(error.contains(&format!("hostile/hooks/attacks.lua:{line}: ")), "hook {name}: {error}");
    assert!(error.contains("and was stopped"), "hook {name}: {error}");
    report("hook", name, elapsed);

    if also_at_load_time {
        let ((file, at, message), elapsed) = load_attack(name);
        assert!(file.ends_with("hooks/attacks.lua") && at as usize == line, "load {name}: {file}:{at}: {message}");
        assert!(message.contains("and was stopped"), "load {name}: {message}");
        report("load", name, elapsed);
    }

    let (failure, elapsed) = scenario_attack(name);
    assert!(failure.contains(&format!("{name}.lua:{line}: ")), "scenario {name}: {failure}");
    assert!(failure.contains("and was stopped"), "scenario {name}: {failure}");
    report("scenario", name, elapsed);
}

#[test]
fn no_library_loader_or_debug_function_is_reachable() {
    let line = line_of("escapes");
    let (error, _) = play_attack("escapes");
    assert!(error.ends_with(&format!("hostile/hooks/attacks.lua:{line}: no escape")), "{error}");
    let ((_, at, message), _) = load_attack("escapes");
    assert_eq!((at as usize, message.as_str()), (line, "no escape"));
    // A scenario test has a `print` of its own, which writes only to the test's output: the
    // attack, which looks for Lua's, is run without it.
    let (failure, _) = scenario_attack("escapes");
    assert!(failure.ends_with(": reachable: print"), "{failure}");
    let code = format!(
        "{}\ntest(\"escapes\", function() print = nil run_attack(\"escapes\") end)\n",
        fixture_file("hooks/attacks.lua")
    );
    let (failure, _) = scenario_failure("escapes.lua", code, HOOK_LIMITS);
    assert!(failure.ends_with(&format!("escapes.lua:{line}: no escape")), "{failure}");
}

#[test]
fn endless_loops_are_stopped_by_the_limits_however_they_hide() {
    for name in LOOPS {
        assert_stopped_everywhere(name, true);
    }
}

#[test]
fn work_inside_library_calls_counts_against_the_limits() {
    for name in LIBRARY_WORK {
        assert_stopped_everywhere(name, false);
    }
}

#[test]
fn a_memory_bomb_stops_at_the_memory_limit() {
    // A bomb in one call is refused before it allocates, and the error names its line.
    for name in ["memory_string", "memory_caught"] {
        let (error, elapsed) = play_attack(name);
        let expected = format!("attacks.lua:{}: the script used more than 64 MiB of memory", line_of(name));
        assert!(error.contains(&expected), "{name}: {error}");
        report("hook", name, elapsed);
        let ((_, _, message), elapsed) = load_attack(name);
        assert!(message.contains("the script used more than 64 MiB of memory"), "load {name}: {message}");
        report("load", name, elapsed);
    }
    // Filling 64 MiB step by step takes a few thousand instructions (`..` is one instruction
    // however long its strings): the memory limit stops it, however slow the machine, since no
    // limit of a hook is timed.
    for name in ["memory_doubling", "memory_table"] {
        let (error, elapsed) = play_attack(name);
        assert!(error.contains("the script used more than 64 MiB of memory"), "{name}: {error}");
        report("hook", name, elapsed);
        let (failure, elapsed) = scenario_attack(name);
        assert!(failure.contains("the script used more than 64 MiB of memory"), "scenario {name}: {failure}");
        report("scenario", name, elapsed);
    }
}

#[test]
fn deep_recursion_is_a_lua_error_not_a_crash() {
    let (error, elapsed) = play_attack("stack_overflow");
    // Stopped by its depth, counted: the same on every machine.
    assert!(error.contains(&format!("attacks.lua:{}: ", line_of("stack_overflow"))), "{error}");
    assert!(error.contains("stack overflow: calls were nested deeper than 2000 levels"), "{error}");
    report("hook", "stack_overflow", elapsed);
    let (error, _) = play_attack("c_stack_overflow");
    assert!(error.contains(&format!("attacks.lua:{}: C stack overflow", line_of("c_stack_overflow"))), "{error}");
}

/// A to-be-closed variable whose `__close` loops, run while the limit's own error unwinds: Lua
/// calls it with hooks off, so nothing could stop it. Such variables are refused where they are
/// written, in hook files, scenario tests and the console.
const CLOSE_AFTER_LIMIT: &str = "function attack_close()\n  local guard <close> = setmetatable({}, { __close = function() while true do end end })\n  while true do end\nend\n";
/// The same, spelled with form feeds around `close`, which Lua reads as spaces.
const CLOSE_WITH_FORM_FEEDS: &str = "function attack_close()\n  local guard <\x0cclose\x0c> = nil\n  coroutine.wrap(function() local inner < --\n close> = nil while true do end end)()\nend\n";

#[test]
fn to_be_closed_variables_are_refused_where_they_are_written() {
    for attack in [CLOSE_AFTER_LIMIT, CLOSE_WITH_FORM_FEEDS] {
        let (manifest, data) = (fixture_file("mod.toml"), fixture_file("data.toml"));
        let hooks = format!("{}\n{attack}", fixture_file("hooks/attacks.lua"));
        let line = hooks.lines().position(|l| l.contains("local guard")).unwrap() + 1;
        let folder = write_mod(
            "hostile",
            &[
                ("mod.toml", manifest.as_bytes()),
                ("data.toml", data.as_bytes()),
                ("hooks/attacks.lua", hooks.as_bytes()),
            ],
        );
        let problems = guarded("loading a `<close>`".into(), move || load_mod(&folder).expect_err("refused"));
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].file.as_deref().is_some_and(|f| f.ends_with("hostile/hooks/attacks.lua")), "{problems:?}");
        assert_eq!(problems[0].line, line as u32);
        assert!(
            problems[0].message.contains("to-be-closed variables (`<close>`) are not available to mods"),
            "{problems:?}"
        );

        let test = format!("{attack}test(\"close\", function() attack_close() end)\n");
        let (failure, elapsed) = scenario_failure("close.lua", test, HOOK_LIMITS);
        assert!(failure.contains("close.lua:2: to-be-closed variables"), "{failure}");
        assert!(elapsed < HANG_GUARD);

        let rules = hostile_rules();
        let mut engine = Engine::new(rules.clone()).expect("engine");
        let (mut state, mut events) = new_game(&mut engine, &rules);
        let mut console = meeple_engine::lua::HookRuntime::new(rules.clone()).expect("console");
        let input = attack.replace('\n', " ");
        let refused = console.eval(&input, &mut state, &mut events).expect_err("refused");
        assert!(refused.contains("console:1: to-be-closed variables"), "{refused}");
    }
}

/// `local … <close>` spelled every way Lua reads it; the `local` is on line 2 of each.
const CLOSE_SPELLINGS: &[&str] = &[
    "local x = 1\nlocal a <close> = nil",
    "local x = 1\nlocal a<close>",
    "local x = 1\nlocal a <\x0cclose\x0c> = nil",
    "local x = 1\nlocal a <\x0bclose\x0b> = nil",
    "local x = 1\nlocal a <\rclose> = nil",
    "local x = 1\nlocal a\t<\t--\nclose\n> = nil",
    "local x = 1\nlocal a <--[[ a comment ]]close--[==[\n]==]> = nil",
    "local x = 1\nlocal a <--[=[\n]=]close> = nil",
    "local x = 1\nlocal a <close>, b = nil",
    "local x = 1\nlocal a, b <close> = 1, nil",
    "local x = 1\nlocal a <const>, b <close> = 1, nil",
    "local x = [[\n]] local a <close> = nil",
    "local x = '\\z\n  ' local a <close> = nil",
    "local x = 1\nfor _ = 1, 1 do local a <close> = nil end",
];

/// Text that only looks like a to-be-closed variable.
const NOT_CLOSE: &[&str] = &[
    "local a <const> = 1 return a",
    "local a, b <const> = 1, 2 return a + b",
    "local a, close, b = 1, 2, 3 return a < close, close > b",
    "local s = '<close>' -- local a <close> = nil\nreturn s",
    "local s = \"\\\"local a <close>\" return s",
    "local s = \"\\z\n  local a <close>\" return s",
    "local s = [==[ local a <close> = nil ]] ]==] return s",
    "--[[ local a <close> = nil ]] return 1",
    "local function close() return 1 end return close()",
];

#[test]
fn to_be_closed_variables_are_refused_however_they_are_spelled() {
    let (lua, _budget) = sandbox::new_state().expect("sandbox");
    let plain = mlua::Lua::new();
    for text in CLOSE_SPELLINGS {
        // Lua itself reads each as a to-be-closed variable, not as a mistake.
        assert!(plain.load(*text).into_function().is_ok(), "{text:?} is not Lua");
        assert_eq!(sandbox::close_attribute_line(text), Some(2), "{text:?}");
        let error = sandbox::compile(&lua, text, "@spelled.lua").expect_err(text);
        let message = sandbox::error_text(&error);
        assert!(message.starts_with("spelled.lua:2: to-be-closed variables (`<close>`)"), "{text:?}: {message}");
    }
    for text in NOT_CLOSE {
        assert_eq!(sandbox::close_attribute_line(text), None, "{text:?}");
        sandbox::compile(&lua, text, "@fine.lua").unwrap_or_else(|e| panic!("{text:?}: {e}"));
    }
}

#[test]
fn no_metatable_ever_holds_gc_mode_or_close() {
    for name in SEALED_METATABLES {
        let (error, elapsed) = play_attack(name);
        assert!(error.contains(&format!("attacks.lua:{}: ", line_of(name))), "{name}: {error}");
        assert!(error.contains("is not available to mods"), "{name}: {error}");
        report("hook", name, elapsed);
    }
}

#[test]
fn a_coroutine_stopped_by_a_limit_never_runs_lua_again() {
    // Lua closes a coroutine made by `coroutine.wrap` as its error leaves it; a closing value
    // in it would run with hooks off. Every way to make one was refused, so the stop holds.
    let name = "close_in_coroutine";
    let (error, elapsed) = play_attack(name);
    assert!(error.contains(&format!("attacks.lua:{}: ", line_of(name))), "{error}");
    assert!(error.contains("and was stopped"), "{error}");
    report("hook", name, elapsed);
    let (failure, elapsed) = scenario_attack(name);
    assert!(failure.contains("and was stopped"), "{failure}");
    report("scenario", name, elapsed);

    // A stopped coroutine kept in a global, closed and collected in the next call.
    let elapsed = guarded("closing a stopped coroutine".into(), || {
        let rules = hostile_rules();
        let mut engine = Engine::new(rules.clone()).expect("engine");
        let (mut state, mut events) = new_game(&mut engine, &rules);
        state.script_data.insert("attack".into(), ScriptValue::Text("coroutine_kept".into()));
        let error = engine.apply(&mut state, &action(&rules, "attack"), &mut events).expect_err("stopped");
        assert!(error.to_string().contains(&format!("attacks.lua:{}: ", line_of("coroutine_kept"))), "{error}");
        assert!(error.to_string().contains("and was stopped"), "{error}");
        state.script_data.insert("attack".into(), ScriptValue::Text("coroutine_kept_closed".into()));
        let started = Instant::now();
        engine.apply(&mut state, &action(&rules, "attack"), &mut events).expect("closing runs nothing");
        assert_eq!(state.script_data.get("kept_coroutine"), Some(&ScriptValue::Text("false dead".into())));
        started.elapsed()
    });
    report("hook", "coroutine_kept_closed", elapsed);
}

#[test]
fn finalizers_and_weak_tables_are_refused() {
    for name in ["gc_finalizer", "weak_table"] {
        let (error, _) = play_attack(name);
        let expected = format!("attacks.lua:{}: setmetatable: __", line_of(name));
        assert!(error.contains(&expected) && error.contains("is not available to mods"), "{name}: {error}");
    }
}

#[test]
fn the_game_api_keeps_only_small_finite_plain_data() {
    let cases = [
        ("put_shared_tree", "game.put: the game's kept data would pass 1024 KiB"),
        ("put_nan", "game.put: NaN cannot be kept (only finite numbers)"),
        ("put_huge", "game.put: the game's kept data would pass 1024 KiB"),
        ("put_many", "game.put: the game's kept data would pass 1024 KiB"),
        ("put_wide", "game.put: the game's kept data would pass 1024 KiB"),
        ("put_cycle", "game.put: the table holds itself (a cycle)"),
        ("log_huge", "and was stopped (in game.log)"),
    ];
    for (name, expected) in cases {
        let (error, elapsed) = play_attack(name);
        assert!(error.contains(&format!("attacks.lua:{}: ", line_of(name))), "{name}: {error}");
        assert!(error.contains(expected), "{name}: {error}");
        report("hook", name, elapsed);
    }
}

#[test]
fn a_misused_wrapped_function_names_the_mods_line() {
    let (error, _) = play_attack("bad_argument");
    let expected = format!("attacks.lua:{}: bad argument #1 to 'rep'", line_of("bad_argument"));
    assert!(error.contains(&expected), "{error}");
    // Caught by the mod and raised again: the message it caught names its line too.
    for (name, expected) in [
        ("pcall_location", "bad argument #1 to 'rep'"),
        ("xpcall_location", "bad argument #2 to 'format'"),
        ("coroutine_location", "bad argument #1 to 'rep'"),
    ] {
        let (error, _) = play_attack(name);
        assert!(error.contains(&format!("attacks.lua:{}: {expected}", line_of(name))), "{name}: {error}");
        assert!(!error.contains("[sandbox]"), "{name}: {error}");
    }
}

/// Runs attack `name` in a bare sandbox whose budget counts instructions only, no time: the
/// error then shows what the count alone stopped, however loaded the machine is.
fn counted_attack(name: &'static str) -> (String, Duration) {
    guarded(format!("the counted attack {name}"), move || {
        let (lua, budget) = sandbox::new_state().expect("sandbox");
        budget.start();
        let attacks = fixture_file("hooks/attacks.lua");
        sandbox::compile(&lua, &attacks, "@hostile/hooks/attacks.lua").and_then(|f| f.call::<()>(())).expect("loads");
        let run: mlua::Function = lua.globals().get("run_attack").expect("run_attack");
        budget.start_counting_only();
        let started = Instant::now();
        let error = run.call::<()>(name).expect_err("stopped");
        (sandbox::error_text(&error), started.elapsed())
    })
}

#[test]
fn single_calls_that_convert_or_make_much_data_are_counted() {
    for name in COUNTED_CALLS {
        let line = line_of(name);
        // Stopped where the work is counted, before the call that would pass the limit.
        let (error, elapsed) = counted_attack(name);
        assert!(error.starts_with(&format!("hostile/hooks/attacks.lua:{line}: ")), "counted {name}: {error}");
        assert!(error.contains("instructions and was stopped (in "), "counted {name}: {error}");
        report("counted", name, elapsed);
        // And so in a hook and a scenario test, by the same count.
        let (error, elapsed) = play_attack(name);
        assert!(error.contains(&format!("attacks.lua:{line}: ")), "hook {name}: {error}");
        assert!(error.contains("and was stopped"), "hook {name}: {error}");
        report("hook", name, elapsed);
        let (failure, elapsed) = scenario_attack(name);
        assert!(failure.contains(&format!("{name}.lua:{line}: ")), "scenario {name}: {failure}");
        assert!(failure.contains("and was stopped"), "scenario {name}: {failure}");
        report("scenario", name, elapsed);
    }
}

#[test]
fn values_that_hold_themselves_or_nest_deeply_are_shown_cut() {
    // `game.log` of a table holding itself and of one nested 100 000 levels deep, and of
    // thousands of tables at once (shown within one budget for the line).
    let logged = |name: &'static str| {
        guarded(format!("logging {name}"), move || {
            let rules = hostile_rules();
            let mut engine = Engine::new(rules.clone()).expect("engine");
            let (mut state, mut events) = new_game(&mut engine, &rules);
            state.script_data.insert("attack".into(), ScriptValue::Text(name.into()));
            engine.apply(&mut state, &action(&rules, "attack"), &mut events).expect("logging works");
            events.list().iter().rev().find_map(|event| match event {
                meeple_engine::game::Event::Log { text } => Some(text.clone()),
                _ => None,
            })
        })
    };
    assert_eq!(logged("log_cycle").as_deref(), Some("{1, <cycle>} {{{{{{{…}}}}}}}"));
    let many = logged("log_many").expect("logged");
    // Each value is shown cut, and the line is kept cut at 4 KiB with its length.
    assert!(many.starts_with("{1, {1, {1}}} {2, {2, {2}}}") && many.ends_with(" bytes)"), "{many:.100}");
    assert!(many.len() < 4_200, "{} bytes", many.len());

    // The same in an error message about an argument, and in the console.
    let (error, _) = play_attack("argument_cycle");
    let expected = format!(
        "attacks.lua:{}: owner: expected a space (1..2 or a label), got {{1, <cycle>}}",
        line_of("argument_cycle")
    );
    assert!(error.contains(&expected), "{error}");
    let shown = guarded("the console".into(), || {
        let rules = hostile_rules();
        let mut engine = Engine::new(rules.clone()).expect("engine");
        let (mut state, mut events) = new_game(&mut engine, &rules);
        let mut console = meeple_engine::lua::HookRuntime::new(rules.clone()).expect("console");
        let code = "(function() local t = { 1, { 'a' } } t[2][2] = t return t, string.rep('y', 100) end)()";
        console.eval(code, &mut state, &mut events).expect("shown")
    });
    assert_eq!(shown, format!("{{1, {{\"a\", <cycle>}}}}\t\"{}\"… (100 bytes)", "y".repeat(48)));

    // Errors raised with a value that is not a message say what was raised, and where.
    for (name, what) in [("error_table", "a table"), ("error_nil", "nothing (nil)")] {
        let (error, _) = play_attack(name);
        let expected = format!("attacks.lua:{}: the script raised {what} as an error, not a message", line_of(name));
        assert!(error.contains(&expected), "{name}: {error}");
    }

    // `expect_eq` of scenario tests compares and shows such tables at the test's own line.
    let test = "test(\"cycles\", function()\n  local a = { 1 } a[2] = a\n  local b = { 1 } b[2] = b\n  expect_eq(a, b)\n  expect_eq(a, { 1, { 2 } })\nend)\ntest(\"deep\", function()\n  local d, e = {}, {}\n  for _ = 1, 100000 do d, e = { d }, { e } end\n  expect_eq(d, e)\nend)\n";
    let file = std::env::temp_dir().join(format!("meeple-sandbox-{}-expect_cycle.lua", std::process::id()));
    std::fs::write(&file, test).expect("write the test file");
    let results = guarded("expect_eq on cycles".into(), move || {
        run_mod_tests_within(&hostile_rules(), &[file], &[], None, TestLimits::DEFAULT)
    });
    let failures: Vec<String> = results.iter().map(|r| r.failure.clone().unwrap_or_default()).collect();
    assert!(failures[0].ends_with("expect_cycle.lua:5: expected {1, {2}}, got {1, <cycle>}"), "{failures:?}");
    assert!(
        failures[1].ends_with("expect_cycle.lua:10: expect_eq: the tables are nested deeper than 100 levels"),
        "{failures:?}"
    );
}

#[test]
fn long_names_and_messages_are_echoed_cut() {
    for name in ["long_label", "long_event", "long_error"] {
        let (error, elapsed) = play_attack(name);
        assert!(error.contains(&format!("attacks.lua:{}: ", line_of(name))), "{name}: {error}");
        assert!(error.contains("… (100") && error.contains(" bytes)"), "{name}: {error}");
        assert!(error.len() < 2_500, "{name}: {} bytes", error.len());
        report("hook", name, elapsed);
    }
}

#[test]
fn a_stopped_hook_refuses_the_action_and_the_game_goes_on() {
    // `play_attack` checks this for every attack; here it is spelled out once, for an endless
    // loop in an event handler as well as in a hook function.
    guarded("an endless loop in an event handler".into(), || {
        let handler = "\nmeeple.on(\"turn_end\", function() if game.get(\"loop_on_turn_end\") then run_attack(\"pcall_loop\") end end)\n";
        let hooks = format!("{}{handler}", fixture_file("hooks/attacks.lua"));
        let (manifest, data) = (fixture_file("mod.toml"), fixture_file("data.toml"));
        let folder = write_mod(
            "hostile",
            &[
                ("mod.toml", manifest.as_bytes()),
                ("data.toml", data.as_bytes()),
                ("hooks/attacks.lua", hooks.as_bytes()),
            ],
        );
        let rules = load_mod(&folder).expect("loads").ruleset;
        let mut engine = Engine::new(rules.clone()).expect("engine");
        let (mut state, mut events) = new_game(&mut engine, &rules);
        state.script_data.insert("loop_on_turn_end".into(), ScriptValue::Bool(true));
        let before = serde_json::to_vec(&state).unwrap();
        let hash = state.hash();
        let refused = engine.apply(&mut state, &Action::pass(), &mut events);
        let error = refused.expect_err("passing runs the looping handler").to_string();
        assert!(error.contains(&format!("attacks.lua:{}: ", line_of("pcall_loop"))), "{error}");
        assert!(error.contains("and was stopped"), "{error}");
        assert_eq!(serde_json::to_vec(&state).unwrap(), before);
        assert_eq!(state.hash(), hash);
        // The game goes on: the legal actions are as before, and taking one works.
        let mut legal = Vec::new();
        engine.legal_actions(&state, &mut legal).unwrap();
        assert!(legal.contains(&action(&rules, "calm")), "{legal:?}");
        engine.apply(&mut state, &action(&rules, "calm"), &mut events).expect("calm");
        state.script_data.remove("loop_on_turn_end");
        engine.apply(&mut state, &Action::pass(), &mut events).expect("passing works once the handler is quiet");
        assert_eq!(state.turn.seat, 1);
    });
}

#[test]
fn replaced_globals_and_metatables_fool_only_the_mod() {
    guarded("the hijack".into(), || {
        let rules = hostile_rules();
        let mut engine = Engine::new(rules.clone()).expect("engine");
        let (mut state, mut events) = new_game(&mut engine, &rules);
        state.script_data.insert("attack".into(), ScriptValue::Text("hijack".into()));
        // Tricks on the shared string metatable and the API tables only fool the mod's own code;
        // replacing a global is refused at its line (globals are frozen once the hooks load),
        // and the action is rolled back.
        let hash = state.hash();
        let error =
            engine.apply(&mut state, &action(&rules, "attack"), &mut events).expect_err("a global cannot be replaced");
        assert!(error.to_string().contains("attacks.lua:455"), "{error}");
        assert!(error.to_string().contains("the global `pcall`"), "{error}");
        assert_eq!(state.hash(), hash);
        // The mod's own functions are still there: the engine calls what it found when loading.
        state.script_data.insert("attack".into(), ScriptValue::Text("harmless".into()));
        engine.apply(&mut state, &action(&rules, "attack"), &mut events).expect("run_attack is still there");
        engine.apply(&mut state, &action(&rules, "calm"), &mut events).expect("the game goes on");
        // Another engine has its own Lua state, untouched.
        let mut fresh = Engine::new(rules.clone()).expect("engine");
        let (mut state, mut events) = new_game(&mut fresh, &rules);
        state.script_data.insert("attack".into(), ScriptValue::Text("harmless".into()));
        fresh.apply(&mut state, &action(&rules, "attack"), &mut events).expect("a fresh state is whole");
    });
}

#[test]
fn pairs_visits_keys_in_one_order_in_every_lua_state() {
    let orders: Vec<ScriptValue> = (0..5)
        .map(|_| {
            guarded("pairs".into(), || {
                let rules = hostile_rules();
                let mut engine = Engine::new(rules.clone()).expect("engine");
                let (mut state, mut events) = new_game(&mut engine, &rules);
                state.script_data.insert("attack".into(), ScriptValue::Text("pairs_order".into()));
                engine.apply(&mut state, &action(&rules, "attack"), &mut events).expect("pairs_order runs");
                state.script_data["order"].clone()
            })
        })
        .collect();
    let expected = ScriptValue::Text("1 2.5 3 alpha beta delta epsilon eta gamma theta zeta".into());
    assert!(orders.iter().all(|order| *order == expected), "{orders:?}");
}

#[test]
fn lua_bytecode_is_never_loaded() {
    // Text that starts like a binary chunk.
    let (manifest, data) = (fixture_file("mod.toml"), fixture_file("data.toml"));
    let fake = "\x1bLua\nreturn 1\n";
    let folder = write_mod(
        "hostile",
        &[("mod.toml", manifest.as_bytes()), ("data.toml", data.as_bytes()), ("hooks/binary.lua", fake.as_bytes())],
    );
    let problems = load_mod(&folder).expect_err("a binary chunk is refused");
    assert!(problems.iter().any(|p| p.message.contains("attempt to load a binary chunk")), "{problems:?}");

    // Real bytecode, made by an unsandboxed Lua.
    let unsandboxed = mlua::Lua::new();
    let dumped: mlua::LuaString =
        unsandboxed.load("return string.dump(function() return 1 end)").eval().expect("string.dump");
    let bytecode = dumped.as_bytes().to_vec();
    let folder = write_mod(
        "hostile",
        &[("mod.toml", manifest.as_bytes()), ("data.toml", data.as_bytes()), ("hooks/binary.lua", &bytecode)],
    );
    assert!(load_mod(&folder).is_err(), "bytecode is refused");

    // A scenario test file is text too.
    let (failure, _) = scenario_failure("binary.lua", fake.to_string(), HOOK_LIMITS);
    assert!(failure.contains("attempt to load a binary chunk"), "{failure}");
}

#[test]
fn scenario_tests_cannot_exhaust_the_runner() {
    let cases = [
        ("seats.lua", "scenario.new{ seats = 1000000000000 }", "this game takes 2 to 2 seats, not 1000000000000"),
        (
            "shared.lua",
            "local g = scenario.new{}\nlocal t = { action = \"calm\" }\nfor _ = 1, 60 do t = { t, t } end\ng:act(t)",
            "an action: the table is too large or too deep",
        ),
        (
            "deep.lua",
            "local g = scenario.new{}\nlocal t = {}\nfor _ = 1, 100000 do t = { t } end\ng:act(t)",
            "an action: the table is too large or too deep",
        ),
        (
            "cycle.lua",
            "local g = scenario.new{}\nlocal t = { action = \"calm\" }\nt.self = t\ng:act(t)",
            "an action: the table holds itself (a cycle)",
        ),
        // The game's userdata keeps its metatable to itself.
        (
            "userdata.lua",
            "local g = scenario.new{}\nerror(\"metatable \" .. tostring(getmetatable(g)))",
            "metatable false",
        ),
    ];
    for (file_name, body, expected) in cases {
        let code = format!("test(\"{file_name}\", function()\n{body}\nend)\n");
        // Instructions to spare, so that building the tables is not what stops the test.
        let (failure, elapsed) = scenario_failure(file_name, code, TestLimits::DEFAULT);
        assert!(failure.contains(expected), "{file_name}: {failure}");
        assert!(elapsed < HANG_GUARD, "{file_name}: {elapsed:?}");
    }
}

#[test]
fn wrapped_library_functions_answer_as_lua_does() {
    // The wrappers only count and refuse; what the functions return is Lua's own answer.
    let expressions = [
        r#"string.find("hello world", "o w")"#,
        r#"string.find("hello world", "o", -3)"#,
        r#"string.find("a.b", ".", 1, true)"#,
        r#"string.find("key = value", "^(%w+)%s*=%s*(%w+)$")"#,
        r#"string.find(12345, 3)"#,
        r#"string.match("f(a(b)c) d", "%b()")"#,
        r#"string.match("THE (quick) fox", "%f[%a]%a+", 5)"#,
        r#"string.match("abcabc", "(a)(b)()c%1")"#,
        r#"("x=1, y=2"):gsub("(%w+)=(%w+)", "%2=%1")"#,
        r#"string.gsub("abc", "", "-")"#,
        r#"string.gsub("hello", "l", { l = "L" }, 1)"#,
        r#"string.gsub("abc", "%w", function(c) return c:upper() .. "." end)"#,
        r#"(function() local t = {} for k, v in string.gmatch("a=1, b=2", "(%w+)=(%w+)") do t[#t + 1] = k .. v end return table.concat(t, ",") end)()"#,
        r#"(function() local t = {} for w in ("one two"):gmatch("%a*") do t[#t + 1] = "[" .. w .. "]" end return table.concat(t) end)()"#,
        r#"string.rep("ab", 3, ",")"#,
        r#"string.rep("ab", 0)"#,
        r#"("hello"):sub(-3), ("hello"):sub(2, 100), ("hello"):sub(0)"#,
        r#"string.format("%5.2f|%q|%s", 3.14159, "a\nb", "x")"#,
        r#"string.upper("abc"), string.lower("ABC"), string.reverse("abc")"#,
        r#"utf8.len("héllo"), utf8.offset("héllo", 3)"#,
        r#"(function() local t = { 1, 2, 3 } table.insert(t, 4) table.insert(t, 1, 0) return table.concat(t, ",") end)()"#,
        r#"(function() local t = { 1, 2, 3 } local r = table.remove(t) local s = table.remove(t, 1) return r, s, #t end)()"#,
        r#"table.concat(table.move({ 1, 2, 3 }, 1, 3, 2), ",")"#,
        r#"(function() local t = { 3, 1, 2 } table.sort(t) table.sort(t, function(a, b) return a > b end) return table.concat(t, ",") end)()"#,
        r#"table.concat({ 1, 2, 3, 4 }, "-", 2, 3)"#,
        r#"(function() local t = {} for k, v in pairs({ 10, 20, 30 }) do t[#t + 1] = k .. "=" .. v end return table.concat(t, " ") end)()"#,
        r#"pcall(error, "x", 0)"#,
        r##"pcall(function(...) return select("#", ...) end, 1, nil, 3)"##,
        r#"xpcall(function() error("boom", 0) end, function(e) return "handled " .. e end)"#,
        r#"coroutine.wrap(function(a) local b = coroutine.yield(a + 1) return b * 2 end)(1)"#,
        r#"(function() local f = coroutine.wrap(function() return pcall(coroutine.yield, 1) end) return f(), f(2) end)()"#,
        r#"(function() local co = coroutine.create(function() coroutine.yield(1) end) local a, b = coroutine.resume(co) return a, b, coroutine.close(co) end)()"#,
        r#"getmetatable(setmetatable({}, { __index = { x = 1 } })).__index.x"#,
        // Functions wrapped to count their work.
        r#"string.byte("hello", 2, 4), string.byte("hello", -1), string.byte("hello", 10, 20), ("abc"):byte()"#,
        r#"string.char(104, 105), utf8.char(72, 233, 8364), utf8.codepoint("héllo", 1, -1)"#,
        r#"table.unpack({ 1, 2, 3 }), table.unpack({ 1, 2, 3 }, 2), table.unpack({ 1, 2, 3 }, 2, 5)"#,
        r##"select("#", 1, nil, 3), select(2, "a", "b", "c"), select(-1, "a", "b")"##,
        r#"tonumber("0x10"), tonumber("z", 36), tonumber("  12  "), tonumber("1e2"), tonumber({})"#,
        r#""10" + 1, "3" * "4", -"2", "7" // 2, "2" ^ 3, "7" % "4", "1" - 1, "9" / 3"#,
        r#"pcall(function() return "a" + 1 end)"#,
        r#"select(2, pcall(function() local r = string.byte() return r end))"#,
        r#"select(2, pcall(function() local r = tonumber() return r end))"#,
        r#"select(2, pcall(function() local r = select() return r end))"#,
        r#"select(2, pcall(function() local r = utf8.codepoint("abc", 1, 10) return r end))"#,
        r#"select(2, pcall(function() local r = table.unpack() return r end))"#,
        r#"pcall(setmetatable), pcall(getmetatable), pcall(rawset, {}, nil, 1), pcall(setmetatable, {}, 1)"#,
        r#"string.format("%s|%5s|%-3d|", setmetatable({}, { __tostring = function() return "T" end }), "ab", 7)"#,
        // Metatable idioms, with the metatables sealed: classes, methods added later,
        // inheritance set before or after a class is used, and the class table's own
        // metamethods forwarded to the metatable the mod gave it.
        r#"(function() local C = {} C.__index = C function C.new(x) return setmetatable({ x = x }, C) end local o = C.new(3) function C:double() return self.x * 2 end return o:double(), getmetatable(o) == C, rawequal(getmetatable(o), C), getmetatable(C) end)()"#,
        r#"(function() local Base = {} Base.__index = Base function Base:name() return "base" end function Base:kind() return "thing" end local Derived = setmetatable({}, { __index = Base }) Derived.__index = Derived function Derived:name() return "derived" end local d = setmetatable({}, Derived) return d:name(), d:kind(), getmetatable(Derived).__index == Base, getmetatable(d) == Derived end)()"#,
        r#"(function() local Base = { greet = function() return "hi" end } local D = {} D.__index = D local d = setmetatable({}, D) setmetatable(D, { __index = Base }) return d.greet(), getmetatable(D).__index == Base, rawget(D, "greet") end)()"#,
        r#"(function() local Meta = { __call = function(cls, v) return setmetatable({ v = v }, cls) end, __tostring = function() return "Class" end, __len = function() return 7 end, __add = function() return "added" end, __eq = function() return true end, __lt = function() return true end, __le = function() return false end, __concat = function() return "joined" end, __unm = function() return "negated" end, __idiv = function() return "divided" end, __band = function() return "anded" end } local Class = setmetatable({}, Meta) Class.__index = Class local o = Class(5) local Other = setmetatable({}, Meta) return o.v, tostring(Class), #Class, Class + 1, 1 + Class, Class == Other, Class < Other, Class <= Other, Class .. "x", -Class, Class // 2, Class & 1 end)()"#,
        r#"(function() local Class = setmetatable({}, { __index = {} }) setmetatable({}, Class) return pcall(function() return Class + 1 end), pcall(function() return Class < Class end), pcall(Class), #Class end)()"#,
        r#"(function() local log = {} local Parent = { __newindex = function(t, k, v) log[#log + 1] = k rawset(t, k, v) end } local C = setmetatable({}, Parent) setmetatable({}, C) C.method = 1 C.other = 2 C.method = 3 return table.concat(log, ","), rawget(C, "method") end)()"#,
        r#"(function() local C = setmetatable({}, { __metatable = "locked" }) setmetatable({}, C) return getmetatable(C), pcall(setmetatable, C, {}) end)()"#,
        r#"(function() local t = {} t.__index = function(_, k) return k .. "!" end setmetatable(t, t) return t.x, getmetatable(t) == t end)()"#,
        r#"(function() local Meta = { __pairs = function(t) return function(_, k) if not k then return 1, "one" end end, t, nil end } local C = setmetatable({}, Meta) setmetatable({}, C) local out = {} for k, v in pairs(C) do out[#out + 1] = k .. v end return table.concat(out) end)()"#,
        r#"(function() local D = setmetatable({}, { __index = { a = 1 } }) setmetatable({}, D) local before = D.a setmetatable(D, nil) return before, D.a, getmetatable(D) end)()"#,
        r#"(function() local mt = {} local t = setmetatable({}, mt) mt.__index = function() return "late" end return t.anything, pcall(setmetatable, {}), pcall(setmetatable, 1, {}), getmetatable("").__index == string, getmetatable(getmetatable("")) end)()"#,
    ];
    let (sandboxed, budget) = sandbox::new_state().expect("sandbox");
    let plain = mlua::Lua::new();
    let shown = |lua: &mlua::Lua, expression: &str| -> String {
        let code = format!(
            "local function show(...) local out = {{}} for i = 1, select('#', ...) do out[i] = tostring((select(i, ...))) end return table.concat(out, ' ') end\nreturn show({expression})"
        );
        lua.load(code).eval::<String>().unwrap_or_else(|e| format!("error: {e}"))
    };
    for expression in expressions {
        budget.start();
        assert_eq!(shown(&sandboxed, expression), shown(&plain, expression), "{expression}");
    }
}

/// The hostile fixture with one more attack: heavy work, all of it counted, well under the
/// limits (a million loop steps, about 4 million instructions).
fn rules_with_counted_work() -> std::sync::Arc<Ruleset> {
    let counted = "\nATTACKS.counted_work = function()\n  local sum = 0\n  for i = 1, 1000000 do sum = sum + i end\n  game.put(\"sum\", sum)\nend\n";
    let hooks = format!("{}{counted}", fixture_file("hooks/attacks.lua"));
    let (manifest, data) = (fixture_file("mod.toml"), fixture_file("data.toml"));
    let folder = write_mod(
        "hostile",
        &[("mod.toml", manifest.as_bytes()), ("data.toml", data.as_bytes()), ("hooks/attacks.lua", hooks.as_bytes())],
    );
    load_mod(&folder).expect("loads").ruleset
}

/// What an action with attack `name` does, with the watchdog set to `watchdog` while it runs
/// (the game starts with the usual one): its error (and whether the watchdog stopped it), or
/// the hash of the state after it.
fn outcome_of(rules: &std::sync::Arc<Ruleset>, name: &str, watchdog: Duration) -> Result<String, (String, bool)> {
    let mut engine = Engine::new(rules.clone()).expect("engine");
    let (mut state, mut events) = new_game(&mut engine, rules);
    state.script_data.insert("attack".into(), ScriptValue::Text(name.into()));
    let before = state.hash();
    let applied = sandbox::with_watchdog(watchdog, || engine.apply(&mut state, &action(rules, "attack"), &mut events));
    match applied {
        Ok(()) => Ok(state.hash_hex()),
        Err(error) => {
            assert_eq!(state.hash(), before, "{name}: a stopped action changed the state");
            Err((error.to_string(), error.is_out_of_time()))
        }
    }
}

/// No rule's result depends on the clock. The watchdog set to nothing stands in for a machine
/// infinitely slow: heavy but counted work then either gives the result it gives on an idle
/// machine or (when the watchdog looks) stops as "the machine was too slow", an error of its
/// own kind that ends the command or game — never a refused action or another result. A
/// runaway is stopped by the count, the same way, whatever the watchdog.
#[test]
fn no_rule_result_depends_on_the_clock() {
    guarded("the clock".into(), || {
        let rules = rules_with_counted_work();
        let idle = outcome_of(&rules, "counted_work", sandbox::WATCHDOG).expect("the counted work fits the limits");
        let slow = outcome_of(&rules, "counted_work", Duration::ZERO);
        let (message, out_of_time) = slow.expect_err("a machine infinitely slow meets the watchdog");
        assert!(out_of_time, "{message}");
        assert!(message.contains("the machine was too slow"), "{message}");
        assert!(message.contains("this is not a result of the game"), "{message}");
        // Unchanged when it has time: the same state, byte for byte, as before.
        assert_eq!(outcome_of(&rules, "counted_work", sandbox::WATCHDOG), Ok(idle));

        // A runaway meets the count first on a machine of any speed the watchdog allows.
        let (message, out_of_time) = outcome_of(&rules, "endless_loop", sandbox::WATCHDOG).expect_err("stopped");
        assert!(!out_of_time && message.contains("ran more than 5000000 instructions"), "{message}");

        // A scenario test stopped by the watchdog stops the run: it is not the test's failure.
        let code = "test(\"first\", function() local x = 0 for i = 1, 100000 do x = x + i end end)\ntest(\"second\", function() end)\n";
        let file = std::env::temp_dir().join(format!("meeple-sandbox-{}-watchdog.lua", std::process::id()));
        std::fs::write(&file, code).expect("write the test file");
        let limits = TestLimits { instructions: TestLimits::DEFAULT.instructions, watchdog: Duration::ZERO };
        let results = run_mod_tests_within(&rules, std::slice::from_ref(&file), &[], None, limits);
        assert_eq!(results.len(), 1, "the run stops at the first test: {results:?}");
        assert!(results[0].out_of_time, "{results:?}");
        assert!(results[0].failure.as_deref().is_some_and(|f| f.contains("the machine was too slow")), "{results:?}");
        // With time, both pass.
        let results = run_mod_tests_within(&rules, &[file], &[], None, TestLimits::DEFAULT);
        assert!(results.iter().all(|r| r.failure.is_none() && !r.out_of_time) && results.len() == 2, "{results:?}");
    });
}

/// Heavy counted work gives one result however busy the machine: the same action on four
/// threads at once, with two more burning the processor, on two cores.
#[test]
fn a_loaded_machine_plays_the_same_game() {
    let rules = rules_with_counted_work();
    let idle = outcome_of(&rules, "counted_work", sandbox::WATCHDOG).expect("fits the limits");
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let burners: Vec<_> = (0..2)
        .map(|_| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut x = 0u64;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
                }
            })
        })
        .collect();
    let players: Vec<_> = (0..4)
        .map(|_| {
            let rules = rules.clone();
            std::thread::spawn(move || {
                (0..5).map(|_| outcome_of(&rules, "counted_work", sandbox::WATCHDOG)).collect::<Vec<_>>()
            })
        })
        .collect();
    let outcomes: Vec<_> = players.into_iter().flat_map(|p| p.join().expect("no panic")).collect();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    burners.into_iter().for_each(|b| b.join().expect("no panic"));
    assert!(outcomes.iter().all(|o| *o == Ok(idle.clone())), "{outcomes:?}");
}

/// `game.put` keeps, and `game.get` gives back, exactly what it was given: integer keys stay
/// integers, arrays arrays, tables with both kinds of keys keep both, floats stay floats; and so
/// after a save and a load. What cannot be kept is refused at the line that tried.
#[test]
fn kept_data_comes_back_exactly_as_it_was_stored() {
    let rules = hostile_rules();
    let mut engine = Engine::new(rules.clone()).expect("engine");
    let (mut state, mut events) = new_game(&mut engine, &rules);
    let mut console = meeple_engine::lua::HookRuntime::new(rules.clone()).expect("console");
    // Deep equality that tells integers from floats and checks keys both ways.
    let same = "function same(a, b) if type(a) ~= type(b) or math.type(a) ~= math.type(b) then return false end \
                if type(a) ~= 'table' then return a == b end \
                for k, v in pairs(a) do if not same(v, b[k]) then return false end end \
                for k in pairs(b) do if a[k] == nil then return false end end return true end";
    console.eval(same, &mut state, &mut events).expect("defines same");
    let shapes = [
        ("nested", "{ [2] = { [3] = 6 } }"),
        ("array", "{ 10, 20, 30 }"),
        ("empty", "{}"),
        ("both_kinds", "{ [1] = 'integer one', ['1'] = 'text one' }"),
        ("array_and_names", "{ 1, 2, x = 'y' }"),
        ("sparse", "{ [-5] = 1, [0] = 2, [100] = 3 }"),
        ("floats", "{ a = { b = { c = 1.5 } }, whole = 2.0, big = 2^53 }"),
        ("marker", "{ ['$table'] = { 1 } }"),
        ("extremes", "{ [math.maxinteger] = 1, [math.mininteger] = 2 }"),
        ("text", "{ 'a\\0b', 'é', true, false }"),
        ("lists_of_lists", "{ { 1, { 2, { 3 } } }, { [4] = 4 } }"),
        ("number", "42"),
        ("float", "0.25"),
    ];
    for (key, shape) in shapes {
        console.eval(&format!("game.put('{key}', {shape})"), &mut state, &mut events).expect(shape);
        let back = console.eval(&format!("same(game.get('{key}'), {shape})"), &mut state, &mut events);
        assert_eq!(back.as_deref(), Ok("true"), "{shape}");
    }
    assert_eq!(console.eval("game.get('nested')[2][3]", &mut state, &mut events).as_deref(), Ok("6"));
    assert_eq!(console.eval("#game.get('array')", &mut state, &mut events).as_deref(), Ok("3"));

    // A save and a load: the same data, the same hash; lists and string-keyed maps are saved as
    // they always were.
    let json = serde_json::to_string(&state).expect("serialises");
    assert!(json.contains("\"array\":[10,20,30]"), "{json}");
    assert!(json.contains("\"floats\":{\"a\":{\"b\":{\"c\":1.5}},\"big\":9007199254740992.0,\"whole\":2.0}"), "{json}");
    assert!(json.contains("\"nested\":{\"$table\":[[2,{\"$table\":[[3,6]]}]]}"), "{json}");
    assert!(json.contains("\"marker\":{\"$table\":[[\"$table\",[1]]]}"), "{json}");
    let mut loaded: GameState = serde_json::from_str(&json).expect("loads");
    loaded.rebuild_derived();
    assert_eq!(loaded.hash(), state.hash());
    assert_eq!(loaded.script_data, state.script_data);
    for (key, shape) in shapes {
        let back = console.eval(&format!("same(game.get('{key}'), {shape})"), &mut loaded, &mut events);
        assert_eq!(back.as_deref(), Ok("true"), "after loading: {shape}");
    }

    let refusals = [
        ("function() end", "only plain data can be kept (numbers, text, booleans, tables of them), not a function"),
        ("{ f = coroutine.create(function() end) }", "not a coroutine"),
        ("{ [1.5] = 1 }", "a table key must be a string or a whole number, not a number that is not whole (1.5)"),
        ("{ [math.huge] = 1 }", "a table key must be a string or a whole number, not a number that is not whole (inf)"),
        ("{ [true] = 1 }", "a table key must be a string or a whole number, not a boolean (true)"),
        ("{ [{}] = 1 }", "a table key must be a string or a whole number, not a table"),
        ("{ x = 0/0 }", "cannot be kept (only finite numbers)"),
        ("{ 1, math.huge }", "inf cannot be kept (only finite numbers)"),
        ("(function() local t = {} t.t = t return t end)()", "the table holds itself (a cycle)"),
        ("'\\xff'", "is not UTF-8 text, and only UTF-8 text can be kept"),
        ("{ ['\\xff'] = 1 }", "game.put: the key"),
    ];
    for (value, expected) in refusals {
        let hash = state.hash();
        let error = console.eval(&format!("game.put('refused', {value})"), &mut state, &mut events).expect_err(value);
        assert!(error.starts_with("console:1: game.put: ") && error.contains(expected), "{value}: {error}");
        assert_eq!(state.hash(), hash, "{value}: a refused put changed the game");
    }
}
