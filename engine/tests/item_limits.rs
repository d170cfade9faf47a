//! Which pieces may hold which items, and how many: an item's `holders` (the piece kinds of its
//! deck), a piece kind's `max_items`, `can_hold(piece, item)`, `held_count(piece)` and `held_count(piece, item)` in the
//! rules language, `give` refused beyond them, and `drop(held)` to take an item back.

mod common;

use common::{legal, load_data, new_game};
use meeple_engine::game::{Action, ActionKind, Engine, Event, Events, GameState};
use meeple_engine::rules::Ruleset;

/// A gunner (two items at most, starting with a vest) and a medic; a cannon only gunners hold,
/// a vest and a kit anyone holds.
const SHOP: &str = r#"
[board]
kind = "graph"
terrain = "floor"
spaces = [{ id = "base" }]
links = []

[terrain.floor]

[items.cannon]
holders = ["gunner"]
price = 5
[items.vest]
price = 2
[items.kit]
price = 1

[pieces.gunner]
max_items = 2
items = ["vest"]
[pieces.medic]

[setup]
effect = ["place('gunner', seat(1), space('base'))", "place('medic', seat(1), space('base'))"]

[turn]
phases = [{ id = "main", actions = ["buy", "force", "sell"] }]

[actions.buy]
label = "Buy"
params = [
  { name = "who", kind = "piece", owned_by = "me" },
  { name = "what", kind = "item", where = "can_hold(who, what)" },
]
effect = ["give(who, what)"]

[actions.force]
label = "Give without asking"
params = [{ name = "who", kind = "piece", owned_by = "me" }, { name = "what", kind = "item" }]
effect = ["give(who, what)"]

[actions.sell]
label = "Sell back"
params = [{ name = "who", kind = "piece", owned_by = "me" }, { name = "item", kind = "held", held_by = "who", where = "held_count(who) > 0" }]
effect = ["drop(item)"]

[end]
win = "seat.number == 99"
"#;

fn rule(rules: &Ruleset, id: &str) -> u16 {
    rules.action_index(id).unwrap() as u16
}

fn item(rules: &Ruleset, id: &str) -> i64 {
    rules.items.iter().position(|i| i.id == id).unwrap() as i64
}

fn held(rules: &Ruleset, state: &GameState, piece: usize) -> Vec<String> {
    state.pieces[piece].items.iter().map(|h| rules.items[h.item as usize].id.clone()).collect()
}

/// What `buy` offers each piece (0: the gunner, 1: the medic), by item id.
fn offered(rules: &Ruleset, engine: &mut Engine, state: &GameState, piece: i64) -> Vec<String> {
    legal(engine, state)
        .into_iter()
        .filter(|a| a.kind == ActionKind::Rule(rule(rules, "buy")) && a.args[0] == piece)
        .map(|a| rules.items[a.args[1] as usize].id.clone())
        .collect()
}

#[test]
fn holders_and_max_items_decide_what_can_hold_offers() {
    let rules = load_data("item_shop", SHOP).unwrap_or_else(|e| panic!("{e}"));
    let (mut engine, mut state, _) = new_game(&rules, 1, 2);
    assert_eq!(held(&rules, &state, 0), ["vest"]);
    assert_eq!(offered(&rules, &mut engine, &state, 0), ["cannon", "vest", "kit"], "the gunner's deck and anyone's");
    assert_eq!(offered(&rules, &mut engine, &state, 1), ["vest", "kit"], "a medic holds no cannon");
    let mut events = Events::recording();
    let buy = Action::rule(rule(&rules, "buy"), &[0, item(&rules, "cannon")]);
    engine.apply(&mut state, &buy, &mut events).unwrap();
    assert_eq!(held(&rules, &state, 0), ["vest", "cannon"]);
    assert!(offered(&rules, &mut engine, &state, 0).is_empty(), "two items: the gunner's max_items");
    // Giving beyond the limits is refused, and the state is as it was.
    for (piece, what, says) in
        [(0, "kit", "holds at most 2 items"), (1, "cannon", "held only by gunner, not by a medic")]
    {
        let before = serde_json::to_string(&state).unwrap();
        let force = Action::rule(rule(&rules, "force"), &[piece, item(&rules, what)]);
        let error = engine.apply(&mut state, &force, &mut events).unwrap_err().to_string();
        assert!(error.contains(says), "{error}");
        assert_eq!(serde_json::to_string(&state).unwrap(), before);
    }
}

#[test]
fn drop_takes_an_item_back_and_the_later_ones_move_up() {
    let rules = load_data("item_drop", SHOP).unwrap_or_else(|e| panic!("{e}"));
    let (mut engine, mut state, _) = new_game(&rules, 1, 2);
    let mut events = Events::recording();
    engine.apply(&mut state, &Action::rule(rule(&rules, "buy"), &[0, item(&rules, "cannon")]), &mut events).unwrap();
    // The vest is at position 0 of piece 0: held values pack piece and position.
    let vest = legal(&mut engine, &state)
        .into_iter()
        .find(|a| a.kind == ActionKind::Rule(rule(&rules, "sell")) && a.args[0] == 0)
        .expect("the gunner can sell");
    let mark = events.len();
    engine.apply(&mut state, &vest, &mut events).unwrap();
    assert_eq!(held(&rules, &state, 0), ["cannon"], "the cannon moved up");
    assert!(events.list()[mark..].iter().any(|e| matches!(e, Event::ItemDropped { piece: 0, position: 0, .. })));
    assert_eq!(offered(&rules, &mut engine, &state, 0), ["cannon", "vest", "kit"], "room again");
}

#[test]
fn held_count_of_one_kind_counts_that_kind_alone() {
    // One of each kind a piece: the gunner starts with a vest, so it is offered none.
    let once = SHOP.replace(
        "where = \"can_hold(who, what)\"",
        "where = \"can_hold(who, what) and held_count(who, what) == 0 and held_count(who, 'kit') + held_count(who) < 3\"",
    );
    let rules = load_data("item_once", &once).unwrap_or_else(|e| panic!("{e}"));
    let (mut engine, mut state, _) = new_game(&rules, 1, 2);
    assert_eq!(offered(&rules, &mut engine, &state, 0), ["cannon", "kit"], "the gunner holds a vest");
    assert_eq!(offered(&rules, &mut engine, &state, 1), ["vest", "kit"]);
    let mut events = Events::recording();
    engine.apply(&mut state, &Action::rule(rule(&rules, "buy"), &[1, item(&rules, "kit")]), &mut events).unwrap();
    // The medic holds a kit: held_count(who, 'kit') + held_count(who) is 2, so one more fits —
    // the vest; a second kit is refused by its own kind's count.
    assert_eq!(offered(&rules, &mut engine, &state, 1), ["vest"]);
    let misspelt = once.replace("held_count(who, 'kit')", "held_count(who, 'kitt')");
    let text = load_data("item_once_misspelt", &misspelt).unwrap_err();
    assert!(text.contains("kitt") && text.contains("did you mean `kit`"), "{text}");
}

#[test]
fn limits_are_checked_where_they_are_written() {
    let unknown = SHOP.replace("holders = [\"gunner\"]", "holders = [\"guner\"]");
    let text = load_data("item_unknown", &unknown).unwrap_err();
    assert!(text.contains("data.toml:11:12") && text.contains("guner") && text.contains("gunner"), "{text}");
    let too_many = SHOP.replace("max_items = 2\nitems = [\"vest\"]", "max_items = 1\nitems = [\"vest\", \"kit\"]");
    let text = load_data("item_too_many", &too_many).unwrap_err();
    assert!(text.contains("would hold 2 items, more than its `max_items` (1)"), "{text}");
    let wrong_kind = SHOP.replace("[pieces.medic]", "[pieces.medic]\nitems = [\"cannon\"]");
    let text = load_data("item_wrong_kind", &wrong_kind).unwrap_err();
    assert!(text.contains("`cannon` is held only by gunner"), "{text}");
    let beyond = SHOP.replace("max_items = 2", "max_items = 300");
    let text = load_data("item_beyond", &beyond).unwrap_err();
    assert!(text.contains("a piece holds at most 255 items"), "{text}");
}
