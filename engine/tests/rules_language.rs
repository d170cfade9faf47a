//! Every example of the rules-language reference (`engine/src/rules/language.rs`, written to
//! docs/modding/rules-language.md) compiles in a mod, each where the reference says it may be
//! written; and the new constructs it describes (grid rows and columns, terrain numbers, tags,
//! named loop variables) give the values the reference promises.

mod common;

use common::{legal, manifest, new_game, write_mod};
use meeple_engine::game::{ActionKind, Events};
use meeple_engine::loader::load_mod;
use meeple_engine::rules::language::{NAMING_EXAMPLE, Place, sections};

/// The example mod the reference's examples are written against. `{when}`, `{preview}`,
/// `{roll}` and `{effect}` are where an example goes.
const EXAMPLE_MOD: &str = r#"
[board]
kind = "square"
columns = 3
rows = 3
terrain = "grass"
layout = ["gg.", "ggf", "..f"]
legend.g = "grass"
legend.f = "forest"
legend."." = { terrain = "grass", home = 0 }

[terrain.grass]
[terrain.forest]
stats = { cover = 2 }
tags = ["wood"]

[space_counters.dice]
max = 8
[resources.gold]
initial = 5
[stats.health]
initial = 3
[vars]
bonus = 0

[items.bow]
slot = "hand"
price = 4
charges = 3
stats = { range = 3 }
tags = ["ranged"]

[pieces.pawn]
items = ["bow"]
tags = ["small"]

[pieces.fence]
on_edge = true

[cards.spark]
stats = { power = 2 }
tags = ["hot"]
[decks.main]
cards = { spark = 3 }

[seats]
sides = [{ id = "red" }, { id = "blue" }]

[setup]
effect = ["place('pawn', seat(1), space('A00'))", "place('pawn', seat(2), space('C02'))", "draw_cards('main', seat(1), 1)", "draw_cards('main', seat(2), 1)"]

[turn]
phases = [{ id = "main", actions = ["try"] }]

[actions.try]
label = "Try"
params = [
  { name = "from", kind = "space" },
  { name = "to", kind = "space", adjacent_to = "from" },
  { name = "who", kind = "piece" },
  { name = "weapon", kind = "held", held_by = "who" },
]
when = "{when}"
rolls = { hits = "1d6", example = "{roll}" }
success = "hits >= 4"
effect = ["{effect}"]
preview = { example = "{preview}" }

[actions.toll]
label = "Toll"
response = true
params = [{ name = "payer", kind = "seat" }]
effect = ["payer.gold -= 1", "me.gold += 1"]

[actions.play]
label = "Play"
params = [{ name = "card", kind = "card" }]
when = "{card_when}"
effect = ["{card_effect}"]
preview = { example = "{card_preview}" }

[actions.drift]
label = "Drift"
automatic = true
params = [{ name = "who", kind = "piece" }, { name = "to", kind = "space", adjacent_to = "who.space" }]
effect = ["who.space = to"]

[actions.hike]
label = "Hike"
params = [{ name = "dest", kind = "space", reachable_from = "space('A00')", steps = "2" }]
effect = ["{walk_effect}"]

[end]
win = "seat.number == 99"
"#;

const HOOKS: &str = "function bonus_damage(piece) return 2 end\n";

/// The example mod with one example in its place; the other places get harmless fillers. An
/// example about a card chosen from a hand (one that names `card`) goes in the action `play`,
/// whose parameter it is.
fn mod_with(place: Place, example: &str) -> String {
    let quoted = example.replace('\\', "\\\\").replace('"', "\\\"");
    let (mut when, mut roll, mut effect, mut preview) = ("true", "1d6", "bonus += 0", "1");
    // Not the filler of `try`, which some tests replace.
    let (mut card_when, mut card_effect, mut card_preview) = ("true", "bonus -= 0", "1");
    let mut walk_effect = "bonus -= 0";
    let about = |name: &str| example.split(|c: char| !c.is_alphanumeric() && c != '_').any(|word| word == name);
    let about_a_card = about("card");
    if place == Place::Effects && about("dest") {
        // About a walk's destination: in the action `hike`, whose parameter it is.
        walk_effect = &quoted;
        return EXAMPLE_MOD
            .replace("{when}", when)
            .replace("{roll}", roll)
            .replace("{effect}", effect)
            .replace("{preview}", preview)
            .replace("{card_when}", card_when)
            .replace("{card_effect}", card_effect)
            .replace("{card_preview}", card_preview)
            .replace("{walk_effect}", walk_effect);
    }
    match (place, about_a_card) {
        (Place::Anywhere, false) => when = &quoted,
        (Place::Anywhere, true) => card_when = &quoted,
        (Place::Rolls, _) => roll = &quoted,
        (Place::Effects, false) => effect = &quoted,
        (Place::Effects, true) => card_effect = &quoted,
        (Place::Odds, false) => preview = &quoted,
        (Place::Odds, true) => card_preview = &quoted,
    }
    EXAMPLE_MOD
        .replace("{when}", when)
        .replace("{roll}", roll)
        .replace("{effect}", effect)
        .replace("{preview}", preview)
        .replace("{card_when}", card_when)
        .replace("{card_effect}", card_effect)
        .replace("{card_preview}", card_preview)
        .replace("{walk_effect}", walk_effect)
}

fn load_example(place: Place, example: &str) -> Result<std::sync::Arc<meeple_engine::rules::Ruleset>, String> {
    load_data(&mod_with(place, example), HOOKS)
}

/// Loads the example mod's `data` with the Lua `hooks`; the problems as text when it fails.
fn load_data(data: &str, hooks: &str) -> Result<std::sync::Arc<meeple_engine::rules::Ruleset>, String> {
    let manifest = manifest("examples");
    let folder = write_mod(
        "examples",
        &[("mod.toml", manifest.as_bytes()), ("data.toml", data.as_bytes()), ("hooks/main.lua", hooks.as_bytes())],
    );
    let loaded = load_mod(&folder);
    std::fs::remove_dir_all(&folder).ok();
    loaded.map(|l| l.ruleset).map_err(|problems| problems.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("\n"))
}

/// Plays the first legal `try` of a new game and gives the value of the var `bonus` after it.
fn bonus_after_one_action(rules: &std::sync::Arc<meeple_engine::rules::Ruleset>) -> i64 {
    let (mut engine, mut state, _) = new_game(rules, 1, 2);
    let action = legal(&mut engine, &state)
        .into_iter()
        .find(|action| matches!(action.kind, ActionKind::Rule(_)))
        .expect("a legal action");
    engine.apply(&mut state, &action, &mut Events::discard()).expect("applies");
    state.vars[rules.vars.iter().position(|v| v.id == "bonus").expect("bonus")]
}

#[test]
fn every_example_of_the_reference_compiles_where_it_may_be_written() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for (title, entries) in sections() {
        for entry in entries {
            // Values that are not yes/no go where any number may: a preview figure.
            let place = match entry.place {
                Place::Anywhere if !matches!(entry.gives, "yes/no") && !entry.example.contains("==") => Place::Odds,
                other => other,
            };
            if let Err(problems) = load_example(place, entry.example) {
                failures.push(format!("{title} / {}: `{}`\n{problems}", entry.form, entry.example));
            }
            checked += 1;
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} examples do not compile:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(checked > 70, "{checked}");
}

#[test]
fn an_example_written_in_the_wrong_place_is_refused() {
    // The harness must be able to fail: dice outside rolls and effects, a statement in a
    // condition, `chance` outside previews.
    assert!(load_example(Place::Anywhere, "(from.dice)d6 > 3").is_err());
    assert!(load_example(Place::Anywhere, "chance > 0.5").is_err());
    assert!(load_example(Place::Anywhere, "no_such_function(1) > 0").is_err());
}

/// Evaluates a yes/no expression for the first legal `try` whose parameters satisfy `select`.
fn holds(example: &str, select: &str) -> bool {
    let rules = load_example(Place::Anywhere, &format!("({select}) and ({example})")).expect("loads");
    let (mut engine, state, _) = new_game(&rules, 1, 2);
    legal(&mut engine, &state).iter().any(|action| matches!(action.kind, ActionKind::Rule(_)))
}

#[test]
fn rows_columns_terrain_numbers_and_tags_read_the_board() {
    // The grid is 3×3; labels run A00 (column 1, row 1) to C02 (column 3, row 3).
    assert!(holds("from.column == 1 and from.row == 1", "from == space('A00')"));
    assert!(holds("from.column == 3 and from.row == 2", "from == space('C01')"));
    assert!(!holds("from.column == 2", "from == space('A00')"));
    assert!(holds("from.terrain.cover == 2 and tagged(from, 'wood')", "from == space('C01')"));
    assert!(holds("from.terrain.cover == 0 and not tagged(from, 'wood')", "from == space('A00')"));
    assert!(holds("tagged(who, 'small') and tagged(weapon, 'ranged') and not tagged(weapon, 'small')", "true"));
    assert!(holds("tagged(who.kind, 'small') and tagged(weapon.kind, 'ranged')", "true"));
}

#[test]
fn a_named_loop_variable_lets_an_inner_loop_read_the_outer_one() {
    // Spaces with a forest neighbour (four neighbours each on a square grid): C01 and C02 are
    // forest; B01, C00, C02 touch C01 and B02, C01 touch C02.
    let count = "count_of(cell in space, count_of(space, adjacent(space, cell) and space.terrain == 'forest') > 0)";
    assert!(holds(&format!("{count} == 5"), "true"), "{count}");
    assert!(!holds(&format!("{count} == 4"), "true"));
    // The same name twice is refused: the outer variable would be hidden.
    let error = load_example(Place::Anywhere, "count_of(from in space, true) > 0").unwrap_err();
    assert!(error.contains("`from` is already a name here"), "{error}");
}

#[test]
fn a_for_each_block_can_name_its_variable() {
    let data = mod_with(Place::Effects, "bonus += 0").replace(
        "effect = [\"bonus += 0\"]",
        "effect = [{ for_each = \"space\", as = \"cell\", do = [{ for_each = \"space\", where = \"adjacent(space, cell) and space.terrain == 'forest'\", do = [\"bonus += 1\"] }] }]",
    );
    let rules = load_data(&data, HOOKS).expect("loads");
    // Forest neighbours, summed over every space: B01, C00 and C02 touch C01; B02 and C01
    // touch C02.
    assert_eq!(bonus_after_one_action(&rules), 5);
}

#[test]
fn a_hook_can_be_a_condition_where_lua_runs() {
    // In an effect's `if` (and triggers, rolls): a hook's number is a condition as it is.
    let data = mod_with(Place::Effects, "bonus += 0").replace(
        "effect = [\"bonus += 0\"]",
        "effect = [{ if = \"hook('bonus_damage', who)\", then = [\"bonus += 1\"] }, { if = \"hook('no_bonus')\", then = [\"bonus += 10\"] }]",
    );
    let hooks = format!("{HOOKS}function no_bonus() return false end\n");
    let rules = load_data(&data, &hooks).expect("loads");
    assert_eq!(bonus_after_one_action(&rules), 1, "true (2) counts, false does not");
}

#[test]
fn a_hook_where_lua_does_not_run_is_refused_with_the_reason() {
    // The legal actions are listed without running Lua: a hook in `when` would never hold.
    let error = load_example(Place::Anywhere, "hook('bonus_damage', who)").unwrap_err();
    assert!(error.contains("`hook` cannot be called here"), "{error}");
    assert!(error.contains("data.toml:63:"), "{error}");
}

#[test]
fn end_draw_ends_the_game_drawn_when_it_holds() {
    let data = mod_with(Place::Anywhere, "true")
        .replace("[end]\nwin = \"seat.number == 99\"", "[end]\nwin = \"seat.number == 99\"\ndraw = \"turn >= 3\"");
    let rules = load_data(&data, HOOKS).expect("loads");
    let (mut engine, mut state, _) = new_game(&rules, 1, 2);
    let mut turns_seen = 0;
    while state.outcome.is_none() && turns_seen < 20 {
        turns_seen = state.turn.number;
        engine.apply(&mut state, &meeple_engine::game::Action::pass(), &mut Events::discard()).expect("passes");
    }
    assert_eq!(state.turn.number, 3, "drawn as the third turn starts");
    assert!(matches!(state.outcome, Some(meeple_engine::game::Outcome::Draw { .. })), "{:?}", state.outcome);
}

#[test]
fn the_example_of_naming_a_formula_and_an_effect_compiles_and_runs() {
    let data = format!("{}\n{NAMING_EXAMPLE}", mod_with(Place::Anywhere, "true"));
    let rules = load_data(&data, HOOKS).unwrap_or_else(|problems| panic!("{problems}"));
    let ids = |list: Vec<&str>| list.join(", ");
    assert_eq!(ids(rules.formulas.iter().map(|f| f.id.as_str()).collect()), "reach, strike");
    assert_eq!(ids(rules.effects.iter().map(|e| e.id.as_str()).collect()), "knock_out");
    // Its action, offered in a phase of its own: the pawn on A00 shoots the one on C02, 4 steps
    // away, where the bow's range of 3 does not reach; one step away it would.
    let data = data.replace("actions = [\"try\"]", "actions = [\"shoot\"]");
    let rules = load_data(&data, HOOKS).unwrap_or_else(|problems| panic!("{problems}"));
    let (mut engine, state, _) = new_game(&rules, 1, 2);
    assert!(legal(&mut engine, &state).iter().all(|action| !matches!(action.kind, ActionKind::Rule(_))));
    let near = data.replace("space('C02')", "space('B00')");
    let rules = load_data(&near, HOOKS).unwrap_or_else(|problems| panic!("{problems}"));
    let (mut engine, state, _) = new_game(&rules, 1, 2);
    let shots: Vec<_> =
        legal(&mut engine, &state).into_iter().filter(|action| matches!(action.kind, ActionKind::Rule(_))).collect();
    assert_eq!(shots.len(), 1, "{shots:?}");
    // 1d6 hits 3.5 times on average, each for the 2 steps of range left.
    let figures = engine.preview(&state, &shots[0]).expect("the preview works out");
    assert_eq!(figures.iter().map(|f| (f.label.as_str(), f.value)).collect::<Vec<_>>(), [("Expected damage", 7.0)]);
}
