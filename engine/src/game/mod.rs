//! Running games: the [`Engine`] (one per thread and ruleset) creates games, lists the legal
//! actions of the seat to move, and applies actions, producing events.
//!
//! Architecture invariant: an action that fails leaves the [`GameState`] exactly as it was. An
//! action is checked completely before anything changes; when the rules say an action's effects
//! could still fail at run time (a division, a Lua hook), the state is snapshotted first and
//! restored on failure.

pub mod action;
pub(crate) mod changes;
mod decks;
pub mod eval;
pub mod events;
mod flow;
mod invariants;
mod legal;
pub mod odds;
pub mod record;
pub mod render;
pub mod seating;
pub mod state;
pub mod view;

use std::sync::Arc;

pub use action::{Action, ActionKind, ActionRecord, MAX_PARAMS, NOT_CHOSEN};
pub use events::{Event, Events};
pub use odds::{Figure, Method};
pub use state::{GameState, Outcome, SeatStatus};

use crate::board::{BoardSpec, BuildContext, Scratch};
use crate::lua::HookRuntime;
use crate::rng::GameRng;
use crate::rules::Ruleset;
use crate::rules::ir::Value;

/// An error of the rules at run time (a division by zero, a failing hook), with the rule that
/// raised it.
///
/// One pointer wide, so `Result<Value, RuleError>` stays as small as a value: every node of the
/// evaluator returns one.
///
/// One kind is not the rules' error at all: [`RuleError::is_out_of_time`], a hook stopped by the
/// wall-clock watchdog. A replay on another machine would not meet it, so it must never count as
/// a refused action: whoever gets one stops the whole command or game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.inner.message)]
pub struct RuleError {
    inner: Box<RuleErrorInner>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct RuleErrorInner {
    message: String,
    out_of_time: bool,
}

impl RuleError {
    pub fn new(message: impl Into<String>) -> Self {
        Self { inner: Box::new(RuleErrorInner { message: message.into(), out_of_time: false }) }
    }

    /// A hook stopped by the wall-clock watchdog (`lua::sandbox::WATCHDOG`) while still under its
    /// counted limits: the machine was too slow, or the mod did work the counters cannot see.
    pub fn out_of_time(message: impl Into<String>) -> Self {
        Self { inner: Box::new(RuleErrorInner { message: message.into(), out_of_time: true }) }
    }

    /// Whether this is the watchdog's stop ([`RuleError::out_of_time`]), which depends on the
    /// machine, not on the game: fatal for the command or game, never a refused action.
    pub fn is_out_of_time(&self) -> bool {
        self.inner.out_of_time
    }

    /// What went wrong, with the rule that raised it.
    pub fn message(&self) -> &str {
        &self.inner.message
    }

    /// Prefixes the rule that was running, e.g. `actions.attack.effect`, and where it is written
    /// when the mod was loaded from files: `rules.toml:12:10 actions.attack.effect: …`.
    pub fn context(mut self, rules: &Ruleset, rule: &str) -> Self {
        self.inner.message = match rules.rule_location(rule) {
            Some(location) => format!("{location} {rule}: {}", self.inner.message),
            None => format!("{rule}: {}", self.inner.message),
        };
        self
    }
}

/// Why an action was refused. The game state is unchanged in every case.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    #[error("the game is over")]
    GameOver,
    #[error("it is not seat {0}'s turn")]
    NotYourTurn(u8),
    #[error("`{0}` is not available in this phase")]
    NotInPhase(String),
    #[error("`{action}` was already taken {limit} time(s) this phase")]
    BudgetSpent { action: String, limit: u32 },
    #[error("`{action}`: {reason}")]
    Illegal { action: String, reason: String },
    #[error("this phase cannot be passed while an action is still possible")]
    MustAct,
    #[error("leaving is not allowed in this game")]
    LeavingNotAllowed,
    #[error("no action is waiting for its choices after a roll, so there is nothing to cancel")]
    NothingToCancel,
    #[error("`{0}` was rolled: make its choices or cancel it first")]
    AwaitingChoice(String),
    #[error("seat {seat} must first answer the offer of `{action}` (take it or pass)")]
    AwaitingResponse { seat: u8, action: String },
    #[error("the rules failed: {0}")]
    Rule(#[from] RuleError),
}

impl ActionError {
    /// Whether the action was stopped by the wall-clock watchdog ([`RuleError::is_out_of_time`])
    /// rather than refused: the command or game must stop, since a replay would not stop there.
    pub fn is_out_of_time(&self) -> bool {
        matches!(self, ActionError::Rule(error) if error.is_out_of_time())
    }
}

/// Who sits at each seat and how a game starts.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct GameSetup {
    /// The seed of the game's random stream.
    pub seed: u64,
    /// One entry per seat, in turn order.
    pub seats: Vec<SeatSetup>,
    /// A board to use instead of the mod's own (scenario tests use small fixed boards).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(skip)]
    pub board: Option<BoardSpec>,
    /// The mod's setup options chosen for this game (option id → choice id); the mod must be
    /// loaded with them (`loader::load_mod_with`). Options not named are at their defaults.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub options: crate::options::Choices,
    /// The seat (0 = the first) that moves first, instead of what `[seats] first` gives for the
    /// game's start (later matches still draw theirs with `"random_each_match"`): a rematch
    /// that lets the loser begin, or a scenario test that needs a known first seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_seat: Option<u8>,
}

/// One seat of a game.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct SeatSetup {
    pub name: String,
    /// `human`, or the computer player's level (`random`, `greedy`, …).
    pub controller: String,
    /// The side's id, for mods with sides; by default seats go round the sides in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// The person playing this seat, when one person plays several seats (see
    /// [`seating::by_sides`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
}

impl GameSetup {
    /// `count` seats with default names, all controlled by `controller`.
    pub fn new(rules: &Ruleset, seed: u64, count: usize, controller: &str) -> Self {
        let seats = (0..count)
            .map(|i| SeatSetup {
                name: rules.data.seats.names.get(i).cloned().unwrap_or_else(|| format!("Seat {}", i + 1)),
                controller: controller.to_string(),
                side: None,
                player: None,
            })
            .collect();
        Self { seed, seats, board: None, options: rules.chosen_options.clone(), first_seat: None }
    }
}

/// Flow requests raised by effects and handled once the effect list finishes.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Flow {
    pub end_turn: bool,
}

/// The context effects run in: the state they change and everything they report to.
pub(crate) struct WriteCx<'a> {
    pub rules: &'a Ruleset,
    pub state: &'a mut GameState,
    pub events: &'a mut Events,
    pub hooks: Option<&'a mut HookRuntime>,
    pub scratch: &'a mut Scratch,
    pub faces: Vec<u32>,
    pub space_buffer: Vec<u32>,
    /// Frames for programs and triggers, reused.
    pub frames: Vec<Vec<Value>>,
    pub roll_name: Option<String>,
    /// While `secret(…)` is evaluated: the seat its dice are shown to.
    pub secret_to: Option<u8>,
    pub flow: Flow,
    pub quiet_end: &'a mut flow::QuietEnd,
    /// How many `perform(…)`s are running inside one another.
    pub performing: u8,
}

/// Runs games of one ruleset on one thread. Holds the Lua state of the mod's hooks (created
/// once, reused for every game) and reusable buffers, so the hot paths do not allocate.
pub struct Engine {
    rules: Arc<Ruleset>,
    hooks: Option<HookRuntime>,
    scratch: Scratch,
    odds: odds::OddsCache,
    frame: Vec<Value>,
    faces: Vec<u32>,
    space_buffer: Vec<u32>,
    frame_pool: Vec<Vec<Value>>,
    /// A second frame and scratch for scoring actions while the listing uses the first ones.
    score_frame: Vec<Value>,
    score_scratch: Scratch,
    /// Whether turn changes, triggers or end checks can fail (then every action is snapshotted).
    flow_fallible: bool,
    quiet_end: flow::QuietEnd,
    /// Games started, so the hooks are loaded afresh for every game but the first.
    games_started: u64,
}

impl Engine {
    /// An engine for a ruleset. Creates the Lua state when the mod has hooks.
    pub fn new(rules: Arc<Ruleset>) -> Result<Self, RuleError> {
        let hooks = if rules.hooks.is_empty() { None } else { Some(HookRuntime::new(rules.clone())?) };
        let flow_fallible = rules.turn_start.fallible
            || rules.turn_end.fallible
            || rules.phases.iter().any(|p| p.on_start.fallible || p.on_end.fallible)
            || rules.triggers.iter().any(|(_, t)| t.effect.fallible)
            || hooks.as_ref().is_some_and(HookRuntime::has_event_hooks);
        Ok(Self {
            rules,
            hooks,
            scratch: Scratch::default(),
            odds: odds::OddsCache::default(),
            frame: Vec::with_capacity(16),
            faces: Vec::new(),
            space_buffer: Vec::new(),
            frame_pool: Vec::new(),
            score_frame: Vec::new(),
            score_scratch: Scratch::default(),
            flow_fallible,
            quiet_end: flow::QuietEnd::default(),
            games_started: 0,
        })
    }

    pub fn rules(&self) -> &Arc<Ruleset> {
        &self.rules
    }

    /// The work this engine's thread has done so far, counted: the rules' steps (loop steps,
    /// candidates listed, spaces searched) and a tenth of its hooks' Lua instructions (an
    /// instruction costs about a tenth of a step). A computer player that looks ahead budgets
    /// by the difference between two readings, so its effort never depends on time.
    pub fn work_done(&self) -> u64 {
        eval::work_done() + self.hooks.as_ref().map_or(0, |hooks| hooks.instructions_done() / 10)
    }

    /// The Lua hook runtime, when the mod has hooks.
    pub fn hooks_mut(&mut self) -> Option<&mut HookRuntime> {
        self.hooks.as_mut()
    }

    /// Starts a game: builds the board, runs the setup, starts the first turn.
    pub fn new_game(&mut self, setup: &GameSetup, events: &mut Events) -> Result<GameState, RuleError> {
        let rules = self.rules.clone();
        let seat_count = setup.seats.len();
        let range = rules.manifest.seats;
        if seat_count < range.min as usize || seat_count > range.max as usize {
            return Err(RuleError::new(format!(
                "this game takes {} to {} seats, not {seat_count}",
                range.min, range.max
            )));
        }
        if let Some(first) = setup.first_seat
            && first as usize >= seat_count
        {
            return Err(RuleError::new(format!(
                "the first seat is seat {}, but the game has {seat_count} seats",
                u32::from(first) + 1
            )));
        }
        for (option, choice) in &setup.options {
            let loaded = rules.chosen_options.get(option);
            if loaded != Some(choice) {
                return Err(RuleError::new(format!(
                    "the game is set up with `{option} = {choice}`, but the mod was loaded with {}: load it with the game's options",
                    loaded.map_or_else(|| "no such option".to_string(), |c| format!("`{option} = {c}`"))
                )));
            }
        }
        for (option_id, choice_id) in &rules.chosen_options {
            let Some(option) = rules.data.options.get(option_id) else { continue };
            let Some(choice) = option.choices.get(choice_id) else { continue };
            if !choice.fits(seat_count) {
                let fitting: Vec<String> = option
                    .choices
                    .iter()
                    .filter(|(_, c)| c.fits(seat_count))
                    .map(|(id, _)| format!("`{option_id}={id}`"))
                    .collect();
                return Err(RuleError::new(format!(
                    "the setup option {} is `{}`, which is for {} seats, not {seat_count}: choose {}",
                    option.label,
                    choice.label.as_deref().unwrap_or(choice_id),
                    choice.seats_text(),
                    fitting.join(" or ")
                )));
            }
        }
        let sides = &rules.data.seats.sides;
        let mut seat_sides = Vec::with_capacity(seat_count);
        for (i, seat) in setup.seats.iter().enumerate() {
            let side = match (&seat.side, sides.is_empty()) {
                (_, true) => i as u8,
                (None, false) => (i % sides.len()) as u8,
                (Some(id), false) => match sides.iter().position(|s| &s.id == id) {
                    Some(side) => side as u8,
                    None => {
                        let hint = crate::diag::did_you_mean(id, sides.iter().map(|s| s.id.as_str()))
                            .map(|s| format!("; did you mean `{s}`?"))
                            .unwrap_or_default();
                        return Err(RuleError::new(format!("seat {}: unknown side `{id}`{hint}", i + 1)));
                    }
                },
            };
            seat_sides.push(side);
        }
        let mut rng = GameRng::from_seed(setup.seed);
        let spec = setup.board.as_ref().unwrap_or(&rules.data.board);
        let terrain = |name: &str| rules.terrain_index(name).map(|i| i as u16);
        let board = spec
            .build(&mut BuildContext { terrain: &terrain, seats: seat_count as u32, rng: &mut rng })
            .map_err(|e| {
                let error = RuleError::new(format!("building the board: {e}"));
                // A board the setup chose itself is not where the mod's `[board]` is written.
                if setup.board.is_some() { error } else { error.context(&rules, "board") }
            })?;
        let space_count = board.space_count();
        let counter_count = rules.space_counters.len();
        let mut counters = Vec::with_capacity(space_count * counter_count);
        for _ in 0..space_count {
            counters.extend(rules.space_counters.iter().map(|c| c.initial));
        }
        let mut state = GameState {
            board: Arc::new(board),
            rng,
            seats: setup
                .seats
                .iter()
                .zip(&seat_sides)
                .map(|(s, side)| state::SeatState {
                    name: s.name.clone(),
                    player: s.player.clone(),
                    status: SeatStatus::Active,
                    side: *side,
                    resources: rules.resources.iter().map(|r| r.initial).collect(),
                    hand: Vec::new(),
                    shown: Vec::new(),
                })
                .collect(),
            owners: vec![state::NO_SEAT; space_count],
            counters,
            counter_count: counter_count as u16,
            pieces: Vec::new(),
            decks: rules
                .decks
                .iter()
                .map(|d| state::DeckState { draw: d.cards.clone(), discard: Vec::new() })
                .collect(),
            vars: rules.vars.iter().map(|v| v.initial).collect(),
            turn: state::TurnState {
                number: 0,
                round: 0,
                match_number: 0,
                seat: 0,
                first_seat: 0,
                phase: 0,
                used: vec![0; rules.budget_names.len()],
                pending: None,
                offers: Vec::new(),
                sealed: Vec::new(),
                interlude: false,
                idle_turns: 0,
                acted: false,
            },
            outcome: None,
            script_data: Default::default(),
            owned: vec![0; seat_count],
            forced_faces: Default::default(),
            forced_random: Default::default(),
        };
        // Every game starts with the hooks as their files leave them: what a hook kept in Lua
        // variables of its own during an earlier game of this engine must not reach this one
        // (a simulation's games would depend on how they fell to threads, a replay on a fresh
        // engine would differ).
        if self.games_started > 0 && self.hooks.is_some() {
            self.hooks = Some(HookRuntime::new(rules.clone())?);
        }
        self.games_started += 1;
        let _work = eval::RulesWork::begin();
        if let Some(hooks) = self.hooks.as_mut() {
            hooks.begin_work();
        }
        let first_seat = setup.first_seat;
        self.with_cx(&mut state, events, |cx| flow::start_game(cx, first_seat))?;
        self.settle(&mut state, events)?;
        Ok(state)
    }

    /// Lists every legal action of the seat to move into `out` (cleared first). Passing is
    /// listed whenever the phase allows it, and always when nothing else is possible.
    ///
    /// Fails, with `out` cleared, when an action's choices take more than the listing's counted
    /// limits ([`eval::MAX_LISTING_STEPS`], [`eval::MAX_LISTED_ACTIONS`]): the error names the
    /// action where the mod writes it. A mod that lists within the limits never meets it.
    pub fn legal_actions(&mut self, state: &GameState, out: &mut Vec<Action>) -> Result<(), RuleError> {
        out.clear();
        match legal::list(&self.rules, state, &mut self.scratch, &mut self.frame, out) {
            Ok(found) => {
                legal::list_pass_and_leave(&self.rules, state, found, out);
                Ok(())
            }
            Err(error) => {
                out.clear();
                Err(error)
            }
        }
    }

    /// Whether the seat to move has any action other than passing and leaving; fails as
    /// [`Engine::legal_actions`] does.
    pub fn can_act(&mut self, state: &GameState) -> Result<bool, RuleError> {
        let mut first = legal::First(false);
        legal::list(&self.rules, state, &mut self.scratch, &mut self.frame, &mut first)?;
        Ok(first.0)
    }

    /// Why the seat to move cannot take the mod's action `index` now, in words for a menu
    /// ("Move was already taken 1 time(s) this phase"); `None` when `legal` (the current legal
    /// actions) holds one of its kind.
    pub fn unavailable_reason(&mut self, state: &GameState, legal: &[Action], index: u16) -> Option<String> {
        if legal.iter().any(|a| a.kind == ActionKind::Rule(index)) {
            return None;
        }
        let rules = self.rules.clone();
        let rule = rules.actions.get(index as usize)?;
        if state.is_over() {
            return Some(ActionError::GameOver.to_string());
        }
        if let Some(pending) = &state.turn.pending {
            let waiting = &rules.actions[pending.action as usize];
            return Some(format!("{} was rolled: make its choices or cancel it first", waiting.label));
        }
        let phase = &rules.phases[state.turn.phase as usize];
        if !phase.actions.contains(&index) {
            return Some(format!("not in the {} phase", phase.label));
        }
        let budget = rule.budget_slot as usize;
        let limit = phase.budget[budget];
        if state.turn.used[budget] >= limit {
            let times = if limit == 1 { "once".to_string() } else { format!("{limit} times") };
            return Some(format!("only {times} per {}: already done", phase.label.to_lowercase()));
        }
        let mut frame = vec![Value::Nil; rule.frame.max(1) as usize];
        frame[0] = Value::Seat(state.turn.seat);
        let mut cx = eval::ReadCx { rules: &rules, state, scratch: &mut self.scratch, odds: None, hooks: None };
        if let Some(need) = legal::unmet_requirement(&mut cx, rule, &frame) {
            return Some(legal::reason_words(&mut cx, need, &frame));
        }
        let first = rule.params.first().map_or_else(|| "choice".to_string(), |p| p.label.to_lowercase());
        // Choices turned away by their own `requires` say why: the first of them, as listed.
        let refused = rule.params.first().map(|param| legal::refused_items(&mut cx, param, 1, &mut frame));
        match refused.unwrap_or_default().first() {
            Some((_, why)) => Some(format!("no {first} qualifies now: {why}")),
            None => Some(format!("no {first} qualifies now")),
        }
    }

    /// The choices of the next parameter of `action` (after `chosen` arguments) that are shown
    /// but not offered now, each with why: the item kinds an item parameter's `requires` turn
    /// away ("costs 12, 5 in the purse"). Empty for other parameters.
    pub fn refused_choices(&mut self, state: &GameState, action: u16, chosen: &[i64]) -> Vec<(i64, String)> {
        let rules = self.rules.clone();
        let Some(rule) = rules.actions.get(action as usize) else { return Vec::new() };
        let Some(param) = rule.params.get(chosen.len()) else { return Vec::new() };
        let mut frame = vec![Value::Nil; rule.frame.max(1 + chosen.len() as u16 + 1) as usize];
        frame[0] = Value::Seat(state.to_act());
        for (i, (&arg, chosen_param)) in chosen.iter().zip(&rule.params).enumerate() {
            frame[1 + i] = legal::arg_value(chosen_param.kind, arg);
        }
        let mut cx = eval::ReadCx { rules: &rules, state, scratch: &mut self.scratch, odds: None, hooks: None };
        legal::refused_items(&mut cx, param, 1 + chosen.len(), &mut frame)
    }

    /// Calls `visit` with every legal action, in the order [`Engine::legal_actions`] lists them,
    /// together with its computer-player score (as [`Engine::ai_score`] gives it). Scoring while
    /// listing spares a computer player a second pass and a list of every action.
    /// The scores' work counts into the listing's limits; past them this fails as
    /// [`Engine::legal_actions`] does (after `visit` saw the actions listed until then).
    pub fn for_each_scored(
        &mut self,
        state: &GameState,
        mut visit: impl FnMut(Action, Option<(f64, Option<f64>)>),
    ) -> Result<(), RuleError> {
        let Engine { rules, scratch, frame, odds, score_frame, score_scratch, hooks, .. } = self;
        // One decision is one piece of work for the hooks its scores call.
        if let Some(hooks) = hooks.as_mut() {
            hooks.begin_work();
        }
        let mut sink = ScoringSink {
            rules,
            state,
            odds,
            frame: score_frame,
            scratch: score_scratch,
            hooks: hooks.as_mut(),
            visit: &mut visit,
            error: None,
        };
        let found = legal::list(rules, state, scratch, frame, &mut sink)?;
        if let Some(error) = sink.error {
            return Err(error);
        }
        legal::list_pass_and_leave(rules, state, found, &mut Unscored(&mut visit));
        Ok(())
    }

    /// Applies an action of the seat to move. On error nothing has changed.
    pub fn apply(&mut self, state: &mut GameState, action: &Action, events: &mut Events) -> Result<(), ActionError> {
        if state.outcome.is_some() {
            return Err(ActionError::GameOver);
        }
        let seat = state.to_act();
        self.apply_as(state, seat, action, events)
    }

    /// Applies an action for a given seat: the seat to move, or any seat still playing when
    /// the action is `leave`.
    pub fn apply_as(
        &mut self,
        state: &mut GameState,
        seat: u8,
        action: &Action,
        events: &mut Events,
    ) -> Result<(), ActionError> {
        if state.outcome.is_some() {
            return Err(ActionError::GameOver);
        }
        if seat != state.to_act() && action.kind != ActionKind::Leave {
            // While a response waits, say whose answer it is, not that it is nobody's turn.
            return Err(match state.turn.offers.first() {
                Some(offer) => ActionError::AwaitingResponse {
                    seat: offer.seat + 1,
                    action: self.rules.actions[offer.action as usize].id.clone(),
                },
                None => ActionError::NotYourTurn(seat + 1),
            });
        }
        legal::check(self, state, seat, action)?;
        // One action is one piece of counted work, for its rules and for its hooks.
        let _work = eval::RulesWork::begin();
        if let Some(hooks) = self.hooks.as_mut() {
            hooks.begin_work();
        }
        // Declining an offer may run its `on_decline`, which may fail like any effect.
        let fallible = self.flow_fallible
            || !state.turn.offers.is_empty()
            || match action.kind {
                ActionKind::Rule(a) => self.rules.actions[a as usize].fallible,
                ActionKind::Cancel => false,
                _ => self.rules.turn_end.fallible,
            };
        let snapshot = fallible.then(|| state.clone());
        let mark = events.len();
        let result = self.run_action(state, seat, action, events).and_then(|()| self.settle(state, events));
        match result {
            Ok(()) => Ok(()),
            Err(error) => {
                if let Some(snapshot) = snapshot {
                    *state = snapshot;
                }
                events.truncate(mark);
                Err(ActionError::Rule(error))
            }
        }
    }

    fn run_action(
        &mut self,
        state: &mut GameState,
        seat: u8,
        action: &Action,
        events: &mut Events,
    ) -> Result<(), RuleError> {
        if let Some(offer) = state.turn.offers.first()
            && action.kind != ActionKind::Leave
        {
            // A sealed answer is announced without what it is (`Event::Sealed`), and acted
            // when it is opened.
            if !self.rules.actions[offer.action as usize].sealed {
                events.push_with(|| Event::Acted { seat, action: *action });
            }
            return self.answer_offer(state, seat, action, events);
        }
        events.push_with(|| Event::Acted { seat, action: *action });
        match action.kind {
            ActionKind::Pass => self.with_cx(state, events, |cx| flow::end_phase(cx)),
            ActionKind::Leave => self.with_cx(state, events, |cx| {
                flow::seat_leaves(cx, seat)?;
                flow::check_end(cx)?;
                if cx.state.outcome.is_none() && cx.state.turn.seat == seat {
                    flow::end_turn(cx)?;
                }
                Ok(())
            }),
            ActionKind::Cancel => self.with_cx(state, events, |cx| {
                if let Some(pending) = cx.state.turn.pending.take() {
                    cx.events.push_with(|| Event::Cancelled { action: pending.action });
                }
                // The action is over, cancelled after its roll: it counts as taken.
                flow::after_action(cx)
            }),
            ActionKind::Rule(index) => {
                // An interlude goes on while someone acts in it (kept only there, so a game
                // without interludes saves and hashes as it always did).
                if state.turn.interlude {
                    state.turn.acted = true;
                }
                let mut frame = std::mem::take(&mut self.frame);
                let result = self.with_cx(state, events, |cx| {
                    let rule = &cx.rules.actions[index as usize];
                    legal::fill_frame(&mut frame, rule, seat, action);
                    fill_walks_spent(cx, rule, &mut frame);
                    if let Some(pending) = cx.state.turn.pending.take() {
                        // The second step: the dice were rolled in the first.
                        for (i, roll) in pending.rolls.into_iter().enumerate() {
                            frame[rule.roll_slot(i) as usize] = Value::Int(roll);
                        }
                    } else {
                        cx.state.turn.used[rule.budget_slot as usize] += 1;
                        for (i, (name, expr)) in rule.rolls.iter().enumerate() {
                            cx.roll_name = if cx.events.enabled() { Some(name.clone()) } else { None };
                            let value = eval::eval(cx, expr, &frame)
                                .map_err(|e| e.context(cx.rules, &format!("actions.{}.rolls.{name}", rule.id)))?;
                            frame[rule.roll_slot(i) as usize] = value;
                            cx.roll_name = None;
                            flow::fire_rolled(cx, name, value.as_int(), seat)?;
                        }
                        cx.roll_name = None;
                        eval::exec(cx, &rule.on_roll, &mut frame)
                            .map_err(|e| e.context(cx.rules, &format!("actions.{}.on_roll", rule.id)))?;
                        if rule.is_staged() {
                            let rolls =
                                (0..rule.rolls.len()).map(|i| frame[rule.roll_slot(i) as usize].as_int()).collect();
                            cx.state.turn.pending =
                                Some(state::PendingAction { action: index, args: action.args, rolls });
                            cx.events.push_with(|| Event::AwaitingChoice { action: index });
                            return flow::after_roll(cx);
                        }
                    }
                    run_outcome(cx, rule, &mut frame)
                });
                self.frame = frame;
                result
            }
        }
    }

    /// The answer to the response offered first: passing declines it; the offered action runs
    /// for the seat it was offered to, outside the phase's budget. Either way the offer is
    /// done with, and the next one (or the seat to move) acts next.
    fn answer_offer(
        &mut self,
        state: &mut GameState,
        seat: u8,
        action: &Action,
        events: &mut Events,
    ) -> Result<(), RuleError> {
        let offer = state.turn.offers.remove(0);
        let rule = &self.rules.actions[offer.action as usize];
        let again = rule.repeat && matches!(action.kind, ActionKind::Rule(_));
        if rule.sealed {
            return self.seal_answer(state, seat, offer, action, again, events);
        }
        self.run_answer(state, seat, &offer, action, events)?;
        if again {
            state.turn.offers.insert(0, offer);
        }
        Ok(())
    }

    /// Keeps a sealed answer unopened; once no sealed offer waits, opens every sealed answer
    /// and runs them in the order the offers were made.
    fn seal_answer(
        &mut self,
        state: &mut GameState,
        seat: u8,
        offer: state::Offer,
        action: &Action,
        again: bool,
        events: &mut Events,
    ) -> Result<(), RuleError> {
        // Kept as a replay would rebuild it: a pass has no arguments, an answer none past its
        // parameters (whatever else an action carries changes nothing it does).
        let mut answer = Action { kind: action.kind, args: [0; crate::game::MAX_PARAMS] };
        if let ActionKind::Rule(index) = action.kind {
            let given = self.rules.actions[index as usize].params.len().min(crate::game::MAX_PARAMS);
            answer.args[..given].copy_from_slice(&action.args[..given]);
        }
        let action = &answer;
        events.push_with(|| Event::Sealed { seat, action: offer.action, answer: Some(*action), done: !again });
        match state.turn.sealed.last_mut() {
            Some(open) if !open.done && open.offer == offer => {
                open.answers.push(*action);
                open.done = !again;
            }
            _ => state.turn.sealed.push(state::SealedAnswers {
                offer: offer.clone(),
                answers: vec![*action],
                done: !again,
            }),
        }
        if again {
            state.turn.offers.insert(0, offer);
            return Ok(());
        }
        self.open_sealed(state, events)
    }

    /// Once no sealed offer waits (all answered, or their seats gone), opens every sealed answer
    /// and runs them in the order the offers were made.
    fn open_sealed(&mut self, state: &mut GameState, events: &mut Events) -> Result<(), RuleError> {
        if state.turn.sealed.is_empty()
            || state.turn.offers.iter().any(|waiting| self.rules.actions[waiting.action as usize].sealed)
        {
            return Ok(());
        }
        let opened = std::mem::take(&mut state.turn.sealed);
        events.push_with(|| Event::Opened { answers: opened.iter().map(|entry| entry.answers.len() as u32).sum() });
        for entry in opened {
            for answer in &entry.answers {
                events.push_with(|| Event::Acted { seat: entry.offer.seat, action: *answer });
                self.run_answer(state, entry.offer.seat, &entry.offer, answer, events)?;
            }
        }
        Ok(())
    }

    /// Runs one answer to an offer: the response taken, or declined (its `on_decline`).
    fn run_answer(
        &mut self,
        state: &mut GameState,
        seat: u8,
        offer: &state::Offer,
        action: &Action,
        events: &mut Events,
    ) -> Result<(), RuleError> {
        let ActionKind::Rule(index) = action.kind else {
            events.push_with(|| Event::Declined { seat, action: offer.action });
            if self.rules.actions[offer.action as usize].on_decline.is_empty() {
                return Ok(());
            }
            // Declining runs the response's `on_decline`, with the parameters the offer gave.
            let mut frame = std::mem::take(&mut self.frame);
            let result = self.with_cx(state, events, |cx| {
                let rule = &cx.rules.actions[offer.action as usize];
                legal::fill_frame(&mut frame, rule, seat, &legal::offered_action(offer));
                eval::exec(cx, &rule.on_decline, &mut frame)
                    .map_err(|e| e.context(cx.rules, &format!("actions.{}.on_decline", rule.id)))
            });
            self.frame = frame;
            return result;
        };
        let mut frame = std::mem::take(&mut self.frame);
        let result = self.with_cx(state, events, |cx| {
            let rule = &cx.rules.actions[index as usize];
            legal::fill_frame(&mut frame, rule, seat, action);
            fill_walks_spent(cx, rule, &mut frame);
            for (i, (name, expr)) in rule.rolls.iter().enumerate() {
                cx.roll_name = if cx.events.enabled() { Some(name.clone()) } else { None };
                let value = eval::eval(cx, expr, &frame)
                    .map_err(|e| e.context(cx.rules, &format!("actions.{}.rolls.{name}", rule.id)))?;
                frame[rule.roll_slot(i) as usize] = value;
                cx.roll_name = None;
                flow::fire_rolled(cx, name, value.as_int(), seat)?;
            }
            cx.roll_name = None;
            eval::exec(cx, &rule.on_roll, &mut frame)
                .map_err(|e| e.context(cx.rules, &format!("actions.{}.on_roll", rule.id)))?;
            run_outcome(cx, rule, &mut frame)
        });
        self.frame = frame;
        result
    }

    /// Runs automatic flow until a seat has a real choice: ends automatic phases, phases that
    /// offer nothing but passing (when the mod asks for it) and turns of seats that are no
    /// longer playing.
    fn settle(&mut self, state: &mut GameState, events: &mut Events) -> Result<(), RuleError> {
        // Every pass advances a phase or a turn and the turn limit ends the game, so this ends;
        // the guard only protects against a mod whose phases never let a turn finish.
        for _ in 0..100_000 {
            if state.outcome.is_some() {
                return Ok(());
            }
            // Responses offered out of turn are answered before the game moves on; a seat no
            // longer playing answers nothing.
            state.turn.offers.retain(|offer| state.seats[offer.seat as usize].status == SeatStatus::Active);
            // Sealed answers whose last waiting offer went with its seat are opened now.
            self.open_sealed(state, events)?;
            if !state.turn.offers.is_empty() || state.outcome.is_some() {
                return Ok(());
            }
            let seat = state.turn.seat;
            if state.seats[seat as usize].status != SeatStatus::Active {
                self.with_cx(state, events, |cx| flow::end_turn(cx))?;
                continue;
            }
            // An automatic phase ends by itself once its offers are answered.
            if self.rules.phases[state.turn.phase as usize].automatic {
                self.with_cx(state, events, |cx| flow::end_phase(cx))?;
                continue;
            }
            // While an action awaits its choices, cancelling (never passing) is the way out.
            if self.rules.auto_pass && state.turn.pending.is_none() && !self.can_act(state)? {
                self.with_cx(state, events, |cx| flow::end_phase(cx))?;
                continue;
            }
            return Ok(());
        }
        Err(RuleError::new("the turn structure never gives a seat a choice (100000 automatic steps)"))
    }

    pub(crate) fn with_cx<T>(
        &mut self,
        state: &mut GameState,
        events: &mut Events,
        f: impl FnOnce(&mut WriteCx) -> Result<T, RuleError>,
    ) -> Result<T, RuleError> {
        // Borrowed field by field: cloning the shared ruleset here would cost two atomic
        // operations on every action.
        let mut cx = WriteCx {
            rules: &self.rules,
            state,
            events,
            hooks: self.hooks.as_mut(),
            scratch: &mut self.scratch,
            faces: std::mem::take(&mut self.faces),
            space_buffer: std::mem::take(&mut self.space_buffer),
            frames: std::mem::take(&mut self.frame_pool),
            roll_name: None,
            secret_to: None,
            flow: Flow::default(),
            quiet_end: &mut self.quiet_end,
            performing: 0,
        };
        let result = f(&mut cx);
        self.faces = std::mem::take(&mut cx.faces);
        self.space_buffer = std::mem::take(&mut cx.space_buffer);
        self.frame_pool = std::mem::take(&mut cx.frames);
        result
    }

    /// The exact probability that an action's `success` holds, if it has one.
    pub fn chance(&mut self, state: &GameState, action: &Action) -> Option<f64> {
        let ActionKind::Rule(index) = action.kind else { return None };
        let rules = self.rules.clone();
        let rule = &rules.actions[index as usize];
        rule.success.as_ref()?;
        let frame = legal::bind_frame(rule, state.to_act(), action);
        let mut odds = odds::OddsCx::new(&mut self.odds, index);
        odds.chance(&rules, state, &frame, self.hooks.as_mut()).ok()
    }

    /// The figures of an action's `preview`, with how each was worked out. For an action taken
    /// in two steps, before its roll: the figures that read the rolls and the `after_roll`
    /// choices only inside `expect(…)` and `chance` (chances, expectations); once rolled: the
    /// figures that read the rolls themselves (what this roll does to each choice).
    ///
    /// Previews may call Lua hooks, read-only, and work out the odds of their draws; a figure
    /// whose formula fails is an error naming it, never a figure left out.
    pub fn preview(&mut self, state: &GameState, action: &Action) -> Result<Vec<odds::Figure>, RuleError> {
        let ActionKind::Rule(index) = action.kind else { return Ok(Vec::new()) };
        let rules = self.rules.clone();
        let rule = &rules.actions[index as usize];
        let rolled = state.turn.pending.as_ref().is_some_and(|p| p.action == index);
        let mut frame = legal::bind_frame(rule, state.to_act(), action);
        legal::fill_pending_rolls(&mut frame, rule, index, state);
        let reads_rolls = |expr: &crate::rules::ir::Expr| {
            (0..rule.rolls.len()).any(|i| expr.uses_slot_outside_odds(rule.roll_slot(i)))
        };
        let reads_later_choice = |expr: &crate::rules::ir::Expr| {
            (rule.before_roll..rule.params.len()).any(|i| expr.uses_slot_outside_odds(1 + i as u16))
        };
        if let Some(hooks) = self.hooks.as_mut() {
            hooks.begin_work();
        }
        let mut odds = odds::OddsCx::new(&mut self.odds, index);
        let mut cx = eval::ReadCx {
            rules: &rules,
            state,
            scratch: &mut self.scratch,
            odds: Some(&mut odds),
            hooks: self.hooks.as_mut(),
        };
        let mut figures = Vec::new();
        for (label, expr) in &rule.preview {
            let shown_now = !rule.is_staged()
                || if rolled { reads_rolls(expr) } else { !reads_rolls(expr) && !reads_later_choice(expr) };
            if !shown_now {
                continue;
            }
            let figure = figure(&mut cx, label, expr, &frame).map_err(|error| {
                // Named as the loader names where it is written: a label with spaces is quoted.
                let key = crate::source::format_key(label);
                error.context(&rules, &format!("actions.{}.preview.{key}", rule.id))
            })?;
            figures.push(figure);
        }
        Ok(figures)
    }

    /// The computer-player score of an action (`ai.score`), and the action's minimum score.
    /// Scores may call Lua hooks, read-only; a score that fails is an error naming it.
    pub fn ai_score(&mut self, state: &GameState, action: &Action) -> Result<Option<(f64, Option<f64>)>, RuleError> {
        if let Some(hooks) = self.hooks.as_mut() {
            hooks.begin_work();
        }
        self.score(state, action)
    }

    /// [`score_action`] with this engine's caches and hooks (their work begun by the caller).
    fn score(&mut self, state: &GameState, action: &Action) -> Result<Option<(f64, Option<f64>)>, RuleError> {
        let Engine { rules, odds, score_frame, score_scratch, hooks, .. } = self;
        score_action(rules, state, odds, score_frame, score_scratch, hooks.as_mut(), action)
    }

    /// How well `seat` stands, for computer players that look ahead: the mod's `end.score`,
    /// else its `end.draw_shares` (how a drawn game would be split), else the number of spaces
    /// the seat owns. A formula that fails is an error naming it.
    pub fn standing(&mut self, state: &GameState, seat: u8) -> Result<f64, RuleError> {
        let end = &self.rules.end;
        let (formula, rule) = match (&self.rules.ai_standing, &end.score, &end.draw_shares) {
            (Some(formula), _, _) => (formula, "ai.standing"),
            (None, Some(formula), _) => (formula, "end.score"),
            (None, None, Some(formula)) => (formula, "end.draw_shares"),
            (None, None, None) => return Ok(f64::from(state.owned_count(seat))),
        };
        // `ai.standing` may call a Lua evaluation hook, read-only: one judging is one piece of
        // work for the hooks' shared budget.
        if let Some(hooks) = self.hooks.as_mut() {
            hooks.begin_work();
        }
        let mut cx = eval::ReadCx {
            rules: &self.rules,
            state,
            scratch: &mut self.score_scratch,
            odds: None,
            hooks: self.hooks.as_mut(),
        };
        flow::read_seat_formula(&mut cx, formula, seat)
            .map(Value::as_num)
            .map_err(|error| error.context(&self.rules, rule))
    }

    /// The computer-player scores of many actions at once: `out[i]` is `ai_score(state, legal[i])`.
    /// Their work counts against the listing's limits, as scoring while listing does: past them
    /// this fails naming the action being scored.
    pub fn ai_scores(
        &mut self,
        state: &GameState,
        legal: &[Action],
        out: &mut Vec<Option<(f64, Option<f64>)>>,
    ) -> Result<(), RuleError> {
        out.clear();
        let _work = eval::ListingWork::begin();
        if let Some(hooks) = self.hooks.as_mut() {
            hooks.begin_work();
        }
        for action in legal {
            out.push(self.score(state, action)?);
            if eval::ListingWork::exceeded() {
                let rule = match action.kind {
                    ActionKind::Rule(index) => format!("actions.{}.ai", self.rules.actions[index as usize].id),
                    _ => "ai".to_string(),
                };
                return Err(eval::ListingWork::exceeded_error().context(&self.rules, &rule));
            }
        }
        Ok(())
    }

    /// Replays a list of actions from a setup, returning the final state.
    pub fn replay(
        &mut self,
        setup: &GameSetup,
        actions: &[(u8, Action)],
        events: &mut Events,
    ) -> Result<GameState, ReplayError> {
        let mut state = self.new_game(setup, events).map_err(ReplayError::Setup)?;
        for (index, (seat, action)) in actions.iter().enumerate() {
            self.apply_as(&mut state, *seat, action, events).map_err(|error| ReplayError::Action { index, error })?;
        }
        Ok(state)
    }
}

/// The most `perform(…)`s that run inside one another: an automatic action whose effects
/// perform another, and so on.
pub const MAX_PERFORM_DEPTH: u8 = 8;

/// `perform("id", given…)`: the automatic action `index` with its first parameters given, the
/// rest chosen by the rules on the turn of the seat to move: of its legal completions, the one
/// with the highest `ai.score` (none below `ai.min`), ties drawn from the game's random stream
/// (every completion ties when it has no score). Nothing happens when none is legal. Its rolls
/// and effects run as part of the effect that performs it: no budget is used and no
/// `after_action` trigger fires.
pub(crate) fn perform(cx: &mut WriteCx, index: u16, given: &[i64]) -> Result<(), RuleError> {
    let rules = cx.rules;
    let rule = &rules.actions[index as usize];
    if cx.performing >= MAX_PERFORM_DEPTH {
        return Err(RuleError::new(format!(
            "`perform(\"{}\")` runs inside {MAX_PERFORM_DEPTH} others: automatic actions perform one another \
             at most {MAX_PERFORM_DEPTH} deep",
            rule.id
        )));
    }
    let seat = cx.state.turn.seat;
    let mut prefix = Action { kind: ActionKind::Rule(index), args: [0; MAX_PARAMS] };
    prefix.args[..given.len()].copy_from_slice(given);
    let mut frame = legal::bind_frame(rule, seat, &prefix);
    let mut found: Vec<Action> = Vec::new();
    {
        let _work = eval::ListingWork::begin();
        let mut read = eval::ReadCx { rules, state: cx.state, scratch: cx.scratch, odds: None, hooks: None };
        legal::complete(&mut read, rule, index, given.len(), &mut frame, &mut found);
        if eval::ListingWork::exceeded() {
            return Err(eval::ListingWork::exceeded_error().context(rules, &format!("actions.{}", rule.id)));
        }
    }
    let mut best: Vec<Action> = Vec::new();
    match &rule.ai_score {
        None => best = found,
        Some(score) => {
            let mut cache = odds::OddsCache::default();
            let mut best_score = f64::NEG_INFINITY;
            for action in found {
                legal::fill_frame(&mut frame, rule, seat, &action);
                let mut odds_cx = odds::OddsCx::new(&mut cache, index);
                let hooks = cx.hooks.as_deref_mut();
                let mut read =
                    eval::ReadCx { rules, state: cx.state, scratch: cx.scratch, odds: Some(&mut odds_cx), hooks };
                let value = eval::eval(&mut read, score, &frame)
                    .map_err(|e| e.context(rules, &format!("actions.{}.ai.score", rule.id)))?
                    .as_num();
                if value.is_nan() || rule.ai_min.is_some_and(|min| value < min) {
                    continue;
                }
                if value > best_score {
                    best_score = value;
                    best.clear();
                }
                if value == best_score {
                    best.push(action);
                }
            }
        }
    }
    let chosen = match best.len() {
        0 => return Ok(()),
        1 => best[0],
        ties => best[cx.state.rng.range_inclusive(0, ties as i64 - 1) as usize],
    };
    cx.events.push_with(|| Event::Performed { seat, action: chosen });
    legal::fill_frame(&mut frame, rule, seat, &chosen);
    fill_walks_spent(cx, rule, &mut frame);
    cx.performing += 1;
    let result = (|| {
        for (i, (name, expr)) in rule.rolls.iter().enumerate() {
            cx.roll_name = if cx.events.enabled() { Some(name.clone()) } else { None };
            let value = eval::eval(cx, expr, &frame)
                .map_err(|e| e.context(rules, &format!("actions.{}.rolls.{name}", rule.id)))?;
            frame[rule.roll_slot(i) as usize] = value;
            cx.roll_name = None;
            flow::fire_rolled(cx, name, value.as_int(), seat)?;
        }
        cx.roll_name = None;
        eval::exec(cx, &rule.on_roll, &mut frame)
            .map_err(|e| e.context(rules, &format!("actions.{}.on_roll", rule.id)))?;
        if let Some(success) = &rule.success {
            let ok = eval::eval_bool(cx, success, &frame)
                .map_err(|e| e.context(rules, &format!("actions.{}.success", rule.id)))?;
            cx.events.push_with(|| Event::Decided { success: ok });
            let (branch, key) = if ok { (&rule.on_success, "on_success") } else { (&rule.on_failure, "on_failure") };
            eval::exec(cx, branch, &mut frame).map_err(|e| e.context(rules, &format!("actions.{}.{key}", rule.id)))?;
        }
        eval::exec(cx, &rule.effect, &mut frame).map_err(|e| e.context(rules, &format!("actions.{}.effect", rule.id)))
    })();
    cx.performing -= 1;
    result
}

/// [`legal::fill_walks_spent`] in the middle of a change: read before any effect runs.
fn fill_walks_spent(cx: &mut WriteCx, rule: &crate::rules::ActionRule, frame: &mut [Value]) {
    let reads = rule
        .params
        .iter()
        .any(|p| matches!(&p.source, crate::rules::ParamSource::Reachable(w) if w.spent_slot.is_some()));
    if reads {
        let mut read = eval::ReadCx { rules: cx.rules, state: cx.state, scratch: cx.scratch, odds: None, hooks: None };
        legal::fill_walks_spent(&mut read, rule, frame);
    }
}

/// The end of an action once its rolls are made: `success` and its branch, the `effect`, then
/// what follows every action.
fn run_outcome(cx: &mut WriteCx, rule: &crate::rules::ActionRule, frame: &mut Vec<Value>) -> Result<(), RuleError> {
    if let Some(success) = &rule.success {
        let ok = eval::eval_bool(cx, success, frame)
            .map_err(|e| e.context(cx.rules, &format!("actions.{}.success", rule.id)))?;
        cx.events.push_with(|| Event::Decided { success: ok });
        let (branch, key) = if ok { (&rule.on_success, "on_success") } else { (&rule.on_failure, "on_failure") };
        eval::exec(cx, branch, frame).map_err(|e| e.context(cx.rules, &format!("actions.{}.{key}", rule.id)))?;
    }
    eval::exec(cx, &rule.effect, frame).map_err(|e| e.context(cx.rules, &format!("actions.{}.effect", rule.id)))?;
    flow::after_action(cx)
}

/// One preview figure: its value and, when odds in it were sampled, how far the value can be
/// off. Each sampled estimate is moved up by its margin in turn and the figure worked out again:
/// the margins of the figure's own answers, added in quadrature.
fn figure(
    cx: &mut eval::ReadCx,
    label: &str,
    expr: &crate::rules::ir::Expr,
    frame: &[Value],
) -> Result<odds::Figure, RuleError> {
    let start = |cx: &mut eval::ReadCx, nudge: Option<usize>| {
        if let Some(odds) = cx.odds.as_deref_mut() {
            odds.start_figure(nudge);
        }
    };
    start(cx, None);
    let value = eval::eval(cx, expr, frame)?.as_num();
    let estimates: Vec<(usize, f64)> = cx.odds.as_deref().map(|o| o.estimates().to_vec()).unwrap_or_default();
    let method = if !expr.any_node(&|e| matches!(e, crate::rules::ir::Expr::Chance | crate::rules::ir::Expr::Expect(_)))
    {
        odds::Method::Certain
    } else if estimates.is_empty() {
        odds::Method::Exact
    } else {
        let mut squares = 0.0;
        for (place, _) in &estimates {
            start(cx, Some(*place));
            let moved = eval::eval(cx, expr, frame)?.as_num();
            squares += (moved - value).powi(2);
        }
        odds::Method::Sampled { margin: squares.sqrt() }
    };
    Ok(odds::Figure { label: label.to_string(), value, method })
}

/// An action's `ai.score` and `ai.min`.
#[inline(always)]
fn score_action(
    rules: &Ruleset,
    state: &GameState,
    odds: &mut odds::OddsCache,
    frame: &mut Vec<Value>,
    scratch: &mut Scratch,
    hooks: Option<&mut HookRuntime>,
    action: &Action,
) -> Result<Option<(f64, Option<f64>)>, RuleError> {
    let ActionKind::Rule(index) = action.kind else { return Ok(None) };
    let rule = &rules.actions[index as usize];
    // `score = "chance"` on a two-dice contest already in the table: a lookup from the arguments.
    if rule.ai_score_is_chance
        && let Some(p) = odds.known_contest_chance(state, index, &action.args)
    {
        return Ok(Some((p, rule.ai_min)));
    }
    // A score of the contest's dice counts alone (`chance * to.dice - …`), worked out before.
    if let Some(score) = odds.known_contest_score(state, index, &action.args) {
        return Ok(Some((score, rule.ai_min)));
    }
    score_action_by_eval(rules, state, odds, frame, scratch, hooks, index, action)
}

/// [`score_action`] through the evaluator: out of line, so the table lookup above stays small
/// enough to inline into the listing loop.
#[inline(never)]
fn score_action_by_eval(
    rules: &Ruleset,
    state: &GameState,
    odds: &mut odds::OddsCache,
    frame: &mut Vec<Value>,
    scratch: &mut Scratch,
    hooks: Option<&mut HookRuntime>,
    index: u16,
    action: &Action,
) -> Result<Option<(f64, Option<f64>)>, RuleError> {
    let rule = &rules.actions[index as usize];
    let awaiting = state.turn.pending.as_ref().is_some_and(|p| p.action == index);
    let starting = rule.is_staged() && !awaiting;
    let score = if starting { rule.ai_start_score.as_ref() } else { rule.ai_score.as_ref() };
    let Some(score) = score else {
        // A staged action without a start score is worth starting at 0, like an unscored one.
        return Ok(rule.ai_score.as_ref().map(|_| (0.0, rule.ai_min)));
    };
    legal::fill_frame(frame, rule, state.to_act(), action);
    legal::fill_pending_rolls(frame, rule, index, state);
    let mut odds_cx = odds::OddsCx::new(odds, index);
    let mut cx = eval::ReadCx { rules, state, scratch, odds: Some(&mut odds_cx), hooks };
    match eval::eval(&mut cx, score, frame) {
        Ok(value) => {
            let value = value.as_num();
            if !starting && !awaiting {
                odds.remember_contest_score(rule, state, index, &action.args, value);
            }
            Ok(Some((value, rule.ai_min)))
        }
        Err(error) => {
            let key = if starting { "start_score" } else { "score" };
            Err(error.context(rules, &format!("actions.{}.ai.{key}", rule.id)))
        }
    }
}

/// Hands passing and leaving, which have no score, to a visitor.
struct Unscored<'a, F: FnMut(Action, Option<(f64, Option<f64>)>)>(&'a mut F);

impl<F: FnMut(Action, Option<(f64, Option<f64>)>)> legal::Sink for Unscored<'_, F> {
    fn take(&mut self, action: Action) -> bool {
        (self.0)(action, None);
        false
    }
}

/// Scores each listed action and hands both to a visitor.
struct ScoringSink<'a, F: FnMut(Action, Option<(f64, Option<f64>)>)> {
    rules: &'a Ruleset,
    state: &'a GameState,
    odds: &'a mut odds::OddsCache,
    frame: &'a mut Vec<Value>,
    scratch: &'a mut Scratch,
    hooks: Option<&'a mut HookRuntime>,
    visit: &'a mut F,
    /// The first score that failed: the listing stops there and the decision fails with it.
    error: Option<RuleError>,
}

impl<F: FnMut(Action, Option<(f64, Option<f64>)>)> legal::Sink for ScoringSink<'_, F> {
    #[inline]
    fn take(&mut self, action: Action) -> bool {
        let hooks = self.hooks.as_deref_mut();
        match score_action(self.rules, self.state, self.odds, self.frame, self.scratch, hooks, &action) {
            Ok(score) => {
                (self.visit)(action, score);
                false
            }
            Err(error) => {
                self.error = Some(error);
                true
            }
        }
    }
}

/// Why a replay could not be re-simulated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    #[error("the game could not start: {0}")]
    Setup(RuleError),
    #[error("action {} was refused: {error}", index + 1)]
    Action { index: usize, error: ActionError },
}

/// The mod's `space_figures` for `space`, as the window shows them in its tooltip: each label
/// with its value in `state` (the view of the seat watching). Like [`seat_figures`], no Lua.
pub fn space_figures(rules: &Ruleset, state: &GameState, space: u32) -> Result<Vec<(String, f64)>, RuleError> {
    figures(rules, state, &rules.space_figures, Value::Space(space), "space_figures")
}

/// The mod's `seats.figures` for `seat`, as the window shows them beside its resources: each
/// label with its value in `state` — the view of the seat watching, so that no figure reads
/// what that seat may not see. Figures call no Lua, so no engine is needed. A figure that fails
/// is an error naming it.
pub fn seat_figures(rules: &Ruleset, state: &GameState, seat: u8) -> Result<Vec<(String, f64)>, RuleError> {
    figures(rules, state, &rules.seat_figures, Value::Seat(seat), "seats.figures")
}

/// Each figure of `list` (label, formula about `subject`) with its value in `state`; a figure
/// that fails is an error naming it, under `key`.
fn figures(
    rules: &Ruleset,
    state: &GameState,
    list: &[(String, crate::rules::Formula)],
    subject: Value,
    key: &str,
) -> Result<Vec<(String, f64)>, RuleError> {
    let mut scratch = Scratch::default();
    let mut out = Vec::with_capacity(list.len());
    for (label, formula) in list {
        let mut cx = eval::ReadCx { rules, state, scratch: &mut scratch, odds: None, hooks: None };
        let value = flow::read_formula_about(&mut cx, formula, subject)
            .map(Value::as_num)
            .map_err(|error| error.context(rules, &format!("{key} ({label})")))?;
        out.push((label.clone(), value));
    }
    Ok(out)
}
