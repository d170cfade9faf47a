//! Arranging a position in a scenario test: `g:place` puts new pieces on the board as the rules'
//! `place` would (starting stats and items), `g:remove` takes them out of play, and mistakes
//! (an unknown piece kind or space, a piece removed twice) fail the test with a clear message.
//! On the `armory` fixture, whose setup already placed pieces 1 to 3.

mod common;

use std::path::PathBuf;

use meeple_engine::scenario::{TestResult, run_mod_tests};

/// Runs `lua` as a test file of the armory fixture; gives each test's name and failure.
fn run(lua: &str) -> Vec<TestResult> {
    let dir = std::env::temp_dir().join(format!("meeple-scenario-arranging-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file: PathBuf = dir.join(format!("arrange_{}.lua", lua.len()));
    std::fs::write(&file, lua).unwrap();
    let results = run_mod_tests(&common::fixture("armory"), &[file], &[], None);
    let _ = std::fs::remove_file(dir.join(format!("arrange_{}.lua", lua.len())));
    results
}

/// The failure of the file's only test.
fn failure(lua: &str) -> String {
    let results = run(lua);
    assert_eq!(results.len(), 1, "{results:?}");
    let failure = results[0].failure.clone().unwrap_or_else(|| panic!("the test passed: {lua}"));
    // The failure starts with the test file's path, which is a temporary one.
    failure.split_once(".lua:").map_or(failure.clone(), |(_, rest)| rest.to_string())
}

#[test]
fn placed_pieces_get_their_kinds_stats_and_items_and_removed_ones_leave_play() {
    let results = run(r#"
test("place and remove", function()
  local g = scenario.new{ seed = 1, seats = 2 }
  local fighter = g:place("fighter", 2, "b")
  expect_eq(fighter, 4, "the setup placed three pieces")
  expect_eq(g:piece_space(fighter), "b")
  expect_eq(g:stat(fighter, "health"), 10)
  expect_eq(g:items(fighter), { "club", "quiver" })
  expect_eq(g:alive(fighter), true)
  expect_eq(g:state().pieces[4].owner, 2)

  local stray = g:place("scout", nil, 6)
  expect_eq(g:piece_space(stray), "f", "space 6 is f")
  expect_eq(g:stat(stray, "health"), 4)

  g:remove(fighter)
  expect_eq(g:alive(fighter), false)
  expect_eq(g:piece_space(fighter), nil)
  expect_eq(g:place("scout", 1, "a"), 6, "ids are not reused")
end)
"#);
    assert_eq!(results.len(), 1, "{results:?}");
    assert_eq!(results[0].failure, None);
}

#[test]
fn an_unknown_kind_space_or_piece_fails_the_test_with_what_is_wrong() {
    assert_eq!(
        failure("test('x', function() scenario.new{ seats = 2 }:place('figther', 1, 'a') end)"),
        "1: unknown piece kind `figther`; did you mean `fighter`?"
    );
    assert_eq!(
        failure("test('x', function() scenario.new{ seats = 2 }:place('dragon', 1, 'a') end)"),
        "1: unknown piece kind `dragon`; the mod's piece kinds: fighter, scout, archer"
    );
    assert_eq!(
        failure("test('x', function() scenario.new{ seats = 2 }:place('scout', 1, 'z') end)"),
        "1: no space is labelled `z`"
    );
    assert_eq!(
        failure("test('x', function() scenario.new{ seats = 2 }:place('scout', 3, 'a') end)"),
        "1: expected a seat 1..2, got 3"
    );
    assert_eq!(
        failure("test('x', function() local g = scenario.new{ seats = 2 }\ng:remove(1)\ng:remove(1) end)"),
        "3: piece 1 was already removed"
    );
    assert_eq!(failure("test('x', function() scenario.new{ seats = 2 }:remove(9) end)"), "1: no piece 9");
}
