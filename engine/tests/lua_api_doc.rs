//! The Lua API's description (`lua::api_doc`) against the Lua states the engine really builds:
//! every function and field registered in the hooks' `game` and `meeple` tables, every global of
//! hooks and of scenario tests, every event and every method of a scenario game is described,
//! and everything described exists. Also: the generated annotations and reference are fresh.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use meeple_engine::defs::EventKind;
use meeple_engine::lua::HookRuntime;
use meeple_engine::lua::api_doc::{ALIASES, Access, ApiTable, Context, Kind, TABLES};
use mlua::{Table, Value};

/// What Lua itself (as the sandbox leaves it) puts in the globals.
const LUA_GLOBALS: &[&str] = &[
    "_G",
    "_VERSION",
    "assert",
    "collectgarbage",
    "coroutine",
    "error",
    "getmetatable",
    "ipairs",
    "math",
    "next",
    "pairs",
    "pcall",
    "rawequal",
    "rawget",
    "rawlen",
    "rawset",
    "select",
    "setmetatable",
    "string",
    "table",
    "tonumber",
    "tostring",
    "type",
    "utf8",
    "warn",
    "xpcall",
];

/// Globals of scenario tests that are the runner's own plumbing, not API.
const INTERNAL_TEST_GLOBALS: &[&str] = &["__tests"];

fn table(access: Access, context: Context, name: &str) -> &'static ApiTable {
    TABLES
        .iter()
        .find(|t| t.access == access && t.context == context && t.name == name)
        .unwrap_or_else(|| panic!("api_doc describes no {access:?} table `{name}` in {context:?}"))
}

/// The Lua type name a described entry must have.
fn lua_type(kind: Kind, ty: &str) -> &'static str {
    match kind {
        // mlua names Lua 5.4 integers `integer` (Lua itself says `number`).
        Kind::Field if ty == "integer" => "integer",
        Kind::Field => "table",
        _ => "function",
    }
}

/// `name:type` for every entry of a described table.
fn described(table: &ApiTable) -> BTreeSet<String> {
    table.entries.iter().map(|e| format!("{}:{}", e.name, lua_type(e.kind, e.ty))).collect()
}

/// `name:type` for every key of a real Lua table.
fn keys(table: &Table) -> BTreeSet<String> {
    table
        .pairs::<String, Value>()
        .map(|pair| {
            let (name, value) = pair.expect("string keys");
            format!("{name}:{}", value.type_name())
        })
        .collect()
}

fn compare(what: &str, real: &BTreeSet<String>, doc: &BTreeSet<String>) {
    let undocumented: Vec<&String> = real.difference(doc).collect();
    let missing: Vec<&String> = doc.difference(real).collect();
    assert!(
        undocumented.is_empty() && missing.is_empty(),
        "{what}: registered but not described in engine/src/lua/api_doc.rs: {undocumented:?}; \
         described but not registered: {missing:?}"
    );
}

#[test]
fn the_hook_api_is_described_exactly() {
    let rules = common::fixture("tiny");
    let runtime = HookRuntime::new(rules).expect("the fixture's hooks load");
    let globals = runtime.globals();

    // The globals hooks get: Lua's own, the mod's functions, and the API tables.
    let mod_functions = runtime.defined_functions();
    let mut real = BTreeSet::new();
    for pair in globals.pairs::<String, Value>() {
        let (name, value) = pair.unwrap();
        if !LUA_GLOBALS.contains(&name.as_str()) && !mod_functions.contains(&name) {
            real.insert(format!("{name}:{}", value.type_name()));
        }
    }
    let doc: BTreeSet<String> = TABLES
        .iter()
        .filter(|t| t.context == Context::Hook)
        .filter_map(|t| match t.access {
            Access::Table => Some(format!("{}:table", t.name)),
            _ => None,
        })
        .chain(TABLES.iter().filter(|t| t.context == Context::Hook && t.access == Access::Globals).flat_map(described))
        .collect();
    compare("the globals of hooks", &real, &doc);

    for name in ["game", "meeple"] {
        let real_table: Table = globals.get(name).unwrap();
        compare(&format!("`{name}`"), &keys(&real_table), &described(table(Access::Table, Context::Hook, name)));
    }
}

#[test]
fn the_events_are_the_engines() {
    let events = TABLES.iter().find(|t| t.access == Access::Events).expect("api_doc describes the events");
    let described: Vec<&str> = events.entries.iter().map(|e| e.name).collect();
    let real: Vec<&str> = EventKind::ALL.iter().map(|k| k.name()).collect();
    assert_eq!(described, real, "the events of api_doc.rs and EventKind::ALL differ");
    // `meeple.on` accepts each, with a handler of the described arguments.
    let runtime = HookRuntime::new(common::fixture("tiny")).unwrap();
    for entry in events.entries {
        let arguments: Vec<&str> = entry.params.iter().map(|p| p.name).collect();
        let code = format!("meeple.on({:?}, function({}) end)", entry.name, arguments.join(", "));
        runtime.lua().load(code.as_str()).exec().unwrap_or_else(|e| panic!("{code}: {e}"));
    }
    let refused = runtime.lua().load("meeple.on('no_such_event', function() end)").exec();
    assert!(refused.is_err(), "meeple.on accepts any name: the events list means nothing");
}

/// Runs a scenario test file through `meeple test`'s runner and gives what its one test
/// reported (the test fails on purpose with `WALK` and its findings as the message).
fn walk_in_scenario(lua: &str) -> String {
    let dir = std::env::temp_dir().join(format!("meeple-api-doc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file: PathBuf = dir.join("walk.lua");
    std::fs::write(&file, lua).unwrap();
    let rules = common::fixture("tiny");
    let results = meeple_engine::scenario::run_mod_tests(&rules, &[file], &[], None);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(results.len(), 1, "{results:?}");
    let failure = results[0].failure.clone().unwrap_or_default();
    failure.strip_prefix("WALK").unwrap_or_else(|| panic!("the walk failed: {failure}")).trim().to_string()
}

fn lua_list(names: impl Iterator<Item = String>) -> String {
    names.map(|n| format!("{n:?}")).collect::<Vec<_>>().join(", ")
}

#[test]
fn the_scenario_api_is_described_exactly() {
    let object = table(Access::Object, Context::Scenario, "g");
    let methods = lua_list(object.entries.iter().map(|e| e.name.to_string()));
    let code = format!(
        r#"
local builtin = {{ {builtin} }}
local skip = {{}}
for _, name in ipairs(builtin) do skip[name] = true end
test("walk", function()
  local out = {{}}
  for name, value in pairs(_G) do
    if not skip[name] then out[#out + 1] = "global " .. name .. ":" .. type(value) end
  end
  for name, value in pairs(scenario) do out[#out + 1] = "scenario " .. name .. ":" .. type(value) end
  local g = scenario.new{{}}
  for _, name in ipairs({{ {methods} }}) do
    local ok, value = pcall(function() return g[name] end)
    out[#out + 1] = "method " .. name .. ":" .. (ok and type(value) or "missing")
  end
  table.sort(out)
  error("WALK " .. table.concat(out, " "), 0)
end)
"#,
        builtin = lua_list(LUA_GLOBALS.iter().chain(INTERNAL_TEST_GLOBALS).map(|s| s.to_string())),
    );
    let report = walk_in_scenario(&code);
    let mut real_globals = BTreeSet::new();
    let mut real_scenario = BTreeSet::new();
    let mut real_methods = BTreeSet::new();
    let words: Vec<&str> = report.split(' ').collect();
    for pair in words.chunks(2) {
        let [what, item] = pair else { panic!("odd report: {report}") };
        match *what {
            "global" => real_globals.insert(item.to_string()),
            "scenario" => real_scenario.insert(item.to_string()),
            "method" => real_methods.insert(item.to_string()),
            other => panic!("odd report `{other}`: {report}"),
        };
    }

    let doc_globals: BTreeSet<String> = TABLES
        .iter()
        .filter(|t| t.context == Context::Scenario)
        .flat_map(|t| match t.access {
            Access::Table => BTreeSet::from([format!("{}:table", t.name)]),
            Access::Globals => described(t),
            _ => BTreeSet::new(),
        })
        .collect();
    compare("the globals of scenario tests", &real_globals, &doc_globals);
    compare("`scenario`", &real_scenario, &described(table(Access::Table, Context::Scenario, "scenario")));
    // Every described method exists on a scenario game.
    let doc_methods: BTreeSet<String> = object.entries.iter().map(|e| format!("{}:function", e.name)).collect();
    let absent: Vec<&String> = doc_methods.difference(&real_methods).collect();
    assert!(absent.is_empty(), "described in engine/src/lua/api_doc.rs but not methods of a scenario game: {absent:?}");

    // A userdata's methods cannot be listed from Lua (its metatable is hidden), so the other
    // direction reads the registrations in the runner's source.
    let source = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/scenario.rs")).unwrap();
    let mut registered = BTreeSet::new();
    for marker in ["add_method(\"", "add_method_mut(\""] {
        for (at, _) in source.match_indices(marker) {
            let rest = &source[at + marker.len()..];
            registered.insert(format!("{}:function", &rest[..rest.find('"').unwrap()]));
        }
    }
    assert!(registered.len() > 20, "the scan of scenario.rs found too few methods: {registered:?}");
    compare("the methods scenario.rs registers", &registered, &doc_methods);
}

#[test]
fn the_levels_are_the_computer_players() {
    let levels = ALIASES.iter().find(|a| a.name == "meeple.Level").expect("a Level alias");
    let described: Vec<&str> = levels.values.iter().map(|(v, _)| v.trim_matches('"')).collect();
    for level in &described {
        assert!(meeple_engine::ai::player(level, 1).is_ok(), "described level `{level}` is refused");
    }
    for (level, _) in meeple_engine::ai::LEVELS {
        assert!(described.contains(level), "level `{level}` is not described");
    }
}

#[test]
fn the_generated_annotations_and_reference_are_fresh() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut files: Vec<(PathBuf, String)> = meeple_engine::schema::all()
        .into_iter()
        .filter(|(name, _)| name.ends_with(".lua"))
        .map(|(name, text)| (root.join("schemas").join(name), text))
        .collect();
    files.extend(meeple_engine::schema::docs().into_iter().map(|(path, text)| (root.join(path), text)));
    let stale: Vec<String> = files
        .iter()
        .filter(|(path, text)| std::fs::read_to_string(path).ok().as_deref() != Some(text.as_str()))
        .map(|(path, _)| path.display().to_string())
        .collect();
    assert!(stale.is_empty(), "stale generated files {stale:?}: run `cargo run -- schema`");
}
