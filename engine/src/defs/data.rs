//! The data files of a mod: every `*.toml` in the mod folder other than `mod.toml`, merged into
//! one [`ModData`]. Collections (`terrain`, `pieces`, `items`, `cards`, `decks`, `actions`) may be
//! spread over files; their entries may inherit from templates with `inherits` and `abstract`.

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::board::BoardSpec;

/// Keys of [`ModData`] whose entries are definitions merged across files and open to
/// template inheritance.
pub const COLLECTIONS: &[&str] =
    &["terrain", "pieces", "items", "cards", "decks", "formulas", "effects", "actions", "options", "boards"];

/// All of a mod's data, merged from its data files.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ModData {
    /// The board: its kind, size, terrain and, for random boards, the generator's parameters.
    /// May be left out when every choice of a setup option plays on one of `[boards]`.
    pub board: BoardSpec,
    /// Other boards, by id, written like `[board]`: a setup option's choice plays on one with
    /// `board = "id"` (a map for three players, say). A board no choice names is refused.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub boards: IndexMap<String, BoardSpec>,
    /// Terrain kinds that spaces (and, for walls, edges) can have.
    #[serde(default)]
    pub terrain: IndexMap<String, TerrainDef>,
    /// Numbers every space carries, e.g. a count of dice or a fortification level.
    #[serde(default)]
    pub space_counters: IndexMap<String, CounterDecl>,
    /// Numbers the window shows in each space's tooltip, worked out from the rules as they
    /// stand: the defence a square gives, the dice an attack from there would roll. Each is an
    /// *expression* about `space`, read from what the seat watching may see, and may not call
    /// Lua hooks. Keyed by id, shown in order (`[space_figures.<id>]`, like `seats.figures`).
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub space_figures: IndexMap<String, SpaceFigureDef>,
    /// Numbers every seat carries, e.g. money or a reserve.
    #[serde(default)]
    pub resources: IndexMap<String, CounterDecl>,
    /// Numbers every piece carries, e.g. health or strength. Piece kinds give starting values.
    #[serde(default)]
    pub stats: IndexMap<String, CounterDecl>,
    /// Numbers of the whole game, e.g. a countdown.
    #[serde(default)]
    pub vars: IndexMap<String, CounterDecl>,
    /// Bounds of the named numbers items give (the `stats` of `[items]`), e.g.
    /// `[item_stats.range] min = 1`. An item giving a number outside its bounds is refused when
    /// the mod loads (and the editor offers only values within them); a number with no bounds
    /// here may take any value.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub item_stats: IndexMap<String, StatBounds>,
    /// Kinds of pieces, each with a stat block.
    #[serde(default)]
    pub pieces: IndexMap<String, PieceKindDef>,
    /// Items and weapons pieces can hold.
    #[serde(default)]
    pub items: IndexMap<String, ItemDef>,
    /// Cards that decks are made of.
    #[serde(default)]
    pub cards: IndexMap<String, CardDef>,
    /// Decks: which cards, how many of each.
    #[serde(default)]
    pub decks: IndexMap<String, DeckDef>,
    /// How seats are presented and whether a seat may leave the game.
    #[serde(default)]
    pub seats: SeatsDef,
    /// What happens once when a game starts, after the board is built.
    #[serde(default)]
    pub setup: SetupDef,
    /// The structure of a turn: phases, their actions and budgets, and what happens at the start
    /// and end of each turn.
    #[serde(default)]
    pub turn: TurnDef,
    /// Formulas written once, with parameters, and used by name wherever the rules language is
    /// written, like a built-in function: `damage(weapon, hits, distance(from, to))`. Each is
    /// checked once, where it is written; see "Naming a formula or an effect" in the rules
    /// language's reference.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub formulas: IndexMap<String, FormulaDef>,
    /// Effect blocks written once, with parameters, and run by name as a statement of any
    /// effect: `knock_out(target)`.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub effects: IndexMap<String, EffectDef>,
    /// What a seat can do on its turn.
    #[serde(default)]
    pub actions: IndexMap<String, ActionDef>,
    /// Effects that run by themselves when an event happens and a condition holds. The triggers
    /// of one event run in the order written, then the Lua handlers registered for it
    /// (`meeple.on`); none run once the game has an outcome.
    #[serde(default)]
    pub triggers: Vec<TriggerDef>,
    /// How seats drop out, and how a game is won or drawn.
    #[serde(default)]
    pub end: EndDef,
    /// Hints for computer players beyond each action's `ai`.
    #[serde(default)]
    pub ai: AiDef,
    /// Setup options the player offers before a game (map size, starting money, a variant
    /// rule), by id: each has named choices that set data values. A game's setup records the
    /// choices made, and its replay loads the mod with them.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub options: IndexMap<String, OptionDef>,
}

/// A setup option: named choices, one of them the default.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OptionDef {
    /// What the setup screen calls the option, e.g. "Map size".
    pub label: String,
    /// A sentence shown when hovering the option.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The id of the choice a game gets when none is made.
    pub default: String,
    /// The choices, by id, in the order the setup lists them.
    pub choices: IndexMap<String, OptionChoiceDef>,
}

/// One choice of a setup option.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OptionChoiceDef {
    /// What the setup screen shows, e.g. "Small (26 × 30)"; the id when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The data values this choice sets, by dotted path: `"board.rows" = 30`,
    /// `"resources.money.initial" = 20`. Set before the data is checked, so a value is checked
    /// like one written in place.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub set: IndexMap<String, serde_json::Value>,
    /// The board this choice plays on, by its id in `[boards]`; `[board]` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<String>,
    /// The seat counts this choice is for, e.g. `[3]` for a map of three bases; any count the
    /// game takes when absent. The setup offers only the choices that fit its seat count, and
    /// when the option's default does not fit, takes the first that does; a game set up with a
    /// choice that does not fit is refused. Every seat count the game takes must have a choice.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("items" = { "type": "integer", "minimum": 1, "maximum": 16 }))]
    pub seats: Vec<u8>,
}

impl OptionChoiceDef {
    /// Whether the choice is for a game of `seats` seats.
    pub fn fits(&self, seats: usize) -> bool {
        self.seats.is_empty() || self.seats.iter().any(|&n| n as usize == seats)
    }

    /// The seat counts it is for, as a player reads them: "2 or 4".
    pub fn seats_text(&self) -> String {
        let counts: Vec<String> = self.seats.iter().map(u8::to_string).collect();
        match counts.split_last() {
            None => "any number of".to_string(),
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        }
    }
}

/// Hints for computer players as a whole.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AiDef {
    /// *Expression* about `seat`: how well that seat stands, higher is better. Computer players
    /// that look ahead judge the positions they reach by it (when absent: `end.score`, else
    /// `end.draw_shares`, else the spaces the seat owns). It may call a Lua hook, the mod's
    /// evaluation function, which may read the game but not change it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub standing: Option<String>,
    /// How many rounds the hard player plays each sampled future ahead before judging it by
    /// `standing`. When absent it plays each future to the end of the game and counts wins,
    /// which judges best but costs most: give a number for long games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 100))]
    pub rollout_rounds: Option<u32>,
    /// How many of its best-scored actions the hard player weighs by playing them ahead
    /// (passing is always weighed too); 6 when absent. Fewer for a game whose rounds are long,
    /// so a decision stays quick.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 32))]
    pub search_width: Option<u32>,
    /// How many sampled futures the hard player plays each weighed action in; 12 when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 64))]
    pub search_futures: Option<u32>,
    /// The share of its decisions (0 to 1) the easy player takes at random, any legal action
    /// alike; the rest it takes as the medium player does. When absent it plays every decision
    /// at random. Give one for a game that random play never ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0, max = 1.0))]
    pub easy_slips: Option<f64>,
}

/// A number declared by name: a space counter, seat resource, piece stat or game variable.
/// Either a bare starting value (`countdown = 0`) or a table with bounds and a label.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum CounterDecl {
    /// Just the starting value.
    Initial(i64),
    /// The full declaration.
    Full(CounterDef),
}

impl CounterDecl {
    pub fn def(&self) -> CounterDef {
        match self {
            CounterDecl::Initial(value) => CounterDef { initial: *value, ..CounterDef::default() },
            CounterDecl::Full(def) => def.clone(),
        }
    }
}

/// A declared number with its bounds. Writes outside `min..=max` are clamped into the range.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CounterDef {
    /// The name shown to players; the key when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The value a game starts with.
    #[serde(default)]
    pub initial: i64,
    /// The smallest value; writes below it are raised to it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<i64>,
    /// The largest value; writes above it are lowered to it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<i64>,
    /// A secret of its owner's: a resource is seen only by its seat, a stat by the piece's
    /// owner, a space counter by the space's owner (an unowned space's, by nobody). Other
    /// seats' views leave it out — `meeple run --as`, the JSON of their view (`null`), their
    /// events (its changes are left out) and their computer players (which read its starting
    /// value) — and the player window shows it to nobody (panels, tooltips, the number on
    /// spaces, the log). A variable belongs to no seat: `hidden` only keeps it out of the
    /// window. The rules, Lua hooks, scenario tests and `meeple run` without `--as` (the
    /// referee) read every value.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hidden: bool,
    /// `false`: bookkeeping the rules keep for themselves (a flag for the character that moved
    /// this turn, which side of a fight a seat is on), kept off the player window — its panels,
    /// tooltips, the number on spaces and the log — without being a secret: every seat's view,
    /// `meeple run` and the computer players read it as any number. Unlike `hidden`.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub shown: bool,
    /// For a piece's stat (health, hit points, strength): draw it as a bar under each piece,
    /// full at the stat's `max` (`bar = true`) or at another stat of the same piece
    /// (`bar = "max_health"`), and show a fall of it as a hit — the piece flashes, the loss
    /// rises over it ("-12") and a banner says "Hit for 12" unless the action's own `banner`
    /// says otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bar: Option<BarDecl>,
}

/// How full a stat's bar is (see `CounterDef::bar`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum BarDecl {
    /// `true`: full at the stat's `max`; `false`: no bar.
    AtMax(bool),
    /// Full at this other stat of the same piece.
    AtStat(String),
}

impl Default for CounterDef {
    fn default() -> Self {
        Self { label: None, initial: 0, min: None, max: None, hidden: false, shown: true, bar: None }
    }
}

/// The bounds of a named number that items give.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StatBounds {
    /// The smallest value an item may give.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<i64>,
    /// The largest value an item may give.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<i64>,
}

/// A kind of terrain.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TerrainDef {
    /// The name shown to players; the key when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// An image drawn for it: a PNG or SVG file inside the mod's folder (`images/forest.svg`),
    /// looked up in a variant's folder first, then in the mods it extends. Checked at load: a
    /// missing or unreadable file is refused where this key is written. A tile, repeated over each space of this terrain under the owner's frame, pieces and numbers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    /// Drawing colour, `#rrggbb`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^#[0-9a-fA-F]{6}$"), example = &"#f2e6c9")]
    pub color: Option<String>,
    /// Whether pieces may enter spaces of this terrain at all (before per-kind move costs).
    #[serde(default = "yes")]
    pub passable: bool,
    /// Movement points to enter a space of this terrain, unless a piece kind says otherwise.
    /// For a terrain used as a wall on edges (a river, a fence): the extra points to cross it;
    /// a wall terrain that is not `passable` blocks its edge.
    #[serde(default = "one")]
    pub move_cost: u32,
    /// Whether this terrain blocks line of sight: `line_of_sight(a, b)` is false when a space
    /// of it lies between `a` and `b`, or a wall of it stands across the line between them.
    /// Nothing else reads it (movement does not: see `passable`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub blocks_sight: bool,
    /// The level a space of this terrain stands at, for line of sight (a tower, a ridge): 0
    /// when absent. A `blocks_sight` terrain with a height hides only what it rises above: it
    /// blocks a line when it is at least as high as the higher end and higher than the lower
    /// one, so a tower's top sees over a short wall beside it and along the tower, and a
    /// viewer below sees the tower's near edge but nothing past it. A `blocks_sight` terrain
    /// without a height blocks every line. Read in expressions as `space.terrain.height`
    /// (higher ground: `from.terrain.height > to.terrain.height`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<i64>,
    /// Named numbers of this terrain, read in expressions through a space's terrain:
    /// `space.terrain.cover` (0 for a terrain that does not give the number).
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub stats: IndexMap<String, i64>,
    /// Free-form tags, tested in expressions with `tagged(space, "tag")` (a space tests its terrain's).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
}

/// A kind of piece (unit, character, army, token) and its stat block.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PieceKindDef {
    /// The name shown to players; the key when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// An image drawn for it: a PNG or SVG file inside the mod's folder (`images/forest.svg`),
    /// looked up in a variant's folder first, then in the mods it extends. Checked at load: a
    /// missing or unreadable file is refused where this key is written. Drawn on the disc of the owner's colour instead of the `symbol`: a light glyph reads best.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    /// A short symbol (one or two characters) for drawing the piece.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    /// Starting values of the declared `[stats]`; a stat not given starts at its `initial`.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub stats: IndexMap<String, i64>,
    /// Items a new piece of this kind holds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("x-meeple-ref" = "items"))]
    pub items: Vec<String>,
    /// The most items a piece of this kind holds at once (255, the engine's bound, when
    /// absent). Giving one more is an error of the rules; `can_hold(piece, item)` says whether
    /// it may be given, for a parameter's `where`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_items: Option<u32>,
    /// Movement points a piece of this kind pays to enter each terrain, on walks it is the
    /// `walker` of (a `reachable_from` parameter's `walker`, `walk_distance`'s third argument):
    /// heavy pieces slow in forest, light ones quick in it. A terrain not listed costs its own
    /// `move_cost`, and is passable as the terrain is. A cost of 0 means the kind cannot enter
    /// that terrain; any other cost lets it enter, even a terrain not `passable` to others
    /// (a swimmer in deep water). A holder walks by the costs of the pieces inside it, when it
    /// holds any, and by its own as well when it gives them (a cart that keeps to roads, with
    /// its driver). A mod with `move_costs` and no walk with a walker is refused.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub move_costs: IndexMap<String, u32>,
    /// The most pieces a piece of this kind holds inside it at once: crates in a wagon, guards in
    /// a keep, passengers in a boat. A piece goes in with `piece.inside = holder` and then
    /// stands on the holder's space, moves with it, changes hands with it and is removed with
    /// it. 0 (the default): the kind holds nothing. Without `capacity`, a kind with `holds`
    /// holds as many as its `holds` add up to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capacity: Option<u32>,
    /// The piece kinds a holder takes, each with the most of that kind it holds at once (a
    /// wagon of six with at most one guard: `capacity = 6`, `holds = { crate = 6, guard = 1 }`). Any kind that holds nothing itself, up to `capacity`, when absent. Holders do not go
    /// inside holders.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub holds: IndexMap<String, u32>,
    /// Whether pieces of this kind stand between two neighbouring spaces — a wall, a gate, a
    /// bridge built on a border — rather than in one. They are put there with
    /// `place_between("kind", seat, a, b)`, never move, count as standing on both sides
    /// (`touches(piece, space)`), and `pieces_at` does not count them.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub on_edge: bool,
    /// For a kind `on_edge`: the wall terrain it stands for on walks. A walk crossing it pays
    /// that terrain's `move_cost`, and cannot cross it when the terrain is not `passable` or
    /// `passes` keeps the walker out. It does not block sight.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-meeple-ref" = "terrain"))]
    pub wall: Option<String>,
    /// For a kind with a `wall`: who may cross it. `all` (the default), `allies` (the walker's
    /// owner is on the same side as the wall's owner: a piece of nobody's is allied with
    /// nobody) or `none`. The walker is the walk's `walker`, or the seat to act when it has none.
    #[serde(default, skip_serializing_if = "Passes::is_all")]
    pub passes: Passes,
    /// Free-form tags, tested in expressions with `tagged(piece, "tag")` (a piece tests its kind's).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
}

/// Who may cross a wall that stands between two spaces ([`PieceKindDef::passes`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Passes {
    /// Every walker, paying the wall terrain's `move_cost`.
    #[default]
    All,
    /// Walkers of the wall owner's side.
    Allies,
    /// Nobody.
    None,
}

impl Passes {
    fn is_all(&self) -> bool {
        *self == Passes::All
    }
}

/// An item or weapon a piece can hold.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ItemDef {
    /// The name shown to players; the key when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// An image drawn for it: a PNG or SVG file inside the mod's folder (`images/forest.svg`),
    /// looked up in a variant's folder first, then in the mods it extends. Checked at load: a
    /// missing or unreadable file is refused where this key is written. Shown beside the item in shops, choices and the pieces holding it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    /// A sentence for tooltips.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The price in the mod's currency, if it can be bought.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<i64>,
    /// The slot it occupies (e.g. primary, secondary); a piece holds one item per slot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slot: Option<String>,
    /// Charges a newly given item comes with: the ammunition of a new weapon, the uses of a
    /// tool. A held item's `charges` can then change in play (`weapon.charges -= 1`); they never
    /// go below 0.
    #[serde(default, skip_serializing_if = "is_zero_i64")]
    pub charges: i64,
    /// The piece kinds that may hold it — a weapon of one kind's own deck; any kind when empty.
    /// Giving it to another kind is an error of the rules; `can_hold(piece, item)` says whether
    /// it may be given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("x-meeple-ref" = "pieces"))]
    pub holders: Vec<String>,
    /// Named numbers: range, clip size, maximum ammunition and the like. An item that does not
    /// give a number another item gives reads it as 0.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub stats: IndexMap<String, i64>,
    /// Free-form tags, tested in expressions with `tagged(item, "tag")` (a held item tests its kind's).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
}

/// A card.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CardDef {
    /// The name shown to players; the key when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// An image drawn for it: a PNG or SVG file inside the mod's folder (`images/forest.svg`),
    /// looked up in a variant's folder first, then in the mods it extends. Checked at load: a
    /// missing or unreadable file is refused where this key is written. Shown on the card in hands and choices.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    /// The card's text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Named numbers printed on the card.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub stats: IndexMap<String, i64>,
    /// Free-form tags, tested in expressions with `tagged(card, "tag")` and read by Lua hooks.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
}

/// A deck: which cards it holds and how many of each.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeckDef {
    /// The name shown to players; the key when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Card id → number of copies.
    pub cards: IndexMap<String, u32>,
    /// Whether the draw pile is shuffled when the game starts.
    #[serde(default = "yes")]
    pub shuffle: bool,
    /// When the draw pile runs out, shuffle the discard pile into a new draw pile. Without this,
    /// an empty draw pile simply gives no more cards.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reshuffle: bool,
    /// Whether a card of this deck in a seat's hand is hidden from the other seats: each seat
    /// sees its own cards and those shown to it (`reveal_hand`, `reveal_card`); the others'
    /// are unknown in its view (their number is public), in its events (another seat's
    /// `cards_drawn` is a count), in `meeple run --as`, in the window and to its computer
    /// player, which guesses them from what the seat knows. When some deck's cards are hidden
    /// and several people share the screen, the window shows a hand-over screen before each
    /// person's turn. `false` deals the hands face up: every seat sees them. Either way a draw
    /// pile's order and cards are nobody's to see, and a discard pile is everyone's. The rules
    /// and Lua hooks (the referee) read every hand.
    #[serde(default = "yes")]
    pub hidden: bool,
}

/// How seats are presented, and whether one may leave the game.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatsDef {
    /// Default seat names, in seat order; `Seat N` when absent.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<String>,
    /// Seat colours, `#rrggbb`, in seat order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("items" = { "type": "string", "pattern": "^#[0-9a-fA-F]{6}$", "examples": ["#4caf50"] }))]
    pub colors: Vec<String>,
    /// Whether the seat to move may leave the game (surrender). A seat that leaves keeps its
    /// spaces and pieces, takes no more turns, and still defends.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub allow_leaving: bool,
    /// Who moves first: the first seat, a seat drawn at random when the game starts, or one
    /// drawn anew before every match. Either way play then goes round the seats in order. A
    /// drawn first seat comes from the game's random stream, after `setup.effect` (and after
    /// `on_match_end` for a later match): the same seed starts with the same seat, and a saved
    /// game (its seed) replays with it. A game whose first mover has an edge is fair with
    /// `"random"`; one of several matches, with `"random_each_match"`.
    #[serde(default)]
    pub first: FirstSeat,
    /// Sides (teams) seats play on. When empty, every seat is its own side. When given, the
    /// setup assigns each seat a side (by default seat 1 to the first side, seat 2 to the
    /// second, and so on round the list); a win is a win for every seat of the side.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sides: Vec<SideDef>,
    /// Numbers the window shows beside each seat's resources, worked out from the rules as
    /// they stand: the upkeep a seat owes next turn, the points it would score now. Each is an
    /// *expression* about `seat`, read from what the seat watching may see (never a hidden
    /// card of another seat), and may not call Lua hooks. Keyed by id, shown in order.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub figures: IndexMap<String, SeatFigureDef>,
    /// What the window calls the owner of pieces that belong to no seat (wild beasts, a neutral
    /// garrison, deserters), as a name in the log and lists: `"Bandits"` names such a raider
    /// "Bandits' raider". Absent, such a piece is named by its kind alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nobody: Option<String>,
    /// The colour the window draws pieces of no seat's in, `#rrggbb`; light grey when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^#[0-9a-fA-F]{6}$"), example = &"#5d4037")]
    pub nobody_color: Option<String>,
}

/// A number the window shows beside each seat's resources (`[seats.figures.<id>]`).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatFigureDef {
    /// The name shown, e.g. "Upkeep due"; the id when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// *Expression* about `seat`: the number shown, e.g.
    /// `"sum_of(piece, piece.upkeep, piece.owner == seat)"`.
    pub value: String,
}

/// A number the window shows in each space's tooltip (`[space_figures.<id>]`).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SpaceFigureDef {
    /// The name shown, e.g. "Cover"; the id when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// *Expression* about `space`: the number shown, e.g. `"space.terrain.cover + space.walls"`.
    pub value: String,
}

/// A side (team).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SideDef {
    /// The side's id, used in expressions (`seat.side == "blue"`) and in setups.
    pub id: String,
    /// The name shown to players; the id when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// A short name for seat names and turn announcements ("Red" in "Red Turn 1"); the
    /// label when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub short_label: Option<String>,
    /// Drawing colour, `#rrggbb`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^#[0-9a-fA-F]{6}$"), example = &"#d32f2f")]
    pub color: Option<String>,
}

/// Who takes the first turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FirstSeat {
    /// Seat 1.
    #[default]
    First,
    /// A seat drawn from the game's random stream, each as likely.
    Random,
    /// A seat drawn anew before every match (`turn.matches`), each seat still playing as
    /// likely: the game's first match too, and the next ones before their interlude.
    RandomEachMatch,
}

/// What happens once when a game starts.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetupDef {
    /// *Effect* run after the board is built and before the first turn, e.g. dealing out
    /// territories and placing starting pieces.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effect: Vec<Stmt>,
}

/// The structure of every turn.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TurnDef {
    /// The phases of a turn, in order. When empty, a turn is one phase offering every action.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub phases: Vec<PhaseDef>,
    /// The label of the action that ends the current phase (the last phase: the turn).
    #[serde(default = "end_turn_label")]
    pub pass_label: String,
    /// End a phase by itself when passing is the only legal action left.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub auto_pass: bool,
    /// *Effect* at the start of every turn; `me` is the seat whose turn it is. It runs first,
    /// then the first phase's `on_start`, then the `turn_start` triggers and Lua handlers. (A
    /// scenario test's `g:set_turn` runs none of them.)
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_start: Vec<Stmt>,
    /// *Effect* at the end of every turn; `me` is the seat whose turn ends. It runs before the
    /// `turn_end` triggers and Lua handlers; when the turn ends by passing, after the last
    /// phase's `on_end` (`end_turn()` skips the phase's `on_end`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_end: Vec<Stmt>,
    /// Rounds per match (a round is every playing seat taking one turn). 0: the game is one
    /// open-ended match.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rounds_per_match: u32,
    /// How many matches a game has (with `rounds_per_match`); after the last one the game ends
    /// and `end.score` decides the winner.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    #[schemars(extend("default" = 1))]
    pub matches: u32,
    /// *Effect* when a match ends, before the next one starts; `me` is the first seat.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_match_end: Vec<Stmt>,
    /// Turns played before every match (the first too): a shop where each seat buys in turn.
    /// See [How a game runs](how-a-game-runs.md#interludes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interlude: Option<InterludeDef>,
}

/// Turns between matches: from the first seat round the table, each turn made of the
/// interlude's own phases, until every seat still playing has passed a whole turn in a row
/// without taking an action. Then the match begins, at round 1, with the first seat. `round` is 0
/// during an interlude; the turns count towards `end.turn_limit`.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InterludeDef {
    /// The phases of an interlude turn, in order (their ids differ from the turn's phases').
    pub phases: Vec<PhaseDef>,
    /// *Effect* when an interlude ends, before the match's first turn; `me` is the first seat.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_end: Vec<Stmt>,
}

impl Default for TurnDef {
    fn default() -> Self {
        Self {
            phases: Vec::new(),
            pass_label: end_turn_label(),
            auto_pass: false,
            on_start: Vec::new(),
            on_end: Vec::new(),
            rounds_per_match: 0,
            matches: 1,
            on_match_end: Vec::new(),
            interlude: None,
        }
    }
}

/// One phase of a turn.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PhaseDef {
    /// The phase's id, used in expressions (`phase == "main"`).
    pub id: String,
    /// The name shown to players; the id when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The actions offered in this phase; every action when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<String>,
    /// The most times each action (or action group) may be taken in this phase (unlimited when
    /// not listed). The rules read what is used with `used("group")`, and `refund("group", n)`
    /// gives uses back (a card's "one more action").
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub budget: IndexMap<String, u32>,
    /// Whether the seat may pass this phase without taking any action.
    #[serde(default = "yes")]
    pub may_pass: bool,
    /// The label of passing this phase; the turn's `pass_label` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pass_label: Option<String>,
    /// *Effect* when the phase starts (the first phase: at every turn's start, after the turn's
    /// `on_start`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_start: Vec<Stmt>,
    /// *Effect* when the phase ends by passing (or `auto_pass`, or by itself when automatic).
    /// Not when `end_turn()` ends the turn early: then only the turn's `on_end` runs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_end: Vec<Stmt>,
    /// `true`: nobody chooses anything in this phase (a resource or upkeep stage). Its
    /// `on_start` runs, then, once every response it offered is answered, it ends by itself
    /// (`on_end`, then the next phase). It lists no `actions`, `budget` or `pass_label`, and a
    /// turn or interlude has at least one phase that is not automatic.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub automatic: bool,
}

/// Something a seat can do on its turn: choices (parameters), a condition, dice, and effects.
///
/// Applying an action runs, in order: the `rolls`; then, when `success` is given, either
/// `on_success` or `on_failure`; then `effect`.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionDef {
    /// The name shown on the action's button.
    pub label: String,
    /// A sentence for tooltips.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Actions of the same group share one entry of a phase's `budget` (keyed by the group's
    /// name) and one menu in the player, e.g. several ways to buy that count as the one
    /// purchase of a turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// The choices the seat makes, in order; each may refer to the ones before it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<ParamDef>,
    /// Choices made after the `rolls`, once the dice are seen (move up to the rolled number of
    /// steps; pick a target for the damage rolled). Taking such an action is two steps: the
    /// seat chooses `params` and the dice are rolled, which spends the action's budget; then it
    /// makes these choices, which applies the effects, or cancels, which forfeits the action.
    /// Their `where` can use the rolls. `when` is checked before the roll and sees only
    /// `params`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub after_roll: Vec<ParamDef>,
    /// `true`: an action nobody chooses. No phase lists it and no seat is offered it: an effect
    /// performs it with `perform("id", …)`, giving its first parameters, and the engine
    /// chooses the rest by the action's `ai.score` — the best-scoring legal completion, ties
    /// drawn from the game's random stream, none below `ai.min` — for pieces that act on
    /// their own: a wandering beast, a neutral patrol. It may not be a `response` or have
    /// `after_roll` choices. See [How a game runs](how-a-game-runs.md#actions-nobody-chooses).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub automatic: bool,
    /// `true`: a response, taken out of turn. No phase lists it: an effect offers it to a seat
    /// with `offer("id", seat, …)`, giving its first parameters, and that seat takes it (choosing
    /// the rest) or passes, declining, before anyone else acts — an ambush called when an enemy
    /// lands on one's piece, a bribe paid to be let through. It may not have `after_roll`
    /// choices. See [How a game runs](how-a-game-runs.md#responses-out-of-turn).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub response: bool,
    /// For a response: whether the seat offered it may pass it up. `false` makes the answer
    /// compulsory — a choice the rules demand of that seat, such as which of its pieces takes a
    /// wound — and passing is refused while the offered action has a legal completion.
    #[serde(default = "yes")]
    pub may_decline: bool,
    /// For a response: *effect* when the seat offered it passes it up (declines it). It sees
    /// `me` (the declining seat) and the parameters the offer gave — every `offer` of the
    /// action must give those it reads — and runs where the answer would have: the way a rule
    /// goes on when nobody calls an ambush, a chain of rounds when a choice is left unused.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_decline: Vec<Stmt>,
    /// For a response: `true` makes the answer a sealed, simultaneous choice. The answer (what
    /// was chosen, or passing) is kept sealed and nothing of it runs; no other seat sees it, nor
    /// even whether it was a pass — only that the seat has answered — and their computer players
    /// read the offer as still waiting. When no sealed offer is left waiting, every sealed
    /// answer is opened at once and run in the order the offers were made. Rock, paper,
    /// scissors; the cards both sides of a fight commit face down. See
    /// [How a game runs](how-a-game-runs.md#sealed-choices).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sealed: bool,
    /// For a response: `true` offers it again to the same seat each time it is taken, until the
    /// seat passes — a stack of cards committed one by one. A card chosen in an earlier answer
    /// of a sealed, repeated offer is held back from the later ones (it is still in the hand
    /// until the answers are opened).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub repeat: bool,
    /// The label of cancelling the action after its roll (with `after_roll`), e.g. "Cancel move".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cancel_label: Option<String>,
    /// The words the player window shows large over the board once the action is decided,
    /// by its `success`: `{ success = "Taken", failure = "Held off" }`. Either may be left out
    /// (that outcome then shows none). Needs `success`. Without it the window says nothing but
    /// the hits on a stat drawn as a `bar`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub banner: Option<BannerDef>,
    /// *Expression*: an extra condition over all parameters for the action to be legal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when: Option<String>,
    /// What the action needs before any choice is made, each with the reason the player is
    /// shown when it is missing: `{ condition = "me.coins >= porter_price", reason = "costs
    /// {porter_price} coins" }`. Checked in order; the first that does not hold greys the
    /// action out with its reason (the window's tooltip, the error of a refused action). The
    /// conditions see `me` but no parameter: a condition on the choices belongs in `when`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requires: Vec<RequirementDef>,
    /// Named dice, rolled in order when the action is applied: name → *expression* such as
    /// `(from.dice)d6`. Later rolls and the effects can use the names.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub rolls: IndexMap<String, String>,
    /// *Effect* right after the rolls, before anything else (for an action with `after_roll`
    /// choices: before they are made, so it happens even if the action is then cancelled),
    /// e.g. spending the ammunition fired.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_roll: Vec<Stmt>,
    /// *Expression* over the rolls deciding between `on_success` and `on_failure`. The engine
    /// computes its exact probability for previews and computer players (`chance`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub success: Option<String>,
    /// *Effect* when `success` holds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_success: Vec<Stmt>,
    /// *Effect* when `success` does not hold.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_failure: Vec<Stmt>,
    /// *Effect* after the success branch, always.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effect: Vec<Stmt>,
    /// Figures shown before the action is taken: label → *expression*, usually with `chance`
    /// (the probability of `success`), `chance(condition)` or `expect(x)` (the mean of a roll),
    /// worked out over every outcome of the rolls and of the dice their hooks draw (sampled, and
    /// shown as such, beyond 50,000 combinations). In an action with `after_roll` choices, a
    /// figure that reads the rolls or those choices outside `expect`/`chance` (the damage this
    /// roll does to each target) is shown after the roll, the others before it.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub preview: IndexMap<String, String>,
    /// How computer players value this action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ai: Option<AiHintDef>,
}

/// What the player window says of an action's outcome (see `ActionDef::banner`).
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BannerDef {
    /// Shown when `success` holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub success: Option<String>,
    /// Shown when `success` does not hold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
}

/// A condition an action needs before any choice, and why it is missing when it does not hold.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RequirementDef {
    /// *Expression*: what must hold, read before any parameter is chosen (it sees `me`).
    pub condition: String,
    /// The words shown when it does not hold ("costs {porter_price} coins"): each `{…}` is an
    /// *expression* giving a whole number, written in at that moment.
    pub reason: String,
}

/// A formula with a name, e.g. `[formulas.damage]`, called as `damage(weapon, hits, 2)`. Its
/// name may not be one of the language's own functions or statements.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FormulaDef {
    /// What it works out, in a sentence for the people reading the mod.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its parameters in order, each `"name: type"` with a type of the rules language:
    /// `number`, `whole number`, `yes/no`, `seat`, `space`, `piece`, `held item`, `terrain`,
    /// `piece kind`, `item`, `card`, `side` or `phase`. A call gives one value of that type for each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<String>,
    /// *Expression*: the formula's value, which a call gives. It sees `me` (the caller's), the
    /// parameters by name, the game's variables and every other name that means the same
    /// everywhere; it may use other formulas (never itself, directly or through others) and
    /// call Lua hooks (then it may be used only where hooks can run), but it cannot roll dice,
    /// draw at random, or use `chance` or `expect`.
    pub value: String,
}

/// An effect block with a name, e.g. `[effects.knock_out]`, run by the statement
/// `knock_out(target)`. Its name may not be one of the language's own functions or statements,
/// nor a formula's.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EffectDef {
    /// What it does, in a sentence for the people reading the mod.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its parameters in order, each `"name: type"`, with the types a formula's `params` take.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<String>,
    /// *Effect*: the statements it runs, seeing `me` (the caller's), the parameters by name and
    /// the game's variables. It may do whatever an effect may, run other effect blocks (never
    /// itself, directly or through others) and use formulas; its `let` names stay inside it.
    #[serde(rename = "do")]
    pub body: Vec<Stmt>,
}

/// One choice of an action, with where its candidates come from and what they must satisfy.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ParamDef {
    /// The name the action's expressions use for the chosen value.
    pub name: String,
    /// What kind of thing is chosen.
    pub kind: ParamKind,
    /// The prompt shown while choosing, e.g. "Attack from".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// *Expression* for a seat: only spaces or pieces owned by that seat are candidates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owned_by: Option<String>,
    /// *Expression* for a space: only its neighbours are candidates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adjacent_to: Option<String>,
    /// *Expression* for a space: only spaces a walk from it reaches are candidates (not the
    /// space itself). Each step goes to a neighbour and costs the entered terrain's
    /// `move_cost`; impassable terrain cannot be entered. Needs `steps`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reachable_from: Option<String>,
    /// *Expression*: the movement points a `reachable_from` walk may spend.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<String>,
    /// `true`: the `reachable_from` walk spends exactly `steps`, never less — a move of the
    /// number rolled, not up to it. The walk never enters a space twice (no dawdling back and
    /// forth), and where ways part (a junction between two rings) every way counts.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exact_steps: bool,
    /// *Expression* about `space`: a `reachable_from` walk enters only the spaces where it
    /// holds, on its way or at its end — through one's own pieces but not the enemy's:
    /// `"count_of(piece, piece.space == space and piece.owner != me) == 0"`. Read once per space
    /// before the walk, with the earlier parameters known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub through: Option<String>,
    /// *Expression* for the piece that walks a `reachable_from` walk: each step then costs what
    /// its kind's `move_costs` give for the entered terrain (a terrain it cannot enter is
    /// impassable to it, one it may enter is passable to it). A holder with pieces inside walks
    /// at the pace of the slowest: each terrain costs the most any kind inside (and the
    /// holder's own kind, when it gives `move_costs`) pays, and one that any of them cannot
    /// enter is impassable. Without `walker` the terrain's own
    /// `move_cost` is paid. A walker that is `none` or gone reaches nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub walker: Option<String>,
    /// *Expression* about `space` and `cost`: what a `reachable_from` walk pays to enter
    /// `space`, in place of `cost` — the walker's or the terrain's price for it, or -1 where it
    /// cannot enter. Below 0: it cannot enter. A bridge that makes water cost 1, a cleared path
    /// through a forest: `"space.bridge > 0 ? 1 : cost"`. Walls on the way are paid on top. Read
    /// once per space before the walk, with the earlier parameters known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enter_cost: Option<String>,
    /// *Expression* about `space`: a `reachable_from` walk may end on a space where it holds but
    /// never goes on from it (the walk's start excepted) — a space held by the enemy, a zone of
    /// control. Read once per space before the walk, with the earlier parameters known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stops: Option<String>,
    /// *Expression* for a piece: for `held` parameters, the piece whose items are candidates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub held_by: Option<String>,
    /// *Expression* for a seat: for `card` parameters, the seat whose hand the cards come
    /// from; `me` when absent. Of another seat's hand, only the cards the acting seat knows
    /// (its deck's hands are open, or they were shown to it) are candidates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// For `card` parameters: a deck id; only that deck's cards are candidates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck: Option<String>,
    /// *Expression* a candidate must satisfy; it can use this parameter and the earlier ones.
    #[serde(default, rename = "where", skip_serializing_if = "Option::is_none")]
    pub filter: Option<String>,
    /// More that a candidate must satisfy, each with the reason shown when it does not: like
    /// `where`, but the window lists an item that fails one greyed, with the first missing
    /// reason, instead of leaving it out (a shop shows what the purse cannot pay for): `{
    /// condition = "ware.price <= me.coins", reason = "costs {ware.price}" }`. The conditions and
    /// the reasons' figures see this parameter and the earlier ones.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requires: Vec<RequirementDef>,
    /// For `number`: the smallest value offered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<String>,
    /// For `number`: the largest value offered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<String>,
}

/// What kind of thing an action parameter chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ParamKind {
    /// A space of the board.
    Space,
    /// A seat.
    Seat,
    /// A piece on the board.
    Piece,
    /// A whole number between `min` and `max`.
    Number,
    /// A kind of item from the mod's `[items]` (a shop's catalogue).
    Item,
    /// An item a piece holds (`held_by`), with its own `charges`.
    Held,
    /// A card in a seat's hand (`from`, `me` when absent; `deck` for one deck's cards): one
    /// choice per card id the hand holds, however many copies. Its value is the card: compared
    /// with a quoted id (`c == "sword"`), with fields `deck` and the card's `stats`.
    Card,
}

/// How computer players value an action.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AiHintDef {
    /// *Expression*: the action's value; higher is better. `chance` is the exact probability
    /// of `success`.
    pub score: String,
    /// The greedy player takes the best action only when its score is at least this; otherwise
    /// it passes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    /// For actions with `after_roll` choices: *expression* for the value of starting the
    /// action, before the dice (it sees `params`; rolls only through `expect`). `score` then
    /// values each choice after the roll, with the rolls known. Without it, 0. `min` applies to
    /// both: the greedy player neither starts an action nor takes a choice below it (after the
    /// roll it cancels instead).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_score: Option<String>,
}

/// A rule that runs by itself.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TriggerDef {
    /// The event that wakes it.
    pub on: EventKind,
    /// For `on = "rolled"`: the name of the roll that wakes it, a key of the `rolls` of any
    /// action (`move` for `rolls = { move = "2d6" }`): whichever seat's action makes a roll of
    /// that name, on its turn or in a response.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roll: Option<String>,
    /// *Expression* that must hold for the effect to run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when: Option<String>,
    /// *Effect* to run.
    pub effect: Vec<Stmt>,
}

/// Named moments of a game at which triggers and Lua hooks run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// After setup, before the first turn.
    GameStart,
    /// A seat's turn begins (after the turn's `on_start` and the first phase's `on_start`).
    TurnStart,
    /// A seat's turn ends (after the turn's `on_end`), before the next seat's turn starts.
    TurnEnd,
    /// After every action of the mod (a cancelled one too, but not passing or leaving), before
    /// end conditions are checked and before a turn that `end_turn()` ended moves on: a
    /// `draw()` here comes before the `end.win` check of the same action (test a full board at
    /// `turn_start`).
    AfterAction,
    /// A seat dropped out (eliminated or left).
    SeatOut,
    /// A match ended (after the turn's `on_match_end`).
    MatchEnd,
    /// A roll named by the trigger's `roll` was made, by any seat: right after that roll, before
    /// the action's later rolls and its effects. `me` is the seat that rolled and `rolled` the
    /// roll's value — investments that pay on anyone's dice. For triggers only (no Lua handler).
    Rolled,
    /// The game ended: for Lua handlers only (`meeple.on`); a trigger on it is refused, since
    /// the rules change nothing once the game has an outcome.
    GameEnd,
}

impl EventKind {
    pub const ALL: [EventKind; 7] = [
        EventKind::GameStart,
        EventKind::TurnStart,
        EventKind::TurnEnd,
        EventKind::AfterAction,
        EventKind::SeatOut,
        EventKind::MatchEnd,
        EventKind::GameEnd,
    ];

    pub fn name(self) -> &'static str {
        match self {
            EventKind::GameStart => "game_start",
            EventKind::TurnStart => "turn_start",
            EventKind::TurnEnd => "turn_end",
            EventKind::AfterAction => "after_action",
            EventKind::SeatOut => "seat_out",
            EventKind::MatchEnd => "match_end",
            EventKind::Rolled => "rolled",
            EventKind::GameEnd => "game_end",
        }
    }
}

/// How seats drop out, and how a game ends.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EndDef {
    /// *Expression* about `seat`: when it holds, the seat is eliminated (checked after every
    /// action and turn).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eliminate: Option<String>,
    /// *Expression* about `seat`: when it holds, that seat wins and the game ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub win: Option<String>,
    /// When only one seat — or only seats of one side — is still playing (every other one
    /// eliminated or gone), it wins.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub last_seat_wins: bool,
    /// *Expression*: when it holds (checked after every action and turn start, after `win`),
    /// the game ends drawn, split by `draw_shares`; `seat` is the seat to move. For example a
    /// full board: `count_of(space, space.owner == none) == 0`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<String>,
    /// *Expression* about `seat`: its score when the game ends by running out of matches or
    /// turns. The side with the highest score wins; a tie is a draw between the tied seats.
    /// Without it, such an ending is a draw split by `draw_shares`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<String>,
    /// *Expression* about `seat`: its share of the pot when a game is drawn with `draw()`
    /// (shares are normalised to sum to 1 over the seats still playing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw_shares: Option<String>,
    /// A safety net: after this many turns the game ends, decided by `score` when the mod has
    /// one, else drawn. Keeps simulations finite.
    #[serde(default = "default_turn_limit")]
    pub turn_limit: u32,
}

impl Default for EndDef {
    fn default() -> Self {
        Self {
            eliminate: None,
            win: None,
            last_seat_wins: false,
            draw: None,
            score: None,
            draw_shares: None,
            turn_limit: default_turn_limit(),
        }
    }
}

/// One entry of an effect list: a statement line, or a block.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Stmt {
    /// One statement: `let x = …`, an assignment (`=`, `+=`, `-=`) or a call.
    Line(String),
    /// `{ if = "…", then = […], else = […] }`
    If(IfBlock),
    /// `{ for_each = "space", where = "…", do = […] }`
    ForEach(ForEachBlock),
}

/// A conditional block of an effect list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct IfBlock {
    /// *Expression*: the condition.
    #[serde(rename = "if")]
    pub condition: String,
    /// *Effect* when the condition holds.
    #[serde(default)]
    pub then: Vec<Stmt>,
    /// *Effect* otherwise.
    #[serde(default, rename = "else", skip_serializing_if = "Vec::is_empty")]
    pub otherwise: Vec<Stmt>,
}

/// What an effect's `for_each` block loops over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LoopOver {
    /// Every seat, in the game or out of it.
    Seat,
    /// Every space of the board.
    Space,
    /// Every piece in play, also one taken off the board with `piece.space = none`.
    Piece,
}

/// A loop of an effect list over every seat, space or piece (in id order).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ForEachBlock {
    /// What to loop over: `seat` (every seat, in the game or out of it), `space` (every space)
    /// or `piece` (every piece in play, also one taken off the board with `piece.space = none`,
    /// which the loops of formulas such as `count_of(piece, …)` skip); no other kind. In id
    /// order; what the loop itself adds (a piece it places) is not visited, what it removes
    /// before reaching it is not either. The loop variable has the same name unless `as` names
    /// it.
    pub for_each: LoopOver,
    /// A name for the loop variable, so a loop inside a loop can still read the outer one's.
    #[serde(default, rename = "as", skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// *Expression* selecting which ones.
    #[serde(default, rename = "where", skip_serializing_if = "Option::is_none")]
    pub filter: Option<String>,
    /// *Effect* for each.
    #[serde(rename = "do")]
    pub body: Vec<Stmt>,
}

fn is_true(value: &bool) -> bool {
    *value
}

fn yes() -> bool {
    true
}

fn one() -> u32 {
    1
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn is_zero_i64(n: &i64) -> bool {
    *n == 0
}

fn is_one(n: &u32) -> bool {
    *n == 1
}

fn end_turn_label() -> String {
    "End turn".into()
}

fn default_turn_limit() -> u32 {
    10_000
}
