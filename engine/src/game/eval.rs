//! Evaluates compiled expressions and runs effect statements against a game state.
//!
//! One evaluator serves two contexts through the [`Env`] trait: reading (legal-action filters,
//! end conditions, previews) and writing (rolls and effects). The compiler guarantees dice and
//! changes appear only where writing is allowed.

use super::changes;
use super::events::Event;
use super::odds;
use super::state::{GameState, NO_PIECE, NO_SEAT, NO_SPACE, SeatStatus};
use super::{RuleError, WriteCx};
use crate::board::Scratch;
use crate::expr::UnaryOp;
use crate::rules::Ruleset;
use crate::rules::ir::{
    Aggregate, AggregateOp, ArithOp, AssignMode, Block, CmpOp, DiceMode, Expr, Func, ItemField, Leaf, LoopKind, Place,
    Proc, Read, Stmt, TagOf, Value,
};

/// What an expression can reach while it is evaluated.
pub(crate) trait Env {
    fn rules(&self) -> &Ruleset;
    fn state(&self) -> &GameState;
    /// The size of a seat's largest connected group of spaces.
    fn largest_group(&mut self, seat: u8) -> u32;
    /// Rolls dice from the game's stream and reports them.
    fn roll(&mut self, count: i64, sides: i64, mode: DiceMode) -> Result<i64, RuleError>;
    /// A uniform number from the game's stream.
    fn random(&mut self, low: i64, high: i64) -> Result<i64, RuleError>;
    fn distribute(&mut self, counter: u16, amount: i64, seat: u8, cap: i64) -> Result<i64, RuleError>;
    /// Puts a new piece of `kind` on `space` for `owner` (or nobody), or between `space` and
    /// `across` unless that is [`NO_SPACE`]; gives its id.
    fn place_piece(&mut self, kind: u16, owner: u8, space: u32, across: u32) -> Result<u32, RuleError>;
    fn hook(&mut self, index: u16, args: &[Value]) -> Result<Value, RuleError>;
    /// The movement points of the cheapest walk between two spaces, priced for a walker of
    /// piece kind `walker` when given (see [`walk_cost`]).
    fn walk_cost(&mut self, from: u32, to: u32, walk: &Walk) -> Option<u32>;
    /// Whether sight passes between two spaces (see [`line_of_sight`]).
    fn line_of_sight(&mut self, a: u32, b: u32) -> bool;
    /// `chance`: the probability of the current action's success.
    fn chance(&mut self, frame: &[Value]) -> Result<f64, RuleError>;
    /// `expect(x)`: the mean of `x` over its dice and the action's rolls.
    fn expect(&mut self, expr: &Expr, frame: &[Value]) -> Result<f64, RuleError>;
    /// The value of the named formula `index` for `me` and its arguments (see [`named_formula`]).
    fn formula(&mut self, index: u16, me: Value, args: &[Value]) -> Result<Value, RuleError>;
    /// Makes the dice rolled from now on seen by `seat` alone (`None`: by everyone); returns
    /// what it was, so `secret(…)` inside `secret(…)` restores it.
    fn set_secret(&mut self, _seat: Option<u8>) -> Option<u8> {
        None
    }
}

/// The value of the named formula `index` of `rules` (the ruleset `env` evaluates with, passed
/// apart so the formula can be read while `env` evaluates it): its body in a frame of its own,
/// `me` and the arguments first. An error names the formula and where it is written.
fn named_formula<E: Env>(
    env: &mut E,
    rules: &Ruleset,
    index: u16,
    me: Value,
    args: &[Value],
) -> Result<Value, RuleError> {
    let formula = &rules.formulas[index as usize];
    let size = (formula.frame as usize).max(args.len() + 1);
    let mut small = [Value::Nil; 16];
    let mut large = Vec::new();
    let frame: &mut [Value] = if size <= small.len() {
        &mut small[..size]
    } else {
        large.resize(size, Value::Nil);
        &mut large
    };
    frame[0] = me;
    frame[1..=args.len()].copy_from_slice(args);
    eval(env, &formula.body, frame).map_err(|error| error.context(rules, &format!("formulas.{}.value", formula.id)))
}

/// Evaluates an expression.
///
/// Leaves and the specialised filter nodes are handled here, inlined into every caller
/// (including the recursive calls of compound nodes), so most of an expression's nodes cost no
/// function call; compound nodes go to [`eval_compound`].
#[inline(always)]
pub(crate) fn eval<E: Env>(env: &mut E, expr: &Expr, frame: &[Value]) -> Result<Value, RuleError> {
    match expr {
        Expr::Const(v) => Ok(*v),
        Expr::Slot(slot) => Ok(frame.get(*slot as usize).copied().unwrap_or(Value::Nil)),
        Expr::SlotCounter { slot, counter } => {
            let state = env.state();
            Ok(Value::Int(match frame.get(*slot as usize) {
                Some(Value::Space(s)) if (*s as usize) < state.owners.len() => state.counter(*s, *counter),
                _ => 0,
            }))
        }
        Expr::SlotOwned { slot } => Ok(match frame.get(*slot as usize) {
            Some(Value::Seat(seat)) => Value::Int(i64::from(env.state().owned_count(*seat))),
            _ => Value::Int(0),
        }),
        Expr::CounterCmp { slot, counter, op, value } => {
            let state = env.state();
            let current = match frame.get(*slot as usize) {
                Some(Value::Space(s)) if (*s as usize) < state.owners.len() => state.counter(*s, *counter),
                _ => 0,
            };
            Ok(Value::Bool(compare_ints(*op, current, *value)))
        }
        Expr::OwnedCmp { slot, op, value } => {
            let owned = match frame.get(*slot as usize) {
                Some(Value::Seat(seat)) => i64::from(env.state().owned_count(*seat)),
                _ => 0,
            };
            Ok(Value::Bool(compare_ints(*op, owned, *value)))
        }
        Expr::SpaceCount => Ok(Value::Int(env.state().owners.len() as i64)),
        Expr::LeafCmp(leaves, op) => {
            let state = env.state();
            Ok(Value::Bool(compare_ints(*op, leaf_int(state, frame, leaves.0), leaf_int(state, frame, leaves.1))))
        }
        Expr::SlotCmp { a, b, op } => {
            let x = frame.get(*a as usize).copied().unwrap_or(Value::Nil);
            let y = frame.get(*b as usize).copied().unwrap_or(Value::Nil);
            Ok(Value::Bool(compare(*op, x, y)))
        }
        Expr::OwnerIs { space, seat, equal } => {
            let state = env.state();
            let owner = match frame.get(*space as usize) {
                Some(Value::Space(s)) => state.owners.get(*s as usize).map_or(Value::Nil, |&o| seat_value(o)),
                _ => Value::Nil,
            };
            let seat = frame.get(*seat as usize).copied().unwrap_or(Value::Nil);
            Ok(Value::Bool((owner == seat) == *equal))
        }
        _ => eval_compound(env, expr, frame),
    }
}

/// A leaf's whole-number value (see [`Expr::LeafCmp`]).
#[inline(always)]
fn leaf_int(state: &GameState, frame: &[Value], leaf: Leaf) -> i64 {
    match leaf {
        Leaf::Const(n) => n,
        Leaf::Slot(s) => frame.get(s as usize).copied().unwrap_or(Value::Nil).as_int(),
        Leaf::SlotCounter { slot, counter } => match frame.get(slot as usize) {
            Some(Value::Space(s)) if (*s as usize) < state.owners.len() => state.counter(*s, counter),
            _ => 0,
        },
        Leaf::SlotOwned { slot } => match frame.get(slot as usize) {
            Some(Value::Seat(seat)) => i64::from(state.owned_count(*seat)),
            _ => 0,
        },
        Leaf::SpaceCount => state.owners.len() as i64,
    }
}

#[inline(always)]
pub(crate) fn compare_ints(op: CmpOp, x: i64, y: i64) -> bool {
    match op {
        CmpOp::Eq => x == y,
        CmpOp::Ne => x != y,
        CmpOp::Lt => x < y,
        CmpOp::Le => x <= y,
        CmpOp::Gt => x > y,
        CmpOp::Ge => x >= y,
    }
}

/// Evaluates a compound expression (see [`eval`]).
#[inline(never)]
fn eval_compound<E: Env>(env: &mut E, expr: &Expr, frame: &[Value]) -> Result<Value, RuleError> {
    Ok(match expr {
        Expr::Const(v) => *v,
        Expr::Slot(slot) => frame.get(*slot as usize).copied().unwrap_or(Value::Nil),
        Expr::Unary(UnaryOp::Neg, e) => match eval(env, e, frame)? {
            Value::Num(x) => Value::Num(-x),
            // Saturating like the other operators: `-x` of the smallest number is the largest.
            v => Value::Int(v.as_int().saturating_neg()),
        },
        Expr::Unary(UnaryOp::Not, e) => Value::Bool(!eval(env, e, frame)?.as_bool()),
        Expr::Arith(op, float, a, b) => {
            let a = eval(env, a, frame)?;
            let b = eval(env, b, frame)?;
            arith(*op, *float, a, b)?
        }
        Expr::Compare(op, a, b) => {
            let a = eval(env, a, frame)?;
            let b = eval(env, b, frame)?;
            Value::Bool(compare(*op, a, b))
        }
        Expr::And(a, b) => Value::Bool(eval(env, a, frame)?.as_bool() && eval(env, b, frame)?.as_bool()),
        Expr::Or(a, b) => Value::Bool(eval(env, a, frame)?.as_bool() || eval(env, b, frame)?.as_bool()),
        Expr::If(c, a, b) => {
            if eval(env, c, frame)?.as_bool() {
                eval(env, a, frame)?
            } else {
                eval(env, b, frame)?
            }
        }
        Expr::Read(read) => read_state(env, read, frame)?,
        Expr::Call(func, args) => call(env, *func, args, frame)?,
        Expr::Dice { count, sides, mode } => {
            let count = eval(env, count, frame)?.as_int();
            let sides = eval(env, sides, frame)?.as_int();
            Value::Int(env.roll(count, sides, *mode)?)
        }
        Expr::Chance => Value::Num(env.chance(frame)?),
        Expr::Aggregate(aggregate) => fold(env, aggregate, frame)?,
        Expr::Expect(e) => Value::Num(env.expect(e, frame)?),
        Expr::SlotOwner { slot } => match frame.get(*slot as usize) {
            Some(Value::Space(s)) => env.state().owners.get(*s as usize).map_or(Value::Nil, |&o| seat_value(o)),
            _ => Value::Nil,
        },
        // Handled by `eval` before it calls here.
        Expr::CounterCmp { .. }
        | Expr::SlotCounter { .. }
        | Expr::SlotOwned { .. }
        | Expr::OwnerIs { .. }
        | Expr::OwnedCmp { .. }
        | Expr::SlotCmp { .. }
        | Expr::LeafCmp(..)
        | Expr::SpaceCount => eval(env, expr, frame)?,
    })
}

#[inline]
pub(crate) fn eval_bool<E: Env>(env: &mut E, expr: &Expr, frame: &[Value]) -> Result<bool, RuleError> {
    Ok(eval(env, expr, frame)?.as_bool())
}

pub(crate) fn arith(op: ArithOp, float: bool, a: Value, b: Value) -> Result<Value, RuleError> {
    if float {
        let (a, b) = (a.as_num(), b.as_num());
        return Ok(Value::Num(match op {
            ArithOp::Add => a + b,
            ArithOp::Sub => a - b,
            ArithOp::Mul => a * b,
            ArithOp::Div => {
                if b == 0.0 {
                    return Err(RuleError::new("division by zero"));
                }
                a / b
            }
            ArithOp::Rem => {
                if b == 0.0 {
                    return Err(RuleError::new("remainder of a division by zero"));
                }
                a.rem_euclid(b)
            }
        }));
    }
    let (a, b) = (a.as_int(), b.as_int());
    Ok(Value::Int(match op {
        ArithOp::Add => a.saturating_add(b),
        ArithOp::Sub => a.saturating_sub(b),
        ArithOp::Mul => a.saturating_mul(b),
        // Whole-number division rounds down, so `-7 / 2` is -4 like a floor.
        ArithOp::Div if b == 0 => return Err(RuleError::new("division by zero")),
        ArithOp::Rem if b == 0 => return Err(RuleError::new("remainder of a division by zero")),
        // The one overflow left, the smallest number divided by -1, saturates too.
        ArithOp::Div => a.checked_div_euclid(b).unwrap_or(i64::MAX),
        ArithOp::Rem => a.checked_rem_euclid(b).unwrap_or(0),
    }))
}

pub(crate) fn compare(op: CmpOp, a: Value, b: Value) -> bool {
    let numeric = matches!(a, Value::Int(_) | Value::Num(_)) && matches!(b, Value::Int(_) | Value::Num(_));
    if numeric {
        if let (Value::Int(x), Value::Int(y)) = (a, b) {
            return compare_ints(op, x, y);
        }
        let (x, y) = (a.as_num(), b.as_num());
        return match op {
            CmpOp::Eq => x == y,
            CmpOp::Ne => x != y,
            CmpOp::Lt => x < y,
            CmpOp::Le => x <= y,
            CmpOp::Gt => x > y,
            CmpOp::Ge => x >= y,
        };
    }
    match op {
        CmpOp::Eq => a == b,
        CmpOp::Ne => a != b,
        _ => false,
    }
}

fn space_of(value: Value) -> Option<u32> {
    value.as_space()
}

fn read_state<E: Env>(env: &mut E, read: &Read, frame: &[Value]) -> Result<Value, RuleError> {
    // Reading through `none` gives `none` (or 0 for numbers), like a missing table field in
    // Lua: filters such as `piece.space.owner == me` stay simple. Writing through `none` fails.
    Ok(match read {
        Read::SpaceCounter(e, c) => match space_of(eval(env, e, frame)?) {
            Some(s) if (s as usize) < env.state().owners.len() => Value::Int(env.state().counter(s, *c)),
            _ => Value::Int(0),
        },
        Read::SpaceOwner(e) => match space_of(eval(env, e, frame)?) {
            Some(s) => env.state().owners.get(s as usize).map_or(Value::Nil, |&o| seat_value(o)),
            None => Value::Nil,
        },
        Read::SpaceTerrain(e) => match space_of(eval(env, e, frame)?) {
            Some(s) if (s as usize) < env.state().board.space_count() => Value::Id(env.state().board.space(s).terrain),
            _ => Value::Nil,
        },
        Read::SpaceHome(e) => match space_of(eval(env, e, frame)?) {
            Some(s) if (s as usize) < env.state().board.space_count() => {
                env.state().board.space(s).home.map_or(Value::Nil, Value::Seat)
            }
            _ => Value::Nil,
        },
        Read::SpaceColumn(e) => match space_of(eval(env, e, frame)?) {
            Some(s) if (s as usize) < env.state().board.space_count() => {
                Value::Int(i64::from(env.state().board.space(s).col.max(-1)) + 1)
            }
            _ => Value::Int(0),
        },
        Read::SpaceRow(e) => match space_of(eval(env, e, frame)?) {
            Some(s) if (s as usize) < env.state().board.space_count() => {
                Value::Int(i64::from(env.state().board.space(s).row.max(-1)) + 1)
            }
            _ => Value::Int(0),
        },
        Read::TerrainStat(e, stat) => match eval(env, e, frame)? {
            Value::Id(terrain) => Value::Int(
                env.rules()
                    .terrain
                    .get(terrain as usize)
                    .and_then(|t| t.stats.get(*stat as usize))
                    .copied()
                    .unwrap_or(0),
            ),
            _ => Value::Int(0),
        },
        Read::SeatResource(e, r) => match eval(env, e, frame)?.as_seat() {
            Some(seat) => {
                env.state().seats.get(seat as usize).map_or(Value::Int(0), |s| Value::Int(s.resources[*r as usize]))
            }
            None => Value::Int(0),
        },
        Read::SeatNumber(e) => match eval(env, e, frame)?.as_seat() {
            Some(seat) => Value::Int(i64::from(seat) + 1),
            None => Value::Int(0),
        },
        Read::SeatSide(e) => match eval(env, e, frame)?.as_seat() {
            Some(seat) => env.state().seats.get(seat as usize).map_or(Value::Nil, |s| Value::Id(u16::from(s.side))),
            None => Value::Nil,
        },
        Read::PieceStat(e, stat) => match {
            let value = eval(env, e, frame)?;
            piece(env.state(), value)
        } {
            Some(p) => Value::Int(env.state().pieces[p].stats[*stat as usize]),
            None => Value::Int(0),
        },
        Read::PieceOwner(e) => match {
            let value = eval(env, e, frame)?;
            piece(env.state(), value)
        } {
            Some(p) => seat_value(env.state().pieces[p].owner),
            None => Value::Nil,
        },
        Read::PieceSpace(e) => match {
            let value = eval(env, e, frame)?;
            piece(env.state(), value)
        } {
            Some(p) => match env.state().pieces[p].space {
                NO_SPACE => Value::Nil,
                s => Value::Space(s),
            },
            None => Value::Nil,
        },
        Read::PieceInside(e) => match {
            let value = eval(env, e, frame)?;
            piece(env.state(), value)
        } {
            Some(p) => match env.state().pieces[p].inside {
                NO_PIECE => Value::Nil,
                holder => Value::Piece(holder),
            },
            None => Value::Nil,
        },
        Read::PieceAcross(e) => match {
            let value = eval(env, e, frame)?;
            piece(env.state(), value)
        } {
            Some(p) => match env.state().pieces[p].across {
                NO_SPACE => Value::Nil,
                across => Value::Space(across),
            },
            None => Value::Nil,
        },
        Read::PieceKind(e) => match {
            let value = eval(env, e, frame)?;
            piece(env.state(), value)
        } {
            Some(p) => Value::Id(env.state().pieces[p].kind),
            None => Value::Nil,
        },
        Read::SeatPiece(e) => match eval(env, e, frame)?.as_seat() {
            Some(seat) => env.state().seat_piece(seat).map_or(Value::Nil, Value::Piece),
            None => Value::Nil,
        },
        Read::ItemField(e, field) => match eval(env, e, frame)? {
            Value::Id(item) => Value::Int(item_field(env.rules(), item, *field)),
            _ => Value::Int(0),
        },
        Read::HeldField(e, field) => {
            let value = eval(env, e, frame)?;
            match held(env.state(), value) {
                Some(h) => Value::Int(item_field(env.rules(), h.item, *field)),
                None => Value::Int(0),
            }
        }
        Read::HeldKind(e) => {
            let value = eval(env, e, frame)?;
            held(env.state(), value).map_or(Value::Nil, |h| Value::Id(h.item))
        }
        Read::HeldCharges(e) => {
            let value = eval(env, e, frame)?;
            Value::Int(held(env.state(), value).map_or(0, |h| h.charges))
        }
        Read::HeldHolder(e) => match eval(env, e, frame)?.as_held() {
            Some((piece, _)) if (piece as usize) < env.state().pieces.len() => Value::Piece(piece),
            _ => Value::Nil,
        },
        Read::CardDeck(e) => match eval(env, e, frame)? {
            Value::Id(card) => env.rules().cards.get(card as usize).and_then(|c| c.deck).map_or(Value::Nil, Value::Id),
            _ => Value::Nil,
        },
        Read::CardStat(e, stat) => match eval(env, e, frame)? {
            Value::Id(card) => Value::Int(
                env.rules().cards.get(card as usize).and_then(|c| c.stats.get(*stat as usize)).map_or(0, |v| *v),
            ),
            _ => Value::Int(0),
        },
        Read::Var(v) => Value::Int(env.state().vars[*v as usize]),
        Read::Turn => Value::Int(i64::from(env.state().turn.number)),
        Read::Round => Value::Int(i64::from(env.state().turn.round)),
        Read::CurrentSeat => Value::Seat(env.state().turn.seat),
        Read::Phase => Value::Id(env.state().turn.phase),
        Read::Match => Value::Int(i64::from(env.state().turn.match_number)),
    })
}

/// A number of an item kind.
fn item_field(rules: &Ruleset, item: u16, field: ItemField) -> i64 {
    let Some(info) = rules.items.get(item as usize) else { return 0 };
    match field {
        ItemField::Price => info.price,
        ItemField::Charges => info.charges,
        ItemField::Stat(i) => info.stats.get(i as usize).copied().unwrap_or(0),
    }
}

/// The held item a value names, if the piece and position exist.
fn held(state: &GameState, value: Value) -> Option<super::state::HeldItem> {
    let (piece, position) = value.as_held()?;
    state.pieces.get(piece as usize)?.items.get(position as usize).copied()
}

/// The most steps the loops of one outermost loop may take together, nested ones included: far
/// beyond what a game needs (two loops nested over a board of 2,600 spaces take 6.8 million),
/// and well short of a second of work (six nested over 69 spaces would take 10¹¹).
pub const MAX_LOOP_STEPS: u64 = 10_000_000;

thread_local! {
    /// Loops being run (nesting depth) and the steps taken since the outermost one began.
    static LOOPS: std::cell::Cell<(u32, u64)> = const { std::cell::Cell::new((0, 0)) };
}

/// Counts a loop of `steps` iterations against [`MAX_LOOP_STEPS`] while it runs; dropping it
/// ends the loop. Kept per thread, so no evaluator context has to carry it.
struct LoopSteps;

impl LoopSteps {
    fn enter(steps: usize) -> Result<Self, RuleError> {
        let (depth, taken) = LOOPS.get();
        let taken = if depth == 0 { 0 } else { taken }.saturating_add(steps as u64);
        LOOPS.set((depth + 1, taken));
        let guard = LoopSteps;
        if taken > MAX_LOOP_STEPS {
            return Err(RuleError::new(format!(
                "the loops of one formula took more than {MAX_LOOP_STEPS} steps (loops nested too deep over the board?)"
            )));
        }
        charge_work(steps as u64)?;
        Ok(guard)
    }
}

/// Counts `units` of the rules language's work — loop steps, spaces a board search visited,
/// units `distribute` placed, the additions of an exact dice distribution (32 to a step) —
/// against the limits of the work in progress on this thread: one action or game start
/// ([`RulesWork`]) and one listing ([`ListingWork`]).
pub(crate) fn charge_work(units: u64) -> Result<(), RuleError> {
    note_work(units);
    if !RulesWork::charge(units) {
        return Err(RulesWork::exceeded_error());
    }
    if !ListingWork::charge(units) {
        return Err(ListingWork::exceeded_error());
    }
    Ok(())
}

thread_local! {
    /// All the rules' work counted on this thread so far, whatever limit it counted against.
    static WORK_DONE: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

pub(crate) fn note_work(units: u64) {
    WORK_DONE.set(WORK_DONE.get().wrapping_add(units));
}

/// The rules' work counted on this thread so far (loop steps, candidates listed, spaces searched…):
/// the difference between two readings is the work done in between, as a computer player that
/// budgets its look-ahead reads it.
pub(crate) fn work_done() -> u64 {
    WORK_DONE.get()
}

/// The spaces the board searches of this thread have visited since `before`, as work.
fn charge_searches(before: u64) -> Result<(), RuleError> {
    charge_work(crate::board::searched().wrapping_sub(before))
}

/// The most work the rules of one action may do, every formula, effect, trigger and board
/// search it sets off together (and the same for one game's start): counted, so an action that
/// does too much fails the same way on every machine, in about a second at most.
pub const MAX_ACTION_STEPS: u64 = 10_000_000;

/// The most work one listing of the legal actions may take — with the scores a computer
/// player works out while listing: every candidate tried counts one step, and so does every
/// step of the loops their filters and scores run. An action whose parameters combine in too
/// many ways (four parameters over every space of a board) or whose scores loop over the board
/// for every candidate is stopped here with an error naming it, instead of running for hours.
pub const MAX_LISTING_STEPS: u64 = 10_000_000;

/// The most actions one listing may hold (a list of every action is what a person chooses
/// from; it costs memory).
pub const MAX_LISTED_ACTIONS: u64 = 250_000;

/// One kind of counted work on this thread: `None` outside the work it counts, else the units
/// taken and whether the limit was passed (it stays passed).
type Tally = std::cell::Cell<Option<(u64, bool)>>;

thread_local! {
    static ACTION_STEPS: Tally = const { std::cell::Cell::new(None) };
    static LISTING_STEPS: Tally = const { std::cell::Cell::new(None) };
    static LISTED_ACTIONS: Tally = const { std::cell::Cell::new(None) };
}

/// A kind of counted work and its limit. Kept per thread, so no evaluator context has to carry
/// it; work begun inside work of the same kind counts into the outermost.
struct Limited {
    tally: &'static std::thread::LocalKey<Tally>,
    limit: u64,
}

static ACTION: Limited = Limited { tally: &ACTION_STEPS, limit: MAX_ACTION_STEPS };
static LISTING: Limited = Limited { tally: &LISTING_STEPS, limit: MAX_LISTING_STEPS };
static LISTED: Limited = Limited { tally: &LISTED_ACTIONS, limit: MAX_LISTED_ACTIONS };

impl Limited {
    /// Starts counting, unless this kind of work is counted already.
    fn begin(&'static self) -> CountedScope {
        let outermost = self.tally.get().is_none();
        if outermost {
            self.tally.set(Some((0, false)));
        }
        CountedScope { tally: self.tally, outermost }
    }

    /// Adds `units`; `false` once the limit is passed. Outside such work nothing is counted.
    #[inline]
    fn charge(&self, units: u64) -> bool {
        match self.tally.get() {
            None => true,
            Some((taken, exceeded)) => {
                let taken = taken.saturating_add(units);
                let exceeded = exceeded || taken > self.limit;
                self.tally.set(Some((taken, exceeded)));
                !exceeded
            }
        }
    }

    fn exceeded(&self) -> bool {
        self.tally.get().is_some_and(|(_, exceeded)| exceeded)
    }
}

/// Ends the counting a [`Limited::begin`] started, when it was the outermost.
struct CountedScope {
    tally: &'static std::thread::LocalKey<Tally>,
    outermost: bool,
}

impl Drop for CountedScope {
    fn drop(&mut self) {
        if self.outermost {
            self.tally.set(None);
        }
    }
}

/// Counts the rules' work of one action (or game start) against [`MAX_ACTION_STEPS`] while it
/// lives.
pub(crate) struct RulesWork {
    _counting: CountedScope,
}

impl RulesWork {
    pub(crate) fn begin() -> Self {
        RulesWork { _counting: ACTION.begin() }
    }

    #[inline]
    fn charge(units: u64) -> bool {
        ACTION.charge(units)
    }

    fn exceeded_error() -> RuleError {
        RuleError::new(format!(
            "the rules of one action (or of the game's start) took more than {MAX_ACTION_STEPS} steps together \
             (loop steps, spaces searched, units distributed, dice worked out exactly): loops nested too deep \
             over the board?"
        ))
    }
}

/// Counts the work of one listing of legal actions against [`MAX_LISTING_STEPS`] and
/// [`MAX_LISTED_ACTIONS`] while it lives; a listing begun inside another (a scoring formula
/// asking whether a seat can act) counts into the outer one.
pub(crate) struct ListingWork {
    _steps: CountedScope,
    _listed: CountedScope,
}

impl ListingWork {
    pub(crate) fn begin() -> Self {
        ListingWork { _steps: LISTING.begin(), _listed: LISTED.begin() }
    }

    /// Adds `steps` to the listing in progress; `false` once a limit is passed (and from then
    /// on). Outside a listing nothing is counted here.
    #[inline]
    pub(crate) fn charge(steps: u64) -> bool {
        LISTING.charge(steps) && !LISTED.exceeded()
    }

    /// Counts one action listed; `false` once a limit is passed.
    #[inline]
    pub(crate) fn charge_listed() -> bool {
        LISTED.charge(1) && !LISTING.exceeded()
    }

    /// Whether the listing in progress passed a limit.
    pub(crate) fn exceeded() -> bool {
        LISTING.exceeded() || LISTED.exceeded()
    }

    pub(crate) fn exceeded_error() -> RuleError {
        RuleError::new(format!(
            "listing the legal actions took more than {MAX_LISTING_STEPS} steps or {MAX_LISTED_ACTIONS} actions \
             (candidates tried, and the steps of the loops their filters and scores ran): restrict the action's \
             parameters (`owned_by`, `adjacent_to`, `reachable_from`, `where`) or make its formulas loop less"
        ))
    }
}

impl Drop for LoopSteps {
    fn drop(&mut self) {
        LOOPS.with(|l| {
            let (depth, taken) = l.get();
            l.set((depth.saturating_sub(1), taken));
        });
    }
}

/// Evaluates `count_of`, `sum_of`, `min_of`, `max_of` or `random_of` (see [`Expr::Aggregate`]).
/// The loop variable needs a frame slot of its own, so the frame is copied, onto the stack when
/// it is small.
fn fold<E: Env>(env: &mut E, aggregate: &Aggregate, frame: &[Value]) -> Result<Value, RuleError> {
    let slot = aggregate.slot as usize;
    let size = frame.len().max(slot + 1);
    let mut small = [Value::Nil; 24];
    let mut large = Vec::new();
    let local: &mut [Value] = if size <= small.len() {
        &mut small[..size]
    } else {
        large.resize(size, Value::Nil);
        &mut large
    };
    local[..frame.len()].copy_from_slice(frame);
    let count = match aggregate.kind {
        LoopKind::Seat => env.state().seats.len(),
        LoopKind::Space => env.state().owners.len(),
        LoopKind::Piece => env.state().pieces.len(),
    };
    let _steps = LoopSteps::enter(count)?;
    // A loop over spaces whose condition starts with `tagged(space, "tag")` skips the spaces
    // of other terrains without the evaluator: nearest-of-a-kind searches ask it per candidate.
    let space_tag = match (&aggregate.kind, &aggregate.condition) {
        (LoopKind::Space, Some(condition)) => leading_space_tag(condition, aggregate.slot),
        _ => None,
    };
    let mut matched = 0i64;
    let mut sum = Value::Int(0);
    let mut best: Option<Value> = None;
    let mut chosen = Vec::new();
    for i in 0..count {
        local[slot] = match aggregate.kind {
            LoopKind::Seat => Value::Seat(i as u8),
            LoopKind::Space => {
                if let Some(tag) = space_tag {
                    let terrain = env.state().board.space(i as u32).terrain as usize;
                    if !env.rules().terrain.get(terrain).is_some_and(|t| t.tags.contains(&tag)) {
                        continue;
                    }
                }
                Value::Space(i as u32)
            }
            LoopKind::Piece => {
                let piece = &env.state().pieces[i];
                if !piece.alive || piece.space == NO_SPACE {
                    continue;
                }
                Value::Piece(i as u32)
            }
        };
        if let Some(condition) = &aggregate.condition
            && !eval_bool(env, condition, local)?
        {
            continue;
        }
        matched += 1;
        let Some(value_expr) = &aggregate.value else {
            if aggregate.op == AggregateOp::Random {
                chosen.push(local[slot]);
            }
            continue;
        };
        let value = eval(env, value_expr, local)?;
        match aggregate.op {
            AggregateOp::Sum => {
                sum = arith(ArithOp::Add, matches!(value, Value::Num(_)) || matches!(sum, Value::Num(_)), sum, value)?
            }
            AggregateOp::Min => {
                if best.is_none_or(|b| value.as_num() < b.as_num()) {
                    best = Some(value);
                }
            }
            AggregateOp::Max => {
                if best.is_none_or(|b| value.as_num() > b.as_num()) {
                    best = Some(value);
                }
            }
            AggregateOp::Count | AggregateOp::Random => {}
        }
    }
    Ok(match aggregate.op {
        AggregateOp::Count => Value::Int(matched),
        AggregateOp::Sum => sum,
        AggregateOp::Min | AggregateOp::Max => best.unwrap_or(Value::Int(0)),
        AggregateOp::Random => {
            if chosen.is_empty() {
                Value::Nil
            } else {
                let i = env.random(0, chosen.len() as i64 - 1)?;
                chosen[i as usize]
            }
        }
    })
}

/// The tag of a condition `tagged(<loop space>, "tag")`, alone or first of an `and`.
fn leading_space_tag(condition: &Expr, slot: u16) -> Option<u16> {
    match condition {
        Expr::And(first, _) => leading_space_tag(first, slot),
        Expr::Call(Func::Tagged(tag, TagOf::Space), args) if matches!(args.as_slice(), [Expr::Slot(s)] if *s == slot) => {
            Some(*tag)
        }
        _ => None,
    }
}

fn seat_value(seat: u8) -> Value {
    if seat == NO_SEAT { Value::Nil } else { Value::Seat(seat) }
}

fn piece(state: &GameState, value: Value) -> Option<usize> {
    let p = value.as_piece()? as usize;
    (p < state.pieces.len()).then_some(p)
}

fn call<E: Env>(env: &mut E, func: Func, args: &[Expr], frame: &[Value]) -> Result<Value, RuleError> {
    let arg = |env: &mut E, i: usize| eval(env, &args[i], frame);
    Ok(match func {
        Func::Min | Func::Max => {
            let mut best = arg(env, 0)?;
            for i in 1..args.len() {
                let v = arg(env, i)?;
                let better = if func == Func::Min { v.as_num() < best.as_num() } else { v.as_num() > best.as_num() };
                if better {
                    best = v;
                }
            }
            best
        }
        Func::Round(rounding) => match arg(env, 0)? {
            // Saturating like the other operators, for numbers beyond whole ones' range.
            Value::Num(x) => Value::Int(rounding.apply(x) as i64),
            v => Value::Int(v.as_int()),
        },
        Func::Abs => match arg(env, 0)? {
            Value::Num(x) => Value::Num(x.abs()),
            v => Value::Int(v.as_int().saturating_abs()),
        },
        Func::Clamp => {
            let (x, lo, hi) = (arg(env, 0)?, arg(env, 1)?, arg(env, 2)?);
            if [x, lo, hi].iter().any(|v| matches!(v, Value::Num(_))) {
                let (x, lo, hi) = (x.as_num(), lo.as_num(), hi.as_num());
                // As for whole numbers: a low bound above the high one wins.
                Value::Num(if lo > hi { lo } else { x.max(lo).min(hi) })
            } else {
                let (x, lo, hi) = (x.as_int(), lo.as_int(), hi.as_int());
                Value::Int(if lo > hi { lo } else { x.clamp(lo, hi) })
            }
        }
        Func::Owned => match arg(env, 0)?.as_seat() {
            Some(seat) => Value::Int(i64::from(env.state().owned_count(seat))),
            None => Value::Int(0),
        },
        Func::LargestGroup => match arg(env, 0)?.as_seat() {
            Some(seat) => {
                let before = crate::board::searched();
                let size = env.largest_group(seat);
                charge_searches(before)?;
                Value::Int(i64::from(size))
            }
            None => Value::Int(0),
        },
        Func::Adjacent => {
            let (a, b) = (arg(env, 0)?.as_space(), arg(env, 1)?.as_space());
            Value::Bool(match (a, b) {
                (Some(a), Some(b)) => env.state().board.edge_between(a, b).is_some(),
                _ => false,
            })
        }
        Func::Distance => {
            let (a, b) = (arg(env, 0)?.as_space(), arg(env, 1)?.as_space());
            let before = crate::board::searched();
            let distance = match (a, b) {
                (Some(a), Some(b)) => env.state().board.distance(a, b).map_or(-1, i64::from),
                _ => -1,
            };
            charge_searches(before)?;
            Value::Int(distance)
        }
        Func::WalkDistance => {
            let (a, b) = (arg(env, 0)?.as_space(), arg(env, 1)?.as_space());
            // With a third argument, the walker: `none` or a piece gone walks nowhere.
            let walker = if args.len() == 3 { Some(arg(env, 2)?) } else { None };
            let Some(walk) = Walk::of(env.rules(), env.state(), walker) else { return Ok(Value::Int(-1)) };
            let before = crate::board::searched();
            let cost = match (a, b) {
                (Some(a), Some(b)) => env.walk_cost(a, b, &walk).map_or(-1, i64::from),
                _ => -1,
            };
            charge_searches(before)?;
            Value::Int(cost)
        }
        Func::LineOfSight => {
            let (a, b) = (arg(env, 0)?.as_space(), arg(env, 1)?.as_space());
            Value::Bool(match (a, b) {
                (Some(a), Some(b)) => env.line_of_sight(a, b),
                _ => false,
            })
        }
        Func::Beyond => {
            let (from, to, onto) = (arg(env, 0)?.as_space(), arg(env, 1)?.as_space(), arg(env, 2)?.as_space());
            Value::Bool(match (from, to, onto) {
                (Some(from), Some(to), Some(onto)) => {
                    env.state().board.beyond(from, to).is_some_and(|spaces| spaces.contains(&onto))
                }
                _ => false,
            })
        }
        Func::SpaceByLabel(index) => {
            let label = env.state().board.find(env.rules().strings.get(index as usize).map_or("", String::as_str));
            label.map_or(Value::Nil, Value::Space)
        }
        Func::SeatByNumber => {
            let n = arg(env, 0)?.as_int();
            if (1..=env.state().seats.len() as i64).contains(&n) { Value::Seat((n - 1) as u8) } else { Value::Nil }
        }
        Func::Allies => {
            let (a, b) = (arg(env, 0)?.as_seat(), arg(env, 1)?.as_seat());
            let seats = &env.state().seats;
            Value::Bool(match (a, b) {
                (Some(a), Some(b)) => {
                    seats.get(a as usize).zip(seats.get(b as usize)).is_some_and(|(x, y)| x.side == y.side)
                }
                _ => false,
            })
        }
        Func::HandSize => match arg(env, 0)?.as_seat() {
            Some(seat) => Value::Int(env.state().seats.get(seat as usize).map_or(0, |s| s.hand.len() as i64)),
            None => Value::Int(0),
        },
        Func::InHand => match (arg(env, 0)?.as_seat(), arg(env, 1)?) {
            (Some(seat), Value::Id(card)) => Value::Int(
                env.state()
                    .seats
                    .get(seat as usize)
                    .map_or(0, |s| s.hand.iter().filter(|(_, c)| *c == card).count() as i64),
            ),
            _ => Value::Int(0),
        },
        Func::Attached => {
            let holder = arg(env, 0).map(|target| piece(env.state(), target))?;
            match (holder, arg(env, 1)?) {
                (Some(p), Value::Id(card)) => {
                    Value::Int(env.state().pieces[p].cards.iter().filter(|(_, c)| *c == card).count() as i64)
                }
                _ => Value::Int(0),
            }
        }
        Func::Used(slot) => Value::Int(env.state().turn.used.get(slot as usize).map_or(0, |&used| i64::from(used))),
        Func::HeldCount => {
            let holder = arg(env, 0).map(|target| piece(env.state(), target))?;
            let kind = match args.get(1) {
                Some(_) => match arg(env, 1)? {
                    Value::Id(item) => Some(item),
                    _ => return Ok(Value::Int(0)),
                },
                None => None,
            };
            match holder {
                Some(p) => Value::Int(
                    env.state().pieces[p].items.iter().filter(|held| kind.is_none_or(|k| held.item == k)).count()
                        as i64,
                ),
                None => Value::Int(0),
            }
        }
        Func::CanHold => {
            let holder = arg(env, 0)?;
            let target = piece(env.state(), holder);
            let item = match arg(env, 1)? {
                Value::Id(item) if (item as usize) < env.rules().items.len() => Some(item),
                _ => None,
            };
            Value::Bool(match (target, item) {
                (Some(p), Some(item)) => changes::why_not_held(env.rules(), env.state(), p as u32, item).is_none(),
                _ => false,
            })
        }
        Func::Touches => {
            let touching = arg(env, 0).map(|target| piece(env.state(), target))?;
            let space = arg(env, 1)?.as_space();
            Value::Bool(match (touching, space) {
                (Some(p), Some(s)) => {
                    let p = &env.state().pieces[p];
                    p.space == s || p.across == s
                }
                _ => false,
            })
        }
        Func::PieceBetween => match (arg(env, 0)?.as_space(), arg(env, 1)?.as_space()) {
            (Some(a), Some(b)) if a != b => {
                let (space, across) = (a.min(b), a.max(b));
                let state = env.state();
                state
                    .pieces
                    .iter()
                    .position(|p| p.alive && p.space == space && p.across == across && p.inside == NO_PIECE)
                    .map_or(Value::Nil, |p| Value::Piece(p as u32))
            }
            _ => Value::Nil,
        },
        Func::InsideCount => {
            let holder = arg(env, 0).map(|target| piece(env.state(), target))?;
            let kind = match args.get(1) {
                Some(_) => match arg(env, 1)? {
                    Value::Id(kind) => Some(kind),
                    _ => return Ok(Value::Int(0)),
                },
                None => None,
            };
            match holder {
                Some(h) => Value::Int(
                    changes::contents(env.state(), h as u32)
                        .filter(|&p| kind.is_none_or(|k| env.state().pieces[p as usize].kind == k))
                        .count() as i64,
                ),
                None => Value::Int(0),
            }
        }
        Func::CanEnter => {
            let entering = arg(env, 0).map(|target| piece(env.state(), target))?;
            let holder = arg(env, 1).map(|target| piece(env.state(), target))?;
            Value::Bool(match (entering, holder) {
                (Some(p), Some(h)) => {
                    let state = env.state();
                    state.pieces[p].inside == h as u32
                        || changes::why_no_room(env.rules(), state, state.pieces[p].kind, h as u32).is_none()
                }
                _ => false,
            })
        }
        Func::AttachedCount => match arg(env, 0).map(|target| piece(env.state(), target))? {
            Some(p) => Value::Int(env.state().pieces[p].cards.len() as i64),
            None => Value::Int(0),
        },
        Func::ActiveSeats => Value::Int(env.state().active_seats() as i64),
        Func::SeatCount => Value::Int(env.state().seats.len() as i64),
        Func::SpaceCount => Value::Int(env.state().board.space_count() as i64),
        Func::PiecesAt => match arg(env, 0)?.as_space() {
            // Pieces inside holders stand inside them, not on the space.
            Some(s) => Value::Int(
                env.state()
                    .pieces
                    .iter()
                    .filter(|p| p.alive && p.space == s && p.inside == NO_PIECE && p.across == NO_SPACE)
                    .count() as i64,
            ),
            None => Value::Int(0),
        },
        Func::Holding(slot) => {
            let piece = arg(env, 0)?.as_piece();
            let rules = env.rules();
            piece
                .and_then(|p| env.state().pieces.get(p as usize).map(|held| (p, held)))
                .and_then(|(p, held)| {
                    let position = held
                        .items
                        .iter()
                        .position(|h| rules.items.get(h.item as usize).is_some_and(|i| i.slot == Some(slot)))?;
                    Some(Value::Held(p, position as u8))
                })
                .unwrap_or(Value::Nil)
        }
        Func::Random => {
            let (lo, hi) = (arg(env, 0)?.as_int(), arg(env, 1)?.as_int());
            Value::Int(env.random(lo, hi)?)
        }
        Func::PlacePiece(kind) => {
            let owner = arg(env, 0)?.as_seat().unwrap_or(NO_SEAT);
            // A third argument: the other side of a piece placed between two spaces.
            let across = match args.get(2) {
                Some(_) => match arg(env, 2)?.as_space() {
                    Some(across) => across,
                    None => return Err(RuleError::new("`place_between`: no second space")),
                },
                None => NO_SPACE,
            };
            match arg(env, 1)?.as_space() {
                Some(space) => Value::Piece(env.place_piece(kind, owner, space, across)?),
                None => return Err(RuleError::new("`place`: no space to place the piece on")),
            }
        }
        Func::Distribute(counter) => {
            let amount = arg(env, 0)?.as_int();
            let seat = arg(env, 1)?.as_seat();
            let cap = arg(env, 2)?.as_int();
            match seat {
                Some(seat) => Value::Int(env.distribute(counter, amount, seat, cap)?),
                None => Value::Int(amount.max(0)),
            }
        }
        Func::Tagged(tag, of) => {
            let value = arg(env, 0)?;
            Value::Bool(has_tag(env, value, tag, of))
        }
        Func::Secret => {
            let seat = frame.first().and_then(|v| v.as_seat());
            let before = env.set_secret(seat);
            let value = eval(env, &args[0], frame);
            env.set_secret(before);
            value?
        }
        Func::Hook(index) => {
            let mut values = [Value::Nil; 8];
            for (i, a) in args.iter().enumerate().take(8) {
                values[i] = eval(env, a, frame)?;
            }
            env.hook(index, &values[..args.len().min(8)])?
        }
        Func::Formula { index, .. } => {
            let mut values = [Value::Nil; crate::rules::compile::MAX_NAMED_PARAMS];
            for (i, a) in args.iter().enumerate().take(values.len()) {
                values[i] = eval(env, a, frame)?;
            }
            let me = frame.first().copied().unwrap_or(Value::Nil);
            env.formula(index, me, &values[..args.len().min(values.len())])?
        }
    })
}

/// Whether `value` (a space, terrain, piece, piece kind, held item or item, as `of` says) has
/// the tag with index `tag`: through its terrain or kind where it is an instance.
fn has_tag<E: Env>(env: &E, value: Value, tag: u16, of: TagOf) -> bool {
    let rules = env.rules();
    let state = env.state();
    let tags: Option<&Vec<u16>> = match of {
        TagOf::Space => space_of(value)
            .and_then(|s| state.board.get_space(s))
            .and_then(|s| rules.terrain.get(s.terrain as usize))
            .map(|t| &t.tags),
        TagOf::Terrain => match value {
            Value::Id(t) => rules.terrain.get(t as usize).map(|t| &t.tags),
            _ => None,
        },
        TagOf::Piece => {
            piece(state, value).and_then(|p| rules.piece_kinds.get(state.pieces[p].kind as usize)).map(|k| &k.tags)
        }
        TagOf::PieceKind => match value {
            Value::Id(k) => rules.piece_kinds.get(k as usize).map(|k| &k.tags),
            _ => None,
        },
        TagOf::Held => held(state, value).and_then(|h| rules.items.get(h.item as usize)).map(|i| &i.tags),
        TagOf::Item => match value {
            Value::Id(i) => rules.items.get(i as usize).map(|i| &i.tags),
            _ => None,
        },
        TagOf::Card => match value {
            Value::Id(c) => rules.cards.get(c as usize).map(|c| &c.tags),
            _ => None,
        },
    };
    tags.is_some_and(|tags| tags.contains(&tag))
}

/// A walk's prices: what its walker pays to enter each terrain and to cross the walls built
/// between spaces in play. Walks (`reachable_from`, `walk_distance`) step by it.
pub(crate) struct Walk {
    /// The piece kinds whose movement costs price the walk ([`Walk::of`]); `None` for a walk
    /// without a walker, which pays each terrain's own `move_cost`.
    kinds: Option<Vec<u16>>,
    /// For each edge with a wall built on it (a piece `on_edge` with a `wall`), by edge id: what
    /// crossing it costs this walker, or `None` when it may not cross.
    walls: Vec<(u32, Option<u32>)>,
}

impl Walk {
    /// The walk of the piece `walker` names (`None`: a walk with no walker, made for the seat
    /// to act); `None` when the walker is `none` or gone, who walks nowhere. A holder with
    /// pieces inside walks at the pace of the slowest of them (the kinds inside, sorted, each
    /// once, with its own kind when that gives `move_costs`), any other piece at its own
    /// kind's.
    pub(crate) fn of(rules: &Ruleset, state: &GameState, walker: Option<Value>) -> Option<Walk> {
        let Some(walker) = walker else {
            return Some(Walk { kinds: None, walls: built_walls(rules, state, state.to_act()) });
        };
        let piece = walker.as_piece()?;
        let walking = state.pieces.get(piece as usize).filter(|p| p.alive)?;
        let mut kinds = Vec::new();
        if let Some(holder) = rules.piece_kinds.get(walking.kind as usize).filter(|k| k.capacity > 0) {
            kinds.extend(changes::contents(state, piece).map(|p| state.pieces[p as usize].kind));
            if holder.own_pace && !kinds.is_empty() {
                kinds.push(walking.kind);
            }
            kinds.sort_unstable();
            kinds.dedup();
        }
        if kinds.is_empty() {
            kinds.push(walking.kind);
        }
        Some(Walk { kinds: Some(kinds), walls: built_walls(rules, state, walking.owner) })
    }

    /// What the walk pays to step onto `space` over `edge`: what entering costs ([`Walk::enter`])
    /// plus what crossing the edge costs ([`Walk::cross`]); `None` when either cannot be done.
    pub(crate) fn step(&self, rules: &Ruleset, state: &GameState, space: u32, edge: u32) -> Option<u32> {
        Some(self.enter(rules, state, space)? + self.cross(rules, state, edge)?)
    }

    /// What entering `space` costs: its terrain's `move_cost` (at least 1), or the most any of
    /// the walk's kinds pays for that terrain; `None` where the terrain (for any of the kinds)
    /// cannot be entered.
    pub(crate) fn enter(&self, rules: &Ruleset, state: &GameState, space: u32) -> Option<u32> {
        let terrain = state.board.space(space).terrain as usize;
        match &self.kinds {
            Some(kinds) => {
                let mut most = 0;
                for &kind in kinds {
                    let costs = &rules.piece_kinds.get(kind as usize)?.move_costs;
                    most = most.max(costs.get(terrain).copied().flatten()?);
                }
                Some(most)
            }
            None => {
                let info = rules.terrain.get(terrain)?;
                info.passable.then_some(info.move_cost.max(1))
            }
        }
    }

    /// What crossing `edge` costs on top of entering: the `move_cost` of the wall drawn on the
    /// board there (river, fence) and of each wall built there; `None` when one cannot be
    /// crossed.
    pub(crate) fn cross(&self, rules: &Ruleset, state: &GameState, edge: u32) -> Option<u32> {
        let board_wall = match state.board.get_edge(edge).and_then(|e| e.wall) {
            None => 0,
            Some(wall) => {
                let wall = rules.terrain.get(wall as usize)?;
                wall.passable.then_some(wall.move_cost)?
            }
        };
        let built = match self.walls.binary_search_by_key(&edge, |(e, _)| *e) {
            Ok(i) => self.walls[i].1?,
            Err(_) => 0,
        };
        Some(board_wall + built)
    }

    /// What tells this walk's prices apart from others' in the walk fields a scratch keeps:
    /// the kinds, then each built wall's edge and price.
    fn key(&self) -> Vec<u32> {
        let mut key: Vec<u32> = self.kinds.iter().flatten().map(|&kind| u32::from(kind)).collect();
        if self.kinds.is_none() {
            key.push(u32::MAX);
        }
        for &(edge, price) in &self.walls {
            key.extend([u32::MAX - 1, edge, price.unwrap_or(u32::MAX)]);
        }
        key
    }
}

/// The walls built between spaces in play, each with what crossing it costs a walker of
/// `walker_owner`'s (or nobody's), by edge; walls on one edge add up, and any that keeps the
/// walker out closes the edge. Empty, at no cost, for mods without such walls.
fn built_walls(rules: &Ruleset, state: &GameState, walker_owner: u8) -> Vec<(u32, Option<u32>)> {
    if !rules.piece_kinds.iter().any(|k| k.wall.is_some()) {
        return Vec::new();
    }
    let side = |seat: u8| state.seats.get(seat as usize).map(|s| s.side);
    let mut walls: Vec<(u32, Option<u32>)> = Vec::new();
    for p in state.pieces.iter().filter(|p| p.alive && p.across != NO_SPACE && p.inside == NO_PIECE) {
        let kind = &rules.piece_kinds[p.kind as usize];
        let (Some(terrain), Some(edge)) = (kind.wall, state.board.edge_between(p.space, p.across)) else {
            continue;
        };
        let info = &rules.terrain[terrain as usize];
        let lets_through = match kind.passes {
            crate::defs::Passes::All => true,
            crate::defs::Passes::None => false,
            crate::defs::Passes::Allies => side(p.owner).is_some() && side(p.owner) == side(walker_owner),
        };
        walls.push((edge, (info.passable && lets_through).then_some(info.move_cost)));
    }
    walls.sort_unstable_by_key(|(edge, _)| *edge);
    walls.dedup_by(|later, kept| {
        let same = later.0 == kept.0;
        if same {
            kept.1 = kept.1.zip(later.1).map(|(a, b)| a + b);
        }
        same
    });
    walls
}

/// The movement points of the cheapest walk from `from` to `to`, priced by `walk`.
pub(crate) fn walk_cost(
    rules: &Ruleset,
    state: &GameState,
    scratch: &mut Scratch,
    from: u32,
    to: u32,
    walk: &Walk,
) -> Option<u32> {
    // Each set of prices makes a field of its own: the key tells them apart.
    let key = walk.key();
    state.board.walk_cost(from, to, &key, |space, edge| walk.step(rules, state, space, edge), scratch)
}

/// Whether a straight line between the centres of two spaces passes no space and crosses no
/// wall whose terrain has `blocks_sight`; false where the board cannot say (the compiler refuses
/// `line_of_sight` on boards without cells). Heights count as in the rules (a blocking terrain with
/// a height hides only what it rises above). Public so that a screen can show what a space sees
/// exactly as the rules judge it.
pub fn line_of_sight(rules: &Ruleset, state: &GameState, scratch: &mut Scratch, a: u32, b: u32) -> bool {
    let level = |space: u32| {
        state
            .board
            .get_space(space)
            .and_then(|space| rules.terrain.get(space.terrain as usize))
            .and_then(|info| info.height)
            .unwrap_or(0)
    };
    let (low, high) = (level(a).min(level(b)), level(a).max(level(b)));
    // An obstacle with a height hides only what it rises above (see `TerrainDef::height`).
    let blocks = |terrain: u16| {
        rules
            .terrain
            .get(terrain as usize)
            .is_some_and(|info| info.blocks_sight && info.height.is_none_or(|height| height >= high && height > low))
    };
    state.board.line_of_sight_with(a, b, blocks, scratch).unwrap_or(false)
}

/// The size of a seat's largest connected group of spaces.
pub(crate) fn largest_group(state: &GameState, scratch: &mut Scratch, seat: u8) -> u32 {
    if state.owned_count(seat) == 0 {
        return 0;
    }
    let owners = &state.owners;
    state.board.largest_group(|s| owners[s as usize] == seat, scratch)
}

// ----- the writing context -----

impl Env for WriteCx<'_> {
    fn rules(&self) -> &Ruleset {
        self.rules
    }

    fn state(&self) -> &GameState {
        self.state
    }

    fn largest_group(&mut self, seat: u8) -> u32 {
        largest_group(self.state, self.scratch, seat)
    }

    fn walk_cost(&mut self, from: u32, to: u32, walk: &Walk) -> Option<u32> {
        walk_cost(self.rules, self.state, self.scratch, from, to, walk)
    }

    fn line_of_sight(&mut self, a: u32, b: u32) -> bool {
        line_of_sight(self.rules, self.state, self.scratch, a, b)
    }

    fn roll(&mut self, count: i64, sides: i64, mode: DiceMode) -> Result<i64, RuleError> {
        if !(0..=1000).contains(&count) {
            return Err(RuleError::new(format!("cannot roll {count} dice (0 to 1000 allowed)")));
        }
        if !(1..=1000).contains(&sides) {
            return Err(RuleError::new(format!("a die cannot have {sides} sides (1 to 1000 allowed)")));
        }
        let recording = self.events.enabled();
        if recording {
            self.faces.clear();
        }
        let mut sum = 0i64;
        let mut highest = 0i64;
        let mut lowest = i64::MAX;
        let mut hits = 0i64;
        for _ in 0..count {
            let face = match self.state.forced_faces.pop_front() {
                Some(f) => i64::from(f),
                None => i64::from(self.state.rng.die(sides as u32)),
            };
            sum += face;
            highest = highest.max(face);
            lowest = lowest.min(face);
            if let DiceMode::AtLeast(t) = mode
                && face >= t
            {
                hits += 1;
            }
            if recording {
                self.faces.push(face as u32);
            }
        }
        let value = match mode {
            DiceMode::Sum => sum,
            DiceMode::Highest => highest,
            DiceMode::Lowest => {
                if count == 0 {
                    0
                } else {
                    lowest
                }
            }
            DiceMode::AtLeast(_) => hits,
        };
        if recording {
            let faces = self.faces.clone();
            match self.secret_to {
                Some(seat) => self.events.push_with(|| Event::SecretRolled {
                    seat,
                    sides: sides as u32,
                    dice: faces.len() as u32,
                    faces,
                    value,
                }),
                None => {
                    let roll = self.roll_name.clone();
                    self.events.push_with(|| Event::Rolled { roll, sides: sides as u32, faces, value });
                }
            }
        }
        Ok(value)
    }

    fn random(&mut self, low: i64, high: i64) -> Result<i64, RuleError> {
        Ok(self.state.rng.range_inclusive(low, high))
    }

    fn place_piece(&mut self, kind: u16, owner: u8, space: u32, across: u32) -> Result<u32, RuleError> {
        if space as usize >= self.state.owners.len() {
            return Err(RuleError::new("`place`: no such space"));
        }
        if across == NO_SPACE {
            changes::place_piece(self.rules, self.state, self.events, kind, owner, space)
        } else {
            changes::place_piece_between(self.rules, self.state, self.events, kind, owner, space, across)
        }
    }

    fn distribute(&mut self, counter: u16, amount: i64, seat: u8, cap: i64) -> Result<i64, RuleError> {
        let info = &self.rules.space_counters[counter as usize];
        let cap = cap.min(info.max);
        let mut eligible = std::mem::take(&mut self.space_buffer);
        eligible.clear();
        for (space, &owner) in self.state.owners.iter().enumerate() {
            if owner == seat && self.state.counter(space as u32, counter) < cap {
                eligible.push(space as u32);
            }
        }
        // Units are placed one random draw at a time (so replays keep their draws); that is
        // `min(amount, room)` draws, refused when it is beyond any game's use rather than run for
        // hours.
        let room: i64 =
            eligible.iter().map(|&s| cap.saturating_sub(self.state.counter(s, counter))).fold(0, i64::saturating_add);
        if amount.min(room) > MAX_DISTRIBUTED {
            let wanted = amount.min(room);
            self.space_buffer = eligible;
            return Err(RuleError::new(format!(
                "distribute would place {wanted} units one by one; at most {MAX_DISTRIBUTED} are placed in one go"
            )));
        }
        // Each unit is a draw and a step: counted with the action's other work.
        if let Err(error) = charge_work(amount.min(room).max(0) as u64 + eligible.len() as u64) {
            self.space_buffer = eligible;
            return Err(error);
        }
        let recording = self.events.enabled();
        let mut before = Vec::new();
        if recording {
            before = eligible.iter().map(|&s| (s, self.state.counter(s, counter))).collect();
        }
        let mut left = amount.max(0);
        while left > 0 && !eligible.is_empty() {
            let i = self.state.rng.below(eligible.len() as u32) as usize;
            let space = eligible[i];
            let value = self.state.counter_mut(space, counter);
            *value += 1;
            if *value >= cap {
                eligible.swap_remove(i);
            }
            left -= 1;
        }
        for (space, from) in before {
            let to = self.state.counter(space, counter);
            if to != from {
                let owner = self.state.owner(space);
                self.events.push_with(|| Event::CounterChanged { space, counter, from, to, owner });
            }
        }
        self.space_buffer = eligible;
        Ok(left)
    }

    fn hook(&mut self, index: u16, args: &[Value]) -> Result<Value, RuleError> {
        let name = &self.rules.hook_names[index as usize];
        match self.hooks.as_deref_mut() {
            Some(hooks) => hooks.call_function(index, name, args, self.state, self.events, true),
            None => Err(RuleError::new(format!("hook `{name}`: this mod has no Lua hooks loaded"))),
        }
    }

    fn chance(&mut self, _frame: &[Value]) -> Result<f64, RuleError> {
        Err(RuleError::new("`chance` is only known before an action"))
    }

    fn expect(&mut self, _expr: &Expr, _frame: &[Value]) -> Result<f64, RuleError> {
        Err(RuleError::new("`expect` is only known before an action"))
    }

    fn formula(&mut self, index: u16, me: Value, args: &[Value]) -> Result<Value, RuleError> {
        let rules = self.rules;
        named_formula(self, rules, index, me, args)
    }

    fn set_secret(&mut self, seat: Option<u8>) -> Option<u8> {
        std::mem::replace(&mut self.secret_to, seat)
    }
}

/// The most units one `distribute` places (each is one random draw).
pub const MAX_DISTRIBUTED: i64 = 10_000_000;

/// Runs a block of statements.
pub(crate) fn exec(cx: &mut WriteCx, block: &Block, frame: &mut Vec<Value>) -> Result<(), RuleError> {
    for stmt in block {
        if cx.state.outcome.is_some() {
            // Once a game is decided nothing else of the effect list happens.
            return Ok(());
        }
        exec_stmt(cx, stmt, frame)?;
    }
    Ok(())
}

fn ensure_slot(frame: &mut Vec<Value>, slot: u16) {
    if frame.len() <= slot as usize {
        frame.resize(slot as usize + 1, Value::Nil);
    }
}

fn exec_stmt(cx: &mut WriteCx, stmt: &Stmt, frame: &mut Vec<Value>) -> Result<(), RuleError> {
    match stmt {
        Stmt::Let(slot, expr, roll_name) => {
            let named = roll_name.filter(|_| cx.events.enabled() && cx.roll_name.is_none());
            if let Some(name) = named {
                cx.roll_name = cx.rules.strings.get(name as usize).cloned();
            }
            let value = eval(cx, expr, frame);
            if named.is_some() {
                cx.roll_name = None;
            }
            let value = value?;
            ensure_slot(frame, *slot);
            frame[*slot as usize] = value;
        }
        Stmt::Assign(place, mode, expr) => {
            let value = eval(cx, expr, frame)?;
            assign(cx, place, *mode, value, frame)?;
        }
        Stmt::Eval(expr) => {
            eval(cx, expr, frame)?;
        }
        Stmt::Proc(proc, args) => run_proc(cx, *proc, args, frame)?,
        Stmt::If(condition, then, otherwise) => {
            if eval_bool(cx, condition, frame)? {
                exec(cx, then, frame)?;
            } else {
                exec(cx, otherwise, frame)?;
            }
        }
        Stmt::ForEach { kind, slot, filter, body } => {
            ensure_slot(frame, *slot);
            let count = match kind {
                LoopKind::Seat => cx.state.seats.len(),
                LoopKind::Space => cx.state.owners.len(),
                LoopKind::Piece => cx.state.pieces.len(),
            };
            let _steps = LoopSteps::enter(count)?;
            for i in 0..count {
                let value = match kind {
                    LoopKind::Seat => Value::Seat(i as u8),
                    LoopKind::Space => Value::Space(i as u32),
                    LoopKind::Piece => {
                        if !cx.state.pieces[i].alive {
                            continue;
                        }
                        Value::Piece(i as u32)
                    }
                };
                frame[*slot as usize] = value;
                if let Some(filter) = filter
                    && !eval_bool(cx, filter, frame)?
                {
                    continue;
                }
                exec(cx, body, frame)?;
                if cx.state.outcome.is_some() {
                    break;
                }
            }
        }
    }
    Ok(())
}

fn combine(mode: AssignMode, old: i64, value: i64) -> i64 {
    match mode {
        AssignMode::Set => value,
        AssignMode::Add => old.saturating_add(value),
        AssignMode::Sub => old.saturating_sub(value),
    }
}

fn assign(cx: &mut WriteCx, place: &Place, mode: AssignMode, value: Value, frame: &[Value]) -> Result<(), RuleError> {
    match place {
        Place::SpaceCounter(e, counter) => {
            let space = target_space(cx, e, frame)?;
            let new = combine(mode, cx.state.counter(space, *counter), value.as_int());
            changes::set_counter(cx.rules, cx.state, cx.events, space, *counter, new);
        }
        Place::SpaceOwner(e) => {
            let space = target_space(cx, e, frame)?;
            let to = match value {
                Value::Seat(s) if (s as usize) < cx.state.seats.len() => s,
                Value::Nil => NO_SEAT,
                other => return Err(RuleError::new(format!("cannot make {other:?} the owner of a space"))),
            };
            changes::set_owner(cx.state, cx.events, space, to);
        }
        Place::SpaceTerrain(e) => {
            let space = target_space(cx, e, frame)?;
            let terrain = match value {
                Value::Id(t) if (t as usize) < cx.rules.terrain.len() => t,
                other => return Err(RuleError::new(format!("cannot make {other:?} the terrain of a space"))),
            };
            changes::set_terrain(cx.state, cx.events, space, terrain);
        }
        Place::SeatResource(e, resource) => {
            let seat = target_seat(cx, e, frame)?;
            let new = combine(mode, cx.state.seats[seat as usize].resources[*resource as usize], value.as_int());
            changes::set_resource(cx.rules, cx.state, cx.events, seat, *resource, new);
        }
        Place::PieceStat(e, stat) => {
            let p = target_piece(cx, e, frame)?;
            let new = combine(mode, cx.state.pieces[p as usize].stats[*stat as usize], value.as_int());
            changes::set_stat(cx.rules, cx.state, cx.events, p, *stat, new);
        }
        Place::PieceOwner(e) => {
            let p = target_piece(cx, e, frame)?;
            let to = match value {
                Value::Seat(s) => s,
                _ => NO_SEAT,
            };
            changes::set_piece_owner(cx.state, cx.events, p, to);
        }
        Place::PieceSpace(e) => {
            let p = target_piece(cx, e, frame)?;
            let to = match value {
                Value::Space(s) if (s as usize) < cx.state.owners.len() => s,
                Value::Nil => NO_SPACE,
                other => return Err(RuleError::new(format!("cannot move a piece to {other:?}"))),
            };
            changes::move_piece(cx.state, cx.events, p, to)?;
        }
        Place::PieceInside(e) => {
            let p = target_piece(cx, e, frame)?;
            let holder = match value {
                Value::Piece(h) => h,
                Value::Nil => NO_PIECE,
                other => return Err(RuleError::new(format!("cannot put a piece inside {other:?}"))),
            };
            changes::set_inside(cx.rules, cx.state, cx.events, p, holder)?;
        }
        Place::HeldCharges(e) => {
            let value_of_place = eval(cx, e, frame)?;
            let Some(h) = held(cx.state, value_of_place) else {
                return Err(RuleError::new("this names no held item (it is none)"));
            };
            let (piece, position) = value_of_place.as_held().expect("held() checked it");
            let new = combine(mode, h.charges, value.as_int());
            changes::set_charges(cx.state, cx.events, piece, position, new);
        }
        Place::Var(var) => {
            let new = combine(mode, cx.state.vars[*var as usize], value.as_int());
            changes::set_var(cx.rules, cx.state, cx.events, *var, new);
        }
    }
    Ok(())
}

fn target_space(cx: &mut WriteCx, e: &Expr, frame: &[Value]) -> Result<u32, RuleError> {
    match eval(cx, e, frame)? {
        Value::Space(s) if (s as usize) < cx.state.owners.len() => Ok(s),
        _ => Err(RuleError::new("this names no space (it is none)")),
    }
}

fn target_seat(cx: &mut WriteCx, e: &Expr, frame: &[Value]) -> Result<u8, RuleError> {
    match eval(cx, e, frame)? {
        Value::Seat(s) if (s as usize) < cx.state.seats.len() => Ok(s),
        _ => Err(RuleError::new("this names no seat (it is none)")),
    }
}

fn target_piece(cx: &mut WriteCx, e: &Expr, frame: &[Value]) -> Result<u32, RuleError> {
    match eval(cx, e, frame)? {
        Value::Piece(p) if (p as usize) < cx.state.pieces.len() && cx.state.pieces[p as usize].alive => Ok(p),
        _ => Err(RuleError::new("this names no piece in play (it is none or removed)")),
    }
}

fn target_card(cx: &mut WriteCx, e: &Expr, frame: &[Value]) -> Result<u16, RuleError> {
    match eval(cx, e, frame)? {
        Value::Id(card) if (card as usize) < cx.rules.card_ids.len() => Ok(card),
        _ => Err(RuleError::new("this names no card (it is none)")),
    }
}

fn run_proc(cx: &mut WriteCx, proc: Proc, args: &[Expr], frame: &mut Vec<Value>) -> Result<(), RuleError> {
    match proc {
        Proc::EndTurn => cx.flow.end_turn = true,
        Proc::Refund(slot) => {
            let back = eval(cx, &args[1], frame)?.as_int().clamp(0, i64::from(u32::MAX)) as u32;
            if let Some(used) = cx.state.turn.used.get_mut(slot as usize) {
                *used = used.saturating_sub(back);
            }
        }
        Proc::Leave => {
            let seat = target_seat(cx, &args[0], frame)?;
            super::flow::seat_leaves(cx, seat)?;
        }
        Proc::Eliminate => {
            let seat = target_seat(cx, &args[0], frame)?;
            super::flow::seat_eliminated(cx, seat)?;
        }
        Proc::Win => {
            let seat = target_seat(cx, &args[0], frame)?;
            let seats = cx.state.side_of(seat);
            super::flow::finish(cx, super::state::Outcome::Win { seats });
        }
        Proc::Draw => {
            let shares = super::flow::draw_shares(cx)?;
            super::flow::finish(cx, super::state::Outcome::Draw { shares });
        }
        Proc::DealSpaces => deal_spaces(cx),
        Proc::Place(kind) => {
            let owner = eval(cx, &args[1], frame)?.as_seat().unwrap_or(NO_SEAT);
            let space = target_space(cx, &args[2], frame)?;
            match args.get(3) {
                Some(other) => {
                    let across = target_space(cx, other, frame)?;
                    changes::place_piece_between(cx.rules, cx.state, cx.events, kind, owner, space, across)?;
                }
                None => {
                    changes::place_piece(cx.rules, cx.state, cx.events, kind, owner, space)?;
                }
            }
        }
        Proc::Remove => {
            let p = target_piece(cx, &args[0], frame)?;
            changes::remove_piece(cx.state, cx.events, p);
        }
        Proc::Offer(action) => {
            // `args[0]` stands for the quoted action id.
            let seat = target_seat(cx, &args[1], frame)?;
            let mut given = Vec::with_capacity(args.len() - 2);
            for arg in &args[2..] {
                given.push(super::legal::value_arg(eval(cx, arg, frame)?));
            }
            changes::offer(cx.state, cx.events, seat, action, given);
        }
        Proc::Perform(action) => {
            // `args[0]` stands for the quoted action id.
            let mut given = Vec::with_capacity(args.len() - 1);
            for arg in &args[1..] {
                given.push(super::legal::value_arg(eval(cx, arg, frame)?));
            }
            super::perform(cx, action, &given)?;
        }
        Proc::RevealValue(label) => {
            let seat = frame.first().and_then(|v| v.as_seat()).unwrap_or(cx.state.turn.seat);
            let value = eval(cx, &args[1], frame)?.as_int();
            let label = cx.rules.strings[label as usize].clone();
            cx.events.push_with(|| Event::ValueRevealed { seat, label, value });
        }
        Proc::Give => {
            let p = target_piece(cx, &args[0], frame)?;
            let item = match eval(cx, &args[1], frame)? {
                Value::Id(item) if (item as usize) < cx.rules.items.len() => item,
                _ => return Err(RuleError::new("this names no item (it is none)")),
            };
            changes::give_item(cx.rules, cx.state, cx.events, p, item)?;
        }
        Proc::Drop => {
            let Some((p, position)) = eval(cx, &args[0], frame)?.as_held() else {
                return Err(RuleError::new("this names no held item (it is none)"));
            };
            changes::drop_item(cx.state, cx.events, p, position)?;
        }
        Proc::Shuffle(deck) => {
            let state = &mut *cx.state;
            state.rng.shuffle(&mut state.decks[deck as usize].draw);
            cx.events.push_with(|| Event::Shuffled { deck });
        }
        Proc::DrawCards(deck) => {
            let seat = target_seat(cx, &args[1], frame)?;
            let count = eval(cx, &args[2], frame)?.as_int().max(0);
            let drawn = super::decks::draw(cx, deck, seat, count as usize);
            cx.events.push_with(|| Event::CardsDrawn { seat, deck, cards: drawn });
        }
        Proc::Discard => {
            let seat = target_seat(cx, &args[0], frame)?;
            let card = target_card(cx, &args[1], frame)?;
            changes::discard_card(cx.rules, cx.state, cx.events, seat, card)?;
        }
        Proc::GiveCard => {
            let from = target_seat(cx, &args[0], frame)?;
            let to = target_seat(cx, &args[1], frame)?;
            let card = target_card(cx, &args[2], frame)?;
            changes::give_card(cx.rules, cx.state, cx.events, from, to, card)?;
        }
        Proc::ReturnCard => {
            let seat = target_seat(cx, &args[0], frame)?;
            let card = target_card(cx, &args[1], frame)?;
            changes::return_card(cx.rules, cx.state, cx.events, seat, card)?;
        }
        Proc::Attach => {
            let piece = target_piece(cx, &args[0], frame)?;
            let card = target_card(cx, &args[1], frame)?;
            let seat = target_seat(cx, &args[2], frame)?;
            changes::attach_card(cx.rules, cx.state, cx.events, piece, card, seat)?;
        }
        Proc::Detach => {
            let piece = target_piece(cx, &args[0], frame)?;
            let card = target_card(cx, &args[1], frame)?;
            let seat = target_seat(cx, &args[2], frame)?;
            changes::detach_card(cx.rules, cx.state, cx.events, piece, card, seat)?;
        }
        Proc::RevealHand => {
            let seat = target_seat(cx, &args[0], frame)?;
            let to = match args.get(1) {
                Some(to) => Some(target_seat(cx, to, frame)?),
                None => None,
            };
            changes::reveal_hand(cx.state, cx.events, seat, to);
        }
        Proc::RevealCard => {
            let seat = target_seat(cx, &args[0], frame)?;
            let card = target_card(cx, &args[1], frame)?;
            let to = match args.get(2) {
                Some(to) => Some(target_seat(cx, to, frame)?),
                None => None,
            };
            changes::reveal_card(cx.state, cx.events, seat, card, to);
        }
        Proc::Log => {
            let index = match args.first() {
                Some(Expr::Const(Value::Id(i))) => *i as usize,
                _ => 0,
            };
            let text = cx.rules.strings.get(index).cloned().unwrap_or_default();
            cx.events.push_with(|| Event::Log { text });
        }
        Proc::Hook(index) => {
            let mut values = [Value::Nil; 8];
            for (i, a) in args.iter().enumerate().take(8) {
                values[i] = eval(cx, a, frame)?;
            }
            cx.hook(index, &values[..args.len().min(8)])?;
        }
        Proc::Effect(index) => run_named_effect(cx, index, args, frame)?,
    }
    Ok(())
}

/// Runs the named effect block `index` in a frame of its own (`me`, the arguments, then its
/// `let` names), from the context's pool. An error names the effect and where it is written.
fn run_named_effect(cx: &mut WriteCx, index: u16, args: &[Expr], frame: &[Value]) -> Result<(), RuleError> {
    let rules = cx.rules;
    let effect = &rules.effects[index as usize];
    let mut local = cx.frames.pop().unwrap_or_default();
    local.clear();
    local.push(frame.first().copied().unwrap_or(Value::Nil));
    let mut result = Ok(());
    for arg in args {
        match eval(cx, arg, frame) {
            Ok(value) => local.push(value),
            Err(error) => {
                result = Err(error);
                break;
            }
        }
    }
    if result.is_ok() {
        local.resize((effect.frame as usize).max(local.len()), Value::Nil);
        result = exec(cx, &effect.body, &mut local)
            .map_err(|error| error.context(rules, &format!("effects.{}.do", effect.id)));
    }
    cx.frames.push(local);
    result
}

/// Deals every space to the active seats in equal shares, at random. Spaces that do not divide
/// evenly stay unowned.
fn deal_spaces(cx: &mut WriteCx) {
    let seats: Vec<u8> =
        (0..cx.state.seats.len() as u8).filter(|&s| cx.state.seats[s as usize].status == SeatStatus::Active).collect();
    if seats.is_empty() {
        return;
    }
    let mut spaces: Vec<u32> = (0..cx.state.owners.len() as u32).collect();
    cx.state.rng.shuffle(&mut spaces);
    let dealt = spaces.len() / seats.len() * seats.len();
    for (i, &space) in spaces.iter().enumerate() {
        let to = if i < dealt { seats[i % seats.len()] } else { NO_SEAT };
        changes::set_owner(cx.state, cx.events, space, to);
    }
}

/// Evaluation while reading: filters, conditions, end checks, previews and AI scores.
pub(crate) struct ReadCx<'a> {
    pub rules: &'a Ruleset,
    pub state: &'a GameState,
    pub scratch: &'a mut Scratch,
    pub odds: Option<&'a mut odds::OddsCx<'a>>,
    /// Lua hooks that may be called read-only (the API refuses changes); `None` where reading
    /// must not call Lua at all (legal-action filters, end checks).
    pub hooks: Option<&'a mut crate::lua::HookRuntime>,
}

impl Env for ReadCx<'_> {
    fn rules(&self) -> &Ruleset {
        self.rules
    }

    fn state(&self) -> &GameState {
        self.state
    }

    fn largest_group(&mut self, seat: u8) -> u32 {
        largest_group(self.state, self.scratch, seat)
    }

    fn walk_cost(&mut self, from: u32, to: u32, walk: &Walk) -> Option<u32> {
        walk_cost(self.rules, self.state, self.scratch, from, to, walk)
    }

    fn line_of_sight(&mut self, a: u32, b: u32) -> bool {
        line_of_sight(self.rules, self.state, self.scratch, a, b)
    }

    fn roll(&mut self, _count: i64, _sides: i64, _mode: DiceMode) -> Result<i64, RuleError> {
        Err(RuleError::new("dice cannot be rolled here"))
    }

    fn random(&mut self, _low: i64, _high: i64) -> Result<i64, RuleError> {
        Err(RuleError::new("`random` cannot be used here"))
    }

    fn place_piece(&mut self, _kind: u16, _owner: u8, _space: u32, _across: u32) -> Result<u32, RuleError> {
        Err(RuleError::new("`place` cannot be used here"))
    }

    fn distribute(&mut self, _counter: u16, _amount: i64, _seat: u8, _cap: i64) -> Result<i64, RuleError> {
        Err(RuleError::new("`distribute` cannot be used here"))
    }

    fn hook(&mut self, index: u16, args: &[Value]) -> Result<Value, RuleError> {
        let name = &self.rules.hook_names[index as usize];
        match self.hooks.as_deref_mut() {
            // The runtime swaps a state in while a hook runs; a copy serves, since read-only
            // hooks change nothing.
            Some(hooks) => {
                hooks.call_function(index, name, args, &mut self.state.clone(), &mut super::Events::discard(), false)
            }
            None => Err(RuleError::new(format!("hook `{name}` cannot be called while only reading the game"))),
        }
    }

    fn chance(&mut self, frame: &[Value]) -> Result<f64, RuleError> {
        let rules = self.rules;
        let state = self.state;
        match self.odds.as_deref_mut() {
            Some(odds) => odds.chance(rules, state, frame, self.hooks.as_deref_mut()),
            None => Err(RuleError::new("`chance` is only known for an action")),
        }
    }

    fn expect(&mut self, expr: &Expr, frame: &[Value]) -> Result<f64, RuleError> {
        let rules = self.rules;
        let state = self.state;
        match self.odds.as_deref_mut() {
            Some(odds) => odds.expect(rules, state, expr, frame, self.hooks.as_deref_mut()),
            None => Err(RuleError::new("`expect` is only known for an action")),
        }
    }

    fn formula(&mut self, index: u16, me: Value, args: &[Value]) -> Result<Value, RuleError> {
        let rules = self.rules;
        named_formula(self, rules, index, me, args)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_number_arithmetic_saturates_and_only_a_zero_divisor_is_an_error() {
        let int = |x: i64| Value::Int(x);
        let div = |a, b| arith(ArithOp::Div, false, int(a), int(b));
        assert_eq!(div(i64::MIN, -1), Ok(int(i64::MAX)));
        assert_eq!(arith(ArithOp::Rem, false, int(i64::MIN), int(-1)), Ok(int(0)));
        assert_eq!(div(-7, 2), Ok(int(-4)), "rounds down");
        assert_eq!(div(1, 0).unwrap_err().message(), "division by zero");
        assert_eq!(arith(ArithOp::Mul, false, int(i64::MAX), int(2)), Ok(int(i64::MAX)));
    }
}
