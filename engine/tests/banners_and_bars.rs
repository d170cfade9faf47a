//! What the window says of an action's outcome (`banner`) and which stat it draws as a bar under
//! each piece (`bar`): compiled into the ruleset as written, and refused at load, where written,
//! when they could not do what the docs say.

mod common;

use common::load_data;
use meeple_engine::rules::BarFull;

/// Two duellists: a shot decided by a die, health drawn as a bar full at `max`, stamina full at
/// each piece's own `most_stamina`.
const DUEL: &str = r#"
[board]
kind = "graph"
terrain = "road"
spaces = [{ id = "s0" }, { id = "s1" }]
links = [["s0", "s1"]]

[terrain.road]

[stats.health]
initial = 10
max = 10
bar = true

[stats.stamina]
bar = "most_stamina"

[stats.most_stamina]
initial = 3

[pieces.duellist]
stats = { stamina = 3 }

[turn]
phases = [{ id = "main", actions = ["shoot", "rest"] }]

[actions.shoot]
label = "Shoot"
rolls = { aim = "1d6" }
success = "aim >= 4"
banner = { success = "Struck", failure = "Missed" }

[actions.rest]
label = "Rest"

[end]
win = "seat.number == 99"
"#;

#[test]
fn banners_and_bars_are_compiled_as_written() {
    let rules = load_data("duel", DUEL).unwrap_or_else(|e| panic!("{e}"));
    let shoot = &rules.actions[rules.action_index("shoot").unwrap()];
    assert_eq!(shoot.banner, (Some("Struck".to_string()), Some("Missed".to_string())));
    let rest = &rules.actions[rules.action_index("rest").unwrap()];
    assert_eq!(rest.banner, (None, None));
    let stat = |id: &str| rules.stats.iter().find(|s| s.id == id).unwrap().bar;
    let most = rules.stats.iter().position(|s| s.id == "most_stamina").unwrap() as u16;
    assert_eq!(stat("health"), Some(BarFull::Max));
    assert_eq!(stat("stamina"), Some(BarFull::Stat(most)));
    assert_eq!(stat("most_stamina"), None);

    // A banner may say only one outcome.
    let one =
        DUEL.replace(r#"banner = { success = "Struck", failure = "Missed" }"#, r#"banner = { failure = "Missed" }"#);
    let rules = load_data("duel_one", &one).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rules.actions[rules.action_index("shoot").unwrap()].banner, (None, Some("Missed".to_string())));
}

#[test]
fn a_banner_without_success_or_a_bar_that_cannot_be_filled_is_refused_where_written() {
    let no_success = DUEL.replace(
        "[actions.rest]\nlabel = \"Rest\"",
        "[actions.rest]\nlabel = \"Rest\"\nbanner = { success = \"Rested\" }",
    );
    let text = load_data("duel_no_success", &no_success).unwrap_err();
    assert!(text.contains("a banner tells the outcome of `success`: this action has none"), "{text}");
    assert!(text.contains("[actions.rest] key `banner`"), "{text}");
    assert!(text.contains("data.toml:"), "located: {text}");

    let no_max = DUEL.replace("initial = 10\nmax = 10\nbar = true", "initial = 10\nbar = true");
    let text = load_data("duel_no_max", &no_max).unwrap_err();
    assert!(text.contains("`bar = true` is full at the stat's `max`"), "{text}");
    assert!(text.contains("[stats.health] key `bar`"), "{text}");

    let misspelt = DUEL.replace(r#"bar = "most_stamina""#, r#"bar = "most_stamine""#);
    let text = load_data("duel_misspelt", &misspelt).unwrap_err();
    assert!(text.contains("no other stat is called `most_stamine`"), "{text}");
    assert!(text.contains("did you mean `most_stamina`"), "{text}");

    let on_a_resource = DUEL.replace("[terrain.road]", "[terrain.road]\n\n[resources.gold]\nmax = 5\nbar = true");
    let text = load_data("duel_resource", &on_a_resource).unwrap_err();
    assert!(text.contains("only a piece's stat (`[stats.…]`) is drawn as a bar"), "{text}");

    let misspelt_key = DUEL.replace("banner = {", "baner = {");
    let text = load_data("duel_key", &misspelt_key).unwrap_err();
    assert!(text.contains("did you mean `banner`"), "{text}");
}
