//! Located problems in a mod: `file:line:col [table] key: message`, with a "did you mean".
//!
//! Loading collects every problem instead of stopping at the first; the command line prints
//! them all and exits non-zero. Nothing here panics on any input.

use std::fmt;

/// The longest message a diagnostic keeps, in characters; every message Meeple writes is far
/// shorter, so only a mod's own words echoed at length can reach it.
pub const MAX_MESSAGE_CHARS: usize = 4_000;

/// How serious a problem is. Errors stop a mod from loading; warnings do not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// One problem, located as precisely as the input allows.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    /// The file as shown to the user, e.g. `mods/my_game/rules.toml` or `hooks/attack.lua`.
    pub file: Option<String>,
    /// 1-based line; 0 when unknown.
    pub line: u32,
    /// 1-based column (in characters); 0 when unknown.
    pub col: u32,
    /// The dotted path of the TOML table the problem is in, e.g. `actions.attack`.
    pub table: Option<String>,
    /// The key within that table, e.g. `where`.
    pub key: Option<String>,
    pub message: String,
    /// A near-miss correction: the text after "did you mean".
    pub suggestion: Option<String>,
    /// The offending source line, shown under the message with a caret at `col`.
    pub source_line: Option<String>,
}

impl Diagnostic {
    /// An error with only a message; locate it with the builder methods. A message longer than
    /// [`MAX_MESSAGE_CHARS`] is cut: whatever a mod's words made it, a message stays readable.
    pub fn error(message: impl Into<String>) -> Self {
        let mut message = message.into();
        if message.len() > MAX_MESSAGE_CHARS
            && let Some((cut, _)) = message.char_indices().nth(MAX_MESSAGE_CHARS)
        {
            message.truncate(cut);
            message.push_str("… (message cut)");
        }
        Self {
            severity: Severity::Error,
            file: None,
            line: 0,
            col: 0,
            table: None,
            key: None,
            message,
            suggestion: None,
            source_line: None,
        }
    }

    /// A warning with only a message.
    pub fn warning(message: impl Into<String>) -> Self {
        Self { severity: Severity::Warning, ..Self::error(message) }
    }

    pub fn in_file(mut self, file: impl Into<String>) -> Self {
        self.file = Some(file.into());
        self
    }

    pub fn at(mut self, line: u32, col: u32) -> Self {
        self.line = line;
        self.col = col;
        self
    }

    pub fn in_table(mut self, table: impl Into<String>) -> Self {
        let table = table.into();
        self.table = if table.is_empty() { None } else { Some(table) };
        self
    }

    /// The key the problem is at, as written by the mod: a key of a megabyte is shown cut.
    pub fn with_key(mut self, key: impl Into<String>) -> Self {
        let key = key.into();
        self.key = Some(if key.chars().count() > MAX_ECHOED_CHARS { shown(&key) } else { key });
        self
    }

    pub fn with_suggestion(mut self, suggestion: Option<String>) -> Self {
        self.suggestion = suggestion;
        self
    }

    pub fn with_source_line(mut self, line: Option<String>) -> Self {
        self.source_line = line;
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The `file:line:col` part, as far as it is known.
    pub fn location(&self) -> String {
        match (&self.file, self.line, self.col) {
            (Some(file), 0, _) => file.clone(),
            (Some(file), line, 0) => format!("{file}:{line}"),
            (Some(file), line, col) => format!("{file}:{line}:{col}"),
            (None, _, _) => String::from("<mod>"),
        }
    }
}

impl fmt::Display for Diagnostic {
    /// `file:line:col: error: [table] key `k`: message; did you mean `x`?` and, when known, the
    /// offending line with a caret under the column.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let severity = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "{}: {severity}: ", self.location())?;
        // A table or key named by a megabyte-long id is shown cut, as a message's names are.
        if let Some(table) = &self.table {
            write!(f, "[{}] ", shown_up_to(table, MAX_SHOWN_PATH))?;
        }
        if let Some(key) = &self.key {
            write!(f, "key `{}`: ", shown_up_to(key, MAX_SHOWN_PATH))?;
        }
        write!(f, "{}", self.message)?;
        if let Some(suggestion) = &self.suggestion {
            write!(f, "; did you mean `{suggestion}`?")?;
        }
        if let Some(line) = &self.source_line {
            let gutter = self.line.to_string();
            let (line, col) = source_window(line, self.col as usize);
            write!(f, "\n {gutter} | {line}")?;
            if col > 0 {
                let pad: String = line.chars().take(col - 1).map(|c| if c == '\t' { '\t' } else { ' ' }).collect();
                write!(f, "\n {} | {pad}^", " ".repeat(gutter.len()))?;
            }
        }
        Ok(())
    }
}

/// The longest table path or key a problem's header shows, in characters.
const MAX_SHOWN_PATH: usize = 200;

/// Words longer than this (in characters) get no "did you mean": a typo of a name is a name's
/// length, and comparing a megabyte-long word with every candidate would cost more than the
/// mistake it explains.
pub const MAX_SUGGESTED_WORD: usize = 64;

/// The comparisons one "did you mean" may make in all (character pairs), so a list of many
/// thousand candidates — the spaces of a large board — costs a bounded, counted amount of work.
/// Candidates past the budget are not considered; which ones those are depends only on the input.
const SUGGESTION_BUDGET: usize = 4_000_000;

/// The widest source line shown under a message, in characters; a longer line is shown as the
/// part around the column, with `…` where it was cut.
const MAX_SHOWN_LINE: usize = 160;

/// The part of `line` shown under a message and the column of the caret in it (1-based; 0 for
/// none): the whole line when it is short, else [`MAX_SHOWN_LINE`] characters around `col`.
fn source_window(line: &str, col: usize) -> (String, usize) {
    let length = line.chars().count();
    if length <= MAX_SHOWN_LINE {
        return (line.to_string(), col);
    }
    let centre = col.saturating_sub(1).min(length);
    let start = centre.saturating_sub(MAX_SHOWN_LINE / 2).min(length - MAX_SHOWN_LINE);
    let mut shown = String::new();
    if start > 0 {
        shown.push('…');
    }
    shown.extend(line.chars().skip(start).take(MAX_SHOWN_LINE));
    if start + MAX_SHOWN_LINE < length {
        shown.push('…');
    }
    let col = if col == 0 { 0 } else { col - start + usize::from(start > 0) };
    (shown, col)
}

/// The closest candidate to `word`, if it is close enough to be a likely typo.
///
/// Uses optimal-string-alignment distance (Levenshtein plus adjacent transpositions), case
/// folded; accepts up to one edit for short words and about a third of the length for long
/// ones. Ties go to the earlier candidate, so suggestions are stable. Words and candidates of
/// more than [`MAX_SUGGESTED_WORD`] characters, or whose lengths differ by more than the edits
/// allowed, are never compared.
pub fn did_you_mean<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    // Cheap by bytes first: a character is at most four bytes.
    if word.len() > 4 * MAX_SUGGESTED_WORD {
        return None;
    }
    let original = word;
    let word: Vec<char> = word.chars().flat_map(char::to_lowercase).collect();
    if word.len() > MAX_SUGGESTED_WORD {
        return None;
    }
    let limit = (word.len() / 3).max(1);
    let mut budget = SUGGESTION_BUDGET;
    let mut rows = DistanceRows::default();
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        if candidate.len() > 4 * MAX_SUGGESTED_WORD {
            continue;
        }
        if candidate == original {
            continue;
        }
        let folded: Vec<char> = candidate.chars().flat_map(char::to_lowercase).collect();
        if folded.len() > MAX_SUGGESTED_WORD || folded.len().abs_diff(word.len()) > limit {
            continue;
        }
        let cost = (word.len() + 1) * (folded.len() + 1);
        if cost > budget {
            break;
        }
        budget -= cost;
        let distance = rows.distance(&word, &folded);
        if distance <= limit && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, c)| c.to_string())
}

/// Optimal string alignment distance between two strings, by characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    DistanceRows::default().distance(&a, &b)
}

/// The three rows optimal string alignment needs (the current one, the one before for edits,
/// and the one before that for transpositions), reused from one candidate to the next: memory
/// is linear in the length of a word, never the product of two.
#[derive(Default)]
struct DistanceRows {
    before_previous: Vec<usize>,
    previous: Vec<usize>,
    current: Vec<usize>,
}

impl DistanceRows {
    fn distance(&mut self, a: &[char], b: &[char]) -> usize {
        let width = b.len() + 1;
        for row in [&mut self.before_previous, &mut self.previous, &mut self.current] {
            row.clear();
            row.resize(width, 0);
        }
        self.current.iter_mut().enumerate().for_each(|(j, cell)| *cell = j);
        for i in 1..=a.len() {
            std::mem::swap(&mut self.before_previous, &mut self.previous);
            std::mem::swap(&mut self.previous, &mut self.current);
            self.current[0] = i;
            for j in 1..=b.len() {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                let mut v = (self.previous[j] + 1).min(self.current[j - 1] + 1).min(self.previous[j - 1] + cost);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    v = v.min(self.before_previous[j - 2] + 1);
                }
                self.current[j] = v;
            }
        }
        self.current[b.len()]
    }
}

/// `text` as a terminal may show it: control characters other than line breaks and tabs are
/// escaped (`\u{1b}`), so a mod's words cannot move the cursor, clear the screen or set the
/// window's title; a line longer than 1 000 characters is cut around its start, and the whole
/// is cut at [`MAX_MESSAGE_CHARS`]. For messages that echo text from outside (a parser's error
/// quoting a line of a file, a name a mod wrote).
pub fn printable(text: &str) -> String {
    let mut out = String::new();
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let mut chars = line.chars();
        for c in chars.by_ref().take(1_000) {
            if c.is_control() && c != '\t' && c != '\r' {
                out.extend(c.escape_default());
            } else {
                out.push(c);
            }
        }
        if chars.next().is_some() {
            out.push_str(&format!("… ({} bytes)", line.len()));
        }
        if out.chars().count() > MAX_MESSAGE_CHARS {
            out.push_str("\n… (message cut)");
            break;
        }
    }
    out
}

/// How many characters of a word a mod (or a save) wrote are echoed in a message: enough to
/// recognise it, never a megabyte of it.
pub const MAX_ECHOED_CHARS: usize = 48;

/// `word` as a message shows it: whole when short, else its first [`MAX_ECHOED_CHARS`]
/// characters and how long it was ("abc… (6291456 bytes)"). Control characters are escaped so
/// a name cannot rewrite the terminal it is printed on.
pub fn shown(word: &str) -> String {
    shown_up_to(word, MAX_ECHOED_CHARS)
}

/// [`shown`] with room for `max` characters: for text written to be read whole, such as a
/// test's name, which is a sentence rather than a name.
pub fn shown_up_to(word: &str, max: usize) -> String {
    let mut out = String::new();
    let mut chars = word.chars();
    for c in chars.by_ref().take(max) {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    if chars.next().is_some() {
        out.push_str(&format!("… ({} bytes)", word.len()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_near_misses_only() {
        let keys = ["condition", "label", "effect", "params"];
        assert_eq!(did_you_mean("conditon", keys), Some("condition".into()));
        assert_eq!(did_you_mean("lable", keys), Some("label".into()));
        assert_eq!(did_you_mean("Effect", keys), Some("effect".into()));
        assert_eq!(did_you_mean("zzz", keys), None);
    }

    #[test]
    fn huge_words_cost_nothing_and_lengths_far_apart_are_not_compared() {
        let huge = "x".repeat(6 * 1024 * 1024);
        let keys = ["condition", "label"];
        assert_eq!(did_you_mean(&huge, keys), None);
        assert_eq!(did_you_mean("label", [huge.as_str(), "lable"]), Some("lable".into()));
        // One edit allowed for a five-letter word: a candidate two characters longer is skipped.
        assert_eq!(did_you_mean("label", ["labelxx"]), None);
        assert_eq!(did_you_mean("label", ["labelx"]), Some("labelx".into()));
    }

    #[test]
    fn many_candidates_stop_at_the_budget() {
        // 200 001 candidates of the word's length: the budget lets a prefix of them be compared,
        // the same prefix every time.
        let filler = "qqqqqqqqqqq";
        let early = std::iter::once("space000001").chain(std::iter::repeat_n(filler, 200_000));
        assert_eq!(did_you_mean("spaca000001", early), Some("space000001".into()));
        let late = std::iter::repeat_n(filler, 200_000).chain(std::iter::once("space000001"));
        assert_eq!(did_you_mean("spaca000001", late), None, "a candidate past the budget is not compared");
    }

    #[test]
    fn distances_match_the_textbook_ones() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("ca", "ac"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("abc", ""), 3);
        assert_eq!(edit_distance("flaw", "lawn"), 2);
    }

    #[test]
    fn long_words_are_shown_cut_with_their_length() {
        assert_eq!(shown("attack"), "attack");
        let long = "a".repeat(100);
        assert_eq!(shown(&long), format!("{}… (100 bytes)", "a".repeat(MAX_ECHOED_CHARS)));
        assert_eq!(shown("a\nb\u{1b}"), "a\\nb\\u{1b}");
        assert_eq!(shown("a\u{1b}[2J"), "a\\u{1b}[2J");
    }

    #[test]
    fn printable_text_escapes_terminal_controls_and_cuts_long_lines() {
        assert_eq!(printable("a\u{1b}]0;title\u{7}b\nnext\tline"), "a\\u{1b}]0;title\\u{7}b\nnext\tline");
        let long = format!("x = {}", "[".repeat(2_000_000));
        let shown = printable(&long);
        assert!(shown.len() < 1_100, "{}", shown.len());
        assert!(shown.ends_with("… (2000004 bytes)"));
        let many = "y\n".repeat(100_000);
        assert!(printable(&many).chars().count() < MAX_MESSAGE_CHARS + 100);
    }

    #[test]
    fn a_long_source_line_is_shown_around_its_column() {
        let line = format!("{}name = 1", "x".repeat(10_000));
        let d = Diagnostic::error("bad").in_file("f.toml").at(1, 10_001).with_source_line(Some(line)).with_key("k");
        let text = d.to_string();
        assert!(text.len() < 600, "{text}");
        let lines: Vec<&str> = text.lines().collect();
        let caret = lines[2].chars().position(|c| c == '^').unwrap();
        let under: String = lines[1].chars().skip(caret).take(4).collect();
        assert_eq!(under, "name", "{text}");
    }

    #[test]
    fn display_reads_like_a_compiler() {
        let d = Diagnostic::error("unknown key")
            .in_file("mods/x/rules.toml")
            .at(3, 5)
            .in_table("actions.attack")
            .with_key("conditon")
            .with_suggestion(Some("condition".into()))
            .with_source_line(Some("    conditon = 1".into()));
        let text = d.to_string();
        assert_eq!(
            text,
            "mods/x/rules.toml:3:5: error: [actions.attack] key `conditon`: unknown key; did you mean `condition`?\n 3 |     conditon = 1\n   |     ^"
        );
    }
}
