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

/// The element of a variant's list that stands for the list below it, spliced in its place:
/// `actions = ["...base", "dig_well"]` adds an action to the list of the mod extended.
pub const LIST_BELOW: &str = "...base";

/// Lays a variant's layer over the data below as [`overlay`] does, except that the top-level
/// lists named in `appended` (rules that all apply, as `triggers`) are added to the ones below
/// instead of replacing them: a variant adds a trigger without restating, or silently losing,
/// the base's.
pub fn overlay_layer(
    below: &mut RawNode,
    mut over: RawNode,
    appended: &[&str],
    sources: &Sources,
    diagnostics: &mut Vec<Diagnostic>,
) {
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
    Overlay { sources, diagnostics }.lay(below, over);
}

/// Reports the [`LIST_BELOW`] marks of a mod's bottom layer (a mod that extends none, or the
/// mod at the bottom of a chain): nothing lies below them.
pub fn refuse_list_below(layer: &RawNode, sources: &Sources, diagnostics: &mut Vec<Diagnostic>) {
    Overlay { sources, diagnostics }.refuse_marks(layer);
}

/// Lays a variant's values over the ones below, reporting misplaced [`LIST_BELOW`] marks.
struct Overlay<'a> {
    sources: &'a Sources,
    diagnostics: &'a mut Vec<Diagnostic>,
}

impl Overlay<'_> {
    /// Lays `over` on `below`: tables merge key by key (recursively); a list with the mark
    /// [`LIST_BELOW`] is the list below spliced in at the mark, with its own entries around it
    /// (a table of the list whose `id` is one below is laid over that entry instead); any other
    /// value replaces the one below (with its own location, so problems point at the layer that
    /// wrote it).
    fn lay(&mut self, below: &mut RawNode, over: RawNode) {
        match (&mut below.value, over.value) {
            (RawValue::Table(target), RawValue::Table(entries)) => {
                for (key, node) in entries {
                    match target.get_mut(&key) {
                        Some(existing) => self.lay(existing, node),
                        None => {
                            self.refuse_marks(&node);
                            target.insert(key, node);
                        }
                    }
                }
            }
            (RawValue::Array(list), RawValue::Array(items)) if items.iter().any(is_list_below) => {
                let spliced = self.splice(std::mem::take(list), items);
                *list = spliced;
                below.loc = over.loc;
                below.key_loc = over.key_loc.or(below.key_loc);
            }
            (_, value) => {
                let node = RawNode { value, loc: over.loc, key_loc: over.key_loc };
                self.refuse_marks(&node);
                below.value = node.value;
                below.loc = node.loc;
                below.key_loc = node.key_loc.or(below.key_loc);
            }
        }
    }

    /// The list below with a variant's entries around it, and its tables with an id below laid
    /// over those entries.
    fn splice(&mut self, below: Vec<RawNode>, items: Vec<RawNode>) -> Vec<RawNode> {
        let ids_below: Vec<Option<String>> = below.iter().map(entry_id).collect();
        let mut below = Some(below);
        let mut spliced = Vec::new();
        let mut start = 0;
        let mut laid_over = Vec::new();
        for item in items {
            if is_list_below(&item) {
                match below.take() {
                    Some(entries) => {
                        start = spliced.len();
                        spliced.extend(entries);
                    }
                    None => self.problem(
                        item.loc,
                        format!("`\"{LIST_BELOW}\"` stands for the list below once: it is here twice"),
                    ),
                }
            } else if let Some(at) =
                entry_id(&item).and_then(|id| ids_below.iter().position(|i| i.as_deref() == Some(&id)))
            {
                laid_over.push((at, item));
            } else {
                self.refuse_marks(&item);
                spliced.push(item);
            }
        }
        for (at, item) in laid_over {
            self.lay(&mut spliced[start + at], item);
        }
        spliced
    }

    /// Reports every [`LIST_BELOW`] mark in `node`: where nothing lies below, it stands for
    /// nothing.
    fn refuse_marks(&mut self, node: &RawNode) {
        match &node.value {
            RawValue::Array(items) => {
                for item in items {
                    if is_list_below(item) {
                        self.problem(
                            item.loc,
                            format!(
                                "`\"{LIST_BELOW}\"` stands for the list below this one, in a mod that `extends` \
                                 another, and there is none here: write the whole list"
                            ),
                        );
                    } else {
                        self.refuse_marks(item);
                    }
                }
            }
            RawValue::Table(entries) => {
                for (_, entry) in entries.iter() {
                    self.refuse_marks(entry);
                }
            }
            _ => {}
        }
    }

    fn problem(&mut self, loc: Location, message: String) {
        self.diagnostics.push(self.sources.diagnostic(loc, message));
    }
}

fn is_list_below(node: &RawNode) -> bool {
    matches!(&node.value, RawValue::String(s) if s == LIST_BELOW)
}

/// The `id` of a list entry that is a table with one.
fn entry_id(node: &RawNode) -> Option<String> {
    match &node.value {
        RawValue::Table(entries) => match entries.get("id").map(|n| &n.value) {
            Some(RawValue::String(id)) => Some(id.clone()),
            _ => None,
        },
        _ => None,
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
