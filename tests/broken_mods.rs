//! The broken-mod corpus: every folder under `tests/broken_mods/` is a small mod with mistakes,
//! and its `expect.toml` says which located problems loading it must report (file, line,
//! column, words of the message, the "did you mean"), or, for mistakes that only show in play,
//! which action must be refused and with what words. See `tests/broken_mods/README.md`.
//!
//! Each case is copied into a temporary folder (without `expect.toml`, which would otherwise be
//! read as one of the mod's data files), its generated files (huge, deeply nested or wrongly
//! encoded ones, too big or too odd to commit) are written there, and it is loaded on a thread
//! of its own, so a panic or a hang fails that case with its name instead of stopping the run.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use meeple_engine::diag::Diagnostic;
use meeple_engine::game::{Action, ActionError, Engine, Events, GameSetup};
use meeple_engine::loader::load_mod;
use meeple_engine::rules::Ruleset;
use meeple_tests::root;
use toml_edit::{DocumentMut, Item, Table};

/// The corpus must stay at least this big; a shrinking corpus is a lost test.
const MIN_CASES: usize = 45;

/// How long a case may take when its `expect.toml` gives no `seconds`: loading a small mod takes
/// milliseconds, and the endless-loop cases rely on the engine's own limits stopping them.
const DEFAULT_SECONDS: u64 = 20;

fn corpus_dir() -> PathBuf {
    root().join("tests/broken_mods")
}

/// Case folders, sorted; folders starting with `_` are not cases (`_base` is the valid mod every
/// case starts from).
fn case_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(corpus_dir())
        .expect("tests/broken_mods exists")
        .flatten()
        .filter(|entry| entry.path().is_dir())
        .filter_map(|entry| entry.file_name().to_str().map(String::from))
        .filter(|name| !name.starts_with('_'))
        .collect();
    names.sort();
    names
}

/// One problem a case must report.
#[derive(Debug)]
struct ExpectedProblem {
    /// Relative to the mod folder; `.` for the folder itself, `<mod>` for no file at all.
    file: String,
    line: u32,
    col: u32,
    /// Substrings that must all occur in the message.
    message: Vec<String>,
    /// The exact "did you mean", when given; `""` means "no suggestion".
    suggestion: Option<String>,
    table: Option<String>,
    key: Option<String>,
}

/// A file the runner writes into the temporary copy: `head`, `repeat` `times` times, `middle`,
/// `close` `times` times, `tail`.
#[derive(Debug)]
struct Generated {
    file: String,
    head: String,
    repeat: String,
    times: usize,
    middle: String,
    close: String,
    tail: String,
    /// `latin1`: characters up to U+00FF are written as one byte each, as an editor set to a
    /// legacy encoding would save them.
    latin1: bool,
}

/// What a case that loads must do when played.
#[derive(Debug)]
struct Play {
    seats: Option<usize>,
    seed: u64,
    /// Actions taken first (by id, without parameters; `pass` passes); each must be accepted.
    before: Vec<String>,
    /// The action then refused, or `None` when starting the game itself must fail.
    refused: Option<String>,
    /// Substrings of the refusal's message.
    message: Vec<String>,
}

#[derive(Debug)]
struct Case {
    name: String,
    folder: PathBuf,
    problems: Vec<ExpectedProblem>,
    generate: Vec<Generated>,
    play: Option<Play>,
    seconds: u64,
}

fn string(table: &Table, key: &str) -> Option<String> {
    table.get(key).and_then(Item::as_str).map(String::from)
}

fn strings(table: &Table, key: &str) -> Vec<String> {
    match table.get(key) {
        Some(item) if item.is_str() => vec![item.as_str().unwrap_or_default().to_string()],
        Some(item) => item
            .as_array()
            .map(|list| list.iter().filter_map(|v| v.as_str().map(String::from)).collect())
            .unwrap_or_default(),
        None => Vec::new(),
    }
}

fn integer(table: &Table, key: &str) -> Option<i64> {
    table.get(key).and_then(Item::as_integer)
}

/// Reads `expect.toml` of a case; a malformed expectation is the test's own bug and panics with
/// the case's name.
fn read_case(name: &str) -> Case {
    let folder = corpus_dir().join(name);
    let path = folder.join("expect.toml");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let doc: DocumentMut = text.parse().unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let allowed = ["about", "problem", "generate", "play", "seconds"];
    for (key, _) in doc.iter() {
        assert!(allowed.contains(&key), "{}: unknown key `{key}` (allowed: {allowed:?})", path.display());
    }
    assert!(string(&doc, "about").is_some(), "{}: say in `about` what is broken", path.display());
    let tables = |key: &str| -> Vec<Table> {
        doc.get(key).and_then(Item::as_array_of_tables).map(|list| list.iter().cloned().collect()).unwrap_or_default()
    };
    let problems = tables("problem")
        .iter()
        .map(|t| {
            let number = |key: &str| {
                integer(t, key).unwrap_or_else(|| panic!("{}: every [[problem]] needs `{key}`", path.display())) as u32
            };
            ExpectedProblem {
                file: string(t, "file").unwrap_or_else(|| panic!("{}: every [[problem]] needs `file`", path.display())),
                line: number("line"),
                col: number("col"),
                message: strings(t, "message"),
                suggestion: string(t, "suggestion"),
                table: string(t, "table"),
                key: string(t, "key"),
            }
        })
        .collect();
    let generate = tables("generate")
        .iter()
        .map(|t| Generated {
            file: string(t, "file").unwrap_or_else(|| panic!("{}: every [[generate]] needs `file`", path.display())),
            head: string(t, "head").unwrap_or_default(),
            repeat: string(t, "repeat").unwrap_or_default(),
            times: integer(t, "times").unwrap_or(0) as usize,
            middle: string(t, "middle").unwrap_or_default(),
            close: string(t, "close").unwrap_or_default(),
            tail: string(t, "tail").unwrap_or_default(),
            latin1: string(t, "encoding").is_some_and(|e| e == "latin1"),
        })
        .collect();
    let play = doc.get("play").and_then(Item::as_table).map(|t| Play {
        seats: integer(t, "seats").map(|n| n as usize),
        seed: integer(t, "seed").unwrap_or(1) as u64,
        before: strings(t, "before"),
        refused: string(t, "refused"),
        message: strings(t, "message"),
    });
    if play.is_none() {
        assert!(!tables("problem").is_empty(), "{}: a case without [play] must expect problems", path.display());
    }
    let seconds = integer(&doc, "seconds").map_or(DEFAULT_SECONDS, |s| s as u64);
    Case { name: name.to_string(), folder, problems, generate, play, seconds }
}

/// Copies the case's mod files (everything but `expect.toml`) into `target`.
fn copy_mod(from: &Path, target: &Path) {
    std::fs::create_dir_all(target).expect("create the temporary mod folder");
    for entry in std::fs::read_dir(from).expect("read the case folder").flatten() {
        let path = entry.path();
        let destination = target.join(entry.file_name());
        if path.is_dir() {
            copy_mod(&path, &destination);
        } else if entry.file_name() != "expect.toml" {
            std::fs::copy(&path, &destination).expect("copy a case file");
        }
    }
}

fn write_generated(folder: &Path, generated: &Generated) {
    let mut text = String::with_capacity(
        generated.head.len()
            + generated.times * (generated.repeat.len() + generated.close.len())
            + generated.middle.len()
            + generated.tail.len(),
    );
    text.push_str(&generated.head);
    for _ in 0..generated.times {
        text.push_str(&generated.repeat);
    }
    text.push_str(&generated.middle);
    for _ in 0..generated.times {
        text.push_str(&generated.close);
    }
    text.push_str(&generated.tail);
    let bytes: Vec<u8> = if generated.latin1 {
        text.chars()
            .map(|c| u8::try_from(u32::from(c)).expect("a latin1 file holds only characters up to U+00FF"))
            .collect()
    } else {
        text.into_bytes()
    };
    let path = folder.join(&generated.file);
    std::fs::create_dir_all(path.parent().expect("inside the folder")).expect("create folders");
    std::fs::write(path, bytes).expect("write a generated file");
}

/// A diagnostic's file relative to the mod folder, as `expect.toml` writes it.
fn relative_file(folder: &Path, diagnostic: &Diagnostic) -> String {
    let Some(file) = &diagnostic.file else { return String::from("<mod>") };
    let folder = folder.to_string_lossy().replace('\\', "/");
    if *file == folder {
        return String::from(".");
    }
    file.strip_prefix(&format!("{folder}/")).map_or_else(|| file.clone(), String::from)
}

/// How one actual problem differs from the expected one; empty when it matches.
fn mismatches(folder: &Path, expected: &ExpectedProblem, actual: &Diagnostic) -> Vec<String> {
    let mut wrong = Vec::new();
    let file = relative_file(folder, actual);
    if (file.as_str(), actual.line, actual.col) != (expected.file.as_str(), expected.line, expected.col) {
        wrong.push(format!(
            "at {file}:{}:{}, expected {}:{}:{}",
            actual.line, actual.col, expected.file, expected.line, expected.col
        ));
    }
    for words in &expected.message {
        if !actual.message.contains(words.as_str()) {
            wrong.push(format!("message lacks {words:?}"));
        }
    }
    if let Some(suggestion) = &expected.suggestion {
        let actual_suggestion = actual.suggestion.clone().unwrap_or_default();
        if actual_suggestion != *suggestion {
            wrong.push(format!("suggests {actual_suggestion:?}, expected {suggestion:?}"));
        }
    }
    if expected.table.is_some() && actual.table != expected.table {
        wrong.push(format!("in table {:?}, expected {:?}", actual.table, expected.table));
    }
    if expected.key.is_some() && actual.key != expected.key {
        wrong.push(format!("key {:?}, expected {:?}", actual.key, expected.key));
    }
    wrong
}

/// Compares the problems a load reported with the expected ones, in order (the loader sorts them
/// by file, line and column). Every problem must be expected: "all three mistakes reported" and
/// "nothing else" are both part of a case.
fn compare_problems(case: &Case, folder: &Path, actual: &[Diagnostic]) -> Vec<String> {
    let mut failures = Vec::new();
    if actual.len() != case.problems.len() {
        failures.push(format!("{} problems reported, {} expected", actual.len(), case.problems.len()));
    }
    for (index, expected) in case.problems.iter().enumerate() {
        match actual.get(index) {
            Some(found) => {
                for wrong in mismatches(folder, expected, found) {
                    failures.push(format!("problem {}: {wrong}", index + 1));
                }
            }
            None => failures.push(format!("problem {} missing: {expected:?}", index + 1)),
        }
    }
    for found in actual {
        if found.file.is_some() && found.line > 0 && found.source_line.is_none() && found.col > 0 {
            failures.push(format!("`{}` has a column but does not show its line", found.message));
        }
    }
    failures
}

/// Starts a game of a mod that loaded and checks that the case's action (or the start) is
/// refused with the expected words, leaving the state as it was.
fn play(rules: Arc<Ruleset>, spec: &Play) -> Vec<String> {
    let mut failures = Vec::new();
    let mut engine = match Engine::new(rules.clone()) {
        Ok(engine) => engine,
        Err(error) => return vec![format!("the engine did not start: {}", error.message())],
    };
    let seats = spec.seats.unwrap_or(rules.manifest.seats.min as usize);
    let setup = GameSetup::new(&rules, spec.seed, seats, "human");
    let mut events = Events::recording();
    let started = engine.new_game(&setup, &mut events);
    let check_words = |message: &str, failures: &mut Vec<String>| {
        for words in &spec.message {
            if !message.contains(words.as_str()) {
                failures.push(format!("the refusal lacks {words:?}: {message}"));
            }
        }
    };
    let Some(refused) = &spec.refused else {
        match started {
            Ok(_) => failures.push("the game started, but starting it should fail".into()),
            Err(error) => check_words(error.message(), &mut failures),
        }
        return failures;
    };
    let mut state = match started {
        Ok(state) => state,
        Err(error) => return vec![format!("the game did not start: {}", error.message())],
    };
    let action_named = |id: &str| -> Option<Action> {
        if id == "pass" {
            return Some(Action::pass());
        }
        rules.action_index(id).map(|index| Action::rule(index as u16, &[]))
    };
    for id in &spec.before {
        let Some(action) = action_named(id) else { return vec![format!("no action `{id}`")] };
        if let Err(error) = engine.apply(&mut state, &action, &mut events) {
            return vec![format!("`{id}` before the refused action failed: {error}")];
        }
    }
    let Some(action) = action_named(refused) else { return vec![format!("no action `{refused}`")] };
    let hash = state.hash();
    let event_count = events.len();
    match engine.apply(&mut state, &action, &mut events) {
        Ok(()) => failures.push(format!("`{refused}` was accepted, but should be refused")),
        Err(ActionError::Rule(error)) => check_words(error.message(), &mut failures),
        Err(other) => failures.push(format!("`{refused}` was refused for another reason: {other}")),
    }
    if state.hash() != hash {
        failures.push(format!("refusing `{refused}` changed the state"));
    }
    if events.len() != event_count {
        failures.push(format!("refusing `{refused}` left events behind"));
    }
    // The game goes on after the refusal: the seat can still pass (unless passing is what fails).
    if refused != "pass"
        && let Err(error) = engine.apply(&mut state, &Action::pass(), &mut events)
    {
        failures.push(format!("after the refusal the seat cannot pass: {error}"));
    }
    failures
}

/// Everything that happens to one case, on its own thread: copy, generate, load, compare, play.
fn run_case(case: &Case, temp_root: &Path) -> Vec<String> {
    let folder = temp_root.join(&case.name);
    let _ = std::fs::remove_dir_all(&folder);
    copy_mod(&case.folder, &folder);
    for generated in &case.generate {
        write_generated(&folder, generated);
    }
    let result = load_mod(&folder);
    let failures = match (result, &case.play) {
        (Err(problems), None) => compare_problems(case, &folder, &problems),
        (Err(problems), Some(_)) => {
            vec![format!("the mod should load, to be played, but did not:\n{}", render(&problems))]
        }
        (Ok(_), None) => vec!["the mod loaded, but should not".into()],
        (Ok(loaded), Some(spec)) => {
            let mut failures = compare_problems(case, &folder, &loaded.warnings);
            failures.extend(play(loaded.ruleset, spec));
            failures
        }
    };
    let _ = std::fs::remove_dir_all(&folder);
    failures
}

/// Problems as the modder sees them, one per line group, with very long source lines (of the
/// generated files) cut short.
fn render(problems: &[Diagnostic]) -> String {
    const WIDTH: usize = 160;
    let lines = problems.iter().flat_map(|p| p.to_string().lines().map(String::from).collect::<Vec<_>>());
    lines
        .map(|line| match line.char_indices().nth(WIDTH) {
            Some((cut, _)) => format!("    {}…", &line[..cut]),
            None => format!("    {line}"),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The problems a case reports now, for the failure report: what to compare `expect.toml` with.
fn actual_problems(case: &Case, temp_root: &Path) -> String {
    let folder = temp_root.join(&case.name);
    let _ = std::fs::remove_dir_all(&folder);
    copy_mod(&case.folder, &folder);
    for generated in &case.generate {
        write_generated(&folder, generated);
    }
    let text = match load_mod(&folder) {
        Ok(loaded) => format!("    (loaded, {} warnings)\n{}", loaded.warnings.len(), render(&loaded.warnings)),
        Err(problems) => render(&problems).replace(&format!("{}/", folder.display()), ""),
    };
    let _ = std::fs::remove_dir_all(&folder);
    text
}

#[test]
fn every_broken_mod_reports_its_located_problems() {
    let started = Instant::now();
    let temp_root = std::env::temp_dir().join(format!("meeple-broken-mods-{}", std::process::id()));
    let names = case_names();
    assert!(names.len() >= MIN_CASES, "only {} cases; the corpus must keep at least {MIN_CASES}", names.len());

    // The mod every case starts from must itself load: otherwise the cases test its mistakes.
    let base = temp_root.join("_base_copy").join("_base");
    copy_mod(&corpus_dir().join("_base"), &base);
    if let Err(problems) = load_mod(&base) {
        panic!("tests/broken_mods/_base does not load:\n{}", render(&problems));
    }

    let mut report = Vec::new();
    for name in &names {
        let case = Arc::new(read_case(name));
        let case_started = Instant::now();
        let (sender, receiver) = mpsc::channel();
        let worker_case = case.clone();
        let worker_root = temp_root.clone();
        std::thread::Builder::new()
            .name(name.clone())
            .spawn(move || {
                // A panic drops the sender without sending: the receiver then sees a disconnect.
                let failures = run_case(&worker_case, &worker_root);
                let _ = sender.send(failures);
            })
            .expect("spawn a case thread");
        let failures = match receiver.recv_timeout(Duration::from_secs(case.seconds)) {
            Ok(failures) => failures,
            Err(mpsc::RecvTimeoutError::Timeout) => vec![format!("did not finish within {} s", case.seconds)],
            Err(mpsc::RecvTimeoutError::Disconnected) => vec!["panicked (see the panic message above)".into()],
        };
        let took = case_started.elapsed();
        if failures.is_empty() {
            println!("ok    {name} ({} ms)", took.as_millis());
        } else {
            println!("FAIL  {name}");
            let now = if failures.iter().any(|f| f.starts_with("did not finish") || f.starts_with("panicked")) {
                String::new()
            } else {
                format!("\n  reported now:\n{}", actual_problems(&case, &temp_root.join("again")))
            };
            report.push(format!("{name}:\n  {}{now}", failures.join("\n  ")));
        }
    }
    let _ = std::fs::remove_dir_all(&temp_root);
    println!("{} cases in {:.1} s", names.len(), started.elapsed().as_secs_f64());
    assert!(report.is_empty(), "{} of {} broken mods failed:\n\n{}", report.len(), names.len(), report.join("\n\n"));
}
