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
use crate::lua::{Draws, HookRuntime};
use crate::rng::GameRng;
use crate::rules::Ruleset;
use crate::rules::ir::{DiceMode, Expr, Func, Leaf, Value};

/// Largest number of outcomes enumerated for one figure; beyond it the odds are not computed.
const MAX_OUTCOMES: usize = 1 << 20;
/// The most additions one dice sum's exact distribution may take (a fraction of a second).
const MAX_CONVOLUTION_STEPS: i64 = 200_000_000;

/// A discrete distribution over numbers (whole ones, unless a formula divides into decimals):
/// values ascending, probabilities summing to 1.
#[derive(Clone, Debug, PartialEq)]
pub struct Dist {
    pub values: Vec<f64>,
    pub probs: Vec<f64>,
}

impl Dist {
    pub fn point(value: f64) -> Self {
        Self { values: vec![value], probs: vec![1.0] }
    }

    /// Builds a distribution from (value, weight) pairs, merging equal values.
    fn from_pairs(mut pairs: Vec<(f64, f64)>) -> Self {
        pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut values: Vec<f64> = Vec::with_capacity(pairs.len());
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
        self.values.iter().zip(&self.probs).map(|(v, p)| v * p).sum()
    }

    /// Probability of a value other than 0 (true).
    pub fn truth(&self) -> f64 {
        self.values.iter().zip(&self.probs).filter(|(v, _)| **v != 0.0).map(|(_, p)| p).sum()
    }

    /// The standard deviation.
    pub fn spread(&self) -> f64 {
        let mean = self.mean();
        let variance: f64 = self.values.iter().zip(&self.probs).map(|(v, p)| p * (v - mean).powi(2)).sum();
        variance.max(0.0).sqrt()
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
            return Ok(Dist::point(0.0));
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
                let values = (count..=count * sides).map(|v| v as f64).collect();
                Dist { values, probs }
            }
            DiceMode::Highest => {
                let probs = (1..=sides)
                    .map(|k| (k as f64 / s).powi(count as i32) - ((k - 1) as f64 / s).powi(count as i32))
                    .collect();
                Dist { values: (1..=sides).map(|v| v as f64).collect(), probs }
            }
            DiceMode::Lowest => {
                let probs = (1..=sides)
                    .map(|k| {
                        ((sides - k + 1) as f64 / s).powi(count as i32) - ((sides - k) as f64 / s).powi(count as i32)
                    })
                    .collect();
                Dist { values: (1..=sides).map(|v| v as f64).collect(), probs }
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
                Dist { values: (0..=count).map(|v| v as f64).collect(), probs }
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
    /// Per action: the computer-player scores of a contest whose `ai.score` reads nothing but
    /// `chance` and the two dice counts, by those counts (see [`ScoreSlot`]).
    contest_scores: Vec<ScoreSlot>,
    /// What Lua hooks called in odds return, over their draws.
    hooks: HookDists,
}

/// Whether an action's `ai.score` is a function of its contest's two dice counts alone, found
/// out on first use: then it is worked out once per pair of counts and kept, as the chance is.
#[derive(Default)]
enum ScoreSlot {
    #[default]
    Unknown,
    No,
    /// `CONTEST_SIZE × CONTEST_SIZE` scores, NaN until worked out.
    Yes(Vec<f64>),
}

/// Whether `expr` reads nothing but constants, `chance` and the counters the contest's dice
/// counts are (`from.dice`, `to.dice`): then its value depends on those counts alone.
fn reads_only_contest(expr: &Expr, contest: &Contest) -> bool {
    let counts = |slot: u16, counter: u16| {
        contest.sources.iter().any(|source| {
            matches!(*source, CountSource::ArgCounter { arg, counter: c } if arg + 1 == slot as usize && c == counter)
        })
    };
    !expr.any_node(&|e| !match e {
        Expr::Const(_) | Expr::Chance | Expr::Unary(UnaryOp::Neg, _) | Expr::Arith(..) => true,
        Expr::Call(Func::Min | Func::Max | Func::Abs | Func::Clamp, _) => true,
        Expr::SlotCounter { slot, counter } => counts(*slot, *counter),
        _ => false,
    })
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
    /// The counts of a contest action's two dice from its arguments, when both are counters of
    /// argument spaces and fit the tables.
    #[inline]
    fn contest_counts(&self, state: &GameState, action: u16, args: &[i64]) -> Option<usize> {
        let Some(ContestSlot::Yes(contest)) = self.contests.get(action as usize) else { return None };
        let (a, b) = match contest.sources {
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
        Some(a as usize * CONTEST_SIZE + b as usize)
    }

    /// The computer-player score of a contest action straight from its arguments, when its
    /// score depends on the two dice counts alone and was worked out for them before.
    #[inline]
    pub fn known_contest_score(&self, state: &GameState, action: u16, args: &[i64]) -> Option<f64> {
        let Some(ScoreSlot::Yes(table)) = self.contest_scores.get(action as usize) else { return None };
        let score = table[self.contest_counts(state, action, args)?];
        (!score.is_nan()).then_some(score)
    }

    /// Keeps a score just worked out by the evaluator, when the action's score depends on its
    /// contest's dice counts alone (decided at the first score of the action).
    pub fn remember_contest_score(
        &mut self,
        rule: &crate::rules::ActionRule,
        state: &GameState,
        action: u16,
        args: &[i64],
        score: f64,
    ) {
        let index = action as usize;
        if self.contest_scores.len() <= index {
            self.contest_scores.resize_with(index + 1, ScoreSlot::default);
        }
        if matches!(self.contest_scores[index], ScoreSlot::Unknown) {
            // The contest's shape is known once its chance was asked for; until then, wait.
            let verdict = match (self.contests.get(index), &rule.ai_score) {
                (Some(ContestSlot::Yes(contest)), Some(expr)) if reads_only_contest(expr, contest) => {
                    ScoreSlot::Yes(vec![f64::NAN; CONTEST_SIZE * CONTEST_SIZE])
                }
                (Some(ContestSlot::Unknown) | None, _) => return,
                _ => ScoreSlot::No,
            };
            self.contest_scores[index] = verdict;
        }
        if let Some(cell) = self.contest_counts(state, action, args)
            && let ScoreSlot::Yes(table) = &mut self.contest_scores[index]
        {
            table[cell] = score;
        }
    }

    /// The chance of a contest action straight from its arguments, when its dice counts are
    /// space counters of its parameters and the table already has the entry: what a computer
    /// player needs for every candidate attack, without binding a frame.
    #[inline]
    pub fn known_contest_chance(&self, state: &GameState, action: u16, args: &[i64]) -> Option<f64> {
        let Some(ContestSlot::Yes(contest)) = self.contests.get(action as usize) else { return None };
        let p = contest.table[self.contest_counts(state, action, args)?];
        (!p.is_nan()).then_some(p)
    }
}

/// Odds for one action: the cache plus which action's rolls `chance` refers to.
pub struct OddsCx<'a> {
    pub cache: &'a mut OddsCache,
    pub action: u16,
    /// Odds asked for since the figure began (`chance`, each `expect`), in order.
    calls: usize,
    /// The odds among them that were estimated by sampling: (their place in that order, the
    /// half-width of their 95% interval).
    estimates: Vec<(usize, f64)>,
    /// The place of one estimate to move up by its margin, for working out how far the figure
    /// moves with it.
    nudge: Option<usize>,
    /// `chance` once worked out: an odds context serves one action with one frame, and a score
    /// such as `chance * to.dice - (1 - chance) * from.dice` asks twice.
    known_chance: Option<(f64, Option<f64>)>,
}

/// How a figure was worked out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Method {
    /// No chance in it: a figure read off the game or a roll already made ("Damage: 8").
    Certain,
    /// Odds over every outcome.
    Exact,
    /// From seeded samples of a hook's draws too many to enumerate: the true value is within
    /// `margin` of the figure with 95% confidence.
    Sampled { margin: f64 },
}

/// One figure of an action's preview.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    pub label: String,
    pub value: f64,
    pub method: Method,
}

impl<'a> OddsCx<'a> {
    pub fn new(cache: &'a mut OddsCache, action: u16) -> Self {
        Self { cache, action, calls: 0, estimates: Vec::new(), nudge: None, known_chance: None }
    }

    /// Starts a figure: forgets the estimates of the one before.
    pub fn start_figure(&mut self, nudge: Option<usize>) {
        self.calls = 0;
        self.estimates.clear();
        self.nudge = nudge;
    }

    /// The estimates made since the figure began: (place, margin).
    pub fn estimates(&self) -> &[(usize, f64)] {
        &self.estimates
    }

    /// Notes the odds just worked out, returning the value the figure should use.
    fn note(&mut self, value: f64, margin: Option<f64>) -> f64 {
        let place = self.calls;
        self.calls += 1;
        match margin {
            None => value,
            Some(margin) => {
                self.estimates.push((place, margin));
                if self.nudge == Some(place) { value + margin } else { value }
            }
        }
    }

    /// The probability of the action's `success`, with `me` and the parameters bound in `frame`.
    pub fn chance(
        &mut self,
        rules: &Ruleset,
        state: &GameState,
        frame: &[Value],
        hooks: Option<&mut HookRuntime>,
    ) -> Result<f64, RuleError> {
        let (p, margin) = match self.known_chance {
            Some(known) => known,
            None => {
                let known = self.chance_with_margin(rules, state, frame, hooks)?;
                self.known_chance = Some(known);
                known
            }
        };
        Ok(self.note(p, margin))
    }

    fn chance_with_margin(
        &mut self,
        rules: &Ruleset,
        state: &GameState,
        frame: &[Value],
        hooks: Option<&mut HookRuntime>,
    ) -> Result<(f64, Option<f64>), RuleError> {
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
                    return Ok((known, None));
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
                    bound[slot] = Value::Int(*x as i64);
                    for (y, py) in second.values.iter().zip(&second.probs) {
                        bound[slot + 1] = Value::Int(*y as i64);
                        let mut cx = ReadCx { rules, state, scratch: &mut scratch, odds: None, hooks: None };
                        if eval::eval_bool(&mut cx, success, &bound)? {
                            p += px * py;
                        }
                    }
                }
                if let Some(ContestSlot::Yes(contest)) = self.cache.contests.get_mut(action) {
                    contest.table[cell] = p;
                }
                return Ok((p, None));
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
                    return Ok((p, None));
                }
                let (dist, samples) = self.joint(rules, state, success, frame, hooks)?;
                let p = dist.truth();
                if samples.is_none() {
                    self.cache.chances.insert(key, p);
                }
                return Ok((p, samples.map(|n| margin_of_chance(p, n))));
            }
        }
        let (dist, samples) = self.joint(rules, state, success, frame, hooks)?;
        let p = dist.truth();
        Ok((p, samples.map(|n| margin_of_chance(p, n))))
    }

    /// The mean of `expr` over the action's rolls and the expression's own dice, and the Lua
    /// hooks' draws.
    pub fn expect(
        &mut self,
        rules: &Ruleset,
        state: &GameState,
        expr: &Expr,
        frame: &[Value],
        hooks: Option<&mut HookRuntime>,
    ) -> Result<f64, RuleError> {
        let (dist, samples) = self.joint(rules, state, expr, frame, hooks)?;
        let mean = dist.mean();
        // The sampled hooks' results stand for many outcomes each: the spread of the whole
        // figure over `samples` draws bounds how far its mean can be off (by the law of total
        // variance, never less than the part the samples add).
        let margin = samples.map(|n| margin_of_mean(&dist, n));
        Ok(self.note(mean, margin))
    }

    /// The distribution of `target`, enumerating the action's rolls it depends on, and the
    /// fewest samples behind any hook's distribution used (`None`: exact).
    fn joint(
        &mut self,
        rules: &Ruleset,
        state: &GameState,
        target: &Expr,
        frame: &[Value],
        hooks: Option<&mut HookRuntime>,
    ) -> Result<(Dist, Option<u32>), RuleError> {
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
        let mut outcomes = Outcomes { rules, state, hooks, hook_dists: &mut self.cache.hooks, samples: None };
        outcomes.enumerate_rolls(rule, &needed, 0, 1.0, &mut bound, target, &mut pairs, &mut leaves)?;
        let samples = outcomes.samples;
        Ok((Dist::from_pairs(pairs), samples))
    }
}

/// The two-sided 95% point of the normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// Half the 95% interval of a chance estimated from `samples` draws.
fn margin_of_chance(p: f64, samples: u32) -> f64 {
    // Never 0: a chance no sample met may still be above 0 (and one every sample met, below
    // 1): by the "rule of three", up to 3/n at 95%.
    let n = f64::from(samples);
    (Z95 * (p * (1.0 - p)).sqrt() / n.sqrt()).max(3.0 / n)
}

/// Half the 95% interval of a mean estimated from `samples` draws of a distribution: never 0,
/// since outcomes no sample met may still move it (see [`margin_of_chance`]).
fn margin_of_mean(dist: &Dist, samples: u32) -> f64 {
    let n = f64::from(samples);
    let largest = dist.values.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    (Z95 * dist.spread() / n.sqrt()).max(3.0 / n * largest)
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

// ----- the outcomes of Lua hooks -----

/// The most runs of a hook the odds enumerate, one combination of its draws each; a hook with
/// more combinations is sampled instead.
pub const MAX_EXACT_HOOK_RUNS: u32 = 50_000;
/// How many runs sample a hook whose draws have too many combinations to enumerate.
pub const HOOK_SAMPLES: u32 = 50_000;
/// Random runs that first estimate how many combinations a hook's draws have, so that a hook
/// with millions is sampled at once rather than after enumerating [`MAX_EXACT_HOOK_RUNS`].
const SIZE_PROBES: u32 = 64;
/// Lua instructions the runs that work out one hook's distribution may take together: enough
/// for [`HOOK_SAMPLES`] runs of a thousand instructions each and more. Past it the figure is an
/// error, whatever was worked out before (these runs count apart from the action's own work).
pub const ODDS_INSTRUCTION_LIMIT: u64 = 200_000_000;
/// Hook distributions remembered at most; past it the memory starts afresh.
const MAX_REMEMBERED_HOOKS: usize = 4096;

/// What a hook call is remembered by: the hook, its arguments, and for a hook that reads the
/// game, the state's hash.
type HookKey = (u16, Vec<u64>, Option<u64>);

/// The distribution of one hook call's result over its draws.
pub(crate) struct HookDist {
    dist: Dist,
    /// `Some(n)`: estimated from `n` seeded runs.
    samples: Option<u32>,
}

/// Remembered hook distributions.
#[derive(Default)]
pub(crate) struct HookDists {
    known: FastMap<HookKey, HookDist>,
    /// Calls (hook, arguments) seen to read the game: remembered per state.
    read_game: std::collections::HashSet<(u16, Vec<u64>), BuildHasherDefault<FastHasher>>,
}

/// A value as bits for a memo key.
fn value_bits(value: Value) -> u64 {
    match value {
        Value::Num(x) => x.to_bits(),
        other => (other.as_int() as u64).rotate_left(8) ^ u64::from(value_kind(other)),
    }
}

fn value_kind(value: Value) -> u8 {
    match value {
        Value::Nil => 0,
        Value::Bool(_) => 1,
        Value::Int(_) => 2,
        Value::Num(_) => 3,
        Value::Seat(_) => 4,
        Value::Space(_) => 5,
        Value::Piece(_) => 6,
        Value::Id(_) => 7,
        Value::Held(..) => 8,
    }
}

/// Working out the distribution of one expression: the game it reads, the hooks it may call,
/// and how exact the answer is.
struct Outcomes<'a, 'h> {
    rules: &'a Ruleset,
    state: &'a GameState,
    hooks: Option<&'h mut HookRuntime>,
    hook_dists: &'a mut HookDists,
    /// The fewest samples behind a hook distribution used so far; `None` while all are exact.
    samples: Option<u32>,
}

impl Outcomes<'_, '_> {
    #[allow(clippy::too_many_arguments)]
    fn enumerate_rolls(
        &mut self,
        rule: &crate::rules::ActionRule,
        needed: &[bool],
        index: usize,
        weight: f64,
        frame: &mut Vec<Value>,
        target: &Expr,
        out: &mut Vec<(f64, f64)>,
        leaves: &mut usize,
    ) -> Result<(), RuleError> {
        if index == needed.len() {
            let dist = self.dist_of(target, frame)?;
            *leaves += dist.values.len();
            if *leaves > MAX_OUTCOMES {
                return Err(RuleError::new("too many outcomes to compute the odds exactly"));
            }
            out.extend(dist.values.iter().zip(&dist.probs).map(|(v, p)| (*v, p * weight)));
            return Ok(());
        }
        if !needed[index] {
            return self.enumerate_rolls(rule, needed, index + 1, weight, frame, target, out, leaves);
        }
        let slot = rule.roll_slot(index) as usize;
        let dist = self.dist_of(&rule.rolls[index].1, frame)?;
        for (value, p) in dist.values.iter().zip(&dist.probs) {
            // A roll is a whole number.
            frame[slot] = Value::Int(*value as i64);
            self.enumerate_rolls(rule, needed, index + 1, weight * p, frame, target, out, leaves)?;
        }
        Ok(())
    }

    /// The distribution of an expression whose randomness is its own dice terms and the hooks
    /// it calls (every slot is bound). Each dice term is an independent roll.
    fn dist_of(&mut self, expr: &Expr, frame: &[Value]) -> Result<Dist, RuleError> {
        let (rules, state) = (self.rules, self.state);
        if !expr.rolls_dice() && !expr.calls_hook() {
            let mut scratch = Scratch::default();
            let mut cx = ReadCx { rules, state, scratch: &mut scratch, odds: None, hooks: None };
            let value = eval::eval(&mut cx, expr, frame)?;
            return Ok(Dist::point(match value {
                Value::Bool(b) => f64::from(u8::from(b)),
                Value::Num(x) => x,
                v => v.as_int() as f64,
            }));
        }
        Ok(match expr {
            Expr::Dice { count, sides, mode } => {
                let counts = self.dist_of(count, frame)?;
                let sides_d = self.dist_of(sides, frame)?;
                if !sides_d.is_point() {
                    return Err(RuleError::new("cannot compute odds for dice whose number of sides is random"));
                }
                let sides = sides_d.values[0] as i64;
                if counts.is_point() {
                    Dist::dice(counts.values[0] as i64, sides, *mode)?
                } else {
                    // A random number of dice: a mixture over the count.
                    let mut pairs = Vec::new();
                    for (n, p) in counts.values.iter().zip(&counts.probs) {
                        let d = Dist::dice(*n as i64, sides, *mode)?;
                        pairs.extend(d.values.iter().zip(&d.probs).map(|(v, q)| (*v, p * q)));
                    }
                    Dist::from_pairs(pairs)
                }
            }
            Expr::Unary(UnaryOp::Neg, e) => {
                let d = self.dist_of(e, frame)?;
                Dist::from_pairs(d.values.iter().zip(&d.probs).map(|(v, p)| (-v, *p)).collect())
            }
            Expr::Unary(UnaryOp::Not, e) => {
                let t = self.dist_of(e, frame)?.truth();
                Dist::from_pairs(vec![(1.0, 1.0 - t), (0.0, t)])
            }
            Expr::Arith(op, float, a, b) => {
                let (da, db) = (self.dist_of(a, frame)?, self.dist_of(b, frame)?);
                // The evaluator's own arithmetic: whole numbers stay whole (division rounds
                // down), decimals stay decimals.
                let number = |x: f64| if *float { Value::Num(x) } else { Value::Int(x as i64) };
                combine(&da, &db, |x, y| eval::arith(*op, *float, number(x), number(y)).ok().map(Value::as_num))?
            }
            Expr::Compare(op, a, b) => {
                let (da, db) = (self.dist_of(a, frame)?, self.dist_of(b, frame)?);
                combine(&da, &db, |x, y| Some(f64::from(u8::from(eval::compare(*op, Value::Num(x), Value::Num(y))))))?
            }
            Expr::And(a, b) => {
                let (da, db) = (self.dist_of(a, frame)?, self.dist_of(b, frame)?);
                combine(&da, &db, |x, y| Some(f64::from(u8::from(x != 0.0 && y != 0.0))))?
            }
            Expr::Or(a, b) => {
                let (da, db) = (self.dist_of(a, frame)?, self.dist_of(b, frame)?);
                combine(&da, &db, |x, y| Some(f64::from(u8::from(x != 0.0 || y != 0.0))))?
            }
            Expr::If(c, a, b) => {
                let condition = self.dist_of(c, frame)?;
                // A condition known now picks one branch: the other is never worked out (its
                // hooks are not run, with arguments it would never be given).
                if condition.is_point() {
                    return self.dist_of(if condition.values[0] != 0.0 { a } else { b }, frame);
                }
                let t = condition.truth();
                let (da, db) = (self.dist_of(a, frame)?, self.dist_of(b, frame)?);
                let mut pairs: Vec<(f64, f64)> = da.values.iter().zip(&da.probs).map(|(v, p)| (*v, p * t)).collect();
                pairs.extend(db.values.iter().zip(&db.probs).map(|(v, p)| (*v, p * (1.0 - t))));
                Dist::from_pairs(pairs)
            }
            Expr::Call(Func::Min, args) | Expr::Call(Func::Max, args) => {
                let is_min = matches!(expr, Expr::Call(Func::Min, _));
                let mut acc = self.dist_of(&args[0], frame)?;
                for arg in &args[1..] {
                    let d = self.dist_of(arg, frame)?;
                    acc = combine(&acc, &d, |x, y| Some(if is_min { x.min(y) } else { x.max(y) }))?;
                }
                acc
            }
            Expr::Call(Func::Round(rounding), args) => {
                let d = self.dist_of(&args[0], frame)?;
                Dist::from_pairs(d.values.iter().zip(&d.probs).map(|(v, p)| (rounding.apply(*v), *p)).collect())
            }
            Expr::Call(Func::Abs, args) => {
                let d = self.dist_of(&args[0], frame)?;
                Dist::from_pairs(d.values.iter().zip(&d.probs).map(|(v, p)| (v.abs(), *p)).collect())
            }
            Expr::Call(Func::Hook(index), args) => self.hook_call(*index, args, frame)?,
            // Who sees the dice changes nothing of their odds.
            Expr::Call(Func::Secret, args) => self.dist_of(&args[0], frame)?,
            Expr::Call(Func::Formula { index, .. }, args) => self.formula_call(*index, args, frame)?,
            _ => return Err(RuleError::new("the odds of this expression cannot be computed exactly")),
        })
    }

    /// Every combination of the values of a call's arguments, with its probability: one when no
    /// argument is random.
    fn argument_combinations(
        &mut self,
        args: &[Expr],
        frame: &[Value],
        types: Option<&[(String, crate::rules::ir::Type)]>,
    ) -> Result<Vec<(Vec<Value>, f64)>, RuleError> {
        let mut combinations: Vec<(Vec<Value>, f64)> = vec![(Vec::with_capacity(args.len()), 1.0)];
        for (i, arg) in args.iter().enumerate() {
            let mut next = Vec::new();
            if arg.rolls_dice() || arg.calls_hook() {
                let dist = self.dist_of(arg, frame)?;
                if combinations.len().saturating_mul(dist.values.len()) > MAX_OUTCOMES {
                    return Err(RuleError::new("too many outcomes to compute the odds exactly"));
                }
                // A yes/no parameter takes the outcome as one.
                let is_bool = types.and_then(|t| t.get(i)).is_some_and(|(_, ty)| *ty == crate::rules::ir::Type::Bool);
                for (values, p) in &combinations {
                    for (v, q) in dist.values.iter().zip(&dist.probs) {
                        let mut values = values.clone();
                        values.push(if is_bool {
                            Value::Bool(*v != 0.0)
                        } else if v.fract() == 0.0 {
                            Value::Int(*v as i64)
                        } else {
                            Value::Num(*v)
                        });
                        next.push((values, p * q));
                    }
                }
            } else {
                // A seat, space or piece passes as itself, not as a number.
                let mut scratch = Scratch::default();
                let mut cx =
                    ReadCx { rules: self.rules, state: self.state, scratch: &mut scratch, odds: None, hooks: None };
                let value = eval::eval(&mut cx, arg, frame)?;
                for (mut values, p) in combinations {
                    values.push(value);
                    next.push((values, p));
                }
            }
            combinations = next;
        }
        Ok(combinations)
    }

    /// The distribution of `hook(name, args…)`: over the arguments' own outcomes when they are
    /// random, and over the hook's draws.
    fn hook_call(&mut self, index: u16, args: &[Expr], frame: &[Value]) -> Result<Dist, RuleError> {
        let mut pairs = Vec::new();
        for (values, p) in self.argument_combinations(args, frame, None)? {
            let dist = self.hook_dist(index, &values)?;
            pairs.extend(dist.values.iter().zip(&dist.probs).map(|(v, q)| (*v, p * q)));
        }
        Ok(Dist::from_pairs(pairs))
    }

    /// The distribution of a named formula's value: its body, in a frame of its own, over the
    /// arguments' outcomes and the hooks it calls.
    fn formula_call(&mut self, index: u16, args: &[Expr], frame: &[Value]) -> Result<Dist, RuleError> {
        let rules = self.rules;
        let formula = &rules.formulas[index as usize];
        let me = frame.first().copied().unwrap_or(Value::Nil);
        let mut pairs = Vec::new();
        for (values, p) in self.argument_combinations(args, frame, Some(&formula.params))? {
            let mut own = vec![Value::Nil; (formula.frame as usize).max(values.len() + 1)];
            own[0] = me;
            own[1..=values.len()].copy_from_slice(&values);
            let dist = self
                .dist_of(&formula.body, &own)
                .map_err(|error| error.context(rules, &format!("formulas.{}.value", formula.id)))?;
            pairs.extend(dist.values.iter().zip(&dist.probs).map(|(v, q)| (*v, p * q)));
        }
        Ok(Dist::from_pairs(pairs))
    }

    /// The distribution of one hook call with known arguments, remembered.
    fn hook_dist(&mut self, index: u16, args: &[Value]) -> Result<Dist, RuleError> {
        let name = &self.rules.hook_names[index as usize];
        let Some(hooks) = self.hooks.as_deref_mut() else {
            return Err(RuleError::new(format!("hook `{name}` cannot be called while only reading the game")));
        };
        let bits: Vec<u64> = args.iter().map(|v| value_bits(*v)).collect();
        let call = (index, bits);
        let state_hash = self.hook_dists.read_game.contains(&call).then(|| self.state.hash());
        let key: HookKey = (call.0, call.1.clone(), state_hash);
        if let Some(known) = self.hook_dists.known.get(&key) {
            if let Some(n) = known.samples {
                self.samples = Some(self.samples.map_or(n, |m| m.min(n)));
            }
            return Ok(known.dist.clone());
        }
        let mut copy = self.state.clone();
        // Seeded by the call alone, never by what is remembered: the same figure comes out
        // whatever was worked out before.
        let seed = {
            let mut bytes = name.as_bytes().to_vec();
            for b in &key.1 {
                bytes.extend_from_slice(&b.to_le_bytes());
            }
            crate::game::state::fnv1a(&bytes)
        };
        hooks.begin_odds(ODDS_INSTRUCTION_LIMIT);
        let worked_out = work_out_hook(hooks, index, name, args, &mut copy, seed);
        let within = hooks.end_odds();
        let (dist, samples, read_game) = worked_out.map_err(|error| {
            if within {
                error
            } else {
                RuleError::new(format!(
                    "working out the odds of hook `{name}` ran more than {} Lua instructions ({} runs at most, each a \
                     combination of its draws or a sample): make the hook draw less",
                    crate::lua::api_doc::grouped(ODDS_INSTRUCTION_LIMIT),
                    crate::lua::api_doc::grouped(
                        u64::from(MAX_EXACT_HOOK_RUNS.max(HOOK_SAMPLES)) + u64::from(SIZE_PROBES)
                    )
                ))
            }
        })?;
        if let Some(n) = samples {
            self.samples = Some(self.samples.map_or(n, |m| m.min(n)));
        }
        if self.hook_dists.known.len() >= MAX_REMEMBERED_HOOKS {
            self.hook_dists.known.clear();
        }
        let key = if read_game && state_hash.is_none() {
            // First seen reading the game: remembered per state from now on.
            self.hook_dists.read_game.insert(call.clone());
            (call.0, call.1, Some(self.state.hash()))
        } else {
            key
        };
        self.hook_dists.known.insert(key, HookDist { dist: dist.clone(), samples });
        Ok(dist)
    }
}

/// Runs a hook over every combination of its draws, or samples it when they are too many: its
/// distribution, the number of samples when sampled, and whether it read the game.
fn work_out_hook(
    hooks: &mut HookRuntime,
    index: u16,
    name: &str,
    args: &[Value],
    state: &mut GameState,
    seed: u64,
) -> Result<(Dist, Option<u32>, bool), RuleError> {
    let mut read_game = false;
    let mut rng = GameRng::from_seed(seed);
    let run_sampled = |hooks: &mut HookRuntime, state: &mut GameState, rng: &mut GameRng, read_game: &mut bool| {
        let draws = Draws::Sampled { rng: Box::new(rng.clone()), paths: 1.0 };
        let (result, draws, read) = hooks.call_drawing(index, name, args, state, draws);
        *read_game |= read;
        let Draws::Sampled { rng: advanced, paths } = draws else { unreachable!("sampled draws stay sampled") };
        *rng = *advanced;
        result.map(|value| (value.as_int(), paths))
    };
    // How many combinations there are, estimated from random runs: in the millions, sample at once.
    let mut paths = 0.0;
    for _ in 0..SIZE_PROBES {
        paths += run_sampled(hooks, state, &mut rng, &mut read_game)?.1;
    }
    if paths / f64::from(SIZE_PROBES) <= f64::from(MAX_EXACT_HOOK_RUNS) * 2.0 {
        let mut forced: Vec<u32> = Vec::new();
        let mut sizes: Vec<u32> = Vec::new();
        let mut pairs = Vec::new();
        let mut runs = 0u32;
        let exact = loop {
            let draws =
                Draws::Forced { forced: std::mem::take(&mut forced), sizes: std::mem::take(&mut sizes), next: 0 };
            let (result, draws, read) = hooks.call_drawing(index, name, args, state, draws);
            read_game |= read;
            let value = result?;
            let Draws::Forced { forced: f, sizes: s, next } = draws else { unreachable!("forced draws stay forced") };
            (forced, sizes) = (f, s);
            if next != sizes.len() {
                return Err(RuleError::new(format!(
                    "hook `{name}` drew {next} times where the same dice before made it draw {}: to work out its \
                     odds, a hook must draw the same way whenever its arguments, the game and its dice so far are \
                     the same",
                    sizes.len()
                )));
            }
            let weight: f64 = sizes.iter().map(|&n| 1.0 / f64::from(n)).product();
            pairs.push((value.as_int() as f64, weight));
            runs += 1;
            // The next combination: the last draw that has outcomes left moves on; the draws
            // after it are met afresh.
            let Some(last) = (0..sizes.len()).rev().find(|&i| forced[i] + 1 < sizes[i]) else { break true };
            if runs >= MAX_EXACT_HOOK_RUNS {
                break false;
            }
            forced[last] += 1;
            forced.truncate(last + 1);
            sizes.truncate(last + 1);
        };
        if exact {
            return Ok((Dist::from_pairs(pairs), None, read_game));
        }
    }
    let mut counts: FastMap<i64, u32> = FastMap::default();
    for _ in 0..HOOK_SAMPLES {
        let (value, _) = run_sampled(hooks, state, &mut rng, &mut read_game)?;
        *counts.entry(value).or_default() += 1;
    }
    let n = f64::from(HOOK_SAMPLES);
    let pairs = counts.into_iter().map(|(v, c)| (v as f64, f64::from(c) / n)).collect();
    Ok((Dist::from_pairs(pairs), Some(HOOK_SAMPLES), read_game))
}

/// The distribution of an expression whose only randomness is its own dice terms (every slot
/// is bound; no hook is called). Each dice term is an independent roll.
pub fn dist_of(rules: &Ruleset, state: &GameState, expr: &Expr, frame: &[Value]) -> Result<Dist, RuleError> {
    let mut hook_dists = HookDists::default();
    let mut outcomes = Outcomes { rules, state, hooks: None, hook_dists: &mut hook_dists, samples: None };
    outcomes.dist_of(expr, frame)
}

fn combine(a: &Dist, b: &Dist, f: impl Fn(f64, f64) -> Option<f64>) -> Result<Dist, RuleError> {
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
        assert_eq!(d.values, (2..=12).map(f64::from).collect::<Vec<_>>());
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
        let gt = combine(&a, &b, |x, y| Some(f64::from(u8::from(x > y)))).unwrap();
        assert!(close(gt.truth(), 15.0 / 36.0));
    }

    #[test]
    fn decimals_keep_their_fractions_in_odds() {
        // `0.5 * 1d6` is a decimal formula: its mean is 1.75, not the 1.0 that rounding each
        // outcome down would give.
        let die = Dist::dice(1, 6, DiceMode::Sum).unwrap();
        let half = combine(&Dist::point(0.5), &die, |x, y| Some(x * y)).unwrap();
        assert!(close(half.mean(), 1.75));
        assert_eq!(half.values.len(), 6);
    }

    #[test]
    fn the_documented_hook_limits_are_the_real_ones() {
        let page = crate::rules::language::markdown();
        let grouped = |n: u32| {
            let digits = n.to_string();
            let mut out = String::new();
            for (i, c) in digits.chars().enumerate() {
                if i > 0 && (digits.len() - i) % 3 == 0 {
                    out.push(',');
                }
                out.push(c);
            }
            out
        };
        assert!(page.contains(&format!("up to {} runs", grouped(MAX_EXACT_HOOK_RUNS))), "runs");
        assert!(page.contains(&format!("run {} times instead", grouped(HOOK_SAMPLES))), "samples");
        assert!(
            page.contains(&format!("may take\n  {} Lua instructions", grouped(ODDS_INSTRUCTION_LIMIT as u32))),
            "odds limit"
        );
    }
}
