//! Lua 5.4's lexer, as far as the sandbox needs it: tokens and their lines, read exactly as
//! `llex.c` reads them (every kind of whitespace and line break, short and long comments and
//! strings of every level, every escape including `\z`, numerals), so that a search for a
//! construct in a chunk's text cannot be fooled by how the text is spelled.
//!
//! The sandbox uses it to find to-be-closed variables (`local x <close>`) and name their line;
//! the compiled code is checked as well (`bytecode.rs`), so a spelling this lexer got wrong
//! could not slip through, only be reported at a less precise line.

/// One token. Keywords are names (`local`, `function`); strings and numerals carry no value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Token<'a> {
    Name(&'a [u8]),
    /// An operator or punctuation: `<`, `>`, `,`, `<=`, `..`, `::`…
    Symbol(&'a [u8]),
    /// A string or a numeral.
    Literal,
    /// Text Lua refuses to read (an unfinished string or long bracket, a bad escape); Lua's
    /// own compiler reports it, so reading stops there.
    Malformed,
}

/// A token and the line it starts on (1-based, counted as Lua counts: `\n`, `\r`, `\r\n` and
/// `\n\r` are one line break each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Lexeme<'a> {
    pub token: Token<'a>,
    pub line: usize,
}

/// The tokens of a chunk's text, in order; ends after the text or at the first
/// [`Token::Malformed`].
pub(crate) struct Lexer<'a> {
    text: &'a [u8],
    at: usize,
    line: usize,
    done: bool,
}

/// Lua's `lisspace`: the characters it skips between tokens and in a `\z` escape.
fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r')
}

/// Lua's `lislalpha` (without Unicode identifiers, as the vendored Lua is built).
fn is_name_start(byte: u8) -> bool {
    byte.is_ascii_alphabetic() || byte == b'_'
}

fn is_name_char(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

fn is_newline(byte: Option<u8>) -> bool {
    matches!(byte, Some(b'\n' | b'\r'))
}

impl<'a> Lexer<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        Self { text: text.as_bytes(), at: 0, line: 1, done: false }
    }

    fn current(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn peek(&self, ahead: usize) -> Option<u8> {
        self.text.get(self.at + ahead).copied()
    }

    /// Lua's `inclinenumber`: skips `\n`, `\r`, `\r\n` or `\n\r` as one line break.
    fn line_break(&mut self) {
        let first = self.current();
        self.at += 1;
        if is_newline(self.current()) && self.current() != first {
            self.at += 1;
        }
        self.line += 1;
    }

    /// Lua's `skip_sep` at a `[` or `]`: the bracket's level plus 2 when it is a long bracket
    /// (`[[` is 2, `[==[` is 4), 1 for a lone bracket, 0 for `[=` without its second bracket.
    /// Consumes the bracket and the `=` signs, not the second bracket.
    fn separator(&mut self) -> usize {
        let bracket = self.current();
        self.at += 1;
        let mut count = 0;
        while self.current() == Some(b'=') {
            self.at += 1;
            count += 1;
        }
        if self.current() == bracket {
            count + 2
        } else if count == 0 {
            1
        } else {
            0
        }
    }

    /// Lua's `read_long_string`, the second opening bracket being current; false when the text
    /// ends first.
    fn long_bracket(&mut self, separator: usize) -> bool {
        self.at += 1;
        if is_newline(self.current()) {
            self.line_break();
        }
        loop {
            match self.current() {
                None => return false,
                Some(b']') => {
                    if self.separator() == separator {
                        self.at += 1;
                        return true;
                    }
                }
                Some(b'\n' | b'\r') => self.line_break(),
                Some(_) => self.at += 1,
            }
        }
    }

    /// Lua's `read_string`, the opening quote being current; false for a string Lua refuses.
    fn short_string(&mut self) -> bool {
        let quote = self.current();
        self.at += 1;
        loop {
            match self.current() {
                None | Some(b'\n' | b'\r') => return false,
                Some(b'\\') => {
                    self.at += 1;
                    match self.current() {
                        Some(b'a' | b'b' | b'f' | b'n' | b'r' | b't' | b'v' | b'\\' | b'"' | b'\'') => self.at += 1,
                        Some(b'x') => {
                            for _ in 0..2 {
                                self.at += 1;
                                if !self.current().is_some_and(|b| b.is_ascii_hexdigit()) {
                                    return false;
                                }
                            }
                            self.at += 1;
                        }
                        Some(b'u') => {
                            self.at += 1;
                            if self.current() != Some(b'{') {
                                return false;
                            }
                            self.at += 1;
                            let digits = self.text[self.at..].iter().take_while(|b| b.is_ascii_hexdigit()).count();
                            self.at += digits;
                            if digits == 0 || self.current() != Some(b'}') {
                                return false;
                            }
                            self.at += 1;
                        }
                        Some(b'\n' | b'\r') => self.line_break(),
                        Some(b'z') => {
                            self.at += 1;
                            while let Some(byte) = self.current().filter(|b| is_space(*b)) {
                                if byte == b'\n' || byte == b'\r' {
                                    self.line_break();
                                } else {
                                    self.at += 1;
                                }
                            }
                        }
                        Some(b'0'..=b'9') => {
                            let digits = self.text[self.at..].iter().take(3).take_while(|b| b.is_ascii_digit()).count();
                            self.at += digits;
                        }
                        // An escape Lua refuses, or the text ends after the backslash.
                        _ => return false,
                    }
                }
                Some(byte) if Some(byte) == quote => {
                    self.at += 1;
                    return true;
                }
                Some(_) => self.at += 1,
            }
        }
    }

    /// Lua's `read_numeral`, a digit (or `.` before a digit) being current.
    fn numeral(&mut self) {
        let mut exponent = *b"Ee";
        if self.current() == Some(b'0') && matches!(self.peek(1), Some(b'x' | b'X')) {
            self.at += 2;
            exponent = *b"Pp";
        }
        loop {
            match self.current() {
                Some(byte) if exponent.contains(&byte) => {
                    self.at += 1;
                    if matches!(self.current(), Some(b'+' | b'-')) {
                        self.at += 1;
                    }
                }
                Some(byte) if byte.is_ascii_hexdigit() || byte == b'.' => self.at += 1,
                _ => break,
            }
        }
        // A numeral touching a letter takes it, and Lua then refuses the numeral.
        if self.current().is_some_and(is_name_start) {
            self.at += 1;
        }
    }
}

impl<'a> Iterator for Lexer<'a> {
    type Item = Lexeme<'a>;

    fn next(&mut self) -> Option<Lexeme<'a>> {
        if self.done {
            return None;
        }
        let lexeme = loop {
            let start = self.at;
            let line = self.line;
            let token = |token| Lexeme { token, line };
            let Some(byte) = self.current() else {
                self.done = true;
                return None;
            };
            match byte {
                b'\n' | b'\r' => self.line_break(),
                b' ' | b'\x0c' | b'\t' | b'\x0b' => self.at += 1,
                b'-' if self.peek(1) == Some(b'-') => {
                    self.at += 2;
                    if self.current() == Some(b'[') {
                        let separator = self.separator();
                        if separator >= 2 {
                            if !self.long_bracket(separator) {
                                break token(Token::Malformed);
                            }
                            continue;
                        }
                    }
                    while self.current().is_some_and(|b| b != b'\n' && b != b'\r') {
                        self.at += 1;
                    }
                }
                b'[' => {
                    let separator = self.separator();
                    match separator {
                        0 => break token(Token::Malformed),
                        1 => break token(Token::Symbol(b"[")),
                        _ if self.long_bracket(separator) => break token(Token::Literal),
                        _ => break token(Token::Malformed),
                    }
                }
                b'"' | b'\'' => {
                    if self.short_string() {
                        break token(Token::Literal);
                    }
                    break token(Token::Malformed);
                }
                b'0'..=b'9' => {
                    self.numeral();
                    break token(Token::Literal);
                }
                b'.' if self.peek(1).is_some_and(|b| b.is_ascii_digit()) => {
                    self.at += 1;
                    self.numeral();
                    break token(Token::Literal);
                }
                _ if is_name_start(byte) => {
                    let length = self.text[start..].iter().take_while(|b| is_name_char(**b)).count();
                    self.at += length;
                    break token(Token::Name(&self.text[start..self.at]));
                }
                _ => {
                    // The two- and three-character symbols Lua reads as one token.
                    let two = self.text.get(start..start + 2);
                    let length = if self.text.get(start..start + 3) == Some(b"...") {
                        3
                    } else if two.is_some_and(|pair| {
                        [b"==", b"<=", b"<<", b">=", b">>", b"//", b"~=", b"::", b".."].iter().any(|s| s[..] == *pair)
                    }) {
                        2
                    } else {
                        1
                    };
                    self.at += length;
                    break token(Token::Symbol(&self.text[start..self.at]));
                }
            }
        };
        if lexeme.token == Token::Malformed {
            self.done = true;
        }
        Some(lexeme)
    }
}

/// The line of the first to-be-closed variable in a chunk's text (the line its `local`
/// starts on): a `local` statement whose name list gives a name the attribute `<close>`
/// (`local a, b <close> = …`), however it is spaced or commented. `a < close > b` in an expression, `<const>`, and the words inside
/// strings and comments are not. `None` also when the text stops being Lua before one.
pub(crate) fn close_attribute_line(text: &str) -> Option<usize> {
    let mut tokens = Lexer::new(text).peekable();
    while let Some(lexeme) = tokens.next() {
        if lexeme.token != Token::Name(b"local") {
            continue;
        }
        let line = lexeme.line;
        // `local NAME attrib {, NAME attrib}`; `local function` declares no attribute.
        loop {
            match tokens.peek().map(|l| l.token) {
                Some(Token::Name(name)) if name != b"function" => {
                    tokens.next();
                }
                _ => break,
            }
            if tokens.peek().map(|l| l.token) == Some(Token::Symbol(b"<")) {
                tokens.next();
                match tokens.peek() {
                    Some(Lexeme { token: Token::Name(b"close"), .. }) => return Some(line),
                    // `<const>` (another name is an attribute Lua refuses itself).
                    Some(Lexeme { token: Token::Name(_), .. }) => {
                        tokens.next();
                    }
                    _ => break,
                }
                if tokens.peek().map(|l| l.token) != Some(Token::Symbol(b">")) {
                    break;
                }
                tokens.next();
            }
            if tokens.peek().map(|l| l.token) != Some(Token::Symbol(b",")) {
                break;
            }
            tokens.next();
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<(Token<'_>, usize)> {
        Lexer::new(text).map(|l| (l.token, l.line)).collect()
    }

    #[test]
    fn reads_tokens_and_lines_as_lua_does() {
        use Token::*;
        assert_eq!(
            tokens("local a<=b..c...\r\nx=0x1p-4 3e+2 .5"),
            vec![
                (Name(b"local"), 1),
                (Name(b"a"), 1),
                (Symbol(b"<="), 1),
                (Name(b"b"), 1),
                (Symbol(b".."), 1),
                (Name(b"c"), 1),
                (Symbol(b"..."), 1),
                (Name(b"x"), 2),
                (Symbol(b"="), 2),
                (Literal, 2),
                (Literal, 2),
                (Literal, 2),
            ]
        );
        // `\r\n` and `\n\r` are one line break each, `\n\n` two.
        assert_eq!(tokens("a\n\rb\r\nc\n\nd").iter().map(|t| t.1).collect::<Vec<_>>(), vec![1, 2, 3, 5]);
        // Strings and comments, with the lines they span.
        assert_eq!(
            tokens("'a\\'b' \"\\z\n\n  x\" [==[\n]]\n]==] --[[\n]] --x\ny"),
            vec![(Literal, 1), (Literal, 1), (Literal, 3), (Name(b"y"), 7)]
        );
        assert_eq!(tokens("x = 'unfinished\ny = 1"), vec![(Name(b"x"), 1), (Symbol(b"="), 1), (Malformed, 1)]);
        assert_eq!(tokens("[=x"), vec![(Malformed, 1)]);
    }

    #[test]
    fn finds_close_however_it_is_spelled() {
        for text in [
            "local a <close> = x",
            "local a<close>=x",
            "local a <\x0cclose\x0c> = x",
            "local a <\x0bclose> = x",
            "local a <\rclose> = x",
            "local a <\nclose\n> = x",
            "local a < --x\nclose> = x",
            "local a <--[[x]]close--[==[\n]==]> = x",
            "local a <close>, b = x",
            "local a, b <close> = x",
            "local a <const>, b <close> = 1, x",
            "local\ta\x0c<close>",
        ] {
            assert!(close_attribute_line(text).is_some(), "{text:?}");
        }
        assert_eq!(close_attribute_line("local s = [[\n]]\nlocal a <\n--[=[\n]=]\nclose> = x"), Some(3));
    }

    #[test]
    fn leaves_everything_else_alone() {
        for text in [
            "local a <const> = 1",
            "local a = b < close > c",
            "if a < close then end",
            "x = a<close>b",
            "local s = '<close>' -- local a <close>",
            "local s = \"a\\\"local a <close>\"",
            "local s = \"\\z\n  local a <close>\"",
            "local s = [==[ local a <close> ]] ]==]",
            "--[[ local a <close> ]]",
            "local function close() end",
            "local a; close = 1 < 2",
        ] {
            assert_eq!(close_attribute_line(text), None, "{text:?}");
        }
    }
}
