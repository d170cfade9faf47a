//! Every bundled mod loads cleanly, every hook file compiles, every `hook("name")` exists, and
//! the checked-in JSON Schemas match the types they are generated from.

use meeple_engine::loader::{load_mod, mod_files};
use meeple_engine::lua::HookRuntime;
use meeple_tests::{bundled, root};

#[test]
fn every_bundled_mod_loads_and_every_hook_compiles() {
    let mods = bundled();
    assert!(!mods.is_empty(), "no bundled mods found");
    for folder in mods {
        let loaded = load_mod(&folder).unwrap_or_else(|problems| {
            panic!("{}:\n{}", folder.display(), problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))
        });
        assert!(loaded.warnings.is_empty(), "{}: {:?}", folder.display(), loaded.warnings);
        let runtime = HookRuntime::load_all(loaded.ruleset.clone())
            .unwrap_or_else(|errors| panic!("{}: hooks do not load: {errors:?}", folder.display()));
        assert!(runtime.missing_functions(&loaded.ruleset).is_empty());
        let files = mod_files(&folder).unwrap();
        assert!(!files.tests.is_empty(), "{} has no scenario tests", folder.display());
        let readme = std::fs::read_to_string(folder.join("README.md")).unwrap_or_default();
        assert!(
            readme.contains("Where the rules are silent"),
            "{}/README.md lacks \"Where the rules are silent\"",
            folder.display()
        );
    }
}

#[test]
fn checked_in_schemas_are_up_to_date() {
    let mut stale = Vec::new();
    for (name, text) in meeple_engine::schema::all() {
        let path = root().join("schemas").join(name);
        if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            stale.push(name);
        }
    }
    // The pages generated from the types and the Lua API's description.
    for (path, text) in meeple_engine::schema::docs() {
        if std::fs::read_to_string(root().join(path)).ok().as_deref() != Some(text.as_str()) {
            stale.push(path);
        }
    }
    assert!(stale.is_empty(), "stale generated files {stale:?}: run `cargo run -- schema` and commit them");
}

/// The engine knows no game: no bundled mod's id or name, and none of its items or sides,
/// appears in the Rust sources of `engine/src` or `tools/src` (comments included: examples
/// there use neutral names).
#[test]
fn the_engine_and_the_tools_name_no_bundled_game() {
    let mut names: Vec<String> = Vec::new();
    for folder in bundled() {
        let rules = load_mod(&folder).expect("bundled mods load").ruleset;
        names.push(rules.manifest.id.clone());
        names.push(rules.manifest.name.clone());
        for item in &rules.items {
            names.extend([item.id.clone(), item.label.clone()]);
        }
        for side in &rules.data.seats.sides {
            names.push(side.id.clone());
            names.extend(side.label.iter().chain(&side.short_label).cloned());
        }
    }
    let is_word_char = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut found = Vec::new();
    for dir in ["engine/src", "tools/src"] {
        let mut stack = vec![root().join(dir)];
        while let Some(path) = stack.pop() {
            if path.is_dir() {
                stack.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap().to_lowercase();
            for name in &names {
                let name = name.to_lowercase();
                let whole_word = text.match_indices(&name).any(|(at, _)| {
                    let before = text[..at].chars().next_back().is_none_or(|c| !is_word_char(c));
                    let after = text[at + name.len()..].chars().next().is_none_or(|c| !is_word_char(c));
                    before && after
                });
                if whole_word {
                    found.push(format!("{}: `{name}`", path.strip_prefix(root()).unwrap_or(&path).display()));
                }
            }
        }
    }
    assert!(names.len() > 10, "too few names collected: {names:?}");
    assert!(found.is_empty(), "bundled games named in engine or tool sources:\n{}", found.join("\n"));
}

/// The numbers written in a rules-language formula, outside quoted text: `2 * x + 0.5` gives
/// `["2", "0.5"]`.
fn numbers_in(formula: &str) -> Vec<String> {
    let mut numbers = Vec::new();
    let mut quote = None;
    let mut previous = ' ';
    let mut chars = formula.chars().peekable();
    while let Some(c) = chars.next() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c.is_ascii_digit() && !(previous.is_alphanumeric() || previous == '_') => {
                let mut number = c.to_string();
                while let Some(&next) = chars.peek() {
                    if !(next.is_ascii_digit() || next == '.' || next == '_') {
                        break;
                    }
                    number.push(next);
                    chars.next();
                }
                numbers.push(number);
            }
            None => {}
        }
        previous = c;
    }
    numbers
}

/// What a bundled mod's previews and computer-player scores show is worked out from its rules:
/// no number in them restates one (a chance, a mean, a hit threshold). The few numbers an AI
/// score may weigh things by are its own preferences, listed here with the reason.
#[test]
fn previews_and_scores_restate_no_rule_as_a_number() {
    assert_eq!(numbers_in("if(x > 2, 0.5, 'd6') * 1_000"), vec!["2", "0.5", "1_000"]);
    // (mod, action, key, number): preferences of the computer player, not rules.
    let preferences =
        [("dunes_of_terror", "move", "ai.start_score", "1.0"), ("dunes_of_terror", "attack", "ai.score", "100")];
    let mut found = Vec::new();
    for folder in bundled() {
        let loaded = load_mod(&folder).unwrap_or_else(|_| panic!("{} loads", folder.display()));
        let id = loaded.ruleset.manifest.id.clone();
        for (action, def) in &loaded.ruleset.data.actions {
            let mut formulas: Vec<(String, &str)> =
                def.preview.iter().map(|(label, text)| (format!("preview.{label}"), text.as_str())).collect();
            if let Some(ai) = &def.ai {
                formulas.push(("ai.score".into(), &ai.score));
                if let Some(start) = &ai.start_score {
                    formulas.push(("ai.start_score".into(), start));
                }
            }
            for (key, text) in formulas {
                for number in numbers_in(text) {
                    let whole = matches!(number.trim_end_matches(".0"), "0" | "1");
                    let preferred = preferences.iter().any(|&(m, a, k, n)| {
                        (m == id || id.starts_with(&format!("{m}_"))) && a == action && k == key && n == number
                    });
                    if !whole && !preferred {
                        found.push(format!("{id}: actions.{action}.{key}: {number} in `{text}`"));
                    }
                }
            }
        }
    }
    assert!(found.is_empty(), "numbers that restate rules in previews or scores:\n{}", found.join("\n"));
}
