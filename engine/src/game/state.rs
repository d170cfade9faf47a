//! The game state: plain data that a save file holds and a hash covers. It owns the game's
//! random stream; nothing else in a game draws random numbers.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::board::Board;
use crate::rng::GameRng;

/// "No seat" in compact seat fields (space owners, piece owners).
pub const NO_SEAT: u8 = u8::MAX;
/// "Off the board" in piece positions.
pub const NO_SPACE: u32 = u32::MAX;
/// "Inside nothing" in [`Piece::inside`]: the piece stands on its own.
pub const NO_PIECE: u32 = u32::MAX;
/// A card a seat's view does not know (another seat's card in hand, a card in a draw pile): it
/// is no card of the mod, so `in_hand` never counts it, while `hand_size` does. Only views
/// ([`GameState::view_for`]) hold it; a game never does.
pub const UNKNOWN_CARD: u16 = u16::MAX;
/// Every seat, in the masks of who has seen a card ([`SeatState::shown`]).
pub const EVERY_SEAT: u64 = u64::MAX;

/// Whether a seat is still playing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatStatus {
    /// Takes turns.
    Active,
    /// Left the game (surrendered, disconnected): keeps its spaces and pieces, takes no turns,
    /// still defends. Drawn grey.
    Left,
    /// Out of the game.
    Eliminated,
}

/// One seat's state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatState {
    pub name: String,
    /// The person playing this seat, when one person plays several seats (characters).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    pub status: SeatStatus,
    /// The side (team) the seat plays on; its own index when the mod has no sides.
    pub side: u8,
    /// Resource values by the ruleset's resource index.
    pub resources: Vec<i64>,
    /// Cards in hand: (deck index, card index), in the order drawn.
    pub hand: Vec<(u16, u16)>,
    /// Who besides this seat has seen each card in hand, by position: bit `s` for seat `s`,
    /// [`EVERY_SEAT`] when it was shown to all. Shorter than the hand when the last cards were
    /// shown to nobody, and empty (and left out of saves) until a card is revealed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shown: Vec<u64>,
}

impl SeatState {
    /// Whether `viewer` knows the card at `position` in this seat's hand: its holder
    /// (`holder`, this seat's number) always does; another seat once the card was shown to it.
    pub fn shown_to(&self, holder: u8, position: usize, viewer: u8) -> bool {
        viewer == holder || self.shown.get(position).is_some_and(|mask| seat_in(*mask, viewer))
    }

    /// Shows the card at `position` to `viewer`, or to every seat (`None`); returns whether
    /// that seat (or some seat) had not seen it yet.
    pub fn show(&mut self, position: usize, viewer: Option<u8>) -> bool {
        if position >= self.hand.len() {
            return false;
        }
        if self.shown.len() <= position {
            self.shown.resize(position + 1, 0);
        }
        let mask = &mut self.shown[position];
        let before = *mask;
        *mask = match viewer {
            None => EVERY_SEAT,
            Some(seat) if seat < 64 => before | (1 << seat),
            // Beyond the mask's 64 seats a card can only be shown to all.
            Some(_) => EVERY_SEAT,
        };
        *mask != before
    }

    /// Takes the card at `position` out of the hand, with the record of who saw it.
    pub fn remove_card(&mut self, position: usize) -> (u16, u16) {
        if position < self.shown.len() {
            self.shown.remove(position);
        }
        self.trim_shown();
        self.hand.remove(position)
    }

    /// Keeps the cards for which `keep` holds, with the records of who saw them.
    pub fn retain_cards(&mut self, mut keep: impl FnMut(&(u16, u16)) -> bool) {
        let mut position = 0;
        while position < self.hand.len() {
            if keep(&self.hand[position]) {
                position += 1;
            } else {
                self.remove_card(position);
            }
        }
    }

    /// Drops the trailing "seen by nobody" entries, so a hand nobody was shown saves as before.
    fn trim_shown(&mut self) {
        while self.shown.last() == Some(&0) {
            self.shown.pop();
        }
    }
}

/// Whether a mask of seats ([`SeatState::shown`]) holds `seat`.
fn seat_in(mask: u64, seat: u8) -> bool {
    mask == EVERY_SEAT || (seat < 64 && mask & (1 << seat) != 0)
}

/// A piece in play (or removed: pieces keep their ids for the whole game).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Piece {
    pub kind: u16,
    /// Owning seat or [`NO_SEAT`].
    pub owner: u8,
    /// Space or [`NO_SPACE`].
    pub space: u32,
    pub alive: bool,
    /// Stat values by the ruleset's stat index.
    pub stats: Vec<i64>,
    /// Items the piece holds, in the order received; an item given for an occupied slot takes
    /// the old one's position.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<HeldItem>,
    /// Cards attached to the piece, face up, in the order attached: (deck index, card index).
    /// Left out of saves while empty, so games without attached cards save as before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cards: Vec<(u16, u16)>,
    /// The holder this piece is inside (a unit in an army, a guard in a tower), or [`NO_PIECE`].
    /// A piece inside a holder stands on the holder's space and goes where it goes. Left out of
    /// saves when it is inside nothing, so games without holders save as before.
    #[serde(default = "no_piece", skip_serializing_if = "is_no_piece")]
    pub inside: u32,
    /// For a piece standing between two neighbouring spaces (a wall built on a border): the
    /// other space, always of a higher id than [`Piece::space`]; [`NO_SPACE`] for a piece in a
    /// space. Left out of saves when [`NO_SPACE`].
    #[serde(default = "no_space", skip_serializing_if = "is_no_space")]
    pub across: u32,
}

fn no_space() -> u32 {
    NO_SPACE
}

fn is_no_space(space: &u32) -> bool {
    *space == NO_SPACE
}

fn no_piece() -> u32 {
    NO_PIECE
}

fn is_no_piece(piece: &u32) -> bool {
    *piece == NO_PIECE
}

/// An item a piece holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeldItem {
    /// The item's index in the ruleset.
    pub item: u16,
    /// Ammunition, uses: never below 0.
    pub charges: i64,
}

/// An action whose dice are rolled and whose `after_roll` choices are still to be made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PendingAction {
    pub action: u16,
    /// The arguments chosen before the roll (the rest are 0).
    pub args: [i64; crate::game::action::MAX_PARAMS],
    /// The values of the action's rolls, in order.
    pub rolls: Vec<i64>,
}

/// A deck's piles (card indices; the top of the draw pile is the end of the vector).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DeckState {
    pub draw: Vec<u16>,
    pub discard: Vec<u16>,
}

/// Where in the turn structure the game is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TurnState {
    /// Turns started so far, counting every seat's turn; 1 during the first turn.
    pub number: u32,
    /// Rounds started so far in the current match; 1 during the first round.
    pub round: u32,
    /// The current match, from 1 (games without matches stay in match 1).
    pub match_number: u32,
    /// The seat to move.
    pub seat: u8,
    /// The seat that moved first (`[seats] first`): a round begins each time its place in the
    /// order comes round again. Left out of saves when it is seat 1, as saves made before it
    /// was kept always had.
    #[serde(default, skip_serializing_if = "is_first_seat")]
    pub first_seat: u8,
    /// The current phase index.
    pub phase: u16,
    /// How often each action (or action group: see `Ruleset::budget_slots`) was taken in the
    /// current phase.
    pub used: Vec<u32>,
    /// An action rolled but not finished: only its completions or cancelling are legal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<PendingAction>,
    /// Responses offered out of turn and not answered yet, in the order offered: the first
    /// one's seat acts next (takes it or passes), before anyone else.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub offers: Vec<Offer>,
    /// Answers to sealed offers (`sealed = true` responses), kept unopened until no sealed
    /// offer waits; then they run in this order. A seat's view holds only its own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sealed: Vec<SealedAnswers>,
    /// Whether the turns are an interlude's (`[turn.interlude]`), before a match.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub interlude: bool,
    /// In an interlude: how many turns in a row ended without an action taken; when every
    /// seat still playing has had one, the match begins.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub idle_turns: u32,
    /// In an interlude: whether the seat whose turn it is has taken an action of its own this
    /// turn.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub acted: bool,
}

fn is_zero_u32(value: &u32) -> bool {
    *value == 0
}

/// One sealed offer and the answers its seat gave so far: one, or with `repeat` each card of a
/// stack and the closing pass.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SealedAnswers {
    pub offer: Offer,
    pub answers: Vec<crate::game::Action>,
    /// Whether the seat is done answering (it passed, or the response does not repeat); until
    /// then its offer is the first waiting.
    pub done: bool,
}

/// A response action offered to a seat out of turn (`offer(…)`), with its first parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Offer {
    pub seat: u8,
    pub action: u16,
    /// The parameters the offer gives, in order; the seat chooses the rest.
    pub args: Vec<i64>,
}

fn is_first_seat(seat: &u8) -> bool {
    *seat == 0
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "result")]
pub enum Outcome {
    /// These seats won (one seat, or a whole side).
    Win { seats: Vec<u8> },
    /// Drawn; the pot is split in proportion to each listed seat's weight.
    Draw { shares: Vec<(u8, i64)> },
}

/// Plain data a Lua hook keeps between calls (no functions, no userdata), saved with the game:
/// `game.get` gives back exactly what `game.put` kept. A Lua table becomes a [`List`] when it is
/// a sequence (keys 1..n), a [`Map`] when every key is a string, and a [`Table`] otherwise
/// (integer keys that are not a sequence, or keys of both kinds: `{[2] = …, ["2"] = …}` keeps
/// both).
///
/// In a save, lists and maps are JSON arrays and objects (as they always were); a `Table` is an
/// object whose only key is [`TABLE_MARKER`], holding `[key, value]` pairs, so an older save
/// reads as it did. A string-keyed table holding the marker itself is kept as a `Table` too, so
/// no map can be read back as one.
///
/// [`List`]: ScriptValue::List
/// [`Map`]: ScriptValue::Map
/// [`Table`]: ScriptValue::Table
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(from = "SavedScriptValue")]
pub enum ScriptValue {
    Bool(bool),
    Int(i64),
    Num(f64),
    Text(String),
    List(Vec<ScriptValue>),
    Map(BTreeMap<String, ScriptValue>),
    Table(BTreeMap<ScriptKey, ScriptValue>),
}

/// A key of a [`ScriptValue::Table`]: integers first, in order, then strings.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ScriptKey {
    Int(i64),
    Text(String),
}

/// The one key of the JSON object that stands for a [`ScriptValue::Table`] in a save.
pub const TABLE_MARKER: &str = "$table";

/// [`ScriptValue`] as a save holds it, before a marked object is read as a table.
#[derive(Deserialize)]
#[serde(untagged)]
enum SavedScriptValue {
    Bool(bool),
    Int(i64),
    Num(f64),
    Text(String),
    List(Vec<ScriptValue>),
    Map(BTreeMap<String, ScriptValue>),
}

impl From<SavedScriptValue> for ScriptValue {
    fn from(saved: SavedScriptValue) -> Self {
        match saved {
            SavedScriptValue::Bool(b) => ScriptValue::Bool(b),
            SavedScriptValue::Int(n) => ScriptValue::Int(n),
            SavedScriptValue::Num(x) => ScriptValue::Num(x),
            SavedScriptValue::Text(s) => ScriptValue::Text(s),
            SavedScriptValue::List(items) => ScriptValue::List(items),
            SavedScriptValue::Map(map) => match marked_table(&map) {
                Some(table) => ScriptValue::Table(table),
                None => ScriptValue::Map(map),
            },
        }
    }
}

/// The table a `{"$table": [[key, value], …]}` object stands for; `None` for any other object.
fn marked_table(map: &BTreeMap<String, ScriptValue>) -> Option<BTreeMap<ScriptKey, ScriptValue>> {
    let (key, ScriptValue::List(pairs)) = map.iter().next()? else { return None };
    if map.len() != 1 || key != TABLE_MARKER {
        return None;
    }
    pairs
        .iter()
        .map(|pair| match pair {
            ScriptValue::List(pair) => match pair.as_slice() {
                [ScriptValue::Int(n), value] => Some((ScriptKey::Int(*n), value.clone())),
                [ScriptValue::Text(s), value] => Some((ScriptKey::Text(s.clone()), value.clone())),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

impl Serialize for ScriptValue {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self {
            ScriptValue::Bool(b) => serializer.serialize_bool(*b),
            ScriptValue::Int(n) => serializer.serialize_i64(*n),
            ScriptValue::Num(x) => serializer.serialize_f64(*x),
            ScriptValue::Text(s) => serializer.serialize_str(s),
            ScriptValue::List(items) => serializer.collect_seq(items),
            ScriptValue::Map(map) => serializer.collect_map(map),
            ScriptValue::Table(table) => {
                let mut object = serializer.serialize_map(Some(1))?;
                let pairs: Vec<(&ScriptKey, &ScriptValue)> = table.iter().collect();
                object.serialize_entry(TABLE_MARKER, &pairs)?;
                object.end()
            }
        }
    }
}

/// Everything about one game in progress. Two states are the same game exactly when their
/// [`GameState::hash`]es (over the saved form) are equal.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameState {
    pub board: Arc<Board>,
    pub rng: GameRng,
    pub seats: Vec<SeatState>,
    /// Owner of each space, or [`NO_SEAT`].
    pub owners: Vec<u8>,
    /// Space counters, space-major: `counters[space * counter_count + counter]`.
    pub counters: Vec<i64>,
    pub counter_count: u16,
    pub pieces: Vec<Piece>,
    pub decks: Vec<DeckState>,
    pub vars: Vec<i64>,
    pub turn: TurnState,
    pub outcome: Option<Outcome>,
    /// Data kept by Lua hooks.
    pub script_data: BTreeMap<String, ScriptValue>,
    /// Spaces owned per seat, kept in step with `owners` (derived, rebuilt after loading).
    #[serde(skip)]
    pub(crate) owned: Vec<u32>,
    /// Die faces a scenario test forces, used before the random stream (never in real games).
    #[serde(skip)]
    pub forced_faces: VecDeque<u32>,
    /// Numbers a scenario test forces `game.random` to answer, before the random stream (never
    /// in real games).
    #[serde(skip)]
    pub forced_random: VecDeque<i64>,
}

impl GameState {
    #[inline]
    pub fn counter(&self, space: u32, counter: u16) -> i64 {
        self.counters[space as usize * self.counter_count as usize + counter as usize]
    }

    #[inline]
    pub fn counter_mut(&mut self, space: u32, counter: u16) -> &mut i64 {
        &mut self.counters[space as usize * self.counter_count as usize + counter as usize]
    }

    /// The owner of a space, if any.
    #[inline]
    pub fn owner(&self, space: u32) -> Option<u8> {
        let owner = self.owners[space as usize];
        (owner != NO_SEAT).then_some(owner)
    }

    /// Changes a space's owner, keeping the per-seat counts in step.
    pub fn set_owner(&mut self, space: u32, owner: u8) {
        let old = self.owners[space as usize];
        if old == owner {
            return;
        }
        if old != NO_SEAT {
            self.owned[old as usize] -= 1;
        }
        if owner != NO_SEAT {
            self.owned[owner as usize] += 1;
        }
        self.owners[space as usize] = owner;
    }

    /// How many spaces a seat owns.
    #[inline]
    pub fn owned_count(&self, seat: u8) -> u32 {
        self.owned.get(seat as usize).copied().unwrap_or(0)
    }

    pub fn seat_count(&self) -> usize {
        self.seats.len()
    }

    /// Every seat on the same side as `seat`, in seat order.
    pub fn side_of(&self, seat: u8) -> Vec<u8> {
        let side = self.seats[seat as usize].side;
        (0..self.seats.len() as u8).filter(|&s| self.seats[s as usize].side == side).collect()
    }

    /// A seat's piece: the first living piece it owns (`seat.piece` in the rules language; the
    /// character of games where a seat is one character).
    pub fn seat_piece(&self, seat: u8) -> Option<u32> {
        self.pieces.iter().position(|p| p.alive && p.owner == seat).map(|p| p as u32)
    }

    /// Seats still taking turns.
    pub fn active_seats(&self) -> usize {
        self.seats.iter().filter(|s| s.status == SeatStatus::Active).count()
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// An empty state that holds no game (the Lua runtime keeps one while no hook runs).
    pub fn placeholder() -> Self {
        Self {
            board: Arc::new(Board::empty()),
            rng: GameRng::from_seed(0),
            seats: Vec::new(),
            owners: Vec::new(),
            counters: Vec::new(),
            counter_count: 0,
            pieces: Vec::new(),
            decks: Vec::new(),
            vars: Vec::new(),
            turn: TurnState {
                number: 0,
                round: 0,
                match_number: 0,
                seat: 0,
                first_seat: 0,
                phase: 0,
                used: Vec::new(),
                pending: None,
                offers: Vec::new(),
                sealed: Vec::new(),
                interlude: false,
                idle_turns: 0,
                acted: false,
            },
            outcome: None,
            script_data: BTreeMap::new(),
            owned: Vec::new(),
            forced_faces: VecDeque::new(),
            forced_random: VecDeque::new(),
        }
    }

    /// Rebuilds derived fields after deserialising.
    pub fn rebuild_derived(&mut self) {
        let mut owned = vec![0u32; self.seats.len()];
        for &owner in &self.owners {
            if let Some(count) = owned.get_mut(owner as usize) {
                *count += 1;
            }
        }
        self.owned = owned;
    }

    /// The seat that acts next: the seat offered a response out of turn, while one waits for
    /// its answer; otherwise the seat whose turn it is.
    pub fn to_act(&self) -> u8 {
        self.turn.offers.first().map_or(self.turn.seat, |offer| offer.seat)
    }

    /// A portable 64-bit hash of everything saved: same game, same hash, on any machine.
    pub fn hash(&self) -> u64 {
        let bytes = serde_json::to_vec(self).unwrap_or_default();
        fnv1a(&bytes)
    }

    /// The hash as 16 hex digits, the form saves use.
    pub fn hash_hex(&self) -> String {
        format!("{:016x}", self.hash())
    }
}

/// FNV-1a over bytes: tiny, stable, and good enough to detect any divergence.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}
