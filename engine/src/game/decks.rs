//! Deck operations: drawing into hands, with reshuffling of the discard pile when a deck allows
//! it, and simply running out when it does not.

use super::WriteCx;
use super::events::Event;

/// Draws up to `count` cards of `deck` into `seat`'s hand; returns the cards drawn (fewer when
/// the deck runs out).
pub(crate) fn draw(cx: &mut WriteCx, deck: u16, seat: u8, count: usize) -> Vec<u16> {
    let info = &cx.rules.decks[deck as usize];
    let mut drawn = Vec::with_capacity(count.min(64));
    for _ in 0..count {
        if cx.state.decks[deck as usize].draw.is_empty() {
            if !info.reshuffle || cx.state.decks[deck as usize].discard.is_empty() {
                break;
            }
            let state = &mut *cx.state;
            let piles = &mut state.decks[deck as usize];
            piles.draw.append(&mut piles.discard);
            state.rng.shuffle(&mut piles.draw);
            cx.events.push_with(|| Event::Shuffled { deck });
        }
        let Some(card) = cx.state.decks[deck as usize].draw.pop() else { break };
        cx.state.seats[seat as usize].hand.push((deck, card));
        drawn.push(card);
    }
    drawn
}

/// Shuffles every deck that asks to be shuffled at the start of a game.
pub(crate) fn shuffle_new_decks(cx: &mut WriteCx) {
    let rules = cx.rules;
    for (index, info) in rules.decks.iter().enumerate() {
        if info.shuffle {
            let state = &mut *cx.state;
            state.rng.shuffle(&mut state.decks[index].draw);
        }
    }
}
