//! Checking merged data against the JSON Schema that schemars generates from the definition types.
//!
//! Serde stops at the first problem and knows no line numbers; this pass walks the located tree
//! and the schema together and reports every problem at once, each at the offending value (or
//! key), in a modder's words. Only when the data passes does [`deserialize`] hand it to serde.

use std::cell::Cell;
use std::cmp::Ordering;
use std::collections::{BTreeSet, HashSet};

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::MAX_DEPTH;
use super::files::{Location, Sources};
use super::raw::{PathSegment, RawNode, RawValue, format_path};
use crate::diag::{Diagnostic, did_you_mean, shown};

/// How many schema steps (`$ref`, `allOf`, …) may be taken in total along one path before the
/// schema is taken to refer to itself without end.
const MAX_SCHEMA_STEPS: usize = 4 * MAX_DEPTH;

/// How many schema steps one validation may take per value in the data (plus a fixed allowance).
/// Real schemas need a handful per value; the budget only runs out on a schema that branches into
/// itself (`allOf: [$ref #, $ref #]`), which would otherwise take exponential time.
const STEPS_PER_VALUE: usize = 1_000;

/// Lists of allowed keys or values longer than this are left out of messages; a suggestion or the
/// documentation serves better than a wall of names.
const MAX_LISTED: usize = 20;

/// Checks `root` against `schema`, a JSON Schema 2020-12 document as emitted by
/// `schemars::schema_for!`, and returns every problem found, sorted by file, line and column.
pub fn validate(root: &RawNode, schema: &Value, sources: &Sources) -> Vec<Diagnostic> {
    let validator = Validator {
        root_schema: schema,
        sources,
        budget: Cell::new(STEPS_PER_VALUE.saturating_mul(count_values(root).saturating_add(100))),
        budget_reported: Cell::new(false),
    };
    let mut diagnostics = Vec::new();
    validator.check(root, schema, &mut Vec::new(), 0, &mut diagnostics);
    sort_diagnostics(&mut diagnostics);
    diagnostics
}

/// How many values the tree holds, counted without recursion.
fn count_values(root: &RawNode) -> usize {
    let mut count = 0;
    let mut pending = vec![root];
    while let Some(node) = pending.pop() {
        count += 1;
        match &node.value {
            RawValue::Array(items) => pending.extend(items),
            RawValue::Table(table) => pending.extend(table.iter().map(|(_, value)| value)),
            _ => {}
        }
    }
    count
}

/// Converts validated data into `T` with serde.
///
/// The schema cannot express everything serde checks; when serde still refuses the data, the
/// error is located at the deepest value named by the path in serde's message.
pub fn deserialize<T: DeserializeOwned>(root: &RawNode, sources: &Sources) -> Result<T, Diagnostic> {
    T::deserialize(root.to_toml_value()).map_err(|error| locate_serde_error(&error, root, sources))
}

/// Sorts diagnostics by file, line and column, keeping the order of problems at the same place.
pub fn sort_diagnostics(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(|a, b| (&a.file, a.line, a.col).cmp(&(&b.file, b.line, b.col)));
}

/// Places a serde error at the value its key path leads to, as far as that path can be followed.
fn locate_serde_error(error: &toml::de::Error, root: &RawNode, sources: &Sources) -> Diagnostic {
    let text = error.to_string();
    // Without source text the error displays as the message, then "in `a.b.c`" for the keys.
    let keys: Vec<&str> = text
        .lines()
        .rev()
        .find_map(|line| line.strip_prefix("in `")?.strip_suffix('`'))
        .map(|keys| keys.split('.').collect())
        .unwrap_or_default();
    let mut node = root;
    let mut path = Vec::new();
    let mut pending: Vec<&str> = Vec::new();
    for key in keys {
        // A key containing dots was split above; rejoin pieces until they name an entry.
        pending.push(key);
        let candidate = pending.join(".");
        if let Some(child) = node.get(&candidate) {
            node = child;
            path.push(PathSegment::Key(candidate));
            pending.clear();
        }
    }
    let message = error.message().split_whitespace().collect::<Vec<_>>().join(" ");
    located(sources, node.loc, &path, &message)
}

/// A diagnostic about the value at `path`, whose `table` is the containing table and whose `key`
/// is the last key (with any array indices after it, as in `params[1]`).
fn located(sources: &Sources, loc: Location, path: &[PathSegment], message: &str) -> Diagnostic {
    let diagnostic = sources.diagnostic(loc, message);
    match path.iter().rposition(|segment| matches!(segment, PathSegment::Key(_))) {
        Some(position) => {
            // The key stays unquoted (the display wraps it in backticks); array indices after it
            // are appended as in `params[1]`.
            let mut key = match &path[position] {
                PathSegment::Key(raw) => raw.clone(),
                PathSegment::Index(_) => String::new(),
            };
            key.push_str(&format_path(&path[position + 1..]));
            diagnostic.in_table(format_path(&path[..position])).with_key(key)
        }
        None => diagnostic.in_table(format_path(path)),
    }
}

/// Walks data and schema together; problems go to a caller-supplied list so that alternative
/// schemas can be tried and compared without reporting anything.
struct Validator<'a> {
    root_schema: &'a Value,
    sources: &'a Sources,
    /// Schema steps left before giving up; see [`STEPS_PER_VALUE`].
    budget: Cell<usize>,
    /// Whether running out of budget has been reported, so it is reported once.
    budget_reported: Cell<bool>,
}

/// A number from the data or the schema, compared exactly when both sides are integers.
#[derive(Clone, Copy, Debug)]
enum Number {
    Integer(i128),
    Float(f64),
}

impl Number {
    fn from_json(value: &Value) -> Option<Self> {
        if let Some(integer) = value.as_i64() {
            return Some(Number::Integer(i128::from(integer)));
        }
        if let Some(integer) = value.as_u64() {
            return Some(Number::Integer(i128::from(integer)));
        }
        value.as_f64().map(Number::Float)
    }

    fn as_f64(self) -> f64 {
        match self {
            // Precision loss only matters beyond 2^53, far outside any game's numbers.
            Number::Integer(integer) => integer as f64,
            Number::Float(float) => float,
        }
    }

    fn compare(self, other: Number) -> Option<Ordering> {
        match (self, other) {
            (Number::Integer(a), Number::Integer(b)) => Some(a.cmp(&b)),
            _ => self.as_f64().partial_cmp(&other.as_f64()),
        }
    }
}

impl std::fmt::Display for Number {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Number::Integer(integer) => write!(f, "{integer}"),
            Number::Float(float) => write!(f, "{float}"),
        }
    }
}

/// The integer range implied by a schemars `format`, e.g. `uint8` → 0..=255.
fn format_range(format: &str) -> Option<(i128, i128)> {
    Some(match format {
        "int8" => (i128::from(i8::MIN), i128::from(i8::MAX)),
        "int16" => (i128::from(i16::MIN), i128::from(i16::MAX)),
        "int32" => (i128::from(i32::MIN), i128::from(i32::MAX)),
        "int64" | "int" | "int128" => (i128::from(i64::MIN), i128::from(i64::MAX)),
        "uint8" => (0, i128::from(u8::MAX)),
        "uint16" => (0, i128::from(u16::MAX)),
        "uint32" => (0, i128::from(u32::MAX)),
        "uint64" | "uint" | "uint128" => (0, i128::from(u64::MAX)),
        _ => return None,
    })
}

/// A JSON Schema type name with an article, for "expected …" messages.
fn describe_type(name: &str) -> &str {
    match name {
        "string" => "a string",
        "integer" => "an integer",
        "number" => "a number",
        "boolean" => "a boolean",
        "array" => "an array",
        "object" => "a table",
        "null" => "nothing",
        other => other,
    }
}

/// A JSON Schema type name as a modder knows it, for "expected one of: …" lists.
fn plain_type(name: &str) -> &str {
    match name {
        "object" => "table",
        other => other,
    }
}

/// "expected an integer, found a string", or with several types "expected one of: string,
/// table; found an integer".
fn expected_types_message(types: &[&str], found: &RawValue) -> String {
    match types {
        [] => format!("no value is allowed here, found {}", found.describe()),
        [one] => format!("expected {}, found {}", describe_type(one), found.describe()),
        many => {
            let names: Vec<&str> = many.iter().map(|name| plain_type(name)).collect();
            format!("expected one of: {}; found {}", names.join(", "), found.describe())
        }
    }
}

/// Whether a TOML value is of the JSON Schema type `name`.
fn value_has_type(value: &RawValue, name: &str) -> bool {
    match name {
        "string" => matches!(value, RawValue::String(_)),
        "integer" => matches!(value, RawValue::Integer(_)),
        // TOML `1` is a fine value for a float.
        "number" => matches!(value, RawValue::Integer(_) | RawValue::Float(_)),
        "boolean" => matches!(value, RawValue::Bool(_)),
        "array" => matches!(value, RawValue::Array(_)),
        "object" => matches!(value, RawValue::Table(_)),
        // TOML has no null; a missing key is how an `Option` is left empty.
        "null" => false,
        // An unknown type name is the schema's problem, not the modder's.
        _ => true,
    }
}

/// The JSON Schema type of a JSON value.
fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(number) if number.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Whether two JSON values are equal, with `1` equal to `1.0` as JSON Schema requires.
fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(_), Value::Number(_)) => match (Number::from_json(a), Number::from_json(b)) {
            (Some(x), Some(y)) => x.compare(y) == Some(Ordering::Equal),
            _ => false,
        },
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_equal(a, b)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(key, a)| y.get(key).is_some_and(|b| json_equal(a, b)))
        }
        _ => a == b,
    }
}

/// A JSON value as written in a message: strings bare, everything else as JSON.
fn show_json(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// Whether `text` matches a JSON Schema `pattern`, for the patterns made of single characters,
/// `.`, classes (`[0-9a-f]`, `\d`, `\w`, `\s`), quantifiers (`?`, `*`, `+`, `{n}`, `{n,m}`) and
/// the anchors `^` and `$`. `None` for any other pattern (groups, alternatives): the value is
/// then left unchecked rather than refused by a guess.
fn pattern_matches(pattern: &str, text: &str) -> Option<bool> {
    let mut chars: Vec<char> = pattern.chars().collect();
    let from_start = chars.first() == Some(&'^');
    if from_start {
        chars.remove(0);
    }
    let to_end = chars.last() == Some(&'$') && (chars.len() < 2 || chars[chars.len() - 2] != '\\');
    if to_end {
        chars.pop();
    }
    let mut pieces = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let atom = match chars[i] {
            '.' => PatternAtom::Any,
            '\\' => {
                i += 1;
                match *chars.get(i)? {
                    'd' => PatternAtom::Class { negated: false, ranges: vec![('0', '9')] },
                    'w' => PatternAtom::Class {
                        negated: false,
                        ranges: vec![('a', 'z'), ('A', 'Z'), ('0', '9'), ('_', '_')],
                    },
                    's' => PatternAtom::Class {
                        negated: false,
                        ranges: vec![(' ', ' '), ('\t', '\t'), ('\n', '\n'), ('\r', '\r')],
                    },
                    c if c.is_ascii_alphanumeric() => return None,
                    c => PatternAtom::Char(c),
                }
            }
            '[' => {
                i += 1;
                let negated = chars.get(i) == Some(&'^');
                if negated {
                    i += 1;
                }
                let mut ranges = Vec::new();
                while *chars.get(i)? != ']' {
                    let low = match chars[i] {
                        '\\' | '[' => return None,
                        c => c,
                    };
                    if chars.get(i + 1) == Some(&'-') && chars.get(i + 2).is_some_and(|c| *c != ']') {
                        ranges.push((low, chars[i + 2]));
                        i += 3;
                    } else {
                        ranges.push((low, low));
                        i += 1;
                    }
                }
                PatternAtom::Class { negated, ranges }
            }
            '(' | ')' | '|' | '^' | '$' | '*' | '+' | '?' | '{' | '}' => return None,
            c => PatternAtom::Char(c),
        };
        i += 1;
        // The repeat count, and how many characters of the pattern say it.
        let (min, max, width) = match chars.get(i) {
            Some('?') => (0, 1, 1),
            Some('*') => (0, usize::MAX, 1),
            Some('+') => (1, usize::MAX, 1),
            Some('{') => {
                let close = i + chars[i..].iter().position(|c| *c == '}')?;
                let inside: String = chars[i + 1..close].iter().collect();
                let (min, max) = match inside.split_once(',') {
                    None => (inside.parse().ok()?, inside.parse().ok()?),
                    Some((low, "")) => (low.parse().ok()?, usize::MAX),
                    Some((low, high)) => (low.parse().ok()?, high.parse().ok()?),
                };
                (min, max, close + 1 - i)
            }
            _ => (1, 1, 0),
        };
        i += width;
        pieces.push((atom, min, max));
    }
    let text: Vec<char> = text.chars().collect();
    let starts = if from_start { 0..1 } else { 0..text.len() + 1 };
    Some(starts.into_iter().any(|start| pattern_match_here(&pieces, &text[start..], to_end)))
}

/// One character (or class of characters) of a pattern.
enum PatternAtom {
    Any,
    Char(char),
    Class { negated: bool, ranges: Vec<(char, char)> },
}

impl PatternAtom {
    fn matches(&self, c: char) -> bool {
        match self {
            PatternAtom::Any => c != '\n',
            PatternAtom::Char(wanted) => c == *wanted,
            PatternAtom::Class { negated, ranges } => {
                ranges.iter().any(|(low, high)| (*low..=*high).contains(&c)) != *negated
            }
        }
    }
}

/// Whether `pieces` (atoms with their repeat counts) match the start of `text` (all of it when
/// `to_end`), trying the longest repeat first.
fn pattern_match_here(pieces: &[(PatternAtom, usize, usize)], text: &[char], to_end: bool) -> bool {
    let Some(((atom, min, max), rest)) = pieces.split_first() else {
        return !to_end || text.is_empty();
    };
    let mut count = 0;
    while count < *max && count < text.len() && atom.matches(text[count]) {
        count += 1;
    }
    count >= *min && (*min..=count).rev().any(|taken| pattern_match_here(rest, &text[taken..], to_end))
}

/// `a, b, c`, or nothing when the list is too long to help.
fn listing<'s>(names: impl IntoIterator<Item = &'s str>) -> Option<String> {
    let names: Vec<&str> = names.into_iter().collect();
    (!names.is_empty() && names.len() <= MAX_LISTED).then(|| names.join(", "))
}

impl<'a> Validator<'a> {
    /// Takes one step from the budget; false once it is spent.
    fn spend(&self) -> bool {
        let left = self.budget.get();
        self.budget.set(left.saturating_sub(1));
        left > 0
    }

    /// The schema a `$ref` points to; only references into the same document are supported,
    /// which is all schemars emits.
    fn resolve_ref(&self, reference: &str) -> Option<&'a Value> {
        let pointer = reference.strip_prefix('#')?;
        if pointer.is_empty() { Some(self.root_schema) } else { self.root_schema.pointer(pointer) }
    }

    /// Follows `$ref` chains so a schema's own keywords can be inspected; gives up (returning
    /// the last schema reached) on chains longer than any real schema has.
    fn follow_refs(&self, mut schema: &'a Value) -> &'a Value {
        for _ in 0..MAX_DEPTH {
            let Some(reference) = schema.get("$ref").and_then(Value::as_str) else {
                break;
            };
            // A `$ref` with other constraints beside it is not a plain alias; inspect it as is.
            let is_alias = schema.as_object().is_some_and(|object| {
                object.keys().all(|key| {
                    matches!(key.as_str(), "$ref" | "description" | "default" | "title" | "examples" | "$comment")
                })
            });
            match self.resolve_ref(reference) {
                Some(target) if is_alias => schema = target,
                _ => break,
            }
        }
        schema
    }

    fn diagnostic_at(&self, node: &RawNode, path: &[PathSegment], message: &str) -> Diagnostic {
        located(self.sources, node.loc, path, message)
    }

    /// A problem with table `table_node` (at `path`) concerning its key `key`.
    fn table_key_diagnostic(&self, loc: Location, path: &[PathSegment], key: &str, message: &str) -> Diagnostic {
        self.sources.diagnostic(loc, message).in_table(format_path(path)).with_key(key)
    }

    /// Checks `node` (found at `path`) against `schema`, appending problems to `out`.
    fn check(
        &self,
        node: &RawNode,
        schema: &'a Value,
        path: &mut Vec<PathSegment>,
        steps: usize,
        out: &mut Vec<Diagnostic>,
    ) {
        if path.len() > MAX_DEPTH {
            // The path itself would be too long to show; the line and column say where.
            let message = format!("the value is nested too deeply (more than {MAX_DEPTH} levels)");
            out.push(self.sources.diagnostic(node.loc, message));
            return;
        }
        if steps > MAX_SCHEMA_STEPS {
            out.push(self.diagnostic_at(node, path, "internal error: the schema refers to itself without end"));
            return;
        }
        if !self.spend() {
            if !self.budget_reported.replace(true) {
                out.push(self.diagnostic_at(node, path, "internal error: the schema is too complex to check"));
            }
            return;
        }
        let object = match schema {
            Value::Bool(true) => return,
            Value::Bool(false) => {
                out.push(self.diagnostic_at(node, path, "no value is allowed here"));
                return;
            }
            Value::Object(object) => object,
            // Anything else is not a schema; there is nothing a modder could fix.
            _ => return,
        };
        if let Some(expected) = object.get("type")
            && !self.check_type(node, expected, path, out)
        {
            // Every other keyword would only restate the type mismatch.
            return;
        }
        if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
            match self.resolve_ref(reference) {
                Some(target) => self.check(node, target, path, steps + 1, out),
                None => out.push(self.diagnostic_at(
                    node,
                    path,
                    &format!("internal error: the schema reference `{reference}` cannot be resolved"),
                )),
            }
        }
        if let Some(Value::Array(parts)) = object.get("allOf") {
            for part in parts {
                self.check(node, part, path, steps + 1, out);
            }
        }
        for keyword in ["oneOf", "anyOf"] {
            if let Some(Value::Array(branches)) = object.get(keyword) {
                self.check_alternatives(node, branches, path, steps + 1, out);
            }
        }
        self.check_allowed_values(node, object, path, out);
        match &node.value {
            RawValue::Integer(integer) => {
                self.check_number(node, Number::Integer(i128::from(*integer)), object, path, out)
            }
            RawValue::Float(float) => self.check_number(node, Number::Float(*float), object, path, out),
            RawValue::String(text) => self.check_length(node, text, object, path, out),
            RawValue::Array(items) => self.check_array(node, items, object, path, steps, out),
            RawValue::Table(_) => self.check_table(node, object, path, steps, out),
            RawValue::Bool(_) | RawValue::Datetime(_) => {}
        }
    }

    /// Checks the `type` keyword; returns whether the value has an allowed type.
    fn check_type(&self, node: &RawNode, expected: &Value, path: &[PathSegment], out: &mut Vec<Diagnostic>) -> bool {
        let names: Vec<&str> = match expected {
            Value::String(name) => vec![name.as_str()],
            Value::Array(names) => names.iter().filter_map(Value::as_str).collect(),
            _ => return true,
        };
        if names.is_empty() || names.iter().any(|name| value_has_type(&node.value, name)) {
            return true;
        }
        let wanted: Vec<&str> = names.iter().copied().filter(|name| *name != "null").collect();
        let mut message = expected_types_message(&wanted, &node.value);
        match &node.value {
            RawValue::Float(float) if wanted.contains(&"integer") && float.fract() == 0.0 => {
                message.push_str("; write it without a decimal point");
            }
            RawValue::Datetime(_) if wanted.contains(&"string") => {
                message.push_str("; put it in quotes to use it as text");
            }
            _ => {}
        }
        out.push(self.diagnostic_at(node, path, &message));
        false
    }

    /// Checks `enum` and `const`, suggesting the closest allowed string.
    fn check_allowed_values(
        &self,
        node: &RawNode,
        object: &Map<String, Value>,
        path: &[PathSegment],
        out: &mut Vec<Diagnostic>,
    ) {
        let allowed: Vec<&Value> = match (object.get("enum"), object.get("const")) {
            (Some(Value::Array(values)), _) => values.iter().collect(),
            (_, Some(value)) => vec![value],
            _ => return,
        };
        let value = node.to_json_value();
        if allowed.iter().any(|candidate| json_equal(candidate, &value)) {
            return;
        }
        out.push(self.unknown_value(node, path, &allowed));
    }

    /// "unknown value `x`; expected one of: …" with a did-you-mean among the string choices.
    fn unknown_value(&self, node: &RawNode, path: &[PathSegment], allowed: &[&Value]) -> Diagnostic {
        let shown: Vec<String> = allowed.iter().map(|value| show_json(value)).collect();
        let choices = match shown.as_slice() {
            [one] => format!("expected `{one}`"),
            _ => match listing(shown.iter().map(String::as_str)) {
                Some(list) => format!("expected one of: {list}"),
                None => String::from("see the documentation for the allowed values"),
            },
        };
        let found = match &node.value {
            RawValue::String(text) => format!("`{}`", crate::diag::shown(text)),
            _ => {
                let shown = show_json(&node.to_json_value());
                if shown.chars().count() > 40 { shown.chars().take(40).collect::<String>() + "…" } else { shown }
            }
        };
        let suggestion = node.as_str().and_then(|text| did_you_mean(text, allowed.iter().filter_map(|v| v.as_str())));
        self.diagnostic_at(node, path, &format!("unknown value {found}; {choices}")).with_suggestion(suggestion)
    }

    /// Checks the range keywords, including the range implied by schemars' integer `format`.
    fn check_number(
        &self,
        node: &RawNode,
        value: Number,
        object: &Map<String, Value>,
        path: &[PathSegment],
        out: &mut Vec<Diagnostic>,
    ) {
        let bound = |keyword: &str| object.get(keyword).and_then(Number::from_json);
        let range = match value {
            Number::Integer(_) => object.get("format").and_then(Value::as_str).and_then(format_range),
            Number::Float(_) => None,
        };
        let tighter = |a: Option<Number>, b: Option<Number>, pick_larger: bool| match (a, b) {
            (Some(a), Some(b)) => {
                let a_wins = if pick_larger {
                    a.compare(b) == Some(Ordering::Greater)
                } else {
                    a.compare(b) == Some(Ordering::Less)
                };
                Some(if a_wins { a } else { b })
            }
            (a, b) => a.or(b),
        };
        let minimum = tighter(bound("minimum"), range.map(|(low, _)| Number::Integer(low)), true);
        let maximum = tighter(bound("maximum"), range.map(|(_, high)| Number::Integer(high)), false);
        let mut problem = None;
        if let Some(minimum) = minimum
            && value.compare(minimum) == Some(Ordering::Less)
        {
            problem = Some(format!("{value} is below the minimum {minimum}"));
        } else if let Some(maximum) = maximum
            && value.compare(maximum) == Some(Ordering::Greater)
        {
            problem = Some(format!("{value} is above the maximum {maximum}"));
        } else if let Some(limit) = bound("exclusiveMinimum")
            && value.compare(limit) != Some(Ordering::Greater)
        {
            problem = Some(format!("{value} must be greater than {limit}"));
        } else if let Some(limit) = bound("exclusiveMaximum")
            && value.compare(limit) != Some(Ordering::Less)
        {
            problem = Some(format!("{value} must be less than {limit}"));
        } else if let Some(step) = bound("multipleOf")
            && step.as_f64() > 0.0
            && (value.as_f64() / step.as_f64()).fract() != 0.0
        {
            problem = Some(format!("{value} is not a multiple of {step}"));
        }
        if let Some(message) = problem {
            out.push(self.diagnostic_at(node, path, &message));
        }
    }

    /// Checks `minLength` and `maxLength`, counted in characters.
    fn check_length(
        &self,
        node: &RawNode,
        text: &str,
        object: &Map<String, Value>,
        path: &[PathSegment],
        out: &mut Vec<Diagnostic>,
    ) {
        let length = text.chars().count() as u64;
        if let Some(minimum) = object.get("minLength").and_then(Value::as_u64)
            && length < minimum
        {
            let message = if length == 0 {
                String::from("the text must not be empty")
            } else {
                format!("the text is {length} characters long; at least {minimum} are required")
            };
            out.push(self.diagnostic_at(node, path, &message));
        }
        if let Some(maximum) = object.get("maxLength").and_then(Value::as_u64)
            && length > maximum
        {
            out.push(self.diagnostic_at(
                node,
                path,
                &format!("the text is {length} characters long; at most {maximum} are allowed"),
            ));
        }
        if let Some(pattern) = object.get("pattern").and_then(Value::as_str)
            && pattern_matches(pattern, text) == Some(false)
        {
            let mut message = format!("`{}` does not fit the pattern `{pattern}`", shown(text));
            if let Some(example) = object.get("examples").and_then(Value::as_array).and_then(|e| e.first()) {
                message.push_str(&format!("; write it like `{}`", show_json(example)));
            }
            out.push(self.diagnostic_at(node, path, &message));
        }
    }

    /// Checks the elements of an array and its length.
    fn check_array(
        &self,
        node: &RawNode,
        items: &[RawNode],
        object: &Map<String, Value>,
        path: &mut Vec<PathSegment>,
        steps: usize,
        out: &mut Vec<Diagnostic>,
    ) {
        let count = items.len() as u64;
        if let Some(minimum) = object.get("minItems").and_then(Value::as_u64)
            && count < minimum
        {
            out.push(self.diagnostic_at(node, path, &format!("expected at least {minimum} elements, found {count}")));
        }
        if let Some(maximum) = object.get("maxItems").and_then(Value::as_u64)
            && count > maximum
        {
            out.push(self.diagnostic_at(node, path, &format!("expected at most {maximum} elements, found {count}")));
        }
        let prefix: &[Value] = match object.get("prefixItems") {
            Some(Value::Array(schemas)) => schemas,
            _ => &[],
        };
        let rest = object.get("items");
        for (index, item) in items.iter().enumerate() {
            let schema = match prefix.get(index) {
                Some(schema) => Some(schema),
                None => rest,
            };
            if let Some(schema) = schema {
                path.push(PathSegment::Index(index));
                self.check(item, schema, path, steps + 1, out);
                path.pop();
            }
        }
        if object.get("uniqueItems") == Some(&Value::Bool(true)) {
            let mut seen = HashSet::new();
            for (index, item) in items.iter().enumerate() {
                let value = item.to_json_value();
                if !seen.insert(value.to_string()) {
                    path.push(PathSegment::Index(index));
                    out.push(self.diagnostic_at(
                        item,
                        path,
                        &format!("`{}` is listed twice; each value may appear only once", show_json(&value)),
                    ));
                    path.pop();
                }
            }
        }
    }

    /// A missing key of the table at `path`, written at `loc`. A file's top-level table starts
    /// before the first line, so there the problem is the file's, not its first line's.
    fn missing_key_diagnostic(&self, loc: Location, path: &[PathSegment], key: &str, message: &str) -> Diagnostic {
        if path.is_empty() && loc.start == 0 && loc.end == 0 {
            let mut diagnostic = Diagnostic::error(message).with_key(key);
            if self.sources.file(loc.file).is_some() {
                diagnostic = diagnostic.in_file(self.sources.display_path(loc.file));
            }
            return diagnostic;
        }
        self.table_key_diagnostic(loc, path, key, message)
    }

    /// A line that would give `key` a value, from the schema's first example (`name = "My Game"`);
    /// nothing when the schema gives no example.
    fn example_line(&self, key: &str, schema: &'a Value) -> Option<String> {
        // Examples written beside a `$ref` belong to the property, not to the type it refers to.
        let resolved = self.follow_refs(schema);
        let examples = schema.get("examples").or_else(|| resolved.get("examples"));
        let value = match examples?.as_array()?.first()? {
            Value::Object(fields) => {
                // JSON objects here are sorted by key; `required` keeps the order the keys are
                // declared in, the order a modder expects (`{ min = 2, max = 4 }`).
                let declared: Vec<&str> = resolved
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|keys| keys.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let mut keys: Vec<&String> = fields.keys().collect();
                keys.sort_by_key(|key| declared.iter().position(|d| d == key).unwrap_or(usize::MAX));
                let mut table = toml::Table::new();
                for key in keys {
                    table.insert(key.clone(), toml::Value::try_from(&fields[key]).ok()?);
                }
                toml::Value::Table(table)
            }
            example => toml::Value::try_from(example).ok()?,
        };
        Some(format!("{} = {value}", super::raw::format_key(key)))
    }

    /// Checks the keys of a table: known properties, required keys, unknown keys and map values.
    fn check_table(
        &self,
        node: &RawNode,
        object: &'a Map<String, Value>,
        path: &mut Vec<PathSegment>,
        steps: usize,
        out: &mut Vec<Diagnostic>,
    ) {
        let Some(table) = node.as_table() else {
            return;
        };
        let properties = object.get("properties").and_then(Value::as_object);
        if let Some(Value::Array(required)) = object.get("required") {
            for key in required.iter().filter_map(Value::as_str) {
                if !table.contains_key(key) {
                    let mut message = format!("missing required key `{key}`");
                    if let Some(example) = properties.and_then(|p| p.get(key)).and_then(|s| self.example_line(key, s)) {
                        message.push_str(&format!("; for example `{example}`"));
                    }
                    out.push(self.missing_key_diagnostic(node.loc, path, key, &message));
                }
            }
        }
        let additional = object.get("additionalProperties");
        // `unevaluatedProperties: false` also admits the properties of combined subschemas.
        let closed_with_subschemas = object.get("unevaluatedProperties") == Some(&Value::Bool(false));
        let mut allowed_names: BTreeSet<String> = properties.map(|p| p.keys().cloned().collect()).unwrap_or_default();
        if closed_with_subschemas {
            self.collect_property_names_of(object, &mut allowed_names, 0);
        }
        let has_pattern_properties = object.contains_key("patternProperties");
        for (key, value) in table.iter() {
            if let Some(names) = object.get("propertyNames") {
                let key_node = RawNode::new(RawValue::String(key.to_string()), value.key_or_value_loc());
                let mut key_problems = Vec::new();
                self.check(&key_node, names, path, steps + 1, &mut key_problems);
                out.extend(key_problems.into_iter().map(|problem| problem.in_table(format_path(path)).with_key(key)));
            }
            path.push(PathSegment::Key(key.to_string()));
            if let Some(schema) = properties.and_then(|p| p.get(key)) {
                self.check(value, schema, path, steps + 1, out);
            } else if has_pattern_properties {
                // Patterns need a regular expression engine; leave these keys to serde.
            } else if additional == Some(&Value::Bool(false))
                || (closed_with_subschemas && additional.is_none() && !allowed_names.contains(key))
            {
                path.pop();
                out.push(self.unknown_key(value, path, key, &allowed_names));
                continue;
            } else if let Some(schema) = additional {
                self.check(value, schema, path, steps + 1, out);
            }
            path.pop();
        }
        let count = table.len() as u64;
        if let Some(minimum) = object.get("minProperties").and_then(Value::as_u64)
            && count < minimum
        {
            out.push(self.diagnostic_at(node, path, &format!("expected at least {minimum} entries, found {count}")));
        }
        if let Some(maximum) = object.get("maxProperties").and_then(Value::as_u64)
            && count > maximum
        {
            out.push(self.diagnostic_at(node, path, &format!("expected at most {maximum} entries, found {count}")));
        }
    }

    /// "unknown key `x`" at the key, with a did-you-mean or else the list of allowed keys.
    fn unknown_key(
        &self,
        value: &RawNode,
        table_path: &[PathSegment],
        key: &str,
        allowed: &BTreeSet<String>,
    ) -> Diagnostic {
        let suggestion = did_you_mean(key, allowed.iter().map(String::as_str));
        let mut message = format!("unknown key `{}`", shown(key));
        if suggestion.is_none() {
            match listing(allowed.iter().map(String::as_str)) {
                Some(list) => message.push_str(&format!("; allowed keys: {list}")),
                None if allowed.is_empty() => message.push_str("; this table takes no keys"),
                None => {}
            }
        }
        self.table_key_diagnostic(value.key_or_value_loc(), table_path, key, &message).with_suggestion(suggestion)
    }

    /// Gathers the property names a schema and its `$ref`/`allOf`/`anyOf`/`oneOf` parts define.
    fn collect_property_names(&self, schema: &Value, names: &mut BTreeSet<String>, steps: usize) {
        if let Some(object) = schema.as_object() {
            self.collect_property_names_of(object, names, steps);
        }
    }

    /// [`Self::collect_property_names`] for a schema already known to be an object.
    fn collect_property_names_of(&self, object: &Map<String, Value>, names: &mut BTreeSet<String>, steps: usize) {
        if steps > MAX_SCHEMA_STEPS || !self.spend() {
            return;
        }
        if let Some(properties) = object.get("properties").and_then(Value::as_object) {
            names.extend(properties.keys().cloned());
        }
        if let Some(target) = object.get("$ref").and_then(Value::as_str).and_then(|r| self.resolve_ref(r)) {
            self.collect_property_names(target, names, steps + 1);
        }
        for keyword in ["allOf", "anyOf", "oneOf"] {
            if let Some(Value::Array(parts)) = object.get(keyword) {
                for part in parts {
                    self.collect_property_names(part, names, steps + 1);
                }
            }
        }
    }

    /// The JSON Schema types a schema can accept, or `None` when it accepts any type.
    fn accepted_types(&self, schema: &'a Value, steps: usize) -> Option<Vec<&'a str>> {
        if steps > MAX_SCHEMA_STEPS || !self.spend() {
            return None;
        }
        let object = match schema {
            Value::Bool(true) => return None,
            Value::Bool(false) => return Some(Vec::new()),
            Value::Object(object) => object,
            _ => return None,
        };
        match object.get("type") {
            Some(Value::String(name)) => return Some(vec![name.as_str()]),
            Some(Value::Array(names)) => return Some(names.iter().filter_map(Value::as_str).collect()),
            _ => {}
        }
        if let Some(value) = object.get("const") {
            return Some(vec![json_type(value)]);
        }
        if let Some(Value::Array(values)) = object.get("enum") {
            return Some(values.iter().map(json_type).collect());
        }
        if let Some(target) = object.get("$ref").and_then(Value::as_str).and_then(|r| self.resolve_ref(r)) {
            return self.accepted_types(target, steps + 1);
        }
        for keyword in ["oneOf", "anyOf"] {
            if let Some(Value::Array(branches)) = object.get(keyword) {
                let mut union = Vec::new();
                for branch in branches {
                    for name in self.accepted_types(branch, steps + 1)? {
                        if !union.contains(&name) {
                            union.push(name);
                        }
                    }
                }
                return Some(union);
            }
        }
        if let Some(Value::Array(parts)) = object.get("allOf") {
            return parts.iter().find_map(|part| self.accepted_types(part, steps + 1));
        }
        if ["properties", "required", "additionalProperties"].iter().any(|key| object.contains_key(*key)) {
            return Some(vec!["object"]);
        }
        if ["items", "prefixItems"].iter().any(|key| object.contains_key(*key)) {
            return Some(vec!["array"]);
        }
        None
    }

    /// Whether `schema` can accept a value of the kind `node` is.
    fn accepts_kind_of(&self, schema: &'a Value, node: &RawNode, steps: usize) -> bool {
        self.accepted_types(schema, steps)
            .is_none_or(|types| types.iter().any(|name| value_has_type(&node.value, name)))
    }

    /// The string a property schema pins its value to (`const`, or a one-value `enum`).
    fn pinned_string(&self, schema: &'a Value) -> Option<&'a str> {
        let schema = self.follow_refs(schema);
        if let Some(value) = schema.get("const") {
            return value.as_str();
        }
        match schema.get("enum") {
            Some(Value::Array(values)) if values.len() == 1 => values[0].as_str(),
            _ => None,
        }
    }

    /// The `(tag key, tag value)` pairs a branch of a tagged enum pins, in schema order.
    fn pinned_properties(&self, branch: &'a Value) -> Vec<(&'a str, &'a str)> {
        let mut pins = Vec::new();
        let mut parts = vec![branch];
        if let Some(Value::Array(all)) = branch.get("allOf") {
            parts.extend(all.iter().map(|part| self.follow_refs(part)));
        }
        for part in parts {
            if let Some(properties) = part.get("properties").and_then(Value::as_object) {
                for (name, schema) in properties {
                    if let Some(value) = self.pinned_string(schema) {
                        pins.push((name.as_str(), value));
                    }
                }
            }
        }
        pins
    }

    /// The key serde's `#[serde(tag = "…")]` put in every table branch, if the branches have one.
    fn discriminator(&self, table_branches: &[&'a Value]) -> Option<&'a str> {
        let first = table_branches.first()?;
        let pinned_by_all: Vec<&str> = self
            .pinned_properties(first)
            .into_iter()
            .map(|(name, _)| name)
            .filter(|name| {
                table_branches.iter().all(|branch| self.pinned_properties(branch).iter().any(|(n, _)| n == name))
            })
            .collect();
        pinned_by_all.first().copied()
    }

    /// For serde's default (externally tagged) enums: the single key each table branch requires,
    /// when every table branch is a one-key wrapper `{ Variant = … }`.
    fn wrapper_keys(&self, table_branches: &[&'a Value]) -> Option<Vec<&'a str>> {
        table_branches
            .iter()
            .map(|branch| {
                let properties = branch.get("properties")?.as_object()?;
                let required = branch.get("required")?.as_array()?;
                match (properties.len(), required.as_slice()) {
                    (1, [Value::String(name)]) if properties.contains_key(name) => Some(name.as_str()),
                    _ => None,
                }
            })
            .collect()
    }

    /// Checks `node` against `oneOf`/`anyOf` branches by choosing the branch the modder meant:
    /// by the tag of a tagged enum, by the single key of an externally tagged one, otherwise by
    /// the value's type, and among same-typed branches the one with the fewest problems.
    fn check_alternatives(
        &self,
        node: &RawNode,
        branches: &'a [Value],
        path: &mut Vec<PathSegment>,
        steps: usize,
        out: &mut Vec<Diagnostic>,
    ) {
        let resolved: Vec<&'a Value> = branches.iter().map(|branch| self.follow_refs(branch)).collect();
        if node.as_table().is_some() {
            let table_branches: Vec<&'a Value> = resolved
                .iter()
                .copied()
                .filter(|branch| self.accepted_types(branch, steps).is_some_and(|types| types.contains(&"object")))
                .collect();
            if let Some(tag) = self.discriminator(&table_branches) {
                let choices: Vec<(&str, &'a Value)> = table_branches
                    .iter()
                    .filter_map(|branch| {
                        let value = self.pinned_properties(branch).into_iter().find(|(name, _)| *name == tag)?.1;
                        Some((value, *branch))
                    })
                    .collect();
                self.check_tagged(node, tag, &choices, path, steps, out);
                return;
            }
            if let Some(keys) = self.wrapper_keys(&table_branches)
                && table_branches.len() > 1
            {
                self.check_wrapped(node, &keys, &table_branches, path, steps, out);
                return;
            }
        }
        let candidates: Vec<&'a Value> =
            resolved.iter().copied().filter(|branch| self.accepts_kind_of(branch, node, steps)).collect();
        match candidates.as_slice() {
            [] => {
                let mut expected: Vec<&str> = Vec::new();
                for branch in &resolved {
                    for name in self.accepted_types(branch, steps).unwrap_or_default() {
                        if name != "null" && !expected.contains(&plain_type(name)) {
                            expected.push(plain_type(name));
                        }
                    }
                }
                let message = expected_types_message(&expected, &node.value);
                out.push(self.diagnostic_at(node, path, &message));
            }
            [only] => self.check(node, only, path, steps + 1, out),
            _ => {
                let constants: Option<Vec<Vec<&'a Value>>> =
                    candidates.iter().map(|branch| self.constants(branch)).collect();
                if let Some(constants) = constants.map(|lists| lists.concat()) {
                    let value = node.to_json_value();
                    if !constants.iter().any(|constant| json_equal(constant, &value)) {
                        out.push(self.unknown_value(node, path, &constants));
                    }
                    return;
                }
                // The intended branch is the one that knows most of the table's keys (a missing
                // key and a misspelt one both count as one problem, so counting alone cannot
                // tell `{ width = 2, height = "x" }` apart from a circle), then the one with the
                // fewest problems; ties go to the earlier branch, as with serde.
                let mut best: Option<((usize, usize), Vec<Diagnostic>)> = None;
                for branch in candidates {
                    let mut problems = Vec::new();
                    self.check(node, branch, path, steps + 1, &mut problems);
                    if problems.is_empty() {
                        return;
                    }
                    let rank = (self.unknown_key_count(node, branch), problems.len());
                    if best.as_ref().is_none_or(|(best_rank, _)| rank < *best_rank) {
                        best = Some((rank, problems));
                    }
                }
                out.extend(best.map(|(_, problems)| problems).unwrap_or_default());
            }
        }
    }

    /// How many keys of a table `branch` does not name as properties; 0 for other values.
    fn unknown_key_count(&self, node: &RawNode, branch: &'a Value) -> usize {
        let Some(table) = node.as_table() else {
            return 0;
        };
        let mut names = BTreeSet::new();
        self.collect_property_names(branch, &mut names, 0);
        table.keys().filter(|key| !names.contains(*key)).count()
    }

    /// The values a branch allows when it is nothing but a `const` or an `enum`.
    fn constants(&self, branch: &'a Value) -> Option<Vec<&'a Value>> {
        let object = branch.as_object()?;
        let only_constants = object.keys().all(|key| {
            matches!(key.as_str(), "const" | "enum" | "type" | "description" | "title" | "default" | "$comment")
        });
        if !only_constants {
            return None;
        }
        match (object.get("const"), object.get("enum")) {
            (Some(value), _) => Some(vec![value]),
            (_, Some(Value::Array(values))) => Some(values.iter().collect()),
            _ => None,
        }
    }

    /// Checks a table of an internally tagged enum against the branch its tag selects.
    fn check_tagged(
        &self,
        node: &RawNode,
        tag: &str,
        choices: &[(&str, &'a Value)],
        path: &mut Vec<PathSegment>,
        steps: usize,
        out: &mut Vec<Diagnostic>,
    ) {
        let Some(table) = node.as_table() else {
            return;
        };
        let names: Vec<&str> = choices.iter().map(|(name, _)| *name).collect();
        let list = listing(names.iter().copied()).map(|list| format!("; expected one of: {list}")).unwrap_or_default();
        let Some(tag_node) = table.get(tag) else {
            out.push(self.table_key_diagnostic(node.loc, path, tag, &format!("missing required key `{tag}`{list}")));
            return;
        };
        path.push(PathSegment::Key(tag.to_string()));
        let Some(value) = tag_node.as_str() else {
            out.push(self.diagnostic_at(
                tag_node,
                path,
                &format!("expected a string, found {}", tag_node.value.describe()),
            ));
            path.pop();
            return;
        };
        let Some((_, branch)) = choices.iter().find(|(name, _)| *name == value) else {
            let suggestion = did_you_mean(value, names.iter().copied());
            out.push(
                self.diagnostic_at(tag_node, path, &format!("unknown value `{}`{list}", shown(value)))
                    .with_suggestion(suggestion),
            );
            path.pop();
            return;
        };
        path.pop();
        self.check(node, branch, path, steps + 1, out);
    }

    /// Checks a one-key table `{ Variant = … }` of an externally tagged enum.
    fn check_wrapped(
        &self,
        node: &RawNode,
        keys: &[&str],
        branches: &[&'a Value],
        path: &mut Vec<PathSegment>,
        steps: usize,
        out: &mut Vec<Diagnostic>,
    ) {
        let Some(table) = node.as_table() else {
            return;
        };
        let list = listing(keys.iter().copied()).map(|list| format!(": {list}")).unwrap_or_default();
        let mut entries = table.iter();
        let (Some((key, value)), None) = (entries.next(), entries.next()) else {
            out.push(self.diagnostic_at(node, path, &format!("expected a table with exactly one of the keys{list}")));
            return;
        };
        match keys.iter().position(|name| *name == key) {
            Some(position) => self.check(node, branches[position], path, steps + 1, out),
            None => {
                let suggestion = did_you_mean(key, keys.iter().copied());
                let message = format!("unknown variant `{}`; expected one of{list}", shown(key));
                out.push(
                    self.table_key_diagnostic(value.key_or_value_loc(), path, key, &message)
                        .with_suggestion(suggestion),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::pattern_matches;

    #[test]
    fn patterns_of_classes_counts_and_anchors() {
        let colour = "^#[0-9a-fA-F]{6}$";
        assert_eq!(pattern_matches(colour, "#a1B2c3"), Some(true));
        for wrong in ["#fff", "#12345g", "a1b2c3", "#a1b2c3 ", "#a1b2c3d", ""] {
            assert_eq!(pattern_matches(colour, wrong), Some(false), "{wrong:?}");
        }
        assert_eq!(pattern_matches("^\\d+(px)?$", "12px"), None, "groups are not understood");
        assert_eq!(pattern_matches("b.d", "abcde"), Some(true), "unanchored patterns match anywhere");
        assert_eq!(pattern_matches("^a\\.b*c?[^x]{1,2}$", "a.bbby"), Some(true));
        assert_eq!(pattern_matches("^a\\.b*c?[^x]{1,2}$", "a.bbx"), Some(false));
        assert_eq!(pattern_matches("^\\w\\s\\d{2,}$", "z 123"), Some(true));
    }
}
