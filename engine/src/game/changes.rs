//! The primitive changes of a game — a counter, an owner, a resource, a stat, a variable, a
//! piece's place — each clamped to its declared bounds and reported as an event. TOML effects
//! and the Lua `game` API both go through these, so a change means the same from either.

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
        events.push_with(|| Event::CounterChanged { space, counter, from, to });
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
    let slot = &mut state.pieces[piece as usize].stats[stat as usize];
    let from = *slot;
    let to = rules.stats[stat as usize].clamp(value);
    *slot = to;
    if to != from {
        events.push_with(|| Event::StatChanged { piece, stat, from, to });
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
