//! Which actions the seat to move may take: listing them all, and checking one.
//!
//! Candidates come from each parameter's source (owned spaces, neighbours, seats, numbers) and
//! pass its `where` filter; parameters are chosen in order, each seeing the ones before it.

use super::action::{Action, ActionKind, MAX_PARAMS, NOT_CHOSEN};
use super::eval::{self, ReadCx};
use super::state::{GameState, NO_SEAT, NO_SPACE, Offer, SeatStatus};
use super::{ActionError, Engine, RuleError};
use crate::board::Scratch;
use crate::defs::ParamKind;
use crate::rules::ir::{Expr, Value, held_of_arg};
use crate::rules::{ActionRule, FastFilter, ParamRule, ParamSource, ReasonPart, Requirement, Ruleset, Walkway};

/// Numbers a `number` parameter may offer at most, so a huge range cannot flood the list.
const MAX_NUMBER_CHOICES: i64 = 1000;

/// The frame value of an action argument.
pub(crate) fn arg_value(kind: ParamKind, arg: i64) -> Value {
    match kind {
        ParamKind::Space => Value::Space(arg as u32),
        ParamKind::Seat => Value::Seat(arg as u8),
        ParamKind::Piece => Value::Piece(arg as u32),
        ParamKind::Number => Value::Int(arg),
        ParamKind::Item => Value::Id(arg.clamp(0, i64::from(u16::MAX)) as u16),
        ParamKind::Held => held_of_arg(arg),
        ParamKind::Card => Value::Id(arg.clamp(0, i64::from(u16::MAX)) as u16),
    }
}

/// The cards a `card` parameter offers: each card (by index, in index order) of which `holder`
/// holds a copy — of `deck` only, when one is named — that `viewer` knows (its own cards, an open
/// deck's, those shown to it). Two copies are one choice.
pub(crate) fn hand_choices(rules: &Ruleset, state: &GameState, holder: u8, deck: Option<u16>, viewer: u8) -> Vec<u16> {
    let Some(hand) = state.seats.get(holder as usize) else { return Vec::new() };
    let mut cards: Vec<u16> = (0..hand.hand.len())
        .filter(|&position| {
            let (card_deck, card) = hand.hand[position];
            let open = rules.decks.get(card_deck as usize).is_some_and(|d| !d.hidden);
            (card as usize) < rules.card_ids.len()
                && deck.is_none_or(|d| d == card_deck)
                && (open || hand.shown_to(holder, position, viewer))
        })
        .map(|position| hand.hand[position].1)
        .collect();
    cards.sort_unstable();
    // Cards the holder chose in the sealed answers it is still giving stay in its hand until
    // they are opened, but each copy is spent once.
    for card in sealed_cards(rules, state, holder) {
        if let Some(position) = cards.iter().position(|&c| c == card) {
            cards.remove(position);
        }
    }
    cards.dedup();
    cards
}

/// The cards `holder` named in the answers of the sealed offer it is still answering (a
/// repeated one: a stack committed card by card).
fn sealed_cards(rules: &Ruleset, state: &GameState, holder: u8) -> Vec<u16> {
    let Some(open) = state.turn.sealed.last().filter(|entry| !entry.done && entry.offer.seat == holder) else {
        return Vec::new();
    };
    let Some(rule) = rules.actions.get(open.offer.action as usize) else { return Vec::new() };
    open.answers
        .iter()
        .filter(|answer| matches!(answer.kind, ActionKind::Rule(_)))
        .flat_map(|answer| {
            rule.params
                .iter()
                .zip(answer.args)
                .filter(|(param, _)| param.kind == crate::defs::ParamKind::Card)
                .filter_map(|(_, arg)| u16::try_from(arg).ok())
        })
        .collect()
}

pub(crate) fn value_arg(value: Value) -> i64 {
    match value {
        Value::Space(s) | Value::Piece(s) => i64::from(s),
        Value::Seat(s) => i64::from(s),
        other => other.as_int(),
    }
}

/// A fresh frame with `me` and the action's arguments bound.
pub(crate) fn bind_frame(rule: &ActionRule, seat: u8, action: &Action) -> Vec<Value> {
    let mut frame = Vec::new();
    fill_frame(&mut frame, rule, seat, action);
    frame
}

/// Binds `me` and the action's arguments into a reused frame.
pub(crate) fn fill_frame(frame: &mut Vec<Value>, rule: &ActionRule, seat: u8, action: &Action) {
    frame.clear();
    frame.resize(rule.frame.max(1) as usize, Value::Nil);
    frame[0] = Value::Seat(seat);
    for (i, param) in rule.params.iter().enumerate() {
        frame[1 + i] = arg_value(param.kind, action.args[i]);
    }
}

/// Binds the rolls of the action awaiting its `after_roll` choices, when `rule` is that action.
pub(crate) fn fill_pending_rolls(frame: &mut [Value], rule: &ActionRule, index: u16, state: &GameState) {
    if let Some(pending) = &state.turn.pending
        && pending.action == index
    {
        for (i, &roll) in pending.rolls.iter().enumerate() {
            if let Some(slot) = frame.get_mut(rule.roll_slot(i) as usize) {
                *slot = Value::Int(roll);
            }
        }
    }
}

/// The parameters chosen in the step an action is at: `params` before its roll (or all of them,
/// for an action without `after_roll` choices), or the `after_roll` ones while it awaits them.
pub(crate) fn stage_params(rule: &ActionRule, awaiting: bool) -> std::ops::Range<usize> {
    if awaiting { rule.before_roll..rule.params.len() } else { 0..rule.before_roll }
}

/// Where listed actions go: a vector, a "does any exist" probe, a scoring visitor.
pub(crate) trait Sink {
    /// Takes one legal action; returns `true` to stop listing.
    fn take(&mut self, action: Action) -> bool;
}

impl Sink for Vec<Action> {
    #[inline]
    fn take(&mut self, action: Action) -> bool {
        self.push(action);
        false
    }
}

/// Stops at the first action: answers "can the seat do anything but pass?".
pub(crate) struct First(pub bool);

impl Sink for First {
    #[inline]
    fn take(&mut self, _action: Action) -> bool {
        self.0 = true;
        true
    }
}

/// Lists the legal actions the mod defines (not passing or leaving) into `sink`, in a stable
/// order: phase action order, then candidates in id order. Returns whether any was listed.
///
/// The listing's work is counted ([`eval::ListingWork`]): an action whose candidates pass
/// [`eval::MAX_LISTING_STEPS`] or [`eval::MAX_LISTED_ACTIONS`] stops it with an error naming
/// that action, where the mod writes it.
pub(crate) fn list<S: Sink>(
    rules: &Ruleset,
    state: &GameState,
    scratch: &mut Scratch,
    frame: &mut Vec<Value>,
    sink: &mut S,
) -> Result<bool, RuleError> {
    if state.outcome.is_some() {
        return Ok(false);
    }
    let work = eval::ListingWork::begin();
    let blame = |index: u16| {
        eval::ListingWork::exceeded_error().context(rules, &format!("actions.{}", rules.actions[index as usize].id))
    };
    let seat = state.turn.seat;
    let phase = &rules.phases[state.turn.phase as usize];
    let mut cx = ReadCx { rules, state, scratch, odds: None, hooks: None };
    if let Some(offer) = state.turn.offers.first() {
        // A response awaits its seat: only the offered action, with the parameters the offer
        // gave, and the choices left to that seat (passing declines it).
        let index = offer.action;
        let rule = &rules.actions[index as usize];
        fill_frame(frame, rule, offer.seat, &offered_action(offer));
        let mut counting = Counting { sink: &mut *sink, any: false };
        if unmet_requirement(&mut cx, rule, frame).is_none() {
            enumerate(&mut cx, rule, index, offer.args.len(), rule.before_roll, frame, &mut counting);
        }
        if eval::ListingWork::exceeded() {
            return Err(blame(index));
        }
        return Ok(counting.any);
    }
    if let Some(pending) = &state.turn.pending {
        // Only the rolled action's choices can be made now (or it is cancelled).
        let index = pending.action;
        let rule = &rules.actions[index as usize];
        fill_frame(frame, rule, seat, &Action { kind: ActionKind::Rule(index), args: pending.args });
        fill_pending_rolls(frame, rule, index, state);
        let mut counting = Counting { sink: &mut *sink, any: false };
        enumerate(&mut cx, rule, index, rule.before_roll, rule.params.len(), frame, &mut counting);
        if eval::ListingWork::exceeded() {
            return Err(blame(index));
        }
        return Ok(counting.any);
    }
    let mut found = false;
    for &index in &phase.actions {
        let rule = &rules.actions[index as usize];
        let budget = rule.budget_slot as usize;
        if state.turn.used[budget] >= phase.budget[budget] {
            continue;
        }
        frame.clear();
        frame.resize(rule.frame.max(1) as usize, Value::Nil);
        frame[0] = Value::Seat(seat);
        if unmet_requirement(&mut cx, rule, frame).is_some() {
            continue;
        }
        let mut counting = Counting { sink: &mut *sink, any: false };
        let stop = if rule.is_owned_then_neighbor() {
            enumerate_owned_then_neighbor(state, rule, index, seat, &mut counting)
        } else {
            enumerate(&mut cx, rule, index, 0, rule.before_roll, frame, &mut counting)
        };
        found |= counting.any;
        if eval::ListingWork::exceeded() {
            return Err(blame(index));
        }
        if stop {
            break;
        }
    }
    drop(work);
    Ok(found)
}

/// Passing and leaving, after the mod's own actions: passing when the phase allows it or
/// nothing else is possible, leaving when the mod allows it.
pub(crate) fn list_pass_and_leave<S: Sink>(rules: &Ruleset, state: &GameState, found: bool, sink: &mut S) {
    if state.outcome.is_some() {
        return;
    }
    let phase = &rules.phases[state.turn.phase as usize];
    if let Some(offer) = state.turn.offers.first() {
        // Passing declines the response offered, where the rules allow it (or nothing else is
        // possible).
        if (rules.actions[offer.action as usize].may_decline || !found) && sink.take(Action::pass()) {
            return;
        }
    } else if state.turn.pending.is_some() {
        if sink.take(Action::cancel()) {
            return;
        }
    } else if (phase.may_pass || !found) && sink.take(Action::pass()) {
        return;
    }
    if rules.data.seats.allow_leaving {
        sink.take(Action::leave());
    }
}

/// Notes whether anything reached the wrapped sink.
struct Counting<'a, S: Sink> {
    sink: &'a mut S,
    any: bool,
}

impl<S: Sink> Sink for Counting<'_, S> {
    #[inline]
    fn take(&mut self, action: Action) -> bool {
        self.any = true;
        // Past the limit the listing stops; `list` reports it.
        self.sink.take(action) || !eval::ListingWork::charge_listed()
    }
}

/// Every parameter of this step is chosen: checks the action's `when` (before the roll) and
/// lists it.
#[inline(always)]
fn finish_candidate<S: Sink>(
    cx: &mut ReadCx,
    rule: &ActionRule,
    index: u16,
    end: usize,
    frame: &[Value],
    out: &mut S,
) -> bool {
    let before_roll = end == rule.before_roll;
    if before_roll
        && let Some(when) = &rule.when
        && !eval::eval_bool(cx, when, frame).unwrap_or(false)
    {
        return false;
    }
    let mut args = [0i64; MAX_PARAMS];
    for (i, arg) in args.iter_mut().enumerate().take(rule.params.len()) {
        *arg = if i < end { value_arg(frame[1 + i]) } else { NOT_CHOSEN };
    }
    out.take(Action { kind: ActionKind::Rule(index), args })
}

/// Lists into `out` the legal completions of `rule` (one taken in one step) whose first `given`
/// parameters are bound in `frame`: the choices `perform` chooses among.
pub(crate) fn complete(
    cx: &mut ReadCx,
    rule: &ActionRule,
    index: u16,
    given: usize,
    frame: &mut [Value],
    out: &mut Vec<Action>,
) {
    if unmet_requirement(cx, rule, frame).is_none() {
        enumerate(cx, rule, index, given.min(rule.params.len()), rule.params.len(), frame, out);
    }
}

/// The item kinds an item parameter shows but does not offer now, each with the reason of its
/// first missing `requires` (the window lists them greyed): for the parameter after the
/// arguments in `frame` (the seat in slot 0, the arguments after it).
pub(crate) fn refused_items(
    cx: &mut ReadCx,
    param: &ParamRule,
    slot: usize,
    frame: &mut [Value],
) -> Vec<(i64, String)> {
    let mut refused = Vec::new();
    if param.requires.is_empty() || !matches!(param.source, ParamSource::Items) {
        return refused;
    }
    for item in 0..cx.rules.items.len() {
        frame[slot] = Value::Id(item as u16);
        if let Some(need) = shown_but_unmet(cx, param, frame) {
            refused.push((item as i64, reason_words(cx, need, frame)));
        }
    }
    refused
}

/// The first requirement of the parameter's candidate in `frame` that does not hold, when the
/// candidate passes its `where` (a candidate its `where` turns away is not shown at all).
fn shown_but_unmet<'r>(cx: &mut ReadCx, param: &'r ParamRule, frame: &[Value]) -> Option<&'r Requirement> {
    let shown = param.shown_if.as_ref().is_none_or(|shown_if| eval::eval_bool(cx, shown_if, frame).unwrap_or(false));
    if shown { first_unmet(cx, &param.requires, frame) } else { None }
}

/// The first of the action's `requires` that does not hold for the seat in `frame[0]`.
pub(crate) fn unmet_requirement<'r>(cx: &mut ReadCx, rule: &'r ActionRule, frame: &[Value]) -> Option<&'r Requirement> {
    first_unmet(cx, &rule.requires, frame)
}

/// The first requirement of `needs` that does not hold in `frame` (one that cannot be worked
/// out counts as not holding, as a `when` does in the listing).
fn first_unmet<'r>(cx: &mut ReadCx, needs: &'r [Requirement], frame: &[Value]) -> Option<&'r Requirement> {
    needs.iter().find(|need| !eval::eval_bool(cx, &need.condition, frame).unwrap_or(false))
}

/// A requirement's reason with its figures worked out for the seat in `frame[0]`.
pub(crate) fn reason_words(cx: &mut ReadCx, need: &Requirement, frame: &[Value]) -> String {
    need.reason
        .iter()
        .map(|part| match part {
            ReasonPart::Words(words) => words.clone(),
            // A figure that cannot be worked out now shows as a question mark, not as 0.
            ReasonPart::Figure(expr) => {
                eval::eval(cx, expr, frame).map_or_else(|_| "?".into(), |v| v.as_int().to_string())
            }
        })
        .collect()
}

/// Lists the actions of `rule` whose parameters from `depth` up to `end` (the end of the step)
/// are still to choose. Returns `true` when the sink asked to stop, so every loop above can
/// stop at once.
fn enumerate<S: Sink>(
    cx: &mut ReadCx,
    rule: &ActionRule,
    index: u16,
    depth: usize,
    end: usize,
    frame: &mut [Value],
    out: &mut S,
) -> bool {
    if depth == end {
        return finish_candidate(cx, rule, index, end, frame, out);
    }
    let param = &rule.params[depth];
    let last = depth + 1 == end;
    // The seat a fast owner filter compares with does not change while this parameter's
    // candidates are tried, so it is read once.
    let owner_wanted = match param.fast {
        FastFilter::Owner { seat, .. } => frame.get(seat as usize).and_then(|v| v.as_seat()),
        _ => None,
    };
    let rejected = |state: &GameState, space: u32| rejected_space(param, owner_wanted, state, space);
    let consider = |cx: &mut ReadCx, raw: i64, frame: &mut [Value], out: &mut S| -> bool {
        consider_candidate(cx, rule, index, depth, end, param, last, raw, frame, out)
    };
    // The state outlives the evaluation context's borrow, so its vectors can be walked while
    // candidates are evaluated.
    let state: &GameState = cx.state;
    // Every candidate a source offers is counted before it is tried, those a fast filter
    // rejects included: that loop is the work. Past the listing's limit, everything stops.
    let charge = |candidates: usize| {
        eval::note_work(candidates as u64);
        eval::ListingWork::charge(candidates as u64)
    };
    match &param.source {
        ParamSource::AllSpaces => {
            if !charge(state.owners.len()) {
                return true;
            }
            for space in 0..state.owners.len() as u32 {
                if !rejected(state, space) && consider(cx, i64::from(space), frame, out) {
                    return true;
                }
            }
        }
        ParamSource::SpacesOwnedBy(owner) => {
            let Some(seat) = slot_or_eval(cx, owner, frame).as_seat() else { return false };
            if !charge(state.owners.len()) {
                return true;
            }
            for (space, &o) in state.owners.iter().enumerate() {
                if o == seat && !rejected(state, space as u32) && consider(cx, space as i64, frame, out) {
                    return true;
                }
            }
        }
        ParamSource::AdjacentTo(of) => {
            let Some(center) = slot_or_eval(cx, of, frame).as_space() else { return false };
            if center as usize >= state.owners.len() {
                return false;
            }
            if !charge(state.board.neighbors(center).len()) {
                return true;
            }
            for &(neighbor, _) in state.board.neighbors(center) {
                if !rejected(state, neighbor) && consider(cx, i64::from(neighbor), frame, out) {
                    return true;
                }
            }
        }
        ParamSource::Seats => {
            if !charge(state.seats.len()) {
                return true;
            }
            for seat in 0..state.seats.len() as u8 {
                if consider(cx, i64::from(seat), frame, out) {
                    return true;
                }
            }
        }
        ParamSource::AllPieces => {
            if !charge(state.pieces.len()) {
                return true;
            }
            for (p, piece) in state.pieces.iter().enumerate() {
                if piece.alive && piece.space != NO_SPACE && consider(cx, p as i64, frame, out) {
                    return true;
                }
            }
        }
        ParamSource::PiecesOwnedBy(owner) => {
            let Some(seat) = eval::eval(cx, owner, frame).ok().and_then(Value::as_seat) else { return false };
            if !charge(state.pieces.len()) {
                return true;
            }
            for (p, piece) in state.pieces.iter().enumerate() {
                if piece.alive && piece.owner == seat && piece.space != NO_SPACE && consider(cx, p as i64, frame, out) {
                    return true;
                }
            }
        }
        ParamSource::Numbers(min, max) => {
            let low = eval::eval(cx, min, frame).map(Value::as_int).unwrap_or(0);
            let high = eval::eval(cx, max, frame).map(Value::as_int).unwrap_or(-1);
            let high = high.min(low.saturating_add(MAX_NUMBER_CHOICES - 1));
            if !charge(high.saturating_sub(low).saturating_add(1).max(0) as usize) {
                return true;
            }
            for n in low..=high {
                if consider(cx, n, frame, out) {
                    return true;
                }
            }
        }
        ParamSource::Reachable(walkway) => {
            let reached = reachable(cx, walkway, frame);
            if !charge(reached.len()) {
                return true;
            }
            for (space, _) in reached {
                if !rejected(state, space) && consider(cx, i64::from(space), frame, out) {
                    return true;
                }
            }
        }
        ParamSource::Items => {
            if !charge(cx.rules.items.len()) {
                return true;
            }
            for item in 0..cx.rules.items.len() as i64 {
                if consider(cx, item, frame, out) {
                    return true;
                }
            }
        }
        ParamSource::Hand(holder, deck) => {
            let Some(seat) = slot_or_eval(cx, holder, frame).as_seat() else { return false };
            let viewer = frame.first().and_then(|v| v.as_seat()).unwrap_or(NO_SEAT);
            if !charge(state.seats.get(seat as usize).map_or(0, |s| s.hand.len())) {
                return true;
            }
            for card in hand_choices(cx.rules, state, seat, *deck, viewer) {
                if consider(cx, i64::from(card), frame, out) {
                    return true;
                }
            }
        }
        ParamSource::HeldBy(holder) => {
            let Some(piece) = slot_or_eval(cx, holder, frame).as_piece() else { return false };
            let Some(held) = state.pieces.get(piece as usize).filter(|p| p.alive) else { return false };
            if !charge(held.items.len().min(256)) {
                return true;
            }
            for position in 0..held.items.len().min(256) {
                if consider(cx, crate::rules::ir::held_arg(piece, position as u8), frame, out) {
                    return true;
                }
            }
        }
    }
    false
}

/// The spaces a walk reaches for at most (or exactly) its `steps` movement points, with their
/// costs, by space id: each step costs what entering the space costs (the terrain's
/// `move_cost`, what the walker's kinds pay, or the walk's `enter_cost`) plus the walls crossed;
/// impassable terrain is never entered, and the walk goes on from no space where it `stops`.
pub(crate) fn reachable(cx: &mut ReadCx, walkway: &Walkway, frame: &[Value]) -> Vec<(u32, u32)> {
    let Some(start) = slot_or_eval(cx, &walkway.from, frame).as_space() else { return Vec::new() };
    let walker = walkway.walker.as_ref().map(|walker| slot_or_eval(cx, walker, frame));
    // A walker that is none or gone walks nowhere: nothing is reached.
    let Some(walk) = eval::Walk::of(cx.rules, cx.state, walker) else { return Vec::new() };
    let budget =
        eval::eval(cx, &walkway.steps, frame).map(Value::as_int).unwrap_or(0).clamp(0, i64::from(u32::MAX)) as u32;
    let (rules, state) = (cx.rules, cx.state);
    let mut out = Vec::new();
    if walkway.through.is_none() && walkway.stops.is_none() && walkway.enter_cost.is_none() {
        let cost = |_, to: u32, edge| walk.step(rules, state, to, edge);
        walk_from(cx, start, budget, walkway.exact, cost, &mut out);
        return out;
    }
    // The conditions about a space are read when the walk first comes to it, and kept: a walk
    // of a few steps reads a few spaces, not the whole board. Each is read with `space` (and
    // `cost`) bound in a copy of the frame; an error reads as "no".
    let mut scratch_frame = frame.to_vec();
    let size = [&walkway.through, &walkway.stops, &walkway.enter_cost]
        .iter()
        .filter_map(|about| about.as_ref().map(|(slot, _)| *slot as usize + 2))
        .max()
        .unwrap_or(0);
    scratch_frame.resize(scratch_frame.len().max(size), Value::Nil);
    let mut known: Vec<Option<SpaceReads>> = vec![None; state.board.space_count()];
    // The walk keeps its own scratch, so the conditions read with the context's.
    let mut walk_scratch = std::mem::take(&mut *cx.scratch);
    let mut read = |cx: &mut ReadCx, space: u32| -> SpaceReads {
        if let Some(reads) = known[space as usize] {
            return reads;
        }
        let mut holds = |cx: &mut ReadCx, about: &Option<(u16, Expr)>, default: bool| match about {
            Some((slot, condition)) => {
                scratch_frame[*slot as usize] = Value::Space(space);
                eval::eval(cx, condition, &scratch_frame).is_ok_and(|v| v.as_bool())
            }
            None => default,
        };
        let enterable = holds(cx, &walkway.through, true);
        let stops = holds(cx, &walkway.stops, false);
        let mut entering = walk.enter(rules, state, space);
        if let Some((slot, price)) = &walkway.enter_cost {
            scratch_frame[*slot as usize] = Value::Space(space);
            scratch_frame[*slot as usize + 1] = Value::Int(entering.map_or(-1, i64::from));
            let price = eval::eval(cx, price, &scratch_frame).map(Value::as_int).unwrap_or(-1);
            entering = (price >= 0).then(|| price.min(i64::from(u32::MAX)) as u32);
        }
        let reads = SpaceReads { entering: if enterable { entering } else { None }, stops };
        known[space as usize] = Some(reads);
        reads
    };
    let cost = |from: u32, to: u32, edge| {
        if from != start && read(cx, from).stops {
            return None;
        }
        Some(read(cx, to).entering? + walk.cross(rules, state, edge)?)
    };
    if walkway.exact {
        // Every step tried is work of the listing: on an open grid the walks of exactly n steps
        // grow as 3^n.
        state.board.reachable_exactly(start, budget, cost, &mut out, || {
            eval::note_work(1);
            eval::ListingWork::charge(1)
        });
    } else {
        state.board.reachable(start, budget, cost, &mut walk_scratch, &mut out);
    }
    *cx.scratch = walk_scratch;
    out
}

/// What a walk learns of a space when it first comes to it: what entering costs (`None`: it may
/// not enter) and whether the walk stops there.
#[derive(Clone, Copy)]
struct SpaceReads {
    entering: Option<u32>,
    stops: bool,
}

/// A walk from `start` for at most (or, `exact`, exactly) `budget` points, each step priced by
/// `cost(from, to, edge)`, into `out`.
fn walk_from(
    cx: &mut ReadCx,
    start: u32,
    budget: u32,
    exact: bool,
    cost: impl FnMut(u32, u32, u32) -> Option<u32>,
    out: &mut Vec<(u32, u32)>,
) {
    if exact {
        // Every step tried is work of the listing: on an open grid the walks of exactly n steps
        // grow as 3^n.
        cx.state.board.reachable_exactly(start, budget, cost, out, || {
            eval::note_work(1);
            eval::ListingWork::charge(1)
        });
    } else {
        cx.state.board.reachable(start, budget, cost, cx.scratch, out);
    }
}

/// Fills the hidden slots where the effects find what each walk parameter's walk spends
/// (`walk_spent`): the cost of the cheapest walk to the chosen space, worked out before any
/// effect runs; -1 when the walk does not reach it.
pub(crate) fn fill_walks_spent(cx: &mut ReadCx, rule: &ActionRule, frame: &mut [Value]) {
    for (i, param) in rule.params.iter().enumerate() {
        let ParamSource::Reachable(walkway) = &param.source else { continue };
        let Some(slot) = walkway.spent_slot else { continue };
        let chosen = frame.get(1 + i).and_then(|v| v.as_space());
        let spent = match chosen {
            Some(to) => {
                reachable(cx, walkway, frame).iter().find(|&&(space, _)| space == to).map_or(-1, |&(_, c)| i64::from(c))
            }
            None => -1,
        };
        if let Some(place) = frame.get_mut(slot as usize) {
            *place = Value::Int(spent);
        }
    }
}

/// Lists an action of the shape [`ActionRule::is_owned_then_neighbor`]: the same actions in the
/// same order as [`enumerate`], without frames or recursion, since every filter is a fast one.
fn enumerate_owned_then_neighbor<S: Sink>(
    state: &GameState,
    rule: &ActionRule,
    index: u16,
    seat: u8,
    out: &mut S,
) -> bool {
    let (from_param, to_param) = (&rule.params[0], &rule.params[1]);
    // The neighbour's owner filter compares with slot 0, `me`.
    let owner_is = |space: u32, equal: bool| {
        let owner = state.owners[space as usize];
        (owner == seat && owner != NO_SEAT) == equal
    };
    // The commonest pair of filters gets a loop of its own with both tests known at compile
    // time; any other pair goes through `rejected_space`.
    match (from_param.fast, to_param.fast) {
        (FastFilter::Counter { counter, op, value }, FastFilter::Owner { equal, .. }) => owned_neighbor_pairs(
            state,
            index,
            seat,
            out,
            |from| eval::compare_ints(op, state.counter(from, counter), value),
            |to| owner_is(to, equal),
        ),
        _ => owned_neighbor_pairs(
            state,
            index,
            seat,
            out,
            |from| !rejected_space(from_param, None, state, from),
            |to| !rejected_space(to_param, Some(seat), state, to),
        ),
    }
}

/// The loop of [`enumerate_owned_then_neighbor`] for given tests of the two spaces.
#[inline(always)]
fn owned_neighbor_pairs<S: Sink>(
    state: &GameState,
    index: u16,
    seat: u8,
    out: &mut S,
    from_passes: impl Fn(u32) -> bool,
    to_passes: impl Fn(u32) -> bool,
) -> bool {
    for (from, &owner) in state.owners.iter().enumerate() {
        if owner != seat || !from_passes(from as u32) {
            continue;
        }
        for &(to, _) in state.board.neighbors(from as u32) {
            if !to_passes(to) {
                continue;
            }
            let mut args = [0i64; MAX_PARAMS];
            args[0] = from as i64;
            args[1] = i64::from(to);
            if out.take(Action { kind: ActionKind::Rule(index), args }) {
                return true;
            }
        }
    }
    false
}

/// Whether a fast filter rejects a space candidate, checked before anything else is done for
/// it: most candidates end here.
#[inline(always)]
fn rejected_space(param: &ParamRule, owner_wanted: Option<u8>, state: &GameState, space: u32) -> bool {
    match param.fast {
        FastFilter::Counter { counter, op, value } => !eval::compare_ints(op, state.counter(space, counter), value),
        FastFilter::Owner { equal, .. } => {
            // The same comparison the evaluator makes: an unowned space's owner is none.
            let owner = state.owners[space as usize];
            let owner = (owner != NO_SEAT).then_some(owner);
            (owner_wanted == owner) != equal
        }
        FastFilter::Pass | FastFilter::General => false,
    }
}

/// Tries one candidate of parameter `depth` (given as its raw id); `true` when listing should
/// stop. The last parameter finishes the action here instead of recursing once more.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn consider_candidate<S: Sink>(
    cx: &mut ReadCx,
    rule: &ActionRule,
    index: u16,
    depth: usize,
    end: usize,
    param: &ParamRule,
    last: bool,
    raw: i64,
    frame: &mut [Value],
    out: &mut S,
) -> bool {
    // A filter that passed the listing's limit failed quietly (the candidate is left out):
    // everything stops here, and `list` reports the limit.
    if eval::ListingWork::exceeded() {
        return true;
    }
    let value = arg_value(param.kind, raw);
    frame[1 + depth] = value;
    let passes = match param.fast {
        // Space candidates were checked by `rejected_space`; others fail a space filter.
        FastFilter::Counter { .. } | FastFilter::Owner { .. } => matches!(value, Value::Space(_)),
        FastFilter::Pass => true,
        FastFilter::General => match &param.filter {
            Some(filter) => eval::eval_bool(cx, filter, frame).unwrap_or(false),
            None => true,
        },
    };
    if !passes {
        return false;
    }
    if last {
        finish_candidate(cx, rule, index, end, frame, out)
    } else {
        enumerate(cx, rule, index, depth + 1, end, frame, out)
    }
}

/// The value of a parameter source's expression: read straight from the frame when it is a
/// slot (`me`, an earlier parameter), the usual case, else evaluated.
#[inline(always)]
fn slot_or_eval(cx: &mut ReadCx, expr: &Expr, frame: &[Value]) -> Value {
    match expr {
        Expr::Slot(slot) => frame.get(*slot as usize).copied().unwrap_or(Value::Nil),
        _ => eval::eval(cx, expr, frame).unwrap_or(Value::Nil),
    }
}

/// Checks that `seat` may take `action` now, without changing anything.
pub(crate) fn check(engine: &mut Engine, state: &GameState, seat: u8, action: &Action) -> Result<(), ActionError> {
    if state.seats.get(seat as usize).is_none_or(|s| s.status != SeatStatus::Active) {
        return Err(ActionError::NotYourTurn(seat.wrapping_add(1)));
    }
    if let Some(offer) = state.turn.offers.first() {
        return check_response(engine, state, offer, action);
    }
    match action.kind {
        ActionKind::Leave => {
            if engine.rules.data.seats.allow_leaving {
                Ok(())
            } else {
                Err(ActionError::LeavingNotAllowed)
            }
        }
        ActionKind::Cancel => match state.turn.pending {
            Some(_) => Ok(()),
            None => Err(ActionError::NothingToCancel),
        },
        ActionKind::Pass => {
            if let Some(pending) = &state.turn.pending {
                return Err(ActionError::AwaitingChoice(engine.rules.actions[pending.action as usize].id.clone()));
            }
            let may_pass = engine.rules.phases[state.turn.phase as usize].may_pass;
            if may_pass || !engine.can_act(state).map_err(ActionError::Rule)? {
                Ok(())
            } else {
                Err(ActionError::MustAct)
            }
        }
        ActionKind::Rule(index) => {
            // Borrowed field by field (no clone of the shared ruleset on this hot path).
            let rules: &Ruleset = &engine.rules;
            let Some(rule) = rules.actions.get(index as usize) else {
                return Err(ActionError::Illegal { action: format!("#{index}"), reason: "no such action".into() });
            };
            // The slots past the action's parameters are 0, as listed: a staged action keeps its
            // arguments in the state, and a save records only the named ones.
            if action.args.get(rule.params.len()..).is_some_and(|unused| unused.iter().any(|&arg| arg != 0)) {
                return Err(ActionError::Illegal {
                    action: rule.id.clone(),
                    reason: format!("it has {} parameter(s); the other argument slots must be 0", rule.params.len()),
                });
            }
            let awaiting = match &state.turn.pending {
                Some(pending) if pending.action == index => {
                    if action.args[..rule.before_roll] != pending.args[..rule.before_roll] {
                        return Err(ActionError::Illegal {
                            action: rule.id.clone(),
                            reason: "the choices made before the roll cannot change".into(),
                        });
                    }
                    true
                }
                Some(pending) => {
                    return Err(ActionError::AwaitingChoice(rules.actions[pending.action as usize].id.clone()));
                }
                None => false,
            };
            if !awaiting {
                let chosen_early = rule.params[rule.before_roll..]
                    .iter()
                    .zip(&action.args[rule.before_roll..])
                    .find(|(_, arg)| **arg != NOT_CHOSEN);
                if let Some((param, _)) = chosen_early {
                    return Err(ActionError::Illegal {
                        action: rule.id.clone(),
                        reason: format!("`{}` is chosen after the roll, in a second step", param.name),
                    });
                }
                let phase = &rules.phases[state.turn.phase as usize];
                if !phase.actions.contains(&index) {
                    return Err(ActionError::NotInPhase(rule.id.clone()));
                }
                let budget = rule.budget_slot as usize;
                let limit = phase.budget[budget];
                if state.turn.used[budget] >= limit {
                    return Err(ActionError::BudgetSpent { action: rules.budget_names[budget].clone(), limit });
                }
                if rule.is_owned_then_neighbor() && owned_then_neighbor_holds(state, rule, seat, action) {
                    return Ok(());
                }
            }
            let mut frame = std::mem::take(&mut engine.frame);
            fill_frame(&mut frame, rule, seat, action);
            fill_pending_rolls(&mut frame, rule, index, state);
            let result = {
                let mut cx = ReadCx { rules, state, scratch: &mut engine.scratch, odds: None, hooks: None };
                check_params(&mut cx, rule, action, &mut frame, awaiting)
            };
            engine.frame = frame;
            result.map_err(|reason| ActionError::Illegal { action: rule.id.clone(), reason })
        }
    }
}

/// The action an offer names, with the parameters it gives and 0 for the rest.
pub(crate) fn offered_action(offer: &Offer) -> Action {
    Action::rule(offer.action, &offer.args)
}

/// Checks the answer to the response offered first: passing (declining), leaving, or the
/// offered action with the parameters the offer gave and legal choices for the rest.
fn check_response(engine: &mut Engine, state: &GameState, offer: &Offer, action: &Action) -> Result<(), ActionError> {
    let rules: &Ruleset = &engine.rules;
    let offered = &rules.actions[offer.action as usize];
    if action.kind == ActionKind::Pass && !offered.may_decline {
        // A compulsory answer may be passed only when there is no way to give it.
        let id = offered.id.clone();
        return if engine.can_act(state).map_err(ActionError::Rule)? {
            Err(ActionError::Illegal { action: id, reason: "it must be answered: it cannot be declined".into() })
        } else {
            Ok(())
        };
    }
    match action.kind {
        ActionKind::Pass => Ok(()),
        ActionKind::Leave if rules.data.seats.allow_leaving => Ok(()),
        ActionKind::Rule(index) if index == offer.action => {
            let given = offer.args.len();
            if action.args[..given] != offer.args[..] {
                return Err(ActionError::Illegal {
                    action: offered.id.clone(),
                    reason: "the parameters the offer gave cannot change".into(),
                });
            }
            if action.args.get(offered.params.len()..).is_some_and(|unused| unused.iter().any(|&arg| arg != 0)) {
                return Err(ActionError::Illegal {
                    action: offered.id.clone(),
                    reason: format!("it has {} parameter(s); the other argument slots must be 0", offered.params.len()),
                });
            }
            let mut frame = std::mem::take(&mut engine.frame);
            fill_frame(&mut frame, offered, offer.seat, action);
            let result = {
                let mut cx = ReadCx { rules, state, scratch: &mut engine.scratch, odds: None, hooks: None };
                check_params_from(&mut cx, offered, action, &mut frame, false, given)
            };
            engine.frame = frame;
            result.map_err(|reason| ActionError::Illegal { action: offered.id.clone(), reason })
        }
        _ => Err(ActionError::AwaitingResponse { seat: offer.seat + 1, action: offered.id.clone() }),
    }
}

/// The check of an action of the shape [`ActionRule::is_owned_then_neighbor`] done the way the
/// listing does it; when it fails, [`check_params`] finds out why.
fn owned_then_neighbor_holds(state: &GameState, rule: &ActionRule, seat: u8, action: &Action) -> bool {
    let spaces = 0..state.owners.len() as i64;
    let (from, to) = (action.args[0], action.args[1]);
    if !spaces.contains(&from) || !spaces.contains(&to) {
        return false;
    }
    let (from, to) = (from as u32, to as u32);
    state.owners[from as usize] == seat
        && !rejected_space(&rule.params[0], None, state, from)
        && state.board.edge_between(from, to).is_some()
        && !rejected_space(&rule.params[1], Some(seat), state, to)
}

/// Checks the parameters of the step the action is at (see [`stage_params`]); the frame holds
/// every argument already, and the rolls while the action awaits its `after_roll` choices.
fn check_params(
    cx: &mut ReadCx,
    rule: &ActionRule,
    action: &Action,
    frame: &mut [Value],
    awaiting: bool,
) -> Result<(), String> {
    check_params_from(cx, rule, action, frame, awaiting, 0)
}

/// [`check_params`] from parameter `first` on: the ones before it were given by an offer.
fn check_params_from(
    cx: &mut ReadCx,
    rule: &ActionRule,
    action: &Action,
    frame: &mut [Value],
    awaiting: bool,
    first: usize,
) -> Result<(), String> {
    let state = cx.state;
    if !awaiting && let Some(need) = unmet_requirement(cx, rule, frame) {
        return Err(reason_words(cx, need, frame));
    }
    for i in stage_params(rule, awaiting).filter(|&i| i >= first) {
        let param = &rule.params[i];
        let arg = action.args[i];
        let value = arg_value(param.kind, arg);
        let in_range = match param.kind {
            ParamKind::Space => (0..state.owners.len() as i64).contains(&arg),
            ParamKind::Seat => (0..state.seats.len() as i64).contains(&arg),
            ParamKind::Piece => (0..state.pieces.len() as i64).contains(&arg) && state.pieces[arg as usize].alive,
            ParamKind::Number => true,
            ParamKind::Item => (0..cx.rules.items.len() as i64).contains(&arg),
            ParamKind::Held => value
                .as_held()
                .is_some_and(|(p, pos)| state.pieces.get(p as usize).is_some_and(|p| (pos as usize) < p.items.len())),
            ParamKind::Card => (0..cx.rules.card_ids.len() as i64).contains(&arg),
        };
        if !in_range {
            return Err(format!("`{}` is not a valid {:?}", param.name, param.kind).to_lowercase());
        }
        let from_source = match &param.source {
            ParamSource::AllSpaces | ParamSource::Seats => true,
            ParamSource::AllPieces => state.pieces[arg as usize].space != NO_SPACE,
            ParamSource::SpacesOwnedBy(owner) => {
                let seat = slot_or_eval(cx, owner, frame).as_seat();
                seat.is_some_and(|s| state.owners[arg as usize] == s)
            }
            ParamSource::PiecesOwnedBy(owner) => {
                let seat = eval::eval(cx, owner, frame).ok().and_then(Value::as_seat);
                let piece = &state.pieces[arg as usize];
                seat.is_some_and(|s| piece.owner == s) && piece.space != NO_SPACE
            }
            ParamSource::AdjacentTo(of) => {
                let center = slot_or_eval(cx, of, frame).as_space();
                center.is_some_and(|c| {
                    (c as usize) < state.owners.len() && state.board.edge_between(c, arg as u32).is_some()
                })
            }
            ParamSource::Numbers(min, max) => {
                let low = eval::eval(cx, min, frame).map(Value::as_int).unwrap_or(0);
                let high = eval::eval(cx, max, frame).map(Value::as_int).unwrap_or(-1);
                (low..=high.min(low.saturating_add(MAX_NUMBER_CHOICES - 1))).contains(&arg)
            }
            ParamSource::Reachable(walkway) => {
                reachable(cx, walkway, frame).iter().any(|&(space, _)| i64::from(space) == arg)
            }
            ParamSource::Items => true,
            ParamSource::Hand(holder, deck) => {
                let seat = slot_or_eval(cx, holder, frame).as_seat();
                let viewer = frame.first().and_then(|v| v.as_seat()).unwrap_or(NO_SEAT);
                seat.is_some_and(|s| hand_choices(cx.rules, state, s, *deck, viewer).contains(&(arg as u16)))
            }
            ParamSource::HeldBy(holder) => {
                let piece = slot_or_eval(cx, holder, frame).as_piece();
                piece.is_some_and(|p| value.as_held().is_some_and(|(holder, _)| holder == p))
                    && state.pieces[piece.unwrap_or(0) as usize].alive
            }
        };
        if !from_source {
            return Err(describe_source(&param.source, &param.name));
        }
        frame[1 + i] = value;
        let passes = match (param.fast, value) {
            (FastFilter::Pass, _) => true,
            (FastFilter::Counter { .. } | FastFilter::Owner { .. }, Value::Space(space)) => {
                let owner_wanted = match param.fast {
                    FastFilter::Owner { seat, .. } => frame.get(seat as usize).and_then(|v| v.as_seat()),
                    _ => None,
                };
                !rejected_space(param, owner_wanted, state, space)
            }
            _ => match &param.filter {
                Some(filter) => eval::eval_bool(cx, filter, frame).map_err(|e| {
                    // `after_roll` choices follow `params` in the rule, as they do in no file.
                    let (list, index) =
                        if i < rule.before_roll { ("params", i) } else { ("after_roll", i - rule.before_roll) };
                    e.context(cx.rules, &format!("actions.{}.{list}[{index}].where", rule.id)).message().to_string()
                })?,
                None => true,
            },
        };
        if !passes {
            // Shown but missing a requirement: its reason, as the window gives it.
            if let Some(need) = shown_but_unmet(cx, param, frame) {
                return Err(reason_words(cx, need, frame));
            }
            return Err(format!("`{}` does not satisfy its condition", param.name));
        }
    }
    if !awaiting
        && let Some(when) = &rule.when
        && !eval::eval_bool(cx, when, frame)
            .map_err(|e| e.context(cx.rules, &format!("actions.{}.when", rule.id)).message().to_string())?
    {
        return Err("its condition does not hold".into());
    }
    Ok(())
}

fn describe_source(source: &ParamSource, name: &str) -> String {
    match source {
        ParamSource::SpacesOwnedBy(_) | ParamSource::PiecesOwnedBy(_) => {
            format!("`{name}` is not owned by the right seat")
        }
        ParamSource::AdjacentTo(_) => format!("`{name}` is not adjacent"),
        ParamSource::Reachable(..) => format!("`{name}` cannot be reached"),
        ParamSource::HeldBy(_) => format!("`{name}` is not held by the right piece"),
        ParamSource::Hand(..) => format!("`{name}` is not a card in the hand it is chosen from"),
        ParamSource::Numbers(..) => format!("`{name}` is out of range"),
        _ => format!("`{name}` is not a candidate"),
    }
}
