//! Interludes: `[turn.interlude]` turns before every match — a shop where each seat buys in
//! turn from the first seat round the table, until every seat still playing has passed a whole
//! turn in a row; then the match begins at round 1 with the first seat. The fixture `bazaar`:
//! two matches of two rounds, a sword for 1 gold in the shop, fighting in the match.

mod common;

use meeple_engine::game::{Action, ActionKind, Engine, Events, GameState};
use meeple_engine::rules::Ruleset;

fn rule(rules: &Ruleset, id: &str) -> u16 {
    rules.action_index(id).unwrap() as u16
}

fn resource(rules: &Ruleset, state: &GameState, seat: usize, id: &str) -> i64 {
    let index = rules.resources.iter().position(|r| r.id == id).unwrap();
    state.seats[seat].resources[index]
}

fn phase(rules: &Ruleset, state: &GameState) -> String {
    rules.phases[state.turn.phase as usize].id.clone()
}

/// The seat to act takes `id`, or passes when `id` is "pass".
fn act(rules: &Ruleset, engine: &mut Engine, state: &mut GameState, id: &str) {
    let action = if id == "pass" { Action::pass() } else { Action::rule(rule(rules, id), &[]) };
    let mut events = Events::discard();
    engine.apply(state, &action, &mut events).unwrap_or_else(|e| panic!("{id}: {e}"));
}

/// (seat to act, phase id, round, match, whether in the interlude)
fn at(rules: &Ruleset, state: &GameState) -> (u8, String, u32, u32, bool) {
    (state.to_act(), phase(rules, state), state.turn.round, state.turn.match_number, state.turn.interlude)
}

#[test]
fn the_shop_goes_round_until_every_seat_has_passed_in_a_row() {
    let rules = common::fixture("bazaar");
    let (mut engine, mut state, _) = common::new_game(&rules, 1, 2);
    assert_eq!(at(&rules, &state), (0, "shop".into(), 0, 1, true), "the game opens with the interlude, round 0");
    let listed: Vec<ActionKind> = common::legal(&mut engine, &state).into_iter().map(|a| a.kind).collect();
    assert_eq!(listed, [ActionKind::Rule(rule(&rules, "buy")), ActionKind::Pass], "only the interlude's actions");
    act(&rules, &mut engine, &mut state, "buy"); // one item a turn: the turn ends by itself
    assert_eq!(at(&rules, &state), (1, "shop".into(), 0, 1, true));
    act(&rules, &mut engine, &mut state, "pass"); // blue passes: one idle turn
    act(&rules, &mut engine, &mut state, "buy"); // red buys again: the count starts over
    act(&rules, &mut engine, &mut state, "pass"); // blue: 1
    assert_eq!(at(&rules, &state), (0, "shop".into(), 0, 1, true), "one idle turn is not everyone");
    assert_eq!(rules.vars.iter().position(|v| v.id == "opened").map(|i| state.vars[i]), Some(0));
    act(&rules, &mut engine, &mut state, "pass"); // red: 2 — both passed in a row
    assert_eq!(at(&rules, &state), (0, "fight".into(), 1, 1, false), "the match begins with the first seat");
    assert_eq!(rules.vars.iter().position(|v| v.id == "opened").map(|i| state.vars[i]), Some(1), "on_end ran");
    assert_eq!((resource(&rules, &state, 0, "swords"), resource(&rules, &state, 1, "swords")), (2, 0));
    assert_eq!(state.turn.number, 6, "interlude turns are turns");
    // Two rounds of fighting, then the second match opens with its interlude.
    for _ in 0..4 {
        act(&rules, &mut engine, &mut state, "fight");
    }
    assert_eq!(at(&rules, &state), (0, "shop".into(), 0, 2, true), "before match 2");
    assert_eq!(resource(&rules, &state, 0, "points"), 4);
    act(&rules, &mut engine, &mut state, "pass");
    act(&rules, &mut engine, &mut state, "buy");
    act(&rules, &mut engine, &mut state, "pass");
    act(&rules, &mut engine, &mut state, "pass");
    assert_eq!(at(&rules, &state), (0, "fight".into(), 1, 2, false));
    for _ in 0..4 {
        act(&rules, &mut engine, &mut state, "fight");
    }
    assert!(state.outcome.is_some(), "two matches, then the end by score");
}

#[test]
fn an_interlude_is_checked_where_it_is_written() {
    let data = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bazaar/data.toml"),
    )
    .unwrap();
    for (broken, says) in [
        (data.replace("{ id = \"shop\", label", "{ id = \"fight\", label"), "two phases have the id `fight`"),
        (data.replace("rounds_per_match = 2\nmatches = 2\n", ""), "an interlude comes before each match"),
        (data.replace("actions = [\"buy\"], budget", "actions = [\"bye\"], budget"), "unknown action `bye`"),
    ] {
        let manifest = common::manifest("bazaar_broken");
        let folder =
            common::write_mod("bazaar_broken", &[("mod.toml", manifest.as_bytes()), ("data.toml", broken.as_bytes())]);
        let text = common::problems(&folder).iter().map(|p| p.to_string()).collect::<Vec<_>>().join("\n");
        std::fs::remove_dir_all(&folder).ok();
        assert!(text.contains("data.toml:") && text.contains(says), "{says}:\n{text}");
    }
}

/// The fixture `bazaar` with `[seats] first = "random_each_match"`.
fn bazaar_drawing_first_seats() -> std::sync::Arc<Ruleset> {
    let data = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bazaar/data.toml"),
    )
    .unwrap()
        + "\n[seats]\nfirst = \"random_each_match\"\n";
    common::load_data("bazaar_drawn", &data).unwrap_or_else(|e| panic!("{e}"))
}

/// `[seats] first = "random_each_match"`: each match's first seat is drawn anew (the game's
/// first match too); the interlude and the match both begin with it, rounds count from it, and
/// the draw is an event every seat sees.
#[test]
fn a_first_seat_drawn_anew_for_every_match_opens_its_interlude_and_its_rounds() {
    let data = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bazaar/data.toml"),
    )
    .unwrap()
        + "\n[seats]\nfirst = \"random_each_match\"\n";
    let manifest = common::manifest("bazaar_drawn");
    let folder =
        common::write_mod("bazaar_drawn", &[("mod.toml", manifest.as_bytes()), ("data.toml", data.as_bytes())]);
    let rules = common::loaded(&folder);
    std::fs::remove_dir_all(&folder).ok();
    let mut firsts = std::collections::BTreeSet::new();
    for seed in 1..=40 {
        let (mut engine, mut state, _) = common::new_game(&rules, seed, 2);
        let first = state.to_act();
        assert_eq!(at(&rules, &state), (first, "shop".into(), 0, 1, true));
        // Both pass the shop: the match begins with the drawn seat, and each seat fights twice,
        // in order round the table from it.
        for _ in 0..2 {
            act(&rules, &mut engine, &mut state, "pass");
        }
        let mut order = Vec::new();
        for _ in 0..4 {
            order.push(state.to_act());
            act(&rules, &mut engine, &mut state, "fight");
        }
        let expected: Vec<u8> = (0..4).map(|i| (first + i) % 2).collect();
        assert_eq!(order, expected, "seed {seed}: two rounds from the first seat");
        let mut events = Events::recording();
        let second = state.to_act();
        assert_eq!(at(&rules, &state), (second, "shop".into(), 0, 2, true), "seed {seed}: the second match's shop");
        assert_eq!(state.turn.first_seat, second);
        engine.apply(&mut state, &Action::pass(), &mut events).unwrap();
        act(&rules, &mut engine, &mut state, "pass");
        assert_eq!(at(&rules, &state), (second, "fight".into(), 1, 2, false), "seed {seed}");
        firsts.insert((first, second));
    }
    let seconds: std::collections::BTreeSet<u8> = firsts.iter().map(|&(_, s)| s).collect();
    assert_eq!(seconds.len(), 2, "every seat is drawn to open the second match: {firsts:?}");
    assert!(firsts.iter().any(|&(a, b)| a != b), "drawn anew, not kept: {firsts:?}");
}

#[test]
fn the_draw_of_the_first_seat_is_seen_by_every_seat() {
    let rules = bazaar_drawing_first_seats();
    let (mut engine, mut state, _) = common::new_game(&rules, 7, 2);
    let mut events = Events::recording();
    for _ in 0..2 {
        engine.apply(&mut state, &Action::pass(), &mut events).unwrap();
    }
    for _ in 0..4 {
        engine.apply(&mut state, &Action::rule(rule(&rules, "fight"), &[]), &mut events).unwrap();
    }
    let drawn: Vec<u8> = events
        .list()
        .iter()
        .filter_map(|e| match e {
            meeple_engine::game::Event::FirstSeatDrawn { seat } => Some(*seat),
            _ => None,
        })
        .collect();
    assert_eq!(drawn, [state.turn.first_seat], "one draw, before the second match");
    for viewer in 0..2 {
        let seen = events
            .list()
            .iter()
            .filter(|e| {
                e.seen_by(&rules, viewer)
                    .is_some_and(|e| matches!(e, meeple_engine::game::Event::FirstSeatDrawn { .. }))
            })
            .count();
        assert_eq!(seen, 1, "seat {viewer} sees the draw");
    }
}

/// A setup (a save file, say) naming a first seat the game does not have is refused, not
/// played past the seats.
#[test]
fn a_first_seat_beyond_the_seats_is_refused() {
    let rules = bazaar_drawing_first_seats();
    let mut engine = Engine::new(rules.clone()).unwrap();
    let mut setup = meeple_engine::game::GameSetup::new(&rules, 1, 2, "human");
    setup.first_seat = Some(1);
    let state = engine.new_game(&setup, &mut Events::discard()).unwrap();
    assert_eq!(state.to_act(), 1, "a first seat the game has moves first");
    setup.first_seat = Some(2);
    let error = engine.new_game(&setup, &mut Events::discard()).unwrap_err().to_string();
    assert!(error.contains("the first seat is seat 3, but the game has 2 seats"), "{error}");
}
