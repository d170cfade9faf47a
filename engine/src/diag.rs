//! Located problems in a mod: `file:line:col [table] key: message`, with a "did you mean".
//!
//! Loading collects every problem instead of stopping at the first; the command line prints
//! them all and exits non-zero. Nothing here panics on any input.

use std::fmt;

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
    /// An error with only a message; locate it with the builder methods.
    pub fn error(message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Error,
            file: None,
            line: 0,
            col: 0,
            table: None,
            key: None,
            message: message.into(),
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

    pub fn with_key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
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
        if let Some(table) = &self.table {
            write!(f, "[{table}] ")?;
        }
        if let Some(key) = &self.key {
            write!(f, "key `{key}`: ")?;
        }
        write!(f, "{}", self.message)?;
        if let Some(suggestion) = &self.suggestion {
            write!(f, "; did you mean `{suggestion}`?")?;
        }
        if let Some(line) = &self.source_line {
            let gutter = self.line.to_string();
            write!(f, "\n {gutter} | {line}")?;
            if self.col > 0 {
                let pad: String =
                    line.chars().take(self.col as usize - 1).map(|c| if c == '\t' { '\t' } else { ' ' }).collect();
                write!(f, "\n {} | {pad}^", " ".repeat(gutter.len()))?;
            }
        }
        Ok(())
    }
}

/// The closest candidate to `word`, if it is close enough to be a likely typo.
///
/// Uses optimal-string-alignment distance (Levenshtein plus adjacent transpositions), case
/// folded; accepts up to one edit for short words and about a third of the length for long
/// ones. Ties go to the earlier candidate, so suggestions are stable.
pub fn did_you_mean<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let word_lower = word.to_lowercase();
    let limit = (word.chars().count() / 3).max(1);
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        if candidate == word {
            continue;
        }
        let distance = edit_distance(&word_lower, &candidate.to_lowercase());
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
    let width = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * width];
    for i in 0..=a.len() {
        d[i * width] = i;
    }
    for j in 0..=b.len() {
        d[j] = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v =
                (d[(i - 1) * width + j] + 1).min(d[i * width + j - 1] + 1).min(d[(i - 1) * width + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * width + j - 2] + 1);
            }
            d[i * width + j] = v;
        }
    }
    d[a.len() * width + b.len()]
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
