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

/// Starts a two-seat game of `rules` (seed 1): where a rule that fails at run time shows.
fn start_game(
    rules: &std::sync::Arc<meeple_engine::rules::Ruleset>,
) -> Result<meeple_engine::game::GameState, meeple_engine::game::RuleError> {
    use meeple_engine::game::{Engine, Events, GameSetup};
    Engine::new(rules.clone())?.new_game(&GameSetup::new(rules, 1, 2, "human"), &mut Events::discard())
}

/// The 1-based line and column where `text` first appears in `data`.
fn position_of(data: &str, text: &str) -> (usize, usize) {
    let (line, found) =
        data.lines().enumerate().find_map(|(i, l)| l.find(text).map(|col| (i, col))).expect("in the data");
    (line + 1, found + 1)
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
            "unknown value `spcae`; expected one of: space, seat, piece, number, item, held, card",
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
    assert_eq!(
        d.message,
        "the mod id `other_name` differs from its folder name `folder_name`: rename the folder or set `id = \"folder_name\"`"
    );
    assert_eq!(d.suggestion, None);
    // `.` is named by the folder's real name.
    let cwd_relative = folder.join(".");
    let d = problems(&cwd_relative).remove(0);
    assert!(d.message.contains("folder name `folder_name`"), "{}", d.message);
}

#[test]
fn a_mod_without_data_files_gets_one_message_saying_what_to_add() {
    let manifest = manifest("empty");
    let folder = write_mod("empty", &[("mod.toml", manifest.as_bytes())]);
    let found = problems(&folder);
    let d = only(&found);
    assert_eq!(
        d.to_string(),
        format!(
            "{}: error: the mod has no data files: add a .toml file next to mod.toml with at least a `[board]` \
             table (docs/modding/tutorial.md, step 2, shows one)",
            folder.display()
        )
    );
}

#[test]
fn digit_legend_keys_are_shown_as_keys_at_their_own_line() {
    let data = MINIMAL_DATA.replace(
        "kind = \"graph\"\nterrain = \"land\"\nspaces = [{ id = \"a\" }, { id = \"b\" }]\nlinks = [[\"a\", \"b\"]]",
        "kind = \"square\"\ncolumns = 2\nrows = 1\nlayout = [\"12\"]\nlegend.\"1\" = \"land\"\nlegend.\"2\" = { terrain = \"lnad\", home = 1 }",
    );
    let d = only(&broken("digit_keys", &[("data.toml", &data)])).clone();
    assert_eq!(at(&d), "data.toml:8:26");
    assert_eq!((d.table.as_deref(), d.key.as_deref()), (Some("board.legend.\"2\""), Some("terrain")));
    assert_eq!(d.message, "unknown terrain `lnad`");
    assert_eq!(d.suggestion.as_deref(), Some("land"));
}

#[test]
fn colours_must_be_hash_and_six_hex_digits() {
    let data = MINIMAL_DATA.replace("[terrain.land]", "[terrain.land]\ncolor = \"#fff\"")
        + "\n[seats]\ncolors = [\"#4caf50\", \"red\"]\nsides = [{ id = \"a\", color = \"#12345g\" }, { id = \"b\", color = \"#a1B2c3\" }]\n";
    let found = broken("colours", &[("data.toml", &data)]);
    let shown: Vec<String> = found.iter().map(|d| format!("{} {}", at(d), d)).collect();
    let pattern = "does not fit the pattern `^#[0-9a-fA-F]{6}$`";
    assert_eq!(found.len(), 3, "{shown:#?}");
    assert_eq!(at(&found[0]), "data.toml:9:9");
    assert_eq!((found[0].table.as_deref(), found[0].key.as_deref()), (Some("terrain.land"), Some("color")));
    assert_eq!(found[0].message, format!("`#fff` {pattern}; write it like `#f2e6c9`"));
    assert_eq!(at(&found[1]), "data.toml:23:22");
    assert_eq!((found[1].table.as_deref(), found[1].key.as_deref()), (Some("seats"), Some("colors[1]")));
    assert_eq!(found[1].message, format!("`red` {pattern}; write it like `#4caf50`"));
    assert_eq!(at(&found[2]), "data.toml:24:30");
    assert_eq!((found[2].table.as_deref(), found[2].key.as_deref()), (Some("seats.sides[0]"), Some("color")));
    assert_eq!(found[2].message, format!("`#12345g` {pattern}; write it like `#d32f2f`"));
}

#[test]
fn a_key_missing_from_mod_toml_names_the_file_and_shows_a_line_to_add() {
    let manifest = manifest("nameless").replace("name = \"T\"\n", "").replace("seats = { min = 2, max = 2 }\n", "");
    let folder = write_mod("nameless", &[("mod.toml", manifest.as_bytes()), ("data.toml", MINIMAL_DATA.as_bytes())]);
    let shown: Vec<String> = problems(&folder).iter().map(ToString::to_string).collect();
    let file = folder.join("mod.toml").display().to_string();
    assert_eq!(
        shown,
        [
            format!("{file}: error: key `name`: missing required key `name`; for example `name = \"My Game\"`"),
            format!(
                "{file}: error: key `seats`: missing required key `seats`; for example `seats = {{ min = 2, max = 4 }}`"
            ),
        ]
    );
}

#[test]
fn check_loads_every_choice_of_every_option_and_names_the_choice() {
    let options = "\n[options.size]\nlabel = \"Size\"\ndefault = \"two\"\nchoices.two = {}\n\
                   choices.three = { set = { \"board.spaces\" = [{ id = \"a\" }, { id = \"b\" }, { id = \"\" }] } }\n\
                   choices.odd = { set = { \"space_counters.dice.max\" = \"eight\" } }\n";
    let data = MINIMAL_DATA.to_string() + options;
    let manifest = manifest("choices");
    let folder = write_mod("choices", &[("mod.toml", manifest.as_bytes()), ("data.toml", data.as_bytes())]);
    meeple_engine::loader::load_mod(&folder).expect("the default choice loads");
    let found = meeple_engine::options::load_every_choice(&folder).expect_err("two choices are broken");
    let shown: Vec<String> =
        found.iter().map(|d| d.to_string().replace(&format!("{}/", folder.display()), "")).collect();
    assert_eq!(
        shown,
        [
            "data.toml:25:80: error: [board.spaces[2]] key `id`: with `--option size=three`: must not be empty\n \
             25 | choices.three = { set = { \"board.spaces\" = [{ id = \"a\" }, { id = \"b\" }, { id = \"\" }] } }\n    \
             |                                                                                ^",
            "data.toml:26:53: error: [space_counters.dice] key `max`: with `--option size=odd`: expected an integer, \
             found a string\n 26 | choices.odd = { set = { \"space_counters.dice.max\" = \"eight\" } }\n    \
             |                                                     ^",
        ]
    );
}

#[test]
fn check_reports_a_problem_shared_by_every_choice_once() {
    let options = "\n[options.size]\nlabel = \"Size\"\ndefault = \"two\"\nchoices.two = {}\nchoices.three = {}\n";
    let data = MINIMAL_DATA.replace("max = 8", "max = \"eight\"") + options;
    let manifest = manifest("shared");
    let folder = write_mod("shared", &[("mod.toml", manifest.as_bytes()), ("data.toml", data.as_bytes())]);
    let found = meeple_engine::options::load_every_choice(&folder).expect_err("broken");
    let d = only(&found);
    assert_eq!((at(d), d.message.as_str()), ("data.toml:11:7".into(), "expected an integer, found a string"));
}

#[test]
fn a_failing_hook_or_expression_names_the_rule_that_ran_it() {
    use meeple_engine::game::{Action, Engine, Events, GameSetup};
    let hooks = "function boom()\n  error('boom')\nend\n";
    let data = MINIMAL_DATA.to_string() + "\n[[triggers]]\non = \"turn_start\"\neffect = [\"hook('boom')\"]\n";
    let trigger_manifest = manifest("hook_in_trigger");
    let folder = write_mod(
        "hook_in_trigger",
        &[("mod.toml", trigger_manifest.as_bytes()), ("data.toml", data.as_bytes()), ("hooks/a.lua", hooks.as_bytes())],
    );
    let rules = meeple_engine::loader::load_mod(&folder).expect("loads").ruleset;
    let setup = GameSetup::new(&rules, 1, 2, "human");
    let error =
        Engine::new(rules.clone()).unwrap().new_game(&setup, &mut Events::discard()).expect_err("the hook fails");
    // Where the rule is written (the effect list of the trigger at the end of data.toml), then
    // the rule's name, then the script line.
    let data_file = folder.join("data.toml");
    assert_eq!(
        error.message(),
        format!("{}:23:10 triggers[0].effect: hook `boom`: hook_in_trigger/hooks/a.lua:2: boom", data_file.display())
    );

    let data = MINIMAL_DATA.replace(
        "params = [{ name = \"from\", kind = \"space\", owned_by = \"me\" }]",
        "params = [{ name = \"from\", kind = \"space\", where = \"10 / from.dice == 1\" }]",
    );
    let where_manifest = manifest("hook_in_where");
    let folder = write_mod(
        "hook_in_where",
        &[("mod.toml", where_manifest.as_bytes()), ("data.toml", data.as_bytes()), ("hooks/a.lua", hooks.as_bytes())],
    );
    let rules = meeple_engine::loader::load_mod(&folder).expect("loads").ruleset;
    let mut engine = Engine::new(rules.clone()).unwrap();
    let mut state = engine.new_game(&GameSetup::new(&rules, 1, 2, "human"), &mut Events::discard()).unwrap();
    let push = Action::rule(rules.action_index("push").unwrap() as u16, &[0]);
    let refused = engine.apply(&mut state, &push, &mut Events::discard()).expect_err("the division fails");
    let (line, col) = position_of(&data, "\"10 / from.dice");
    assert_eq!(
        refused.to_string(),
        format!(
            "`push`: {}:{line}:{col} actions.push.params[0].where: division by zero",
            folder.join("data.toml").display()
        )
    );
}

#[test]
fn a_failing_phase_is_named_by_its_id_and_located() {
    use meeple_engine::game::{Action, Engine, Events, GameSetup};
    let data = MINIMAL_DATA.to_string()
        + "\n[turn]\nphases = [\n  { id = \"grow\", actions = [\"push\"] },\n  \
           { id = \"split\", actions = [\"push\"], on_start = [\"hook('boom')\"] },\n]\n";
    let manifest = manifest("failing_phase");
    let folder = write_mod(
        "failing_phase",
        &[
            ("mod.toml", manifest.as_bytes()),
            ("data.toml", data.as_bytes()),
            ("hooks/a.lua", b"function boom()\n  error('boom')\nend\n"),
        ],
    );
    let rules = meeple_engine::loader::load_mod(&folder).expect("loads").ruleset;
    assert_eq!(rules.rule_location("turn.phases.split.on_start"), rules.rule_location("turn.phases[1].on_start"));
    let mut engine = Engine::new(rules.clone()).unwrap();
    let mut state = engine.new_game(&GameSetup::new(&rules, 1, 2, "human"), &mut Events::discard()).unwrap();
    let error =
        engine.apply(&mut state, &Action::pass(), &mut Events::discard()).expect_err("the second phase fails to start");
    let (line, col) = position_of(&data, "[\"hook('boom')");
    assert_eq!(
        error.to_string(),
        format!(
            "the rules failed: {}:{line}:{col} turn.phases.split.on_start: hook `boom`: failing_phase/hooks/a.lua:2: boom",
            folder.join("data.toml").display()
        )
    );
}

#[test]
fn distributing_more_units_than_any_game_uses_is_an_error_not_a_hang() {
    let data = MINIMAL_DATA.replace("max = 8", "max = 1000000000000")
        + "\n[setup]\neffect = [\"space('a').owner = me\", \
           \"let spare = distribute('dice', 1000000000000, me, 1000000000000)\"]\n";
    let manifest = manifest("huge_distribute");
    let folder = write_mod("huge_distribute", &[("mod.toml", manifest.as_bytes()), ("data.toml", data.as_bytes())]);
    let rules = meeple_engine::loader::load_mod(&folder).expect("loads").ruleset;
    let started = std::time::Instant::now();
    let error = start_game(&rules).expect_err("refused");
    assert!(
        error.message().ends_with(
            "setup.effect: distribute would place 1000000000000 units one by one; at most 10000000 are placed in one go"
        ),
        "{}",
        error.message()
    );
    assert!(started.elapsed().as_secs() < 5, "refused before placing anything");
    // Ten units go where there is room: the same mod with a small amount starts.
    let data = data.replace("distribute('dice', 1000000000000,", "distribute('dice', 10,");
    std::fs::write(folder.join("data.toml"), data).unwrap();
    let rules = meeple_engine::loader::load_mod(&folder).expect("loads").ruleset;
    let state = start_game(&rules).expect("starts");
    assert_eq!(state.counter(0, rules.counter_index("dice").unwrap() as u16), 10);
}

#[test]
fn a_local_hook_function_is_pointed_out() {
    let data = MINIMAL_DATA.replace("effect = [\"from.dice += 1\"]", "effect = [\"from.dice += hook('bonus')\"]");
    let problems = broken(
        "local_hook",
        &[("data.toml", &data), ("hooks/main.lua", "-- a helper\nlocal function bonus()\n  return 1\nend\n")],
    );
    let d = only(&problems);
    assert!(d.message.starts_with("no hook file defines a global function `bonus`; "), "{}", d.message);
    assert!(d.message.contains("hooks/main.lua:2 defines a `local` one"), "{}", d.message);
}

#[cfg(unix)]
#[test]
fn links_devices_and_pipes_are_refused_without_being_read() {
    let manifest = manifest("links");
    let folder = write_mod("links", &[("mod.toml", manifest.as_bytes()), ("data.toml", MINIMAL_DATA.as_bytes())]);
    // A secret outside the mod, reached by a link: its text must not appear in any message.
    let secret = folder.parent().unwrap().join("secret.toml");
    std::fs::write(&secret, "password = \"hunter2\"\n").unwrap();
    std::os::unix::fs::symlink(&secret, folder.join("secret.toml")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", folder.join("zero.toml")).unwrap();
    std::fs::create_dir_all(folder.join("hooks")).unwrap();
    std::os::unix::fs::symlink(&secret, folder.join("hooks/outside.lua")).unwrap();
    // A folder linked from inside the mod is not walked (it could be `/`).
    std::os::unix::fs::symlink("/", folder.join("everything")).unwrap();
    let fifo = folder.join("pipe.toml");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success());
    let started = std::time::Instant::now();
    let found = problems(&folder);
    assert!(started.elapsed().as_secs() < 10, "nothing blocks or reads forever");
    let text: Vec<String> = found.iter().map(|d| format!("{}: {}", at(d), d.message)).collect();
    assert!(text.iter().all(|t| !t.contains("hunter2")), "{text:#?}");
    for file in ["secret.toml", "zero.toml", "hooks/outside.lua"] {
        assert!(
            text.iter().any(|t| t.starts_with(&format!("{file}:")) && t.contains("is a symbolic link")),
            "{file}: {text:#?}"
        );
    }
    if made {
        assert!(text.iter().any(|t| t.starts_with("pipe.toml:") && t.contains("not an ordinary file")), "{text:#?}");
    }
    assert_eq!(found.len(), 3 + usize::from(made), "{text:#?}");
    // `meeple check` first looks for setup options in every data file: no link or pipe is read there.
    let checked = meeple_engine::options::load_every_choice(&folder).expect_err("refused");
    assert_eq!(checked.len(), found.len(), "{checked:#?}");
    assert!(started.elapsed().as_secs() < 10, "nothing blocks or reads forever");
}

#[test]
fn extends_names_a_mod_never_a_path() {
    for path in ["/tmp", "../elsewhere", "a/b", "."] {
        let manifest = manifest("path_variant") + &format!("extends = \"{path}\"\n");
        let folder = write_mod("path_variant", &[("mod.toml", manifest.as_bytes()), ("data.toml", b"")]);
        let found = problems(&folder);
        assert!(
            found.iter().any(|d| d.message.contains(&format!("`extends = \"{path}\"` is not a mod id"))),
            "{path}: {found:#?}"
        );
    }
}

#[test]
fn a_generated_board_that_cannot_be_built_names_where_it_is_written() {
    let board = "[board]\nkind = \"territories\"\ncolumns = 10\nrows = 10\nterritories = 8\nterrain = \"land\"\ncells_per_territory = 8\n";
    let data = MINIMAL_DATA
        .replace("[board]\nkind = \"graph\"\nterrain = \"land\"\nspaces = [{ id = \"a\" }, { id = \"b\" }]\nlinks = [[\"a\", \"b\"]]\n", board);
    assert!(data.contains("territories = 8"));
    let manifest = manifest("crowded");
    let folder = write_mod("crowded", &[("mod.toml", manifest.as_bytes()), ("data.toml", data.as_bytes())]);
    let rules = meeple_engine::loader::load_mod(&folder).expect("loads").ruleset;
    let error = start_game(&rules).expect_err("the board does not fit");
    let expected =
        format!("{}:2:1 board: building the board: could not fit 8 territories", folder.join("data.toml").display());
    assert!(error.message().starts_with(&expected), "{}", error.message());
}

#[test]
fn loops_nested_past_any_game_are_stopped_with_the_rule_named() {
    let board = "[board]\nkind = \"square\"\ncolumns = 20\nrows = 20\nterrain = \"land\"\n";
    let deep = "count_of(a in space, count_of(b in space, count_of(c in space, c.dice > 0) > 0) > 0) > 0";
    let data = MINIMAL_DATA
        .replace("[board]\nkind = \"graph\"\nterrain = \"land\"\nspaces = [{ id = \"a\" }, { id = \"b\" }]\nlinks = [[\"a\", \"b\"]]\n", board)
        + &format!("\n[[triggers]]\non = \"turn_start\"\nwhen = \"{deep}\"\neffect = [\"let x = 1\"]\n");
    let manifest = manifest("deep_loops");
    let folder = write_mod("deep_loops", &[("mod.toml", manifest.as_bytes()), ("data.toml", data.as_bytes())]);
    let rules = match meeple_engine::loader::load_mod(&folder) {
        Ok(loaded) => loaded.ruleset,
        Err(problems) => panic!("{problems:#?}"),
    };
    let started = std::time::Instant::now();
    let error = start_game(&rules).expect_err("400³ steps are refused");
    assert!(
        error.message().ends_with("triggers[0].when: the loops of one formula took more than 10000000 steps (loops nested too deep over the board?)"),
        "{}",
        error.message()
    );
    assert!(started.elapsed().as_secs() < 30, "stopped after the budget, not after 64 million steps");
    // Two levels (160,000 steps) are fine, and a loop after the refused one starts afresh.
    let shallow = data.replace(deep, "count_of(a in space, count_of(b in space, b.dice > 0) > 0) >= 0");
    std::fs::write(folder.join("data.toml"), shallow).unwrap();
    let rules = meeple_engine::loader::load_mod(&folder).expect("loads").ruleset;
    start_game(&rules).expect("starts");
}

/// Makes a pipe at `path` with `mkfifo`; whether there is one (the tool may be missing).
#[cfg(unix)]
fn make_fifo(path: &std::path::Path) -> bool {
    std::process::Command::new("mkfifo").arg(path).status().is_ok_and(|s| s.success())
}

/// Runs `read` on a thread of its own and waits at most 2 s for it: a read that blocks on a
/// pipe fails the test instead of hanging it.
fn within_two_seconds<T: Send + 'static>(what: &str, read: impl FnOnce() -> T + Send + 'static) -> T {
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(read());
    });
    receiver
        .recv_timeout(std::time::Duration::from_secs(2))
        .unwrap_or_else(|_| panic!("{what}: not answered within 2 s (it blocks or reads for ever)"))
}

#[cfg(unix)]
#[test]
fn the_shared_reader_refuses_pipes_devices_links_and_oversized_files_at_once() {
    use meeple_engine::files::{Links, ReadError, read_capped};
    let folder = write_mod("reader", &[("ordinary.toml", b"x = 1\n")]);
    let secret = folder.parent().unwrap().join("secret.txt");
    std::fs::write(&secret, "hunter2").unwrap();
    std::os::unix::fs::symlink(&secret, folder.join("secret.toml")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", folder.join("zero.toml")).unwrap();
    let large = folder.join("large.toml");
    // Sparse: the size announced is what is checked first.
    std::fs::File::create(&large).unwrap().set_len(100 << 20).unwrap();
    let fifo = folder.join("pipe.toml");
    let made = make_fifo(&fifo);
    let read = |name: &str, links: Links| {
        let path = folder.join(name);
        within_two_seconds(name, move || read_capped(&path, 1 << 20, links))
    };
    for links in [Links::Refuse, Links::Follow] {
        assert_eq!(read("ordinary.toml", links).unwrap(), b"x = 1\n");
        assert!(
            matches!(read("large.toml", links), Err(ReadError::TooLarge { bytes, max: 1_048_576 }) if bytes == 100 << 20)
        );
        assert!(matches!(read("zero.toml", links), Err(ReadError::Link | ReadError::NotAFile)));
        if made {
            assert!(matches!(read("pipe.toml", links), Err(ReadError::NotAFile)));
        }
    }
    assert!(matches!(read("secret.toml", Links::Refuse), Err(ReadError::Link)));
    assert_eq!(read("secret.toml", Links::Follow).unwrap(), b"hunter2", "a link the user made is followed");
    assert!(matches!(read("zero.toml", Links::Follow), Err(ReadError::NotAFile)), "what a link leads to is checked");
    assert!(matches!(read("missing.toml", Links::Follow), Err(ReadError::Io(_))));
}

#[cfg(unix)]
#[test]
fn linked_hooks_tests_and_base_folders_are_refused_not_walked() {
    let own_manifest = manifest("linked_folders");
    let folder =
        write_mod("linked_folders", &[("mod.toml", own_manifest.as_bytes()), ("data.toml", MINIMAL_DATA.as_bytes())]);
    // Lua files outside the mod, whose text must never be read as the mod's.
    let elsewhere = folder.parent().unwrap().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::write(elsewhere.join("secret.lua"), "hunter2 = (\n").unwrap();
    std::os::unix::fs::symlink(&elsewhere, folder.join("hooks")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, folder.join("tests")).unwrap();
    let found = within_two_seconds("load", {
        let folder = folder.clone();
        move || problems(&folder)
    });
    let text: Vec<String> = found.iter().map(ToString::to_string).collect();
    assert!(text.iter().all(|t| !t.contains("hunter2")), "{text:#?}");
    for sub in ["hooks", "tests"] {
        assert!(
            found.iter().any(|d| d.file.as_deref() == Some(&*format!("{}/{sub}", folder.display()))
                && d.message.starts_with(&format!("the folder `{sub}` is a symbolic link"))),
            "{sub}: {text:#?}"
        );
    }
    assert_eq!(found.len(), 2, "{text:#?}");
    let files = meeple_engine::loader::mod_files(&folder).unwrap();
    assert!(files.hooks.is_empty() && files.tests.is_empty() && files.test_helpers.is_empty());
    let tests = meeple_engine::loader::scenario_syntax_problems(&folder);
    assert!(tests.iter().all(|d| !d.to_string().contains("hunter2")) && tests.len() == 2, "{tests:#?}");

    // A variant whose base, next to it, is a link to a mod elsewhere.
    let base_manifest = manifest("real_base");
    let base =
        write_mod("real_base", &[("mod.toml", base_manifest.as_bytes()), ("data.toml", MINIMAL_DATA.as_bytes())]);
    let variant_manifest = manifest("variant") + "extends = \"linked_base\"\n";
    let variant = write_mod("variant", &[("mod.toml", variant_manifest.as_bytes())]);
    std::os::unix::fs::symlink(&base, variant.parent().unwrap().join("linked_base")).unwrap();
    let d = only(&problems(&variant)).clone();
    assert!(d.message.starts_with("`extends = \"linked_base\"`: ") && d.message.contains("is a symbolic link"), "{d}");
    assert_eq!(at(&d), "mod.toml:7:11");
    // The same base as a folder of its own is fine.
    std::fs::remove_file(variant.parent().unwrap().join("linked_base")).unwrap();
    std::fs::rename(&base, variant.parent().unwrap().join("linked_base")).unwrap();
    meeple_engine::loader::load_mod(&variant).expect("a real base folder loads");
}

/// A mod folder holding `data.toml` and a journal `journal`, with files outside it that a
/// journal followed blindly would overwrite. Returns the mod folder and the outside folder.
fn mod_with_journal(id: &str, journal: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let manifest = manifest(id);
    let folder = write_mod(
        id,
        &[
            ("mod.toml", manifest.as_bytes()),
            ("data.toml", MINIMAL_DATA.as_bytes()),
            (".meeple-replace.journal", journal.as_bytes()),
        ],
    );
    let outside = folder.parent().unwrap().to_path_buf();
    std::fs::write(outside.join("victim.toml"), "the user's own file\n").unwrap();
    std::fs::write(outside.join(".victim.toml.1-0.tmp"), "written by the mod\n").unwrap();
    (folder, outside)
}

#[test]
fn loading_a_mod_never_follows_a_journal_out_of_its_folder() {
    let victim_of = |outside: &std::path::Path| {
        (std::fs::read_to_string(outside.join("victim.toml")).unwrap(), outside.join(".victim.toml.1-0.tmp").exists())
    };
    for (name, line) in [
        ("absolute", None),
        ("dotdot", Some("../.victim.toml.1-0.tmp\t../victim.toml")),
        ("not_staged", Some("../victim.toml\tdata.toml")),
        ("renamed_other", Some(".other.toml.1-0.tmp\tdata.toml")),
        ("no_tab", Some("data.toml")),
    ] {
        let id = format!("journal_{name}");
        let probe = write_mod("probe", &[]);
        let absolute = probe.parent().unwrap().join("nowhere");
        let line = line.map(String::from).unwrap_or_else(|| {
            format!("{}\t{}", absolute.join(".victim.toml.1-0.tmp").display(), absolute.join("victim.toml").display())
        });
        let (folder, outside) = mod_with_journal(&id, &format!(".mod.toml.1-0.tmp\tmod.toml\n{line}\n"));
        std::fs::write(folder.join(".mod.toml.1-0.tmp"), "not a manifest at all").unwrap();
        if name == "absolute" {
            std::fs::create_dir_all(&absolute).unwrap();
            std::fs::write(absolute.join("victim.toml"), "the user's own file\n").unwrap();
            std::fs::write(absolute.join(".victim.toml.1-0.tmp"), "written by the mod\n").unwrap();
        }
        let loaded = meeple_engine::loader::load_mod(&folder).unwrap_or_else(|e| panic!("{name}: {e:#?}"));
        let warning = only(&loaded.warnings);
        assert_eq!(warning.location(), format!("{}/.meeple-replace.journal:2", folder.display()), "{name}");
        assert!(
            warning.message.ends_with(
                "this is not a journal of Meeple's editor, so it is ignored and no file is renamed (delete it)"
            ),
            "{name}: {warning}"
        );
        assert_eq!(victim_of(&outside), ("the user's own file\n".to_string(), true), "{name}");
        if name == "absolute" {
            assert_eq!(victim_of(&absolute), ("the user's own file\n".to_string(), true), "{name}");
        }
        assert!(folder.join(".mod.toml.1-0.tmp").exists(), "{name}: nothing is renamed, inside the mod either");
        assert!(folder.join(".meeple-replace.journal").exists(), "{name}");
    }
}

#[test]
fn a_pending_save_is_read_as_it_will_finish_without_renaming_anything() {
    let changed = MINIMAL_DATA.replace("max = 8", "max = 9");
    let (folder, outside) =
        mod_with_journal("pending", ".data.toml.7-3.tmp\tdata.toml\n.gone.toml.7-4.tmp\tgone.toml\n");
    std::fs::write(folder.join(".data.toml.7-3.tmp"), &changed).unwrap();
    let loaded = meeple_engine::loader::load_mod(&folder).expect("loads");
    assert_eq!(loaded.ruleset.space_counters[0].max, 9, "the new text is read");
    let warning = only(&loaded.warnings);
    assert!(
        warning.message.starts_with("a save of this mod in the editor was interrupted: 1 file is read"),
        "{warning}"
    );
    assert_eq!(std::fs::read_to_string(folder.join("data.toml")).unwrap(), MINIMAL_DATA, "nothing is renamed");
    assert!(folder.join(".data.toml.7-3.tmp").exists() && folder.join(".meeple-replace.journal").exists());
    assert_eq!(std::fs::read_to_string(outside.join("victim.toml")).unwrap(), "the user's own file\n");
}

#[cfg(unix)]
#[test]
fn a_journal_that_is_a_pipe_or_a_link_is_not_read() {
    let (folder, _) = mod_with_journal("journal_kinds", "");
    let journal = folder.join(".meeple-replace.journal");
    std::fs::remove_file(&journal).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &journal).unwrap();
    let loaded = within_two_seconds("a linked journal", {
        let folder = folder.clone();
        move || meeple_engine::loader::load_mod(&folder)
    })
    .expect("loads");
    assert!(
        only(&loaded.warnings).message.starts_with("the file is a symbolic link; this is not a journal"),
        "{:?}",
        loaded.warnings
    );
    std::fs::remove_file(&journal).unwrap();
    if make_fifo(&journal) {
        let loaded = within_two_seconds("a journal that is a pipe", move || meeple_engine::loader::load_mod(&folder))
            .expect("loads");
        assert!(only(&loaded.warnings).message.contains("not an ordinary file"), "{:?}", loaded.warnings);
    }
}

/// A data file that cannot be read (not UTF-8, a link, too large) is reported once: what it
/// holds (here the board) is not reported missing from the data besides.
#[cfg(unix)]
#[test]
fn an_unreadable_data_file_is_not_reported_again_as_missing_keys() {
    let split = MINIMAL_DATA.find("[actions.push]").unwrap();
    let (board, rules) = MINIMAL_DATA.split_at(split);
    let latin1 = board.replace("land", "l\u{e0}nd").replace("\u{e0}", "\u{0}");
    let latin1: Vec<u8> = latin1.bytes().map(|b| if b == 0 { 0xe0 } else { b }).collect();
    let cases: Vec<(&str, Box<dyn Fn(&std::path::Path)>)> = vec![
        ("not_utf8", Box::new(move |path| std::fs::write(path, &latin1).unwrap())),
        ("too_large", Box::new(|path| std::fs::File::create(path).unwrap().set_len(9 << 20).unwrap())),
        (
            "linked",
            Box::new(move |path| {
                let real = path.parent().unwrap().parent().unwrap().join("real_board.toml");
                std::fs::write(&real, board).unwrap();
                std::os::unix::fs::symlink(&real, path).unwrap();
            }),
        ),
    ];
    for (name, write_board) in cases {
        let manifest = manifest(name);
        let folder = write_mod(name, &[("mod.toml", manifest.as_bytes()), ("rules.toml", rules.as_bytes())]);
        write_board(&folder.join("board.toml"));
        let found = problems(&folder);
        let text: Vec<String> = found.iter().map(|d| format!("{}: {}", at(d), d.message)).collect();
        assert!(text.iter().all(|t| !t.contains("missing required key")), "{name}: {text:#?}");
        assert!(text[0].starts_with("board.toml:"), "{name}: {text:#?}");
        assert_eq!(found.len(), 1, "{name}: {text:#?}");
    }
}
