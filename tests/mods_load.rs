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
    // The online protocol's messages, from the server's types.
    let protocol = root().join("schemas").join(meeple::online::protocol::SCHEMA_FILE);
    if std::fs::read_to_string(&protocol).ok().as_deref() != Some(meeple::online::protocol::schema_text().as_str()) {
        stale.push(meeple::online::protocol::SCHEMA_FILE);
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

/// Every file of every bundled mod passes the schema editors check it against (taplo and the
/// editor read `schemas/`): a template board, a variant's `"..."`, a long inline table written
/// on one line as TOML 1.0 wants. Before this test, three games' files failed `taplo check`.
#[test]
fn every_bundled_file_fits_the_schema_editors_check_it_against() {
    let data = jsonschema::validator_for(&meeple_engine::schema::file_data_schema()).expect("the data schema compiles");
    let manifest_schema: serde_json::Value = serde_json::from_str(
        &meeple_engine::schema::all().into_iter().find(|(name, _)| *name == "mod.schema.json").unwrap().1,
    )
    .unwrap();
    let manifest = jsonschema::validator_for(&manifest_schema).expect("the manifest schema compiles");
    // The check can fail: a misspelt key and a template board's key of the wrong type.
    assert!(!data.is_valid(&serde_json::json!({ "actionz": {} })));
    assert!(!data.is_valid(&serde_json::json!({ "boards": { "x": { "abstract": 1, "kind": "square" } } })));
    assert!(data.is_valid(&serde_json::json!({ "boards": { "x": { "abstract": true, "kind": "square" } } })));
    let mut problems = Vec::new();
    for folder in bundled() {
        for entry in std::fs::read_dir(&folder).unwrap().flatten() {
            let path = entry.path();
            if path.extension().is_none_or(|e| e != "toml") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            if let Some(line) = line_break_in_inline_table(&text) {
                problems.push(format!(
                    "{}:{line}: a line break inside an inline table (TOML 1.1, refused by taplo and other TOML 1.0 \
                     tools): write it on one line, or as a table",
                    path.display()
                ));
            }
            let value: serde_json::Value = match toml::from_str::<toml::Value>(&text) {
                Ok(value) => serde_json::to_value(value).unwrap(),
                Err(error) => {
                    problems.push(format!("{}: {error}", path.display()));
                    continue;
                }
            };
            let validator = if path.file_name().is_some_and(|n| n == "mod.toml") { &manifest } else { &data };
            for error in validator.iter_errors(&value) {
                problems.push(format!("{} at {}: {error}", path.display(), error.instance_path()));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The first line (from 1) that breaks inside an inline table `{ … }` outside any list in it:
/// TOML 1.0 allows line breaks in arrays, not between an inline table's keys.
fn line_break_in_inline_table(text: &str) -> Option<usize> {
    let mut open: Vec<char> = Vec::new();
    let mut line = 1;
    let mut at = 0;
    let bytes = text.as_bytes();
    while at < bytes.len() {
        let rest = &text[at..];
        // Strings and comments hold no brackets; multi-line strings may hold line breaks.
        let skip = if let Some(quote) = [r#"""""#, "'''"].into_iter().find(|q| rest.starts_with(q)) {
            3 + rest[3..].find(quote).map_or(rest.len() - 3, |end| end + 3)
        } else {
            match bytes[at] {
                b'"' => {
                    let mut end = 1;
                    while end < rest.len() && rest.as_bytes()[end] != b'"' && rest.as_bytes()[end] != b'\n' {
                        end += if rest.as_bytes()[end] == b'\\' { 2 } else { 1 };
                    }
                    end + 1
                }
                b'\'' => 2 + rest[1..].find(['\'', '\n']).unwrap_or(rest.len() - 1),
                b'#' => rest.find('\n').unwrap_or(rest.len()),
                _ => 0,
            }
        };
        if skip > 0 {
            let skip = skip.min(rest.len());
            line += rest[..skip].matches('\n').count();
            at += skip;
            continue;
        }
        match bytes[at] {
            b'{' => open.push('{'),
            b'[' => open.push('['),
            b'}' | b']' => {
                open.pop();
            }
            b'\n' => {
                if open.last() == Some(&'{') {
                    return Some(line);
                }
                line += 1;
            }
            _ => {}
        }
        at += 1;
    }
    None
}

#[test]
fn a_line_break_between_an_inline_tables_keys_is_found() {
    assert_eq!(line_break_in_inline_table("a = { b = 1, c = [\n 2,\n 3] }\n"), None, "in its list");
    assert_eq!(line_break_in_inline_table("x = 1\na = { b = 1,\n c = 2 }\n"), Some(2));
    assert_eq!(line_break_in_inline_table("a = { b = \"{ \\\" }\" }\n# { \nc = '{'\n"), None, "strings, comments");
    assert_eq!(line_break_in_inline_table("a = \"\"\"\n{\n\"\"\"\nb = { c = 1,\n}\n"), Some(4), "after a long string");
}
