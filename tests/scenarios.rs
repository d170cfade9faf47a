//! Runs every bundled mod's Lua scenario tests (`mods/<id>/tests/*.lua`), as `meeple test`
//! does, so `cargo test` covers them.

use meeple_engine::loader::mod_files;
use meeple_engine::scenario::run_mod_tests;
use meeple_tests::{bundled, load};

#[test]
fn every_mods_lua_scenario_tests_pass() {
    let mut failures = Vec::new();
    let mut passed = 0;
    for folder in bundled() {
        let id = folder.file_name().unwrap().to_string_lossy().to_string();
        let rules = load(&id);
        let files = mod_files(&folder).unwrap();
        for result in run_mod_tests(&rules, &files.tests, &files.test_helpers, None) {
            match result.failure {
                None => passed += 1,
                Some(message) => failures.push(format!("{} › {}\n    {message}", result.file, result.name)),
            }
        }
    }
    assert!(failures.is_empty(), "{} passed, {} failed:\n{}", passed, failures.len(), failures.join("\n"));
    assert!(passed > 0);
}
