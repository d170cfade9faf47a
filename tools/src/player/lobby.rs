//! "Play online": a server's address, its tables (game, seats taken, options, clock), a form to
//! open a table (game, options, seats for people or computers at a level, a turn clock), and
//! the seats this window holds, to confirm or to go back to. A game that starts at a table the
//! window sits at or watches opens on the ordinary game screen, driven by the server
//! ([`OnlineTable`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use egui::{Color32, RichText};
use meeple_engine::rules::Ruleset;

use super::catalog::{self, ModEntry};
use super::replay::ReplayViewer;
use super::session::{RemoteUpdate, Session};
use crate::online::link::{Link, LinkEvent};
use crate::online::protocol::{
    ClientMessage, ErrorCode, GameOffer, GameUpdate, SeatRequest, SeatSummary, ServerMessage, Stage, TableId,
    TableRequest, TableSummary,
};

/// The server the address field starts with: `meeple serve`'s default address.
pub const DEFAULT_ADDRESS: &str = "ws://127.0.0.1:7878";

/// How often the table list is asked for again while the lobby is shown (seconds).
const TABLES_REFRESHED_EVERY: f64 = 3.0;

/// The lobby's state: the connection, what the server offers, and what this window holds.
pub struct Lobby {
    pub address: String,
    /// The name the window's person sits down with.
    pub name: String,
    /// The game the form offers first, when the server has it (the one chosen in the launcher).
    pub preferred_game: Option<String>,
    pub link: Option<Link>,
    /// The games the server offers.
    pub games: Vec<GameOffer>,
    /// The server's tables, as last listed.
    pub tables: Vec<TableSummary>,
    /// The seats this window holds at the server connected to: table → (seat, 1-based; its
    /// token).
    pub held: BTreeMap<TableId, (u8, String)>,
    /// Where the seats held are kept between runs ([`KeptSeats`]); none in tests.
    pub kept_file: Option<PathBuf>,
    /// The table and token typed in to take a seat back (from another machine).
    pub rejoin_table: String,
    pub rejoin_token: String,
    /// The table this window watches, if any.
    pub watching: Option<TableId>,
    pub form: TableForm,
    /// What the server last said or refused, or why the connection ended.
    pub status: Option<String>,
    /// A table was asked for: the window sits at its first seat for a person once it is made.
    creating: bool,
    /// When the tables were last asked for (window time).
    listed_at: f64,
    /// The tables were asked for and the answer has not come: no second question meanwhile.
    listing: bool,
    /// What arrived after a game started, for the game screen to read first.
    unread: Vec<LinkEvent>,
}

/// The form that opens a table.
#[derive(Clone, Debug, Default)]
pub struct TableForm {
    /// The game, an index into the server's offers.
    pub game: usize,
    /// Option id → choice.
    pub options: BTreeMap<String, String>,
    /// Each seat: a person's (no `computer`) or a computer's at a level, and its side in a
    /// game of sides.
    pub seats: Vec<SeatRequest>,
    /// Whether each decision has a clock, and its seconds.
    pub clock: bool,
    pub turn_seconds: u32,
}

/// What the lobby asks the window to do.
pub enum LobbyChoice {
    /// Back to the list of games.
    Back,
    /// A game started (or was taken back) at a table: play or watch it.
    Play(Box<Session>, Box<OnlineTable>),
    /// An ended table's game, to watch from its start.
    Replay(Box<ReplayViewer>),
}

impl Default for Lobby {
    fn default() -> Self {
        Self::new()
    }
}

impl Lobby {
    pub fn new() -> Self {
        Self {
            address: DEFAULT_ADDRESS.into(),
            name: "Player".into(),
            preferred_game: None,
            link: None,
            games: Vec::new(),
            tables: Vec::new(),
            held: BTreeMap::new(),
            kept_file: None,
            rejoin_table: String::new(),
            rejoin_token: String::new(),
            watching: None,
            form: TableForm { turn_seconds: 60, ..TableForm::default() },
            status: None,
            creating: false,
            listed_at: f64::NEG_INFINITY,
            listing: false,
            unread: Vec::new(),
        }
    }

    /// What arrived and is not read yet, in order.
    fn arrived(&mut self) -> Vec<LinkEvent> {
        let mut events = std::mem::take(&mut self.unread);
        if let Some(link) = &mut self.link {
            events.extend(link.poll());
        }
        events
    }

    /// Connects to the address in the field (dropping any connection before).
    pub fn connect(&mut self, ctx: &egui::Context) {
        let ctx = ctx.clone();
        let address = self.address.trim();
        let url = if address.contains("://") { address.to_string() } else { format!("ws://{address}") };
        if self.link.as_ref().is_none_or(|link| link.url() != url) {
            // What was known belongs to another server (the seats held there are kept in the
            // file).
            self.held.clear();
            self.tables.clear();
        }
        self.link = Some(Link::connect(&url, move || ctx.request_repaint()));
        self.status = Some(format!("Connecting to {url}…"));
    }

    /// Whether the server has said welcome and the connection holds.
    pub fn is_connected(&self) -> bool {
        self.link.as_ref().is_some_and(Link::is_open)
    }

    /// Sends a message; says so when there is no connection.
    pub fn send(&mut self, message: ClientMessage) {
        if !self.link.as_ref().is_some_and(|link| link.send(message)) {
            self.status = Some("Not connected to a server".into());
        }
    }

    /// The table with this number, as last listed.
    pub fn table(&self, id: TableId) -> Option<&TableSummary> {
        self.tables.iter().find(|t| t.id == id)
    }

    /// Opens a table as the form describes it.
    pub fn create_table(&mut self) {
        let Some(offer) = self.games.get(self.form.game) else { return };
        let request = TableRequest {
            game: offer.id.clone(),
            options: self.form.options.clone(),
            seats: self.form.seats.clone(),
            seed: None,
            turn_seconds: self.form.clock.then_some(self.form.turn_seconds.clamp(1, 86_400)),
            grace_seconds: None,
        };
        self.creating = true;
        self.send(ClientMessage::CreateTable(request));
    }

    /// Takes a seat (1-based) at a table.
    pub fn join(&mut self, table: TableId, seat: u8) {
        let name = self.name.trim().chars().take(crate::online::protocol::MAX_NAME_CHARS).collect::<String>();
        let name = if name.is_empty() { "Player".to_string() } else { name };
        self.send(ClientMessage::Join { table, seat, name });
    }

    /// Reads what the server sent; a game starting at a table this window sits at or watches
    /// is returned, ready to play.
    pub fn exchange(&mut self, mods: &[ModEntry], now: f64) -> Option<LobbyChoice> {
        let mut events = self.arrived().into_iter();
        while let Some(event) = events.next() {
            match event {
                LinkEvent::Connected { games } => {
                    self.listing = false;
                    self.status = Some(format!(
                        "Connected: {} game{} offered",
                        games.len(),
                        if games.len() == 1 { "" } else { "s" }
                    ));
                    self.games = games;
                    self.fit_form();
                    self.listed_at = f64::NEG_INFINITY;
                    if let (Some(file), Some(link)) = (&self.kept_file, &self.link) {
                        self.held.extend(KeptSeats::read(file).at(link.url()));
                    }
                    self.keep_seats();
                }
                LinkEvent::Lost(why) => self.status = Some(format!("Not connected: {why}")),
                LinkEvent::Message(message) => {
                    if let Some(play) = self.take(message, mods, now) {
                        // The game screen reads what came after the game's start.
                        self.unread = events.collect();
                        return Some(play);
                    }
                }
            }
        }
        if self.is_connected() && !self.listing && now - self.listed_at >= TABLES_REFRESHED_EVERY {
            self.listed_at = now;
            self.listing = true;
            self.send(ClientMessage::ListTables {});
        }
        None
    }

    /// Takes in one message from the server.
    fn take(&mut self, message: ServerMessage, mods: &[ModEntry], now: f64) -> Option<LobbyChoice> {
        match message {
            ServerMessage::Tables { tables } => {
                // A table gone (ended long ago, or the server's data cleared) holds no seat.
                // An ended game's seat is of no more use.
                let before = self.held.len();
                self.held.retain(|id, _| tables.iter().any(|t| t.id == *id && t.stage != Stage::Over));
                if self.held.len() != before {
                    self.keep_seats();
                }
                self.tables = tables;
                self.listing = false;
            }
            ServerMessage::Table { table } => {
                let new = self.table(table.id).is_none();
                let first_person_seat = table.seats.iter().position(|s| s.computer.is_none() && !s.taken);
                let id = table.id;
                match self.tables.iter_mut().find(|t| t.id == id) {
                    Some(known) => *known = table,
                    None => self.tables.insert(0, table),
                }
                if std::mem::take(&mut self.creating) && new {
                    // The table just asked for: sit down at it.
                    if let Some(seat) = first_person_seat {
                        self.join(id, seat as u8 + 1);
                    }
                }
            }
            ServerMessage::Joined { table, seat, token } => {
                self.held.insert(table, (seat, token));
                self.keep_seats();
                self.status = Some(format!("You sit at seat {seat} of table {table}"));
            }
            ServerMessage::Game(update) => {
                let seated = self.held.get(&update.table).map(|(seat, _)| *seat);
                if seated.is_some() || self.watching == Some(update.table) {
                    match self.start_game(&update, seated, mods) {
                        Ok(session) => {
                            let table = OnlineTable::new(update.table, seated, &update, now);
                            return Some(LobbyChoice::Play(Box::new(session), Box::new(table)));
                        }
                        Err(why) => self.status = Some(why),
                    }
                }
            }
            ServerMessage::Error { message, .. } => {
                self.creating = false;
                self.status = Some(message);
            }
            ServerMessage::Welcome { games, .. } => self.games = games,
            ServerMessage::Replay { table, save } => match self.replay_of(table, &save, mods) {
                Ok(viewer) => return Some(LobbyChoice::Replay(Box::new(viewer))),
                Err(why) => self.status = Some(why),
            },
        }
        None
    }

    /// The viewer of an ended table's game, from the save the server sent.
    fn replay_of(&self, table: TableId, save: &serde_json::Value, mods: &[ModEntry]) -> Result<ReplayViewer, String> {
        let shown = format!("table {table}");
        let bytes = serde_json::to_vec(save).map_err(|e| e.to_string())?;
        let save = meeple_engine::save::SaveFile::parse(&bytes, &shown).map_err(|e| e.to_string())?;
        let rules = mods
            .iter()
            .find(|m| m.id == save.mod_ref.id)
            .and_then(|m| m.rules.as_ref())
            .ok_or_else(|| format!("{shown} is a game of `{}`, which is not among your games", save.mod_ref.id))?;
        let rules = catalog::with_options(rules, &save.setup.options)?;
        ReplayViewer::from_save(rules, &save, &shown)
    }

    /// The session of a game at a table, from its first update.
    fn start_game(&self, update: &GameUpdate, seat: Option<u8>, mods: &[ModEntry]) -> Result<Session, String> {
        let summary = self.table(update.table).ok_or("the server sent a game of a table it has not listed")?;
        let rules = local_rules(mods, summary, &self.games)?;
        let seats = summary.seats.iter().map(|s| (s.name.as_str(), s.computer.as_ref(), s.side.as_ref()));
        let setup = crate::online::table::table_setup(&rules, 0, seats);
        Session::online(rules, setup, seat.map(|s| s - 1), &remote_update(update))
    }

    /// The form's game, options and seats made to fit the server's offers.
    fn fit_form(&mut self) {
        if let Some(preferred) = self.preferred_game.take()
            && let Some(index) = self.games.iter().position(|g| g.id == preferred)
        {
            self.form.game = index;
            self.form.seats.clear();
        }
        if self.form.game >= self.games.len() {
            self.form.game = 0;
        }
        let Some(offer) = self.games.get(self.form.game) else { return };
        self.form.options.retain(|id, choice| offer.options.iter().any(|o| &o.id == id && o.choices.contains(choice)));
        for option in &offer.options {
            self.form.options.entry(option.id.clone()).or_insert_with(|| option.default.clone());
        }
        let (min, max) = (offer.min_seats as usize, offer.max_seats as usize);
        if self.form.seats.len() < min || self.form.seats.len() > max {
            let level = offer.levels.iter().find(|l| *l == "medium").or(offer.levels.first()).cloned();
            self.form.seats = (0..min.max(2).min(max))
                .map(|i| SeatRequest { computer: if i == 0 { None } else { level.clone() }, side: None })
                .collect();
        }
        // In a game of sides, each seat plays one: by turns, until the person picks.
        for (i, seat) in self.form.seats.iter_mut().enumerate() {
            let known = seat.side.as_ref().is_some_and(|side| offer.sides.iter().any(|s| &s.id == side));
            if !known {
                seat.side = offer.sides.get(i % offer.sides.len().max(1)).map(|s| s.id.clone());
            }
        }
    }

    /// Draws the lobby; returns what the person chose.
    pub fn ui(&mut self, ui: &mut egui::Ui, mods: &[ModEntry]) -> Option<LobbyChoice> {
        let now = ui.input(|i| i.time);
        let mut choice = self.exchange(mods, now);
        if self.is_connected() {
            // The list is asked for again every few seconds: a frame must come to ask.
            ui.ctx().request_repaint_after(std::time::Duration::from_secs_f64(TABLES_REFRESHED_EVERY));
        }
        egui::CentralPanel::default().show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.heading("Play online");
                if ui.button("Back to games").clicked() {
                    choice = Some(LobbyChoice::Back);
                }
            });
            ui.horizontal(|ui| {
                ui.label("Server");
                ui.add(egui::TextEdit::singleline(&mut self.address).desired_width(220.0));
                let label = if self.is_connected() { "Connect again" } else { "Connect" };
                if ui.button(label).clicked() {
                    self.connect(ui.ctx());
                }
                ui.separator();
                ui.label("Your name");
                ui.add(egui::TextEdit::singleline(&mut self.name).desired_width(140.0).char_limit(40));
            });
            if let Some(status) = &self.status {
                ui.label(RichText::new(status).small());
            }
            ui.separator();
            if !self.is_connected() {
                ui.label("Connect to a Meeple server (started with: meeple serve) to see its tables.");
                return;
            }
            egui::ScrollArea::vertical().id_salt("lobby").show(ui, |ui| {
                if let Some(play) = self.tables_ui(ui, mods) {
                    choice = Some(play);
                }
                self.rejoin_ui(ui);
                ui.separator();
                self.form_ui(ui, mods);
            });
        });
        choice
    }

    /// The server's tables, each with what this window may do at it.
    fn tables_ui(&mut self, ui: &mut egui::Ui, mods: &[ModEntry]) -> Option<LobbyChoice> {
        ui.horizontal(|ui| {
            ui.label(RichText::new("Tables").strong());
            if ui.button("Refresh").clicked() {
                self.listed_at = f64::NEG_INFINITY;
            }
        });
        if self.tables.is_empty() {
            ui.label("No tables yet: open one below.");
        }
        let mut asked = Vec::new();
        egui::Grid::new("tables").striped(true).num_columns(7).spacing([12.0, 6.0]).show(ui, |ui| {
            for head in ["Table", "Game", "Seats", "Options", "Clock", "Stage", ""] {
                ui.label(RichText::new(head).strong());
            }
            ui.end_row();
            for table in &self.tables {
                ui.label(format!("{}", table.id));
                let offer = self.games.iter().find(|g| g.id == table.game);
                let installed = local_rules(mods, table, &self.games);
                ui.label(offer.map_or(table.game.as_str(), |g| g.name.as_str()));
                ui.vertical(|ui| {
                    for (i, seat) in table.seats.iter().enumerate() {
                        let line = seat_line(i, seat, offer, table.stage);
                        ui.add(egui::Label::new(RichText::new(line).small()).extend());
                    }
                });
                let options: Vec<String> = table
                    .options
                    .iter()
                    .map(|(option, choice)| {
                        let (option, choice) = option_words(mods, &table.game, option, choice);
                        format!("{option}: {choice}")
                    })
                    .collect();
                ui.label(if options.is_empty() { "defaults".into() } else { options.join("\n") });
                ui.label(table.turn_seconds.map_or("none".into(), |s| format!("{s} s a decision")));
                ui.label(match table.stage {
                    Stage::Gathering => "gathering",
                    Stage::Playing => "playing",
                    Stage::Over => "over",
                });
                ui.vertical(|ui| {
                    let held = self.held.get(&table.id).cloned();
                    if let Err(why) = &installed {
                        ui.colored_label(Color32::LIGHT_RED, RichText::new(why).small());
                        return;
                    }
                    match (table.stage, held) {
                        (Stage::Gathering, None) => {
                            for (i, seat) in table.seats.iter().enumerate() {
                                if seat.computer.is_none()
                                    && !seat.taken
                                    && ui.button(format!("Take seat {}", i + 1)).clicked()
                                {
                                    asked.push(Asked::Join(table.id, i as u8 + 1));
                                }
                            }
                        }
                        (Stage::Gathering, Some((seat, _))) => {
                            let confirmed = table.seats.get(seat as usize - 1).is_some_and(|s| s.confirmed);
                            if confirmed {
                                ui.label("Ready: waiting for the other seats");
                            } else if ui
                                .button(RichText::new("Confirm").strong())
                                .on_hover_text("Ready to play: the game starts when every seat is taken and confirmed")
                                .clicked()
                            {
                                asked.push(Asked::Confirm(table.id));
                            }
                            if ui.button("Get up").clicked() {
                                asked.push(Asked::GetUp(table.id));
                            }
                        }
                        (Stage::Playing, Some((_, token))) => {
                            if ui.button("Back to the game").clicked() {
                                asked.push(Asked::Rejoin(table.id, token));
                            }
                        }
                        (Stage::Over, _) => {
                            if ui
                                .button("Watch the replay")
                                .on_hover_text("The whole game from its start, every card shown")
                                .clicked()
                            {
                                asked.push(Asked::Replay(table.id));
                            }
                        }
                        (Stage::Playing, None) => {}
                    }
                    if table.stage != Stage::Over
                        && !self.held.contains_key(&table.id)
                        && ui
                            .button("Watch")
                            .on_hover_text("See the game as a spectator: what every seat sees")
                            .clicked()
                    {
                        asked.push(Asked::Watch(table.id));
                    }
                });
                ui.end_row();
            }
        });
        for asked in asked {
            match asked {
                Asked::Join(table, seat) => self.join(table, seat),
                Asked::Confirm(table) => self.send(ClientMessage::Confirm { table }),
                Asked::GetUp(table) => {
                    self.held.remove(&table);
                    self.keep_seats();
                    self.send(ClientMessage::LeaveTable { table });
                }
                Asked::Rejoin(table, token) => self.send(ClientMessage::Rejoin { table, token }),
                Asked::Watch(table) => {
                    self.watching = Some(table);
                    self.send(ClientMessage::Watch { table });
                }
                Asked::Replay(table) => self.send(ClientMessage::Replay { table }),
            }
        }
        None
    }

    /// Keeps the seats held at this server in the file, for the next run.
    fn keep_seats(&self) {
        if let (Some(file), Some(link)) = (&self.kept_file, &self.link) {
            let mut kept = KeptSeats::read(file);
            kept.set(link.url(), &self.held);
            kept.address = Some(link.url().to_string());
            kept.name = Some(self.name.clone());
            kept.write(file);
        }
    }

    /// Takes the server and name kept from the last run, if any.
    pub fn recall(&mut self) {
        if let Some(file) = &self.kept_file {
            let kept = KeptSeats::read(file);
            if let Some(address) = kept.address {
                self.address = address;
            }
            if let Some(name) = kept.name {
                self.name = name;
            }
        }
    }

    /// Takes a seat back with its token, typed in (it came from another machine).
    fn rejoin_ui(&mut self, ui: &mut egui::Ui) {
        egui::CollapsingHeader::new("Take a seat back with its token").show(ui, |ui| {
            ui.label(
                RichText::new("A seat's token is its key: with it, your seat is yours again on any machine.").small(),
            );
            ui.horizontal(|ui| {
                ui.label("Table");
                ui.add(egui::TextEdit::singleline(&mut self.rejoin_table).desired_width(60.0));
                ui.label("Token");
                ui.add(egui::TextEdit::singleline(&mut self.rejoin_token).desired_width(300.0));
                if ui.button("Take back").clicked() {
                    match self.rejoin_table.trim().parse::<TableId>() {
                        Ok(table) => {
                            let token = self.rejoin_token.trim().to_string();
                            self.send(ClientMessage::Rejoin { table, token });
                        }
                        Err(_) => self.status = Some("A table is a number".into()),
                    }
                }
            });
            if !self.held.is_empty() {
                ui.label(RichText::new("Your seats here:").small());
                for (table, (seat, token)) in &self.held {
                    ui.label(RichText::new(format!("table {table}, seat {seat}: {token}")).small().monospace());
                }
            }
        });
    }

    /// The form that opens a table.
    fn form_ui(&mut self, ui: &mut egui::Ui, mods: &[ModEntry]) {
        ui.label(RichText::new("Open a table").strong());
        if self.games.is_empty() {
            ui.label("The server offers no games.");
            return;
        }
        let before = self.form.game;
        egui::ComboBox::from_label("Game")
            .selected_text(&self.games[self.form.game.min(self.games.len() - 1)].name)
            .show_ui(ui, |ui| {
                for (i, offer) in self.games.iter().enumerate() {
                    ui.selectable_value(&mut self.form.game, i, &offer.name);
                }
            });
        if self.form.game != before {
            self.form.options.clear();
            self.form.seats.clear();
            self.fit_form();
        }
        let offer = self.games[self.form.game].clone();
        if let Some(entry) = mods.iter().find(|m| m.id == offer.id) {
            if entry.rules.as_ref().is_some_and(|r| r.manifest.version != offer.version) {
                ui.colored_label(
                    Color32::LIGHT_RED,
                    format!("Your copy of {} is not the server's version {}", offer.name, offer.version),
                );
            }
        } else {
            ui.colored_label(
                Color32::LIGHT_RED,
                format!("{} is not among your games: you can open a table, not play", offer.name),
            );
        }
        for option in &offer.options {
            let chosen = self.form.options.entry(option.id.clone()).or_insert_with(|| option.default.clone());
            let shown = option_words(mods, &offer.id, &option.id, chosen).1;
            egui::ComboBox::from_label(&option.label).selected_text(shown).show_ui(ui, |ui| {
                for value in &option.choices {
                    let words = option_words(mods, &offer.id, &option.id, value).1;
                    ui.selectable_value(chosen, value.clone(), words);
                }
            });
        }
        let mut remove = None;
        for (i, seat) in self.form.seats.iter_mut().enumerate() {
            ui.horizontal(|ui| {
                ui.label(format!("Seat {}", i + 1));
                let shown = seat.computer.as_ref().map_or("Person".to_string(), |level| format!("Computer ({level})"));
                egui::ComboBox::from_id_salt(("seat kind", i)).selected_text(shown).show_ui(ui, |ui| {
                    ui.selectable_value(&mut seat.computer, None, "Person");
                    for level in &offer.levels {
                        ui.selectable_value(&mut seat.computer, Some(level.clone()), format!("Computer ({level})"));
                    }
                });
                if !offer.sides.is_empty() {
                    let label = |id: &Option<String>| {
                        offer.sides.iter().find(|s| Some(&s.id) == id.as_ref()).map_or("", |s| s.label.as_str())
                    };
                    egui::ComboBox::from_id_salt(("seat side", i)).selected_text(label(&seat.side)).show_ui(ui, |ui| {
                        for side in &offer.sides {
                            ui.selectable_value(&mut seat.side, Some(side.id.clone()), &side.label);
                        }
                    });
                }
                if ui.small_button("Remove").clicked() {
                    remove = Some(i);
                }
            });
        }
        if let Some(i) = remove.filter(|_| self.form.seats.len() > offer.min_seats as usize) {
            self.form.seats.remove(i);
        }
        if self.form.seats.len() < offer.max_seats as usize && ui.button("Add a seat").clicked() {
            let side = offer.sides.get(self.form.seats.len() % offer.sides.len().max(1)).map(|s| s.id.clone());
            self.form.seats.push(SeatRequest { computer: offer.levels.iter().find(|l| *l == "medium").cloned(), side });
        }
        ui.horizontal(|ui| {
            ui.checkbox(&mut self.form.clock, "Turn clock");
            ui.add_enabled(
                self.form.clock,
                egui::DragValue::new(&mut self.form.turn_seconds).range(1..=86_400).suffix(" s a decision"),
            );
        });
        let people = self.form.seats.iter().filter(|s| s.computer.is_none()).count();
        let why_not = (people == 0).then_some("A table needs a seat for a person");
        if ui
            .add_enabled(why_not.is_none(), egui::Button::new(RichText::new("Open the table").strong()))
            .on_disabled_hover_text(why_not.unwrap_or_default())
            .on_hover_text("You sit at its first seat for a person")
            .clicked()
        {
            self.create_table();
        }
    }
}

/// What the lobby keeps between runs, in a file of the player's data folder: the server last
/// connected to and the name last sat down with, and the seats held at each server (its URL →
/// table → seat and token), so that a window closed mid-game takes its seats back when it
/// connects again. The tokens are keys: the file is the user's alone.
#[derive(Default, serde::Serialize, serde::Deserialize)]
pub struct KeptSeats {
    #[serde(default)]
    pub address: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    seats: BTreeMap<String, BTreeMap<TableId, (u8, String)>>,
}

impl KeptSeats {
    /// The file in the player's data folder.
    pub fn default_file() -> Option<PathBuf> {
        catalog::data_dir().map(|d| d.join("online-seats.json"))
    }

    /// The kept seats; none when the file is missing or does not read.
    pub fn read(file: &Path) -> Self {
        std::fs::read_to_string(file).ok().and_then(|text| serde_json::from_str(&text).ok()).unwrap_or_default()
    }

    /// The seats held at a server.
    pub fn at(&self, url: &str) -> BTreeMap<TableId, (u8, String)> {
        self.seats.get(url).cloned().unwrap_or_default()
    }

    pub fn set(&mut self, url: &str, held: &BTreeMap<TableId, (u8, String)>) {
        if held.is_empty() {
            self.seats.remove(url);
        } else {
            self.seats.insert(url.to_string(), held.clone());
        }
    }

    /// Writes the file, readable by its owner only. Failing costs nothing of a game: the
    /// seats are then taken back with their tokens by hand.
    pub fn write(&self, file: &Path) {
        if let Some(folder) = file.parent() {
            let _ = std::fs::create_dir_all(folder);
        }
        let Ok(text) = serde_json::to_string_pretty(self) else { return };
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        if let Ok(mut out) = options.open(file) {
            let _ = std::io::Write::write_all(&mut out, text.as_bytes());
        }
    }
}

/// What was clicked in the table list.
enum Asked {
    Join(TableId, u8),
    Confirm(TableId),
    GetUp(TableId),
    Rejoin(TableId, String),
    Watch(TableId),
    Replay(TableId),
}

/// A seat as the table list shows it: "2. Ann (ready)", "3. open", "1. Computer (medium)".
fn seat_line(index: usize, seat: &SeatSummary, offer: Option<&GameOffer>, stage: Stage) -> String {
    let who = if seat.computer.is_some() || seat.taken { seat.name.clone() } else { "open".into() };
    let state = if seat.computer.is_some() || stage == Stage::Over {
        ""
    } else if seat.stand_in {
        " (away: the computer plays)"
    } else if seat.taken && !seat.connected {
        " (away)"
    } else if seat.confirmed && stage == Stage::Gathering {
        " (ready)"
    } else {
        ""
    };
    let side = seat.side.as_ref().map_or(String::new(), |id| {
        let label = offer.and_then(|o| o.sides.iter().find(|s| &s.id == id)).map_or(id.as_str(), |s| s.label.as_str());
        format!(" · {label}")
    });
    format!("{}. {who}{state}{side}", index + 1)
}

/// An option and its choice as the window's copy of the game labels them (the ids when the
/// window does not have the game).
fn option_words(mods: &[ModEntry], game: &str, option: &str, choice: &str) -> (String, String) {
    let def = mods
        .iter()
        .find(|m| m.id == game)
        .and_then(|m| m.rules.as_ref())
        .and_then(|rules| rules.data.options.get(option));
    match def {
        Some(def) => {
            let label = def.choices.get(choice).and_then(|c| c.label.clone()).unwrap_or_else(|| choice.to_string());
            (def.label.clone(), label)
        }
        None => (option.to_string(), choice.to_string()),
    }
}

/// This window's copy of a table's game with the table's options; refused when the window
/// does not have the game or has another version of it (the rules must be the server's).
pub fn local_rules(mods: &[ModEntry], table: &TableSummary, games: &[GameOffer]) -> Result<Arc<Ruleset>, String> {
    let entry = mods
        .iter()
        .find(|m| m.id == table.game && m.rules.is_some())
        .ok_or_else(|| format!("{} is not among your games", table.game))?;
    let rules = entry.rules.as_ref().ok_or("it does not load")?;
    if let Some(offer) = games.iter().find(|g| g.id == table.game)
        && offer.version != rules.manifest.version
    {
        return Err(format!(
            "your {} is version {}, the server's {}",
            entry.name, rules.manifest.version, offer.version
        ));
    }
    catalog::with_options(rules, &table.options)
}

/// A game update as a session reads it.
pub fn remote_update(update: &GameUpdate) -> RemoteUpdate<'_> {
    RemoteUpdate {
        step: update.step,
        board: update.board.as_ref(),
        view: &update.view,
        events: &update.events,
        legal: &update.legal,
    }
}

/// A game at a server's table, as the game screen plays it: the lobby (with the connection)
/// kept aside, the table, the window's seat, the seats' states and the clock.
pub struct OnlineTable {
    pub table: TableId,
    /// The window's seat (1-based), or `None` when it watches.
    pub seat: Option<u8>,
    pub seats: Vec<SeatSummary>,
    /// Seconds left for the seat to act as the last update received gave them, and when it
    /// came (window time): the clock runs on the server, however far behind the screen is.
    pub clock: Option<(u32, f64)>,
    /// The seat (0-based) the clock runs for.
    pub clock_for: Option<u8>,
    /// The lobby, with the connection, to go back to.
    pub lobby: Box<Lobby>,
    /// What the server last refused or said, or why the connection ended.
    pub status: Option<String>,
    /// Updates received and not yet shown: the screen shows them one after another, each
    /// action's motion played out.
    waiting: std::collections::VecDeque<Box<GameUpdate>>,
}

impl OnlineTable {
    fn new(table: TableId, seat: Option<u8>, update: &GameUpdate, now: f64) -> Self {
        Self {
            table,
            seat,
            seats: update.seats.clone(),
            clock: update.seconds_left.map(|s| (s, now)),
            clock_for: update.to_act.map(|s| s - 1),
            lobby: Box::new(Lobby::new()),
            status: None,
            waiting: Default::default(),
        }
    }

    /// How many updates wait to be shown.
    pub fn behind(&self) -> usize {
        self.waiting.len()
    }

    /// Whether the window's own seat is on the clock: what waits to be shown is shown at once,
    /// since the person's time runs.
    pub fn own_clock_runs(&self) -> bool {
        self.clock.is_some() && self.seat.is_some_and(|seat| self.clock_for == Some(seat - 1))
    }

    /// Shows the next update that waits; false when none does.
    pub fn show_next(&mut self, session: &mut Session) -> bool {
        let Some(update) = self.waiting.pop_front() else { return false };
        self.seats.clone_from(&update.seats);
        if let Err(why) = session.receive(&remote_update(&update)) {
            self.status = Some(why);
        }
        true
    }

    /// Reads what the server sent (updates wait for [`OnlineTable::show_next`]) and sends the
    /// actions the person chose.
    pub fn exchange(&mut self, session: &mut Session, now: f64) {
        for event in self.lobby.arrived() {
            match event {
                LinkEvent::Connected { games } => {
                    // Connected again: take the seat back (or watch again).
                    self.lobby.games = games;
                    let message = match self.lobby.held.get(&self.table) {
                        Some((_, token)) => ClientMessage::Rejoin { table: self.table, token: token.clone() },
                        None => ClientMessage::Watch { table: self.table },
                    };
                    self.lobby.send(message);
                    self.status = Some("Connected again".into());
                }
                LinkEvent::Lost(why) => self.status = Some(format!("Connection lost: {why}")),
                LinkEvent::Message(ServerMessage::Game(update)) if update.table == self.table => {
                    self.clock = update.seconds_left.map(|s| (s, now));
                    self.clock_for = update.to_act.map(|s| s - 1);
                    self.waiting.push_back(update);
                }
                LinkEvent::Message(ServerMessage::Table { table }) if table.id == self.table => {
                    self.seats.clone_from(&table.seats);
                }
                LinkEvent::Message(ServerMessage::Error { code, message }) => {
                    if matches!(code, ErrorCode::Refused | ErrorCode::NotNow) && session.is_awaiting_server() {
                        // Shown at once: the answers before it are shown first.
                        while self.show_next(session) {}
                        session.refused_by_server(message);
                    } else {
                        self.status = Some(message);
                    }
                }
                LinkEvent::Message(ServerMessage::Joined { table, seat, token }) => {
                    self.lobby.held.insert(table, (seat, token));
                    self.lobby.keep_seats();
                }
                // Other tables' news waits for the lobby's next listing.
                LinkEvent::Message(_) => {}
            }
        }
        self.send_chosen(session);
    }

    /// Sends the actions the person chose since the last call.
    pub fn send_chosen(&mut self, session: &mut Session) {
        for (step, action) in session.take_outgoing() {
            self.lobby.send(ClientMessage::Act { table: self.table, step, action });
        }
    }

    /// Whether the connection holds.
    pub fn is_connected(&self) -> bool {
        self.lobby.is_connected()
    }

    /// Connects again to the same server; the seat is taken back once it answers.
    pub fn reconnect(&mut self, ctx: &egui::Context) {
        self.lobby.connect(ctx);
        self.status = Some("Connecting again…".into());
    }

    /// Leaves the game by the mod's rule.
    pub fn surrender(&mut self) {
        self.lobby.send(ClientMessage::Surrender { table: self.table });
    }

    /// Seconds left for the seat to act, counted down from the last update.
    pub fn seconds_left(&self, now: f64) -> Option<u32> {
        self.clock.map(|(seconds, at)| (f64::from(seconds) - (now - at)).max(0.0).ceil() as u32)
    }

    /// Gets up from the table (the seat is held as after a lost connection) and returns to
    /// the lobby.
    pub fn into_lobby(mut self) -> Lobby {
        self.lobby.send(ClientMessage::LeaveTable { table: self.table });
        if self.seat.is_none() {
            self.lobby.watching = None;
        }
        // Ask for the tables at once; an answer the game screen passed over is not awaited.
        self.lobby.listed_at = f64::NEG_INFINITY;
        self.lobby.listing = false;
        *self.lobby
    }
}

#[cfg(test)]
mod tests {
    //! Sessions of a game played online, fed the messages a real table sends (no sockets): a
    //! card fixture with hands held face down.

    use std::time::Instant;

    use meeple_engine::game::{Engine, GameState};

    use super::*;
    use crate::online::table::{Outbox, Table};

    fn fixture(name: &str) -> Arc<Ruleset> {
        let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine/tests/fixtures").join(name);
        meeple_engine::loader::load_mod(&folder).unwrap_or_else(|p| panic!("{p:?}")).ruleset
    }

    /// The `game` messages for `conn` in what a table sent, in order.
    #[allow(clippy::vec_box)] // the protocol's own boxed message
    fn updates_for(out: &mut Outbox, conn: u64) -> Vec<Box<GameUpdate>> {
        let mut updates = Vec::new();
        out.retain(|(to, text)| {
            if *to != conn {
                return true;
            }
            if let Ok(ServerMessage::Game(update)) = serde_json::from_str(text) {
                updates.push(update);
            }
            false
        });
        updates
    }

    fn as_json(state: &GameState) -> serde_json::Value {
        serde_json::to_value(state).unwrap()
    }

    #[test]
    fn an_online_session_holds_exactly_its_seats_view_and_never_applies_an_action_itself() {
        let rules = fixture("secrets");
        let mut engine = Engine::new(rules.clone()).unwrap();
        let request = TableRequest {
            game: "secrets".into(),
            options: Default::default(),
            seats: vec![SeatRequest::default(), SeatRequest::default()],
            seed: Some(5),
            turn_seconds: None,
            grace_seconds: None,
        };
        let mut table = Table::new(1, request, rules.clone(), 60).unwrap();
        let now = Instant::now();
        let mut out = Outbox::new();
        table.join(1, 1, "Ann", &mut out).unwrap();
        table.join(2, 2, "Bob", &mut out).unwrap();
        table.confirm(&mut engine, 1, now, &mut out).unwrap();
        table.confirm(&mut engine, 2, now, &mut out).unwrap();
        let setup =
            crate::online::table::table_setup(&rules, 0, [("Ann", None, None), ("Bob", None, None)].into_iter());
        let mut sessions: Vec<Session> = [1u64, 2]
            .iter()
            .map(|&conn| {
                let first = updates_for(&mut out, conn).remove(0);
                Session::online(rules.clone(), setup.clone(), Some(conn as u8 - 1), &remote_update(&first)).unwrap()
            })
            .collect();
        let mut hidden_seen = 0;
        let mut acted = 0;
        for _ in 0..120 {
            let truth = table.state().unwrap().clone();
            for (seat, session) in sessions.iter().enumerate() {
                // What the window draws is the seat's view, to the last card and number.
                assert_eq!(as_json(&session.state), as_json(&truth.view_for(&rules, seat as u8)));
                let other = &session.state.seats[1 - seat].hand;
                hidden_seen +=
                    other.iter().filter(|(_, card)| *card == meeple_engine::game::state::UNKNOWN_CARD).count();
            }
            if truth.is_over() {
                break;
            }
            let mover = truth.to_act() as usize;
            assert!(sessions[mover].is_human_turn() && !sessions[1 - mover].is_human_turn());
            let session = &mut sessions[mover];
            let before = as_json(&session.state);
            let action = *session.legal().iter().find(|a| !a.is_pass()).or(session.legal().first()).unwrap();
            session.act(action).unwrap();
            // The window waits for the server: nothing changed, nothing more may be chosen.
            assert_eq!(as_json(&session.state), before);
            assert!(session.is_awaiting_server() && session.legal().is_empty());
            let sent = session.take_outgoing();
            assert_eq!(sent.len(), 1);
            let (step, record) = &sent[0];
            table.act(&mut engine, mover as u64 + 1, *step, record, now, &mut out).unwrap();
            acted += 1;
            for (seat, session) in sessions.iter_mut().enumerate() {
                for update in updates_for(&mut out, seat as u64 + 1) {
                    session.receive(&remote_update(&update)).unwrap();
                }
            }
        }
        assert!(hidden_seen > 0, "the fixture's hands are held face down");
        assert!(acted >= 20 || table.state().unwrap().is_over(), "{acted} actions");
    }
}
