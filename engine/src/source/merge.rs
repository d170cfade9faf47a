//! Merging the files of a mod into one root table, with every clash reported at both places.

use super::files::{FileId, Location, Sources};
use super::raw::{RawNode, RawTable, RawValue, format_key};
use crate::diag::Diagnostic;

/// Merges the root tables of a mod's files, in the order given, into one root table.
///
/// Keys named in `collections` (such as `pieces` or `cards`) are maps of definitions: their
/// entries are gathered from every file, and an id defined twice is an error at the second
/// definition that says where the first one is. Any other top-level key belongs to exactly one
/// file; it is not deep-merged, because splitting e.g. `[turn]` across files would make it
/// unclear which file is in charge. Conflicting values are dropped, the first one wins.
pub fn merge(parts: Vec<RawNode>, collections: &[&str], sources: &Sources) -> (RawNode, Vec<Diagnostic>) {
    let root_loc = parts.first().map_or(Location::new(FileId(0), 0, 0), |part| part.loc);
    let mut merged = RawTable::new();
    let mut diagnostics = Vec::new();
    for part in parts {
        let RawValue::Table(table) = part.value else {
            diagnostics.push(sources.diagnostic(part.loc, "a mod file must contain a table of keys"));
            continue;
        };
        for (key, node) in table {
            if collections.contains(&key.as_str()) {
                merge_collection(&mut merged, key, node, sources, &mut diagnostics);
            } else if let Some(first) = merged.get(&key) {
                diagnostics.push(
                    sources
                        .diagnostic(
                            node.key_or_value_loc(),
                            format!(
                                "`{}` is defined in more than one file; first defined at {}",
                                format_key(&key),
                                sources.describe(first.key_or_value_loc())
                            ),
                        )
                        .with_key(key),
                );
            } else {
                merged.insert(key, node);
            }
        }
    }
    (RawNode::new(RawValue::Table(merged), root_loc), diagnostics)
}

/// Lays a variant's layer over the data below as [`overlay`] does, except that the top-level
/// lists named in `appended` (rules that all apply, as `triggers`) are added to the ones below
/// instead of replacing them: a variant adds a trigger without restating, or silently losing,
/// the base's.
pub fn overlay_layer(below: &mut RawNode, mut over: RawNode, appended: &[&str]) {
    if let (RawValue::Table(target), RawValue::Table(entries)) = (&mut below.value, &mut over.value) {
        let is_list = |node: Option<&RawNode>| matches!(node.map(|n| &n.value), Some(RawValue::Array(_)));
        for key in appended {
            if !(is_list(target.get(key)) && is_list(entries.get(key))) {
                continue;
            }
            if let (Some(RawValue::Array(list)), Some(RawValue::Array(more))) =
                (target.get_mut(key).map(|n| &mut n.value), entries.remove(key).map(|n| n.value))
            {
                list.extend(more);
            }
        }
    }
    overlay(below, over);
}

/// Lays `over` on `below`: tables merge key by key (recursively), any other value replaces the
/// one below (with its own location, so problems point at the layer that wrote it).
pub fn overlay(below: &mut RawNode, over: RawNode) {
    match (&mut below.value, over.value) {
        (RawValue::Table(target), RawValue::Table(entries)) => {
            for (key, node) in entries {
                match target.get_mut(&key) {
                    Some(existing) => overlay(existing, node),
                    None => {
                        target.insert(key, node);
                    }
                }
            }
        }
        (_, value) => {
            below.value = value;
            below.loc = over.loc;
            below.key_loc = over.key_loc.or(below.key_loc);
        }
    }
}

/// Adds the entries of one file's `collection` table to the merged collection of that name.
fn merge_collection(
    merged: &mut RawTable,
    collection: String,
    node: RawNode,
    sources: &Sources,
    diagnostics: &mut Vec<Diagnostic>,
) {
    if !matches!(node.value, RawValue::Table(_)) {
        diagnostics.push(
            sources
                .diagnostic(
                    node.loc,
                    format!(
                        "`{}` must be a table of definitions keyed by id, found {}",
                        format_key(&collection),
                        node.value.describe()
                    ),
                )
                .with_key(collection),
        );
        return;
    }
    let Some(existing) = merged.get_mut(&collection) else {
        merged.insert(collection, node);
        return;
    };
    let (RawValue::Table(entries), Some(target)) = (node.value, existing.as_table_mut()) else {
        return;
    };
    for (id, entry) in entries {
        if let Some(first) = target.get(&id) {
            diagnostics.push(
                sources
                    .diagnostic(
                        entry.key_or_value_loc(),
                        format!(
                            "`{}.{}` is defined twice; first defined at {}",
                            format_key(&collection),
                            format_key(&id),
                            sources.describe(first.key_or_value_loc())
                        ),
                    )
                    .in_table(format_key(&collection))
                    .with_key(id),
            );
        } else {
            target.insert(id, entry);
        }
    }
}
