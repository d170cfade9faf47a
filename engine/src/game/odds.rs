//! Exact odds before acting: the probability of an action's `success` (`chance`) and the mean
//! of a roll (`expect(x)`), computed from the dice distributions, never by sampling.
//!
//! Rolls are random variables. When they are independent (no roll uses another's value) their
//! distributions combine directly; otherwise the joint outcomes are enumerated roll by roll.
//! Results the computer players ask for again and again are memoised by the distributions they
//! depend on, so scoring a candidate attack is a table lookup.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::RuleError;
use super::eval::{self, ReadCx};
use super::state::GameState;
use crate::board::Scratch;
use crate::expr::UnaryOp;
use crate::rules::Ruleset;
use crate::rules::ir::{ArithOp, CmpOp, DiceMode, Expr, Func, Leaf, Value};

/// Largest number of outcomes enumerated for one figure; beyond it the odds are not computed.
const MAX_OUTCOMES: usize = 1 << 20;
/// The most additions one dice sum's exact distribution may take (a fraction of a second).
const MAX_CONVOLUTION_STEPS: i64 = 200_000_000;

/// A discrete distribution over whole numbers: values ascending, probabilities summing to 1.
#[derive(Clone, Debug, PartialEq)]
pub struct Dist {
    pub values: Vec<i64>,
    pub probs: Vec<f64>,
}

impl Dist {
    pub fn point(value: i64) -> Self {
        Self { values: vec![value], probs: vec![1.0] }
    }

    /// Builds a distribution from (value, weight) pairs, merging equal values.
    fn from_pairs(mut pairs: Vec<(i64, f64)>) -> Self {
        pairs.sort_by_key(|(v, _)| *v);
        let mut values: Vec<i64> = Vec::with_capacity(pairs.len());
        let mut probs: Vec<f64> = Vec::with_capacity(pairs.len());
        for (v, p) in pairs {
            if values.last() == Some(&v) {
                *probs.last_mut().expect("parallel vectors") += p;
            } else {
                values.push(v);
                probs.push(p);
            }
        }
        Self { values, probs }
    }

    pub fn mean(&self) -> f64 {
        self.values.iter().zip(&self.probs).map(|(v, p)| *v as f64 * p).sum()
    }

    /// Probability of a value other than 0 (true).
    pub fn truth(&self) -> f64 {
        self.values.iter().zip(&self.probs).filter(|(v, _)| **v != 0).map(|(_, p)| p).sum()
    }

    fn is_point(&self) -> bool {
        self.values.len() == 1
    }

    /// The distribution of one dice term with a known count and number of sides.
    pub fn dice(count: i64, sides: i64, mode: DiceMode) -> Result<Self, RuleError> {
        if !(0..=1000).contains(&count) || !(1..=1000).contains(&sides) {
            return Err(RuleError::new(format!("cannot compute the odds of {count}d{sides}")));
        }
        if count == 0 {
            return Ok(Dist::point(0));
        }
        let s = sides as f64;
        Ok(match mode {
            DiceMode::Sum => {
                // Outcomes, and the work of convolving die after die (about count² × sides² / 2
                // additions): 1000d1000 has a million outcomes but would take minutes.
                let work = (count * count).saturating_mul(sides * (sides - 1)) / 2;
                if (count * (sides - 1) + 1) as usize > MAX_OUTCOMES || work > MAX_CONVOLUTION_STEPS {
                    return Err(RuleError::new(format!("{count}d{sides} has too many outcomes to compute exactly")));
                }
                // An addition is much cheaper than a loop step: 32 of them count as one.
                super::eval::charge_work(work as u64 / 32)?;
                // Convolve one die at a time; probs[i] is the chance of sum count_so_far + i.
                let mut probs = vec![1.0];
                for _ in 0..count {
                    let mut next = vec![0.0; probs.len() + sides as usize - 1];
                    for (i, p) in probs.iter().enumerate() {
                        for face in 0..sides as usize {
                            next[i + face] += p / s;
                        }
                    }
                    probs = next;
                }
                let values = (count..=count * sides).collect();
                Dist { values, probs }
            }
            DiceMode::Highest => {
                let values: Vec<i64> = (1..=sides).collect();
                let probs = values
                    .iter()
                    .map(|&k| (k as f64 / s).powi(count as i32) - ((k - 1) as f64 / s).powi(count as i32))
                    .collect();
                Dist { values, probs }
            }
            DiceMode::Lowest => {
                let values: Vec<i64> = (1..=sides).collect();
                let probs = values
                    .iter()
                    .map(|&k| {
                        ((sides - k + 1) as f64 / s).powi(count as i32) - ((sides - k) as f64 / s).powi(count as i32)
                    })
                    .collect();
                Dist { values, probs }
            }
            DiceMode::AtLeast(threshold) => {
                let hit = ((sides - threshold.clamp(1, sides + 1) + 1) as f64 / s).clamp(0.0, 1.0);
                let n = count as usize;
                let mut probs = vec![0.0; n + 1];
                // Binomial(n, hit) by the recurrence on k, in logs-free form for n ≤ 1000.
                let mut coefficient = 1.0f64;
                for (k, p) in probs.iter_mut().enumerate() {
                    *p = coefficient * hit.powi(k as i32) * (1.0 - hit).powi((n - k) as i32);
                    coefficient = coefficient * (n - k) as f64 / (k + 1) as f64;
                }
                Dist { values: (0..=count).collect(), probs }
            }
        })
    }
}

/// A small, fast, deterministic hasher for the memo tables (keys are short integer tuples).
#[derive(Default)]
pub struct FastHasher(u64);

impl Hasher for FastHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }
    fn write_u16(&mut self, n: u16) {
        self.write_u64(u64::from(n));
    }
    fn write_i64(&mut self, n: i64) {
        self.write_u64(n as u64);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

/// Memoised distributions and odds, kept by an [`crate::game::Engine`] across games.
#[derive(Default)]
pub struct OddsCache {
    dists: Vec<Dist>,
    dice: FastMap<(i64, i64, DiceMode), u32>,
    chances: FastMap<(u16, [u32; 4]), f64>,
    /// Per action: a direct table for two-dice contests, when the action has that shape.
    contests: Vec<ContestSlot>,
}

/// Whether an action's odds have the two-dice contest shape, found out on first use.
#[derive(Default)]
enum ContestSlot {
    #[default]
    Unknown,
    No,
    Yes(Box<Contest>),
}

/// An action whose two rolls are plain dice terms and whose success depends on those rolls
/// only (`attack > defence`): its chance depends only on the two dice counts, so it is kept in
/// a table indexed by them.
struct Contest {
    counts: [Expr; 2],
    /// Where each dice count comes from, resolved once for the lookup from arguments.
    sources: [CountSource; 2],
    sides: [i64; 2],
    modes: [DiceMode; 2],
    /// `CONTEST_SIZE × CONTEST_SIZE` chances, NaN until computed.
    table: Vec<f64>,
}

/// Where a contest's dice count comes from.
#[derive(Clone, Copy)]
enum CountSource {
    Const(i64),
    /// A space counter of the space chosen as argument `arg`.
    ArgCounter {
        arg: usize,
        counter: u16,
    },
    /// Anything else: evaluate it.
    Other,
}

impl CountSource {
    fn of(expr: &Expr) -> Self {
        match expr {
            Expr::Const(Value::Int(n)) => CountSource::Const(*n),
            Expr::SlotCounter { slot, counter } if *slot >= 1 => {
                CountSource::ArgCounter { arg: *slot as usize - 1, counter: *counter }
            }
            _ => CountSource::Other,
        }
    }

    #[inline]
    fn read(self, state: &GameState, args: &[i64]) -> Option<i64> {
        match self {
            CountSource::Const(n) => Some(n),
            CountSource::ArgCounter { arg, counter } => {
                let space = *args.get(arg)?;
                ((space as usize) < state.owners.len()).then(|| state.counter(space as u32, counter))
            }
            CountSource::Other => None,
        }
    }
}

/// Dice counts below this are kept in a contest table.
const CONTEST_SIZE: usize = 64;

impl Contest {
    fn detect(rule: &crate::rules::ActionRule) -> Option<Contest> {
        if rule.rolls.len() != 2 {
            return None;
        }
        let success = rule.success.as_ref()?;
        let first_roll = rule.roll_slot(0);
        if !depends_only_on_slots(success, first_roll) {
            return None;
        }
        let mut counts = Vec::new();
        let mut sides = [0; 2];
        let mut modes = [DiceMode::Sum; 2];
        for (i, (_, roll)) in rule.rolls.iter().enumerate() {
            let Expr::Dice { count, sides: side_expr, mode } = roll else { return None };
            let Expr::Const(Value::Int(s)) = **side_expr else { return None };
            // The count may read the game but not the other roll.
            if count.uses_slot(first_roll) || count.uses_slot(first_roll + 1) || count.rolls_dice() {
                return None;
            }
            counts.push((**count).clone());
            sides[i] = s;
            modes[i] = *mode;
        }
        let counts: [Expr; 2] = counts.try_into().ok()?;
        let sources = [CountSource::of(&counts[0]), CountSource::of(&counts[1])];
        Some(Contest { counts, sources, sides, modes, table: vec![f64::NAN; CONTEST_SIZE * CONTEST_SIZE] })
    }
}

/// Whether an expression reads nothing but frame slots from `first` on (the rolls) and constants.
fn depends_only_on_slots(expr: &Expr, first: u16) -> bool {
    match expr {
        Expr::Const(_) => true,
        Expr::Slot(s) => *s >= first,
        Expr::Unary(_, e) => depends_only_on_slots(e, first),
        Expr::Arith(_, _, a, b) | Expr::Compare(_, a, b) | Expr::And(a, b) | Expr::Or(a, b) => {
            depends_only_on_slots(a, first) && depends_only_on_slots(b, first)
        }
        Expr::If(a, b, c) => {
            depends_only_on_slots(a, first) && depends_only_on_slots(b, first) && depends_only_on_slots(c, first)
        }
        Expr::Call(Func::Min | Func::Max | Func::Abs | Func::Clamp, args) => {
            args.iter().all(|a| depends_only_on_slots(a, first))
        }
        Expr::SlotCmp { a, b, .. } => *a >= first && *b >= first,
        Expr::LeafCmp(leaves, _) => [leaves.0, leaves.1].iter().all(|leaf| match leaf {
            Leaf::Const(_) => true,
            Leaf::Slot(s) => *s >= first,
            _ => false,
        }),
        _ => false,
    }
}

impl OddsCache {
    fn dice_id(&mut self, count: i64, sides: i64, mode: DiceMode) -> Result<u32, RuleError> {
        if let Some(&id) = self.dice.get(&(count, sides, mode)) {
            return Ok(id);
        }
        let dist = Dist::dice(count, sides, mode)?;
        let id = self.dists.len() as u32;
        self.dists.push(dist);
        self.dice.insert((count, sides, mode), id);
        Ok(id)
    }
}

impl OddsCache {
    /// The chance of a contest action straight from its arguments, when its dice counts are
    /// space counters of its parameters and the table already has the entry: what a computer
    /// player needs for every candidate attack, without binding a frame.
    #[inline]
    pub fn known_contest_chance(&self, state: &GameState, action: u16, args: &[i64]) -> Option<f64> {
        let Some(ContestSlot::Yes(contest)) = self.contests.get(action as usize) else { return None };
        let (a, b) = match contest.sources {
            // Both counts are counters of argument spaces (`from.dice` against `to.dice`).
            [CountSource::ArgCounter { arg: x, counter: cx }, CountSource::ArgCounter { arg: y, counter: cy }] => {
                let spaces = 0..state.owners.len() as i64;
                let (sx, sy) = (*args.get(x)?, *args.get(y)?);
                if !spaces.contains(&sx) || !spaces.contains(&sy) {
                    return None;
                }
                (state.counter(sx as u32, cx), state.counter(sy as u32, cy))
            }
            [first, second] => (first.read(state, args)?, second.read(state, args)?),
        };
        if !(0..CONTEST_SIZE as i64).contains(&a) || !(0..CONTEST_SIZE as i64).contains(&b) {
            return None;
        }
        let p = contest.table[a as usize * CONTEST_SIZE + b as usize];
        (!p.is_nan()).then_some(p)
    }
}

/// Odds for one action: the cache plus which action's rolls `chance` refers to.
pub struct OddsCx<'a> {
    pub cache: &'a mut OddsCache,
    pub action: u16,
}

impl OddsCx<'_> {
    /// The probability of the action's `success`, with `me` and the parameters bound in `frame`.
    pub fn chance(&mut self, rules: &Ruleset, state: &GameState, frame: &[Value]) -> Result<f64, RuleError> {
        let rule = &rules.actions[self.action as usize];
        let Some(success) = &rule.success else {
            return Err(RuleError::new("this action has no `success` condition"));
        };
        let action = self.action as usize;
        if self.cache.contests.len() <= action {
            self.cache.contests.resize_with(rules.actions.len().max(action + 1), ContestSlot::default);
        }
        if matches!(self.cache.contests[action], ContestSlot::Unknown) {
            self.cache.contests[action] = match Contest::detect(rule) {
                Some(contest) => ContestSlot::Yes(Box::new(contest)),
                None => ContestSlot::No,
            };
        }
        if let ContestSlot::Yes(contest) = &self.cache.contests[action] {
            let (a, b) =
                match (quick_int(&contest.counts[0], state, frame), quick_int(&contest.counts[1], state, frame)) {
                    (Some(a), Some(b)) => (a, b),
                    _ => {
                        let mut scratch = Scratch::default();
                        let mut cx = ReadCx { rules, state, scratch: &mut scratch, odds: None, hooks: None };
                        (
                            eval::eval(&mut cx, &contest.counts[0], frame)?.as_int(),
                            eval::eval(&mut cx, &contest.counts[1], frame)?.as_int(),
                        )
                    }
                };
            if (0..CONTEST_SIZE as i64).contains(&a) && (0..CONTEST_SIZE as i64).contains(&b) {
                let cell = a as usize * CONTEST_SIZE + b as usize;
                let known = contest.table[cell];
                if !known.is_nan() {
                    return Ok(known);
                }
                let (sides, modes) = (contest.sides, contest.modes);
                let mut scratch = Scratch::default();
                let first = Dist::dice(a, sides[0], modes[0])?;
                let second = Dist::dice(b, sides[1], modes[1])?;
                let mut bound = frame.to_vec();
                bound.resize(rule.frame.max(1) as usize, Value::Nil);
                let slot = rule.roll_slot(0) as usize;
                let mut p = 0.0;
                for (x, px) in first.values.iter().zip(&first.probs) {
                    bound[slot] = Value::Int(*x);
                    for (y, py) in second.values.iter().zip(&second.probs) {
                        bound[slot + 1] = Value::Int(*y);
                        let mut cx = ReadCx { rules, state, scratch: &mut scratch, odds: None, hooks: None };
                        if eval::eval_bool(&mut cx, success, &bound)? {
                            p += px * py;
                        }
                    }
                }
                if let Some(ContestSlot::Yes(contest)) = self.cache.contests.get_mut(action) {
                    contest.table[cell] = p;
                }
                return Ok(p);
            }
        }
        // Fast path: every roll is a plain dice term of known size, independent of the others.
        if rule.rolls.len() <= 4 {
            let mut ids = [u32::MAX; 4];
            let mut plain = true;
            let mut scratch = Scratch::default();
            for (i, (_, expr)) in rule.rolls.iter().enumerate() {
                match plain_dice(rules, state, &mut scratch, expr, frame) {
                    Some((count, sides, mode)) => ids[i] = self.cache.dice_id(count, sides, mode)?,
                    None => {
                        plain = false;
                        break;
                    }
                }
            }
            if plain {
                let key = (self.action, ids);
                if let Some(&p) = self.cache.chances.get(&key) {
                    return Ok(p);
                }
                let p = self.joint(rules, state, success, frame)?.truth();
                self.cache.chances.insert(key, p);
                return Ok(p);
            }
        }
        Ok(self.joint(rules, state, success, frame)?.truth())
    }

    /// The mean of `expr` over the action's rolls and the expression's own dice.
    pub fn expect(
        &mut self,
        rules: &Ruleset,
        state: &GameState,
        expr: &Expr,
        frame: &[Value],
    ) -> Result<f64, RuleError> {
        Ok(self.joint(rules, state, expr, frame)?.mean())
    }

    /// The distribution of `target`, enumerating the action's rolls it depends on.
    fn joint(&mut self, rules: &Ruleset, state: &GameState, target: &Expr, frame: &[Value]) -> Result<Dist, RuleError> {
        let rule = &rules.actions[self.action as usize];
        let first_roll = rule.roll_slot(0);
        let roll_count = rule.rolls.len();
        // Rolls the target needs, with every roll they need in turn.
        let mut needed = vec![false; roll_count];
        for (i, flag) in needed.iter_mut().enumerate() {
            *flag = target.uses_slot(first_roll + i as u16);
        }
        for i in (0..roll_count).rev() {
            if needed[i] {
                for (j, flag) in needed.iter_mut().enumerate().take(i) {
                    if rule.rolls[i].1.uses_slot(first_roll + j as u16) {
                        *flag = true;
                    }
                }
            }
        }
        let mut bound = frame.to_vec();
        bound.resize(rule.frame.max(1) as usize, Value::Nil);
        let mut pairs = Vec::new();
        let mut leaves = 0usize;
        enumerate_rolls(rules, state, rule, &needed, 0, 1.0, &mut bound, target, &mut pairs, &mut leaves)?;
        Ok(Dist::from_pairs(pairs))
    }
}

/// The value of a dice count that is a constant or a space counter of a parameter, read
/// without setting up an evaluation (the contest fast path).
fn quick_int(expr: &Expr, state: &GameState, frame: &[Value]) -> Option<i64> {
    match expr {
        Expr::Const(Value::Int(n)) => Some(*n),
        Expr::SlotCounter { slot, counter } => match frame.get(*slot as usize) {
            Some(Value::Space(s)) if (*s as usize) < state.owners.len() => Some(state.counter(*s, *counter)),
            _ => Some(0),
        },
        _ => None,
    }
}

/// `Some((count, sides, mode))` when a roll is one dice term whose size is known now.
fn plain_dice(
    rules: &Ruleset,
    state: &GameState,
    scratch: &mut Scratch,
    expr: &Expr,
    frame: &[Value],
) -> Option<(i64, i64, DiceMode)> {
    let Expr::Dice { count, sides, mode } = expr else { return None };
    let mut cx = ReadCx { rules, state, scratch, odds: None, hooks: None };
    let count = eval::eval(&mut cx, count, frame).ok()?.as_int();
    let sides = eval::eval(&mut cx, sides, frame).ok()?.as_int();
    Some((count, sides, *mode))
}

#[allow(clippy::too_many_arguments)]
fn enumerate_rolls(
    rules: &Ruleset,
    state: &GameState,
    rule: &crate::rules::ActionRule,
    needed: &[bool],
    index: usize,
    weight: f64,
    frame: &mut Vec<Value>,
    target: &Expr,
    out: &mut Vec<(i64, f64)>,
    leaves: &mut usize,
) -> Result<(), RuleError> {
    if index == needed.len() {
        let dist = dist_of(rules, state, target, frame)?;
        *leaves += dist.values.len();
        if *leaves > MAX_OUTCOMES {
            return Err(RuleError::new("too many outcomes to compute the odds exactly"));
        }
        out.extend(dist.values.iter().zip(&dist.probs).map(|(v, p)| (*v, p * weight)));
        return Ok(());
    }
    if !needed[index] {
        return enumerate_rolls(rules, state, rule, needed, index + 1, weight, frame, target, out, leaves);
    }
    let slot = rule.roll_slot(index) as usize;
    let dist = dist_of(rules, state, &rule.rolls[index].1, frame)?;
    for (value, p) in dist.values.iter().zip(&dist.probs) {
        frame[slot] = Value::Int(*value);
        enumerate_rolls(rules, state, rule, needed, index + 1, weight * p, frame, target, out, leaves)?;
    }
    Ok(())
}

/// The distribution of an expression whose only randomness is its own dice terms (every slot
/// is bound). Each dice term is an independent roll.
pub fn dist_of(rules: &Ruleset, state: &GameState, expr: &Expr, frame: &[Value]) -> Result<Dist, RuleError> {
    if !expr.rolls_dice() {
        let mut scratch = Scratch::default();
        let mut cx = ReadCx { rules, state, scratch: &mut scratch, odds: None, hooks: None };
        let value = eval::eval(&mut cx, expr, frame)?;
        return Ok(Dist::point(match value {
            Value::Bool(b) => i64::from(b),
            v => v.as_int(),
        }));
    }
    let both = |a: &Expr, b: &Expr| -> Result<(Dist, Dist), RuleError> {
        Ok((dist_of(rules, state, a, frame)?, dist_of(rules, state, b, frame)?))
    };
    Ok(match expr {
        Expr::Dice { count, sides, mode } => {
            let counts = dist_of(rules, state, count, frame)?;
            let sides_d = dist_of(rules, state, sides, frame)?;
            if !sides_d.is_point() {
                return Err(RuleError::new("cannot compute odds for dice whose number of sides is random"));
            }
            let sides = sides_d.values[0];
            if counts.is_point() {
                Dist::dice(counts.values[0], sides, *mode)?
            } else {
                // A random number of dice: a mixture over the count.
                let mut pairs = Vec::new();
                for (n, p) in counts.values.iter().zip(&counts.probs) {
                    let d = Dist::dice(*n, sides, *mode)?;
                    pairs.extend(d.values.iter().zip(&d.probs).map(|(v, q)| (*v, p * q)));
                }
                Dist::from_pairs(pairs)
            }
        }
        Expr::Unary(UnaryOp::Neg, e) => {
            let d = dist_of(rules, state, e, frame)?;
            Dist::from_pairs(d.values.iter().zip(&d.probs).map(|(v, p)| (-v, *p)).collect())
        }
        Expr::Unary(UnaryOp::Not, e) => {
            let d = dist_of(rules, state, e, frame)?;
            let t = d.truth();
            Dist::from_pairs(vec![(1, 1.0 - t), (0, t)])
        }
        Expr::Arith(op, _, a, b) => {
            let (da, db) = both(a, b)?;
            combine(&da, &db, |x, y| match op {
                ArithOp::Add => Some(x.saturating_add(y)),
                ArithOp::Sub => Some(x.saturating_sub(y)),
                ArithOp::Mul => Some(x.saturating_mul(y)),
                ArithOp::Div => x.checked_div_euclid(y),
                ArithOp::Rem => x.checked_rem_euclid(y),
            })?
        }
        Expr::Compare(op, a, b) => {
            let (da, db) = both(a, b)?;
            combine(&da, &db, |x, y| {
                Some(i64::from(match op {
                    CmpOp::Eq => x == y,
                    CmpOp::Ne => x != y,
                    CmpOp::Lt => x < y,
                    CmpOp::Le => x <= y,
                    CmpOp::Gt => x > y,
                    CmpOp::Ge => x >= y,
                }))
            })?
        }
        Expr::And(a, b) => {
            let (da, db) = both(a, b)?;
            combine(&da, &db, |x, y| Some(i64::from(x != 0 && y != 0)))?
        }
        Expr::Or(a, b) => {
            let (da, db) = both(a, b)?;
            combine(&da, &db, |x, y| Some(i64::from(x != 0 || y != 0)))?
        }
        Expr::If(c, a, b) => {
            let t = dist_of(rules, state, c, frame)?.truth();
            let (da, db) = both(a, b)?;
            let mut pairs: Vec<(i64, f64)> = da.values.iter().zip(&da.probs).map(|(v, p)| (*v, p * t)).collect();
            pairs.extend(db.values.iter().zip(&db.probs).map(|(v, p)| (*v, p * (1.0 - t))));
            Dist::from_pairs(pairs)
        }
        Expr::Call(Func::Min, args) | Expr::Call(Func::Max, args) => {
            let is_min = matches!(expr, Expr::Call(Func::Min, _));
            let mut acc = dist_of(rules, state, &args[0], frame)?;
            for arg in &args[1..] {
                let d = dist_of(rules, state, arg, frame)?;
                acc = combine(&acc, &d, |x, y| Some(if is_min { x.min(y) } else { x.max(y) }))?;
            }
            acc
        }
        Expr::Call(Func::Abs, args) => {
            let d = dist_of(rules, state, &args[0], frame)?;
            Dist::from_pairs(d.values.iter().zip(&d.probs).map(|(v, p)| (v.saturating_abs(), *p)).collect())
        }
        _ => return Err(RuleError::new("the odds of this expression cannot be computed exactly")),
    })
}

fn combine(a: &Dist, b: &Dist, f: impl Fn(i64, i64) -> Option<i64>) -> Result<Dist, RuleError> {
    if a.values.len().saturating_mul(b.values.len()) > MAX_OUTCOMES {
        return Err(RuleError::new("too many outcomes to compute the odds exactly"));
    }
    let mut pairs = Vec::with_capacity(a.values.len() * b.values.len());
    for (x, p) in a.values.iter().zip(&a.probs) {
        for (y, q) in b.values.iter().zip(&b.probs) {
            let v = f(*x, *y).ok_or_else(|| RuleError::new("division by zero in a possible outcome"))?;
            pairs.push((v, p * q));
        }
    }
    Ok(Dist::from_pairs(pairs))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn sums_too_costly_to_convolve_are_refused_at_once() {
        let started = std::time::Instant::now();
        let refused = Dist::dice(1000, 1000, DiceMode::Sum).expect_err("minutes of work");
        assert_eq!(refused.message(), "1000d1000 has too many outcomes to compute exactly");
        assert!(Dist::dice(300, 300, DiceMode::Sum).is_err());
        assert!(started.elapsed().as_millis() < 100);
        // Sums a game uses still work, to the last outcome.
        let hundred = Dist::dice(100, 20, DiceMode::Sum).expect("cheap");
        assert_eq!(hundred.values.len(), 1901);
        assert!((hundred.probs.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    }

    #[test]
    fn two_dice_sum_is_triangular() {
        let d = Dist::dice(2, 6, DiceMode::Sum).unwrap();
        assert_eq!(d.values, (2..=12).collect::<Vec<_>>());
        assert!(close(d.probs[5], 6.0 / 36.0));
        assert!(close(d.probs.iter().sum::<f64>(), 1.0));
        assert!(close(d.mean(), 7.0));
    }

    #[test]
    fn highest_lowest_and_successes() {
        let h = Dist::dice(2, 6, DiceMode::Highest).unwrap();
        assert!(close(h.probs[5], 11.0 / 36.0));
        let l = Dist::dice(2, 6, DiceMode::Lowest).unwrap();
        assert!(close(l.probs[0], 11.0 / 36.0));
        let s = Dist::dice(5, 6, DiceMode::AtLeast(4)).unwrap();
        assert!(close(s.probs[5], 1.0 / 32.0));
        assert!(close(s.mean(), 2.5));
    }

    #[test]
    fn comparison_of_sums_matches_hand_count() {
        // P(1d6 > 1d6) = 15/36.
        let a = Dist::dice(1, 6, DiceMode::Sum).unwrap();
        let b = Dist::dice(1, 6, DiceMode::Sum).unwrap();
        let gt = combine(&a, &b, |x, y| Some(i64::from(x > y))).unwrap();
        assert!(close(gt.truth(), 15.0 / 36.0));
    }
}
