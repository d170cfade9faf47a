//! What happened: the events an action or a turn change produces, for logs, the player's
//! animations, scenario tests and `meeple run`.

use serde::{Deserialize, Serialize};

use super::action::Action;
use super::state::Outcome;

/// One thing that happened. Ids are indices into the ruleset and board; [`crate::game::Engine`]
/// renders events as readable JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "event")]
pub enum Event {
    GameStarted,
    TurnStarted {
        seat: u8,
        turn: u32,
        round: u32,
    },
    PhaseStarted {
        phase: u16,
    },
    TurnEnded {
        seat: u8,
    },
    /// A seat took an action.
    Acted {
        seat: u8,
        action: Action,
    },
    /// The rules performed an automatic action (`perform`) on the turn of `seat`, choosing its
    /// parameters by its score.
    Performed {
        seat: u8,
        action: Action,
    },
    /// A seat answered a sealed offer (`sealed = true`): its answer is kept unopened. The
    /// others see that it answered, not what (`answer` is `None` in their view), nor whether it
    /// passed; of a repeated offer they see only the closing answer (`done`), so not how many
    /// answers came before it.
    Sealed {
        seat: u8,
        action: u16,
        answer: Option<Action>,
        done: bool,
    },
    /// No sealed offer waits any more: the sealed answers, this many, are opened; each is then
    /// acted (`Acted`) in the order the offers were made.
    Opened {
        answers: u32,
    },
    /// Dice were rolled; `roll` names the action's roll when it is one.
    Rolled {
        roll: Option<String>,
        sides: u32,
        faces: Vec<u32>,
        value: i64,
    },
    /// Dice rolled in secret (`secret(…)`): the seat that rolled them sees the faces; the others
    /// see how many dice were rolled (`faces` empty, `value` 0, in their view).
    SecretRolled {
        seat: u8,
        sides: u32,
        dice: u32,
        faces: Vec<u32>,
        value: i64,
    },
    /// A rule showed every seat a value (`reveal_value("label", x)`).
    ValueRevealed {
        seat: u8,
        label: String,
        value: i64,
    },
    /// The action's `success` condition was decided.
    Decided {
        success: bool,
    },
    CounterChanged {
        space: u32,
        counter: u16,
        from: i64,
        to: i64,
        /// Who owned the space when it changed: the one seat that sees the change of a
        /// `hidden` counter ([`Event::seen_by`]).
        owner: Option<u8>,
    },
    OwnerChanged {
        space: u32,
        from: Option<u8>,
        to: Option<u8>,
    },
    /// A space's terrain changed in play (`space.terrain = …`): terrain ids.
    TerrainChanged {
        space: u32,
        from: u16,
        to: u16,
    },
    ResourceChanged {
        seat: u8,
        resource: u16,
        from: i64,
        to: i64,
    },
    StatChanged {
        piece: u32,
        stat: u16,
        from: i64,
        to: i64,
        /// Who owned the piece when it changed: the one seat that sees the change of a `hidden`
        /// stat ([`Event::seen_by`]).
        owner: Option<u8>,
    },
    VarChanged {
        var: u16,
        from: i64,
        to: i64,
    },
    PiecePlaced {
        piece: u32,
        kind: u16,
        owner: Option<u8>,
        space: u32,
    },
    /// A piece was put between two neighbouring spaces (`place_between`): `space` has the
    /// lower id.
    PiecePlacedBetween {
        piece: u32,
        kind: u16,
        owner: Option<u8>,
        space: u32,
        across: u32,
    },
    /// A piece changed hands (`piece.owner = …`, `game.set_piece_owner`): to a seat, or to
    /// nobody (`None`).
    PieceOwnerChanged {
        piece: u32,
        from: Option<u8>,
        to: Option<u8>,
    },
    /// A piece went inside a holder (`to`), came out of one (`from`), or both.
    PieceInsideChanged {
        piece: u32,
        from: Option<u32>,
        to: Option<u32>,
    },
    PieceMoved {
        piece: u32,
        from: Option<u32>,
        to: Option<u32>,
    },
    PieceRemoved {
        piece: u32,
    },
    /// A piece received an item at a position among its items (replacing what was there).
    ItemGiven {
        piece: u32,
        position: u8,
        item: u16,
        charges: i64,
    },
    /// A piece's item was taken from it (`drop`); its later items moved up one position.
    ItemDropped {
        piece: u32,
        position: u8,
        item: u16,
    },
    /// A held item's charges changed.
    ChargesChanged {
        piece: u32,
        position: u8,
        from: i64,
        to: i64,
    },
    /// An action's dice were rolled; its `after_roll` choices are awaited.
    AwaitingChoice {
        action: u16,
    },
    /// A rolled action was cancelled.
    Cancelled {
        action: u16,
    },
    /// A seat was offered a response out of turn, with the parameters the offer gives.
    Offered {
        seat: u8,
        action: u16,
        args: Vec<i64>,
    },
    /// A seat passed on the response it was offered.
    Declined {
        seat: u8,
        action: u16,
    },
    Shuffled {
        deck: u16,
    },
    CardsDrawn {
        seat: u8,
        deck: u16,
        cards: Vec<u16>,
    },
    CardDiscarded {
        seat: u8,
        deck: u16,
        card: u16,
    },
    /// A card went from one seat's hand to another's (`give_card`). `seen`: the seats that knew
    /// the card in `from`'s hand (bit per seat, every bit when shown to all), who see which
    /// card it was; the holders always do.
    CardGiven {
        from: u8,
        to: u8,
        deck: u16,
        card: u16,
        #[serde(skip)]
        seen: u64,
    },
    /// A card went from a seat's hand to the bottom of its deck's draw pile (`return_card`);
    /// `seen` as for [`Event::CardGiven`].
    CardReturned {
        seat: u8,
        deck: u16,
        card: u16,
        #[serde(skip)]
        seen: u64,
    },
    /// A card went from a seat's hand onto a piece, face up (`attach`).
    CardAttached {
        piece: u32,
        seat: u8,
        deck: u16,
        card: u16,
    },
    /// A card attached to a piece went into a seat's hand (`detach`).
    CardDetached {
        piece: u32,
        seat: u8,
        deck: u16,
        card: u16,
    },
    /// Cards in a seat's hand were shown to one seat (`to`), or to every seat (`None`). Only
    /// those that seat had not seen yet are listed.
    CardsRevealed {
        seat: u8,
        to: Option<u8>,
        deck: u16,
        cards: Vec<u16>,
    },
    MatchEnded {
        number: u32,
    },
    /// The seat that moves first in the match to come was drawn (`first = "random_each_match"`).
    FirstSeatDrawn {
        seat: u8,
    },
    SeatLeft {
        seat: u8,
    },
    SeatEliminated {
        seat: u8,
    },
    GameOver {
        outcome: Outcome,
    },
    Log {
        text: String,
    },
}

/// Where events go: recorded for players and tests, dropped in fast simulations.
#[derive(Clone, Debug, Default)]
pub struct Events {
    enabled: bool,
    list: Vec<Event>,
}

impl Events {
    /// A sink that records.
    pub fn recording() -> Self {
        Self { enabled: true, list: Vec::new() }
    }

    /// A sink that drops everything (simulations, AI search).
    pub fn discard() -> Self {
        Self { enabled: false, list: Vec::new() }
    }

    #[inline]
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// Records an event built only when recording is on.
    #[inline]
    pub fn push_with(&mut self, make: impl FnOnce() -> Event) {
        if self.enabled {
            self.list.push(make());
        }
    }

    pub fn list(&self) -> &[Event] {
        &self.list
    }

    pub fn take(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.list)
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Drops events recorded after position `len` (used when an action is rolled back).
    pub fn truncate(&mut self, len: usize) {
        self.list.truncate(len);
    }
}
