//! Converting actions between the engine's compact form and the readable form files and people
//! use: `{ "seat": 1, "action": "attack", "from": "12", "to": "7" }`.

use serde_json::Value as Json;

use super::action::{Action, ActionKind, ActionRecord, NOT_CHOSEN};
use super::state::GameState;
use crate::defs::ParamKind;
use crate::diag::{did_you_mean, shown};
use crate::rules::Ruleset;
use crate::rules::ir::{held_arg, held_of_arg};

/// The readable form of an action taken by `seat`.
pub fn to_record(rules: &Ruleset, state: &GameState, seat: u8, action: &Action) -> ActionRecord {
    let mut record = ActionRecord { seat: Some(seat + 1), action: String::new(), args: Default::default() };
    match action.kind {
        ActionKind::Pass => record.action = "pass".into(),
        ActionKind::Leave => record.action = "leave".into(),
        ActionKind::Cancel => record.action = "cancel".into(),
        ActionKind::Rule(index) => {
            let rule = &rules.actions[index as usize];
            record.action = rule.id.clone();
            for (i, param) in rule.params.iter().enumerate() {
                let arg = action.args[i];
                if arg == NOT_CHOSEN {
                    // An `after_roll` choice of the action's first step.
                    continue;
                }
                let value = match param.kind {
                    ParamKind::Space => match state.board.get_space(arg as u32) {
                        Some(space) => Json::String(space.label.clone()),
                        None => Json::from(arg),
                    },
                    ParamKind::Seat | ParamKind::Piece => Json::from(arg + 1),
                    ParamKind::Number => Json::from(arg),
                    ParamKind::Item => match rules.items.get(arg as usize) {
                        Some(item) => Json::String(item.id.clone()),
                        None => Json::from(arg),
                    },
                    // By position only: what is held there changes during a game, and a record
                    // must mean the same whenever it is read (saves are written at the end).
                    ParamKind::Held => match held_of_arg(arg).as_held() {
                        Some((piece, position)) => serde_json::json!({ "piece": piece + 1, "position": position + 1 }),
                        None => Json::from(arg),
                    },
                    // A card another seat may not see (in its view of the action): `null`.
                    ParamKind::Card => match rules.card_ids.get(arg as usize) {
                        Some(id) => Json::String(id.clone()),
                        None if arg == i64::from(super::state::UNKNOWN_CARD) => Json::Null,
                        None => Json::from(arg),
                    },
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
        None => state.to_act(),
    };
    let action = match record.action.as_str() {
        "pass" => Action::pass(),
        "leave" => Action::leave(),
        "cancel" => Action::cancel(),
        id => {
            let Some(index) = rules.action_index(id) else {
                let mut known: Vec<&str> = rules.actions.iter().map(|a| a.id.as_str()).collect();
                known.extend(["pass", "leave"]);
                let hint = did_you_mean(id, known.iter().copied())
                    .map(|s| format!("; did you mean `{s}`?"))
                    .unwrap_or_default();
                return Err(format!("unknown action `{}`{hint}", shown(id)));
            };
            let rule = &rules.actions[index];
            let chosen = if awaiting(state, index as u16) { rule.params.len() } else { rule.before_roll };
            for name in record.args.keys() {
                if let Some(later) = rule.params[chosen..].iter().find(|p| &p.name == name) {
                    return Err(format!("`{id}`: `{}` is chosen after the roll, in a second step", later.name));
                }
                if rule.params.iter().all(|p| &p.name != name) {
                    let hint = did_you_mean(name, rule.params.iter().map(|p| p.name.as_str()))
                        .map(|s| format!("; did you mean `{s}`?"))
                        .unwrap_or_default();
                    return Err(format!("`{id}` has no parameter `{}`{hint}", shown(name)));
                }
            }
            let mut args = vec![NOT_CHOSEN; rule.params.len()];
            for (i, param) in rule.params[..chosen].iter().enumerate() {
                let Some(value) = record.args.get(&param.name) else {
                    return Err(format!("`{id}` needs `{}`", param.name));
                };
                args[i] = parse_arg(rules, state, seat, param.kind, &param.name, value)?;
            }
            Action::rule(index as u16, &args)
        }
    };
    Ok((seat, action))
}

/// Adds to a record's held-item arguments the id of the item held there in `state`, for people
/// reading a log (see [`to_record`] for why records leave it out).
pub fn label_held_items(rules: &Ruleset, state: &GameState, record: &mut ActionRecord) {
    for value in record.args.values_mut() {
        let Json::Object(map) = value else { continue };
        let (Some(piece), Some(position)) =
            (map.get("piece").and_then(Json::as_u64), map.get("position").and_then(Json::as_u64))
        else {
            continue;
        };
        let item = state
            .pieces
            .get((piece as usize).wrapping_sub(1))
            .and_then(|p| p.items.get((position as usize).wrapping_sub(1)))
            .and_then(|h| rules.items.get(h.item as usize));
        if let Some(item) = item {
            map.insert("item".into(), Json::from(item.id.clone()));
        }
    }
}

/// Whether the action is the one whose `after_roll` choices are awaited.
fn awaiting(state: &GameState, index: u16) -> bool {
    state.turn.pending.as_ref().is_some_and(|p| p.action == index)
}

fn parse_arg(
    rules: &Ruleset,
    state: &GameState,
    seat: u8,
    kind: ParamKind,
    name: &str,
    value: &Json,
) -> Result<i64, String> {
    let item_index = |id: &str| -> Result<u16, String> {
        rules.item_index(id).map(|i| i as u16).ok_or_else(|| {
            let hint = did_you_mean(id, rules.items.iter().map(|i| i.id.as_str()))
                .map(|s| format!("; did you mean `{s}`?"))
                .unwrap_or_default();
            format!("`{name}`: no item is called `{}`{hint}", shown(id))
        })
    };
    match kind {
        ParamKind::Space => {
            let label = match value {
                Json::String(s) => s.clone(),
                Json::Number(n) => n.to_string(),
                other => return Err(format!("`{name}` is a space label, not {}", shown(&other.to_string()))),
            };
            state.board.find(&label).map(i64::from).ok_or_else(|| {
                let hint = did_you_mean(&label, state.board.spaces().iter().map(|s| s.label.as_str()))
                    .map(|s| format!("; did you mean `{s}`?"))
                    .unwrap_or_default();
                format!("`{name}`: no space is labelled `{}`{hint}", shown(&label))
            })
        }
        ParamKind::Seat | ParamKind::Piece => match value.as_i64() {
            Some(n) if n >= 1 => Ok(n - 1),
            _ => Err(format!("`{name}` is a number from 1, not {}", shown(&value.to_string()))),
        },
        ParamKind::Number => {
            value.as_i64().ok_or_else(|| format!("`{name}` is a whole number, not {}", shown(&value.to_string())))
        }
        ParamKind::Item => match value {
            Json::String(id) => item_index(id).map(i64::from),
            other => Err(format!("`{name}` is an item id, not {}", shown(&other.to_string()))),
        },
        ParamKind::Card => match value {
            Json::String(id) => match rules.card_ids.iter().position(|card| card == id) {
                Some(index) => Ok(index as i64),
                None => {
                    let hint = did_you_mean(id, rules.card_ids.iter().map(String::as_str))
                        .map(|s| format!("; did you mean `{s}`?"))
                        .unwrap_or_default();
                    Err(format!("`{name}`: no card is called `{}`{hint}", shown(id)))
                }
            },
            other => Err(format!("`{name}` is a card id, not {}", shown(&other.to_string()))),
        },
        // A held item: `{ "piece": 3, "position": 2 }`, `{ "piece": 3, "item": "sword" }`, or
        // just the item's id for the acting seat's first piece holding one.
        ParamKind::Held => {
            if let Json::Object(map) = value
                && let (Some(piece), Some(position)) =
                    (map.get("piece").and_then(Json::as_i64), map.get("position").and_then(Json::as_i64))
            {
                if piece < 1 || !(1..=256).contains(&position) {
                    return Err(format!("`{name}`: pieces and positions are numbered from 1"));
                }
                return Ok(held_arg((piece - 1) as u32, (position - 1) as u8));
            }
            let (piece, id) = match value {
                Json::String(id) => (None, id.as_str()),
                Json::Object(map) => {
                    match (map.get("piece").and_then(Json::as_i64), map.get("item").and_then(Json::as_str)) {
                        (Some(piece), Some(id)) if piece >= 1 => (Some((piece - 1) as usize), id),
                        _ => {
                            return Err(format!(
                                "`{name}` is written {{ \"piece\": N, \"item\": \"id\" }}, not {value}"
                            ));
                        }
                    }
                }
                other => return Err(format!("`{name}` is an item id, not {}", shown(&other.to_string()))),
            };
            let item = item_index(id)?;
            let holders: Vec<usize> = match piece {
                Some(p) => vec![p],
                None => (0..state.pieces.len())
                    .filter(|&p| state.pieces[p].alive && state.pieces[p].owner == seat)
                    .collect(),
            };
            holders
                .into_iter()
                .find_map(|p| {
                    let position = state.pieces.get(p)?.items.iter().position(|h| h.item == item)?;
                    Some(held_arg(p as u32, position as u8))
                })
                .ok_or_else(|| format!("`{name}`: no piece holds `{}`", shown(id)))
        }
    }
}
