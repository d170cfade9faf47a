//! Source files of a mod and the mapping from byte offsets to `line:col` for diagnostics.

use crate::diag::Diagnostic;

/// Identifies one file registered in a [`Sources`] registry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FileId(pub u32);

/// A byte span in one source file; every value and key read from TOML carries one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Location {
    /// The file the span is in.
    pub file: FileId,
    /// Byte offset of the first byte of the span.
    pub start: usize,
    /// Byte offset one past the last byte of the span.
    pub end: usize,
}

impl Location {
    /// A span of `start..end` in `file`.
    pub fn new(file: FileId, start: usize, end: usize) -> Self {
        Self { file, start, end }
    }
}

/// One text file of a mod, with the offsets where its lines start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFile {
    /// The path as shown to the modder, e.g. `mods/example/units/infantry.toml`.
    pub display_path: String,
    /// The whole text of the file.
    pub text: String,
    /// Byte offset of the start of each line; the first entry is always 0.
    pub line_starts: Vec<usize>,
}

impl SourceFile {
    /// Wraps `text`, computing where its lines start.
    pub fn new(display_path: impl Into<String>, text: impl Into<String>) -> Self {
        let text = text.into();
        let line_starts = line_starts(&text);
        Self { display_path: display_path.into(), text, line_starts }
    }

    /// The 1-based line and character column of a byte offset; offsets past the end clamp to it.
    pub fn line_col(&self, offset: usize) -> (u32, u32) {
        let offset = floor_char_boundary(&self.text, offset);
        // `line_starts` is sorted and starts with 0, so the partition point is at least 1.
        let line_index = self.line_starts.partition_point(|&start| start <= offset).saturating_sub(1);
        let line_start = self.line_starts.get(line_index).copied().unwrap_or(0);
        let prefix = self.text.get(line_start..offset).unwrap_or("");
        // A byte order mark is invisible in editors, so it does not count as a column.
        let prefix = if line_index == 0 { prefix.trim_start_matches('\u{FEFF}') } else { prefix };
        let col = prefix.chars().count();
        (saturating_u32(line_index + 1), saturating_u32(col + 1))
    }

    /// The text of a 1-based line without its line ending; empty when there is no such line.
    pub fn line_text(&self, line: u32) -> String {
        let Some(index) = (line as usize).checked_sub(1) else {
            return String::new();
        };
        let Some(&start) = self.line_starts.get(index) else {
            return String::new();
        };
        let end = self.line_starts.get(index + 1).copied().unwrap_or(self.text.len());
        let line = self.text.get(start..end).unwrap_or("");
        line.trim_end_matches(['\n', '\r']).to_string()
    }
}

/// All files of a mod, addressed by [`FileId`].
#[derive(Clone, Debug, Default)]
pub struct Sources {
    files: Vec<SourceFile>,
}

impl Sources {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers a file whose text is already known to be UTF-8.
    pub fn add(&mut self, display_path: impl Into<String>, text: impl Into<String>) -> FileId {
        let id = FileId(saturating_u32(self.files.len()));
        self.files.push(SourceFile::new(display_path, text));
        id
    }

    /// Registers a file read from disk.
    ///
    /// Bytes that are not UTF-8 give an error located at the first bad byte, so a modder who
    /// saved a file in a legacy encoding learns exactly which character to fix.
    pub fn add_bytes(&mut self, display_path: impl Into<String>, bytes: Vec<u8>) -> Result<FileId, Diagnostic> {
        let display_path = display_path.into();
        match String::from_utf8(bytes) {
            Ok(text) => Ok(self.add(display_path, text)),
            Err(error) => {
                let bytes = error.as_bytes();
                let bad = error.utf8_error().valid_up_to();
                // Everything before the bad byte is valid, so it can be measured as text.
                let valid = std::str::from_utf8(&bytes[..bad]).unwrap_or("");
                let line_start = valid.rfind('\n').map_or(0, |newline| newline + 1);
                let line = valid.matches('\n').count() + 1;
                let col = valid[line_start..].chars().count() + 1;
                let line_end =
                    bytes[line_start..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |p| line_start + p);
                let shown = String::from_utf8_lossy(&bytes[line_start..line_end]);
                Err(Diagnostic::error(format!(
                    "the file is not valid UTF-8 text (byte 0x{:02X}); save it as UTF-8",
                    bytes[bad]
                ))
                .in_file(display_path)
                .at(saturating_u32(line), saturating_u32(col))
                .with_source_line(Some(shown.trim_end_matches('\r').to_string())))
            }
        }
    }

    /// The file registered under `id`, if any.
    pub fn file(&self, id: FileId) -> Option<&SourceFile> {
        self.files.get(id.0 as usize)
    }

    /// The display path of `id`, or an empty string for an unknown id.
    pub fn display_path(&self, id: FileId) -> &str {
        self.file(id).map_or("", |file| file.display_path.as_str())
    }

    /// How many files are registered.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether no file is registered.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Every registered file with its id, in registration order.
    pub fn iter(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files.iter().enumerate().map(|(index, file)| (FileId(saturating_u32(index)), file))
    }

    /// The 1-based line and character column where `loc` starts; `(0, 0)` for an unknown file.
    pub fn line_col(&self, loc: Location) -> (u32, u32) {
        self.file(loc.file).map_or((0, 0), |file| file.line_col(loc.start))
    }

    /// The text of a 1-based line of `file`, without its line ending.
    pub fn line_text(&self, file: FileId, line: u32) -> String {
        self.file(file).map_or_else(String::new, |source| source.line_text(line))
    }

    /// `file:line:col` of `loc`, as written in "first defined at …" notes.
    pub fn describe(&self, loc: Location) -> String {
        let (line, col) = self.line_col(loc);
        format!("{}:{line}:{col}", self.display_path(loc.file))
    }

    /// An error at `loc` with the file, line, column and offending line filled in.
    pub fn diagnostic(&self, loc: Location, message: impl Into<String>) -> Diagnostic {
        let mut diagnostic = Diagnostic::error(message);
        if let Some(file) = self.file(loc.file) {
            let (line, col) = file.line_col(loc.start);
            diagnostic = diagnostic
                .in_file(file.display_path.clone())
                .at(line, col)
                .with_source_line(Some(file.line_text(line)));
        }
        diagnostic
    }
}

/// Byte offsets where each line of `text` starts.
fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0).chain(text.match_indices('\n').map(|(index, _)| index + 1)).collect()
}

/// The largest char boundary of `text` at or before `offset`, so slicing never splits a character.
fn floor_char_boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// Converts a count to `u32`, saturating: files beyond four billion lines are not a real concern,
/// but a wrong number is better than a panic.
pub(crate) fn saturating_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_count_characters() {
        let mut sources = Sources::new();
        let file = sources.add("a.toml", "x = 1\r\nname = \"héllo\" # é\n");
        let offset = "x = 1\r\nname = \"héllo\" # ".len();
        assert_eq!(sources.line_col(Location::new(file, offset, offset + 2)), (2, 18));
        assert_eq!(sources.line_col(Location::new(file, 0, 0)), (1, 1));
        assert_eq!(sources.line_text(file, 1), "x = 1");
        assert_eq!(sources.line_text(file, 2), "name = \"héllo\" # é");
        assert_eq!(sources.line_text(file, 9), "");
        // Offsets inside a character or past the end clamp instead of panicking.
        let inside_e = "x = 1\r\nname = \"h".len() + 1;
        assert_eq!(sources.line_col(Location::new(file, inside_e, inside_e)), (2, 10));
        assert_eq!(sources.line_col(Location::new(file, 10_000, 10_000)), (3, 1));
        assert_eq!(sources.line_col(Location::new(FileId(7), 0, 0)), (0, 0));
    }

    #[test]
    fn diagnostic_is_filled_from_the_location() {
        let mut sources = Sources::new();
        let file = sources.add("mods/x/rules.toml", "a = 1\nb = oops\n");
        let d = sources.diagnostic(Location::new(file, 10, 14), "bad");
        assert_eq!(d.file.as_deref(), Some("mods/x/rules.toml"));
        assert_eq!((d.line, d.col), (2, 5));
        assert_eq!(d.source_line.as_deref(), Some("b = oops"));
        assert_eq!(sources.describe(Location::new(file, 10, 14)), "mods/x/rules.toml:2:5");
    }

    #[test]
    fn non_utf8_bytes_are_a_located_error() {
        let mut sources = Sources::new();
        let bytes = b"name = \"ok\"\ntitle = \"caf\xE9 cr\xE8me\"\n".to_vec();
        let error = sources.add_bytes("mods/x/latin1.toml", bytes).unwrap_err();
        assert_eq!(error.file.as_deref(), Some("mods/x/latin1.toml"));
        assert_eq!((error.line, error.col), (2, 13));
        assert_eq!(error.message, "the file is not valid UTF-8 text (byte 0xE9); save it as UTF-8");
        assert_eq!(error.source_line.as_deref(), Some("title = \"caf\u{FFFD} cr\u{FFFD}me\""));
        assert!(sources.is_empty());
        assert_eq!(sources.add_bytes("ok.toml", b"a = 1".to_vec()), Ok(FileId(0)));
    }
}
