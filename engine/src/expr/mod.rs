//! The rules language of mod data: expressions (`from.dice > 1`, `(from.dice)d6`) and effect
//! statements (`to.owner = me`), parsed here into syntax trees with byte spans.
//!
//! Parsing knows no game and no ruleset: names and fields are resolved later by
//! `crate::rules::compile`, which turns these trees into the compact form the runtime evaluates.

mod lexer;
mod parser;

pub use parser::{parse_expression, parse_statement};

/// A byte range inside one expression string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Self { start: start as u32, end: end as u32 }
    }
    pub fn to(self, other: Span) -> Span {
        Span { start: self.start.min(other.start), end: self.end.max(other.end) }
    }
}

/// A syntax error at a byte offset of the expression text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub span: Span,
    pub message: String,
}

/// An expression syntax tree node.
#[derive(Clone, Debug, PartialEq)]
pub struct Ast {
    pub kind: AstKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum AstKind {
    Int(i64),
    Float(f64),
    Bool(bool),
    Str(String),
    Nil,
    Name(String),
    /// `base.field`; the span of the field name is kept for errors.
    Field(Box<Ast>, String, Span),
    /// `name(args...)`; the span of the name is kept for errors.
    Call(String, Span, Vec<Ast>),
    Unary(UnaryOp, Box<Ast>),
    Binary(BinaryOp, Box<Ast>, Box<Ast>),
    /// `count d sides`, e.g. `3d6` or `(from.dice)d6`: the sum of the dice.
    Dice(Box<Ast>, Box<Ast>),
    /// `name in kind` as the first argument of a call, e.g. `count_of(near in space, …)`: a
    /// loop variable with a name of its own, so a loop inside a loop can still read the outer
    /// one. The span is the kind's.
    LoopVariable(String, String, Span),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
}

impl BinaryOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::And => "and",
            BinaryOp::Or => "or",
        }
    }
}

/// An effect statement: one line of an effect list.
#[derive(Clone, Debug, PartialEq)]
pub enum StmtAst {
    /// `let name = expr`: a local value for the rest of the effect list.
    Let { name: String, name_span: Span, value: Ast },
    /// `place = expr`, `place += expr`, `place -= expr`.
    Assign { place: Ast, op: AssignOp, value: Ast },
    /// A procedure call used as a statement, e.g. `end_turn()`.
    Call(Ast),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignOp {
    Set,
    Add,
    Sub,
}
