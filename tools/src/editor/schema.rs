//! What the engine's types say about a data field, for building its form: read from the JSON
//! Schema schemars derives from the definitions (the same one `schemas/` holds and the loader
//! validates against), so the forms follow the types with no list of fields of their own.

use serde_json::{Map, Value as Json};

use super::model::Seg;

/// How a field is edited.
#[derive(Clone, Debug, PartialEq)]
pub enum FieldKind {
    Integer,
    Number,
    Bool,
    /// Text; `choices` non-empty for an enumeration.
    Text,
    /// A table of named fields or entries.
    Table,
    List,
    /// The schema allows several shapes (or none is known).
    Any,
}

/// A field's type, bounds, choices and documentation.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldInfo {
    pub kind: FieldKind,
    pub description: Option<String>,
    pub min: Option<f64>,
    pub max: Option<f64>,
    /// The allowed values of an enumeration.
    pub choices: Vec<String>,
    /// Written in the rules language (an *expression* or *effect*): checked as it is typed.
    pub rules_language: bool,
    /// The names of the fields a table may have (for adding one).
    pub fields: Vec<String>,
    /// The collection whose ids the value names (`terrain`, `items`), for a picker.
    pub reference: Option<String>,
}

/// The schema of a data file as written (`schemas/data.schema.json`: templates' `inherits`
/// and `abstract` included).
pub fn data_schema() -> Json {
    meeple_engine::schema::file_data_schema()
}

/// The schema of `mod.toml`.
pub fn manifest_schema() -> Json {
    serde_json::to_value(schemars::schema_for!(meeple_engine::defs::Manifest)).unwrap_or(Json::Null)
}

/// The schema node of the field at `path`; `value_at(prefix)` gives the data's value at a
/// prefix of the path (as JSON), to choose among the shapes of tagged enumerations (a board's
/// `kind`) and of values written either bare or as a table.
pub fn field_at(schema: &Json, path: &[Seg], value_at: &dyn Fn(&[Seg]) -> Option<Json>) -> Option<FieldInfo> {
    let mut node = schema;
    let mut description = None;
    let mut reference = None;
    for (depth, seg) in path.iter().enumerate() {
        node = resolve(schema, node, &|| value_at(&path[..depth]), &mut description)?;
        // A list of references marks the list; its elements are references too.
        reference = node.get("x-meeple-ref").and_then(Json::as_str).map(String::from);
        node = match seg {
            Seg::Key(key) => {
                let properties = node.get("properties").and_then(Json::as_object);
                match properties.and_then(|p| p.get(key)) {
                    Some(child) => child,
                    None => match node.get("additionalProperties") {
                        Some(child) if child.is_object() => child,
                        _ => return None,
                    },
                }
            }
            Seg::Index(_) => node.get("items")?,
        };
        if !matches!(seg, Seg::Index(_)) {
            reference = None;
        }
        if let Some(own) = node.get("x-meeple-ref").and_then(Json::as_str) {
            reference = Some(own.to_string());
        }
        description = None;
    }
    let current = value_at(path);
    node = resolve(schema, node, &|| current.clone(), &mut description)?;
    let mut field = info(node, description);
    field.reference = reference.or_else(|| node.get("x-meeple-ref").and_then(Json::as_str).map(String::from));
    // `inherits` names templates of the entry's own collection.
    if let (Some(Seg::Key(collection)), true) = (path.first(), path.iter().any(|s| *s == Seg::Key("inherits".into()))) {
        field.reference = Some(collection.clone());
    }
    Some(field)
}

/// Follows `$ref`s and picks the shape of `anyOf`/`oneOf` that fits the data's value.
fn resolve<'a>(
    root: &'a Json,
    mut node: &'a Json,
    value: &dyn Fn() -> Option<Json>,
    description: &mut Option<String>,
) -> Option<&'a Json> {
    for _ in 0..32 {
        if description.is_none() {
            *description = node.get("description").and_then(Json::as_str).map(String::from);
        }
        if let Some(reference) = node.get("$ref").and_then(Json::as_str) {
            let name = reference.strip_prefix("#/$defs/")?;
            node = root.get("$defs")?.get(name)?;
            continue;
        }
        let variants = node.get("oneOf").or_else(|| node.get("anyOf")).and_then(Json::as_array);
        if let Some(variants) = variants {
            let current = value();
            let chosen = variants
                .iter()
                .filter(|v| v.get("type").and_then(Json::as_str) != Some("null"))
                .find(|v| fits(root, v, current.as_ref()))
                .or_else(|| variants.iter().find(|v| v.get("type").and_then(Json::as_str) != Some("null")))?;
            node = chosen;
            continue;
        }
        return Some(node);
    }
    None
}

/// Whether a shape fits a value: its type matches, and a `kind`-like constant property matches.
fn fits(root: &Json, shape: &Json, value: Option<&Json>) -> bool {
    let shape = match shape.get("$ref").and_then(Json::as_str).and_then(|r| r.strip_prefix("#/$defs/")) {
        Some(name) => match root.get("$defs").and_then(|d| d.get(name)) {
            Some(found) => found,
            None => return false,
        },
        None => shape,
    };
    let Some(value) = value else { return true };
    let types = types_of(shape);
    let type_ok = types.is_empty()
        || types.iter().any(|t| match (t.as_str(), value) {
            ("integer", Json::Number(n)) => n.is_i64() || n.is_u64(),
            ("number", Json::Number(_)) => true,
            ("string", Json::String(_)) => true,
            ("boolean", Json::Bool(_)) => true,
            ("array", Json::Array(_)) => true,
            ("object", Json::Object(_)) => true,
            _ => false,
        });
    if !type_ok {
        return false;
    }
    // Tagged shapes: every constant property must match the value's.
    if let (Some(properties), Json::Object(fields)) = (shape.get("properties").and_then(Json::as_object), value) {
        for (key, property) in properties {
            if let Some(constant) = property.get("const")
                && fields.get(key) != Some(constant)
            {
                return false;
            }
        }
    }
    true
}

fn types_of(node: &Json) -> Vec<String> {
    match node.get("type") {
        Some(Json::String(t)) => vec![t.clone()],
        Some(Json::Array(ts)) => {
            ts.iter().filter_map(Json::as_str).filter(|t| *t != "null").map(String::from).collect()
        }
        _ if node.get("properties").is_some() || node.get("additionalProperties").is_some() => vec!["object".into()],
        _ => Vec::new(),
    }
}

fn info(node: &Json, description: Option<String>) -> FieldInfo {
    let description = node.get("description").and_then(Json::as_str).map(String::from).or(description);
    let types = types_of(node);
    let mut choices: Vec<String> = node
        .get("enum")
        .and_then(Json::as_array)
        .map(|e| e.iter().filter_map(Json::as_str).map(String::from).collect())
        .unwrap_or_default();
    if let Some(constant) = node.get("const").and_then(Json::as_str) {
        choices.push(constant.to_string());
    }
    // Enumerations written as `oneOf` of constants (documented variants).
    if let Some(variants) = node.get("oneOf").and_then(Json::as_array) {
        for variant in variants {
            if let Some(constant) = variant.get("const").and_then(Json::as_str) {
                choices.push(constant.to_string());
            }
            if let Some(values) = variant.get("enum").and_then(Json::as_array) {
                choices.extend(values.iter().filter_map(Json::as_str).map(String::from));
            }
        }
    }
    let kind = match types.first().map(String::as_str) {
        Some("integer") => FieldKind::Integer,
        Some("number") => FieldKind::Number,
        Some("boolean") => FieldKind::Bool,
        Some("string") => FieldKind::Text,
        Some("array") => FieldKind::List,
        Some("object") => FieldKind::Table,
        _ if !choices.is_empty() => FieldKind::Text,
        _ => FieldKind::Any,
    };
    let rules_language = description.as_deref().is_some_and(|d| {
        d.contains("*expression*") || d.contains("*effect*") || d.contains("*Expression*") || d.contains("*Effect*")
    });
    let fields = node
        .get("properties")
        .and_then(Json::as_object)
        .map(|p: &Map<String, Json>| p.keys().cloned().collect())
        .unwrap_or_default();
    FieldInfo {
        kind,
        description,
        min: node.get("minimum").and_then(Json::as_f64),
        max: node.get("maximum").and_then(Json::as_f64),
        choices,
        rules_language,
        fields,
        reference: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::model::path;
    use serde_json::json;

    fn no_value(_: &[Seg]) -> Option<Json> {
        None
    }

    #[test]
    fn fields_of_collections_and_tables_are_found() {
        let schema = data_schema();
        let price = field_at(&schema, &path("items.bow.price"), &no_value).expect("items have a price");
        assert_eq!(price.kind, FieldKind::Integer);
        let label = field_at(&schema, &path("items.bow.label"), &no_value).expect("a label");
        assert_eq!(label.kind, FieldKind::Text);
        let passable = field_at(&schema, &path("terrain.water.passable"), &no_value).expect("passable");
        assert_eq!(passable.kind, FieldKind::Bool);
        assert!(field_at(&schema, &path("items.bow.pryce"), &no_value).is_none());
    }

    #[test]
    fn tagged_shapes_follow_the_data() {
        let schema = data_schema();
        let board = |prefix: &[Seg]| -> Option<Json> {
            (prefix.len() == 1).then(|| json!({ "kind": "offset", "columns": 26, "rows": 100 }))
        };
        let rows = field_at(&schema, &path("board.rows"), &board).expect("offset boards have rows");
        assert_eq!(rows.kind, FieldKind::Integer);
        let offset = field_at(&schema, &path("board.offset"), &board).expect("and an offset");
        assert!(offset.choices.contains(&"odd_rows".to_string()), "{offset:?}");
        let territory =
            |prefix: &[Seg]| -> Option<Json> { (prefix.len() == 1).then(|| json!({ "kind": "territories" })) };
        assert!(field_at(&schema, &path("board.offset"), &territory).is_none(), "territory maps have no offset");
    }

    #[test]
    fn references_are_marked_with_their_collection() {
        let schema = data_schema();
        let board = |prefix: &[Seg]| -> Option<Json> {
            (prefix.len() == 1).then(|| json!({ "kind": "offset", "generate": { "kind": "land_water" } }))
        };
        let land = field_at(&schema, &path("board.generate.land"), &board).expect("land");
        assert_eq!(land.reference.as_deref(), Some("terrain"));
        let item = field_at(&schema, &path("pieces.soldier.items.0"), &no_value).expect("an item of a piece");
        assert_eq!(item.reference.as_deref(), Some("items"));
        let template = field_at(&schema, &path("items.bow.inherits"), &no_value).expect("inherits");
        assert_eq!(template.reference.as_deref(), Some("items"));
    }

    #[test]
    fn rules_language_fields_are_marked() {
        let schema = data_schema();
        let when = field_at(&schema, &path("actions.attack.success"), &no_value).expect("success");
        assert!(when.rules_language, "{when:?}");
        let label = field_at(&schema, &path("actions.attack.label"), &no_value).expect("label");
        assert!(!label.rules_language);
        // Named formulas and effect blocks are entries like actions, written in the language.
        let value = field_at(&schema, &path("formulas.damage.value"), &no_value).expect("a formula's value");
        assert!(value.rules_language, "{value:?}");
        let body = field_at(&schema, &path("effects.knock_out.do"), &no_value).expect("an effect block's statements");
        assert!(body.rules_language, "{body:?}");
        assert!(crate::editor::model::is_collection("formulas") && crate::editor::model::is_collection("effects"));
    }
}
