//! Template inheritance: `inherits = "parent"` deep-merges a template's keys into an entry.
//!
//! Within one collection an entry may name one parent or several (`inherits = ["a", "b"]`, a
//! later parent overriding an earlier one and the entry overriding all). Tables merge key by
//! key, at any depth; scalars and arrays are replaced whole, because merging two lists of e.g.
//! dice faces has no meaning a modder could predict. `abstract = true` marks a template that is
//! only there to be inherited from and is dropped from the output.

use std::collections::{BTreeMap, BTreeSet};

use super::MAX_DEPTH;
use super::files::{Location, Sources};
use super::raw::{RawNode, RawTable, RawValue, format_key};
use crate::diag::{Diagnostic, did_you_mean, shown};

/// The key naming an entry's templates.
pub const INHERITS_KEY: &str = "inherits";
/// The key marking an entry as a template only.
pub const ABSTRACT_KEY: &str = "abstract";

/// One key an entry did not write itself but took from a template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InheritedKey {
    /// The keys leading from the entry to the inherited value, e.g. `["stats", "hp"]`.
    pub path: Vec<String>,
    /// The id of the template that wrote the value (the original one, not an intermediate).
    pub template: String,
}

/// For each entry that inherited anything, which keys came from which template; an editor
/// uses it to show "inherited from X" next to a value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Inheritance {
    /// Inherited keys by `(collection, entry id)`. Entries that inherit nothing are absent.
    pub entries: BTreeMap<(String, String), Vec<InheritedKey>>,
}

impl Inheritance {
    /// The keys `collection.id` inherited; empty when it inherited nothing.
    pub fn inherited(&self, collection: &str, id: &str) -> &[InheritedKey] {
        self.entries.get(&(collection.to_string(), id.to_string())).map_or(&[], Vec::as_slice)
    }

    /// The template the value at `path` in `collection.id` came from, looking at the closest
    /// enclosing inherited table; `None` when the entry wrote it itself.
    pub fn origin(&self, collection: &str, id: &str, path: &[&str]) -> Option<&str> {
        origin_of(self.inherited(collection, id), path.iter().copied()).map(String::as_str)
    }
}

/// Resolves inheritance in every collection of `root`, returning the resolved root (templates
/// removed, `inherits` and `abstract` keys gone), the inheritance report and the problems found.
///
/// Inherited values keep their original locations, so a mistake in a template is reported in the
/// template's file even when it surfaces in an entry that inherits it.
pub fn resolve(mut root: RawNode, collections: &[&str], sources: &Sources) -> (RawNode, Inheritance, Vec<Diagnostic>) {
    let mut inheritance = Inheritance::default();
    let mut diagnostics = Vec::new();
    let Some(table) = root.as_table_mut() else {
        return (root, inheritance, diagnostics);
    };
    let ids_by_collection: BTreeMap<&str, BTreeSet<String>> = collections
        .iter()
        .filter_map(|&name| Some((name, table.get(name)?.as_table()?.keys().map(String::from).collect())))
        .collect();
    for &collection in collections {
        let Some(node) = table.get_mut(collection) else {
            continue;
        };
        let Some(entries) = node.as_table_mut() else {
            continue;
        };
        let mut resolver = Resolver::new(collection, std::mem::take(entries), &ids_by_collection, sources);
        let resolved = resolver.run();
        *entries = resolved;
        for (id, keys) in resolver.report {
            inheritance.entries.insert((collection.to_string(), id), keys);
        }
        diagnostics.append(&mut resolver.diagnostics);
    }
    (root, inheritance, diagnostics)
}

/// Where an entry stands in the depth-first resolution.
enum State {
    Pending,
    /// On the current chain of parents; meeting it again means a cycle.
    InProgress,
    Done(Layer),
}

/// A resolved table together with where its keys came from.
#[derive(Clone)]
struct Layer {
    node: RawNode,
    /// Subtrees taken from templates, each with its original template.
    records: Vec<InheritedKey>,
    /// Who wrote everything not covered by `records`.
    author: String,
}

/// The `inherits`/`abstract` settings of one entry.
#[derive(Default)]
struct Directives {
    parents: Vec<(String, Location)>,
    is_abstract: bool,
}

/// Resolves the entries of one collection.
struct Resolver<'a> {
    collection: &'a str,
    ids: Vec<String>,
    positions: BTreeMap<String, usize>,
    entries: Vec<Option<RawNode>>,
    directives: Vec<Directives>,
    states: Vec<State>,
    ids_by_collection: &'a BTreeMap<&'a str, BTreeSet<String>>,
    sources: &'a Sources,
    report: BTreeMap<String, Vec<InheritedKey>>,
    diagnostics: Vec<Diagnostic>,
}

impl<'a> Resolver<'a> {
    fn new(
        collection: &'a str,
        entries: RawTable,
        ids_by_collection: &'a BTreeMap<&'a str, BTreeSet<String>>,
        sources: &'a Sources,
    ) -> Self {
        let (ids, entries): (Vec<String>, Vec<Option<RawNode>>) =
            entries.into_iter().map(|(id, node)| (id, Some(node))).unzip();
        let positions = ids.iter().enumerate().map(|(position, id)| (id.clone(), position)).collect();
        let count = ids.len();
        Self {
            collection,
            ids,
            positions,
            entries,
            directives: Vec::new(),
            states: (0..count).map(|_| State::Pending).collect(),
            ids_by_collection,
            sources,
            report: BTreeMap::new(),
            diagnostics: Vec::new(),
        }
    }

    /// Resolves every entry and returns the collection without its abstract templates.
    fn run(&mut self) -> RawTable {
        self.directives = (0..self.ids.len()).map(|index| self.read_directives(index)).collect();
        let mut chain = Vec::new();
        for index in 0..self.ids.len() {
            self.resolve_entry(index, &mut chain);
        }
        let mut output = RawTable::new();
        for index in 0..self.ids.len() {
            let id = self.ids[index].clone();
            let node = match std::mem::replace(&mut self.states[index], State::Pending) {
                State::Done(layer) => Some(layer.node),
                // Entries that are not tables are left for validation to report.
                State::Pending | State::InProgress => self.entries[index].take(),
            };
            if let Some(node) = node
                && !self.directives[index].is_abstract
            {
                output.insert(id, node);
            }
        }
        output
    }

    /// The dotted path of entry `index`, e.g. `pieces.infantry`, for the `table` of diagnostics.
    fn entry_path(&self, index: usize) -> String {
        format!("{}.{}", format_key(self.collection), format_key(&self.ids[index]))
    }

    /// Reads and checks the `inherits` and `abstract` keys of entry `index`.
    fn read_directives(&mut self, index: usize) -> Directives {
        let mut directives = Directives::default();
        let Some(table) = self.entries[index].as_ref().and_then(RawNode::as_table) else {
            return directives;
        };
        let mut problems: Vec<(Location, &str, String)> = Vec::new();
        if let Some(node) = table.get(INHERITS_KEY) {
            match &node.value {
                RawValue::String(parent) => directives.parents.push((parent.clone(), node.loc)),
                RawValue::Array(items) => {
                    for item in items {
                        match &item.value {
                            RawValue::String(parent) => directives.parents.push((parent.clone(), item.loc)),
                            other => problems.push((
                                item.loc,
                                INHERITS_KEY,
                                format!("`inherits` lists template ids (strings), found {}", other.describe()),
                            )),
                        }
                    }
                }
                other => problems.push((
                    node.loc,
                    INHERITS_KEY,
                    format!("`inherits` must be a template id or an array of template ids, found {}", other.describe()),
                )),
            }
        }
        if let Some(node) = table.get(ABSTRACT_KEY) {
            match &node.value {
                RawValue::Bool(flag) => directives.is_abstract = *flag,
                other => problems.push((
                    node.loc,
                    ABSTRACT_KEY,
                    format!("`abstract` must be true or false, found {}", other.describe()),
                )),
            }
        }
        for (loc, key, message) in problems {
            let diagnostic = self.sources.diagnostic(loc, message).in_table(self.entry_path(index)).with_key(key);
            self.diagnostics.push(diagnostic);
        }
        directives
    }

    /// Resolves entry `index` after its parents; `chain` holds the entries being resolved.
    fn resolve_entry(&mut self, index: usize, chain: &mut Vec<usize>) {
        if !matches!(self.states[index], State::Pending) {
            return;
        }
        let Some(own) = self.entries[index].take() else {
            return;
        };
        if !matches!(own.value, RawValue::Table(_)) {
            self.entries[index] = Some(own);
            return;
        }
        self.states[index] = State::InProgress;
        chain.push(index);
        let mut base: Option<Layer> = None;
        let parents = std::mem::take(&mut self.directives[index].parents);
        for (parent, loc) in &parents {
            if let Some(layer) = self.parent_layer(index, parent, *loc, chain) {
                base = Some(match base {
                    None => layer,
                    Some(lower) => overlay(&lower, layer),
                });
            }
        }
        self.directives[index].parents = parents;
        let mut own = own;
        if let Some(table) = own.as_table_mut() {
            table.remove(INHERITS_KEY);
            table.remove(ABSTRACT_KEY);
        }
        let own_layer = Layer { node: own, records: Vec::new(), author: self.ids[index].clone() };
        let resolved = match base {
            None => own_layer,
            Some(lower) => overlay(&lower, own_layer),
        };
        if !resolved.records.is_empty() {
            self.report.insert(self.ids[index].clone(), resolved.records.clone());
        }
        self.states[index] = State::Done(resolved);
        chain.pop();
    }

    /// The resolved template `parent` as a layer to merge under entry `index`, or `None` after
    /// reporting why it cannot be used.
    fn parent_layer(&mut self, index: usize, parent: &str, loc: Location, chain: &mut Vec<usize>) -> Option<Layer> {
        let Some(&parent_index) = self.positions.get(parent) else {
            self.report_unknown_parent(index, parent, loc);
            return None;
        };
        if matches!(self.states[parent_index], State::Pending) {
            if chain.len() >= MAX_DEPTH {
                self.report(
                    index,
                    loc,
                    format!("the chain of templates is too long (more than {MAX_DEPTH} levels)"),
                    None,
                );
                return None;
            }
            self.resolve_entry(parent_index, chain);
        }
        match &self.states[parent_index] {
            State::Done(layer) => Some(layer.clone()),
            State::InProgress => {
                let start = chain.iter().position(|&member| member == parent_index).unwrap_or(0);
                let names: Vec<&str> = chain[start..]
                    .iter()
                    .chain(std::iter::once(&parent_index))
                    .map(|&member| self.ids[member].as_str())
                    .collect();
                let message = format!("inheritance cycle: {}", names.join(" → "));
                self.report(index, loc, message, None);
                None
            }
            State::Pending => {
                let found = self.entries[parent_index].as_ref().map_or("nothing", |node| node.value.describe());
                self.report(
                    index,
                    loc,
                    format!("cannot inherit from `{}`: a template must be a table, found {found}", shown(parent)),
                    None,
                );
                None
            }
        }
    }

    /// Reports a parent id that is not in this collection, pointing out the likely typo or the
    /// other collection that does define it.
    fn report_unknown_parent(&mut self, index: usize, parent: &str, loc: Location) {
        let elsewhere = self
            .ids_by_collection
            .iter()
            .find(|(name, ids)| **name != self.collection && ids.contains(parent))
            .map(|(name, _)| *name);
        let message = match elsewhere {
            Some(other) => format!(
                "unknown template `{parent}` in `{}`; `{parent}` is defined in `{}`, and entries can only inherit from their own collection",
                format_key(self.collection),
                format_key(other),
                parent = shown(parent),
            ),
            None => format!("unknown template `{}` in `{}`", shown(parent), format_key(self.collection)),
        };
        let suggestion = did_you_mean(parent, self.ids.iter().map(String::as_str));
        self.report(index, loc, message, suggestion);
    }

    fn report(&mut self, index: usize, loc: Location, message: String, suggestion: Option<String>) {
        let diagnostic = self
            .sources
            .diagnostic(loc, message)
            .in_table(self.entry_path(index))
            .with_key(INHERITS_KEY)
            .with_suggestion(suggestion);
        self.diagnostics.push(diagnostic);
    }
}

/// `upper` deep-merged over `lower`: upper's values win, tables merge key by key. The result's
/// records say which subtrees came from which template.
fn overlay(lower: &Layer, upper: Layer) -> Layer {
    let mut taken = Vec::new();
    let node = deep_merge(&lower.node, upper.node, &mut Vec::new(), &mut taken, 0);
    let mut records = upper.records;
    for path in taken {
        let template = origin_of(&lower.records, path.iter().map(String::as_str)).unwrap_or(&lower.author).clone();
        let deeper: Vec<InheritedKey> = lower
            .records
            .iter()
            .filter(|record| record.path.len() > path.len() && record.path.starts_with(&path))
            .cloned()
            .collect();
        records.push(InheritedKey { path, template });
        records.extend(deeper);
    }
    Layer { node, records, author: upper.author }
}

/// Merges `lower` under `upper`, collecting in `taken` the paths of values copied from `lower`.
fn deep_merge(
    lower: &RawNode,
    mut upper: RawNode,
    path: &mut Vec<String>,
    taken: &mut Vec<Vec<String>>,
    depth: usize,
) -> RawNode {
    // Parsing bounds nesting well below this; the guard only protects hand-built trees.
    if depth > MAX_DEPTH {
        return upper;
    }
    let (Some(lower_table), Some(upper_table)) = (lower.as_table(), upper.as_table_mut()) else {
        return upper;
    };
    for (key, lower_value) in lower_table.iter() {
        path.push(key.to_string());
        match upper_table.get_mut(key) {
            Some(upper_value) => {
                if lower_value.as_table().is_some() && upper_value.as_table().is_some() {
                    let placeholder = RawNode::new(RawValue::Bool(false), upper_value.loc);
                    let own = std::mem::replace(upper_value, placeholder);
                    *upper_value = deep_merge(lower_value, own, path, taken, depth + 1);
                }
            }
            None => {
                upper_table.insert(key, lower_value.clone());
                taken.push(path.clone());
            }
        }
        path.pop();
    }
    upper
}

/// The template recorded for the closest enclosing (or identical) path among `records`.
fn origin_of<'r, 'p>(records: &'r [InheritedKey], path: impl IntoIterator<Item = &'p str>) -> Option<&'r String> {
    let path: Vec<&str> = path.into_iter().collect();
    records
        .iter()
        .filter(|record| record.path.len() <= path.len() && record.path.iter().zip(&path).all(|(a, b)| a == b))
        .max_by_key(|record| record.path.len())
        .map(|record| &record.template)
}
