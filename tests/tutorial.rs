//! The modding tutorial and the error guide say only what is true.
//!
//! `docs/modding/tutorial.md` is replayed in a temporary folder, block by block: files are
//! written (```` ```toml file=PATH ````), added to (```` append=PATH ````) and changed
//! (```` ```diff file=PATH ````), and every `meeple` command of a ```` ```console ```` block is
//! run through the engine and must print exactly what the page shows (the timing line of
//! `meeple sim` aside). At the end the game the tutorial built must be `mods/petri`, file for
//! file.
//!
//! `docs/modding/errors.md` makes each mistake in a fresh copy of Petri and checks that Meeple
//! prints exactly the message shown.
//!
//! Commands print what the `meeple` subcommands print (`tools/src/cli/*.rs`), rebuilt here
//! from the engine's own results; paths are shown relative to the temporary folder, as a reader
//! running the commands from the checkout's root sees them.

use std::path::{Path, PathBuf};

use meeple_engine::game::{Engine, Events, GameSetup};
use meeple_engine::loader::{LoadedMod, load_mod_with, mod_files};
use meeple_engine::lua::HookRuntime;
use meeple_engine::options::{Choices, load_every_choice};
use meeple_engine::scenario::{mod_folder_name, result_lines, run_mod_tests};
use meeple_engine::sim::{self, SimConfig, SimReport};
use meeple_tests::{mods_dir, root};

/// A fenced block of a markdown page.
#[derive(Debug)]
struct Block {
    /// The first word of the info string: `toml`, `lua`, `diff`, `console`, `text`.
    lang: String,
    /// `file=PATH` or `append=PATH` from the info string.
    attrs: Vec<(String, String)>,
    body: Vec<String>,
    /// The line of the opening fence, from 1, for messages.
    line: usize,
}

impl Block {
    fn attr(&self, key: &str) -> Option<&str> {
        self.attrs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }
}

/// A heading or a fenced block, in page order.
#[derive(Debug)]
enum Item {
    Heading(String),
    Block(Block),
}

fn parse(text: &str) -> Vec<Item> {
    let lines: Vec<&str> = text.lines().collect();
    let mut items = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if let Some(info) = line.strip_prefix("```") {
            let mut words = info.split_whitespace();
            let lang = words.next().unwrap_or_default().to_string();
            let attrs = words.filter_map(|w| w.split_once('=')).map(|(k, v)| (k.to_string(), v.to_string())).collect();
            let start = i;
            i += 1;
            let mut body = Vec::new();
            while i < lines.len() && lines[i] != "```" {
                body.push(lines[i].to_string());
                i += 1;
            }
            assert!(i < lines.len(), "line {}: the block is never closed", start + 1);
            items.push(Item::Block(Block { lang, attrs, body, line: start + 1 }));
        } else if line.starts_with("## ") {
            items.push(Item::Heading(line.to_string()));
        }
        i += 1;
    }
    items
}

/// A temporary folder standing for the root of a reader's checkout.
struct Workspace {
    root: PathBuf,
}

impl Workspace {
    fn new(name: &str) -> Self {
        let root = std::env::temp_dir().join(format!("meeple-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).unwrap();
        Self { root }
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.root.join(relative)
    }

    /// Text with the workspace's absolute path taken out of every path in it.
    fn relative(&self, text: &str) -> String {
        text.replace(&format!("{}/", self.root.display()), "")
    }

    /// A fresh copy of the finished game as `my_mods/petri`.
    fn copy_petri(&self) {
        let target = self.path("my_mods/petri");
        let _ = std::fs::remove_dir_all(&target);
        copy_dir(&mods_dir().join("petri"), &target);
    }
}

impl Drop for Workspace {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.root);
        }
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

/// Every file under `folder`, as paths relative to it with `/`, sorted.
fn files_under(folder: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![folder.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                found.push(path.strip_prefix(folder).unwrap().to_string_lossy().replace('\\', "/"));
            }
        }
    }
    found.sort();
    found
}

fn joined(lines: &[String]) -> String {
    let mut text = lines.join("\n");
    text.push('\n');
    text
}

/// Writes a `file=` block: the whole file.
fn write_file(path: &Path, body: &[String]) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, joined(body)).unwrap();
}

/// Applies an `append=` block: a blank line, then the block, at the end of the file.
fn append_file(path: &Path, body: &[String], at: usize) {
    let old = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("line {at}: {}: {e}", path.display()));
    std::fs::write(path, format!("{old}\n{}", joined(body))).unwrap();
}

/// Applies a `diff` block: hunks separated by `@@` lines; in each, lines starting with `-` go,
/// `+` come, ` ` (or an empty line) stay. Each hunk's old text must occur exactly once.
fn apply_diff(path: &Path, body: &[String], at: usize) {
    let mut text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("line {at}: {}: {e}", path.display()));
    for hunk in body.split(|line| line.starts_with("@@")) {
        let (mut old, mut new) = (Vec::new(), Vec::new());
        for line in hunk {
            match line.chars().next() {
                Some('-') => old.push(line[1..].to_string()),
                Some('+') => new.push(line[1..].to_string()),
                Some(' ') => {
                    old.push(line[1..].to_string());
                    new.push(line[1..].to_string());
                }
                None => {
                    old.push(String::new());
                    new.push(String::new());
                }
                Some(_) => panic!("line {at}: a diff line starts with `-`, `+` or a space: {line:?}"),
            }
        }
        let (old, new) = (joined(&old), joined(&new));
        let count = text.matches(&old).count();
        assert_eq!(count, 1, "line {at}: the diff's old text occurs {count} times in {}:\n{old}", path.display());
        text = text.replacen(&old, &new, 1);
    }
    std::fs::write(path, text).unwrap();
}

/// A command line split into words; double quotes group words.
fn words(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let (mut quoted, mut any) = (false, false);
    for c in command.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    words.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            c => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        words.push(word);
    }
    words
}

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// Loads a mod as the `meeple` subcommands do; on failure, the lines they print.
fn load(ws: &Workspace, folder: &str, choices: &Choices) -> Result<LoadedMod, Vec<String>> {
    load_mod_with(&ws.path(folder), choices).map_err(|problems| {
        let mut lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
        lines.push(format!("error: {folder}: {} (see above)", plural(problems.len(), "problem")));
        lines
    })
}

/// What `meeple check FOLDER` prints.
fn check(ws: &Workspace, folder: &str) -> Vec<String> {
    match load_every_choice(&ws.path(folder)) {
        Ok(loaded) => {
            let mut lines: Vec<String> = loaded.warnings.iter().map(ToString::to_string).collect();
            let rules = &loaded.ruleset;
            lines.push(format!(
                "ok    {} {} ({folder}): {}, {}",
                rules.manifest.id,
                rules.manifest.version,
                plural(rules.actions.len(), "action"),
                plural(rules.hooks.len(), "hook file")
            ));
            lines
        }
        Err(problems) => {
            let mut lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
            lines.push(format!("FAIL  {folder}: {}", plural(problems.len(), "problem")));
            lines
        }
    }
}

/// What `meeple test FOLDER [-v] [--filter TEXT]` prints.
fn test(ws: &Workspace, folder: &str, verbose: bool, filter: Option<&str>) -> Vec<String> {
    let rules = match load(ws, folder, &Choices::new()) {
        Ok(loaded) => loaded.ruleset,
        Err(lines) => return lines,
    };
    let files = mod_files(&ws.path(folder)).unwrap();
    let folder_name = mod_folder_name(&ws.path(folder));
    let (mut lines, mut passed, mut failed) = (Vec::new(), 0, 0);
    for result in run_mod_tests(&rules, &files.tests, &files.test_helpers, filter) {
        match &result.failure {
            None => passed += 1,
            Some(_) => failed += 1,
        }
        lines.extend(result_lines(&result, &folder_name, verbose));
    }
    lines.push(format!("{passed} passed, {failed} failed"));
    lines
}

/// What `meeple lua FOLDER -e CODE` prints.
fn lua(ws: &Workspace, folder: &str, code: &str) -> Vec<String> {
    let rules = match load(ws, folder, &Choices::new()) {
        Ok(loaded) => loaded.ruleset,
        Err(lines) => return lines,
    };
    let setup = GameSetup::new(&rules, 1, rules.manifest.seats.default_count() as usize, "human");
    let mut engine = Engine::new(rules.clone()).unwrap();
    let mut events = Events::recording();
    let mut state = engine.new_game(&setup, &mut events).unwrap();
    let mut runtime = HookRuntime::new(rules).unwrap();
    match runtime.eval(code, &mut state, &mut events) {
        Ok(text) => vec![text],
        Err(message) => vec![format!("error: {message}")],
    }
}

/// Marks the line of `meeple sim` that reports the time taken, which differs from run to run.
const TIMING: &str = "<the time taken>";

/// What `meeple sim FOLDER --games N [--ai LEVEL]... [--rotate] [--option KEY=CHOICE]...`
/// prints, with the timing line as [`TIMING`].
fn simulate(ws: &Workspace, folder: &str, args: &[String]) -> Vec<String> {
    let (mut games, mut levels, mut rotate, mut choices) = (1000, Vec::new(), false, Choices::new());
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--games" => games = args.next().unwrap().parse().unwrap(),
            "--ai" => levels.push(args.next().unwrap().clone()),
            "--rotate" => rotate = true,
            "--option" => {
                let (key, choice) = args.next().unwrap().split_once('=').unwrap();
                choices.insert(key.to_string(), choice.to_string());
            }
            other => panic!("meeple sim: this test does not know `{other}`"),
        }
    }
    if levels.is_empty() {
        levels.push("greedy".into());
    }
    let rules = match load(ws, folder, &choices) {
        Ok(loaded) => loaded.ruleset,
        Err(lines) => return lines,
    };
    let config = SimConfig {
        games,
        seed: 1,
        seats: rules.manifest.seats.default_count() as usize,
        levels,
        rotate,
        rotate_first: false,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let (report, _) = sim::run(rules, &config, &|_| {}).unwrap();
    sim_table(&report)
}

fn percent(x: f64) -> String {
    format!("{:5.1}%", x * 100.0)
}

/// The table of `meeple sim` (`tools/src/cli/sim.rs`).
fn sim_table(report: &SimReport) -> Vec<String> {
    let mut lines = vec![format!(
        "{} {}: {} games, {} seats, seed {}, levels {}{}",
        report.mod_id,
        report.mod_version,
        report.games,
        report.seats,
        report.seed,
        report.levels.join(" "),
        if report.rotate { " (rotated)" } else { "" }
    )];
    lines.push("seat  wins    rate    95% interval".into());
    for seat in &report.per_seat {
        lines.push(format!(
            "{:>4}  {:>6}  {}  {} – {}",
            seat.seat,
            seat.wins.count,
            percent(seat.wins.rate),
            percent(seat.wins.low),
            percent(seat.wins.high)
        ));
    }
    lines.push(format!(
        "draw  {:>6}  {}  {} – {}",
        report.draws.count,
        percent(report.draws.rate),
        percent(report.draws.low),
        percent(report.draws.high)
    ));
    for level in &report.per_level {
        lines.push(format!(
            "level {:<8} won {:>6} of {:>6} games  {}  ({} – {})",
            level.level,
            level.wins.count,
            level.games,
            percent(level.wins.rate),
            percent(level.wins.low),
            percent(level.wins.high)
        ));
    }
    lines.push(format!(
        "turns: mean {:.1}, median {:.1}; rounds: mean {:.1}; actions: mean {:.1}",
        report.turns_mean, report.turns_median, report.rounds_mean, report.actions_mean
    ));
    lines.push(TIMING.into());
    lines
}

/// Runs one command of a console block in the workspace; returns what it prints, or `None`
/// for commands whose output the page does not show (building, opening the window).
fn run(ws: &Workspace, command: &str, at: usize) -> Option<Vec<String>> {
    let words = words(command);
    let word = |i: usize| words.get(i).map(String::as_str).unwrap_or_default();
    let lines = match (word(0), word(1)) {
        ("cargo", "build") | ("alias", _) => return None,
        ("mkdir", "-p") => {
            for folder in &words[2..] {
                std::fs::create_dir_all(ws.path(folder)).unwrap();
            }
            return Some(Vec::new());
        }
        ("rm", _) => {
            for file in &words[1..] {
                std::fs::remove_file(ws.path(file)).unwrap_or_else(|e| panic!("line {at}: rm {file}: {e}"));
            }
            return Some(Vec::new());
        }
        ("meeple", "check") => check(ws, word(2)),
        ("meeple", "test") => {
            let filter = words.iter().position(|w| w == "--filter").map(|i| words[i + 1].as_str());
            test(ws, word(2), words.iter().any(|w| w == "-v"), filter)
        }
        ("meeple", "lua") => {
            assert_eq!(word(3), "-e", "line {at}: meeple lua MOD -e CODE");
            lua(ws, word(2), word(4))
        }
        ("meeple", "sim") => simulate(ws, word(2), &words[3..]),
        ("meeple", "play") => {
            // The window prints nothing; the mod it opens must load.
            if let Err(lines) = load(ws, word(2), &Choices::new()) {
                panic!("line {at}: `{command}` opens a mod that does not load:\n{}", lines.join("\n"));
            }
            Vec::new()
        }
        _ => panic!("line {at}: this test does not know the command `{command}`"),
    };
    Some(lines.iter().flat_map(|l| ws.relative(l).lines().map(String::from).collect::<Vec<_>>()).collect())
}

/// Runs every command of a console block and compares what it prints with the page. Returns
/// the outputs compared.
fn run_console(ws: &Workspace, block: &Block, page: &str) -> Vec<Vec<String>> {
    let mut outputs = Vec::new();
    let mut i = 0;
    while i < block.body.len() {
        let line = &block.body[i];
        let at = block.line + 1 + i;
        let command = line.strip_prefix("$ ").unwrap_or_else(|| panic!("{page}:{at}: expected a `$ ` command line"));
        i += 1;
        let start = i;
        while i < block.body.len() && !block.body[i].starts_with("$ ") {
            i += 1;
        }
        let shown = &block.body[start..i];
        let Some(printed) = run(ws, command, at) else { continue };
        let same = printed.len() == shown.len()
            && printed
                .iter()
                .zip(shown)
                .all(|(p, s)| if p == TIMING { s.contains(" s on ") && s.ends_with(" games/s") } else { p == s });
        assert!(
            same,
            "{page}:{at}: `{command}` prints\n{}\nbut the page shows\n{}",
            printed.join("\n"),
            shown.join("\n")
        );
        outputs.push(printed);
    }
    outputs
}

fn page(name: &str) -> String {
    std::fs::read_to_string(root().join("docs/modding").join(name)).unwrap()
}

#[test]
fn the_tutorial_builds_petri_file_by_file_and_every_command_prints_what_it_shows() {
    let ws = Workspace::new("tutorial");
    let mut commands = 0;
    for item in parse(&page("tutorial.md")) {
        let Item::Block(block) = item else { continue };
        match (block.lang.as_str(), block.attr("file"), block.attr("append")) {
            ("console", _, _) => commands += run_console(&ws, &block, "tutorial.md").len(),
            ("diff", Some(file), _) => apply_diff(&ws.path(file), &block.body, block.line),
            (_, Some(file), _) => write_file(&ws.path(file), &block.body),
            (_, _, Some(file)) => append_file(&ws.path(file), &block.body, block.line),
            _ => {}
        }
    }
    assert!(commands >= 20, "only {commands} commands checked");

    // The game the tutorial built is the one that ships, file for file.
    let built = ws.path("my_mods/petri");
    let shipped = mods_dir().join("petri");
    let written = files_under(&built);
    for file in &written {
        let ours = std::fs::read_to_string(built.join(file)).unwrap();
        let theirs = std::fs::read_to_string(shipped.join(file))
            .unwrap_or_else(|_| panic!("the tutorial writes {file}, which mods/petri does not have"));
        assert!(
            ours == theirs,
            "the tutorial's {file} differs from mods/petri/{file}:\n--- tutorial\n{ours}\n--- mods/petri\n{theirs}"
        );
    }
    // Every file of the game itself is in the tutorial; only some of the tests are.
    for file in files_under(&shipped) {
        let part_of_the_game = !file.starts_with("tests/") && file != "README.md";
        assert!(!part_of_the_game || written.contains(&file), "the tutorial never writes mods/petri/{file}");
    }
}

#[test]
fn every_mistake_in_the_error_guide_prints_the_message_shown() {
    let ws = Workspace::new("errors");
    ws.copy_petri();
    let mut outputs: Vec<Vec<String>> = Vec::new();
    let mut samples = Vec::new();
    let (mut sections, mut checked_in_section) = (0, 0);
    // After a command has run, the next mistake starts from a fresh copy again.
    let mut changed = false;
    let items = parse(&page("errors.md"));
    for item in &items {
        match item {
            Item::Heading(heading) => {
                assert!(
                    sections == 0 || checked_in_section > 0,
                    "errors.md: a section before {heading:?} checks nothing"
                );
                sections += 1;
                checked_in_section = 0;
                ws.copy_petri();
                changed = false;
            }
            Item::Block(block) => match (block.lang.as_str(), block.attr("file")) {
                ("console", _) => {
                    // The page's first block only says how to make the copy.
                    let setup = block.body.iter().all(|l| l.starts_with("$ mkdir") || l.contains(" cp -r "));
                    if !setup {
                        let printed = run_console(&ws, block, "errors.md");
                        checked_in_section += printed.len();
                        outputs.extend(printed);
                        changed = true;
                    }
                }
                ("diff", Some(file)) => {
                    if changed {
                        ws.copy_petri();
                        changed = false;
                    }
                    apply_diff(&ws.path(file), &block.body, block.line);
                }
                ("text", _) => samples.push(block),
                _ => {}
            },
        }
    }
    assert!(checked_in_section > 0, "errors.md: the last section checks nothing");
    assert!(sections >= 12, "only {sections} kinds of mistakes");
    // Messages quoted in the prose are among those checked.
    for sample in samples {
        let found = outputs.iter().any(|out| out.windows(sample.body.len()).any(|w| w == sample.body.as_slice()));
        assert!(found, "errors.md:{}: this message is not printed by any mistake on the page", sample.line);
    }
}

#[test]
fn petri_s_square_dish_option_loads_with_49_cells() {
    let choices = Choices::from([("dish".to_string(), "square".to_string())]);
    let rules = load_mod_with(&mods_dir().join("petri"), &choices).expect("the square dish loads").ruleset;
    let setup = GameSetup::new(&rules, 1, 2, "human");
    let mut engine = Engine::new(rules.clone()).unwrap();
    let state = engine.new_game(&setup, &mut Events::discard()).unwrap();
    assert_eq!(state.owners.len(), 49);
    let owners: Vec<(String, Option<u8>)> = ["A00", "G00", "A06", "G06"]
        .iter()
        .map(|label| {
            let space = state.board.find(label).unwrap();
            let owner = state.owners[space as usize];
            (label.to_string(), (owner != meeple_engine::game::state::NO_SEAT).then_some(owner + 1))
        })
        .collect();
    assert_eq!(
        owners,
        [("A00", Some(1)), ("G00", Some(2)), ("A06", Some(2)), ("G06", Some(1))]
            .map(|(l, o)| (l.to_string(), o))
            .to_vec()
    );
}
