//! What each seat may see: a seat's view of the game state ([`GameState::view_for`]) and of
//! each event ([`Event::seen_by`]), and how a computer player fills in what its view does not
//! know ([`fill_unknown_cards`]).
//!
//! Who may see what:
//! - a card in a hand: its holder, every seat when its deck is not `hidden`, and the seats it
//!   was shown to (`reveal_hand`, `reveal_card`); how many cards each hand holds, everyone;
//! - a draw pile: nobody knows its order or its cards, everyone its size; a discard pile:
//!   everyone; a card attached to a piece (face up on the table): everyone;
//! - a card given from one hand to another: both holders, and the seats that knew it in the
//!   giver's hand; a card returned to a draw pile: the seats that knew it in the hand;
//! - a number declared `hidden = true`: a resource its seat, a stat the piece's owner, a space
//!   counter the space's owner; every other number, and every variable, everyone;
//! - a sealed answer (`sealed = true` responses) until it is opened: its seat; the others see
//!   that it answered, and in their view its offer still waits;
//! - the game's random stream (the coming dice and shuffles): nobody;
//! - everything else — the board, owners, pieces, the turn, the actions taken, dice rolled, the
//!   log, what Lua hooks keep (`game.put`) — everyone.
//!
//! A view is a [`GameState`] the rules can read: a card it does not know is [`UNKNOWN_CARD`] (no
//! card of the mod: `in_hand` does not count it, `hand_size` does), a number it may not see reads
//! as its starting value, and its random stream is a fixed stream unrelated to the game's.
//! [`NO_SEAT`] views the game as a spectator: it sees what every seat sees.

use super::events::Event;
use super::state::{GameState, NO_SEAT, UNKNOWN_CARD};
use crate::rng::GameRng;
use crate::rules::Ruleset;

/// Whether `viewer` may see a number whose declaration says `hidden` and which belongs to
/// `owner` (a resource's seat, a stat's piece owner, a space counter's space owner).
pub fn sees_value(hidden: bool, owner: Option<u8>, viewer: u8) -> bool {
    !hidden || (viewer != NO_SEAT && owner == Some(viewer))
}

/// Whether the mod has anything some seat may not see: decks (their draw piles at least), a
/// number declared `hidden`, or sealed responses. When it has not, every seat's view is the game itself but for the
/// random stream, and computer players decide from the game.
pub fn hides_anything(rules: &Ruleset) -> bool {
    !rules.decks.is_empty()
        || rules.resources.iter().any(|r| r.hidden)
        || rules.stats.iter().any(|s| s.hidden)
        || rules.space_counters.iter().any(|c| c.hidden)
        || rules.actions.iter().any(|a| a.sealed)
}

impl GameState {
    /// The game as `seat` may see it ([`NO_SEAT`]: as every seat may): the cards it does not
    /// know are [`UNKNOWN_CARD`] (hand sizes and pile sizes kept), the hidden numbers of other
    /// seats read as their starting values, and the random stream is not the game's.
    pub fn view_for(&self, rules: &Ruleset, seat: u8) -> GameState {
        let mut view = self.clone();
        // The game's stream holds every coming die and shuffle; a scenario's forced numbers too.
        view.rng = GameRng::from_seed(0);
        view.forced_faces.clear();
        view.forced_random.clear();
        for (holder, held) in view.seats.iter_mut().enumerate() {
            let holder = holder as u8;
            for position in 0..held.hand.len() {
                let (deck, _) = held.hand[position];
                let open = rules.decks.get(deck as usize).is_some_and(|d| !d.hidden);
                if !open && !held.shown_to(holder, position, seat) {
                    held.hand[position].1 = UNKNOWN_CARD;
                }
            }
            for (info, value) in rules.resources.iter().zip(held.resources.iter_mut()) {
                if !sees_value(info.hidden, Some(holder), seat) {
                    *value = info.initial;
                }
            }
        }
        for piles in &mut view.decks {
            piles.draw.fill(UNKNOWN_CARD);
        }
        for piece in &mut view.pieces {
            let owner = (piece.owner != NO_SEAT).then_some(piece.owner);
            let kind = rules.piece_kinds.get(piece.kind as usize);
            for (stat, (info, value)) in rules.stats.iter().zip(piece.stats.iter_mut()).enumerate() {
                if !sees_value(info.hidden, owner, seat) {
                    *value = kind.and_then(|k| k.stats.get(stat)).copied().unwrap_or(info.initial);
                }
            }
        }
        if rules.space_counters.iter().any(|c| c.hidden) {
            for space in 0..view.owners.len() as u32 {
                let owner = view.owner(space);
                for (counter, info) in rules.space_counters.iter().enumerate() {
                    if !sees_value(info.hidden, owner, seat) {
                        *view.counter_mut(space, counter as u16) = info.initial;
                    }
                }
            }
        }
        // Another seat's sealed answers are its own: in this view its offer still waits.
        let mut own = Vec::new();
        for entry in std::mem::take(&mut view.turn.sealed) {
            if entry.offer.seat == seat {
                own.push(entry);
            } else if entry.done {
                view.turn.offers.push(entry.offer);
            }
        }
        view.turn.sealed = own;
        view
    }

    /// Whether the state holds cards it does not know (it is a view, not a game).
    pub fn has_unknown_cards(&self) -> bool {
        self.seats.iter().any(|s| s.hand.iter().any(|(_, card)| *card == UNKNOWN_CARD))
            || self.decks.iter().any(|d| d.draw.contains(&UNKNOWN_CARD))
    }
}

/// Fills every card a view does not know with a card drawn from `rng` among the cards whose
/// place the view does not know — each deck's cards less those it sees in hands and discard
/// piles — each arrangement as likely: a guess at the game that is consistent with all the
/// view knows. The hands are filled seat by seat, then the draw piles, so the same view and
/// stream give the same guess.
pub fn fill_unknown_cards(rules: &Ruleset, view: &mut GameState, rng: &mut GameRng) {
    for (deck, info) in rules.decks.iter().enumerate() {
        let deck = deck as u16;
        let Some(piles) = view.decks.get(deck as usize) else { continue };
        let mut left = vec![0u32; rules.card_ids.len()];
        for &card in &info.cards {
            left[card as usize] += 1;
        }
        let held = view.seats.iter().flat_map(|s| s.hand.iter().filter(|(d, _)| *d == deck).map(|(_, card)| card));
        let attached =
            view.pieces.iter().flat_map(|p| p.cards.iter().filter(|(d, _)| *d == deck).map(|(_, card)| card));
        for &card in piles.discard.iter().chain(&piles.draw).chain(held).chain(attached) {
            if let Some(count) = left.get_mut(card as usize) {
                *count = count.saturating_sub(1);
            }
        }
        let mut unplaced: Vec<u16> = left
            .iter()
            .enumerate()
            .flat_map(|(card, &count)| std::iter::repeat_n(card as u16, count as usize))
            .collect();
        if unplaced.is_empty() {
            continue;
        }
        rng.shuffle(&mut unplaced);
        let mut next = unplaced.into_iter();
        let slots = view
            .seats
            .iter_mut()
            .flat_map(|s| s.hand.iter_mut().filter(|(d, _)| *d == deck).map(|(_, card)| card))
            .chain(view.decks[deck as usize].draw.iter_mut());
        for slot in slots {
            if *slot == UNKNOWN_CARD
                && let Some(card) = next.next()
            {
                *slot = card;
            }
        }
    }
}

impl Event {
    /// What `seat` may see of this event ([`NO_SEAT`]: what every seat may see): the event
    /// itself, the event with the cards it does not know as [`UNKNOWN_CARD`] (their number
    /// kept), or nothing, when the whole event is a number it may not see.
    pub fn seen_by(&self, rules: &Ruleset, seat: u8) -> Option<Event> {
        let unknown = |cards: &[u16]| vec![UNKNOWN_CARD; cards.len()];
        match self {
            // The drawer knows its cards (and so does everyone, from a deck whose hands are
            // open); the others, how many.
            Event::CardsDrawn { seat: drawer, deck, cards } => {
                let open = rules.decks.get(*deck as usize).is_some_and(|d| !d.hidden);
                Some(if open || *drawer == seat {
                    self.clone()
                } else {
                    Event::CardsDrawn { seat: *drawer, deck: *deck, cards: unknown(cards) }
                })
            }
            // Known to both hands and to the seats that knew it in the giver's; the others see
            // that a card changed hands.
            Event::CardGiven { from, to, deck, seen, .. } => {
                let known = knows_card(rules, *deck, *seen, seat) || seat == *from || seat == *to;
                Some(if known {
                    self.clone()
                } else {
                    Event::CardGiven { from: *from, to: *to, deck: *deck, card: UNKNOWN_CARD, seen: *seen }
                })
            }
            // Known to the seats that knew it in the hand; the others see a card go back.
            Event::CardReturned { seat: holder, deck, seen, .. } => {
                let known = knows_card(rules, *deck, *seen, seat) || seat == *holder;
                Some(if known {
                    self.clone()
                } else {
                    Event::CardReturned { seat: *holder, deck: *deck, card: UNKNOWN_CARD, seen: *seen }
                })
            }
            // Shown to its holder, the seat it was shown to, or all; the others see that some
            // cards were shown, and how many.
            Event::CardsRevealed { seat: holder, to, deck, cards } => {
                Some(if *holder == seat || to.is_none_or(|to| to == seat) {
                    self.clone()
                } else {
                    Event::CardsRevealed { seat: *holder, to: *to, deck: *deck, cards: unknown(cards) }
                })
            }
            // Dice under a cup: the faces are the roller's; the others see how many were rolled.
            Event::SecretRolled { seat: roller, sides, dice, .. } => Some(if *roller == seat {
                self.clone()
            } else {
                Event::SecretRolled { seat: *roller, sides: *sides, dice: *dice, faces: Vec::new(), value: 0 }
            }),
            // An action is everyone's, but a card it names from a hidden hand is the actor's: the
            // others learn what became of it from the events that move it (a discard is public,
            // a card given is not).
            Event::Acted { seat: actor, action } if *actor != seat => {
                Some(Event::Acted { seat: *actor, action: cards_hidden(rules, action) })
            }
            Event::Acted { .. } => Some(self.clone()),
            // An action the rules performed, on the turn of `seat`: the same.
            Event::Performed { seat: on_turn, action } if *on_turn != seat => {
                Some(Event::Performed { seat: *on_turn, action: cards_hidden(rules, action) })
            }
            Event::Performed { .. } => Some(self.clone()),
            // A sealed answer is its seat's: the others see that it answered.
            Event::Sealed { seat: answerer, action, done, .. } if *answerer != seat => {
                done.then_some(Event::Sealed { seat: *answerer, action: *action, answer: None, done: true })
            }
            Event::Sealed { .. } | Event::Opened { .. } => Some(self.clone()),
            // A hidden number's change: its owner's alone.
            Event::ResourceChanged { seat: holder, resource, .. } => {
                let hidden = rules.resources.get(*resource as usize).is_some_and(|r| r.hidden);
                sees_value(hidden, Some(*holder), seat).then(|| self.clone())
            }
            Event::StatChanged { stat, owner, .. } => {
                let hidden = rules.stats.get(*stat as usize).is_some_and(|s| s.hidden);
                sees_value(hidden, *owner, seat).then(|| self.clone())
            }
            Event::CounterChanged { counter, owner, .. } => {
                let hidden = rules.space_counters.get(*counter as usize).is_some_and(|c| c.hidden);
                sees_value(hidden, *owner, seat).then(|| self.clone())
            }
            // Everyone's: a discarded or attached card lies face up (and a detached one was seen
            // going into the hand); variables are the game's, not a seat's
            // (`hidden` on one only keeps it out of the window); dice are rolled in the open,
            // and an action names no card; a log line is written for all to read.
            Event::CardDiscarded { .. }
            | Event::CardAttached { .. }
            | Event::CardDetached { .. }
            | Event::VarChanged { .. }
            | Event::Rolled { .. }
            | Event::ValueRevealed { .. }
            | Event::Log { .. } => Some(self.clone()),
            // Everyone's: the flow of the game, the board and the pieces, the piles' shuffling
            // (not their order), offers out of turn and their answers.
            Event::GameStarted
            | Event::TurnStarted { .. }
            | Event::PhaseStarted { .. }
            | Event::TurnEnded { .. }
            | Event::Decided { .. }
            | Event::OwnerChanged { .. }
            | Event::TerrainChanged { .. }
            | Event::PiecePlaced { .. }
            | Event::PiecePlacedBetween { .. }
            | Event::PieceOwnerChanged { .. }
            | Event::PieceInsideChanged { .. }
            | Event::PieceMoved { .. }
            | Event::PieceRemoved { .. }
            | Event::ItemGiven { .. }
            | Event::ItemDropped { .. }
            | Event::ChargesChanged { .. }
            | Event::AwaitingChoice { .. }
            | Event::Cancelled { .. }
            | Event::Offered { .. }
            | Event::Declined { .. }
            | Event::Shuffled { .. }
            | Event::MatchEnded { .. }
            | Event::FirstSeatDrawn { .. }
            | Event::SeatLeft { .. }
            | Event::SeatEliminated { .. }
            | Event::GameOver { .. } => Some(self.clone()),
        }
    }
}

/// Whether `viewer` knows a card that left a hand, from its deck (open hands are everyone's)
/// and the seats that had seen it there (`seen`, a mask as [`super::state::SeatState::shown`]).
fn knows_card(rules: &Ruleset, deck: u16, seen: u64, viewer: u8) -> bool {
    let open = rules.decks.get(deck as usize).is_some_and(|d| !d.hidden);
    open || seen == super::state::EVERY_SEAT || (viewer < 64 && seen & (1 << viewer) != 0)
}

/// An action as the seats other than its actor see it: a card it names from a hidden deck is
/// unknown to them.
fn cards_hidden(rules: &Ruleset, action: &crate::game::Action) -> crate::game::Action {
    let crate::game::ActionKind::Rule(index) = action.kind else { return *action };
    let mut shown = *action;
    let params = rules.actions.get(index as usize).map_or(&[][..], |rule| rule.params.as_slice());
    for (arg, param) in shown.args.iter_mut().zip(params) {
        let public =
            |card: i64| rules.decks.iter().any(|deck| !deck.hidden && deck.cards.iter().any(|&c| i64::from(c) == card));
        if param.kind == crate::defs::ParamKind::Card && *arg != super::action::NOT_CHOSEN && !public(*arg) {
            *arg = i64::from(UNKNOWN_CARD);
        }
    }
    shown
}
