//! Broken mods give every problem at once, each located at `file:line:col` with its table and
//! key and a "did you mean" where a name is close to a known one; nothing panics or hangs.

mod common;

use common::{MINIMAL_DATA, manifest, problems, write_mod};
use meeple_engine::diag::Diagnostic;

/// Loads a mod made of `mod.toml` (valid) plus `files`, expecting problems.
fn broken(id: &str, files: &[(&str, &str)]) -> Vec<Diagnostic> {
    let manifest = manifest(id);
    let mut all: Vec<(&str, &[u8])> = vec![("mod.toml", manifest.as_bytes())];
    all.extend(files.iter().map(|(p, c)| (*p, c.as_bytes())));
    problems(&write_mod(id, &all))
}

/// The problem's location relative to the mod folder, for stable comparisons.
fn at(d: &Diagnostic) -> String {
    let file = d.file.as_deref().unwrap_or("");
    let short = file
        .rsplit_once('/')
        .map_or(file, |(dir, name)| if dir.ends_with("/hooks") { &file[file.len() - name.len() - 6..] } else { name });
    format!("{short}:{}:{}", d.line, d.col)
}

fn only(problems: &[Diagnostic]) -> &Diagnostic {
    assert_eq!(problems.len(), 1, "{problems:#?}");
    &problems[0]
}

#[test]
fn the_minimal_mod_loads() {
    let manifest = manifest("fine");
    let folder = write_mod("fine", &[("mod.toml", manifest.as_bytes()), ("data.toml", MINIMAL_DATA.as_bytes())]);
    meeple_engine::loader::load_mod(&folder).expect("loads");
}

#[test]
fn wrong_type() {
    let data = MINIMAL_DATA.replace("max = 8", "max = \"eight\"");
    let d = only(&broken("wrong_type", &[("data.toml", &data)])).clone();
    assert_eq!(at(&d), "data.toml:11:7");
    assert_eq!((d.table.as_deref(), d.key.as_deref()), (Some("space_counters.dice"), Some("max")));
    assert_eq!(d.message, "expected an integer, found a string");
}

#[test]
fn unknown_key_with_suggestion() {
    let data = MINIMAL_DATA.replace("label = \"Push\"", "lable = \"Push\"\nlabel = \"Push\"");
    let d = only(&broken("unknown_key", &[("data.toml", &data)])).clone();
    assert_eq!(at(&d), "data.toml:14:1");
    assert_eq!(d.message, "unknown key `lable`");
    assert_eq!(d.suggestion.as_deref(), Some("label"));
}

#[test]
fn misspelled_references_inside_expressions() {
    let data = MINIMAL_DATA.replace("effect = [\"from.dice += 1\"]", "effect = [\"from.dcie += 1\"]");
    let d = only(&broken("bad_field", &[("data.toml", &data)])).clone();
    // The column points at `dcie` inside the string: `effect = ["from.` is 16 characters.
    assert_eq!(at(&d), "data.toml:16:17");
    assert_eq!((d.table.as_deref(), d.key.as_deref()), (Some("actions.push"), Some("effect[0]")));
    assert_eq!(d.message, "unknown space field `dcie`");
    assert_eq!(d.suggestion.as_deref(), Some("dice"));
}

#[test]
fn misspelled_definition_names() {
    let data = MINIMAL_DATA.replace("terrain = \"land\"", "terrain = \"lnad\"")
        + "\n[turn]\nphases = [{ id = \"main\", actions = [\"psuh\"] }]\n";
    let found = broken("bad_names", &[("data.toml", &data)]);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert_eq!(found[0].message, "unknown terrain `lnad`");
    assert_eq!(found[0].suggestion.as_deref(), Some("land"));
    assert_eq!(at(&found[0]), "data.toml:4:11");
    assert_eq!(found[1].message, "unknown action `psuh`");
    assert_eq!(found[1].suggestion.as_deref(), Some("push"));
}

#[test]
fn expression_syntax_and_type_errors_point_inside_the_string() {
    let data = MINIMAL_DATA.replace("win = \"seat.number == 99\"", "win = \"seat.number == \"")
        + "\n[[triggers]]\non = \"turn_end\"\nwhen = \"seat_count() > true\"\neffect = []\n";
    let found = broken("bad_exprs", &[("data.toml", &data)]);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert_eq!(found[0].message, "expected a value, found the end of the text");
    assert_eq!(at(&found[0]), "data.toml:19:23");
    assert_eq!(found[1].message, "cannot compare a whole number with true or false using `>`");
}

#[test]
fn every_problem_is_reported_at_once() {
    let data = MINIMAL_DATA
        .replace("max = 8", "max = -1\nmin = 0")
        .replace("kind = \"space\"", "kind = \"spcae\"")
        .replace("label = \"Push\"", "label = \"Push\"\nwhen = \"turnn > 1\"")
        .replace("[terrain.land]", "[terrain.land]\ncolour = \"#fff\"");
    let found = broken("many", &[("data.toml", &data)]);
    let messages: Vec<&str> = found.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        vec![
            "unknown key `colour`",
            "min 0 is above max -1",
            "unknown name `turnn`",
            "unknown value `spcae`; expected one of: space, seat, piece, number, item, held",
        ],
        "{found:#?}"
    );
}

#[test]
fn template_cycles_and_duplicates_across_files() {
    let data = MINIMAL_DATA.to_string() + "\n[pieces.a]\ninherits = \"b\"\n[pieces.b]\ninherits = \"a\"\n";
    let extra = "[terrain.land]\n";
    let found = broken("cycles", &[("data.toml", &data), ("more.toml", extra)]);
    let messages: Vec<String> = found.iter().map(|d| format!("{} {}", at(d), d.message)).collect();
    assert!(messages.iter().any(|m| m.contains("inheritance cycle: a → b → a")), "{messages:#?}");
    assert!(messages.iter().any(|m| m.starts_with("more.toml:1:10") && m.contains("`terrain.land` is defined twice; first defined at")), "{messages:#?}");
}

#[test]
fn lua_syntax_and_load_errors_name_script_and_line() {
    let found = broken(
        "lua_syntax",
        &[("data.toml", MINIMAL_DATA), ("hooks/a.lua", "-- fine\nfunction f(\n  return 1\nend\n")],
    );
    let d = only(&found);
    assert_eq!((at(d), d.message.as_str()), ("hooks/a.lua:3:0".into(), "<name> or '...' expected near 'return'"));
    let found =
        broken("lua_runtime", &[("data.toml", MINIMAL_DATA), ("hooks/a.lua", "local x = nil\nlocal y = x.field\n")]);
    let d = only(&found);
    assert_eq!(at(d), "hooks/a.lua:2:0");
    assert!(d.message.contains("attempt to index a nil value"), "{}", d.message);
}

#[test]
fn an_endless_loop_while_loading_is_stopped() {
    let started = std::time::Instant::now();
    let found = broken("lua_loop", &[("data.toml", MINIMAL_DATA), ("hooks/a.lua", "\n\nwhile true do end\n")]);
    let d = only(&found);
    assert_eq!(at(d), "hooks/a.lua:3:0");
    assert!(d.message.contains("was stopped (an endless loop?)"), "{}", d.message);
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
}

#[test]
fn hooks_named_in_data_must_exist() {
    let data =
        MINIMAL_DATA.replace("effect = [\"from.dice += 1\"]", "effect = [\"from.dice += hook('bonsu', from.dice)\"]");
    let found = broken("missing_hook", &[("data.toml", &data), ("hooks/a.lua", "function bonus(n) return 1 end\n")]);
    let d = only(&found);
    assert_eq!(at(d), "data.toml:16:30");
    assert_eq!(d.message, "no hook file defines a global function `bonsu`");
    assert_eq!(d.suggestion.as_deref(), Some("bonus"));
}

#[test]
fn unknown_event_in_meeple_on() {
    let found = broken(
        "bad_event",
        &[("data.toml", MINIMAL_DATA), ("hooks/a.lua", "meeple.on('turn_ends', function() end)\n")],
    );
    let d = only(&found);
    assert!(d.message.contains("unknown event `turn_ends`; did you mean `turn_end`?"), "{}", d.message);
}

#[test]
fn engine_api_version_mismatch_names_both_versions() {
    let manifest = manifest("old_api").replace("api = 1", "api = 7");
    let folder = write_mod("old_api", &[("mod.toml", manifest.as_bytes()), ("data.toml", MINIMAL_DATA.as_bytes())]);
    let d = problems(&folder).remove(0);
    assert_eq!(d.message, "this mod targets engine API version 7, but this engine implements version 1");
    assert_eq!(at(&d), "mod.toml:4:7");
}

#[test]
fn unreadable_and_missing_files() {
    let manifest = manifest("bad_bytes");
    let folder =
        write_mod("bad_bytes", &[("mod.toml", manifest.as_bytes()), ("data.toml", b"[board]\nkind = \"gr\xe9ph\"\n")]);
    let d = problems(&folder).remove(0);
    assert!(d.message.contains("not valid UTF-8"), "{}", d.message);
    assert_eq!(at(&d), "data.toml:2:11");
    let empty = write_mod("no_manifest", &[("data.toml", b"")]);
    let d = problems(&empty).remove(0);
    assert!(d.message.contains("has no mod.toml"), "{}", d.message);
}

#[test]
fn folder_and_id_must_agree() {
    let manifest = manifest("other_name");
    let folder = write_mod("folder_name", &[("mod.toml", manifest.as_bytes()), ("data.toml", MINIMAL_DATA.as_bytes())]);
    let d = problems(&folder).remove(0);
    assert_eq!(d.message, "the mod id `other_name` differs from its folder name `folder_name`");
    assert_eq!(d.suggestion.as_deref(), Some("folder_name"));
}
