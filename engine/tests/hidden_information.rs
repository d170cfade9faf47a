//! Hidden information is real: a seat's view of the game (`GameState::view_for`) and of each
//! event (`Event::seen_by`) hold only what that seat may see — its own cards and those shown to
//! it, hand and pile sizes, public values — and computer players decide from their seat's view.
//! The fixtures: `secrets` (hands face down, an open deck, hidden numbers, cards shown to one
//! seat or to all) and `guess` (name the card the other seat holds, which you cannot see).

mod common;

use std::sync::Arc;

use common::{fixture, new_game};
use meeple_engine::ai;
use meeple_engine::game::render::{event_json, view_json};
use meeple_engine::game::state::{NO_SEAT, UNKNOWN_CARD};
use meeple_engine::game::{Action, Engine, Event, Events, GameSetup, GameState, Outcome};
use meeple_engine::rules::Ruleset;
use meeple_engine::save::SaveFile;

/// The action `id` with these arguments.
fn action(rules: &Ruleset, id: &str, args: &[i64]) -> Action {
    Action::rule(rules.action_index(id).unwrap_or_else(|| panic!("no action {id}")) as u16, args)
}

/// A card's index by its id.
fn card(rules: &Ruleset, id: &str) -> u16 {
    rules.card_ids.iter().position(|c| c == id).unwrap_or_else(|| panic!("no card {id}")) as u16
}

/// A deck's index by its id.
fn deck(rules: &Ruleset, id: &str) -> u16 {
    rules.deck_index(id).unwrap_or_else(|| panic!("no deck {id}")) as u16
}

/// Applies `id` for the seat to move, recording its events.
fn act(engine: &mut Engine, state: &mut GameState, id: &str, args: &[i64], events: &mut Events) {
    let rules = engine.rules().clone();
    engine.apply(state, &action(&rules, id, args), events).unwrap_or_else(|e| panic!("{id}: {e}"));
}

/// Passes the turn on to the next seat.
fn pass(engine: &mut Engine, state: &mut GameState) {
    engine.apply(state, &Action::pass(), &mut Events::discard()).expect("passing");
}

/// A new game of `secrets` (seed 7).
fn secrets(seats: usize) -> (Arc<Ruleset>, Engine, GameState, Events) {
    let rules = fixture("secrets");
    let (engine, state, events) = new_game(&rules, 7, seats);
    (rules, engine, state, events)
}

/// A game of `secrets` of the first seed from 1 on whose deal satisfies `deal`.
fn dealt(seats: usize, deal: impl Fn(&Ruleset, &GameState) -> bool) -> (Arc<Ruleset>, Engine, GameState) {
    let rules = fixture("secrets");
    for seed in 1..500 {
        let (engine, state, _) = new_game(&rules, seed, seats);
        if deal(&rules, &state) {
            return (rules, engine, state);
        }
    }
    panic!("no seed deals what the test needs");
}

/// Whether seat 1 holds a card.
fn holds(rules: &Ruleset, state: &GameState, id: &str) -> bool {
    state.seats[0].hand.iter().any(|(_, c)| *c == card(rules, id))
}

#[test]
fn a_view_hides_the_other_hands_and_the_draw_piles_but_keeps_their_sizes() {
    let (rules, mut engine, mut state) = dealt(2, |rules, state| holds(rules, state, "ember"));
    // An ember burnt lies face up on the discard pile.
    act(&mut engine, &mut state, "burn", &[], &mut Events::discard());
    pass(&mut engine, &mut state);
    let court = deck(&rules, "court");
    assert_eq!(state.decks[court as usize].discard.len(), 1);
    let view = state.view_for(&rules, 0);

    assert_eq!(view.seats[0].hand, state.seats[0].hand, "a seat knows its own cards");
    assert_eq!(view.seats[1].hand.len(), state.seats[1].hand.len(), "the other hand's size is public");
    assert!(view.seats[1].hand.iter().all(|&(d, c)| d == court && c == UNKNOWN_CARD), "{:?}", view.seats[1].hand);
    let (draw, real_draw) = (&view.decks[court as usize].draw, &state.decks[court as usize].draw);
    assert_eq!(draw.len(), real_draw.len(), "the draw pile's size is public");
    assert!(draw.iter().all(|&c| c == UNKNOWN_CARD), "neither its order nor its cards are");
    assert_eq!(view.decks[court as usize].discard, state.decks[court as usize].discard, "the discard pile is public");
    assert!(view.has_unknown_cards() && !state.has_unknown_cards());

    // The rules read a view as they read a game: `in_hand` counts the known cards only,
    // `hand_size` all of them. `reckon` scores 10 per ember seat 2 holds plus its hand size.
    let reckon = action(&rules, "reckon", &[]);
    let embers = state.seats[1].hand.iter().filter(|(_, c)| *c == card(&rules, "ember")).count() as f64;
    let size = state.seats[1].hand.len() as f64;
    let score = |engine: &mut Engine, s: &GameState| engine.ai_score(s, &reckon).unwrap().unwrap().0;
    assert_eq!(score(&mut engine, &state), 10.0 * embers + size);
    assert_eq!(score(&mut engine, &view), size, "seat 1 knows none of seat 2's cards");
    // So do Lua hooks (here in a preview, as the window works previews out in the chooser's
    // view): `game.hand` lists the known cards, `game.hand_size` counts them all.
    let figures = |engine: &mut Engine, s: &GameState| -> Vec<f64> {
        engine.preview(s, &reckon).unwrap().iter().map(|f| f.value).collect()
    };
    assert_eq!(figures(&mut engine, &state), vec![size, size]);
    assert_eq!(figures(&mut engine, &view), vec![0.0, size]);

    // The JSON of the view: unknown cards are null, so are the piles' contents.
    let json = view_json(&rules, &view, 0);
    assert_eq!(json["as"], 1);
    assert!(json.get("hash").is_none(), "the game's hash digests what the seat may not see");
    let theirs = json["seats"][1]["hand"].as_array().unwrap();
    assert!(!theirs.is_empty() && theirs.iter().all(|c| c.is_null()), "{theirs:?}");
    assert!(json["seats"][0]["hand"].as_array().unwrap().iter().all(|c| c.is_string()));
    assert_eq!(json["decks"][0]["draw"], real_draw.len());
}

#[test]
fn the_random_stream_and_scenario_forcing_are_not_in_a_view() {
    let (rules, _, mut state, _) = secrets(2);
    state.forced_faces.push_back(6);
    let mut view = state.view_for(&rules, 0);
    let mut real = state.clone();
    let coming: Vec<u32> = (0..8).map(|_| real.rng.below(1000)).collect();
    let guessed: Vec<u32> = (0..8).map(|_| view.rng.below(1000)).collect();
    assert_ne!(coming, guessed, "the view's stream is not the game's");
    assert!(view.forced_faces.is_empty());
    // The same for every seat and every moment: nothing of the game's stream leaks into it.
    let mut other = state.view_for(&rules, 1);
    assert_eq!((0..8).map(|_| other.rng.below(1000)).collect::<Vec<_>>(), guessed);
}

#[test]
fn hidden_values_are_their_owners_alone() {
    let (rules, mut engine, mut state, _) = secrets(2);
    let (a, b, c) = (0i64, 1i64, 2i64);
    act(&mut engine, &mut state, "hoard", &[a], &mut Events::discard());
    pass(&mut engine, &mut state);
    act(&mut engine, &mut state, "hoard", &[b], &mut Events::discard());
    let vault = rules.resource_index("vault").unwrap();
    let coins = rules.resource_index("coins").unwrap();
    let stealth = rules.stat_index("stealth").unwrap();
    let cache = rules.counter_index("cache").unwrap() as u16;
    assert_eq!(state.seats[1].resources[vault], 8);

    let view = state.view_for(&rules, 0);
    assert_eq!(view.seats[0].resources[vault], state.seats[0].resources[vault], "its own vault");
    assert_eq!(view.seats[1].resources[vault], 5, "the other's reads as its starting value");
    assert_eq!(view.seats[1].resources[coins], state.seats[1].resources[coins], "coins are public");
    assert_eq!(view.pieces[0].stats[stealth], state.pieces[0].stats[stealth], "its own spy's stealth");
    assert_eq!((state.pieces[1].stats[stealth], view.pieces[1].stats[stealth]), (3, 1), "the other's spy's");
    assert_eq!(view.counter(a as u32, cache), 5, "the cache of its own space");
    assert_eq!((state.counter(b as u32, cache), view.counter(b as u32, cache)), (7, 0), "the other's space's");

    let json = view_json(&rules, &view, 0);
    assert_eq!(json["seats"][0]["resources"]["vault"], state.seats[0].resources[vault]);
    assert!(json["seats"][1]["resources"]["vault"].is_null());
    assert_eq!(json["seats"][1]["resources"]["coins"], state.seats[1].resources[coins]);
    assert_eq!(json["pieces"][0]["stats"]["stealth"], state.pieces[0].stats[stealth]);
    assert!(json["pieces"][1]["stats"]["stealth"].is_null());
    assert_eq!(json["pieces"][1]["stats"]["strength"], 4, "strength is public");
    assert_eq!(json["spaces"][0]["cache"], 5);
    assert!(json["spaces"][1]["cache"].is_null());
    assert!(json["spaces"][c as usize]["cache"].is_null(), "an unowned space's hidden counter: nobody's");
    assert_eq!(json["spaces"][1]["flags"], 1, "flags are public");

    // A spectator sees no seat's hidden values, and no hand.
    let spectator = view_json(&rules, &state.view_for(&rules, NO_SEAT), NO_SEAT);
    assert!(spectator["as"].is_null());
    assert!(spectator["seats"][0]["resources"]["vault"].is_null() && spectator["spaces"][0]["cache"].is_null());
    assert!(
        spectator["seats"].as_array().unwrap().iter().all(|s| s["hand"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c.is_null()))
    );
}

#[test]
fn shown_cards_are_known_to_whom_they_were_shown_and_cards_drawn_later_are_not() {
    let (rules, mut engine, mut state, _) = secrets(3);
    let mut events = Events::recording();
    // Seat 1 shows its two cards to seat 2 only.
    act(&mut engine, &mut state, "show", &[1], &mut events);
    let held = state.seats[0].hand.clone();
    assert_eq!(state.view_for(&rules, 1).seats[0].hand, held, "seat 2 knows them");
    assert!(state.view_for(&rules, 2).seats[0].hand.iter().all(|(_, c)| *c == UNKNOWN_CARD), "seat 3 does not");
    assert!(state.view_for(&rules, NO_SEAT).seats[0].hand.iter().all(|(_, c)| *c == UNKNOWN_CARD));
    // A card drawn after showing is hidden again.
    act(&mut engine, &mut state, "draw", &[], &mut events);
    let seen_by_two = state.view_for(&rules, 1).seats[0].hand.clone();
    assert_eq!(&seen_by_two[..2], &held[..]);
    assert_eq!(seen_by_two[2].1, UNKNOWN_CARD);
    // Shown to all: every seat and a spectator know every card it holds now.
    act(&mut engine, &mut state, "show_all", &[], &mut events);
    for viewer in [1, 2, NO_SEAT] {
        assert_eq!(state.view_for(&rules, viewer).seats[0].hand, state.seats[0].hand, "viewer {viewer}");
    }
    // The events name the cards for those they were shown to, and count them for the others.
    let revealed: Vec<&Event> = events.list().iter().filter(|e| matches!(e, Event::CardsRevealed { .. })).collect();
    assert_eq!(revealed.len(), 2, "{revealed:?}");
    assert!(
        matches!(revealed[0], Event::CardsRevealed { seat: 0, to: Some(1), cards, .. } if *cards == held.iter().map(|h| h.1).collect::<Vec<_>>())
    );
    assert!(
        matches!(revealed[1], Event::CardsRevealed { seat: 0, to: None, cards, .. } if cards.len() == 3),
        "{:?}",
        revealed[1]
    );
    // Showing them again shows nothing new: no event.
    let mut again = Events::recording();
    act(&mut engine, &mut state, "show_all", &[], &mut again);
    act(&mut engine, &mut state, "show", &[2], &mut again);
    assert!(!again.list().iter().any(|e| matches!(e, Event::CardsRevealed { .. })), "{:?}", again.list());
    match revealed[0].seen_by(&rules, 2) {
        Some(Event::CardsRevealed { cards, .. }) => assert_eq!(cards, vec![UNKNOWN_CARD; 2]),
        other => panic!("{other:?}"),
    }
    assert_eq!(revealed[0].seen_by(&rules, 1).as_ref(), Some(revealed[0]));
    assert_eq!(revealed[0].seen_by(&rules, 0).as_ref(), Some(revealed[0]));
    let json = event_json(&rules, &state, &revealed[0].seen_by(&rules, 2).unwrap());
    assert_eq!(
        (json["event"].as_str(), json["count"].as_u64(), json.get("cards")),
        (Some("cards_revealed"), Some(2), None)
    );
}

#[test]
fn one_card_is_shown_by_the_rules_or_by_a_hook_and_a_discarded_card_takes_its_secret_along() {
    let (rules, mut engine, mut state) =
        dealt(3, |rules, state| holds(rules, state, "ember") && holds(rules, state, "frost"));
    let (ember, frost) = (card(&rules, "ember"), card(&rules, "frost"));
    let court = deck(&rules, "court");
    let mut events = Events::recording();
    act(&mut engine, &mut state, "flash", &[1], &mut events);
    let knows = |state: &GameState, viewer: u8| -> Vec<u16> {
        state.view_for(&rules, viewer).seats[0].hand.iter().map(|h| h.1).filter(|c| *c != UNKNOWN_CARD).collect()
    };
    assert_eq!(knows(&state, 1), vec![ember], "seat 2 saw the ember only");
    assert!(knows(&state, 2).is_empty());
    // Through the Lua API: the frost, to seat 3; the hook logs that it held one.
    act(&mut engine, &mut state, "whisper", &[2], &mut events);
    assert_eq!(knows(&state, 2), vec![frost]);
    assert!(
        events.list().iter().any(|e| matches!(e, Event::Log { text } if text == "whispered true 2")),
        "{:?}",
        events.list()
    );
    assert!(events.list().iter().any(|e| matches!(e, Event::CardsRevealed { seat: 0, to: Some(2), deck, cards } if *deck == court && *cards == [frost])));
    // Burning the ember: the frost is still known to seat 3 alone, wherever it now lies.
    act(&mut engine, &mut state, "burn", &[], &mut events);
    assert_eq!(state.seats[0].hand, vec![(court, frost)]);
    assert_eq!((knows(&state, 1), knows(&state, 2)), (vec![], vec![frost]));
    state.check_invariants(&rules).expect("consistent");
    // The burnt ember lies face up: in everyone's view.
    assert_eq!(state.view_for(&rules, 2).decks[court as usize].discard, vec![ember]);
}

#[test]
fn an_open_deck_is_seen_by_everyone() {
    let (rules, mut engine, mut state, _) = secrets(2);
    let mut events = Events::recording();
    act(&mut engine, &mut state, "sign", &[], &mut events);
    let omen = card(&rules, "omen");
    let last = *state.seats[0].hand.last().unwrap();
    assert_eq!(last.1, omen);
    assert_eq!(state.view_for(&rules, 1).seats[0].hand.last(), Some(&last), "signs are drawn face up");
    let drawn = events.list().iter().find(|e| matches!(e, Event::CardsDrawn { .. })).unwrap();
    assert_eq!(drawn.seen_by(&rules, 1).as_ref(), Some(drawn));
    // Its draw pile is still nobody's to see.
    assert!(state.view_for(&rules, 1).decks[deck(&rules, "signs") as usize].draw.iter().all(|c| *c == UNKNOWN_CARD));
}

#[test]
fn each_seat_sees_the_events_it_may_see() {
    let (rules, mut engine, mut state, start) = secrets(3);
    let mut events = Events::recording();
    act(&mut engine, &mut state, "hoard", &[0], &mut events);
    act(&mut engine, &mut state, "draw", &[], &mut events);
    let all: Vec<Event> = start.list().iter().chain(events.list()).cloned().collect();

    // Cards drawn: the drawer's, by card; the others', a number of unknown cards.
    let deals: Vec<&Event> = all.iter().filter(|e| matches!(e, Event::CardsDrawn { .. })).collect();
    assert_eq!(deals.len(), 3, "two dealt at the start, one drawn");
    for deal in &deals {
        let Event::CardsDrawn { seat: drawer, cards, .. } = deal else { unreachable!() };
        for viewer in [0u8, 1, 2, NO_SEAT] {
            let seen = deal.seen_by(&rules, viewer).expect("a draw is seen");
            let Event::CardsDrawn { cards: shown, .. } = &seen else { unreachable!() };
            if viewer == *drawer {
                assert_eq!(shown, cards);
            } else {
                assert_eq!(shown, &vec![UNKNOWN_CARD; cards.len()], "viewer {viewer}");
                let json = event_json(&rules, &state, &seen);
                assert_eq!((json["count"].as_u64(), json.get("cards")), (Some(cards.len() as u64), None));
            }
        }
    }
    // Hidden values: the changes are their owner's alone; public ones are everyone's.
    let named = |event: &Event| event_json(&rules, &state, event);
    for event in &all {
        let json = named(event);
        let kind = json["event"].as_str().unwrap_or("").to_string();
        let hidden = match kind.as_str() {
            "resource_changed" => json["resource"] == "vault",
            "stat_changed" => json["stat"] == "stealth",
            "counter_changed" => json["counter"] == "cache",
            _ => false,
        };
        // Seat 1 owns what seat 1 hoards: space a, its spy, its vault; seat 2 owns space b.
        let owner = match event {
            Event::ResourceChanged { seat, .. } => Some(*seat),
            Event::StatChanged { owner, .. } | Event::CounterChanged { owner, .. } => *owner,
            _ => None,
        };
        for viewer in [0u8, 1, 2, NO_SEAT] {
            let seen = event.seen_by(&rules, viewer);
            if hidden && owner != Some(viewer) {
                assert_eq!(seen, None, "{kind} hidden from viewer {viewer}: {json}");
            } else if !matches!(event, Event::CardsDrawn { .. }) {
                assert_eq!(seen.as_ref(), Some(event), "{kind} seen by viewer {viewer}");
            }
        }
    }
    let hidden_changes = all
        .iter()
        .filter(|e| {
            matches!(e, Event::ResourceChanged { .. } | Event::StatChanged { .. } | Event::CounterChanged { .. })
        })
        .filter(|e| e.seen_by(&rules, 1).is_none())
        .count();
    // The setup's caches (a: seat 1's, b: seat 2's) and the hoard's vault, stealth and cache.
    assert_eq!(hidden_changes, 4, "hidden from seat 2: {all:?}");
}

#[test]
fn a_hidden_counters_change_is_seen_by_whoever_owned_the_space_then() {
    let (rules, mut engine, mut state, start) = secrets(2);
    // The setup gives `a` to seat 1 and `b` to seat 2 before filling their caches: each event
    // says who owned the space when it changed.
    let cache = rules.counter_index("cache").unwrap() as u16;
    let changes = |events: &[Event]| -> Vec<(u32, Option<u8>)> {
        events
            .iter()
            .filter_map(|e| match e {
                Event::CounterChanged { space, counter, owner, .. } if *counter == cache => Some((*space, *owner)),
                _ => None,
            })
            .collect()
    };
    assert_eq!(changes(start.list()), vec![(0, Some(0)), (1, Some(1))]);
    let mut events = Events::recording();
    act(&mut engine, &mut state, "hoard", &[0], &mut events);
    let hoarded =
        events.list().iter().find(|e| matches!(e, Event::CounterChanged { counter, .. } if *counter == cache));
    let hoarded = hoarded.expect("the cache changed").clone();
    // Should seat 2 take the space later, the change made while seat 1 held it stays seat 1's.
    state.set_owner(0, 1);
    assert_eq!(hoarded.seen_by(&rules, 1), None);
    assert_eq!(hoarded.seen_by(&rules, 0), Some(hoarded.clone()));
}

#[test]
fn who_saw_what_is_saved_and_a_game_without_reveals_saves_as_before() {
    let (rules, mut engine, mut state, _) = secrets(3);
    let setup = GameSetup::new(&rules, 7, 3, "human");
    let before = serde_json::to_value(&state).unwrap();
    assert!(
        before["seats"].as_array().unwrap().iter().all(|s| s.get("shown").is_none()),
        "nothing shown, nothing saved"
    );
    let history = vec![(0u8, action(&rules, "show", &[2])), (0u8, action(&rules, "draw", &[]))];
    for (_, a) in &history {
        engine.apply(&mut state, a, &mut Events::discard()).unwrap();
    }
    assert_eq!(state.seats[0].shown, vec![1 << 2, 1 << 2], "both cards seen by seat 3; the third by nobody");
    let save = SaveFile::new(&rules, &setup, &history, &state);
    let bytes = serde_json::to_vec(&save).unwrap();
    let loaded = SaveFile::parse(&bytes, "memory").expect("parses");
    let snapshot = loaded.state.as_ref().expect("the snapshot's hash holds");
    assert_eq!(snapshot.seats[0].shown, state.seats[0].shown);
    assert_eq!(snapshot.view_for(&rules, 2).seats[0].hand, state.view_for(&rules, 2).seats[0].hand);
    // The replay reaches the same knowledge, and the same hash.
    let (replayed, _) =
        loaded.replay(&mut Engine::new(rules.clone()).unwrap(), "memory", &mut Events::discard()).unwrap();
    assert_eq!(replayed.seats[0].shown, state.seats[0].shown);
    assert_eq!(replayed.hash_hex(), state.hash_hex());
}

/// Plays `games` games of `guess` with seat 1 controlled by `level`; returns how many it won
/// (named seat 2's card). `before` may change the game before seat 1 decides.
fn guessing(level: &str, games: u64, before: impl Fn(&mut GameState)) -> u64 {
    let rules = fixture("guess");
    let mut engine = Engine::new(rules.clone()).unwrap();
    let mut won = 0;
    for seed in 0..games {
        let setup = GameSetup::new(&rules, seed, 2, "human");
        let mut state = engine.new_game(&setup, &mut Events::discard()).unwrap();
        before(&mut state);
        let mut player = ai::player(level, seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1CE).unwrap();
        let choice = player.decide(&mut engine, &state).unwrap();
        engine.apply(&mut state, &choice, &mut Events::discard()).expect("the choice is legal in the real game");
        if state.outcome == Some(Outcome::Win { seats: vec![0] }) {
            won += 1;
        }
    }
    won
}

/// Whether `won` of `games` is within 4 standard errors of the rate `p`.
fn within_odds(won: u64, games: u64, p: f64) -> bool {
    let rate = won as f64 / games as f64;
    let error = (p * (1.0 - p) / games as f64).sqrt();
    (rate - p).abs() <= 4.0 * error
}

#[test]
fn computer_players_guess_a_hidden_card_no_better_than_the_odds_allow() {
    const GAMES: u64 = 1_000;
    // Seat 2's card is one of the four seat 1 does not hold.
    let odds = 0.25;
    // Reading the real game, every guess's score names the right card: the fixture would show it.
    let rules = fixture("guess");
    let (mut engine, state, _) = new_game(&rules, 1, 2);
    let mut legal = Vec::new();
    engine.legal_actions(&state, &mut legal).unwrap();
    let mut scores = Vec::new();
    engine.ai_scores(&state, &legal, &mut scores).unwrap();
    let best = legal[scores.iter().position(|s| s.unwrap().0 == 1.0).unwrap()];
    let mut peeked = state.clone();
    engine.apply(&mut peeked, &best, &mut Events::discard()).unwrap();
    assert_eq!(peeked.outcome, Some(Outcome::Win { seats: vec![0] }), "the true game's best score wins");

    for level in ["hard", "medium"] {
        let won = guessing(level, GAMES, |_| {});
        assert!(
            within_odds(won, GAMES, odds),
            "{level}: {won} of {GAMES} right; the odds allow {odds} (a player reading seat 2's hand would win every game)"
        );
    }
}

#[test]
fn a_card_shown_to_the_computer_player_is_one_it_knows() {
    // Seat 2 shows its card to seat 1 before seat 1 guesses: now it names it every time.
    for level in ["hard", "medium"] {
        let won = guessing(level, 100, |state| {
            state.seats[1].show(0, Some(0));
        });
        assert_eq!(won, 100, "{level}");
    }
}

#[test]
fn computer_players_that_guess_stay_deterministic() {
    let rules = fixture("guess");
    for level in ["hard", "medium"] {
        let decide = |seed: u64| {
            let mut engine = Engine::new(rules.clone()).unwrap();
            let state = engine.new_game(&GameSetup::new(&rules, 11, 2, "human"), &mut Events::discard()).unwrap();
            let mut player = ai::player(level, seed).unwrap();
            (0..20)
                .map(|_| {
                    let action = player.decide(&mut engine, &state).unwrap();
                    action.kind
                })
                .collect::<Vec<_>>()
        };
        let first = decide(5);
        assert_eq!(first, decide(5), "{level}: same seed, same decisions");
        // Guessing anew before each decision, it does not always name the same card.
        assert!(first.iter().any(|kind| *kind != first[0]), "{level}: {first:?}");
    }
}

/// Dice under a cup: `secret(…)` rolls dice whose faces only the acting seat sees — the others
/// see how many were rolled, in their events, their JSON and their view of the hidden value the
/// roll was kept in — until a rule shows the total with `reveal_value`.
#[test]
fn dice_rolled_in_secret_are_the_rollers_until_a_rule_reveals_them() {
    let manifest = common::manifest("cup");
    let data = r#"
[board]
kind = "graph"
terrain = "felt"
spaces = [{ id = "table" }, { id = "bar" }]
links = [["table", "bar"]]

[terrain.felt]

[resources.cup]
initial = 0
hidden = true

[actions.shake]
label = "Shake the cup"
effect = ["me.cup = secret(3d6)"]

[actions.lift]
label = "Lift the cup"
effect = ["reveal_value('cup', me.cup)"]

[actions.bad]
label = "Secret preview"
preview = { "Odds" = "secret(1d6)" }
"#;
    let folder = common::write_mod("cup", &[("mod.toml", manifest.as_bytes()), ("data.toml", data.as_bytes())]);
    let problems: Vec<String> = common::problems(&folder).iter().map(ToString::to_string).collect();
    assert!(problems.iter().any(|p| p.contains("`secret` rolls dice")), "{problems:?}");
    let fixed =
        data.replace("[actions.bad]\nlabel = \"Secret preview\"\npreview = { \"Odds\" = \"secret(1d6)\" }\n", "");
    let folder = common::write_mod("cup", &[("mod.toml", manifest.as_bytes()), ("data.toml", fixed.as_bytes())]);
    let rules = common::loaded(&folder);
    let (mut engine, mut state, _) = new_game(&rules, 1, 2);
    let rule = |id: &str| Action::rule(rules.action_index(id).unwrap() as u16, &[]);
    state.forced_faces.extend([2, 3, 4]);
    let mut events = Events::recording();
    engine.apply(&mut state, &rule("shake"), &mut events).unwrap();
    assert_eq!(state.seats[0].resources[0], 9);
    let rolled = events.list().iter().find(|e| matches!(e, Event::SecretRolled { .. })).expect("a secret roll").clone();
    // The roller sees the faces; the other seat, three dice and nothing more.
    assert_eq!(rolled.seen_by(&rules, 0), Some(rolled.clone()));
    let hidden = rolled.seen_by(&rules, 1).unwrap();
    assert_eq!(hidden, Event::SecretRolled { seat: 0, sides: 6, dice: 3, faces: vec![], value: 0 });
    let json = event_json(&rules, &state, &hidden);
    assert_eq!(
        (json["dice"].clone(), json["faces"].clone(), json["value"].clone()),
        (3.into(), serde_json::Value::Null, serde_json::Value::Null)
    );
    assert!(!events.list().iter().any(|e| matches!(e, Event::Rolled { .. })), "no public roll event");
    assert_eq!(state.view_for(&rules, 1).seats[0].resources[0], 0, "the cup's total is hidden too");
    // Lifting the cup shows every seat the total.
    let mut events = Events::recording();
    engine.apply(&mut state, &rule("lift"), &mut events).unwrap();
    let shown = events.list().iter().find(|e| matches!(e, Event::ValueRevealed { .. })).expect("revealed").clone();
    assert_eq!(shown.seen_by(&rules, 1), Some(Event::ValueRevealed { seat: 0, label: "cup".into(), value: 9 }));
}
