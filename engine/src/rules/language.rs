//! The rules language's reference (`docs/modding/rules-language.md`): every name, field,
//! function, statement and operator the compiler knows, with what it gives, where it may be used
//! and an example. `meeple schema` writes the page from the tables here; tests check that every
//! name the compiler accepts is described here (and the reverse) and that every example compiles
//! in a mod, so the page cannot drift from the language.

use std::fmt::Write as _;

/// Where the reference lives, relative to the workspace root.
pub const LANGUAGE_PATH: &str = "docs/modding/rules-language.md";

/// Where a construct may be written, which is also where its example is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// Any expression (an action's `when`, a parameter's `where`, effects, previews, …).
    Anywhere,
    /// Only where the game's random stream may be drawn: an action's `rolls` and effects.
    Rolls,
    /// Only in effects (statements).
    Effects,
    /// Only in an action's `preview` and `ai` scores.
    Odds,
}

impl Place {
    fn words(self) -> &'static str {
        match self {
            Place::Anywhere => "",
            Place::Rolls => " *Rolls and effects only.*",
            Place::Effects => " *Effects only.*",
            Place::Odds => " *Previews and computer-player scores only.*",
        }
    }
}

/// One construct of the language.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// How it is written, e.g. `distance(a, b)`.
    pub form: &'static str,
    /// What it gives (`number`, `yes/no`, `seat`, …); empty for statements.
    pub gives: &'static str,
    pub doc: &'static str,
    /// A complete expression or statement using it, written against the example mod of
    /// `engine/tests/rules_language.rs` (params `from`, `to`, `who`, `weapon`, and `dest` of a
    /// walk in another action; space counter
    /// `dice`; resource `gold`; stat `health`; var `bonus`; …).
    pub example: &'static str,
    pub place: Place,
}

impl Entry {
    /// The name a modder writes: the form up to `(` or `.` (for fields, the part after it).
    pub fn name(&self) -> &'static str {
        let form = self.form.split('(').next().unwrap_or(self.form);
        form.rsplit('.').next().unwrap_or(form).trim()
    }
}

const fn entry(form: &'static str, gives: &'static str, doc: &'static str, example: &'static str) -> Entry {
    Entry { form, gives, doc, example, place: Place::Anywhere }
}

const fn only(
    place: Place,
    form: &'static str,
    gives: &'static str,
    doc: &'static str,
    example: &'static str,
) -> Entry {
    Entry { form, gives, doc, example, place }
}

/// Names that mean the same everywhere.
pub const NAMES: &[Entry] = &[
    entry(
        "me",
        "seat",
        "The seat taking the action, whose turn it is (in turn and phase effects and triggers), or \
         for whom a computer player scores.",
        "me.gold >= 3",
    ),
    entry("current", "seat", "The seat whose turn it is.", "current == me"),
    entry("turn", "number", "Turns started so far, counting every seat's turn (1 on the first).", "turn > 10"),
    entry("round", "number", "Rounds started so far (1 in the first round).", "round <= 3"),
    entry("match", "number", "The current match, from 1 (games of several matches).", "match == 1"),
    entry("phase", "phase", "The current phase's id, compared with a quoted id.", "phase == \"main\""),
    entry(
        "none",
        "nothing",
        "No seat, space, piece or item: the owner of an unowned space, a piece that is not on the \
         board. `nil` is the same. Reading a field through `none` gives `none` (or 0 for numbers).",
        "to.owner == none",
    ),
    entry("true", "yes/no", "Yes.", "true"),
    entry("false", "yes/no", "No.", "not false"),
    only(
        Place::Odds,
        "chance",
        "number",
        "The exact probability (0 to 1) that the action's `success` condition holds, over every \
         outcome of its `rolls`. The action must have a `success`.",
        "chance * 10",
    ),
];

/// Fields read with a dot, by the type they belong to.
pub const FIELDS: &[(&str, &[Entry])] = &[
    (
        "space",
        &[
            entry("space.owner", "seat", "The seat that owns the space, or `none`. Assignable.", "from.owner == me"),
            entry(
                "space.terrain",
                "terrain",
                "The space's terrain, compared with a quoted terrain id. Assignable: `at.terrain = \"shallow\"` \
                 changes it for the rest of the game (what it yields, costs to enter and hides), an event every \
                 seat sees.",
                "to.terrain == \"forest\"",
            ),
            entry(
                "space.home",
                "seat",
                "The seat whose home (or base) the space is, from the board, or `none`.",
                "from.home == none",
            ),
            entry(
                "space.column",
                "number",
                "The space's grid column, from 1 (the label's letter: `B01` is in column 2); 0 on boards \
                 without a grid (rings, graphs).",
                "to.column == from.column + 1",
            ),
            entry(
                "space.row",
                "number",
                "The space's grid row, from 1 at the top (labels count rows from 0: `B01` is in row 2); 0 on \
                 boards without a grid.",
                "abs(to.row - from.row) <= 1",
            ),
            entry(
                "space.<counter>",
                "number",
                "A space counter declared in `[space_counters]` (e.g. `space.dice`). Assignable.",
                "from.dice > 1",
            ),
        ],
    ),
    (
        "seat",
        &[
            entry("seat.number", "number", "The seat's number, from 1.", "me.number == 1"),
            entry("seat.side", "side", "The seat's side, compared with a quoted side id.", "me.side == \"red\""),
            entry("seat.piece", "piece", "The seat's first piece still in play, or `none`.", "me.piece != none"),
            entry(
                "seat.<resource>",
                "number",
                "A resource declared in `[resources]` (e.g. `me.gold`). Assignable.",
                "me.gold >= 2",
            ),
        ],
    ),
    (
        "piece",
        &[
            entry(
                "piece.owner",
                "seat",
                "The seat the piece belongs to. Assignable; the pieces inside it that were its owner's \
                 change hands with it.",
                "who.owner == me",
            ),
            entry(
                "piece.space",
                "space",
                "The space the piece stands on, or `none` when it is off the board. Assignable (moves the \
                 piece, and the pieces inside it with it; a piece inside a holder leaves it).",
                "who.space == from",
            ),
            entry(
                "piece.inside",
                "piece",
                "The holder the piece is inside (a crate's wagon, a guard's keep), or `none`. Assignable: \
                 `who.inside = wagon` puts `who` inside and on the holder's space, `who.inside = none` takes \
                 it out where it stands. A holder without room for it (see `can_enter`) is an error of the rules.",
                "who.inside == none",
            ),
            entry(
                "piece.across",
                "space",
                "For a piece standing between two spaces (`on_edge`), the other one: `piece.space` is \
                 the one of lower id. `none` for a piece in a space. Read only: such pieces never move.",
                "who.across == none",
            ),
            entry(
                "piece.kind",
                "piece kind",
                "The piece's kind, compared with a quoted kind id.",
                "who.kind == \"pawn\"",
            ),
            entry(
                "piece.<stat>",
                "number",
                "A stat declared in `[stats]` (e.g. `who.health`). Assignable.",
                "who.health > 0",
            ),
        ],
    ),
    (
        "held item",
        &[
            entry("held.kind", "item", "The item's kind, compared with a quoted item id.", "weapon.kind == \"bow\""),
            entry(
                "held.charges",
                "number",
                "The charges (ammunition, uses) this item has left; never below 0. Assignable.",
                "weapon.charges > 0",
            ),
            entry("held.holder", "piece", "The piece holding it.", "weapon.holder == who"),
            entry(
                "held.<number>",
                "number",
                "A number of its kind: `price`, `charges` (what a new one comes with) or a stat from \
                 `[items]` (0 where the kind gives none).",
                "weapon.range >= distance(from, to)",
            ),
        ],
    ),
    (
        "item",
        &[entry(
            "item.<number>",
            "number",
            "A number of an item kind (a `kind = \"item\"` parameter or `held.kind`): `price`, \
             `charges` or one of its stats.",
            "weapon.kind.price <= me.gold",
        )],
    ),
    (
        "card",
        &[
            entry(
                "card.deck",
                "deck",
                "The deck the card belongs to (the first that lists it), compared with a quoted deck id.",
                "card.deck == \"main\"",
            ),
            entry(
                "card.<stat>",
                "number",
                "A number printed on the card (its `stats`; 0 where it prints none).",
                "card.power >= 2",
            ),
        ],
    ),
    (
        "terrain",
        &[entry(
            "terrain.<stat>",
            "number",
            "A number from the terrain's `stats` (0 where it gives none), e.g. `space.terrain.cover`.",
            "to.terrain.cover >= 1",
        )],
    ),
];

/// Functions, which give a value.
pub const FUNCTIONS: &[Entry] = &[
    entry("min(a, b, …)", "number", "The smallest of two or more numbers.", "min(me.gold, 3) > 0"),
    entry("max(a, b, …)", "number", "The largest of two or more numbers.", "max(from.dice, to.dice) < 8"),
    entry("abs(x)", "number", "The distance of `x` from 0.", "abs(from.dice - to.dice) <= 2"),
    entry(
        "floor(x)",
        "number",
        "`x` rounded down to a whole number: `floor(7 / 2.0)` is 3.",
        "floor(me.gold * 0.5) > 1",
    ),
    entry(
        "round(x)",
        "number",
        "`x` rounded to the nearest whole number, halves away from 0: `round(2.5)` is 3.",
        "round(me.gold * 1.5) > 1",
    ),
    entry("ceil(x)", "number", "`x` rounded up to a whole number: `ceil(7 / 2.0)` is 4.", "ceil(me.gold / 3.0) > 1"),
    entry(
        "clamp(x, low, high)",
        "number",
        "`x`, but at least `low` and at most `high` (`low` when `low` is above `high`). Whole \
         numbers give a whole number; with a decimal among them the answer is a decimal, as for \
         `min` and `max`: `clamp(chance * 2, 0, 1.5)`.",
        "clamp(from.dice, 1, 3) == 3",
    ),
    entry(
        "if(condition, a, b)",
        "a or b",
        "`a` when the condition holds, else `b`; also written `condition ? a : b`.",
        "if(from.dice > 3, 2, 1) == 2",
    ),
    entry("owned(seat)", "number", "How many spaces the seat owns.", "owned(me) * 2 > space_count()"),
    entry(
        "largest_group(seat)",
        "number",
        "The size of the seat's largest group of connected spaces.",
        "largest_group(me) >= 3",
    ),
    entry("adjacent(a, b)", "yes/no", "Whether two spaces are neighbours on the board.", "adjacent(from, to)"),
    entry(
        "distance(a, b)",
        "number",
        "The fewest steps between two spaces along the board's connections, ignoring terrain; -1 \
         when there is no way.",
        "distance(from, to) <= 3",
    ),
    entry(
        "walk_distance(a, b)",
        "number",
        "The fewest movement points a walk from `a` to `b` spends over passable terrain and \
         crossable walls (each space's `move_cost`); -1 when there is no way. \
         `walk_distance(a, b, walker)` prices the walk for that piece: its kind's `move_costs`, or, \
         for a holder with pieces inside, the most any kind inside pays.",
        "walk_distance(from, to, who) <= who.health",
    ),
    only(
        Place::Effects,
        "walk_spent(param)",
        "number",
        "For a parameter filled by a walk (`reachable_from`), the movement points the cheapest walk \
         to the chosen space spends — with the walk's `walker`, `enter_cost` and walls — found before \
         the effects run, so moving pieces first does not change it; -1 if it does not reach it.",
        "bonus = walk_spent(dest)",
    ),
    entry(
        "line_of_sight(a, b)",
        "yes/no",
        "Whether a straight line from the centre of space `a` to the centre of space `b` is clear: \
         no space it passes through (other than `a` and `b`) has a terrain with `blocks_sight = \
         true`, and it crosses no wall whose terrain has it. A space is passed through when the \
         line crosses the inside of its cell (every such cell, not one per column). A line exactly \
         through a corner, or along the side between two hexagons, is shifted a hair to either \
         side and sight passes if either shifted line is clear: two blocking cells that only touch \
         the line block it together, one alone does not. A blocking terrain with a `height` \
         blocks only a line it is at least as high as both ends and higher than one of them (the \
         ends stand at their terrains' heights, 0 when none is given): a tower's top sees over \
         lower walls and along itself, the floor sees a tower's near edge and nothing past it. \
         `a` and `b` never block; a space sees \
         itself, and grid spaces sharing a side see each other unless a wall stands on it. Square \
         and offset grids and territory maps (seen from a cell near the middle of each \
         territory); on rings and graphs it is an error at load. The rules, with pictures: [line of sight](how-a-game-runs.md#line-of-sight).",
        "line_of_sight(from, to)",
    ),
    entry(
        "beyond(from, to, space)",
        "yes/no",
        "Whether `space` is one step beyond `to`, going straight away from `from`: what a piece on \
         `to` knocked back by a blow from `from` may move onto. On a row, a column or (with eight \
         neighbours) a diagonal through both, the one square next along the line; otherwise \
         either of the two squares around the line (the steps nearest its direction, one on each \
         side). Squares off the board or not linked to `to` are never beyond; walls, terrain and \
         pieces are not weighed (ask `pieces_at`, or `game.wall` in Lua). Square grids only: on \
         other boards it is an error at load. Lua: `game.beyond(from, to)` lists them.",
        "beyond(from, to, who.space)",
    ),
    entry(
        "pieces_at(space)",
        "number",
        "How many pieces stand on the space, not counting those inside holders or between two spaces.",
        "pieces_at(to) == 0",
    ),
    entry(
        "used(\"group\")",
        "number",
        "How often the current phase has used an action, or an action group, against the phase's \
         `budget` (what `refund` gave back is not counted).",
        "used(\"try\") == 0",
    ),
    entry("held_count(piece)", "number", "How many items the piece holds.", "held_count(who) < 3"),
    entry(
        "held_count(piece, item)",
        "number",
        "How many items of one kind (a quoted item id or an item value) the piece holds.",
        "held_count(who, \"bow\") > 0",
    ),
    entry(
        "can_hold(piece, item)",
        "yes/no",
        "Whether the piece may be given the item: its kind is among the item's `holders` (any kind \
         when the item names none) and it holds fewer items than its kind's `max_items` — or the item \
         takes the slot of one it holds. `give` beyond these is an error of the rules.",
        "can_hold(who, \"bow\")",
    ),
    entry(
        "touches(piece, space)",
        "yes/no",
        "Whether the piece stands on the space, or between it and a neighbour: a wall on a border \
         touches both sides.",
        "touches(who, to)",
    ),
    entry(
        "piece_between(a, b)",
        "piece",
        "The first piece in play standing between two neighbouring spaces (in either order), or `none`.",
        "piece_between(from, to) == none",
    ),
    entry("inside_count(holder)", "number", "How many pieces are inside the holder.", "inside_count(who) < 3"),
    entry(
        "inside_count(holder, kind)",
        "number",
        "How many pieces of one kind (a quoted piece kind id) are inside the holder.",
        "inside_count(who, \"pawn\") < 2",
    ),
    entry(
        "can_enter(piece, holder)",
        "yes/no",
        "Whether the piece may go inside the holder now: the holder's kind has a `capacity` and \
         takes the piece's kind (its `holds`), it has room for one more of that kind, and the \
         piece's kind holds nothing itself. True for a piece already inside it.",
        "can_enter(who, me.piece)",
    ),
    entry(
        "holding(piece, \"slot\")",
        "held item",
        "The item the piece holds in an item slot, or `none`.",
        "holding(who, \"hand\") != none",
    ),
    entry(
        "tagged(thing, \"tag\")",
        "yes/no",
        "Whether a terrain, piece kind, item or card has a tag (from its `tags`); for a space, \
         piece or held item, whether its terrain or kind has it.",
        "tagged(to, \"wood\")",
    ),
    entry("space(\"label\")", "space", "The space with a label, or `none`.", "to == space(\"B01\")"),
    entry("seat(n)", "seat", "The seat with number `n` (from 1), or `none`.", "seat(1) == me"),
    entry("allies(a, b)", "yes/no", "Whether two seats are on the same side.", "allies(me, to.owner)"),
    entry(
        "hand_size(seat)",
        "number",
        "How many cards the seat holds (in a seat's view, the cards it does not know too).",
        "hand_size(me) < 5",
    ),
    entry(
        "in_hand(seat, card)",
        "number",
        "How many copies of a card (a quoted card id, or a card value) the seat holds (in a \
         seat's view, only the copies it knows: its own cards and those shown to it).",
        "in_hand(me, \"spark\") > 0",
    ),
    entry(
        "attached(piece, card)",
        "number",
        "How many copies of a card (a quoted card id, or a card value) the piece holds attached \
         (`attach`); attached cards lie face up.",
        "attached(who, \"spark\") == 0",
    ),
    entry(
        "attached_count(piece)",
        "number",
        "How many cards the piece holds attached, of every kind.",
        "attached_count(who) < 3",
    ),
    entry("active_seats()", "number", "Seats still playing (neither eliminated nor gone).", "active_seats() > 1"),
    entry("seat_count()", "number", "Seats the game started with.", "seat_count() >= 2"),
    entry("space_count()", "number", "Spaces on the board.", "owned(me) == space_count()"),
    entry(
        "hook(\"function\", args…)",
        "number or yes/no",
        "Calls a Lua function the mod's hooks define with up to 7 values and gives its answer: a \
         number, or true/false (as 1/0, so it can be a condition). In effects the hook may change \
         the game; in `preview`, `ai.score`, `ai.start_score` and `[ai] standing` it only reads \
         it (a change is an error), and a hook that fails there is an error like anywhere else. \
         Not in an action's `when`, its parameters' `where`, its `success` or the `end` \
         conditions, which are worked out without running Lua. See the Lua API.",
        "hook(\"bonus_damage\", who) > 0",
    ),
    only(
        Place::Rolls,
        "random(low, high)",
        "number",
        "A whole number from `low` to `high`, each as likely, from the game's random stream.",
        "random(1, 6)",
    ),
    only(
        Place::Effects,
        "distribute(\"counter\", amount, seat, cap)",
        "number",
        "Adds `amount` to a space counter one unit at a time, each on a random space of the seat \
         that is below `cap`; gives how many units found no room. At most 10,000,000 units are \
         placed in one go (more is an error).",
        "let spare = distribute(\"dice\", 3, me, 8)",
    ),
    only(
        Place::Odds,
        "expect(x)",
        "number",
        "The mean of `x` over every outcome of the action's rolls (`x` may use the rolls' names \
         and dice). Dice drawn by a Lua hook the rolls call (`game.roll`, `game.random`) count \
         too: the engine runs the hook once for each combination of its draws, up to 50,000 \
         runs, and samples it 50,000 times beyond that; the player then shows the figure as \
         \"≈, 95% ±margin\" instead of \"exact\".",
        "expect(hits) * weapon.range",
    ),
    only(
        Place::Odds,
        "chance(condition)",
        "number",
        "The probability (0 to 1) that `condition` holds over every outcome of the action's rolls, \
         worked out as `expect` is (hooks' draws included).",
        "chance(hits > 0)",
    ),
];

/// Loops that fold over every seat, space or piece, in id order.
pub const AGGREGATES: &[Entry] = &[
    entry(
        "count_of(space, condition)",
        "number",
        "How many spaces (or `seat`s, or `piece`s) the condition holds for; inside, the loop \
         variable has the name of what is looped over. Without a condition, all of them. Every \
         seat, every space, and the pieces on the board (not one taken off it with `piece.space = \
         none`); in id order.",
        "count_of(space, space.owner == me) > 2",
    ),
    entry(
        "sum_of(piece, value, condition)",
        "number",
        "The sum of `value` over those the condition holds for (the condition may be left out).",
        "sum_of(piece, piece.health, piece.owner == me) > 10",
    ),
    entry(
        "min_of(piece, value, condition)",
        "number",
        "The smallest `value` over those the condition holds for; 0 when none does.",
        "min_of(space, space.dice, space.owner == me) >= 1",
    ),
    entry(
        "max_of(piece, value, condition)",
        "number",
        "The largest `value` over those the condition holds for; 0 when none does.",
        "max_of(seat, seat.gold) < 20",
    ),
    only(
        Place::Effects,
        "random_of(space, condition)",
        "space, seat or piece",
        "One of those the condition holds for, each as likely, from the game's random stream; \
         `none` when none does.",
        "let spot = random_of(space, space.owner == none)",
    ),
    entry(
        "count_of(name in space, condition)",
        "number",
        "Any of the five with a name of its own for the loop variable, so a loop inside a loop \
         can still read the outer one. The loops of one formula, nested ones included, may take \
         10,000,000 steps together (three loops nested over 400 spaces take 64 million: an error), and all the rules of one action 10,000,000 together (loop steps, spaces a board search visits, units `distribute` places).",
        "count_of(cell in space, cell.owner == me and count_of(space, adjacent(space, cell) and space.owner == none) > 0) > 0",
    ),
];

/// Dice, written in rolls and effects.
pub const DICE: &[Entry] = &[
    only(
        Place::Rolls,
        "NdS",
        "number",
        "The sum of N dice of S sides: `3d6`, `(from.dice)d6`, `min(weapon.charges, 3)d6`.",
        "(from.dice)d6",
    ),
    only(Place::Rolls, "dice(n, sides)", "number", "The same as `(n)d(sides)`.", "dice(2, 6)"),
    only(Place::Rolls, "highest(n, sides)", "number", "The highest of n dice.", "highest(2, 6)"),
    only(Place::Rolls, "lowest(n, sides)", "number", "The lowest of n dice.", "lowest(2, 6)"),
    only(
        Place::Rolls,
        "secret(x)",
        "number",
        "`x`, with the dice it rolls seen by the acting seat alone — dice under a cup: the \
         others see how many were rolled, not the faces (in the window, `meeple run --as` and their \
         computer players). Keep the result in a `hidden` resource or stat, and show it with \
         `reveal_value` when a rule says so. A hook's own `game.roll` stays public.",
        "secret(3d6)",
    ),
    only(
        Place::Rolls,
        "successes(n, sides, at_least)",
        "number",
        "How many of n dice show `at_least` or more (a whole number written out).",
        "successes(3, 6, 5)",
    ),
];

/// Statements: the lines of an effect list.
pub const STATEMENTS: &[Entry] = &[
    only(
        Place::Effects,
        "place = value",
        "",
        "Sets an assignable field or a game variable from `[vars]`: `to.owner = me`, `bonus = 0`.",
        "to.owner = me",
    ),
    only(
        Place::Effects,
        "place += value",
        "",
        "Adds to (or with `-=` takes from) a number; counters stay within their `min` and `max`.",
        "me.gold -= 2",
    ),
    only(
        Place::Effects,
        "let name = value",
        "",
        "Names a value for the statements after it (in the same list and blocks inside). Dice \
         rolled for it are shown under its name, like a named roll's (`let attackers = highest(4, 6)`).",
        "let moved = from.dice - 1",
    ),
    only(Place::Effects, "end_turn()", "", "Ends the current turn (the remaining phases are skipped).", "end_turn()"),
    only(Place::Effects, "win(seat)", "", "The seat (and its side) wins; the game ends.", "win(me)"),
    only(Place::Effects, "draw()", "", "The game ends drawn; the pot is shared by `end.draw_shares`.", "draw()"),
    only(Place::Effects, "eliminate(seat)", "", "The seat is out of the game.", "eliminate(to.owner)"),
    only(
        Place::Effects,
        "leave(seat)",
        "",
        "The seat takes no more turns; it keeps what it has and still defends it.",
        "leave(me)",
    ),
    only(
        Place::Effects,
        "deal_spaces()",
        "",
        "Deals every space out to the seats in equal shares at random; leftovers stay unowned.",
        "deal_spaces()",
    ),
    only(
        Place::Effects,
        "place(\"kind\", seat, space)",
        "",
        "Puts a new piece of a kind on a space for a seat (or for `none`). As a value it is the \
         new piece: `let pawn = place(\"pawn\", me, to)` names it for the rest of the effect.",
        "place(\"pawn\", me, to)",
    ),
    only(
        Place::Effects,
        "perform(\"action\", …)",
        "",
        "Performs an automatic action (`automatic = true`), giving its first parameters: the rules \
         choose the rest, on the turn of the seat to move — the legal completion with the highest \
         `ai.score` (none below `ai.min`), ties drawn from the game's random stream. Nothing happens \
         when none is legal. Its effects run as part of this effect: no budget is used, no \
         `after_action` trigger fires.",
        "perform(\"drift\", who)",
    ),
    only(
        Place::Effects,
        "place_between(\"kind\", seat, a, b)",
        "",
        "Puts a new piece of a kind `on_edge` (a wall, a gate) between two neighbouring spaces, for \
         a seat or for `none`; it never moves. As a value it is the new piece, as with `place`.",
        "place_between(\"fence\", me, from, to)",
    ),
    only(
        Place::Effects,
        "remove(piece)",
        "",
        "Takes a piece out of the game, and the pieces inside it.",
        "remove(who)",
    ),
    only(
        Place::Effects,
        "give(piece, item)",
        "",
        "Gives a piece a new item (a quoted item id or an item value) with the item's `charges`; an \
         item in the same slot is replaced.",
        "give(who, \"bow\")",
    ),
    only(
        Place::Effects,
        "drop(held)",
        "",
        "Takes a held item from its piece (sold back, thrown away); the piece's later items move up \
         one position, so other held values of the same piece read afterwards may name another item.",
        "drop(weapon)",
    ),
    only(
        Place::Effects,
        "refund(\"group\", n)",
        "",
        "Gives back `n` uses of an action, or an action group, in the current phase's `budget` (never \
         below none used): a card's \"one more action\". A use not yet taken cannot be given back.",
        "refund(\"try\", 1)",
    ),
    only(Place::Effects, "shuffle(\"deck\")", "", "Shuffles a deck's draw pile.", "shuffle(\"main\")"),
    only(
        Place::Effects,
        "draw_cards(\"deck\", seat, n)",
        "",
        "Draws n cards from a deck into the seat's hand.",
        "draw_cards(\"main\", me, 2)",
    ),
    only(
        Place::Effects,
        "reveal_value(\"label\", x)",
        "",
        "Shows every seat a number under a label, as the acting seat's: what a rule reveals of dice \
         rolled in `secret` or of a `hidden` value (a `value_revealed` event; the window's log says \
         \"Seat 1 shows cup: 14\").",
        "reveal_value(\"gold\", me.gold)",
    ),
    only(
        Place::Effects,
        "offer(\"action\", seat, …)",
        "",
        "Offers `seat` the response action (one with `response = true`), giving its first \
         parameters after the seat: that seat answers — takes it, choosing the parameters left, \
         or passes to decline — before anyone else acts, in the order the offers were made. See \
         [How a game runs](how-a-game-runs.md#responses-out-of-turn).",
        "offer(\"toll\", to.owner, me)",
    ),
    only(
        Place::Effects,
        "discard(seat, card)",
        "",
        "Moves one copy of a card (a quoted card id, or a card value such as a `card` parameter) \
         from the seat's hand to its deck's discard pile, face up. An error when the seat holds \
         no copy (the action is refused).",
        "discard(me, card)",
    ),
    only(
        Place::Effects,
        "give_card(from, to, card)",
        "",
        "Moves one copy of a card from the hand of the seat `from` to the hand of the seat `to` \
         (a trade, a gift). Both seats know the card then; the others only that a card changed \
         hands, unless it was shown to them. An error when `from` holds no copy.",
        "give_card(me, to.owner, \"spark\")",
    ),
    only(
        Place::Effects,
        "return_card(seat, card)",
        "",
        "Moves one copy of a card from the seat's hand to the bottom of its deck's draw pile (it is \
         drawn last, unless the pile is shuffled). Only its holder (and the seats it was shown to) \
         know which card went back. An error when the seat holds no copy.",
        "return_card(me, \"spark\")",
    ),
    only(
        Place::Effects,
        "attach(piece, card, seat)",
        "",
        "Moves one copy of a card from the seat's hand onto the piece, face up: the piece holds its \
         attached cards in order (`attached`, `attached_count`), and every seat sees them. An error \
         when the seat holds no copy or the piece is not in play.",
        "attach(who, \"spark\", me)",
    ),
    only(
        Place::Effects,
        "detach(piece, card, seat)",
        "",
        "Moves one copy of a card the piece holds attached into the seat's hand; since it lay face \
         up, every seat knows it is there. An error when the piece holds no copy.",
        "detach(who, \"spark\", me)",
    ),
    only(
        Place::Effects,
        "reveal_hand(seat, to)",
        "",
        "Shows every card the seat holds now to the seat `to`, which then knows them (its view, \
         `meeple run --as`, the window and its computer player) until they leave the hand; \
         `reveal_hand(seat)` shows them to every seat. Cards drawn later stay hidden.",
        "reveal_hand(me, to.owner)",
    ),
    only(
        Place::Effects,
        "reveal_card(seat, card, to)",
        "",
        "Shows one copy of a card (a quoted card id, or a card value) in the seat's hand (one `to` \
         has not seen yet) to the seat `to`; `reveal_card(seat, \"card\")` shows it to every seat. \
         Nothing happens when the seat holds no such copy.",
        "reveal_card(me, \"spark\", to.owner)",
    ),
    only(Place::Effects, "log(\"text\")", "", "Adds a line to the game's log.", "log(\"The bridge collapses.\")"),
    only(
        Place::Effects,
        "hook(\"function\", args…)",
        "",
        "Calls a Lua function for its effect; it changes the game through the `game` API.",
        "hook(\"bonus_damage\", who)",
    ),
];

/// Every entry with its section title.
pub fn sections() -> Vec<(String, &'static [Entry])> {
    let mut out = vec![("Names".to_string(), NAMES)];
    for (owner, fields) in FIELDS {
        out.push((format!("Fields of a {owner}"), *fields));
    }
    out.push(("Functions".into(), FUNCTIONS));
    out.push(("Loops: counting, summing, choosing".into(), AGGREGATES));
    out.push(("Dice".into(), DICE));
    out.push(("Statements".into(), STATEMENTS));
    out
}

/// The names of every function and statement called with parentheses, for suggestions.
pub fn callable_names() -> impl Iterator<Item = &'static str> {
    [FUNCTIONS, AGGREGATES, DICE, STATEMENTS].into_iter().flatten().filter(|e| e.form.contains('(')).map(Entry::name)
}

const INTRO: &str = "# The rules language

<!-- Generated by `meeple schema` from engine/src/rules/language.rs. Do not edit by hand: a
test fails when this file is stale, and another compiles every example below in a mod. -->

Conditions, numbers and effects in a mod's TOML are written in Meeple's rules language: short
formulas such as `from.owner == me and from.dice > 1`, `(from.dice)d6` or `to.owner = me`. Each
is checked when the mod loads: an unknown name, a wrong type or a misplaced dice roll is an error
with its file, line and column, before anyone plays. What the language cannot say, a Lua hook can
(see [the Lua API](lua-api.md)); [the file reference](reference.md) says which keys take an
*expression* or an *effect*.

## Values and types

Every expression has a type, checked at load time:

- **number** — whole numbers (`3`, `-1`, `1_000`) and, from `/` on decimals or `chance`,
  decimals (`0.5`). `/` on whole numbers rounds down; `%` is the remainder. Dividing by zero
  rejects the action.
- **yes/no** — `true`, `false`, comparisons and `and`/`or`/`not`.
- **seat**, **space**, **piece**, **held item** — things in the game: `me`, an action's
  parameters, loop variables, fields such as `from.owner` or `who.space`. `none` is the absence of
  one.
- **terrain**, **piece kind**, **item**, **card**, **deck**, **side**, **phase** — a definition of
  the mod, compared with its id in quotes: `to.terrain == \"water\"`, `who.kind == \"pawn\"`,
  `card == \"sword\"` (a `card` parameter, a card chosen from a hand), `card.deck == \"main\"`.
- **text** — quoted text, only where a statement takes one (`log(\"…\")`, the kind in
  `place(\"pawn\", …)`). Quotes may be `\"…\"` or `'…'`.

## Operators

From loosest to tightest binding:

| Operator | Meaning |
|---|---|
| `c ? a : b` | `a` when `c` holds, else `b` (the same as `if(c, a, b)`) |
| `or`, `\\|\\|` | either holds |
| `and`, `&&` | both hold |
| `not`, `!` | does not hold |
| `==` `!=` `<` `<=` `>` `>=` | comparisons (not chained: `1 < x and x < 5`); `==` and `!=` also compare seats, spaces, pieces and ids |
| `+` `-` | add, subtract |
| `*` `/` `%` | multiply, divide, remainder |
| `-x` | negate |
| `NdS` | dice (see [Dice](#dice)) |
| `a.b`, `f(…)`, `( … )` | field, call, grouping |

A single `=` assigns, and only in an effect; comparing is `==`. A long formula may span several
lines in a TOML multi-line string (`\"\"\"…\"\"\"`); errors still point at the line and column
inside it.

## Why an action is greyed out

A player who cannot take an action sees it greyed out with a reason. By default the reason is
the engine's guess (\"no piece qualifies now\", \"only once per main stage: already done\"); an
action's `requires` says it in the game's words. Each entry is a condition read before any
choice is made and the reason shown when it does not hold; the first that does not hold is
named, so list them from the most basic:

```toml
[actions.hire_porter]
label = \"Hire a porter\"
requires = [
  { condition = \"me.coins >= porter_price\", reason = \"needs {porter_price} coins, {me.coins} in the purse\" },
  { condition = \"count_of(piece, piece.owner == me) < 8\", reason = \"8 pieces already, the most a player may have\" },
]
effect = [\"me.coins -= porter_price\", \"place('porter', me, space('gate'))\"]
```

The window shows \"needs 6 coins, 4 in the purse\" on the greyed button; an action refused for the
same reason (a saved action replayed, a test's `g:try`) says the same. A `requires` condition
sees `me` and no parameter (one that names a parameter is refused at load: it belongs in
`when`, which is checked for each choice). Each `{…}` in a reason is an expression giving a
whole number; `{{` and `}}` write a brace.

A parameter may have `requires` too, about the choice: a candidate that passes its `where` but
misses one of them is not offered, and the window lists it greyed with the reason, where a
`where` alone would hide it — a shop shows what the purse cannot pay for (item parameters):

```toml
params = [{ name = \"ware\", kind = \"item\", where = \"ware.price > 0\", requires = [
  { condition = \"ware.price <= me.coins\", reason = \"costs {ware.price}, {me.coins} in the purse\" },
] }]
```

## Where expressions are written, and the names they see

- An action's `params`: each parameter's `where` sees `me`, the parameter itself and the
  parameters before it. The action's `when` sees `me` and every parameter. Its `requires`
  conditions see only `me`: they are what the action needs before any choice, each with the
  reason the player is shown when it is missing, and each `{…}` in a reason is a whole-number
  expression worked out then (see [Why an action is greyed out](#why-an-action-is-greyed-out)).
- An action's `rolls` (`name = \"2d6\"`), `on_roll`, `success`, `on_success`, `on_failure` and
  `effect` see the parameters and the rolls made so far, by name; `after_roll` choices see the
  rolls.
- An action's `preview` and `ai.score` see the parameters; a roll there is not made yet, so its
  name may only appear inside `expect(…)` (its mean) and `chance(…)` (the probability of a
  condition on it); `chance` alone is the probability of `success`. These odds count every
  outcome, including the dice a Lua hook in the rolls draws with `game.roll` and `game.random`
  (see [Odds over a hook's dice](#odds-over-a-hooks-dice)).
- Turn and phase effects (`on_start`, `on_end`), `setup.effect` and triggers see `me`, the seat
  whose turn it is; a trigger `on = \"rolled\"` sees `me`, the seat that rolled (on its turn or
  answering an offer), and `rolled`, the value of the roll its `roll` names.
- `end.win`, `end.eliminate`, `end.score`, `end.draw_shares` and `ai.standing` are asked about
  every seat in turn: `seat` is that seat (and `me` the seat to move).
- Loops (`count_of(space, …)`, effect blocks `{ for_each = \"space\", … }`) add their loop
  variable, named after what they loop over unless named with `name in space` (or `as = \"name\"`
  in a block).
- A game variable from `[vars]` is read and assigned by its bare name everywhere.
- A named formula's `value` and a named effect block's `do` see `me`, their own parameters and
  the game variables (see [Naming a formula or an effect](#naming-a-formula-or-an-effect)).

Effects are lists of statements and blocks:

```toml
effect = [
  \"to.owner = me\",
  { if = \"to.dice > 3\", then = [\"to.dice -= 1\"], else = [\"log('A quiet day.')\"] },
  { for_each = \"space\", where = \"adjacent(space, to) and space.owner != none\", do = [\"space.owner = me\"] },
]
```

A block is `{ if = \"…\", then = […], else = […] }` (`else` may be left out) or
`{ for_each = \"…\", as = \"…\", where = \"…\", do = […] }` (`as` and `where` may be left out).
`for_each` takes exactly three kinds, each in id order:

- `\"seat\"` — every seat of the game, also seats that left or were eliminated (the rules
  language cannot tell them apart; a hook can, with `game.seat_status(seat)`);
- `\"space\"` — every space of the board;
- `\"piece\"` — every piece in play, also one taken off the board with `piece.space = none`
  (`count_of(piece, …)` and the other loops of formulas count only pieces on the board).

Any other kind (`number`, `item`, `held`, the kinds of action parameters) is an error at load.
The loop variable is named after the kind unless `as` names it, which a loop inside a loop
needs to read the outer one (`as = \"cell\"`, then `cell.owner`). What the loop adds as it
runs (a piece it places) is not visited; a piece it removes before reaching it is skipped.

## Odds over a hook's dice

When a roll calls a Lua hook (`rolls = { damage = \"hook('volley', shots)\" }`), `expect` and
`chance` work out the hook's odds by running it, read-only, once for each combination of the
draws it makes with `game.roll` and `game.random`: the first run takes every draw's first
outcome, the next moves the last draw on, and so forth, like an odometer. The hook's results,
weighted by the chance of their draws, are its exact distribution. It is remembered: the same
hook with the same arguments is not run again, unless it read the game (then only in the same
game state).

- **Exact up to 50,000 runs.** A hook whose draws have more combinations (five dice that each
  roll again on a hit have 21^5, about 4 million) is run 50,000 times instead, with draws from a
  stream seeded by the hook's name and arguments (never the game's own, so working out odds
  changes nothing in the game, and the same figure comes out every time). The player then shows
  the figure as `≈, 95% ±margin` instead of `exact`; a scenario test reads the margin as the
  second result of `g:preview`.
- **The hook must do the same when run again.** Its draws and its result may depend on its
  arguments, the game and the dice it drew, nothing else. A hook that draws differently on a
  re-run makes the figure an error that says so; Lua globals are frozen once the hook files are
  loaded, so a count kept in one is an error too (see `game.put` in the Lua API for keeping data).
- **A hook that draws is called where dice may be drawn:** in `rolls` and effects, where it
  draws from the game's stream, and inside `expect(…)` and `chance(…)`, where the engine
  enumerates or samples its draws. Called anywhere else that reads the game (a preview figure
  outside `expect`, an `ai.score` outside the odds), its `game.roll` is an error that says the
  game can only be read there.
- **Working out odds has a limit of its own:** the runs for one hook's distribution may take
  200,000,000 Lua instructions together; past that the figure is an error. They count apart from
  the action's own hooks, and a result remembered costs nothing when used again.

## Limits

One expression, and one statement of an effect list, is at most 4,096 bytes of text: a longer
one is an error at load that gives its length. Split a long effect into several statements
(`let` names a part for the lines after it), or move a long calculation into a Lua hook.
Brackets, function arguments, `not` and `-` nest at most 64 deep. The loops of one formula take
at most 50,000,000 steps together (see [the loops](#loops-counting-summing-choosing)); hooks have
limits of their own (see [the Lua API](lua-api.md)).

How a game runs around these formulas — the order of effects, triggers and Lua handlers when a
turn ends, what is hidden from whom, what a line of sight is, how computer players choose — is
on [How a game runs](how-a-game-runs.md).
";

/// The example of [Naming a formula or an effect](#naming-a-formula-or-an-effect), written
/// against the example mod of `engine/tests/rules_language.rs`, which loads it.
pub const NAMING_EXAMPLE: &str = r#"[formulas.reach]
description = "How much of a weapon's range is left after some steps"
params = ["weapon: held item", "steps: whole number"]
value = "max(weapon.range - steps, 0)"

[formulas.strike]
description = "The damage of a strike with a weapon at a distance"
params = ["weapon: held item", "hits: whole number", "steps: whole number"]
value = "reach(weapon, steps) > 0 ? hits * reach(weapon, steps) : 0"

[effects.knock_out]
description = "Takes a beaten piece off the board, and pays for it"
params = ["victim: piece"]
do = ["me.gold += 1", "remove(victim)"]

[actions.shoot]
label = "Shoot"
params = [
  { name = "who", kind = "piece", owned_by = "me" },
  { name = "weapon", kind = "held", held_by = "who" },
  { name = "target", kind = "piece", where = "target.owner != me and reach(weapon, distance(who.space, target.space)) > 0" },
]
rolls = { hits = "1d6" }
effect = [
  "target.health -= strike(weapon, hits, distance(who.space, target.space))",
  { if = "target.health <= 0", then = ["knock_out(target)"] },
]
preview = { "Expected damage" = "expect(strike(weapon, hits, distance(who.space, target.space)))" }
"#;

/// The section on naming formulas and effects, after the entries of the language.
fn naming_section() -> String {
    format!(
        "
## Naming a formula or an effect

What a mod says twice it can say once, by name. A formula is written once in
`[formulas.<name>]`, with parameters, and called wherever the rules language is written, like a
built-in function; an effect block is written once in `[effects.<name>]` and runs as a statement
of any effect:

```toml
{NAMING_EXAMPLE}```

- `params` lists the parameters in order, each `\"name: type\"`, with the words of [Values and
  types](#values-and-types): `number`, `whole number`, `yes/no`, `seat`, `space`, `piece`, `held
  item`, `terrain`, `piece kind`, `item`, `card`, `side`, `phase`. A `number` takes whole numbers and
  decimals alike, so arithmetic on it gives a decimal, which a whole-number field such as
  `health` cannot take: declare a count `whole number`.
- A formula's `value` and an effect's `do` see `me` (the caller's), their own parameters, the
  game variables and the names that mean the same everywhere (`turn`, `current`, …); not the
  caller's parameters, rolls or `let` names: pass in what they need. Each call gets its own
  parameters, so a loop variable inside never meets one of the caller's.
- Each is checked once, where it is written: a mistake inside is reported at its own line and
  column. A formula's type is its value's, and a call has that type. A call is checked like a
  built-in function's: the number of arguments, and each argument against its parameter's type
  (a mistake is reported at the argument). An unknown name suggests the formulas and effects too.
- A formula gives one value wherever it is used, so it cannot roll dice, draw at random
  (`random`, `random_of`, `distribute`) or use `chance` or `expect`: pass a roll in as a
  parameter, and write `expect(…)` around the call in a preview, as above. It may call a Lua
  hook; it may then be used only where hooks run, not in an action's `when`, its parameters'
  `where`, its `success` or the `end` conditions, where such a call is refused with the formula
  and the hook named. An effect block may do whatever an effect may, and runs where effects do.
- Formulas may use other formulas, and effect blocks other effect blocks and formulas, whatever
  the order they are written in; none may use itself, directly or through others (the error
  names the cycle). A formula or effect may not take the name of one of the language's own
  functions or statements, nor a formula and an effect the same name.
- Limits: at most {params} parameters; formulas and effects used inside one another at most
  {nesting} deep; and, written out in place with everything it uses, an expression or effect
  list has at most {size} parts and nests at most {depth} deep (a formula used several
  times inside another that is used several times multiplies).
- An error while a game runs inside one (a division by zero, a failing hook) names it and where
  it is written, after the rule that used it: `rules.toml:30:3 actions.shoot.effect:
  rules.toml:9:9 formulas.strike.value: division by zero`.
",
        params = super::compile::MAX_NAMED_PARAMS,
        nesting = super::compile::MAX_NAMED_NESTING,
        size = thousands(super::compile::MAX_WRITTEN_OUT_SIZE),
        depth = thousands(super::compile::MAX_WRITTEN_OUT_DEPTH),
    )
}

/// A number with commas between its thousands, as the reference writes them.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// The reference page.
pub fn markdown() -> String {
    let mut out = String::from(INTRO);
    for (title, entries) in sections() {
        let _ = writeln!(out, "\n## {title}\n");
        if title == "Dice" {
            out.push_str(
                "Dice are rolled from the game's own seeded random stream, so a game replays \
                 exactly. Name rolls in an action's `rolls` so previews can give their odds.\n\n",
            );
        }
        for e in entries {
            let gives = if e.gives.is_empty() { String::new() } else { format!(" → {}", e.gives) };
            let _ = writeln!(out, "- **`{}`**{gives} — {}{} Example: `{}`", e.form, e.doc, e.place.words(), e.example);
        }
    }
    out.push_str(&naming_section());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The quoted names the match arms of a compiler function accept: lines such as
    /// `"min" | "max" => {` or `| "draw_cards" | "discard" => {` inside `fn name(`.
    fn match_arm_names(source: &str, function: &str) -> Vec<String> {
        let start = source.find(&format!("    fn {function}(")).unwrap_or_else(|| panic!("no fn {function}"));
        let body = &source[start..];
        let end = body[1..].find("\n    fn ").map_or(body.len(), |i| i + 1);
        let mut names = Vec::new();
        for line in body[..end].lines() {
            let arm = line.trim().trim_start_matches('|').trim();
            let Some(pattern) = arm.split("=>").next().filter(|_| arm.contains("=>") || arm.ends_with('|')) else {
                continue;
            };
            let alternatives: Vec<&str> = pattern.split('|').map(str::trim).filter(|a| !a.is_empty()).collect();
            if !alternatives.is_empty()
                && alternatives.iter().all(|a| a.len() >= 2 && a.starts_with('"') && a.ends_with('"'))
            {
                names.extend(alternatives.iter().map(|a| a.trim_matches('"').to_string()));
            }
        }
        names
    }

    #[test]
    fn every_name_the_compiler_knows_is_described() {
        let compiler = include_str!("compile.rs");
        let mut described: Vec<String> =
            sections().iter().flat_map(|(_, es)| es.iter().map(|e| e.name().to_string())).collect();
        // Item numbers are described together in the text of one entry.
        for (_, fields) in FIELDS {
            for field in *fields {
                for quoted in field.doc.split('`').skip(1).step_by(2) {
                    described.push(quoted.to_string());
                }
            }
        }
        let mut checked = 0;
        for function in ["call", "procedure", "name", "field_read", "item_field"] {
            for name in match_arm_names(compiler, function) {
                assert!(
                    described.contains(&name),
                    "`{name}` (in compile.rs fn {function}) is not in the rules-language reference"
                );
                checked += 1;
            }
        }
        assert!(checked > 50, "the scan found only {checked} names; has compile.rs changed shape?");
    }

    #[test]
    fn suggestions_cover_every_function_and_statement() {
        let names: Vec<&str> = callable_names().collect();
        for name in ["distance", "count_of", "end_turn", "place", "tagged", "successes", "expect", "chance", "hook"] {
            assert!(names.contains(&name), "{name}");
        }
    }
}
