//! The frozen ruleset: a mod's data, validated and compiled, shared read-only by every game.
//!
//! Architecture invariant: a `Ruleset` never changes after loading. Games hold an `Arc` to it;
//! hot reload builds a new one.

pub mod compile;
pub mod ir;
pub mod language;

use std::collections::HashMap;

use crate::defs::{EventKind, Manifest, ModData, ParamKind};
pub use crate::source::PathSegment as PathSeg;
pub use compile::{Problem, compile, compile_partial};
use ir::{Block, Expr};

/// A declared number (space counter, seat resource, piece stat, game variable) with its bounds.
#[derive(Clone, Debug)]
pub struct CounterInfo {
    pub id: String,
    pub label: String,
    pub initial: i64,
    pub min: i64,
    pub max: i64,
    pub hidden: bool,
    /// `false`: bookkeeping kept off the player window, though no secret.
    pub shown: bool,
    /// A piece's stat drawn as a bar, its falls shown as hits (see `CounterDef::bar`).
    pub bar: Option<BarFull>,
}

/// What a stat's bar is full at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarFull {
    /// The stat's own `max`.
    Max,
    /// Another stat of the piece, by index.
    Stat(u16),
}

impl CounterInfo {
    /// Whether the player window shows this number: it is neither a secret nor bookkeeping.
    pub fn on_screen(&self) -> bool {
        self.shown && !self.hidden
    }

    /// The value clamped into this counter's bounds.
    #[inline]
    pub fn clamp(&self, value: i64) -> i64 {
        value.clamp(self.min, self.max)
    }
}

/// A terrain kind.
#[derive(Clone, Debug)]
pub struct TerrainInfo {
    pub id: String,
    pub label: String,
    pub color: Option<[u8; 3]>,
    pub passable: bool,
    pub move_cost: u32,
    pub blocks_sight: bool,
    /// The terrain's `height` for line of sight; `None` where the mod gives none (level 0, and
    /// a blocking terrain without one blocks every line).
    pub height: Option<i64>,
    /// Values of [`Ruleset::terrain_stats`], by index (0 where the terrain gives none).
    pub stats: Vec<i64>,
    /// Indexes into [`Ruleset::tags`].
    pub tags: Vec<u16>,
}

/// A piece kind with its starting stat block.
#[derive(Clone, Debug)]
pub struct PieceKindInfo {
    pub id: String,
    pub label: String,
    pub symbol: String,
    /// Starting value of every declared stat, by stat index.
    pub stats: Vec<i64>,
    /// By stat index, whether the kind's `stats` (its own or inherited) give that stat: what a
    /// piece of the kind has, as the window lists it, rather than a number every piece carries.
    pub gives_stat: Vec<bool>,
    /// Movement points to enter each terrain, by terrain index, on a walk this kind is the
    /// walker of; `None` where it cannot enter.
    pub move_costs: Vec<Option<u32>>,
    /// Whether the kind gives `move_costs` of its own: a holder that does walks no faster
    /// than they allow, whatever it holds.
    pub own_pace: bool,
    /// Items a new piece holds, by item index.
    pub items: Vec<u16>,
    /// The most items a piece of this kind holds (`MAX_HELD_ITEMS` at most).
    pub max_items: usize,
    /// The most pieces inside a piece of this kind at once; 0 when it holds none.
    pub capacity: u32,
    /// The kinds it holds, each with the most of that kind inside at once; every kind that
    /// holds nothing itself when empty.
    pub holds: Vec<(u16, u32)>,
    /// Whether its pieces stand between two neighbouring spaces (`on_edge`).
    pub on_edge: bool,
    /// The wall terrain it stands for on walks, for a kind `on_edge` with a `wall`.
    pub wall: Option<u16>,
    /// Who crosses it, when it is a wall.
    pub passes: crate::defs::Passes,
    /// Indexes into [`Ruleset::tags`].
    pub tags: Vec<u16>,
}

/// An item kind: what a shop sells and pieces hold.
#[derive(Clone, Debug)]
pub struct ItemInfo {
    pub id: String,
    pub label: String,
    /// The price; 0 when the item is not sold.
    pub price: i64,
    /// The slot (index into [`Ruleset::item_slots`]) it occupies, if any.
    pub slot: Option<u16>,
    /// Charges a newly given item comes with.
    pub charges: i64,
    /// Values of [`Ruleset::item_stats`], by index (0 where the item gives none).
    pub stats: Vec<i64>,
    /// Indexes into [`Ruleset::tags`].
    pub tags: Vec<u16>,
    /// The piece kinds that may hold it; every kind when empty.
    pub holders: Vec<u16>,
}

/// A card of the mod: what the rules read of it.
#[derive(Clone, Debug)]
pub struct CardInfo {
    pub label: String,
    /// The first deck that lists it (a card value's `deck`), if any.
    pub deck: Option<u16>,
    /// Values of [`Ruleset::card_stats`], by index (0 where the card prints none).
    pub stats: Vec<i64>,
    /// Indexes into [`Ruleset::tags`].
    pub tags: Vec<u16>,
}

/// A deck: its cards (card index per copy) and policies.
#[derive(Clone, Debug)]
pub struct DeckInfo {
    pub id: String,
    pub label: String,
    pub cards: Vec<u16>,
    pub shuffle: bool,
    pub reshuffle: bool,
    pub hidden: bool,
}

/// A compiled effect list and the frame size it needs.
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub block: Block,
    pub frame: u16,
    /// Whether running it can fail at run time (then the state is snapshotted first).
    pub fallible: bool,
}

/// A compiled expression evaluated with its own frame (`me`, and `seat` for per-seat rules).
#[derive(Clone, Debug)]
pub struct Formula {
    pub expr: Expr,
    pub frame: u16,
}

/// A formula the mod names (`[formulas.<id>]`), compiled once where it is written.
#[derive(Clone, Debug)]
pub struct NamedFormula {
    pub id: String,
    /// Its parameters, in frame slots 1 and on (`me` is slot 0).
    pub params: Vec<(String, ir::Type)>,
    /// The type of its value, which is the type of a call.
    pub ty: ir::Type,
    pub body: Expr,
    /// The frame its body needs: `me`, the parameters, then its loops' variables.
    pub frame: u16,
    /// Whether evaluating it can fail (a division, a hook).
    pub fallible: bool,
    /// The first Lua hook it calls, directly or through other formulas (see [`HookUse`]).
    pub hook: Option<HookUse>,
    /// Its size and depth with the formulas it uses written out.
    pub extent: ir::Extent,
}

/// An effect block the mod names (`[effects.<id>]`), compiled once where it is written.
#[derive(Clone, Debug)]
pub struct NamedEffect {
    pub id: String,
    /// Its parameters, in frame slots 1 and on (`me` is slot 0); its `let` names follow.
    pub params: Vec<(String, ir::Type)>,
    pub body: Block,
    pub frame: u16,
    /// Whether running it can fail at run time (then its action runs on a snapshot).
    pub fallible: bool,
    /// The first Lua hook it calls, directly or through the formulas and effects it uses.
    pub hook: Option<HookUse>,
    /// Its size and depth with the formulas and effects it uses written out.
    pub extent: ir::Extent,
}

/// A Lua hook a named formula or effect calls: the hook's name, and the names it is reached
/// through (`["splash"]` when the formula calls `splash`, which calls the hook). A call is
/// refused where hooks cannot run, with this in the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HookUse {
    pub hook: String,
    pub through: Vec<String>,
}

/// A walk a space parameter's candidates are reached by (`reachable_from`): the spaces it
/// reaches from `from` for at most `steps` movement points, or exactly that many.
#[derive(Clone, Debug)]
pub struct Walkway {
    pub from: Expr,
    pub steps: Expr,
    /// `exact_steps`: the walk spends exactly `steps`.
    pub exact: bool,
    /// `through`: the condition, and the slot its `space` is bound to.
    pub through: Option<(u16, Expr)>,
    /// `walker`: the piece whose kinds price the walk.
    pub walker: Option<Expr>,
    /// `enter_cost`: the price of entering, with the slot of its `space`; its `cost` is the
    /// slot after.
    pub enter_cost: Option<(u16, Expr)>,
    /// `stops`: where the walk may end but not go on, and the slot of its `space`.
    pub stops: Option<(u16, Expr)>,
    /// The hidden slot where the effects find `walk_spent(…)` of this parameter, when they ask.
    pub spent_slot: Option<u16>,
}

/// Where a parameter's candidates come from.
#[derive(Clone, Debug)]
pub enum ParamSource {
    /// Every space (filtered).
    AllSpaces,
    /// Spaces owned by the seat the expression gives.
    SpacesOwnedBy(Expr),
    /// Neighbours of the space the expression gives.
    AdjacentTo(Expr),
    /// Every seat.
    Seats,
    /// Every piece on the board.
    AllPieces,
    /// Pieces owned by the seat the expression gives.
    PiecesOwnedBy(Expr),
    /// The spaces a walk reaches ([`Walkway`]).
    Reachable(Box<Walkway>),
    /// Every item kind.
    Items,
    /// The items the piece the expression gives holds.
    HeldBy(Expr),
    /// The distinct cards (by index, in index order) in the hand of the seat the expression
    /// gives, of one deck when one is named, that the acting seat knows.
    Hand(Expr, Option<u16>),
    /// Whole numbers between two expressions.
    Numbers(Expr, Expr),
}

/// One compiled action parameter.
#[derive(Clone, Debug)]
pub struct ParamRule {
    pub name: String,
    pub kind: ParamKind,
    pub label: String,
    pub source: ParamSource,
    /// `where` and every condition of `requires`: what a candidate must satisfy to be listed.
    pub filter: Option<Expr>,
    /// The filter's shape when it is one the legal-action listing checks directly.
    pub fast: FastFilter,
    /// `where` alone: what a candidate must satisfy to be shown at all (see `requires`).
    pub shown_if: Option<Expr>,
    /// The conditions a shown candidate may miss, each with its reason.
    pub requires: Vec<Requirement>,
}

/// A parameter filter the listing checks without the evaluator: listing legal actions tries
/// every candidate, and these two shapes cover most real filters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FastFilter {
    /// No filter.
    Pass,
    /// `this.counter <op> value` on the candidate space.
    Counter { counter: u16, op: ir::CmpOp, value: i64 },
    /// `this.owner == seat` (or `!=`) for the seat in another frame slot.
    Owner { seat: u16, equal: bool },
    /// Anything else: evaluate the filter.
    General,
}

impl FastFilter {
    /// Classifies the filter of the parameter in frame slot `slot`.
    pub fn classify(filter: Option<&Expr>, slot: u16) -> Self {
        match filter {
            None => FastFilter::Pass,
            Some(Expr::CounterCmp { slot: s, counter, op, value }) if *s == slot => {
                FastFilter::Counter { counter: *counter, op: *op, value: *value }
            }
            Some(Expr::OwnerIs { space, seat, equal }) if *space == slot && *seat < slot => {
                FastFilter::Owner { seat: *seat, equal: *equal }
            }
            Some(_) => FastFilter::General,
        }
    }
}

/// A compiled requirement of an action: its condition (reading only `me`, slot 0) and the
/// reason shown when it does not hold.
#[derive(Clone, Debug)]
pub struct Requirement {
    pub condition: Expr,
    pub reason: Vec<ReasonPart>,
}

/// A piece of a requirement's reason: words as written, or a figure worked out when shown.
#[derive(Clone, Debug)]
pub enum ReasonPart {
    Words(String),
    Figure(Expr),
}

/// A compiled action.
#[derive(Clone, Debug)]
pub struct ActionRule {
    pub id: String,
    pub label: String,
    pub description: Option<String>,
    pub params: Vec<ParamRule>,
    pub when: Option<Expr>,
    /// What the action needs before any choice, in order (see `ActionDef::requires`).
    pub requires: Vec<Requirement>,
    /// Named rolls; roll `i` lives in frame slot `1 + params.len() + i`.
    pub rolls: Vec<(String, Expr)>,
    /// Runs right after the rolls (see `ActionDef::on_roll`).
    pub on_roll: Block,
    pub success: Option<Expr>,
    pub on_success: Block,
    pub on_failure: Block,
    pub effect: Block,
    pub preview: Vec<(String, Expr)>,
    /// The words shown once the action is decided: on success, on failure.
    pub banner: (Option<String>, Option<String>),
    /// How many of `params` are chosen before the roll; the rest are `after_roll` choices.
    pub before_roll: usize,
    pub cancel_label: String,
    /// The entry of `TurnState::used` and of phase budgets this action counts against: its
    /// own index, or its group's.
    pub budget_slot: u16,
    /// With `after_roll` choices: the value of starting the action (before the dice).
    pub ai_start_score: Option<Expr>,
    pub ai_score: Option<Expr>,
    /// Whether `ai_score` is exactly `chance` (scored by table lookup when it can be).
    pub ai_score_is_chance: bool,
    pub ai_min: Option<f64>,
    pub frame: u16,
    pub fallible: bool,
    /// A response: offered to a seat by `offer(…)`, never listed in a phase.
    pub response: bool,
    /// Performed by `perform(…)`, chosen by its score; never listed in a phase.
    pub automatic: bool,
    /// For a response: whether passing declines it (else answering it is compulsory).
    pub may_decline: bool,
    /// For a response: the effect of declining it, which sees the offered parameters.
    pub on_decline: Block,
    /// How many leading parameters `on_decline` reads: every offer must give at least these.
    pub decline_reads: u8,
    /// For a response: answers are sealed until no sealed offer waits (`TurnState::sealed`).
    pub sealed: bool,
    /// For a response: offered again to the same seat after each answer taken, until it passes.
    pub repeat: bool,
}

impl ActionRule {
    /// The frame slot of roll `index`.
    pub fn roll_slot(&self, index: usize) -> u16 {
        (1 + self.params.len() + index) as u16
    }

    /// Whether the action is taken in two steps: roll, then the `after_roll` choices.
    pub fn is_staged(&self) -> bool {
        self.before_roll < self.params.len()
    }

    /// Whether the action is "one of my spaces, then one of its neighbours", both filtered by
    /// fast filters and with no `when`: the shape of most moves and attacks, which the listing
    /// walks in one tight loop instead of the general recursion.
    pub fn is_owned_then_neighbor(&self) -> bool {
        let [from, to] = self.params.as_slice() else { return false };
        let fast = |p: &ParamRule| !matches!(p.fast, FastFilter::General) && p.kind == ParamKind::Space;
        self.when.is_none()
            && !self.is_staged()
            && fast(from)
            && fast(to)
            && matches!(from.source, ParamSource::SpacesOwnedBy(Expr::Slot(0)))
            && matches!(to.source, ParamSource::AdjacentTo(Expr::Slot(1)))
            && !matches!(from.fast, FastFilter::Owner { .. })
            && matches!(to.fast, FastFilter::Pass | FastFilter::Counter { .. } | FastFilter::Owner { seat: 0, .. })
    }
}

/// A compiled phase.
#[derive(Clone, Debug)]
pub struct PhaseRule {
    pub id: String,
    pub label: String,
    /// Action indices offered in this phase.
    pub actions: Vec<u16>,
    /// Budget per budget slot (`u32::MAX` = unlimited): one per action, then one per action
    /// group (see [`ActionRule::budget_slot`]).
    pub budget: Vec<u32>,
    pub may_pass: bool,
    pub pass_label: String,
    pub on_start: Program,
    pub on_end: Program,
    /// Ends by itself once its offers are answered; offers no action (see `PhaseDef::automatic`).
    pub automatic: bool,
}

/// A compiled trigger.
#[derive(Clone, Debug)]
pub struct TriggerRule {
    /// For `rolled` triggers: the name of the roll that wakes it.
    pub roll: Option<String>,
    pub when: Option<Expr>,
    pub effect: Program,
}

/// Compiled end conditions.
#[derive(Clone, Debug)]
pub struct EndRule {
    pub eliminate: Option<Formula>,
    pub win: Option<Formula>,
    pub last_seat_wins: bool,
    /// When it holds, the game ends drawn (slot 1 is the seat to move).
    pub draw: Option<Formula>,
    pub score: Option<Formula>,
    pub draw_shares: Option<Formula>,
    pub turn_limit: u32,
    /// Whether `eliminate` or `win` can change just because a turn started (they read the turn,
    /// the seat to move, or Lua); otherwise the end check at the start of a turn is skipped
    /// when the turn start changed nothing.
    pub reads_turn_state: bool,
    /// Whether `eliminate` and `win` read only how many spaces each seat owns (and the seats'
    /// statuses and the board's size): then the engine remembers when they last held for no
    /// seat and skips checking them again while those numbers stay the same.
    pub reads_only_ownership: bool,
}

/// A `hook("name")` reference in the data, with its location.
#[derive(Clone, Debug)]
pub struct HookRef {
    pub name: String,
    pub path: Vec<PathSeg>,
    pub span: crate::expr::Span,
}

/// A Lua hook file of the mod.
#[derive(Clone, Debug)]
pub struct HookSource {
    /// Path of the file, e.g. `mods/x/hooks/combat.lua`, shown in load-time diagnostics.
    pub display_path: String,
    /// The short name Lua knows the chunk by, e.g. `x/hooks/combat.lua`; Lua's own messages
    /// (`x/hooks/combat.lua:4: attempt to ...`) use it, and Lua cuts longer names short.
    pub chunk_name: String,
    pub text: String,
}

/// A mod, loaded, validated and compiled.
#[derive(Debug)]
pub struct Ruleset {
    pub manifest: Manifest,
    /// The merged data as loaded, for tools that show or edit it.
    pub data: ModData,
    /// The mod folder, when loaded from disk.
    pub folder: Option<std::path::PathBuf>,
    /// The setup options the data was loaded with, every option by id (see [`crate::options`]).
    pub chosen_options: crate::options::Choices,
    pub terrain: Vec<TerrainInfo>,
    pub space_counters: Vec<CounterInfo>,
    pub resources: Vec<CounterInfo>,
    pub stats: Vec<CounterInfo>,
    pub vars: Vec<CounterInfo>,
    pub piece_kinds: Vec<PieceKindInfo>,
    pub items: Vec<ItemInfo>,
    /// Names of the items' numbers (`stats` of every item, in order of first appearance).
    pub item_stats: Vec<String>,
    /// Names of the item slots, in order of first appearance.
    pub item_slots: Vec<String>,
    /// Names of the terrains' numbers (`stats` of every terrain, in order of first appearance).
    pub terrain_stats: Vec<String>,
    /// Every tag of a terrain, piece kind, item or card, in order of first appearance.
    pub tags: Vec<String>,
    /// Names of the budget slots: every action id, then every action group.
    pub budget_names: Vec<String>,
    /// `ai.standing`, with `me` in slot 0 and `seat` in slot 1.
    pub ai_standing: Option<Formula>,
    /// `seats.figures`: each figure's label and formula (`me` in slot 0, `seat` in slot 1).
    pub seat_figures: Vec<(String, Formula)>,
    /// `space_figures`, by label: formulas about `space` (slot 1).
    pub space_figures: Vec<(String, Formula)>,
    pub card_ids: Vec<String>,
    /// What the rules read of each card, by the same index as [`Ruleset::card_ids`].
    pub cards: Vec<CardInfo>,
    /// Names of the cards' numbers (`stats` of every card, in order of first appearance).
    pub card_stats: Vec<String>,
    pub decks: Vec<DeckInfo>,
    pub actions: Vec<ActionRule>,
    pub phases: Vec<PhaseRule>,
    pub setup: Program,
    pub turn_start: Program,
    pub turn_end: Program,
    pub auto_pass: bool,
    /// Rounds per match (0: no matches) and matches per game.
    pub rounds_per_match: u32,
    pub matches: u32,
    pub match_end: Program,
    /// How many of `phases` make a match's turn; the rest (`[turn.interlude]`) make an
    /// interlude's turn.
    pub match_phases: u16,
    /// Whether matches open with an interlude.
    pub interlude: bool,
    pub interlude_end: Program,
    /// Triggers by event, in declaration order.
    pub triggers: Vec<(EventKind, TriggerRule)>,
    pub end: EndRule,
    /// The formulas the mod names, in the order of `[formulas]` (see [`ir::Func::Formula`]).
    pub formulas: Vec<NamedFormula>,
    /// The effect blocks the mod names, in the order of `[effects]` (see [`ir::Proc::Effect`]).
    pub effects: Vec<NamedEffect>,
    /// Hook function names referenced by `hook("name")`, by index.
    pub hook_names: Vec<String>,
    /// Where each `hook("name")` appears, so a missing Lua function can be located.
    pub hook_refs: Vec<HookRef>,
    /// Texts of `log("...")` statements, by index.
    pub strings: Vec<String>,
    pub hooks: Vec<HookSource>,
    /// Where each rule is written (`actions.attack.effect` → `rules.toml:12:10`), so an error at
    /// run time points at the file like an error at load does. Filled by the loader; empty for a
    /// ruleset compiled from data alone.
    pub rule_locations: HashMap<String, String>,
    /// Where each image the data names lies (`images/forest.svg` → the file, in the mod's
    /// folder or one it extends; see [`crate::images`]). Filled by the loader.
    pub images: std::collections::BTreeMap<String, std::path::PathBuf>,
}

impl Ruleset {
    pub fn id(&self) -> &str {
        &self.manifest.id
    }

    pub fn action_index(&self, id: &str) -> Option<usize> {
        self.actions.iter().position(|a| a.id == id)
    }

    pub fn counter_index(&self, id: &str) -> Option<usize> {
        self.space_counters.iter().position(|c| c.id == id)
    }

    pub fn resource_index(&self, id: &str) -> Option<usize> {
        self.resources.iter().position(|c| c.id == id)
    }

    pub fn stat_index(&self, id: &str) -> Option<usize> {
        self.stats.iter().position(|c| c.id == id)
    }

    pub fn var_index(&self, id: &str) -> Option<usize> {
        self.vars.iter().position(|c| c.id == id)
    }

    pub fn terrain_index(&self, id: &str) -> Option<usize> {
        self.terrain.iter().position(|t| t.id == id)
    }

    pub fn piece_kind_index(&self, id: &str) -> Option<usize> {
        self.piece_kinds.iter().position(|k| k.id == id)
    }

    pub fn item_index(&self, id: &str) -> Option<usize> {
        self.items.iter().position(|i| i.id == id)
    }

    pub fn deck_index(&self, id: &str) -> Option<usize> {
        self.decks.iter().position(|d| d.id == id)
    }

    /// `file:line:col` of a rule named as in run-time errors (`actions.attack.effect`,
    /// `turn.phases.move.on_start`), when the ruleset was loaded from files.
    pub fn rule_location(&self, rule: &str) -> Option<&str> {
        self.rule_locations.get(rule).map(String::as_str)
    }

    /// Whether any trigger listens to this event.
    pub fn has_triggers(&self, event: EventKind) -> bool {
        self.triggers.iter().any(|(e, _)| *e == event)
    }
}
