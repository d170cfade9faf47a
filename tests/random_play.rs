//! Random play on every bundled mod: seeded games with random seat counts, each action chosen
//! uniformly among the legal ones, with illegal actions thrown in between. Nothing may panic;
//! every refused action leaves the state byte for byte as it was; every state keeps the
//! engine's invariants (`GameState::check_invariants`), serialises and deserialises to the same
//! hash; saves taken mid-game replay to their hash; a game continued from a deserialised copy
//! on another engine stays the same game; undo and redo in the player's session come back to the
//! same hashes; and a game whose turn limit is short ends by it.
//!
//! Failures name the mod, the game's seed and seat count, and the step, and the run reproduces
//! them: `MEEPLE_RANDOM_SEED` sets the base seed (the default is fixed), `MEEPLE_RANDOM_GAMES`
//! the games per mod, `MEEPLE_RANDOM_STEPS` the actions per game, `MEEPLE_RANDOM_MOD` one mod.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use meeple::player::session::Session;
use meeple_engine::defs::ParamKind;
use meeple_engine::game::state::{NO_SEAT, NO_SPACE};
use meeple_engine::game::{Action, ActionKind, Engine, Events, GameSetup, GameState, MAX_PARAMS, NOT_CHOSEN};
use meeple_engine::loader::{Overlay, load_mod, load_mod_edited};
use meeple_engine::rules::Ruleset;
use meeple_engine::save::SaveFile;
use meeple_engine::sim::derive_seed;
use meeple_tests::bundled;
use meeple_tests::panic_text;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

/// A seeded stream for the test's own choices (never the game's).
struct Chooser(ChaCha8Rng);

impl Chooser {
    fn new(seed: u64) -> Self {
        Self(ChaCha8Rng::seed_from_u64(seed))
    }

    /// Uniform in `0..n` (`n` > 0); the modulo bias is irrelevant here.
    fn below(&mut self, n: usize) -> usize {
        (self.0.next_u64() % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn any_i64(&mut self) -> i64 {
        self.0.next_u64() as i64
    }
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The bundled mods to play: all, or the one `MEEPLE_RANDOM_MOD` names.
fn mods_to_play() -> Vec<(String, PathBuf)> {
    let only = std::env::var("MEEPLE_RANDOM_MOD").ok();
    let mods: Vec<(String, PathBuf)> = bundled()
        .into_iter()
        .map(|folder| (folder.file_name().unwrap().to_string_lossy().to_string(), folder))
        .filter(|(id, _)| only.as_ref().is_none_or(|o| o == id))
        .collect();
    assert!(!mods.is_empty(), "no bundled mod to play (MEEPLE_RANDOM_MOD = {only:?})");
    mods
}

fn load_or_panic(folder: &std::path::Path) -> Arc<Ruleset> {
    match load_mod(folder) {
        Ok(loaded) => loaded.ruleset,
        Err(problems) => panic!("{} does not load: {problems:?}", folder.display()),
    }
}

/// Runs `jobs` on both cores (or as many as there are), in any order; returns the failures in
/// job order.
fn run_parallel<J: Sync>(jobs: &[J], work: impl Fn(&J) -> Result<(), String> + Sync) -> Vec<String> {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).min(jobs.len().max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(job) = jobs.get(index) else { break };
                    let outcome = catch_unwind(AssertUnwindSafe(|| work(job)));
                    let failure = match outcome {
                        Ok(Ok(())) => continue,
                        Ok(Err(failure)) => failure,
                        Err(payload) => format!("PANIC: {}", panic_text(&*payload)),
                    };
                    failures.lock().unwrap().push((index, failure));
                }
            });
        }
    });
    let mut failures = failures.into_inner().unwrap();
    failures.sort();
    failures.into_iter().map(|(_, f)| f).collect()
}

/// One game to play.
struct GameJob {
    mod_id: String,
    rules: Arc<Ruleset>,
    seed: u64,
    seats: usize,
    max_steps: usize,
}

impl GameJob {
    fn describe(&self) -> String {
        format!(
            "mod {}, seed {}, {} seats (reproduce: MEEPLE_RANDOM_MOD={} MEEPLE_RANDOM_SEED={} and this game's index)",
            self.mod_id,
            self.seed,
            self.seats,
            self.mod_id,
            base_seed()
        )
    }
}

fn base_seed() -> u64 {
    env_number("MEEPLE_RANDOM_SEED", 2024)
}

/// What a game of random play found out, for the summary line.
#[derive(Default)]
struct PlayStats {
    actions: usize,
    probes: usize,
    probes_accepted: usize,
    finished: bool,
    /// Where the game stood at the end: turn, round and phase.
    stood: String,
}

/// The state's bytes as saved: what "unchanged" and "the same game" are measured by.
fn bytes(state: &GameState) -> Vec<u8> {
    serde_json::to_vec(state).expect("a state serialises")
}

/// Everything the state saves but the board, which no action changes (it is shared, and
/// compared by address): as exact as [`bytes`] about what an action may change, at a fraction
/// of the cost on large boards.
fn bytes_but_board(state: &GameState) -> (usize, Vec<u8>) {
    let parts = (
        &state.rng,
        &state.seats,
        &state.owners,
        &state.counters,
        state.counter_count,
        &state.pieces,
        &state.decks,
        &state.vars,
        &state.turn,
        &state.outcome,
        &state.script_data,
    );
    (Arc::as_ptr(&state.board) as usize, serde_json::to_vec(&parts).expect("a state serialises"))
}

/// The state written out and read back, as a save's snapshot is.
fn round_trip(state: &GameState) -> GameState {
    let mut copy: GameState = serde_json::from_slice(&bytes(state)).expect("a serialised state reads back");
    copy.rebuild_derived();
    copy
}

/// Whether `action` is one of `legal`: the same action with the same arguments, down to the
/// unused slots (a staged action keeps its arguments in the state). Passing, leaving and
/// cancelling have no arguments: theirs are never read.
fn is_listed(legal: &[Action], action: &Action) -> bool {
    legal.iter().any(|l| l.kind == action.kind && (l.args == action.args || !matches!(l.kind, ActionKind::Rule(_))))
}

/// Numbers that sit on the edges of what arguments may be: out of range, negative, huge, the
/// "not chosen" marker, held-item encodings one off.
fn odd_argument(chooser: &mut Chooser, state: &GameState) -> i64 {
    let spaces = state.board.space_count() as i64;
    let pieces = state.pieces.len() as i64;
    let seats = state.seats.len() as i64;
    let candidates = [
        0,
        1,
        -1,
        2,
        spaces - 1,
        spaces,
        spaces + 1,
        pieces,
        pieces - 1,
        seats,
        seats - 1,
        i64::from(NO_SEAT),
        255,
        256,
        257,
        i64::from(u16::MAX),
        i64::from(NO_SPACE),
        i64::from(u32::MAX) + 1,
        i64::MAX,
        i64::MIN,
        i64::MIN + 1,
        NOT_CHOSEN,
        // A held item: piece * 256 + position; positions and pieces past the end; and
        // encodings whose piece number does not fit 32 bits.
        pieces * 256,
        (pieces - 1).max(0) * 256 + 255,
        (1 << 40) + 1,
        chooser.any_i64(),
    ];
    match chooser.below(3) {
        0 => chooser.below(spaces.max(1) as usize * 2) as i64 - 2,
        _ => candidates[chooser.below(candidates.len())],
    }
}

/// An action that is most likely illegal: a listed action with one argument bent, an unused
/// argument slot filled, a random action of the mod, or pass/leave/cancel out of place; with the
/// seat that would take it (sometimes not the seat to move).
fn random_probe(chooser: &mut Chooser, rules: &Ruleset, state: &GameState, legal: &[Action]) -> (u8, Action) {
    let seats = state.seats.len();
    let seat = if chooser.chance(15) { chooser.below(seats + 1) as u8 } else { state.to_act() };
    let action = match chooser.below(6) {
        0 | 1 => {
            let mut action = legal[chooser.below(legal.len())];
            let slot = chooser.below(MAX_PARAMS);
            action.args[slot] = odd_argument(chooser, state);
            action
        }
        2 => {
            // A listed action with another argument of the same kind: often still legal.
            let mut action = legal[chooser.below(legal.len())];
            if let ActionKind::Rule(index) = action.kind
                && let Some(rule) = rules.actions.get(index as usize)
                && !rule.params.is_empty()
            {
                let slot = chooser.below(rule.params.len());
                action.args[slot] = match rule.params[slot].kind {
                    ParamKind::Space => chooser.below(state.board.space_count().max(1)) as i64,
                    ParamKind::Seat => chooser.below(seats) as i64,
                    ParamKind::Piece => chooser.below(state.pieces.len().max(1)) as i64,
                    ParamKind::Item => chooser.below(rules.items.len().max(1)) as i64,
                    ParamKind::Held => (chooser.below(state.pieces.len().max(1)) * 256 + chooser.below(4)) as i64,
                    ParamKind::Number => action.args[slot] + chooser.below(5) as i64 - 2,
                    ParamKind::Card => chooser.below(rules.card_ids.len().max(1)) as i64,
                };
            }
            action
        }
        3 => {
            let index = match chooser.below(10) {
                0 => u16::MAX,
                1 => rules.actions.len() as u16,
                _ => chooser.below(rules.actions.len().max(1)) as u16,
            };
            let mut args = [0; MAX_PARAMS];
            for arg in &mut args {
                *arg = odd_argument(chooser, state);
            }
            Action { kind: ActionKind::Rule(index), args }
        }
        4 => {
            // Leaving is mostly legal, and a seat that leaves is out for good: rarely.
            let mut action =
                if chooser.chance(5) { Action::leave() } else { [Action::pass(), Action::cancel()][chooser.below(2)] };
            if chooser.chance(30) {
                action.args[chooser.below(MAX_PARAMS)] = odd_argument(chooser, state);
            }
            action
        }
        _ => {
            // A listed action with something in an argument slot its action does not have.
            let mut action = legal[chooser.below(legal.len())];
            let used = match action.kind {
                ActionKind::Rule(index) => rules.actions[index as usize].params.len(),
                _ => 0,
            };
            if used < MAX_PARAMS {
                action.args[used + chooser.below(MAX_PARAMS - used)] = odd_argument(chooser, state);
            }
            action
        }
    };
    (seat, action)
}

/// Plays one random game with every check; returns what it did, or the first failure.
fn play_random_game(job: &GameJob) -> Result<PlayStats, String> {
    let rules = &job.rules;
    let mut chooser = Chooser::new(job.seed);
    let mut engine = Engine::new(rules.clone()).map_err(|e| format!("engine: {e}"))?;
    let setup = GameSetup::new(rules, job.seed, job.seats, "human");
    let mut events = Events::recording();
    let mut state = engine.new_game(&setup, &mut events).map_err(|e| format!("new game: {e}"))?;
    let mut history: Vec<(u8, Action)> = Vec::new();
    let mut stats = PlayStats::default();
    let mut legal = Vec::new();
    // A copy taken at a random step, read back from its bytes, continued on its own engine
    // with the same actions at the end.
    let fork_at = chooser.below(job.max_steps.max(1));
    let mut fork: Option<(usize, GameState)> = None;
    // Steps at which a save is written, read back and replayed.
    let save_at = [chooser.below(job.max_steps.max(1)), chooser.below(job.max_steps.max(1))];

    let fail = |step: usize, what: String| format!("step {step}: {what}");
    state.check_invariants(rules).map_err(|e| fail(0, format!("after setup: {e}")))?;
    for step in 0..job.max_steps {
        if state.is_over() {
            break;
        }
        engine.legal_actions(&state, &mut legal).unwrap();
        if legal.is_empty() {
            return Err(fail(step, "no legal action, not even passing".into()));
        }
        // Illegal actions first: each refused one must leave everything as it was.
        for _ in 0..chooser.below(3) {
            let (seat, probe) = random_probe(&mut chooser, rules, &state, &legal);
            // Every tenth probe compares the whole state's bytes, board included.
            let whole = chooser.chance(10);
            let before = if whole { bytes(&state) } else { Vec::new() };
            let before_but_board = bytes_but_board(&state);
            let events_before = events.len();
            let to_move = state.turn.seat;
            stats.probes += 1;
            match engine.apply_as(&mut state, seat, &probe, &mut events) {
                Err(_) => {
                    if bytes_but_board(&state) != before_but_board || (whole && bytes(&state) != before) {
                        return Err(fail(step, format!("refused {probe:?} by seat {seat} changed the state")));
                    }
                    if events.len() != events_before {
                        return Err(fail(step, format!("refused {probe:?} by seat {seat} left events behind")));
                    }
                }
                Ok(()) => {
                    stats.probes_accepted += 1;
                    // Only leaving may be done out of turn; anything else accepted must be listed.
                    let out_of_turn_leave = probe.kind == ActionKind::Leave && seat != to_move;
                    if !out_of_turn_leave && !is_listed(&legal, &probe) {
                        return Err(fail(
                            step,
                            format!("{probe:?} by seat {seat} was accepted but not listed as legal"),
                        ));
                    }
                    history.push((seat, probe));
                    state.check_invariants(rules).map_err(|e| fail(step, format!("after {probe:?}: {e}")))?;
                    engine.legal_actions(&state, &mut legal).unwrap();
                    if state.is_over() {
                        break;
                    }
                }
            }
        }
        if state.is_over() {
            break;
        }
        // The queries the window asks about any action must not panic either.
        if chooser.chance(20) {
            let (_, probe) = random_probe(&mut chooser, rules, &state, &legal);
            if let ActionKind::Rule(index) = probe.kind
                && (index as usize) < rules.actions.len()
            {
                let _ = engine.unavailable_reason(&state, &legal, index);
            }
        }
        // Leaving ends a seat's game: taken as rarely as a real player would, or the tables
        // would empty before anything else happens.
        let mut choice = legal[chooser.below(legal.len())];
        if choice.kind == ActionKind::Leave && !chooser.chance(5) {
            choice = legal[chooser.below(legal.len())];
        }
        // A person ends a turn after some actions; a uniform choice among hundreds of moves (ten
        // armies, each with dozens of ways) would almost never pass. One time in ten the seat
        // passes when it may.
        if chooser.chance(10)
            && let Some(pass) = legal.iter().find(|a| a.kind == ActionKind::Pass)
        {
            choice = *pass;
        }
        let seat = state.to_act();
        events.take();
        engine
            .apply(&mut state, &choice, &mut events)
            .map_err(|e| fail(step, format!("the listed action {choice:?} was refused: {e}")))?;
        history.push((seat, choice));
        stats.actions += 1;
        state.check_invariants(rules).map_err(|e| fail(step, format!("after {choice:?}: {e}")))?;
        // Serialising a large board costs milliseconds: the hash and the round trip are checked
        // at random steps.
        if step == fork_at || chooser.chance(3) {
            if state.hash() != state.hash() {
                return Err(fail(step, "the hash of one state changes between calls".into()));
            }
            let copy = round_trip(&state);
            if bytes(&copy) != bytes(&state) || copy.hash() != state.hash() {
                return Err(fail(step, "the state reads back from its bytes as another state".into()));
            }
            if step == fork_at {
                fork = Some((history.len(), copy));
            }
        }
        if save_at.contains(&step) {
            check_save(rules, &setup, &history, &state).map_err(|e| fail(step, e))?;
        }
    }
    stats.finished = state.is_over();
    stats.stood = format!(
        "turn {}, round {}, phase {}",
        state.turn.number, state.turn.round, rules.phases[state.turn.phase as usize].id
    );
    check_save(rules, &setup, &history, &state).map_err(|e| format!("at the end: {e}"))?;
    if let Some((from, mut copy)) = fork {
        let mut other = Engine::new(rules.clone()).map_err(|e| e.to_string())?;
        for (index, (seat, action)) in history[from..].iter().enumerate() {
            other
                .apply_as(&mut copy, *seat, action, &mut Events::discard())
                .map_err(|e| format!("the copy read back at action {from} refuses action {}: {e}", from + index))?;
        }
        if copy.hash() != state.hash() {
            return Err(format!(
                "the copy read back at action {from} and continued on another engine became another game"
            ));
        }
    }
    // The whole game again on a fresh engine: the refused actions left nothing behind in the
    // engine either.
    let replayed = Engine::new(rules.clone())
        .map_err(|e| e.to_string())?
        .replay(&setup, &history, &mut Events::discard())
        .map_err(|e| format!("replaying the game on a fresh engine: {e}"))?;
    if replayed.hash() != state.hash() {
        return Err("the game replayed on a fresh engine ends in another state".into());
    }
    // Nothing more may happen once the game is over.
    if state.is_over() {
        let before = bytes(&state);
        for action in [Action::pass(), Action::leave(), Action::cancel()].iter().chain(legal.first()) {
            if engine.apply(&mut state, action, &mut events).is_ok() || bytes(&state) != before {
                return Err(format!("{action:?} was taken after the game ended"));
            }
        }
    }
    Ok(stats)
}

/// Writes a save of the game so far, reads it back and replays it on a fresh engine: the same
/// hash, and the snapshot reads back as the same state.
fn check_save(
    rules: &Arc<Ruleset>,
    setup: &GameSetup,
    history: &[(u8, Action)],
    state: &GameState,
) -> Result<(), String> {
    let save = SaveFile::new(rules, setup, history, state);
    let text = serde_json::to_vec(&save).map_err(|e| format!("the save does not serialise: {e}"))?;
    let loaded = SaveFile::parse(&text, "save").map_err(|e| format!("the save does not read back: {e}"))?;
    if loaded.state.as_ref().map(GameState::hash) != Some(state.hash()) {
        return Err("the save's snapshot reads back as another state".into());
    }
    let mut engine = Engine::new(rules.clone()).map_err(|e| e.to_string())?;
    let (replayed, replayed_history) = loaded
        .replay(&mut engine, "save", &mut Events::discard())
        .map_err(|e| format!("the save does not replay: {e}"))?;
    if replayed.hash() != state.hash() || bytes(&replayed) != bytes(state) {
        return Err("the save replays to another state".into());
    }
    if replayed_history.len() != history.len() {
        return Err(format!("the save replays {} actions of {}", replayed_history.len(), history.len()));
    }
    Ok(())
}

/// Games per mod, with random seeds and seat counts in the mod's range.
fn jobs(games_per_mod: u64, max_steps: usize) -> Vec<GameJob> {
    let mut jobs = Vec::new();
    for (mod_index, (mod_id, folder)) in mods_to_play().into_iter().enumerate() {
        let rules = load_or_panic(&folder);
        let range = rules.manifest.seats;
        for game in 0..games_per_mod {
            let seed = derive_seed(base_seed(), (mod_index as u64) << 32 | game);
            let seats = range.min as usize + (seed % u64::from(range.max - range.min + 1)) as usize;
            // The map made for that many seats, as the setup screen would choose it.
            let rules =
                meeple_engine::options::rules_for_seats(&rules, &Default::default(), seats, &Default::default())
                    .unwrap_or_else(|problems| panic!("{mod_id} with {seats} seats: {problems:?}"));
            jobs.push(GameJob { mod_id: mod_id.clone(), rules, seed, seats, max_steps });
        }
    }
    jobs
}

#[test]
fn random_and_illegal_actions_keep_every_invariant() {
    let games = env_number("MEEPLE_RANDOM_GAMES", 12);
    let steps = env_number("MEEPLE_RANDOM_STEPS", 400) as usize;
    let jobs = jobs(games, steps);
    let started = std::time::Instant::now();
    let totals = Mutex::new((0usize, 0usize, 0usize, 0usize));
    let failures = run_parallel(&jobs, |job| {
        let stats = play_random_game(job).map_err(|e| format!("{}: {e}", job.describe()))?;
        let mut totals = totals.lock().unwrap();
        totals.0 += stats.actions;
        totals.1 += stats.probes;
        totals.2 += stats.probes_accepted;
        totals.3 += usize::from(stats.finished);
        Ok(())
    });
    let (actions, probes, accepted, finished) = totals.into_inner().unwrap();
    println!(
        "{} games ({finished} finished), {actions} actions, {probes} illegal-action probes ({accepted} turned out legal), {:.1} s",
        jobs.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(failures.is_empty(), "{} of {} games failed:\n{}", failures.len(), jobs.len(), failures.join("\n"));
}

/// The first file of a mod's data that holds the `[end]` table, and its text with the turn
/// limit set to `limit`.
fn with_turn_limit(folder: &std::path::Path, limit: u32) -> Option<(PathBuf, String)> {
    let files = meeple_engine::loader::mod_files(folder).ok()?;
    for path in files.data {
        let text = std::fs::read_to_string(&path).ok()?;
        let mut document: toml_edit::DocumentMut = text.parse().ok()?;
        if let Some(end) = document.get_mut("end").and_then(|e| e.as_table_mut()) {
            end["turn_limit"] = toml_edit::value(i64::from(limit));
            return Some((path, document.to_string()));
        }
    }
    None
}

#[test]
fn games_with_a_short_turn_limit_end_by_it() {
    // Each mod with a turn limit of a few rounds, played at random to the end: the game ends by
    // the limit at the latest (invariants are checked after every action).
    let games = env_number("MEEPLE_RANDOM_GAMES", 12).div_ceil(4).max(1);
    let mut jobs = Vec::new();
    for (mod_index, (mod_id, folder)) in mods_to_play().into_iter().enumerate() {
        let base = load_or_panic(&folder);
        let range = base.manifest.seats;
        let limit = 6 * u32::from(range.max);
        // A variant holds no `[end]`: it takes the limit of the mod it extends, edited here.
        let (path, text) = match with_turn_limit(&folder, limit) {
            Some(found) => found,
            None => continue,
        };
        let overlay = Overlay::from([(path, text)]);
        let rules = load_mod_edited(&folder, &Default::default(), &overlay)
            .unwrap_or_else(|p| panic!("{mod_id} with a turn limit of {limit} does not load: {p:?}"))
            .ruleset;
        for game in 0..games {
            let seed = derive_seed(base_seed() ^ 0x7417, (mod_index as u64) << 32 | game);
            let seats = range.min as usize + (seed % u64::from(range.max - range.min + 1)) as usize;
            // Enough actions for every turn to be a long one: the limit must come first.
            let max_steps = limit as usize * 200;
            // The map made for that many seats, as the setup screen would choose it.
            // (Loaded again with the edited limit: the map's choice reloads the mod.)
            let rules = meeple_engine::options::rules_for_seats(&rules, &Default::default(), seats, &overlay)
                .unwrap_or_else(|problems| panic!("{mod_id} with {seats} seats: {problems:?}"));
            jobs.push(GameJob { mod_id: mod_id.clone(), rules, seed, seats, max_steps });
        }
    }
    let failures = run_parallel(&jobs, |job| {
        let stats = play_random_game(job).map_err(|e| format!("{}: {e}", job.describe()))?;
        if !stats.finished {
            return Err(format!("{}: not over after {} actions ({})", job.describe(), stats.actions, stats.stood));
        }
        Ok(())
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn undo_and_redo_come_back_to_the_same_hashes() {
    // The player's session with every seat a person's: random actions, each taken back and
    // taken again at random; undo returns the exact state before, redo the exact state after
    // (the game's random stream is part of the state).
    let games = env_number("MEEPLE_RANDOM_GAMES", 12).div_ceil(4).max(1);
    let jobs = jobs(games, 150);
    let failures = run_parallel(&jobs, |job| {
        let mut chooser = Chooser::new(job.seed ^ 0x00d0);
        let setup = GameSetup::new(&job.rules, job.seed, job.seats, "human");
        let mut session = Session::new(job.rules.clone(), setup).map_err(|e| format!("{}: {e}", job.describe()))?;
        for step in 0..job.max_steps {
            if session.is_over() {
                break;
            }
            let legal = session.legal().to_vec();
            let action = legal[chooser.below(legal.len())];
            if action.kind == ActionKind::Leave {
                continue;
            }
            let before = session.state.hash();
            session.act(action).map_err(|e| format!("{} step {step}: {action:?} refused: {e}", job.describe()))?;
            let after = session.state.hash();
            if session.can_undo() && chooser.chance(50) {
                session.undo();
                if session.state.hash() != before {
                    return Err(format!("{} step {step}: undo of {action:?} gives another state", job.describe()));
                }
                session.act(action).map_err(|e| format!("{} step {step}: redo of {action:?}: {e}", job.describe()))?;
                if session.state.hash() != after {
                    return Err(format!("{} step {step}: redo of {action:?} gives another state", job.describe()));
                }
            }
            session.state.check_invariants(&job.rules).map_err(|e| format!("{} step {step}: {e}", job.describe()))?;
        }
        Ok(())
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn an_argument_in_a_slot_the_action_does_not_have_is_refused() {
    // A staged action keeps its arguments in the state while it awaits its choices, and a save
    // records only the named ones: were a value in an unused slot accepted, a save taken then
    // would replay to another hash.
    let folder = meeple_tests::mods_dir().join("dunes_of_terror");
    let rules = load_or_panic(&folder);
    let mut engine = Engine::new(rules.clone()).unwrap();
    let setup = GameSetup::new(&rules, 3, 2, "human");
    let mut state = engine.new_game(&setup, &mut Events::discard()).unwrap();
    let mut legal = Vec::new();
    engine.legal_actions(&state, &mut legal).unwrap();
    let staged = legal
        .iter()
        .find(|a| matches!(a.kind, ActionKind::Rule(i) if rules.actions[i as usize].is_staged()))
        .copied()
        .expect("a staged action is legal at the start");
    let ActionKind::Rule(index) = staged.kind else { unreachable!() };
    let mut bent = staged;
    bent.args[rules.actions[index as usize].params.len()] = 959;
    let before = bytes(&state);
    let seat = state.turn.seat;
    match engine.apply(&mut state, &bent, &mut Events::discard()) {
        Err(_) => assert_eq!(bytes(&state), before),
        Ok(()) => {
            let verdict = check_save(&rules, &setup, &[(seat, bent)], &state);
            panic!("{bent:?} was accepted; a save taken now: {verdict:?}");
        }
    }
}
