//! The editor never leaves an invalid or half-written mod: a save writes every changed file
//! through a temporary file and leaves none behind; a change that breaks the mod is refused and
//! nothing is written; a save into a read-only folder fails saying so and changes nothing; when
//! one file of several cannot be replaced, the ones already replaced are put back; an editor
//! killed mid-save leaves each file whole, old or new.

// Permissions, owners and the sticky bit are how these tests make writing fail.
#![cfg(unix)]

use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use meeple::editor::model::{ModModel, path};
use meeple_engine::loader::load_mod;
use meeple_engine::save::{REPLACE_JOURNAL, ReplaceError, finish_interrupted_replace, replace_files};
use meeple_tests::mods_dir;
use toml_edit::Value;

/// The user id of `nobody`: who runs the parts that need permissions enforced when the tests run
/// as root (for whom a read-only folder is writable).
const NOBODY: u32 = 65534;

/// A copy of a bundled mod in a folder of the test's own, writable by anyone (so that `nobody`
/// can work in it when the test runs as root).
fn copy_of(id: &str, test: &str) -> PathBuf {
    let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("editor_saves").join(test);
    if base.exists() {
        set_mode(&base, 0o777);
        std::fs::remove_dir_all(&base).unwrap();
    }
    let dir = base.join(id);
    copy(&mods_dir().join(id), &dir);
    set_mode(&base, 0o777);
    dir
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    set_mode(to, 0o777);
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
            set_mode(&target, 0o666);
        }
    }
}

fn set_mode(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// The text of every file under `dir`, by path relative to it.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(&folder).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let name = path.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
                files.push((name, std::fs::read(&path).unwrap()));
            }
        }
    }
    files.sort();
    files
}

/// The temporary files under `dir` (of this editor, `.NAME.PID-N.tmp`; of the old one,
/// `NAME.toml.saving`).
fn temporary_files(dir: &Path) -> Vec<String> {
    snapshot(dir)
        .into_iter()
        .map(|(name, _)| name)
        .filter(|name| name.ends_with(".tmp") || name.ends_with(".saving"))
        .collect()
}

/// The three changes the tests make, one per file of Dice Wars: `mod.toml`, `board.toml` and
/// `rules.toml`; `edited` picks the changed values or the bundled ones.
fn make_changes(model: &mut ModModel, edited: bool) {
    let (seats, territories, reserve) = if edited { (6, 24, 48) } else { (8, 32, 64) };
    model.set(&path("mod.seats.max"), Value::from(seats)).unwrap();
    model.set(&path("board.territories"), Value::from(territories)).unwrap();
    model.set(&path("resources.reserve.max"), Value::from(reserve)).unwrap();
}

#[test]
fn a_save_writes_every_changed_file_and_leaves_no_temporary_file() {
    let folder = copy_of("dice_wars", "normal");
    let mut model = ModModel::open(&folder).unwrap();
    make_changes(&mut model, true);
    let texts: Vec<(PathBuf, String)> = model.files.iter().map(|f| (f.path.clone(), f.text())).collect();
    assert_eq!(model.save().unwrap(), vec!["mod.toml", "board.toml", "rules.toml"]);
    for (path, text) in &texts {
        assert_eq!(&std::fs::read_to_string(path).unwrap(), text, "{}", path.display());
    }
    assert_eq!(temporary_files(&folder), Vec::<String>::new());
    let rules = load_mod(&folder).unwrap().ruleset;
    assert_eq!(rules.manifest.seats.max, 6);
    assert!(!model.is_dirty());
    // Saving again writes nothing.
    assert_eq!(model.save().unwrap(), Vec::<String>::new());
}

#[test]
fn a_change_that_breaks_the_mod_is_refused_and_nothing_is_written() {
    let folder = copy_of("dice_wars", "broken_change");
    let before = snapshot(&folder);
    let mut model = ModModel::open(&folder).unwrap();
    let rules_file = model.files.iter().position(|f| f.name == "rules.toml").unwrap();
    let refused = model.set_text(rules_file, "[actions.attack\nlabel = 1").unwrap_err();
    assert!(refused.message.starts_with("rules.toml: "), "{refused}");
    let refused = model.set_text(rules_file, "[actions.attack]\nlabel = 1\n").unwrap_err();
    assert_eq!(refused.message, "rules.toml cannot be changed so");
    assert!(!refused.problems.is_empty(), "{refused}");
    let refused = model.set(&path("board.territories"), Value::from("many")).unwrap_err();
    assert!(refused.problems.iter().any(|p| p.contains("board.toml")), "{refused}");
    assert!(!model.is_dirty());
    assert_eq!(model.save().unwrap(), Vec::<String>::new());
    assert_eq!(snapshot(&folder), before, "nothing was written");
    // Files broken on disk already (by hand): the editor opens them, refuses every change, and
    // a save writes nothing.
    let board = folder.join("board.toml");
    let broken = std::fs::read_to_string(&board).unwrap().replace("territories = 32", "territories = \"many\"");
    std::fs::write(&board, &broken).unwrap();
    let before = snapshot(&folder);
    let mut model = ModModel::open(&folder).unwrap();
    assert!(model.rules.is_err());
    assert!(model.set(&path("mod.seats.max"), Value::from(6)).is_err());
    let refused = model.save().unwrap_err();
    assert_eq!(refused.message, "the mod as edited does not load, so nothing was written");
    assert_eq!(snapshot(&folder), before, "nothing was written");
}

/// Which helper mode this test binary was started in, and its argument.
fn helper(variable: &str) -> Option<PathBuf> {
    std::env::var_os(variable).map(PathBuf::from)
}

/// Runs this test binary's helper test `name` with `variable` set to `folder`, as `nobody`; its
/// output.
fn run_as_nobody(name: &str, variable: &str, folder: &Path) -> String {
    let output = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", name, "--nocapture", "--test-threads=1"])
        .env(variable, folder)
        .uid(NOBODY)
        .gid(NOBODY)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "{name} as nobody:\n{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    stdout
}

/// The refusal of a save of the three changes in `folder`, as one line.
fn refused_save(folder: &Path) -> String {
    let mut model = ModModel::open(folder).unwrap();
    make_changes(&mut model, true);
    let refused = model.save().expect_err("the save cannot succeed");
    assert!(model.is_dirty(), "the changes are still to be saved");
    refused.to_string().replace('\n', " | ")
}

const READ_ONLY: &str = "MEEPLE_TEST_READ_ONLY_SAVE";

/// Not a test on its own: [`a_save_into_a_read_only_folder_fails_clearly_and_changes_nothing`]
/// run as `nobody` (when the tests run as root).
#[test]
fn child_process_saving_into_a_read_only_folder() {
    let Some(folder) = helper(READ_ONLY) else { return };
    println!("refused: {}", refused_save(&folder));
}

#[test]
fn a_save_into_a_read_only_folder_fails_clearly_and_changes_nothing() {
    let folder = copy_of("dice_wars", "read_only");
    let before = snapshot(&folder);
    set_mode(&folder, 0o555);
    let writable = std::fs::write(folder.join("probe"), "").is_ok();
    let message = if writable {
        // Root writes anywhere: the save is tried by `nobody`.
        std::fs::remove_file(folder.join("probe")).unwrap();
        let output = run_as_nobody("child_process_saving_into_a_read_only_folder", READ_ONLY, &folder);
        output
            .lines()
            .find_map(|l| l.split_once("refused: ").map(|(_, m)| m))
            .unwrap_or_else(|| panic!("{output}"))
            .to_string()
    } else {
        refused_save(&folder)
    };
    set_mode(&folder, 0o777);
    let manifest = folder.join("mod.toml");
    assert!(
        message.starts_with(&format!("cannot write {}: creating {}/.mod.toml.", manifest.display(), folder.display())),
        "{message}"
    );
    assert!(message.ends_with(": Permission denied (os error 13); no file was changed"), "{message}");
    assert_eq!(snapshot(&folder), before, "the files are as they were");
}

/// Several files replaced at once, one of which cannot be (a folder is in its place): every file
/// is as it was — the new texts of the others were written to temporary files, then removed —
/// and the message says which file and why.
#[test]
fn a_file_that_cannot_be_replaced_leaves_every_file_as_it_was() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("editor_saves/cannot_replace");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (a, b, c, fresh) = (dir.join("a.toml"), dir.join("b.toml"), dir.join("c.toml"), dir.join("new.toml"));
    std::fs::write(&a, "old a").unwrap();
    std::fs::write(&b, "old b").unwrap();
    std::fs::create_dir(&c).unwrap();
    std::fs::write(c.join("inside"), "kept").unwrap();
    let before = snapshot(&dir);
    let error = replace_files(
        &dir,
        &[
            (&a, b"new a".as_slice()),
            (&fresh, b"new file".as_slice()),
            (&b, b"new b".as_slice()),
            (&c, b"new c".as_slice()),
        ],
    )
    .unwrap_err();
    assert!(matches!(error, ReplaceError::NothingChanged { .. }), "{error}");
    assert_eq!(
        error.to_string(),
        format!(
            "cannot write {}: this is not an ordinary file (a folder, device or pipe); no file was changed",
            c.display()
        )
    );
    assert_eq!(snapshot(&dir), before, "no file changed, no file added");
    assert_eq!(temporary_files(&dir), Vec::<String>::new());
    // Without the folder in the way: every file written, none left temporary.
    replace_files(&dir, &[(&a, b"new a".as_slice()), (&fresh, b"new file".as_slice())]).unwrap();
    assert_eq!(std::fs::read_to_string(&a).unwrap(), "new a");
    assert_eq!(std::fs::read_to_string(&fresh).unwrap(), "new file");
    assert_eq!(temporary_files(&dir), Vec::<String>::new());
}

const STICKY: &str = "MEEPLE_TEST_STICKY_SAVE";

/// Not a test on its own: [`the_model_puts_back_its_files_when_one_cannot_be_replaced`] run as
/// `nobody`.
#[test]
fn child_process_saving_with_one_file_not_replaceable() {
    let Some(folder) = helper(STICKY) else { return };
    println!("refused: {}", refused_save(&folder));
}

/// The model's save, file 3 of 3 not replaceable: a folder anyone may write in but with the
/// sticky bit (like /tmp), where `nobody` owns `mod.toml` and `board.toml` but not `rules.toml`.
/// Every new text is written, `mod.toml` and `board.toml` are replaced, `rules.toml` cannot be;
/// the first two are put back. Needs root (to give files away); skipped otherwise.
#[test]
fn the_model_puts_back_its_files_when_one_cannot_be_replaced() {
    let folder = copy_of("dice_wars", "sticky");
    for file in ["mod.toml", "board.toml"] {
        if std::os::unix::fs::chown(folder.join(file), Some(NOBODY), Some(NOBODY)).is_err() {
            eprintln!("skipped: giving files to nobody needs root");
            return;
        }
    }
    set_mode(&folder.join("rules.toml"), 0o644);
    set_mode(&folder, 0o1777);
    let before = snapshot(&folder);
    let output = run_as_nobody("child_process_saving_with_one_file_not_replaceable", STICKY, &folder);
    let message =
        output.lines().find_map(|l| l.split_once("refused: ").map(|(_, m)| m)).unwrap_or_else(|| panic!("{output}"));
    let rules = folder.join("rules.toml");
    assert!(message.starts_with(&format!("cannot write {}: renaming", rules.display())), "{message}");
    assert!(message.ends_with(": Operation not permitted (os error 1); no file was changed"), "{message}");
    assert_eq!(snapshot(&folder), before, "mod.toml and board.toml were put back");
    assert_eq!(temporary_files(&folder), Vec::<String>::new());
    set_mode(&folder, 0o777);
}

const EDITOR_LOOP: &str = "MEEPLE_TEST_EDITOR_SAVE_LOOP";

/// Not a test on its own: the editor that [`a_killed_editor_leaves_each_file_old_or_new`] starts
/// and kills. It changes the three files of the mod in its folder back and forth and saves, for
/// ever, printing `saved N` after each save.
#[test]
fn child_process_editing_in_a_loop() {
    let Some(folder) = helper(EDITOR_LOOP) else { return };
    let mut model = ModModel::open(&folder).unwrap();
    let mut out = std::io::stdout().lock();
    for round in 0u64.. {
        make_changes(&mut model, round % 2 == 0);
        model.save().unwrap();
        writeln!(out, "saved {round}").unwrap();
        out.flush().unwrap();
    }
}

/// An editor process saving three files again and again, killed (SIGKILL) at random moments:
/// after each kill the mod loads (finishing a save its journal says was under way) and holds
/// all the old files or all the new ones, each whole.
#[test]
fn a_killed_editor_leaves_each_file_old_or_new() {
    const KILLS: usize = 30;
    let folder = copy_of("dice_wars", "killed");
    let mut model = ModModel::open(&folder).unwrap();
    let old: Vec<String> = model.files.iter().map(|f| f.text()).collect();
    make_changes(&mut model, true);
    let new: Vec<String> = model.files.iter().map(|f| f.text()).collect();
    let paths: Vec<PathBuf> = model.files.iter().map(|f| f.path.clone()).collect();
    let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64 | 1;
    let mut moment = seed;
    let started = Instant::now();
    let mut saves_before_kill = Vec::new();
    // Kills that left a journal, read through by the loader and finished by the editor.
    let mut journals_read = 0;
    for kill in 0.. {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "child_process_editing_in_a_loop", "--nocapture", "--test-threads=1"])
            .env(EDITOR_LOOP, &folder)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let (saved_tx, saved_rx) = std::sync::mpsc::channel::<u64>();
        let stdout = child.stdout.take().unwrap();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(round) = line.strip_prefix("saved ").and_then(|n| n.parse().ok()) {
                    let _ = saved_tx.send(round);
                }
            }
        });
        let Ok(first) = saved_rx.recv_timeout(Duration::from_secs(120)) else {
            let _ = child.kill();
            panic!("the editor process never saved");
        };
        moment ^= moment << 13;
        moment ^= moment >> 7;
        moment ^= moment << 17;
        std::thread::sleep(Duration::from_micros(moment % 20_000));
        child.kill().unwrap();
        child.wait().unwrap();
        reader.join().unwrap();
        saves_before_kill.push(saved_rx.try_iter().last().unwrap_or(first) + 1);
        // Loading changes no file, and reads the mod whole: as a save the kill interrupted after
        // its journal was written will finish.
        let before_load = snapshot(&folder);
        let loaded = load_mod(&folder).unwrap_or_else(|e| panic!("after kill {kill}, the mod does not load: {e:?}"));
        assert!(snapshot(&folder) == before_load, "after kill {kill}, loading the mod changed its files");
        let loaded_new = loaded.ruleset.manifest.seats.max == 6;
        if folder.join(REPLACE_JOURNAL).exists() {
            journals_read += 1;
        }
        // A journal left behind names the files relative to the mod folder.
        if let Ok(journal) = std::fs::read_to_string(folder.join(REPLACE_JOURNAL)) {
            for line in journal.lines() {
                let (temporary, target) = line.split_once('\t').unwrap_or_else(|| panic!("{journal}"));
                for path in [temporary, target] {
                    assert!(!path.starts_with('/') && !path.contains(".."), "after kill {kill}: {journal}");
                }
            }
        }
        // The editor, opening the mod, finishes that save.
        ModModel::open(&folder).unwrap_or_else(|e| panic!("after kill {kill}, the editor cannot open the mod: {e}"));
        assert!(!folder.join(REPLACE_JOURNAL).exists(), "after kill {kill}, the editor left the journal");
        let mut versions = Vec::new();
        for ((path, old), new) in paths.iter().zip(&old).zip(&new) {
            let text = std::fs::read_to_string(path).unwrap();
            assert!(
                &text == old || &text == new,
                "after kill {kill} (seed {seed}), {} is neither old nor new",
                path.display()
            );
            versions.push(&text == new);
        }
        assert!(
            versions.iter().all(|&v| v) || versions.iter().all(|&v| !v),
            "after kill {kill} (seed {seed}), the mod holds old and new files side by side: {versions:?}"
        );
        assert_eq!(versions[0], loaded_new, "after kill {kill} (seed {seed}), the loader read another version");
        // Some kills must land mid-write for the test to mean anything: after the planned kills,
        // more until one has left a temporary file.
        if kill + 1 >= KILLS && !temporary_files(&folder).is_empty() {
            break;
        }
        assert!(kill < 100, "in 100 kills, none landed while a file was being written");
    }
    let left = temporary_files(&folder);
    eprintln!(
        "{} kills in {:?} (seed {seed}), after {saves_before_kill:?} saves; {journals_read} left a journal; {} \
         temporary files left",
        saves_before_kill.len(),
        started.elapsed(),
        left.len()
    );
    assert!(left.len() <= 3 * saves_before_kill.len(), "at most one temporary file per file and kill: {left:?}");
    // The leftovers of killed saves are ignored by the loader (above) and stay out of the way.
    let mut model = ModModel::open(&folder).unwrap();
    make_changes(&mut model, false);
    model.save().unwrap();
    assert_eq!(temporary_files(&folder), left, "a save removes no one else's temporary files and leaves none");
    assert_eq!(paths.iter().map(|p| std::fs::read_to_string(p).unwrap()).collect::<Vec<_>>(), old);
}

/// The new texts of the three changes, written under temporary names as an editor's save
/// writes them, and a journal naming them (relative to the folder); the kill came after the
/// first rename. Returns the files and their new texts.
fn interrupted_save(folder: &Path) -> (Vec<PathBuf>, Vec<String>) {
    let mut model = ModModel::open(folder).unwrap();
    make_changes(&mut model, true);
    let files: Vec<PathBuf> = model.files.iter().map(|f| f.path.clone()).collect();
    let new: Vec<String> = model.files.iter().map(|f| f.text()).collect();
    let names: Vec<String> = model.files.iter().map(|f| f.name.clone()).collect();
    let temps: Vec<String> = names.iter().map(|name| format!(".{name}.1-0.tmp")).collect();
    for (temp, text) in temps.iter().zip(&new) {
        std::fs::write(folder.join(temp), text).unwrap();
    }
    let journal: String = temps.iter().zip(&names).map(|(t, f)| format!("{t}\t{f}\n")).collect();
    std::fs::write(folder.join(REPLACE_JOURNAL), journal).unwrap();
    std::fs::rename(folder.join(&temps[0]), &files[0]).unwrap();
    (files, new)
}

/// A save killed after its journal was written and one of three renames done: loading the mod
/// reads it whole, as the save will finish, and changes no file; the editor, opening it,
/// finishes it, so every file is new; a journal whose temporary files are gone changes nothing.
#[test]
fn an_interrupted_save_is_read_whole_and_finished_by_the_editor() {
    let folder = copy_of("dice_wars", "journal");
    let (files, new) = interrupted_save(&folder);
    let before = snapshot(&folder);
    let loaded = load_mod(&folder).expect("loads");
    assert_eq!(loaded.ruleset.manifest.seats.max, 6, "mod.toml as saved");
    let reserve = loaded.ruleset.resources.iter().find(|r| r.id == "reserve").expect("a reserve");
    assert_eq!(reserve.max, 48, "rules.toml as the save will finish, from its temporary file");
    assert!(
        loaded.warnings.iter().any(|w| w.message.contains("a save of this mod in the editor was interrupted")
            && w.file.as_deref().is_some_and(|f| f.ends_with(REPLACE_JOURNAL))),
        "{:?}",
        loaded.warnings
    );
    assert!(snapshot(&folder) == before, "loading changed no file");
    let model = ModModel::open(&folder).unwrap();
    assert_eq!(model.interrupted_save.as_ref().map(|(finished, _)| *finished), Some(true));
    for (file, text) in files.iter().zip(&new) {
        assert_eq!(&std::fs::read_to_string(file).unwrap(), text, "{}", file.display());
    }
    assert!(temporary_files(&folder).is_empty(), "{:?}", temporary_files(&folder));
    assert!(!folder.join(REPLACE_JOURNAL).exists());
    assert!(!finish_interrupted_replace(&folder).unwrap(), "nothing left to finish");
    let loaded = load_mod(&folder).expect("loads");
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
}

/// Files are replaced together only inside the folder the journal goes to: a file outside it,
/// reached by `..`, or a link, is refused before anything is written.
#[test]
fn a_save_replaces_files_only_inside_its_folder() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("editor_saves/relative_journal");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("data")).unwrap();
    let (a, b) = (dir.join("a.toml"), dir.join("data/b.toml"));
    std::fs::write(&a, "old a").unwrap();
    std::fs::write(&b, "old b").unwrap();
    replace_files(&dir, &[(&a, b"new a".as_slice()), (&b, b"new b".as_slice())]).unwrap();
    assert_eq!(std::fs::read_to_string(&b).unwrap(), "new b");
    // A file outside the folder saved to, or a linked one, is refused before anything is written.
    let outside = dir.parent().unwrap().join("outside.toml");
    std::fs::write(&outside, "outside").unwrap();
    let refused = replace_files(&dir, &[(&a, b"x".as_slice()), (&outside, b"x".as_slice())]).unwrap_err();
    assert!(refused.to_string().contains("not a file inside the folder"), "{refused}");
    let dotted = dir.join("data/../../outside.toml");
    let refused = replace_files(&dir, &[(&a, b"x".as_slice()), (&dotted, b"x".as_slice())]).unwrap_err();
    assert!(refused.to_string().contains("not a file inside the folder"), "{refused}");
    std::os::unix::fs::symlink(&outside, dir.join("linked.toml")).unwrap();
    let refused =
        replace_files(&dir, &[(&a, b"x".as_slice()), (&dir.join("linked.toml"), b"x".as_slice())]).unwrap_err();
    assert!(refused.to_string().contains("symbolic link"), "{refused}");
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "outside");
    assert_eq!(std::fs::read_to_string(&a).unwrap(), "new a");
    assert!(temporary_files(&dir).is_empty());
}

const HOSTILE_JOURNAL: &str = "MEEPLE_TEST_HOSTILE_JOURNAL";

/// Journals a downloaded mod could ship, each naming a file outside the mod (and its would-be
/// new text beside it): by an absolute path, by `../`, and by a path relative to the current
/// folder (where the test runs the reading); and whether each is refused. A relative path names
/// a file inside the mod folder now, so the last is a journal of the mod's own files, with
/// nothing left to rename there.
fn hostile_journals(outside: &Path) -> Vec<(String, bool)> {
    let absolute = outside.join("absolute");
    vec![
        (
            format!(
                "{}\t{}\n",
                absolute.join(".victim.toml.1-0.tmp").display(),
                absolute.join("victim.toml").display()
            ),
            true,
        ),
        ("../.victim.toml.1-0.tmp\t../victim.toml\n".to_string(), true),
        ("hooks/../../.victim.toml.1-0.tmp\thooks/../../victim.toml\n".to_string(), true),
        // One line outside refuses the lines naming the mod's own files too.
        (".mod.toml.1-0.tmp\tmod.toml\n../.victim.toml.1-0.tmp\t../victim.toml\n".to_string(), true),
        (".victim.toml.1-0.tmp\tvictim.toml\n".to_string(), false),
    ]
}

/// Writes a victim file and a "new text" for it into `dir`.
fn plant_victim(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("victim.toml"), "the user's own file\n").unwrap();
    std::fs::write(dir.join(".victim.toml.1-0.tmp"), "written by the mod\n").unwrap();
}

/// Not a test on its own: the reading that [`a_journal_shipped_with_a_mod_changes_no_file_outside_it`]
/// runs in a process of its own, whose current folder holds a victim file. For each hostile
/// journal: every way Meeple reads a mod (`check`, loading, loading every choice, scenario
/// tests, the launcher's listing) and the editor opening it, then nothing outside the mod may
/// have changed.
#[test]
fn child_process_reading_a_mod_with_a_hostile_journal() {
    let Some(folder) = helper(HOSTILE_JOURNAL) else { return };
    let users = folder.parent().unwrap().to_path_buf();
    let outside = users.parent().unwrap().to_path_buf();
    let everything_outside = || {
        let mut files = snapshot(&outside);
        files.retain(|(name, _)| !name.starts_with("users/dice_wars/"));
        files
    };
    let before = everything_outside();
    assert!(before.iter().filter(|(name, _)| name.ends_with("victim.toml")).count() == 3, "{before:?}");
    for (journal, refused) in hostile_journals(&outside) {
        std::fs::write(folder.join(REPLACE_JOURNAL), &journal).unwrap();
        let loaded = load_mod(&folder).unwrap_or_else(|e| panic!("{journal}: {e:?}"));
        assert_eq!(
            loaded.warnings.iter().any(|w| w.message.contains("not a journal of Meeple's editor")),
            refused,
            "{journal}: {:?}",
            loaded.warnings
        );
        meeple_engine::options::load_every_choice(&folder).unwrap_or_else(|e| panic!("{journal}: {e:?}"));
        assert!(meeple_engine::loader::scenario_syntax_problems(&folder).is_empty());
        let files = meeple_engine::loader::mod_files(&folder).unwrap();
        meeple_engine::scenario::run_mod_tests(&loaded.ruleset, &files.tests, &files.test_helpers, Some("(none)"));
        let listed = meeple::player::catalog::discover_in(&mods_dir(), Some(&users));
        assert!(listed.iter().any(|m| m.folder == folder && m.rules.is_some()), "{journal}");
        let model = ModModel::open(&folder).unwrap_or_else(|e| panic!("{journal}: {e}"));
        assert!(everything_outside() == before, "{journal}: a file outside the mod changed");
        if refused {
            let (finished, message) = model.interrupted_save.clone().expect("the journal is reported");
            assert!(!finished && message.contains("no file was renamed"), "{journal}: {message}");
            assert!(folder.join(REPLACE_JOURNAL).exists(), "{journal}: the refused journal is left as it is");
        } else {
            assert_eq!(model.interrupted_save, None, "{journal}: nothing was left to finish");
        }
    }
    println!("no file outside the mod changed");
}

#[test]
fn a_journal_shipped_with_a_mod_changes_no_file_outside_it() {
    let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("editor_saves/hostile_journal");
    let _ = std::fs::remove_dir_all(&base);
    // outside/victim.toml (by `../` from the user's mods), outside/absolute/victim.toml (by an
    // absolute path), outside/cwd/victim.toml (by a path relative to the current folder).
    let outside = base.join("outside");
    let folder = outside.join("users/dice_wars");
    copy(&mods_dir().join("dice_wars"), &folder);
    plant_victim(&outside.join("users"));
    plant_victim(&outside.join("absolute"));
    plant_victim(&outside.join("cwd"));
    let output = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "child_process_reading_a_mod_with_a_hostile_journal", "--nocapture", "--test-threads=1"])
        .env(HOSTILE_JOURNAL, &folder)
        .current_dir(outside.join("cwd"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("no file outside the mod changed"),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for dir in ["users", "absolute", "cwd"] {
        let dir = outside.join(dir);
        assert_eq!(std::fs::read_to_string(dir.join("victim.toml")).unwrap(), "the user's own file\n");
        assert!(dir.join(".victim.toml.1-0.tmp").exists(), "{} was renamed", dir.display());
    }
}
