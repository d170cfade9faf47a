//! Knocking a piece back: `Board::beyond` (the squares one step beyond a target, straight away
//! from where the blow came from), the rules language's `beyond(from, to, space)` and the Lua
//! hook API's `game.beyond` and `game.wall`. The fixture `shove`: an eight-neighbour grid with a
//! wall between C03 and C04 and a pit at E04.

mod common;

use std::collections::BTreeSet;

use meeple_engine::game::{Action, ActionKind, Engine, Event, Events, GameState};
use meeple_engine::rules::Ruleset;

fn fixture_folder() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/shove")
}

fn at(state: &GameState, label: &str) -> u32 {
    state.board.find(label).unwrap_or_else(|| panic!("no space {label}"))
}

fn labels(state: &GameState, spaces: &[u32]) -> Vec<String> {
    spaces.iter().map(|&s| state.board.space(s).label.clone()).collect()
}

/// The squares beyond `to` seen from `from`, by label.
fn beyond(state: &GameState, from: &str, to: &str) -> Vec<String> {
    let spaces = state.board.beyond(at(state, from), at(state, to)).expect("a square grid");
    labels(state, &spaces)
}

#[test]
fn straight_lines_give_one_square_and_other_angles_the_two_around_the_line() {
    let rules = common::fixture("shove");
    let (_, state, _) = common::new_game(&rules, 1, 2);
    // Along a column, a row and a diagonal: the next square on.
    assert_eq!(beyond(&state, "C02", "C01"), ["C00"]);
    assert_eq!(beyond(&state, "A02", "B02"), ["C02"]);
    assert_eq!(beyond(&state, "A00", "B01"), ["C02"]);
    assert_eq!(beyond(&state, "A00", "C02"), ["D03"], "a longer diagonal is still straight");
    // A knight's angle: the two squares around the line, straight on and diagonally on.
    let knight: BTreeSet<String> = beyond(&state, "A00", "C01").into_iter().collect();
    assert_eq!(knight, BTreeSet::from(["D01".to_string(), "D02".to_string()]));
    // The board's edge: nothing beyond; a corner leaves one of two.
    assert!(beyond(&state, "C01", "C00").is_empty());
    assert_eq!(beyond(&state, "B02", "A00").len(), 0, "straight on off the corner");
    assert!(beyond(&state, "A02", "B00").is_empty(), "both squares around the line are off the top edge");
    let corner: BTreeSet<String> = beyond(&state, "C00", "D01").into_iter().collect();
    assert_eq!(corner, BTreeSet::from(["E02".to_string()]), "straight on along the diagonal");
    assert_eq!(state.board.beyond(at(&state, "C02"), at(&state, "C02")), Some(Vec::new()));
}

#[test]
fn a_four_neighbour_grid_steps_only_along_sides() {
    let data = std::fs::read_to_string(fixture_folder().join("data.toml")).unwrap();
    let four = data.replace("neighbours = 8", "neighbours = 4");
    let manifest = common::manifest("shove_four");
    let hooks = std::fs::read(fixture_folder().join("hooks/shove.lua")).unwrap();
    let folder = common::write_mod(
        "shove_four",
        &[("mod.toml", manifest.as_bytes()), ("data.toml", four.as_bytes()), ("hooks/shove.lua", &hooks)],
    );
    let rules = common::loaded(&folder);
    std::fs::remove_dir_all(&folder).ok();
    let (_, state, _) = common::new_game(&rules, 1, 2);
    let diagonal: BTreeSet<String> = beyond(&state, "A00", "B01").into_iter().collect();
    assert_eq!(diagonal, BTreeSet::from(["C01".to_string(), "B02".to_string()]), "either side of a diagonal");
    let knight: BTreeSet<String> = beyond(&state, "A00", "C01").into_iter().collect();
    assert_eq!(knight, BTreeSet::from(["D01".to_string(), "C02".to_string()]), "the side steps either side of it");
    assert_eq!(beyond(&state, "A01", "C01"), ["D01"], "along a row");
}

fn rule(rules: &Ruleset, id: &str) -> u16 {
    rules.action_index(id).unwrap() as u16
}

/// Red's brute on `red`, blue's on `blue`, both of the fixture's pieces placed by hand.
fn arranged(red: &str, blue: &str) -> (std::sync::Arc<Ruleset>, Engine, GameState) {
    let rules = common::fixture("shove");
    let (engine, mut state, _) = common::new_game(&rules, 1, 2);
    state.pieces[0].space = at(&state, red);
    state.pieces[1].space = at(&state, blue);
    (rules, engine, state)
}

#[test]
fn the_rules_language_lists_each_free_square_beyond() {
    let (rules, mut engine, state) = arranged("B02", "C03");
    let shove = rule(&rules, "shove");
    let onto: BTreeSet<String> = common::legal(&mut engine, &state)
        .into_iter()
        .filter(|a| a.kind == ActionKind::Rule(shove))
        .map(|a| state.board.space(a.args[2] as u32).label.clone())
        .collect();
    // B02 → C03 is a diagonal: D04 alone (the wall below C03 is the hook's to weigh, not beyond's).
    assert_eq!(onto, BTreeSet::from(["D04".to_string()]));
}

/// Knocks blue's brute from red's and returns where it ends (None: removed) and the log.
fn knock(red: &str, blue: &str, extra: Option<&str>) -> (Option<String>, Vec<String>) {
    let (rules, mut engine, mut state) = arranged(red, blue);
    if let Some(space) = extra {
        let kind = state.pieces[1].kind;
        let mut third = state.pieces[1].clone();
        third.space = at(&state, space);
        third.kind = kind;
        state.pieces.push(third);
    }
    let action = Action::rule(rule(&rules, "knock"), &[0, 1]);
    let mut events = Events::recording();
    engine.apply(&mut state, &action, &mut events).unwrap_or_else(|e| panic!("{e}"));
    let piece = &state.pieces[1];
    let log = events
        .list()
        .iter()
        .filter_map(|e| match e {
            Event::Log { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect();
    (piece.alive.then(|| state.board.space(piece.space).label.clone()), log)
}

#[test]
fn the_hook_pushes_straight_back_and_is_stopped_by_walls_pieces_and_the_edge() {
    assert_eq!(knock("C01", "C02", None).0.as_deref(), Some("C03"), "straight down a free column");
    let (ended, log) = knock("C02", "C03", None);
    assert_eq!(ended.as_deref(), Some("C03"), "the wall between C03 and C04 stops it");
    assert_eq!(log, ["the knock is stopped"]);
    assert_eq!(knock("B01", "C02", Some("D03")).0.as_deref(), Some("C02"), "a piece behind stops it");
    assert_eq!(knock("C01", "C00", None).0.as_deref(), Some("C00"), "the board's edge stops it");
    assert_eq!(knock("C02", "D03", None).0, None, "into the pit: removed");
}

#[test]
fn beyond_on_a_board_that_is_not_a_square_grid_is_refused_where_it_is_written() {
    let data = common::MINIMAL_DATA.replace(
        "params = [{ name = \"from\", kind = \"space\", owned_by = \"me\" }]",
        "params = [{ name = \"from\", kind = \"space\", owned_by = \"me\" }]\nwhen = \"beyond(from, from, from)\"",
    );
    let manifest = common::manifest("graph_beyond");
    let folder =
        common::write_mod("graph_beyond", &[("mod.toml", manifest.as_bytes()), ("data.toml", data.as_bytes())]);
    let found: Vec<String> = common::problems(&folder).iter().map(|p| p.to_string()).collect();
    std::fs::remove_dir_all(&folder).ok();
    let text = found.join("\n");
    assert!(text.contains("data.toml:") && text.contains("`beyond` needs a square grid"), "{text}");
}
