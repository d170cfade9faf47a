//! An action's `requires`: conditions read before any choice, each with the reason a player is
//! shown when it does not hold. The listing leaves the action out, the menu greys it with the
//! first missing requirement's reason (its figures worked out), a refused action says the same
//! and changes nothing, and a broken requirement is refused at load with its location.

mod common;

use common::{legal, load_data, new_game};
use meeple_engine::game::{Action, ActionKind, Events};

/// A stall with one good: buying it takes three coins and an open stall; the stall opens and
/// closes by an action of its own.
const STALL: &str = r#"
[board]
kind = "graph"
terrain = "road"
spaces = [{ id = "s0" }, { id = "s1" }]
links = [["s0", "s1"]]

[terrain.road]

[vars]
open = 1
price = 3

[resources.coins]
initial = 4

[resources.goods]

[turn]
phases = [{ id = "market", actions = ["buy", "close"] }]

[actions.buy]
label = "Buy"
requires = [
  { condition = "open == 1", reason = "the stall is closed" },
  { condition = "me.coins >= price", reason = "needs {price} coins, {me.coins} in the purse ({{and no credit}})" },
]
params = [{ name = "count", kind = "number", min = "1", max = "2" }]
when = "me.coins >= price * count"
effect = ["me.coins -= price * count", "me.goods += count"]

[actions.close]
label = "Close the stall"
effect = ["open = 0"]

[end]
win = "seat.number == 99"
"#;

fn offered_buys(actions: &[Action], buy: u16) -> Vec<i64> {
    actions.iter().filter(|a| a.kind == ActionKind::Rule(buy)).map(|a| a.args[0]).collect()
}

#[test]
fn the_first_missing_requirement_greys_the_action_with_its_reason() {
    let rules = load_data("stall", STALL).unwrap_or_else(|e| panic!("{e}"));
    let buy = rules.action_index("buy").unwrap() as u16;
    let close = rules.action_index("close").unwrap() as u16;
    let (mut engine, mut state, _) = new_game(&rules, 1, 2);
    let mut events = Events::discard();

    // Four coins: one good can be bought (the `when` rules out two), and nothing greys it.
    let actions = legal(&mut engine, &state);
    assert_eq!(offered_buys(&actions, buy), [1]);
    assert_eq!(engine.unavailable_reason(&state, &actions, buy), None);
    engine.apply(&mut state, &Action::rule(buy, &[1]), &mut events).unwrap();

    // One coin left: the second requirement is missing, its figures worked out now.
    let actions = legal(&mut engine, &state);
    assert_eq!(offered_buys(&actions, buy), Vec::<i64>::new());
    assert_eq!(
        engine.unavailable_reason(&state, &actions, buy).as_deref(),
        Some("needs 3 coins, 1 in the purse ({and no credit})")
    );
    let before = state.hash_hex();
    let refused = engine.apply(&mut state, &Action::rule(buy, &[1]), &mut events).unwrap_err();
    assert!(refused.to_string().contains("needs 3 coins, 1 in the purse"), "{refused}");
    assert_eq!(state.hash_hex(), before, "a refused action changes nothing");

    // Both missing: the first listed is the one named.
    engine.apply(&mut state, &Action::rule(close, &[]), &mut events).unwrap();
    let actions = legal(&mut engine, &state);
    assert_eq!(engine.unavailable_reason(&state, &actions, buy).as_deref(), Some("the stall is closed"));
}

#[test]
fn a_requirement_that_reads_a_choice_or_a_broken_reason_is_refused_where_it_is_written() {
    let reads_param = STALL.replace(r#"{ condition = "open == 1""#, r#"{ condition = "count > 0 and open == 1""#);
    let text = load_data("stall_param", &reads_param).unwrap_err();
    assert!(text.contains("cannot read the parameter `count`: a condition on the choices belongs in `when`"), "{text}");
    assert!(text.contains("[actions.buy.requires[0]] key `condition`"), "{text}");
    assert!(text.contains("data.toml:"), "located: {text}");

    let unclosed = STALL.replace("needs {price} coins", "needs {price coins");
    let text = load_data("stall_unclosed", &unclosed).unwrap_err();
    assert!(text.contains("a `{` with no `}` to close it"), "{text}");
    assert!(text.contains("[actions.buy.requires[1]] key `reason`"), "{text}");

    // A figure's own problem points into the reason where the figure is written.
    let misspelt = STALL.replace("{me.coins} in the purse", "{me.coin} in the purse");
    let text = load_data("stall_misspelt", &misspelt).unwrap_err();
    assert!(text.contains("did you mean `coins`"), "{text}");
    let line = misspelt.lines().position(|l| l.contains("{me.coin} in the purse")).unwrap() + 1;
    let col = misspelt.lines().nth(line - 1).unwrap().find("coin} in").unwrap() + 1;
    assert!(text.contains(&format!("data.toml:{line}:{col}")), "at {line}:{col}: {text}");
}

/// A bazaar of three wares; `requires` on the choice greys the dearer ones instead of hiding
/// them.
const BAZAAR: &str = r#"
[board]
kind = "graph"
terrain = "road"
spaces = [{ id = "s0" }]
links = []

[terrain.road]

[resources.coins]
initial = 5

[pieces.stall]

[items.apple]
price = 1
[items.lamp]
price = 5
[items.rug]
price = 9
[items.ghost]
price = 0

[turn]
phases = [{ id = "market", actions = ["buy"] }]

[actions.buy]
label = "Buy"
params = [{ name = "ware", kind = "item", where = "ware.price > 0", requires = [
  { condition = "ware.price <= me.coins", reason = "costs {ware.price}, {me.coins} in the purse" },
] }]
effect = ["me.coins -= ware.price"]

[end]
win = "seat.number == 99"
"#;

#[test]
fn a_choice_that_misses_a_requirement_is_shown_greyed_with_why_and_refused_with_it() {
    let rules = load_data("bazaar", BAZAAR).unwrap_or_else(|e| panic!("{e}"));
    let buy = rules.action_index("buy").unwrap() as u16;
    let item = |id: &str| rules.items.iter().position(|i| i.id == id).unwrap() as i64;
    let (mut engine, mut state, _) = new_game(&rules, 1, 2);
    let actions = legal(&mut engine, &state);
    assert_eq!(offered_buys(&actions, buy), [item("apple"), item("lamp")], "what 5 coins buy");
    // The rug is shown but refused, with why; the ghost (no price) is not shown at all.
    assert_eq!(engine.refused_choices(&state, buy, &[]), [(item("rug"), "costs 9, 5 in the purse".to_string())]);
    let before = state.hash_hex();
    let refused = engine.apply(&mut state, &Action::rule(buy, &[item("rug")]), &mut Events::discard()).unwrap_err();
    assert!(refused.to_string().contains("costs 9, 5 in the purse"), "{refused}");
    assert_eq!(state.hash_hex(), before);
    let ghost = engine.apply(&mut state, &Action::rule(buy, &[item("ghost")]), &mut Events::discard()).unwrap_err();
    assert!(ghost.to_string().contains("`ware` does not satisfy its condition"), "{ghost}");
}
