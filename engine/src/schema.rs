//! JSON Schemas for every file kind a modder or a tool writes, generated from the Rust types,
//! and the Lua API's annotations and reference, generated from `lua::api_doc` (`meeple schema`
//! writes them into `schemas/` and `docs/modding/`; tests fail when the checked-in copies are
//! stale).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::defs::{Manifest, ModData};
use crate::game::{ActionRecord, GameSetup};
use crate::save::SaveFile;
use serde_json::{Value, json};

/// A script of actions for `meeple run`.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionScript {
    /// The seed of the game; `--seed` on the command line wins.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// How many seats; the mod's default when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seats: Option<usize>,
    /// The actions, in order.
    pub actions: Vec<ActionRecord>,
}

/// Every file of `schemas/`: (file name, text ending in a newline): the JSON Schemas and the
/// Lua API's EmmyLua/LuaLS annotations (`meeple.lua`).
pub fn all() -> Vec<(&'static str, String)> {
    fn text<T: JsonSchema>() -> String {
        let schema = schemars::schema_for!(T);
        serde_json::to_string_pretty(&schema).unwrap_or_default() + "\n"
    }
    vec![
        ("mod.schema.json", text::<Manifest>()),
        ("data.schema.json", data_schema()),
        ("actions.schema.json", text::<ActionScript>()),
        ("save.schema.json", text::<SaveFile>()),
        ("setup.schema.json", text::<GameSetup>()),
        ("meeple.lua", crate::lua::api_doc::emmylua()),
    ]
}

/// Every generated page of the documentation: (path from the repository's root, Markdown text
/// ending in a newline).
pub fn docs() -> Vec<(&'static str, String)> {
    vec![
        ("docs/modding/lua-api.md", crate::lua::api_doc::markdown()),
        (crate::schema_doc::REFERENCE_PATH, crate::schema_doc::markdown()),
        (crate::rules::language::LANGUAGE_PATH, crate::rules::language::markdown()),
    ]
}

/// Definitions in collections may inherit from templates.
const TEMPLATE_DEFS: &[&str] =
    &["TerrainDef", "PieceKindDef", "ItemDef", "CardDef", "DeckDef", "ActionDef", "OptionDef"];

/// The schema editors check each data file against. It differs from the one the loader checks
/// the merged data against in two ways, both because an editor sees one file as written: every
/// collection entry accepts the template keys `inherits` and `abstract` (the loader resolves
/// them first), and nothing is required (a key may be in another file or in a template; the
/// loader checks the merged whole).
fn data_schema() -> String {
    serde_json::to_string_pretty(&file_data_schema()).unwrap_or_default() + "\n"
}

/// The schema of one data file as written (see [`data_schema`]): what editors check against
/// and build their forms from.
pub fn file_data_schema() -> Value {
    let mut schema = serde_json::to_value(schemars::schema_for!(ModData)).unwrap_or(Value::Null);
    if let Some(root) = schema.as_object_mut() {
        root.remove("required");
    }
    for name in TEMPLATE_DEFS {
        if let Some(properties) =
            schema.pointer_mut(&format!("/$defs/{name}/properties")).and_then(Value::as_object_mut)
        {
            properties.insert(
                "inherits".into(),
                json!({
                    "description": "Templates this entry inherits keys from (same collection); later ones override earlier ones, this entry overrides all.",
                    "anyOf": [{ "type": "string" }, { "type": "array", "items": { "type": "string" } }]
                }),
            );
            properties.insert(
                "abstract".into(),
                json!({
                    "description": "A template only: usable with `inherits`, not a definition of its own.",
                    "type": "boolean"
                }),
            );
        }
        // Required keys may come from a template, which the editor cannot see.
        if let Some(definition) = schema.pointer_mut(&format!("/$defs/{name}")).and_then(Value::as_object_mut) {
            definition.remove("required");
        }
    }
    // A board may be a template too (`boards.<id>` with `abstract`, or `inherits`): every shape
    // takes the template keys and needs none of its keys, and since a board that inherits its
    // `kind` fits several shapes, it is any of them rather than exactly one.
    if let Some(board) = schema.pointer_mut("/$defs/BoardSpec").and_then(Value::as_object_mut)
        && let Some(shapes) = board.remove("oneOf")
    {
        let mut shapes = shapes;
        for shape in shapes.as_array_mut().into_iter().flatten().filter_map(Value::as_object_mut) {
            shape.remove("required");
            if let Some(properties) = shape.get_mut("properties").and_then(Value::as_object_mut) {
                properties.insert("inherits".into(), json!({
                    "description": "Boards this one inherits keys from (of `boards`); later ones override earlier ones, this board overrides all.",
                    "anyOf": [{ "type": "string" }, { "type": "array", "items": { "type": "string" } }]
                }));
                properties.insert(
                    "abstract".into(),
                    json!({
                        "description": "A template only: usable with `inherits`, not a board of its own.",
                        "type": "boolean"
                    }),
                );
            }
        }
        board.insert("anyOf".into(), shapes);
    }
    accept_list_below(&mut schema);
    schema
}

/// Lets every list hold the mark `"...base"`, which in a variant stands for the list below it
/// (see [`crate::source::merge::LIST_BELOW`]): an editor checking a variant's file must not
/// flag it. The loader refuses it anywhere else.
fn accept_list_below(schema: &mut Value) {
    match schema {
        Value::Object(object) => {
            let is_list = match object.get("type") {
                Some(Value::String(kind)) => kind == "array",
                Some(Value::Array(kinds)) => kinds.iter().any(|k| k == "array"),
                _ => false,
            };
            for value in object.values_mut() {
                accept_list_below(value);
            }
            if is_list && let Some(items) = object.remove("items") {
                let mark = json!({
                    "type": "string",
                    "const": crate::source::merge::LIST_BELOW,
                    "description": "In a mod that `extends` another: that mod's list, spliced in here."
                });
                object.insert("items".into(), json!({ "anyOf": [items, mark] }));
            }
        }
        Value::Array(values) => values.iter_mut().for_each(accept_list_below),
        _ => {}
    }
}
