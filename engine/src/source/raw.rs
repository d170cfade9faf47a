//! The located value tree: TOML parsed into nodes that remember the span of every key and value.

use std::collections::BTreeMap;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::MAX_DEPTH;
use super::files::{FileId, Location, Sources};
use crate::diag::Diagnostic;

/// At most this many syntax errors are reported per file: after a bad enough mistake the
/// parser's recovery produces a cascade of follow-on errors that only bury the real one.
const MAX_SYNTAX_ERRORS: usize = 20;

/// One TOML value with the span of the value and, for table entries, of its key.
#[derive(Clone, Debug, PartialEq)]
pub struct RawNode {
    /// The value itself.
    pub value: RawValue,
    /// Where the value is written. For tables declared by a `[header]` this is the header; for
    /// tables only implied by a dotted key or header it is that key.
    pub loc: Location,
    /// Where the key naming this value is written, for entries of a table.
    pub key_loc: Option<Location>,
}

/// A TOML value whose children are located [`RawNode`]s.
#[derive(Clone, Debug, PartialEq)]
pub enum RawValue {
    /// A string, with escapes already decoded.
    String(String),
    /// An integer.
    Integer(i64),
    /// A float.
    Float(f64),
    /// A boolean.
    Bool(bool),
    /// A date, time or date-time, kept in its TOML spelling.
    Datetime(String),
    /// An array, including arrays of tables.
    Array(Vec<RawNode>),
    /// A table, including inline tables.
    Table(RawTable),
}

impl RawValue {
    /// The kind of value with an article, for messages such as "found a string".
    pub fn describe(&self) -> &'static str {
        match self {
            RawValue::String(_) => "a string",
            RawValue::Integer(_) => "an integer",
            RawValue::Float(_) => "a float",
            RawValue::Bool(_) => "a boolean",
            RawValue::Datetime(_) => "a date-time",
            RawValue::Array(_) => "an array",
            RawValue::Table(_) => "a table",
        }
    }
}

/// The entries of a TOML table in the order they are written, with lookup by key.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RawTable {
    entries: Vec<(String, RawNode)>,
    index: BTreeMap<String, usize>,
}

impl RawTable {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many entries the table has.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the table has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The value under `key`.
    pub fn get(&self, key: &str) -> Option<&RawNode> {
        self.index.get(key).map(|&position| &self.entries[position].1)
    }

    /// The value under `key`, for changing it in place.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut RawNode> {
        self.index.get(key).map(|&position| &mut self.entries[position].1)
    }

    /// Whether the table has an entry named `key`.
    pub fn contains_key(&self, key: &str) -> bool {
        self.index.contains_key(key)
    }

    /// Sets `key` to `node`, returning the previous value. A replaced entry keeps its position;
    /// a new one goes last.
    pub fn insert(&mut self, key: impl Into<String>, node: RawNode) -> Option<RawNode> {
        let key = key.into();
        if let Some(&position) = self.index.get(&key) {
            return Some(std::mem::replace(&mut self.entries[position].1, node));
        }
        self.index.insert(key.clone(), self.entries.len());
        self.entries.push((key, node));
        None
    }

    /// Removes `key`, returning its value; later entries keep their relative order.
    pub fn remove(&mut self, key: &str) -> Option<RawNode> {
        let position = self.index.remove(key)?;
        let (_, node) = self.entries.remove(position);
        for later in self.index.values_mut() {
            if *later > position {
                *later -= 1;
            }
        }
        Some(node)
    }

    /// Keeps the first `length` entries, dropping the rest.
    pub fn truncate(&mut self, length: usize) {
        self.entries.truncate(length);
        self.index.retain(|_, position| *position < length);
    }

    /// The entries in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &RawNode)> {
        self.entries.iter().map(|(key, node)| (key.as_str(), node))
    }

    /// The entries in order, with values that can be changed in place.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&str, &mut RawNode)> {
        self.entries.iter_mut().map(|(key, node)| (key.as_str(), node))
    }

    /// The keys in order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(key, _)| key.as_str())
    }
}

impl IntoIterator for RawTable {
    type Item = (String, RawNode);
    type IntoIter = std::vec::IntoIter<(String, RawNode)>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl FromIterator<(String, RawNode)> for RawTable {
    fn from_iter<I: IntoIterator<Item = (String, RawNode)>>(entries: I) -> Self {
        let mut table = RawTable::new();
        for (key, node) in entries {
            table.insert(key, node);
        }
        table
    }
}

/// One step of a path into the tree: a table key or an array index.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PathSegment {
    /// An entry of a table.
    Key(String),
    /// An element of an array.
    Index(usize),
}

impl From<&str> for PathSegment {
    fn from(key: &str) -> Self {
        PathSegment::Key(key.to_string())
    }
}

impl From<usize> for PathSegment {
    fn from(index: usize) -> Self {
        PathSegment::Index(index)
    }
}

/// Formats a path the way a modder writes it: `actions.attack.params[1]`, quoting keys that are
/// not bare TOML keys.
pub fn format_path(path: &[PathSegment]) -> String {
    let mut text = String::new();
    for segment in path {
        match segment {
            PathSegment::Key(key) => {
                if !text.is_empty() {
                    text.push('.');
                }
                text.push_str(&format_key(key));
            }
            PathSegment::Index(index) => text.push_str(&format!("[{index}]")),
        }
    }
    text
}

/// A key as written in TOML: bare when it can be, quoted otherwise. Keys of digits only are
/// quoted too: `legend."1"` is a key, while `legend.1` would read like a position in a list.
pub fn format_key(key: &str) -> String {
    let bare = !key.is_empty()
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && !key.chars().all(|c| c.is_ascii_digit());
    if bare { key.to_string() } else { format!("{key:?}") }
}

impl RawNode {
    /// A node for `value` located at `loc`, not (yet) an entry of a table.
    pub fn new(value: RawValue, loc: Location) -> Self {
        Self { value, loc, key_loc: None }
    }

    /// The table payload, if this node is a table.
    pub fn as_table(&self) -> Option<&RawTable> {
        match &self.value {
            RawValue::Table(table) => Some(table),
            _ => None,
        }
    }

    /// The table payload for changing it in place, if this node is a table.
    pub fn as_table_mut(&mut self) -> Option<&mut RawTable> {
        match &mut self.value {
            RawValue::Table(table) => Some(table),
            _ => None,
        }
    }

    /// The string payload, if this node is a string.
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            RawValue::String(text) => Some(text),
            _ => None,
        }
    }

    /// The entry `key` of this table; `None` when this is not a table or has no such key.
    pub fn get(&self, key: &str) -> Option<&RawNode> {
        self.as_table()?.get(key)
    }

    /// The node at `path` below this one.
    pub fn find(&self, path: &[PathSegment]) -> Option<&RawNode> {
        let mut node = self;
        for segment in path {
            node = match (segment, &node.value) {
                (PathSegment::Key(key), RawValue::Table(table)) => table.get(key)?,
                (PathSegment::Index(index), RawValue::Array(items)) => items.get(*index)?,
                _ => return None,
            };
        }
        Some(node)
    }

    /// `path` with each index that meets a table instead of an array turned into the key it
    /// stands for: paths built from plain strings cannot tell the key `"1"` from the position 1.
    /// The rest of the path, past where the tree ends, is kept as it is.
    pub fn keys_for_indices(&self, path: &[PathSegment]) -> Vec<PathSegment> {
        let mut node = Some(self);
        path.iter()
            .map(|segment| {
                let segment = match (segment, node.map(|n| &n.value)) {
                    (PathSegment::Index(index), Some(RawValue::Table(table)))
                        if table.contains_key(&index.to_string()) =>
                    {
                        PathSegment::Key(index.to_string())
                    }
                    _ => segment.clone(),
                };
                node = node.and_then(|n| n.find(std::slice::from_ref(&segment)));
                segment
            })
            .collect()
    }

    /// The location of the key naming this node when it has one, else of the value; the best
    /// place to point at when the entry as a whole is the problem.
    pub fn key_or_value_loc(&self) -> Location {
        self.key_loc.unwrap_or(self.loc)
    }

    /// The value as a plain `toml::Value`, for deserializing with serde.
    ///
    /// Parsing caps nesting, so the tree is never deeper than [`MAX_DEPTH`]; anything deeper
    /// (only possible in a hand-built tree) is cut off as an empty table rather than risking the
    /// stack, and validation reports it.
    pub fn to_toml_value(&self) -> toml::Value {
        self.to_toml_value_at(0)
    }

    fn to_toml_value_at(&self, depth: usize) -> toml::Value {
        if depth > MAX_DEPTH {
            return toml::Value::Table(toml::Table::new());
        }
        match &self.value {
            RawValue::String(text) => toml::Value::String(text.clone()),
            RawValue::Integer(number) => toml::Value::Integer(*number),
            RawValue::Float(number) => toml::Value::Float(*number),
            RawValue::Bool(flag) => toml::Value::Boolean(*flag),
            RawValue::Datetime(text) => match text.parse::<toml::value::Datetime>() {
                Ok(datetime) => toml::Value::Datetime(datetime),
                Err(_) => toml::Value::String(text.clone()),
            },
            RawValue::Array(items) => {
                toml::Value::Array(items.iter().map(|item| item.to_toml_value_at(depth + 1)).collect())
            }
            RawValue::Table(table) => toml::Value::Table(
                table.iter().map(|(key, node)| (key.to_string(), node.to_toml_value_at(depth + 1))).collect(),
            ),
        }
    }

    /// The value as JSON, e.g. for tools that show the merged data; date-times become strings
    /// and non-finite floats become `null`, since JSON has neither.
    pub fn to_json_value(&self) -> serde_json::Value {
        self.to_json_value_at(0)
    }

    fn to_json_value_at(&self, depth: usize) -> serde_json::Value {
        use serde_json::Value;
        if depth > MAX_DEPTH {
            return Value::Object(serde_json::Map::new());
        }
        match &self.value {
            RawValue::String(text) | RawValue::Datetime(text) => Value::String(text.clone()),
            RawValue::Integer(number) => Value::from(*number),
            RawValue::Float(number) => serde_json::Number::from_f64(*number).map_or(Value::Null, Value::Number),
            RawValue::Bool(flag) => Value::Bool(*flag),
            RawValue::Array(items) => Value::Array(items.iter().map(|item| item.to_json_value_at(depth + 1)).collect()),
            RawValue::Table(table) => Value::Object(
                table.iter().map(|(key, node)| (key.to_string(), node.to_json_value_at(depth + 1))).collect(),
            ),
        }
    }
}

/// Parses the TOML text of `file` into a located tree whose root is the file's top-level table.
///
/// Every syntax error of the file is returned (up to a cap that hides recovery cascades), each
/// located at the offending text with the parser's message on one line.
pub fn parse(sources: &Sources, file: FileId) -> Result<RawNode, Vec<Diagnostic>> {
    let Some(source) = sources.file(file) else {
        return Err(vec![Diagnostic::error(format!("internal error: no source file with id {}", file.0))]);
    };
    let text = source.text.as_str();
    let (document, errors) = DeTable::parse_recoverable(text);
    if !errors.is_empty() {
        return Err(syntax_diagnostics(sources, file, text, &errors));
    }
    let root = Spanned::new(0..0, DeValue::Table(document.into_inner()));
    let mut diagnostics = Vec::new();
    let node = convert(root, None, file, 0, sources, &mut diagnostics);
    if diagnostics.is_empty() { Ok(node) } else { Err(diagnostics) }
}

/// Turns the parser's errors into located diagnostics, in file order and without repeats.
fn syntax_diagnostics(sources: &Sources, file: FileId, text: &str, errors: &[toml::de::Error]) -> Vec<Diagnostic> {
    let mut located: Vec<(usize, String)> = errors
        .iter()
        .map(|error| {
            let message = clean_parser_message(error.message());
            // The parser reports keys dotted too deeply without a span; point at the first line
            // that looks like one rather than at nothing.
            let offset = error.span().map_or_else(|| deeply_dotted_line_offset(text), |span| span.start);
            (offset, message)
        })
        .collect();
    located.sort();
    located.dedup();
    // After a bracket that is never closed the parser reads the rest of the file as its
    // contents, and every line after it gives an error that only buries the real one.
    if let Some((opened_at, bracket)) = unclosed_bracket(text)
        && located.iter().any(|(offset, _)| *offset >= opened_at)
    {
        let closing = if bracket == '[' { ']' } else { '}' };
        located.retain(|(offset, _)| *offset < opened_at);
        located.push((opened_at, format!("invalid TOML: this `{bracket}` has no matching `{closing}`")));
    }
    for (offset, message) in &mut located {
        if value_missing_at(text, *offset) {
            *message = String::from("invalid TOML: a value is missing after `=`");
        } else if message == "invalid TOML: duplicate key"
            && let Some(header) = table_header_at(text, *offset)
        {
            *message = format!("invalid TOML: the table `{header}` is written twice in this file");
        }
    }
    let hidden = located.len().saturating_sub(MAX_SYNTAX_ERRORS);
    let mut diagnostics: Vec<Diagnostic> = located
        .into_iter()
        .take(MAX_SYNTAX_ERRORS)
        .map(|(offset, message)| sources.diagnostic(Location::new(file, offset, offset), message))
        .collect();
    if hidden > 0 {
        diagnostics.push(
            Diagnostic::error(format!("{hidden} more syntax errors in this file are not shown"))
                .in_file(sources.display_path(file)),
        );
    }
    diagnostics
}

/// The parser's message on one line, with its wording about recursion made plain.
fn clean_parser_message(message: &str) -> String {
    let one_line = message.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.contains("recursion") || one_line.contains("recurse") {
        return String::from("the value is nested too deeply");
    }
    let one_line = one_line.trim_end_matches('.');
    if one_line.is_empty() { String::from("invalid TOML") } else { format!("invalid TOML: {one_line}") }
}

/// The first `[` or `{` of a value or table header that is never closed, with its offset: the
/// one left open at the end of the file, or the one a different closing bracket meets.
/// Brackets inside strings and comments do not count.
fn unclosed_bracket(text: &str) -> Option<(usize, char)> {
    let bytes = text.as_bytes();
    let mut open: Vec<(usize, u8)> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            quote @ (b'"' | b'\'') => {
                let triple = bytes[i..].starts_with(&[quote; 3]);
                i += if triple { 3 } else { 1 };
                while i < bytes.len() {
                    if quote == b'"' && bytes[i] == b'\\' {
                        i += 2;
                        continue;
                    }
                    if triple && bytes[i..].starts_with(&[quote; 3]) {
                        // A closing `"""` may be followed by up to two more quotes of the text.
                        i += 3;
                        while bytes.get(i) == Some(&quote) {
                            i += 1;
                        }
                        break;
                    }
                    if !triple && (bytes[i] == quote || bytes[i] == b'\n') {
                        // A one-line string ends at its quote, or (unclosed) at the line end.
                        i += usize::from(bytes[i] == quote);
                        break;
                    }
                    i += 1;
                }
                continue;
            }
            bracket @ (b'[' | b'{') => open.push((i, bracket)),
            closing @ (b']' | b'}') => {
                let expected = if closing == b']' { b'[' } else { b'{' };
                match open.pop() {
                    Some((_, bracket)) if bracket == expected => {}
                    Some((at, bracket)) => return Some((at, char::from(bracket))),
                    None => {}
                }
            }
            _ => {}
        }
        i += 1;
    }
    open.first().map(|&(at, bracket)| (at, char::from(bracket)))
}

/// Whether `offset` is at the end of a line that ends in `=`: a key with no value, for which
/// the parser's own message is about quoting.
fn value_missing_at(text: &str, offset: usize) -> bool {
    let Some(before) = text.get(..offset) else { return false };
    let line_end = text[offset..].find('\n').map_or(text.len(), |end| offset + end);
    let rest = text[offset..line_end].trim();
    (rest.is_empty() || rest.starts_with('#')) && before.trim_end_matches([' ', '\t']).ends_with('=')
}

/// The table header (`[a.b]` or `[[a.b]]`) on the line of `offset`, if that line is one.
fn table_header_at(text: &str, offset: usize) -> Option<&str> {
    let line_start = text.get(..offset)?.rfind('\n').map_or(0, |newline| newline + 1);
    let line = text[line_start..].lines().next()?;
    let header = line.split('#').next()?.trim();
    (header.starts_with('[') && header.ends_with(']')).then_some(header)
}

/// The start of the first line with a suspiciously long dotted key, or 0.
fn deeply_dotted_line_offset(text: &str) -> usize {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.matches('.').count() >= 64 {
            return offset;
        }
        offset += line.len();
    }
    0
}

/// Converts one parsed value, reporting values the tree cannot hold (integers beyond 64 bits)
/// and nesting beyond [`MAX_DEPTH`].
fn convert(
    value: Spanned<DeValue<'_>>,
    key_loc: Option<Location>,
    file: FileId,
    depth: usize,
    sources: &Sources,
    diagnostics: &mut Vec<Diagnostic>,
) -> RawNode {
    let span = value.span();
    let loc = Location::new(file, span.start, span.end);
    if depth > MAX_DEPTH {
        diagnostics
            .push(sources.diagnostic(loc, format!("the value is nested too deeply (more than {MAX_DEPTH} levels)")));
        return RawNode { value: RawValue::Table(RawTable::new()), loc, key_loc };
    }
    let value = match value.into_inner() {
        DeValue::String(text) => RawValue::String(text.into_owned()),
        DeValue::Integer(integer) => match i64::from_str_radix(integer.as_str(), integer.radix()) {
            Ok(number) => RawValue::Integer(number),
            Err(_) => {
                diagnostics.push(sources.diagnostic(loc, "the integer does not fit in 64 bits"));
                RawValue::Integer(0)
            }
        },
        DeValue::Float(float) => match float.as_str().parse::<f64>() {
            Ok(number) => RawValue::Float(number),
            Err(_) => {
                diagnostics.push(sources.diagnostic(loc, "the number is not a valid float"));
                RawValue::Float(0.0)
            }
        },
        DeValue::Boolean(flag) => RawValue::Bool(flag),
        DeValue::Datetime(datetime) => RawValue::Datetime(datetime.to_string()),
        DeValue::Array(items) => RawValue::Array(
            items.into_iter().map(|item| convert(item, None, file, depth + 1, sources, diagnostics)).collect(),
        ),
        DeValue::Table(table) => {
            let mut entries: Vec<_> = table.into_iter().collect();
            // Without toml's `preserve_order` feature the parser sorts keys; restore the order in
            // which the modder wrote them.
            entries.sort_by_key(|(key, _)| key.span().start);
            RawValue::Table(
                entries
                    .into_iter()
                    .map(|(key, value)| {
                        let key_span = key.span();
                        let key_loc = Location::new(file, key_span.start, key_span.end);
                        let node = convert(value, Some(key_loc), file, depth + 1, sources, diagnostics);
                        (key.into_inner().into_owned(), node)
                    })
                    .collect(),
            )
        }
    };
    RawNode { value, loc, key_loc }
}
