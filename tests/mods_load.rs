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
    assert!(stale.is_empty(), "stale schemas {stale:?}: run `cargo run -- schema` and commit schemas/");
}
