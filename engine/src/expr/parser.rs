//! Recursive-descent parser for rules expressions and effect statements.
//!
//! Precedence, loosest first: `c ? a : b`; `or`/`||`; `and`/`&&`; `not`/`!`; comparisons
//! (non-associative); `+ -`; `* / %`; unary `-`; dice `NdS`; field access and calls.

use super::lexer::{Token, tokenize};
use super::{AssignOp, Ast, AstKind, BinaryOp, Span, StmtAst, SyntaxError, UnaryOp};

/// Deepest nesting accepted, so hostile input cannot overflow the stack.
const MAX_DEPTH: usize = 64;

/// Parses a whole expression, e.g. `from.owner == me and from.dice > 1`.
pub fn parse_expression(text: &str) -> Result<Ast, SyntaxError> {
    let mut parser = Parser::new(text)?;
    let ast = parser.expression()?;
    parser.expect_end()?;
    Ok(ast)
}

/// Parses one effect statement: `let x = e`, `place = e`, `place += e`, `place -= e`, or a call.
pub fn parse_statement(text: &str) -> Result<StmtAst, SyntaxError> {
    let mut parser = Parser::new(text)?;
    if let Token::Ident(word) = parser.peek() {
        if word == "let" {
            parser.advance();
            let (name, name_span) = match parser.advance() {
                (Token::Ident(name), span) => (name, span),
                (other, span) => {
                    return Err(SyntaxError {
                        span,
                        message: format!("expected a name after `let`, found {}", other.describe()),
                    });
                }
            };
            parser.expect(Token::Assign, "`=` after the name")?;
            let value = parser.expression()?;
            parser.expect_end()?;
            return Ok(StmtAst::Let { name, name_span, value });
        }
    }
    let target = parser.expression()?;
    let op = match parser.peek() {
        Token::Assign => Some(AssignOp::Set),
        Token::PlusAssign => Some(AssignOp::Add),
        Token::MinusAssign => Some(AssignOp::Sub),
        _ => None,
    };
    match op {
        Some(op) => {
            parser.advance();
            let value = parser.expression()?;
            parser.expect_end()?;
            Ok(StmtAst::Assign { place: target, op, value })
        }
        None => {
            parser.expect_end()?;
            if matches!(target.kind, AstKind::Call(..)) {
                Ok(StmtAst::Call(target))
            } else {
                let hint = if matches!(target.kind, AstKind::Binary(BinaryOp::Eq, ..)) {
                    "; to set a value write a single `=`"
                } else {
                    ""
                };
                Err(SyntaxError {
                    span: target.span,
                    message: format!(
                        "a statement must be `let name = …`, an assignment (`x = …`, `x += …`, `x -= …`) \
                         or a call such as `end_turn()`{hint}"
                    ),
                })
            }
        }
    }
}

struct Parser {
    tokens: Vec<(Token, Span)>,
    position: usize,
    depth: usize,
}

impl Parser {
    fn new(text: &str) -> Result<Self, SyntaxError> {
        Ok(Self { tokens: tokenize(text)?, position: 0, depth: 0 })
    }

    fn peek(&self) -> &Token {
        &self.tokens[self.position].0
    }

    fn peek_span(&self) -> Span {
        self.tokens[self.position].1
    }

    fn advance(&mut self) -> (Token, Span) {
        let item = self.tokens[self.position].clone();
        if self.position + 1 < self.tokens.len() {
            self.position += 1;
        }
        item
    }

    fn expect(&mut self, token: Token, what: &str) -> Result<Span, SyntaxError> {
        if *self.peek() == Token::Assign && token != Token::Assign {
            return Err(SyntaxError {
                span: self.peek_span(),
                message: format!(
                    "expected {what}, found `=`: compare with `==` (a single `=` assigns, and only in effects)"
                ),
            });
        }
        if *self.peek() == token {
            Ok(self.advance().1)
        } else {
            Err(SyntaxError {
                span: self.peek_span(),
                message: format!("expected {what}, found {}", self.peek().describe()),
            })
        }
    }

    fn expect_end(&mut self) -> Result<(), SyntaxError> {
        if *self.peek() == Token::End {
            Ok(())
        } else if *self.peek() == Token::Assign {
            Err(SyntaxError {
                span: self.peek_span(),
                message: "unexpected `=` after a complete expression: compare with `==` \
                          (a single `=` assigns, and only in effects)"
                    .into(),
            })
        } else {
            Err(SyntaxError {
                span: self.peek_span(),
                message: format!("unexpected {} after a complete expression", self.peek().describe()),
            })
        }
    }

    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T, SyntaxError>) -> Result<T, SyntaxError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(SyntaxError {
                span: self.peek_span(),
                message: format!("expression nested deeper than {MAX_DEPTH} levels"),
            });
        }
        let result = f(self);
        self.depth -= 1;
        result
    }

    fn expression(&mut self) -> Result<Ast, SyntaxError> {
        self.nested(|p| p.conditional())
    }

    fn conditional(&mut self) -> Result<Ast, SyntaxError> {
        let condition = self.or()?;
        if *self.peek() != Token::Question {
            return Ok(condition);
        }
        self.advance();
        let then = self.expression()?;
        self.expect(Token::Colon, "`:` in `condition ? a : b`")?;
        let otherwise = self.expression()?;
        let span = condition.span.to(otherwise.span);
        Ok(Ast { kind: AstKind::Call("if".into(), Span::default(), vec![condition, then, otherwise]), span })
    }

    fn or(&mut self) -> Result<Ast, SyntaxError> {
        let mut left = self.and()?;
        while matches!(self.peek(), Token::OrOr) || self.peek_word("or") {
            self.advance();
            let right = self.and()?;
            left = binary(BinaryOp::Or, left, right);
        }
        Ok(left)
    }

    fn and(&mut self) -> Result<Ast, SyntaxError> {
        let mut left = self.not()?;
        while matches!(self.peek(), Token::AndAnd) || self.peek_word("and") {
            self.advance();
            let right = self.not()?;
            left = binary(BinaryOp::And, left, right);
        }
        Ok(left)
    }

    fn not(&mut self) -> Result<Ast, SyntaxError> {
        if matches!(self.peek(), Token::Bang) || self.peek_word("not") {
            let (_, span) = self.advance();
            let operand = self.nested(|p| p.not())?;
            let span = span.to(operand.span);
            return Ok(Ast { kind: AstKind::Unary(UnaryOp::Not, Box::new(operand)), span });
        }
        self.comparison()
    }

    fn comparison(&mut self) -> Result<Ast, SyntaxError> {
        let left = self.sum()?;
        let op = match self.peek() {
            Token::EqEq => BinaryOp::Eq,
            Token::NotEq => BinaryOp::Ne,
            Token::Lt => BinaryOp::Lt,
            Token::Le => BinaryOp::Le,
            Token::Gt => BinaryOp::Gt,
            Token::Ge => BinaryOp::Ge,
            _ => return Ok(left),
        };
        self.advance();
        let right = self.sum()?;
        if matches!(self.peek(), Token::EqEq | Token::NotEq | Token::Lt | Token::Le | Token::Gt | Token::Ge) {
            return Err(SyntaxError {
                span: self.peek_span(),
                message: "comparisons cannot be chained; join them with `and`".into(),
            });
        }
        Ok(binary(op, left, right))
    }

    fn sum(&mut self) -> Result<Ast, SyntaxError> {
        let mut left = self.product()?;
        loop {
            let op = match self.peek() {
                Token::Plus => BinaryOp::Add,
                Token::Minus => BinaryOp::Sub,
                _ => return Ok(left),
            };
            self.advance();
            let right = self.product()?;
            left = binary(op, left, right);
        }
    }

    fn product(&mut self) -> Result<Ast, SyntaxError> {
        let mut left = self.unary()?;
        loop {
            let op = match self.peek() {
                Token::Star => BinaryOp::Mul,
                Token::Slash => BinaryOp::Div,
                Token::Percent => BinaryOp::Rem,
                _ => return Ok(left),
            };
            self.advance();
            let right = self.unary()?;
            left = binary(op, left, right);
        }
    }

    fn unary(&mut self) -> Result<Ast, SyntaxError> {
        if *self.peek() == Token::Minus {
            let (_, span) = self.advance();
            let operand = self.nested(|p| p.unary())?;
            let span = span.to(operand.span);
            return Ok(Ast { kind: AstKind::Unary(UnaryOp::Neg, Box::new(operand)), span });
        }
        self.dice()
    }

    fn dice(&mut self) -> Result<Ast, SyntaxError> {
        let count = self.postfix()?;
        if *self.peek() != Token::Dice {
            return Ok(count);
        }
        self.advance();
        let sides = self.postfix()?;
        let span = count.span.to(sides.span);
        Ok(Ast { kind: AstKind::Dice(Box::new(count), Box::new(sides)), span })
    }

    fn postfix(&mut self) -> Result<Ast, SyntaxError> {
        let mut base = self.primary()?;
        while *self.peek() == Token::Dot {
            self.advance();
            match self.advance() {
                (Token::Ident(field), field_span) => {
                    let span = base.span.to(field_span);
                    base = Ast { kind: AstKind::Field(Box::new(base), field, field_span), span };
                }
                (other, span) => {
                    return Err(SyntaxError {
                        span,
                        message: format!("expected a field name after `.`, found {}", other.describe()),
                    });
                }
            }
        }
        Ok(base)
    }

    fn primary(&mut self) -> Result<Ast, SyntaxError> {
        let (token, span) = self.advance();
        let kind = match token {
            Token::Int(n) => AstKind::Int(n),
            Token::Float(x) => AstKind::Float(x),
            Token::Str(s) => AstKind::Str(s),
            Token::LParen => {
                let inner = self.expression()?;
                let close = self.expect(Token::RParen, "`)`")?;
                return Ok(Ast { kind: inner.kind, span: span.to(close) });
            }
            Token::Ident(word) => match word.as_str() {
                "true" => AstKind::Bool(true),
                "false" => AstKind::Bool(false),
                "none" | "nil" => AstKind::Nil,
                "and" | "or" | "not" | "let" => {
                    return Err(SyntaxError { span, message: format!("expected a value, found `{word}`") });
                }
                _ if *self.peek() == Token::LParen => {
                    self.advance();
                    let mut args = Vec::new();
                    if *self.peek() != Token::RParen {
                        loop {
                            let arg = self.expression()?;
                            args.push(self.loop_variable(arg)?);
                            if *self.peek() == Token::Comma {
                                self.advance();
                            } else {
                                break;
                            }
                        }
                    }
                    let close = self.expect(Token::RParen, "`,` or `)` in the argument list")?;
                    return Ok(Ast { kind: AstKind::Call(word, span, args), span: span.to(close) });
                }
                _ => AstKind::Name(word),
            },
            other => {
                return Err(SyntaxError { span, message: format!("expected a value, found {}", other.describe()) });
            }
        };
        Ok(Ast { kind, span })
    }

    /// Reads `in kind` after an argument that is a bare name, making it a named loop variable.
    fn loop_variable(&mut self, arg: Ast) -> Result<Ast, SyntaxError> {
        let AstKind::Name(name) = &arg.kind else { return Ok(arg) };
        if !self.peek_word("in") {
            return Ok(arg);
        }
        self.advance();
        match self.advance() {
            (Token::Ident(kind), kind_span) => {
                let span = arg.span.to(kind_span);
                Ok(Ast { kind: AstKind::LoopVariable(name.clone(), kind, kind_span), span })
            }
            (other, span) => Err(SyntaxError {
                span,
                message: format!("expected `seat`, `space` or `piece` after `in`, found {}", other.describe()),
            }),
        }
    }

    fn peek_word(&self, word: &str) -> bool {
        matches!(self.peek(), Token::Ident(w) if w == word)
    }
}

fn binary(op: BinaryOp, left: Ast, right: Ast) -> Ast {
    let span = left.span.to(right.span);
    Ast { kind: AstKind::Binary(op, Box::new(left), Box::new(right)), span }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Renders a tree in prefix form so expectations are short and readable.
    fn show(ast: &Ast) -> String {
        match &ast.kind {
            AstKind::Int(n) => n.to_string(),
            AstKind::Float(x) => format!("{x:?}"),
            AstKind::Bool(b) => b.to_string(),
            AstKind::Str(s) => format!("{s:?}"),
            AstKind::Nil => "none".into(),
            AstKind::Name(n) => n.clone(),
            AstKind::Field(base, field, _) => format!("{}.{field}", show(base)),
            AstKind::Call(name, _, args) => {
                format!("{name}({})", args.iter().map(show).collect::<Vec<_>>().join(", "))
            }
            AstKind::Unary(UnaryOp::Neg, x) => format!("(neg {})", show(x)),
            AstKind::Unary(UnaryOp::Not, x) => format!("(not {})", show(x)),
            AstKind::Binary(op, a, b) => format!("({} {} {})", op.symbol(), show(a), show(b)),
            AstKind::Dice(n, s) => format!("(dice {} {})", show(n), show(s)),
            AstKind::LoopVariable(name, kind, _) => format!("({name} in {kind})"),
        }
    }

    fn expr(text: &str) -> String {
        show(&parse_expression(text).unwrap_or_else(|e| panic!("{text}: {e:?}")))
    }

    #[test]
    fn precedence_and_dice() {
        assert_eq!(expr("1 + 2 * 3"), "(+ 1 (* 2 3))");
        assert_eq!(expr("3d6"), "(dice 3 6)");
        assert_eq!(expr("2 * 1d6 + 1"), "(+ (* 2 (dice 1 6)) 1)");
        assert_eq!(expr("(from.dice)d6"), "(dice from.dice 6)");
        assert_eq!(expr("from.dice d6 > to.dice d6"), "(> (dice from.dice 6) (dice to.dice 6))");
        assert_eq!(expr("-2d6"), "(neg (dice 2 6))");
        assert_eq!(expr("min(ammo, 3)d6"), "(dice min(ammo, 3) 6)");
    }

    #[test]
    fn logic_and_comparison() {
        assert_eq!(expr("from.owner == me and from.dice > 1"), "(and (== from.owner me) (> from.dice 1))");
        assert_eq!(expr("a || b && !c"), "(or a (and b (not c)))");
        assert_eq!(expr("not a or b"), "(or (not a) b)");
        assert_eq!(expr("x > 0 ? 1 : 2"), "if((> x 0), 1, 2)");
        assert_eq!(expr("terrain == 'water'"), "(== terrain \"water\")");
        assert_eq!(expr("1_000 + 0.5"), "(+ 1000 0.5)");
    }

    #[test]
    fn a_single_equals_sign_where_a_comparison_belongs_says_so() {
        for text in ["count_of(space, space.owner = me) > 0", "(a = b)", "a = b"] {
            let error = parse_expression(text).unwrap_err();
            assert!(error.message.contains("compare with `==`"), "{text}: {}", error.message);
        }
        let error = parse_statement("to.owner == me").unwrap_err();
        assert!(error.message.ends_with("to set a value write a single `=`"), "{}", error.message);
    }

    #[test]
    fn named_loop_variables() {
        assert_eq!(
            expr("count_of(near in space, adjacent(near, space))"),
            "count_of((near in space), adjacent(near, space))"
        );
        // `in` only binds after a bare name; elsewhere it is an ordinary name.
        assert_eq!(expr("max(in, 2)"), "max(in, 2)");
        let error = parse_expression("count_of(near in 3, true)").unwrap_err();
        assert_eq!(error.message, "expected `seat`, `space` or `piece` after `in`, found `3`");
    }

    #[test]
    fn a_name_like_d6_alone_is_a_name() {
        assert_eq!(expr("d6"), "d6");
        assert_eq!(expr("dice"), "dice");
    }

    #[test]
    fn statements() {
        assert!(matches!(parse_statement("let a = 2d6"), Ok(StmtAst::Let { name, .. }) if name == "a"));
        assert!(matches!(parse_statement("to.dice = from.dice - 1"), Ok(StmtAst::Assign { op: AssignOp::Set, .. })));
        assert!(matches!(parse_statement("me.reserve += 3"), Ok(StmtAst::Assign { op: AssignOp::Add, .. })));
        assert!(matches!(parse_statement("end_turn()"), Ok(StmtAst::Call(_))));
    }

    #[test]
    fn errors_point_at_the_problem() {
        let e = parse_expression("from.dice >").unwrap_err();
        assert_eq!(e.span, Span::new(11, 11));
        assert!(e.message.contains("expected a value"), "{}", e.message);
        let e = parse_expression("a < b < c").unwrap_err();
        assert_eq!(e.span, Span::new(6, 7));
        let e = parse_expression("f(1, 2").unwrap_err();
        assert!(e.message.contains("`)`"));
        let e = parse_expression("x # y").unwrap_err();
        assert_eq!((e.span, e.message.as_str()), (Span::new(2, 3), "unexpected character `#`"));
        let e = parse_statement("from.dice").unwrap_err();
        assert!(e.message.contains("statement must be"));
        let e = parse_expression("'open").unwrap_err();
        assert!(e.message.contains("closing quote"));
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let text = format!("{}1{}", "(".repeat(500), ")".repeat(500));
        assert!(parse_expression(&text).unwrap_err().message.contains("nested deeper"));
        let text = "-".repeat(1000) + "1";
        assert!(parse_expression(&text).is_err());
        let text = "not ".repeat(1000) + "x";
        assert!(parse_expression(&text).is_err());
    }
}
