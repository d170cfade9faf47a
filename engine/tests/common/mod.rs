//! Helpers for the engine's own tests: loading fixture mods and writing throwaway mods.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use meeple_engine::diag::Diagnostic;
use meeple_engine::game::{Action, Engine, Events, GameSetup, GameState};
use meeple_engine::loader::load_mod;
use meeple_engine::rules::Ruleset;

/// A fixture mod under `engine/tests/fixtures/`.
pub fn fixture(name: &str) -> Arc<Ruleset> {
    loaded(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name))
}

/// The mod in `folder`, which must load; its problems, one a line, when it does not.
pub fn loaded(folder: &Path) -> Arc<Ruleset> {
    match load_mod(folder) {
        Ok(loaded) => loaded.ruleset,
        Err(problems) => panic!(
            "{} does not load:\n{}",
            folder.display(),
            problems.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("\n")
        ),
    }
}

/// A new game of a ruleset with `seats` seats.
pub fn new_game(rules: &Arc<Ruleset>, seed: u64, seats: usize) -> (Engine, GameState, Events) {
    let mut engine = Engine::new(rules.clone()).expect("engine");
    let mut events = Events::recording();
    let setup = GameSetup::new(rules, seed, seats, "human");
    let state = engine.new_game(&setup, &mut events).expect("game starts");
    (engine, state, events)
}

/// The legal actions of the seat to move.
pub fn legal(engine: &mut Engine, state: &GameState) -> Vec<Action> {
    let mut out = Vec::new();
    engine.legal_actions(state, &mut out).unwrap();
    out
}

/// A mod folder written from (relative path, contents) pairs into a fresh temporary folder
/// whose name is the mod id `id`.
pub fn write_mod(id: &str, files: &[(&str, &[u8])]) -> PathBuf {
    static COUNTER: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let root = std::env::temp_dir().join(format!("meeple-test-{}-{n}", std::process::id()));
    let folder = root.join(id);
    let _ = std::fs::remove_dir_all(&folder);
    for (path, contents) in files {
        let target = folder.join(path);
        std::fs::create_dir_all(target.parent().expect("has a parent")).expect("create folder");
        std::fs::write(target, contents).expect("write file");
    }
    folder
}

/// Writes mod folders side by side in a fresh folder, for mods that extend one another:
/// (id, [(relative path, contents)]). Returns the folder holding them.
#[allow(dead_code)]
pub fn write_mods<C: AsRef<[u8]>>(mods: &[(&str, Vec<(&str, C)>)]) -> PathBuf {
    static COUNTER: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let root = std::env::temp_dir().join(format!("meeple-mods-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    for (id, files) in mods {
        for (path, contents) in files {
            let target = root.join(id).join(path);
            std::fs::create_dir_all(target.parent().expect("has a parent")).expect("create folder");
            std::fs::write(target, contents).expect("write file");
        }
    }
    root
}

/// Loads a mod expected to be broken; returns its problems rendered as text.
pub fn problems(folder: &Path) -> Vec<Diagnostic> {
    match load_mod(folder) {
        Ok(_) => panic!("{} loaded but should not", folder.display()),
        Err(problems) => problems,
    }
}

/// Loads a mod of one data file written to a temporary folder (removed again): its ruleset, or
/// its problems as text.
pub fn load_data(id: &str, data: &str) -> Result<Arc<Ruleset>, String> {
    let manifest = manifest(id);
    let folder = write_mod(id, &[("mod.toml", manifest.as_bytes()), ("data.toml", data.as_bytes())]);
    let loaded = load_mod(&folder);
    std::fs::remove_dir_all(&folder).ok();
    loaded.map(|l| l.ruleset).map_err(|found| found.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("\n"))
}

/// A minimal valid manifest for mod `id`.
pub fn manifest(id: &str) -> String {
    format!(
        "id = \"{id}\"\nname = \"T\"\nversion = \"1.0.0\"\napi = 1\ndescription = \"d\"\nseats = {{ min = 2, max = 2 }}\n"
    )
}

/// A minimal valid data file: two linked spaces, one counter, one action.
pub const MINIMAL_DATA: &str = r#"
[board]
kind = "graph"
terrain = "land"
spaces = [{ id = "a" }, { id = "b" }]
links = [["a", "b"]]

[terrain.land]

[space_counters.dice]
max = 8

[actions.push]
label = "Push"
params = [{ name = "from", kind = "space", owned_by = "me" }]
effect = ["from.dice += 1"]

[end]
win = "seat.number == 99"
"#;

/// Plays `seeds` two-seat games of up to `steps` random legal actions each: every state keeps
/// the invariants, an action that fails leaves the game exactly as it was, and the actions
/// taken replay to the same game.
pub fn random_play_replays(rules: &Arc<Ruleset>, seeds: u64, steps: usize) {
    for seed in 1..=seeds {
        let (mut engine, mut state, _) = new_game(rules, seed, 2);
        let mut chosen = Vec::new();
        let mut pick = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        for _ in 0..steps {
            if state.outcome.is_some() {
                break;
            }
            let options = legal(&mut engine, &state);
            pick = pick.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let action = options[(pick >> 33) as usize % options.len()];
            let before = state.hash();
            if engine.apply(&mut state, &action, &mut Events::discard()).is_err() {
                assert_eq!(state.hash(), before, "seed {seed}: {action:?} failed and changed the game");
                continue;
            }
            state.check_invariants(rules).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            chosen.push(action);
        }
        let (mut replay_engine, mut replay, _) = new_game(rules, seed, 2);
        for action in &chosen {
            replay_engine.apply(&mut replay, action, &mut Events::discard()).unwrap();
        }
        assert_eq!(replay.hash(), state.hash(), "seed {seed}");
    }
}
