//! Which actions the seat to move may take: listing them all, and checking one.
//!
//! Candidates come from each parameter's source (owned spaces, neighbours, seats, numbers) and
//! pass its `where` filter; parameters are chosen in order, each seeing the ones before it.

use super::action::{Action, ActionKind, MAX_PARAMS};
use super::eval::{self, ReadCx};
use super::state::{GameState, NO_SPACE, SeatStatus};
use super::{ActionError, Engine};
use crate::defs::ParamKind;
use crate::rules::ir::Value;
use crate::rules::{ActionRule, ParamSource};

/// Numbers a `number` parameter may offer at most, so a huge range cannot flood the list.
const MAX_NUMBER_CHOICES: i64 = 1000;

/// The frame value of an action argument.
pub(crate) fn arg_value(kind: ParamKind, arg: i64) -> Value {
    match kind {
        ParamKind::Space => Value::Space(arg as u32),
        ParamKind::Seat => Value::Seat(arg as u8),
        ParamKind::Piece => Value::Piece(arg as u32),
        ParamKind::Number => Value::Int(arg),
    }
}

fn value_arg(value: Value) -> i64 {
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

/// Lists legal actions into `out`. With `stop_at_first`, stops as soon as one action other than
/// passing is found and lists nothing else. Returns whether such an action exists.
pub(crate) fn list(engine: &mut Engine, state: &GameState, out: &mut Vec<Action>, stop_at_first: bool) -> bool {
    if state.outcome.is_some() {
        return false;
    }
    let rules = engine.rules.clone();
    let seat = state.turn.seat;
    let phase = &rules.phases[state.turn.phase as usize];
    let mut frame = std::mem::take(&mut engine.frame);
    let mut found = false;
    {
        let mut cx = ReadCx { rules: &rules, state, scratch: &mut engine.scratch, odds: None };
        for &index in &phase.actions {
            if state.turn.used[index as usize] >= phase.budget[index as usize] {
                continue;
            }
            let rule = &rules.actions[index as usize];
            frame.clear();
            frame.resize(rule.frame.max(1) as usize, Value::Nil);
            frame[0] = Value::Seat(seat);
            let before = out.len();
            enumerate(&mut cx, rule, index, 0, &mut frame, out, stop_at_first);
            if out.len() > before {
                found = true;
                if stop_at_first {
                    break;
                }
            }
        }
    }
    engine.frame = frame;
    if stop_at_first {
        return found;
    }
    if phase.may_pass || !found {
        out.push(Action::pass());
    }
    if rules.data.seats.allow_leaving {
        out.push(Action::leave());
    }
    found
}

fn enumerate(
    cx: &mut ReadCx,
    rule: &ActionRule,
    index: u16,
    depth: usize,
    frame: &mut Vec<Value>,
    out: &mut Vec<Action>,
    stop_at_first: bool,
) {
    if stop_at_first && !out.is_empty() {
        return;
    }
    if depth == rule.params.len() {
        if let Some(when) = &rule.when
            && !eval::eval_bool(cx, when, frame).unwrap_or(false)
        {
            return;
        }
        let mut args = [0i64; MAX_PARAMS];
        for (i, arg) in args.iter_mut().enumerate().take(rule.params.len()) {
            *arg = value_arg(frame[1 + i]);
        }
        out.push(Action { kind: ActionKind::Rule(index), args });
        return;
    }
    let param = &rule.params[depth];
    let slot = 1 + depth;
    let consider = |cx: &mut ReadCx, value: Value, frame: &mut Vec<Value>, out: &mut Vec<Action>| {
        frame[slot] = value;
        let passes = match &param.filter {
            Some(filter) => eval::eval_bool(cx, filter, frame).unwrap_or(false),
            None => true,
        };
        if passes {
            enumerate(cx, rule, index, depth + 1, frame, out, stop_at_first);
        }
    };
    let state = cx.state;
    match &param.source {
        ParamSource::AllSpaces => {
            for space in 0..state.owners.len() as u32 {
                consider(cx, Value::Space(space), frame, out);
            }
        }
        ParamSource::SpacesOwnedBy(owner) => {
            let Some(seat) = eval::eval(cx, owner, frame).ok().and_then(Value::as_seat) else { return };
            for (space, &o) in state.owners.iter().enumerate() {
                if o == seat {
                    consider(cx, Value::Space(space as u32), frame, out);
                }
            }
        }
        ParamSource::AdjacentTo(of) => {
            let Some(center) = eval::eval(cx, of, frame).ok().and_then(Value::as_space) else { return };
            if center as usize >= state.owners.len() {
                return;
            }
            let board = state.board.clone();
            for &(neighbor, _) in board.neighbors(center) {
                consider(cx, Value::Space(neighbor), frame, out);
            }
        }
        ParamSource::Seats => {
            for seat in 0..state.seats.len() as u8 {
                consider(cx, Value::Seat(seat), frame, out);
            }
        }
        ParamSource::AllPieces => {
            for (p, piece) in state.pieces.iter().enumerate() {
                if piece.alive && piece.space != NO_SPACE {
                    consider(cx, Value::Piece(p as u32), frame, out);
                }
            }
        }
        ParamSource::PiecesOwnedBy(owner) => {
            let Some(seat) = eval::eval(cx, owner, frame).ok().and_then(Value::as_seat) else { return };
            for (p, piece) in state.pieces.iter().enumerate() {
                if piece.alive && piece.owner == seat && piece.space != NO_SPACE {
                    consider(cx, Value::Piece(p as u32), frame, out);
                }
            }
        }
        ParamSource::Numbers(min, max) => {
            let low = eval::eval(cx, min, frame).map(Value::as_int).unwrap_or(0);
            let high = eval::eval(cx, max, frame).map(Value::as_int).unwrap_or(-1);
            let high = high.min(low.saturating_add(MAX_NUMBER_CHOICES - 1));
            for n in low..=high {
                consider(cx, Value::Int(n), frame, out);
            }
        }
    }
}

/// Checks that `seat` may take `action` now, without changing anything.
pub(crate) fn check(engine: &mut Engine, state: &GameState, seat: u8, action: &Action) -> Result<(), ActionError> {
    let rules = engine.rules.clone();
    if state.seats.get(seat as usize).is_none_or(|s| s.status != SeatStatus::Active) {
        return Err(ActionError::NotYourTurn(seat.wrapping_add(1)));
    }
    match action.kind {
        ActionKind::Leave => {
            if rules.data.seats.allow_leaving {
                Ok(())
            } else {
                Err(ActionError::LeavingNotAllowed)
            }
        }
        ActionKind::Pass => {
            let phase = &rules.phases[state.turn.phase as usize];
            if phase.may_pass || !engine.can_act(state) { Ok(()) } else { Err(ActionError::MustAct) }
        }
        ActionKind::Rule(index) => {
            let Some(rule) = rules.actions.get(index as usize) else {
                return Err(ActionError::Illegal { action: format!("#{index}"), reason: "no such action".into() });
            };
            let phase = &rules.phases[state.turn.phase as usize];
            if !phase.actions.contains(&index) {
                return Err(ActionError::NotInPhase(rule.id.clone()));
            }
            let limit = phase.budget[index as usize];
            if state.turn.used[index as usize] >= limit {
                return Err(ActionError::BudgetSpent { action: rule.id.clone(), limit });
            }
            let mut frame = std::mem::take(&mut engine.frame);
            frame.clear();
            frame.resize(rule.frame.max(1) as usize, Value::Nil);
            frame[0] = Value::Seat(seat);
            let result = {
                let mut cx = ReadCx { rules: &rules, state, scratch: &mut engine.scratch, odds: None };
                check_params(&mut cx, rule, action, &mut frame)
            };
            engine.frame = frame;
            result.map_err(|reason| ActionError::Illegal { action: rule.id.clone(), reason })
        }
    }
}

fn check_params(cx: &mut ReadCx, rule: &ActionRule, action: &Action, frame: &mut [Value]) -> Result<(), String> {
    let state = cx.state;
    for (i, param) in rule.params.iter().enumerate() {
        let arg = action.args[i];
        let value = arg_value(param.kind, arg);
        let in_range = match param.kind {
            ParamKind::Space => (0..state.owners.len() as i64).contains(&arg),
            ParamKind::Seat => (0..state.seats.len() as i64).contains(&arg),
            ParamKind::Piece => (0..state.pieces.len() as i64).contains(&arg) && state.pieces[arg as usize].alive,
            ParamKind::Number => true,
        };
        if !in_range {
            return Err(format!("`{}` is not a valid {:?}", param.name, param.kind).to_lowercase());
        }
        let from_source = match &param.source {
            ParamSource::AllSpaces | ParamSource::Seats => true,
            ParamSource::AllPieces => state.pieces[arg as usize].space != NO_SPACE,
            ParamSource::SpacesOwnedBy(owner) => {
                let seat = eval::eval(cx, owner, frame).ok().and_then(Value::as_seat);
                seat.is_some_and(|s| state.owners[arg as usize] == s)
            }
            ParamSource::PiecesOwnedBy(owner) => {
                let seat = eval::eval(cx, owner, frame).ok().and_then(Value::as_seat);
                let piece = &state.pieces[arg as usize];
                seat.is_some_and(|s| piece.owner == s) && piece.space != NO_SPACE
            }
            ParamSource::AdjacentTo(of) => {
                let center = eval::eval(cx, of, frame).ok().and_then(Value::as_space);
                center.is_some_and(|c| {
                    (c as usize) < state.owners.len() && state.board.edge_between(c, arg as u32).is_some()
                })
            }
            ParamSource::Numbers(min, max) => {
                let low = eval::eval(cx, min, frame).map(Value::as_int).unwrap_or(0);
                let high = eval::eval(cx, max, frame).map(Value::as_int).unwrap_or(-1);
                (low..=high.min(low.saturating_add(MAX_NUMBER_CHOICES - 1))).contains(&arg)
            }
        };
        if !from_source {
            return Err(describe_source(&param.source, &param.name));
        }
        frame[1 + i] = value;
        if let Some(filter) = &param.filter
            && !eval::eval_bool(cx, filter, frame).map_err(|e| e.message)?
        {
            return Err(format!("`{}` does not satisfy its condition", param.name));
        }
    }
    if let Some(when) = &rule.when
        && !eval::eval_bool(cx, when, frame).map_err(|e| e.message)?
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
        ParamSource::Numbers(..) => format!("`{name}` is out of range"),
        _ => format!("`{name}` is not a candidate"),
    }
}
