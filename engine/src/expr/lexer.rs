//! Splits rules-language text into tokens with byte spans.

use super::{Span, SyntaxError};

#[derive(Clone, Debug, PartialEq)]
pub enum Token {
    Int(i64),
    Float(f64),
    Str(String),
    Ident(String),
    /// The `d` of a dice term (`3d6`), emitted when `d<digits>` follows an operand.
    Dice,
    LParen,
    RParen,
    Comma,
    Dot,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    EqEq,
    NotEq,
    Lt,
    Le,
    Gt,
    Ge,
    Assign,
    PlusAssign,
    MinusAssign,
    AndAnd,
    OrOr,
    Bang,
    Question,
    Colon,
    End,
}

impl Token {
    pub fn describe(&self) -> String {
        match self {
            Token::Int(n) => format!("`{n}`"),
            Token::Float(x) => format!("`{x}`"),
            Token::Str(s) => format!("\"{s}\""),
            Token::Ident(s) => format!("`{s}`"),
            Token::Dice => "`d`".into(),
            Token::End => "the end of the text".into(),
            other => format!("`{}`", other.symbol()),
        }
    }

    fn symbol(&self) -> &'static str {
        match self {
            Token::LParen => "(",
            Token::RParen => ")",
            Token::Comma => ",",
            Token::Dot => ".",
            Token::Plus => "+",
            Token::Minus => "-",
            Token::Star => "*",
            Token::Slash => "/",
            Token::Percent => "%",
            Token::EqEq => "==",
            Token::NotEq => "!=",
            Token::Lt => "<",
            Token::Le => "<=",
            Token::Gt => ">",
            Token::Ge => ">=",
            Token::Assign => "=",
            Token::PlusAssign => "+=",
            Token::MinusAssign => "-=",
            Token::AndAnd => "&&",
            Token::OrOr => "||",
            Token::Bang => "!",
            Token::Question => "?",
            Token::Colon => ":",
            _ => "",
        }
    }

    /// Whether an expression can end with this token, so a following `d6` is a dice term.
    fn ends_operand(&self) -> bool {
        matches!(self, Token::Int(_) | Token::Ident(_) | Token::RParen)
    }
}

/// Longest accepted text, a guard against pathological input.
pub const MAX_LEN: usize = 4096;

pub fn tokenize(text: &str) -> Result<Vec<(Token, Span)>, SyntaxError> {
    if text.len() > MAX_LEN {
        return Err(SyntaxError {
            span: Span::new(0, 0),
            message: format!("expression is {} bytes long; the limit is {MAX_LEN}", text.len()),
        });
    }
    let bytes = text.as_bytes();
    let mut tokens: Vec<(Token, Span)> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if c.is_ascii_digit() {
            while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'_') {
                i += 1;
            }
            let mut is_float = false;
            if i + 1 < bytes.len() && bytes[i] == b'.' && bytes[i + 1].is_ascii_digit() {
                is_float = true;
                i += 1;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
            }
            let literal: String = text[start..i].chars().filter(|c| *c != '_').collect();
            let span = Span::new(start, i);
            let token = if is_float {
                Token::Float(literal.parse().map_err(|_| bad_number(span, &literal))?)
            } else {
                Token::Int(literal.parse().map_err(|_| bad_number(span, &literal))?)
            };
            tokens.push((token, span));
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let word = &text[start..i];
            let follows_operand = tokens.last().is_some_and(|(t, _)| t.ends_operand());
            if follows_operand && is_dice_sides(word) {
                let sides: i64 = word[1..].parse().map_err(|_| bad_number(Span::new(start, i), word))?;
                tokens.push((Token::Dice, Span::new(start, start + 1)));
                tokens.push((Token::Int(sides), Span::new(start + 1, i)));
            } else {
                tokens.push((Token::Ident(word.to_string()), Span::new(start, i)));
            }
            continue;
        }
        if c == b'"' || c == b'\'' {
            let quote = c;
            i += 1;
            let content_start = i;
            while i < bytes.len() && bytes[i] != quote {
                i += 1;
            }
            if i >= bytes.len() {
                return Err(SyntaxError {
                    span: Span::new(start, bytes.len()),
                    message: "this string has no closing quote".into(),
                });
            }
            tokens.push((Token::Str(text[content_start..i].to_string()), Span::new(start, i + 1)));
            i += 1;
            continue;
        }
        // `get`: the next character may be several bytes long (and the pair then no operator).
        let two = text.get(i..i + 2).unwrap_or("");
        let (token, len) = match two {
            "==" => (Token::EqEq, 2),
            "!=" => (Token::NotEq, 2),
            "<=" => (Token::Le, 2),
            ">=" => (Token::Ge, 2),
            "+=" => (Token::PlusAssign, 2),
            "-=" => (Token::MinusAssign, 2),
            "&&" => (Token::AndAnd, 2),
            "||" => (Token::OrOr, 2),
            _ => match c {
                b'(' => (Token::LParen, 1),
                b')' => (Token::RParen, 1),
                b',' => (Token::Comma, 1),
                b'.' => (Token::Dot, 1),
                b'+' => (Token::Plus, 1),
                b'-' => (Token::Minus, 1),
                b'*' => (Token::Star, 1),
                b'/' => (Token::Slash, 1),
                b'%' => (Token::Percent, 1),
                b'<' => (Token::Lt, 1),
                b'>' => (Token::Gt, 1),
                b'=' => (Token::Assign, 1),
                b'!' => (Token::Bang, 1),
                b'?' => (Token::Question, 1),
                b':' => (Token::Colon, 1),
                _ => {
                    let ch = text[i..].chars().next().unwrap_or('?');
                    return Err(SyntaxError {
                        span: Span::new(i, i + ch.len_utf8()),
                        message: format!("unexpected character `{ch}`"),
                    });
                }
            },
        };
        tokens.push((token, Span::new(i, i + len)));
        i += len;
    }
    tokens.push((Token::End, Span::new(bytes.len(), bytes.len())));
    Ok(tokens)
}

fn is_dice_sides(word: &str) -> bool {
    word.len() > 1 && word.starts_with('d') && word[1..].bytes().all(|b| b.is_ascii_digit())
}

fn bad_number(span: Span, literal: &str) -> SyntaxError {
    SyntaxError { span, message: format!("`{literal}` is not a valid number") }
}
