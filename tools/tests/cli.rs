//! The `meeple` command as a user runs it: exit codes, located errors, deterministic
//! simulation output, scripted runs, saves and replays, the Lua console.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn meeple(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_meeple")).args(args).current_dir(root()).output().expect("meeple runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).to_string()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("meeple-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A copy of the Dice Wars mod with `edit` applied to its rules file.
fn broken_copy(name: &str, file: &str, edit: impl Fn(String) -> String) -> PathBuf {
    let folder = temp(name).join("dice_wars");
    std::fs::create_dir_all(folder.join("tests")).unwrap();
    for entry in std::fs::read_dir(root().join("mods/dice_wars")).unwrap().flatten() {
        if entry.path().is_file() {
            std::fs::copy(entry.path(), folder.join(entry.file_name())).unwrap();
        }
    }
    let path = folder.join(file);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let changed = edit(std::fs::read_to_string(&path).unwrap_or_default());
    std::fs::write(&path, changed).unwrap();
    folder
}

#[test]
fn check_passes_on_bundled_mods() {
    let out = meeple(&["check"]);
    assert!(out.status.success(), "{}{}", text(&out.stdout), text(&out.stderr));
    assert!(text(&out.stdout).contains("ok    dice_wars"));
}

#[test]
fn check_fails_with_located_errors_on_broken_copies() {
    let cases: Vec<(&str, &str, Box<dyn Fn(String) -> String>, &str)> = vec![
        (
            "wrong_type",
            "rules.toml",
            Box::new(|s| s.replace("max = 8 ", "max = \"8\" ")),
            "rules.toml:8:7: error: [space_counters.dice] key `max`: expected an integer, found a string",
        ),
        (
            "unknown_key",
            "rules.toml",
            Box::new(|s| s.replace("auto_pass = true", "auto_pas = true")),
            "key `auto_pas`: unknown key `auto_pas`; did you mean `auto_pass`?",
        ),
        (
            "misspelled_ref",
            "rules.toml",
            Box::new(|s| s.replace("largest_group(me)", "largest_grup(me)")),
            "unknown function `largest_grup`; did you mean `largest_group`?",
        ),
        ("lua_syntax", "hooks/broken.lua", Box::new(|_| "function f(\n".into()), "hooks/broken.lua:2: "),
        (
            "lua_runtime",
            "hooks/broken.lua",
            Box::new(|_| "local t = nil\nprint(t.x)\n".into()),
            "hooks/broken.lua:2: error: attempt to index a nil value",
        ),
        (
            "lua_loop",
            "hooks/broken.lua",
            Box::new(|_| "while true do end\n".into()),
            "hooks/broken.lua:1: error: the script ran more than",
        ),
    ];
    for (name, file, edit, expected) in cases {
        let folder = broken_copy(name, file, edit);
        let started = std::time::Instant::now();
        let out = meeple(&["check", folder.to_str().unwrap()]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name}: {stderr}");
        assert!(stderr.contains(expected), "{name}: expected {expected:?} in:\n{stderr}");
        assert!(!stderr.contains("panicked"), "{name}: {stderr}");
        assert!(started.elapsed().as_secs() < 10, "{name} took too long");
    }
}

#[test]
fn an_endless_loop_in_a_hook_during_play_is_refused_not_hung() {
    let folder = broken_copy("loop_in_play", "rules.toml", |s| {
        s.replace("effect = [\"from.dice = 1\"]", "effect = [\"from.dice = 1\", \"hook('spin')\"]")
    });
    std::fs::create_dir_all(folder.join("hooks")).unwrap();
    std::fs::write(folder.join("hooks/spin.lua"), "function spin()\n  while true do end\nend\n").unwrap();
    let out = meeple(&["check", folder.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Take the first legal attack of seed 3: its hook spins, so it is refused with a located
    // error, and the game stays as it was.
    let start = meeple(&["run", folder.to_str().unwrap(), "--seed", "3", "--players", "2", "--no-events"]);
    let start: serde_json::Value = serde_json::from_slice(&start.stdout).unwrap();
    let attack = start["legal"].as_array().unwrap().iter().find(|a| a["action"] == "attack").unwrap().clone();
    let script = temp("loop_script.json");
    std::fs::write(&script, serde_json::json!({ "actions": [attack] }).to_string()).unwrap();
    let started = std::time::Instant::now();
    let out = meeple(&[
        "run",
        folder.to_str().unwrap(),
        "--seed",
        "3",
        "--players",
        "2",
        "--actions",
        script.to_str().unwrap(),
        "--no-events",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(started.elapsed().as_secs() < 5);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("hook `spin`") && stderr.contains("hooks/spin.lua:2: the script ran more than"),
        "{stderr}"
    );
    let after: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(after["state"]["hash"], start["state"]["hash"], "a refused action leaves the state as it was");
}

#[test]
fn sim_json_is_deterministic_and_rates_sum_to_one() {
    let run = || {
        let out = meeple(&["sim", "dice_wars", "--games", "200", "--seed", "1", "--json"]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let mut report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        report.as_object_mut().unwrap().remove("timing");
        report
    };
    let first = run();
    assert_eq!(first, run());
    let mut total = first["draws"]["rate"].as_f64().unwrap();
    for seat in first["per_seat"].as_array().unwrap() {
        total += seat["wins"]["rate"].as_f64().unwrap();
    }
    assert!((total - 1.0).abs() < 1e-9, "{total}");
    assert_eq!(first["games"], 200);
}

#[test]
fn run_save_and_replay_verify() {
    let start = meeple(&["run", "dice_wars", "--seed", "11", "--players", "3", "--no-events"]);
    assert!(start.status.success());
    let state: serde_json::Value = serde_json::from_slice(&start.stdout).unwrap();
    assert_eq!(state["state"]["turn"], 1);
    // Pass three turns, then save and replay.
    let script = temp("three_passes.toml");
    std::fs::write(
        &script,
        "[[actions]]\naction = \"pass\"\n[[actions]]\naction = \"pass\"\n[[actions]]\naction = \"pass\"\n",
    )
    .unwrap();
    let save = temp("three_passes.save.json");
    let out = meeple(&[
        "run",
        "dice_wars",
        "--seed",
        "11",
        "--players",
        "3",
        "--actions",
        script.to_str().unwrap(),
        "--save",
        save.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let result: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(result["state"]["turn"], 4);
    assert!(result["events"].as_array().unwrap().iter().any(|e| e["event"] == "turn_ended"));
    let out = meeple(&["replay", save.to_str().unwrap(), "--verify"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("3 actions replayed"), "{}", text(&out.stdout));
    // A tampered save fails verification.
    let mut saved: serde_json::Value = serde_json::from_slice(&std::fs::read(&save).unwrap()).unwrap();
    saved["state_hash"] = "0000000000000000".into();
    std::fs::write(&save, serde_json::to_vec(&saved).unwrap()).unwrap();
    let out = meeple(&["replay", save.to_str().unwrap(), "--verify"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("differs from the saved one"), "{}", text(&out.stderr));
}

#[test]
fn a_refused_scripted_action_names_it() {
    let script = temp("bad.json");
    std::fs::write(&script, r#"{ "actions": [ { "action": "atack", "from": "1", "to": "2" } ] }"#).unwrap();
    let out = meeple(&["run", "dice_wars", "--actions", script.to_str().unwrap(), "--no-events"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("unknown action `atack`; did you mean `attack`?"), "{}", text(&out.stderr));
}

#[test]
fn test_and_lua_commands() {
    let out = meeple(&["test", "dice_wars"]);
    assert!(out.status.success(), "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains(" passed, 0 failed"), "{}", text(&out.stdout));
    let out = meeple(&["lua", "dice_wars", "-e", "game.space_count(), game.counter(1, 'dice') >= 1"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), "32\ttrue");
    let out = meeple(&["lua", "dice_wars", "-e", "io.open('x')"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("attempt to index a nil value (global 'io')"), "{}", text(&out.stderr));
}

#[test]
fn schema_check_reports_fresh_schemas() {
    let out = meeple(&["schema", "--check"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn check_finds_a_scenario_test_file_that_does_not_parse() {
    let folder = broken_copy("broken_test_file", "tests/broken.lua", |_| {
        "test(\"x\", function()\n  if true then\nend)\n".into()
    });
    let out = meeple(&["check", folder.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("tests/broken.lua:3: error: unexpected symbol near ')'"), "{err}");
}

/// `meeple test` in a mod's folder: what a test prints, under its name; a failure's whole
/// message, every line; Lua paths from inside the mod folder, hooks included; `--filter`.
#[test]
fn test_prints_output_whole_failures_and_paths_inside_the_mod() {
    let folder = temp("test_output").join("tiny");
    std::fs::create_dir_all(folder.join("hooks")).unwrap();
    std::fs::create_dir_all(folder.join("tests")).unwrap();
    let fixture = root().join("engine/tests/fixtures/tiny");
    for file in ["mod.toml", "data.toml", "hooks/main.lua"] {
        std::fs::copy(fixture.join(file), folder.join(file)).unwrap();
    }
    let tests = "test(\"prints\", function() print(\"hello\", 1) end)\n\
                 test(\"fails over lines\", function() error(\"first\\nsecond\") end)\n\
                 test(\"hook error\", function()\n  local g = scenario.new{ seats = 2 }\n  g:act{ action = \"collect\" }\n  g:pass()\n  g:act{ action = \"boom\" }\nend)\n";
    std::fs::write(folder.join("tests/cards.lua"), tests).unwrap();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_meeple")).args(args).current_dir(&folder).output().expect("meeple runs")
    };

    let out = run(&["test", "."]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("ok    tests/cards.lua › prints\n      | hello\t1\n"), "{stdout}");
    assert!(
        stdout.contains("FAIL  tests/cards.lua › fails over lines\n      tests/cards.lua:2: first\n      second\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("FAIL  tests/cards.lua › hook error\n      tests/cards.lua:7: the action was refused"),
        "{stdout}"
    );
    assert!(stdout.contains("hook `explode`: hooks/main.lua:8: boom went wrong"), "{stdout}");
    assert!(!stdout.contains("/hooks/") && !stdout.contains("tiny/"), "{stdout}");
    assert!(stdout.ends_with("1 passed, 2 failed\n"), "{stdout}");

    let out = run(&["test", ".", "--filter", "prints"]);
    assert!(out.status.success(), "{}", text(&out.stdout));
    assert!(text(&out.stdout).ends_with("1 passed, 0 failed\n"), "{}", text(&out.stdout));
    let out = run(&["test", ".", "--filter", "nothing like it"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("no test's name contains `nothing like it`"), "{}", text(&out.stderr));
}
