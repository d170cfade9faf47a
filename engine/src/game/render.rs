//! Readable renderings of events and states as JSON: names instead of indices, space labels,
//! seats numbered from 1. Used by `meeple run`, scenario tests and the player's log.

use serde_json::{Value as Json, json};

use super::events::Event;
use super::record::to_record;
use super::state::{GameState, NO_SEAT, NO_SPACE, Outcome, SeatStatus, UNKNOWN_CARD};
use crate::rules::Ruleset;

fn seat(s: u8) -> Json {
    json!(s as u64 + 1)
}

/// A card by its id; `null` for a card the view does not know ([`UNKNOWN_CARD`]).
fn card(rules: &Ruleset, card: u16) -> Json {
    rules.card_ids.get(card as usize).map_or(Json::Null, |id| json!(id))
}

/// A terrain by its id.
fn terrain_id(rules: &Ruleset, terrain: u16) -> Json {
    rules.terrain.get(terrain as usize).map_or_else(|| json!(terrain), |t| json!(t.id))
}

fn opt_seat(s: Option<u8>) -> Json {
    s.map_or(Json::Null, seat)
}

fn space(state: &GameState, s: u32) -> Json {
    state.board.get_space(s).map_or_else(|| json!(s), |sp| json!(sp.label))
}

/// An outcome as `{ "result": "win", "seats": [1] }` or `{ "result": "draw", "shares": {...} }`.
pub fn outcome_json(outcome: &Outcome) -> Json {
    match outcome {
        Outcome::Win { seats } => {
            json!({ "result": "win", "seats": seats.iter().map(|s| *s as u64 + 1).collect::<Vec<_>>() })
        }
        Outcome::Draw { shares } => {
            let total: i64 = shares.iter().map(|(_, w)| *w).sum();
            json!({
                "result": "draw",
                "shares": shares.iter().map(|(s, w)| json!({
                    "seat": *s as u64 + 1,
                    "weight": w,
                    "share": if total > 0 { *w as f64 / total as f64 } else { 0.0 },
                })).collect::<Vec<_>>(),
            })
        }
    }
}

/// One event, readable.
pub fn event_json(rules: &Ruleset, state: &GameState, event: &Event) -> Json {
    let name =
        |list: &[crate::rules::CounterInfo], i: u16| list.get(i as usize).map_or_else(String::new, |c| c.id.clone());
    match event {
        Event::GameStarted => json!({ "event": "game_started" }),
        Event::TurnStarted { seat: s, turn, round } => {
            json!({ "event": "turn_started", "seat": seat(*s), "turn": turn, "round": round })
        }
        Event::PhaseStarted { phase } => json!({ "event": "phase_started", "phase": rules.phases[*phase as usize].id }),
        Event::TurnEnded { seat: s } => json!({ "event": "turn_ended", "seat": seat(*s) }),
        Event::Acted { seat: s, action } | Event::Performed { seat: s, action } => {
            let mut record = to_record(rules, state, *s, action);
            super::record::label_held_items(rules, state, &mut record);
            let mut value = serde_json::to_value(record).unwrap_or(Json::Null);
            if let Json::Object(map) = &mut value {
                let name = if matches!(event, Event::Performed { .. }) { "performed" } else { "acted" };
                map.insert("event".into(), json!(name));
            }
            value
        }
        Event::Sealed { seat: s, action, answer, done } => {
            // In a view of another seat's answer, what it is is left out: `null`.
            let answer = answer.map(|answer| {
                let mut record = to_record(rules, state, *s, &answer);
                super::record::label_held_items(rules, state, &mut record);
                serde_json::to_value(record).unwrap_or(Json::Null)
            });
            json!({
                "event": "sealed", "seat": seat(*s), "offer": rules.actions[*action as usize].id,
                "answer": answer.unwrap_or(Json::Null), "done": done,
            })
        }
        Event::Opened { answers } => json!({ "event": "opened", "answers": answers }),
        Event::Rolled { roll, sides, faces, value } => {
            json!({ "event": "rolled", "roll": roll, "sides": sides, "faces": faces, "value": value })
        }
        Event::SecretRolled { seat: s, sides, dice, faces, value } => {
            // In a view that may not see them, the faces are left out: `null`.
            let seen = !faces.is_empty() || *dice == 0;
            json!({
                "event": "secret_rolled", "seat": seat(*s), "sides": sides, "dice": dice,
                "faces": if seen { json!(faces) } else { Json::Null },
                "value": if seen { json!(value) } else { Json::Null },
            })
        }
        Event::ValueRevealed { seat: s, label, value } => {
            json!({ "event": "value_revealed", "seat": seat(*s), "label": label, "value": value })
        }
        Event::Decided { success } => json!({ "event": "decided", "success": success }),
        Event::CounterChanged { space: s, counter, from, to, .. } => json!({
            "event": "counter_changed", "space": space(state, *s), "counter": name(&rules.space_counters, *counter), "from": from, "to": to,
        }),
        Event::OwnerChanged { space: s, from, to } => json!({
            "event": "owner_changed", "space": space(state, *s), "from": opt_seat(*from), "to": opt_seat(*to),
        }),
        Event::TerrainChanged { space: s, from, to } => json!({
            "event": "terrain_changed", "space": space(state, *s),
            "from": terrain_id(rules, *from), "to": terrain_id(rules, *to),
        }),
        Event::PieceOwnerChanged { piece, from, to } => json!({
            "event": "piece_owner_changed", "piece": piece + 1, "from": opt_seat(*from), "to": opt_seat(*to),
        }),
        Event::PieceInsideChanged { piece, from, to } => json!({
            "event": "piece_inside_changed", "piece": piece + 1, "from": from.map(|h| h + 1), "to": to.map(|h| h + 1),
        }),
        Event::ResourceChanged { seat: s, resource, from, to } => json!({
            "event": "resource_changed", "seat": seat(*s), "resource": name(&rules.resources, *resource), "from": from, "to": to,
        }),
        Event::StatChanged { piece, stat, from, to, .. } => json!({
            "event": "stat_changed", "piece": piece + 1, "stat": name(&rules.stats, *stat), "from": from, "to": to,
        }),
        Event::VarChanged { var, from, to } => {
            json!({ "event": "var_changed", "var": name(&rules.vars, *var), "from": from, "to": to })
        }
        Event::PiecePlaced { piece, kind, owner, space: s } => json!({
            "event": "piece_placed", "piece": piece + 1, "kind": rules.piece_kinds[*kind as usize].id, "owner": opt_seat(*owner), "space": space(state, *s),
        }),
        Event::PiecePlacedBetween { piece, kind, owner, space: s, across } => json!({
            "event": "piece_placed_between", "piece": piece + 1, "kind": rules.piece_kinds[*kind as usize].id, "owner": opt_seat(*owner),
            "space": space(state, *s), "across": space(state, *across),
        }),
        Event::PieceMoved { piece, from, to } => json!({
            "event": "piece_moved", "piece": piece + 1,
            "from": from.map_or(Json::Null, |s| space(state, s)), "to": to.map_or(Json::Null, |s| space(state, s)),
        }),
        Event::PieceRemoved { piece } => json!({ "event": "piece_removed", "piece": piece + 1 }),
        Event::ItemGiven { piece, position, item, charges } => json!({
            "event": "item_given", "piece": piece + 1, "position": position + 1,
            "item": rules.items[*item as usize].id, "charges": charges,
        }),
        Event::ItemDropped { piece, position, item } => json!({
            "event": "item_dropped", "piece": piece + 1, "position": position + 1, "item": rules.items[*item as usize].id,
        }),
        Event::ChargesChanged { piece, position, from, to } => json!({
            "event": "charges_changed", "piece": piece + 1, "position": position + 1, "from": from, "to": to,
        }),
        Event::AwaitingChoice { action } => {
            json!({ "event": "awaiting_choice", "action": rules.actions[*action as usize].id })
        }
        Event::Cancelled { action } => json!({ "event": "cancelled", "action": rules.actions[*action as usize].id }),
        Event::Offered { seat: s, action, args } => {
            // The parameters given, by name, as an action record names them.
            let offered = super::Action::rule(*action, args);
            let mut record = super::record::to_record(rules, state, *s, &offered);
            let given = rules.actions[*action as usize].params.iter().skip(args.len()).map(|p| p.name.clone());
            for name in given {
                record.args.remove(&name);
            }
            json!({ "event": "offered", "seat": seat(*s), "action": record.action, "args": record.args })
        }
        Event::Declined { seat: s, action } => {
            json!({ "event": "declined", "seat": seat(*s), "action": rules.actions[*action as usize].id })
        }
        Event::Shuffled { deck } => json!({ "event": "shuffled", "deck": rules.decks[*deck as usize].id }),
        // Cards another seat drew are a number in that seat's view of the event.
        Event::CardsDrawn { seat: s, deck, cards } if cards.contains(&UNKNOWN_CARD) => json!({
            "event": "cards_drawn", "seat": seat(*s), "deck": rules.decks[*deck as usize].id, "count": cards.len(),
        }),
        Event::CardsDrawn { seat: s, deck, cards } => json!({
            "event": "cards_drawn", "seat": seat(*s), "deck": rules.decks[*deck as usize].id,
            "cards": cards.iter().map(|c| card(rules, *c)).collect::<Vec<_>>(),
        }),
        Event::CardDiscarded { seat: s, deck, card: c } => json!({
            "event": "card_discarded", "seat": seat(*s), "deck": rules.decks[*deck as usize].id,
            "card": card(rules, *c),
        }),
        // A card this seat does not know is `null`.
        Event::CardGiven { from, to, deck, card: c, .. } => json!({
            "event": "card_given", "from": seat(*from), "to": seat(*to), "deck": rules.decks[*deck as usize].id,
            "card": card(rules, *c),
        }),
        Event::CardReturned { seat: s, deck, card: c, .. } => json!({
            "event": "card_returned", "seat": seat(*s), "deck": rules.decks[*deck as usize].id,
            "card": card(rules, *c), "to": "bottom of the draw pile",
        }),
        Event::CardAttached { piece, seat: s, deck, card: c } => json!({
            "event": "card_attached", "piece": piece + 1, "seat": seat(*s), "deck": rules.decks[*deck as usize].id,
            "card": card(rules, *c),
        }),
        Event::CardDetached { piece, seat: s, deck, card: c } => json!({
            "event": "card_detached", "piece": piece + 1, "seat": seat(*s), "deck": rules.decks[*deck as usize].id,
            "card": card(rules, *c),
        }),
        Event::CardsRevealed { seat: s, to, deck, cards } => {
            let mut value = json!({
                "event": "cards_revealed", "seat": seat(*s), "to": to.map_or_else(|| json!("all"), seat),
                "deck": rules.decks[*deck as usize].id,
            });
            // Cards shown to another seat are a number in this seat's view of the event.
            value["count"] = json!(cards.len());
            if !cards.contains(&UNKNOWN_CARD) {
                value["cards"] = json!(cards.iter().map(|c| card(rules, *c)).collect::<Vec<_>>());
            }
            value
        }
        Event::MatchEnded { number } => json!({ "event": "match_ended", "match": number }),
        Event::FirstSeatDrawn { seat } => json!({ "event": "first_seat_drawn", "seat": seat + 1 }),
        Event::SeatLeft { seat: s } => json!({ "event": "seat_left", "seat": seat(*s) }),
        Event::SeatEliminated { seat: s } => json!({ "event": "seat_eliminated", "seat": seat(*s) }),
        Event::GameOver { outcome } => {
            let mut value = outcome_json(outcome);
            if let Json::Object(map) = &mut value {
                map.insert("event".into(), json!("game_over"));
            }
            value
        }
        Event::Log { text } => json!({ "event": "log", "text": text }),
    }
}

/// The whole state, readable: turn, seats, spaces with owners and counters, pieces, vars.
pub fn state_json(rules: &Ruleset, state: &GameState) -> Json {
    let seats: Vec<Json> = state
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let resources: serde_json::Map<String, Json> =
                rules.resources.iter().zip(&s.resources).map(|(r, v)| (r.id.clone(), json!(v))).collect();
            json!({
                "seat": i + 1,
                "name": s.name,
                "status": match s.status { SeatStatus::Active => "active", SeatStatus::Left => "left", SeatStatus::Eliminated => "eliminated" },
                "side": rules.data.seats.sides.get(s.side as usize).map_or_else(|| json!(s.side as u64 + 1), |side| json!(side.id)),
                "spaces": state.owned_count(i as u8),
                "resources": resources,
                "hand": s.hand.iter().map(|(_, c)| card(rules, *c)).collect::<Vec<_>>(),
            })
        })
        .collect();
    let spaces: Vec<Json> = (0..state.owners.len() as u32)
        .map(|s| {
            let mut entry = serde_json::Map::new();
            entry.insert("space".into(), space(state, s));
            entry.insert(
                "owner".into(),
                if state.owners[s as usize] == NO_SEAT { Json::Null } else { seat(state.owners[s as usize]) },
            );
            for (c, info) in rules.space_counters.iter().enumerate() {
                entry.insert(info.id.clone(), json!(state.counter(s, c as u16)));
            }
            Json::Object(entry)
        })
        .collect();
    let pieces: Vec<Json> = state
        .pieces
        .iter()
        .enumerate()
        .filter(|(_, p)| p.alive)
        .map(|(i, p)| {
            let stats: serde_json::Map<String, Json> =
                rules.stats.iter().zip(&p.stats).map(|(s, v)| (s.id.clone(), json!(v))).collect();
            let mut piece = json!({
                "piece": i + 1,
                "kind": rules.piece_kinds[p.kind as usize].id,
                "owner": if p.owner == NO_SEAT { Json::Null } else { seat(p.owner) },
                "space": if p.space == NO_SPACE { Json::Null } else { space(state, p.space) },
                "stats": stats,
            });
            // What it holds, in order (an item's position is its place here, from 1).
            if !p.items.is_empty() {
                piece["items"] = p
                    .items
                    .iter()
                    .map(|held| json!({ "item": rules.items[held.item as usize].id, "charges": held.charges }))
                    .collect();
            }
            // The other side of a piece standing between two spaces.
            if p.across != NO_SPACE {
                piece["across"] = space(state, p.across);
            }
            // The holder it is inside: a crate names its wagon.
            if p.inside != super::state::NO_PIECE {
                piece["inside"] = json!(p.inside + 1);
            }
            // Attached cards lie face up, in the order attached.
            if !p.cards.is_empty() {
                piece["cards"] = p.cards.iter().map(|(_, c)| card(rules, *c)).collect();
            }
            piece
        })
        .collect();
    let vars: serde_json::Map<String, Json> =
        rules.vars.iter().zip(&state.vars).map(|(v, x)| (v.id.clone(), json!(x))).collect();
    // Responses offered out of turn and not answered yet: the first one's seat acts next.
    let offers: Vec<Json> = state
        .turn
        .offers
        .iter()
        .map(|offer| {
            let record = super::record::to_record(rules, state, offer.seat, &super::legal::offered_action(offer));
            let given: serde_json::Map<String, Json> = rules.actions[offer.action as usize]
                .params
                .iter()
                .take(offer.args.len())
                .filter_map(|p| record.args.get(&p.name).map(|v| (p.name.clone(), v.clone())))
                .collect();
            json!({ "seat": seat(offer.seat), "action": record.action, "args": given })
        })
        .collect();
    let mut json = json!({
        "turn": state.turn.number,
        "round": state.turn.round,
        "match": state.turn.match_number,
        "seat_to_move": state.turn.seat as u64 + 1,
        "seat_to_act": state.to_act() as u64 + 1,
        "phase": rules.phases.get(state.turn.phase as usize).map(|p| p.id.clone()),
        "outcome": state.outcome.as_ref().map(outcome_json),
        "seats": seats,
        "spaces": spaces,
        "pieces": pieces,
        "vars": vars,
        "hash": state.hash_hex(),
    });
    if !offers.is_empty() {
        json["offers"] = Json::Array(offers);
    }
    // Only games with cards have piles: the size of each draw pile (never its order) and the
    // discard pile, oldest first.
    if !rules.decks.is_empty() {
        let decks: Vec<Json> = rules
            .decks
            .iter()
            .zip(&state.decks)
            .map(|(info, piles)| {
                json!({
                    "deck": info.id,
                    "draw": piles.draw.len(),
                    "discard": piles.discard.iter().map(|c| card(rules, *c)).collect::<Vec<_>>(),
                })
            })
            .collect();
        json["decks"] = Json::Array(decks);
    }
    json
}

/// A seat's view ([`GameState::view_for`]) as `seat` may see it, readable: as [`state_json`]
/// gives a state, with `null` for each card the seat does not know and each number it may not
/// see, `"as"` naming the seat (`null` for a spectator, [`NO_SEAT`]), and no `"hash"` (a
/// digest of the whole game, the unseen part included).
pub fn view_json(rules: &Ruleset, view: &GameState, seat: u8) -> Json {
    use super::view::sees_value;
    let mut json = state_json(rules, view);
    if let Json::Object(map) = &mut json {
        map.remove("hash");
        map.insert("as".into(), if seat == NO_SEAT { Json::Null } else { self::seat(seat) });
    }
    for (holder, entry) in json["seats"].as_array_mut().into_iter().flatten().enumerate() {
        for info in rules.resources.iter().filter(|r| !sees_value(r.hidden, Some(holder as u8), seat)) {
            entry["resources"][&info.id] = Json::Null;
        }
    }
    if rules.space_counters.iter().any(|c| c.hidden) {
        for (space, entry) in json["spaces"].as_array_mut().into_iter().flatten().enumerate() {
            let owner = view.owner(space as u32);
            for info in rules.space_counters.iter().filter(|c| !sees_value(c.hidden, owner, seat)) {
                entry[&info.id] = Json::Null;
            }
        }
    }
    for entry in json["pieces"].as_array_mut().into_iter().flatten() {
        let Some(piece) = entry["piece"].as_u64().and_then(|p| view.pieces.get(p as usize - 1)) else { continue };
        let owner = (piece.owner != NO_SEAT).then_some(piece.owner);
        for info in rules.stats.iter().filter(|s| !sees_value(s.hidden, owner, seat)) {
            entry["stats"][&info.id] = Json::Null;
        }
    }
    json
}
