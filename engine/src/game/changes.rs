//! The primitive changes of a game — a counter, an owner, a resource, a stat, a variable, a
//! piece's place, a piece placed or removed — each clamped to its declared bounds and reported
//! as an event. TOML effects
//! and the Lua `game` API both go through these, so a change means the same from either.

use super::RuleError;
use super::events::{Event, Events};
use super::state::{GameState, NO_SEAT, NO_SPACE};
use crate::rules::Ruleset;

/// Sets a space counter (clamped); returns the value stored.
pub(crate) fn set_counter(
    rules: &Ruleset,
    state: &mut GameState,
    events: &mut Events,
    space: u32,
    counter: u16,
    value: i64,
) -> i64 {
    let from = state.counter(space, counter);
    let to = rules.space_counters[counter as usize].clamp(value);
    *state.counter_mut(space, counter) = to;
    if to != from {
        let owner = state.owner(space);
        events.push_with(|| Event::CounterChanged { space, counter, from, to, owner });
    }
    to
}

/// Gives a space to a seat, or to nobody ([`NO_SEAT`]).
pub(crate) fn set_owner(state: &mut GameState, events: &mut Events, space: u32, to: u8) {
    let from = state.owners[space as usize];
    if from != to {
        state.set_owner(space, to);
        events.push_with(|| Event::OwnerChanged {
            space,
            from: (from != NO_SEAT).then_some(from),
            to: (to != NO_SEAT).then_some(to),
        });
    }
}

/// Sets a seat's resource (clamped).
pub(crate) fn set_resource(
    rules: &Ruleset,
    state: &mut GameState,
    events: &mut Events,
    seat: u8,
    resource: u16,
    value: i64,
) {
    let slot = &mut state.seats[seat as usize].resources[resource as usize];
    let from = *slot;
    let to = rules.resources[resource as usize].clamp(value);
    *slot = to;
    if to != from {
        events.push_with(|| Event::ResourceChanged { seat, resource, from, to });
    }
}

/// Sets a piece's stat (clamped).
pub(crate) fn set_stat(rules: &Ruleset, state: &mut GameState, events: &mut Events, piece: u32, stat: u16, value: i64) {
    let held = &mut state.pieces[piece as usize];
    let owner = (held.owner != NO_SEAT).then_some(held.owner);
    let slot = &mut held.stats[stat as usize];
    let from = *slot;
    let to = rules.stats[stat as usize].clamp(value);
    *slot = to;
    if to != from {
        events.push_with(|| Event::StatChanged { piece, stat, from, to, owner });
    }
}

/// Sets a game variable (clamped).
pub(crate) fn set_var(rules: &Ruleset, state: &mut GameState, events: &mut Events, var: u16, value: i64) {
    let from = state.vars[var as usize];
    let to = rules.vars[var as usize].clamp(value);
    state.vars[var as usize] = to;
    if to != from {
        events.push_with(|| Event::VarChanged { var, from, to });
    }
}

/// Sets a held item's charges (never below 0).
pub(crate) fn set_charges(state: &mut GameState, events: &mut Events, piece: u32, position: u8, value: i64) {
    let slot = &mut state.pieces[piece as usize].items[position as usize].charges;
    let from = *slot;
    let to = value.max(0);
    *slot = to;
    if to != from {
        events.push_with(|| Event::ChargesChanged { piece, position, from, to });
    }
}

/// Gives a piece a new item with the item's starting charges. An item in the same slot is
/// replaced in its position (its charges go with it); otherwise the item is added last.
///
/// Fails, changing nothing, when the piece already holds [`MAX_HELD_ITEMS`] items outside
/// the item's slot.
pub(crate) fn give_item(
    rules: &Ruleset,
    state: &mut GameState,
    events: &mut Events,
    piece: u32,
    item: u16,
) -> Result<(), RuleError> {
    let info = &rules.items[item as usize];
    let held = &mut state.pieces[piece as usize].items;
    let same_slot =
        info.slot.and_then(|slot| held.iter().position(|h| rules.items[h.item as usize].slot == Some(slot)));
    let fresh = super::state::HeldItem { item, charges: info.charges };
    let position = match same_slot {
        Some(position) => {
            held[position] = fresh;
            position
        }
        None if held.len() >= MAX_HELD_ITEMS => {
            return Err(RuleError::new(format!(
                "a piece may hold at most {MAX_HELD_ITEMS} items; this one holds that many already"
            )));
        }
        None => {
            held.push(fresh);
            held.len() - 1
        }
    };
    let position = position as u8;
    events.push_with(|| Event::ItemGiven { piece, position, item, charges: info.charges });
    Ok(())
}

/// The items one piece may hold: held items are named by their position, a byte.
pub const MAX_HELD_ITEMS: usize = 255;

/// The pieces one game may place in all (ids are never reused, so removed pieces count too):
/// far beyond a board game's needs, and short of a loop that places millions and fills memory.
pub const MAX_PIECES: usize = 100_000;

/// Puts a piece on a space, or off the board ([`NO_SPACE`]).
pub(crate) fn move_piece(state: &mut GameState, events: &mut Events, piece: u32, to: u32) {
    let from = state.pieces[piece as usize].space;
    state.pieces[piece as usize].space = to;
    if from != to {
        events.push_with(|| Event::PieceMoved {
            piece,
            from: (from != NO_SPACE).then_some(from),
            to: (to != NO_SPACE).then_some(to),
        });
    }
}

/// Puts a new piece of `kind` on a space for a seat (or for nobody, [`NO_SEAT`]), with the
/// kind's starting stats and items; returns its id. Ids are never reused.
pub(crate) fn place_piece(
    rules: &Ruleset,
    state: &mut GameState,
    events: &mut Events,
    kind: u16,
    owner: u8,
    space: u32,
) -> Result<u32, RuleError> {
    if state.pieces.len() >= MAX_PIECES {
        return Err(RuleError::new(format!("a game may place at most {MAX_PIECES} pieces in all")));
    }
    let info = &rules.piece_kinds[kind as usize];
    let piece = state.pieces.len() as u32;
    state.pieces.push(super::state::Piece {
        kind,
        owner,
        space,
        alive: true,
        stats: info.stats.clone(),
        items: Vec::new(),
    });
    events.push_with(|| Event::PiecePlaced { piece, kind, owner: (owner != NO_SEAT).then_some(owner), space });
    for &item in &info.items {
        give_item(rules, state, events, piece, item)?;
    }
    Ok(piece)
}

/// Takes a piece out of play: off the board, no longer alive (its id stays taken).
pub(crate) fn remove_piece(state: &mut GameState, events: &mut Events, piece: u32) {
    let removed = &mut state.pieces[piece as usize];
    removed.alive = false;
    removed.space = NO_SPACE;
    events.push_with(|| Event::PieceRemoved { piece });
}

/// Shows cards of `seat`'s hand, by position, to the seat `to` or to every seat (`None`): from
/// then on they are in that seat's view. Reports the cards it had not seen, one event per deck;
/// a seat is never shown its own cards.
pub(crate) fn reveal_cards(state: &mut GameState, events: &mut Events, seat: u8, positions: &[usize], to: Option<u8>) {
    if to == Some(seat) {
        return;
    }
    let holder = &mut state.seats[seat as usize];
    let mut shown: Vec<(u16, Vec<u16>)> = Vec::new();
    for &position in positions {
        let Some(&(deck, card)) = holder.hand.get(position) else { continue };
        if holder.show(position, to) {
            match shown.iter_mut().find(|(d, _)| *d == deck) {
                Some((_, cards)) => cards.push(card),
                None => shown.push((deck, vec![card])),
            }
        }
    }
    for (deck, cards) in shown {
        events.push_with(|| Event::CardsRevealed { seat, to, deck, cards });
    }
}

/// Shows every card `seat` holds to `to`, or to every seat (`None`).
pub(crate) fn reveal_hand(state: &mut GameState, events: &mut Events, seat: u8, to: Option<u8>) {
    let positions: Vec<usize> = (0..state.seats[seat as usize].hand.len()).collect();
    reveal_cards(state, events, seat, &positions, to);
}

/// Shows one copy of `card` in `seat`'s hand — the first that `to` (every seat, for `None`) has
/// not seen — to `to`; returns false, changing nothing, when there is no such copy.
pub(crate) fn reveal_card(state: &mut GameState, events: &mut Events, seat: u8, card: u16, to: Option<u8>) -> bool {
    let holder = &state.seats[seat as usize];
    let unseen = |position: usize| match to {
        Some(viewer) => !holder.shown_to(seat, position, viewer),
        None => holder.shown.get(position) != Some(&super::state::EVERY_SEAT),
    };
    let found = (0..holder.hand.len()).find(|&position| holder.hand[position].1 == card && unseen(position));
    match found {
        Some(position) if to != Some(seat) => {
            reveal_cards(state, events, seat, &[position], to);
            true
        }
        _ => false,
    }
}
