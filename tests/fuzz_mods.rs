//! Random mutations of every bundled mod's files never panic the loader, and a mutated mod that
//! still loads never panics a game either. Each case copies the bundled mods to a scratch folder,
//! mutates one file the loader reads (`mod.toml`, the data files, `hooks/*.lua`) — flipped bytes,
//! lines deleted, duplicated or swapped, tokens swapped, numbers made huge, negative, fractional
//! or text, truncation, keys inserted, identifiers and strings replaced by others of the same
//! file, values of the TOML tree replaced by values of other types — and loads it. The loader
//! must answer `Ok` or `Err` with problems that each name a file that exists; a mod that loads
//! plays a few random actions, keeping the engine's invariants.
//!
//! The cases are seeded: a failure prints its case number, seed and the mutated text, and
//! `MEEPLE_FUZZ_SEED=<seed> MEEPLE_FUZZ_ONLY=<case>` runs that case alone. `MEEPLE_FUZZ_CASES`
//! sets the cases per mod (CI runs the default; run more locally).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use meeple_engine::diag::Diagnostic;
use meeple_engine::game::{ActionError, ActionKind, Engine, Events, GameSetup};
use meeple_engine::loader::{load_mod, mod_files};
use meeple_engine::sim::derive_seed;
use meeple_tests::bundled;
use meeple_tests::panic_text;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

/// Cases per bundled mod in a default run: about half a minute on two cores in the test
/// profile.
const DEFAULT_CASES_PER_MOD: u64 = 1000;
/// Random actions a mutated mod that loads plays, at most.
const ACTIONS_PER_GAME: usize = 25;

/// A seeded stream for the test's own choices.
struct Chooser(ChaCha8Rng);

impl Chooser {
    fn new(seed: u64) -> Self {
        Self(ChaCha8Rng::seed_from_u64(seed))
    }

    /// Uniform in `0..n` (`n` > 0); the modulo bias is irrelevant here.
    fn below(&mut self, n: usize) -> usize {
        (self.0.next_u64() % n.max(1) as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

/// Values that sit on the edges of what the data may hold: out of every integer type's range,
/// negative, fractional, not a number, another type altogether.
const ODD_VALUES: &[&str] = &[
    "0",
    "-1",
    "-100",
    "1",
    "2",
    "255",
    "256",
    "65535",
    "65536",
    "4294967295",
    "4294967296",
    "1000000000",
    "9223372036854775807",
    "-9223372036854775808",
    "9223372036854775808",
    "0.5",
    "-0.0",
    "1e308",
    "-1e308",
    "1e-9",
    "nan",
    "inf",
    "-inf",
    "\"text\"",
    "\"\"",
    "true",
    "false",
    "[]",
    "[1, 2]",
    "{}",
    "{ a = 1 }",
    "1979-05-27",
    "'''\nmulti\nline'''",
];

/// Fragments of the rules language and of Lua, to splice into expressions and code.
const CODE_FRAGMENTS: &[&str] = &[
    "(",
    ")",
    "+",
    "-",
    "*",
    "/",
    "%",
    "==",
    "!=",
    "<",
    ">=",
    " and ",
    " or ",
    " not ",
    "d",
    "6d6",
    "(1)d0",
    "0d6",
    "999999d6",
    "me",
    "none",
    "seat",
    "space",
    ".owner",
    ".dice",
    "if(",
    ",",
    "'",
    "\"",
    "chance",
    "hook('x')",
    "1/0",
    "9223372036854775807",
    "-",
    "..",
    "::",
    "end",
    "function",
    "return",
    "local",
    "nil",
    "{",
    "}",
    "[",
    "]",
    "=",
    "while true do end",
    "game.roll(1000000, 6)",
    "#",
    "\\",
    "é",
    "\u{feff}",
    "→",
    "\u{202e}",
    "🎲",
    // To-be-closed variables however spelled, closable and weak values, values that hold
    // themselves: refused or shown cut, never a hang or a crash.
    "local x <close> = nil ",
    " <\x0cclose\x0b> ",
    " < --[==[\n]==] close > ",
    "\\z",
    "--[[",
    "]]",
    "getmetatable('').__close = function() while true do end end ",
    "local m = {} setmetatable({}, m) m.__mode = 'k' ",
    "local t = {} t[1] = t game.log(t) error(t) ",
];

/// A token of a file: an identifier, a number, or a quoted string, by byte range.
#[derive(Clone, Copy, PartialEq)]
enum TokenKind {
    Identifier,
    Number,
    Text,
}

fn tokens(text: &[u8]) -> Vec<(TokenKind, usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let c = text[i];
        let start = i;
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < text.len() && (text[i].is_ascii_alphanumeric() || text[i] == b'_') {
                i += 1;
            }
            out.push((TokenKind::Identifier, start, i));
        } else if c.is_ascii_digit() || (c == b'-' && text.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            i += 1;
            while i < text.len() && (text[i].is_ascii_digit() || matches!(text[i], b'.' | b'e' | b'E' | b'_')) {
                i += 1;
            }
            out.push((TokenKind::Number, start, i));
        } else if c == b'"' {
            i += 1;
            while i < text.len() && text[i] != b'"' && text[i] != b'\n' {
                i += if text[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(text.len());
            out.push((TokenKind::Text, start, i));
        } else {
            i += 1;
        }
    }
    out
}

/// Line starts (byte offsets), plus the end of the text.
fn line_bounds(text: &[u8]) -> Vec<usize> {
    let mut bounds = vec![0];
    bounds.extend(text.iter().enumerate().filter(|(_, b)| **b == b'\n').map(|(i, _)| i + 1));
    if *bounds.last().unwrap() != text.len() {
        bounds.push(text.len());
    }
    bounds
}

fn splice(text: &mut Vec<u8>, start: usize, end: usize, with: &[u8]) {
    text.splice(start..end, with.iter().copied());
}

/// One random mutation of `text`, described in words.
fn mutate_once(text: &mut Vec<u8>, is_toml: bool, chooser: &mut Chooser) -> String {
    if text.is_empty() {
        text.extend_from_slice(chooser.pick(ODD_VALUES).as_bytes());
        return "filled an empty file".into();
    }
    let found = tokens(text);
    let of_kind = |kind: TokenKind| found.iter().filter(|t| t.0 == kind).copied().collect::<Vec<_>>();
    match chooser.below(12) {
        0 => {
            let mut flips = Vec::new();
            for _ in 0..1 + chooser.below(4) {
                let at = chooser.below(text.len());
                let byte = match chooser.below(4) {
                    0 => chooser.below(256) as u8,
                    1 => *chooser.pick(b"\"'[]{}=,.#\n\\ 0123456789abcdez-+"),
                    _ => text[chooser.below(text.len())],
                };
                flips.push(format!("{at}: {:?} -> {:?}", text[at] as char, byte as char));
                text[at] = byte;
            }
            if chooser.chance(25) {
                let odd = *chooser.pick(&["\u{0}", "\u{FEFF}", "\u{202E}", "é", "\u{10FFFF}", "\r", "\t", "\u{7f}"]);
                let at = chooser.below(text.len() + 1);
                splice(text, at, at, odd.as_bytes());
                flips.push(format!("{at}: inserted {odd:?}"));
            }
            format!("flipped bytes {}", flips.join(", "))
        }
        1 => {
            let lines = line_bounds(text);
            let first = chooser.below(lines.len() - 1);
            let last = (first + 1 + chooser.below(3)).min(lines.len() - 1);
            splice(text, lines[first], lines[last], b"");
            format!("deleted lines {}..{}", first + 1, last)
        }
        2 => {
            let lines = line_bounds(text);
            let line = chooser.below(lines.len() - 1);
            let copy = text[lines[line]..lines[line + 1]].to_vec();
            let to = lines[chooser.below(lines.len())];
            let mut copy = copy;
            if copy.last() != Some(&b'\n') {
                copy.push(b'\n');
            }
            splice(text, to, to, &copy);
            format!("duplicated line {} at byte {to}", line + 1)
        }
        3 => {
            let lines = line_bounds(text);
            let mut all: Vec<Vec<u8>> = lines.windows(2).map(|w| text[w[0]..w[1]].to_vec()).collect();
            let (a, b) = (chooser.below(all.len()), chooser.below(all.len()));
            all.swap(a, b);
            *text = all.concat();
            format!("swapped lines {} and {}", a + 1, b + 1)
        }
        4 if found.len() >= 2 => {
            let (a, b) = (*chooser.pick(&found), *chooser.pick(&found));
            let (first, second) = if a.1 <= b.1 { (a, b) } else { (b, a) };
            if first.2 > second.1 {
                return "swapped a token with itself".into();
            }
            let first_text = text[first.1..first.2].to_vec();
            let second_text = text[second.1..second.2].to_vec();
            splice(text, second.1, second.2, &first_text);
            splice(text, first.1, first.2, &second_text);
            format!(
                "swapped tokens {:?} and {:?}",
                String::from_utf8_lossy(&first_text),
                String::from_utf8_lossy(&second_text)
            )
        }
        5 => {
            let numbers = of_kind(TokenKind::Number);
            let value = *chooser.pick(ODD_VALUES);
            match numbers.is_empty() {
                true => {
                    let at = chooser.below(text.len() + 1);
                    splice(text, at, at, value.as_bytes());
                    format!("inserted {value:?} at byte {at}")
                }
                false => {
                    let (_, start, end) = *chooser.pick(&numbers);
                    let old = String::from_utf8_lossy(&text[start..end]).to_string();
                    splice(text, start, end, value.as_bytes());
                    format!("replaced the number {old} at byte {start} with {value}")
                }
            }
        }
        6 => {
            let at = chooser.below(text.len());
            text.truncate(at);
            format!("truncated at byte {at}")
        }
        7 => {
            let identifiers = of_kind(TokenKind::Identifier);
            let name = |chooser: &mut Chooser, text: &[u8]| match identifiers.is_empty() || chooser.chance(30) {
                true => format!("fuzz_key_{}", chooser.below(1000)),
                false => {
                    let (_, start, end) = *chooser.pick(&identifiers);
                    String::from_utf8_lossy(&text[start..end]).to_string()
                }
            };
            let line = match chooser.below(4) {
                0 => format!("[{}.{}]\n", name(chooser, text), name(chooser, text)),
                1 => format!("[[{}]]\n", name(chooser, text)),
                _ => format!("{} = {}\n", name(chooser, text), chooser.pick(ODD_VALUES)),
            };
            let lines = line_bounds(text);
            let at = lines[chooser.below(lines.len())];
            let mut line_bytes = line.clone().into_bytes();
            if at == text.len() && text.last() != Some(&b'\n') {
                line_bytes.insert(0, b'\n');
            }
            splice(text, at, at, &line_bytes);
            format!("inserted {line:?} at byte {at}")
        }
        8 => {
            let identifiers = of_kind(TokenKind::Identifier);
            if identifiers.len() < 2 {
                return "no identifiers to replace".into();
            }
            let (_, start, end) = *chooser.pick(&identifiers);
            let (_, with_start, with_end) = *chooser.pick(&identifiers);
            let old = text[start..end].to_vec();
            let new = text[with_start..with_end].to_vec();
            let every = chooser.chance(30);
            if every {
                let all: Vec<_> = identifiers.iter().filter(|t| text[t.1..t.2] == old[..]).rev().copied().collect();
                for (_, s, e) in all {
                    splice(text, s, e, &new);
                }
            } else {
                splice(text, start, end, &new);
            }
            format!(
                "replaced {} identifier {:?} with {:?}",
                if every { "every" } else { "one" },
                String::from_utf8_lossy(&old),
                String::from_utf8_lossy(&new)
            )
        }
        9 => {
            let strings = of_kind(TokenKind::Text);
            if strings.is_empty() {
                return "no strings to replace".into();
            }
            let (_, start, end) = *chooser.pick(&strings);
            let new = match chooser.below(3) {
                0 => b"\"\"".to_vec(),
                _ => {
                    let (_, s, e) = *chooser.pick(&strings);
                    text[s..e].to_vec()
                }
            };
            let old = String::from_utf8_lossy(&text[start..end]).to_string();
            splice(text, start, end, &new);
            format!("replaced the string {old} with {}", String::from_utf8_lossy(&new))
        }
        10 if is_toml => mutate_tree(text, chooser),
        11 if chooser.chance(40) => {
            // A name made very long, a near-copy of one of the file's own: every "did you mean"
            // and every message that echoes a name must stay cheap and short.
            let identifiers = of_kind(TokenKind::Identifier);
            if identifiers.is_empty() {
                return "no identifiers to lengthen".into();
            }
            let (_, start, end) = *chooser.pick(&identifiers);
            let word = text[start..end].to_vec();
            let times = *chooser.pick(&[100, 5_000, 50_000]);
            let mut long = word.repeat(times);
            long.push(b'x');
            splice(text, start, end, &long);
            format!("lengthened the identifier {:?} to {} bytes", String::from_utf8_lossy(&word), long.len())
        }
        _ => {
            // Inside an expression or code: delete a character or splice in a fragment.
            let strings = of_kind(TokenKind::Text);
            let (start, end) = match strings.is_empty() || !is_toml {
                true => (0, text.len()),
                false => {
                    let (_, s, e) = *chooser.pick(&strings);
                    (s + 1, e.saturating_sub(1).max(s + 1))
                }
            };
            let at = start + chooser.below(end - start + 1);
            if chooser.chance(30) && at < text.len() {
                let old = text.remove(at);
                format!("deleted {:?} at byte {at}", old as char)
            } else {
                let fragment = *chooser.pick(CODE_FRAGMENTS);
                splice(text, at, at, fragment.as_bytes());
                format!("inserted {fragment:?} at byte {at}")
            }
        }
    }
}

/// A step of a path into a TOML tree.
#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

/// Every path into `value`, the root's included.
fn tree_paths(value: &toml::Value, path: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    out.push(path.clone());
    match value {
        toml::Value::Table(table) => {
            for (key, child) in table {
                path.push(Step::Key(key.clone()));
                tree_paths(child, path, out);
                path.pop();
            }
        }
        toml::Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                path.push(Step::Index(index));
                tree_paths(child, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

fn at_path<'a>(value: &'a mut toml::Value, path: &[Step]) -> &'a mut toml::Value {
    path.iter().fold(value, |node, step| match (step, node) {
        (Step::Key(key), toml::Value::Table(table)) => table.get_mut(key).expect("the walk found it"),
        (Step::Index(index), toml::Value::Array(items)) => &mut items[*index],
        _ => unreachable!("paths follow the tree"),
    })
}

/// Replaces, removes or adds a random value of the TOML tree and writes the tree back: the file
/// stays valid TOML, so the mutation reaches the schema and the compiler rather than the parser.
fn mutate_tree(text: &mut Vec<u8>, chooser: &mut Chooser) -> String {
    let Some(mut root) = std::str::from_utf8(text).ok().and_then(|s| s.parse::<toml::Table>().ok()) else {
        return "not TOML: left alone".into();
    };
    let mut root_value = toml::Value::Table(std::mem::take(&mut root));
    let mut paths = Vec::new();
    tree_paths(&root_value, &mut Vec::new(), &mut paths);
    let path = chooser.pick(&paths).clone();
    let shown = format!("{path:?}");
    let node = at_path(&mut root_value, &path);
    let described = match (chooser.below(4), node) {
        (0, toml::Value::Table(table)) if !table.is_empty() => {
            let key = table.keys().nth(chooser.below(table.len())).unwrap().clone();
            table.remove(&key);
            format!("removed `{key}` at {shown}")
        }
        (0, toml::Value::Array(items)) if !items.is_empty() => {
            let index = chooser.below(items.len());
            if chooser.chance(50) {
                items.remove(index);
                format!("removed element {index} at {shown}")
            } else {
                let copy = items[index].clone();
                items.push(copy);
                format!("duplicated element {index} at {shown}")
            }
        }
        (1, toml::Value::Table(table)) => {
            let key = if chooser.chance(50) || table.is_empty() {
                format!("fuzz_key_{}", chooser.below(100))
            } else {
                format!("{}s", table.keys().nth(chooser.below(table.len())).unwrap())
            };
            let value = random_value(chooser);
            let described = format!("added `{key}` = {value} at {shown}");
            table.insert(key, value);
            described
        }
        (_, node) if !path.is_empty() => {
            let value = random_value(chooser);
            let described = format!("replaced {node} at {shown} with {value}");
            *node = value;
            described
        }
        _ => return "the root: left alone".into(),
    };
    if let toml::Value::Table(table) = root_value {
        match toml::to_string(&table) {
            Ok(written) => *text = written.into_bytes(),
            Err(error) => return format!("{described}, which does not write back ({error}): left alone"),
        }
    }
    described
}

/// A TOML value of a random type, often on an edge.
fn random_value(chooser: &mut Chooser) -> toml::Value {
    use toml::Value;
    match chooser.below(10) {
        0 => Value::Integer(*chooser.pick(&[0i64, -1, 1, 7, 255, 256, 65536, i64::MAX, i64::MIN, 1 << 32])),
        1 => Value::Float(*chooser.pick(&[0.5f64, -0.0, 1e308, f64::NAN, f64::INFINITY, -1.5])),
        2 => Value::String(
            chooser.pick(&["", "x", "me", "none", "1d6", "(", "grass", "knife", "seat.piece", "1/0"]).to_string(),
        ),
        3 => Value::Boolean(chooser.chance(50)),
        4 => Value::Array(Vec::new()),
        5 => Value::Array(vec![Value::Integer(1), Value::Integer(2), Value::Integer(3)]),
        6 => Value::Table(toml::Table::new()),
        7 => {
            let mut table = toml::Table::new();
            table.insert("kind".into(), Value::String("x".into()));
            table.insert("min".into(), Value::Integer(5));
            table.insert("max".into(), Value::Integer(1));
            Value::Table(table)
        }
        8 => Value::Integer(chooser.0.next_u64() as i64),
        _ => Value::Array(vec![Value::String("a".into()), Value::String("b".into())]),
    }
}

/// One fuzz case: which mod and file, the mutated bytes and how they were made.
struct Case {
    index: u64,
    seed: u64,
    mod_name: String,
    /// The file, relative to the mod folder.
    file: PathBuf,
    mutated: Vec<u8>,
    mutations: Vec<String>,
}

impl Case {
    fn report(&self, problem: &str) -> String {
        let original =
            std::fs::read(meeple_tests::mods_dir().join(&self.mod_name).join(&self.file)).unwrap_or_default();
        format!(
            "case {} (MEEPLE_FUZZ_SEED={} MEEPLE_FUZZ_ONLY={}), seed {:#x}: {}/{}: {problem}\n  mutations: {}\n  changed lines:\n{}\n  ---- mutated text ----\n{}\n  ---- end ----",
            self.index,
            base_seed(),
            self.index,
            self.seed,
            self.mod_name,
            self.file.display(),
            self.mutations.join("; "),
            changed_lines(&original, &self.mutated),
            String::from_utf8_lossy(&self.mutated)
        )
    }
}

/// The lines of `after` that differ from `before`, marked, for a short report.
fn changed_lines(before: &[u8], after: &[u8]) -> String {
    let before = String::from_utf8_lossy(before);
    let after = String::from_utf8_lossy(after);
    let old: Vec<&str> = before.lines().collect();
    let new: Vec<&str> = after.lines().collect();
    let mut out = Vec::new();
    for (i, line) in new.iter().enumerate() {
        if old.get(i) != Some(line) {
            out.push(format!("    {:>4}+ {line}", i + 1));
            if let Some(was) = old.get(i) {
                out.push(format!("    {:>4}- {was}", i + 1));
            }
        }
        if out.len() > 16 {
            out.push("    …".into());
            break;
        }
    }
    if new.len() < old.len() {
        out.push(format!("    ({} lines fewer)", old.len() - new.len()));
    }
    out.join("\n")
}

fn base_seed() -> u64 {
    env_number("MEEPLE_FUZZ_SEED").unwrap_or(7)
}

/// The files of a mod the loader reads, relative to its folder.
fn loaded_files(folder: &Path) -> Vec<PathBuf> {
    let files = mod_files(folder).expect("a bundled mod's files list");
    std::iter::once(files.manifest)
        .chain(files.data)
        .chain(files.hooks)
        .map(|p| p.strip_prefix(folder).expect("inside the folder").to_path_buf())
        .collect()
}

/// Builds case `index` of a run over `mods` (each mod with its files), `cases_per_mod` each.
fn make_case(index: u64, mods: &[(String, Vec<PathBuf>)]) -> Case {
    let seed = derive_seed(base_seed(), index);
    let mut chooser = Chooser::new(seed);
    let (mod_name, files) = &mods[index as usize % mods.len()];
    let file = chooser.pick(files).clone();
    let original = std::fs::read(meeple_tests::mods_dir().join(mod_name).join(&file)).expect("a bundled file reads");
    let is_toml = file.extension().is_some_and(|e| e == "toml");
    let mut mutated = original.clone();
    let mut mutations = Vec::new();
    let rounds = if chooser.chance(70) { 1 } else { 2 + chooser.below(3) };
    for _ in 0..rounds {
        mutations.push(mutate_once(&mut mutated, is_toml, &mut chooser));
    }
    Case { index, seed, mod_name: mod_name.clone(), file, mutated, mutations }
}

/// Copies a folder tree.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// The longest a problem may print: its message, key and source line are each bounded, so a
/// name of a megabyte is never echoed whole.
const MAX_SHOWN_PROBLEM: usize = 6_000;

/// Checks that every problem names a file that exists, and prints without panicking, briefly.
fn check_problems(problems: &[Diagnostic], must_have_error: bool) -> Result<(), String> {
    if must_have_error && !problems.iter().any(Diagnostic::is_error) {
        return Err(format!("refused without an error: {problems:?}"));
    }
    for problem in problems {
        let shown = problem.to_string();
        if shown.chars().count() > MAX_SHOWN_PROBLEM {
            let start: String = shown.chars().take(300).collect();
            return Err(format!("a problem prints {} characters: {start}…", shown.chars().count()));
        }
        match &problem.file {
            None => return Err(format!("a problem without a file: {shown}")),
            Some(file) if !Path::new(file).exists() => {
                return Err(format!("a problem names a file that does not exist: {shown}"));
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// Loads the mutated mod in the scratch copy and, when it loads, plays a few random actions.
fn run_case(case: &Case, scratch_mods: &Path, chooser: &mut Chooser) -> Result<Outcome, String> {
    let folder = scratch_mods.join(&case.mod_name);
    let path = folder.join(&case.file);
    let original = std::fs::read(&path).unwrap();
    std::fs::write(&path, &case.mutated).unwrap();
    let loaded = catch_unwind(AssertUnwindSafe(|| load_mod(&folder)));
    std::fs::write(&path, &original).unwrap();
    let loaded = loaded.map_err(|payload| format!("the loader panicked: {}", panic_text(&*payload)))?;
    let rules = match loaded {
        Err(problems) => {
            if problems.is_empty() {
                return Err("refused with no problem reported".into());
            }
            check_problems(&problems, true)?;
            return Ok(Outcome::Refused);
        }
        Ok(loaded) => {
            check_problems(&loaded.warnings, false)?;
            loaded.ruleset
        }
    };
    let played = catch_unwind(AssertUnwindSafe(|| -> Result<Outcome, String> {
        let Ok(mut engine) = Engine::new(rules.clone()) else { return Ok(Outcome::LoadedNoEngine) };
        let range = rules.manifest.seats;
        let seats = range.min as usize + chooser.below((range.max - range.min) as usize + 1).min(7);
        let setup = GameSetup::new(&rules, chooser.0.next_u64(), seats, "human");
        let Ok(mut state) = engine.new_game(&setup, &mut Events::discard()) else { return Ok(Outcome::LoadedNoGame) };
        state.check_invariants(&rules).map_err(|e| format!("after setup: {e}"))?;
        let mut legal = Vec::new();
        for step in 0..ACTIONS_PER_GAME {
            if state.is_over() {
                break;
            }
            engine.legal_actions(&state, &mut legal).unwrap();
            if legal.is_empty() {
                return Err(format!("step {step}: no legal action, not even passing"));
            }
            let action = *chooser.pick(&legal);
            let before = serde_json::to_vec(&state).unwrap();
            match engine.apply(&mut state, &action, &mut Events::discard()) {
                Ok(()) => state.check_invariants(&rules).map_err(|e| format!("step {step}, after {action:?}: {e}"))?,
                // The mutated rules may fail at run time (a division by zero, say): refused,
                // nothing changed.
                Err(ActionError::Rule(_)) if serde_json::to_vec(&state).unwrap() == before => {
                    if action.kind == ActionKind::Leave {
                        break;
                    }
                }
                Err(error) => return Err(format!("step {step}: the listed action {action:?} was refused: {error}")),
            }
        }
        Ok(Outcome::Played)
    }));
    played.map_err(|payload| format!("a game of the mutated mod panicked: {}", panic_text(&*payload)))?
}

/// What became of a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Refused,
    LoadedNoEngine,
    LoadedNoGame,
    Played,
}

#[test]
fn mutated_mods_never_panic_the_loader_or_a_game() {
    let cases_per_mod = env_number("MEEPLE_FUZZ_CASES").unwrap_or(DEFAULT_CASES_PER_MOD);
    let mods: Vec<(String, Vec<PathBuf>)> = bundled()
        .iter()
        .map(|folder| (folder.file_name().unwrap().to_string_lossy().to_string(), loaded_files(folder)))
        .collect();
    let indices: Vec<u64> = match env_number("MEEPLE_FUZZ_ONLY") {
        Some(only) => vec![only],
        None => (0..cases_per_mod * mods.len() as u64).collect(),
    };
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).min(indices.len());
    let scratch = std::env::temp_dir().join(format!("meeple-fuzz-mods-{}", std::process::id()));
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let outcomes = Mutex::new(std::collections::BTreeMap::<Outcome, u64>::new());
    let slowest = Mutex::new((Duration::ZERO, 0u64));
    let started = Instant::now();
    std::thread::scope(|scope| {
        for thread in 0..threads {
            let (scratch, next, failures, outcomes, slowest, indices, mods) =
                (&scratch, &next, &failures, &outcomes, &slowest, &indices, &mods);
            scope.spawn(move || {
                // Each thread mutates its own copy of every bundled mod (variants find the mod
                // they extend beside them).
                let scratch_mods = scratch.join(format!("thread-{thread}"));
                copy_tree(&meeple_tests::mods_dir(), &scratch_mods);
                while let Some(&index) = indices.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let case = make_case(index, mods);
                    let mut chooser = Chooser::new(case.seed ^ 0x9a3e);
                    let began = Instant::now();
                    match run_case(&case, &scratch_mods, &mut chooser) {
                        Ok(outcome) => *outcomes.lock().unwrap().entry(outcome).or_default() += 1,
                        Err(problem) => failures.lock().unwrap().push((index, case.report(&problem))),
                    }
                    let took = began.elapsed();
                    let mut slowest = slowest.lock().unwrap();
                    if took > slowest.0 {
                        *slowest = (took, index);
                    }
                }
            });
        }
    });
    std::fs::remove_dir_all(&scratch).ok();
    let (slowest, slowest_case) = slowest.into_inner().unwrap();
    println!(
        "{} cases in {:.1} s (seed {}): {:?}; slowest case {slowest_case} took {:.2} s",
        indices.len(),
        started.elapsed().as_secs_f64(),
        base_seed(),
        outcomes.into_inner().unwrap(),
        slowest.as_secs_f64()
    );
    let mut failures = failures.into_inner().unwrap();
    failures.sort_by_key(|(index, _)| *index);
    let shown: Vec<&str> = failures.iter().take(5).map(|(_, report)| report.as_str()).collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases failed (the first {} shown; cases {:?}):\n{}",
        failures.len(),
        indices.len(),
        shown.len(),
        failures.iter().map(|(i, _)| *i).collect::<Vec<_>>(),
        shown.join("\n\n")
    );
}

#[test]
fn characters_of_several_bytes_in_an_expression_are_located_errors() {
    // Found by the fuzzer: the expression lexer cut a two-byte operator out of the text in the
    // middle of a character that takes several bytes, and panicked.
    let folder = meeple_tests::mods_dir().join("dice_wars");
    let path = folder.join("rules.toml");
    let original = std::fs::read_to_string(&path).unwrap();
    for odd in ["\u{feff}", "\u{202e}", "é", "\u{10ffff}"] {
        let text = original.replacen("\"from.dice = 1\"", &format!("\"from{odd}.dice = 1\""), 1);
        assert_ne!(text, original);
        let overlay = meeple_engine::loader::Overlay::from([(path.clone(), text)]);
        let loaded = catch_unwind(AssertUnwindSafe(|| {
            meeple_engine::loader::load_mod_edited(&folder, &Default::default(), &overlay)
        }));
        let problems = match loaded {
            Ok(Err(problems)) => problems,
            Ok(Ok(_)) => panic!("{odd:?} in an expression loads"),
            Err(payload) => panic!("{odd:?} in an expression panics the loader: {}", panic_text(&*payload)),
        };
        check_problems(&problems, true).unwrap();
        assert!(problems.iter().any(|p| p.line > 0 && p.message.contains("unexpected character")), "{problems:?}");
    }
}
