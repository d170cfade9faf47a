//! The turn structure at run time: starting the game, phases, turns and rounds, triggers, and
//! the end checks (elimination, victory, draws, the turn limit).

use super::eval::{self, ReadCx};
use super::events::Event;
use super::state::{GameState, Outcome, SeatStatus};
use super::{RuleError, WriteCx};
use crate::defs::{EventKind, FirstSeat};
use crate::rules::ir::Value;
use crate::rules::{Formula, Program};

/// Runs a program with `me` bound to a seat; `rule` names it in errors (built only then).
fn run(cx: &mut WriteCx, program: &Program, me: u8, rule: impl Fn() -> String) -> Result<(), RuleError> {
    if program.block.is_empty() {
        return Ok(());
    }
    let mut frame = take_frame(cx, program.frame, me);
    let result = eval::exec(cx, &program.block, &mut frame).map_err(|e| e.context(cx.rules, &rule()));
    cx.frames.push(frame);
    result
}

/// A frame of `size` slots with `me` bound, from the context's pool: programs and triggers run
/// several times per turn and should not allocate each time.
fn take_frame(cx: &mut WriteCx, size: u16, me: u8) -> Vec<Value> {
    let mut frame = cx.frames.pop().unwrap_or_default();
    frame.clear();
    frame.resize(size.max(1) as usize, Value::Nil);
    frame[0] = Value::Seat(me);
    frame
}

/// Runs the `rolled` triggers of a roll just made by `seat`, with its value as `rolled`.
pub(crate) fn fire_rolled(cx: &mut WriteCx, roll: &str, value: i64, seat: u8) -> Result<(), RuleError> {
    let rules = cx.rules;
    for (i, (on, trigger)) in rules.triggers.iter().enumerate() {
        if *on != EventKind::Rolled || trigger.roll.as_deref() != Some(roll) || cx.state.outcome.is_some() {
            continue;
        }
        let mut frame = take_frame(cx, trigger.effect.frame.max(2), seat);
        frame[1] = Value::Int(value);
        run_trigger(cx, i, trigger, frame)?;
    }
    Ok(())
}

/// Runs one trigger in its frame: its effect, when its condition holds.
fn run_trigger(
    cx: &mut WriteCx,
    i: usize,
    trigger: &crate::rules::TriggerRule,
    mut frame: Vec<Value>,
) -> Result<(), RuleError> {
    let result = match &trigger.when {
        Some(when) => {
            eval::eval_bool(cx, when, &frame).map_err(|e| e.context(cx.rules, &format!("triggers[{i}].when")))
        }
        None => Ok(true),
    }
    .and_then(|wanted| {
        if wanted {
            eval::exec(cx, &trigger.effect.block, &mut frame)
                .map_err(|e| e.context(cx.rules, &format!("triggers[{i}].effect")))
        } else {
            Ok(())
        }
    });
    cx.frames.push(frame);
    result
}

/// Runs the triggers of an event (and the Lua hooks registered for it).
fn fire(cx: &mut WriteCx, event: EventKind, seat: u8) -> Result<(), RuleError> {
    let rules = cx.rules;
    for (i, (on, trigger)) in rules.triggers.iter().enumerate() {
        if *on != event || cx.state.outcome.is_some() {
            continue;
        }
        let frame = take_frame(cx, trigger.effect.frame, seat);
        run_trigger(cx, i, trigger, frame)?;
    }
    if let Some(hooks) = cx.hooks.as_deref_mut()
        && cx.state.outcome.is_none()
    {
        hooks.dispatch(event, seat, cx.state, cx.events)?;
    }
    Ok(())
}

/// Starts a game: `first_seat`, when given, moves first instead of the mod's `[seats] first`.
pub(crate) fn start_game(cx: &mut WriteCx, first_seat: Option<u8>) -> Result<(), RuleError> {
    cx.events.push_with(|| Event::GameStarted);
    super::decks::shuffle_new_decks(cx);
    run(cx, &cx.rules.setup, 0, || "setup.effect".into())?;
    let first = match (first_seat, cx.rules.data.seats.first) {
        (Some(seat), _) => seat,
        (None, FirstSeat::First) => 0,
        (None, FirstSeat::Random | FirstSeat::RandomEachMatch) => cx.state.rng.below(cx.state.seats.len() as u32) as u8,
    };
    cx.state.turn.seat = first;
    cx.state.turn.first_seat = first;
    fire(cx, EventKind::GameStart, first)?;
    check_end(cx)?;
    if cx.state.outcome.is_none() {
        cx.state.turn.match_number = 1;
        open_match(cx);
        start_turn(cx)?;
    }
    Ok(())
}

fn start_turn(cx: &mut WriteCx) -> Result<(), RuleError> {
    let seat = cx.state.turn.seat;
    cx.state.turn.number += 1;
    if cx.state.turn.number > cx.rules.end.turn_limit {
        return finish_by_score(cx);
    }
    cx.state.turn.phase = phase_range(cx.rules, &cx.state.turn).start;
    cx.state.turn.acted = false;
    cx.state.turn.used.iter_mut().for_each(|u| *u = 0);
    cx.state.turn.pending = None;
    let (turn, round) = (cx.state.turn.number, cx.state.turn.round);
    cx.events.push_with(|| Event::TurnStarted { seat, turn, round });
    run(cx, &cx.rules.turn_start, seat, || "turn.on_start".into())?;
    start_phase(cx)?;
    fire(cx, EventKind::TurnStart, seat)?;
    // The previous turn's end was just checked; unless something ran at this turn's start or
    // the end conditions read the turn itself, nothing they read has changed.
    let rules = cx.rules;
    let quiet_start = rules.turn_start.block.is_empty()
        && rules.phases[cx.state.turn.phase as usize].on_start.block.is_empty()
        && !rules.has_triggers(EventKind::TurnStart)
        && cx.hooks.as_deref().is_none_or(|h| !h.has_event_hooks())
        && !rules.end.reads_turn_state;
    if quiet_start { Ok(()) } else { check_end(cx) }
}

/// The phases of the turns now played: a match's, or an interlude's.
pub(crate) fn phase_range(rules: &crate::rules::Ruleset, turn: &super::state::TurnState) -> std::ops::Range<u16> {
    if turn.interlude { rules.match_phases..rules.phases.len() as u16 } else { 0..rules.match_phases }
}

fn start_phase(cx: &mut WriteCx) -> Result<(), RuleError> {
    let phase = cx.state.turn.phase;
    if phase_range(cx.rules, &cx.state.turn).len() > 1 {
        cx.events.push_with(|| Event::PhaseStarted { phase });
    }
    let rules = cx.rules;
    let rule = &rules.phases[phase as usize];
    run(cx, &rule.on_start, cx.state.turn.seat, || format!("turn.phases.{}.on_start", rule.id))
}

/// Ends the current phase; the last phase ends the turn.
pub(crate) fn end_phase(cx: &mut WriteCx) -> Result<(), RuleError> {
    let rules = cx.rules;
    let phase = cx.state.turn.phase as usize;
    let rule = &rules.phases[phase];
    run(cx, &rule.on_end, cx.state.turn.seat, || format!("turn.phases.{}.on_end", rule.id))?;
    if cx.state.outcome.is_some() {
        return Ok(());
    }
    if phase + 1 < phase_range(rules, &cx.state.turn).end as usize {
        cx.state.turn.phase += 1;
        cx.state.turn.used.iter_mut().for_each(|u| *u = 0);
        cx.state.turn.pending = None;
        start_phase(cx)
    } else {
        end_turn(cx)
    }
}

/// Ends the current turn and starts the next seat's.
pub(crate) fn end_turn(cx: &mut WriteCx) -> Result<(), RuleError> {
    let seat = cx.state.turn.seat;
    // A seat that dropped out during its own turn gets no end-of-turn effects.
    if cx.state.seats[seat as usize].status == SeatStatus::Active {
        run(cx, &cx.rules.turn_end, seat, || "turn.on_end".into())?;
        cx.events.push_with(|| Event::TurnEnded { seat });
        fire(cx, EventKind::TurnEnd, seat)?;
        check_end(cx)?;
        if cx.state.outcome.is_some() {
            return Ok(());
        }
    }
    if cx.state.turn.interlude {
        return next_interlude_turn(cx, seat);
    }
    let count = cx.state.seats.len();
    let mut next = seat as usize;
    for _ in 0..count {
        next = (next + 1) % count;
        // A round is every seat's turn once, from the seat that moved first.
        if next == cx.state.turn.first_seat as usize {
            cx.state.turn.round += 1;
            let rules = cx.rules;
            if rules.rounds_per_match > 0 && cx.state.turn.round > rules.rounds_per_match {
                end_match(cx)?;
                if cx.state.outcome.is_some() {
                    return Ok(());
                }
                // The new match may have drawn another first seat: it moves first.
                next = cx.state.turn.first_seat as usize;
            }
        }
        if cx.state.seats[next].status == SeatStatus::Active {
            cx.state.turn.seat = next as u8;
            return start_turn(cx);
        }
    }
    // Nobody is left to move.
    finish(cx, Outcome::Draw { shares: Vec::new() });
    Ok(())
}

/// After an interlude turn: the next seat's, or, once every seat still playing has passed a
/// whole turn in a row, the interlude's end and the match's first turn (the first seat's).
fn next_interlude_turn(cx: &mut WriteCx, seat: u8) -> Result<(), RuleError> {
    let turn = &mut cx.state.turn;
    turn.idle_turns = if turn.acted { 0 } else { turn.idle_turns + 1 };
    // The seat to look from: the next after this one, or, when the match begins, the first
    // seat itself.
    let (from, skip) = if cx.state.turn.idle_turns >= cx.state.active_seats() as u32 {
        let first = cx.state.turn.first_seat;
        run(cx, &cx.rules.interlude_end, first, || "turn.interlude.on_end".into())?;
        check_end(cx)?;
        if cx.state.outcome.is_some() {
            return Ok(());
        }
        cx.state.turn.interlude = false;
        cx.state.turn.idle_turns = 0;
        cx.state.turn.round = 1;
        (first as usize, 0)
    } else {
        (seat as usize, 1)
    };
    let count = cx.state.seats.len();
    for step in skip..count + skip {
        let next = (from + step) % count;
        if cx.state.seats[next].status == SeatStatus::Active {
            cx.state.turn.seat = next as u8;
            return start_turn(cx);
        }
    }
    finish(cx, Outcome::Draw { shares: Vec::new() });
    Ok(())
}

/// A match opens: with its interlude (round 0) when the mod has one, else at round 1.
fn open_match(cx: &mut WriteCx) {
    cx.state.turn.interlude = cx.rules.interlude;
    cx.state.turn.round = if cx.rules.interlude { 0 } else { 1 };
}

/// Ends the current match: its effects and triggers, then the next match or, after the last
/// one, the end of the game by score.
fn end_match(cx: &mut WriteCx) -> Result<(), RuleError> {
    let number = cx.state.turn.match_number;
    run(cx, &cx.rules.match_end, 0, || "turn.on_match_end".into())?;
    cx.events.push_with(|| Event::MatchEnded { number });
    fire(cx, EventKind::MatchEnd, 0)?;
    check_end(cx)?;
    if cx.state.outcome.is_some() {
        return Ok(());
    }
    if number >= cx.rules.matches {
        return finish_by_score(cx);
    }
    cx.state.turn.match_number += 1;
    if cx.rules.data.seats.first == FirstSeat::RandomEachMatch {
        draw_first_seat(cx);
    }
    open_match(cx);
    Ok(())
}

/// Draws the seat that moves first in the match to come, each seat still playing as likely
/// (`[seats] first = "random_each_match"`).
fn draw_first_seat(cx: &mut WriteCx) {
    let playing: Vec<u8> = (0..cx.state.seats.len() as u8)
        .filter(|&seat| cx.state.seats[seat as usize].status == SeatStatus::Active)
        .collect();
    if playing.is_empty() {
        return;
    }
    let drawn = playing[cx.state.rng.below(playing.len() as u32) as usize];
    cx.state.turn.first_seat = drawn;
    cx.events.push_with(|| Event::FirstSeatDrawn { seat: drawn });
}

/// Ends a game that ran out of matches or turns: the side with the highest `end.score` wins, a
/// tie is a draw between the tied seats; without a score it is a draw split by `draw_shares`.
pub(crate) fn finish_by_score(cx: &mut WriteCx) -> Result<(), RuleError> {
    let rules = cx.rules;
    let Some(score) = &rules.end.score else {
        let shares = draw_shares(cx)?;
        finish(cx, Outcome::Draw { shares });
        return Ok(());
    };
    // Sides still in the game, each with the sum of its seats' scores.
    let mut sides: Vec<(u8, i64)> = Vec::new();
    for seat in 0..cx.state.seats.len() as u8 {
        if cx.state.seats[seat as usize].status == SeatStatus::Eliminated {
            continue;
        }
        let value = seat_formula(cx, score, seat).map_err(|e| e.context(cx.rules, "end.score"))?.as_int();
        let side = cx.state.seats[seat as usize].side;
        match sides.iter_mut().find(|(s, _)| *s == side) {
            Some((_, total)) => *total = total.saturating_add(value),
            None => sides.push((side, value)),
        }
    }
    let Some(best) = sides.iter().map(|(_, v)| *v).max() else {
        finish(cx, Outcome::Draw { shares: Vec::new() });
        return Ok(());
    };
    let winners: Vec<u8> = sides.iter().filter(|(_, v)| *v == best).map(|(s, _)| *s).collect();
    let seats_of = |side: u8| -> Vec<u8> {
        (0..cx.state.seats.len() as u8).filter(|&s| cx.state.seats[s as usize].side == side).collect()
    };
    if winners.len() == 1 {
        let seats = seats_of(winners[0]);
        finish(cx, Outcome::Win { seats });
    } else {
        let shares = winners.iter().flat_map(|&side| seats_of(side)).map(|s| (s, 1)).collect();
        finish(cx, Outcome::Draw { shares });
    }
    Ok(())
}

/// After an action's effects: requested turn ends, triggers and end checks.
pub(crate) fn after_action(cx: &mut WriteCx) -> Result<(), RuleError> {
    if cx.state.outcome.is_none() {
        fire(cx, EventKind::AfterAction, cx.state.turn.seat)?;
    }
    settle_effects(cx)
}

/// After the first step of an action with `after_roll` choices (its rolls and `on_roll`): what
/// `on_roll` did may end the game or the turn, but `after_action` triggers wait for the
/// action's end (its choices, or cancelling).
pub(crate) fn after_roll(cx: &mut WriteCx) -> Result<(), RuleError> {
    settle_effects(cx)?;
    if cx.state.outcome.is_some() {
        cx.state.turn.pending = None;
    }
    Ok(())
}

/// End checks and a requested end of turn, after effects ran.
fn settle_effects(cx: &mut WriteCx) -> Result<(), RuleError> {
    check_end(cx)?;
    if cx.flow.end_turn && cx.state.outcome.is_none() {
        cx.flow.end_turn = false;
        end_turn(cx)?;
    }
    Ok(())
}

/// A seat leaves the game (turns grey): it keeps what it has and takes no more turns.
pub(crate) fn seat_leaves(cx: &mut WriteCx, seat: u8) -> Result<(), RuleError> {
    if cx.state.seats[seat as usize].status != SeatStatus::Active {
        return Ok(());
    }
    cx.state.seats[seat as usize].status = SeatStatus::Left;
    cx.events.push_with(|| Event::SeatLeft { seat });
    fire(cx, EventKind::SeatOut, seat)
}

/// A seat is out of the game.
pub(crate) fn seat_eliminated(cx: &mut WriteCx, seat: u8) -> Result<(), RuleError> {
    if cx.state.seats[seat as usize].status == SeatStatus::Eliminated {
        return Ok(());
    }
    cx.state.seats[seat as usize].status = SeatStatus::Eliminated;
    cx.events.push_with(|| Event::SeatEliminated { seat });
    fire(cx, EventKind::SeatOut, seat)
}

/// Applies `end.eliminate`, `end.win`, `end.draw` and `end.last_seat_wins`.
pub(crate) fn check_end(cx: &mut WriteCx) -> Result<(), RuleError> {
    if cx.state.outcome.is_some() {
        return Ok(());
    }
    let rules = cx.rules;
    let remembered = rules.end.reads_only_ownership;
    let unchanged = if remembered { cx.quiet_end.unchanged_seats(cx.state) } else { 0 };
    if unchanged != QuietEnd::all_seats(cx.state) {
        let eliminated_any = check_seat_formulas(cx, unchanged)?;
        // An elimination runs triggers that may change what seats checked before it own, so
        // only a check that changed nothing is remembered.
        if remembered && !eliminated_any && cx.state.outcome.is_none() {
            cx.quiet_end.remember(cx.state);
        }
    }
    if cx.state.outcome.is_some() {
        return Ok(());
    }
    if let Some(draw) = &rules.end.draw
        && seat_formula(cx, draw, cx.state.turn.seat).map_err(|e| e.context(cx.rules, "end.draw"))?.as_bool()
    {
        let shares = draw_shares(cx)?;
        finish(cx, Outcome::Draw { shares });
        return Ok(());
    }
    // Runs after every action: count without allocating.
    let mut active = cx.state.seats.iter().enumerate().filter(|(_, s)| s.status == SeatStatus::Active);
    match active.next() {
        None => finish(cx, Outcome::Draw { shares: Vec::new() }),
        Some((first, seat)) => {
            let side = seat.side;
            let one_side_left = active.all(|(_, s)| s.side == side);
            if rules.end.last_seat_wins && one_side_left {
                let seats = cx.state.side_of(first as u8);
                finish(cx, Outcome::Win { seats });
            }
        }
    }
    Ok(())
}

/// The numbers `end.eliminate` and `end.win` read when they read nothing else
/// ([`crate::rules::EndRule::reads_only_ownership`]), as they were at the last check where
/// neither held for any seat: for a seat whose count is the same (all else being the same),
/// neither can hold now, and an action usually changes the counts of two seats at most.
#[derive(Debug, Default)]
pub(crate) struct QuietEnd {
    known: bool,
    spaces: usize,
    owned: Vec<u32>,
    statuses: Vec<SeatStatus>,
}

impl QuietEnd {
    /// A bit per seat (seats 0..64) whose formulas need no new check; 0 when the statuses or
    /// the board changed.
    fn unchanged_seats(&self, state: &GameState) -> u64 {
        let same = self.known
            && state.seats.len() <= 64
            && self.spaces == state.owners.len()
            && self.owned.len() == state.owned.len()
            && self.statuses.len() == state.seats.len()
            && self.statuses.iter().zip(&state.seats).all(|(s, seat)| *s == seat.status);
        if !same {
            return 0;
        }
        let mut mask = 0;
        for (seat, (old, new)) in self.owned.iter().zip(&state.owned).enumerate() {
            if old == new {
                mask |= 1 << seat;
            }
        }
        mask
    }

    /// The mask of [`QuietEnd::unchanged_seats`] when every seat is unchanged.
    fn all_seats(state: &GameState) -> u64 {
        match state.seats.len() {
            0 => 0,
            n if n >= 64 => u64::MAX,
            n => (1 << n) - 1,
        }
    }

    fn remember(&mut self, state: &GameState) {
        self.known = true;
        self.spaces = state.owners.len();
        self.owned.clone_from(&state.owned);
        self.statuses.clear();
        self.statuses.extend(state.seats.iter().map(|s| s.status));
    }
}

/// Eliminates every seat `end.eliminate` holds for, then ends the game if `end.win` holds for
/// a seat. Seats with a bit in `unchanged` are known not to need either. Returns whether any
/// seat was eliminated.
fn check_seat_formulas(cx: &mut WriteCx, mut unchanged: u64) -> Result<bool, RuleError> {
    let mut eliminated_any = false;
    let rules = cx.rules;
    if let Some(eliminate) = &rules.end.eliminate {
        // Seats in order, exactly as if each were checked on its own: after an elimination
        // (whose triggers may change the game) the scan goes on from the next seat.
        let mut from = 0;
        while let Some(seat) = first_seat_where(cx, eliminate, from, unchanged, |s| s != SeatStatus::Eliminated)
            .map_err(|e| e.context(cx.rules, "end.eliminate"))?
        {
            seat_eliminated(cx, seat)?;
            eliminated_any = true;
            unchanged = 0;
            from = seat + 1;
        }
    }
    if cx.state.outcome.is_some() {
        return Ok(eliminated_any);
    }
    if let Some(win) = &rules.end.win
        && let Some(seat) = first_seat_where(cx, win, 0, unchanged, |s| s == SeatStatus::Active)
            .map_err(|e| e.context(cx.rules, "end.win"))?
    {
        let seats = cx.state.side_of(seat);
        finish(cx, Outcome::Win { seats });
    }
    Ok(eliminated_any)
}

/// The first seat from `from` on, not in the `skip` mask, whose status passes `eligible` and for
/// which `formula` holds; one evaluation context for the whole scan, as this runs after every
/// action.
fn first_seat_where(
    cx: &mut WriteCx,
    formula: &Formula,
    from: u8,
    skip: u64,
    eligible: impl Fn(SeatStatus) -> bool,
) -> Result<Option<u8>, RuleError> {
    let mut frame = [Value::Nil; 8];
    frame[0] = Value::Seat(cx.state.turn.seat);
    let size = (formula.frame as usize).clamp(2, 8);
    let mut read = ReadCx { rules: cx.rules, state: cx.state, scratch: cx.scratch, odds: None, hooks: None };
    for seat in from..read.state.seats.len() as u8 {
        if (seat < 64 && skip & (1 << seat) != 0) || !eligible(read.state.seats[seat as usize].status) {
            continue;
        }
        frame[1] = Value::Seat(seat);
        if eval::eval(&mut read, &formula.expr, &frame[..size])?.as_bool() {
            return Ok(Some(seat));
        }
    }
    Ok(None)
}

fn seat_formula(cx: &mut WriteCx, formula: &Formula, seat: u8) -> Result<Value, RuleError> {
    let mut read = ReadCx { rules: cx.rules, state: cx.state, scratch: cx.scratch, odds: None, hooks: None };
    read_seat_formula(&mut read, formula, seat)
}

/// A formula about `seat` (an `end` condition, `ai.standing`, a seat figure) read in `read`'s
/// game: `me` (slot 0) is the seat to move, `seat` slot 1.
pub(crate) fn read_seat_formula(read: &mut ReadCx, formula: &Formula, seat: u8) -> Result<Value, RuleError> {
    read_formula_about(read, formula, Value::Seat(seat))
}

/// A formula about one thing (a seat, a space: slot 1) read in `read`'s game, `me` (slot 0)
/// being the seat to move.
pub(crate) fn read_formula_about(read: &mut ReadCx, formula: &Formula, subject: Value) -> Result<Value, RuleError> {
    let mut frame = [Value::Nil; 8];
    frame[0] = Value::Seat(read.state.turn.seat);
    frame[1] = subject;
    eval::eval(read, &formula.expr, &frame[..(formula.frame as usize).clamp(2, 8)])
}

/// Each seat still playing with its `end.draw_shares` weight (1 each when the mod gives none).
pub(crate) fn draw_shares(cx: &mut WriteCx) -> Result<Vec<(u8, i64)>, RuleError> {
    let rules = cx.rules;
    let mut shares = Vec::new();
    for seat in 0..cx.state.seats.len() as u8 {
        if cx.state.seats[seat as usize].status != SeatStatus::Active {
            continue;
        }
        let weight = match &rules.end.draw_shares {
            Some(formula) => {
                seat_formula(cx, formula, seat).map_err(|e| e.context(cx.rules, "end.draw_shares"))?.as_int().max(0)
            }
            None => 1,
        };
        shares.push((seat, weight));
    }
    Ok(shares)
}

/// Ends the game with an outcome.
pub(crate) fn finish(cx: &mut WriteCx, outcome: Outcome) {
    if cx.state.outcome.is_some() {
        return;
    }
    cx.state.outcome = Some(outcome.clone());
    cx.events.push_with(|| Event::GameOver { outcome });
    if let Some(hooks) = cx.hooks.as_deref_mut() {
        // The game is decided; a failing game-end hook cannot undo that, so its error is logged.
        let seat = cx.state.turn.seat;
        if let Err(error) = hooks.dispatch(EventKind::GameEnd, seat, cx.state, cx.events) {
            let text = format!("game_end hook failed: {error}");
            cx.events.push_with(|| Event::Log { text });
        }
    }
}
