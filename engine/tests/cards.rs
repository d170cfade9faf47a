//! Cards as things the rules choose and move: `card` parameters (one choice per card id a hand
//! holds, of one deck or all, only cards the acting seat knows), and the statements that move
//! one copy between hands, piles and pieces (`discard`, `give_card`, `return_card`, `attach`,
//! `detach`) from TOML and from Lua — what each changes, when each is refused, what each seat
//! sees of it, and that saves, records and computer players handle them. The fixture is
//! `satchel`: swords and shields held face down, coins face up, a knight per seat.

mod common;

use std::sync::Arc;

use common::{fixture, legal, manifest, new_game, write_mod};
use meeple_engine::ai;
use meeple_engine::game::record::{from_record, to_record};
use meeple_engine::game::render::{event_json, state_json};
use meeple_engine::game::state::{EVERY_SEAT, UNKNOWN_CARD};
use meeple_engine::game::{Action, ActionKind, Engine, Event, Events, GameSetup, GameState};
use meeple_engine::rules::Ruleset;
use meeple_engine::save::SaveFile;

fn action(rules: &Ruleset, id: &str, args: &[i64]) -> Action {
    Action::rule(rules.action_index(id).unwrap_or_else(|| panic!("no action {id}")) as u16, args)
}

fn card(rules: &Ruleset, id: &str) -> u16 {
    rules.card_ids.iter().position(|c| c == id).unwrap_or_else(|| panic!("no card {id}")) as u16
}

fn deck(rules: &Ruleset, id: &str) -> u16 {
    rules.deck_index(id).unwrap_or_else(|| panic!("no deck {id}")) as u16
}

/// Moves copies of cards from their deck's draw pile into a seat's hand, as a deal would.
fn deal(rules: &Ruleset, state: &mut GameState, seat: u8, cards: &[&str]) {
    for id in cards {
        let c = card(rules, id);
        let d = rules.cards[c as usize].deck.expect("the card is in a deck");
        let pile = &mut state.decks[d as usize].draw;
        let position = pile.iter().position(|x| *x == c).unwrap_or_else(|| panic!("no {id} left to deal"));
        pile.remove(position);
        state.seats[seat as usize].hand.push((d, c));
    }
}

/// The ids of a seat's hand, in order.
fn hand(rules: &Ruleset, state: &GameState, seat: u8) -> Vec<String> {
    state.seats[seat as usize].hand.iter().map(|(_, c)| rules.card_ids[*c as usize].clone()).collect()
}

/// The cards the legal actions `id` offer for their parameter at `slot`, by id.
fn offered(engine: &mut Engine, state: &GameState, id: &str, slot: usize) -> Vec<String> {
    let rules = engine.rules().clone();
    let index = rules.action_index(id).unwrap() as u16;
    legal(engine, state)
        .into_iter()
        .filter(|a| a.kind == ActionKind::Rule(index))
        .map(|a| rules.card_ids[a.args[slot] as usize].clone())
        .collect()
}

/// A two- or three-seat game of `satchel` in which seat 1 holds two swords, a shield and a coin
/// and seat 2 a shield and a coin.
fn satchel(seats: usize) -> (Arc<Ruleset>, Engine, GameState) {
    let rules = fixture("satchel");
    let (engine, mut state, _) = new_game(&rules, 3, seats);
    deal(&rules, &mut state, 0, &["sword", "sword", "shield", "coin"]);
    deal(&rules, &mut state, 1, &["shield", "coin"]);
    state.check_invariants(&rules).expect("a deal keeps every card");
    (rules, engine, state)
}

fn apply(engine: &mut Engine, state: &mut GameState, a: &Action) -> Vec<Event> {
    let mut events = Events::recording();
    engine.apply(state, a, &mut events).unwrap_or_else(|e| panic!("{a:?}: {e}"));
    state.check_invariants(engine.rules()).expect("the action keeps every card");
    events.take()
}

#[test]
fn a_card_parameter_offers_each_card_id_of_the_hand_once_of_its_deck() {
    let (rules, mut engine, state) = satchel(2);
    // Two swords are one choice; in the cards' order (sword, shield, coin).
    assert_eq!(offered(&mut engine, &state, "play", 0), ["sword", "shield", "coin"]);
    assert_eq!(offered(&mut engine, &state, "sell", 0), ["sword", "shield"], "only the armory's");
    assert_eq!(offered(&mut engine, &state, "gift", 1), ["sword", "shield"], "`card.deck` in `where`");
    // Listing and checking agree for every card of the mod.
    for id in &rules.card_ids {
        let a = action(&rules, "play", &[i64::from(card(&rules, id))]);
        let listed = legal(&mut engine, &state).contains(&a);
        let taken = engine.apply(&mut state.clone(), &a, &mut Events::discard());
        assert_eq!(listed, taken.is_ok(), "{id}: {taken:?}");
    }
    let error = engine.apply(&mut state.clone(), &action(&rules, "sell", &[2]), &mut Events::discard()).unwrap_err();
    assert!(error.to_string().contains("is not a card in the hand"), "{error}");
}

#[test]
fn only_cards_the_acting_seat_knows_can_be_chosen_from_another_hand() {
    let (rules, mut engine, mut state) = satchel(2);
    // Seat 2's coin is face up (the purse is open); its shield is not seat 1's to see.
    assert_eq!(offered(&mut engine, &state, "take", 1), ["coin"]);
    let shield = i64::from(card(&rules, "shield"));
    assert!(engine.apply(&mut state.clone(), &action(&rules, "take", &[1, shield]), &mut Events::discard()).is_err());
    // Once seat 2 shows its hand to seat 1, the shield is a choice too.
    state.seats[1].show(0, Some(0));
    assert_eq!(offered(&mut engine, &state, "take", 1), ["shield", "coin"]);
    apply(&mut engine, &mut state, &action(&rules, "take", &[1, shield]));
    assert_eq!(hand(&rules, &state, 0), ["sword", "sword", "shield", "coin", "shield"]);
    assert_eq!(hand(&rules, &state, 1), ["coin"]);
}

#[test]
fn playing_a_card_discards_one_copy_and_a_missing_card_is_a_located_error() {
    let (rules, mut engine, mut state) = satchel(2);
    let sword = card(&rules, "sword");
    let events = apply(&mut engine, &mut state, &action(&rules, "play", &[i64::from(sword)]));
    assert_eq!(hand(&rules, &state, 0), ["sword", "shield", "coin"], "one copy of two");
    assert_eq!(state.decks[deck(&rules, "armory") as usize].discard, [sword]);
    assert_eq!(state.seats[0].resources[0], 3, "the card's power");
    assert!(events.contains(&Event::CardDiscarded { seat: 0, deck: deck(&rules, "armory"), card: sword }));
    // The phase's budget allows one card a turn.
    assert!(offered(&mut engine, &state, "play", 0).is_empty());

    // A statement whose card is not there refuses the action, changing nothing.
    let rules = edited(|d| {
        d.replace(
            "effect = [\"me.gold += 1\", \"return_card(me, card)\"]",
            "effect = [\"me.gold += 1\", \"give_card(me, seat(2), 'coin')\", \"discard(me, 'coin')\"]",
        )
    })
    .unwrap();
    let (mut engine, mut state, _) = new_game(&rules, 3, 2);
    deal(&rules, &mut state, 0, &["sword", "coin"]);
    let before = state.hash_hex();
    let error = engine
        .apply(&mut state, &action(&rules, "sell", &[i64::from(card(&rules, "sword"))]), &mut Events::discard())
        .unwrap_err()
        .to_string();
    assert!(error.contains("seat 1 has no `coin` in hand to discard"), "{error}");
    assert!(error.contains("data.toml:"), "located: {error}");
    assert_eq!(state.hash_hex(), before, "the gold and the given coin are undone");
}

#[test]
fn a_card_given_returned_attached_and_detached_goes_where_it_should() {
    let (rules, mut engine, mut state) = satchel(2);
    let (sword, shield) = (card(&rules, "sword"), card(&rules, "shield"));
    let armory = deck(&rules, "armory");
    // Give: one copy, to the end of the other hand; the giver's knowledge goes along.
    apply(&mut engine, &mut state, &action(&rules, "gift", &[1, i64::from(sword)]));
    assert_eq!(hand(&rules, &state, 0), ["sword", "shield", "coin"]);
    assert_eq!(hand(&rules, &state, 1), ["shield", "coin", "sword"]);
    assert!(state.seats[1].shown_to(1, 2, 0), "the giver knows the card it gave");
    // Return: to the bottom of the draw pile, which is drawn last.
    apply(&mut engine, &mut state, &action(&rules, "sell", &[i64::from(shield)]));
    assert_eq!(state.decks[armory as usize].draw.first(), Some(&shield));
    assert_eq!(hand(&rules, &state, 0), ["sword", "coin"]);
    // Attach: from the hand onto the knight, once per kind.
    let knight = 0;
    apply(&mut engine, &mut state, &action(&rules, "arm", &[knight, i64::from(sword)]));
    assert_eq!(state.pieces[0].cards, [(armory, sword)]);
    assert_eq!(hand(&rules, &state, 0), ["coin"]);
    deal(&rules, &mut state, 0, &["sword"]);
    assert!(offered(&mut engine, &state, "arm", 1).is_empty(), "the knight holds a sword already");
    // Detach: back into the hand, where every seat knows it (it lay face up).
    apply(&mut engine, &mut state, &action(&rules, "strip", &[knight]));
    assert!(state.pieces[0].cards.is_empty());
    assert_eq!(hand(&rules, &state, 0), ["coin", "sword", "sword"]);
    assert_eq!(state.seats[0].shown.last(), Some(&EVERY_SEAT));
    assert_eq!(state.view_for(&rules, 1).seats[0].hand[2], (armory, sword));
    assert_eq!(state.view_for(&rules, 1).seats[0].hand[1].1, UNKNOWN_CARD, "the dealt sword is still secret");
}

#[test]
fn each_seat_sees_what_it_may_of_cards_moved() {
    let (rules, mut engine, mut state) = satchel(3);
    let (sword, shield) = (card(&rules, "sword"), card(&rules, "shield"));
    let given = apply(&mut engine, &mut state, &action(&rules, "gift", &[1, i64::from(sword)]));
    let event = given.iter().find(|e| matches!(e, Event::CardGiven { .. })).expect("a card_given event");
    for seat in [0, 1] {
        assert_eq!(event.seen_by(&rules, seat).as_ref(), Some(event), "seat {seat} holds it");
    }
    let third = event.seen_by(&rules, 2).expect("seen, as a card changing hands");
    assert!(matches!(third, Event::CardGiven { card: UNKNOWN_CARD, from: 0, to: 1, .. }), "{third:?}");
    assert_eq!(event_json(&rules, &state, &third)["card"], serde_json::Value::Null);
    assert_eq!(event_json(&rules, &state, event)["card"], "sword");

    let returned = apply(&mut engine, &mut state, &action(&rules, "sell", &[i64::from(shield)]));
    let event = returned.iter().find(|e| matches!(e, Event::CardReturned { .. })).expect("a card_returned event");
    assert_eq!(event.seen_by(&rules, 0).as_ref(), Some(event));
    assert!(matches!(event.seen_by(&rules, 1), Some(Event::CardReturned { card: UNKNOWN_CARD, .. })));

    // A card shown to all is known to all when it is given.
    state.seats[0].show(0, None);
    let given = apply(&mut engine, &mut state, &action(&rules, "gift", &[2, i64::from(sword)]));
    let event = given.iter().find(|e| matches!(e, Event::CardGiven { .. })).unwrap();
    assert_eq!(event.seen_by(&rules, 1).as_ref(), Some(event), "it had been shown to every seat");

    // Attached and detached cards are on the table: everyone's.
    deal(&rules, &mut state, 0, &["sword"]);
    let armed = apply(&mut engine, &mut state, &action(&rules, "arm", &[0, i64::from(sword)]));
    let stripped = apply(&mut engine, &mut state, &action(&rules, "strip", &[0]));
    for event in
        armed.iter().chain(&stripped).filter(|e| matches!(e, Event::CardAttached { .. } | Event::CardDetached { .. }))
    {
        assert_eq!(event.seen_by(&rules, 2).as_ref(), Some(event));
    }
    assert_eq!(armed.iter().filter(|e| matches!(e, Event::CardAttached { .. })).count(), 1);
    assert_eq!(stripped.iter().filter(|e| matches!(e, Event::CardDetached { .. })).count(), 1);
}

#[test]
fn attached_cards_are_public_saved_and_replayed() {
    let rules = fixture("satchel");
    let setup = GameSetup::new(&rules, 5, 2, "human");
    let mut engine = Engine::new(rules.clone()).unwrap();
    let mut state = engine.new_game(&setup, &mut Events::discard()).unwrap();
    let fresh = serde_json::to_value(&state).unwrap();
    assert!(
        fresh["pieces"].as_array().unwrap().iter().all(|p| p.get("cards").is_none()),
        "nothing attached, nothing saved"
    );
    let shield = card(&rules, "shield");
    // The armory is not shuffled: drawing two gives two shields (the top is listed last).
    let history = vec![
        (0u8, action(&rules, "pocket", &[2])),
        (0u8, action(&rules, "arm", &[0, i64::from(shield)])),
        (0u8, action(&rules, "gift", &[1, i64::from(shield)])),
    ];
    for (_, a) in &history {
        apply(&mut engine, &mut state, a);
    }
    assert_eq!(state.pieces[0].cards.len(), 1);
    assert_eq!(state_json(&rules, &state)["pieces"][0]["cards"], serde_json::json!(["shield"]));
    assert_eq!(state.view_for(&rules, 1).pieces[0].cards, state.pieces[0].cards, "face up: in every view");
    let save = SaveFile::new(&rules, &setup, &history, &state);
    let bytes = serde_json::to_vec(&save).unwrap();
    let loaded = SaveFile::parse(&bytes, "memory").expect("parses");
    assert_eq!(loaded.state.as_ref().expect("the snapshot holds").pieces[0].cards, state.pieces[0].cards);
    let (replayed, _) =
        loaded.replay(&mut Engine::new(rules.clone()).unwrap(), "memory", &mut Events::discard()).unwrap();
    assert_eq!(replayed.hash_hex(), state.hash_hex());
}

#[test]
fn records_name_a_card_by_its_id() {
    let (rules, _, state) = satchel(2);
    let a = action(&rules, "gift", &[1, i64::from(card(&rules, "shield"))]);
    let record = to_record(&rules, &state, 0, &a);
    assert_eq!(
        serde_json::to_value(&record).unwrap(),
        serde_json::json!({ "seat": 1, "action": "gift", "to": 2, "card": "shield" })
    );
    assert_eq!(from_record(&rules, &state, &record).unwrap(), (0, a));
    let mut wrong = record.clone();
    wrong.args.insert("card".into(), serde_json::json!("sheild"));
    let error = from_record(&rules, &state, &wrong).unwrap_err();
    assert!(error.contains("no card is called `sheild`; did you mean `shield`?"), "{error}");
}

#[test]
fn computer_players_choose_card_actions_by_their_scores() {
    let (rules, mut engine, state) = satchel(2);
    let score = |engine: &mut Engine, id: &str, args: &[i64]| {
        engine.ai_score(&state, &action(&rules, id, args)).unwrap().map(|s| s.0)
    };
    assert_eq!(score(&mut engine, "play", &[i64::from(card(&rules, "sword"))]), Some(3.0));
    assert_eq!(score(&mut engine, "play", &[i64::from(card(&rules, "shield"))]), Some(1.0));
    assert_eq!(score(&mut engine, "arm", &[0, i64::from(card(&rules, "shield"))]), Some(20.0), "tagged armour");
    let mut player = ai::player("medium", 9).unwrap();
    let choice = player.decide(&mut engine, &state).unwrap();
    assert_eq!(choice, action(&rules, "arm", &[0, i64::from(card(&rules, "shield"))]));
}

#[test]
fn the_lua_api_moves_cards_too() {
    let (rules, mut engine, mut state) = satchel(2);
    apply(&mut engine, &mut state, &action(&rules, "lua_gift", &[1]));
    assert_eq!(hand(&rules, &state, 1), ["shield", "coin", "sword"]);
    // Attached, read back, detached, discarded; then a sword goes under the deck.
    apply(&mut engine, &mut state, &action(&rules, "lua_arm", &[0]));
    assert_eq!(
        state.script_data.get("attached").map(|v| serde_json::to_value(v).unwrap()),
        Some(serde_json::json!(["shield"]))
    );
    assert!(state.pieces[0].cards.is_empty());
    assert_eq!(hand(&rules, &state, 0), ["coin"]);
    assert_eq!(state.decks[deck(&rules, "armory") as usize].discard, [card(&rules, "shield")]);
    assert_eq!(state.decks[deck(&rules, "armory") as usize].draw.first(), Some(&card(&rules, "sword")));
    // No sword left to give: the hook fails, naming the function, and nothing changes.
    let before = state.hash_hex();
    let error =
        engine.apply(&mut state, &action(&rules, "lua_gift", &[1]), &mut Events::discard()).unwrap_err().to_string();
    assert!(error.contains("give_card: seat 1 has no `sword` in hand to give"), "{error}");
    assert_eq!(state.hash_hex(), before);
}

/// The satchel fixture with `data.toml` changed by `edit`: its ruleset, or its problems one a
/// line.
fn edited(edit: impl Fn(String) -> String) -> Result<Arc<Ruleset>, String> {
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/satchel");
    let data = std::fs::read_to_string(format!("{fixture}/data.toml")).unwrap();
    let hooks = std::fs::read(format!("{fixture}/hooks/cards.lua")).unwrap();
    let folder = write_mod(
        "satchel",
        &[
            ("mod.toml", manifest("satchel").as_bytes()),
            ("data.toml", edit(data).as_bytes()),
            ("hooks/cards.lua", &hooks),
        ],
    );
    let loaded = meeple_engine::loader::load_mod(&folder);
    std::fs::remove_dir_all(&folder).ok();
    loaded.map(|l| l.ruleset).map_err(|found| found.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("\n"))
}

fn broken(edit: impl Fn(String) -> String) -> String {
    edited(edit).err().expect("the edited mod should not load")
}

#[test]
fn card_parameters_and_values_are_checked_when_the_mod_loads() {
    let wrong_deck = broken(|d| d.replace("deck = \"armory\", where", "deck = \"armoury\", where"));
    assert!(
        wrong_deck.contains("unknown deck `armoury`") && wrong_deck.contains("did you mean `armory`"),
        "{wrong_deck}"
    );
    assert!(wrong_deck.contains("data.toml:"), "{wrong_deck}");

    let no_hands = broken(|d| {
        let cut = d.find("[decks.armory]").unwrap();
        let rest = d.find("[setup]").unwrap();
        format!("{}{}", &d[..cut], &d[rest..])
            .replace(", \"sell\", \"pocket\"", "")
            .replace("[actions.sell]", "[actions.sell_gone]")
            .replace("[actions.pocket]", "[actions.pocket_gone]")
    });
    assert!(no_hands.contains("a `card` parameter chooses from a hand"), "{no_hands}");

    let type_error = broken(|d| d.replace("\"me.gold += card.power\"", "\"me.gold += card\""));
    assert!(type_error.contains("expected a whole number, found a card"), "{type_error}");
    let unknown_field = broken(|d| d.replace("score = \"card.power\"", "score = \"card.pwoer\""));
    assert!(unknown_field.contains("unknown card field `pwoer`"), "{unknown_field}");
    let misplaced = broken(|d| {
        d.replace("{ name = \"count\", kind = \"number\",", "{ name = \"count\", kind = \"number\", deck = \"armory\",")
    });
    assert!(misplaced.contains("`deck` is only for `card` parameters"), "{misplaced}");
}

#[test]
fn card_values_compare_with_quoted_ids_and_read_their_numbers_and_tags() {
    let filter = |condition: &str| {
        let condition = condition.to_string();
        move |d: String| {
            d.replace(
                "params = [{ name = \"card\", kind = \"card\", label = \"Card to play\" }]",
                &format!("params = [{{ name = \"card\", kind = \"card\", where = \"{condition}\" }}]"),
            )
        }
    };
    // `sword_x` is no card number: the compiler says so, listing the ones there are.
    let found = broken(filter("card.sword_x == 0"));
    assert!(found.contains("unknown card field `sword_x`") && found.contains("power"), "{found}");
    // The shield (guard 2), and the cards that print no guard and are no weapon.
    let rules = edited(filter(
        "card == 'shield' and card.guard == 2 or card != 'shield' and card.guard == 0 and not tagged(card, 'weapon')",
    ))
    .unwrap();
    let (mut engine, mut state, _) = new_game(&rules, 3, 2);
    deal(&rules, &mut state, 0, &["sword", "shield", "coin"]);
    assert_eq!(offered(&mut engine, &state, "play", 0), ["shield", "coin"], "the sword is tagged `weapon`");
}

/// An action names its card for the seat that took it only: a third seat's view of seat 1
/// giving seat 2 a sword shows the gift with no card, in the action as in the move.
#[test]
fn an_action_names_a_hidden_card_for_its_actor_alone() {
    let (rules, mut engine, mut state) = satchel(3);
    let sword = i64::from(card(&rules, "sword"));
    let events = apply(&mut engine, &mut state, &action(&rules, "gift", &[1, sword]));
    let acted = events.iter().find(|e| matches!(e, Event::Acted { .. })).expect("acted").clone();
    assert_eq!(acted.seen_by(&rules, 0), Some(acted.clone()), "the giver sees its action whole");
    let Some(Event::Acted { action: seen, .. }) = acted.seen_by(&rules, 2) else { panic!("acted") };
    assert_eq!(seen.args[1], i64::from(UNKNOWN_CARD), "a third seat does not see which card");
    let json = event_json(&rules, &state, &acted.seen_by(&rules, 2).unwrap());
    assert_eq!(json["card"], serde_json::Value::Null, "{json}");
    assert_eq!(json["to"], 2);
}
