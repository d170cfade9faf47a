//! Sealed, simultaneous choices: a response declared `sealed = true` is answered without its
//! answer running or being seen — nothing changes but that the seat has answered — and once no
//! sealed offer waits, every answer is opened and run in the order the offers were made. With
//! `repeat = true` a seat answers card after card (a stack) until it passes, each card held
//! back from its later answers. The fixture `showdown`: the challenger and the challenged commit
//! stacks of power cards; the higher stack scores.

mod common;

use meeple_engine::ai::{self, Player};
use meeple_engine::game::{Action, ActionKind, Engine, Event, Events, GameState};
use meeple_engine::rules::Ruleset;

fn rule(rules: &Ruleset, id: &str) -> u16 {
    rules.action_index(id).unwrap() as u16
}

fn card_id(rules: &Ruleset, card: u16) -> &str {
    &rules.card_ids[card as usize]
}

fn power(rules: &Ruleset, card: u16) -> i64 {
    match card_id(rules, card) {
        "one" => 1,
        "two" => 2,
        "three" => 3,
        other => panic!("no card {other}"),
    }
}

fn resource(rules: &Ruleset, state: &GameState, seat: usize, id: &str) -> i64 {
    let index = rules.resources.iter().position(|r| r.id == id).unwrap();
    state.seats[seat].resources[index]
}

fn hand(state: &GameState, seat: usize) -> Vec<u16> {
    state.seats[seat].hand.iter().map(|(_, card)| *card).collect()
}

/// A two-seat game in which seat 1 has just challenged seat 2.
fn challenged(seed: u64) -> (std::sync::Arc<Ruleset>, Engine, GameState, Events) {
    let rules = common::fixture("showdown");
    let (mut engine, mut state, _) = common::new_game(&rules, seed, 2);
    let mut events = Events::recording();
    let challenge = Action::rule(rule(&rules, "challenge"), &[1]);
    engine.apply(&mut state, &challenge, &mut events).unwrap_or_else(|e| panic!("{e}"));
    (rules, engine, state, events)
}

/// The legal answers of the seat to act: the cards it may still commit (by card id), and
/// whether it may pass.
fn commit_choices(rules: &Ruleset, engine: &mut Engine, state: &GameState) -> (Vec<u16>, bool) {
    let listed = common::legal(engine, state);
    let commit = rule(rules, "commit");
    let cards = listed.iter().filter(|a| a.kind == ActionKind::Rule(commit)).map(|a| a.args[2] as u16).collect();
    (cards, listed.iter().any(|a| a.kind == ActionKind::Pass))
}

/// The seat to act commits `card` (the offer gave its role and rival).
fn commit(rules: &Ruleset, engine: &mut Engine, state: &mut GameState, card: u16, events: &mut Events) {
    let offer = state.turn.offers[0].clone();
    let action = Action::rule(rule(rules, "commit"), &[offer.args[0], offer.args[1], i64::from(card)]);
    engine.apply(state, &action, events).unwrap_or_else(|e| panic!("{e}"));
}

fn pass(engine: &mut Engine, state: &mut GameState, events: &mut Events) {
    engine.apply(state, &Action::pass(), events).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn stacks_stay_sealed_until_both_pass_then_are_played_in_the_order_offered() {
    let (rules, mut engine, mut state, mut events) = challenged(3);
    assert_eq!(state.to_act(), 0, "the challenger answers first");
    let (red_hand, blue_hand) = (hand(&state, 0), hand(&state, 1));
    // Red commits its two strongest cards; nothing of them runs yet.
    let mut red_stack = red_hand.clone();
    red_stack.sort_by_key(|&c| std::cmp::Reverse(power(&rules, c)));
    red_stack.truncate(2);
    for &card in &red_stack {
        commit(&rules, &mut engine, &mut state, card, &mut events);
    }
    assert_eq!(hand(&state, 0), red_hand, "committed cards stay in the hand until opened");
    assert_eq!(resource(&rules, &state, 0, "stack"), 0);
    assert_eq!(state.to_act(), 0, "a repeated offer comes back to its seat");
    pass(&mut engine, &mut state, &mut events);
    assert_eq!(state.to_act(), 1, "then the challenged seat answers");
    // Blue commits its weakest card.
    let blue_card = *blue_hand.iter().min_by_key(|&&c| power(&rules, c)).unwrap();
    commit(&rules, &mut engine, &mut state, blue_card, &mut events);
    let mark = events.len();
    pass(&mut engine, &mut state, &mut events);
    assert!(state.turn.offers.is_empty() && state.turn.sealed.is_empty(), "all opened");
    // Opened together, then run in the order offered: red's two cards, red's pass, blue's card,
    // blue's pass (which compares the stacks).
    let after: Vec<&Event> = events.list()[mark..].iter().collect();
    assert!(matches!(after.iter().find(|e| matches!(e, Event::Opened { .. })), Some(Event::Opened { answers: 5 })));
    let acted: Vec<(u8, ActionKind, i64)> = after
        .iter()
        .filter_map(|e| match e {
            Event::Acted { seat, action } => Some((*seat, action.kind, action.args[2])),
            _ => None,
        })
        .collect();
    let commit_kind = ActionKind::Rule(rule(&rules, "commit"));
    assert_eq!(
        acted,
        vec![
            (0, commit_kind, i64::from(red_stack[0])),
            (0, commit_kind, i64::from(red_stack[1])),
            (0, ActionKind::Pass, 0),
            (1, commit_kind, i64::from(blue_card)),
            (1, ActionKind::Pass, 0),
        ]
    );
    let red_total: i64 = red_stack.iter().map(|&c| power(&rules, c)).sum();
    let blue_total = power(&rules, blue_card);
    assert_eq!(resource(&rules, &state, 0, "score"), i64::from(red_total > blue_total));
    assert_eq!(resource(&rules, &state, 1, "score"), i64::from(blue_total > red_total));
    assert_eq!(hand(&state, 0).len(), red_hand.len() - 2, "red's two cards are discarded once opened");
    assert_eq!(hand(&state, 1).len(), blue_hand.len() - 1);
}

#[test]
fn a_committed_card_is_held_back_from_the_next_answer() {
    let (rules, mut engine, mut state, mut events) = challenged(5);
    let red_hand = hand(&state, 0);
    let (first, may_pass) = commit_choices(&rules, &mut engine, &state);
    assert!(may_pass);
    let mut distinct = red_hand.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(first, distinct, "each card id of the hand once");
    // Commit every card: each choice list is the hand less the cards already committed.
    let mut left = red_hand.clone();
    while let Some(&card) = left.first() {
        let (choices, _) = commit_choices(&rules, &mut engine, &state);
        let mut expected = left.clone();
        expected.sort_unstable();
        expected.dedup();
        assert_eq!(choices, expected);
        commit(&rules, &mut engine, &mut state, card, &mut events);
        left.remove(0);
    }
    let (none_left, may_pass) = commit_choices(&rules, &mut engine, &state);
    assert!(none_left.is_empty() && may_pass, "a spent hand leaves only passing");
    // A card already committed is refused when named again.
    let again = Action::rule(rule(&rules, "commit"), &[1, 1, i64::from(red_hand[0])]);
    let before = state.clone();
    assert!(engine.apply(&mut state, &again, &mut events).is_err());
    assert_eq!(
        serde_json::to_string(&state).unwrap(),
        serde_json::to_string(&before).unwrap(),
        "a refused answer leaves the state as it was"
    );
}

/// What seat 2 sees, and what its medium player answers, after red committed `red_cards`
/// cards and passed.
fn blue_sees(red_cards: usize) -> (String, Vec<String>, Action) {
    let (rules, mut engine, mut state, mut events) = challenged(9);
    let mark = events.len();
    for _ in 0..red_cards {
        let (choices, _) = commit_choices(&rules, &mut engine, &state);
        commit(&rules, &mut engine, &mut state, choices[0], &mut events);
    }
    pass(&mut engine, &mut state, &mut events);
    let view = state.view_for(&rules, 1);
    let view_json = serde_json::to_string(&meeple_engine::game::render::view_json(&rules, &view, 1)).unwrap();
    let seen: Vec<String> = events.list()[mark..]
        .iter()
        .filter_map(|e| e.seen_by(&rules, 1))
        .map(|e| serde_json::to_string(&meeple_engine::game::render::event_json(&rules, &view, &e)).unwrap())
        .collect();
    let mut medium = ai::GreedyPlayer::new(meeple_engine::rng::GameRng::from_seed(4));
    let decision = medium.decide(&mut engine, &state).unwrap();
    (view_json, seen, decision)
}

#[test]
fn no_other_seat_nor_its_computer_player_can_see_or_infer_a_sealed_stack() {
    let nothing = blue_sees(0);
    let one = blue_sees(1);
    let everything = blue_sees(4);
    for (committed, other) in [(1, &one), (4, &everything)] {
        assert_eq!(other.0, nothing.0, "seat 2's view after red committed {committed} cards or none");
        assert_eq!(other.1, nothing.1, "seat 2's events after red committed {committed} cards or none");
        assert_eq!(other.2, nothing.2, "seat 2's medium player after red committed {committed} cards or none");
    }
    assert!(nothing.1.iter().any(|e| e.contains("\"sealed\"")), "seat 2 sees that red answered: {:?}", nothing.1);
}

#[test]
fn sealed_and_repeat_belong_to_responses() {
    let data = common::MINIMAL_DATA
        .replace("effect = [\"from.dice += 1\"]", "effect = [\"from.dice += 1\"]\nsealed = true\nrepeat = true");
    let manifest = common::manifest("sealed_action");
    let folder =
        common::write_mod("sealed_action", &[("mod.toml", manifest.as_bytes()), ("data.toml", data.as_bytes())]);
    let found: Vec<String> = common::problems(&folder).iter().map(|p| p.to_string()).collect();
    std::fs::remove_dir_all(&folder).ok();
    let text = found.join("\n");
    assert!(text.contains("`sealed` is about a response") && text.contains("`repeat` is about a response"), "{text}");
}

#[test]
fn a_sealed_answer_is_kept_as_its_replay_would_rebuild_it() {
    // A pass carries no arguments, whatever the action given held: a save (which records a
    // pass without them) replays to the same state.
    let (_, mut engine, mut state, mut events) = challenged(2);
    let junk = Action { kind: ActionKind::Pass, args: [7, 7, 7, 7] };
    engine.apply(&mut state, &junk, &mut events).unwrap();
    assert_eq!(state.turn.sealed[0].answers, vec![Action::pass()]);
}
