//! Determinism at scale: thousands of seeded Dice Wars games, a thousand Dunes of Terror games
//! and three hundred of Dune 1984 (with answers out of turn) between computer players, each
//! played twice on engines that played different games before (the same actions, the same
//! state hashes at every checkpoint) and replayed from its seed and actions on a third (the same
//! hashes again); some go through a save file. The same
//! games played in another process — where `HashMap` seeds, Lua string hashes and addresses
//! all differ — end in the same hashes.
//!
//! `MEEPLE_DETERMINISM_DICE_WARS` and `MEEPLE_DETERMINISM_DUNES` set the number of games (by
//! default 10 000 and 1 000: about 65 s on two idle cores in the test profile, 40 s with
//! `--release`; the test profile already optimises, and most of the time is the engine's).

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use meeple_engine::ai;
use meeple_engine::game::state::fnv1a;
use meeple_engine::game::{Action, Engine, Events, GameSetup, GameState};
use meeple_engine::rules::Ruleset;
use meeple_engine::save::SaveFile;
use meeple_engine::sim::derive_seed;
use meeple_tests::load;

/// A state hash is taken every this many actions, so a divergence is found near where it
/// starts.
const CHECKPOINT_EVERY: usize = 64;
/// Longer than any real game: a game still going after this many actions is a failure.
const MAX_ACTIONS: usize = 200_000;
/// Every this many games also goes through a save file.
const SAVE_EVERY: u64 = 97;

/// One played game: what it takes to play it again and what it must come to.
struct Played {
    setup: GameSetup,
    levels: Vec<String>,
    history: Vec<(u8, Action)>,
    /// (actions taken, [`digest`]) every [`CHECKPOINT_EVERY`] actions, and (actions, full
    /// state hash) at the end.
    checkpoints: Vec<(usize, u64)>,
}

/// The computer levels of game `index`: the easy and medium players mixed, varying by game.
fn levels_for(seed: u64, seats: usize) -> Vec<String> {
    (0..seats).map(|seat| if (seed >> seat) & 1 == 0 { "easy" } else { "medium" }.to_string()).collect()
}

/// Plays game `seed` with `seats` computer players on `engine`.
fn play(engine: &mut Engine, rules: &Arc<Ruleset>, seed: u64, seats: usize) -> Result<Played, String> {
    let levels = levels_for(seed, seats);
    let mut setup = GameSetup::new(rules, seed, seats, "computer");
    for (seat, level) in setup.seats.iter_mut().zip(&levels) {
        seat.controller = level.clone();
    }
    let mut players = levels
        .iter()
        .enumerate()
        .map(|(seat, level)| ai::player(level, derive_seed(seed, 1000 + seat as u64)))
        .collect::<Result<Vec<_>, _>>()?;
    let mut events = Events::discard();
    let mut state = engine.new_game(&setup, &mut events).map_err(|e| format!("new game: {e}"))?;
    let mut history = Vec::new();
    let mut checkpoints = Vec::new();
    while !state.is_over() {
        if history.len() >= MAX_ACTIONS {
            return Err(format!("not over after {MAX_ACTIONS} actions"));
        }
        let seat = state.to_act();
        let action = players[seat as usize].decide(engine, &state).unwrap();
        engine
            .apply(&mut state, &action, &mut events)
            .map_err(|e| format!("action {}: {action:?} refused: {e}", history.len()))?;
        history.push((seat, action));
        if history.len().is_multiple_of(CHECKPOINT_EVERY) && !state.is_over() {
            checkpoints.push((history.len(), digest(&state)));
        }
    }
    checkpoints.push((history.len(), state.hash()));
    Ok(Played { setup, levels, history, checkpoints })
}

/// The hash of everything in the state but the board, which no action changes: the full hash
/// serialises the whole board each time, most of the cost on a large one. The full hash is
/// taken at the end of every game.
fn digest(state: &GameState) -> u64 {
    let parts = (
        &state.rng,
        &state.seats,
        &state.owners,
        &state.counters,
        &state.pieces,
        &state.decks,
        &state.vars,
        &state.turn,
        &state.outcome,
        &state.script_data,
    );
    fnv1a(&serde_json::to_vec(&parts).expect("a state serialises"))
}

/// The first checkpoint where two plays of one game differ.
fn first_difference(a: &Played, b: &Played) -> Option<String> {
    if a.levels != b.levels {
        return Some(format!("levels {:?} and {:?}", a.levels, b.levels));
    }
    let same_actions = a.history.iter().zip(&b.history).position(|(x, y)| x != y);
    if let Some(at) = same_actions {
        return Some(format!("action {at}: {:?} and {:?}", a.history[at], b.history[at]));
    }
    if a.history.len() != b.history.len() {
        return Some(format!("{} and {} actions", a.history.len(), b.history.len()));
    }
    a.checkpoints
        .iter()
        .zip(&b.checkpoints)
        .find(|(x, y)| x != y)
        .map(|(x, y)| format!("after {} actions: hash {:016x} and {:016x}", x.0, x.1, y.1))
}

/// Replays a played game's actions on `engine`, checking the hash at every checkpoint.
fn replay(engine: &mut Engine, played: &Played) -> Result<GameState, String> {
    let mut events = Events::discard();
    let mut state = engine.new_game(&played.setup, &mut events).map_err(|e| format!("replay: new game: {e}"))?;
    let mut checkpoints = played.checkpoints.iter().peekable();
    for (index, (seat, action)) in played.history.iter().enumerate() {
        engine
            .apply_as(&mut state, *seat, action, &mut events)
            .map_err(|e| format!("replay: action {index} {action:?} refused: {e}"))?;
        if let Some(&&(at, hash)) = checkpoints.peek()
            && at == index + 1
        {
            checkpoints.next();
            let found = if at == played.history.len() { state.hash() } else { digest(&state) };
            if found != hash {
                return Err(format!("replay: after {at} actions the hash is {found:016x}, not {hash:016x}"));
            }
        }
    }
    Ok(state)
}

fn games_from_env(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Plays `games` seeded games of `rules` on all cores: each twice on two engines with different
/// histories, replayed on a third, some through a save. Returns the failures.
fn play_many(rules: &Arc<Ruleset>, base_seed: u64, games: u64, seats: impl Fn(u64) -> usize + Sync) -> Vec<String> {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).min(games.max(1) as usize);
    let next = AtomicU64::new(0);
    let failures = Mutex::new(Vec::new());
    let actions = AtomicU64::new(0);
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                // Two players' engines that take turns being first, so the second play of a game
                // runs on an engine that played other games than the first; and a replayer.
                let mut engines = [Engine::new(rules.clone()).unwrap(), Engine::new(rules.clone()).unwrap()];
                let mut replayer = Engine::new(rules.clone()).unwrap();
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= games {
                        break;
                    }
                    let seed = derive_seed(base_seed, index);
                    let seats = seats(seed);
                    let first = index as usize % 2;
                    let result = (|| -> Result<(), String> {
                        let played = play(&mut engines[first], rules, seed, seats)?;
                        let again = play(&mut engines[1 - first], rules, seed, seats)?;
                        if let Some(difference) = first_difference(&played, &again) {
                            return Err(format!("played twice, the games differ: {difference}"));
                        }
                        let state = replay(&mut replayer, &played)?;
                        if index.is_multiple_of(SAVE_EVERY) {
                            let save = SaveFile::new(rules, &played.setup, &played.history, &state);
                            let text = serde_json::to_vec(&save).map_err(|e| e.to_string())?;
                            let loaded = SaveFile::parse(&text, "save").map_err(|e| e.to_string())?;
                            loaded.replay(&mut replayer, "save", &mut Events::discard()).map_err(|e| e.to_string())?;
                        }
                        actions.fetch_add(played.history.len() as u64, Ordering::Relaxed);
                        Ok(())
                    })();
                    if let Err(failure) = result {
                        failures.lock().unwrap().push(format!("game {index} (seed {seed}, {seats} seats): {failure}"));
                    }
                }
            });
        }
    });
    println!(
        "{}: {games} games ({} actions) played twice and replayed in {:.1} s on {threads} threads",
        rules.manifest.id,
        actions.load(Ordering::Relaxed),
        started.elapsed().as_secs_f64()
    );
    failures.into_inner().unwrap()
}

#[test]
fn dice_wars_games_play_and_replay_the_same() {
    let games = games_from_env("MEEPLE_DETERMINISM_DICE_WARS", 10_000);
    let failures = play_many(&load("dice_wars"), 1, games, |seed| 2 + (seed % 7) as usize);
    assert!(failures.is_empty(), "{} of {games} games failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn dunes_of_terror_games_play_and_replay_the_same() {
    let games = games_from_env("MEEPLE_DETERMINISM_DUNES", 1_000);
    // Two to eight characters a side.
    let failures = play_many(&load("dunes_of_terror"), 2, games, |seed| 2 * (1 + (seed % 4) as usize));
    assert!(failures.is_empty(), "{} of {games} games failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn dune_1984_games_play_and_replay_the_same() {
    let games = games_from_env("MEEPLE_DETERMINISM_DUNE", 300);
    // Three and four houses; ambushes, fights and braces are answered out of turn.
    let failures = play_many(&load("dune_1984"), 4, games, |seed| 3 + (seed % 2) as usize);
    assert!(failures.is_empty(), "{} of {games} games failed:\n{}", failures.len(), failures.join("\n"));
}

/// The environment variable that makes this test binary, started by
/// [`the_same_games_end_the_same_in_another_process`], print its hashes instead.
const CHILD: &str = "MEEPLE_DETERMINISM_CHILD";

/// Final hashes of a few games of each mod, one line each.
fn final_hashes() -> Vec<String> {
    let mut lines = Vec::new();
    for (id, games, seats) in [("dice_wars", 12u64, 4usize), ("dunes_of_terror", 3, 4), ("dune_1984", 4, 4)] {
        let rules = load(id);
        let mut engine = Engine::new(rules.clone()).unwrap();
        for index in 0..games {
            let seed = derive_seed(3, index);
            let played = play(&mut engine, &rules, seed, seats).unwrap_or_else(|e| panic!("{id} game {index}: {e}"));
            let (actions, hash) = played.checkpoints.last().copied().unwrap();
            lines.push(format!("{id} game {index}: {actions} actions, hash {hash:016x}"));
        }
    }
    lines
}

#[test]
fn the_same_games_end_the_same_in_another_process() {
    if std::env::var_os(CHILD).is_some() {
        for line in final_hashes() {
            println!("HASH {line}");
        }
        return;
    }
    // This test binary again, running only this test, as the child.
    let output = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "the_same_games_end_the_same_in_another_process", "--nocapture", "--test-threads", "1"])
        .env(CHILD, "1")
        .output()
        .expect("the test binary starts again");
    assert!(output.status.success(), "the child failed: {}", String::from_utf8_lossy(&output.stderr));
    let child: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        // The harness writes the test's name on the line of its first output.
        .filter_map(|line| line.split_once("HASH ").map(|(_, hash)| hash.to_string()))
        .collect();
    let here = final_hashes();
    assert!(!here.is_empty());
    assert_eq!(child, here, "the games end differently in another process");
}

/// Writes a small mod whose one action sets the variable `count` to what the Lua function
/// `tick` of `hook` returns, and loads it.
fn mod_with_hook(name: &str, hook: &str) -> Arc<Ruleset> {
    let folder = std::env::temp_dir().join(format!("meeple-{name}-{}", std::process::id())).join(name);
    std::fs::create_dir_all(folder.join("hooks")).unwrap();
    let manifest = format!(
        "id = \"{name}\"\nname = \"{name}\"\nversion = \"0.1.0\"\napi = 1\n\
         description = \"A hook under test.\"\nseats = {{ min = 2, max = 2 }}\n"
    );
    let data = "[board]\nkind = \"graph\"\nterrain = \"land\"\nspaces = [{ id = \"a\" }, { id = \"b\" }]\n\
                links = [[\"a\", \"b\"]]\n\n[terrain.land]\nlabel = \"Land\"\n\n[vars]\ncount = 0\n\n\
                [actions.tick]\nlabel = \"Tick\"\neffect = [\"count = hook('tick')\"]\n\n[end]\nturn_limit = 4\n";
    for (file, text) in [("mod.toml", manifest.as_str()), ("data.toml", data), ("hooks/tick.lua", hook)] {
        std::fs::write(folder.join(file), text).unwrap();
    }
    let loaded = meeple_engine::loader::load_mod(&folder);
    std::fs::remove_dir_all(folder.parent().unwrap()).ok();
    loaded.unwrap_or_else(|p| panic!("{p:?}")).ruleset
}

/// Plays a game of a [`mod_with_hook`] mod: one tick a turn, then pass, until the turn limit
/// ends it; returns the variables.
fn play_ticks(engine: &mut Engine) -> Vec<i64> {
    let setup = GameSetup::new(engine.rules(), 1, 2, "human");
    let mut state = engine.new_game(&setup, &mut Events::discard()).unwrap();
    let mut legal = Vec::new();
    let mut ticked = false;
    while !state.is_over() {
        engine.legal_actions(&state, &mut legal).unwrap();
        let tick = legal.iter().find(|a| !a.is_pass()).copied().filter(|_| !ticked);
        ticked = tick.is_some();
        engine.apply(&mut state, &tick.unwrap_or_else(Action::pass), &mut Events::discard()).unwrap();
    }
    state.vars.clone()
}

#[test]
fn what_a_hook_keeps_in_lua_does_not_carry_over_to_the_next_game() {
    // An engine plays many games (a simulation thread does): were the Lua state kept from one
    // game to the next, a game would depend on the games its engine played before, and a
    // simulation on how its games fell to threads. (Hooks should keep their data in the state,
    // `game.put`; this one counts in a Lua variable of its own.)
    let rules =
        mod_with_hook("counting", "local calls = 0\nfunction tick()\n  calls = calls + 1\n  return calls\nend\n");
    let mut engine = Engine::new(rules).unwrap();
    let first = play_ticks(&mut engine);
    assert_eq!(first, vec![4], "one tick in each of four turns");
    assert_eq!(play_ticks(&mut engine), first, "the second game on the same engine counts on from the first");
}

#[test]
fn pairs_visits_keys_in_the_same_order_in_every_lua_state() {
    // Lua seeds its string hashes at random per state, so `next` meets string keys in another
    // order in every engine: `pairs`, which hooks use, must not.
    let hook = "function tick()\n  local t = { alpha = 1, beta = 2, gamma = 3, delta = 4, epsilon = 5, zeta = 6, eta = 7, theta = 8 }\n  \
                local n = 0\n  for _, v in pairs(t) do n = n * 10 + v end\n  return n\nend\n";
    let rules = mod_with_hook("ordered", hook);
    let orders: std::collections::BTreeSet<Vec<i64>> =
        (0..8).map(|_| play_ticks(&mut Engine::new(rules.clone()).unwrap())).collect();
    assert_eq!(orders.len(), 1, "orders differ between Lua states: {orders:?}");
}
