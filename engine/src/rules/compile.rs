//! Compiles merged mod data into a [`Ruleset`]: resolves every name, type-checks every
//! expression and effect, and reports every problem with the key path and the position inside
//! the expression text, so the loader can point at `file:line:col`.

use std::collections::BTreeSet;

use indexmap::IndexMap;

use super::ir::{
    Aggregate, AggregateOp, ArithOp, AssignMode, Block, CmpOp, DiceMode, Expr, Extent, Func, IdKind, ItemField, Leaf,
    LoopKind, Place, Proc, Read, Rounding, Stmt, TagOf, Type, Value, block_extent,
};
use super::{
    ActionRule, BarFull, CounterInfo, DeckInfo, EndRule, Formula, HookRef, HookSource, HookUse, ItemInfo, NamedEffect,
    NamedFormula, ParamRule, ParamSource, PhaseRule, PieceKindInfo, Program, ReasonPart, Requirement, Ruleset,
    TerrainInfo, TriggerRule, language,
};
use crate::defs::{self, CounterDecl, Manifest, ModData, ParamKind, PhaseDef};
use crate::diag::did_you_mean;
use crate::expr::{AssignOp, Ast, AstKind, BinaryOp, Span, StmtAst, UnaryOp, parse_expression, parse_statement};
use crate::source::PathSegment as PathSeg;

/// A problem found while compiling, located by key path and, for expression strings, by the
/// byte span inside the string.
#[derive(Clone, Debug)]
pub struct Problem {
    pub path: Vec<PathSeg>,
    pub span: Option<Span>,
    pub message: String,
    pub suggestion: Option<String>,
}

/// Most frame slots a compiled program may use.
const MAX_SLOTS: usize = 250;

/// Most parameters of a named formula or effect.
pub const MAX_NAMED_PARAMS: usize = 8;

/// The most parts (names, numbers, operators, calls, statements) an expression, an effect list
/// or a named formula or effect may have with every named formula and effect it uses written out
/// in place (see [`Extent`]): far more than one expression of 4,096 bytes can hold, so only
/// formulas used many times over inside each other reach it.
pub const MAX_WRITTEN_OUT_SIZE: u64 = 20_000;

/// How deep the same may nest, written out in place: one expression of 4,096 bytes nests at most
/// about 2,048 deep (`1+1+…`), and named formulas may add as much again.
pub const MAX_WRITTEN_OUT_DEPTH: u64 = 4_096;

/// How many named formulas and effects may be used inside one another (`a` uses `b`, which uses
/// `c`, …): each is compiled at its first use, inside the one using it.
pub const MAX_NAMED_NESTING: usize = 32;

/// Compiles a mod. Every problem is reported; the ruleset is returned only when there are none.
pub fn compile(manifest: Manifest, data: ModData, hooks: Vec<HookSource>) -> Result<Ruleset, Vec<Problem>> {
    compile_partial(manifest, data, hooks, &BTreeSet::new())
}

/// Compiles a mod some of whose definitions could not be read (`broken` names them): references
/// to those names are not reported again, so each mistake is reported once.
pub fn compile_partial(
    manifest: Manifest,
    data: ModData,
    hooks: Vec<HookSource>,
    broken: &BTreeSet<String>,
) -> Result<Ruleset, Vec<Problem>> {
    let mut names = Names::new(&data);
    // A board that did not read stands in as a graph: what the board's kind rules out is not
    // known, and is not reported besides the board's own problem.
    if broken.contains("[board]") {
        names.board_without_cells = None;
        names.board_not_square = None;
    }
    let mut c = Compiler {
        broken,
        names: &names,
        data: &data,
        problems: Vec::new(),
        path: Vec::new(),
        hook_names: IndexMap::new(),
        strings: IndexMap::new(),
        hook_refs: Vec::new(),
        formulas: data.formulas.keys().map(|_| Definition::Waiting).collect(),
        effects: data.effects.keys().map(|_| Definition::Waiting).collect(),
        compiling: Vec::new(),
        offer_sites: Vec::new(),
        walks_with_walker: false,
        walks_spent_read: Vec::new(),
    };
    let mut ruleset = c.ruleset(manifest, &data, hooks);
    if !c.walks_with_walker {
        // Written for nothing otherwise: no silent drops.
        for (id, _) in data.pieces.iter().filter(|(_, kind)| !kind.move_costs.is_empty()) {
            let message = "no walk has a walker, so these costs would never be paid: name the piece that walks \
                           (`walker = \"who\"` beside a parameter's `reachable_from`, or `walk_distance(a, b, who)`)"
                .to_string();
            let path = vec![PathSeg::Key("pieces".into()), PathSeg::Key(id.clone()), PathSeg::Key("move_costs".into())];
            c.problems.push(Problem { path, span: None, message, suggestion: None });
        }
    }
    for site in std::mem::take(&mut c.offer_sites) {
        let Some(rule) = ruleset.actions.get(site.action as usize) else { continue };
        let reads = rule.decline_reads as usize;
        if site.given < reads {
            let message = format!(
                "`{}`'s `on_decline` reads its parameter `{}`, so an `offer` of it gives at least {reads} parameter{}, not {}",
                rule.id,
                rule.params[reads - 1].name,
                plural(reads),
                site.given
            );
            c.problems.push(Problem { path: site.path, span: Some(site.span), message, suggestion: None });
        }
    }
    if c.problems.is_empty() {
        ruleset.hook_names = c.hook_names.keys().cloned().collect();
        ruleset.strings = c.strings.keys().cloned().collect();
        ruleset.hook_refs = c.hook_refs;
        Ok(ruleset)
    } else {
        Err(c.problems)
    }
}

/// Every namespace of a mod, for resolving names.
struct Names {
    counters: Vec<String>,
    resources: Vec<String>,
    stats: Vec<String>,
    vars: Vec<String>,
    terrain: Vec<String>,
    piece_kinds: Vec<String>,
    decks: Vec<String>,
    phases: Vec<String>,
    actions: Vec<String>,
    sides: Vec<String>,
    cards: Vec<String>,
    items: Vec<String>,
    item_stats: Vec<String>,
    item_slots: Vec<String>,
    terrain_stats: Vec<String>,
    /// Tags of terrains, piece kinds, items and cards (cards' last, so adding cards to a mod
    /// moves no other tag).
    tags: Vec<String>,
    /// Names of the cards' numbers, in order of first appearance.
    card_stats: Vec<String>,
    /// Budget slots: every action, then every action group.
    budgets: Vec<String>,
    /// The board's space labels when they do not depend on the game, to check `space("…")`.
    space_labels: Option<Vec<String>>,
    /// The kind of a board without cells (`rings`, `graph`), where `line_of_sight` cannot be
    /// drawn; `None` for grids and territory maps.
    board_without_cells: Option<&'static str>,
    /// The kind of the board when it is not a square grid, where `beyond` cannot be asked.
    board_not_square: Option<&'static str>,
    /// The named formulas and effect blocks (`[formulas]`, `[effects]`).
    formulas: Vec<String>,
    effects: Vec<String>,
}

impl Names {
    fn new(data: &ModData) -> Self {
        let keys = |m: &IndexMap<String, _>| -> Vec<String> { m.keys().cloned().collect() };
        let mut phases: Vec<String> = if data.turn.phases.is_empty() {
            vec!["main".into()]
        } else {
            data.turn.phases.iter().map(|p| p.id.clone()).collect()
        };
        phases.extend(data.turn.interlude.iter().flat_map(|i| i.phases.iter().map(|p| p.id.clone())));
        Self {
            counters: keys(&data.space_counters),
            resources: keys(&data.resources),
            stats: keys(&data.stats),
            vars: keys(&data.vars),
            terrain: data.terrain.keys().cloned().collect(),
            piece_kinds: data.pieces.keys().cloned().collect(),
            decks: data.decks.keys().cloned().collect(),
            phases,
            actions: data.actions.keys().cloned().collect(),
            sides: data.seats.sides.iter().map(|s| s.id.clone()).collect(),
            cards: data.cards.keys().cloned().collect(),
            items: data.items.keys().cloned().collect(),
            item_stats: first_appearances(data.items.values().flat_map(|i| i.stats.keys())),
            item_slots: first_appearances(data.items.values().filter_map(|i| i.slot.as_ref())),
            terrain_stats: {
                // A terrain's `height` is read as `terrain.height`, beside its stats.
                let mut names = first_appearances(data.terrain.values().flat_map(|t| t.stats.keys()));
                if data.terrain.values().any(|t| t.height.is_some()) && !names.iter().any(|n| n == TERRAIN_HEIGHT) {
                    names.push(TERRAIN_HEIGHT.to_string());
                }
                names
            },
            tags: first_appearances(
                data.terrain
                    .values()
                    .flat_map(|t| &t.tags)
                    .chain(data.pieces.values().flat_map(|p| &p.tags))
                    .chain(data.items.values().flat_map(|i| &i.tags))
                    .chain(data.cards.values().flat_map(|c| &c.tags)),
            ),
            card_stats: first_appearances(data.cards.values().flat_map(|c| c.stats.keys())),
            budgets: [
                data.actions.keys().cloned().collect(),
                first_appearances(data.actions.values().filter_map(|a| a.group.as_ref())),
            ]
            .concat(),
            space_labels: static_space_labels(data),
            board_without_cells: match data.board {
                crate::board::BoardSpec::Rings(_) => Some("rings"),
                crate::board::BoardSpec::Graph(_) => Some("graph"),
                _ => None,
            },
            board_not_square: match data.board {
                crate::board::BoardSpec::Square(_) => None,
                crate::board::BoardSpec::Offset(_) => Some("offset"),
                crate::board::BoardSpec::Territories(_) => Some("territories"),
                crate::board::BoardSpec::Rings(_) => Some("rings"),
                crate::board::BoardSpec::Graph(_) => Some("graph"),
            },
            formulas: data.formulas.keys().cloned().collect(),
            effects: data.effects.keys().cloned().collect(),
        }
    }
}

/// The labels of the board's spaces when every game has the same ones: every board kind but
/// generated territories, whose number depends on the seats. `None` also when the board does
/// not build; its own problems are reported with the board.
fn static_space_labels(data: &ModData) -> Option<Vec<String>> {
    if matches!(data.board, crate::board::BoardSpec::Territories(_)) {
        return None;
    }
    let terrain = |name: &str| data.terrain.get_index_of(name).map(|i| i as u16);
    let mut rng = crate::rng::GameRng::from_seed(0);
    let board =
        data.board.build(&mut crate::board::BuildContext { terrain: &terrain, seats: 2, rng: &mut rng }).ok()?;
    Some(board.spaces().iter().map(|space| space.label.clone()).collect())
}

/// Distinct names in the order they first appear.
/// The name a terrain's `height` is read by in expressions (`space.terrain.height`).
const TERRAIN_HEIGHT: &str = "height";

fn first_appearances<'a>(names: impl Iterator<Item = &'a String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for name in names {
        if !out.contains(name) {
            out.push(name.clone());
        }
    }
    out
}

fn index_of(list: &[String], name: &str) -> Option<u16> {
    list.iter().position(|n| n == name).map(|i| i as u16)
}

/// What an expression context allows.
#[derive(Clone, Copy, Default)]
struct Allow {
    /// Dice, `random`, `distribute`: only where the game's stream may be drawn (rolls, effects).
    dice: bool,
    /// `chance` and `expect`: previews and computer-player scores.
    odds: bool,
    /// Why Lua hooks are out of reach here, when they are: the legal actions, the end of the
    /// game and the odds are worked out without running Lua.
    no_hooks: Option<&'static str>,
    /// Why dice, random draws, `chance` and `expect` are refused, when the reason is not the
    /// place but what is written: a named formula's value ([`NO_DICE_IN_FORMULAS`]).
    no_dice_because: Option<&'static str>,
}

/// Why `expect` and `chance` are refused inside `expect(…)` and `chance(…)`.
const NESTED_ODDS: &str = "odds do not nest: inside `expect(…)` or `chance(…)` a roll already stands for all its \
     outcomes, so write the rolls themselves (`expect(hits * 2)`, `chance(hits > 1)`)";

/// Where a hook cannot be called, and why: the reason `hook` is refused with.
const NO_HOOKS_IN_LISTING: &str = "an action's `when` and its parameters' `where` are worked out while listing the \
     legal actions, without running Lua; set a variable from `[vars]` in an effect or trigger and test that";
const NO_HOOKS_IN_SUCCESS: &str = "an action's `success` is worked out exactly over every roll for `chance`, \
     without running Lua; decide in `on_roll` with a hook and keep the verdict in a variable the condition reads";
const NO_HOOKS_IN_END: &str = "the `end` conditions are checked after every change without running Lua; set a \
     variable from `[vars]` in an effect or trigger and test that";
/// Why a seat figure (`seats.figures`) cannot call Lua.
const NO_HOOKS_IN_FIGURES: &str = "a seat figure is worked out whenever the window draws, without running Lua: \
     write it in the rules language, or keep the number in a resource the hook sets";
/// Why a named formula cannot roll dice, draw at random or use odds.
const NO_DICE_IN_FORMULAS: &str = "a formula gives one value wherever it is used (in `where`, previews and scores \
     too), so it cannot roll dice, draw at random or use `chance` or `expect`; roll in the action's `rolls` and pass \
     the roll in (`expect(damage(weapon, hits, 1))` in a preview)";

#[derive(Clone)]
struct SlotInfo {
    name: String,
    ty: Type,
    /// Bound to a value that always exists (me, a parameter, a loop variable): writes through it
    /// cannot fail.
    safe: bool,
    /// A roll not yet made (in previews): usable only inside `expect`.
    random: bool,
}

/// Where a named formula or effect stands in its compilation, which happens at its first use
/// (or, unused, after the others), so the order they are written in does not matter.
enum Definition<T> {
    Waiting,
    /// Being compiled: meeting it again is a cycle.
    Compiling,
    /// Compiled; `None` when it has problems, reported where they are.
    Done(Option<T>),
}

/// The names visible while compiling one program, and its frame layout.
#[derive(Clone)]
struct Scope {
    slots: Vec<SlotInfo>,
    visible: usize,
    frame: usize,
    allow: Allow,
    in_expect: bool,
    fallible: bool,
    /// The first Lua hook called, directly or through a named formula or effect: what a named
    /// formula or effect records of itself, so its callers can be refused where hooks cannot run.
    hook: Option<HookUse>,
    /// The action compiled has a `success`, which a bare `chance` is the probability of.
    has_success: bool,
    /// The action's walk parameters, with the hidden slots of what their walks spend.
    walks: Vec<WalkSlot>,
}

/// A walk parameter of the action being compiled, and the hidden slot `walk_spent` reads.
#[derive(Clone, Debug)]
struct WalkSlot {
    name: String,
    /// Its place among the action's parameters (`params`, then `after_roll`).
    param: usize,
    slot: u16,
}

impl Scope {
    fn new(allow: Allow) -> Self {
        let mut scope = Self {
            slots: Vec::new(),
            visible: 0,
            frame: 0,
            allow,
            in_expect: false,
            fallible: false,
            hook: None,
            has_success: false,
            walks: Vec::new(),
        };
        scope.push("me", Type::Seat, true);
        scope
    }

    fn push(&mut self, name: &str, ty: Type, safe: bool) -> u16 {
        self.slots.truncate(self.visible);
        self.slots.push(SlotInfo { name: name.to_string(), ty, safe, random: false });
        self.visible = self.slots.len();
        self.frame = self.frame.max(self.visible);
        (self.visible - 1) as u16
    }

    fn lookup(&self, name: &str) -> Option<(u16, &SlotInfo)> {
        self.slots[..self.visible].iter().enumerate().rev().find(|(_, s)| s.name == name).map(|(i, s)| (i as u16, s))
    }
}

struct Compiler<'a> {
    broken: &'a BTreeSet<String>,
    names: &'a Names,
    data: &'a ModData,
    problems: Vec<Problem>,
    path: Vec<PathSeg>,
    hook_names: IndexMap<String, ()>,
    strings: IndexMap<String, ()>,
    hook_refs: Vec<HookRef>,
    /// The named formulas and effects, by index, compiled on first use.
    formulas: Vec<Definition<NamedFormula>>,
    effects: Vec<Definition<NamedEffect>>,
    /// The names of the formulas and effects being compiled, outermost first, to name a cycle.
    compiling: Vec<String>,
    /// Every `offer(…)` written, checked once all actions are compiled against the parameters
    /// the offered action's `on_decline` reads.
    offer_sites: Vec<OfferSite>,
    /// Whether any walk names its walker (a parameter's `walker`, `walk_distance`'s third
    /// argument): pieces' `move_costs` are read by no other walk.
    walks_with_walker: bool,
    /// The hidden slots of walk parameters whose `walk_spent` the action being compiled reads.
    walks_spent_read: Vec<u16>,
}

/// Where an `offer(…)` is written, and how many parameters it gives.
struct OfferSite {
    action: u16,
    given: usize,
    path: Vec<PathSeg>,
    span: Span,
}

type Typed = (Expr, Type);

impl Compiler<'_> {
    // ----- problems and paths -----

    fn problem(&mut self, span: Option<Span>, message: impl Into<String>, suggestion: Option<String>) {
        self.problems.push(Problem { path: self.path.clone(), span, message: message.into(), suggestion });
    }

    fn at<T>(&mut self, seg: PathSeg, f: impl FnOnce(&mut Self) -> T) -> T {
        self.path.push(seg);
        let result = f(self);
        self.path.pop();
        result
    }

    fn key<T>(&mut self, key: &str, f: impl FnOnce(&mut Self) -> T) -> T {
        self.at(PathSeg::Key(key.to_string()), f)
    }

    fn index<T>(&mut self, index: usize, f: impl FnOnce(&mut Self) -> T) -> T {
        self.at(PathSeg::Index(index), f)
    }

    /// Reports a reference to an unknown definition, with a suggestion.
    fn unknown(&mut self, span: Option<Span>, what: &str, name: &str, known: &[String]) {
        if self.broken.contains(name) {
            // Already reported where it is defined.
            return;
        }
        let suggestion = did_you_mean(name, known.iter().map(String::as_str));
        let message = if known.is_empty() {
            format!("unknown {what} `{name}`: the mod declares none")
        } else if suggestion.is_none() {
            // Nothing is close: list what there is, so the modder need not search the docs.
            let mut listed: Vec<&str> = Vec::new();
            for candidate in known {
                if !candidate.is_empty() && !listed.contains(&candidate.as_str()) {
                    listed.push(candidate);
                }
            }
            const SHOWN: usize = 12;
            let more = if listed.len() > SHOWN { format!(" and {} more", listed.len() - SHOWN) } else { String::new() };
            listed.truncate(SHOWN);
            format!("unknown {what} `{name}` (known here: {}{more})", listed.join(", "))
        } else {
            format!("unknown {what} `{name}`")
        };
        self.problem(span, message, suggestion);
    }

    // ----- the whole ruleset -----

    fn ruleset(&mut self, manifest: Manifest, data: &ModData, hooks: Vec<HookSource>) -> Ruleset {
        self.manifest(&manifest);
        if manifest.seats.by_side.is_some() && data.seats.sides.is_empty() {
            self.key("seats", |c| {
                c.key("by_side", |c| {
                    c.problem(None, "seats set up by side need sides: declare them in the data's `[seats] sides`", None)
                })
            });
        }
        let space_counters =
            self.key("space_counters", |c| c.counters(&data.space_counters, false, &SPACE_FIELDS, false));
        let resources = self.key("resources", |c| c.counters(&data.resources, false, &SEAT_FIELDS, false));
        let stats = self.key("stats", |c| c.counters(&data.stats, false, &PIECE_FIELDS, true));
        let vars = self.key("vars", |c| c.counters(&data.vars, true, &[], false));
        let terrain = self.key("terrain", |c| c.terrain(data));
        let piece_kinds = self.key("pieces", |c| c.piece_kinds(data, &stats));
        let items = self.key("items", |c| c.items(data));
        let card_ids: Vec<String> = data.cards.keys().cloned().collect();
        let decks = self.key("decks", |c| c.decks(data, &card_ids));
        let cards = self.cards(data);
        self.key("board", |c| c.board_terrain(data));
        self.compile_definitions();
        let actions = self.key("actions", |c| {
            data.actions.iter().map(|(id, def)| c.key(id, |c| c.action(id, def))).collect::<Vec<_>>()
        });
        let mut phases = self.key("turn", |c| c.key("phases", |c| c.phase_list(data, &data.turn.phases, &[])));
        let match_phases = phases.len() as u16;
        let mut interlude_end = Program::default();
        if let Some(interlude) = &data.turn.interlude {
            self.key("turn", |c| {
                c.key("interlude", |c| {
                    if interlude.phases.is_empty() {
                        c.key("phases", |c| c.problem(None, "an interlude needs at least one phase", None));
                    }
                    if data.turn.rounds_per_match == 0 {
                        c.problem(None, "an interlude comes before each match: it needs `rounds_per_match`", None);
                    }
                    let earlier: Vec<&str> = data.turn.phases.iter().map(|p| p.id.as_str()).collect();
                    let interlude_phases = c.key("phases", |c| c.phase_list(data, &interlude.phases, &earlier));
                    phases.extend(interlude_phases);
                    interlude_end = c.key("on_end", |c| c.program(&interlude.on_end));
                })
            });
        }
        let turn_start = self.key("turn", |c| c.key("on_start", |c| c.program(&data.turn.on_start)));
        let turn_end = self.key("turn", |c| c.key("on_end", |c| c.program(&data.turn.on_end)));
        let match_end = self.key("turn", |c| c.key("on_match_end", |c| c.program(&data.turn.on_match_end)));
        if data.turn.matches == 0 {
            self.key("turn", |c| c.key("matches", |c| c.problem(None, "a game has at least one match", None)));
        }
        if data.turn.matches > 1 && data.turn.rounds_per_match == 0 {
            self.key("turn", |c| {
                c.key("matches", |c| c.problem(None, "several matches need `rounds_per_match`", None))
            });
        }
        self.key("seats", |c| {
            c.key("sides", |c| {
                for (i, side) in data.seats.sides.iter().enumerate() {
                    c.index(i, |c| c.key("id", |c| check_field_name(c, &side.id)));
                    if data.seats.sides[..i].iter().any(|earlier| earlier.id == side.id) {
                        c.index(i, |c| {
                            c.key("id", |c| c.problem(None, format!("two sides have the id `{}`", side.id), None))
                        });
                    }
                }
            })
        });
        let setup = self.key("setup", |c| c.key("effect", |c| c.program(&data.setup.effect)));
        let triggers = self.key("triggers", |c| {
            data.triggers
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    c.index(i, |c| {
                        // Triggers stop once the game has an outcome, which is when `game_end` comes.
                        if t.on == crate::defs::EventKind::GameEnd {
                            c.key("on", |c| {
                                c.problem(
                                    None,
                                    "a trigger never runs on `game_end`: once the game has an outcome, rules \
                                     change nothing; a Lua handler (`meeple.on(\"game_end\", …)`) may log then",
                                    None,
                                )
                            });
                        }
                        let mut scope = Scope::new(Allow { dice: true, ..Allow::default() });
                        let rolled = t.on == crate::defs::EventKind::Rolled;
                        match (&t.roll, rolled) {
                            (None, true) => c.key("roll", |c| {
                                c.problem(
                                    None,
                                    "a `rolled` trigger names the roll that wakes it: `roll = \"move\"`",
                                    None,
                                )
                            }),
                            (Some(_), false) => {
                                c.key("roll", |c| c.problem(None, "`roll` is for triggers `on = \"rolled\"`", None))
                            }
                            (Some(name), true) => {
                                let known: Vec<String> = data
                                    .actions
                                    .values()
                                    .flat_map(|a| a.rolls.keys().cloned())
                                    .collect::<BTreeSet<_>>()
                                    .into_iter()
                                    .collect();
                                if !known.contains(name) {
                                    c.key("roll", |c| c.unknown(None, "roll", name, &known));
                                }
                            }
                            (None, false) => {}
                        }
                        if rolled {
                            // Frame slot 1: the roll's value.
                            scope.push("rolled", Type::Int, false);
                        }
                        let when = t.when.as_ref().and_then(|w| c.key("when", |c| c.condition(w, &mut scope)));
                        let effect = c.key("effect", |c| c.program_in(&t.effect, scope));
                        (t.on, TriggerRule { roll: t.roll.clone(), when, effect })
                    })
                })
                .collect::<Vec<_>>()
        });
        let end = self.key("end", |c| c.end(&data.end));
        let ai_standing = self.key("ai", |c| c.seat_formula("standing", data.ai.standing.as_ref(), Type::Num, None));
        let seat_figures = self.key("seats", |c| {
            c.key("figures", |c| {
                data.seats
                    .figures
                    .iter()
                    .filter_map(|(id, figure)| {
                        let label = figure.label.clone().unwrap_or_else(|| id.clone());
                        let formula = c.key(id, |c| {
                            c.seat_formula("value", Some(&figure.value), Type::Num, Some(NO_HOOKS_IN_FIGURES))
                        })?;
                        Some((label, formula))
                    })
                    .collect::<Vec<_>>()
            })
        });
        let space_figures = self.key("space_figures", |c| {
            (data.space_figures.iter())
                .filter_map(|(id, figure)| {
                    let label = figure.label.clone().unwrap_or_else(|| id.clone());
                    let formula = c.key(id, |c| {
                        let subject = ("space", Type::Space);
                        c.formula_about("value", &figure.value, subject, Type::Num, Some(NO_HOOKS_IN_FIGURES))
                    })?;
                    Some((label, formula))
                })
                .collect::<Vec<_>>()
        });
        let (formulas, effects) = self.finished_definitions();
        Ruleset {
            manifest,
            data: data.clone(),
            folder: None,
            chosen_options: Default::default(),
            terrain,
            space_counters,
            resources,
            stats,
            vars,
            piece_kinds,
            items,
            item_stats: self.names.item_stats.clone(),
            item_slots: self.names.item_slots.clone(),
            terrain_stats: self.names.terrain_stats.clone(),
            tags: self.names.tags.clone(),
            budget_names: self.names.budgets.clone(),
            ai_standing,
            seat_figures,
            space_figures,
            card_ids,
            cards,
            card_stats: self.names.card_stats.clone(),
            decks,
            actions,
            phases,
            setup,
            turn_start,
            turn_end,
            auto_pass: data.turn.auto_pass,
            rounds_per_match: data.turn.rounds_per_match,
            matches: data.turn.matches.max(1),
            match_end,
            match_phases,
            interlude: data.turn.interlude.is_some(),
            interlude_end,
            triggers,
            end,
            formulas,
            effects,
            hook_names: Vec::new(),
            hook_refs: Vec::new(),
            strings: Vec::new(),
            hooks,
            rule_locations: Default::default(),
            images: Default::default(),
        }
    }

    fn manifest(&mut self, manifest: &Manifest) {
        let valid_id = !manifest.id.is_empty()
            && manifest.id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        if !valid_id {
            self.key("id", |c| c.problem(None, "a mod id uses only lowercase letters, digits and underscores", None));
        }
        if manifest.api != defs::ENGINE_API_VERSION {
            self.key("api", |c| {
                c.problem(
                    None,
                    format!(
                        "this mod targets engine API version {}, but this engine implements version {}",
                        manifest.api,
                        defs::ENGINE_API_VERSION
                    ),
                    None,
                )
            });
        }
        let seats = manifest.seats;
        if seats.min == 0 || seats.min > seats.max {
            self.key("seats", |c| {
                c.problem(
                    None,
                    format!("seats: min {} must be at least 1 and at most max {}", seats.min, seats.max),
                    None,
                )
            });
        }
        if let Some(default) = seats.default
            && (default < seats.min || default > seats.max)
        {
            self.key("seats", |c| {
                c.key("default", |c| {
                    c.problem(None, format!("default {default} is outside {}..={}", seats.min, seats.max), None)
                })
            });
        }
        if !manifest.version.split('.').all(|part| part.parse::<u32>().is_ok())
            || manifest.version.split('.').count() != 3
        {
            self.key("version", |c| c.problem(None, "a version is three numbers, like 1.0.0", None));
        }
    }

    /// Compiles declared numbers; `builtin_fields` are the fields the owner (space, seat, piece)
    /// already has, which a declared number may not shadow.
    fn counters(
        &mut self,
        decls: &IndexMap<String, CounterDecl>,
        bare: bool,
        builtin_fields: &[&str],
        bars_drawn: bool,
    ) -> Vec<CounterInfo> {
        decls
            .iter()
            .map(|(id, decl)| {
                if builtin_fields.contains(&id.as_str()) {
                    self.key(id, |c| {
                        let message = format!("`{id}` is a field every one of these already has; name this otherwise");
                        c.problem(None, message, None)
                    });
                }
                let def = decl.def();
                let min = def.min.unwrap_or(i64::MIN);
                let max = def.max.unwrap_or(i64::MAX);
                if min > max {
                    self.key(id, |c| c.problem(None, format!("min {min} is above max {max}"), None));
                } else if def.initial < min || def.initial > max {
                    self.key(id, |c| {
                        c.key("initial", |c| {
                            c.problem(None, format!("initial value {} is outside {min}..={max}", def.initial), None)
                        })
                    });
                }
                self.key(id, |c| if bare { check_name(c, id) } else { check_field_name(c, id) });
                let bar = match &def.bar {
                    None | Some(defs::BarDecl::AtMax(false)) => None,
                    Some(_) if !bars_drawn => {
                        self.key(id, |c| {
                            c.key("bar", |c| {
                                c.problem(None, "only a piece's stat (`[stats.…]`) is drawn as a bar", None)
                            })
                        });
                        None
                    }
                    Some(defs::BarDecl::AtMax(true)) if def.max.is_none() => {
                        self.key(id, |c| {
                            c.key("bar", |c| {
                                let message = "`bar = true` is full at the stat's `max`: give it one, or name the \
                                               stat it is full at (`bar = \"max_health\"`)";
                                c.problem(None, message, None)
                            })
                        });
                        None
                    }
                    Some(defs::BarDecl::AtMax(true)) => Some(BarFull::Max),
                    Some(defs::BarDecl::AtStat(full)) => match decls.get_index_of(full.as_str()) {
                        Some(index) if full != id => Some(BarFull::Stat(index as u16)),
                        _ => {
                            let names: Vec<&str> = decls.keys().map(String::as_str).filter(|n| n != id).collect();
                            self.key(id, |c| {
                                c.key("bar", |c| {
                                    let message = format!("no other stat is called `{full}`");
                                    c.problem(None, message, did_you_mean(full, names.iter().copied()))
                                })
                            });
                            None
                        }
                    },
                };
                CounterInfo {
                    id: id.clone(),
                    label: def.label.clone().unwrap_or_else(|| id.clone()),
                    initial: def.initial,
                    min,
                    max: max.max(min),
                    hidden: def.hidden,
                    shown: def.shown,
                    bar,
                }
            })
            .collect()
    }

    fn terrain(&mut self, data: &ModData) -> Vec<TerrainInfo> {
        data.terrain
            .iter()
            .map(|(id, def)| {
                for name in def.stats.keys() {
                    self.key(id, |c| c.key("stats", |c| c.key(name, |c| check_field_name(c, name))));
                    if name == TERRAIN_HEIGHT {
                        self.key(id, |c| {
                            c.key("stats", |c| {
                                c.key(name, |c| {
                                    c.problem(
                                        None,
                                        "`height` is the terrain's own key, which line of sight reads: write \
                                         `height = …` beside `blocks_sight`, not among the stats"
                                            .to_string(),
                                        None,
                                    )
                                })
                            })
                        });
                    }
                }
                let mut stats = vec![0; self.names.terrain_stats.len()];
                for (name, value) in &def.stats {
                    if let Some(i) = index_of(&self.names.terrain_stats, name) {
                        stats[i as usize] = *value;
                    }
                }
                if let (Some(height), Some(i)) = (def.height, index_of(&self.names.terrain_stats, TERRAIN_HEIGHT)) {
                    stats[i as usize] = height;
                }
                TerrainInfo {
                    id: id.clone(),
                    label: def.label.clone().unwrap_or_else(|| id.clone()),
                    color: def.color.as_deref().and_then(parse_color),
                    passable: def.passable,
                    move_cost: def.move_cost,
                    blocks_sight: def.blocks_sight,
                    height: def.height,
                    stats,
                    tags: self.tag_indexes(&def.tags),
                }
            })
            .collect()
    }

    fn tag_indexes(&self, tags: &[String]) -> Vec<u16> {
        tags.iter().filter_map(|tag| index_of(&self.names.tags, tag)).collect()
    }

    fn piece_kinds(&mut self, data: &ModData, stats: &[CounterInfo]) -> Vec<PieceKindInfo> {
        data.pieces
            .iter()
            .map(|(id, def)| {
                self.key(id, |c| {
                    let mut values: Vec<i64> = stats.iter().map(|s| s.initial).collect();
                    let mut gives_stat = vec![false; stats.len()];
                    c.key("stats", |c| {
                        for (name, value) in &def.stats {
                            match index_of(&c.names.stats, name) {
                                Some(i) => {
                                    values[i as usize] = stats[i as usize].clamp(*value);
                                    gives_stat[i as usize] = true;
                                }
                                None => c.key(name, |c| c.unknown(None, "stat", name, &c.names.stats.clone())),
                            }
                        }
                    });
                    let mut items = Vec::new();
                    for (i, item) in def.items.iter().enumerate() {
                        match index_of(&c.names.items, item) {
                            Some(index) => items.push(index),
                            None => {
                                let known = c.names.items.clone();
                                c.key("items", |c| c.index(i, |c| c.unknown(None, "item", item, &known)));
                            }
                        }
                    }
                    // Unlisted terrain as it is to every walker; listed, the kind's own price.
                    let mut move_costs: Vec<Option<u32>> =
                        data.terrain.values().map(|t| t.passable.then_some(t.move_cost.max(1))).collect();
                    c.key("move_costs", |c| {
                        for (name, cost) in &def.move_costs {
                            match index_of(&c.names.terrain, name) {
                                Some(t) => move_costs[t as usize] = (*cost > 0).then_some(*cost),
                                None => c.key(name, |c| c.unknown(None, "terrain", name, &c.names.terrain.clone())),
                            }
                        }
                    });
                    let most = crate::game::changes::MAX_HELD_ITEMS;
                    let max_items = match def.max_items {
                        Some(max) if max as usize > most => {
                            c.key("max_items", |c| {
                                c.problem(
                                    None,
                                    format!("a piece holds at most {most} items: `max_items` is {max}"),
                                    None,
                                )
                            });
                            most
                        }
                        Some(max) => max as usize,
                        None => most,
                    };
                    for (i, item) in def.items.iter().enumerate() {
                        let holders = data.items.get(item).map_or(&[][..], |item| item.holders.as_slice());
                        if !holders.is_empty() && !holders.contains(id) {
                            c.key("items", |c| {
                                c.index(i, |c| {
                                    c.problem(
                                        None,
                                        format!("`{item}` is held only by {} (its `holders`)", holders.join(", ")),
                                        None,
                                    )
                                })
                            });
                        }
                    }
                    if items.len() > max_items {
                        c.key("items", |c| {
                            c.problem(
                                None,
                                format!(
                                    "a new piece would hold {} items, more than its `max_items` ({max_items})",
                                    items.len()
                                ),
                                None,
                            )
                        });
                    }
                    let (capacity, holds) = c.holds(data, def);
                    let wall = c.edge_wall(def);
                    PieceKindInfo {
                        max_items,
                        capacity,
                        holds,
                        on_edge: def.on_edge,
                        wall,
                        passes: def.passes,
                        id: id.clone(),
                        label: def.label.clone().unwrap_or_else(|| id.clone()),
                        symbol: def
                            .symbol
                            .clone()
                            .unwrap_or_else(|| id.chars().take(1).collect::<String>().to_uppercase()),
                        stats: values,
                        gives_stat,
                        move_costs,
                        own_pace: !def.move_costs.is_empty(),
                        items,
                        tags: c.tag_indexes(&def.tags),
                    }
                })
            })
            .collect()
    }

    /// A piece kind's `capacity` and `holds`, checked: known kinds that hold nothing themselves
    /// (one level of holders), each at least 1, and room for them.
    fn holds(&mut self, data: &ModData, def: &defs::PieceKindDef) -> (u32, Vec<(u16, u32)>) {
        let is_holder = |d: &defs::PieceKindDef| d.capacity.unwrap_or(0) > 0 || !d.holds.is_empty();
        let mut holds = Vec::new();
        self.key("holds", |c| {
            for (name, &most) in &def.holds {
                c.key(name, |c| match (index_of(&c.names.piece_kinds, name), data.pieces.get(name)) {
                    (Some(kind), Some(held)) => {
                        if most == 0 {
                            c.problem(None, format!("holds 0 of `{name}`: leave `{name}` out instead"), None);
                        } else if held.on_edge {
                            let message = format!("`{name}` stands between two spaces and cannot go inside a holder");
                            c.problem(None, message, None);
                        } else if is_holder(held) {
                            let message = format!("`{name}` holds pieces itself, and holders do not go inside holders");
                            c.problem(None, message, None);
                        } else {
                            holds.push((kind, most));
                        }
                    }
                    _ => c.unknown(None, "piece kind", name, &c.names.piece_kinds.clone()),
                });
            }
        });
        let capacity = match def.capacity {
            Some(capacity) => capacity,
            None => def.holds.values().fold(0u32, |sum, &most| sum.saturating_add(most)),
        };
        if capacity == 0 && !def.holds.is_empty() {
            self.key("capacity", |c| {
                c.problem(None, "a `capacity` of 0 holds nothing, so `holds` would never be used", None)
            });
        }
        (capacity, holds)
    }

    /// A piece kind's `wall` terrain, checked: only for kinds `on_edge`, naming a terrain;
    /// `passes` only with a `wall`.
    fn edge_wall(&mut self, def: &defs::PieceKindDef) -> Option<u16> {
        let wall = def.wall.as_ref().and_then(|terrain| {
            if !def.on_edge {
                let message = "only a kind `on_edge` (standing between two spaces) is a wall: add `on_edge = true`";
                self.key("wall", |c| c.problem(None, message, None));
                return None;
            }
            let found = index_of(&self.names.terrain, terrain);
            if found.is_none() {
                self.key("wall", |c| c.unknown(None, "terrain", terrain, &c.names.terrain.clone()));
            }
            found
        });
        if def.passes != defs::Passes::All && def.wall.is_none() {
            let message = "`passes` says who crosses a wall: give the kind a `wall` terrain too";
            self.key("passes", |c| c.problem(None, message, None));
        }
        wall
    }

    fn items(&mut self, data: &ModData) -> Vec<ItemInfo> {
        data.items
            .iter()
            .map(|(id, item)| {
                self.key(id, |c| check_field_name(c, id));
                if let Some(price) = item.price
                    && price < 0
                {
                    self.key(id, |c| c.key("price", |c| c.problem(None, "a price cannot be negative", None)));
                }
                if item.charges < 0 {
                    self.key(id, |c| c.key("charges", |c| c.problem(None, "charges cannot be negative", None)));
                }
                for name in item.stats.keys() {
                    self.key(id, |c| {
                        c.key("stats", |c| {
                            c.key(name, |c| {
                                if matches!(name.as_str(), "price" | "charges" | "kind" | "holder" | "slot") {
                                    let message =
                                        format!("`{name}` is a field every item has; name this stat otherwise");
                                    c.problem(None, message, None);
                                }
                                check_field_name(c, name);
                            })
                        })
                    });
                }
                let mut stats = vec![0; self.names.item_stats.len()];
                for (name, value) in &item.stats {
                    if let Some(i) = index_of(&self.names.item_stats, name) {
                        stats[i as usize] = *value;
                    }
                }
                let mut holders = Vec::new();
                for (i, kind) in item.holders.iter().enumerate() {
                    match index_of(&self.names.piece_kinds, kind) {
                        Some(index) => holders.push(index),
                        None => {
                            let known = self.names.piece_kinds.clone();
                            self.key(id, |c| {
                                c.key("holders", |c| c.index(i, |c| c.unknown(None, "piece kind", kind, &known)))
                            });
                        }
                    }
                }
                ItemInfo {
                    holders,
                    id: id.clone(),
                    label: item.label.clone().unwrap_or_else(|| id.clone()),
                    price: item.price.unwrap_or(0),
                    slot: item.slot.as_ref().and_then(|slot| index_of(&self.names.item_slots, slot)),
                    charges: item.charges.max(0),
                    stats,
                    tags: self.tag_indexes(&item.tags),
                }
            })
            .collect()
    }

    /// What the rules read of each card: its label, first deck, numbers and tags.
    fn cards(&self, data: &ModData) -> Vec<crate::rules::CardInfo> {
        data.cards
            .iter()
            .map(|(id, def)| {
                let mut stats = vec![0; self.names.card_stats.len()];
                for (name, value) in &def.stats {
                    if let Some(i) = index_of(&self.names.card_stats, name) {
                        stats[i as usize] = *value;
                    }
                }
                crate::rules::CardInfo {
                    label: def.label.clone().unwrap_or_else(|| id.clone()),
                    deck: data.decks.values().position(|d| d.cards.contains_key(id)).map(|d| d as u16),
                    stats,
                    tags: self.tag_indexes(&def.tags),
                }
            })
            .collect()
    }

    fn decks(&mut self, data: &ModData, card_ids: &[String]) -> Vec<DeckInfo> {
        data.decks
            .iter()
            .map(|(id, def)| {
                self.key(id, |c| {
                    let mut cards = Vec::new();
                    c.key("cards", |c| {
                        for (card, count) in &def.cards {
                            match index_of(card_ids, card) {
                                Some(i) => cards.extend(std::iter::repeat_n(i, *count as usize)),
                                None => c.key(card, |c| c.unknown(None, "card", card, card_ids)),
                            }
                        }
                    });
                    if cards.len() > 100_000 {
                        c.problem(None, "a deck may hold at most 100000 cards", None);
                        cards.truncate(100_000);
                    }
                    DeckInfo {
                        id: id.clone(),
                        label: def.label.clone().unwrap_or_else(|| id.clone()),
                        cards,
                        shuffle: def.shuffle,
                        reshuffle: def.reshuffle,
                        hidden: def.hidden,
                    }
                })
            })
            .collect()
    }

    fn board_terrain(&mut self, data: &ModData) {
        if self.broken.contains("[board]") {
            return;
        }
        for (path, name) in data.board.terrain_names() {
            if index_of(&self.names.terrain, &name).is_none() {
                let segs: Vec<PathSeg> = path
                    .iter()
                    .map(|p| p.parse::<usize>().map(PathSeg::Index).unwrap_or_else(|_| PathSeg::Key(p.clone())))
                    .collect();
                let full = [self.path.clone(), segs].concat();
                let saved = std::mem::replace(&mut self.path, full);
                self.unknown(None, "terrain", &name, &self.names.terrain.clone());
                self.path = saved;
            }
        }
        for problem in data.board.check() {
            let segs: Vec<PathSeg> = problem
                .path
                .iter()
                .map(|p| p.parse::<usize>().map(PathSeg::Index).unwrap_or_else(|_| PathSeg::Key(p.clone())))
                .collect();
            let full = [self.path.clone(), segs].concat();
            let saved = std::mem::replace(&mut self.path, full);
            self.problem(None, problem.message, problem.suggestion);
            self.path = saved;
        }
    }

    // ----- actions, phases, end -----

    fn action(&mut self, id: &str, def: &defs::ActionDef) -> ActionRule {
        check_field_name(self, id);
        let mut requires_scope = Scope::new(Allow { no_hooks: Some(NO_HOOKS_IN_LISTING), ..Allow::default() });
        let requires = self.key("requires", |c| {
            let names: Vec<&str> = def.params.iter().chain(&def.after_roll).map(|p| p.name.as_str()).collect();
            (def.requires.iter().enumerate())
                .filter_map(|(i, r)| c.index(i, |c| c.requirement(r, &names, &mut requires_scope)))
                .collect::<Vec<_>>()
        });
        let mut scope = Scope::new(Allow { no_hooks: Some(NO_HOOKS_IN_LISTING), ..Allow::default() });
        let mut params = Vec::new();
        self.key("params", |c| {
            for (i, param) in def.params.iter().enumerate() {
                if let Some(rule) = c.index(i, |c| c.param(param, &mut scope)) {
                    params.push(rule);
                }
            }
        });
        let before_roll = params.len();
        // The `after_roll` choices come after `params` in the frame, and before the rolls, so
        // an action's arguments stay contiguous; their names become visible only once the rolls
        // are compiled, since the rolls are made before they are chosen.
        let after_slots: Vec<u16> = def.after_roll.iter().map(|_| scope.push("", Type::Nil, true)).collect();
        let mut spent_read = std::mem::take(&mut self.walks_spent_read);
        if params.len() + after_slots.len() > 4 {
            self.problem(None, "an action has at most 4 parameters (`params` and `after_roll` together)", None);
        }
        if !def.may_decline && !def.response {
            self.key("may_decline", |c| c.problem(None, "`may_decline` is about a response (`response = true`)", None));
        }
        for (key, given) in [("sealed", def.sealed), ("repeat", def.repeat)] {
            if given && !def.response {
                self.key(key, |c| c.problem(None, format!("`{key}` is about a response (`response = true`)"), None));
            }
        }
        if def.repeat && !def.may_decline {
            self.key("repeat", |c| {
                c.problem(
                    None,
                    "a repeated response ends when its seat passes: it cannot also be compulsory (`may_decline = false`)",
                    None,
                )
            });
        }
        if def.automatic {
            for (key, given) in [("response", def.response), ("after_roll", !def.after_roll.is_empty())] {
                if given {
                    self.key(key, |c| {
                        c.problem(
                            None,
                            format!("an automatic action is performed in one go: it takes no `{key}`"),
                            None,
                        )
                    });
                }
            }
        }
        if def.response && !def.after_roll.is_empty() {
            self.key("after_roll", |c| {
                c.problem(
                    None,
                    "a response (`response = true`) is taken in one step: it cannot have `after_roll` choices",
                    None,
                )
            });
        }
        if !def.after_roll.is_empty() && def.rolls.is_empty() {
            self.key("after_roll", |c| c.problem(None, "`after_roll` choices need `rolls` to come after", None));
        }
        if def.success.is_none() && def.banner.is_some() {
            self.key("banner", |c| {
                c.problem(None, "a banner tells the outcome of `success`: this action has none", None)
            });
        }
        if def.after_roll.is_empty() && def.cancel_label.is_some() {
            self.key("cancel_label", |c| {
                c.problem(None, "only actions with `after_roll` choices can be cancelled", None)
            });
        }
        let when = def.when.as_ref().and_then(|w| self.key("when", |c| c.condition(w, &mut scope)));
        scope.allow.no_hooks = None;
        let params_scope = scope.clone();
        scope.allow.dice = true;
        let mut rolls = Vec::new();
        self.key("rolls", |c| {
            for (name, text) in &def.rolls {
                c.key(name, |c| {
                    check_name(c, name);
                    let expr = c
                        .typed(text, &mut scope, Some(Type::Int))
                        .map(|(e, _)| e)
                        .unwrap_or(Expr::Const(Value::Int(0)));
                    scope.push(name, Type::Int, false);
                    rolls.push((name.clone(), expr));
                })
            }
        });
        // A hidden slot for what each walk parameter's walk spends (`walk_spent`), filled before
        // the effects run when they read it: after the rolls, which follow the parameters.
        scope.walks = def
            .params
            .iter()
            .chain(&def.after_roll)
            .enumerate()
            .filter(|(_, param)| param.reachable_from.is_some())
            .map(|(i, param)| WalkSlot { name: param.name.clone(), param: i, slot: scope.push("", Type::Int, true) })
            .collect();
        let on_roll = self.key("on_roll", |c| c.effect_list(&def.on_roll, &mut scope));
        scope.allow.dice = false;
        // The choices after the roll are listed like parameters, without running Lua.
        scope.allow.no_hooks = Some(NO_HOOKS_IN_LISTING);
        self.key("after_roll", |c| {
            for (i, param) in def.after_roll.iter().enumerate() {
                if let Some(rule) = c.index(i, |c| c.param_at(param, &mut scope, Some(after_slots[i]))) {
                    params.push(rule);
                }
            }
        });
        if params.len() > 4 {
            params.truncate(4);
        }
        // Scores after the roll see everything chosen and rolled.
        let mut chosen_scope = scope.clone();
        chosen_scope.allow = Allow { odds: true, ..Allow::default() };
        scope.allow.no_hooks = Some(NO_HOOKS_IN_SUCCESS);
        let success = def.success.as_ref().and_then(|s| self.key("success", |c| c.condition(s, &mut scope)));
        if success.is_none() && (!def.on_success.is_empty() || !def.on_failure.is_empty()) && def.success.is_none() {
            self.problem(None, "`on_success`/`on_failure` need a `success` condition", None);
        }
        scope.allow.dice = true;
        scope.allow.no_hooks = None;
        let on_success = self.key("on_success", |c| c.effect_list(&def.on_success, &mut scope));
        let on_failure = self.key("on_failure", |c| c.effect_list(&def.on_failure, &mut scope));
        let effect = self.key("effect", |c| c.effect_list(&def.effect, &mut scope));
        // Declining sees the parameters the offer gave, and may roll dice like any effect.
        let mut decline_scope = params_scope.clone();
        decline_scope.allow.dice = true;
        let on_decline = self.key("on_decline", |c| c.effect_list(&def.on_decline, &mut decline_scope));
        if !def.on_decline.is_empty() && !def.response {
            self.key("on_decline", |c| c.problem(None, "`on_decline` is about a response (`response = true`)", None));
        }
        let decline_reads = (0..params.len())
            .rev()
            .find(|&i| super::ir::block_uses_slot(&on_decline, 1 + i as u16))
            .map_or(0, |i| i + 1) as u8;
        let fallible = scope.fallible || decline_scope.fallible || requires_scope.fallible;
        let frame = scope.frame.max(decline_scope.frame).max(requires_scope.frame);
        // The walks whose spending the effects read get their slot filled.
        std::mem::swap(&mut spent_read, &mut self.walks_spent_read);
        for walk in &scope.walks {
            if spent_read.contains(&walk.slot)
                && let Some(crate::rules::ParamRule { source: ParamSource::Reachable(walkway), .. }) =
                    params.get_mut(walk.param)
            {
                walkway.spent_slot = Some(walk.slot);
            }
        }

        // Previews and scores see the parameters, and the rolls only as odds.
        let mut odds_scope = params_scope.clone();
        odds_scope.allow = Allow { odds: true, ..Allow::default() };
        for (name, _) in &def.rolls {
            odds_scope.push(name, Type::Int, false);
            odds_scope.slots.last_mut().expect("just pushed").random = true;
        }
        // A `success` written but broken is reported once, not again by every `chance` that reads it.
        let has_success = def.success.is_some();
        let staged = before_roll < params.len();
        // Previews of an action taken in two steps may also read its rolls and its `after_roll`
        // choices: such figures are shown once the dice are rolled (see `Engine::preview`).
        let preview_scope = if staged { &chosen_scope } else { &odds_scope };
        let preview = self.key("preview", |c| {
            def.preview
                .iter()
                .filter_map(|(label, text)| {
                    c.key(label, |c| c.odds_expr(text, &mut preview_scope.clone(), has_success))
                        .map(|e| (label.clone(), e))
                })
                .collect()
        });
        let (ai_score, ai_start_score, ai_min) = match &def.ai {
            Some(ai) => {
                let mut score_scope = if staged { chosen_scope.clone() } else { odds_scope.clone() };
                let score =
                    self.key("ai", |c| c.key("score", |c| c.odds_expr(&ai.score, &mut score_scope, has_success)));
                let start = ai.start_score.as_ref().and_then(|text| {
                    if !staged {
                        self.key("ai", |c| {
                            c.key("start_score", |c| {
                                c.problem(None, "`start_score` is for actions with `after_roll` choices", None)
                            })
                        });
                        return None;
                    }
                    self.key("ai", |c| {
                        c.key("start_score", |c| c.odds_expr(text, &mut odds_scope.clone(), has_success))
                    })
                });
                (score, start, ai.min)
            }
            None => (None, None, None),
        };
        let budget_slot = match &def.group {
            Some(group) => {
                self.key("group", |c| check_field_name(c, group));
                index_of(&self.names.budgets, group).unwrap_or(0)
            }
            None => index_of(&self.names.actions, id).unwrap_or(0),
        };
        ActionRule {
            id: id.to_string(),
            label: def.label.clone(),
            description: def.description.clone(),
            params,
            when,
            requires,
            rolls,
            on_roll,
            success,
            on_success,
            on_failure,
            effect,
            preview,
            banner: def.banner.as_ref().map(|b| (b.success.clone(), b.failure.clone())).unwrap_or_default(),
            before_roll,
            cancel_label: def.cancel_label.clone().unwrap_or_else(|| format!("Cancel {}", def.label.to_lowercase())),
            budget_slot,
            ai_score_is_chance: matches!(ai_score, Some(Expr::Chance)),
            ai_score,
            ai_start_score,
            ai_min,
            frame: frame.max(odds_scope.frame).max(chosen_scope.frame) as u16,
            fallible,
            response: def.response,
            automatic: def.automatic,
            may_decline: def.may_decline,
            on_decline,
            decline_reads,
            sealed: def.sealed,
            repeat: def.repeat,
        }
    }

    fn odds_expr(&mut self, text: &str, scope: &mut Scope, has_success: bool) -> Option<Expr> {
        scope.has_success = has_success;
        let (expr, ty) = self.typed(text, scope, None)?;
        if !ty.is_numeric() && ty != Type::Bool {
            self.problem(None, format!("expected a number, found {}", ty.describe()), None);
            return None;
        }
        Some(expr)
    }

    fn param(&mut self, def: &defs::ParamDef, scope: &mut Scope) -> Option<ParamRule> {
        self.param_at(def, scope, None)
    }

    /// Compiles a parameter bound to a new frame slot, or to the reserved slot `bind`.
    fn param_at(&mut self, def: &defs::ParamDef, scope: &mut Scope, bind: Option<u16>) -> Option<ParamRule> {
        check_name(self, &def.name);
        if scope.lookup(&def.name).is_some() {
            self.key("name", |c| c.problem(None, format!("`{}` is already a parameter name", def.name), None));
        }
        let seat_expr = |c: &mut Self, key: &str, text: &str, scope: &mut Scope| -> Option<Expr> {
            c.key(key, |c| c.typed(text, scope, Some(Type::Seat)).map(|(e, _)| e))
        };
        let space_expr = |c: &mut Self, key: &str, text: &str, scope: &mut Scope| -> Option<Expr> {
            c.key(key, |c| c.typed(text, scope, Some(Type::Space)).map(|(e, _)| e))
        };
        let sources_given = [def.owned_by.is_some(), def.adjacent_to.is_some(), def.reachable_from.is_some()];
        if def.kind == ParamKind::Space && sources_given.iter().filter(|&&given| given).count() > 1 {
            self.problem(
                None,
                "give one of `owned_by`, `adjacent_to` and `reachable_from`, not several (use `where` for the others)",
                None,
            );
        }
        if def.reachable_from.is_some() != def.steps.is_some() {
            self.problem(None, "`reachable_from` and `steps` go together", None);
        }
        if def.exact_steps && def.reachable_from.is_none() {
            self.key("exact_steps", |c| c.problem(None, "`exact_steps` is about a `reachable_from` walk", None));
        }
        if def.through.is_some() && def.reachable_from.is_none() {
            self.key("through", |c| c.problem(None, "`through` is about a `reachable_from` walk", None));
        }
        for (key, given) in
            [("walker", def.walker.is_some()), ("enter_cost", def.enter_cost.is_some()), ("stops", def.stops.is_some())]
        {
            if given && def.reachable_from.is_none() {
                self.key(key, |c| c.problem(None, format!("`{key}` is about a `reachable_from` walk"), None));
            }
        }
        // A source that fails to compile (already reported) still binds the name, so later uses
        // of it are not reported as unknown too.
        let source = (|| -> Option<ParamSource> {
            Some(match def.kind {
                ParamKind::Space => match (&def.owned_by, &def.adjacent_to, &def.reachable_from, &def.steps) {
                    (Some(owner), _, _, _) => ParamSource::SpacesOwnedBy(seat_expr(self, "owned_by", owner, scope)?),
                    (None, Some(space), _, _) => {
                        ParamSource::AdjacentTo(space_expr(self, "adjacent_to", space, scope)?)
                    }
                    (None, None, Some(from), Some(steps)) => {
                        let from = space_expr(self, "reachable_from", from, scope);
                        let steps = self.key("steps", |c| c.typed(steps, scope, Some(Type::Int)).map(|(e, _)| e));
                        // Each is about a `space` of its own, bound for it alone (`enter_cost`
                        // also to its `cost`), in slots the parameter takes over afterwards.
                        let mut about_space = |c: &mut Self, key: &str, text: &String, ty: Type, with_cost: bool| {
                            let visible = scope.visible;
                            let slot = scope.push("space", Type::Space, true);
                            if with_cost {
                                scope.push("cost", Type::Int, true);
                            }
                            let compiled = c.key(key, |c| c.typed(text, scope, Some(ty)).map(|(e, _)| e));
                            scope.visible = visible;
                            compiled.map(|expr| (slot, expr))
                        };
                        let through = match def.through.as_ref() {
                            Some(text) => Some(about_space(self, "through", text, Type::Bool, false)?),
                            None => None,
                        };
                        let enter_cost = match def.enter_cost.as_ref() {
                            Some(text) => Some(about_space(self, "enter_cost", text, Type::Int, true)?),
                            None => None,
                        };
                        let stops = match def.stops.as_ref() {
                            Some(text) => Some(about_space(self, "stops", text, Type::Bool, false)?),
                            None => None,
                        };
                        let walker = match &def.walker {
                            Some(walker) => {
                                self.walks_with_walker = true;
                                Some(self.key("walker", |c| c.typed(walker, scope, Some(Type::Piece)).map(|(e, _)| e))?)
                            }
                            None => None,
                        };
                        ParamSource::Reachable(Box::new(crate::rules::Walkway {
                            from: from?,
                            steps: steps?,
                            exact: def.exact_steps,
                            through,
                            walker,
                            enter_cost,
                            stops,
                            spent_slot: None,
                        }))
                    }
                    _ => ParamSource::AllSpaces,
                },
                ParamKind::Item => ParamSource::Items,
                ParamKind::Held => match &def.held_by {
                    Some(holder) => ParamSource::HeldBy(
                        self.key("held_by", |c| c.typed(holder, scope, Some(Type::Piece)).map(|(e, _)| e))?,
                    ),
                    None => {
                        self.problem(
                            None,
                            "a `held` parameter needs `held_by`: the piece whose items are offered",
                            None,
                        );
                        return None;
                    }
                },
                ParamKind::Piece => match &def.owned_by {
                    Some(owner) => ParamSource::PiecesOwnedBy(seat_expr(self, "owned_by", owner, scope)?),
                    None => ParamSource::AllPieces,
                },
                ParamKind::Seat => ParamSource::Seats,
                ParamKind::Card => {
                    if self.names.decks.is_empty() {
                        self.key("kind", |c| {
                            c.problem(
                                None,
                                "a `card` parameter chooses from a hand, and this mod has no cards in hands: \
                                 declare `[decks]` (and draw cards into hands)",
                                None,
                            )
                        });
                        return None;
                    }
                    let holder = match &def.from {
                        Some(holder) => seat_expr(self, "from", holder, scope)?,
                        None => Expr::Slot(0),
                    };
                    let deck = match &def.deck {
                        Some(deck) => match index_of(&self.names.decks, deck) {
                            Some(index) => Some(index),
                            None => {
                                let decks = self.names.decks.clone();
                                self.key("deck", |c| c.unknown(None, "deck", deck, &decks));
                                return None;
                            }
                        },
                        None => None,
                    };
                    ParamSource::Hand(holder, deck)
                }
                ParamKind::Number => {
                    let bound = |c: &mut Self, key: &str, text: &Option<String>, scope: &mut Scope| -> Option<Expr> {
                        match text {
                            Some(text) => c.key(key, |c| c.typed(text, scope, Some(Type::Int)).map(|(e, _)| e)),
                            None => {
                                c.problem(None, format!("a `number` parameter needs `{key}`"), None);
                                None
                            }
                        }
                    };
                    let min = bound(self, "min", &def.min, scope);
                    let max = bound(self, "max", &def.max, scope);
                    ParamSource::Numbers(min?, max?)
                }
            })
        })();
        for (key, given) in [
            ("adjacent_to", def.adjacent_to.is_some()),
            ("reachable_from", def.reachable_from.is_some()),
            ("steps", def.steps.is_some()),
        ] {
            if def.kind != ParamKind::Space && given {
                self.key(key, |c| c.problem(None, format!("`{key}` is only for space parameters"), None));
            }
        }
        if !matches!(def.kind, ParamKind::Space | ParamKind::Piece) && def.owned_by.is_some() {
            self.key("owned_by", |c| c.problem(None, "`owned_by` is only for space and piece parameters", None));
        }
        if def.kind != ParamKind::Held && def.held_by.is_some() {
            self.key("held_by", |c| c.problem(None, "`held_by` is only for `held` parameters", None));
        }
        for (key, given) in [("from", def.from.is_some()), ("deck", def.deck.is_some())] {
            if def.kind != ParamKind::Card && given {
                self.key(key, |c| c.problem(None, format!("`{key}` is only for `card` parameters"), None));
            }
        }
        let ty = param_type(def.kind);
        let slot = match bind {
            Some(slot) => {
                let info = &mut scope.slots[slot as usize];
                info.name = def.name.clone();
                info.ty = ty;
                slot
            }
            None => scope.push(&def.name, ty, true),
        };
        let shown_if = def.filter.as_ref().and_then(|f| self.key("where", |c| c.condition(f, scope)));
        let requires: Vec<Requirement> = self.key("requires", |c| {
            (def.requires.iter().enumerate())
                .filter_map(|(i, need)| c.index(i, |c| c.requirement(need, &[], scope)))
                .collect()
        });
        // Listed only when every requirement holds too.
        let filter = requires.iter().fold(shown_if.clone(), |filter, need| match filter {
            Some(filter) => Some(Expr::And(Box::new(filter), Box::new(need.condition.clone()))),
            None => Some(need.condition.clone()),
        });
        let source = source?;
        Some(ParamRule {
            name: def.name.clone(),
            kind: def.kind,
            label: def.label.clone().unwrap_or_else(|| def.name.clone()),
            source,
            fast: crate::rules::FastFilter::classify(filter.as_ref(), slot),
            filter,
            shown_if,
            requires,
        })
    }

    /// The phases of a list (the turn's, or an interlude's, whose ids must differ from
    /// `earlier`'s); an empty turn list is one phase offering every action.
    fn phase_list(&mut self, data: &ModData, list: &[PhaseDef], earlier: &[&str]) -> Vec<PhaseRule> {
        // Responses are offered by `offer(…)` and automatic actions performed by `perform(…)`,
        // never taken in a phase.
        let all: Vec<u16> = data
            .actions
            .values()
            .enumerate()
            .filter(|(_, def)| !def.response && !def.automatic)
            .map(|(i, _)| i as u16)
            .collect();
        if list.is_empty() {
            return vec![PhaseRule {
                id: "main".into(),
                label: "Main".into(),
                actions: all,
                budget: vec![u32::MAX; self.names.budgets.len()],
                may_pass: true,
                pass_label: data.turn.pass_label.clone(),
                on_start: Program::default(),
                on_end: Program::default(),
                automatic: false,
            }];
        }
        if list.iter().all(|phase| phase.automatic) {
            self.problem(
                None,
                "every phase is `automatic`: the turn would never give a seat a choice (make one phase not automatic)",
                None,
            );
        }
        {
            let c = self;
            list.iter()
                .enumerate()
                .map(|(i, phase)| {
                    c.index(i, |c| {
                        check_field_name(c, &phase.id);
                        if list[..i].iter().any(|before| before.id == phase.id) || earlier.contains(&phase.id.as_str())
                        {
                            c.key("id", |c| c.problem(None, format!("two phases have the id `{}`", phase.id), None));
                        }
                        let mut actions = Vec::new();
                        c.key("actions", |c| {
                            for (j, name) in phase.actions.iter().enumerate() {
                                match index_of(&c.names.actions, name) {
                                    Some(_) if data.actions.get(name).is_some_and(|def| def.response) => {
                                        c.index(j, |c| {
                                            c.problem(
                                                None,
                                                format!(
                                                    "`{name}` is a response (`response = true`): an effect offers it \
                                                     with `offer(\"{name}\", seat, …)`; no phase lists it"
                                                ),
                                                None,
                                            )
                                        });
                                    }
                                    Some(_) if data.actions.get(name).is_some_and(|def| def.automatic) => {
                                        c.index(j, |c| {
                                            c.problem(
                                                None,
                                                format!(
                                                    "`{name}` is automatic (`automatic = true`): an effect performs it \
                                                     with `perform(\"{name}\", …)`; no phase lists it"
                                                ),
                                                None,
                                            )
                                        });
                                    }
                                    Some(a) => actions.push(a),
                                    None => c.index(j, |c| c.unknown(None, "action", name, &c.names.actions.clone())),
                                }
                            }
                        });
                        if phase.automatic {
                            // Nobody acts in it: what it would list is written for nothing.
                            for (key, written) in [
                                ("actions", !phase.actions.is_empty()),
                                ("budget", !phase.budget.is_empty()),
                                ("pass_label", phase.pass_label.is_some()),
                            ] {
                                if written {
                                    c.key(key, |c| {
                                        c.problem(
                                            None,
                                            format!("an `automatic` phase offers no choice, so it takes no `{key}`"),
                                            None,
                                        )
                                    });
                                }
                            }
                            actions.clear();
                        } else if phase.actions.is_empty() {
                            actions = all.clone();
                        }
                        let mut budget = vec![u32::MAX; c.names.budgets.len()];
                        c.key("budget", |c| {
                            for (name, limit) in &phase.budget {
                                match index_of(&c.names.budgets, name) {
                                    Some(a) => budget[a as usize] = *limit,
                                    None => c.key(name, |c| {
                                        c.unknown(None, "action or action group", name, &c.names.budgets.clone())
                                    }),
                                }
                            }
                        });
                        PhaseRule {
                            id: phase.id.clone(),
                            label: phase.label.clone().unwrap_or_else(|| phase.id.clone()),
                            actions,
                            budget,
                            may_pass: phase.may_pass && !phase.automatic,
                            pass_label: phase.pass_label.clone().unwrap_or_else(|| data.turn.pass_label.clone()),
                            on_start: c.key("on_start", |c| c.program(&phase.on_start)),
                            on_end: c.key("on_end", |c| c.program(&phase.on_end)),
                            automatic: phase.automatic,
                        }
                    })
                })
                .collect()
        }
    }

    /// A formula about `seat` (slot 1; `me`, slot 0, is the seat to move): an `end` condition,
    /// `ai.standing` or a seat figure's `value`. `no_hooks` says why it may not call Lua (`None`:
    /// it may, as `ai.standing`).
    fn seat_formula(
        &mut self,
        key: &str,
        text: Option<&String>,
        want: Type,
        no_hooks: Option<&'static str>,
    ) -> Option<Formula> {
        self.formula_about(key, text?, ("seat", Type::Seat), want, no_hooks)
    }

    /// The formula under `key`, about one thing (`subject`: its name and type, in slot 1; `me`
    /// is slot 0), of type `want`.
    fn formula_about(
        &mut self,
        key: &str,
        text: &str,
        subject: (&str, Type),
        want: Type,
        no_hooks: Option<&'static str>,
    ) -> Option<Formula> {
        self.key(key, |c| {
            let mut scope = Scope::new(Allow { no_hooks, ..Allow::default() });
            scope.push(subject.0, subject.1, true);
            let (expr, _) = c.typed(text, &mut scope, Some(want))?;
            Some(Formula { expr, frame: scope.frame as u16 })
        })
    }

    fn end(&mut self, def: &defs::EndDef) -> EndRule {
        let eliminate = self.seat_formula("eliminate", def.eliminate.as_ref(), Type::Bool, Some(NO_HOOKS_IN_END));
        let win = self.seat_formula("win", def.win.as_ref(), Type::Bool, Some(NO_HOOKS_IN_END));
        let draw_shares = self.seat_formula("draw_shares", def.draw_shares.as_ref(), Type::Int, Some(NO_HOOKS_IN_END));
        let draw = self.seat_formula("draw", def.draw.as_ref(), Type::Bool, Some(NO_HOOKS_IN_END));
        let score = self.seat_formula("score", def.score.as_ref(), Type::Int, Some(NO_HOOKS_IN_END));
        if def.turn_limit == 0 {
            self.key("turn_limit", |c| c.problem(None, "the turn limit must be at least 1", None));
        }
        let reads_turn_state =
            [&eliminate, &win, &draw].iter().any(|f| f.as_ref().is_some_and(|f| f.expr.reads_turn_state()));
        // Slot 1 is the seat the formula is asked about.
        let reads_only_ownership =
            [&eliminate, &win].iter().all(|f| f.as_ref().is_none_or(|f| f.expr.reads_only_ownership(1)));
        EndRule {
            reads_turn_state,
            reads_only_ownership,
            eliminate,
            win,
            last_seat_wins: def.last_seat_wins,
            draw,
            score,
            draw_shares,
            turn_limit: def.turn_limit.max(1),
        }
    }

    // ----- named formulas and effects -----

    /// Compiles every named formula and effect not compiled yet: the ones used are compiled at
    /// their first use, and this reports the mistakes of those nothing uses too.
    fn compile_definitions(&mut self) {
        for index in 0..self.formulas.len() {
            self.formula(index, Span::default());
        }
        for index in 0..self.effects.len() {
            self.effect(index, Span::default());
        }
    }

    /// The compiled formulas and effects, for the ruleset. One with problems leaves a
    /// placeholder: the ruleset is not returned then.
    fn finished_definitions(&mut self) -> (Vec<NamedFormula>, Vec<NamedEffect>) {
        let formulas = std::mem::take(&mut self.formulas)
            .into_iter()
            .zip(&self.names.formulas)
            .map(|(definition, id)| match definition {
                Definition::Done(Some(formula)) => formula,
                _ => NamedFormula {
                    id: id.clone(),
                    params: Vec::new(),
                    ty: Type::Nil,
                    body: Expr::Const(Value::Nil),
                    frame: 1,
                    fallible: false,
                    hook: None,
                    extent: Extent::default(),
                },
            })
            .collect();
        let effects = std::mem::take(&mut self.effects)
            .into_iter()
            .zip(&self.names.effects)
            .map(|(definition, id)| match definition {
                Definition::Done(Some(effect)) => effect,
                _ => NamedEffect {
                    id: id.clone(),
                    params: Vec::new(),
                    body: Block::new(),
                    frame: 1,
                    fallible: false,
                    hook: None,
                    extent: Extent::default(),
                },
            })
            .collect();
        (formulas, effects)
    }

    /// The named formula `index`, compiled now unless it was before; `None` when it has
    /// problems (reported where it is written). Met again while it is being compiled, it uses
    /// itself: that cycle is reported at `span`, the call.
    fn formula(&mut self, index: usize, span: Span) -> Option<&NamedFormula> {
        match self.formulas[index] {
            Definition::Waiting => {
                let id = self.names.formulas[index].clone();
                if self.compiling.len() >= MAX_NAMED_NESTING {
                    self.too_deep(&id, span);
                    return None;
                }
                self.formulas[index] = Definition::Compiling;
                let compiled = self.definition("formulas", &id, |c| c.formula_definition(index));
                self.formulas[index] = Definition::Done(compiled);
            }
            Definition::Compiling => {
                let id = self.names.formulas[index].clone();
                self.cycle(&id, span, "a formula cannot use itself, directly or through other formulas");
                return None;
            }
            Definition::Done(_) => {}
        }
        match &self.formulas[index] {
            Definition::Done(Some(formula)) => Some(formula),
            _ => None,
        }
    }

    /// The named effect `index`, compiled now unless it was before (see [`Self::formula`]).
    fn effect(&mut self, index: usize, span: Span) -> Option<&NamedEffect> {
        match self.effects[index] {
            Definition::Waiting => {
                let id = self.names.effects[index].clone();
                if self.compiling.len() >= MAX_NAMED_NESTING {
                    self.too_deep(&id, span);
                    return None;
                }
                self.effects[index] = Definition::Compiling;
                let compiled = self.definition("effects", &id, |c| c.effect_definition(index));
                self.effects[index] = Definition::Done(compiled);
            }
            Definition::Compiling => {
                let id = self.names.effects[index].clone();
                self.cycle(&id, span, "an effect block cannot run itself, directly or through other effect blocks");
                return None;
            }
            Definition::Done(_) => {}
        }
        match &self.effects[index] {
            Definition::Done(Some(effect)) => Some(effect),
            _ => None,
        }
    }

    /// Runs `compile` at the path of a definition (`[collection.id]`), wherever the compiler was:
    /// a definition is compiled at its first use, and its problems belong where it is written.
    fn definition<T>(&mut self, collection: &str, id: &str, compile: impl FnOnce(&mut Self) -> T) -> T {
        let path = vec![PathSeg::Key(collection.to_string()), PathSeg::Key(id.to_string())];
        let saved = std::mem::replace(&mut self.path, path);
        self.compiling.push(id.to_string());
        let result = compile(self);
        self.compiling.pop();
        self.path = saved;
        result
    }

    /// Reports a use of `id` past [`MAX_NAMED_NESTING`] formulas and effects inside one another.
    fn too_deep(&mut self, id: &str, span: Span) {
        let (first, last) = (self.compiling.first().cloned().unwrap_or_default(), self.compiling.last().cloned());
        let message = format!(
            "formulas and effects may be used inside one another at most {MAX_NAMED_NESTING} deep: `{first}` → … → \
             `{}` → `{id}` is deeper",
            last.unwrap_or_default()
        );
        self.problem(Some(span), message, None);
    }

    /// Reports a use of `id` inside its own definition, directly or through others, naming the
    /// chain.
    fn cycle(&mut self, id: &str, span: Span, rule: &str) {
        let start = self.compiling.iter().rposition(|name| name == id).unwrap_or(0);
        let chain: Vec<String> =
            self.compiling[start..].iter().map(String::as_str).chain([id]).map(|name| format!("`{name}`")).collect();
        self.problem(Some(span), format!("`{id}` uses itself: {}; {rule}", chain.join(" → ")), None);
    }

    /// Checks the name of a named formula or effect (`what`): not one of the language's own
    /// functions and statements, which are called the same way.
    fn definition_name(&mut self, id: &str, what: &str) {
        if language::callable_names().any(|builtin| builtin == id) {
            let message =
                format!("`{id}` is a function or statement of the rules language already; name the {what} otherwise");
            self.problem(None, message, None);
        } else {
            check_name(self, id);
        }
    }

    fn formula_definition(&mut self, index: usize) -> Option<NamedFormula> {
        let data = self.data;
        let (id, def) = data.formulas.get_index(index)?;
        self.definition_name(id, "formula");
        let params = self.named_params(&def.params)?;
        let mut scope = Scope::new(Allow { no_dice_because: Some(NO_DICE_IN_FORMULAS), ..Allow::default() });
        for (name, ty) in &params {
            scope.push(name, *ty, false);
        }
        let (body, ty) = self.key("value", |c| c.typed(&def.value, &mut scope, None))?;
        let extent = body.extent(&|i| self.formula_extent(i));
        Some(NamedFormula {
            id: id.clone(),
            params,
            ty,
            body,
            frame: scope.frame as u16,
            fallible: scope.fallible,
            hook: scope.hook,
            extent,
        })
    }

    fn effect_definition(&mut self, index: usize) -> Option<NamedEffect> {
        let data = self.data;
        let (id, def) = data.effects.get_index(index)?;
        self.definition_name(id, "effect block");
        if self.names.formulas.contains(id) {
            self.problem(None, format!("`{id}` names a formula too; give the effect block a name of its own"), None);
        }
        let params = self.named_params(&def.params)?;
        let mut scope = Scope::new(Allow { dice: true, ..Allow::default() });
        for (name, ty) in &params {
            // An argument may be `none`: a change through a parameter can fail.
            scope.push(name, *ty, false);
        }
        let body = self.key("do", |c| c.effect_list(&def.body, &mut scope));
        let extent = block_extent(&body, &|i| self.formula_extent(i), &|i| self.effect_extent(i));
        Some(NamedEffect {
            id: id.clone(),
            params,
            body,
            frame: scope.frame as u16,
            fallible: scope.fallible,
            hook: scope.hook,
            extent,
        })
    }

    /// The parameters of a named formula or effect, each `"name: type"`; `None` when one of
    /// them is wrong (then its body is not compiled: every use of the parameter would be wrong
    /// too).
    fn named_params(&mut self, texts: &[String]) -> Option<Vec<(String, Type)>> {
        self.key("params", |c| {
            if texts.len() > MAX_NAMED_PARAMS {
                c.problem(None, format!("at most {MAX_NAMED_PARAMS} parameters, not {}", texts.len()), None);
                return None;
            }
            let mut params: Vec<(String, Type)> = Vec::new();
            let mut whole = true;
            for (i, text) in texts.iter().enumerate() {
                match c.index(i, |c| c.named_param(text)) {
                    Some((name, _)) if params.iter().any(|(earlier, _)| *earlier == name) => {
                        c.index(i, |c| c.problem(None, format!("two parameters are named `{name}`"), None));
                        whole = false;
                    }
                    Some(param) => params.push(param),
                    None => whole = false,
                }
            }
            whole.then_some(params)
        })
    }

    /// One parameter, `"name: type"`, with a type word of the language ([`Type::WORDS`]).
    fn named_param(&mut self, text: &str) -> Option<(String, Type)> {
        let Some((name_part, type_part)) = text.split_once(':') else {
            self.problem(
                Some(Span::new(0, text.len())),
                "a parameter is written `name: type`, e.g. `hits: whole number`",
                None,
            );
            return None;
        };
        let name = name_part.trim();
        let name_start = name_part.len() - name_part.trim_start().len();
        let name_span = Span::new(name_start, name_start + name.len());
        if name.is_empty() {
            self.problem(Some(Span::new(0, name_part.len() + 1)), "the parameter needs a name before `:`", None);
            return None;
        }
        if !is_identifier(name) {
            let message =
                format!("`{name}` is not a valid name: use letters, digits and underscores, starting with a letter");
            self.problem(Some(name_span), message, None);
            return None;
        }
        if is_reserved(name) {
            self.problem(Some(name_span), format!("`{name}` is a reserved word of the rules language"), None);
            return None;
        }
        let word = type_part.trim();
        let word_start = name_part.len() + 1 + (type_part.len() - type_part.trim_start().len());
        let word_span = Span::new(word_start, word_start + word.len());
        match Type::from_word(word) {
            Some(ty) => Some((name.to_string(), ty)),
            None => {
                // Other languages' names for the same types.
                let synonym = match word.to_lowercase().as_str() {
                    "int" | "integer" | "whole" => Some("whole number"),
                    "float" | "decimal" | "real" | "double" => Some("number"),
                    "bool" | "boolean" | "yes or no" => Some("yes/no"),
                    _ => None,
                };
                if let Some(synonym) = synonym {
                    let message = format!("unknown type `{word}`: the rules language calls it `{synonym}`");
                    self.problem(Some(word_span), message, Some(synonym.to_string()));
                    return None;
                }
                let known: Vec<String> = Type::WORDS.iter().map(|(word, _)| word.to_string()).collect();
                self.unknown(Some(word_span), "type", word, &known);
                None
            }
        }
    }

    fn formula_extent(&self, index: u16) -> Extent {
        match self.formulas.get(index as usize) {
            Some(Definition::Done(Some(formula))) => formula.extent,
            _ => Extent::default(),
        }
    }

    fn effect_extent(&self, index: u16) -> Extent {
        match self.effects.get(index as usize) {
            Some(Definition::Done(Some(effect))) => effect.extent,
            _ => Extent::default(),
        }
    }

    /// Whether an expression or effect list, written out with the named formulas and effects it
    /// uses, stays within [`MAX_WRITTEN_OUT_SIZE`] and [`MAX_WRITTEN_OUT_DEPTH`]; reported at
    /// `span` when it does not.
    fn within_limits(&mut self, extent: Extent, span: Option<Span>) -> bool {
        let written_out = "with the named formulas and effects it uses written out in place";
        if extent.size > MAX_WRITTEN_OUT_SIZE {
            let message = format!(
                "{written_out}, this is {} parts long, more than {MAX_WRITTEN_OUT_SIZE}: a formula or effect used \
                 several times inside others that are used several times multiplies; use them fewer times, or do \
                 the work in a Lua hook",
                extent.size
            );
            self.problem(span, message, None);
            return false;
        }
        if extent.depth > MAX_WRITTEN_OUT_DEPTH {
            let message = format!(
                "{written_out}, this nests {} deep, more than {MAX_WRITTEN_OUT_DEPTH}: split a long chain of \
                 operations, or do the work in a Lua hook",
                extent.depth
            );
            self.problem(span, message, None);
            return false;
        }
        true
    }

    /// A call of the named formula `index`: its arguments checked against its parameters, and
    /// refused where it cannot run (it calls a hook where Lua does not run).
    fn formula_call(
        &mut self,
        index: usize,
        name: &str,
        name_span: Span,
        args: &[Ast],
        scope: &mut Scope,
    ) -> Option<Typed> {
        let formula = self.formula(index, name_span)?;
        let (params, ty, fallible, hook) = (formula.params.clone(), formula.ty, formula.fallible, formula.hook.clone());
        let compiled = self.named_args(name, name_span, &params, hook.as_ref(), args, scope)?;
        scope.fallible |= fallible;
        let calls_hook = hook.is_some();
        note_hook(scope, name, hook);
        Some((Expr::Call(Func::Formula { index: index as u16, calls_hook }, compiled), ty))
    }

    /// A statement running the named effect `index` (see [`Self::formula_call`]).
    fn effect_call(
        &mut self,
        index: usize,
        name: &str,
        name_span: Span,
        args: &[Ast],
        scope: &mut Scope,
    ) -> Option<Stmt> {
        let effect = self.effect(index, name_span)?;
        let (params, fallible, hook) = (effect.params.clone(), effect.fallible, effect.hook.clone());
        if !scope.allow.dice {
            self.problem(Some(name_span), format!("`{name}` changes the game and cannot be used here"), None);
            return None;
        }
        let compiled = self.named_args(name, name_span, &params, hook.as_ref(), args, scope)?;
        scope.fallible |= fallible;
        note_hook(scope, name, hook);
        Some(Stmt::Proc(Proc::Effect(index as u16), compiled))
    }

    /// The arguments of a call of a named formula or effect, each checked against its
    /// parameter; the call is refused where the hook it calls cannot run.
    fn named_args(
        &mut self,
        name: &str,
        name_span: Span,
        params: &[(String, Type)],
        hook: Option<&HookUse>,
        args: &[Ast],
        scope: &mut Scope,
    ) -> Option<Vec<Expr>> {
        if args.len() != params.len() {
            let listed: Vec<String> = params.iter().map(|(param, ty)| format!("{param}: {}", ty.word())).collect();
            let message = format!(
                "`{name}` takes {} argument{} ({}), not {}",
                params.len(),
                plural(params.len()),
                listed.join(", "),
                args.len()
            );
            self.problem(Some(name_span), message, None);
            return None;
        }
        if let (Some(hook), Some(reason)) = (hook, scope.allow.no_hooks) {
            let through = match hook.through.as_slice() {
                [] => String::new(),
                names => {
                    format!(" through {}", names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(" and "))
                }
            };
            let message =
                format!("`{name}` calls the hook `{}`{through}, and hooks cannot be called here: {reason}", hook.hook);
            self.problem(Some(name_span), message, None);
            return None;
        }
        let mut compiled = Vec::with_capacity(args.len());
        for (arg, (param, ty)) in args.iter().zip(params) {
            let role = format!("`{param}` of `{name}`");
            compiled.push(self.expect_type_for(arg, scope, *ty, Some(&role))?.0);
        }
        Some(compiled)
    }

    // ----- programs and statements -----

    fn program(&mut self, stmts: &[defs::Stmt]) -> Program {
        self.program_in(stmts, Scope::new(Allow { dice: true, ..Allow::default() }))
    }

    fn program_in(&mut self, stmts: &[defs::Stmt], mut scope: Scope) -> Program {
        let block = self.effect_list(stmts, &mut scope);
        Program { block, frame: scope.frame as u16, fallible: scope.fallible }
    }

    /// An effect list as a whole (an action's effects, a program, an effect block's `do`): its
    /// statements, and its size written out checked.
    fn effect_list(&mut self, stmts: &[defs::Stmt], scope: &mut Scope) -> Block {
        let before = self.problems.len();
        let block = self.block(stmts, scope);
        if self.problems.len() == before {
            let extent = block_extent(&block, &|i| self.formula_extent(i), &|i| self.effect_extent(i));
            self.within_limits(extent, None);
        }
        block
    }

    fn block(&mut self, stmts: &[defs::Stmt], scope: &mut Scope) -> Block {
        let visible = scope.visible;
        let block = stmts.iter().enumerate().filter_map(|(i, stmt)| self.index(i, |c| c.stmt(stmt, scope))).collect();
        scope.visible = visible;
        block
    }

    fn stmt(&mut self, stmt: &defs::Stmt, scope: &mut Scope) -> Option<Stmt> {
        match stmt {
            defs::Stmt::Line(text) => {
                let ast = match parse_statement(text) {
                    Ok(ast) => ast,
                    Err(e) => {
                        self.problem(Some(e.span), e.message, None);
                        return None;
                    }
                };
                self.stmt_ast(ast, scope)
            }
            defs::Stmt::If(block) => {
                let condition = self.key("if", |c| c.condition(&block.condition, scope))?;
                let then = self.key("then", |c| c.block(&block.then, scope));
                let otherwise = self.key("else", |c| c.block(&block.otherwise, scope));
                Some(Stmt::If(condition, then, otherwise))
            }
            defs::Stmt::ForEach(block) => {
                let (kind, ty, name) = match block.for_each {
                    defs::LoopOver::Seat => (LoopKind::Seat, Type::Seat, "seat"),
                    defs::LoopOver::Space => (LoopKind::Space, Type::Space, "space"),
                    defs::LoopOver::Piece => (LoopKind::Piece, Type::Piece, "piece"),
                };
                let name = match &block.name {
                    Some(own) => {
                        self.key("as", |c| {
                            check_name(c, own);
                            if scope.lookup(own).is_some() {
                                c.problem(None, format!("`{own}` is already a name here; choose another"), None);
                            }
                        });
                        own.as_str()
                    }
                    None => name,
                };
                let visible = scope.visible;
                let slot = scope.push(name, ty, true);
                let filter = block.filter.as_ref().and_then(|f| self.key("where", |c| c.condition(f, scope)));
                let body = self.key("do", |c| c.block(&block.body, scope));
                scope.visible = visible;
                Some(Stmt::ForEach { kind, slot, filter, body })
            }
        }
    }

    fn stmt_ast(&mut self, ast: StmtAst, scope: &mut Scope) -> Option<Stmt> {
        match ast {
            StmtAst::Let { name, name_span, value } => {
                if is_reserved(&name) {
                    self.problem(Some(name_span), format!("`{name}` is a reserved name"), None);
                    return None;
                }
                let (expr, ty) = self.expr(&value, scope)?;
                if scope.slots.len() >= MAX_SLOTS {
                    self.problem(Some(name_span), "too many local names in one effect list", None);
                    return None;
                }
                let slot = scope.push(&name, ty, false);
                // Dice rolled for a name are shown under it ("attackers: 6 2 1"), as a named roll's.
                let roll_name = expr.rolls_dice().then(|| self.strings.insert_full(name.clone(), ()).0 as u16);
                Some(Stmt::Let(slot, expr, roll_name))
            }
            StmtAst::Assign { place, op, value } => {
                let (place, place_ty) = self.place(&place, scope)?;
                let mode = match op {
                    AssignOp::Set => AssignMode::Set,
                    AssignOp::Add => AssignMode::Add,
                    AssignOp::Sub => AssignMode::Sub,
                };
                if mode != AssignMode::Set && place_ty != Type::Int {
                    self.problem(
                        Some(value.span),
                        format!("`+=` and `-=` need a number, this is {}", place_ty.describe()),
                        None,
                    );
                    return None;
                }
                let (expr, _) = self.expect_type(&value, scope, place_ty)?;
                Some(Stmt::Assign(place, mode, expr))
            }
            StmtAst::Call(ast) => {
                let AstKind::Call(name, name_span, args) = &ast.kind else { return None };
                if let Some(proc) = self.procedure(name, *name_span, args, scope) {
                    return proc;
                }
                if let Some(index) = index_of(&self.names.effects, name) {
                    return self.effect_call(index as usize, name, *name_span, args, scope);
                }
                let (expr, _) = self.expr(&ast, scope)?;
                // A value no one reads changes nothing: only a call that acts (a Lua hook,
                // `distribute`, a draw) may stand alone.
                let acts = expr.calls_hook() || expr.rolls_dice();
                if !acts {
                    let (message, suggestion) = if index_of(&self.names.formulas, name).is_some() {
                        let effects = self.names.effects.clone();
                        (
                            format!(
                                "`{name}` is a formula: its value would be thrown away here. Use it in a statement \
                                 (`target.health -= {name}(…)`), or run an effect block (`[effects]`) instead"
                            ),
                            did_you_mean(name, effects.iter().map(String::as_str)),
                        )
                    } else {
                        (
                            format!(
                                "`{name}(…)` gives a value, which would be thrown away here: a statement assigns \
                                 (`x = …`), or calls a statement such as `log(…)` or an effect block"
                            ),
                            None,
                        )
                    };
                    self.problem(Some(*name_span), message, suggestion);
                    return None;
                }
                Some(Stmt::Eval(expr))
            }
        }
    }

    /// The budget slot a quoted action or action group names, as the first argument of `used`
    /// and `refund`; a problem (with a "did you mean") when it names none.
    fn budget_slot_argument(&mut self, name: &str, name_span: Span, args: &[Ast]) -> Option<u16> {
        let Some(AstKind::Str(group)) = args.first().map(|a| &a.kind) else {
            let message =
                format!("the first argument of `{name}` is a quoted action or action group, e.g. {name}(\"deed\")");
            self.problem(Some(args.first().map_or(name_span, |a| a.span)), message, None);
            return None;
        };
        match index_of(&self.names.budgets, group) {
            Some(slot) => Some(slot),
            None => {
                let budgets = self.names.budgets.clone();
                self.unknown(Some(args[0].span), "action or action group", group, &budgets);
                None
            }
        }
    }

    /// The action a statement's first argument names in quotes (`offer("ambush", …)`), with that
    /// argument; `None`, the problem reported, when it is missing, not quoted or unknown.
    fn quoted_action<'x>(
        &mut self,
        name: &str,
        name_span: Span,
        args: &'x [Ast],
        usage: &str,
    ) -> Option<(u16, &'x Ast)> {
        let Some(first) = args.first() else {
            self.problem(Some(name_span), usage, None);
            return None;
        };
        let AstKind::Str(id) = &first.kind else {
            self.problem(Some(first.span), format!("the first argument of `{name}` is a quoted action id"), None);
            return None;
        };
        let Some(index) = index_of(&self.names.actions, id) else {
            let actions = self.names.actions.clone();
            self.unknown(Some(first.span), "action", id, &actions);
            return None;
        };
        Some((index, first))
    }

    /// Whether `place` (`place_between`) is written for a kind that stands in a space (between
    /// two); otherwise a problem saying which to write.
    fn placed_where_it_stands(&mut self, name: &str, kind: &str, span: Span) -> bool {
        let on_edge = self.data.pieces.get(kind).is_some_and(|d| d.on_edge);
        match (name, on_edge) {
            ("place", true) => {
                let message = format!(
                    "a {kind} stands between two spaces (`on_edge`): write place_between(\"{kind}\", seat, a, b)"
                );
                self.problem(Some(span), message, None);
                false
            }
            ("place_between", false) => {
                let message = format!(
                    "a {kind} stands in a space: write place(\"{kind}\", seat, space), or make its kind `on_edge`"
                );
                self.problem(Some(span), message, None);
                false
            }
            _ => true,
        }
    }

    /// Compiles a procedure call; `None` when `name` is not a procedure (it may be a function).
    fn procedure(&mut self, name: &str, name_span: Span, args: &[Ast], scope: &mut Scope) -> Option<Option<Stmt>> {
        let (proc, expected): (Proc, Vec<Type>) = match name {
            "end_turn" => (Proc::EndTurn, vec![]),
            "leave" => (Proc::Leave, vec![Type::Seat]),
            "eliminate" => (Proc::Eliminate, vec![Type::Seat]),
            "win" => (Proc::Win, vec![Type::Seat]),
            "draw" => (Proc::Draw, vec![]),
            "deal_spaces" => (Proc::DealSpaces, vec![]),
            "remove" => (Proc::Remove, vec![Type::Piece]),
            "give" => (Proc::Give, vec![Type::Piece, Type::Id(IdKind::Item)]),
            "drop" => (Proc::Drop, vec![Type::Held]),
            "log" => (Proc::Log, vec![Type::Text]),
            "place" | "place_between" | "shuffle" | "draw_cards" => {
                let Some(first) = args.first() else {
                    self.problem(Some(name_span), format!("`{name}` needs arguments"), None);
                    return Some(None);
                };
                let AstKind::Str(id) = &first.kind else {
                    self.problem(Some(first.span), format!("the first argument of `{name}` is a quoted name"), None);
                    return Some(None);
                };
                let (list, what) = if name.starts_with("place") {
                    (&self.names.piece_kinds, "piece kind")
                } else {
                    (&self.names.decks, "deck")
                };
                let Some(index) = index_of(list, id) else {
                    let list = list.clone();
                    self.unknown(Some(first.span), what, id, &list);
                    return Some(None);
                };
                if name.starts_with("place") && !self.placed_where_it_stands(name, id, first.span) {
                    return Some(None);
                }
                match name {
                    "place" => (Proc::Place(index), vec![Type::Text, Type::Seat, Type::Space]),
                    "place_between" => (Proc::Place(index), vec![Type::Text, Type::Seat, Type::Space, Type::Space]),
                    "shuffle" => (Proc::Shuffle(index), vec![Type::Text]),
                    _ => (Proc::DrawCards(index), vec![Type::Text, Type::Seat, Type::Int]),
                }
            }
            // A card is a quoted id or a card value (a `card` parameter); each moves one copy.
            "discard" => (Proc::Discard, vec![Type::Seat, Type::Id(IdKind::Card)]),
            "give_card" => (Proc::GiveCard, vec![Type::Seat, Type::Seat, Type::Id(IdKind::Card)]),
            "return_card" => (Proc::ReturnCard, vec![Type::Seat, Type::Id(IdKind::Card)]),
            "attach" => (Proc::Attach, vec![Type::Piece, Type::Id(IdKind::Card), Type::Seat]),
            "detach" => (Proc::Detach, vec![Type::Piece, Type::Id(IdKind::Card), Type::Seat]),
            "reveal_value" => {
                let Some(AstKind::Str(label)) = args.first().map(|a| &a.kind) else {
                    self.problem(
                        Some(name_span),
                        "`reveal_value` takes a quoted label and a number: reveal_value(\"cup\", me.cup)",
                        None,
                    );
                    return Some(None);
                };
                let (index, _) = self.strings.insert_full(label.clone(), ());
                (Proc::RevealValue(index as u16), vec![Type::Text, Type::Int])
            }
            "refund" => {
                let Some(slot) = self.budget_slot_argument(name, name_span, args) else {
                    return Some(None);
                };
                (Proc::Refund(slot), vec![Type::Text, Type::Int])
            }
            "perform" => {
                let usage = "`perform` takes a quoted automatic action, then its first parameters: \
                             perform(\"prowl\", beast)";
                let Some((index, first)) = self.quoted_action(name, name_span, args, usage) else {
                    return Some(None);
                };
                let id = self.names.actions[index as usize].clone();
                let def = &self.data.actions[index as usize];
                if !def.automatic {
                    let message = format!(
                        "`{id}` is not automatic: only an action with `automatic = true` is performed by the rules"
                    );
                    self.problem(Some(first.span), message, None);
                    return Some(None);
                }
                let given = args.len() - 1;
                if given > def.params.len() {
                    let message = format!(
                        "`perform` gives at most {} parameter{} of `{id}`, not {given}",
                        def.params.len(),
                        plural(def.params.len())
                    );
                    self.problem(Some(name_span), message, None);
                    return Some(None);
                }
                let mut expected = vec![Type::Text];
                expected.extend(def.params[..given].iter().map(|param| param_type(param.kind)));
                // What it does can fail like any effect: it runs on a snapshot.
                scope.fallible = true;
                (Proc::Perform(index), expected)
            }
            "offer" => {
                let usage = "`offer` takes a quoted response action, the seat offered it, then its first parameters: \
                             offer(\"ambush\", piece.owner, to)";
                let Some((index, first)) = self.quoted_action(name, name_span, args, usage) else {
                    return Some(None);
                };
                let id = self.names.actions[index as usize].clone();
                let def = &self.data.actions[index as usize];
                if !def.response {
                    let message = format!(
                        "`{id}` is not a response: only an action with `response = true` is offered out of turn"
                    );
                    self.problem(Some(first.span), message, None);
                    return Some(None);
                }
                let given = args.len().saturating_sub(2);
                if given > def.params.len() {
                    let message = format!(
                        "`offer` gives the seat and at most {} parameter{} of `{id}`, not {given}",
                        def.params.len(),
                        plural(def.params.len())
                    );
                    self.problem(Some(name_span), message, None);
                    return Some(None);
                }
                self.offer_sites.push(OfferSite { action: index, given, path: self.path.clone(), span: name_span });
                let mut expected = vec![Type::Text, Type::Seat];
                expected.extend(def.params[..given].iter().map(|param| param_type(param.kind)));
                (Proc::Offer(index), expected)
            }
            // Without the seat to show them to, to every seat.
            "reveal_hand" => (Proc::RevealHand, if args.len() == 1 { vec![Type::Seat] } else { vec![Type::Seat; 2] }),
            "reveal_card" => {
                // A quoted card id, or a card value (a `card` parameter).
                let expected = if args.len() == 2 {
                    vec![Type::Seat, Type::Id(IdKind::Card)]
                } else {
                    vec![Type::Seat, Type::Id(IdKind::Card), Type::Seat]
                };
                (Proc::RevealCard, expected)
            }
            "hook" => {
                let Some((Expr::Call(Func::Hook(index), args), _)) = self.hook_call(name_span, args, scope) else {
                    return Some(None);
                };
                return Some(Some(Stmt::Proc(Proc::Hook(index), args)));
            }
            _ => return None,
        };
        if !scope.allow.dice {
            self.problem(Some(name_span), format!("`{name}` changes the game and cannot be used here"), None);
            return Some(None);
        }
        if matches!(
            proc,
            Proc::Place(_)
                | Proc::Give
                | Proc::Drop
                | Proc::Discard
                | Proc::GiveCard
                | Proc::ReturnCard
                | Proc::Attach
                | Proc::Detach
        ) {
            // A card that is not where a statement moves it from is an error at run time.
            // A game's pieces and a piece's items are bounded (`changes::MAX_PIECES`,
            // `MAX_HELD_ITEMS`): past them the statement fails, so its action runs on a snapshot.
            scope.fallible = true;
        }
        if args.len() != expected.len() {
            self.problem(
                Some(name_span),
                format!("`{name}` takes {} argument{}, not {}", expected.len(), plural(expected.len()), args.len()),
                None,
            );
            return Some(None);
        }
        let mut compiled = Vec::new();
        for (arg, ty) in args.iter().zip(&expected) {
            if *ty == Type::Text {
                if !matches!(arg.kind, AstKind::Str(_)) {
                    self.problem(Some(arg.span), "expected a quoted text", None);
                    return Some(None);
                }
                compiled.push(Expr::Const(Value::Nil));
                continue;
            }
            let Some((expr, _)) = self.expect_type(arg, scope, *ty) else { return Some(None) };
            if !is_safe(&expr, scope) {
                scope.fallible = true;
            }
            compiled.push(expr);
        }
        if let (Proc::Log, Some(AstKind::Str(text))) = (proc, args.first().map(|a| &a.kind)) {
            let (index, _) = self.strings.insert_full(text.clone(), ());
            let index = index as u16;
            return Some(Some(Stmt::Proc(Proc::Log, vec![Expr::Const(Value::Id(index))])));
        }
        Some(Some(Stmt::Proc(proc, compiled)))
    }

    fn place(&mut self, ast: &Ast, scope: &mut Scope) -> Option<(Place, Type)> {
        match &ast.kind {
            AstKind::Name(name) => {
                if let Some(var) = index_of(&self.names.vars, name) {
                    if scope.lookup(name).is_none() {
                        return Some((Place::Var(var), Type::Int));
                    }
                }
                let suggestion = did_you_mean(name, self.names.vars.iter().map(String::as_str));
                self.problem(
                    Some(ast.span),
                    format!("cannot assign to `{name}`: only game variables (`[vars]`) and fields can be assigned"),
                    suggestion,
                );
                None
            }
            AstKind::Field(base, field, field_span) => {
                let (base_expr, base_ty) = self.expr(base, scope)?;
                if !is_safe(&base_expr, scope) {
                    scope.fallible = true;
                }
                match base_ty {
                    Type::Space => match field.as_str() {
                        "owner" => Some((Place::SpaceOwner(base_expr), Type::Seat)),
                        "terrain" => Some((Place::SpaceTerrain(base_expr), Type::Id(IdKind::Terrain))),
                        _ => match index_of(&self.names.counters, field) {
                            Some(i) => Some((Place::SpaceCounter(base_expr, i), Type::Int)),
                            None => {
                                let known =
                                    [self.names.counters.clone(), vec!["owner".into(), "terrain".into()]].concat();
                                self.unknown(Some(*field_span), "space field", field, &known);
                                None
                            }
                        },
                    },
                    Type::Seat => match index_of(&self.names.resources, field) {
                        Some(i) => Some((Place::SeatResource(base_expr, i), Type::Int)),
                        None => {
                            self.unknown(Some(*field_span), "seat resource", field, &self.names.resources.clone());
                            None
                        }
                    },
                    Type::Piece => match field.as_str() {
                        "owner" => Some((Place::PieceOwner(base_expr), Type::Seat)),
                        "space" => {
                            // A piece between two spaces does not move: moving one is an error at
                            // run time, in a mod that has such pieces.
                            if self.data.pieces.values().any(|d| d.on_edge) {
                                scope.fallible = true;
                            }
                            Some((Place::PieceSpace(base_expr), Type::Space))
                        }
                        "inside" => {
                            // A full holder, or one that does not take the kind, is an error at
                            // run time: the action runs on a snapshot.
                            scope.fallible = true;
                            Some((Place::PieceInside(base_expr), Type::Piece))
                        }
                        _ => match index_of(&self.names.stats, field) {
                            Some(i) => Some((Place::PieceStat(base_expr, i), Type::Int)),
                            None => {
                                let known =
                                    [self.names.stats.clone(), ["owner", "space", "inside"].map(String::from).to_vec()]
                                        .concat();
                                self.unknown(Some(*field_span), "piece field", field, &known);
                                None
                            }
                        },
                    },
                    Type::Held if field == "charges" => Some((Place::HeldCharges(base_expr), Type::Int)),
                    Type::Held => {
                        self.problem(
                            Some(*field_span),
                            format!("only `charges` of a held item can be assigned, not `{field}`"),
                            None,
                        );
                        None
                    }
                    other => {
                        self.problem(Some(base.span), format!("{} has no fields to assign", other.describe()), None);
                        None
                    }
                }
            }
            _ => {
                self.problem(Some(ast.span), "only a game variable or a field (like `to.owner`) can be assigned", None);
                None
            }
        }
    }

    /// One of an action's `requires`: its condition, read before any choice (so a parameter's
    /// name, `params` listing `param_names`, is refused with where it belongs), and its reason
    /// with each `{…}` compiled as a whole number.
    fn requirement(
        &mut self,
        def: &defs::RequirementDef,
        param_names: &[&str],
        scope: &mut Scope,
    ) -> Option<Requirement> {
        let before = self.problems.len();
        let condition = self.key("condition", |c| c.condition(&def.condition, scope));
        // A parameter's name reads as unknown here; say why instead.
        if condition.is_none()
            && let Some(name) = param_names.iter().find(|name| mentions_name(&def.condition, name))
        {
            self.problems.truncate(before);
            let message = format!(
                "`requires` is checked before any choice is made, so it cannot read the parameter `{name}`: \
                 a condition on the choices belongs in `when`"
            );
            self.key("condition", |c| c.problem(None, message, None));
        }
        let reason = self.key("reason", |c| c.reason_text(&def.reason, scope));
        Some(Requirement { condition: condition?, reason: reason? })
    }

    /// Words with `{expression}` figures in them, each a whole number (`{{` and `}}` are braces).
    fn reason_text(&mut self, text: &str, scope: &mut Scope) -> Option<Vec<ReasonPart>> {
        let mut parts = Vec::new();
        let mut words = String::new();
        let mut rest = text.char_indices().peekable();
        let mut ok = true;
        while let Some((at, ch)) = rest.next() {
            match ch {
                '{' if rest.peek().is_some_and(|&(_, next)| next == '{') => {
                    rest.next();
                    words.push('{');
                }
                '}' if rest.peek().is_some_and(|&(_, next)| next == '}') => {
                    rest.next();
                    words.push('}');
                }
                '{' => {
                    let start = at + 1;
                    let closed = text[start..].find('}').map(|n| start + n);
                    // Another `{` before the `}`: this one was never closed.
                    let Some(end) = closed.filter(|&end| !text[start..end].contains('{')) else {
                        let span = Span { start: at as u32, end: text.len() as u32 };
                        self.problem(Some(span), "a `{` with no `}` to close it (write `{{` for a brace)", None);
                        return None;
                    };
                    if !words.is_empty() {
                        parts.push(ReasonPart::Words(std::mem::take(&mut words)));
                    }
                    let before = self.problems.len();
                    match self.typed(&text[start..end], scope, Some(Type::Int)) {
                        Some((expr, _)) => parts.push(ReasonPart::Figure(expr)),
                        None => ok = false,
                    }
                    // The figure's problems point into the whole reason, not the figure alone.
                    for problem in &mut self.problems[before..] {
                        if let Some(span) = problem.span.as_mut() {
                            span.start += start as u32;
                            span.end += start as u32;
                        }
                    }
                    while rest.peek().is_some_and(|&(i, _)| i <= end) {
                        rest.next();
                    }
                }
                '}' => {
                    let span = Span { start: at as u32, end: at as u32 + 1 };
                    self.problem(Some(span), "a `}` with no `{` before it (write `}}` for a brace)", None);
                    return None;
                }
                _ => words.push(ch),
            }
        }
        if !words.is_empty() {
            parts.push(ReasonPart::Words(words));
        }
        ok.then_some(parts)
    }

    // ----- expressions -----

    fn condition(&mut self, text: &str, scope: &mut Scope) -> Option<Expr> {
        self.typed(text, scope, Some(Type::Bool)).map(|(e, _)| e)
    }

    /// Parses and compiles an expression string, checking its type when one is wanted.
    fn typed(&mut self, text: &str, scope: &mut Scope, want: Option<Type>) -> Option<Typed> {
        let ast = match parse_expression(text) {
            Ok(ast) => ast,
            Err(e) => {
                self.problem(Some(e.span), e.message, None);
                return None;
            }
        };
        let (expr, ty) = match want {
            Some(ty) => self.expect_type(&ast, scope, ty),
            None => self.expr(&ast, scope),
        }?;
        let extent = expr.extent(&|i| self.formula_extent(i));
        self.within_limits(extent, Some(ast.span)).then_some((expr, ty))
    }

    fn expect_type(&mut self, ast: &Ast, scope: &mut Scope, want: Type) -> Option<Typed> {
        self.expect_type_for(ast, scope, want, None)
    }

    /// [`Self::expect_type`] for a value given to something the message names (`role`, such as
    /// "`hits` of `damage`").
    fn expect_type_for(&mut self, ast: &Ast, scope: &mut Scope, want: Type, role: Option<&str>) -> Option<Typed> {
        // A quoted name where a definition id is wanted is resolved in that namespace.
        if let (AstKind::Str(name), Type::Id(kind)) = (&ast.kind, want) {
            return self.resolve_id(kind, name, ast.span).map(|e| (e, want));
        }
        let (expr, ty) = self.expr(ast, scope)?;
        // A hook answers with a number (true is 1, false 0), so it can be a condition as it is.
        if want == Type::Bool && ty == Type::Int && matches!(expr, Expr::Call(Func::Hook(_), _)) {
            return Some((Expr::Compare(CmpOp::Ne, Box::new(expr), Box::new(Expr::Const(Value::Int(0)))), want));
        }
        let fits = ty == want
            || (want == Type::Num && ty == Type::Int)
            || (ty == Type::Nil && matches!(want, Type::Seat | Type::Space | Type::Piece | Type::Held));
        if !fits {
            let message = match role {
                Some(role) => format!("expected {} for {role}, found {}", want.describe(), ty.describe()),
                None => format!("expected {}, found {}", want.describe(), ty.describe()),
            };
            self.problem(Some(ast.span), message, None);
            return None;
        }
        Some((expr, want))
    }

    fn resolve_id(&mut self, kind: IdKind, name: &str, span: Span) -> Option<Expr> {
        let (list, what) = match kind {
            IdKind::Terrain => (&self.names.terrain, "terrain"),
            IdKind::PieceKind => (&self.names.piece_kinds, "piece kind"),
            IdKind::Phase => (&self.names.phases, "phase"),
            IdKind::Side => (&self.names.sides, "side"),
            IdKind::Item => (&self.names.items, "item"),
            IdKind::Card => (&self.names.cards, "card"),
            IdKind::Deck => (&self.names.decks, "deck"),
        };
        match index_of(list, name) {
            Some(i) => Some(Expr::Const(Value::Id(i))),
            None => {
                let list = list.clone();
                self.unknown(Some(span), what, name, &list);
                None
            }
        }
    }

    fn expr(&mut self, ast: &Ast, scope: &mut Scope) -> Option<Typed> {
        let span = Some(ast.span);
        match &ast.kind {
            AstKind::Int(n) => Some((Expr::Const(Value::Int(*n)), Type::Int)),
            AstKind::Float(x) => Some((Expr::Const(Value::Num(*x)), Type::Num)),
            AstKind::Bool(b) => Some((Expr::Const(Value::Bool(*b)), Type::Bool)),
            AstKind::Nil => Some((Expr::Const(Value::Nil), Type::Nil)),
            AstKind::Str(_) => {
                self.problem(
                    span,
                    "a quoted name is only allowed where it names something, e.g. `space.terrain == \"water\"`",
                    None,
                );
                None
            }
            AstKind::Name(name) => self.name(name, ast.span, scope),
            AstKind::Field(base, field, field_span) => self.field(base, field, *field_span, scope),
            AstKind::Call(name, name_span, args) => self.call(name, *name_span, args, ast.span, scope),
            AstKind::Unary(UnaryOp::Neg, operand) => {
                let (e, ty) = self.expr(operand, scope)?;
                if !ty.is_numeric() {
                    self.problem(Some(operand.span), format!("cannot negate {}", ty.describe()), None);
                    return None;
                }
                Some((Expr::Unary(UnaryOp::Neg, Box::new(e)), ty))
            }
            AstKind::Unary(UnaryOp::Not, operand) => {
                let (e, _) = self.expect_type(operand, scope, Type::Bool)?;
                Some((Expr::Unary(UnaryOp::Not, Box::new(e)), Type::Bool))
            }
            AstKind::Binary(op, left, right) => self.binary(*op, left, right, scope),
            AstKind::Dice(count, sides) => self.dice(count, sides, DiceMode::Sum, ast.span, scope),
            AstKind::LoopVariable(name, kind, _) => {
                self.problem(
                    span,
                    format!(
                        "`{name} in {kind}` names a loop variable; it goes first in `count_of`, `sum_of`, \
                         `min_of`, `max_of` or `random_of`"
                    ),
                    None,
                );
                None
            }
        }
    }

    fn name(&mut self, name: &str, span: Span, scope: &mut Scope) -> Option<Typed> {
        if let Some((slot, info)) = scope.lookup(name) {
            if info.random && !scope.in_expect {
                self.problem(
                    Some(span),
                    format!("the roll `{name}` is not made before the action; use `expect({name})` for its mean or `chance` for the odds of success"),
                    None,
                );
                return None;
            }
            return Some((Expr::Slot(slot), info.ty));
        }
        let read = match name {
            "turn" => Some((Read::Turn, Type::Int)),
            "round" => Some((Read::Round, Type::Int)),
            "current" => Some((Read::CurrentSeat, Type::Seat)),
            "phase" => Some((Read::Phase, Type::Id(IdKind::Phase))),
            "match" => Some((Read::Match, Type::Int)),
            _ => None,
        };
        if let Some((read, ty)) = read {
            return Some((Expr::Read(read), ty));
        }
        if name == "chance" {
            if scope.in_expect {
                self.problem(Some(span), NESTED_ODDS, None);
                return None;
            }
            if scope.allow.odds && !scope.has_success {
                let message = "`chance` alone is the probability of the action's `success`, and this action has \
                     none: give the condition, `chance(hits > 3)`, or add a `success`";
                self.problem(Some(span), message, None);
                return None;
            }
            if !scope.allow.odds {
                let message =
                    refusal(scope, "`chance`", "`chance` is only available in an action's `preview` and `ai.score`");
                self.problem(Some(span), message, None);
                return None;
            }
            return Some((Expr::Chance, Type::Num));
        }
        if let Some(var) = index_of(&self.names.vars, name) {
            return Some((Expr::Read(Read::Var(var)), Type::Int));
        }
        // A function or a formula written without its parentheses: say how to call it.
        if ["seat_count", "space_count", "active_seats"].contains(&name) {
            let message = format!("`{name}` is a function, called with parentheses");
            self.problem(Some(span), message, Some(format!("{name}()")));
            return None;
        }
        if self.names.formulas.iter().any(|f| f == name) {
            let message = format!("`{name}` is a formula of `[formulas]`, called with parentheses: `{name}(…)`");
            self.problem(Some(span), message, None);
            return None;
        }
        let mut known: Vec<String> = scope.slots[..scope.visible].iter().map(|s| s.name.clone()).collect();
        known.extend(self.names.vars.iter().cloned());
        known.extend(["turn", "round", "match", "current", "phase", "none"].map(String::from));
        if scope.allow.odds {
            known.push("chance".into());
        }
        self.unknown(Some(span), "name", name, &known);
        None
    }

    fn field(&mut self, base: &Ast, field: &str, field_span: Span, scope: &mut Scope) -> Option<Typed> {
        let (expr, ty) = self.field_read(base, field, field_span, scope)?;
        Some((expr.specialise(), ty))
    }

    fn field_read(&mut self, base: &Ast, field: &str, field_span: Span, scope: &mut Scope) -> Option<Typed> {
        let (base_expr, base_ty) = self.expr(base, scope)?;
        let b = Box::new(base_expr);
        let typed = match base_ty {
            Type::Space => match field {
                "owner" => (Expr::Read(Read::SpaceOwner(b)), Type::Seat),
                "terrain" => (Expr::Read(Read::SpaceTerrain(b)), Type::Id(IdKind::Terrain)),
                "home" => (Expr::Read(Read::SpaceHome(b)), Type::Seat),
                "column" => (Expr::Read(Read::SpaceColumn(b)), Type::Int),
                "row" => (Expr::Read(Read::SpaceRow(b)), Type::Int),
                _ => match index_of(&self.names.counters, field) {
                    Some(i) => (Expr::Read(Read::SpaceCounter(b, i)), Type::Int),
                    None => {
                        let known = [self.names.counters.clone(), SPACE_FIELDS.map(String::from).to_vec()].concat();
                        self.unknown(Some(field_span), "space field", field, &known);
                        return None;
                    }
                },
            },
            Type::Seat => match field {
                "number" => (Expr::Read(Read::SeatNumber(b)), Type::Int),
                "side" => (Expr::Read(Read::SeatSide(b)), Type::Id(IdKind::Side)),
                "piece" => (Expr::Read(Read::SeatPiece(b)), Type::Piece),
                _ => match index_of(&self.names.resources, field) {
                    Some(i) => (Expr::Read(Read::SeatResource(b, i)), Type::Int),
                    None => {
                        let known = [self.names.resources.clone(), SEAT_FIELDS.map(String::from).to_vec()].concat();
                        self.unknown(Some(field_span), "seat field", field, &known);
                        return None;
                    }
                },
            },
            Type::Piece => match field {
                "owner" => (Expr::Read(Read::PieceOwner(b)), Type::Seat),
                "space" => (Expr::Read(Read::PieceSpace(b)), Type::Space),
                "inside" => (Expr::Read(Read::PieceInside(b)), Type::Piece),
                "across" => (Expr::Read(Read::PieceAcross(b)), Type::Space),
                "kind" => (Expr::Read(Read::PieceKind(b)), Type::Id(IdKind::PieceKind)),
                _ => match index_of(&self.names.stats, field) {
                    Some(i) => (Expr::Read(Read::PieceStat(b, i)), Type::Int),
                    None => {
                        let known = [self.names.stats.clone(), PIECE_FIELDS.map(String::from).to_vec()].concat();
                        self.unknown(Some(field_span), "piece field", field, &known);
                        return None;
                    }
                },
            },
            Type::Held => match field {
                "kind" => (Expr::Read(Read::HeldKind(b)), Type::Id(IdKind::Item)),
                "charges" => (Expr::Read(Read::HeldCharges(b)), Type::Int),
                "holder" => (Expr::Read(Read::HeldHolder(b)), Type::Piece),
                _ => {
                    let known = ["kind", "charges", "holder"].map(String::from);
                    let item_field = self.item_field(field, field_span, &known)?;
                    (Expr::Read(Read::HeldField(b, item_field)), Type::Int)
                }
            },
            Type::Id(IdKind::Item) => {
                let item_field = self.item_field(field, field_span, &[])?;
                (Expr::Read(Read::ItemField(b, item_field)), Type::Int)
            }
            Type::Id(IdKind::Card) => match field {
                "deck" => (Expr::Read(Read::CardDeck(b)), Type::Id(IdKind::Deck)),
                _ => match index_of(&self.names.card_stats, field) {
                    Some(i) => (Expr::Read(Read::CardStat(b, i)), Type::Int),
                    None => {
                        let known = [self.names.card_stats.clone(), vec!["deck".into()]].concat();
                        self.unknown(Some(field_span), "card field", field, &known);
                        return None;
                    }
                },
            },
            Type::Id(IdKind::Terrain) => match index_of(&self.names.terrain_stats, field) {
                Some(i) => (Expr::Read(Read::TerrainStat(b, i)), Type::Int),
                None => {
                    let known = self.names.terrain_stats.clone();
                    self.unknown(Some(field_span), "terrain stat", field, &known);
                    return None;
                }
            },
            other => {
                self.problem(Some(base.span), format!("{} has no fields (found `.{field}`)", other.describe()), None);
                return None;
            }
        };
        Some(typed)
    }

    /// A number every item kind has: `price`, the `charges` a new one comes with, or a stat.
    fn item_field(&mut self, field: &str, field_span: Span, also: &[String]) -> Option<ItemField> {
        match field {
            "price" => Some(ItemField::Price),
            "charges" => Some(ItemField::Charges),
            _ => match index_of(&self.names.item_stats, field) {
                Some(i) => Some(ItemField::Stat(i)),
                None => {
                    let known =
                        [self.names.item_stats.clone(), vec!["price".into(), "charges".into()], also.to_vec()].concat();
                    self.unknown(Some(field_span), "item field", field, &known);
                    None
                }
            },
        }
    }

    fn binary(&mut self, op: BinaryOp, left: &Ast, right: &Ast, scope: &mut Scope) -> Option<Typed> {
        match op {
            BinaryOp::And | BinaryOp::Or => {
                let (a, _) = self.expect_type(left, scope, Type::Bool)?;
                let (b, _) = self.expect_type(right, scope, Type::Bool)?;
                let e = if op == BinaryOp::And {
                    Expr::And(Box::new(a), Box::new(b))
                } else {
                    Expr::Or(Box::new(a), Box::new(b))
                };
                Some((e, Type::Bool))
            }
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => {
                let (a, ta) = self.expr(left, scope)?;
                let (b, tb) = self.expr(right, scope)?;
                for (ty, side) in [(ta, left), (tb, right)] {
                    if !ty.is_numeric() {
                        self.problem(
                            Some(side.span),
                            format!("`{}` needs numbers, found {}", op.symbol(), ty.describe()),
                            None,
                        );
                        return None;
                    }
                }
                let float = ta == Type::Num || tb == Type::Num;
                let arith = match op {
                    BinaryOp::Add => ArithOp::Add,
                    BinaryOp::Sub => ArithOp::Sub,
                    BinaryOp::Mul => ArithOp::Mul,
                    BinaryOp::Div => ArithOp::Div,
                    _ => ArithOp::Rem,
                };
                if matches!(arith, ArithOp::Div | ArithOp::Rem)
                    && !float
                    && !matches!(b, Expr::Const(Value::Int(n)) if n != 0)
                {
                    scope.fallible = true;
                }
                let ty = if float { Type::Num } else { Type::Int };
                Some((Expr::Arith(arith, float, Box::new(a), Box::new(b)), ty))
            }
            BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => {
                let cmp = match op {
                    BinaryOp::Eq => CmpOp::Eq,
                    BinaryOp::Ne => CmpOp::Ne,
                    BinaryOp::Lt => CmpOp::Lt,
                    BinaryOp::Le => CmpOp::Le,
                    BinaryOp::Gt => CmpOp::Gt,
                    _ => CmpOp::Ge,
                };
                // A quoted name compared with a definition id is resolved against that id's kind.
                let (a, ta, b, tb) = match (&left.kind, &right.kind) {
                    (AstKind::Str(_), AstKind::Str(_)) => {
                        self.problem(
                            Some(left.span),
                            "comparing two quoted names is always the same; compare a field with a name",
                            None,
                        );
                        return None;
                    }
                    (AstKind::Str(_), _) => {
                        let (b, tb) = self.expr(right, scope)?;
                        let (a, ta) = self.expect_type(left, scope, tb)?;
                        (a, ta, b, tb)
                    }
                    (_, AstKind::Str(_)) => {
                        let (a, ta) = self.expr(left, scope)?;
                        if !matches!(ta, Type::Id(_)) {
                            self.problem(
                                Some(right.span),
                                format!("cannot compare {} with a quoted name", ta.describe()),
                                None,
                            );
                            return None;
                        }
                        let (b, tb) = self.expect_type(right, scope, ta)?;
                        (a, ta, b, tb)
                    }
                    _ => {
                        let (a, ta) = self.expr(left, scope)?;
                        let (b, tb) = self.expr(right, scope)?;
                        (a, ta, b, tb)
                    }
                };
                let ordered = !matches!(cmp, CmpOp::Eq | CmpOp::Ne);
                let comparable = if ordered {
                    ta.is_numeric() && tb.is_numeric()
                } else {
                    ta == tb || (ta.is_numeric() && tb.is_numeric()) || ta == Type::Nil || tb == Type::Nil
                };
                if !comparable {
                    self.problem(
                        Some(left.span.to(right.span)),
                        format!("cannot compare {} with {} using `{}`", ta.describe(), tb.describe(), op.symbol()),
                        None,
                    );
                    return None;
                }
                if let (Expr::Slot(x), Expr::Slot(y), Type::Int, Type::Int) = (&a, &b, ta, tb) {
                    return Some((Expr::SlotCmp { a: *x, b: *y, op: cmp }, Type::Bool));
                }
                let specialised = Expr::Compare(cmp, Box::new(a), Box::new(b)).specialise();
                if let (Expr::Compare(op, x, y), Type::Int, Type::Int) = (&specialised, ta, tb)
                    && let (Some(x), Some(y)) = (Leaf::of(x), Leaf::of(y))
                {
                    return Some((Expr::LeafCmp(Box::new((x, y)), *op), Type::Bool));
                }
                Some((specialised, Type::Bool))
            }
        }
    }

    fn dice(&mut self, count: &Ast, sides: &Ast, mode: DiceMode, span: Span, scope: &mut Scope) -> Option<Typed> {
        if !scope.allow.dice && !scope.in_expect {
            let message = refusal(
                scope,
                "dice",
                "dice can only be rolled in an action's `rolls` and in effects (previews use `expect(...)`)",
            );
            self.problem(Some(span), message, None);
            return None;
        }
        let (count, _) = self.expect_type(count, scope, Type::Int)?;
        let (sides, _) = self.expect_type(sides, scope, Type::Int)?;
        if let Expr::Const(Value::Int(n)) = sides
            && !(1..=1000).contains(&n)
        {
            self.problem(Some(span), format!("a die has 1 to 1000 sides, not {n}"), None);
            return None;
        }
        Some((Expr::Dice { count: Box::new(count), sides: Box::new(sides), mode }, Type::Int))
    }

    fn call(&mut self, name: &str, name_span: Span, args: &[Ast], span: Span, scope: &mut Scope) -> Option<Typed> {
        let arity = |c: &mut Self, n: usize| -> bool {
            if args.len() == n {
                true
            } else {
                c.problem(
                    Some(name_span),
                    format!("`{name}` takes {n} argument{}, not {}", plural(n), args.len()),
                    None,
                );
                false
            }
        };
        match name {
            "min" | "max" => {
                if args.len() < 2 {
                    self.problem(Some(name_span), format!("`{name}` takes at least 2 arguments"), None);
                    return None;
                }
                let mut compiled = Vec::new();
                let mut float = false;
                for arg in args {
                    let (e, ty) = self.expr(arg, scope)?;
                    if !ty.is_numeric() {
                        self.problem(Some(arg.span), format!("`{name}` needs numbers, found {}", ty.describe()), None);
                        return None;
                    }
                    float |= ty == Type::Num;
                    compiled.push(e);
                }
                let func = if name == "min" { Func::Min } else { Func::Max };
                Some((Expr::Call(func, compiled), if float { Type::Num } else { Type::Int }))
            }
            "abs" => {
                if !arity(self, 1) {
                    return None;
                }
                let (e, ty) = self.expr(&args[0], scope)?;
                if !ty.is_numeric() {
                    self.problem(Some(args[0].span), "`abs` needs a number", None);
                    return None;
                }
                Some((Expr::Call(Func::Abs, vec![e]), ty))
            }
            "floor" | "round" | "ceil" => {
                if !arity(self, 1) {
                    return None;
                }
                let (e, ty) = self.expr(&args[0], scope)?;
                if !ty.is_numeric() {
                    self.problem(Some(args[0].span), format!("`{name}` needs a number"), None);
                    return None;
                }
                let rounding = match name {
                    "floor" => Rounding::Down,
                    "round" => Rounding::Nearest,
                    _ => Rounding::Up,
                };
                Some((Expr::Call(Func::Round(rounding), vec![e]), Type::Int))
            }
            "clamp" => {
                if !arity(self, 3) {
                    return None;
                }
                // Like `min` and `max`: decimals in, a decimal out.
                let mut compiled = Vec::new();
                let mut float = false;
                for arg in args {
                    let (e, ty) = self.expr(arg, scope)?;
                    if !ty.is_numeric() {
                        self.problem(Some(arg.span), format!("`clamp` needs numbers, found {}", ty.describe()), None);
                        return None;
                    }
                    float |= ty == Type::Num;
                    compiled.push(e);
                }
                Some((Expr::Call(Func::Clamp, compiled), if float { Type::Num } else { Type::Int }))
            }
            "if" => {
                if !arity(self, 3) {
                    return None;
                }
                let (c, _) = self.expect_type(&args[0], scope, Type::Bool)?;
                let (a, ta) = self.expr(&args[1], scope)?;
                let (b, tb) = self.expr(&args[2], scope)?;
                let ty = if ta == tb {
                    ta
                } else if ta.is_numeric() && tb.is_numeric() {
                    Type::Num
                } else if ta == Type::Nil {
                    tb
                } else if tb == Type::Nil {
                    ta
                } else {
                    self.problem(
                        Some(span),
                        format!("both branches must have the same type, found {} and {}", ta.describe(), tb.describe()),
                        None,
                    );
                    return None;
                };
                Some((Expr::If(Box::new(c), Box::new(a), Box::new(b)), ty))
            }
            "dice" | "highest" | "lowest" => {
                if !arity(self, 2) {
                    return None;
                }
                let mode = match name {
                    "dice" => DiceMode::Sum,
                    "highest" => DiceMode::Highest,
                    _ => DiceMode::Lowest,
                };
                self.dice(&args[0], &args[1], mode, span, scope)
            }
            "successes" => {
                if !arity(self, 3) {
                    return None;
                }
                let threshold = match args[2].kind {
                    AstKind::Int(t) => t,
                    _ => {
                        self.problem(
                            Some(args[2].span),
                            "the threshold of `successes` is a whole number written out",
                            None,
                        );
                        return None;
                    }
                };
                self.dice(&args[0], &args[1], DiceMode::AtLeast(threshold), span, scope)
            }
            "owned" | "largest_group" => {
                if !arity(self, 1) {
                    return None;
                }
                let (e, _) = self.expect_type(&args[0], scope, Type::Seat)?;
                let func = if name == "owned" { Func::Owned } else { Func::LargestGroup };
                Some((Expr::Call(func, vec![e]).specialise(), Type::Int))
            }
            "walk_distance" if args.len() == 3 => {
                let (a, _) = self.expect_type(&args[0], scope, Type::Space)?;
                let (b, _) = self.expect_type(&args[1], scope, Type::Space)?;
                let (walker, _) = self.expect_type(&args[2], scope, Type::Piece)?;
                self.walks_with_walker = true;
                Some((Expr::Call(Func::WalkDistance, vec![a, b, walker]), Type::Int))
            }
            "adjacent" | "distance" | "walk_distance" => {
                if !arity(self, 2) {
                    return None;
                }
                let (a, _) = self.expect_type(&args[0], scope, Type::Space)?;
                let (b, _) = self.expect_type(&args[1], scope, Type::Space)?;
                let (func, ty) = match name {
                    "adjacent" => (Func::Adjacent, Type::Bool),
                    "distance" => (Func::Distance, Type::Int),
                    _ => (Func::WalkDistance, Type::Int),
                };
                Some((Expr::Call(func, vec![a, b]), ty))
            }
            "line_of_sight" => {
                if !arity(self, 2) {
                    return None;
                }
                if let Some(kind) = self.names.board_without_cells {
                    self.problem(
                        Some(name_span),
                        format!(
                            "`line_of_sight` needs a board with coordinates: a square or offset grid or a territory \
                             map, whose spaces are cells a line can cross; this board is a {kind} board"
                        ),
                        None,
                    );
                    return None;
                }
                let (a, _) = self.expect_type(&args[0], scope, Type::Space)?;
                let (b, _) = self.expect_type(&args[1], scope, Type::Space)?;
                Some((Expr::Call(Func::LineOfSight, vec![a, b]), Type::Bool))
            }
            "beyond" => {
                if !arity(self, 3) {
                    return None;
                }
                if let Some(kind) = self.names.board_not_square {
                    self.problem(
                        Some(name_span),
                        format!(
                            "`beyond` needs a square grid, where a step straight on is defined; this board is a {kind} board"
                        ),
                        None,
                    );
                    return None;
                }
                let (from, _) = self.expect_type(&args[0], scope, Type::Space)?;
                let (to, _) = self.expect_type(&args[1], scope, Type::Space)?;
                let (onto, _) = self.expect_type(&args[2], scope, Type::Space)?;
                Some((Expr::Call(Func::Beyond, vec![from, to, onto]), Type::Bool))
            }
            "holding" => {
                if !arity(self, 2) {
                    return None;
                }
                let (piece, _) = self.expect_type(&args[0], scope, Type::Piece)?;
                let AstKind::Str(slot) = &args[1].kind else {
                    self.problem(Some(args[1].span), "the second argument of `holding` is a quoted item slot", None);
                    return None;
                };
                let Some(index) = index_of(&self.names.item_slots, slot) else {
                    self.unknown(Some(args[1].span), "item slot", slot, &self.names.item_slots.clone());
                    return None;
                };
                Some((Expr::Call(Func::Holding(index), vec![piece]), Type::Held))
            }
            "pieces_at" => {
                if !arity(self, 1) {
                    return None;
                }
                let (a, _) = self.expect_type(&args[0], scope, Type::Space)?;
                Some((Expr::Call(Func::PiecesAt, vec![a]), Type::Int))
            }
            "allies" => {
                if !arity(self, 2) {
                    return None;
                }
                let (a, _) = self.expect_type(&args[0], scope, Type::Seat)?;
                let (b, _) = self.expect_type(&args[1], scope, Type::Seat)?;
                Some((Expr::Call(Func::Allies, vec![a, b]), Type::Bool))
            }
            "hand_size" => {
                if !arity(self, 1) {
                    return None;
                }
                let (seat, _) = self.expect_type(&args[0], scope, Type::Seat)?;
                Some((Expr::Call(Func::HandSize, vec![seat]), Type::Int))
            }
            "in_hand" => {
                if !arity(self, 2) {
                    return None;
                }
                let (seat, _) = self.expect_type(&args[0], scope, Type::Seat)?;
                // A quoted card id, or a card value (a `card` parameter).
                let (card, _) = self.expect_type(&args[1], scope, Type::Id(IdKind::Card))?;
                Some((Expr::Call(Func::InHand, vec![seat, card]), Type::Int))
            }
            "attached" => {
                if !arity(self, 2) {
                    return None;
                }
                let (piece, _) = self.expect_type(&args[0], scope, Type::Piece)?;
                // A quoted card id, or a card value (a `card` parameter).
                let (card, _) = self.expect_type(&args[1], scope, Type::Id(IdKind::Card))?;
                Some((Expr::Call(Func::Attached, vec![piece, card]), Type::Int))
            }
            "used" => {
                if !arity(self, 1) {
                    return None;
                }
                let slot = self.budget_slot_argument(name, name_span, args)?;
                Some((Expr::Call(Func::Used(slot), vec![]), Type::Int))
            }
            "held_count" => {
                // `held_count(piece)` counts every item; `held_count(piece, item)` one kind.
                if args.len() != 2 && !arity(self, 1) {
                    return None;
                }
                let (piece, _) = self.expect_type(&args[0], scope, Type::Piece)?;
                let mut compiled = vec![piece];
                if let Some(item) = args.get(1) {
                    compiled.push(self.expect_type(item, scope, Type::Id(IdKind::Item))?.0);
                }
                Some((Expr::Call(Func::HeldCount, compiled), Type::Int))
            }
            "can_hold" => {
                if !arity(self, 2) {
                    return None;
                }
                let (piece, _) = self.expect_type(&args[0], scope, Type::Piece)?;
                let (item, _) = self.expect_type(&args[1], scope, Type::Id(IdKind::Item))?;
                Some((Expr::Call(Func::CanHold, vec![piece, item]), Type::Bool))
            }
            "walk_spent" => {
                // `walk_spent(to)`: what the walk to the chosen space spends, found before the
                // effects run (so moving pieces first does not change it).
                if !arity(self, 1) {
                    return None;
                }
                let AstKind::Name(param) = &args[0].kind else {
                    self.problem(
                        Some(args[0].span),
                        "`walk_spent` takes the name of a `reachable_from` parameter",
                        None,
                    );
                    return None;
                };
                if !scope.allow.dice {
                    let message = refusal(scope, "`walk_spent`", "`walk_spent` is known only in effects");
                    self.problem(Some(name_span), message, None);
                    return None;
                }
                let Some(walk) = scope.walks.iter().find(|w| &w.name == param).cloned() else {
                    let walks: Vec<String> = scope.walks.iter().map(|w| w.name.clone()).collect();
                    let message = if walks.is_empty() {
                        "`walk_spent` is about a parameter filled by a walk (`reachable_from`), and this action has none"
                            .to_string()
                    } else {
                        format!("`{param}` is not a parameter filled by a walk (`reachable_from`)")
                    };
                    self.problem(Some(args[0].span), message, did_you_mean(param, walks.iter().map(String::as_str)));
                    return None;
                };
                if !self.walks_spent_read.contains(&walk.slot) {
                    self.walks_spent_read.push(walk.slot);
                }
                Some((Expr::Slot(walk.slot), Type::Int))
            }
            "touches" => {
                if !arity(self, 2) {
                    return None;
                }
                let (piece, _) = self.expect_type(&args[0], scope, Type::Piece)?;
                let (space, _) = self.expect_type(&args[1], scope, Type::Space)?;
                Some((Expr::Call(Func::Touches, vec![piece, space]), Type::Bool))
            }
            "piece_between" => {
                if !arity(self, 2) {
                    return None;
                }
                let (a, _) = self.expect_type(&args[0], scope, Type::Space)?;
                let (b, _) = self.expect_type(&args[1], scope, Type::Space)?;
                Some((Expr::Call(Func::PieceBetween, vec![a, b]), Type::Piece))
            }
            "inside_count" => {
                // `inside_count(holder)` counts every piece inside; `inside_count(holder, kind)` one kind.
                if args.len() != 2 && !arity(self, 1) {
                    return None;
                }
                let (holder, _) = self.expect_type(&args[0], scope, Type::Piece)?;
                let mut compiled = vec![holder];
                if let Some(kind) = args.get(1) {
                    compiled.push(self.expect_type(kind, scope, Type::Id(IdKind::PieceKind))?.0);
                }
                Some((Expr::Call(Func::InsideCount, compiled), Type::Int))
            }
            "can_enter" => {
                if !arity(self, 2) {
                    return None;
                }
                let (piece, _) = self.expect_type(&args[0], scope, Type::Piece)?;
                let (holder, _) = self.expect_type(&args[1], scope, Type::Piece)?;
                Some((Expr::Call(Func::CanEnter, vec![piece, holder]), Type::Bool))
            }
            "attached_count" => {
                if !arity(self, 1) {
                    return None;
                }
                let (piece, _) = self.expect_type(&args[0], scope, Type::Piece)?;
                Some((Expr::Call(Func::AttachedCount, vec![piece]), Type::Int))
            }
            "space" => {
                if !arity(self, 1) {
                    return None;
                }
                let AstKind::Str(label) = &args[0].kind else {
                    self.problem(Some(args[0].span), "`space` takes a quoted space label, e.g. space(\"C07\")", None);
                    return None;
                };
                let names = self.names;
                if let Some(labels) = &names.space_labels
                    && !labels.contains(label)
                {
                    self.unknown(Some(args[0].span), "space", label, labels);
                    return None;
                }
                let (index, _) = self.strings.insert_full(label.clone(), ());
                Some((Expr::Call(Func::SpaceByLabel(index as u16), vec![]), Type::Space))
            }
            "seat" => {
                if !arity(self, 1) {
                    return None;
                }
                let (n, _) = self.expect_type(&args[0], scope, Type::Int)?;
                Some((Expr::Call(Func::SeatByNumber, vec![n]), Type::Seat))
            }
            "active_seats" | "seat_count" | "space_count" => {
                if !arity(self, 0) {
                    return None;
                }
                let func = match name {
                    "active_seats" => Func::ActiveSeats,
                    "seat_count" => Func::SeatCount,
                    _ => Func::SpaceCount,
                };
                Some((Expr::Call(func, vec![]).specialise(), Type::Int))
            }
            "random" => {
                if !arity(self, 2) {
                    return None;
                }
                if !scope.allow.dice {
                    let message = refusal(
                        scope,
                        "`random`",
                        "`random` draws from the game's stream and is only allowed in rolls and effects",
                    );
                    self.problem(Some(name_span), message, None);
                    return None;
                }
                let (a, _) = self.expect_type(&args[0], scope, Type::Int)?;
                let (b, _) = self.expect_type(&args[1], scope, Type::Int)?;
                Some((Expr::Call(Func::Random, vec![a, b]), Type::Int))
            }
            "place" | "place_between" => {
                // `let p = place("pawn", me, to)`: the statement, as a value (the new piece).
                let between = name == "place_between";
                if !arity(self, if between { 4 } else { 3 }) {
                    return None;
                }
                if !scope.allow.dice {
                    let message = refusal(scope, "`place`", "`place` changes the game and is only allowed in effects");
                    self.problem(Some(name_span), message, None);
                    return None;
                }
                let AstKind::Str(kind) = &args[0].kind else {
                    self.problem(Some(args[0].span), "the first argument of `place` is a quoted piece kind", None);
                    return None;
                };
                let Some(index) = index_of(&self.names.piece_kinds, kind) else {
                    self.unknown(Some(args[0].span), "piece kind", kind, &self.names.piece_kinds.clone());
                    return None;
                };
                if !self.placed_where_it_stands(name, kind, args[0].span) {
                    return None;
                }
                let mut compiled = vec![self.expect_type(&args[1], scope, Type::Seat)?.0];
                for space in &args[2..] {
                    compiled.push(self.expect_type(space, scope, Type::Space)?.0);
                }
                Some((Expr::Call(Func::PlacePiece(index), compiled), Type::Piece))
            }
            "distribute" => {
                if !arity(self, 4) {
                    return None;
                }
                if !scope.allow.dice {
                    let message =
                        refusal(scope, "`distribute`", "`distribute` changes the game and is only allowed in effects");
                    self.problem(Some(name_span), message, None);
                    return None;
                }
                let AstKind::Str(counter) = &args[0].kind else {
                    self.problem(
                        Some(args[0].span),
                        "the first argument of `distribute` is a quoted space counter name",
                        None,
                    );
                    return None;
                };
                let Some(index) = index_of(&self.names.counters, counter) else {
                    self.unknown(Some(args[0].span), "space counter", counter, &self.names.counters.clone());
                    return None;
                };
                let (amount, _) = self.expect_type(&args[1], scope, Type::Int)?;
                let (seat, _) = self.expect_type(&args[2], scope, Type::Seat)?;
                let (cap, _) = self.expect_type(&args[3], scope, Type::Int)?;
                Some((Expr::Call(Func::Distribute(index), vec![amount, seat, cap]), Type::Int))
            }
            "expect" => {
                if !arity(self, 1) {
                    return None;
                }
                if !scope.allow.odds {
                    let message = refusal(
                        scope,
                        "`expect`",
                        "`expect` is only available in an action's `preview` and `ai.score`",
                    );
                    self.problem(Some(name_span), message, None);
                    return None;
                }
                if scope.in_expect {
                    self.problem(Some(name_span), NESTED_ODDS, None);
                    return None;
                }
                let was = scope.in_expect;
                scope.in_expect = true;
                let inner = self.expr(&args[0], scope);
                scope.in_expect = was;
                let (e, ty) = inner?;
                if !ty.is_numeric() && ty != Type::Bool {
                    self.problem(Some(args[0].span), "`expect` needs a number", None);
                    return None;
                }
                Some((Expr::Expect(Box::new(e)), Type::Num))
            }
            "chance" => {
                // `chance(condition)`: the mean of a yes/no is its probability.
                if !arity(self, 1) {
                    return None;
                }
                if !scope.allow.odds {
                    let message = refusal(
                        scope,
                        "`chance`",
                        "`chance` is only available in an action's `preview` and `ai.score`",
                    );
                    self.problem(Some(name_span), message, None);
                    return None;
                }
                if scope.in_expect {
                    self.problem(Some(name_span), NESTED_ODDS, None);
                    return None;
                }
                let was = scope.in_expect;
                scope.in_expect = true;
                let condition = self.expect_type(&args[0], scope, Type::Bool);
                scope.in_expect = was;
                let (e, _) = condition?;
                Some((Expr::Expect(Box::new(e)), Type::Num))
            }
            "hook" => self.hook_call(name_span, args, scope),
            "secret" => {
                if !arity(self, 1) {
                    return None;
                }
                if !scope.allow.dice {
                    self.problem(
                        Some(name_span),
                        "`secret` rolls dice, and dice can only be rolled in an action's `rolls` and in effects",
                        None,
                    );
                    return None;
                }
                let (e, ty) = self.expr(&args[0], scope)?;
                if !e.rolls_dice() {
                    self.problem(
                        Some(args[0].span),
                        "`secret` keeps dice from the other seats, and this rolls none",
                        None,
                    );
                    return None;
                }
                Some((Expr::Call(Func::Secret, vec![e]), ty))
            }
            "tagged" => {
                if !arity(self, 2) {
                    return None;
                }
                let (thing, ty) = self.expr(&args[0], scope)?;
                let of = match ty {
                    Type::Space => TagOf::Space,
                    Type::Piece => TagOf::Piece,
                    Type::Held => TagOf::Held,
                    Type::Id(IdKind::Terrain) => TagOf::Terrain,
                    Type::Id(IdKind::PieceKind) => TagOf::PieceKind,
                    Type::Id(IdKind::Item) => TagOf::Item,
                    Type::Id(IdKind::Card) => TagOf::Card,
                    other => {
                        self.problem(
                            Some(args[0].span),
                            format!(
                                "`tagged` tells the tags of a space, terrain, piece, piece kind, held item, item or card, not of {}",
                                other.describe()
                            ),
                            None,
                        );
                        return None;
                    }
                };
                let AstKind::Str(tag) = &args[1].kind else {
                    self.problem(Some(args[1].span), "the second argument of `tagged` is a quoted tag", None);
                    return None;
                };
                let Some(index) = index_of(&self.names.tags, tag) else {
                    self.unknown(Some(args[1].span), "tag", tag, &self.names.tags.clone());
                    return None;
                };
                Some((Expr::Call(Func::Tagged(index, of), vec![thing]), Type::Bool))
            }
            "count_of" | "sum_of" | "min_of" | "max_of" | "random_of" => self.aggregate(name, name_span, args, scope),
            "end_turn" | "leave" | "eliminate" | "win" | "draw" | "deal_spaces" | "remove" | "shuffle"
            | "draw_cards" | "discard" | "log" | "give" | "offer" | "reveal_value" | "reveal_hand" | "reveal_card"
            | "give_card" | "return_card" | "attach" | "detach" | "refund" => {
                self.problem(
                    Some(name_span),
                    format!("`{name}` is a statement; it cannot be part of an expression"),
                    None,
                );
                None
            }
            _ => {
                if let Some(index) = index_of(&self.names.formulas, name) {
                    return self.formula_call(index as usize, name, name_span, args, scope);
                }
                if self.names.effects.iter().any(|effect| effect == name) {
                    let message = format!(
                        "`{name}` is an effect block: it runs as a statement of its own (a line `{name}(…)` of an \
                         effect), not as part of an expression"
                    );
                    self.problem(Some(name_span), message, None);
                    return None;
                }
                if self.broken.contains(name) {
                    // Its definition could not be read; that is reported where it is written.
                    return None;
                }
                let mut known: Vec<&str> = language::callable_names().collect();
                for named in self.names.formulas.iter().chain(&self.names.effects) {
                    known.push(named);
                }
                let suggestion = did_you_mean(name, known);
                self.problem(Some(name_span), format!("unknown function `{name}`"), suggestion);
                None
            }
        }
    }

    /// `count_of(piece, cond)`, `sum_of(piece, value, cond)`, `min_of`, `max_of` and
    /// `random_of(space, cond)`: the first argument names what is looped over and is the loop
    /// variable inside the others; the condition may be left out.
    fn aggregate(&mut self, name: &str, name_span: Span, args: &[Ast], scope: &mut Scope) -> Option<Typed> {
        let op = match name {
            "count_of" => AggregateOp::Count,
            "sum_of" => AggregateOp::Sum,
            "min_of" => AggregateOp::Min,
            "max_of" => AggregateOp::Max,
            _ => AggregateOp::Random,
        };
        let takes_value = matches!(op, AggregateOp::Sum | AggregateOp::Min | AggregateOp::Max);
        let usage = if takes_value {
            format!(
                "{name}(piece, value, condition), looping over `seat`, `space` or `piece` \
                 (or `name in piece` to name the loop variable)"
            )
        } else {
            format!(
                "{name}(piece, condition), looping over `seat`, `space` or `piece` \
                 (or `name in piece` to name the loop variable)"
            )
        };
        let wanted = 1 + usize::from(takes_value);
        if args.len() != wanted && args.len() != wanted + 1 {
            self.problem(Some(name_span), format!("`{name}` is written {usage}"), None);
            return None;
        }
        // `space` loops with the variable `space`; `near in space` names it `near`.
        let (var, kind_word, kind_span) = match &args[0].kind {
            AstKind::Name(n) => (n.as_str(), n.as_str(), args[0].span),
            AstKind::LoopVariable(var, kind, kind_span) => (var.as_str(), kind.as_str(), *kind_span),
            _ => {
                self.problem(Some(args[0].span), format!("`{name}` is written {usage}"), None);
                return None;
            }
        };
        let (kind, ty) = match kind_word {
            "seat" => (LoopKind::Seat, Type::Seat),
            "space" => (LoopKind::Space, Type::Space),
            "piece" => (LoopKind::Piece, Type::Piece),
            _ => {
                self.problem(Some(kind_span), format!("`{name}` is written {usage}"), None);
                return None;
            }
        };
        if var != kind_word && (is_reserved(var) || scope.lookup(var).is_some()) {
            self.problem(Some(args[0].span), format!("`{var}` is already a name here; choose another"), None);
            return None;
        }
        if op == AggregateOp::Random && !scope.allow.dice {
            let message = refusal(
                scope,
                "`random_of`",
                "`random_of` draws from the game's stream and is only allowed in rolls and effects",
            );
            self.problem(Some(name_span), message, None);
            return None;
        }
        let visible = scope.visible;
        let slot = scope.push(var, ty, true);
        let compiled = (|| {
            let value = if takes_value {
                let (e, t) = self.expr(&args[1], scope)?;
                if !t.is_numeric() {
                    self.problem(Some(args[1].span), format!("`{name}` needs a number, found {}", t.describe()), None);
                    return None;
                }
                Some((e, t))
            } else {
                None
            };
            let condition = match args.get(wanted) {
                Some(cond) => Some(self.expect_type(cond, scope, Type::Bool)?.0),
                None => None,
            };
            Some((value, condition))
        })();
        // The loop variable's slot stays part of the frame; only its name goes out of scope.
        scope.visible = visible;
        let (value, condition) = compiled?;
        let ty = match (op, &value) {
            (AggregateOp::Count, _) => Type::Int,
            (AggregateOp::Random, _) => ty,
            (_, Some((_, t))) => *t,
            (_, None) => Type::Int,
        };
        let aggregate = Aggregate { op, kind, slot, value: value.map(|(e, _)| e), condition };
        Some((Expr::Aggregate(Box::new(aggregate)), ty))
    }

    fn hook_call(&mut self, name_span: Span, args: &[Ast], scope: &mut Scope) -> Option<Typed> {
        let Some(first) = args.first() else {
            self.problem(Some(name_span), "`hook` needs the hook function's name, e.g. hook(\"damage\", target)", None);
            return None;
        };
        if let Some(reason) = scope.allow.no_hooks {
            self.problem(Some(name_span), format!("`hook` cannot be called here: {reason}"), None);
            return None;
        }
        let AstKind::Str(function) = &first.kind else {
            self.problem(Some(first.span), "the first argument of `hook` is the function's quoted name", None);
            return None;
        };
        if args.len() > 8 {
            self.problem(Some(name_span), "`hook` passes at most 7 arguments", None);
            return None;
        }
        let (index, _) = self.hook_names.insert_full(function.clone(), ());
        let index = index as u16;
        self.hook_refs.push(HookRef { name: function.clone(), path: self.path.clone(), span: first.span });
        if scope.hook.is_none() {
            scope.hook = Some(HookUse { hook: function.clone(), through: Vec::new() });
        }
        let mut compiled = Vec::new();
        for arg in &args[1..] {
            compiled.push(self.expr(arg, scope)?.0);
        }
        scope.fallible = true;
        Some((Expr::Call(Func::Hook(index), compiled), Type::Int))
    }
}

/// The fields every space has; space counters may not take these names.
const SPACE_FIELDS: [&str; 5] = ["owner", "terrain", "home", "column", "row"];
/// The fields every seat has; resources may not take these names.
const SEAT_FIELDS: [&str; 3] = ["number", "side", "piece"];
/// The fields every piece has; stats may not take these names.
const PIECE_FIELDS: [&str; 5] = ["owner", "space", "inside", "across", "kind"];

fn is_reserved(name: &str) -> bool {
    matches!(
        name,
        "me" | "turn"
            | "round"
            | "match"
            | "current"
            | "phase"
            | "chance"
            | "true"
            | "false"
            | "none"
            | "and"
            | "or"
            | "not"
            | "let"
    ) || language::callable_names().any(|function| function == name)
}

/// The message refusing `what` (dice, a draw, odds) in `scope`: a named formula's reason when
/// the scope is a formula's value, else `otherwise`, which says where it may be used.
fn refusal(scope: &Scope, what: &str, otherwise: &str) -> String {
    match scope.allow.no_dice_because {
        Some(reason) => format!("{what} cannot be used in a formula: {reason}"),
        None => otherwise.to_string(),
    }
}

/// The type of a parameter's values in expressions.
fn param_type(kind: ParamKind) -> Type {
    match kind {
        ParamKind::Space => Type::Space,
        ParamKind::Seat => Type::Seat,
        ParamKind::Piece => Type::Piece,
        ParamKind::Number => Type::Int,
        ParamKind::Item => Type::Id(IdKind::Item),
        ParamKind::Held => Type::Held,
        ParamKind::Card => Type::Id(IdKind::Card),
    }
}

/// Records in `scope` the hook the named formula or effect `name` calls, unless one was met
/// before: the hook its own callers are refused for where hooks cannot run.
fn note_hook(scope: &mut Scope, name: &str, hook: Option<HookUse>) {
    if scope.hook.is_none()
        && let Some(hook) = hook
    {
        let through = std::iter::once(name.to_string()).chain(hook.through).collect();
        scope.hook = Some(HookUse { hook: hook.hook, through });
    }
}

/// Letters, digits and underscores, starting with a letter or an underscore.
fn is_identifier(name: &str) -> bool {
    name.chars().next().is_some_and(|ch| ch.is_ascii_alphabetic() || ch == '_')
        && name.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
}

/// Whether an expression is a frame slot bound to a value that always exists.
fn is_safe(expr: &Expr, scope: &Scope) -> bool {
    match expr {
        Expr::Slot(slot) => scope.slots.get(*slot as usize).is_some_and(|s| s.safe),
        Expr::Read(Read::CurrentSeat) => true,
        _ => false,
    }
}

/// Names read as fields (`space.dice`) need only be valid identifiers; they cannot clash with
/// functions or keywords.
fn check_field_name(c: &mut Compiler, name: &str) {
    let ok = name.chars().next().is_some_and(|ch| ch.is_ascii_alphabetic() || ch == '_')
        && name.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '_');
    if !ok {
        c.problem(
            None,
            format!("`{name}` is not a valid name: use letters, digits and underscores, starting with a letter"),
            None,
        );
    }
}

/// Names used bare in expressions (variables, parameters, rolls, locals) must be identifiers
/// and must not be keywords or function names.
fn check_name(c: &mut Compiler, name: &str) {
    let ok = name.chars().next().is_some_and(|ch| ch.is_ascii_alphabetic() || ch == '_')
        && name.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '_');
    if !ok {
        c.problem(
            None,
            format!("`{name}` is not a valid name: use letters, digits and underscores, starting with a letter"),
            None,
        );
    } else if is_reserved(name) {
        c.problem(None, format!("`{name}` is a reserved word of the rules language"), None);
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn parse_color(text: &str) -> Option<[u8; 3]> {
    let hex = text.strip_prefix('#')?;
    if hex.len() != 6 {
        return None;
    }
    let byte = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
    Some([byte(0)?, byte(2)?, byte(4)?])
}

/// Whether `text` has `name` as a whole word (not inside a longer name).
fn mentions_name(text: &str, name: &str) -> bool {
    let is_name_char = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        !before.is_some_and(is_name_char) && !after.is_some_and(is_name_char)
    })
}
