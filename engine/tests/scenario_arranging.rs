//! Arranging a position in a scenario test: `g:place` puts new pieces on the board as the rules'
//! `place` would (starting stats and items), `g:remove` takes them out of play, and mistakes
//! (an unknown piece kind or space, a piece removed twice) fail the test with a clear message.
//! On the `armory` fixture, whose setup already placed pieces 1 to 3. Hands and a deck's order
//! (`g:set_hand`, `g:set_deck`) and the numbers of `game.random` (`g:force_random`), on the
//! `tiny` fixture, whose deck `fortune` holds two `coin`s and a `blank`.

mod common;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use meeple_engine::rules::Ruleset;
use meeple_engine::scenario::{TestResult, run_mod_tests};

/// Runs `lua` as a test file of the armory fixture; gives each test's name and failure.
fn run(lua: &str) -> Vec<TestResult> {
    run_on(&common::fixture("armory"), lua)
}

/// Runs `lua` as a test file of a mod.
fn run_on(rules: &Arc<Ruleset>, lua: &str) -> Vec<TestResult> {
    static FILES: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!("meeple-scenario-arranging-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file: PathBuf = dir.join(format!("arrange_{}.lua", FILES.fetch_add(1, Ordering::Relaxed)));
    std::fs::write(&file, lua).unwrap();
    let results = run_mod_tests(rules, std::slice::from_ref(&file), &[], None);
    let _ = std::fs::remove_file(&file);
    results
}

/// The failure of each test that failed, without the temporary file's path.
fn failures(results: &[TestResult]) -> Vec<(String, String)> {
    results
        .iter()
        .filter_map(|r| {
            let failure = r.failure.as_ref()?;
            Some((r.name.clone(), failure.split_once(".lua:").map_or(failure.clone(), |(_, rest)| rest.to_string())))
        })
        .collect()
}

/// The `tiny` fixture with a hook that draws with `game.random` and keeps what it drew, and an
/// action that calls it.
fn tiny_with_random() -> Arc<Ruleset> {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny");
    let read = |name: &str| std::fs::read_to_string(fixture.join(name)).unwrap();
    let data = read("data.toml").replace("\"meddle\"]", "\"meddle\", \"pick\"]")
        + "\n[actions.pick]\nlabel = \"Pick\"\neffect = [\"hook('pick')\"]\n";
    let hooks = read("hooks/main.lua")
        + "\nfunction pick()\n  game.put(\"picked\", { game.random(1, 6), game.random(10, 20) })\nend\n";
    let folder = common::write_mod(
        "tiny",
        &[
            ("mod.toml", read("mod.toml").as_bytes()),
            ("data.toml", data.as_bytes()),
            ("hooks/main.lua", hooks.as_bytes()),
        ],
    );
    meeple_engine::loader::load_mod(&folder).expect("loads").ruleset
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

#[test]
fn hands_and_the_order_of_a_deck_are_arranged_without_making_or_losing_a_card() {
    let results = run_on(
        &common::fixture("tiny"),
        r#"
test("hands and decks", function()
  local g = scenario.new{ seed = 1, seats = 2 }
  expect_eq(#g:deck("fortune").draw, 3, "the whole deck is in the draw pile")
  g:set_hand(2, "fortune", { "blank", "coin" })
  expect_eq(g:state().seats[2].hand, { "blank", "coin" })
  expect_eq(g:deck("fortune").draw, { "coin" })
  -- The blank goes back, under the draw pile.
  g:set_hand(2, "fortune", { "coin" })
  expect_eq(g:state().seats[2].hand, { "coin" })
  expect_eq(g:deck("fortune").draw, { "coin", "blank" })
  -- Taken from another seat's hand too.
  g:set_hand(1, "fortune", { "coin", "coin" })
  expect_eq(g:state().seats[1].hand, { "coin", "coin" })
  expect_eq(g:state().seats[2].hand, {})
  g:set_hand(1, "fortune", {})
  expect_eq(g:deck("fortune").draw, { "blank", "coin", "coin" })
  -- The blank on top: it is drawn first.
  g:set_deck("fortune", { "coin", "blank" })
  expect_eq(g:deck("fortune").draw, { "coin", "blank", "coin" })
  g:set_deck("fortune", { "blank" })
  expect_eq(g:deck("fortune").draw, { "blank", "coin", "coin" })
  g:act{ action = "collect" }
  g:pass()
  g:act{ action = "draw" }
  expect_eq(g:state().seats[1].hand, { "blank" })
  expect_eq(g:deck("fortune").draw, { "coin", "coin" })
end)
test("unknown deck", function() scenario.new{ seats = 2 }:set_hand(1, "fortnue", {}) end)
test("unknown card", function() scenario.new{ seats = 2 }:set_deck("fortune", { "con" }) end)
test("too many copies", function() scenario.new{ seats = 2 }:set_hand(1, "fortune", { "blank", "blank" }) end)
test("a card in a hand", function()
  local g = scenario.new{ seats = 2 }
  g:set_hand(1, "fortune", { "blank" })
  local before = g:deck("fortune").draw
  expect_error(function() g:set_deck("fortune", { "coin", "blank" }) end, "no `blank` is left in the draw or discard pile")
  expect_eq(g:deck("fortune").draw, before, "a refused arrangement changes nothing")
  error("done")
end)
"#,
    );
    assert_eq!(results.len(), 5, "{results:?}");
    assert_eq!(results[0].failure, None);
    assert_eq!(
        failures(&results[1..]),
        [
            ("unknown deck".to_string(), "29: unknown deck `fortnue`; did you mean `fortune`?".to_string()),
            ("unknown card".to_string(), "30: deck `fortune` has no card `con`; did you mean `coin`?".to_string()),
            (
                "too many copies".to_string(),
                "31: set_hand: every `blank` of the deck is already in this hand".to_string()
            ),
            ("a card in a hand".to_string(), "38: done".to_string()),
        ]
    );
}

#[test]
fn forced_numbers_come_out_of_game_random_in_order() {
    let rules = tiny_with_random();
    let results = run_on(
        &rules,
        r#"
test("forced", function()
  local g = scenario.new{ seed = 1, seats = 2 }
  g:act{ action = "collect" }
  g:pass()
  g:force_random{ 6, 10, 1 }
  expect_eq(g:forced_random_left(), 3)
  g:act{ action = "pick" }
  expect_eq(g:state().seats[1].hand, {}, "nothing else changed")
  expect_eq(g:forced_random_left(), 1)
  g:act{ action = "pick" }
  expect_eq(g:forced_random_left(), 0, "the rest is random again")
end)
test("outside the range", function()
  local g = scenario.new{ seed = 1, seats = 2 }
  g:act{ action = "collect" }
  g:pass()
  g:force_random{ 7 }
  g:act{ action = "pick" }
end)
"#,
    );
    assert_eq!(results.len(), 2, "{results:?}");
    assert_eq!(results[0].failure, None);
    let failure = results[1].failure.clone().unwrap_or_default();
    assert!(
        failure.contains("the action was refused")
            && failure.contains("tiny/hooks/main.lua:")
            && failure.contains("random(1, 6): the test forced 7, which is not between 1 and 6"),
        "{failure}"
    );
}

#[test]
fn what_a_test_prints_and_its_whole_failure_are_kept() {
    let results = run(r#"
test("prints", function()
  print("owner of a:", 1, nil, true)
  print("two\nlines")
end)
test("fails over lines", function()
  print("before")
  error("first line\nsecond line\n  third, indented")
end)
test("expect_eq of texts with lines", function()
  expect_eq("a\nb", "a\nc")
end)
"#);
    assert_eq!(results.len(), 3, "{results:?}");
    assert_eq!(results[0].output, ["owner of a:	1	nil	true", "two", "lines"]);
    assert_eq!(results[0].failure, None);
    assert_eq!(results[1].output, ["before"]);
    assert_eq!(
        failures(&results[1..]),
        [
            (
                "fails over lines".to_string(),
                "8: first line
second line
  third, indented"
                    .to_string()
            ),
            ("expect_eq of texts with lines".to_string(), "11: expected \"a\\\nc\", got \"a\\\nb\"".to_string()),
        ]
    );
}

#[test]
fn a_test_starts_a_bounded_number_of_games() {
    // Every game a test starts is memory outside the Lua limit: a test that kept 100 000 of them
    // grew past 6 GB. The 1 001st game is refused, at the test's line, and the next test may
    // start games again.
    let results = run(
        "test('hoards', function() local keep = {} for i = 1, 100000 do keep[i] = scenario.new{ seed = i } end end)\n\
         test('next', function() local g = scenario.new{ seed = 1 } expect(g ~= nil) end)\n",
    );
    assert_eq!(
        failures(&results),
        vec![(
            "hoards".to_string(),
            "1: a test may start at most 1000 games (each is memory of its own, outside the Lua limit)".to_string()
        )]
    );
    assert_eq!(results.len(), 2);
}
