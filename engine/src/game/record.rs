//! Converting actions between the engine's compact form and the readable form files and people
//! use: `{ "seat": 1, "action": "attack", "from": "12", "to": "7" }`.

use serde_json::Value as Json;

use super::action::{Action, ActionKind, ActionRecord};
use super::state::GameState;
use crate::defs::ParamKind;
use crate::diag::did_you_mean;
use crate::rules::Ruleset;

/// The readable form of an action taken by `seat`.
pub fn to_record(rules: &Ruleset, state: &GameState, seat: u8, action: &Action) -> ActionRecord {
    let mut record = ActionRecord { seat: Some(seat + 1), action: String::new(), args: Default::default() };
    match action.kind {
        ActionKind::Pass => record.action = "pass".into(),
        ActionKind::Leave => record.action = "leave".into(),
        ActionKind::Rule(index) => {
            let rule = &rules.actions[index as usize];
            record.action = rule.id.clone();
            for (i, param) in rule.params.iter().enumerate() {
                let arg = action.args[i];
                let value = match param.kind {
                    ParamKind::Space => match state.board.get_space(arg as u32) {
                        Some(space) => Json::String(space.label.clone()),
                        None => Json::from(arg),
                    },
                    ParamKind::Seat | ParamKind::Piece => Json::from(arg + 1),
                    ParamKind::Number => Json::from(arg),
                };
                record.args.insert(param.name.clone(), value);
            }
        }
    }
    record
}

/// The compact form of a readable action, with the acting seat (the seat to move when the
/// record names none). Errors say what is wrong, with a "did you mean".
pub fn from_record(rules: &Ruleset, state: &GameState, record: &ActionRecord) -> Result<(u8, Action), String> {
    let seat = match record.seat {
        Some(0) => return Err("seats are numbered from 1".into()),
        Some(n) if n as usize > state.seats.len() => {
            return Err(format!("there is no seat {n}: the game has {} seats", state.seats.len()));
        }
        Some(n) => n - 1,
        None => state.turn.seat,
    };
    let action = match record.action.as_str() {
        "pass" => Action::pass(),
        "leave" => Action::leave(),
        id => {
            let Some(index) = rules.action_index(id) else {
                let mut known: Vec<&str> = rules.actions.iter().map(|a| a.id.as_str()).collect();
                known.extend(["pass", "leave"]);
                let hint = did_you_mean(id, known.iter().copied())
                    .map(|s| format!("; did you mean `{s}`?"))
                    .unwrap_or_default();
                return Err(format!("unknown action `{id}`{hint}"));
            };
            let rule = &rules.actions[index];
            for name in record.args.keys() {
                if rule.params.iter().all(|p| &p.name != name) {
                    let hint = did_you_mean(name, rule.params.iter().map(|p| p.name.as_str()))
                        .map(|s| format!("; did you mean `{s}`?"))
                        .unwrap_or_default();
                    return Err(format!("`{id}` has no parameter `{name}`{hint}"));
                }
            }
            let mut args = Vec::with_capacity(rule.params.len());
            for param in &rule.params {
                let Some(value) = record.args.get(&param.name) else {
                    return Err(format!("`{id}` needs `{}`", param.name));
                };
                args.push(parse_arg(state, param.kind, &param.name, value)?);
            }
            Action::rule(index as u16, &args)
        }
    };
    Ok((seat, action))
}

fn parse_arg(state: &GameState, kind: ParamKind, name: &str, value: &Json) -> Result<i64, String> {
    match kind {
        ParamKind::Space => {
            let label = match value {
                Json::String(s) => s.clone(),
                Json::Number(n) => n.to_string(),
                other => return Err(format!("`{name}` is a space label, not {other}")),
            };
            state.board.find(&label).map(i64::from).ok_or_else(|| {
                let hint = did_you_mean(&label, state.board.spaces().iter().map(|s| s.label.as_str()))
                    .map(|s| format!("; did you mean `{s}`?"))
                    .unwrap_or_default();
                format!("`{name}`: no space is labelled `{label}`{hint}")
            })
        }
        ParamKind::Seat | ParamKind::Piece => match value.as_i64() {
            Some(n) if n >= 1 => Ok(n - 1),
            _ => Err(format!("`{name}` is a number from 1, not {value}")),
        },
        ParamKind::Number => value.as_i64().ok_or_else(|| format!("`{name}` is a whole number, not {value}")),
    }
}
