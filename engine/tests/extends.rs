//! A mod that `extends` another is that mod with its own data laid over (tables merge key by
//! key, `triggers` added to, other values replace) and its hooks loaded after; a missing base or a circle is a located
//! error with a "did you mean".

mod common;

use std::path::Path;

use common::{MINIMAL_DATA, manifest, write_mods};
use meeple_engine::loader::load_mod;

fn variant_manifest(id: &str, base: &str) -> String {
    format!("{}extends = \"{base}\"\n", manifest(id))
}

const BASE_HOOK: &str = "function bonus(n) return n + 1 end\n";

fn base() -> (&'static str, Vec<(&'static str, String)>) {
    let data = MINIMAL_DATA.replace("effect = [\"from.dice += 1\"]", "effect = [\"from.dice += hook('bonus', 1)\"]");
    ("base", vec![("mod.toml", manifest("base")), ("data.toml", data), ("hooks/bonus.lua", BASE_HOOK.to_string())])
}

fn load(root: &Path, id: &str) -> Result<std::sync::Arc<meeple_engine::rules::Ruleset>, Vec<String>> {
    load_mod(&root.join(id)).map(|l| l.ruleset).map_err(|p| p.iter().map(ToString::to_string).collect())
}

#[test]
fn a_variant_lays_its_values_over_the_base_and_replaces_its_hooks() {
    let root = write_mods(&[
        base(),
        (
            "variant",
            vec![
                ("mod.toml", variant_manifest("variant", "base")),
                ("patch.toml", "[space_counters.dice]\nmax = 12\n\n[actions.push]\nlabel = \"Shove\"\n".into()),
                ("hooks/bonus.lua", "function bonus(n) return n + 5 end\n".into()),
            ],
        ),
    ]);
    let base = load(&root, "base").unwrap();
    let variant = load(&root, "variant").unwrap();
    assert_eq!(variant.manifest.id, "variant");
    assert_eq!(base.space_counters[0].max, 8);
    assert_eq!(variant.space_counters[0].max, 12, "the variant's value replaces the base's");
    assert_eq!(variant.actions[0].label, "Shove");
    assert_eq!(variant.actions[0].params.len(), 1, "keys the variant leaves out stay the base's");
    assert_eq!(variant.hooks.len(), 2, "the base's hooks, then the variant's");
    assert!(variant.hooks[0].display_path.contains("base"));
    // Playing it: the variant's `bonus` replaced the base's (push adds 1 + 5).
    let mut engine = meeple_engine::game::Engine::new(variant.clone()).unwrap();
    let setup = meeple_engine::game::GameSetup::new(&variant, 1, 2, "human");
    let mut events = meeple_engine::game::Events::discard();
    let mut state = engine.new_game(&setup, &mut events).unwrap();
    let a = state.board.find("a").unwrap();
    state.set_owner(a, state.turn.seat);
    let before = state.counter(a, 0);
    let push = meeple_engine::game::Action::rule(0, &[i64::from(a)]);
    engine.apply(&mut state, &push, &mut events).unwrap();
    assert_eq!(state.counter(a, 0) - before, 6);
}

#[test]
fn a_missing_base_is_named_with_a_suggestion() {
    let root = write_mods(&[base(), ("variant", vec![("mod.toml", variant_manifest("variant", "bsae"))])]);
    let problems = load(&root, "variant").unwrap_err();
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(problems[0].contains("there is no mod `bsae`"), "{}", problems[0]);
    assert!(problems[0].contains("did you mean `base`"), "{}", problems[0]);
    assert!(problems[0].contains("mod.toml"), "{}", problems[0]);
}

#[test]
fn extending_in_a_circle_is_refused() {
    let root = write_mods(&[
        ("one", vec![("mod.toml", variant_manifest("one", "two")), ("data.toml", MINIMAL_DATA.to_string())]),
        ("two", vec![("mod.toml", variant_manifest("two", "one")), ("data.toml", MINIMAL_DATA.to_string())]),
    ]);
    let problems = load(&root, "one").unwrap_err();
    assert!(problems.iter().any(|p| p.contains("circle")), "{problems:#?}");
}

/// A variant's `[[triggers]]` are added to the base's, not laid over them: a variant that adds
/// a trigger keeps every rule the base's triggers make (taking a flag, say), in order, base's
/// first.
#[test]
fn a_variants_triggers_are_added_to_the_bases() {
    let with_trigger =
        |data: &str, text: &str| format!("{data}\n[[triggers]]\non = \"turn_end\"\nwhen = \"{text}\"\neffect = []\n");
    let (id, mut files) = base();
    files[1].1 = with_trigger(&files[1].1, "turn > 0");
    let root = write_mods(&[
        (id, files),
        (
            "variant",
            vec![
                ("mod.toml", variant_manifest("variant", "base")),
                ("more.toml", "[[triggers]]\non = \"turn_start\"\nwhen = \"turn > 1\"\neffect = []\n".into()),
            ],
        ),
    ]);
    let base = load(&root, "base").unwrap();
    let variant = load(&root, "variant").unwrap();
    let whens = |rules: &meeple_engine::rules::Ruleset| -> Vec<String> {
        rules.data.triggers.iter().map(|t| t.when.clone().unwrap_or_default()).collect()
    };
    assert_eq!(whens(&base), ["turn > 0"]);
    assert_eq!(whens(&variant), ["turn > 0", "turn > 1"]);
    assert_eq!(variant.triggers.len(), 2);
}

/// Two phases for the base: `buy` offers one action, `play` two.
const PHASED: &str = r#"
[board]
kind = "graph"
terrain = "land"
spaces = [{ id = "a" }, { id = "b" }]
links = [["a", "b"]]

[terrain.land]

[space_counters.dice]
max = 8

[turn]
phases = [
  { id = "buy", label = "Buying", actions = ["stock"] },
  { id = "play", label = "Playing", actions = ["push", "pull"] },
]

[actions.stock]
label = "Stock"
effect = []

[actions.push]
label = "Push"
params = [{ name = "from", kind = "space", owned_by = "me" }]
effect = ["from.dice += 1"]

[actions.pull]
label = "Pull"
params = [{ name = "from", kind = "space", owned_by = "me" }]
effect = ["from.dice -= 1"]

[end]
win = "seat.number == 99"
"#;

/// A variant adds to a list of the base's with `"...base"`, the base's list spliced in its place; a
/// table with the `id` of one below is laid over that one, key by key (its own lists may splice
/// too), and a new one is added where it is written.
#[test]
fn a_variant_adds_to_a_list_of_the_base_with_three_dots() {
    let variant_data = r#"
[actions.shove]
label = "Shove"
effect = []

[actions.count]
label = "Count"
effect = []

[turn]
phases = [
  "...base",
  { id = "play", actions = ["...base", "shove"] },
  { id = "tally", label = "Tallying", actions = ["count"] },
]
"#;
    let root = write_mods(&[
        ("base", vec![("mod.toml", manifest("base")), ("data.toml", PHASED.to_string())]),
        ("variant", vec![("mod.toml", variant_manifest("variant", "base")), ("more.toml", variant_data.to_string())]),
    ]);
    let variant = load(&root, "variant").unwrap_or_else(|p| panic!("{}", p.join("\n")));
    let phases: Vec<(String, String, Vec<String>)> = variant
        .phases
        .iter()
        .map(|p| {
            let actions = p.actions.iter().map(|&a| variant.actions[a as usize].id.clone()).collect();
            (p.id.clone(), p.label.clone(), actions)
        })
        .collect();
    let expected = [
        ("buy", "Buying", vec!["stock"]),
        ("play", "Playing", vec!["push", "pull", "shove"]),
        ("tally", "Tallying", vec!["count"]),
    ]
    .map(|(id, label, actions)| (id.to_string(), label.to_string(), actions.iter().map(|a| a.to_string()).collect()));
    assert_eq!(phases, expected, "the label the variant did not write is the base's");
}

/// `"...base"` where nothing lies below, or twice in one list, is refused where it is written.
#[test]
fn three_dots_with_no_list_below_are_refused_where_written() {
    let problems = |data: &str, extends: bool| -> Vec<String> {
        let mods = if extends {
            write_mods(&[
                ("base", vec![("mod.toml", manifest("base")), ("data.toml", PHASED.to_string())]),
                ("variant", vec![("mod.toml", variant_manifest("variant", "base")), ("more.toml", data.to_string())]),
            ])
        } else {
            write_mods(&[("variant", vec![("mod.toml", manifest("variant")), ("data.toml", data.to_string())])])
        };
        load(&mods, "variant").err().unwrap_or_default()
    };
    let new_list = "[actions.count]\nlabel = \"Count\"\neffect = [\"...base\"]\n";
    let found = problems(new_list, true);
    assert!(found.iter().any(|p| p.contains("more.toml:3:11") && p.contains("there is none here")), "{found:?}");
    let twice = "[turn]\nphases = [\"...base\", \"...base\"]\n";
    let found = problems(twice, true);
    assert!(found.iter().any(|p| p.contains("more.toml:2:22") && p.contains("it is here twice")), "{found:?}");
    let in_a_base = PHASED.replace("actions = [\"stock\"]", "actions = [\"...base\", \"stock\"]");
    let found = problems(&in_a_base, false);
    assert!(
        found.iter().any(|p| p.contains("data.toml:") && p.contains("in a mod that `extends` another")),
        "{found:?}"
    );
}
