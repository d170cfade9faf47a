//! A board for each seat count: a setup option's choice may play on one of the mod's `[boards]`
//! and be for some seat counts only (`seats = [3]`). The setup takes, for a seat count, each
//! option's default when it fits, else its first choice that does; a game set up with a choice
//! for other counts is refused; boards no choice plays on, boards a choice misnames and seat
//! counts without a choice are refused at load. The fixture `maps`: four corners for two or
//! four seats, a triangle of bases for three.

mod common;

use std::path::Path;

use meeple_engine::game::{Engine, Events, GameSetup};
use meeple_engine::loader::load_mod_with;
use meeple_engine::options::{Choices, for_seats};

fn maps_folder() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/maps")
}

fn choices(pairs: &[(&str, &str)]) -> Choices {
    pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

#[test]
fn each_seat_count_gets_the_choice_made_for_it() {
    let rules = common::fixture("maps");
    assert_eq!(rules.chosen_options, choices(&[("map", "corners")]), "the default, with no seat count given");
    for (seats, map) in [(2, "corners"), (3, "triangle"), (4, "corners")] {
        assert_eq!(for_seats(&rules.data.options, &Choices::new(), seats), choices(&[("map", map)]), "{seats} seats");
    }
    // A choice asked for is kept, fitting or not (the game then says why it does not).
    let asked = choices(&[("map", "corners")]);
    assert_eq!(for_seats(&rules.data.options, &asked, 3), asked);

    let triangle = load_mod_with(&maps_folder(), &choices(&[("map", "triangle")])).expect("loads").ruleset;
    let (_, state, _) = common::new_game(&triangle, 1, 3);
    assert_eq!(state.board.space_count(), 25, "the triangle's five by five");
    for seat in 0..3 {
        assert_eq!(state.board.home_spaces(seat).count(), 1, "seat {seat} has its base");
    }
    let (_, state, _) = common::new_game(&rules, 1, 4);
    assert_eq!(state.board.space_count(), 16, "the corners' four by four");

    // A choice's `set` changes the board it plays on.
    let corner = state.board.space_ids().next().expect("a space");
    assert_eq!(state.board.neighbors(corner).len(), 2, "a corner has two neighbours across edges");
    let diagonals = load_mod_with(&maps_folder(), &choices(&[("map", "diagonals")])).expect("loads").ruleset;
    let (_, state, _) = common::new_game(&diagonals, 1, 3);
    assert_eq!(state.board.space_count(), 16);
    assert_eq!(state.board.neighbors(corner).len(), 3, "and three with diagonals");
}

#[test]
fn a_game_with_a_choice_for_other_seat_counts_is_refused_saying_which_fit() {
    let rules = common::fixture("maps");
    let mut engine = Engine::new(rules.clone()).expect("engine");
    let setup = GameSetup::new(&rules, 1, 3, "human");
    let error = engine.new_game(&setup, &mut Events::discard()).expect_err("the corners are for 2 or 4").to_string();
    assert!(
        error.contains(
            "the setup option Map is `Four corners`, which is for 2 or 4 seats, not 3: choose `map=triangle` or \
             `map=diagonals`"
        ),
        "{error}"
    );
    let triangle = load_mod_with(&maps_folder(), &choices(&[("map", "triangle")])).expect("loads").ruleset;
    let mut engine = Engine::new(triangle.clone()).expect("engine");
    for seats in [2, 4] {
        let setup = GameSetup::new(&triangle, 1, seats, "human");
        let error = engine.new_game(&setup, &mut Events::discard()).expect_err("for 3 only").to_string();
        assert!(error.contains(&format!("which is for 3 seats, not {seats}")), "{error}");
    }
}

#[test]
fn the_fixtures_scenario_tests_pick_the_board_by_seat_count() {
    let rules = common::fixture("maps");
    let file = maps_folder().join("tests/maps.lua");
    let results = meeple_engine::scenario::run_mod_tests(&rules, &[file], &[], None);
    assert_eq!(results.len(), 5);
    for result in &results {
        assert!(result.failure.is_none(), "{}: {:?}", result.name, result.failure);
    }
}

const BOARDS: &str = r#"
[options.map]
label = "Map"
default = "pair"
choices.pair = { board = "pair", seats = [2] }
choices.trio = { board = "trio", seats = [3] }

[terrain.plain]

[boards.pair]
kind = "graph"
terrain = "plain"
spaces = [{ id = "a", home = 0 }, { id = "b", home = 1 }]
links = [["a", "b"]]

[boards.trio]
kind = "graph"
terrain = "plain"
spaces = [{ id = "a", home = 0 }, { id = "b", home = 1 }, { id = "c", home = 2 }]
links = [["a", "b"], ["b", "c"]]
"#;

/// The problems of a mod taking two or three seats with `data`, one a line: each problem's
/// first line, the file named without its folder.
fn problems(data: &str) -> String {
    let manifest = common::manifest("boards").replace("max = 2", "max = 3");
    let folder = common::write_mod("boards", &[("mod.toml", manifest.as_bytes()), ("data.toml", data.as_bytes())]);
    let found = meeple_engine::options::load_every_choice(&folder);
    std::fs::remove_dir_all(&folder).ok();
    match found {
        Ok(_) => String::new(),
        Err(problems) => problems
            .iter()
            .map(|p| {
                let shown = p.to_string();
                let first = shown.lines().next().unwrap_or_default().to_string();
                first.replace(&format!("{}/", folder.display()), "")
            })
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

#[test]
fn boards_for_nothing_misnamed_boards_and_seat_counts_without_a_choice_are_refused_where_written() {
    assert_eq!(problems(BOARDS), "", "the mod as written loads with every choice");

    let unplayed = BOARDS.to_string() + "\n[boards.spare]\nkind = \"graph\"\nspaces = [{ id = \"a\" }]\n";
    assert_eq!(
        problems(&unplayed),
        "data.toml:22:9: error: [boards.spare] no setup option plays on the board `spare`: name it in an option's \
         choice (`board = \"spare\"`) or remove it"
    );

    let misnamed = BOARDS.replace("board = \"trio\"", "board = \"tiro\"");
    let found = problems(&misnamed);
    assert!(
        found.starts_with(
            "data.toml:6:26: error: [options.map.choices.trio] key `board`: no board `tiro` in `[boards]`; did you mean \
             `trio`?"
        ),
        "{found}"
    );

    // The default's board misnamed: that one problem, not the board it meant as unplayed, nor a
    // missing `[board]`, nor what the stand-in board rules out.
    let default_misnamed = BOARDS.replace("board = \"pair\"", "board = \"piar\"");
    assert_eq!(
        problems(&default_misnamed),
        "data.toml:5:26: error: [options.map.choices.pair] key `board`: no board `piar` in `[boards]`; did you mean \
         `pair`?"
    );

    let outside = BOARDS.replace("seats = [3]", "seats = [3, 5]");
    assert_eq!(
        problems(&outside),
        "data.toml:6:46: error: [options.map.choices.trio] key `seats`: the game takes 2 to 3 seats (mod.toml), not 5"
    );

    let missing = BOARDS.replace("seats = [3]", "seats = [2]");
    assert_eq!(
        problems(&missing),
        "data.toml:5:1: error: [options.map] key `choices`: no choice of the option is for 3 seats, which the game \
         takes: give one `seats = [3]`"
    );
}
