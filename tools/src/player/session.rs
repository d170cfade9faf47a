//! A game as the player window holds it: the engine and the state, who controls each seat, the
//! history (a replay), the log, the dice last rolled, the action a person is half-way through
//! choosing, and undo. No egui here: the window draws a `Session`, and tests drive one directly.
//!
//! A session may also hold a game played at a server's table ([`Session::online`]): the server
//! holds the game; the session holds its seat's view, rebuilt from each update, and queues the
//! person's actions for the server instead of applying them.

use std::path::Path;
use std::sync::Arc;

use meeple_engine::ai::{self, Player};
use meeple_engine::defs::ParamKind;
use meeple_engine::game::record::{from_record, to_record};
use meeple_engine::game::state::{NO_SEAT, Piece};
use meeple_engine::game::{
    Action, ActionKind, ActionRecord, Engine, Event, Events, Figure, GameSetup, GameState, NOT_CHOSEN, Outcome,
};
use meeple_engine::rules::Ruleset;
use meeple_engine::save::SaveFile;

use super::opened::{self, OpenedChoices};
use super::timeline::{Ranked, Timeline};
use super::{art, describe};
use crate::online::table::state_from_view;

/// One line of the event log.
#[derive(Clone, Debug, PartialEq)]
pub struct LogLine {
    pub turn: u32,
    /// The seat the line is about, for its colour.
    pub seat: Option<u8>,
    pub text: String,
    /// The index of the event it tells, in the session's events.
    pub event: usize,
    /// What kind of thing the line tells, for how it is drawn and explained.
    pub kind: LineKind,
}

/// What a log line tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    /// A turn begins.
    Turn,
    /// A seat takes an action (or an action is performed for it).
    Action,
    /// Dice rolled for the action above.
    Roll,
    /// Whether the action above succeeded.
    Outcome(bool),
    /// A seat is out, or the game is over.
    Milestone,
    /// Something the action above changed, or a note of the rules.
    Change,
}

impl LineKind {
    fn of(event: &Event) -> Self {
        match event {
            Event::TurnStarted { .. } => LineKind::Turn,
            Event::Acted { .. } | Event::Performed { .. } => LineKind::Action,
            Event::Rolled { .. } | Event::SecretRolled { .. } => LineKind::Roll,
            Event::Decided { success } => LineKind::Outcome(*success),
            Event::SeatEliminated { .. } | Event::SeatLeft { .. } | Event::GameOver { .. } => LineKind::Milestone,
            _ => LineKind::Change,
        }
    }

    /// What a line of this kind is, for its tooltip.
    pub fn meaning(self) -> &'static str {
        match self {
            LineKind::Turn => "A turn begins",
            LineKind::Action => "An action, by the seat in its colour",
            LineKind::Roll => "Dice rolled for the action above: each die, then what they make",
            LineKind::Outcome(true) => "The action above succeeded",
            LineKind::Outcome(false) => "The action above failed",
            LineKind::Milestone => "A seat is out, or the game is over",
            LineKind::Change => "What the action above changed",
        }
    }
}

/// Dice as rolled, for drawing.
#[derive(Clone, Debug, PartialEq)]
pub struct RollShown {
    /// The roll's name in the action (`attack`, `hits`), if it has one.
    pub name: Option<String>,
    pub sides: u32,
    pub faces: Vec<u32>,
    pub value: i64,
    pub seat: u8,
}

/// One entry of the Actions menu.
#[derive(Clone, Debug, PartialEq)]
pub struct MenuEntry {
    pub kind: ActionKind,
    pub label: String,
    /// Why it cannot be taken now; `None` when it can.
    pub unavailable: Option<String>,
    /// The mod's description of the action, for a tooltip.
    pub description: Option<String>,
}

/// A value a person may choose for the next parameter of the action being chosen.
#[derive(Clone, Debug, PartialEq)]
pub struct ChoiceOption {
    pub arg: i64,
    pub label: String,
    /// The space this choice is or stands on, to highlight and click on the board.
    pub space: Option<u32>,
    /// Whether it belongs to another side, or (a space) has another side's piece on it: a
    /// target, drawn red, rather than the mover's or empty ground.
    pub hostile: bool,
    /// For an item (to buy) or an item held: its stats and who may hold it, "strength 3,
    /// reach 2 · for Lookout", shown under the choice.
    pub detail: Option<String>,
    /// For an item or an item held: the mod's description of it, for the choice's tooltip.
    pub description: Option<String>,
    /// The mod's image of what the choice stands for (an item, a piece's kind, a card).
    pub image: Option<String>,
}

/// Counts kept while a game is played, for the game-over screen.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SeatStats {
    pub actions: u32,
    pub rolls: u32,
    pub successes: u32,
    pub failures: u32,
}

/// The game's statistics when it ends.
#[derive(Clone, Debug, PartialEq)]
pub struct GameStats {
    pub turns: u32,
    /// Rounds of the last match (of the game, when it has no matches).
    pub rounds: u32,
    /// Matches played: 1 for a game without matches.
    pub matches: u32,
    pub actions: usize,
    pub per_seat: Vec<SeatStats>,
}

/// A state to return to: undo goes back to the last one.
#[derive(Clone)]
struct UndoPoint {
    state: GameState,
    history: usize,
    /// Events recorded (the log is written from them).
    events: usize,
    stats: Vec<SeatStats>,
    /// The timeline's samples and seats out.
    timeline: (usize, usize),
}

/// A game being played in the window.
pub struct Session {
    pub rules: Arc<Ruleset>,
    engine: Engine,
    pub setup: GameSetup,
    pub state: GameState,
    /// Every action taken, with its seat: with the setup, a replay of the game.
    pub history: Vec<(u8, Action)>,
    pub log: Vec<LogLine>,
    /// The pieces as the game started, and as they stood after the last event the log has
    /// written: the log names each piece as it was when its line happened.
    pieces_at_start: Vec<Piece>,
    pieces_logged: Vec<Piece>,
    /// Every event of the game so far with the turn it came in, so that the log can be written
    /// again for another seat: people sharing a screen each see it as their seat may.
    events: Vec<(u32, Event)>,
    /// The seat whose view the window shows and the log is written for ([`Session::viewer`]).
    viewer: u8,
    /// That seat's view of the game ([`GameState::view_for`]): what the window shows of hands.
    view: GameState,
    /// The seat of the person who was last to act: the window keeps showing what that seat
    /// sees while computers play.
    last_person: Option<u8>,
    /// The dice of the most recent action that rolled any.
    pub last_rolls: Vec<RollShown>,
    /// The spaces the last action named (where a computer attacked from and to, say), to mark
    /// on the board.
    pub last_places: Vec<u32>,
    /// The computer player of each computer seat.
    computers: Vec<Option<Box<dyn Player>>>,
    legal: Vec<Action>,
    /// The action a person is choosing and the arguments chosen so far.
    chosen: Option<(ActionKind, Vec<i64>)>,
    undo: Vec<UndoPoint>,
    stats: Vec<SeatStats>,
    /// The last refusal or failure, shown to the person until the next action.
    pub message: Option<String>,
    /// The sealed choices last opened, as the viewer saw them; kept until the next opening.
    opened: Option<OpenedChoices>,
    /// Counts the changes a window must draw (an action, a choice, undo), so the window can ask
    /// for the next frame at once instead of showing the old state until the mouse moves.
    revision: u64,
    /// Each seat's figures turn by turn and who went out when, for the end of the game.
    pub timeline: Timeline,
    /// Whether to keep the state from before each action ([`Session::take_before`]): the
    /// window shows it while the action's dice tumble.
    pub keep_before: bool,
    before: Option<GameState>,
    /// The server's table, for a game played online.
    remote: Option<Remote>,
}

/// What a session keeps of a game played at a server's table.
struct Remote {
    /// The seat this window plays, or [`NO_SEAT`] when it watches.
    seat: u8,
    /// The game's step as the last update gave it: an action names it.
    step: u64,
    /// The board as the server last sent it (updates send it only when it changes).
    board: serde_json::Value,
    /// The actions the server offered the seat in its last update.
    legal: Vec<Action>,
    /// Actions chosen here and not yet sent, each with the step it was chosen at.
    outgoing: Vec<(u64, ActionRecord)>,
    /// An action was sent and the server has not answered it yet.
    awaiting: bool,
}

/// A game update from a server, as a session reads it: the parts of the protocol's `game`
/// message it needs (the protocol's JSON stays in `online`).
pub struct RemoteUpdate<'a> {
    pub step: u64,
    pub board: Option<&'a serde_json::Value>,
    pub view: &'a serde_json::Value,
    pub events: &'a [serde_json::Value],
    pub legal: &'a [ActionRecord],
}

impl Session {
    /// Starts a game of `rules` with `setup`.
    pub fn new(rules: Arc<Ruleset>, setup: GameSetup) -> Result<Self, String> {
        let mut engine = Engine::new(rules.clone()).map_err(|e| e.to_string())?;
        let mut events = Events::recording();
        let state = engine.new_game(&setup, &mut events).map_err(|e| e.to_string())?;
        let mut session = Self::assemble(rules, engine, setup, state, None)?;
        // The deal (owners, starting items) is on the board; the log starts with the first turn.
        let shown: Vec<Event> =
            events.take().into_iter().filter(|e| matches!(e, Event::GameStarted | Event::TurnStarted { .. })).collect();
        session.record_events(&shown);
        Ok(session)
    }

    /// Re-plays a saved game with `rules` (its hash must match) and continues from its end. The
    /// actions are taken one by one as if played here, so the dice shown are those of the last
    /// roll (not every roll of the game) and the statistics count the whole game.
    pub fn from_save(rules: Arc<Ruleset>, save: &SaveFile, shown: &str) -> Result<Self, String> {
        let mut engine = Engine::new(rules.clone()).map_err(|e| e.to_string())?;
        let (_, history) = save.replay(&mut engine, shown, &mut Events::discard()).map_err(|e| e.to_string())?;
        let mut session = Session::new(rules, save.setup.clone())?;
        for (seat, action) in history {
            session.apply_quietly(seat, action)?;
        }
        session.refresh();
        Ok(session)
    }

    /// A game played at a server's table, from the first update the server sent this window:
    /// `seat` is the window's (0-based), or `None` to watch. `setup` names the seats and their
    /// controllers as the table lists them (its seed is not known here: the server keeps it,
    /// since it would tell the hidden cards).
    pub fn online(
        rules: Arc<Ruleset>,
        setup: GameSetup,
        seat: Option<u8>,
        update: &RemoteUpdate<'_>,
    ) -> Result<Self, String> {
        let board = update.board.ok_or("the server's first update has no board")?.clone();
        let state = state_from_view(update.view, &board)?;
        let engine = Engine::new(rules.clone()).map_err(|e| e.to_string())?;
        let remote = Remote {
            seat: seat.unwrap_or(NO_SEAT),
            step: 0,
            board,
            legal: Vec::new(),
            outgoing: Vec::new(),
            awaiting: false,
        };
        let mut session = Self::assemble(rules, engine, setup, state, Some(remote))?;
        if update.step == 0 {
            // As in a game started here: the deal is on the board, the log starts with the
            // first turn.
            session.take_update(update, |e| matches!(e, Event::GameStarted | Event::TurnStarted { .. }))?;
        } else {
            session.receive(update)?;
        }
        Ok(session)
    }

    /// Takes in the server's next update: the seat's view replaces the state, its events are
    /// logged and shown, its legal actions offered.
    pub fn receive(&mut self, update: &RemoteUpdate<'_>) -> Result<(), String> {
        self.take_update(update, |_| true)
    }

    /// [`Session::receive`], logging only the events `shown` keeps.
    fn take_update(&mut self, update: &RemoteUpdate<'_>, shown: impl Fn(&Event) -> bool) -> Result<(), String> {
        let Some(remote) = &mut self.remote else { return Err("not a game played online".into()) };
        if let Some(board) = update.board {
            remote.board = board.clone();
        }
        let state = state_from_view(update.view, &remote.board)?;
        let events: Vec<Event> = update
            .events
            .iter()
            .map(|e| {
                serde::Deserialize::deserialize(e).map_err(|e| format!("an event from the server does not read: {e}"))
            })
            .collect::<Result<Vec<Event>, _>>()?
            .into_iter()
            .filter(shown)
            .collect();
        let legal = update
            .legal
            .iter()
            .map(|record| from_record(&self.rules, &state, record).map(|(_, action)| action))
            .collect::<Result<Vec<_>, _>>()?;
        remote.step = update.step;
        remote.legal = legal;
        remote.awaiting = false;
        self.touch();
        // The places the last action named, as the state before it had them.
        let mut places = None;
        for event in &events {
            if let Event::Acted { seat, action } = event {
                places = Some(self.action_places(action));
                if let Some(stats) = self.stats.get_mut(*seat as usize)
                    && !matches!(action.kind, ActionKind::Pass | ActionKind::Cancel)
                {
                    stats.actions += 1;
                }
            }
        }
        self.before = self.keep_before.then(|| self.state.clone());
        self.state = state;
        self.timeline.observe(&self.rules, &self.state);
        if events.iter().any(reveals) {
            self.last_rolls.clear();
        }
        self.record_events(&events);
        if let Some(places) = places {
            self.last_places = places;
        }
        self.chosen = None;
        self.refresh();
        Ok(())
    }

    /// The server refused the action sent last: the seat chooses again.
    pub fn refused_by_server(&mut self, reason: String) {
        if let Some(remote) = &mut self.remote {
            remote.awaiting = false;
        }
        self.message = Some(reason);
        self.chosen = None;
        self.refresh();
    }

    /// The actions chosen since the last call, each with the game step it was chosen at, for
    /// the window to send to the server.
    pub fn take_outgoing(&mut self) -> Vec<(u64, ActionRecord)> {
        self.remote.as_mut().map(|r| std::mem::take(&mut r.outgoing)).unwrap_or_default()
    }

    /// Whether an action was sent to the server and its answer has not come yet.
    pub fn is_awaiting_server(&self) -> bool {
        self.remote.as_ref().is_some_and(|r| r.awaiting)
    }

    /// The game step the server last gave, for a game played online.
    pub fn online_step(&self) -> Option<u64> {
        self.remote.as_ref().map(|r| r.step)
    }

    fn assemble(
        rules: Arc<Ruleset>,
        engine: Engine,
        setup: GameSetup,
        state: GameState,
        remote: Option<Remote>,
    ) -> Result<Self, String> {
        let computers = setup
            .seats
            .iter()
            .enumerate()
            .map(|(i, seat)| {
                if seat.controller == "human" || remote.is_some() {
                    Ok(None)
                } else {
                    // Each computer seat draws from its own stream, derived from the game's seed.
                    ai::player(&seat.controller, setup.seed ^ (0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i as u64 + 1)))
                        .map(Some)
                }
            })
            .collect::<Result<Vec<_>, String>>()?;
        let seats = state.seats.len();
        let pieces = state.pieces.clone();
        let mut session = Self {
            rules,
            engine,
            setup,
            state,
            history: Vec::new(),
            log: Vec::new(),
            pieces_at_start: pieces.clone(),
            pieces_logged: pieces,
            events: Vec::new(),
            viewer: NO_SEAT,
            view: GameState::placeholder(),
            last_person: None,
            last_rolls: Vec::new(),
            last_places: Vec::new(),
            computers,
            legal: Vec::new(),
            chosen: None,
            undo: Vec::new(),
            stats: vec![SeatStats::default(); seats],
            message: None,
            opened: None,
            revision: next_revision(),
            timeline: Timeline::default(),
            keep_before: false,
            before: None,
            remote,
        };
        session.timeline = Timeline::new(&session.rules, &session.state);
        session.refresh();
        Ok(session)
    }

    /// Changes with everything the window draws of the session: when it differs from the one a
    /// frame started with, that frame drew part of the screen from before the change.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Marks a change the window must draw.
    fn touch(&mut self) {
        self.revision = next_revision();
    }

    /// The seat that acts next: the seat to move, or one answering a response offered to it.
    pub fn seat(&self) -> u8 {
        self.state.to_act()
    }

    pub fn is_over(&self) -> bool {
        self.state.is_over()
    }

    /// Whether the seat to move is a person's.
    pub fn is_human_turn(&self) -> bool {
        !self.is_over() && self.is_human(self.seat())
    }

    pub fn is_human(&self, seat: u8) -> bool {
        if let Some(remote) = &self.remote {
            // Online, the window's own seat is the only one played here.
            return remote.seat == seat;
        }
        self.computers.get(seat as usize).is_some_and(Option::is_none)
    }

    /// The seat whose view the window shows (its hands) and writes the log for: the person to
    /// act; while computers play, the person who acted last (at first, the first person's
    /// seat); [`NO_SEAT`], a spectator seeing what every seat sees, when no person plays.
    pub fn viewer(&self) -> u8 {
        self.viewer
    }

    /// The game as [`Session::viewer`] may see it (the engine's view: other seats' cards it was
    /// not shown are unknown).
    pub fn view(&self) -> &GameState {
        &self.view
    }

    /// The sealed choices last opened, side by side per seat, as [`Session::viewer`] saw them
    /// (nothing a seat sealed is shown before the engine opens it).
    pub fn opened(&self) -> Option<&OpenedChoices> {
        self.opened.as_ref()
    }

    /// How many seats people play.
    pub fn human_seats(&self) -> usize {
        if let Some(remote) = &self.remote {
            return usize::from(remote.seat != NO_SEAT);
        }
        self.computers.iter().filter(|c| c.is_none()).count()
    }

    /// The legal actions of the seat to move.
    pub fn legal(&self) -> &[Action] {
        &self.legal
    }

    /// The Actions menu: the mod's actions (those of other phases disabled, saying why), then
    /// cancelling a rolled action or passing when either is possible, then leaving the game.
    pub fn menu(&mut self) -> Vec<MenuEntry> {
        let rules = self.rules.clone();
        let mut entries = Vec::new();
        if self.is_over() {
            return entries;
        }
        if let Some(offer) = self.state.turn.offers.first() {
            // A response offered out of turn: take it or decline, nothing else.
            let rule = &rules.actions[offer.action as usize];
            let unavailable = (!self.legal.iter().any(|a| a.kind == ActionKind::Rule(offer.action)))
                .then(|| "nothing left to choose allows it".to_string());
            entries.push(MenuEntry {
                kind: ActionKind::Rule(offer.action),
                label: rule.label.clone(),
                unavailable,
                description: rule.description.clone(),
            });
            // A compulsory answer cannot be declined while it can be given.
            let unavailable = (!self.legal.iter().any(Action::is_pass)).then(|| "this must be answered".to_string());
            entries.push(MenuEntry { kind: ActionKind::Pass, label: "Decline".into(), unavailable, description: None });
            return entries;
        }
        // Responses are only ever offered out of turn (above), and automatic actions performed
        // by the rules.
        for (index, rule) in rules.actions.iter().enumerate().filter(|(_, rule)| !rule.response && !rule.automatic) {
            let unavailable = self.engine.unavailable_reason(&self.state, &self.legal, index as u16);
            entries.push(MenuEntry {
                kind: ActionKind::Rule(index as u16),
                label: rule.label.clone(),
                unavailable,
                description: rule.description.clone(),
            });
        }
        if let Some(pending) = &self.state.turn.pending {
            let label = rules.actions[pending.action as usize].cancel_label.clone();
            entries.push(MenuEntry { kind: ActionKind::Cancel, label, unavailable: None, description: None });
        } else {
            let phase = &rules.phases[self.state.turn.phase as usize];
            let unavailable = (!self.legal.iter().any(Action::is_pass))
                .then(|| "an action is still possible and this phase cannot be passed".to_string());
            entries.push(MenuEntry {
                kind: ActionKind::Pass,
                label: phase.pass_label.clone(),
                unavailable,
                description: None,
            });
        }
        // Last and apart from the moves of a turn: one click beside "End turn" must not forfeit.
        if self.legal.iter().any(|a| a.kind == ActionKind::Leave) {
            entries.push(MenuEntry {
                kind: ActionKind::Leave,
                label: "Leave the game".into(),
                unavailable: None,
                description: Some(
                    "Stop playing: your spaces and pieces stay and still defend, but take no more turns".into(),
                ),
            });
        }
        entries
    }

    /// The action being chosen, if any, and how many of its arguments are chosen.
    pub fn chosen(&self) -> Option<(ActionKind, usize)> {
        self.chosen.as_ref().map(|(kind, args)| (*kind, args.len()))
    }

    /// The spaces of the arguments chosen so far (to mark them on the board).
    pub fn chosen_places(&self) -> Vec<u32> {
        let Some((ActionKind::Rule(index), args)) = &self.chosen else { return Vec::new() };
        let rule = &self.rules.actions[*index as usize];
        rule.params
            .iter()
            .zip(args)
            .filter_map(|(param, &arg)| describe::arg_place(&self.state, param.kind, arg).0)
            .collect()
    }

    /// The piece of the last argument chosen so far that names one (a piece, or a piece's held
    /// item): the piece the action is about, whose line of sight the board shows.
    pub fn chosen_piece(&self) -> Option<u32> {
        let Some((ActionKind::Rule(index), args)) = &self.chosen else { return None };
        let rule = &self.rules.actions[*index as usize];
        rule.params.iter().zip(args).rev().find_map(|(param, &arg)| match param.kind {
            ParamKind::Piece if arg >= 0 => Some(arg as u32),
            ParamKind::Held if arg >= 0 => Some((arg / 256) as u32),
            _ => None,
        })
    }

    /// Starts choosing an action from the menu; actions with nothing to choose are taken at once.
    pub fn select(&mut self, kind: ActionKind) {
        self.touch();
        self.message = None;
        if !self.is_human_turn() || self.is_awaiting_server() {
            return;
        }
        if !self.legal.iter().any(|a| a.kind == kind) {
            if let ActionKind::Rule(index) = kind {
                self.message = self.engine.unavailable_reason(&self.state, &self.legal, index);
            }
            return;
        }
        self.chosen = Some((kind, Vec::new()));
        self.fill_fixed_and_maybe_apply();
    }

    /// Drops the last chosen argument (or the action itself).
    pub fn back(&mut self) {
        self.touch();
        let fixed = self.chosen.as_ref().map_or(0, |(kind, _)| self.fixed_args(*kind));
        if let Some((_, args)) = &mut self.chosen {
            if args.len() > fixed {
                args.pop();
            } else if self.state.turn.pending.is_none() {
                self.chosen = None;
            }
        }
    }

    /// Drops the choice in progress: the action and every argument chosen for it (the key
    /// Esc). An action whose dice are rolled keeps them and what the rules fixed: it can only
    /// be finished or cancelled with its own button, which forfeits it.
    pub fn cancel_choice(&mut self) {
        while self.chosen.as_ref().is_some_and(|(kind, args)| args.len() > self.fixed_args(*kind)) {
            self.back();
        }
        self.back();
    }

    /// The label of the parameter to choose next.
    pub fn next_param_label(&self) -> Option<String> {
        let (ActionKind::Rule(index), args) = self.chosen.as_ref().map(|(k, a)| (*k, a.len()))? else {
            return None;
        };
        self.rules.actions[index as usize].params.get(args).map(|p| p.label.clone())
    }

    /// The values the next parameter may take, given the arguments chosen so far.
    pub fn options(&self) -> Vec<ChoiceOption> {
        let Some((kind, args)) = &self.chosen else { return Vec::new() };
        let ActionKind::Rule(index) = *kind else { return Vec::new() };
        let Some(param) = self.rules.actions[index as usize].params.get(args.len()) else { return Vec::new() };
        let mut seen = Vec::new();
        for action in self.matching(*kind, args) {
            let arg = action.args[args.len()];
            if arg != NOT_CHOSEN && !seen.contains(&arg) {
                seen.push(arg);
            }
        }
        let me = self.seat();
        // A space is a target when another side owns it or has a piece standing on it (moving
        // there starts a fight, whoever owns the ground): those spaces, found once.
        let enemy_spaces: std::collections::HashSet<u32> = if param.kind == ParamKind::Space {
            self.state
                .pieces
                .iter()
                .filter(|p| {
                    p.alive
                        && p.inside == meeple_engine::game::state::NO_PIECE
                        && p.owner != NO_SEAT
                        && !self.allies(p.owner, me)
                })
                .map(|p| p.space)
                .collect()
        } else {
            Default::default()
        };
        seen.into_iter()
            .map(|arg| {
                let (space, owner) = describe::arg_place(&self.state, param.kind, arg);
                let item = describe::arg_item(&self.state, param.kind, arg);
                let enemy_on_space = space.is_some_and(|s| enemy_spaces.contains(&s));
                ChoiceOption {
                    arg,
                    label: describe::arg(&self.rules, &self.state, param.kind, arg),
                    space,
                    hostile: owner.is_some_and(|o| !self.allies(o, me)) || enemy_on_space,
                    detail: item.and_then(|item| describe::item_detail(&self.rules, item)),
                    description: item.and_then(|item| describe::item_description(&self.rules, item)),
                    image: art::choice_image(&self.rules, &self.state, param.kind, arg).map(str::to_string),
                }
            })
            .collect()
    }

    /// The choices of the next parameter shown but not offered now, each with why (an item the
    /// purse cannot pay for): listed greyed under the choices (see `ParamDef::requires`).
    pub fn refused_options(&mut self) -> Vec<(ChoiceOption, String)> {
        let Some((ActionKind::Rule(index), args)) = self.chosen.clone() else { return Vec::new() };
        let Some(param) = self.rules.actions[index as usize].params.get(args.len()) else { return Vec::new() };
        let kind = param.kind;
        let refused = self.engine.refused_choices(&self.state, index, &args);
        refused
            .into_iter()
            .map(|(arg, why)| {
                let item = describe::arg_item(&self.state, kind, arg);
                let option = ChoiceOption {
                    arg,
                    label: describe::arg(&self.rules, &self.state, kind, arg),
                    space: None,
                    hostile: false,
                    detail: item.and_then(|item| describe::item_detail(&self.rules, item)),
                    description: item.and_then(|item| describe::item_description(&self.rules, item)),
                    image: art::choice_image(&self.rules, &self.state, kind, arg).map(str::to_string),
                };
                (option, why)
            })
            .collect()
    }

    /// Chooses a value for the next parameter; the action is taken once it is fully chosen.
    pub fn choose(&mut self, arg: i64) {
        self.touch();
        self.message = None;
        let Some((kind, args)) = &mut self.chosen else { return };
        args.push(arg);
        let kind = *kind;
        let prefix = args.clone();
        if self.matching(kind, &prefix).next().is_none() {
            self.message = Some("that choice is not possible".into());
            if let Some((_, args)) = &mut self.chosen {
                args.pop();
            }
            return;
        }
        self.fill_fixed_and_maybe_apply();
    }

    /// Chooses the option standing on `space` (a click on the board). Among several there, the
    /// one standing by itself is taken (a holder, not a piece inside it); when the only options
    /// there are pieces inside holders, the click chooses none and says to pick from the list.
    /// Returns whether the space had an option.
    pub fn choose_space(&mut self, space: u32) -> bool {
        let here: Vec<ChoiceOption> = self.options().into_iter().filter(|o| o.space == Some(space)).collect();
        let Some(first) = here.first() else { return false };
        let inside_something = |option: &ChoiceOption| self.option_piece_is_inside(option.arg);
        match here.iter().find(|o| !inside_something(o)) {
            Some(standing) => {
                let arg = standing.arg;
                self.choose(arg);
            }
            None if here.len() == 1 => {
                let arg = first.arg;
                self.choose(arg);
            }
            None => {
                let space = describe::space(&self.state, space);
                self.message = Some(format!("{} choices inside on {space}: pick one from the list", here.len()));
            }
        }
        true
    }

    /// Whether the next parameter is a piece and `arg` names one inside a holder.
    fn option_piece_is_inside(&self, arg: i64) -> bool {
        let Some((ActionKind::Rule(index), args)) = &self.chosen else { return false };
        let is_piece = self.rules.actions[*index as usize]
            .params
            .get(args.len())
            .is_some_and(|p| p.kind == meeple_engine::defs::ParamKind::Piece);
        is_piece
            && usize::try_from(arg)
                .ok()
                .and_then(|p| self.state.pieces.get(p))
                .is_some_and(|p| p.inside != meeple_engine::game::state::NO_PIECE)
    }

    /// The mod's preview figures for the action the chosen arguments plus `arg` complete (or for
    /// the first step they complete), e.g. "Chance to conquer" → 0.83.
    pub fn preview_with(&mut self, arg: i64) -> Vec<Figure> {
        let Some((kind, args)) = &self.chosen else { return Vec::new() };
        let mut prefix = args.clone();
        prefix.push(arg);
        let complete: Vec<Action> =
            self.matching(*kind, &prefix).filter(|a| stage_len(&self.rules, a) == prefix.len()).copied().collect();
        match complete.as_slice() {
            // Worked out in the chooser's view: a figure must not tell what the seat cannot see.
            [action] => match self.engine.preview(&self.view, action) {
                Ok(figures) => figures,
                Err(error) => {
                    // A preview formula that fails is the mod's error: shown, not a figure left out.
                    self.message = Some(error.to_string());
                    Vec::new()
                }
            },
            _ => Vec::new(),
        }
    }

    /// Takes an action for the seat to move, as a person chose it.
    pub fn act(&mut self, action: Action) -> Result<(), String> {
        self.touch();
        self.message = None;
        let seat = self.seat();
        if let Some(remote) = &mut self.remote {
            // The server decides: the action goes to it, and its update brings the outcome.
            if remote.awaiting {
                let reason = "waiting for the server to answer the last action".to_string();
                self.message = Some(reason.clone());
                return Err(reason);
            }
            remote.outgoing.push((remote.step, to_record(&self.rules, &self.state, seat, &action)));
            remote.awaiting = true;
            self.chosen = None;
            self.legal.clear();
            return Ok(());
        }
        self.undo.push(UndoPoint {
            state: self.state.clone(),
            history: self.history.len(),
            events: self.events.len(),
            stats: self.stats.clone(),
            timeline: (self.timeline.samples.len(), self.timeline.outs.len()),
        });
        match self.apply(seat, action) {
            Ok(revealed) => {
                if revealed {
                    self.undo.clear();
                }
                Ok(())
            }
            Err(reason) => {
                self.undo.pop();
                self.message = Some(reason.clone());
                Err(reason)
            }
        }
    }

    /// Lets the computer seat to move take one action. Returns false when it is not a computer's
    /// turn.
    pub fn step_computer(&mut self) -> bool {
        if self.remote.is_some() || self.is_over() || self.is_human(self.seat()) {
            return false;
        }
        let seat = self.seat();
        let Some(player) = self.computers.get_mut(seat as usize).and_then(Option::as_mut) else { return false };
        let action = match player.decide(&mut self.engine, &self.state) {
            Ok(action) => action,
            Err(error) => {
                // The mod's rules failed while the computer weighed its options: say so, and pass.
                self.message = Some(format!("{}: {error}", self.state.seats[seat as usize].name));
                Action::pass()
            }
        };
        // A computer's move reveals what a person did not choose: nothing before it is undone.
        self.undo.clear();
        if let Err(reason) = self.apply(seat, action) {
            // A computer player only picks listed actions; should the rules fail, pass instead.
            self.message = Some(format!("{}: {reason}", self.state.seats[seat as usize].name));
            let _ = self.apply(seat, Action::pass());
        }
        true
    }

    /// Plays computer seats until a person is to move or the game ends (at most `limit`
    /// actions). Returns how many were played.
    pub fn skip_computers(&mut self, limit: usize) -> usize {
        let mut played = 0;
        while played < limit && self.step_computer() {
            played += 1;
        }
        played
    }

    /// Changes the state directly, for set-ups of scenarios (tests, tutorials): the legal
    /// actions are listed again, and what undo kept is forgotten.
    pub fn edit_state(&mut self, edit: impl FnOnce(&mut GameState)) {
        edit(&mut self.state);
        self.pieces_logged = self.state.pieces.clone();
        self.undo.clear();
        self.chosen = None;
        self.refresh();
    }

    /// Whether the last action can be taken back: it revealed no dice or cards and no computer
    /// has moved since.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Takes back the last action a person took.
    pub fn undo(&mut self) -> bool {
        let Some(point) = self.undo.pop() else { return false };
        self.state = point.state;
        self.history.truncate(point.history);
        self.events.truncate(point.events);
        self.rewrite_log();
        self.stats = point.stats;
        self.timeline.truncate(point.timeline.0, point.timeline.1);
        self.chosen = None;
        self.message = None;
        self.refresh();
        true
    }

    /// The same game under new rules (after a hot reload): the setup and every action replayed,
    /// by their readable records (so reordered actions in the mod still match). When the new
    /// rules refuse an action, the game stands at the state before it, and what was dropped is
    /// returned so the window can say so.
    pub fn with_rules(&self, rules: Arc<Ruleset>) -> Result<(Session, Option<Rewound>), String> {
        let records: Vec<_> =
            self.history.iter().map(|(seat, a)| to_record(&self.rules, &self.state, *seat, a)).collect();
        let mut next = Session::new(rules, self.setup.clone())?;
        for (index, record) in records.iter().enumerate() {
            let applied = from_record(&next.rules, &next.state, record)
                .and_then(|(seat, action)| next.apply_quietly(seat, action));
            if let Err(reason) = applied {
                next.refresh();
                next.undo.clear();
                return Ok((next, Some(Rewound { refused: index, of: records.len(), reason })));
            }
        }
        next.refresh();
        next.undo.clear();
        Ok((next, None))
    }

    /// The same game started again from its setup under the same rules (after a reload that
    /// refused some of its actions, when the person would rather restart).
    pub fn restarted(&self) -> Result<Session, String> {
        Session::new(self.rules.clone(), self.setup.clone())
    }

    /// Writes the game to a save file (a replay: setup, actions, hash, state).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        if self.remote.is_some() {
            return Err("a game played online is kept by its server, which saves it when it ends".into());
        }
        SaveFile::new(&self.rules, &self.setup, &self.history, &self.state).write(path).map_err(|e| e.to_string())
    }

    /// The game's statistics so far.
    pub fn stats(&self) -> GameStats {
        GameStats {
            turns: self.state.turn.number,
            rounds: self.state.turn.round,
            matches: self.state.turn.match_number.max(1),
            // Online, the history stays with the server; its step counts the actions.
            actions: self.remote.as_ref().map_or(self.history.len(), |r| r.step as usize),
            per_seat: self.stats.clone(),
        }
    }

    /// The game-over table: a header row, then a row per seat. Columns the game has no use for
    /// (spaces when nobody owns any, successes when no action has a `success`) are left out.
    pub fn statistics_table(&self) -> Vec<Vec<String>> {
        let state = &self.state;
        let seats = 0..state.seats.len() as u8;
        let winners = state.outcome.as_ref().map(winning_seats).unwrap_or_default();
        let mut columns: Vec<(String, Vec<String>)> = Vec::new();
        let column = |header: &str, cell: &dyn Fn(u8) -> String| {
            (header.to_string(), seats.clone().map(cell).collect::<Vec<String>>())
        };
        columns.push(column("Seat", &|s| describe::seat(state, s)));
        columns.push(column("Result", &|s| {
            if winners.contains(&s) {
                "won".into()
            } else {
                match state.seats[s as usize].status {
                    meeple_engine::game::SeatStatus::Active => "played on".into(),
                    meeple_engine::game::SeatStatus::Left => "left".into(),
                    meeple_engine::game::SeatStatus::Eliminated => "out".into(),
                }
            }
        }));
        if seats.clone().any(|s| state.owned_count(s) > 0) {
            columns.push(column("Spaces", &|s| state.owned_count(s).to_string()));
        }
        if !state.pieces.is_empty() {
            columns.push(column("Pieces left", &|s| {
                state.pieces.iter().filter(|p| p.alive && p.owner == s).count().to_string()
            }));
        }
        for (index, resource) in self.rules.resources.iter().enumerate() {
            if resource.on_screen() {
                columns.push(column(&resource.label, &|s| state.seats[s as usize].resources[index].to_string()));
            }
        }
        columns.push(column("Actions", &|s| self.stats[s as usize].actions.to_string()));
        columns.push(column("Rolls", &|s| self.stats[s as usize].rolls.to_string()));
        if self.stats.iter().any(|s| s.successes + s.failures > 0) {
            columns.push(column("Succeeded", &|s| self.stats[s as usize].successes.to_string()));
            columns.push(column("Failed", &|s| self.stats[s as usize].failures.to_string()));
        }
        let mut rows = vec![columns.iter().map(|(h, _)| h.clone()).collect::<Vec<_>>()];
        for seat in seats.clone() {
            rows.push(columns.iter().map(|(_, cells)| cells[seat as usize].clone()).collect());
        }
        rows
    }

    /// Whether two seats are on the same side.
    pub fn allies(&self, a: u8, b: u8) -> bool {
        match (self.state.seats.get(a as usize), self.state.seats.get(b as usize)) {
            (Some(x), Some(y)) => x.side == y.side,
            _ => false,
        }
    }

    /// The seats ranked at the end of the game (see [`Timeline::ranking`]).
    pub fn ranking(&mut self) -> Vec<Ranked> {
        let Self { engine, state, timeline, .. } = self;
        timeline.ranking(state, &mut |seat| engine.standing(state, seat).unwrap_or(0.0))
    }

    /// What happened since `seat`'s last turn began, as its log tells it: the lines from the
    /// turn after its last one up to its turn now (empty when it has not had a turn before,
    /// or it is not its turn).
    pub fn since_last_turn(&self, seat: u8) -> &[LogLine] {
        // Back from the end (drawn every frame: only the events since that turn are read): the
        // turn now, which must be the seat's, then its previous one, and the turn after it.
        let mut turn_starts = (self.events.iter().enumerate().rev()).filter_map(|(i, (_, event))| match event {
            Event::TurnStarted { seat, .. } => Some((i, *seat)),
            _ => None,
        });
        let Some((now, current)) = turn_starts.next() else { return &[] };
        if current != seat {
            return &[];
        }
        let mut from = now;
        let mut found = false;
        for (i, starter) in turn_starts {
            if starter == seat {
                found = true;
                break;
            }
            from = i;
        }
        if !found {
            return &[];
        }
        let first = self.log.partition_point(|line| line.event < from);
        let last = self.log.partition_point(|line| line.event < now);
        &self.log[first..last]
    }

    /// The winners' names, once the game is over.
    pub fn winners(&self) -> Option<String> {
        describe::outcome(&self.state, self.state.outcome.as_ref()?).into()
    }

    /// Applies an action; true when it revealed dice or cards.
    fn apply(&mut self, seat: u8, action: Action) -> Result<bool, String> {
        self.before = self.keep_before.then(|| self.state.clone());
        let revealed = self.apply_quietly(seat, action)?;
        self.refresh();
        Ok(revealed)
    }

    /// Applies an action without listing what may follow (replaying a game: listing after each
    /// action would cost time, and a person's pending choice must not be taken up mid-replay).
    fn apply_quietly(&mut self, seat: u8, action: Action) -> Result<bool, String> {
        self.touch();
        // The places as the action named them, before it moved or removed anything: where an
        // attack came from and went to, where a piece set out.
        let places = self.action_places(&action);
        let mut events = Events::recording();
        self.engine.apply_as(&mut self.state, seat, &action, &mut events).map_err(|e| e.to_string())?;
        self.history.push((seat, action));
        self.timeline.observe(&self.rules, &self.state);
        if let Some(stats) = self.stats.get_mut(seat as usize)
            && !matches!(action.kind, ActionKind::Pass | ActionKind::Cancel)
        {
            stats.actions += 1;
        }
        let revealed = events.list().iter().any(reveals);
        if revealed {
            self.last_rolls.clear();
        }
        self.record_events(events.list());
        self.last_places = places;
        self.chosen = None;
        Ok(revealed)
    }

    /// The places an action names, as the state has them now (before it is applied).
    fn action_places(&self, action: &Action) -> Vec<u32> {
        match action.kind {
            ActionKind::Rule(index) => self
                .rules
                .actions
                .get(index as usize)
                .map(|rule| {
                    rule.params
                        .iter()
                        .zip(&action.args)
                        .filter_map(|(param, &arg)| describe::arg_place(&self.state, param.kind, arg).0)
                        .collect()
                })
                .unwrap_or_default(),
            _ => Vec::new(),
        }
    }

    /// Lists the legal actions again; while a rolled action awaits its choices, a person's
    /// choice continues with it.
    fn refresh(&mut self) {
        self.touch();
        self.follow_viewer();
        self.legal.clear();
        if let Some(remote) = &self.remote {
            // Online, the server lists them: only it sees what the seat cannot.
            if !remote.awaiting {
                self.legal.clone_from(&remote.legal);
            }
        } else if !self.is_over()
            && let Err(error) = self.engine.legal_actions(&self.state, &mut self.legal)
        {
            // The list stays empty but for what the error leaves: the person sees why.
            self.message = Some(error.to_string());
            self.legal.push(Action::pass());
        }
        if let Some(pending) = &self.state.turn.pending
            && self.is_human_turn()
        {
            self.chosen = Some((ActionKind::Rule(pending.action), Vec::new()));
            self.fill_fixed_and_maybe_apply();
        }
    }

    /// How many leading arguments of `kind` are fixed already (the choices before a roll, while
    /// its completion is awaited).
    fn fixed_args(&self, kind: ActionKind) -> usize {
        if let (Some(offer), ActionKind::Rule(index)) = (self.state.turn.offers.first(), kind)
            && offer.action == index
        {
            // The parameters the offer gave are not chosen again.
            return offer.args.len();
        }
        match (&self.state.turn.pending, kind) {
            (Some(pending), ActionKind::Rule(index)) if pending.action == index => {
                self.rules.actions[index as usize].before_roll
            }
            _ => 0,
        }
    }

    /// Fills in fixed arguments, and takes the action once every argument of its step is chosen.
    fn fill_fixed_and_maybe_apply(&mut self) {
        let Some((kind, args)) = &self.chosen else { return };
        let kind = *kind;
        let mut args = args.clone();
        let fixed = self.fixed_args(kind);
        if let Some(offer) = self.state.turn.offers.first()
            && args.len() < fixed
        {
            args = offer.args.clone();
        } else if let Some(pending) = &self.state.turn.pending
            && args.len() < fixed
        {
            args = pending.args[..fixed].to_vec();
        }
        let complete: Vec<Action> =
            self.matching(kind, &args).filter(|a| stage_len(&self.rules, a) == args.len()).copied().collect();
        self.chosen = Some((kind, args));
        if let [action] = complete.as_slice() {
            let _ = self.act(*action);
        }
    }

    /// Legal actions of `kind` whose first arguments are `prefix`.
    fn matching<'a>(&'a self, kind: ActionKind, prefix: &'a [i64]) -> impl Iterator<Item = &'a Action> + 'a {
        self.legal.iter().filter(move |a| a.kind == kind && a.args[..prefix.len().min(a.args.len())] == *prefix)
    }

    /// Turns events into log lines, dice to draw and statistics.
    fn record_events(&mut self, events: &[Event]) {
        let turn = self.state.turn.number;
        let mut actor = None;
        for event in events {
            match event {
                Event::Acted { seat, .. } => actor = Some(*seat),
                Event::Rolled { roll, sides, faces, value } => {
                    let seat = actor.unwrap_or(self.state.turn.seat);
                    if let Some(stats) = self.stats.get_mut(seat as usize) {
                        stats.rolls += 1;
                    }
                    self.last_rolls.push(RollShown {
                        name: roll.clone(),
                        sides: *sides,
                        faces: faces.clone(),
                        value: *value,
                        seat,
                    });
                }
                Event::Decided { success } => {
                    if let Some(stats) = actor.and_then(|s| self.stats.get_mut(s as usize)) {
                        if *success {
                            stats.successes += 1;
                        } else {
                            stats.failures += 1;
                        }
                    }
                }
                _ => {}
            }
        }
        let start = self.events.len();
        self.events.extend(events.iter().map(|event| (turn, event.clone())));
        self.write_log(start);
        if events.iter().any(|event| matches!(event, Event::Opened { .. })) {
            self.find_opened();
        }
    }

    /// How many events the game has had (undo and a reload wind it back).
    pub fn event_count(&self) -> usize {
        self.events.len()
    }

    /// The events from `start` on, as the seat the window shows may see them.
    pub fn seen_events(&self, start: usize) -> Vec<Event> {
        self.events.iter().skip(start).filter_map(|(_, event)| event.seen_by(&self.rules, self.viewer)).collect()
    }

    /// The state from before the last action, once, when [`Session::keep_before`] is set.
    pub fn take_before(&mut self) -> Option<GameState> {
        self.before.take()
    }

    /// Finds the last opening of sealed answers again, as the viewer sees it.
    fn find_opened(&mut self) {
        self.opened = opened::last_opening(&self.rules, &self.state, &self.events, self.viewer);
    }

    /// Appends the log lines of the events from `start` on, each as the viewer may see it.
    fn write_log(&mut self, start: usize) {
        let Session { rules, state, events, log, viewer, pieces_at_start, pieces_logged, .. } = self;
        // Each line names the pieces as they were when it happened — "Red's guard now belongs
        // to Bandits", not "Bandits' guard now belongs to Bandits"; "a wagon (crate ×2) moves"
        // before a third crate is loaded — so the state's pieces stand aside for a copy brought
        // forward event by event.
        let mut naming = if start == 0 { pieces_at_start.clone() } else { std::mem::take(pieces_logged) };
        std::mem::swap(&mut state.pieces, &mut naming);
        let now = naming;
        let mut actor = None;
        for (i, (turn, event)) in events.iter().enumerate().skip(start) {
            let placed = matches!(event, Event::PiecePlaced { .. } | Event::PiecePlacedBetween { .. });
            if placed {
                follow_event(&mut state.pieces, event, &now);
            }
            if let Event::Acted { seat, .. } = event {
                actor = Some(*seat);
            }
            // Passing to decline an offer is said by the `declined` line that follows, not as
            // passing the phase ("End turn").
            if let Event::Acted { action, .. } = event
                && action.kind == ActionKind::Pass
                && matches!(events.get(i + 1), Some((_, Event::Declined { .. })))
            {
                continue;
            }
            let Some(seen) = event.seen_by(rules, *viewer) else { continue };
            if let Some(text) = describe::event(rules, state, &seen) {
                let seat = match event {
                    Event::TurnStarted { seat, .. } | Event::Acted { seat, .. } => Some(*seat),
                    _ => actor,
                };
                log.push(LogLine { turn: *turn, seat, text, event: i, kind: LineKind::of(event) });
            }
            if !placed {
                follow_event(&mut state.pieces, event, &now);
            }
        }
        *pieces_logged = std::mem::replace(&mut state.pieces, now);
    }

    /// Writes the whole log again, for the viewer.
    fn rewrite_log(&mut self) {
        self.log.clear();
        self.write_log(0);
        self.find_opened();
    }

    /// Follows the person at the screen ([`Session::viewer`]): what the window shows of the
    /// game, and the log, become that seat's.
    fn follow_viewer(&mut self) {
        if self.is_human_turn() {
            self.last_person = Some(self.seat());
        }
        let first_person = (0..self.state.seats.len() as u8).find(|&seat| self.is_human(seat));
        let viewer = self.last_person.or(first_person).unwrap_or(NO_SEAT);
        if viewer != self.viewer {
            self.viewer = viewer;
            self.rewrite_log();
        }
        self.view = self.state.view_for(&self.rules, viewer);
    }
}

/// Whether an event shows dice or cards: the last roll shown gives way, and undo stops there.
fn reveals(event: &Event) -> bool {
    matches!(
        event,
        Event::Rolled { .. } | Event::CardsDrawn { .. } | Event::Shuffled { .. } | Event::CardsRevealed { .. }
    )
}

/// A revision no session has had: a session replaced by another (a reload) never looks unchanged.
fn next_revision() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// What a reload under changed rules dropped: the first action the new rules refuse (counting
/// from 0), how many actions the game had, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Rewound {
    pub refused: usize,
    pub of: usize,
    pub reason: String,
}

impl Rewound {
    /// The plain words for it.
    pub fn describe(&self) -> String {
        let dropped = self.of - self.refused;
        format!(
            "The changed rules refuse move {} of {} ({}). The game was wound back to before it: {dropped} move{} \
             no longer count.",
            self.refused + 1,
            self.of,
            self.reason,
            if dropped == 1 { "" } else { "s" }
        )
    }
}

/// How many arguments of an action are chosen in its current step (those before the first
/// `NOT_CHOSEN`, or all its parameters).
fn stage_len(rules: &Ruleset, action: &Action) -> usize {
    let params = match action.kind {
        ActionKind::Rule(index) => rules.actions.get(index as usize).map_or(0, |r| r.params.len()),
        _ => 0,
    };
    action.args[..params.min(action.args.len())].iter().position(|&a| a == NOT_CHOSEN).unwrap_or(params)
}

/// A saved game re-played: the state at the start and after each action, the actions with
/// their seats, and every event.
pub struct Replayed {
    pub states: Vec<GameState>,
    pub history: Vec<(u8, Action)>,
    pub events: Vec<Event>,
}

/// Re-plays a saved game, checking the saved hash.
pub fn replay_states(rules: &Arc<Ruleset>, save: &SaveFile, shown: &str) -> Result<Replayed, String> {
    let mut engine = Engine::new(rules.clone()).map_err(|e| e.to_string())?;
    let mut events = Events::recording();
    let (last, history) = save.replay(&mut engine, shown, &mut Events::discard()).map_err(|e| e.to_string())?;
    let mut state = engine.new_game(&save.setup, &mut events).map_err(|e| e.to_string())?;
    let mut states = vec![state.clone()];
    for (seat, action) in &history {
        engine.apply_as(&mut state, *seat, action, &mut events).map_err(|e| e.to_string())?;
        states.push(state.clone());
    }
    debug_assert_eq!(last.hash_hex(), state.hash_hex());
    Ok(Replayed { states, history, events: events.take() })
}

/// An action as words for a person, e.g. "Attack 12 7".
pub fn action_text(rules: &Ruleset, state: &GameState, action: &Action) -> String {
    match action.kind {
        ActionKind::Pass if !state.turn.offers.is_empty() => "Decline".into(),
        ActionKind::Pass => rules.phases[state.turn.phase as usize].pass_label.clone(),
        ActionKind::Leave => "Leave the game".into(),
        ActionKind::Cancel => "Cancel".into(),
        ActionKind::Rule(index) => {
            let rule = &rules.actions[index as usize];
            // "Attack a structure: Blue's army at C02, Red's wall between B02 and C02": the
            // arguments after a colon and apart, since a piece's name has spaces of its own.
            let args: Vec<String> = rule
                .params
                .iter()
                .zip(&action.args)
                .filter(|(_, arg)| **arg != NOT_CHOSEN)
                .map(|(param, &arg)| describe::arg(rules, state, param.kind, arg))
                .collect();
            if args.is_empty() { rule.label.clone() } else { format!("{}: {}", rule.label, args.join(", ")) }
        }
    }
}

/// The winner seats of an outcome.
pub fn winning_seats(outcome: &Outcome) -> Vec<u8> {
    match outcome {
        Outcome::Win { seats } => seats.clone(),
        Outcome::Draw { .. } => Vec::new(),
    }
}

/// Whether a parameter kind names something on the board.
pub fn is_placed(kind: ParamKind) -> bool {
    matches!(kind, ParamKind::Space | ParamKind::Piece | ParamKind::Held)
}

/// Brings `pieces` (as they stood before `event`) to how they stood after it, for naming them in
/// the log; `now` gives a placed piece's kind and stats.
fn follow_event(pieces: &mut Vec<Piece>, event: &Event, now: &[Piece]) {
    use meeple_engine::game::state::{NO_PIECE, NO_SPACE};
    let mut placed = |piece: u32, owner: &Option<u8>, space: u32, across: u32| {
        let index = piece as usize;
        let Some(mut fresh) = now.get(index).cloned() else { return };
        if pieces.len() <= index {
            pieces.extend(now[pieces.len()..=index].iter().cloned());
        }
        fresh.owner = owner.unwrap_or(NO_SEAT);
        fresh.space = space;
        fresh.across = across;
        fresh.inside = NO_PIECE;
        fresh.alive = true;
        pieces[index] = fresh;
    };
    match event {
        Event::PiecePlaced { piece, owner, space, .. } => placed(*piece, owner, *space, NO_SPACE),
        Event::PiecePlacedBetween { piece, owner, space, across, .. } => placed(*piece, owner, *space, *across),
        _ => {}
    }
    let Some(piece) = (match event {
        Event::PieceMoved { piece, .. }
        | Event::PieceInsideChanged { piece, .. }
        | Event::PieceOwnerChanged { piece, .. }
        | Event::PieceRemoved { piece }
        | Event::StatChanged { piece, .. } => pieces.get_mut(*piece as usize),
        _ => None,
    }) else {
        return;
    };
    match event {
        Event::PieceMoved { to, .. } => piece.space = to.unwrap_or(NO_SPACE),
        Event::PieceInsideChanged { to, .. } => piece.inside = to.unwrap_or(NO_PIECE),
        Event::PieceOwnerChanged { to, .. } => piece.owner = to.unwrap_or(NO_SEAT),
        Event::PieceRemoved { .. } => piece.alive = false,
        Event::StatChanged { stat, to, .. } => {
            if let Some(value) = piece.stats.get_mut(*stat as usize) {
                *value = *to;
            }
        }
        _ => {}
    }
}
