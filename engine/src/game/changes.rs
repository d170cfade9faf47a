//! The primitive changes of a game — a counter, an owner, a resource, a stat, a variable, a
//! piece's place, a piece placed or removed, a card moved between hands, piles and pieces —
//! each clamped to its declared bounds (a card moved only from where it is) and reported as an
//! event. TOML effects
//! and the Lua `game` API both go through these, so a change means the same from either.

use super::RuleError;
use super::events::{Event, Events};
use super::state::{EVERY_SEAT, GameState, NO_PIECE, NO_SEAT, NO_SPACE};
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

/// Changes a space's terrain in play: what it yields, what entering it costs and what it hides
/// from then on. The board is shared between states until one of them changes it.
pub(crate) fn set_terrain(state: &mut GameState, events: &mut Events, space: u32, to: u16) {
    let from = state.board.space(space).terrain;
    if from != to {
        std::sync::Arc::make_mut(&mut state.board).set_terrain(space, to);
        events.push_with(|| Event::TerrainChanged { space, from, to });
    }
}

/// Gives a piece to a seat, or to nobody ([`NO_SEAT`]); a seat number past the game's seats is
/// nobody too. The pieces inside it that were its owner's change hands with it (an army's
/// units); others inside (a prisoner, another seat's passenger) keep theirs.
pub(crate) fn set_piece_owner(state: &mut GameState, events: &mut Events, piece: u32, to: u8) {
    let to = if (to as usize) < state.seats.len() { to } else { NO_SEAT };
    let Some(held) = state.pieces.get_mut(piece as usize) else { return };
    let from = held.owner;
    if from == to {
        return;
    }
    let followers: Vec<u32> = contents(state, piece).filter(|&p| state.pieces[p as usize].owner == from).collect();
    for changed in std::iter::once(piece).chain(followers) {
        state.pieces[changed as usize].owner = to;
        events.push_with(|| Event::PieceOwnerChanged {
            piece: changed,
            from: (from != NO_SEAT).then_some(from),
            to: (to != NO_SEAT).then_some(to),
        });
    }
}

/// The pieces in play inside `holder`, in id order.
pub(crate) fn contents(state: &GameState, holder: u32) -> impl Iterator<Item = u32> + '_ {
    state
        .pieces
        .iter()
        .enumerate()
        .filter(move |(_, p)| p.alive && p.inside == holder && holder != NO_PIECE)
        .map(|(id, _)| id as u32)
}

/// Why a piece of `kind` may not go inside `holder` now: the holder is not in play, its kind
/// holds nothing or not that kind, it is full, or `kind` holds pieces itself (holders do not
/// nest). `None` when it may. `can_enter(piece, holder)` in the rules language.
pub(crate) fn why_no_room(rules: &Ruleset, state: &GameState, kind: u16, holder: u32) -> Option<String> {
    let Some(h) = state.pieces.get(holder as usize).filter(|p| p.alive) else {
        return Some("the holder is not in the game".to_string());
    };
    let (holder_kind, entering) = (&rules.piece_kinds[h.kind as usize], &rules.piece_kinds[kind as usize]);
    if holder_kind.capacity == 0 {
        return Some(format!("a {} holds no pieces (its kind has no `capacity`)", holder_kind.id));
    }
    if entering.capacity > 0 {
        return Some(format!("a {} holds pieces itself, and holders do not go inside holders", entering.id));
    }
    if entering.on_edge {
        return Some(format!("a {} stands between two spaces and goes inside nothing", entering.id));
    }
    let most_of_kind = match holder_kind.holds.iter().find(|(k, _)| *k == kind) {
        Some(&(_, most)) => Some(most),
        None if holder_kind.holds.is_empty() => None,
        None => {
            let kinds: Vec<&str> =
                holder_kind.holds.iter().map(|&(k, _)| rules.piece_kinds[k as usize].id.as_str()).collect();
            return Some(format!("a {} holds only {}, not a {}", holder_kind.id, kinds.join(", "), entering.id));
        }
    };
    let (mut inside, mut of_kind) = (0u32, 0u32);
    for p in contents(state, holder) {
        inside += 1;
        of_kind += u32::from(state.pieces[p as usize].kind == kind);
    }
    if inside >= holder_kind.capacity {
        return Some(format!("the {} is full: it holds {} at most", holder_kind.id, holder_kind.capacity));
    }
    match most_of_kind {
        Some(most) if of_kind >= most => {
            Some(format!("a {} holds at most {most} of {} at once", holder_kind.id, entering.id))
        }
        _ => None,
    }
}

/// Puts a piece inside `holder`, on the holder's space, or takes it out ([`NO_PIECE`]), leaving
/// it standing where it is. Fails, changing nothing, when the holder has no room for it
/// ([`why_no_room`]).
pub(crate) fn set_inside(
    rules: &Ruleset,
    state: &mut GameState,
    events: &mut Events,
    piece: u32,
    holder: u32,
) -> Result<(), RuleError> {
    let Some(p) = state.pieces.get(piece as usize).filter(|p| p.alive) else {
        return Err(RuleError::new("the piece is not in the game"));
    };
    let (from, kind) = (p.inside, p.kind);
    if from == holder {
        return Ok(());
    }
    if holder == NO_PIECE {
        leave_holder(state, events, piece);
        return Ok(());
    }
    if let Some(refused) = why_no_room(rules, state, kind, holder) {
        return Err(RuleError::new(refused));
    }
    let (space, across) = (state.pieces[holder as usize].space, state.pieces[holder as usize].across);
    relocate(state, events, piece, space, across);
    state.pieces[piece as usize].inside = holder;
    events.push_with(|| Event::PieceInsideChanged {
        piece,
        from: (from != NO_PIECE).then_some(from),
        to: Some(holder),
    });
    Ok(())
}

/// Takes a piece out of the holder it is inside, if any; it stays where it stands (out of a
/// holder between two spaces, on the first of them).
fn leave_holder(state: &mut GameState, events: &mut Events, piece: u32) {
    let left = &mut state.pieces[piece as usize];
    let from = std::mem::replace(&mut left.inside, NO_PIECE);
    if from != NO_PIECE {
        left.across = NO_SPACE;
        events.push_with(|| Event::PieceInsideChanged { piece, from: Some(from), to: None });
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
    if let Some(refused) = why_not_held(rules, state, piece, item) {
        return Err(RuleError::new(refused));
    }
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

/// Takes the item at `position` from `piece`; the items after it move up one position. Fails,
/// changing nothing, when the piece holds nothing there.
pub(crate) fn drop_item(state: &mut GameState, events: &mut Events, piece: u32, position: u8) -> Result<(), RuleError> {
    let held = state.pieces.get_mut(piece as usize).filter(|p| p.alive).map(|p| &mut p.items);
    let Some(held) = held.filter(|held| (position as usize) < held.len()) else {
        return Err(RuleError::new("the piece holds no item there any more"));
    };
    let item = held.remove(position as usize).item;
    events.push_with(|| Event::ItemDropped { piece, position, item });
    Ok(())
}

/// Why `piece` may not be given `item`: its kind is not among the item's `holders`, or it holds
/// its kind's `max_items` already (an item of a slot it fills replaces the one there). `None`
/// when it may. `can_hold(piece, item)` in the rules language.
pub(crate) fn why_not_held(rules: &Ruleset, state: &GameState, piece: u32, item: u16) -> Option<String> {
    let info = rules.items.get(item as usize)?;
    let Some(held) = state.pieces.get(piece as usize).filter(|p| p.alive) else {
        return Some("the piece is not in the game".to_string());
    };
    let kind = rules.piece_kinds.get(held.kind as usize)?;
    if !info.holders.is_empty() && !info.holders.contains(&held.kind) {
        let holders: Vec<&str> = info.holders.iter().map(|&k| rules.piece_kinds[k as usize].id.as_str()).collect();
        return Some(format!("`{}` is held only by {}, not by a {}", info.id, holders.join(", "), kind.id));
    }
    let replaces =
        info.slot.is_some_and(|slot| held.items.iter().any(|h| rules.items[h.item as usize].slot == Some(slot)));
    if !replaces && held.items.len() >= kind.max_items {
        return Some(format!(
            "a {} holds at most {} items (its `max_items`); this one holds that many already",
            kind.id, kind.max_items
        ));
    }
    None
}

/// The pieces one game may place in all (ids are never reused, so removed pieces count too):
/// far beyond a board game's needs, and short of a loop that places millions and fills memory.
pub const MAX_PIECES: usize = 100_000;

/// Puts a piece on a space, or off the board ([`NO_SPACE`]). The pieces inside it go with it,
/// in id order; a piece that was inside a holder leaves it. Fails, changing nothing, for a
/// piece standing between two spaces: those never move.
pub(crate) fn move_piece(state: &mut GameState, events: &mut Events, piece: u32, to: u32) -> Result<(), RuleError> {
    if state.pieces[piece as usize].across != NO_SPACE && state.pieces[piece as usize].inside == NO_PIECE {
        return Err(RuleError::new("a piece standing between two spaces does not move"));
    }
    leave_holder(state, events, piece);
    relocate(state, events, piece, to, NO_SPACE);
    let carried: Vec<u32> = contents(state, piece).collect();
    for inner in carried {
        relocate(state, events, inner, to, NO_SPACE);
    }
    Ok(())
}

/// Puts one piece on a space (and, for one between two spaces, the other side), whatever it
/// holds or is inside.
fn relocate(state: &mut GameState, events: &mut Events, piece: u32, to: u32, across: u32) {
    state.pieces[piece as usize].across = across;
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
    let info = &rules.piece_kinds[kind as usize];
    if info.on_edge {
        return Err(RuleError::new(format!(
            "a {} stands between two spaces: place it with `place_between`, naming both",
            info.id
        )));
    }
    new_piece(rules, state, events, kind, owner, space, NO_SPACE)
}

/// Puts a new piece of a kind `on_edge` between two neighbouring spaces, for a seat or for
/// nobody, with its kind's starting stats and items; returns its id. Fails, placing nothing,
/// when the kind is not `on_edge` or the spaces are not neighbours.
pub(crate) fn place_piece_between(
    rules: &Ruleset,
    state: &mut GameState,
    events: &mut Events,
    kind: u16,
    owner: u8,
    a: u32,
    b: u32,
) -> Result<u32, RuleError> {
    let info = &rules.piece_kinds[kind as usize];
    if !info.on_edge {
        return Err(RuleError::new(format!(
            "a {} stands in a space, not between two: place it with `place`, or make its kind `on_edge`",
            info.id
        )));
    }
    if a == b || state.board.edge_between(a, b).is_none() {
        return Err(RuleError::new(format!(
            "{} and {} are not neighbours: a piece stands between two spaces that are",
            state.board.get_space(a).map_or("that space", |s| s.label.as_str()),
            state.board.get_space(b).map_or("that space", |s| s.label.as_str()),
        )));
    }
    new_piece(rules, state, events, kind, owner, a.min(b), a.max(b))
}

/// A new piece with its kind's starting stats and items, on `space` (and, unless
/// [`NO_SPACE`], between it and `across`), reported placed.
fn new_piece(
    rules: &Ruleset,
    state: &mut GameState,
    events: &mut Events,
    kind: u16,
    owner: u8,
    space: u32,
    across: u32,
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
        cards: Vec::new(),
        inside: NO_PIECE,
        across,
    });
    let owner = (owner != NO_SEAT).then_some(owner);
    if across == NO_SPACE {
        events.push_with(|| Event::PiecePlaced { piece, kind, owner, space });
    } else {
        events.push_with(|| Event::PiecePlacedBetween { piece, kind, owner, space, across });
    }
    for &item in &info.items {
        give_item(rules, state, events, piece, item)?;
    }
    Ok(piece)
}

/// Puts a new piece of `kind` inside `holder` (on its space), for a seat or for nobody; returns
/// its id. Fails, placing nothing, when the holder has no room for it.
pub(crate) fn place_piece_inside(
    rules: &Ruleset,
    state: &mut GameState,
    events: &mut Events,
    kind: u16,
    owner: u8,
    holder: u32,
) -> Result<u32, RuleError> {
    if let Some(refused) = why_no_room(rules, state, kind, holder) {
        return Err(RuleError::new(refused));
    }
    let space = state.pieces[holder as usize].space;
    let piece = place_piece(rules, state, events, kind, owner, space)?;
    set_inside(rules, state, events, piece, holder)?;
    Ok(piece)
}

/// Takes a piece out of play: off the board, no longer alive (its id stays taken). The pieces
/// inside it go with it, after it, in id order.
pub(crate) fn remove_piece(state: &mut GameState, events: &mut Events, piece: u32) {
    let inside: Vec<u32> = contents(state, piece).collect();
    for removed_id in std::iter::once(piece).chain(inside) {
        let removed = &mut state.pieces[removed_id as usize];
        removed.alive = false;
        removed.space = NO_SPACE;
        removed.inside = NO_PIECE;
        removed.across = NO_SPACE;
        events.push_with(|| Event::PieceRemoved { piece: removed_id });
    }
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

/// Takes one copy of `card` out of `seat`'s hand — the last one, so a copy drawn earlier (and
/// perhaps shown) stays — with the seats that had seen it (bit per seat; the holder's own
/// included). An error names the seat and what it was to do with the card.
fn take_from_hand(
    rules: &Ruleset,
    state: &mut GameState,
    seat: u8,
    card: u16,
    doing: &str,
) -> Result<(u16, u64), RuleError> {
    let holder = &mut state.seats[seat as usize];
    let Some(position) = holder.hand.iter().rposition(|(_, c)| *c == card) else {
        let id = rules.card_ids.get(card as usize).map_or("?", String::as_str);
        return Err(RuleError::new(format!("seat {} has no `{id}` in hand to {doing}", seat + 1)));
    };
    let seen = holder.shown.get(position).copied().unwrap_or(0) | seat_bit(seat);
    let (deck, _) = holder.remove_card(position);
    Ok((deck, seen))
}

/// The bit of a seat in a mask of seats ([`SeatState::shown`]); seats beyond 64 have none.
///
/// [`SeatState::shown`]: super::state::SeatState::shown
fn seat_bit(seat: u8) -> u64 {
    if seat < 64 { 1 << seat } else { 0 }
}

/// Puts a card last into `seat`'s hand, known to the seats of `seen` besides its holder.
fn put_in_hand(state: &mut GameState, seat: u8, deck: u16, card: u16, seen: u64) {
    let holder = &mut state.seats[seat as usize];
    holder.hand.push((deck, card));
    let seen = if seen == EVERY_SEAT { seen } else { seen & !seat_bit(seat) };
    if seen != 0 {
        let position = holder.hand.len() - 1;
        holder.shown.resize(position + 1, 0);
        holder.shown[position] = seen;
    }
}

/// Moves one copy of `card` from `seat`'s hand to its deck's discard pile, face up.
pub(crate) fn discard_card(
    rules: &Ruleset,
    state: &mut GameState,
    events: &mut Events,
    seat: u8,
    card: u16,
) -> Result<(), RuleError> {
    let (deck, _) = take_from_hand(rules, state, seat, card, "discard")?;
    state.decks[deck as usize].discard.push(card);
    events.push_with(|| Event::CardDiscarded { seat, deck, card });
    Ok(())
}

/// Moves one copy of `card` from `from`'s hand to `to`'s. Both seats know it afterwards, and so
/// does every seat that had seen it in `from`'s hand.
pub(crate) fn give_card(
    rules: &Ruleset,
    state: &mut GameState,
    events: &mut Events,
    from: u8,
    to: u8,
    card: u16,
) -> Result<(), RuleError> {
    let (deck, seen) = take_from_hand(rules, state, from, card, "give")?;
    put_in_hand(state, to, deck, card, seen);
    events.push_with(|| Event::CardGiven { from, to, deck, card, seen });
    Ok(())
}

/// Moves one copy of `card` from `seat`'s hand to the bottom of its deck's draw pile (the
/// pile's top is its end, so the bottom is its start).
pub(crate) fn return_card(
    rules: &Ruleset,
    state: &mut GameState,
    events: &mut Events,
    seat: u8,
    card: u16,
) -> Result<(), RuleError> {
    let (deck, seen) = take_from_hand(rules, state, seat, card, "return")?;
    state.decks[deck as usize].draw.insert(0, card);
    events.push_with(|| Event::CardReturned { seat, deck, card, seen });
    Ok(())
}

/// Moves one copy of `card` from `seat`'s hand onto a piece in play, face up, after the cards
/// it holds already.
pub(crate) fn attach_card(
    rules: &Ruleset,
    state: &mut GameState,
    events: &mut Events,
    piece: u32,
    card: u16,
    seat: u8,
) -> Result<(), RuleError> {
    if !state.pieces.get(piece as usize).is_some_and(|p| p.alive) {
        return Err(RuleError::new(format!("piece {} is not in play: no card can be attached to it", piece + 1)));
    }
    if state.pieces[piece as usize].cards.len() >= MAX_ATTACHED_CARDS {
        return Err(RuleError::new(format!(
            "a piece may hold at most {MAX_ATTACHED_CARDS} attached cards; this one holds that many already"
        )));
    }
    let (deck, _) = take_from_hand(rules, state, seat, card, "attach")?;
    state.pieces[piece as usize].cards.push((deck, card));
    events.push_with(|| Event::CardAttached { piece, seat, deck, card });
    Ok(())
}

/// The cards one piece may hold attached: far beyond a game's needs.
pub const MAX_ATTACHED_CARDS: usize = 255;

/// Moves one copy of `card` attached to a piece (the last attached) into `seat`'s hand. It lay
/// face up, so every seat knows it is there.
pub(crate) fn detach_card(
    rules: &Ruleset,
    state: &mut GameState,
    events: &mut Events,
    piece: u32,
    card: u16,
    seat: u8,
) -> Result<(), RuleError> {
    let held = state.pieces.get_mut(piece as usize).map(|p| &mut p.cards);
    let Some(position) = held.as_ref().and_then(|cards| cards.iter().rposition(|(_, c)| *c == card)) else {
        let id = rules.card_ids.get(card as usize).map_or("?", String::as_str);
        return Err(RuleError::new(format!("piece {} holds no `{id}` to detach", piece + 1)));
    };
    let (deck, _) = state.pieces[piece as usize].cards.remove(position);
    put_in_hand(state, seat, deck, card, EVERY_SEAT);
    events.push_with(|| Event::CardDetached { piece, seat, deck, card });
    Ok(())
}

/// Offers `seat` the response action `action` out of turn, with its first parameters: queued
/// behind the offers already waiting (see `TurnState::offers`). A seat no longer playing is
/// offered nothing. The rules' `offer(…)` and the Lua `game.offer` both come here.
pub(crate) fn offer(state: &mut GameState, events: &mut Events, seat: u8, action: u16, args: Vec<i64>) {
    if state.seats.get(seat as usize).is_none_or(|s| s.status != super::SeatStatus::Active) {
        return;
    }
    let shown = args.clone();
    events.push_with(|| Event::Offered { seat, action, args: shown });
    state.turn.offers.push(super::state::Offer { seat, action, args });
}
