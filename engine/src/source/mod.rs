//! The layer between a mod's TOML files and typed definitions: located parsing, merging,
//! template inheritance and schema validation, reporting every problem as `file:line:col`.
//!
//! Loading goes in two steps. [`load_files`] parses every file (continuing past files with
//! errors), merges them into one root table and resolves `inherits`; it never fails, it returns
//! whatever it could build with every problem it met. [`LoadedData::decode`] then checks the
//! tree against the schema schemars derives from the definition types and hands it to serde.

pub mod files;
pub mod inherit;
pub mod merge;
pub mod raw;
pub mod validate;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;

pub use files::{FileId, Location, SourceFile, Sources};
pub use inherit::{Inheritance, InheritedKey};
pub use raw::{PathSegment, RawNode, RawTable, RawValue, format_key, format_path};
pub use validate::{deserialize, sort_diagnostics, validate};

use crate::diag::Diagnostic;

/// The deepest nesting of tables and arrays accepted anywhere in this layer. The TOML parser
/// stops well before this; the limit guards every recursive walk against hand-built trees.
pub const MAX_DEPTH: usize = 128;

/// Everything loading a mod's files produced: the merged, inheritance-resolved tree, the files
/// (to locate problems found later), the inheritance report, and every problem met so far.
#[derive(Clone, Debug)]
pub struct LoadedData {
    /// The merged root table, with templates resolved and abstract ones removed.
    pub root: RawNode,
    /// The files, for turning locations into `file:line:col`.
    pub sources: Sources,
    /// Which keys of which entries were inherited from which template.
    pub inheritance: Inheritance,
    /// Every problem found while loading, sorted by file, line and column.
    pub diagnostics: Vec<Diagnostic>,
}

impl LoadedData {
    /// Whether any problem found so far is an error (as opposed to a warning).
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// Checks the tree against a JSON Schema document, returning every problem, sorted.
    pub fn validate(&self, schema: &serde_json::Value) -> Vec<Diagnostic> {
        validate(&self.root, schema, &self.sources)
    }

    /// Validates the tree against the schema of `T` and deserializes it.
    ///
    /// Fails with the loading problems plus the validation problems when there are any errors,
    /// so a modder sees everything in one go; otherwise fails only if serde finds something the
    /// schema could not express.
    pub fn decode<T: JsonSchema + DeserializeOwned>(&self) -> Result<T, Vec<Diagnostic>> {
        let schema = serde_json::to_value(schemars::schema_for!(T)).unwrap_or(serde_json::Value::Bool(true));
        let mut problems = self.diagnostics.clone();
        problems.extend(self.validate(&schema));
        if problems.iter().any(Diagnostic::is_error) {
            sort_diagnostics(&mut problems);
            return Err(problems);
        }
        deserialize(&self.root, &self.sources).map_err(|error| vec![error])
    }
}

/// The bytes of all data files of a mod together, its own and those of the mods it extends.
pub const MAX_DATA_BYTES: usize = 32 * 1024 * 1024;

/// The definitions one collection (pieces, items, actions, cards…) may hold, across files.
pub const MAX_DEFINITIONS: usize = 10_000;

/// Reports and drops the entries of each collection past [`MAX_DEFINITIONS`], pointing at the
/// first one too many.
fn limit_definitions(root: &mut RawNode, collections: &[&str], sources: &Sources, out: &mut Vec<Diagnostic>) {
    let Some(table) = root.as_table_mut() else { return };
    for &collection in collections {
        let Some(entries) = table.get_mut(collection).and_then(RawNode::as_table_mut) else { continue };
        if entries.len() <= MAX_DEFINITIONS {
            continue;
        }
        let count = entries.len();
        let (first_too_many, node) = entries.iter().nth(MAX_DEFINITIONS).expect("more entries than the limit");
        out.push(
            sources
                .diagnostic(
                    node.key_or_value_loc(),
                    format!(
                        "`{collection}` holds {count} definitions; a collection may hold at most {MAX_DEFINITIONS}"
                    ),
                )
                .in_table(collection)
                .with_key(first_too_many.to_string()),
        );
        entries.truncate(MAX_DEFINITIONS);
    }
}

/// Parses, merges and resolves inheritance for the files of one mod.
///
/// `files` are `(display path, contents)` pairs in the order they should be merged; `collections`
/// names the top-level keys holding definitions by id (e.g. `pieces`, `cards`), whose entries
/// are gathered from all files and may inherit from each other.
pub fn load_files(files: Vec<(String, Vec<u8>)>, collections: &[&str]) -> LoadedData {
    load_layers(vec![files], collections)
}

/// Loads a mod made of layers: the first is a mod's own files; each further layer (a mod that
/// `extends` the one before) is merged on its own and then laid over the data so far — tables
/// merge key by key, the `triggers` list grows by the layer's, any other value replaces the one
/// below. Templates are resolved last, over the whole.
///
/// A mod's data is bounded as a whole, not only file by file: at most [`MAX_DATA_BYTES`] in all
/// (files past it are refused, unread) and [`MAX_DEFINITIONS`] entries in each collection
/// (those past it are reported and dropped), so what loading costs has a limit too.
pub fn load_layers(layers: Vec<Vec<(String, Vec<u8>)>>, collections: &[&str]) -> LoadedData {
    let mut sources = Sources::new();
    let mut diagnostics = Vec::new();
    let mut merged: Option<RawNode> = None;
    let mut total_bytes = 0usize;
    for files in layers {
        let mut parts = Vec::new();
        for (display_path, bytes) in files {
            total_bytes = total_bytes.saturating_add(bytes.len());
            if total_bytes > MAX_DATA_BYTES {
                diagnostics.push(
                    Diagnostic::error(format!(
                        "the mod's data files come to more than {} MiB together (this one passes the limit); a mod's \
                         data may be at most that large",
                        MAX_DATA_BYTES / (1024 * 1024)
                    ))
                    .in_file(display_path),
                );
                continue;
            }
            let file = match sources.add_bytes(display_path, bytes) {
                Ok(file) => file,
                Err(problem) => {
                    diagnostics.push(problem);
                    continue;
                }
            };
            match raw::parse(&sources, file) {
                Ok(root) => parts.push(root),
                Err(mut problems) => diagnostics.append(&mut problems),
            }
        }
        let (mut layer, mut problems) = merge::merge(parts, collections, &sources);
        diagnostics.append(&mut problems);
        limit_definitions(&mut layer, collections, &sources, &mut diagnostics);
        merged = Some(match merged {
            None => {
                merge::refuse_list_below(&layer, &sources, &mut diagnostics);
                layer
            }
            Some(mut below) => {
                merge::overlay_layer(&mut below, layer, &["triggers"], &sources, &mut diagnostics);
                below
            }
        });
    }
    let merged =
        merged.unwrap_or_else(|| RawNode::new(RawValue::Table(RawTable::new()), Location::new(FileId(0), 0, 0)));
    let (root, inheritance, mut problems) = inherit::resolve(merged, collections, &sources);
    diagnostics.append(&mut problems);
    sort_diagnostics(&mut diagnostics);
    LoadedData { root, sources, inheritance, diagnostics }
}

#[cfg(test)]
mod tests;
