//! One table of the online server: its seats (people with secret tokens, computers), the game
//! once every person has confirmed, who is connected, the clocks, and what each connection at
//! the table is sent. No sockets here: the server's workers call a table and deliver what it
//! puts in the [`Outbox`], so tests drive a table directly.
//!
//! Invariants: a message is built from the receiver's view alone (a seat's
//! [`GameState::view_for`] and [`Event::seen_by`], a spectator's [`NO_SEAT`] view); a step is
//! written to the table's log before anyone is told of it, and a step that cannot be written is
//! taken back; a refused message changes nothing.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use meeple_engine::ai;
use meeple_engine::game::record::{from_record, to_record};
use meeple_engine::game::state::NO_SEAT;
use meeple_engine::game::{Action, ActionKind, ActionRecord, Engine, Event, Events, GameSetup, GameState, SeatSetup};
use meeple_engine::rules::Ruleset;
use meeple_engine::save::SaveFile;
use serde_json::value::RawValue;

use super::protocol::{ErrorCode, SeatSummary, ServerMessage, Stage, TableId, TableRequest, TableSummary};
use super::store::{Record, TableLog};

/// A connection's number on the server.
pub type ConnId = u64;

/// Messages for connections, each already written as JSON text (one text for every receiver
/// of the same view).
pub type Outbox = Vec<(ConnId, Arc<str>)>;

/// A refusal: its code and what to tell the person.
pub type Refusal = (ErrorCode, String);

fn refuse<T>(code: ErrorCode, message: impl Into<String>) -> Result<T, Refusal> {
    Err((code, message.into()))
}

/// The level the server plays a seat at when its person's clock runs out and passing is not
/// allowed, or a person is away for good in a mod without leaving.
const STAND_IN_LEVEL: &str = "medium";

struct Seat {
    computer: Option<String>,
    /// The side the table chose for the seat, in a game of sides.
    side: Option<String>,
    name: String,
    token: Option<String>,
    confirmed: bool,
    /// Connections holding the seat now (a person may have the table open twice).
    connections: Vec<ConnId>,
    /// When the seat's last connection dropped, while it is held for its person.
    away_since: Option<Instant>,
    /// The computer plays the seat for its absent person.
    stand_in: bool,
}

impl Seat {
    /// Open again, for anyone to take.
    fn free(&mut self) {
        self.name.clear();
        self.token = None;
        self.confirmed = false;
        self.away_since = None;
    }
}

struct Member {
    /// The seat (0-based), or `None` for a spectator.
    seat: Option<u8>,
    /// The board (by uid) this connection was last sent.
    board_uid: Option<u64>,
}

struct Game {
    setup: GameSetup,
    state: GameState,
    history: Vec<(u8, Action)>,
    /// When the person to act runs out of time.
    deadline: Option<Instant>,
}

/// A table.
pub struct Table {
    pub id: TableId,
    request: TableRequest,
    rules: Arc<Ruleset>,
    grace: Duration,
    seats: Vec<Seat>,
    members: HashMap<ConnId, Member>,
    game: Option<Game>,
    log: Option<TableLog>,
    /// When the game ended (the table is dropped some time after).
    pub ended_at: Option<Instant>,
    /// Whether the lobby's summary of the table is out of date: its seats, stage or spectators
    /// changed (not every step: the lobby shows none of the game).
    lobby_stale: bool,
}

/// A new random token: 128 bits from the operating system, as 32 hex digits.
pub fn new_token() -> String {
    let mut bytes = [0u8; 16];
    // The system's generator does not fail on the systems Meeple runs on; were it to, the
    // standard library's randomly keyed hasher (also seeded by the system) stands in.
    if getrandom::fill(&mut bytes).is_err() {
        use std::hash::{BuildHasher, Hasher};
        for half in bytes.chunks_mut(8) {
            let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
            hasher.write_u128(
                std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_nanos(),
            );
            half.copy_from_slice(&hasher.finish().to_le_bytes());
        }
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Compares two tokens in time that depends only on their lengths.
fn same_token(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

impl Table {
    /// A new table for `request`, whose options `rules` were loaded with; its seed drawn when
    /// the request has none. Refused when the seats do not fit the game or a level is unknown.
    pub fn new(
        id: TableId,
        mut request: TableRequest,
        rules: Arc<Ruleset>,
        grace_default: u32,
    ) -> Result<Self, Refusal> {
        let range = &rules.manifest.seats;
        let count = request.seats.len();
        if count < range.min as usize || count > range.max as usize {
            return refuse(
                ErrorCode::BadTable,
                format!("{} is played by {} to {} seats, not {count}", rules.manifest.name, range.min, range.max),
            );
        }
        if request.turn_seconds.is_some_and(|s| !(1..=86_400).contains(&s))
            || request.grace_seconds.is_some_and(|s| s > 86_400)
        {
            return refuse(ErrorCode::BadTable, "a clock is 1 to 86400 seconds, a grace period at most 86400");
        }
        if request.seats.iter().all(|s| s.computer.is_some()) {
            return refuse(ErrorCode::BadTable, "a table needs at least one seat for a person");
        }
        let sides = &rules.data.seats.sides;
        for (i, seat) in request.seats.iter().enumerate() {
            if let Some(level) = &seat.computer {
                ai::player(level, 0).map_err(|e| (ErrorCode::BadTable, e))?;
            }
            match &seat.side {
                Some(side) if sides.is_empty() => {
                    return refuse(
                        ErrorCode::BadTable,
                        format!("seat {}: {} has no sides, so no side `{side}`", i + 1, rules.manifest.name),
                    );
                }
                Some(side) if !sides.iter().any(|s| &s.id == side) => {
                    let hint = meeple_engine::diag::did_you_mean(side, sides.iter().map(|s| s.id.as_str()))
                        .map(|s| format!("; did you mean `{s}`?"))
                        .unwrap_or_default();
                    return refuse(ErrorCode::BadTable, format!("seat {}: no side `{side}`{hint}", i + 1));
                }
                _ => {}
            }
        }
        if request.seed.is_none() {
            let mut bytes = [0u8; 8];
            let _ = getrandom::fill(&mut bytes);
            request.seed = Some(u64::from_le_bytes(bytes));
        }
        let grace = request.grace_seconds.unwrap_or(grace_default);
        let seats = request
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| Seat {
                computer: s.computer.clone(),
                side: s.side.clone(),
                name: match &s.computer {
                    Some(level) => format!("Computer {} ({level})", i + 1),
                    None => String::new(),
                },
                token: None,
                confirmed: s.computer.is_some(),
                connections: Vec::new(),
                away_since: None,
                stand_in: false,
            })
            .collect();
        Ok(Self {
            id,
            request,
            rules,
            grace: Duration::from_secs(u64::from(grace)),
            seats,
            members: HashMap::new(),
            game: None,
            log: None,
            ended_at: None,
            lobby_stale: true,
        })
    }

    /// The log's first line for this table.
    pub fn created_record(&self) -> Record {
        Record::Created {
            id: self.id,
            request: self.request.clone(),
            mod_version: self.rules.manifest.version.clone(),
            grace_seconds: self.grace.as_secs() as u32,
        }
    }

    /// Keeps the table's log: every change from now on is appended to it.
    pub fn keep_log(&mut self, log: TableLog) {
        self.log = Some(log);
    }

    /// Stops keeping the log (the game ended and it was filed).
    pub fn take_log(&mut self) -> Option<TableLog> {
        self.log.take()
    }

    /// Rebuilds a table from its log (the first line was read to make it): seats, the game
    /// and every action, replayed. Every seat's person counts as away from `now`, so the grace
    /// period runs from the restart.
    pub fn resume(&mut self, engine: &mut Engine, records: &[Record], now: Instant) -> Result<(), String> {
        let seat_count = self.seats.len();
        for (line, record) in records.iter().enumerate().skip(1) {
            let line = line + 1;
            let seat_index = |seat: u8| -> Result<usize, String> {
                (seat as usize).checked_sub(1).filter(|&s| s < seat_count).ok_or(format!("line {line}: no seat {seat}"))
            };
            match record {
                Record::Created { .. } => return Err(format!("line {line}: a second creation")),
                Record::Seated { seat, name, token } => {
                    let s = &mut self.seats[seat_index(*seat)?];
                    s.name = name.clone();
                    s.token = Some(token.clone());
                }
                Record::Freed { seat } => self.seats[seat_index(*seat)?].free(),
                Record::Confirmed { seat } => self.seats[seat_index(*seat)?].confirmed = true,
                Record::Started { setup } => {
                    let mut events = Events::discard();
                    let state = engine.new_game(setup, &mut events).map_err(|e| format!("line {line}: {e}"))?;
                    self.game = Some(Game { setup: setup.clone(), state, history: Vec::new(), deadline: None });
                }
                Record::Action { action } => {
                    let game = self.game.as_mut().ok_or(format!("line {line}: an action before the game"))?;
                    let (seat, compact) =
                        from_record(&self.rules, &game.state, action).map_err(|e| format!("line {line}: {e}"))?;
                    let mut events = Events::discard();
                    engine
                        .apply_as(&mut game.state, seat, &compact, &mut events)
                        .map_err(|e| format!("line {line}: {e}"))?;
                    game.history.push((seat, compact));
                }
                Record::StandIn { seat, on } => self.seats[seat_index(*seat)?].stand_in = *on,
            }
        }
        for seat in &mut self.seats {
            if seat.token.is_some() {
                seat.away_since = Some(now);
            }
        }
        if let Some(game) = &mut self.game
            && game.state.outcome.is_some()
        {
            self.ended_at = Some(now);
        }
        self.start_clock(now);
        Ok(())
    }

    /// Appends to the log (when the table keeps one).
    fn write(&mut self, record: &Record) -> Result<(), Refusal> {
        match &mut self.log {
            Some(log) => log.append(record).map_err(|e| {
                (ErrorCode::NotNow, format!("the server cannot keep the table's log ({e}); nothing changed"))
            }),
            None => Ok(()),
        }
    }

    pub fn rules(&self) -> &Arc<Ruleset> {
        &self.rules
    }

    pub fn stage(&self) -> Stage {
        match &self.game {
            None => Stage::Gathering,
            Some(game) if game.state.outcome.is_some() => Stage::Over,
            Some(_) => Stage::Playing,
        }
    }

    pub fn is_member(&self, conn: ConnId) -> bool {
        self.members.contains_key(&conn)
    }

    pub fn has_members(&self) -> bool {
        !self.members.is_empty()
    }

    fn seat_summaries(&self) -> Vec<SeatSummary> {
        self.seats
            .iter()
            .map(|s| SeatSummary {
                name: s.name.clone(),
                computer: s.computer.clone(),
                side: s.side.clone(),
                taken: s.token.is_some(),
                confirmed: s.confirmed,
                connected: !s.connections.is_empty(),
                stand_in: s.stand_in,
            })
            .collect()
    }

    pub fn summary(&self) -> TableSummary {
        TableSummary {
            id: self.id,
            game: self.rules.manifest.id.clone(),
            options: self.request.options.clone(),
            seats: self.seat_summaries(),
            stage: self.stage(),
            turn_seconds: self.request.turn_seconds,
            grace_seconds: self.grace.as_secs() as u32,
            spectators: self.members.values().filter(|m| m.seat.is_none()).count() as u32,
        }
    }

    /// The table's summary when the lobby's is out of date, once.
    pub fn changed_summary(&mut self) -> Option<TableSummary> {
        std::mem::take(&mut self.lobby_stale).then(|| self.summary())
    }

    fn tell_everyone_the_table(&mut self, out: &mut Outbox) {
        self.lobby_stale = true;
        let text = message_text(&ServerMessage::Table { table: self.summary() });
        for conn in self.members.keys() {
            out.push((*conn, text.clone()));
        }
    }

    /// The seat `conn` holds here.
    fn seat_of(&self, conn: ConnId) -> Result<u8, Refusal> {
        match self.members.get(&conn).and_then(|m| m.seat) {
            Some(seat) => Ok(seat),
            None => refuse(ErrorCode::Seat, format!("this connection holds no seat at table {}", self.id)),
        }
    }

    /// A person takes an open seat (1-based) and gets its token.
    pub fn join(&mut self, conn: ConnId, seat: u8, name: &str, out: &mut Outbox) -> Result<(), Refusal> {
        if self.game.is_some() {
            return refuse(
                ErrorCode::NotNow,
                format!("table {}'s game has begun: its seats are taken back with a token", self.id),
            );
        }
        if self.members.get(&conn).is_some_and(|m| m.seat.is_some()) {
            return refuse(ErrorCode::Seat, format!("this connection already holds a seat at table {}", self.id));
        }
        let index = (seat as usize).wrapping_sub(1);
        let Some(wanted) = self.seats.get(index) else {
            return refuse(ErrorCode::Seat, format!("table {} has seats 1 to {}", self.id, self.seats.len()));
        };
        if wanted.computer.is_some() {
            return refuse(ErrorCode::Seat, format!("seat {seat} is the computer's"));
        }
        if wanted.token.is_some() {
            return refuse(ErrorCode::Seat, format!("seat {seat} is taken"));
        }
        let token = new_token();
        self.write(&Record::Seated { seat, name: name.to_string(), token: token.clone() })?;
        let wanted = &mut self.seats[index];
        wanted.name = name.to_string();
        wanted.token = Some(token.clone());
        wanted.connections.push(conn);
        wanted.away_since = None;
        self.members.insert(conn, Member { seat: Some(index as u8), board_uid: None });
        out.push((conn, message_text(&ServerMessage::Joined { table: self.id, seat, token })));
        self.tell_everyone_the_table(out);
        Ok(())
    }

    /// Takes a seat back with its token, from any connection; sends the game as it stands.
    pub fn rejoin(
        &mut self,
        engine: &mut Engine,
        conn: ConnId,
        token: &str,
        now: Instant,
        out: &mut Outbox,
    ) -> Result<(), Refusal> {
        let Some(index) = self.seats.iter().position(|s| s.token.as_deref().is_some_and(|t| same_token(t, token)))
        else {
            return refuse(ErrorCode::Token, format!("that token holds no seat at table {}", self.id));
        };
        if self.members.get(&conn).is_some_and(|m| m.seat.is_some_and(|s| s as usize != index)) {
            return refuse(ErrorCode::Seat, format!("this connection already holds another seat at table {}", self.id));
        }
        let seat = &mut self.seats[index];
        // The seat is played from one place: a connection that held it before (a window left
        // open on another machine) is told, and no longer plays it.
        for before in std::mem::take(&mut seat.connections) {
            if before != conn {
                self.members.remove(&before);
                let message = format!(
                    "seat {} of table {} was taken back on another connection: this one no longer plays it",
                    index + 1,
                    self.id
                );
                out.push((before, message_text(&ServerMessage::Error { code: ErrorCode::Seat, message })));
            }
        }
        let seat = &mut self.seats[index];
        seat.connections.push(conn);
        seat.away_since = None;
        if seat.stand_in {
            seat.stand_in = false;
            self.write(&Record::StandIn { seat: index as u8 + 1, on: false })?;
        }
        self.members.insert(conn, Member { seat: Some(index as u8), board_uid: None });
        let token = self.seats[index].token.clone().unwrap_or_default();
        out.push((conn, message_text(&ServerMessage::Joined { table: self.id, seat: index as u8 + 1, token })));
        self.tell_everyone_the_table(out);
        if self.game.is_some() {
            self.send_game(engine, &[], Some(conn), now, out);
        }
        Ok(())
    }

    /// Watches as a spectator; sends the game as it stands.
    pub fn watch(&mut self, engine: &mut Engine, conn: ConnId, now: Instant, out: &mut Outbox) -> Result<(), Refusal> {
        if self.members.get(&conn).is_some_and(|m| m.seat.is_some()) {
            return refuse(ErrorCode::Seat, "a seat's connection sees the game from its seat");
        }
        self.members.insert(conn, Member { seat: None, board_uid: None });
        self.lobby_stale = true;
        out.push((conn, message_text(&ServerMessage::Table { table: self.summary() })));
        if self.game.is_some() {
            self.send_game(engine, &[], Some(conn), now, out);
        }
        Ok(())
    }

    /// The seat of `conn` is ready; the game starts once every person's seat is.
    pub fn confirm(
        &mut self,
        engine: &mut Engine,
        conn: ConnId,
        now: Instant,
        out: &mut Outbox,
    ) -> Result<(), Refusal> {
        let seat = self.seat_of(conn)?;
        if self.game.is_some() {
            return refuse(ErrorCode::NotNow, "the game has begun");
        }
        if !self.seats[seat as usize].confirmed {
            self.write(&Record::Confirmed { seat: seat + 1 })?;
            self.seats[seat as usize].confirmed = true;
        }
        if self.seats.iter().all(|s| s.confirmed && (s.computer.is_some() || s.token.is_some())) {
            self.start(engine, now, out)?;
        } else {
            self.tell_everyone_the_table(out);
        }
        Ok(())
    }

    fn start(&mut self, engine: &mut Engine, now: Instant, out: &mut Outbox) -> Result<(), Refusal> {
        let seed = self.request.seed.unwrap_or_default();
        let seats = self.seats.iter().map(|s| (s.name.as_str(), s.computer.as_ref(), s.side.as_ref()));
        let setup = table_setup(&self.rules, seed, seats);
        let mut events = Events::recording();
        let state = engine
            .new_game(&setup, &mut events)
            .map_err(|e| (ErrorCode::BadTable, format!("the game cannot start: {e}")))?;
        self.write(&Record::Started { setup: setup.clone() })?;
        self.game = Some(Game { setup, state, history: Vec::new(), deadline: None });
        self.tell_everyone_the_table(out);
        self.start_clock(now);
        self.send_game(engine, events.list(), None, now, out);
        Ok(())
    }

    /// An action of the seat `conn` holds, meant for game step `step`.
    pub fn act(
        &mut self,
        engine: &mut Engine,
        conn: ConnId,
        step: u64,
        record: &ActionRecord,
        now: Instant,
        out: &mut Outbox,
    ) -> Result<(), Refusal> {
        let seat = self.seat_of(conn)?;
        let Some(game) = &self.game else { return refuse(ErrorCode::NotNow, "the game has not begun") };
        if game.state.outcome.is_some() {
            return refuse(ErrorCode::NotNow, "the game is over");
        }
        if step != game.history.len() as u64 {
            return refuse(
                ErrorCode::NotNow,
                format!("that action was meant for step {step}; the game is at step {}", game.history.len()),
            );
        }
        if record.seat.is_some_and(|s| s != seat + 1) {
            return refuse(ErrorCode::Seat, "an action is taken for the connection's own seat only");
        }
        let mut record = record.clone();
        record.seat = Some(seat + 1);
        let (_, action) = from_record(&self.rules, &game.state, &record).map_err(|e| (ErrorCode::Refused, e))?;
        if seat != game.state.to_act() && action.kind != ActionKind::Leave {
            return refuse(ErrorCode::NotNow, format!("it is seat {}'s move", game.state.to_act() + 1));
        }
        self.take(engine, seat, action, now, out)
    }

    /// Leaves the game by the mod's rule.
    pub fn surrender(
        &mut self,
        engine: &mut Engine,
        conn: ConnId,
        now: Instant,
        out: &mut Outbox,
    ) -> Result<(), Refusal> {
        let seat = self.seat_of(conn)?;
        if !self.rules.data.seats.allow_leaving {
            return refuse(
                ErrorCode::Refused,
                format!("{} has no leaving: a seat plays to the end", self.rules.manifest.name),
            );
        }
        match &self.game {
            Some(game) if game.state.outcome.is_none() => self.take(engine, seat, Action::leave(), now, out),
            _ => refuse(ErrorCode::NotNow, "there is no game in play to leave"),
        }
    }

    /// Applies an action for `seat`, writes it, and tells everyone. On any error nothing has
    /// changed.
    fn take(
        &mut self,
        engine: &mut Engine,
        seat: u8,
        action: Action,
        now: Instant,
        out: &mut Outbox,
    ) -> Result<(), Refusal> {
        let game = self.game.as_mut().expect("take is called with a game");
        let before = game.state.clone();
        let mut events = Events::recording();
        if let Err(error) = engine.apply_as(&mut game.state, seat, &action, &mut events) {
            game.state = before;
            return refuse(ErrorCode::Refused, error.to_string());
        }
        let record = to_record(&self.rules, &before, seat, &action);
        if let Err(refusal) = self.write(&Record::Action { action: record }) {
            self.game.as_mut().expect("still there").state = before;
            return Err(refusal);
        }
        let game = self.game.as_mut().expect("still there");
        game.history.push((seat, action));
        if game.state.outcome.is_some() {
            self.ended_at = Some(now);
            self.lobby_stale = true;
        }
        self.start_clock(now);
        self.send_game(engine, events.list(), None, now, out);
        Ok(())
    }

    /// The seat to act, when the server plays it (a computer's seat, or a stand-in).
    pub fn computer_to_act(&self) -> Option<u8> {
        let game = self.game.as_ref()?;
        if game.state.outcome.is_some() {
            return None;
        }
        let seat = game.state.to_act();
        let held = self.seats.get(seat as usize)?;
        (held.computer.is_some() || held.stand_in).then_some(seat)
    }

    /// Plays one action for the computer's seat to act. The computer's stream is drawn from
    /// the game's seed and step, so a resumed table decides as the first run would have.
    pub fn computer_step(&mut self, engine: &mut Engine, now: Instant, out: &mut Outbox) -> Result<(), String> {
        let Some(seat) = self.computer_to_act() else { return Ok(()) };
        let game = self.game.as_ref().expect("a computer acts in a game");
        let level = self.seats[seat as usize].computer.clone().unwrap_or_else(|| STAND_IN_LEVEL.into());
        let seed = meeple_engine::sim::derive_seed(game.setup.seed ^ u64::from(seat + 1), game.history.len() as u64);
        let mut player = ai::player(&level, seed)?;
        let action = player.decide(engine, &game.state).map_err(|e| e.to_string())?;
        self.take(engine, seat, action, now, out).map_err(|(_, message)| message)
    }

    /// Sets the clock of the person to act, when the table has one.
    fn start_clock(&mut self, now: Instant) {
        let Some(seconds) = self.request.turn_seconds else { return };
        let person_to_act =
            self.game.as_ref().is_some_and(|g| g.state.outcome.is_none()) && self.computer_to_act().is_none();
        if let Some(game) = &mut self.game {
            game.deadline = person_to_act.then(|| now + Duration::from_secs(u64::from(seconds)));
        }
    }

    /// The next moment something happens by itself here: a clock running out, a grace period
    /// ending, an ended table to drop.
    pub fn next_deadline(&self) -> Option<Instant> {
        let clock = self.game.as_ref().and_then(|g| g.deadline);
        let grace = self.seats.iter().filter_map(|s| s.away_since.map(|t| t + self.grace)).min();
        let drop = self.ended_at.map(|t| t + ENDED_TABLE_KEPT);
        [clock, grace, drop].into_iter().flatten().min()
    }

    /// Does what is due at `now`: a person out of time passes (or the computer decides for
    /// them, where passing is not allowed); a seat away past the grace period leaves by the
    /// mod's rule, or the computer stands in, or (before the game) is free again.
    pub fn tick(&mut self, engine: &mut Engine, now: Instant, out: &mut Outbox) -> Result<(), String> {
        for index in 0..self.seats.len() {
            let due = self.seats[index].away_since.is_some_and(|t| now >= t + self.grace);
            if due {
                self.seats[index].away_since = None;
                self.away_for_good(engine, index as u8, now, out)?;
            }
        }
        let timed_out = self.game.as_ref().and_then(|g| g.deadline).is_some_and(|d| now >= d);
        if timed_out && let Some(game) = &mut self.game {
            game.deadline = None;
        }
        if timed_out && let Some(game) = &self.game {
            let seat = game.state.to_act();
            let mut legal = Vec::new();
            engine.legal_actions(&game.state, &mut legal).map_err(|e| e.to_string())?;
            let action = match legal.iter().find(|a| a.is_pass()) {
                Some(pass) => *pass,
                None => {
                    let seed = meeple_engine::sim::derive_seed(game.setup.seed, game.history.len() as u64);
                    ai::player(STAND_IN_LEVEL, seed)?.decide(engine, &game.state).map_err(|e| e.to_string())?
                }
            };
            self.take(engine, seat, action, now, out).map_err(|(_, m)| m)?;
        }
        Ok(())
    }

    fn away_for_good(&mut self, engine: &mut Engine, seat: u8, now: Instant, out: &mut Outbox) -> Result<(), String> {
        match &self.game {
            None => {
                self.free_seat(seat)?;
                self.tell_everyone_the_table(out);
            }
            Some(game) if game.state.outcome.is_some() => {}
            Some(game) => {
                let active = game.state.seats[seat as usize].status == meeple_engine::game::state::SeatStatus::Active;
                if self.rules.data.seats.allow_leaving {
                    if active {
                        self.take(engine, seat, Action::leave(), now, out).map_err(|(_, m)| m)?;
                    }
                } else if !self.seats[seat as usize].stand_in {
                    self.write(&Record::StandIn { seat: seat + 1, on: true }).map_err(|(_, m)| m)?;
                    self.seats[seat as usize].stand_in = true;
                    self.start_clock(now);
                    self.tell_everyone_the_table(out);
                }
            }
        }
        Ok(())
    }

    /// A connection closed or got up: a seat it held is held for its person for the grace
    /// period (before the game, a seat got up from is free at once).
    pub fn remove_member(&mut self, conn: ConnId, got_up: bool, now: Instant, out: &mut Outbox) -> Result<(), String> {
        let Some(member) = self.members.remove(&conn) else { return Ok(()) };
        if let Some(seat) = member.seat {
            let held = &mut self.seats[seat as usize];
            held.connections.retain(|c| *c != conn);
            if held.connections.is_empty() {
                if got_up && self.game.is_none() {
                    self.free_seat(seat)?;
                } else {
                    held.away_since = Some(now);
                }
            }
        }
        self.tell_everyone_the_table(out);
        Ok(())
    }

    /// Frees a seat before the game (its person got up, or stayed away past the grace period).
    fn free_seat(&mut self, seat: u8) -> Result<(), String> {
        self.write(&Record::Freed { seat: seat + 1 }).map_err(|(_, m)| m)?;
        self.seats[seat as usize].free();
        Ok(())
    }

    /// Sends the game to every member (or only `only`): each its own view, the events it may
    /// see, and to the seat to act the actions it may take.
    fn send_game(
        &mut self,
        engine: &mut Engine,
        events: &[Event],
        only: Option<ConnId>,
        now: Instant,
        out: &mut Outbox,
    ) {
        let Some(game) = &self.game else { return };
        let rules = &self.rules;
        let to_act = game.state.outcome.is_none().then(|| game.state.to_act());
        let legal_for_to_act: Vec<ActionRecord> = match to_act {
            Some(seat) if !self.seats[seat as usize].stand_in && self.seats[seat as usize].computer.is_none() => {
                let mut legal = Vec::new();
                let _ = engine.legal_actions(&game.state, &mut legal);
                legal.iter().map(|a| to_record(rules, &game.state, seat, a)).collect()
            }
            _ => Vec::new(),
        };
        let seats = self.seat_summaries();
        let seconds_left = game.deadline.map(|d| d.saturating_duration_since(now).as_secs() as u32);
        let outcome = game.state.outcome.clone();
        let board_uid = game.state.board.uid();
        // One text per (viewer, whether it needs the board).
        let mut texts: HashMap<(u8, bool), Arc<str>> = HashMap::new();
        let mut members: Vec<(&ConnId, &mut Member)> = self.members.iter_mut().collect();
        members.sort_by_key(|(conn, _)| **conn);
        for (conn, member) in members {
            if only.is_some_and(|o| o != *conn) {
                continue;
            }
            let viewer = member.seat.unwrap_or(NO_SEAT);
            let needs_board = member.board_uid != Some(board_uid);
            member.board_uid = Some(board_uid);
            let text = texts.entry((viewer, needs_board)).or_insert_with(|| {
                let view = game.state.view_for(rules, viewer);
                let board = needs_board.then(|| raw_json(&*view.board));
                let seen: Vec<Event> = events.iter().filter_map(|e| e.seen_by(rules, viewer)).collect();
                let update = GameUpdateOut {
                    table: self.id,
                    seat: member.seat.map(|s| s + 1),
                    step: game.history.len() as u64,
                    board: board.as_deref(),
                    view: &view_without_board(view),
                    events: &raw_json(&seen),
                    to_act: to_act.map(|s| s + 1),
                    legal: if to_act == Some(viewer) { &legal_for_to_act } else { &[] },
                    seconds_left,
                    seats: &seats,
                    outcome: outcome.as_ref(),
                };
                serde_json::to_string(&ServerMessageOut::Game(update)).unwrap_or_default().into()
            });
            out.push((*conn, text.clone()));
        }
    }

    /// The save file of the game so far (a replay the window can watch).
    pub fn save_file(&self) -> Option<SaveFile> {
        let game = self.game.as_ref()?;
        Some(SaveFile::new(&self.rules, &game.setup, &game.history, &game.state))
    }

    /// The game's state (the referee's, for the server's own checks and tests).
    pub fn state(&self) -> Option<&GameState> {
        self.game.as_ref().map(|g| &g.state)
    }
}

/// How long an ended table stays for its members to see the end.
pub const ENDED_TABLE_KEPT: Duration = Duration::from_secs(600);

/// A message as the JSON text sent.
pub fn message_text(message: &ServerMessage) -> Arc<str> {
    serde_json::to_string(message).unwrap_or_default().into()
}

/// JSON text written straight from a value (no tree of JSON values in between).
fn raw_json<T: serde::Serialize + ?Sized>(value: &T) -> Box<RawValue> {
    serde_json::value::to_raw_value(value)
        .unwrap_or_else(|_| RawValue::from_string("null".into()).expect("null is JSON"))
}

/// A view's JSON without its board (sent apart, once). The board is the state's first field,
/// so the view is written with a small stand-in board and that field cut from the front; were
/// the state's layout ever to change, the view goes through a JSON tree instead.
fn view_without_board(mut view: GameState) -> Box<RawValue> {
    thread_local! {
        static STAND_IN: (Arc<meeple_engine::board::Board>, String) = {
            let board = GameState::placeholder().board;
            let text = format!("{{\"board\":{},", serde_json::to_string(&*board).unwrap_or_default());
            (board, text)
        };
    }
    STAND_IN.with(|(board, prefix)| {
        view.board = board.clone();
        let text = serde_json::to_string(&view).unwrap_or_default();
        match text.strip_prefix(prefix.as_str()) {
            Some(rest) => {
                RawValue::from_string(format!("{{{rest}")).unwrap_or_else(|_| raw_json(&serde_json::Value::Null))
            }
            None => {
                let mut tree = serde_json::to_value(&view).unwrap_or_default();
                if let Some(object) = tree.as_object_mut() {
                    object.remove("board");
                }
                raw_json(&tree)
            }
        }
    })
}

/// [`ServerMessage::Game`] as the server writes it: the same JSON, written from borrowed parts
/// and ready-made JSON text rather than built as a tree first (most of a step's cost).
#[derive(serde::Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum ServerMessageOut<'a> {
    Game(GameUpdateOut<'a>),
}

/// [`super::protocol::GameUpdate`], borrowed; field for field the same JSON.
#[derive(serde::Serialize)]
struct GameUpdateOut<'a> {
    table: TableId,
    #[serde(skip_serializing_if = "Option::is_none")]
    seat: Option<u8>,
    step: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    board: Option<&'a RawValue>,
    view: &'a RawValue,
    events: &'a RawValue,
    #[serde(skip_serializing_if = "Option::is_none")]
    to_act: Option<u8>,
    #[serde(skip_serializing_if = "<[ActionRecord]>::is_empty")]
    legal: &'a [ActionRecord],
    #[serde(skip_serializing_if = "Option::is_none")]
    seconds_left: Option<u32>,
    seats: &'a [SeatSummary],
    #[serde(skip_serializing_if = "Option::is_none")]
    outcome: Option<&'a meeple_engine::game::state::Outcome>,
}

/// The setup of a table's game: each seat's name, computer level (a person's seat has none) and
/// side, with the options the rules were loaded with. A client builds it from the seat list
/// (with no seed: the server keeps that).
pub fn table_setup<'a>(
    rules: &Ruleset,
    seed: u64,
    seats: impl ExactSizeIterator<Item = (&'a str, Option<&'a String>, Option<&'a String>)>,
) -> GameSetup {
    let mut setup = GameSetup::new(rules, seed, seats.len(), "human");
    setup.options = rules.chosen_options.clone();
    setup.seats = seats
        .map(|(name, computer, side)| SeatSetup {
            name: name.to_string(),
            controller: computer.cloned().unwrap_or_else(|| "human".into()),
            side: side.cloned(),
            player: None,
        })
        .collect();
    setup
}

/// Rebuilds the game state a client sees from a `game` message's `view` and the board last
/// sent: what the window draws and a computer client decides from.
pub fn state_from_view(view: &serde_json::Value, board: &serde_json::Value) -> Result<GameState, String> {
    let mut object = view.as_object().cloned().ok_or("the view is not an object")?;
    object.insert("board".into(), board.clone());
    let mut state: GameState = serde_json::from_value(serde_json::Value::Object(object))
        .map_err(|e| format!("the view does not read: {e}"))?;
    state.rebuild_derived();
    Ok(state)
}
