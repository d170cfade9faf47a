//! Saves survive what happens to files: a process killed mid-save leaves the previous save whole;
//! two writers of one path never clash; cut short, damaged, foreign, too large, too new and
//! unknown-version files are refused with a message naming the file and what is wrong, never a
//! panic; the checked-in save of every version this Meeple reads still loads and replays to its
//! hash; a tampered state snapshot never wins over the replay.

use std::io::{BufRead, BufReader, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use meeple_engine::ai;
use meeple_engine::game::{Action, Engine, Events, GameSetup, GameState};
use meeple_engine::loader::load_mod;
use meeple_engine::rules::Ruleset;
use meeple_engine::save::{
    MAX_SAVE_BYTES, OLDEST_SAVE_VERSION, SAVE_VERSION, SaveError, SaveFile, migrate, write_atomically,
};
use meeple_tests::{load, mods_dir, root};
use serde_json::{Value as Json, json};

/// A game of `seats` computer players of `level` from `seed`, to its end or `max_actions`.
fn play(
    rules: &Arc<Ruleset>,
    seed: u64,
    seats: usize,
    level: &str,
    max_actions: usize,
) -> (GameSetup, Vec<(u8, Action)>, GameState) {
    let mut engine = Engine::new(rules.clone()).unwrap();
    let setup = GameSetup::new(rules, seed, seats, level);
    let mut state = engine.new_game(&setup, &mut Events::discard()).unwrap();
    let mut players: Vec<_> = (0..seats).map(|i| ai::player(level, seed * 31 + i as u64).unwrap()).collect();
    let mut history = Vec::new();
    let mut legal = Vec::new();
    while state.outcome.is_none() && history.len() < max_actions {
        engine.legal_actions(&state, &mut legal).unwrap();
        let seat = state.turn.seat;
        let action = legal[players[seat as usize].choose(&mut engine, &state, &legal).unwrap()];
        engine.apply(&mut state, &action, &mut Events::discard()).unwrap();
        history.push((seat, action));
    }
    (setup, history, state)
}

/// A Dice Wars save of a short game (and the game's final state).
fn short_save(actions: usize) -> (Arc<Ruleset>, SaveFile, GameState) {
    let rules = load("dice_wars");
    let (setup, history, state) = play(&rules, 11, 3, "greedy", actions);
    let save = SaveFile::new(&rules, &setup, &history, &state);
    (rules, save, state)
}

/// A folder of the test's own, emptied.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("saves").join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The temporary files of unfinished writes in `dir`.
fn temporary_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".tmp"))
        .collect();
    names.sort();
    names
}

/// Reads and replays the save at `path` with `rules`: the replayed state's hash, or the error.
fn read_and_replay(rules: &Arc<Ruleset>, path: &Path) -> Result<(SaveFile, GameState), SaveError> {
    let save = SaveFile::read(path)?;
    let (state, _) =
        save.replay(&mut Engine::new(rules.clone()).unwrap(), &path.display().to_string(), &mut Events::discard())?;
    Ok((save, state))
}

/// A small seeded random stream for the moments of the kills (xorshift64*).
struct Moments(u64);

impl Moments {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n
    }
}

/// The seed of the kill moments: `MEEPLE_KILL_SEED` to repeat a run, else the clock.
fn kill_seed() -> u64 {
    std::env::var("MEEPLE_KILL_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64 | 1
    })
}

/// The variable that turns [`child_process_saving_in_a_loop`] into the process to kill.
const SAVE_LOOP: &str = "MEEPLE_TEST_SAVE_LOOP";

/// The actions [`child_process_saving_in_a_loop`] plays before its first save of a game.
const UNSAVED_ACTIONS: usize = 150;

/// Not a test on its own: the process that [`a_process_killed_mid_save_leaves_a_whole_save`]
/// starts (this test binary run again with [`SAVE_LOOP`] naming a save path) and kills. It plays
/// Dice Wars games of eight random players and saves each game after every action to the same
/// path, for ever (from the 150th action on, so the saves are of long games), printing
/// `saved SEED ACTIONS` after each save. Without the variable it does nothing.
#[test]
fn child_process_saving_in_a_loop() {
    let Ok(path) = std::env::var(SAVE_LOOP) else { return };
    let path = PathBuf::from(path);
    let first_seed: u64 = std::env::var("MEEPLE_TEST_SAVE_LOOP_SEED").unwrap().parse().unwrap();
    let rules = load("dice_wars");
    let mut engine = Engine::new(rules.clone()).unwrap();
    let mut out = std::io::stdout().lock();
    let mut legal = Vec::new();
    for seed in first_seed.. {
        let setup = GameSetup::new(&rules, seed, 8, "random");
        let mut state = engine.new_game(&setup, &mut Events::discard()).unwrap();
        let mut players: Vec<_> = (0..8).map(|i| ai::player("random", seed * 31 + i).unwrap()).collect();
        let mut history = Vec::new();
        while state.outcome.is_none() {
            engine.legal_actions(&state, &mut legal).unwrap();
            let seat = state.turn.seat;
            let action = legal[players[seat as usize].choose(&mut engine, &state, &legal).unwrap()];
            engine.apply(&mut state, &action, &mut Events::discard()).unwrap();
            history.push((seat, action));
            // Saves of long games: the first actions are played without saving.
            if history.len() < UNSAVED_ACTIONS && state.outcome.is_none() {
                continue;
            }
            SaveFile::new(&rules, &setup, &history, &state).write(&path).unwrap();
            writeln!(out, "saved {seed} {}", history.len()).unwrap();
            out.flush().unwrap();
        }
    }
}

/// The real thing: a process saving a game again and again, killed (SIGKILL on Unix) at random
/// moments. After every kill the save at the path is whole — it reads, and replays to its hash —
/// and it is at least as new as the last save the process finished. A killed write leaves a
/// temporary file, which confuses nothing.
#[test]
fn a_process_killed_mid_save_leaves_a_whole_save() {
    const KILLS: usize = 30;
    let rules = load("dice_wars");
    let dir = scratch("killed");
    let path = dir.join("game.json");
    let seed = kill_seed();
    eprintln!("kill moments from MEEPLE_KILL_SEED={seed}");
    let mut moments = Moments(seed);
    let started = Instant::now();
    let mut killed_after_saves = Vec::new();
    for kill in 0.. {
        let errors = dir.join(format!("child-{kill}.stderr"));
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "child_process_saving_in_a_loop", "--nocapture", "--test-threads=1"])
            .env(SAVE_LOOP, &path)
            .env("MEEPLE_TEST_SAVE_LOOP_SEED", (kill as u64 * 1000).to_string())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&errors).unwrap())
            .spawn()
            .unwrap();
        let (saved_tx, saved_rx) = std::sync::mpsc::channel::<(u64, usize)>();
        let stdout = child.stdout.take().unwrap();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let mut words = line.split_whitespace();
                if words.next() == Some("saved") {
                    let seed = words.next().unwrap().parse().unwrap();
                    let actions = words.next().unwrap().parse().unwrap();
                    let _ = saved_tx.send((seed, actions));
                }
            }
        });
        // Kill only once this process has saved: a kill before that tests nothing.
        let Ok(first_save) = saved_rx.recv_timeout(Duration::from_secs(120)) else {
            let _ = child.kill();
            panic!("the saving process never saved:\n{}", std::fs::read_to_string(&errors).unwrap_or_default());
        };
        std::thread::sleep(Duration::from_micros(moments.below(20_000)));
        child.kill().unwrap();
        child.wait().unwrap();
        reader.join().unwrap();
        let last_finished = saved_rx.try_iter().last().unwrap_or(first_save);
        killed_after_saves.push(last_finished.1);
        let (save, replayed) = read_and_replay(&rules, &path)
            .unwrap_or_else(|error| panic!("after kill {kill}, the save is not whole: {error}"));
        assert_eq!(replayed.hash_hex(), save.state_hash);
        let on_disk = (save.setup.seed, save.actions.len());
        assert!(
            on_disk >= last_finished,
            "after kill {kill}: the save on disk {on_disk:?} is older than {last_finished:?}"
        );
        // Some kills must land mid-write (each has a chance of about a third) for the test to
        // mean anything: after the planned kills, more until one has.
        if kill + 1 >= KILLS && !temporary_files(&dir).is_empty() {
            break;
        }
        assert!(kill < 100, "in 100 kills, none landed while a save was being written");
    }
    let left = temporary_files(&dir);
    eprintln!(
        "{} kills in {:?}, after {:?} actions saved; {} killed mid-write (temporary files left)",
        killed_after_saves.len(),
        started.elapsed(),
        killed_after_saves,
        left.len()
    );
    assert!(left.len() <= killed_after_saves.len(), "at most one temporary file per killed write: {left:?}");
    for name in &left {
        assert!(name.starts_with(".game.json.") && name.ends_with(".tmp"), "{name}");
    }
    // Leftovers do not stand in the way of the next save, nor of reading it.
    let (_, save, _) = short_save(10);
    save.write(&path).unwrap();
    assert_eq!(SaveFile::read(&path).unwrap().actions.len(), 10);
    assert_eq!(temporary_files(&dir), left, "a write leaves no temporary file of its own");
}

/// Two writers saving to one path at once (temporary files of their own), while a reader reads
/// it: every read finds a whole save, every write succeeds, no temporary file is left.
#[test]
fn two_writers_of_one_path_never_clash() {
    let rules = load("dice_wars");
    let dir = scratch("two_writers");
    let path = dir.join("game.json");
    let saves: Vec<SaveFile> = [3, 4]
        .iter()
        .map(|&seed| {
            let (setup, history, state) = play(&rules, seed, 4, "greedy", 60);
            SaveFile::new(&rules, &setup, &history, &state)
        })
        .collect();
    saves[0].write(&path).unwrap();
    let hashes: Vec<String> = saves.iter().map(|s| s.state_hash.clone()).collect();
    let done = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        let writers: Vec<_> = saves
            .iter()
            .map(|save| {
                let path = &path;
                scope.spawn(move || {
                    for _ in 0..40 {
                        save.write(path).unwrap();
                    }
                })
            })
            .collect();
        let reader = scope.spawn(|| {
            let mut reads = 0;
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                let save = SaveFile::read(&path).unwrap_or_else(|e| panic!("a reader found a partial save: {e}"));
                assert!(hashes.contains(&save.state_hash));
                reads += 1;
            }
            reads
        });
        // Every writer is waited for before the reader is stopped, even one that failed, so a
        // failure fails the test instead of leaving the reader reading for ever.
        let written: Vec<_> = writers.into_iter().map(|writer| writer.join()).collect();
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        let reads = reader.join();
        assert!(written.iter().all(Result::is_ok), "a writer failed");
        assert!(reads.expect("the reader found whole saves only") > 0);
    });
    let (save, _) = read_and_replay(&rules, &path).unwrap();
    assert!(hashes.contains(&save.state_hash));
    assert_eq!(temporary_files(&dir), Vec::<String>::new());
}

/// A write that fails says which file and why, removes its temporary file and leaves what was
/// there.
#[test]
fn a_failed_write_names_the_file_and_leaves_nothing_behind() {
    let (_, save, _) = short_save(20);
    let dir = scratch("failed_write");
    // The target is a folder: the temporary file is written, the rename fails.
    let folder = dir.join("taken.json");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("inside"), "kept").unwrap();
    let error = save.write(&folder).unwrap_err();
    let message = error.to_string();
    assert!(matches!(error, SaveError::Write { .. }), "{message}");
    assert!(message.starts_with(&format!("cannot write {}: renaming", folder.display())), "{message}");
    assert_eq!(std::fs::read_to_string(folder.join("inside")).unwrap(), "kept");
    assert_eq!(temporary_files(&dir), Vec::<String>::new(), "the temporary file is removed");
    // A folder that does not exist: nothing is created.
    let missing = dir.join("no such folder/game.json");
    let message = save.write(&missing).unwrap_err().to_string();
    assert!(message.contains("no such folder/game.json") && message.contains("creating"), "{message}");
    assert!(!dir.join("no such folder").exists());
    // A good write over an old save, then the old one is gone and no temporary file is left.
    let path = dir.join("game.json");
    std::fs::write(&path, "old").unwrap();
    save.write(&path).unwrap();
    assert_eq!(SaveFile::read(&path).unwrap().state_hash, save.state_hash);
    assert_eq!(temporary_files(&dir), Vec::<String>::new());
    write_atomically(&path, b"plain bytes").unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"plain bytes");
}

/// A save written through a symbolic link replaces the file linked to; the link stays.
#[cfg(unix)]
#[test]
fn a_save_through_a_link_replaces_the_file_linked_to() {
    let (_, save, _) = short_save(10);
    let dir = scratch("link");
    let (real, link) = (dir.join("real.json"), dir.join("link.json"));
    std::fs::write(&real, "old").unwrap();
    std::os::unix::fs::symlink("real.json", &link).unwrap();
    save.write(&link).unwrap();
    assert!(link.symlink_metadata().unwrap().file_type().is_symlink(), "the link stays a link");
    assert_eq!(SaveFile::read(&real).unwrap().state_hash, save.state_hash);
    assert_eq!(temporary_files(&dir), Vec::<String>::new());
}

/// `f`'s result, or a test failure naming `what` when it panics.
fn no_panic<T>(what: &str, f: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| panic!("{what}: panicked"))
}

/// Parses `bytes` as a save named `shown`, expecting an error; returns its message, checked to
/// name the file.
fn refused(bytes: &[u8], shown: &str) -> SaveError {
    let error = no_panic(shown, || SaveFile::parse(bytes, shown)).err().unwrap_or_else(|| panic!("{shown}: accepted"));
    assert!(error.to_string().contains(shown), "the message names the file: {error}");
    error
}

/// A save cut at any length is refused as cut short (an empty one as empty), never taken for a
/// save and never a panic; through a file, the message names the file.
#[test]
fn cut_short_saves_are_refused_at_every_length() {
    let (_, save, _) = short_save(40);
    let bytes = serde_json::to_vec_pretty(&save).unwrap();
    let mut lengths: Vec<usize> = (0..200).chain(bytes.len() - 200..bytes.len()).collect();
    lengths.extend((0..bytes.len()).step_by(bytes.len() / 500));
    for length in lengths {
        let shown = format!("cut at {length}");
        let error = refused(&bytes[..length], &shown);
        if length == 0 {
            assert!(matches!(error, SaveError::Empty { .. }), "{error}");
            assert_eq!(error.to_string(), "cut at 0 is empty, not a Meeple save file");
        } else {
            assert!(matches!(error, SaveError::Truncated { .. }), "{error}");
            assert!(error.to_string().contains("is cut short"), "{error}");
        }
    }
    // A character cut in two at the end is a cut, not binary.
    let mut text = br#"{ "format": "meeple-save", "name": "Bj"#.to_vec();
    text.extend_from_slice(&"ö".as_bytes()[..1]);
    assert!(matches!(refused(&text, "cut in a character"), SaveError::Truncated { .. }));
    // Through a file.
    let dir = scratch("cut_short");
    let path = dir.join("cut.json");
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let message = SaveFile::read(&path).unwrap_err().to_string();
    assert!(message.starts_with(&format!("{} is cut short: it ends in the middle", path.display())), "{message}");
    std::fs::write(&path, b"").unwrap();
    assert_eq!(
        SaveFile::read(&path).unwrap_err().to_string(),
        format!("{} is empty, not a Meeple save file", path.display())
    );
}

/// Every byte of a save's header and actions flipped, and bytes all over its snapshot: the save
/// is refused or still replays to its hash — never a panic, never a different game.
#[test]
fn flipped_bytes_are_refused_or_harmless_and_never_panic() {
    let (rules, mut save, state) = short_save(40);
    let mut engine = Engine::new(rules.clone()).unwrap();
    let check = |engine: &mut Engine, bytes: &[u8], what: &str| -> bool {
        no_panic(what, || match SaveFile::parse(bytes, what) {
            Err(error) => {
                assert!(error.to_string().contains(what), "{error}");
                false
            }
            Ok(flipped) => match flipped.replay(engine, what, &mut Events::discard()) {
                Ok((replayed, _)) => {
                    assert_eq!(replayed.hash(), state.hash(), "{what}: a different game was accepted");
                    if let Some(snapshot) = &flipped.state {
                        assert_eq!(snapshot.hash(), state.hash(), "{what}: a different snapshot was kept");
                    }
                    true
                }
                Err(error) => {
                    assert!(error.to_string().contains(what), "{error}");
                    false
                }
            },
        })
    };
    // Without the snapshot, the header and actions are the whole file: every byte, three ways.
    let snapshot = save.state.take();
    let bytes = serde_json::to_vec_pretty(&save).unwrap();
    let (mut accepted, mut tried) = (0, 0);
    for position in 0..bytes.len() {
        for flip in [0x01u8, 0x20, 0x80] {
            let mut flipped = bytes.clone();
            flipped[position] ^= flip;
            accepted += usize::from(check(&mut engine, &flipped, &format!("byte {position} ^ {flip:#04x}")));
            tried += 1;
        }
    }
    eprintln!("{tried} flipped bytes in the header and actions: {accepted} harmless, the rest refused");
    // With the snapshot: bytes spread over the whole file.
    save.state = snapshot;
    let bytes = serde_json::to_vec_pretty(&save).unwrap();
    for position in (0..bytes.len()).step_by(bytes.len() / 400) {
        let mut flipped = bytes.clone();
        flipped[position] ^= 0x01;
        check(&mut engine, &flipped, &format!("snapshot byte {position} ^ 0x01"));
    }
}

/// A save as JSON, edited by `edit`, then parsed and (when it parses) replayed: the error.
fn edited(save: &SaveFile, rules: &Arc<Ruleset>, what: &str, edit: impl FnOnce(&mut Json)) -> SaveError {
    let mut json = serde_json::to_value(save).unwrap();
    edit(&mut json);
    let bytes = serde_json::to_vec_pretty(&json).unwrap();
    let error = match no_panic(what, || SaveFile::parse(&bytes, what)) {
        Err(error) => error,
        Ok(parsed) => no_panic(what, || {
            parsed
                .replay(&mut Engine::new(rules.clone()).unwrap(), what, &mut Events::discard())
                .err()
                .unwrap_or_else(|| panic!("{what}: accepted"))
        }),
    };
    assert!(error.to_string().contains(what), "the message names the file: {error}");
    error
}

/// JSON that parses but is not a save's: wrong types, missing parts, edited actions, setups and
/// hashes. Each is refused with what is wrong.
#[test]
fn damaged_saves_say_what_is_wrong() {
    let (rules, save, _) = short_save(40);
    let damaged = |what: &str, edit: &dyn Fn(&mut Json), says: &str| {
        let error = edited(&save, &rules, what, edit);
        assert!(matches!(error, SaveError::Damaged { .. }), "{error}");
        assert!(error.to_string().starts_with(&format!("{what} is a damaged Meeple save: ")), "{error}");
        assert!(error.to_string().contains(says), "{error}");
    };
    // Wrong types, located by line.
    damaged(
        "actions as text",
        &|j| j["actions"] = json!("attack"),
        "invalid type: string \"attack\", expected a sequence at line",
    );
    damaged("seed as text", &|j| j["setup"]["seed"] = json!("abc"), "expected u64");
    damaged("negative seat", &|j| j["actions"][0]["seat"] = json!(-1), "invalid value: integer `-1`, expected u8");
    damaged("seat too large", &|j| j["actions"][0]["seat"] = json!(300), "expected u8");
    damaged("action as number", &|j| j["actions"][0]["action"] = json!(5), "expected a string");
    damaged("mod as number", &|j| j["mod"] = json!(3), "expected struct ModRef");
    damaged("no setup", &|j| drop(j.as_object_mut().unwrap().remove("setup")), "missing field `setup`");
    damaged("seats as object", &|j| j["setup"]["seats"] = json!({}), "expected a sequence");
    damaged("snapshot as text", &|j| j["state"] = json!("x"), "expected struct GameState");
    damaged("hash as number", &|j| j["state_hash"] = json!(12), "expected a string");
    damaged("short hash", &|j| j["state_hash"] = json!("abc"), "state_hash `abc` is not 16 lowercase hex digits");
    damaged("hash not hex", &|j| j["state_hash"] = json!("zzzzzzzzzzzzzzzz"), "not 16 lowercase hex digits");
    // Not a save at all.
    let not_a_save = |what: &str, edit: &dyn Fn(&mut Json), says: &str| {
        let error = edited(&save, &rules, what, edit);
        assert!(matches!(error, SaveError::NotASave { .. }), "{error}");
        assert_eq!(error.to_string(), format!("{what} is not a Meeple save file: {says}"));
    };
    not_a_save(
        "no format",
        &|j| drop(j.as_object_mut().unwrap().remove("format")),
        "it has no `\"format\": \"meeple-save\"`",
    );
    not_a_save(
        "other format",
        &|j| j["format"] = json!("meeple-replay"),
        "its format is \"meeple-replay\", not \"meeple-save\"",
    );
    not_a_save("format as number", &|j| j["format"] = json!(7), "its format is 7, not \"meeple-save\"");
    not_a_save("an array", &|j| *j = json!([1, 2]), "it holds a JSON array, not a JSON object");
    // The actions edited: the replay says which action and why, or that the game differs.
    let error = edited(&save, &rules, "unknown action", |j| j["actions"][0]["action"] = json!("atack"));
    assert!(matches!(error, SaveError::Replay { index: 1, .. }), "{error}");
    assert!(error.to_string().contains("unknown action `atack`; did you mean `attack`?"), "{error}");
    let error = edited(&save, &rules, "no such space", |j| {
        let first = j["actions"].as_array_mut().unwrap().iter_mut().find(|a| a.get("from").is_some()).unwrap();
        first["from"] = json!("nowhere");
    });
    assert!(matches!(error, SaveError::Replay { .. }) && error.to_string().contains("`nowhere`"), "{error}");
    let error = edited(&save, &rules, "an action dropped", |j| drop(j["actions"].as_array_mut().unwrap().remove(3)));
    assert!(matches!(error, SaveError::Replay { .. } | SaveError::HashMismatch { .. }), "{error}");
    let error = edited(&save, &rules, "actions swapped", |j| j["actions"].as_array_mut().unwrap().swap(0, 5));
    assert!(matches!(error, SaveError::Replay { .. } | SaveError::HashMismatch { .. }), "{error}");
    let error = edited(&save, &rules, "last action gone", |j| drop(j["actions"].as_array_mut().unwrap().pop()));
    assert!(matches!(error, SaveError::HashMismatch { .. }), "{error}");
    // The hash edited.
    let error = edited(&save, &rules, "hash changed", |j| j["state_hash"] = json!("0123456789abcdef"));
    assert!(matches!(error, SaveError::HashMismatch { .. }), "{error}");
    assert!(error.to_string().contains("hash") && error.to_string().contains("0123456789abcdef"), "{error}");
    // The setup edited: seats, options, a board of its own.
    let setup_error = |what: &str, edit: &dyn Fn(&mut Json), says: &str| {
        let error = edited(&save, &rules, what, edit);
        assert!(matches!(error, SaveError::Setup { .. }), "{error}");
        assert!(error.to_string().starts_with(&format!("{what}: the saved game cannot be set up: ")), "{error}");
        assert!(error.to_string().contains(says), "{error}");
    };
    setup_error("no seats", &|j| j["setup"]["seats"] = json!([]), "this game takes 2 to 8 seats, not 0");
    setup_error(
        "200 seats",
        &|j| j["setup"]["seats"] = json!(vec![json!({ "name": "x", "controller": "human" }); 200]),
        "not 200",
    );
    setup_error("unknown option", &|j| j["setup"]["options"] = json!({ "speed": "fast" }), "speed = fast");
    // A board of its own (what scenario tests set up) is no game of the mod as it is.
    for (what, board) in [
        ("a huge board", json!({ "kind": "square", "columns": 1_000_000, "rows": 1_000_000 })),
        ("a board of its own", serde_json::to_value(&rules.data.board).unwrap()),
    ] {
        damaged(what, &|j| j["setup"]["board"] = board.clone(), "its setup carries a board of its own (`setup.board`)");
    }
    let mut own_board = save.clone();
    own_board.setup.board = Some(rules.data.board.clone());
    let error = own_board.replay(&mut Engine::new(rules.clone()).unwrap(), "in memory", &mut Events::discard());
    assert!(matches!(error, Err(SaveError::Setup { .. })), "{error:?}");
    // The mod is named by its id, never by a path.
    for id in ["../../x", "/tmp/x", "dice_wars/../petri", ".", "Dice Wars", ""] {
        damaged(&format!("mod `{id}`"), &|j| j["mod"]["id"] = json!(id), "is not a mod id");
    }
    let error = edited(&save, &rules, "seed changed", |j| j["setup"]["seed"] = json!(u64::MAX));
    assert!(matches!(error, SaveError::Replay { .. } | SaveError::HashMismatch { .. }), "{error}");
}

/// Files that are no save: empty, binary, not JSON, too deep, too large; each refused with
/// what it is.
#[test]
fn files_that_are_no_save_say_what_they_are() {
    assert!(matches!(refused(b"", "empty"), SaveError::Empty { .. }));
    let error = refused(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", "picture.png");
    assert_eq!(error.to_string(), "picture.png is not a Meeple save file: it is not text (byte 0 is not UTF-8)");
    let error = refused(b"{\"format\": \"meeple-save\", \"name\": \"Bj\xf6rn\"}", "latin-1");
    assert!(matches!(error, SaveError::NotText { offset: 37, .. }), "{error}");
    let manifest = std::fs::read(mods_dir().join("dice_wars/mod.toml")).unwrap();
    let error = refused(&manifest, "mod.toml");
    assert!(error.to_string().starts_with("mod.toml is not a Meeple save file: it is not JSON ("), "{error}");
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let error = refused(deep.as_bytes(), "deep");
    assert!(error.to_string().contains("recursion limit"), "{error}");
    let error = refused(b"null", "null");
    assert_eq!(error.to_string(), "null is not a Meeple save file: it holds null, not a JSON object");
    // Too large: refused before it is read (a sparse file, so the test writes nothing).
    let dir = scratch("huge");
    let huge = dir.join("huge.json");
    std::fs::File::create(&huge).unwrap().set_len(MAX_SAVE_BYTES + 1).unwrap();
    let error = SaveFile::read(&huge).unwrap_err();
    assert!(matches!(error, SaveError::TooLarge { .. }), "{error}");
    assert_eq!(
        error.to_string(),
        format!(
            "{} is {} bytes, too large for a Meeple save file (at most {MAX_SAVE_BYTES} bytes)",
            huge.display(),
            MAX_SAVE_BYTES + 1
        )
    );
    // Not a file.
    let error = SaveFile::read(&dir.join("missing.json")).unwrap_err();
    assert!(error.to_string().starts_with(&format!("cannot read {}", dir.join("missing.json").display())), "{error}");
    let error = SaveFile::read(&dir).unwrap_err();
    assert!(matches!(error, SaveError::NotAFile { .. }), "{error}");
}

/// Reads `path` as a save on a thread of its own, waiting at most 2 s: a read that blocks on a
/// pipe or reads a device for ever fails the test instead of hanging it.
fn read_within_two_seconds(path: &Path) -> Result<SaveFile, SaveError> {
    let (sender, receiver) = std::sync::mpsc::channel();
    let path = path.to_path_buf();
    std::thread::spawn(move || {
        let _ = sender.send(SaveFile::read(&path));
    });
    receiver.recv_timeout(Duration::from_secs(2)).expect("the save is read or refused within 2 s")
}

/// A save is read like a mod's files: an ordinary file (a link the user made to one is
/// followed), never a pipe or a device, which are refused at once without being read.
#[cfg(unix)]
#[test]
fn pipes_and_devices_are_refused_as_saves_without_waiting() {
    let dir = scratch("not_files");
    let (rules, save, state) = short_save(10);
    let real = dir.join("game.json");
    save.write(&real).unwrap();
    let linked = dir.join("linked.json");
    std::os::unix::fs::symlink(&real, &linked).unwrap();
    let (_, replayed) = read_and_replay(&rules, &linked).expect("a link to a save is followed");
    assert_eq!(replayed.hash(), state.hash());
    for device in ["/dev/zero", "/dev/urandom", "/dev/null"] {
        let link = dir.join(format!("{}.json", device.trim_start_matches("/dev/")));
        std::os::unix::fs::symlink(device, &link).unwrap();
        let error = read_within_two_seconds(&link).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "{} is not an ordinary file (a folder, device or pipe), so it is not read as a save",
                link.display()
            )
        );
    }
    let fifo = dir.join("pipe.json");
    if Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success()) {
        let error = read_within_two_seconds(&fifo).unwrap_err();
        assert!(matches!(error, SaveError::NotAFile { .. }), "{error}");
        let error = read_within_two_seconds(&dir.join("linked_pipe.json")).unwrap_err();
        assert!(matches!(error, SaveError::Read { .. }), "{error}");
        std::os::unix::fs::symlink(&fifo, dir.join("linked_pipe.json")).unwrap();
        let error = read_within_two_seconds(&dir.join("linked_pipe.json")).unwrap_err();
        assert!(matches!(error, SaveError::NotAFile { .. }), "{error}");
    }
}

/// Versions: newer than this Meeple reads, 0, missing or not a number — each refused saying
/// which versions this Meeple reads.
#[test]
fn save_versions_this_meeple_cannot_read_are_named() {
    let (rules, save, _) = short_save(10);
    let version = |what: &str, value: Option<Json>| {
        edited(&save, &rules, what, |j| match value {
            Some(value) => j["version"] = value,
            None => drop(j.as_object_mut().unwrap().remove("version")),
        })
        .to_string()
    };
    assert_eq!(SAVE_VERSION, 1, "a new save version: add its fixture and update these messages");
    assert_eq!(
        version("from the future", Some(json!(3))),
        "from the future was saved by a newer Meeple (save version 3; this one reads save version 1)"
    );
    assert_eq!(
        version("far future", Some(json!(u64::MAX))),
        format!("far future was saved by a newer Meeple (save version {}; this one reads save version 1)", u64::MAX)
    );
    assert_eq!(
        version("zero", Some(json!(0))),
        "zero has an unknown save version (0); this Meeple reads save version 1"
    );
    assert_eq!(version("none", None), "none has an unknown save version (none); this Meeple reads save version 1");
    assert_eq!(
        version("text", Some(json!("1"))),
        "text has an unknown save version (\"1\"); this Meeple reads save version 1"
    );
    assert_eq!(
        version("negative", Some(json!(-1))),
        "negative has an unknown save version (-1); this Meeple reads save version 1"
    );
    assert_eq!(
        version("fraction", Some(json!(1.5))),
        "fraction has an unknown save version (1.5); this Meeple reads save version 1"
    );
    // The migration of the current version is the identity; versions it cannot read are named.
    let json = serde_json::to_value(&save).unwrap();
    assert_eq!(migrate(json.clone(), SAVE_VERSION).unwrap(), json);
    assert_eq!(
        migrate(json, SAVE_VERSION + 1).unwrap_err(),
        format!("save version {} cannot be read; this Meeple reads save version 1", SAVE_VERSION + 1)
    );
}

/// A Dice Wars save replayed with another mod is refused, naming both.
#[test]
fn a_save_of_another_mod_is_refused() {
    let (_, save, _) = short_save(10);
    let petri = load("petri");
    let error = save.replay(&mut Engine::new(petri).unwrap(), "dice.json", &mut Events::discard()).unwrap_err();
    assert!(matches!(error, SaveError::WrongMod { .. }), "{error}");
    assert_eq!(error.to_string(), "dice.json is a game of `dice_wars`, not of `petri`");
}

/// The folder of checked-in saves: `<mod>_v<version>.json`, each made by the Meeple of that save
/// version from the copy of the mod in `mods_v<version>/<mod>/` (frozen, so that balance changes
/// to the bundled mod do not make old saves fail: only changes to the save format and the engine
/// do).
fn fixtures() -> PathBuf {
    root().join("tests/fixtures/saves")
}

/// Saves made by earlier Meeples still load and replay to their hashes; there is one for every
/// save version this Meeple reads. A change to the save format, or to the engine, that breaks
/// old saves fails here.
#[test]
fn checked_in_saves_of_every_version_still_load_and_replay() {
    for version in OLDEST_SAVE_VERSION..=SAVE_VERSION {
        let path = fixtures().join(format!("dice_wars_v{version}.json"));
        assert!(
            path.is_file(),
            "no checked-in save of version {version}: run `cargo test -p meeple-tests --test saves -- --ignored` to write it"
        );
    }
    let mut checked = 0;
    for entry in std::fs::read_dir(fixtures()).unwrap().flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let written_version = serde_json::from_str::<Json>(&text).unwrap()["version"].as_u64().unwrap();
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let (mod_id, version) = stem.rsplit_once("_v").unwrap_or_else(|| panic!("{stem}: not <mod>_v<version>"));
        let frozen = fixtures().join(format!("mods_v{version}")).join(mod_id);
        let rules = load_mod(&frozen).unwrap_or_else(|e| panic!("{}: {e:?}", frozen.display())).ruleset;
        let (save, replayed) = read_and_replay(&rules, &path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(save.version, SAVE_VERSION, "{}: migrated to the current version", path.display());
        assert_eq!(replayed.hash_hex(), save.state_hash);
        let snapshot = save.state.as_ref().unwrap_or_else(|| panic!("{}: its snapshot was dropped", path.display()));
        assert_eq!(snapshot.hash(), replayed.hash());
        assert!(save.actions.len() > 100 && replayed.outcome.is_some(), "{}: a whole game", path.display());
        eprintln!("{}: version {written_version}, {} actions, replays", path.display(), save.actions.len());
        checked += 1;
    }
    assert!(checked as u32 > SAVE_VERSION - OLDEST_SAVE_VERSION);
}

/// Writes the checked-in save of the current version (and the frozen copy of the mod it was
/// made with), if there is none: run once when the save version changes. Never overwrites.
#[test]
#[ignore = "writes tests/fixtures/saves/dice_wars_v<SAVE_VERSION>.json when it does not exist"]
fn write_the_checked_in_save_of_this_version() {
    let path = fixtures().join(format!("dice_wars_v{SAVE_VERSION}.json"));
    if path.exists() {
        eprintln!("{} exists; it is never rewritten", path.display());
        return;
    }
    let frozen = fixtures().join(format!("mods_v{SAVE_VERSION}/dice_wars"));
    std::fs::create_dir_all(&frozen).unwrap();
    for file in ["mod.toml", "board.toml", "rules.toml"] {
        let text = std::fs::read_to_string(mods_dir().join("dice_wars").join(file)).unwrap();
        // The schema comment, for editors, points two folders further up.
        std::fs::write(frozen.join(file), text.replace("#:schema ../../schemas/", "#:schema ../../../../schemas/"))
            .unwrap();
    }
    let rules = load_mod(&frozen).unwrap().ruleset;
    let (setup, history, state) = play(&rules, 2024, 4, "greedy", usize::MAX);
    SaveFile::new(&rules, &setup, &history, &state).write(&path).unwrap();
    eprintln!("wrote {} ({} actions)", path.display(), history.len());
}

/// A snapshot that disagrees with the actions: dropped when read, and the replay is the game —
/// in the engine and in the player. A snapshot tampered with and the hash set to match it is
/// refused by the replay.
#[test]
fn a_tampered_snapshot_never_wins_over_the_replay() {
    let (rules, save, state) = short_save(40);
    let original = serde_json::to_value(&save).unwrap();
    // Untouched: the snapshot is kept and is the replayed state.
    let bytes = serde_json::to_vec(&original).unwrap();
    let loaded = SaveFile::parse(&bytes, "untouched").unwrap();
    assert_eq!(loaded.state.as_ref().map(GameState::hash), Some(state.hash()));
    // Tampered: a seat's reserve of dice raised and a territory given away in the snapshot.
    let mut tampered = original.clone();
    tampered["state"]["seats"][0]["resources"][0] = json!(99);
    let owners = tampered["state"]["owners"].as_array_mut().unwrap();
    owners[0] = json!((owners[0].as_u64().unwrap() + 1) % 3);
    let bytes = serde_json::to_vec(&tampered).unwrap();
    let loaded = SaveFile::parse(&bytes, "tampered").unwrap();
    assert!(loaded.state.is_none(), "the snapshot that disagrees with the hash is dropped");
    let (replayed, _) =
        loaded.replay(&mut Engine::new(rules.clone()).unwrap(), "tampered", &mut Events::discard()).unwrap();
    assert_eq!(replayed.hash(), state.hash(), "the replay is the game");
    // The player continues the replayed game, whatever the snapshot.
    let mut with_snapshot = SaveFile::parse(&serde_json::to_vec(&original).unwrap(), "kept").unwrap();
    let mut bogus = with_snapshot.state.clone().unwrap();
    bogus.seats[0].resources[0] = 99;
    with_snapshot.state = Some(bogus);
    let session = meeple::player::session::Session::from_save(rules.clone(), &with_snapshot, "kept").unwrap();
    assert_eq!(session.state.hash(), state.hash(), "the player plays the replayed state");
    // Tampered, and the hash changed to the tampered snapshot's: the snapshot matches the hash,
    // but the actions do not lead there, so the replay refuses the save.
    let mut forged: GameState = serde_json::from_value(tampered["state"].clone()).unwrap();
    forged.rebuild_derived();
    tampered["state_hash"] = json!(forged.hash_hex());
    let bytes = serde_json::to_vec(&tampered).unwrap();
    let loaded = SaveFile::parse(&bytes, "forged").unwrap();
    let error = loaded.replay(&mut Engine::new(rules.clone()).unwrap(), "forged", &mut Events::discard()).unwrap_err();
    assert!(matches!(error, SaveError::HashMismatch { .. }), "{error}");
    assert!(error.to_string().starts_with("forged: the replayed game differs from the saved one"), "{error}");
    assert!(meeple::player::session::Session::from_save(rules, &loaded, "forged").is_err());
}
