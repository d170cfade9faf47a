//! The compiled form of rules-language expressions and effects: names resolved to indices,
//! types checked, ready for the evaluator. Built once per ruleset by `compile`.

use crate::expr::UnaryOp;

/// A runtime value. Small and `Copy`: evaluation never allocates.
///
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// No value: an unowned space's owner, a piece off the board.
    Nil,
    Bool(bool),
    Int(i64),
    Num(f64),
    /// A seat index (0-based inside the engine, shown 1-based).
    Seat(u8),
    Space(u32),
    Piece(u32),
    /// An id of a definition (terrain, piece kind, phase, item…); the type says which.
    Id(u16),
    /// An item a piece holds: the piece and the item's position among its items.
    Held(u32, u8),
}

impl Value {
    pub fn as_int(self) -> i64 {
        match self {
            Value::Int(n) => n,
            Value::Num(x) => x as i64,
            Value::Bool(b) => i64::from(b),
            Value::Seat(s) => i64::from(s),
            Value::Space(s) | Value::Piece(s) => i64::from(s),
            Value::Id(i) => i64::from(i),
            Value::Held(piece, position) => held_arg(piece, position),
            Value::Nil => 0,
        }
    }

    pub fn as_num(self) -> f64 {
        match self {
            Value::Num(x) => x,
            other => other.as_int() as f64,
        }
    }

    pub fn as_bool(self) -> bool {
        match self {
            Value::Bool(b) => b,
            Value::Nil => false,
            Value::Int(n) => n != 0,
            Value::Num(x) => x != 0.0,
            _ => true,
        }
    }

    pub fn as_seat(self) -> Option<u8> {
        match self {
            Value::Seat(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_space(self) -> Option<u32> {
        match self {
            Value::Space(s) => Some(s),
            _ => None,
        }
    }

    /// A held item's piece and position.
    pub fn as_held(self) -> Option<(u32, u8)> {
        match self {
            Value::Held(piece, position) => Some((piece, position)),
            _ => None,
        }
    }

    pub fn as_piece(self) -> Option<u32> {
        match self {
            Value::Piece(p) => Some(p),
            _ => None,
        }
    }
}

/// The action argument naming a held item: its piece and position in one number.
pub fn held_arg(piece: u32, position: u8) -> i64 {
    i64::from(piece) * 256 + i64::from(position)
}

/// The held item an action argument names (see [`held_arg`]).
pub fn held_of_arg(arg: i64) -> Value {
    // A piece number beyond 32 bits names no piece: cut short, it would alias a real one.
    match u32::try_from(arg / 256) {
        Ok(piece) if arg >= 0 => Value::Held(piece, (arg % 256) as u8),
        _ => Value::Nil,
    }
}

/// The static type of an expression, checked when a mod loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Type {
    Int,
    Num,
    Bool,
    /// A seat, or none.
    Seat,
    /// A space, or none.
    Space,
    /// A piece, or none.
    Piece,
    /// An item a piece holds, or none.
    Held,
    /// A definition id of the given namespace.
    Id(IdKind),
    /// A string literal, only meaningful where it names a definition (resolved by context).
    Text,
    /// `none` before it meets a typed value.
    Nil,
}

impl Type {
    pub fn describe(self) -> &'static str {
        match self {
            Type::Int => "a whole number",
            Type::Num => "a number",
            Type::Bool => "true or false",
            Type::Seat => "a seat",
            Type::Space => "a space",
            Type::Piece => "a piece",
            Type::Held => "a held item",
            Type::Id(kind) => kind.describe(),
            Type::Text => "a text",
            Type::Nil => "none",
        }
    }

    pub fn is_numeric(self) -> bool {
        matches!(self, Type::Int | Type::Num)
    }

    /// The words a named formula's or effect's parameter declares its type with
    /// (`"hits: whole number"`): the words of the rules-language reference. A `number` takes
    /// whole numbers and decimals alike, so arithmetic on it gives a decimal; `whole number`
    /// keeps whole numbers whole.
    pub const WORDS: &[(&str, Type)] = &[
        ("number", Type::Num),
        ("whole number", Type::Int),
        ("yes/no", Type::Bool),
        ("seat", Type::Seat),
        ("space", Type::Space),
        ("piece", Type::Piece),
        ("held item", Type::Held),
        ("terrain", Type::Id(IdKind::Terrain)),
        ("piece kind", Type::Id(IdKind::PieceKind)),
        ("item", Type::Id(IdKind::Item)),
        ("card", Type::Id(IdKind::Card)),
        ("side", Type::Id(IdKind::Side)),
        ("phase", Type::Id(IdKind::Phase)),
    ];

    /// The type a parameter declares with `word` (see [`Type::WORDS`]), in any case and with
    /// any spacing; "a seat", "an item" and "true or false" (how messages say them) are taken too.
    pub fn from_word(word: &str) -> Option<Type> {
        let words: Vec<String> = word.split_whitespace().map(str::to_lowercase).collect();
        let words = match words.first().map(String::as_str) {
            Some("a" | "an") => &words[1..],
            _ => &words[..],
        };
        let word = words.join(" ");
        if word == "true or false" {
            return Some(Type::Bool);
        }
        Type::WORDS.iter().find(|(known, _)| *known == word).map(|(_, ty)| *ty)
    }

    /// The word a parameter of this type is declared with (see [`Type::WORDS`]).
    pub fn word(self) -> &'static str {
        Type::WORDS.iter().find(|(_, ty)| *ty == self).map_or_else(|| self.describe(), |(word, _)| word)
    }
}

/// Namespaces of definition ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdKind {
    Terrain,
    PieceKind,
    Phase,
    Side,
    Item,
    /// A card of the mod's `[cards]` (by index into [`crate::rules::Ruleset::cards`]).
    Card,
    /// A deck of the mod's `[decks]`.
    Deck,
}

impl IdKind {
    pub fn describe(self) -> &'static str {
        match self {
            IdKind::Terrain => "a terrain",
            IdKind::PieceKind => "a piece kind",
            IdKind::Phase => "a phase",
            IdKind::Side => "a side",
            IdKind::Item => "an item",
            IdKind::Card => "a card",
            IdKind::Deck => "a deck",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// How a dice term turns its faces into one number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DiceMode {
    /// The sum of all faces (`3d6`, `dice(3, 6)`).
    Sum,
    /// The highest face (`highest(3, 6)`).
    Highest,
    /// The lowest face (`lowest(3, 6)`).
    Lowest,
    /// How many faces reach a threshold (`successes(5, 6, 4)`).
    AtLeast(i64),
}

/// A compiled expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Const(Value),
    /// A value of the evaluation frame: `me`, a parameter, a roll, a `let`, a loop variable.
    Slot(u16),
    Unary(UnaryOp, Box<Expr>),
    /// Integer arithmetic when both sides are whole numbers, floating point otherwise.
    Arith(ArithOp, bool /* float */, Box<Expr>, Box<Expr>),
    Compare(CmpOp, Box<Expr>, Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    Read(Read),
    Call(Func, Vec<Expr>),
    /// Rolls dice from the game's random stream (only in rolls and effects).
    Dice {
        count: Box<Expr>,
        sides: Box<Expr>,
        mode: DiceMode,
    },
    /// The exact probability that the current action's `success` holds (previews, AI scores).
    Chance,
    /// The exact mean of an expression over its dice (previews, AI scores).
    Expect(Box<Expr>),
    /// `count_of(piece, cond)`, `sum_of`, `min_of`, `max_of`, `random_of`: a value folded over
    /// every seat, space or piece in play (in id order) for which `cond` holds, with the loop
    /// variable in frame slot `slot`.
    Aggregate(Box<Aggregate>),
    /// `slot.counter <op> value`: the commonest filter shape (`from.dice > 1`), evaluated
    /// without recursion. Produced by the compiler from the general form.
    CounterCmp {
        slot: u16,
        counter: u16,
        op: CmpOp,
        value: i64,
    },
    /// `space_slot.owner == seat_slot` (`equal`) or `!=`: the other common filter shape.
    OwnerIs {
        space: u16,
        seat: u16,
        equal: bool,
    },
    /// `slot.counter` for a space in a frame slot (`from.dice`).
    SlotCounter {
        slot: u16,
        counter: u16,
    },
    /// `slot.owner` for a space in a frame slot.
    SlotOwner {
        slot: u16,
    },
    /// `owned(slot)`: spaces owned by the seat in a frame slot.
    SlotOwned {
        slot: u16,
    },
    /// `owned(slot) <op> value` (`owned(seat) == 0`, an elimination rule checked after every
    /// action).
    OwnedCmp {
        slot: u16,
        op: CmpOp,
        value: i64,
    },
    /// `space_count()`.
    SpaceCount,
    /// `a <op> b` for two frame slots (`attack > defence`), compared as numbers.
    SlotCmp {
        a: u16,
        b: u16,
        op: CmpOp,
    },
    /// A comparison of two whole numbers that are both leaves (`owned(seat) == space_count()`).
    LeafCmp(Box<(Leaf, Leaf)>, CmpOp),
}

/// See [`Expr::Aggregate`].
#[derive(Clone, Debug, PartialEq)]
pub struct Aggregate {
    pub op: AggregateOp,
    pub kind: LoopKind,
    pub slot: u16,
    /// The value folded (`sum_of`, `min_of`, `max_of`).
    pub value: Option<Expr>,
    pub condition: Option<Expr>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AggregateOp {
    /// How many match.
    Count,
    /// The sum of the values.
    Sum,
    /// The smallest value; 0 when none matches.
    Min,
    /// The largest value; 0 when none matches.
    Max,
    /// One of those that match, drawn from the game's stream; none when none matches.
    Random,
}

/// A whole number read without recursion, for [`Expr::LeafCmp`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Leaf {
    Const(i64),
    Slot(u16),
    SlotCounter { slot: u16, counter: u16 },
    SlotOwned { slot: u16 },
    SpaceCount,
}

impl Leaf {
    /// The leaf form of an expression, when it has one.
    pub fn of(expr: &Expr) -> Option<Leaf> {
        Some(match expr {
            Expr::Const(Value::Int(n)) => Leaf::Const(*n),
            Expr::Slot(s) => Leaf::Slot(*s),
            Expr::SlotCounter { slot, counter } => Leaf::SlotCounter { slot: *slot, counter: *counter },
            Expr::SlotOwned { slot } => Leaf::SlotOwned { slot: *slot },
            Expr::SpaceCount => Leaf::SpaceCount,
            _ => return None,
        })
    }

    fn slot(&self) -> Option<u16> {
        match self {
            Leaf::Slot(s) | Leaf::SlotCounter { slot: s, .. } | Leaf::SlotOwned { slot: s } => Some(*s),
            Leaf::Const(_) | Leaf::SpaceCount => None,
        }
    }
}

/// A read of game state.
#[derive(Clone, Debug, PartialEq)]
pub enum Read {
    SpaceCounter(Box<Expr>, u16),
    SpaceOwner(Box<Expr>),
    SpaceTerrain(Box<Expr>),
    SpaceHome(Box<Expr>),
    /// The space's grid column, from 1 (0 where the board has no grid position for it).
    SpaceColumn(Box<Expr>),
    /// The space's grid row, from 1 (0 where the board has no grid position for it).
    SpaceRow(Box<Expr>),
    /// A number of a terrain (by index into [`crate::rules::Ruleset::terrain_stats`]).
    TerrainStat(Box<Expr>, u16),
    SeatResource(Box<Expr>, u16),
    /// 1-based seat number, for display and arithmetic.
    SeatNumber(Box<Expr>),
    /// The seat's side.
    SeatSide(Box<Expr>),
    PieceStat(Box<Expr>, u16),
    PieceOwner(Box<Expr>),
    PieceSpace(Box<Expr>),
    /// The holder the piece is inside, or none.
    PieceInside(Box<Expr>),
    /// The other space of a piece standing between two, or none.
    PieceAcross(Box<Expr>),
    PieceKind(Box<Expr>),
    /// A seat's first piece in play, or none.
    SeatPiece(Box<Expr>),
    /// A number of an item kind.
    ItemField(Box<Expr>, ItemField),
    /// A number of a held item's kind.
    HeldField(Box<Expr>, ItemField),
    /// A held item's kind.
    HeldKind(Box<Expr>),
    /// A held item's charges.
    HeldCharges(Box<Expr>),
    /// The piece holding a held item.
    HeldHolder(Box<Expr>),
    /// The deck a card belongs to (the first that lists it), or none.
    CardDeck(Box<Expr>),
    /// A number printed on a card (by index into [`crate::rules::Ruleset::card_stats`]).
    CardStat(Box<Expr>, u16),
    Var(u16),
    /// Turns started so far, counting every seat's turn (1 on the first turn).
    Turn,
    /// Rounds started so far (1 in the first round).
    Round,
    /// The seat whose turn it is.
    CurrentSeat,
    /// The current phase id.
    Phase,
    /// The current match, from 1.
    Match,
}

/// A number every item kind has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemField {
    Price,
    /// The charges a new one comes with.
    Charges,
    /// One of the items' `stats`, by index.
    Stat(u16),
}

/// A built-in function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Func {
    Min,
    Max,
    Abs,
    Clamp,
    /// A number rounded to a whole number: down, to the nearest (halves away from 0), or up.
    Round(Rounding),
    /// Spaces owned by a seat.
    Owned,
    /// Size of a seat's largest connected group of spaces.
    LargestGroup,
    Adjacent,
    Distance,
    /// The fewest movement points of a walk between two spaces over passable terrain; -1 when
    /// there is none.
    WalkDistance,
    /// Whether the straight line between two spaces' centres crosses no space or wall whose
    /// terrain `blocks_sight` (see [`crate::board::Board::line_of_sight`]).
    LineOfSight,
    /// Whether the third space is one step beyond the second, straight away from the first
    /// (see [`crate::board::Board::beyond`]).
    Beyond,
    /// Seats still playing (neither eliminated nor gone).
    ActiveSeats,
    /// Seats the game started with.
    SeatCount,
    SpaceCount,
    /// Pieces on a space (alive).
    PiecesAt,
    /// The item a piece holds in a slot (by slot index), or none.
    Holding(u16),
    /// The space with a label (the label is in the ruleset's string table), or none.
    SpaceByLabel(u16),
    /// The seat with a 1-based number, or none.
    SeatByNumber,
    /// Whether two seats are on the same side.
    Allies,
    /// Cards in a seat's hand (of every deck).
    HandSize,
    /// Copies of a card in a seat's hand: seat, card.
    InHand,
    /// Copies of a card a piece holds attached: piece, card.
    Attached,
    /// Cards a piece holds attached, of every kind.
    AttachedCount,
    /// How often the current phase has used a budget slot (an action or action group).
    Used(u16),
    /// How many items a piece holds: piece, and optionally one item kind to count alone.
    HeldCount,
    /// Whether a piece may be given an item: its kind is among the item's `holders` and it holds
    /// fewer than its kind's `max_items` (or the item replaces one in its slot).
    CanHold,
    /// Whether a piece stands on a space, or between it and another (piece, space).
    Touches,
    /// The first piece in play standing between two neighbouring spaces, or none.
    PieceBetween,
    /// How many pieces are inside a holder: holder, and optionally one piece kind to count alone.
    InsideCount,
    /// Whether a piece may go inside a holder now ([`crate::game::changes::why_no_room`]).
    CanEnter,
    /// A uniform whole number in `lo..=hi` from the game's stream (effects only).
    Random,
    /// Spreads units of a space counter one at a time over a seat's spaces below a cap, at
    /// random; returns how many found no room (effects only).
    Distribute(u16),
    /// `place("kind", owner, space)` as a value: puts a new piece of the kind on the space and
    /// gives it (effects only: `let p = place(…)`).
    PlacePiece(u16),
    /// Calls a Lua hook function by name; returns its number (or true/false).
    Hook(u16),
    /// `secret(x)`: `x`, with the dice it rolls seen by the acting seat alone.
    Secret,
    /// Whether a definition (or what a value is an instance of) has a tag, by index into
    /// [`crate::rules::Ruleset::tags`].
    Tagged(u16, TagOf),
    /// A formula the mod names (by index into [`crate::rules::Ruleset::formulas`]), evaluated in
    /// a frame of its own: `me`, then the arguments. Whether it runs a Lua hook, directly or
    /// through other formulas, is kept here, so questions about an expression
    /// ([`Expr::calls_hook`]) need not look into the ruleset; it never rolls dice nor uses odds.
    Formula {
        index: u16,
        calls_hook: bool,
    },
}

/// How `floor`, `round` and `ceil` round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    Down,
    Nearest,
    Up,
}

impl Rounding {
    pub fn apply(self, x: f64) -> f64 {
        match self {
            Rounding::Down => x.floor(),
            Rounding::Nearest => x.round(),
            Rounding::Up => x.ceil(),
        }
    }
}

/// What the argument of `tagged` is, which says where its tags are declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TagOf {
    /// A space: its terrain's tags.
    Space,
    Terrain,
    /// A piece: its kind's tags.
    Piece,
    PieceKind,
    /// A held item: its kind's tags.
    Held,
    Item,
    /// A card: its `tags`.
    Card,
}

/// A place a statement can assign to.
#[derive(Clone, Debug, PartialEq)]
pub enum Place {
    SpaceCounter(Expr, u16),
    SpaceOwner(Expr),
    SpaceTerrain(Expr),
    SeatResource(Expr, u16),
    PieceStat(Expr, u16),
    PieceOwner(Expr),
    PieceSpace(Expr),
    PieceInside(Expr),
    HeldCharges(Expr),
    Var(u16),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignMode {
    Set,
    Add,
    Sub,
}

/// A compiled effect statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// `let name = value`: the slot, the value, and the name (in the string table) when the
    /// value rolls dice, to show them under.
    Let(u16, Expr, Option<u16>),
    Assign(Place, AssignMode, Expr),
    /// A function called for its effect; the result is discarded.
    Eval(Expr),
    Proc(Proc, Vec<Expr>),
    If(Expr, Block, Block),
    ForEach {
        kind: LoopKind,
        slot: u16,
        filter: Option<Expr>,
        body: Block,
    },
}

/// A list of statements.
pub type Block = Vec<Stmt>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopKind {
    Seat,
    Space,
    Piece,
}

/// A built-in procedure (a statement with an effect beyond assignment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proc {
    /// Ends the current turn (runs the remaining phases' and the turn's end effects).
    EndTurn,
    /// Gives back uses of a budget slot in the current phase (never below none used).
    Refund(u16),
    /// The seat leaves: it takes no more turns, keeps what it has, still defends.
    Leave,
    /// The seat is out of the game.
    Eliminate,
    /// The seat wins; the game ends.
    Win,
    /// The game ends drawn; the pot is split by `end.draw_shares`.
    Draw,
    /// Deals every space out to the seats in equal shares, at random; leftovers stay unowned.
    DealSpaces,
    /// Places a new piece: kind, owner seat, space (and, for a kind `on_edge`, the space on
    /// the other side).
    Place(u16),
    /// Removes a piece from the game.
    Remove,
    /// Gives a piece a new item (piece, item kind) with the item's `charges`; an item in the
    /// same slot is replaced, charges and all.
    Give,
    /// Takes a held item from its piece; the piece's later items move up one position.
    Drop,
    /// Shuffles a deck's draw pile.
    Shuffle(u16),
    /// Draws cards from a deck into a seat's hand: deck, seat, count.
    DrawCards(u16),
    /// Moves one copy of a card from a seat's hand to its deck's discard pile: seat, card.
    Discard,
    /// Moves one copy of a card from one seat's hand to another's: from, to, card.
    GiveCard,
    /// Moves one copy of a card from a seat's hand to the bottom of its deck's draw pile: seat,
    /// card.
    ReturnCard,
    /// Moves one copy of a card from a seat's hand onto a piece, face up: piece, card, seat.
    Attach,
    /// Moves one copy of a card a piece holds into a seat's hand: piece, card, seat.
    Detach,
    /// Shows every card in a seat's hand to another seat, or (without it) to every seat.
    RevealHand,
    /// Shows one copy of a card in a seat's hand to another seat, or (without it) to every seat;
    /// nothing when the seat holds no copy that seat has not seen. Arguments: seat, card, to.
    RevealCard,
    /// Adds a line to the game log.
    Log,
    /// Calls a Lua hook function by name for its effect.
    Hook(u16),
    /// Shows every seat a value under a label (by index into the string table): what a rule
    /// reveals of a secret roll or a hidden number. Arguments: the label (unused), the value.
    RevealValue(u16),
    /// Runs an effect block the mod names (by index into [`crate::rules::Ruleset::effects`]) in a
    /// frame of its own: `me`, the arguments, then its `let` names.
    Effect(u16),
    /// Offers a seat the response action (by index), with its first parameters given: the seat
    /// takes it or declines before anyone else acts. Arguments: the seat, then the parameters.
    Offer(u16),
    /// Performs the automatic action (by index), with its first parameters given; the engine
    /// chooses the rest by the action's score. Arguments: the parameters.
    Perform(u16),
}

impl Expr {
    /// The expressions directly inside this one.
    fn for_each_child(&self, f: &mut impl FnMut(&Expr)) {
        match self {
            Expr::Unary(_, e) | Expr::Expect(e) => f(e),
            Expr::Arith(_, _, a, b) | Expr::Compare(_, a, b) | Expr::And(a, b) | Expr::Or(a, b) => {
                f(a);
                f(b);
            }
            Expr::If(a, b, c) => {
                f(a);
                f(b);
                f(c);
            }
            Expr::Read(read) => {
                if let Some(e) = read.inner() {
                    f(e);
                }
            }
            Expr::Call(_, args) => args.iter().for_each(f),
            Expr::Aggregate(aggregate) => {
                if let Some(value) = &aggregate.value {
                    f(value);
                }
                if let Some(condition) = &aggregate.condition {
                    f(condition);
                }
            }
            Expr::Dice { count, sides, .. } => {
                f(count);
                f(sides);
            }
            Expr::Const(_)
            | Expr::Slot(_)
            | Expr::Chance
            | Expr::CounterCmp { .. }
            | Expr::OwnerIs { .. }
            | Expr::SlotCounter { .. }
            | Expr::SlotOwner { .. }
            | Expr::SlotOwned { .. }
            | Expr::OwnedCmp { .. }
            | Expr::SlotCmp { .. }
            | Expr::LeafCmp(..)
            | Expr::SpaceCount => {}
        }
    }

    /// Whether `pred` holds for this expression or any expression inside it. Every question
    /// about an expression's contents is a predicate on single nodes passed here, so a new kind
    /// of node is handled in one walker.
    pub fn any_node(&self, pred: &impl Fn(&Expr) -> bool) -> bool {
        if pred(self) {
            return true;
        }
        let mut found = false;
        self.for_each_child(&mut |child| found = found || child.any_node(pred));
        found
    }

    /// The frame slots this node reads itself (not its children).
    fn own_slots(&self) -> [Option<u16>; 2] {
        match self {
            Expr::Slot(s)
            | Expr::CounterCmp { slot: s, .. }
            | Expr::SlotCounter { slot: s, .. }
            | Expr::SlotOwner { slot: s }
            | Expr::SlotOwned { slot: s }
            | Expr::OwnedCmp { slot: s, .. } => [Some(*s), None],
            Expr::OwnerIs { space, seat, .. } => [Some(*space), Some(*seat)],
            Expr::SlotCmp { a, b, .. } => [Some(*a), Some(*b)],
            Expr::LeafCmp(leaves, _) => [leaves.0.slot(), leaves.1.slot()],
            // A named formula sees the caller's `me`.
            Expr::Call(Func::Formula { .. }, _) => [Some(0), None],
            _ => [None, None],
        }
    }

    /// Whether this rolls dice (directly or inside).
    pub fn rolls_dice(&self) -> bool {
        self.any_node(&|e| {
            matches!(e, Expr::Dice { .. } | Expr::Call(Func::Random | Func::Distribute(_), _))
                || matches!(e, Expr::Aggregate(a) if a.op == AggregateOp::Random)
        })
    }

    /// Whether this reads the frame slot `slot`.
    pub fn uses_slot(&self, slot: u16) -> bool {
        self.any_node(&|e| e.own_slots().contains(&Some(slot)))
    }

    /// Whether this depends on nothing but the seat in frame slot `seat_slot`, how many spaces
    /// each seat owns, the seats' statuses and the board's size: then it gives the same answer
    /// whenever those are the same, which lets the end check after an action be skipped.
    pub fn reads_only_ownership(&self, seat_slot: u16) -> bool {
        let leaf_ok = |leaf: &Leaf| match leaf {
            Leaf::Const(_) | Leaf::SpaceCount => true,
            Leaf::Slot(s) | Leaf::SlotOwned { slot: s } => *s == seat_slot,
            Leaf::SlotCounter { .. } => false,
        };
        !self.any_node(&|e| !match e {
            Expr::Const(_)
            | Expr::Unary(..)
            | Expr::Arith(..)
            | Expr::Compare(..)
            | Expr::And(..)
            | Expr::Or(..)
            | Expr::If(..)
            | Expr::SpaceCount => true,
            Expr::Slot(s) | Expr::SlotOwned { slot: s } | Expr::OwnedCmp { slot: s, .. } => *s == seat_slot,
            Expr::LeafCmp(leaves, _) => leaf_ok(&leaves.0) && leaf_ok(&leaves.1),
            Expr::Call(func, _) => matches!(
                func,
                Func::Min
                    | Func::Max
                    | Func::Abs
                    | Func::Clamp
                    | Func::Owned
                    | Func::SpaceCount
                    | Func::SeatCount
                    | Func::ActiveSeats
            ),
            _ => false,
        })
    }

    /// Whether this calls a Lua hook (whose draws make it random where odds are worked out).
    pub fn calls_hook(&self) -> bool {
        self.any_node(&|e| matches!(e, Expr::Call(Func::Hook(_) | Func::Formula { calls_hook: true, .. }, _)))
    }

    /// Whether this reads frame slot `slot` outside `expect(…)` and `chance`: inside them a
    /// roll's slot stands for all its outcomes, not for a roll made.
    pub fn uses_slot_outside_odds(&self, slot: u16) -> bool {
        if matches!(self, Expr::Expect(_) | Expr::Chance) {
            return false;
        }
        if self.own_slots().contains(&Some(slot)) {
            return true;
        }
        let mut found = false;
        self.for_each_child(&mut |child| found = found || child.uses_slot_outside_odds(slot));
        found
    }

    /// Whether this uses `chance`.
    pub fn uses_chance(&self) -> bool {
        self.any_node(&|e| matches!(e, Expr::Chance))
    }

    /// Whether this reads where the game is in its turn structure (turn, round, match, phase,
    /// the seat to move or `me`, slot 0) or calls Lua: then its value can change when a turn
    /// starts even if nothing else did.
    pub fn reads_turn_state(&self) -> bool {
        self.any_node(&|e| {
            matches!(
                e,
                Expr::Chance
                    | Expr::Read(Read::Turn | Read::Round | Read::Match | Read::Phase | Read::CurrentSeat)
                    | Expr::Call(Func::Hook(_) | Func::Formula { .. }, _)
            ) || e.own_slots().contains(&Some(0))
        })
    }

    /// Rewrites the general form of common shapes into specialised nodes that the evaluator
    /// handles without recursion: reads of a slot's field, `owned(slot)`, and comparisons of
    /// those with constants or slots. The compiler applies it as it builds each node.
    pub fn specialise(self) -> Expr {
        match self {
            Expr::Read(Read::SpaceCounter(base, counter)) => match *base {
                Expr::Slot(slot) => Expr::SlotCounter { slot, counter },
                base => Expr::Read(Read::SpaceCounter(Box::new(base), counter)),
            },
            Expr::Read(Read::SpaceOwner(base)) => match *base {
                Expr::Slot(slot) => Expr::SlotOwner { slot },
                base => Expr::Read(Read::SpaceOwner(Box::new(base))),
            },
            Expr::Call(Func::SpaceCount, args) if args.is_empty() => Expr::SpaceCount,
            Expr::Call(Func::Owned, args) if matches!(args.as_slice(), [Expr::Slot(_)]) => {
                let [Expr::Slot(slot)] = args.as_slice() else { unreachable!("matched above") };
                Expr::SlotOwned { slot: *slot }
            }
            Expr::Compare(op, a, b) => match (*a, *b) {
                (Expr::SlotCounter { slot, counter }, Expr::Const(Value::Int(value))) => {
                    Expr::CounterCmp { slot, counter, op, value }
                }
                (Expr::SlotOwned { slot }, Expr::Const(Value::Int(value))) => Expr::OwnedCmp { slot, op, value },
                (Expr::SlotOwner { slot: space }, Expr::Slot(seat))
                | (Expr::Slot(seat), Expr::SlotOwner { slot: space })
                    if matches!(op, CmpOp::Eq | CmpOp::Ne) =>
                {
                    Expr::OwnerIs { space, seat, equal: op == CmpOp::Eq }
                }
                (a, b) => Expr::Compare(op, Box::new(a), Box::new(b)),
            },
            other => other,
        }
    }
}

/// How big and how deep an expression or effect is once every named formula and effect it uses
/// is written out in place: what evaluating it costs at most, in nodes visited (beyond what its
/// loops count of their own) and in nesting of the evaluator. Named formulas share their
/// definition, so without a bound a few lines (`a` adds `b` to `b`, `b` adds `c` to `c`, …)
/// could stand for more work than any game could finish, or nest deeper than a thread's stack.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Extent {
    /// Nodes (names, numbers, operators, calls, statements).
    pub size: u64,
    /// The longest chain of nodes inside one another.
    pub depth: u64,
}

impl Extent {
    /// Two parts side by side.
    fn beside(self, other: Extent) -> Extent {
        Extent { size: self.size.saturating_add(other.size), depth: self.depth.max(other.depth) }
    }

    /// A node holding this.
    fn under_one(self) -> Extent {
        Extent { size: self.size.saturating_add(1), depth: self.depth.saturating_add(1) }
    }
}

impl Expr {
    /// This expression's [`Extent`]; `formula` gives the extent of a named formula's value.
    pub fn extent(&self, formula: &dyn Fn(u16) -> Extent) -> Extent {
        let mut inner = Extent::default();
        self.for_each_child(&mut |child| inner = inner.beside(child.extent(formula)));
        if let Expr::Call(Func::Formula { index, .. }, _) = self {
            inner = inner.beside(formula(*index));
        }
        inner.under_one()
    }
}

impl Stmt {
    /// This statement's [`Extent`]; `formula` and `effect` give those of named formulas and
    /// effects.
    pub fn extent(&self, formula: &dyn Fn(u16) -> Extent, effect: &dyn Fn(u16) -> Extent) -> Extent {
        let of = |expr: &Expr| expr.extent(formula);
        let inner = match self {
            Stmt::Let(_, value, _) | Stmt::Eval(value) => of(value),
            Stmt::Assign(place, _, value) => place.target().map(of).unwrap_or_default().beside(of(value)),
            Stmt::Proc(proc, args) => {
                let called = match proc {
                    Proc::Effect(index) => effect(*index),
                    _ => Extent::default(),
                };
                args.iter().fold(called, |total, arg| total.beside(of(arg)))
            }
            Stmt::If(condition, then, otherwise) => of(condition)
                .beside(block_extent(then, formula, effect))
                .beside(block_extent(otherwise, formula, effect)),
            Stmt::ForEach { filter, body, .. } => {
                filter.as_ref().map(of).unwrap_or_default().beside(block_extent(body, formula, effect))
            }
        };
        inner.under_one()
    }
}

/// Whether a statement of the block (or a block inside it) reads frame slot `slot`.
pub fn block_uses_slot(block: &Block, slot: u16) -> bool {
    block.iter().any(|stmt| match stmt {
        Stmt::Let(_, value, _) | Stmt::Eval(value) => value.uses_slot(slot),
        Stmt::Assign(place, _, value) => place.target().is_some_and(|e| e.uses_slot(slot)) || value.uses_slot(slot),
        Stmt::Proc(_, args) => args.iter().any(|arg| arg.uses_slot(slot)),
        Stmt::If(condition, then, otherwise) => {
            condition.uses_slot(slot) || block_uses_slot(then, slot) || block_uses_slot(otherwise, slot)
        }
        Stmt::ForEach { filter, body, .. } => {
            filter.as_ref().is_some_and(|f| f.uses_slot(slot)) || block_uses_slot(body, slot)
        }
    })
}

/// A block's [`Extent`] (see [`Stmt::extent`]).
pub fn block_extent(block: &Block, formula: &dyn Fn(u16) -> Extent, effect: &dyn Fn(u16) -> Extent) -> Extent {
    block.iter().fold(Extent::default(), |total, stmt| total.beside(stmt.extent(formula, effect)))
}

impl Place {
    /// The expression naming what is assigned to (a space, seat, piece or held item).
    fn target(&self) -> Option<&Expr> {
        match self {
            Place::SpaceCounter(e, _)
            | Place::SpaceOwner(e)
            | Place::SpaceTerrain(e)
            | Place::SeatResource(e, _)
            | Place::PieceStat(e, _)
            | Place::PieceOwner(e)
            | Place::PieceSpace(e)
            | Place::PieceInside(e)
            | Place::HeldCharges(e) => Some(e),
            Place::Var(_) => None,
        }
    }
}

impl Read {
    fn inner(&self) -> Option<&Expr> {
        match self {
            Read::SpaceCounter(e, _)
            | Read::SpaceOwner(e)
            | Read::SpaceTerrain(e)
            | Read::SpaceHome(e)
            | Read::SpaceColumn(e)
            | Read::SpaceRow(e)
            | Read::TerrainStat(e, _)
            | Read::SeatResource(e, _)
            | Read::SeatNumber(e)
            | Read::SeatSide(e)
            | Read::PieceStat(e, _)
            | Read::PieceOwner(e)
            | Read::PieceSpace(e)
            | Read::PieceInside(e)
            | Read::PieceAcross(e)
            | Read::PieceKind(e)
            | Read::SeatPiece(e)
            | Read::ItemField(e, _)
            | Read::HeldField(e, _)
            | Read::HeldKind(e)
            | Read::HeldCharges(e)
            | Read::HeldHolder(e)
            | Read::CardDeck(e)
            | Read::CardStat(e, _) => Some(e),
            Read::Var(_) | Read::Turn | Read::Round | Read::CurrentSeat | Read::Phase | Read::Match => None,
        }
    }
}
