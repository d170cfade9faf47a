//! Dune 1984 through the engine where a scenario test cannot reach: the two-player game (an
//! option: four seats, two houses a player), what another house sees of a hand, and the
//! bookkeeping numbers the window leaves off while every seat still reads them.

use std::sync::Arc;

use meeple::player::panels;
use meeple_engine::game::{Engine, Events, GameSetup, GameState, Outcome};
use meeple_engine::loader::load_mod_with;
use meeple_engine::options::Choices;
use meeple_engine::rules::Ruleset;
use meeple_tests::{load, mods_dir};

fn two_players() -> Arc<Ruleset> {
    let chosen: Choices = [("players".to_string(), "two".to_string())].into_iter().collect();
    load_mod_with(&mods_dir().join("dune_1984"), &chosen).expect("the two-player game loads").ruleset
}

fn start(rules: &Arc<Ruleset>, seed: u64, seats: usize) -> Result<(Engine, GameState), String> {
    let mut engine = Engine::new(rules.clone()).map_err(|e| e.to_string())?;
    let setup = GameSetup::new(rules, seed, seats, "medium");
    let state = engine.new_game(&setup, &mut Events::discard()).map_err(|e| e.to_string())?;
    Ok((engine, state))
}

fn play_out(rules: &Arc<Ruleset>, engine: &mut Engine, state: &mut GameState, seed: u64) {
    let mut players: Vec<_> =
        (0..state.seats.len()).map(|i| meeple_engine::ai::player("medium", seed * 10 + i as u64).unwrap()).collect();
    for _ in 0..20_000 {
        if state.outcome.is_some() {
            return;
        }
        let seat = state.to_act() as usize;
        let action = players[seat].decide(engine, state).expect("a decision");
        engine.apply(state, &action, &mut Events::discard()).expect("a legal action");
    }
    panic!("{}: the game did not end", rules.manifest.name);
}

#[test]
fn the_two_player_game_seats_opposite_houses_together_and_a_player_wins_with_both() {
    let rules = two_players();
    let sides: Vec<&str> = rules.data.seats.sides.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(sides, ["red_blue", "yellow_green"]);
    for seed in 1..=6 {
        let (mut engine, mut state) = start(&rules, seed, 4).unwrap();
        // Seats go round the sides: red and blue (opposite sietches) against yellow and green.
        let side_of: Vec<u8> = state.seats.iter().map(|s| s.side).collect();
        assert_eq!(side_of, [0, 1, 0, 1]);
        play_out(&rules, &mut engine, &mut state, seed);
        let Some(Outcome::Win { seats }) = &state.outcome else { panic!("seed {seed}: {:?}", state.outcome) };
        let mut seats = seats.clone();
        seats.sort();
        assert!(seats == [0, 2] || seats == [1, 3], "seed {seed}: a player wins with both its houses: {seats:?}");
    }
}

#[test]
fn the_two_player_game_takes_four_seats() {
    let rules = two_players();
    let error = start(&rules, 1, 3).err().expect("three seats are refused");
    assert!(error.contains("four seats"), "{error}");
}

#[test]
fn another_house_sees_how_many_cards_a_hand_holds_not_which() {
    let rules = load("dune_1984");
    let (_, mut state) = start(&rules, 1, 4).unwrap();
    let equipment = rules.decks.iter().position(|d| d.id == "equipment").unwrap() as u16;
    let sword = rules.card_ids.iter().position(|c| c == "sword").unwrap() as u16;
    state.seats[0].hand.push((equipment, sword));
    let own = state.view_for(&rules, 0);
    assert_eq!(own.seats[0].hand, [(equipment, sword)], "red sees its sword");
    let other = state.view_for(&rules, 1);
    assert_eq!(other.seats[0].hand.len(), 1, "yellow sees one card");
    assert_ne!(other.seats[0].hand[0].1, sword, "but not which");
}

#[test]
fn bookkeeping_is_left_off_the_window_but_read_by_every_seat() {
    let rules = load("dune_1984");
    let (_, mut state) = start(&rules, 1, 4).unwrap();
    let moved = rules.stats.iter().position(|s| s.id == "moved").unwrap();
    state.pieces[0].stats[moved] = 1;
    let lines = panels::piece_lines(&rules, &state, 0);
    assert!(lines.iter().any(|l| l == "Strength: 4") && lines.iter().any(|l| l == "Guile: 3"), "{lines:?}");
    assert!(!lines.iter().any(|l| l.starts_with("Moved")), "bookkeeping stays off the panel: {lines:?}");
    assert_eq!(state.view_for(&rules, 1).pieces[0].stats[moved], 1, "yet it is no secret");
    let resources = panels::resource_lines(&rules, &state, 0);
    assert_eq!(resources.iter().filter(|l| l.starts_with("In a fight")).count(), 0, "{resources:?}");
}
