//! Benchmark: the cost of one Lua hook call through the engine. Applies an action whose effect
//! calls `hook("add", at.n, 1)` and an identical action without the hook (the fixture mod
//! `tests/fixtures/bench_hook`); the difference is the cost of one call. Also measures a turn
//! end with and without a `meeple.on("turn_end", …)` handler, and raw `mlua` calls for
//! reference.
//!
//! `cargo bench -p meeple-tests --bench lua_hook`; figures in `docs/performance.md`.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use criterion::Criterion;
use meeple_engine::game::{Action, Engine, Events, GameSetup, GameState};
use meeple_engine::loader::load_mod;
use meeple_engine::rules::Ruleset;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/bench_hook")
}

fn load(folder: &Path) -> Arc<Ruleset> {
    match load_mod(folder) {
        Ok(loaded) => loaded.ruleset,
        Err(diagnostics) => panic!("{} does not load: {diagnostics:?}", folder.display()),
    }
}

/// The fixture with one more hook file registering an empty `turn_end` handler, in a
/// temporary folder (named like the mod, as the loader requires). Returns (mod folder, parent).
fn fixture_with_handler() -> (PathBuf, PathBuf) {
    let parent = std::env::temp_dir().join(format!("meeple-bench-{}", std::process::id()));
    let folder = parent.join("bench_hook");
    std::fs::create_dir_all(folder.join("hooks")).expect("temporary folder");
    for file in ["mod.toml", "rules.toml", "hooks/bench.lua"] {
        std::fs::copy(fixture().join(file), folder.join(file)).expect("copy the fixture");
    }
    std::fs::write(folder.join("hooks/events.lua"), "meeple.on(\"turn_end\", function(seat) end)\n")
        .expect("write the handler");
    (folder, parent)
}

/// A game of the fixture and its actions by id, applied to space `a`.
struct Bench {
    engine: Engine,
    state: GameState,
    plain: Action,
    hooked: Action,
}

fn bench_game(rules: Arc<Ruleset>) -> Bench {
    let mut engine = Engine::new(rules.clone()).expect("the engine starts");
    let setup = GameSetup::new(&rules, 1, 1, "human");
    let state = engine.new_game(&setup, &mut Events::discard()).expect("the game starts");
    let a = state.board.find("a").expect("space a") as i64;
    let action = |id: &str| Action::rule(rules.action_index(id).expect("action") as u16, &[a]);
    let (plain, hooked) = (action("plain"), action("hooked"));
    // Both actions must be legal and do the same thing.
    let mut legal = Vec::new();
    engine.legal_actions(&state, &mut legal).unwrap();
    assert!(legal.contains(&plain) && legal.contains(&hooked), "{legal:?}");
    let mut check = state.clone();
    let mut events = Events::discard();
    engine.apply(&mut check, &plain, &mut events).unwrap();
    engine.apply(&mut check, &hooked, &mut events).unwrap();
    let n = rules.counter_index("n").unwrap() as u16;
    assert_eq!(check.counter(a as u32, n), 2);
    Bench { engine, state, plain, hooked }
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("lua_hook");
    group.sample_size(20).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));

    let Bench { mut engine, mut state, plain, hooked } = bench_game(load(&fixture()));
    let mut events = Events::discard();
    group.bench_function("apply_plain", |b| {
        b.iter(|| engine.apply(&mut state, black_box(&plain), &mut events).unwrap())
    });
    group.bench_function("apply_hooked", |b| {
        b.iter(|| engine.apply(&mut state, black_box(&hooked), &mut events).unwrap())
    });
    // Ending the turn (one seat: the next turn is the same seat's). The turn number is reset so
    // the turn limit never ends the game.
    let pass = Action::pass();
    group.bench_function("pass_no_handler", |b| {
        b.iter(|| {
            state.turn.number = 1;
            engine.apply(&mut state, black_box(&pass), &mut events).unwrap()
        })
    });

    let (folder, parent) = fixture_with_handler();
    let Bench { engine: mut with_handler, state: mut handled, plain, .. } = bench_game(load(&folder));
    let _ = std::fs::remove_dir_all(&parent);
    group.bench_function("pass_turn_end_handler", |b| {
        b.iter(|| {
            handled.turn.number = 1;
            with_handler.apply(&mut handled, black_box(&pass), &mut events).unwrap()
        })
    });
    // With any event handler every action may fail, so the engine snapshots the state first.
    group.bench_function("apply_plain_with_handler_loaded", |b| {
        b.iter(|| with_handler.apply(&mut handled, black_box(&plain), &mut events).unwrap())
    });

    // Raw mlua, for reference: a Lua function with two integer arguments, called from Rust.
    let lua = mlua::Lua::new();
    lua.load("function add(a, b) return a + b end").exec().unwrap();
    let add: mlua::Function = lua.globals().get("add").unwrap();
    let mut x = 0i64;
    group.bench_function("raw_mlua_call", |b| {
        b.iter(|| {
            x = add.call::<i64>((black_box(x), 1i64)).unwrap();
        })
    });
    // The same in the engine's sandboxed state (instruction-count hook, memory limit).
    let (sandboxed, budget) = meeple_engine::lua::sandbox::new_state().unwrap();
    sandboxed.load("function add(a, b) return a + b end").exec().unwrap();
    let add: mlua::Function = sandboxed.globals().get("add").unwrap();
    // The engine starts a fresh instruction budget for every call, as here.
    group.bench_function("raw_mlua_call_sandboxed", |b| {
        b.iter(|| {
            budget.start();
            x = add.call::<i64>((black_box(x), 1i64)).unwrap();
        })
    });
    black_box(x);
    group.finish();
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    benches(&mut criterion);
    criterion.final_summary();
}
