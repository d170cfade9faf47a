//! The Lua API as data: every function and field of the `game` and `meeple` tables hooks use,
//! the events `meeple.on` accepts, the functions rules call with `hook("name", ...)`, and the
//! scenario-test API of `meeple test`. It is the single source of truth for
//! `schemas/meeple.lua` (EmmyLua/LuaLS annotations, [`emmylua`]) and
//! `docs/modding/lua-api.md` (the reference, [`markdown`]), both written by `meeple schema`.
//!
//! `engine/tests/lua_api_doc.rs` keeps it honest: it walks the tables of the Lua states the
//! engine really builds and fails when a function is registered that [`TABLES`] does not
//! describe, or described that does not exist.

use std::fmt::Write;

/// Where a part of the API is available.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Context {
    /// In a mod's hooks (`hooks/*.lua`): while the files load and while a hook runs.
    Hook,
    /// In a mod's scenario tests (`tests/*.lua`, run by `meeple test`).
    Scenario,
}

impl Context {
    /// How the documentation names the context.
    pub fn name(self) -> &'static str {
        match self {
            Context::Hook => "hooks",
            Context::Scenario => "scenario tests",
        }
    }
}

/// How a table of the API is reached from Lua.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// A global table: `name.entry(...)`.
    Table,
    /// Global functions and values: `entry(...)`.
    Globals,
    /// Methods of an object: `name:entry(...)`, `name` being the usual variable.
    Object,
    /// The event names `meeple.on` accepts; each entry's parameters are the handler's.
    Events,
    /// Global functions a mod defines itself, which its data calls with `hook("name", ...)`.
    DataHooks,
    /// A table the API takes or gives, described for type checks; nothing registers it.
    Shape,
}

/// What an entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Called with `.` (a table's function or a global function).
    Function,
    /// Called with `:` on an object.
    Method,
    /// A value.
    Field,
    /// An event name for `meeple.on`.
    Event,
    /// A function the mod defines for its data to call.
    Hook,
}

/// A parameter (or a handler's argument, or a shape's field).
#[derive(Clone, Copy, Debug)]
pub struct Param {
    /// The name; `...` for any number of values.
    pub name: &'static str,
    /// The type, in EmmyLua/LuaLS notation (`integer`, `string[]`, `meeple.Space`, `any`).
    pub ty: &'static str,
    /// One line of description.
    pub doc: &'static str,
    /// Whether it may be left out (or be `nil`).
    pub optional: bool,
}

/// One value a function returns.
#[derive(Clone, Copy, Debug)]
pub struct Return {
    /// The type, in EmmyLua/LuaLS notation.
    pub ty: &'static str,
    /// A name for it.
    pub name: &'static str,
    /// One line of description.
    pub doc: &'static str,
}

/// A function, method, field, event or hook of the API.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub name: &'static str,
    pub kind: Kind,
    /// Parameters; for an event, the handler's arguments; for a field, nothing (see `ty`).
    pub params: &'static [Param],
    pub returns: &'static [Return],
    /// A field's type.
    pub ty: &'static str,
    /// What it does, in sentences (may span lines).
    pub doc: &'static str,
    /// A short example in Lua, or empty.
    pub example: &'static str,
    /// A heading grouping entries in the reference ("Reading", "Changing the game"), or empty.
    pub group: &'static str,
    /// It changes the game: refused (with an error) where the game can only be read.
    pub changes: bool,
}

impl Entry {
    const fn new(name: &'static str, kind: Kind, doc: &'static str) -> Self {
        Entry { name, kind, params: &[], returns: &[], ty: "", doc, example: "", group: "", changes: false }
    }
    const fn params(self, params: &'static [Param]) -> Self {
        Entry { params, ..self }
    }
    const fn returns(self, returns: &'static [Return]) -> Self {
        Entry { returns, ..self }
    }
    const fn ty(self, ty: &'static str) -> Self {
        Entry { ty, ..self }
    }
    const fn example(self, example: &'static str) -> Self {
        Entry { example, ..self }
    }
    const fn group(self, group: &'static str) -> Self {
        Entry { group, ..self }
    }
    const fn changes(self) -> Self {
        Entry { changes: true, ..self }
    }
}

/// A table of the API: a global table, the globals of a context, an object's methods, the
/// events, the data hooks, or a shape.
#[derive(Clone, Copy, Debug)]
pub struct ApiTable {
    /// How Lua names it: `game`, `meeple`, `scenario`, `g` (the usual name of a scenario
    /// object); empty for globals, events, data hooks and shapes.
    pub name: &'static str,
    /// The EmmyLua/LuaLS class (`meeple.Game`), or empty when it has none.
    pub class: &'static str,
    /// The reference's heading.
    pub title: &'static str,
    pub access: Access,
    pub context: Context,
    pub doc: &'static str,
    pub entries: &'static [Entry],
}

/// A named type (`---@alias`): a union of literals with one line each, or another type.
#[derive(Clone, Copy, Debug)]
pub struct Alias {
    pub name: &'static str,
    pub doc: &'static str,
    /// The type it stands for, when it is not a list of literals.
    pub ty: &'static str,
    /// Literal values (Lua source, e.g. `"active"`) with one line each.
    pub values: &'static [(&'static str, &'static str)],
}

const fn p(name: &'static str, ty: &'static str, doc: &'static str) -> Param {
    Param { name, ty, doc, optional: false }
}

const fn opt(name: &'static str, ty: &'static str, doc: &'static str) -> Param {
    Param { name, ty, doc, optional: true }
}

const fn r(ty: &'static str, name: &'static str, doc: &'static str) -> Return {
    Return { ty, name, doc }
}

const fn func(name: &'static str, doc: &'static str) -> Entry {
    Entry::new(name, Kind::Function, doc)
}

const fn method(name: &'static str, doc: &'static str) -> Entry {
    Entry::new(name, Kind::Method, doc)
}

const fn field(name: &'static str, ty: &'static str, doc: &'static str) -> Entry {
    Entry::new(name, Kind::Field, doc).ty(ty)
}

const fn event(name: &'static str, doc: &'static str) -> Entry {
    Entry::new(name, Kind::Event, doc).params(&[SEAT_ARG])
}

const SEAT_ARG: Param = p("seat", "integer", "the seat the event concerns (see the event)");
const SPACE: Param = p("space", "meeple.Space", "a space: its number or its label");
const SEAT: Param = p("seat", "integer", "a seat, from 1");
const PIECE: Param = p("piece", "integer", "a piece id, from 1");
const READ: &str = "Reading";
const CHANGE: &str = "Changing the game";
const ARRANGE: &str = "Arranging (test set-up, not game actions)";
const PLAY: &str = "Playing";
const CHECK: &str = "Checking";

/// The annotations' type of event names, made from [`EVENTS`].
pub const EVENT_NAME: &str = "meeple.EventName";

/// The named types the API uses (and [`EVENT_NAME`], made from the events).
pub const ALIASES: &[Alias] = &[
    Alias {
        name: "meeple.Space",
        doc: "A space: its number (1 to the number of spaces) or its label (`\"C07\"`).",
        ty: "integer|string",
        values: &[],
    },
    Alias {
        name: "meeple.SeatStatus",
        doc: "Whether a seat still plays.",
        ty: "",
        values: &[
            ("\"active\"", "still playing"),
            ("\"left\"", "left the game: keeps what it has, takes no more turns"),
            ("\"eliminated\"", "out of the game"),
        ],
    },
    Alias {
        name: "meeple.Level",
        doc: "A computer player's level.",
        ty: "",
        values: &[
            ("\"easy\"", "any legal action, uniformly"),
            ("\"medium\"", "the action with the best `ai.score`"),
            ("\"hard\"", "plays its best actions forward and takes the one that ends best"),
            ("\"random\"", "the same as \"easy\""),
            ("\"greedy\"", "the same as \"medium\""),
            ("\"search\"", "the same as \"hard\""),
        ],
    },
    Alias {
        name: "meeple.Outcome",
        doc: "How a game ended: a win or a draw (see `result`).",
        ty: "meeple.Win|meeple.Draw",
        values: &[],
    },
    Alias {
        name: "meeple.HookResult",
        doc: "What a function called with `hook(\"name\", ...)` returns: a whole number, a \
              boolean (true is 1, false is 0) or nothing (0).",
        ty: "integer|boolean|nil",
        values: &[],
    },
];

/// Every table of the API, in the order of the reference.
pub const TABLES: &[ApiTable] = &[GAME, MEEPLE, EVENTS, DATA_HOOKS, TEST_GLOBALS, SCENARIO, SCENARIO_OBJECT];

/// The tables, then the shapes (kept apart so [`TABLES`] lists what Lua registers).
pub const SHAPES: &[ApiTable] = &[SCENARIO_OPTIONS, ACTION_RECORD, EVENT_RECORD, WIN, DRAW, SHARE];

const GAME: ApiTable = ApiTable {
    name: "game",
    class: "meeple.Game",
    title: "`game`: the game being played",
    access: Access::Table,
    context: Context::Hook,
    doc: "Hooks read the game and ask for changes only through this table. It works while a hook \
          runs (an event handler or a `hook(\"name\", ...)` function), not while the hook files \
          load. Seats, spaces and pieces are numbers from 1; wherever a space is asked for, its \
          label (`\"C07\"`) works too. Changes go through the same bounds (a counter's `min` and \
          `max`) and produce the same events as changes made by the rules' effects.\n\n\
          Where the rules only read the game (listing legal actions, conditions, previews, \
          computer players' scores), a hook may read but not change it: the functions marked \
          *changes the game* then fail with \"the game can only be read here\".",
    entries: &[
        func("turn", "The number of turns begun so far: 1 during the first turn, counted across all seats.")
            .returns(&[r("integer", "turn", "the turn number")])
            .group(READ),
        func("round", "The round: 1 until every seat has had a turn, then 2, and so on (from 1 again in each match).")
            .returns(&[r("integer", "round", "the round number")])
            .group(READ),
        func("current_seat", "The seat whose turn it is.").returns(&[r("integer", "seat", "the seat to move")]).group(READ),
        func("seat_count", "How many seats the game has (including those that are out).")
            .returns(&[r("integer", "count", "the number of seats")])
            .group(READ),
        func("seat_status", "Whether a seat still plays.")
            .params(&[SEAT])
            .returns(&[r("meeple.SeatStatus", "status", "`\"active\"`, `\"left\"` or `\"eliminated\"`")])
            .example("if game.seat_status(seat) ~= \"active\" then return end")
            .group(READ),
        func("seat_name", "The name of the player at a seat.")
            .params(&[SEAT])
            .returns(&[r("string", "name", "the seat's name")])
            .group(READ),
        func("space_count", "How many spaces the board has; spaces are numbered 1 to this.")
            .returns(&[r("integer", "count", "the number of spaces")])
            .group(READ),
        func("space", "The number of the space with a label.")
            .params(&[p("label", "string", "a space's label, e.g. \"C07\"")])
            .returns(&[r("integer?", "space", "its number, or nil when no space has that label")])
            .group(READ),
        func("label", "The label of a space.")
            .params(&[SPACE])
            .returns(&[r("string", "label", "the space's label")])
            .group(READ),
        func("owner", "The seat that owns a space.")
            .params(&[SPACE])
            .returns(&[r("integer?", "seat", "the owner, or nil when nobody owns it")])
            .group(READ),
        func("counter", "The value of one of a space's counters (`[space_counters.<id>]` in the data).")
            .params(&[SPACE, p("name", "string", "the counter's id")])
            .returns(&[r("integer", "value", "the counter's value")])
            .example("local gold = game.counter(\"C07\", \"gold\")")
            .group(READ),
        func("terrain", "The terrain of a space.")
            .params(&[SPACE])
            .returns(&[r("string?", "terrain", "the terrain's id")])
            .group(READ),
        func("neighbors", "The spaces next to a space, as numbers.")
            .params(&[SPACE])
            .returns(&[r("integer[]", "spaces", "the neighbouring spaces")])
            .example("for _, n in ipairs(game.neighbors(space)) do\n  if game.owner(n) == seat then friends = friends + 1 end\nend")
            .group(READ),
        func(
            "line_of_sight",
            "Whether sight passes between two spaces: the rules language's `line_of_sight(a, b)` (blocking \
             terrain and walls, heights). False on boards without cells.",
        )
        .params(&[p("from", "meeple.Space", "one end"), p("to", "meeple.Space", "the other end")])
        .returns(&[r("boolean", "sees", "whether the line between them is clear")])
        .group(READ),
        func(
            "beyond",
            "The squares one step beyond `to`, straight away from `from`, on a square grid: the one next along a \
             row, column or diagonal through both, else the two around the line (see the rules language's \
             `beyond`). Squares off the board are left out; walls, terrain and pieces are not weighed.",
        )
        .params(&[p("from", "meeple.Space", "where the push comes from"), p("to", "meeple.Space", "the square pushed from")])
        .returns(&[r("integer[]", "spaces", "none, one or two squares")])
        .example(
            "local onto = game.beyond(attacker_space, target_space)\nif #onto == 1 and not game.wall(target_space, onto[1]) \
             and #game.pieces(onto[1]) == 0 then\n  game.move_piece(target, onto[1])\nend",
        )
        .group(READ),
        func("wall", "The wall standing between two neighbouring spaces, by its terrain.")
            .params(&[p("a", "meeple.Space", "one space"), p("b", "meeple.Space", "its neighbour")])
            .returns(&[r("string?", "terrain", "the wall's terrain id, or nil when no wall stands there (or they are not neighbours)")])
            .group(READ),
        func("distance", "The number of steps between two spaces.")
            .params(&[p("from", "meeple.Space", "where to start"), p("to", "meeple.Space", "where to arrive")])
            .returns(&[r("integer?", "steps", "the distance, or nil when `to` cannot be reached")])
            .group(READ),
        func("owned", "How many spaces a seat owns.")
            .params(&[SEAT])
            .returns(&[r("integer", "count", "the number of spaces")])
            .group(READ),
        func("largest_group", "The size of a seat's largest group of connected spaces it owns.")
            .params(&[SEAT])
            .returns(&[r("integer", "size", "the number of spaces in the group")])
            .group(READ),
        func("resource", "A seat's amount of a resource (`[resources.<id>]` in the data).")
            .params(&[SEAT, p("name", "string", "the resource's id")])
            .returns(&[r("integer", "value", "the amount")])
            .group(READ),
        func("var", "The value of a game variable (`[vars]` in the data).")
            .params(&[p("name", "string", "the variable's id")])
            .returns(&[r("integer", "value", "the variable's value")])
            .group(READ),
        func("stat", "The value of one of a piece's stats (`[stats.<id>]` in the data).")
            .params(&[PIECE, p("name", "string", "the stat's id")])
            .returns(&[r("integer", "value", "the stat's value")])
            .group(READ),
        func("piece_kind", "The kind of a piece.")
            .params(&[PIECE])
            .returns(&[r("string", "kind", "the piece kind's id")])
            .group(READ),
        func("piece_space", "The space a piece stands on, as a number.")
            .params(&[PIECE])
            .returns(&[r("integer?", "space", "the space, or nil when the piece is off the board")])
            .group(READ),
        func("piece_owner", "The seat that owns a piece.")
            .params(&[PIECE])
            .returns(&[r("integer?", "seat", "the owner, or nil when nobody owns it")])
            .group(READ),
        func("alive", "Whether a piece is still in play (a piece removed keeps its id).")
            .params(&[PIECE])
            .returns(&[r("boolean", "alive", "true while the piece is in play")])
            .group(READ),
        func("items", "The items a piece holds, in the order it holds them.")
            .params(&[PIECE])
            .returns(&[r("string[]", "items", "item ids")])
            .example("for _, item in ipairs(game.items(piece)) do\n  if item == \"shield\" then return true end\nend")
            .group(READ),
        func("inside", "The holder a piece is inside (a crate's wagon), as `piece.inside` in the rules.")
            .params(&[PIECE])
            .returns(&[r("integer?", "holder", "the holder's piece id, or nil when the piece is inside nothing")])
            .group(READ),
        func("contents", "The pieces in play inside a holder, in id order.")
            .params(&[p("holder", "integer", "the holder's piece id")])
            .returns(&[r("integer[]", "pieces", "piece ids")])
            .example("for _, rider in ipairs(game.contents(wagon)) do\n  game.set_stat(rider, \"health\", game.stat(rider, \"health\") - 1)\nend")
            .group(READ),
        func("across", "The other space of a piece standing between two (a wall on a border), as `piece.across` in the rules.")
            .params(&[PIECE])
            .returns(&[r("integer?", "space", "the space of the higher id of the two, or nil for a piece in one space")])
            .group(READ),
        func("piece_between", "The first piece in play standing between two neighbouring spaces, in either order.")
            .params(&[p("a", "meeple.Space", "one side"), p("b", "meeple.Space", "the other side")])
            .returns(&[r("integer?", "piece", "its id, or nil when nothing stands there")])
            .group(READ),
        func("pieces", "The pieces still in play, in id order; only those on one space when a space is given.")
            .params(&[opt("space", "meeple.Space", "only the pieces on this space")])
            .returns(&[r("integer[]", "pieces", "piece ids")])
            .example("for _, piece in ipairs(game.pieces(space)) do\n  game.set_stat(piece, \"health\", game.stat(piece, \"health\") - 1)\nend")
            .group(READ),
        func(
            "hand",
            "The cards in a seat's hand. Hooks run on the game itself and read every hand; in a \
             computer player's guess at the game the cards its seat does not know are guessed too \
             (see [How a game runs](how-a-game-runs.md#hidden-information)).",
        )
        .params(&[SEAT])
        .returns(&[r("string[]", "cards", "card ids, in the hand's order (only the known ones, in a seat's view)")])
        .group(READ),
        func("attached", "The cards attached to a piece (`attach`), face up for every seat to see.")
            .params(&[PIECE])
            .returns(&[r("string[]", "cards", "card ids, in the order attached")])
            .group(READ),
        func("hand_size", "How many cards a seat holds, known or not.")
            .params(&[SEAT])
            .returns(&[r("integer", "count", "the number of cards in the hand")])
            .group(READ),
        func(
            "get",
            "Data the mod's hooks kept with `game.put`, exactly as it was kept: integer keys stay \
             integers, lists stay lists, whole and fractional numbers stay what they were. It lives in \
             the game state, so it is saved, replayed and undone with the game.",
        )
        .params(&[p("key", "string", "the name it was kept under")])
        .returns(&[r("any", "value", "a copy of the data, or nil when nothing is kept under `key`")])
        .example("local seen = game.get(\"seen\") or {}")
        .group(READ),
        func(
            "put",
            "Keeps plain data in the game state under a name: finite numbers, UTF-8 strings, booleans \
             and tables of them, nested at most 32 deep, whose keys are strings or whole numbers (a \
             table may have both: `{[1] = a, [\"1\"] = b}` keeps both). `game.get` gives back exactly \
             that. Anything else is refused with an error at the line that tried: functions, \
             coroutines, a table that holds itself, NaN and infinities, keys that are fractions, \
             booleans or tables. `nil` removes the data. Hooks keep nothing else between calls: a Lua \
             variable does not survive a save or an undo, and previews, computer players and odds run \
             hooks any number of times that a replay does not. So once the hook files are loaded their \
             globals are frozen: assigning one is an error at that line. A file's own `local`s are \
             not caught: do not count in them either.",
        )
        .params(&[p("key", "string", "the name to keep it under"), opt("value", "any", "the data; nil removes it")])
        .example("local seen = game.get(\"seen\") or {}\nseen[#seen + 1] = game.turn()\ngame.put(\"seen\", seen)")
        .group(CHANGE)
        .changes(),
        func("set_counter", "Sets one of a space's counters, kept within its `min` and `max`.")
            .params(&[SPACE, p("name", "string", "the counter's id"), p("value", "integer", "the new value")])
            .example("game.set_counter(space, \"gold\", game.counter(space, \"gold\") + 1)")
            .group(CHANGE)
            .changes(),
        func("set_owner", "Gives a space to a seat, or to nobody.")
            .params(&[SPACE, opt("seat", "integer", "the new owner; nil for nobody")])
            .group(CHANGE)
            .changes(),
        func("set_resource", "Sets a seat's amount of a resource, kept within its `min` and `max`.")
            .params(&[SEAT, p("name", "string", "the resource's id"), p("value", "integer", "the new amount")])
            .group(CHANGE)
            .changes(),
        func("set_var", "Sets a game variable, kept within its `min` and `max`.")
            .params(&[p("name", "string", "the variable's id"), p("value", "integer", "the new value")])
            .group(CHANGE)
            .changes(),
        func("set_stat", "Sets one of a piece's stats, kept within its `min` and `max`.")
            .params(&[PIECE, p("name", "string", "the stat's id"), p("value", "integer", "the new value")])
            .group(CHANGE)
            .changes(),
        func(
            "offer",
            "Offers a seat a response action (one with `response = true`) out of turn, giving its first \
             parameters: that seat answers before anyone else acts, as with `offer(…)` in the rules \
             language (see How a game runs, Responses out of turn). Spaces, seats and pieces are \
             numbers from 1 (a space also by its label); items and cards by id. A seat no longer \
             playing is offered nothing.",
        )
        .params(&[
            SEAT,
            p("action", "string", "the response action's id"),
            p("...", "any", "its first parameters, in order"),
        ])
        .example("game.offer(2, \"toll\", game.current_seat())")
        .group(CHANGE)
        .changes(),
        func(
            "reveal_hand",
            "Shows every card a seat holds now to another seat, or to every seat: from then on they \
             are in that seat's view (`meeple run --as`, the window, its computer player) until they \
             leave the hand. A `cards_revealed` event names them for the seats they are shown to.",
        )
        .params(&[SEAT, opt("to", "integer", "the seat they are shown to; nil for every seat")])
        .example("game.reveal_hand(2, game.current_seat())")
        .group(CHANGE)
        .changes(),
        func(
            "reveal_card",
            "Shows one copy of a card in a seat's hand — one the other seat has not seen yet — to \
             that seat, or to every seat.",
        )
        .params(&[
            SEAT,
            p("card", "string", "the card's id"),
            opt("to", "integer", "the seat it is shown to; nil for every seat"),
        ])
        .returns(&[r("boolean", "shown", "false when the seat holds no such copy (nothing changes)")])
        .group(CHANGE)
        .changes(),
        func(
            "discard",
            "Moves one copy of a card from a seat's hand to its deck's discard pile, face up. An \
             error when the seat holds no copy.",
        )
        .params(&[SEAT, p("card", "string", "the card's id")])
        .example("game.discard(seat, \"sword\")")
        .group(CHANGE)
        .changes(),
        func(
            "give_card",
            "Moves one copy of a card from one seat's hand to another's (a trade, a gift). Both \
             seats know the card then; the others see that a card changed hands. An error when the \
             seat it comes from holds no copy.",
        )
        .params(&[
            p("from", "integer", "the seat giving it, from 1"),
            p("to", "integer", "the seat receiving it, from 1"),
            p("card", "string", "the card's id"),
        ])
        .group(CHANGE)
        .changes(),
        func(
            "return_card",
            "Moves one copy of a card from a seat's hand to the bottom of its deck's draw pile. An \
             error when the seat holds no copy.",
        )
        .params(&[SEAT, p("card", "string", "the card's id")])
        .group(CHANGE)
        .changes(),
        func(
            "attach",
            "Moves one copy of a card from a seat's hand onto a piece in play, face up, after the \
             cards it holds already. An error when the seat holds no copy.",
        )
        .params(&[PIECE, p("card", "string", "the card's id"), p("seat", "integer", "the seat whose hand it comes from")])
        .example("game.attach(piece, \"shield\", game.piece_owner(piece))")
        .group(CHANGE)
        .changes(),
        func(
            "detach",
            "Moves one copy of a card attached to a piece (the last attached) into a seat's hand; \
             every seat knows it is there. An error when the piece holds no copy.",
        )
        .params(&[PIECE, p("card", "string", "the card's id"), p("seat", "integer", "the seat whose hand it goes to")])
        .group(CHANGE)
        .changes(),
        func(
            "move_piece",
            "Puts a piece on a space, or takes it off the board; the pieces inside it go with it, and a \
             piece inside a holder leaves it.",
        )
            .params(&[PIECE, opt("space", "meeple.Space", "where it goes; nil takes it off the board")])
            .group(CHANGE)
            .changes(),
        func(
            "place",
            "Puts a new piece of a kind on a space, for a seat or for nobody, with its kind's starting \
             stats and items (a neutral piece appearing); gives its id.",
        )
        .params(&[
            p("kind", "string", "the piece kind's id"),
            opt("seat", "integer", "its owner, from 1; nil for nobody"),
            p("space", "meeple.Space", "where it stands"),
        ])
        .returns(&[r("integer", "piece", "the new piece's id")])
        .example("local piece = game.place(\"pawn\", nil, \"c\")")
        .group(CHANGE)
        .changes(),
        func(
            "place_between",
            "Puts a new piece of a kind `on_edge` between two neighbouring spaces (a wall built on a \
             border), for a seat or for nobody; gives its id. An error for a kind not `on_edge` or \
             spaces that are not neighbours.",
        )
        .params(&[
            p("kind", "string", "the piece kind's id"),
            opt("seat", "integer", "its owner, from 1; nil for nobody"),
            p("a", "meeple.Space", "one side"),
            p("b", "meeple.Space", "the other side"),
        ])
        .returns(&[r("integer", "piece", "the new piece's id")])
        .example("local fence = game.place_between(\"fence\", 1, \"B02\", \"B03\")")
        .group(CHANGE)
        .changes(),
        func(
            "place_inside",
            "Puts a new piece of a kind inside a holder (on the holder's space), for a seat or for \
             nobody; gives its id. An error when the holder has no room for it (`can_enter` in the rules).",
        )
        .params(&[
            p("kind", "string", "the piece kind's id"),
            opt("seat", "integer", "its owner, from 1; nil for nobody"),
            p("holder", "integer", "the holder's piece id"),
        ])
        .returns(&[r("integer", "piece", "the new piece's id")])
        .example("local wagon = game.place(\"wagon\", nil, space)\nfor _ = 1, game.random(1, 3) do\n  game.place_inside(\"crate\", nil, wagon)\nend")
        .group(CHANGE)
        .changes(),
        func(
            "set_inside",
            "Puts a piece inside a holder, on the holder's space, or takes it out (nil), where it stands; \
             as `piece.inside = …` in the rules. An error when the holder has no room for it.",
        )
        .params(&[PIECE, opt("holder", "integer", "the holder's piece id; nil takes the piece out")])
        .group(CHANGE)
        .changes(),
        func(
            "remove",
            "Takes a piece out of play, and the pieces inside it, as `remove(piece)` in the rules; a piece \
             already gone stays gone.",
        )
            .params(&[PIECE])
            .group(CHANGE)
            .changes(),
        func(
            "set_piece_owner",
            "Gives a piece to a seat, or to nobody (a piece that deserts its side): everyone sees it change \
             hands (`piece_owner_changed`), as with `piece.owner = …` in the rules.",
        )
        .params(&[PIECE, opt("seat", "integer", "the new owner, from 1; nil for nobody")])
        .example("game.set_piece_owner(piece, nil)")
        .group(CHANGE)
        .changes(),
        func(
            "roll",
            "Rolls dice from the game's own random stream, so games stay reproducible; scenario \
             tests can force the faces (`g:force_dice`). The roll is public: a `rolled` event named \
             `hook` that the window's dice panel and log show to everyone, so a hook that draws \
             something secret (a hidden card, a hidden target) with dice reveals it; draw it with \
             `game.random` instead.",
        )
        .params(&[p("count", "integer", "how many dice, 0 to 1000"), p("sides", "integer", "faces per die, 1 to 1000")])
        .returns(&[r("integer", "sum", "the sum of the faces"), r("integer[]", "faces", "each die's face, in order")])
        .example("local sum, faces = game.roll(2, 6)")
        .group(CHANGE)
        .changes(),
        func(
            "random",
            "A whole number drawn uniformly from the game's own random stream (`math.random` is not \
             available to mods); scenario tests can force the numbers (`g:force_random`). It makes no \
             event: nobody is shown the number.",
        )
        .params(&[p("low", "integer", "the smallest possible value"), p("high", "integer", "the largest possible value")])
        .returns(&[r("integer", "value", "a number from `low` to `high`, both included")])
        .group(CHANGE)
        .changes(),
        func(
            "shuffle",
            "A new list of the same values in a random order, drawn from the game's stream one swap at \
             a time, each as `game.random(1, i)` draws (so `g:force_random` and worked-out odds see \
             them): for the last place a draw among all, then among one fewer, and so on.",
        )
        .params(&[p("list", "any[]", "the values")])
        .returns(&[r("any[]", "shuffled", "the same values, in a random order")])
        .example("local order = game.shuffle(game.contents(wagon))")
        .group(CHANGE)
        .changes(),
        func(
            "spread",
            "Spreads a larger group over a smaller one as evenly as can be, at random: for each value of \
             `items`, one of `onto`, every one of `onto` getting one before any gets two, and two \
             before any gets three. Who meets whom is drawn as `game.shuffle` draws: `onto` shuffled, \
             then the order of `items`. The pairing rule of many battles (each attacker on one \
             defender, all one-on-one before any two-on-one).",
        )
        .params(&[p("items", "any[]", "the values to spread"), p("onto", "any[]", "what they are spread over (not empty)")])
        .returns(&[r("any[]", "targets", "for each value of `items`, in its order, the value of `onto` it went to")])
        .example("local targets = game.spread(attackers, defenders)\nfor i, unit in ipairs(attackers) do\n  strike(unit, targets[i])\nend")
        .group(CHANGE)
        .changes(),
        func(
            "log",
            "Adds a line to the game's log: the values, separated by spaces. It works where the game \
             can only be read too, but nothing is shown then.",
        )
        .params(&[p("...", "any", "the values to show")])
        .example("game.log(\"seat\", seat, \"found\", found, \"gold\")")
        .group(CHANGE),
    ],
};

const MEEPLE: ApiTable = ApiTable {
    name: "meeple",
    class: "meeple.Meeple",
    title: "`meeple`: registering event handlers",
    access: Access::Table,
    context: Context::Hook,
    doc: "Hook files use this table while they load, to register handlers for the game's events.",
    entries: &[
        func(
            "on",
            "Registers a handler for an event (one of `meeple.EventName`, listed under Events). Handlers of one event run in \
             the order they were registered, after the event's TOML `triggers`; they may read and \
             change the game. Once the game has an outcome, no more handlers run except `game_end`'s. \
             An unknown event name is an error that lists the known ones.",
        )
        .params(&[
            p("event", "meeple.EventName", "the event's name"),
            p("handler", "fun(seat: integer)", "called with the seat the event concerns"),
        ])
        .example("meeple.on(\"turn_start\", function(seat)\n  game.set_resource(seat, \"coins\", game.resource(seat, \"coins\") + game.owned(seat))\nend)"),
        field(
            "api_version",
            "integer",
            "The engine API version this engine implements (a mod names the one it targets in \
             `mod.toml`'s `api`).",
        ),
    ],
};

const EVENTS: ApiTable = ApiTable {
    name: "",
    class: "",
    title: "Events",
    access: Access::Events,
    context: Context::Hook,
    doc: "The events `meeple.on` accepts. Every handler gets one argument, a seat number; what it \
          means depends on the event. The same names are what the data's `[[triggers]]` take in `on`.",
    entries: &[
        event("game_start", "After setup, before the first turn. `seat` is the seat that moves first."),
        event("turn_start", "A seat's turn begins (after the turn's `on_start`). `seat` is that seat."),
        event("turn_end", "A seat's turn ends (after the turn's `on_end`). `seat` is that seat."),
        event(
            "after_action",
            "After every applied action, before the end conditions are checked. `seat` is the seat to \
             move.",
        ),
        event("seat_out", "A seat dropped out (eliminated or left). `seat` is that seat."),
        event("match_end", "A match ended (after the turn's `on_match_end`). `seat` is always 1."),
        event(
            "game_end",
            "The game ended (its outcome is decided). `seat` is the seat that was to move. An error \
             here cannot undo the ending: it is written to the log instead.",
        ),
    ],
};

const DATA_HOOKS: ApiTable = ApiTable {
    name: "",
    class: "",
    title: "Functions the data calls: `hook(\"name\", ...)`",
    access: Access::DataHooks,
    context: Context::Hook,
    doc: "An expression or effect in the data may call `hook(\"name\", args...)`: it calls the \
          global function `name` that the mod's hook files define. Loading the mod fails when no \
          hook file defines it. When several hook files (or a mod and a mod it `extends`) define \
          the same name, the one loaded last wins.",
    entries: &[Entry::new(
        "name",
        Kind::Hook,
        "A global function of the mod, called by `hook(\"name\", ...)` in the data. Seats, spaces \
         and pieces arrive as their numbers (from 1), numbers as numbers, true/false as booleans. \
         It must return a whole number, a boolean (true is 1, false is 0) or nothing (0); anything \
         else is an error. It runs with the game readable; in effects it may change the game too, \
         in conditions, listings and previews it may only read.",
    )
    .params(&[p("...", "any", "the arguments written in the data")])
    .returns(&[r("meeple.HookResult", "value", "the value of `hook(...)` in the data")])
    .example(
        "-- data: damage = \"hook('burst', shots)\"\n---@param shots integer\n---@return integer\nfunction burst(shots)\n  local sum = game.roll(shots, 6)\n  return sum\nend",
    )],
};

const TEST_GLOBALS: ApiTable = ApiTable {
    name: "",
    class: "",
    title: "Test functions",
    access: Access::Globals,
    context: Context::Scenario,
    doc: "A scenario test file (`tests/*.lua`) registers tests with `test`; `meeple test` runs \
          each in turn. Files named `tests/_*.lua` are helpers, loaded before every test file into \
          the same sandbox. A failed expectation stops the test and names the file and line.",
    entries: &[
        func("test", "Registers a test.")
            .params(&[p("name", "string", "the test's name, shown by `meeple test`"), p("body", "fun()", "the test")])
            .example("test(\"a claim takes the space\", function()\n  local g = scenario.new{ seed = 3, seats = 2 }\n  g:act{ action = \"claim\", space = \"b\" }\n  expect_eq(g:owner(\"b\"), 1)\nend)")
            .group(CHECK),
        func("expect_eq", "Fails unless two values are equal; tables are compared by their contents.")
            .params(&[
                p("actual", "any", "the value found"),
                p("expected", "any", "the value wanted"),
                opt("message", "string", "said before the difference"),
            ])
            .example("expect_eq(g:items(1), { \"sword\", \"torch\" }, \"what the piece holds\")")
            .group(CHECK),
        func("expect", "Fails unless a condition holds.")
            .params(&[p("condition", "any", "false or nil fails"), opt("message", "string", "the failure's message")])
            .group(CHECK),
        func("expect_error", "Fails unless a function raises an error (containing a text, when given).")
            .params(&[
                p("body", "fun(): any", "the function to call"),
                opt("text", "string", "text the error must contain (plain, not a pattern)"),
            ])
            .example("expect_error(function() g:act{ action = \"claim\", space = \"zz\" } end, \"no space\")")
            .group(CHECK),
        func("expect_near", "Fails unless a number is within a tolerance of another.")
            .params(&[
                p("actual", "number?", "the value found (anything but a number fails)"),
                p("expected", "number", "the value wanted"),
                p("tolerance", "number", "the largest difference allowed"),
                opt("message", "string", "said before the difference"),
            ])
            .example("expect_near(g:chance{ action = \"attack\", from = \"a\", to = \"b\" }, 0.5, 1e-9)")
            .group(CHECK),
        func(
            "print",
            "Writes to the test's output, as Lua's `print` would (the values as `tostring` shows them, \
             separated by tabs): `meeple test` shows it under the test's name, whether it passes or \
             fails. At most 64 KiB per test.",
        )
        .params(&[p("...", "any", "the values to show")])
        .example("print(\"owner of b:\", g:owner(\"b\"))")
        .group(CHECK),
        field(
            "helpers",
            "table<string, any>",
            "A table the helper files (`tests/_*.lua`) put shared functions and values on, for every \
             test file of the mod.",
        )
        .example("-- tests/_helpers.lua\nfunction helpers.line(ids)\n  local spaces, links = {}, {}\n  for i, id in ipairs(ids) do\n    spaces[i] = { id = id }\n    if i > 1 then links[#links + 1] = { ids[i - 1], id } end\n  end\n  return { kind = \"graph\", terrain = \"land\", spaces = spaces, links = links }\nend")
        .group(CHECK),
    ],
};

const SCENARIO: ApiTable = ApiTable {
    name: "scenario",
    class: "meeple.ScenarioLib",
    title: "`scenario`: starting a game under test",
    access: Access::Table,
    context: Context::Scenario,
    doc: "Starts games for scenario tests.",
    entries: &[func(
        "new",
        "Starts a game of the mod with human players at every seat: its setup has run and the \
         first seat is to move. Options choose the seed, the seats and a board of the test's own.",
    )
    .params(&[opt("options", "meeple.ScenarioOptions", "seed, seats, board (all optional)")])
    .returns(&[r("meeple.Scenario", "g", "the game under test")])
    .example(
        "local g = scenario.new{ seed = 7, seats = { \"Ann\", \"Bob\" }, board = helpers.line{ \"a\", \"b\", \"c\" } }",
    )],
};

const SCENARIO_OBJECT: ApiTable = ApiTable {
    name: "g",
    class: "meeple.Scenario",
    title: "The game under test (`g`)",
    access: Access::Object,
    context: Context::Scenario,
    doc: "What `scenario.new` returns. Read the state, arrange it, take actions and check what \
          happened. Seats and pieces are numbers from 1; spaces are given by label or number, and \
          given back by label. Arranging sets the state directly: no effects or triggers run and \
          no events are recorded.",
    entries: &[
        method("owner", "The seat that owns a space.")
            .params(&[SPACE])
            .returns(&[r("integer?", "seat", "the owner, or nil when nobody owns it")])
            .group(READ),
        method("terrain", "The terrain of a space, as it is now (it may have changed in play).")
            .params(&[SPACE])
            .returns(&[r("string", "terrain", "the terrain's id")])
            .group(READ),
        method("counter", "The value of one of a space's counters.")
            .params(&[SPACE, p("name", "string", "the counter's id")])
            .returns(&[r("integer", "value", "the counter's value")])
            .group(READ),
        method("resource", "A seat's amount of a resource.")
            .params(&[SEAT, p("name", "string", "the resource's id")])
            .returns(&[r("integer", "value", "the amount")])
            .group(READ),
        method("var", "The value of a game variable.")
            .params(&[p("name", "string", "the variable's id")])
            .returns(&[r("integer", "value", "the variable's value")])
            .group(READ),
        method("stat", "The value of one of a piece's stats.")
            .params(&[PIECE, p("name", "string", "the stat's id")])
            .returns(&[r("integer", "value", "the stat's value")])
            .group(READ),
        method("piece_space", "The label of the space a piece stands on (a label, unlike `game.piece_space`).")
            .params(&[PIECE])
            .returns(&[r("string?", "label", "the space's label, or nil when the piece is off the board")])
            .group(READ),
        method("piece_owner", "The seat that owns a piece.")
            .params(&[PIECE])
            .returns(&[r("integer?", "seat", "the owner, or nil when nobody owns it")])
            .group(READ),
        method("inside", "The holder a piece is inside, or nil.")
            .params(&[PIECE])
            .returns(&[r("integer?", "holder", "the holder's piece id")])
            .group(READ),
        method("contents", "The pieces in play inside a holder, in id order.")
            .params(&[p("holder", "integer", "the holder's piece id")])
            .returns(&[r("integer[]", "pieces", "piece ids")])
            .example("expect_eq(#g:contents(wagon), 3)")
            .group(READ),
        method("alive", "Whether a piece is still in play (false for a piece id that does not exist).")
            .params(&[PIECE])
            .returns(&[r("boolean", "alive", "true while the piece is in play")])
            .group(READ),
        method("piece_of", "A seat's first piece still in play.")
            .params(&[SEAT])
            .returns(&[r("integer?", "piece", "the lowest such piece id, or nil when the seat has none")])
            .group(READ),
        method("items", "The items a piece holds, in the order it holds them (positions from 1).")
            .params(&[PIECE])
            .returns(&[r("string[]", "items", "item ids")])
            .example("expect_eq(g:items(1), { \"sword\" })")
            .group(READ),
        method("attached", "The cards attached to a piece (`attach`), in the order attached.")
            .params(&[PIECE])
            .returns(&[r("string[]", "cards", "card ids")])
            .example("expect_eq(g:attached(1), { \"shield\" })")
            .group(READ),
        method("charges", "The charges of an item a piece holds (the first one of that id).")
            .params(&[PIECE, p("item", "string", "the item's id")])
            .returns(&[r("integer", "charges", "its charges")])
            .group(READ),
        method(
            "awaiting",
            "The action waiting for its `after_roll` choices: its first step rolled, and only its \
             completions and `cancel` are legal now.",
        )
        .returns(&[r("string?", "action", "the action's id, or nil when no action is half-taken")])
        .group(READ),
        method("turn", "The number of turns begun so far.")
            .returns(&[r("integer", "turn", "the turn number")])
            .group(READ),
        method("round", "The round (from 1 in each match).")
            .returns(&[r("integer", "round", "the round number")])
            .group(READ),
        method("current_seat", "The seat whose turn it is.")
            .returns(&[r("integer", "seat", "the seat to move")])
            .group(READ),
        method(
            "seat_to_act",
            "The seat that acts next: the one answering a response offered out of turn while one \
             waits, else the seat whose turn it is. `g:act` acts for it unless the action names a seat.",
        )
        .returns(&[r("integer", "seat", "the seat to act")])
        .example("expect_eq(g:seat_to_act(), 2, \"seat 2 may ambush\")")
        .group(READ),
        method("owned", "How many spaces a seat owns.")
            .params(&[SEAT])
            .returns(&[r("integer", "count", "the number of spaces")])
            .group(READ),
        method("seat_status", "Whether a seat still plays.")
            .params(&[SEAT])
            .returns(&[r("meeple.SeatStatus", "status", "`\"active\"`, `\"left\"` or `\"eliminated\"`")])
            .group(READ),
        method("space_count", "How many spaces the board has.")
            .returns(&[r("integer", "count", "the number of spaces")])
            .group(READ),
        method("labels", "The labels of all spaces, in space order.")
            .returns(&[r("string[]", "labels", "the labels")])
            .group(READ),
        method("neighbors", "The labels of the spaces next to a space.")
            .params(&[SPACE])
            .returns(&[r("string[]", "labels", "the neighbours' labels")])
            .group(READ),
        method("outcome", "How the game ended.")
            .returns(&[r("meeple.Outcome?", "outcome", "nil while the game goes on")])
            .example("expect_eq(g:outcome(), { result = \"win\", seats = { 2 } })")
            .group(READ),
        method("over", "Whether the game has ended.")
            .returns(&[r("boolean", "over", "true once there is an outcome")])
            .group(READ),
        method(
            "state",
            "The whole state as `meeple run --json` shows it: `turn`, `round`, `match`, \
             `seat_to_move`, `phase`, `outcome`, `seats`, `spaces`, `pieces`, `vars`, `hash`.",
        )
        .returns(&[r("table", "state", "a readable copy of the state")])
        .group(READ),
        method("hash", "A hash of the whole game state; equal states have equal hashes.")
            .returns(&[r("string", "hash", "hexadecimal")])
            .group(READ),
        method(
            "events",
            "The events since the last action began (the last `act`, `try` or `pass`, or the last action \
             `play` took; before any, since the game began), or of the whole game.",
        )
        .params(&[opt("all", "boolean", "true for every event since the game began")])
        .returns(&[r("meeple.EventRecord[]", "events", "the events, in order")])
        .example("for _, e in ipairs(g:events()) do\n  if e.event == \"rolled\" then expect_eq(#e.faces, 2) end\nend")
        .group(READ),
        method(
            "legal",
            "The actions the seat to act may take now (`g:seat_to_act()`: the seat answering an offer while one \
             waits, else the seat to move), as records `act` accepts.",
        )
            .returns(&[r("meeple.ActionRecord[]", "actions", "the legal actions, in the engine's order")])
            .group(READ),
        method("chance", "The exact probability that an action succeeds (its `success`), before it is taken.")
            .params(&[p("action", "meeple.ActionRecord", "the action")])
            .returns(&[r("number?", "chance", "0 to 1, or nil when the action has no `success`")])
            .group(READ),
        method(
            "preview",
            "The figures the action's `preview` shows, by label, and how far each may be off: 0 for a figure \
             worked out over every outcome, else the half-width of its 95% interval (odds of a hook whose draws \
             are too many to enumerate are sampled). The action need not be legal now: its figures are worked \
             out for it as given, as the window does for each choice it offers.",
        )
            .params(&[p("action", "meeple.ActionRecord", "the action")])
            .returns(&[
                r("table<string, number>", "figures", "each figure's value by its label"),
                r("table<string, number>", "margins", "each figure's 95% margin by its label; 0 when exact"),
            ])
            .group(READ),
        method("deck", "A deck's piles, as card ids, the top of each pile first.")
            .params(&[p("deck", "string", "the deck's id")])
            .returns(&[r("{ draw: string[], discard: string[] }", "piles", "the draw and the discard pile")])
            .example("expect_eq(g:deck(\"omens\").draw[1], \"comet\", \"drawn next\")")
            .group(READ),
        method("set_owner", "Gives a space to a seat, or to nobody.")
            .params(&[SPACE, opt("seat", "integer", "the new owner; nil for nobody")])
            .group(ARRANGE),
        method("set_counter", "Sets one of a space's counters (kept within its `min` and `max`).")
            .params(&[SPACE, p("name", "string", "the counter's id"), p("value", "integer", "the new value")])
            .group(ARRANGE),
        method("set_resource", "Sets a seat's amount of a resource (kept within its `min` and `max`).")
            .params(&[SEAT, p("name", "string", "the resource's id"), p("value", "integer", "the new amount")])
            .group(ARRANGE),
        method("set_var", "Sets a game variable (kept within its `min` and `max`).")
            .params(&[p("name", "string", "the variable's id"), p("value", "integer", "the new value")])
            .group(ARRANGE),
        method("set_status", "Sets whether a seat still plays.")
            .params(&[SEAT, p("status", "meeple.SeatStatus", "`\"active\"`, `\"left\"` or `\"eliminated\"`")])
            .group(ARRANGE),
        method(
            "set_turn",
            "Gives a seat the turn, with nothing done yet this turn (budgets unused, no action \
             half-taken). It only hands the turn over: nothing of a turn's start runs (not the \
             turn's `on_start`, the phase's `on_start`, the `turn_start` triggers and handlers, nor \
             the end checks), the phase and the round stay as they were, and the turn number \
             changes only when given. To test what happens at the start of a turn, play up to it \
             (`g:pass()`, `g:act`).",
        )
        .params(&[SEAT, opt("number", "integer", "the turn number to set too")])
        .group(ARRANGE),
        method(
            "force_dice",
            "Makes the next dice rolled (by the rules or by `game.roll`) show these faces, in order; \
             after them, dice are random again.",
        )
        .params(&[p("faces", "integer[]", "the faces")])
        .example("g:force_dice{ 6, 6, 1 }")
        .group(ARRANGE),
        method("forced_left", "How many forced faces have not been rolled yet.")
            .returns(&[r("integer", "count", "the faces left")])
            .group(ARRANGE),
        method(
            "force_random",
            "Makes the next calls of `game.random` in hooks answer these numbers, in order, as \
             `force_dice` does for dice; after them, the numbers are random again. A forced number \
             outside the range a call asks for fails that call, naming both. The rules language's \
             `random` is not forced.",
        )
        .params(&[p("numbers", "integer[]", "the numbers")])
        .example("g:force_random{ 3, 1 } -- the next game.random(1, 6) gives 3, the one after 1")
        .group(ARRANGE),
        method("forced_random_left", "How many forced numbers `game.random` has not answered yet.")
            .returns(&[r("integer", "count", "the numbers left")])
            .group(ARRANGE),
        method(
            "set_hand",
            "Makes a seat's hand of one deck exactly these cards, in this order. The cards it held of \
             that deck go under the draw pile (drawn last); each card named is taken from the draw \
             pile, the discard pile or another seat's hand, so no card is made or lost. A card the \
             deck does not have is an error.",
        )
        .params(&[
            SEAT,
            p("deck", "string", "the deck's id"),
            p("cards", "string[]", "the cards' ids; the same id twice for two copies"),
        ])
        .example("g:set_hand(1, \"omens\", { \"comet\", \"comet\", \"eclipse\" })\nexpect_eq(g:state().seats[1].hand, { \"comet\", \"comet\", \"eclipse\" })")
        .group(ARRANGE),
        method(
            "set_deck",
            "Puts these cards on top of a deck's draw pile, the first named on top, so they are \
             drawn in this order; the rest of the pile stays below, in its order. The cards are taken \
             from the draw or the discard pile (cards in hands: `set_hand`).",
        )
        .params(&[p("deck", "string", "the deck's id"), p("cards", "string[]", "the cards' ids, top first")])
        .example("g:set_deck(\"omens\", { \"eclipse\", \"flood\" }) -- the next card drawn is the eclipse")
        .group(ARRANGE),
        method("set_stat", "Sets one of a piece's stats (kept within its `min` and `max`).")
            .params(&[PIECE, p("name", "string", "the stat's id"), p("value", "integer", "the new value")])
            .group(ARRANGE),
        method(
            "place",
            "Puts a new piece on a space, as the rules' `place` would: with its kind's starting \
             stats and items. An unknown kind or space is an error.",
        )
        .params(&[
            p("kind", "string", "the piece kind's id (a key of `[pieces]`)"),
            opt("seat", "integer", "the owner; nil for nobody"),
            p("space", "meeple.Space", "where it goes"),
        ])
        .returns(&[r("integer", "piece", "the new piece's id")])
        .example("local knight = g:place(\"knight\", 1, \"B02\")\nexpect_eq(g:piece_space(knight), \"B02\")")
        .group(ARRANGE),
        method(
            "remove",
            "Takes a piece out of play, with the pieces inside it, as the rules' `remove` would; its id is not reused.",
        )
            .params(&[PIECE])
            .group(ARRANGE),
        method("move_piece", "Puts a piece on a space, with the pieces inside it; a piece inside a holder leaves it.")
            .params(&[PIECE, p("space", "meeple.Space", "where it goes")])
            .group(ARRANGE),
        method("place_between", "Puts a new piece of a kind `on_edge` between two neighbouring spaces.")
            .params(&[
                p("kind", "string", "the piece kind's id"),
                opt("seat", "integer", "the owner; nil for nobody"),
                p("a", "meeple.Space", "one side"),
                p("b", "meeple.Space", "the other side"),
            ])
            .returns(&[r("integer", "piece", "the new piece's id")])
            .example("local fence = g:place_between(\"fence\", 1, \"B02\", \"B03\")")
            .group(ARRANGE),
        method("set_inside", "Puts a piece inside a holder (on its space), or takes it out with nil.")
            .params(&[PIECE, opt("holder", "integer", "the holder's piece id; nil takes the piece out")])
            .example("local wagon = g:place(\"wagon\", 1, \"C3\")\ng:set_inside(g:place(\"crate\", 1, \"C3\"), wagon)")
            .group(ARRANGE),
        method("give", "Gives a piece an item, as the rules would (with the item's starting charges).")
            .params(&[PIECE, p("item", "string", "the item's id")])
            .example("g:give(1, \"torch\")")
            .group(ARRANGE),
        method("set_charges", "Sets the charges of an item a piece holds (the first one of that id; at least 0).")
            .params(&[PIECE, p("item", "string", "the item's id"), p("value", "integer", "the charges")])
            .group(ARRANGE),
        method(
            "act",
            "Takes an action as the seat to act (`g:seat_to_act()`), or as the record's `seat`; fails the test with \
             the reason when it is refused.",
        )
        .params(&[p("action", "meeple.ActionRecord", "the action")])
        .example("g:act{ action = \"attack\", from = \"a\", to = \"b\" }")
        .group(PLAY),
        method(
            "try",
            "Takes an action if it is legal. When it is refused, checks that the state is exactly \
             as before and gives the reason.",
        )
        .params(&[p("action", "meeple.ActionRecord", "the action")])
        .returns(&[r("boolean", "ok", "whether the action was taken"), r("string?", "reason", "why it was refused")])
        .example("local ok, reason = g:try{ action = \"attack\", from = \"a\", to = \"c\" }\nexpect_eq(ok, false)")
        .group(PLAY),
        method("pass", "Passes (ends the seat's turn); fails the test when passing is refused.").group(PLAY),
        method(
            "play",
            "Lets computer players of one level play every seat until the game ends (or for a number of actions).",
        )
        .params(&[
            p("level", "meeple.Level", "the computer players' level"),
            opt("limit", "integer", "at most this many actions"),
        ])
        .returns(&[r("integer", "taken", "how many actions were taken")])
        .example("g:play(\"medium\", 200)\nexpect(g:over(), \"the game ends within 200 actions\")")
        .group(PLAY),
        method(
            "replay_hash",
            "Replays the actions taken so far from the same setup and gives the resulting state's \
             hash: equal to `g:hash()` when the game is deterministic and nothing was arranged since \
             the start.",
        )
        .returns(&[r("string", "hash", "hexadecimal")])
        .example("g:play(\"easy\", 50)\nexpect_eq(g:replay_hash(), g:hash())")
        .group(PLAY),
    ],
};

const SCENARIO_OPTIONS: ApiTable = ApiTable {
    name: "",
    class: "meeple.ScenarioOptions",
    title: "Options of `scenario.new`",
    access: Access::Shape,
    context: Context::Scenario,
    doc: "The table `scenario.new` takes.",
    entries: &[
        field("seed", "integer?", "The game's seed (1 when absent)."),
        field(
            "first",
            "integer?",
            "The seat (from 1) that moves first; what the mod's `[seats] first` gives when absent (a drawn first seat too).",
        ),
        field(
            "seats",
            "(integer|string[])?",
            "How many seats, or their names; the mod's default number of seats when absent.",
        ),
        field(
            "board",
            "table?",
            "A board of the test's own, written as the data's `[board]` table (e.g. `{ kind = \
             \"graph\", terrain = \"land\", spaces = {...}, links = {...} }`); the mod's board when absent.",
        ),
        field(
            "options",
            "table<string, string>?",
            "Setup choices by option, e.g. `{ map = \"small\" }`: the mod is loaded with them (once per \
             file and set of choices). Options not named take what the setup screen would for the seat count: \
             the default when it fits, else the first choice for that many seats.",
        ),
    ],
};

const ACTION_RECORD: ApiTable = ApiTable {
    name: "",
    class: "meeple.ActionRecord",
    title: "Action records",
    access: Access::Shape,
    context: Context::Scenario,
    doc: "An action as `g:act`, `g:try`, `g:chance` and `g:preview` take it and `g:legal` gives it: \
          the action's id and each parameter by name. Spaces are labels, seats and pieces numbers \
          from 1; an item a piece holds is `{ piece = 1, position = 2 }`, `{ piece = 1, item = \
          \"sword\" }` or just the item's id.",
    entries: &[
        field("action", "string", "The action's id, or `pass`, `leave` or `cancel`."),
        field("seat", "integer?", "The acting seat; the seat to move when absent."),
        field("[string]", "any", "Each parameter's value, by the parameter's name."),
    ],
};

const EVENT_RECORD: ApiTable = ApiTable {
    name: "",
    class: "meeple.EventRecord",
    title: "Event records",
    access: Access::Shape,
    context: Context::Scenario,
    doc: "An event as `g:events` gives it (and `meeple run --json` shows it).",
    entries: &[
        field(
            "event",
            "string",
            "What happened: `acted`, `rolled`, `decided`, `counter_changed`, `owner_changed`, \
             `resource_changed`, `var_changed`, `stat_changed`, `piece_moved`, `turn_started`, \
             `log`, and so on.",
        ),
        field("[string]", "any", "The event's details (`seat`, `space`, `from`, `to`, `faces`, ...)."),
    ],
};

const WIN: ApiTable = ApiTable {
    name: "",
    class: "meeple.Win",
    title: "Outcomes: a win",
    access: Access::Shape,
    context: Context::Scenario,
    doc: "A game won, as `g:outcome` gives it (`meeple.Outcome` is a win or a draw; after checking \
          `result`, `---@cast o meeple.Win` tells the checker which).",
    entries: &[
        field("result", "\"win\"", "A win."),
        field("seats", "integer[]", "The winning seats: one, or every seat of the winning side."),
    ],
};

const DRAW: ApiTable = ApiTable {
    name: "",
    class: "meeple.Draw",
    title: "Outcomes: a draw",
    access: Access::Shape,
    context: Context::Scenario,
    doc: "A game drawn, as `g:outcome` gives it: the seats that share it, by weight.",
    entries: &[
        field("result", "\"draw\"", "A draw."),
        field("shares", "meeple.Share[]", "Each sharing seat's weight and share, in seat order."),
    ],
};

const SHARE: ApiTable = ApiTable {
    name: "",
    class: "meeple.Share",
    title: "Outcomes: a seat's share of a draw",
    access: Access::Shape,
    context: Context::Scenario,
    doc: "One seat's part of a draw (`end.draw_shares` in the data gives the weights).",
    entries: &[
        field("seat", "integer", "The seat."),
        field("weight", "integer", "Its weight."),
        field("share", "number", "Its weight divided by the sum of the weights (0 to 1)."),
    ],
};

/// Every table: [`TABLES`] then [`SHAPES`].
pub fn all_tables() -> impl Iterator<Item = &'static ApiTable> {
    TABLES.iter().chain(SHAPES)
}

// ---------------------------------------------------------------------------------------------
// EmmyLua / LuaLS annotations

/// One line of an annotation: newlines and runs of spaces folded into single spaces.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Doc comment lines (`---text`) for a description, one per paragraph.
fn doc_lines(out: &mut String, text: &str) {
    for (i, paragraph) in text.split("\n\n").enumerate() {
        if i > 0 {
            out.push_str("---\n");
        }
        let _ = writeln!(out, "---{}", one_line(paragraph));
    }
}

fn annotate_params(out: &mut String, params: &[Param]) {
    for param in params {
        let marker = if param.optional { "?" } else { "" };
        let _ = writeln!(out, "---@param {}{marker} {} # {}", param.name, param.ty, one_line(param.doc));
    }
}

fn annotate_returns(out: &mut String, returns: &[Return]) {
    for ret in returns {
        let _ = writeln!(out, "---@return {} {} # {}", ret.ty, ret.name, one_line(ret.doc));
    }
}

fn param_names(params: &[Param]) -> String {
    params.iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
}

fn annotate_example(out: &mut String, example: &str) {
    if example.is_empty() {
        return;
    }
    out.push_str("---\n---```lua\n");
    for line in example.lines() {
        let _ = writeln!(out, "---{line}");
    }
    out.push_str("---```\n");
}

/// `schemas/meeple.lua`: the whole API as an EmmyLua/LuaLS `---@meta` file.
pub fn emmylua() -> String {
    let mut out = String::new();
    out.push_str("---@meta\n");
    out.push_str(
        "-- The Lua API of Meeple mods, for EmmyLua and LuaLS (completion, hover, type checks).\n\
         -- Generated by `meeple schema` from engine/src/lua/api_doc.rs: do not edit by hand.\n\
         -- Hooks (hooks/*.lua) see `game` and `meeple`; scenario tests (tests/*.lua) see `scenario`,\n\
         -- `test`, the `expect` functions and `helpers`. The reference: docs/modding/lua-api.md.\n",
    );
    for alias in ALIASES {
        out.push('\n');
        doc_lines(&mut out, alias.doc);
        if alias.values.is_empty() {
            let _ = writeln!(out, "---@alias {} {}", alias.name, alias.ty);
        } else {
            let _ = writeln!(out, "---@alias {}", alias.name);
            for (value, doc) in alias.values {
                let _ = writeln!(out, "---| {value} # {}", one_line(doc));
            }
        }
    }
    out.push('\n');
    doc_lines(&mut out, "An event `meeple.on` accepts; the handler gets one argument, a seat.");
    let _ = writeln!(out, "---@alias {EVENT_NAME}");
    for entry in EVENTS.entries {
        let _ = writeln!(out, "---| \"{}\" # {}", entry.name, one_line(entry.doc));
    }
    for table in all_tables() {
        match table.access {
            Access::Table | Access::Object => emmy_class(&mut out, table),
            Access::Globals => emmy_globals(&mut out, table),
            Access::Shape => emmy_shape(&mut out, table),
            // Described by the `meeple.EventName` and `meeple.HookResult` aliases: event names
            // are literals, and data-hook functions are the mod's own.
            Access::Events | Access::DataHooks => {}
        }
    }
    out
}

fn emmy_class(out: &mut String, table: &ApiTable) {
    let _ = write!(out, "\n-- {}\n\n", one_line(&table.title.replace('`', "")));
    doc_lines(out, table.doc);
    let _ = writeln!(out, "---@class {}", table.class);
    for entry in table.entries.iter().filter(|e| e.kind == Kind::Field) {
        let _ = writeln!(out, "---@field {} {} # {}", entry.name, entry.ty, one_line(entry.doc));
    }
    let variable = match table.access {
        Access::Object => {
            let _ = writeln!(out, "local {} = {{}}", class_variable(table));
            class_variable(table)
        }
        _ => {
            let _ = writeln!(out, "{} = {{}}", table.name);
            table.name.to_string()
        }
    };
    for entry in table.entries.iter().filter(|e| e.kind != Kind::Field) {
        out.push('\n');
        emmy_function_doc(out, entry);
        let separator = if entry.kind == Kind::Method { ":" } else { "." };
        let _ = writeln!(out, "function {variable}{separator}{}({}) end", entry.name, param_names(entry.params));
    }
}

/// The local variable an object's class is declared on (`meeple.Scenario` → `Scenario`).
fn class_variable(table: &ApiTable) -> String {
    table.class.rsplit('.').next().unwrap_or(table.class).to_string()
}

fn emmy_function_doc(out: &mut String, entry: &Entry) {
    doc_lines(out, entry.doc);
    if entry.changes {
        out.push_str("---\n---*Changes the game*: refused where the game can only be read.\n");
    }
    annotate_example(out, entry.example);
    annotate_params(out, entry.params);
    annotate_returns(out, entry.returns);
}

fn emmy_globals(out: &mut String, table: &ApiTable) {
    let _ = write!(out, "\n-- {}\n", one_line(&table.title.replace('`', "")));
    for entry in table.entries {
        out.push('\n');
        if entry.kind == Kind::Field {
            doc_lines(out, entry.doc);
            let _ = writeln!(out, "---@type {}", entry.ty);
            let _ = writeln!(out, "{} = {{}}", entry.name);
        } else {
            emmy_function_doc(out, entry);
            let _ = writeln!(out, "function {}({}) end", entry.name, param_names(entry.params));
        }
    }
}

fn emmy_shape(out: &mut String, table: &ApiTable) {
    out.push('\n');
    doc_lines(out, table.doc);
    let _ = writeln!(out, "---@class {}", table.class);
    for entry in table.entries {
        let (name, ty) = match entry.ty.strip_suffix('?') {
            Some(ty) => (format!("{}?", entry.name), ty),
            None => (entry.name.to_string(), entry.ty),
        };
        // `(a|b)?` becomes `a|b` on an optional field.
        let ty = ty.strip_prefix('(').and_then(|t| t.strip_suffix(')')).unwrap_or(ty);
        let _ = writeln!(out, "---@field {name} {ty} # {}", one_line(entry.doc));
    }
}

// ---------------------------------------------------------------------------------------------
// The reference in Markdown

/// A heading's anchor as GitHub makes it: lowercase, spaces to dashes, punctuation dropped.
fn anchor(title: &str) -> String {
    title
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// How the reference writes a call: `game.roll(count, sides)`, `g:act(action)`, `test(name, body)`.
fn signature(table: &ApiTable, entry: &Entry) -> String {
    let params = entry
        .params
        .iter()
        .map(|p| if p.optional { format!("{}?", p.name) } else { p.name.to_string() })
        .collect::<Vec<_>>()
        .join(", ");
    let call = match (table.access, entry.kind) {
        (_, Kind::Field) if table.name.is_empty() => entry.name.to_string(),
        (_, Kind::Field) => format!("{}.{}", table.name, entry.name),
        (Access::Object, _) => format!("{}:{}({params})", table.name, entry.name),
        (Access::Table, _) => format!("{}.{}({params})", table.name, entry.name),
        (Access::Events, _) => format!("meeple.on(\"{}\", function({params}) ... end)", entry.name),
        (Access::DataHooks, _) => format!("function {}({params}) ... end", entry.name),
        _ => format!("{}({params})", entry.name),
    };
    let returns = entry.returns.iter().map(|r| r.name).collect::<Vec<_>>().join(", ");
    if returns.is_empty() || table.access == Access::DataHooks { call } else { format!("{call} → {returns}") }
}

/// Escapes `|` for a Markdown table cell.
fn cell(text: &str) -> String {
    one_line(text).replace('|', "\\|")
}

/// `docs/modding/lua-api.md`: the reference of the Lua API.
pub fn markdown() -> String {
    let mut out = String::new();
    out.push_str("# The Lua API\n\n");
    out.push_str("<!-- Generated by `meeple schema` from engine/src/lua/api_doc.rs: do not edit by hand. -->\n\n");
    out.push_str(
        "A mod's Lua runs in two places. **Hooks** (`hooks/*.lua`) add rules the data cannot say: \
         they define functions the data calls with `hook(\"name\", ...)` and register handlers for \
         the game's events with `meeple.on`; they see the game only through the `game` table. \
         **Scenario tests** (`tests/*.lua`, run by `meeple test`) start games with `scenario.new`, \
         arrange them, take actions and check the results.\n\n\
         Seats, spaces and pieces are numbers from 1. Wherever a space is asked for, its label \
         (`\"C07\"`) works too.\n\n\
         Both run in a sandbox: the standard libraries `string`, `table`, `math`, `utf8` and \
         `coroutine` and the basic functions are there; `io`, `os`, `require`, `load`, `dofile`, \
         `print`, `warn`, `string.dump`, `math.random` and `math.randomseed` are not (use \
         `game.roll` and `game.random`: only the game's own random stream keeps games \
         reproducible), `collectgarbage` only answers `\"count\"`, no metatable may hold \
         `__gc`, `__mode` or `__close` (`setmetatable` refuses them, and a table used as a \
         metatable refuses them later too), to-be-closed variables (`local x <close>`) are \
         refused where they are written, and `pairs` visits keys in a fixed order (numbers, then \
         strings, then `false` and `true`). ",
    );
    let instructions = super::sandbox::INSTRUCTION_LIMIT;
    let instructions = if instructions.is_multiple_of(1_000_000) {
        format!("{} million", instructions / 1_000_000)
    } else {
        instructions.to_string()
    };
    let _ = write!(
        out,
        "A hook call may run {instructions} instructions (a scenario test more; library functions \
         count the data they copy or search) and a mod's Lua may use {} MiB; a runaway script is \
         stopped with its file and line, and no `pcall` can catch that. What a mod can and cannot \
         do: [docs/security.md](../security.md).\n\n",
        super::sandbox::MEMORY_LIMIT / (1024 * 1024)
    );
    out.push_str(
        "`schemas/meeple.lua` describes the same API for editors. With the `.emmyrc.json` at the root \
         of the repository, EmmyLua (the language server `emmylua_ls`, or `emmylua_check -c .emmyrc.json mods`) \
         completes and checks hooks and tests; elsewhere, point your editor at the file: \
         `\"workspace\": { \"library\": [\"schemas/meeple.lua\"] }` in an `.emmyrc.json`, or \
         `\"workspace.library\": [\"schemas/meeple.lua\"]` in a `.luarc.json` for LuaLS. Where \
         the checker cannot know that a value is there (the reason of a refused `g:try`, the \
         outcome of a finished game), say so with `---@cast reason -nil` or `---@cast o meeple.Draw`.\n\n",
    );
    out.push_str("## Contents\n\n");
    out.push_str("- [Limits](#limits)\n");
    for table in all_tables() {
        let _ = writeln!(out, "- [{}](#{}) ({})", table.title, anchor(table.title), table.context.name());
    }
    out.push_str("- [Types](#types)\n\n");
    limits_markdown(&mut out);
    for table in all_tables() {
        markdown_table(&mut out, table);
    }
    out.push_str("## Types\n\nThe names `schemas/meeple.lua` gives the types the API uses.\n\n");
    for alias in ALIASES {
        let _ = writeln!(out, "### `{}`\n\n{}\n", alias.name, one_line(alias.doc));
        if alias.values.is_empty() {
            let _ = writeln!(out, "`{}`\n", alias.ty);
        } else {
            for (value, doc) in alias.values {
                let _ = writeln!(out, "- `{value}`: {}", one_line(doc));
            }
            out.push('\n');
        }
    }
    let _ = writeln!(out, "### `{EVENT_NAME}`\n\nThe name of an event `meeple.on` accepts (see [Events](#events)).\n");
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

/// A number as the limits table shows it: `50 000 000`.
pub(crate) fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// Every limit a mod can meet, from the constants that enforce them, so this table cannot go
/// stale. Each is counted, never timed, except the one wall-clock backstop it names.
fn limits_markdown(out: &mut String) {
    use crate::game::{changes, eval};
    let mib = |bytes: u64| format!("{} MiB", bytes / (1024 * 1024));
    let rows: Vec<(&str, String, &str)> = vec![
        (
            "instructions one hook call may run (and the loading of one hook file)",
            grouped(super::sandbox::INSTRUCTION_LIMIT),
            "the call stops with the file and line it was at; the action is refused and nothing changes",
        ),
        (
            "instructions all the hook calls of one action may run together (every handler and hook it sets off; also one game's start, one judging of a position by a computer player); each call counts at least 100",
            grouped(super::sandbox::WORK_INSTRUCTION_LIMIT),
            "the same",
        ),
        (
            "wall-clock watchdog of one hook call, hundreds of times what the instruction limit takes: it never decides a game",
            format!("{} s", super::sandbox::WATCHDOG.as_secs()),
            "\"the machine was too slow\": the whole command or game stops (`meeple sim`, `run`, `test` fail; the action is not counted as refused), since a replay elsewhere would not stop there",
        ),
        ("nesting of Lua calls", grouped(super::sandbox::MAX_CALL_DEPTH as u64), "a stack-overflow error at the line"),
        (
            "runs of a hook over every combination of its `game.roll`/`game.random` draws, to work out `expect` and `chance` exactly",
            grouped(u64::from(crate::game::odds::MAX_EXACT_HOOK_RUNS)),
            "beyond it the hook is sampled instead, and the figure shown as \"≈, 95% ±margin\"",
        ),
        ("runs that sample a hook with more combinations", grouped(u64::from(crate::game::odds::HOOK_SAMPLES)), "—"),
        (
            "instructions the runs that work out one hook's odds may take together (apart from the action's own)",
            grouped(crate::game::odds::ODDS_INSTRUCTION_LIMIT),
            "the figure (preview, computer player's score) is an error naming the hook",
        ),
        (
            "instructions one scenario test's own Lua may run (`meeple test`; the games it plays run their hooks under the limits above)",
            grouped(crate::scenario::TEST_INSTRUCTION_LIMIT),
            "the test fails with the file and line it was at",
        ),
        (
            "wall-clock watchdog of one scenario test, its games included",
            format!("{} s", crate::scenario::TEST_WATCHDOG.as_secs()),
            "`meeple test` stops with \"the machine was too slow\" instead of failing the test",
        ),
        (
            "what one scenario test prints with `print`",
            format!("{} KiB", crate::scenario::MAX_TEST_OUTPUT / 1024),
            "the rest of its output is left out, saying so",
        ),
        (
            "memory of the mod's Lua",
            mib(super::sandbox::MEMORY_LIMIT as u64),
            "\"the script used more than … of memory\"",
        ),
        (
            "event handlers registered with `meeple.on`",
            grouped(super::api::MAX_EVENT_HANDLERS as u64),
            "an error at the `meeple.on` line when the hook file loads",
        ),
        (
            "data kept with `game.put`, all keys together; its nesting",
            format!("{}; {} levels", mib(super::api::MAX_DATA_SIZE as u64), super::api::MAX_DATA_DEPTH),
            "`game.put` fails with the line",
        ),
        (
            "steps of the loops of one formula of the rules language, nested loops included",
            grouped(eval::MAX_LOOP_STEPS),
            "the rule fails, named with its file:line:col",
        ),
        (
            "work of one listing of the legal actions: candidates tried plus the loop steps of their filters and of the computer player's scores",
            grouped(eval::MAX_LISTING_STEPS),
            "listing fails naming the action: restrict its parameters",
        ),
        ("actions one listing may hold", grouped(eval::MAX_LISTED_ACTIONS), "the same"),
        ("pieces one game may place in all", grouped(changes::MAX_PIECES as u64), "the placing rule fails"),
        ("items one piece may hold", grouped(changes::MAX_HELD_ITEMS as u64), "the giving rule fails"),
        ("units `distribute` places in one go", grouped(eval::MAX_DISTRIBUTED as u64), "the rule fails"),
        ("one file of a mod", mib(crate::loader::MAX_FILE_BYTES), "the file is refused when the mod loads"),
        (
            "all data files of a mod together, with the mods it extends",
            mib(crate::source::MAX_DATA_BYTES as u64),
            "the files past it are refused",
        ),
        (
            "definitions in one collection (pieces, items, actions, cards, terrain…)",
            grouped(crate::source::MAX_DEFINITIONS as u64),
            "the first one too many is refused where it is written",
        ),
        (
            "setup options; choices of one option; choices in all",
            format!(
                "{}; {}; {}",
                crate::options::MAX_OPTIONS,
                crate::options::MAX_CHOICES,
                crate::options::MAX_CHOICES_IN_ALL
            ),
            "refused where the options are written",
        ),
    ];
    out.push_str("## Limits\n\n");
    out.push_str(
        "What one mod may use. Every limit is counted (instructions, bytes, values, steps), so the same \
         mod, seed and actions meet it at the same point on every machine, however busy. The two \
         wall-clock watchdogs only guard against a machine far too slow: they never decide a result, \
         they stop the whole command or game saying so. Where each is enforced and tested: \
         [docs/security.md](../security.md).\n\n| What | Limit | When it is reached |\n|---|---|---|\n",
    );
    for (what, limit, reached) in rows {
        let _ = writeln!(out, "| {what} | {limit} | {reached} |");
    }
    out.push('\n');
}

fn markdown_table(out: &mut String, table: &ApiTable) {
    let _ = writeln!(out, "## {}\n", table.title);
    let _ = writeln!(out, "*In {}.*\n", table.context.name());
    let _ = writeln!(out, "{}\n", table.doc);
    if table.access == Access::Shape {
        out.push_str("| Field | Type | Description |\n|---|---|---|\n");
        for entry in table.entries {
            let _ = writeln!(out, "| `{}` | `{}` | {} |", entry.name, cell(entry.ty), cell(entry.doc));
        }
        out.push('\n');
        return;
    }
    let mut group = "";
    for entry in table.entries {
        if entry.group != group && !entry.group.is_empty() {
            group = entry.group;
            let _ = writeln!(out, "### {group}\n");
        }
        let level = if group.is_empty() { "###" } else { "####" };
        let _ = writeln!(out, "{level} `{}`\n", signature(table, entry));
        out.push_str(&entry.doc.split("\n\n").map(one_line).collect::<Vec<_>>().join("\n\n"));
        out.push_str("\n\n");
        if entry.changes {
            out.push_str("*Changes the game*: refused where the game can only be read.\n\n");
        }
        if entry.kind == Kind::Field {
            let _ = writeln!(out, "Type: `{}`.\n", entry.ty);
        }
        if !entry.params.is_empty() {
            let heading = if entry.kind == Kind::Event { "Handler argument" } else { "Parameter" };
            let _ = writeln!(out, "| {heading} | Type | Description |\n|---|---|---|");
            for param in entry.params {
                let optional = if param.optional { " (optional)" } else { "" };
                let _ = writeln!(out, "| `{}` | `{}`{optional} | {} |", param.name, cell(param.ty), cell(param.doc));
            }
            out.push('\n');
        }
        match entry.returns {
            [] => {}
            [one] => {
                let _ = writeln!(out, "Returns `{}`: {}.\n", one.ty, one_line(one.doc));
            }
            several => {
                out.push_str("Returns:\n\n");
                for ret in several {
                    let _ = writeln!(out, "- `{}` (`{}`): {}", ret.name, ret.ty, one_line(ret.doc));
                }
                out.push('\n');
            }
        }
        if !entry.example.is_empty() {
            let _ = writeln!(out, "```lua\n{}\n```\n", entry.example);
        }
    }
    if table.access == Access::Events {
        let _ = writeln!(out, "In `schemas/meeple.lua`, event names are the type `{EVENT_NAME}`.\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_is_described() {
        for table in all_tables() {
            assert!(!table.doc.is_empty(), "{} has no description", table.title);
            for entry in table.entries {
                assert!(!entry.doc.trim().is_empty(), "{}: {} has no description", table.title, entry.name);
                assert!(
                    entry.doc.trim_end().ends_with('.'),
                    "{}: {}'s description is no sentence",
                    table.title,
                    entry.name
                );
                for param in entry.params {
                    assert!(
                        !param.ty.is_empty() && !param.doc.is_empty(),
                        "{}: {}({})",
                        table.title,
                        entry.name,
                        param.name
                    );
                }
                for ret in entry.returns {
                    assert!(!ret.ty.is_empty() && !ret.name.is_empty(), "{}: {} returns", table.title, entry.name);
                }
                assert_eq!(
                    entry.kind == Kind::Field,
                    !entry.ty.is_empty(),
                    "{}: {}: only fields have a type",
                    table.title,
                    entry.name
                );
                let expected = match table.access {
                    Access::Table | Access::Globals => entry.kind == Kind::Function || entry.kind == Kind::Field,
                    Access::Object => entry.kind == Kind::Method,
                    Access::Events => entry.kind == Kind::Event,
                    Access::DataHooks => entry.kind == Kind::Hook,
                    Access::Shape => entry.kind == Kind::Field,
                };
                assert!(expected, "{}: {} is a {:?}", table.title, entry.name, entry.kind);
            }
        }
    }

    #[test]
    fn names_are_unique_per_table() {
        for table in all_tables() {
            let mut names: Vec<&str> = table.entries.iter().map(|e| e.name).collect();
            names.sort_unstable();
            let count = names.len();
            names.dedup();
            assert_eq!(names.len(), count, "{} names an entry twice", table.title);
        }
    }

    #[test]
    fn the_annotations_declare_every_function() {
        let text = emmylua();
        assert!(text.starts_with("---@meta\n"));
        for table in TABLES {
            for entry in table.entries {
                let wanted = match (table.access, entry.kind) {
                    (Access::Table, Kind::Function) => format!("function {}.{}(", table.name, entry.name),
                    (Access::Object, _) => format!("function {}:{}(", class_variable(table), entry.name),
                    (Access::Globals, Kind::Function) => format!("function {}(", entry.name),
                    (Access::Globals, Kind::Field) => format!("\n{} = {{}}", entry.name),
                    (Access::Table, Kind::Field) => format!("---@field {} ", entry.name),
                    (Access::Events, _) => format!("---| \"{}\" #", entry.name),
                    _ => continue,
                };
                assert!(text.contains(&wanted), "the annotations lack `{wanted}`");
            }
        }
    }

    #[test]
    fn the_reference_has_a_section_per_entry() {
        let text = markdown();
        for table in all_tables() {
            assert!(text.contains(&format!("## {}\n", table.title)));
            if table.access == Access::Shape {
                continue;
            }
            for entry in table.entries {
                assert!(text.contains(&format!("`{}`\n", signature(table, entry))), "{}", entry.name);
            }
        }
    }
}
