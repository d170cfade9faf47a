//! Tests of the whole source layer through its public API, with exact locations and messages.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;

use super::*;
use crate::diag::Diagnostic;

const COLLECTIONS: &[&str] = &["pieces", "items", "actions"];

fn load(files: &[(&str, &str)]) -> LoadedData {
    let files = files.iter().map(|(path, text)| (path.to_string(), text.as_bytes().to_vec())).collect();
    load_files(files, COLLECTIONS)
}

/// `file:line:col [table] key: message (suggestion)` on one line, to compare whole diagnostics.
fn summary(diagnostic: &Diagnostic) -> String {
    let mut text = diagnostic.location();
    if let Some(table) = &diagnostic.table {
        text.push_str(&format!(" [{table}]"));
    }
    if let Some(key) = &diagnostic.key {
        text.push_str(&format!(" {key}"));
    }
    text.push_str(&format!(": {}", diagnostic.message));
    if let Some(suggestion) = &diagnostic.suggestion {
        text.push_str(&format!(" (did you mean `{suggestion}`?)"));
    }
    text
}

fn summaries(diagnostics: &[Diagnostic]) -> Vec<String> {
    diagnostics.iter().map(summary).collect()
}

fn key(name: &str) -> PathSegment {
    PathSegment::Key(name.to_string())
}

// ---------------------------------------------------------------------------------------------
// Parsing and locations

#[test]
fn syntax_error_is_located_on_one_line() {
    let data = load(&[("mods/x/rules.toml", "name = \"x\"\nplayers = \n")]);
    assert_eq!(summaries(&data.diagnostics), ["mods/x/rules.toml:2:11: invalid TOML: a value is missing after `=`"]);
    assert_eq!(data.diagnostics[0].source_line.as_deref(), Some("players = "));
}

#[test]
fn an_unclosed_bracket_is_one_error_at_the_bracket() {
    // Without the bracket check every later line would give an error of its own.
    let text = "links = [[\"a\", \"b\"]\n\n[terrain.land]\ncolor = \"#ffffff\" # ]\n\n[end]\nwin = \"x ]\"\n";
    let data = load(&[("a.toml", text)]);
    assert_eq!(summaries(&data.diagnostics), ["a.toml:1:9: invalid TOML: this `[` has no matching `]`"]);
    let data = load(&[("b.toml", "ok = 1\nparams = [{ name = \"from\" ]\n")]);
    assert_eq!(summaries(&data.diagnostics), ["b.toml:2:11: invalid TOML: this `{` has no matching `}`"]);
}

#[test]
fn errors_in_several_files_are_all_reported_in_one_call() {
    let files = vec![
        ("b.toml".to_string(), b"[pieces.a]\nstrength = [1,,2]\n".to_vec()),
        ("a.toml".to_string(), b"ok = true\n".to_vec()),
        ("latin1.toml".to_string(), b"x = \"caf\xE9\"\n".to_vec()),
        ("d.toml".to_string(), b"x = 1\nx = 2\n".to_vec()),
    ];
    let data = load_files(files, COLLECTIONS);
    assert_eq!(
        summaries(&data.diagnostics),
        [
            "b.toml:2:15: invalid TOML: extra comma in array, expected value",
            "d.toml:2:1: invalid TOML: duplicate key",
            "latin1.toml:1:9: the file is not valid UTF-8 text (byte 0xE9); save it as UTF-8",
        ]
    );
    // The good file still made it into the tree.
    assert_eq!(data.root.get("ok").map(|node| &node.value), Some(&RawValue::Bool(true)));
}

#[test]
fn every_key_and_value_has_its_span() {
    let text = "[actions.attack]\nparams = [ 1, { name = \"dice\", faces = [4, 6] } ]\n";
    let data = load(&[("rules.toml", text)]);
    assert!(data.diagnostics.is_empty(), "{:?}", data.diagnostics);
    let path = [key("actions"), key("attack"), key("params"), PathSegment::Index(1), key("name")];
    let name = data.root.find(&path).expect("the name is in the tree");
    assert_eq!(name.value, RawValue::String("dice".into()));
    assert_eq!(&text[name.loc.start..name.loc.end], "\"dice\"");
    let key_loc = name.key_loc.expect("table entries have key spans");
    assert_eq!(&text[key_loc.start..key_loc.end], "name");
    assert_eq!(data.sources.line_col(name.loc), (2, 24));
    assert_eq!(data.sources.line_col(key_loc), (2, 17));
    let inline = data.root.find(&path[..4]).expect("the inline table is in the tree");
    assert_eq!(&text[inline.loc.start..inline.loc.end], "{ name = \"dice\", faces = [4, 6] }");
    assert_eq!(inline.key_loc, None);
    let six = data.root.find(&[key("actions"), key("attack"), key("params"), 1.into(), key("faces"), 1.into()]);
    assert_eq!(six.map(|node| (&node.value, data.sources.line_col(node.loc))), Some((&RawValue::Integer(6), (2, 44))));
    let header = data.root.find(&path[..2]).expect("the table is in the tree");
    assert_eq!(&text[header.loc.start..header.loc.end], "[actions.attack]");
}

#[test]
fn scalars_are_decoded_and_keys_keep_their_order() {
    let text = "z = 1_000\nh = 0xff\nn = -5\nf = 1_0.5\ni = -inf\nd = 1979-05-27\na = 2\n";
    let node = {
        let mut sources = Sources::new();
        let file = sources.add("s.toml", text);
        raw::parse(&sources, file).expect("valid TOML")
    };
    let table = node.as_table().expect("the root is a table");
    assert_eq!(table.keys().collect::<Vec<_>>(), ["z", "h", "n", "f", "i", "d", "a"]);
    assert_eq!(node.get("z").map(|n| &n.value), Some(&RawValue::Integer(1000)));
    assert_eq!(node.get("h").map(|n| &n.value), Some(&RawValue::Integer(255)));
    assert_eq!(node.get("n").map(|n| &n.value), Some(&RawValue::Integer(-5)));
    assert_eq!(node.get("f").map(|n| &n.value), Some(&RawValue::Float(10.5)));
    assert_eq!(node.get("i").map(|n| &n.value), Some(&RawValue::Float(f64::NEG_INFINITY)));
    assert_eq!(node.get("d").map(|n| &n.value), Some(&RawValue::Datetime("1979-05-27".into())));
    assert_eq!(
        node.to_toml_value().get("d").and_then(toml::Value::as_datetime).map(|d| d.to_string()),
        Some("1979-05-27".into())
    );
    assert_eq!(node.to_json_value()["h"], serde_json::json!(255));
}

#[test]
fn huge_integers_are_a_located_error() {
    let data = load(&[("n.toml", "a = 1\nbig = 99999999999999999999\n")]);
    assert_eq!(summaries(&data.diagnostics), ["n.toml:2:7: the integer does not fit in 64 bits"]);
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let arrays = format!("x = {}{}\n", "[".repeat(10_000), "]".repeat(10_000));
    let tables = format!("y = {}1{}\n", "{a = ".repeat(10_000), "}".repeat(10_000));
    let dotted = format!("z{} = 1\n", ".a".repeat(10_000));
    let unclosed = format!("ok = 1\nw = {}\n", "[".repeat(10_000));
    let data = load(&[
        ("arrays.toml", &arrays),
        ("tables.toml", &tables),
        ("dotted.toml", &dotted),
        ("unclosed.toml", &unclosed),
    ]);
    let first_per_file: Vec<String> = ["arrays.toml", "dotted.toml", "tables.toml", "unclosed.toml"]
        .iter()
        .filter_map(|file| data.diagnostics.iter().find(|d| d.file.as_deref() == Some(file)).map(summary))
        .collect();
    assert_eq!(
        first_per_file,
        [
            "arrays.toml:1:85: the value is nested too deeply",
            "dotted.toml:1:1: the value is nested too deeply",
            "tables.toml:1:405: the value is nested too deeply",
            "unclosed.toml:2:5: invalid TOML: this `[` has no matching `]`",
        ]
    );
    // Recovery cascades are capped, with a note saying how many were left out.
    let unclosed_count = data.diagnostics.iter().filter(|d| d.file.as_deref() == Some("unclosed.toml")).count();
    assert!(unclosed_count <= 21, "{unclosed_count}");
}

#[test]
fn validation_guards_depth_of_hand_built_trees() {
    let mut sources = Sources::new();
    let file = sources.add("deep.toml", "x = 1\n");
    let loc = Location::new(file, 0, 1);
    let mut node = RawNode::new(RawValue::Integer(1), loc);
    for _ in 0..10_000 {
        node = RawNode::new(RawValue::Array(vec![node]), loc);
    }
    let schema = serde_json::json!({ "$defs": { "A": { "type": "array", "items": { "$ref": "#/$defs/A" } } }, "$ref": "#/$defs/A" });
    let problems = validate(&node, &schema, &sources);
    assert_eq!(
        summaries(&problems).first().map(String::as_str),
        Some("deep.toml:1:1: the value is nested too deeply (more than 128 levels)")
    );
    let _ = node.to_toml_value();
    // Dropping a 10,000-deep tree recursively is itself deep; unwind it by hand.
    let mut current = Some(node);
    while let Some(RawNode { value: RawValue::Array(mut items), .. }) = current {
        current = items.pop();
    }
}

#[test]
fn self_referring_schemas_do_not_loop() {
    let mut sources = Sources::new();
    let file = sources.add("a.toml", "x = 1\n");
    let node = raw::parse(&sources, file).expect("valid TOML");
    let schema = serde_json::json!({ "$ref": "#" });
    let problems = validate(&node, &schema, &sources);
    assert_eq!(summaries(&problems), ["a.toml:1:1: internal error: the schema refers to itself without end"]);
    let branching =
        serde_json::json!({ "allOf": [{ "$ref": "#" }, { "$ref": "#" }], "anyOf": [{ "$ref": "#" }, { "$ref": "#" }] });
    let started = std::time::Instant::now();
    let problems = validate(&node, &branching, &sources);
    assert!(started.elapsed().as_secs() < 60);
    assert!(
        summaries(&problems).contains(&"a.toml:1:1: internal error: the schema is too complex to check".to_string())
    );
    let nonsense =
        serde_json::json!({ "type": 5, "properties": [], "required": "x", "oneOf": {}, "$ref": "#/nowhere" });
    let problems = validate(&node, &nonsense, &sources);
    assert_eq!(
        summaries(&problems),
        ["a.toml:1:1: internal error: the schema reference `#/nowhere` cannot be resolved"]
    );
}

// ---------------------------------------------------------------------------------------------
// Merging

#[test]
fn duplicate_entries_across_files_name_both_places() {
    let data = load(&[
        ("units/foot.toml", "[pieces.infantry]\nstrength = 1\n"),
        ("units/more.toml", "# again\n[pieces.cavalry]\nstrength = 2\n\n[pieces.infantry]\nstrength = 3\n"),
        ("turn.toml", "[turn]\norder = \"clockwise\"\n"),
        ("extra.toml", "turn = { order = \"random\" }\n"),
    ]);
    assert_eq!(
        summaries(&data.diagnostics),
        [
            "extra.toml:1:1 turn: `turn` is defined in more than one file; first defined at turn.toml:1:2",
            "units/more.toml:5:9 [pieces] infantry: `pieces.infantry` is defined twice; first defined at units/foot.toml:1:9",
        ]
    );
    let pieces = data.root.get("pieces").and_then(RawNode::as_table).expect("pieces merged");
    assert_eq!(pieces.keys().collect::<Vec<_>>(), ["infantry", "cavalry"]);
    let strength = data.root.find(&[key("pieces"), key("infantry"), key("strength")]).map(|n| &n.value);
    assert_eq!(strength, Some(&RawValue::Integer(1)), "the first definition wins");
}

#[test]
fn a_collection_that_is_not_a_table_is_reported() {
    let data = load(&[("a.toml", "pieces = [1, 2]\n")]);
    assert_eq!(
        summaries(&data.diagnostics),
        ["a.toml:1:10 pieces: `pieces` must be a table of definitions keyed by id, found an array"]
    );
}

// ---------------------------------------------------------------------------------------------
// Inheritance

const TEMPLATES: &str = "\
[pieces.base]
abstract = true
strength = 1
tags = [\"land\"]
stats = { hp = 10, armour = { front = 2, back = 1 } }

[pieces.soldier]
inherits = \"base\"
tags = [\"land\", \"foot\"]
stats = { armour = { back = 3 } }
";

const UNITS: &str = "\
[pieces.veteran]
inherits = \"soldier\"
strength = 3
stats.hp = 15
";

#[test]
fn three_level_chain_merges_tables_and_replaces_the_rest() {
    let data = load(&[("templates.toml", TEMPLATES), ("units.toml", UNITS)]);
    assert!(data.diagnostics.is_empty(), "{:?}", summaries(&data.diagnostics));
    let pieces = data.root.get("pieces").expect("pieces");
    assert_eq!(pieces.as_table().map(|t| t.keys().collect::<Vec<_>>()), Some(vec!["soldier", "veteran"]));
    let veteran = pieces.get("veteran").expect("veteran");
    let expected: toml::Value = toml::from_str(
        "strength = 3\ntags = [\"land\", \"foot\"]\nstats = { hp = 15, armour = { back = 3, front = 2 } }\n",
    )
    .expect("valid TOML");
    assert_eq!(veteran.to_toml_value(), expected);
    // The inherited array keeps its location in the template's file.
    let tags = veteran.get("tags").expect("tags");
    assert_eq!(data.sources.describe(tags.loc), "templates.toml:9:8");
    let front = veteran.find(&[key("stats"), key("armour"), key("front")]).expect("front");
    assert_eq!(data.sources.describe(front.loc), "templates.toml:5:39");
    let soldier = pieces.get("soldier").expect("soldier");
    assert!(soldier.get("inherits").is_none() && soldier.get("abstract").is_none());
    assert_eq!(soldier.get("strength").map(|n| &n.value), Some(&RawValue::Integer(1)));
}

#[test]
fn inherited_keys_are_reported_with_their_template() {
    let data = load(&[("templates.toml", TEMPLATES), ("units.toml", UNITS)]);
    let report = |id: &str| -> Vec<String> {
        data.inheritance
            .inherited("pieces", id)
            .iter()
            .map(|key| format!("{} <- {}", key.path.join("."), key.template))
            .collect()
    };
    assert_eq!(report("soldier"), ["strength <- base", "stats.hp <- base", "stats.armour.front <- base"]);
    assert_eq!(report("veteran"), ["tags <- soldier", "stats.armour <- soldier", "stats.armour.front <- base"]);
    assert_eq!(data.inheritance.origin("pieces", "veteran", &["stats", "armour", "back"]), Some("soldier"));
    assert_eq!(data.inheritance.origin("pieces", "veteran", &["stats", "armour", "front"]), Some("base"));
    assert_eq!(data.inheritance.origin("pieces", "veteran", &["stats", "hp"]), None);
    assert!(data.inheritance.inherited("pieces", "base").is_empty());
}

#[test]
fn later_parents_override_earlier_ones() {
    let text = "\
[items.heavy]
abstract = true
weight = 10
price = 5
[items.shiny]
abstract = true
price = 50
glow = true
[items.crown]
inherits = [\"heavy\", \"shiny\"]
name = \"Crown\"
[items.anvil]
inherits = [\"shiny\", \"heavy\"]
glow = false
";
    let data = load(&[("items.toml", text)]);
    assert!(data.diagnostics.is_empty(), "{:?}", summaries(&data.diagnostics));
    let items = data.root.get("items").expect("items");
    assert_eq!(items.as_table().map(|t| t.keys().collect::<Vec<_>>()), Some(vec!["crown", "anvil"]));
    let crown: toml::Value = toml::from_str("name = \"Crown\"\nweight = 10\nprice = 50\nglow = true\n").expect("TOML");
    assert_eq!(items.get("crown").map(RawNode::to_toml_value), Some(crown));
    let anvil: toml::Value = toml::from_str("glow = false\nprice = 5\nweight = 10\n").expect("TOML");
    assert_eq!(items.get("anvil").map(RawNode::to_toml_value), Some(anvil));
    let origin = |id, key| data.inheritance.origin("items", id, &[key]).map(str::to_string);
    assert_eq!(origin("crown", "price"), Some("shiny".into()));
    assert_eq!(origin("crown", "weight"), Some("heavy".into()));
    assert_eq!(origin("anvil", "price"), Some("heavy".into()));
    assert_eq!(origin("anvil", "glow"), None);
}

#[test]
fn unknown_parents_and_cycles_are_located_at_inherits() {
    let text = "\
[pieces.soldier]
strength = 1
[pieces.scout]
inherits = \"soldeir\"
[pieces.knight]
inherits = [\"soldier\", \"crown\"]
[pieces.a]
inherits = \"b\"
[pieces.b]
inherits = \"c\"
[pieces.c]
inherits = \"a\"
[pieces.d]
inherits = 5
abstract = \"yes\"

[items.crown]
price = 1
";
    let data = load(&[("p.toml", text)]);
    assert_eq!(
        summaries(&data.diagnostics),
        [
            "p.toml:4:12 [pieces.scout] inherits: unknown template `soldeir` in `pieces` (did you mean `soldier`?)",
            "p.toml:6:24 [pieces.knight] inherits: unknown template `crown` in `pieces`; `crown` is defined in `items`, and entries can only inherit from their own collection",
            "p.toml:12:12 [pieces.c] inherits: inheritance cycle: a → b → c → a",
            "p.toml:14:12 [pieces.d] inherits: `inherits` must be a template id or an array of template ids, found an integer",
            "p.toml:15:12 [pieces.d] abstract: `abstract` must be true or false, found a string",
        ]
    );
    // The rest of each entry still resolves, so later checks see as much as possible.
    let knight = data.root.find(&[key("pieces"), key("knight"), key("strength")]).map(|n| &n.value);
    assert_eq!(knight, Some(&RawValue::Integer(1)));
    let pieces = data.root.get("pieces").and_then(RawNode::as_table).expect("pieces");
    assert_eq!(pieces.keys().collect::<Vec<_>>(), ["soldier", "scout", "knight", "a", "b", "c", "d"]);
}

#[test]
fn an_entry_inheriting_itself_is_a_cycle() {
    let data = load(&[("p.toml", "[pieces.a]\ninherits = [\"a\"]\n")]);
    assert_eq!(summaries(&data.diagnostics), ["p.toml:2:13 [pieces.a] inherits: inheritance cycle: a → a"]);
}

// ---------------------------------------------------------------------------------------------
// Validation

#[derive(Debug, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
struct Rules {
    name: String,
    players: u8,
    #[serde(default)]
    max_turns: Option<u32>,
    layout: Layout,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default)]
    pieces: BTreeMap<String, Piece>,
    #[serde(default)]
    actions: BTreeMap<String, Action>,
}

#[derive(Debug, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
struct Piece {
    label: String,
    strength: u8,
    #[serde(default)]
    cost: Option<Cost>,
    #[serde(default)]
    speed: Option<f64>,
}

#[derive(Debug, Deserialize, JsonSchema, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Layout {
    Square,
    Offset,
    Territories,
}

#[derive(Debug, Deserialize, JsonSchema, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    Move {
        range: u8,
    },
    Attack {
        condition: String,
        #[serde(default)]
        params: Vec<Param>,
    },
    Pass,
}

#[derive(Debug, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
struct Param {
    name: String,
    value: i32,
}

#[derive(Debug, Deserialize, JsonSchema, PartialEq)]
#[serde(untagged)]
enum Cost {
    Named(String),
    Detailed { gold: u32 },
}

const GOOD_RULES: &str = "\
name = \"Example Game\"
players = 4
layout = \"territories\"
tags = [\"classic\"]

[pieces.army]
label = \"Army\"
strength = 3
speed = 2
cost = \"cheap\"

[pieces.fort]
label = \"Fort\"
strength = 8
cost = { gold = 10 }

[actions.attack]
kind = \"attack\"
condition = \"adjacent\"
params = [{ name = \"dice\", value = 6 }]

[actions.wait]
kind = \"pass\"
";

fn rules_schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(Rules)).expect("schemas serialize")
}

#[test]
fn a_correct_document_validates_and_deserializes() {
    let data = load(&[("rules.toml", GOOD_RULES)]);
    assert!(data.diagnostics.is_empty());
    assert!(data.validate(&rules_schema()).is_empty());
    let rules: Rules = data.decode().expect("valid rules");
    assert_eq!(rules.players, 4);
    assert_eq!(rules.layout, Layout::Territories);
    assert_eq!(rules.pieces["army"].speed, Some(2.0));
    assert_eq!(rules.pieces["army"].cost, Some(Cost::Named("cheap".into())));
    assert_eq!(rules.pieces["fort"].cost, Some(Cost::Detailed { gold: 10 }));
    assert_eq!(
        rules.actions["attack"],
        Action::Attack { condition: "adjacent".into(), params: vec![Param { name: "dice".into(), value: 6 }] }
    );
    assert_eq!(rules.actions["wait"], Action::Pass);
}

#[test]
fn every_mistake_in_a_document_is_reported_together() {
    let text = "\
name = \"Example Game\"
players = 300
layout = \"sqaure\"
tag = [\"classic\"]
max_turns = -1

[pieces.army]
label = \"Army\"
strength = \"3\"
cost = 5

[actions.attack]
kind = \"atack\"

[actions.hop]
kind = \"move\"

[actions.strike]
kind = \"attack\"
conditon = \"adjacent\"
params = [{ name = \"dice\", value = 2.5 }, { name = \"x\", value = 1, extra = true }]
";
    let data = load(&[("rules.toml", text)]);
    assert!(data.diagnostics.is_empty());
    let problems = data.validate(&rules_schema());
    assert_eq!(
        summaries(&problems),
        [
            "rules.toml:2:11 players: 300 is above the maximum 255",
            "rules.toml:3:10 layout: unknown value `sqaure`; expected one of: square, offset, territories (did you mean `square`?)",
            "rules.toml:4:1 tag: unknown key `tag` (did you mean `tags`?)",
            "rules.toml:5:13 max_turns: -1 is below the minimum 0",
            "rules.toml:9:12 [pieces.army] strength: expected an integer, found a string",
            "rules.toml:10:8 [pieces.army] cost: expected one of: string, table; found an integer",
            "rules.toml:13:8 [actions.attack] kind: unknown value `atack`; expected one of: move, attack, pass (did you mean `attack`?)",
            "rules.toml:15:1 [actions.hop] range: missing required key `range`",
            "rules.toml:18:1 [actions.strike] condition: missing required key `condition`",
            "rules.toml:20:1 [actions.strike] conditon: unknown key `conditon` (did you mean `condition`?)",
            "rules.toml:21:36 [actions.strike.params[0]] value: expected an integer, found a float",
            "rules.toml:21:68 [actions.strike.params[1]] extra: unknown key `extra`; allowed keys: name, value",
        ]
    );
    let first = problems[0].to_string();
    assert_eq!(
        first,
        "rules.toml:2:11: error: key `players`: 300 is above the maximum 255\n 2 | players = 300\n   |           ^"
    );
    assert!(data.decode::<Rules>().is_err());
}

#[test]
fn five_mistakes_give_five_diagnostics() {
    let text = "\
name = 7
players = 2
layout = \"hex\"
colour = \"red\"

[pieces.army]
strength = 256
";
    let data = load(&[("r.toml", text)]);
    let problems = data.decode::<Rules>().expect_err("five mistakes");
    assert_eq!(
        summaries(&problems),
        [
            "r.toml:1:8 name: expected a string, found an integer",
            "r.toml:3:10 layout: unknown value `hex`; expected one of: square, offset, territories",
            "r.toml:4:1 colour: unknown key `colour`; allowed keys: actions, layout, max_turns, name, pieces, players, tags",
            "r.toml:6:1 [pieces.army] label: missing required key `label`",
            "r.toml:7:12 [pieces.army] strength: 256 is above the maximum 255",
        ]
    );
}

#[test]
fn tagged_enum_tag_problems() {
    let text = "\
name = \"x\"
players = 2
layout = \"square\"
[actions.a]
range = 2
[actions.b]
kind = 3
[actions.c]
kind = \"move\"
range = 2
power = 1
";
    let data = load(&[("t.toml", text)]);
    assert_eq!(
        summaries(&data.validate(&rules_schema())),
        [
            "t.toml:4:1 [actions.a] kind: missing required key `kind`; expected one of: move, attack, pass",
            "t.toml:7:8 [actions.b] kind: expected a string, found an integer",
            "t.toml:11:1 [actions.c] power: unknown key `power`; allowed keys: kind, range",
        ]
    );
}

#[test]
fn untagged_and_unit_enums_pick_the_intended_branch() {
    let text = "\
name = \"x\"
players = 2
layout = \"square\"
[pieces.a]
label = \"A\"
strength = 1
cost = { gold = -3 }
[pieces.b]
label = \"B\"
strength = 1
cost = { silver = 3 }
";
    let data = load(&[("u.toml", text)]);
    assert_eq!(
        summaries(&data.validate(&rules_schema())),
        [
            "u.toml:7:17 [pieces.a.cost] gold: -3 is below the minimum 0",
            "u.toml:11:8 [pieces.b.cost] gold: missing required key `gold`",
        ]
    );
}

/// A unit enum whose variants have doc comments: schemars emits `oneOf` of `const`s.
#[derive(Debug, Deserialize, JsonSchema, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Side {
    /// The side that moves first.
    Attacker,
    /// The other side.
    Defender,
}

#[derive(Debug, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
struct Sides {
    first: Side,
    pair: (u8, String),
    #[serde(default)]
    limits: BTreeMap<String, u16>,
    ratio: f32,
}

#[test]
fn documented_unit_enums_tuples_maps_and_floats() {
    let schema = serde_json::to_value(schemars::schema_for!(Sides)).expect("schema");
    let bad = load(&[(
        "s.toml",
        "first = \"atacker\"\npair = [1, \"a\", 3]\nlimits = { a = 70000, b = \"x\" }\nratio = \"1\"\n",
    )]);
    assert_eq!(
        summaries(&bad.validate(&schema)),
        [
            "s.toml:1:9 first: unknown value `atacker`; expected one of: attacker, defender (did you mean `attacker`?)",
            "s.toml:2:8 pair: expected at most 2 elements, found 3",
            "s.toml:3:16 [limits] a: 70000 is above the maximum 65535",
            "s.toml:3:27 [limits] b: expected an integer, found a string",
            "s.toml:4:9 ratio: expected a number, found a string",
        ]
    );
    let good = load(&[("s.toml", "first = \"defender\"\npair = [1, \"a\"]\nratio = 1\n")]);
    assert!(good.validate(&schema).is_empty());
    let sides: Sides = good.decode().expect("valid");
    assert_eq!((sides.first, sides.pair, sides.ratio), (Side::Defender, (1, "a".to_string()), 1.0));
}

#[test]
fn serde_errors_the_schema_cannot_express_are_still_located() {
    // The schema says "any string"; serde's own check of the value is stricter.
    #[derive(Debug, Deserialize, JsonSchema)]
    struct Strict {
        #[allow(dead_code)]
        inner: Inner,
    }
    #[derive(Debug, JsonSchema)]
    struct Inner {
        #[allow(dead_code)]
        name: String,
    }
    impl<'de> Deserialize<'de> for Inner {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            #[derive(Deserialize)]
            struct Plain {
                name: String,
            }
            let plain = Plain::deserialize(deserializer)?;
            if plain.name.contains(' ') {
                return Err(serde::de::Error::custom("names may not contain spaces"));
            }
            Ok(Inner { name: plain.name })
        }
    }
    let data = load(&[("s.toml", "[inner]\nname = \"a b\"\n")]);
    let problems = data.decode::<Strict>().expect_err("serde refuses");
    assert_eq!(summaries(&problems), ["s.toml:1:1 inner: names may not contain spaces"]);
}

#[test]
fn validation_reports_locations_inside_inherited_values() {
    let templates = "[pieces.base]\nabstract = true\nlabel = \"Base\"\nstrength = 999\n";
    let units = "name = \"x\"\nplayers = 2\nlayout = \"square\"\n[pieces.army]\ninherits = \"base\"\n";
    let data = load(&[("templates.toml", templates), ("rules.toml", units)]);
    assert!(data.diagnostics.is_empty());
    assert_eq!(
        summaries(&data.validate(&rules_schema())),
        ["templates.toml:4:12 [pieces.army] strength: 999 is above the maximum 255"]
    );
}

#[derive(Debug, Deserialize, JsonSchema, PartialEq)]
#[serde(untagged)]
enum Shape {
    Circle { radius: u8 },
    Rectangle { width: u8, height: u8 },
}

/// serde's default, externally tagged representation: `"A"` or `{ B = 3 }`.
#[derive(Debug, Deserialize, JsonSchema, PartialEq)]
enum Wrapped {
    A,
    B(u8),
    C { x: i8 },
}

#[derive(Debug, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
struct Shapes {
    shapes: Vec<Shape>,
    wrapped: Vec<Wrapped>,
}

#[test]
fn untagged_tables_pick_the_branch_that_knows_the_keys() {
    let schema = serde_json::to_value(schemars::schema_for!(Shapes)).expect("schema");
    let text = "\
shapes = [{ width = 2, height = \"x\" }, { radius = 300 }, { radius = 1 }]
wrapped = [\"A\", { B = 3 }, { C = { x = 200 } }, { c = { x = 1 } }, { B = 1, C = { x = 1 } }, \"D\"]
";
    let data = load(&[("w.toml", text)]);
    assert_eq!(
        summaries(&data.validate(&schema)),
        [
            "w.toml:1:33 [shapes[0]] height: expected an integer, found a string",
            "w.toml:1:51 [shapes[1]] radius: 300 is above the maximum 255",
            "w.toml:2:40 [wrapped[2].C] x: 200 is above the maximum 127",
            "w.toml:2:51 [wrapped[3]] c: unknown variant `c`; expected one of: B, C (did you mean `C`?)",
            "w.toml:2:68 wrapped[4]: expected a table with exactly one of the keys: B, C",
            "w.toml:2:94 wrapped[5]: unknown value `D`; expected `A` (did you mean `A`?)",
        ]
    );
    let good = load(&[("w.toml", "shapes = [{ width = 2, height = 3 }]\nwrapped = [\"A\", { C = { x = -1 } }]\n")]);
    let shapes: Shapes = good.decode().expect("valid");
    assert_eq!(shapes.shapes, [Shape::Rectangle { width: 2, height: 3 }]);
    assert_eq!(shapes.wrapped, [Wrapped::A, Wrapped::C { x: -1 }]);
}

#[test]
fn a_byte_order_mark_does_not_shift_columns() {
    let data = load(&[("bom.toml", "\u{FEFF}players = \"two\"\n")]);
    let schema = serde_json::json!({ "type": "object", "properties": { "players": { "type": "integer" } } });
    assert_eq!(summaries(&data.validate(&schema)), ["bom.toml:1:11 players: expected an integer, found a string"]);
}
