//! The eframe app: the launcher (bundled and user mods), the setup screen, the game screen
//! (board with the selected piece's line of sight, turn, actions, dice, sealed choices opened,
//! seats, log, computer pace, save and load, undo, hot reload, hand over between people, game
//! over), the replay viewer, and the online lobby (a game at a server's table plays on the same
//! game screen, driven by the server).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use egui::{Color32, RichText};
use meeple_engine::game::{Action, ActionKind};
use meeple_engine::save::SaveFile;

use super::art;
use super::board_view::{BoardView, Mark, Overlay};
use super::catalog::{self, ModEntry, Origin};
use super::files::{BrowseAnswer, BrowsePurpose, FileDialogs, FolderBrowser, NativeDialogs, Picked, RecentSaves};
use super::keys::{self, Command};
use super::lobby::{Lobby, LobbyChoice, OnlineTable};
use super::motion::Motion;
use super::preview::ModPreview;
use super::reload::{ModWatcher, Reload};
use super::replay::{ReplayChoice, ReplayViewer};
use super::session::{Rewound, Session};
use super::settings::Settings;
use super::setup::{SetupChoice, SetupForm};
use super::sight::{self, SightCache};
use super::timeline::Ranked;
use super::{describe, panels, timeline};

/// How soon a change of settings is kept on disk, at the latest.
const SETTINGS_SAVED_AFTER: Duration = Duration::from_secs(6);

/// How many updates from a server may wait to be shown before the screen shows them all at
/// once (a window that was hidden, a table of fast computers).
const ONLINE_CATCH_UP: usize = 30;

/// How much the keys + and − zoom at a press.
const KEY_ZOOM: f32 = 1.25;
use crate::editor::screen::{EditorChoice, EditorScreen};

/// How the player starts (from the command line).
#[derive(Clone, Debug, Default)]
pub struct StartOptions {
    /// The mod to select first.
    pub mod_name: Option<String>,
    /// Skip the setup: start a game of the selected mod with its default setup at once.
    pub start: bool,
    /// The seed for a game started at once.
    pub seed: Option<u64>,
    /// A save to open: continue the game, or watch it with `replay`.
    pub open: Option<PathBuf>,
    pub replay: bool,
    /// Open the editor on the selected mod.
    pub edit: bool,
    /// Edit a bundled mod's own files (else the editor asks).
    pub in_place: bool,
    /// Open the editor's map painter on this board (`board`, `boards.<id>`).
    pub paint: Option<String>,
}

/// Which screen is shown.
pub enum Screen {
    Launcher,
    Setup(Box<SetupForm>, usize),
    Game(Box<GameScreen>),
    Replay(Box<ReplayViewer>),
    Editor(Box<EditorScreen>),
    /// "Play online": a server's tables.
    Lobby(Box<Lobby>),
}

/// The player window's state.
pub struct PlayerApp {
    pub mods: Vec<ModEntry>,
    pub selected: usize,
    pub screen: Screen,
    /// The desktop's open and save dialogs (tests put a stand-in here).
    pub dialogs: Box<dyn FileDialogs>,
    /// The window's own folder browser, while it is open (where no dialog can be shown).
    pub browser: Option<FolderBrowser>,
    /// The saves opened or written lately, listed by the launcher.
    pub recent: RecentSaves,
    /// The selected mod's board and README, as the launcher shows them.
    preview: Option<ModPreview>,
    /// The window's settings, kept between runs.
    pub settings: Settings,
    /// The settings the window follows now (applied when they change).
    applied: Option<Settings>,
    /// Whether the settings window is open.
    pub show_settings: bool,
    /// When a frame must come so that eframe saves a change of settings (window time, seconds).
    settings_saved_by: Option<f64>,
    /// A message for the launcher (a save that did not open, …).
    pub notice: Option<String>,
    /// The editor set aside while its mod is play-tested; the game's "Quit" returns to it.
    editor_aside: Option<Box<EditorScreen>>,
    /// The game set aside while its replay is watched; closing the replay returns to it.
    game_aside: Option<Box<GameScreen>>,
    /// The lobby left for the list of games, with its connection and seats held.
    lobby_aside: Option<Box<Lobby>>,
    /// Where the lobby keeps the seats held online between runs (none in tests).
    pub kept_seats_file: Option<PathBuf>,
    /// The replay shown came from the lobby (an ended table's), which closing it returns to.
    replay_from_lobby: bool,
}

impl PlayerApp {
    /// The launcher with the mods found on disk.
    pub fn new(options: StartOptions) -> Self {
        let mut mods = catalog::discover();
        // A mod named by its folder (`meeple play path/to/my_mod`) is listed too.
        if let Some(name) = &options.mod_name {
            let folder = Path::new(name);
            let known = mods.iter().any(|m| &m.id == name || m.folder == folder);
            if !known && folder.join("mod.toml").is_file() {
                mods.push(ModEntry::load(folder, Origin::User));
            }
        }
        let mut app = Self::with_mods_and_recent(mods, options, RecentSaves::load(RecentSaves::default_file()));
        app.kept_seats_file = super::lobby::KeptSeats::default_file();
        app
    }

    /// The launcher with the given mods (tests pass fixture mods), remembering recent saves for
    /// this run only.
    pub fn with_mods(mods: Vec<ModEntry>, options: StartOptions) -> Self {
        Self::with_mods_and_recent(mods, options, RecentSaves::load(None))
    }

    /// The launcher with the given mods and list of recent saves.
    pub fn with_mods_and_recent(mods: Vec<ModEntry>, options: StartOptions, recent: RecentSaves) -> Self {
        let selected = options
            .mod_name
            .as_ref()
            .and_then(|name| mods.iter().position(|m| &m.id == name || m.folder == Path::new(name)))
            .unwrap_or(0);
        let mut app = Self {
            mods,
            selected,
            screen: Screen::Launcher,
            dialogs: Box::new(NativeDialogs),
            browser: None,
            recent,
            preview: None,
            settings: Settings::default(),
            applied: None,
            show_settings: false,
            settings_saved_by: None,
            notice: None,
            editor_aside: None,
            game_aside: None,
            lobby_aside: None,
            kept_seats_file: None,
            replay_from_lobby: false,
        };
        if let Some(path) = &options.open {
            app.open_save(path, options.replay);
        } else if options.edit {
            app.open_editor(selected);
            if let Screen::Editor(editor) = &mut app.screen {
                if options.in_place {
                    editor.placement = crate::editor::screen::Placement::InPlace;
                }
                if let Some(board) = &options.paint {
                    editor.view = crate::editor::screen::View::Map(crate::editor::model::path(board));
                }
            }
        } else if options.start {
            app.open_setup(selected);
            if let Screen::Setup(form, index) = &mut app.screen {
                if let Some(seed) = options.seed {
                    form.random_seed = false;
                    form.seed_text = seed.to_string();
                }
                let index = *index;
                app.start_from_setup(index);
            }
        }
        app
    }

    /// The game being played, if the game screen is shown.
    pub fn game(&self) -> Option<&GameScreen> {
        match &self.screen {
            Screen::Game(game) => Some(game),
            _ => None,
        }
    }

    pub fn game_mut(&mut self) -> Option<&mut GameScreen> {
        match &mut self.screen {
            Screen::Game(game) => Some(game),
            _ => None,
        }
    }

    pub fn setup_form(&self) -> Option<&SetupForm> {
        match &self.screen {
            Screen::Setup(form, _) => Some(form),
            _ => None,
        }
    }

    pub fn setup_mut(&mut self) -> Option<&mut SetupForm> {
        match &mut self.screen {
            Screen::Setup(form, _) => Some(form),
            _ => None,
        }
    }

    pub fn editor_mut(&mut self) -> Option<&mut EditorScreen> {
        match &mut self.screen {
            Screen::Editor(editor) => Some(editor),
            _ => None,
        }
    }

    /// Opens the editor on a listed mod (bundled mods ask where changes go).
    pub fn open_editor(&mut self, index: usize) {
        let Some(entry) = self.mods.get(index) else { return };
        match EditorScreen::open(&entry.folder, entry.origin == Origin::Bundled) {
            Ok(editor) => self.screen = Screen::Editor(Box::new(editor)),
            Err(error) => self.notice = Some(error),
        }
    }

    pub fn replay_mut(&mut self) -> Option<&mut ReplayViewer> {
        match &mut self.screen {
            Screen::Replay(viewer) => Some(viewer),
            _ => None,
        }
    }

    fn open_setup(&mut self, index: usize) {
        match self.mods.get(index).and_then(|m| m.rules.clone()) {
            Some(rules) => self.screen = Screen::Setup(Box::new(SetupForm::new(rules)), index),
            None => self.notice = Some("this mod does not load; fix the problems listed first".into()),
        }
    }

    fn start_from_setup(&mut self, index: usize) {
        let Screen::Setup(form, _) = &mut self.screen else { return };
        let started = form.setup().and_then(|setup| {
            let rules = catalog::with_options(&form.rules, &setup.options)?;
            Session::new(rules, setup)
        });
        match started {
            Ok(session) => {
                let folder = self.mods[index].folder.clone();
                self.screen = Screen::Game(Box::new(GameScreen::new(session, &folder)));
            }
            Err(error) => form.error = Some(error),
        }
    }

    /// Opens a save: continues the game, or watches it in the replay viewer.
    pub fn open_save(&mut self, path: &Path, replay: bool) {
        let shown = path.display().to_string();
        let save = match SaveFile::read(path) {
            Ok(save) => save,
            Err(error) => {
                self.notice = Some(error.to_string());
                return;
            }
        };
        let Some(index) = self.mods.iter().position(|m| m.id == save.mod_ref.id && m.rules.is_some()) else {
            self.notice =
                Some(format!("{shown} is a game of `{}`, which is not installed or does not load", save.mod_ref.id));
            return;
        };
        let rules =
            match catalog::with_options(self.mods[index].rules.as_ref().expect("checked above"), &save.setup.options) {
                Ok(rules) => rules,
                Err(error) => {
                    self.notice = Some(error);
                    return;
                }
            };
        self.selected = index;
        let opened = if replay {
            ReplayViewer::from_save(rules, &save, &shown).map(|v| Screen::Replay(Box::new(v)))
        } else {
            Session::from_save(rules, &save, &shown).map(|session| {
                let mut game = GameScreen::new(session, &self.mods[index].folder);
                // Saving goes back to the file opened, and nothing is unsaved yet.
                game.save_path = shown.clone();
                game.saved_actions = game.session.history.len();
                Screen::Game(Box::new(game))
            })
        };
        match opened {
            Ok(screen) => {
                self.screen = screen;
                self.notice = None;
                self.recent.remember(path);
            }
            Err(error) => self.notice = Some(error),
        }
    }

    /// Draws the current screen.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        if let Screen::Game(game) = &mut self.screen
            && let Some(path) = game.just_saved.take()
        {
            self.recent.remember(&path);
        }
        if let Screen::Game(game) = &mut self.screen {
            game.reduce_motion = self.settings.reduce_motion;
            game.obey_keys(ui.ctx());
        }
        self.browser_ui(ui.ctx());
        if self.applied != Some(self.settings) {
            self.settings.apply(ui.ctx());
            self.applied = Some(self.settings);
        }
        if self.show_settings {
            let mut open = true;
            egui::Window::new("Settings").open(&mut open).collapsible(false).resizable(false).show(ui.ctx(), |ui| {
                self.settings.ui(ui);
            });
            self.show_settings &= open;
            if self.applied != Some(self.settings) {
                // Follow the change at once, and have eframe keep it at its next save, which a
                // frame brings: a frame is due after the save interval, so that a window left
                // idle (or killed) keeps it too.
                ui.ctx().request_repaint();
                self.settings_saved_by = Some(ui.input(|i| i.time) + SETTINGS_SAVED_AFTER.as_secs_f64());
            }
        }
        // Every frame asks again: a frame only keeps the requests made in it.
        if let Some(due) = self.settings_saved_by {
            let now = ui.input(|i| i.time);
            if now > due {
                self.settings_saved_by = None;
            } else {
                ui.ctx().request_repaint_after(Duration::from_secs_f64(due - now + 0.05));
            }
        }
        let settings_asked = match &mut self.screen {
            Screen::Game(game) => std::mem::take(&mut game.settings_asked),
            _ => false,
        };
        self.show_settings ^= settings_asked;
        match &mut self.screen {
            Screen::Launcher => self.launcher_ui(ui),
            Screen::Setup(form, index) => {
                let index = *index;
                let choice = egui::CentralPanel::default().show(ui, |ui| form.ui(ui)).inner;
                match choice {
                    Some(SetupChoice::Start) => self.start_from_setup(index),
                    Some(SetupChoice::Back) => self.screen = Screen::Launcher,
                    None => {}
                }
            }
            Screen::Editor(editor) => match editor.ui(ui) {
                Some(EditorChoice::Close) => {
                    self.mods = catalog::discover();
                    self.screen = Screen::Launcher;
                }
                Some(EditorChoice::PlayTest(rules)) => {
                    let started = SetupForm::new(rules.clone()).setup().and_then(|setup| Session::new(rules, setup));
                    match started {
                        Ok(session) => {
                            let folder = editor.model.folder.clone();
                            let Screen::Editor(editor) = std::mem::replace(&mut self.screen, Screen::Launcher) else {
                                unreachable!("matched above")
                            };
                            self.editor_aside = Some(editor);
                            self.screen = Screen::Game(Box::new(GameScreen::new(session, &folder)));
                        }
                        Err(error) => editor.status = Some((false, error)),
                    }
                }
                None => {}
            },
            Screen::Lobby(lobby) => match lobby.ui(ui, &self.mods) {
                Some(LobbyChoice::Back) => {
                    let Screen::Lobby(lobby) = std::mem::replace(&mut self.screen, Screen::Launcher) else {
                        unreachable!("matched above")
                    };
                    self.lobby_aside = Some(lobby);
                }
                Some(LobbyChoice::Replay(viewer)) => {
                    let Screen::Lobby(lobby) = std::mem::replace(&mut self.screen, Screen::Replay(viewer)) else {
                        unreachable!("matched above")
                    };
                    // Closing the replay returns to the lobby.
                    self.lobby_aside = Some(lobby);
                    self.replay_from_lobby = true;
                }
                Some(LobbyChoice::Play(session, mut table)) => {
                    let Screen::Lobby(lobby) = std::mem::replace(&mut self.screen, Screen::Launcher) else {
                        unreachable!("matched above")
                    };
                    table.lobby = lobby;
                    self.screen = Screen::Game(Box::new(GameScreen::online(*session, table)));
                }
                None => {}
            },
            Screen::Game(game) if game.online.is_some() => {
                if game.ui(ui) == Some(GameChoice::Quit)
                    && let Some(table) = game.online.take()
                {
                    // Up from the table: the seat is held for its person, who may come back.
                    self.screen = Screen::Lobby(Box::new(table.into_lobby()));
                }
            }
            Screen::Game(game) => match game.ui(ui) {
                Some(GameChoice::Quit) => {
                    self.screen = match self.editor_aside.take() {
                        Some(editor) => Screen::Editor(editor),
                        None => Screen::Launcher,
                    }
                }
                Some(GameChoice::NewGame) => {
                    let index = self.selected;
                    self.open_setup(index);
                }
                Some(GameChoice::WatchReplay) => match game.replay_viewer() {
                    // The game waits aside, unchanged, until the replay is closed.
                    Ok(viewer) => {
                        let Screen::Game(game) = std::mem::replace(&mut self.screen, Screen::Replay(Box::new(viewer)))
                        else {
                            unreachable!("matched above")
                        };
                        self.game_aside = Some(game);
                    }
                    Err(error) => game.status = Some(error),
                },
                Some(GameChoice::SaveAs) => self.save_game_as(),
                Some(GameChoice::Rematch) => match game.rematch(super::setup::fresh_seed()) {
                    Ok(next) => *game = Box::new(next),
                    Err(error) => game.status = Some(error),
                },
                None => {}
            },
            Screen::Replay(viewer) => {
                if viewer.ui(ui) == Some(ReplayChoice::Close) {
                    self.screen = match (self.game_aside.take(), std::mem::take(&mut self.replay_from_lobby)) {
                        (Some(game), _) => Screen::Game(game),
                        (None, true) => Screen::Lobby(self.lobby_aside.take().unwrap_or_default()),
                        (None, false) => Screen::Launcher,
                    };
                }
            }
        }
    }

    fn launcher_ui(&mut self, ui: &mut egui::Ui) {
        let mut start = None;
        let mut edit = None;
        let mut online = false;
        egui::CentralPanel::default().show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.heading("Meeple");
                if ui.button("Settings").on_hover_text("Colours and the interface's scale").clicked() {
                    self.show_settings = !self.show_settings;
                }
                if ui
                    .button("Play online")
                    .on_hover_text("Tables at a Meeple server: join, watch or open one")
                    .clicked()
                {
                    online = true;
                }
            });
            ui.label("Choose a game.");
            ui.separator();
            if self.mods.is_empty() {
                ui.label(format!("No mods found in {}.", meeple_engine::loader::bundled_mods_dir().display()));
            }
            // The two columns scroll together when a long README runs past the window.
            egui::ScrollArea::vertical().id_salt("launcher").show(ui, |ui| {
                ui.columns(2, |columns| {
                    let ui = &mut columns[0];
                    for (i, entry) in self.mods.iter().enumerate() {
                        let mut title = if entry.problems.is_empty() {
                            format!("{}  ·  {}", entry.name, entry.players)
                        } else {
                            format!("{}  (does not load)", entry.name)
                        };
                        if entry.origin == Origin::User {
                            title.push_str("  ·  your mod");
                        }
                        if ui.selectable_label(self.selected == i, title).clicked() {
                            self.selected = i;
                        }
                    }
                    if let Some(dir) = catalog::user_mods_dir() {
                        ui.add_space(8.0);
                        ui.label(RichText::new(format!("Your mods: {}", dir.display())).small().weak());
                    }
                    ui.separator();
                    self.saved_games_ui(ui);
                    if let Some(notice) = &self.notice {
                        ui.colored_label(Color32::LIGHT_RED, notice);
                    }
                    let ui = &mut columns[1];
                    if let Some(entry) = self.mods.get(self.selected) {
                        ui.heading(&entry.name);
                        ui.label(&entry.description);
                        ui.label(&entry.players);
                        for problem in &entry.problems {
                            ui.colored_label(Color32::LIGHT_RED, RichText::new(problem).monospace());
                        }
                        ui.horizontal(|ui| {
                            if ui
                                .add_enabled(
                                    entry.rules.is_some(),
                                    egui::Button::new(RichText::new("New game").strong()),
                                )
                                .clicked()
                            {
                                start = Some(self.selected);
                            }
                            if ui.button("Edit").on_hover_text("Change the mod's data in the editor").clicked() {
                                edit = Some(self.selected);
                            }
                        });
                        if entry.origin == Origin::Bundled {
                            ui.label(
                                RichText::new("Bundled: the editor offers to edit a copy in your mods folder")
                                    .small()
                                    .weak(),
                            );
                        }
                    }
                    if let Some(entry) = self.mods.get(self.selected) {
                        if self.preview.as_ref().is_none_or(|p| p.folder != entry.folder) {
                            self.preview = Some(ModPreview::new(&entry.folder, entry.rules.as_ref()));
                        }
                        if let Some(preview) = self.preview.as_mut() {
                            ui.separator();
                            preview.ui(ui);
                        }
                    }
                })
            });
        });
        if let Some(index) = start {
            self.open_setup(index);
        }
        if let Some(index) = edit {
            self.open_editor(index);
        }
        if online {
            self.open_lobby();
        }
    }

    /// Opens "Play online" (the lobby kept from the last visit, with its connection).
    pub fn open_lobby(&mut self) {
        let mut lobby = self.lobby_aside.take().unwrap_or_default();
        lobby.kept_file.clone_from(&self.kept_seats_file);
        if !lobby.is_connected() {
            // The server and name of the last run.
            lobby.recall();
            // The form starts with the game chosen in the launcher.
            lobby.preferred_game = self.mods.get(self.selected).map(|m| m.id.clone());
        }
        self.screen = Screen::Lobby(lobby);
    }

    /// The lobby, when it is shown.
    pub fn lobby_mut(&mut self) -> Option<&mut Lobby> {
        match &mut self.screen {
            Screen::Lobby(lobby) => Some(lobby),
            _ => None,
        }
    }

    /// The launcher's saved games: the recent ones, each to continue or watch, and a way to
    /// open any other.
    fn saved_games_ui(&mut self, ui: &mut egui::Ui) {
        ui.label(RichText::new("Saved games").strong());
        let now = SystemTime::now();
        let mut opened = None;
        for save in self.recent.saves() {
            let game = self.mods.iter().find(|m| m.id == save.mod_id).map_or(save.mod_id.as_str(), |m| m.name.as_str());
            let file = save.path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            let over = if save.over { " · over" } else { "" };
            ui.horizontal(|ui| {
                if ui.button("Continue").on_hover_text(save.path.display().to_string()).clicked() {
                    opened = Some((save.path.clone(), false));
                }
                if ui.button("Replay").clicked() {
                    opened = Some((save.path.clone(), true));
                }
                ui.label(format!("{game} · seed {} · {} moves{over}", save.seed, save.actions));
                ui.label(RichText::new(format!("{file} · {}", save.age(now))).small().weak());
            });
        }
        if self.recent.saves().is_empty() {
            ui.label(RichText::new("Games you save or open are listed here.").weak());
        }
        ui.horizontal(|ui| {
            if ui.button("Open a save…").clicked() {
                self.pick_save(BrowsePurpose::Open);
            }
            if ui.button("Watch a save…").clicked() {
                self.pick_save(BrowsePurpose::Replay);
            }
        });
        if let Some((path, replay)) = opened {
            self.open_save(&path, replay);
        }
    }

    /// Asks for a save to open (or watch): the desktop's dialog, else the window's browser.
    fn pick_save(&mut self, purpose: BrowsePurpose) {
        let folder = saves_folder();
        match self.dialogs.open(&folder) {
            Picked::Path(path) => self.open_save(&path, purpose == BrowsePurpose::Replay),
            Picked::Cancelled => {}
            Picked::NoDialog => self.browser = Some(FolderBrowser::new(purpose, &folder, "")),
        }
    }

    /// Asks where to save the game being played, then saves it there.
    fn save_game_as(&mut self) {
        let Screen::Game(game) = &mut self.screen else { return };
        let current = PathBuf::from(&game.save_path);
        let folder = current.parent().filter(|p| p.is_dir()).map_or_else(saves_folder, Path::to_path_buf);
        let name = current.file_name().map_or_else(|| "game.json".into(), |n| n.to_string_lossy().into_owned());
        match self.dialogs.save_as(&folder, &name) {
            Picked::Path(path) => {
                game.save_path = path.display().to_string();
                game.save();
            }
            Picked::Cancelled => {}
            Picked::NoDialog => self.browser = Some(FolderBrowser::new(BrowsePurpose::SaveAs, &folder, &name)),
        }
    }

    /// The window's own browser, while open, and what its choice does.
    fn browser_ui(&mut self, ctx: &egui::Context) {
        let Some(browser) = self.browser.as_mut() else { return };
        let Some(answer) = browser.ui(ctx) else { return };
        self.browser = None;
        match answer {
            BrowseAnswer::Chosen(BrowsePurpose::SaveAs, path) => {
                if let Screen::Game(game) = &mut self.screen {
                    game.save_path = path.display().to_string();
                    game.save();
                }
            }
            BrowseAnswer::Chosen(purpose, path) => self.open_save(&path, purpose == BrowsePurpose::Replay),
            BrowseAnswer::Cancelled => {}
        }
    }
}

/// Where saves go unless the person chooses another folder: the data folder's `saves`.
fn saves_folder() -> PathBuf {
    catalog::data_dir().map(|d| d.join("saves")).unwrap_or_else(|| PathBuf::from("saves"))
}

impl eframe::App for PlayerApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        PlayerApp::ui(self, ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        self.settings.store(storage);
    }

    fn auto_save_interval(&self) -> Duration {
        SETTINGS_SAVED_AFTER - Duration::from_secs(1)
    }
}

/// What the person asked for on the game screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameChoice {
    Quit,
    NewGame,
    /// Watch the game so far from its start; the game waits.
    WatchReplay,
    /// Choose a file and save the game to it.
    SaveAs,
    /// The same seats, options and mod again, with a new seed.
    Rematch,
}

/// A question the game screen asks before doing something that cannot be taken back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Confirm {
    /// The person to move forfeits.
    Leave,
    /// The game, with moves not saved, would be dropped for a new one or the list of games.
    Drop(DropFor),
}

/// What a game would be dropped for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropFor {
    NewGame,
    Quit,
}

/// A game being played, with everything the screen keeps beside the session.
pub struct GameScreen {
    pub session: Session,
    pub board: BoardView,
    watcher: ModWatcher,
    /// The mod's problems after a change that broke it (the game runs on the last good rules).
    pub problems: Vec<String>,
    /// What the last reload did.
    pub reload_note: Option<String>,
    /// Seconds between computer actions; 0 plays one per frame.
    pub computer_delay: f32,
    pub paused: bool,
    last_step: f64,
    pub save_path: String,
    pub status: Option<String>,
    /// The person seat the screen was last handed to, in games with hidden hands.
    shown_to: Option<u8>,
    /// Whether the game-over window was closed.
    over_closed: bool,
    /// Whether the computers play at once up to the next person's turn ("Skip").
    pub skipping: bool,
    /// How many actions the game had when it was last saved or opened: more are lost if it is
    /// dropped.
    pub saved_actions: usize,
    /// The question being asked, if any.
    pub confirm: Option<Confirm>,
    /// What the last reload wound back, until the person chooses to play on or restart.
    pub rewound: Option<Rewound>,
    /// The space of the choice under the pointer in the choices list, highlighted on the board.
    pub pointed: Option<u32>,
    /// The piece last clicked on the board: the board shows what it sees.
    pub selected_piece: Option<u32>,
    /// Whether the board shades what the selected piece cannot see ("Show line of sight").
    pub show_sight: bool,
    /// What the selected piece's space sees, kept while it stays there.
    pub sight: SightCache,
    /// Whether the list of keys is shown (the key `?`).
    pub show_keys: bool,
    /// Where the game was saved since the window last looked (for its list of recent saves).
    pub just_saved: Option<PathBuf>,
    /// The figure the end screen's chart follows (an index into the timeline's series).
    pub chart_series: Option<usize>,
    /// The Settings button was pressed: the window opens (or closes) its settings.
    pub settings_asked: bool,
    /// The end screen's ranking and the chart's telling series, with the session revision they
    /// were worked out at.
    end_screen: Option<(u64, Vec<Ranked>, Vec<usize>)>,
    /// The dice, moves, flashes and banners of the last actions, still playing.
    pub motion: Motion,
    /// The "reduce motion" setting: every action shows its end at once.
    pub reduce_motion: bool,
    /// The server's table, for a game played online.
    pub online: Option<Box<OnlineTable>>,
}

impl GameScreen {
    pub fn new(session: Session, folder: &Path) -> Self {
        let save_path = saves_folder()
            .join(format!("{}-{}.json", session.rules.manifest.id, session.setup.seed))
            .display()
            .to_string();
        let watcher = ModWatcher::new(folder, &session.setup.options);
        Self {
            session,
            board: BoardView::default(),
            watcher,
            problems: Vec::new(),
            reload_note: None,
            computer_delay: 0.6,
            paused: false,
            last_step: f64::NEG_INFINITY,
            save_path,
            status: None,
            shown_to: None,
            over_closed: false,
            skipping: false,
            saved_actions: 0,
            confirm: None,
            rewound: None,
            pointed: None,
            selected_piece: None,
            show_sight: true,
            sight: SightCache::default(),
            show_keys: false,
            just_saved: None,
            chart_series: None,
            settings_asked: false,
            end_screen: None,
            motion: Motion::default(),
            reduce_motion: false,
            online: None,
        }
    }

    /// A game at a server's table: the screen sends the person's actions to the server and
    /// shows its updates.
    pub fn online(session: Session, table: Box<OnlineTable>) -> Self {
        let folder = session.rules.folder.clone().unwrap_or_default();
        let mut screen = Self::new(session, &folder);
        screen.online = Some(table);
        screen
    }

    /// The same game again — mod, options, seats and their players — with another seed.
    pub fn rematch(&self, seed: u64) -> Result<GameScreen, String> {
        let mut setup = self.session.setup.clone();
        setup.seed = seed;
        let session = Session::new(self.session.rules.clone(), setup)?;
        let mut next = GameScreen::new(session, self.watcher.folder());
        next.computer_delay = self.computer_delay;
        next.reduce_motion = self.reduce_motion;
        Ok(next)
    }

    /// Does what this frame's keys ask (see [`keys`]). Called before anything of the frame is
    /// drawn, so that a text field still has the keyboard when its Enter is read. Nothing while
    /// a question is asked or the screen waits to be handed over, but the list of keys: the
    /// next person has not taken it.
    pub fn obey_keys(&mut self, ctx: &egui::Context) {
        if self.confirm.is_some() {
            return;
        }
        let handing_over = self.awaiting_handover();
        let now = ctx.input(|i| i.time);
        for command in keys::read(ctx) {
            match command {
                Command::Keys => self.show_keys = !self.show_keys,
                Command::Cancel if self.motion.is_playing(now) => self.motion.skip(),
                Command::Cancel if self.show_keys => self.show_keys = false,
                _ if handing_over => {}
                Command::Cancel => self.session.cancel_choice(),
                Command::EndTurn => self.end_turn_by_key(),
                Command::Undo => {
                    if self.session.can_undo() {
                        self.session.undo();
                    }
                }
                Command::Save => self.save(),
                Command::Fit => self.board.fit_whole(),
                Command::ZoomIn => self.board.zoom_by(KEY_ZOOM),
                Command::ZoomOut => self.board.zoom_by(1.0 / KEY_ZOOM),
                Command::Pan(x, y) => self.board.pan_by(x, y),
            }
        }
    }

    /// Passes, as the menu's pass button does, when it is a person's turn with nothing being
    /// chosen, no answer awaited (passing would decline it) and passing is legal; otherwise says
    /// why not.
    fn end_turn_by_key(&mut self) {
        let session = &mut self.session;
        if !session.is_human_turn() || session.is_over() {
            return;
        }
        let why_not = if session.chosen().is_some() {
            Some("Finish or cancel (Esc) the choice in progress first")
        } else if !session.state.turn.offers.is_empty() {
            Some("Answer or decline with the buttons: Enter does not decline")
        } else if !session.legal().iter().any(Action::is_pass) {
            Some("The turn cannot end yet: something must be done first")
        } else {
            None
        };
        match why_not {
            Some(why) => session.message = Some(why.to_string()),
            None => {
                if let Err(error) = session.act(Action::pass()) {
                    session.message = Some(error);
                }
            }
        }
    }

    /// The list of keys, in a window of its own (the key `?` or the Keys button).
    fn keys_window(&mut self, ctx: &egui::Context) {
        let mut open = self.show_keys;
        egui::Window::new("Keys").open(&mut open).collapsible(false).resizable(false).show(ctx, |ui| {
            egui::Grid::new("keys list").num_columns(2).spacing([16.0, 4.0]).show(ui, |ui| {
                for (keys, what) in keys::KEY_LIST {
                    ui.label(RichText::new(keys).strong());
                    ui.label(what);
                    ui.end_row();
                }
            });
        });
        self.show_keys &= open;
    }

    /// The space the board shows line of sight from: that of the piece last chosen for the
    /// action being chosen (the attacker, while its target is chosen), else of the piece last
    /// clicked; `None` when the board has no sight to show or none is selected.
    pub fn sight_source(&self) -> Option<u32> {
        let state = &self.session.state;
        if !self.show_sight || !sight::shows_sight(&self.session.rules, state) {
            return None;
        }
        let piece = self.session.chosen_piece().or(self.selected_piece)?;
        let piece = state.pieces.get(piece as usize).filter(|p| p.alive)?;
        ((piece.space as usize) < state.board.space_count()).then_some(piece.space)
    }

    /// Per space, whether the space [`GameScreen::sight_source`] gives sees it (the engine's
    /// line of sight, kept while the source stays); `None` when no line of sight is shown.
    pub fn sight_seen(&mut self) -> Option<&[bool]> {
        let from = self.sight_source()?;
        Some(self.sight.seen_from(&self.session.rules, &self.session.state, from))
    }

    /// Whether the game has moves that dropping it would lose: it is not over and not saved
    /// since its last action.
    pub fn has_unsaved_moves(&self) -> bool {
        // Online, the server keeps the game.
        self.online.is_none() && !self.session.is_over() && self.session.history.len() != self.saved_actions
    }

    /// A viewer of the game so far, from the start, held in memory (no file is written).
    pub fn replay_viewer(&self) -> Result<ReplayViewer, String> {
        let session = &self.session;
        let save = SaveFile::new(&session.rules, &session.setup, &session.history, &session.state);
        ReplayViewer::from_save(session.rules.clone(), &save, &format!("this game of {}", session.rules.manifest.name))
    }

    /// Saves the game to its file (`save_path`: the one opened, last saved to, or a new one in
    /// the saves folder).
    pub fn save(&mut self) {
        let path = PathBuf::from(&self.save_path);
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            let _ = std::fs::create_dir_all(parent);
        }
        self.status = Some(match self.session.save(&path) {
            Ok(()) => {
                self.saved_actions = self.session.history.len();
                self.just_saved = Some(path.clone());
                format!("Saved {} actions to {}", self.session.history.len(), path.display())
            }
            Err(error) => error,
        });
    }

    /// Leaves the game for the person to move (after they confirmed it).
    pub fn leave(&mut self) {
        match &mut self.online {
            // Online, the server applies the mod's leave rule, at any moment.
            Some(table) => table.surrender(),
            None => {
                let _ = self.session.act(meeple_engine::game::Action::leave());
            }
        }
    }

    /// Whether the screen waits for the seat to move to take it over (a game with hidden hands
    /// and several people at one screen).
    pub fn awaiting_handover(&self) -> bool {
        let session = &self.session;
        let hidden = session.rules.decks.iter().any(|d| d.hidden);
        hidden && session.human_seats() > 1 && session.is_human_turn() && self.shown_to != Some(session.seat())
    }

    /// Confirms the hand-over to the seat to move.
    pub fn take_over(&mut self) {
        self.shown_to = Some(self.session.seat());
    }

    /// Checks the mod's files and applies a reload.
    pub fn apply_reload(&mut self, reload: Reload) {
        match reload {
            Reload::Loaded(rules) => match self.session.with_rules(rules) {
                Ok((session, rewound)) => {
                    self.session = session;
                    self.problems.clear();
                    self.reload_note = match &rewound {
                        None => Some("Reloaded the mod; the game was replayed with the changed rules.".into()),
                        Some(_) => None,
                    };
                    self.rewound = rewound;
                }
                Err(error) => self.problems = vec![error],
            },
            Reload::Broken(problems) => {
                self.problems = problems;
                self.reload_note = None;
            }
        }
    }

    /// Checks the mod folder now (the screen does it when the files change).
    pub fn check_reload(&mut self) {
        if let Some(reload) = self.watcher.check() {
            self.apply_reload(reload);
        }
    }

    /// Plays computer turns at the chosen pace.
    fn pace_computers(&mut self, ctx: &egui::Context, now: f64) {
        if self.online.is_some() || self.session.is_over() || self.session.is_human_turn() {
            self.skipping = false;
            return;
        }
        if self.skipping {
            // Computer moves for up to ~30 ms a frame, so the window stays responsive while
            // slow (hard) players think.
            let start = std::time::Instant::now();
            while start.elapsed() < Duration::from_millis(30) && self.session.step_computer() {}
            ctx.request_repaint();
            return;
        }
        if self.paused || self.motion.is_busy(now) {
            // The next move waits for this one to be shown (the motion asks for the frames).
            return;
        }
        let delay = f64::from(self.computer_delay);
        if now - self.last_step >= delay {
            self.session.step_computer();
            self.last_step = now;
        }
        if delay <= 0.0 {
            ctx.request_repaint();
        } else {
            ctx.request_repaint_after(Duration::from_secs_f64((self.last_step + delay - now).max(0.001)));
        }
    }

    pub fn ui(&mut self, ui: &mut egui::Ui) -> Option<GameChoice> {
        let mut choice = None;
        // Parts of the screen drawn before a change in this frame show the old state: a change
        // asks for the next frame at once (see the end of this function).
        let revision = self.session.revision();
        let now = ui.input(|i| i.time);
        if let Some(table) = &mut self.online {
            table.exchange(&mut self.session, now);
            // One update a frame, once the last one's motion has played; all at once when
            // motion is off or the screen has fallen far behind.
            let all = self.reduce_motion || table.behind() > ONLINE_CATCH_UP || table.own_clock_runs();
            if all {
                while table.show_next(&mut self.session) {}
            } else if !self.motion.is_busy(now) {
                table.show_next(&mut self.session);
            }
            if table.behind() > 0 {
                ui.ctx().request_repaint();
            }
        } else if let Some(reload) = self.watcher.poll(ui.ctx(), now) {
            // Online, the rules are the server's: the mod on disk is not reloaded.
            self.apply_reload(reload);
        }
        self.pace_computers(ui.ctx(), now);
        self.follow_motion(ui.ctx(), now);
        let choice_made = self.screen_ui(ui, &mut choice);
        if let Some(table) = &mut self.online {
            // What the person chose this frame goes at once.
            table.send_chosen(&mut self.session);
            if table.clock.is_some() {
                // The clock counts down each second.
                ui.ctx().request_repaint_after(Duration::from_millis(250));
            }
        }
        if self.show_keys {
            self.keys_window(ui.ctx());
        }
        if let Some(asked) = choice_made {
            choice = Some(asked);
        }
        if self.session.revision() != revision {
            // Draw the frame again at once so no panel shows the state from before the change
            // (egui runs a second pass before showing anything); when a second pass has run
            // already, the next frame follows at once instead.
            ui.ctx().request_discard("the game changed while the screen was drawn");
            ui.ctx().request_repaint();
        }
        choice
    }

    /// Turns what the last actions did into motion, or passes over it (reduced motion, a pace of
    /// 0, computers skipped), and keeps frames coming while anything moves.
    fn follow_motion(&mut self, ctx: &egui::Context, now: f64) {
        let shown = !self.reduce_motion && !self.skipping && self.computer_delay > 0.0;
        self.session.keep_before = shown;
        let count = self.session.event_count();
        let before = self.session.take_before();
        if shown {
            let events = self.session.seen_events(self.motion.seen().min(count));
            let session = &self.session;
            let pace = f64::from(self.computer_delay);
            self.motion.follow(&session.rules, &session.state, &events, count, &session.last_places, before, now, pace);
        } else {
            self.motion.skip();
            self.motion.pass_over(count);
        }
        self.motion.tidy(now);
        if self.motion.is_playing(now) {
            ctx.request_repaint();
        }
    }

    /// The banner of the last action's outcome, large over the top of the board.
    fn banner_ui(&self, ctx: &egui::Context, now: f64) {
        let (Some((text, tone, opacity)), Some(board)) = (self.motion.banner(now), self.board.drawn_rect()) else {
            return;
        };
        egui::Area::new(egui::Id::unique("motion banner"))
            .order(egui::Order::Foreground)
            .interactable(false)
            .pivot(egui::Align2::CENTER_TOP)
            .fixed_pos(board.center_top() + egui::vec2(0.0, 12.0))
            .show(ctx, |ui| {
                ui.multiply_opacity(opacity);
                egui::Frame::new()
                    .fill(Color32::from_black_alpha(190))
                    .corner_radius(10.0)
                    .inner_margin(egui::Margin::symmetric(22, 10))
                    .show(ui, |ui| {
                        // One line, however narrow the board: a banner is a word or two.
                        ui.add(egui::Label::new(RichText::new(text).size(28.0).strong().color(tone.color())).extend());
                    });
            });
    }

    /// The question being asked, as a modal window.
    fn confirm_ui(&mut self, ui: &mut egui::Ui) -> Option<GameChoice> {
        let asked = self.confirm?;
        let mut answer = None;
        // Online, the window's own seat leaves, whoever is to move.
        let leaving = self.online.as_ref().and_then(|t| t.seat).map_or(self.session.seat(), |seat| seat - 1);
        let name = describe::seat(&self.session.state, leaving);
        let moves = self.session.history.len() - self.saved_actions.min(self.session.history.len());
        egui::Modal::new(egui::Id::unique("game question")).show(ui.ctx(), |ui| {
            ui.set_max_width(420.0);
            match asked {
                Confirm::Leave => {
                    ui.heading("Leave the game?");
                    ui.label(format!(
                        "{name} stops playing for good: the spaces and pieces stay and still defend, but take no \
                         more turns. This cannot be undone."
                    ));
                    ui.horizontal(|ui| {
                        if ui.button("Leave").clicked() {
                            answer = Some(true);
                        }
                        if ui.button("Keep playing").clicked() {
                            answer = Some(false);
                        }
                    });
                }
                Confirm::Drop(what) => {
                    ui.heading(match what {
                        DropFor::NewGame => "Start a new game?",
                        DropFor::Quit => "Quit this game?",
                    });
                    ui.label(format!(
                        "This game has {moves} move{} that are not saved; they will be lost.",
                        if moves == 1 { "" } else { "s" }
                    ));
                    ui.horizontal(|ui| {
                        if ui.button("Drop this game").clicked() {
                            answer = Some(true);
                        }
                        if ui.button("Keep playing").clicked() {
                            answer = Some(false);
                        }
                    });
                }
            }
        });
        let yes = answer?;
        self.confirm = None;
        if !yes {
            return None;
        }
        match asked {
            Confirm::Leave => {
                self.leave();
                None
            }
            Confirm::Drop(DropFor::NewGame) => Some(GameChoice::NewGame),
            Confirm::Drop(DropFor::Quit) => Some(GameChoice::Quit),
        }
    }

    /// Asks before dropping a game with unsaved moves; otherwise drops it at once.
    fn drop_for(&mut self, what: DropFor) -> Option<GameChoice> {
        if self.has_unsaved_moves() {
            self.confirm = Some(Confirm::Drop(what));
            return None;
        }
        Some(match what {
            DropFor::NewGame => GameChoice::NewGame,
            DropFor::Quit => GameChoice::Quit,
        })
    }

    /// What a reload wound back, said plainly, with the two ways on.
    fn rewound_ui(&mut self, ui: &mut egui::Ui) {
        let Some(rewound) = self.rewound.clone() else { return };
        let warning = Color32::from_rgb(0xf0, 0xc0, 0x40);
        egui::Frame::group(ui.style()).stroke(egui::Stroke::new(1.5, warning)).show(ui, |ui| {
            ui.label(
                RichText::new("The mod changed on disk and its new rules refuse part of this game")
                    .strong()
                    .color(warning),
            );
            ui.add(egui::Label::new(rewound.describe()).wrap());
            ui.horizontal(|ui| {
                if ui.button("Keep playing from there").clicked() {
                    self.rewound = None;
                }
                if ui.button("Restart the game").clicked() {
                    match self.session.restarted() {
                        Ok(session) => {
                            self.session = session;
                            self.saved_actions = 0;
                            self.over_closed = false;
                            self.rewound = None;
                        }
                        Err(error) => self.problems = vec![error],
                    }
                }
            });
        });
    }

    /// Everything the game screen draws; returns what was chosen by the screen's own questions.
    fn screen_ui(&mut self, ui: &mut egui::Ui, choice: &mut Option<GameChoice>) -> Option<GameChoice> {
        let answered = self.confirm_ui(ui);

        egui::Panel::top("game bar").show(ui, |ui| {
            if self.online.is_some() {
                self.online_bar_ui(ui, choice);
                return;
            }
            ui.horizontal_wrapped(|ui| {
                if ui.button("Quit to games").clicked() {
                    *choice = self.drop_for(DropFor::Quit);
                }
                if ui.button("New game").clicked() {
                    *choice = self.drop_for(DropFor::NewGame);
                }
                ui.separator();
                ui.label(RichText::new(&self.session.rules.manifest.name).strong());
                ui.label(format!("seed {}", self.session.setup.seed));
                ui.separator();
                if ui
                    .add_enabled(self.session.can_undo(), egui::Button::new("Undo"))
                    .on_disabled_hover_text(
                        "Only actions that revealed no dice or cards, and before any computer moved, can be taken back",
                    )
                    .clicked()
                {
                    self.session.undo();
                }
                // The file is named on hover, not in a field: a path takes the bar's room, and
                // another file is chosen with "Save as…".
                if ui.button("Save").on_hover_text(format!("Save to {}", self.save_path)).clicked() {
                    self.save();
                }
                if ui.button("Save as…").on_hover_text("Choose the file to save the game to").clicked() {
                    *choice = Some(GameChoice::SaveAs);
                }
                if ui
                    .button("Replay")
                    .on_hover_text("Watch the game so far from the start; the game waits until the replay is closed")
                    .clicked()
                {
                    *choice = Some(GameChoice::WatchReplay);
                }
                ui.separator();
                ui.add(egui::Slider::new(&mut self.computer_delay, 0.0..=2.0).suffix(" s").text("Computer pace"));
                if ui.button(if self.paused { "Resume" } else { "Pause" }).clicked() {
                    self.paused = !self.paused;
                }
                let computers_to_move = !self.session.is_over() && !self.session.is_human_turn();
                if ui
                    .add_enabled(computers_to_move, egui::Button::new("Skip"))
                    .on_hover_text("Play the computers' moves at once, up to the next person's turn")
                    .clicked()
                {
                    self.skipping = true;
                }
                ui.separator();
                if ui.button("Keys").on_hover_text("The keyboard shortcuts (the key ?)").clicked() {
                    self.show_keys = !self.show_keys;
                }
                if ui.button("Settings").on_hover_text("Colours and the interface's scale").clicked() {
                    self.settings_asked = true;
                }
            });
            if let Some(status) = &self.status {
                ui.label(RichText::new(status).small());
            }
            if !self.problems.is_empty() {
                ui.colored_label(
                    Color32::LIGHT_RED,
                    "The mod changed on disk and no longer loads; the game goes on with the last good version:",
                );
                for problem in &self.problems {
                    ui.colored_label(Color32::LIGHT_RED, RichText::new(problem).monospace().small());
                }
            } else if let Some(note) = &self.reload_note {
                ui.label(RichText::new(note).small());
            }
            self.rewound_ui(ui);
        });

        if self.awaiting_handover() {
            let name = describe::seat(&self.session.state, self.session.seat());
            egui::CentralPanel::default().show(ui, |ui| {
                ui.vertical_centered(|ui| {
                    ui.add_space(120.0);
                    ui.heading(format!("Pass the screen to {name}"));
                    ui.label("The next turn shows cards only its player may see.");
                    if ui.button(format!("I am {name}: show my turn")).clicked() {
                        self.take_over();
                    }
                });
            });
            return answered;
        }

        egui::Panel::bottom("log").default_size(150.0).resizable(true).show(ui, |ui| {
            panels::log(ui, &self.session);
        });
        egui::Panel::right("side").default_size(330.0).resizable(true).show(ui, |ui| {
            egui::ScrollArea::vertical().id_salt("side scroll").show(ui, |ui| {
                panels::turn_header(ui, &self.session);
                ui.separator();
                // What was last opened stands first: the outcome of a fight decided by cards.
                if let Some(opened) = self.session.opened() {
                    panels::opened_choices(ui, &self.session.rules, &self.session.state, opened);
                    ui.separator();
                }
                panels::since_last_turn(ui, &self.session);
                let asked = panels::actions(ui, &mut self.session);
                if asked.leave {
                    self.confirm = Some(Confirm::Leave);
                }
                self.pointed = asked.pointed;
                if let Some(message) = &self.session.message {
                    ui.colored_label(Color32::LIGHT_RED, message);
                }
                if !self.session.last_rolls.is_empty() {
                    ui.separator();
                    let now = ui.input(|i| i.time);
                    // A new face about twelve times a second while the dice tumble.
                    let tumbling = self.motion.rolling(now).then_some((now * 12.0) as u64);
                    let session = &self.session;
                    panels::dice(ui, &session.rules, &session.state, &session.last_rolls, tumbling);
                }

                self.hand_ui(ui);
                ui.separator();
                let controllers: Vec<String> = self.session.setup.seats.iter().map(|s| s.controller.clone()).collect();
                panels::seats(ui, &self.session.rules, &self.session.state, self.session.view(), &controllers);
            });
        });
        egui::CentralPanel::default().show(ui, |ui| {
            if sight::shows_sight(&self.session.rules, &self.session.state) {
                ui.checkbox(&mut self.show_sight, "Show line of sight").on_hover_text(
                    "Shade the spaces the selected piece cannot see: click a piece, or choose one for an action",
                );
            }
            let marks = self.marks();
            let notes = self.notes();
            let sight =
                self.sight_source().map(|from| self.sight.seen_from(&self.session.rules, &self.session.state, from));
            let seat = self.session.seat();
            let ring = self.session.state.seat_piece(seat);
            if self.board.followed != ring
                && let Some(piece) = ring
            {
                let space = self.session.state.pieces[piece as usize].space;
                self.board.geometry(&self.session.state.board);
                self.board.keep_in_view(space, ui.available_size());
                self.board.followed = ring;
            }
            // While an action's dice tumble, the board shows the game from before it.
            let now = ui.input(|i| i.time);
            let drawn = self.motion.before_state(now).unwrap_or(&self.session.state);
            let motion = self.motion.frame(now);
            let motion = (!motion.is_empty()).then_some(&motion);
            let response = self.board.show(
                ui,
                &self.session.rules,
                drawn,
                &Overlay { marks: &marks, ring, notes: &notes, sight, motion },
            );
            if let Some(space) = response.clicked {
                if self.session.is_human_turn() {
                    self.click_space(space);
                } else {
                    self.select_piece_at(space);
                }
            }
        });

        self.banner_ui(ui.ctx(), ui.input(|i| i.time));
        if self.session.is_over() && !self.over_closed {
            self.game_over_window(ui, choice);
        }
        answered
    }

    /// The game bar of a game played online: back to the tables, surrender, the clock, the
    /// connection, and the seats away.
    fn online_bar_ui(&mut self, ui: &mut egui::Ui, choice: &mut Option<GameChoice>) {
        let Some(table) = &mut self.online else { return };
        let now = ui.input(|i| i.time);
        let session = &self.session;
        ui.horizontal_wrapped(|ui| {
            if ui
                .button("Back to tables")
                .on_hover_text("Your seat is held for you: take it back from the table list")
                .clicked()
            {
                *choice = Some(GameChoice::Quit);
            }
            ui.separator();
            ui.label(RichText::new(&session.rules.manifest.name).strong());
            ui.label(format!("table {}", table.table));
            match table.seat {
                Some(seat) => ui.label(format!("you play {}", describe::seat(&session.state, seat - 1))),
                None => ui.label("watching"),
            };
            let may_leave = session.rules.data.seats.allow_leaving
                && !session.is_over()
                && table.seat.is_some_and(|s| {
                    session
                        .state
                        .seats
                        .get(s as usize - 1)
                        .is_some_and(|seat| seat.status == meeple_engine::game::state::SeatStatus::Active)
                });
            if table.seat.is_some()
                && ui
                    .add_enabled(may_leave, egui::Button::new("Surrender"))
                    .on_hover_text("Leave the game by its rule: you take no more turns")
                    .on_disabled_hover_text("This game has no leaving, or your seat is out of it")
                    .clicked()
            {
                self.confirm = Some(Confirm::Leave);
            }
            if !session.is_over()
                && let (Some(seconds), Some(on_clock)) = (table.seconds_left(now), table.clock_for)
            {
                ui.separator();
                let seat = describe::seat(&session.state, on_clock);
                let text = RichText::new(format!("{seconds} s left for {seat}"));
                ui.label(if seconds <= 10 { text.color(Color32::LIGHT_RED).strong() } else { text });
            }
            if session.is_awaiting_server() {
                ui.label(RichText::new("sent…").weak());
            }
            if !table.is_connected() {
                ui.colored_label(Color32::LIGHT_RED, "not connected");
                if ui.button("Reconnect").clicked() {
                    table.reconnect(ui.ctx());
                }
            }
            ui.separator();
            if ui.button("Keys").on_hover_text("The keyboard shortcuts (the key ?)").clicked() {
                self.show_keys = !self.show_keys;
            }
            if ui.button("Settings").on_hover_text("Colours and the interface's scale").clicked() {
                self.settings_asked = true;
            }
        });
        // A seat that left the game (grey) is not waited for; nobody is, once it is over.
        let playing = |i: usize| {
            !session.is_over()
                && session
                    .state
                    .seats
                    .get(i)
                    .is_some_and(|s| s.status == meeple_engine::game::state::SeatStatus::Active)
        };
        let away: Vec<String> = table
            .seats
            .iter()
            .enumerate()
            .filter(|(i, s)| s.computer.is_none() && !s.connected && playing(*i))
            .map(|(_, s)| s)
            .map(|s| if s.stand_in { format!("{} (the computer plays)", s.name) } else { s.name.clone() })
            .collect();
        if !away.is_empty() {
            ui.label(RichText::new(format!("Away: {}", away.join(", "))).small());
        }
        for status in [&table.status, &self.status].into_iter().flatten() {
            ui.label(RichText::new(status).small());
        }
    }

    /// Selects the piece standing on a clicked space, if any, whatever else the click does: the
    /// board shows what it sees. A click on an empty space keeps the selection.
    pub fn select_piece_at(&mut self, space: u32) {
        let state = &self.session.state;
        // The piece standing there by itself: a holder, not what is inside it.
        let standing = |p: &meeple_engine::game::state::Piece| {
            p.alive && p.space == space && p.inside == meeple_engine::game::state::NO_PIECE
        };
        if let Some(piece) = state.pieces.iter().position(standing) {
            self.selected_piece = Some(piece as u32);
        }
    }

    /// A click on the board: selects the piece there and chooses the option there; with nothing being chosen, starts the
    /// first action that can use that space.
    pub fn click_space(&mut self, space: u32) {
        self.select_piece_at(space);
        if self.session.chosen().is_some() && self.session.choose_space(space) {
            return;
        }
        let menu = self.session.menu();
        for entry in menu.iter().filter(|e| e.unavailable.is_none() && matches!(e.kind, ActionKind::Rule(_))) {
            self.session.select(entry.kind);
            // Online, an action taken at once (its roll comes first) went to the server: the
            // click is spent.
            if self.session.choose_space(space) || self.session.is_awaiting_server() {
                return;
            }
        }
        self.session.back();
        if self.session.chosen().is_some() && self.session.state.turn.pending.is_none() {
            // Nothing here for any action: drop the half-made choice.
            self.session.back();
        }
    }

    /// The highlights: eligible spaces white, other sides' red, chosen ones yellow; between a
    /// person's choices, the spaces of the last action yellow.
    pub fn marks(&self) -> HashMap<u32, Mark> {
        let mut marks = HashMap::new();
        if !self.session.is_human_turn() || self.session.chosen().is_none() {
            for &space in &self.session.last_places {
                marks.insert(space, Mark::Chosen);
            }
        }
        if !self.session.is_human_turn() {
            return marks;
        }
        for option in self.session.options() {
            if let Some(space) = option.space {
                marks.insert(space, if option.hostile { Mark::Target } else { Mark::Eligible });
            }
        }
        for space in self.session.chosen_places() {
            marks.insert(space, Mark::Chosen);
        }
        if let Some(space) = self.pointed
            && self.session.options().iter().any(|o| o.space == Some(space))
        {
            marks.insert(space, Mark::Pointed);
        }
        marks
    }

    /// Tooltip lines for the spaces that may be chosen: the preview of choosing each (at most
    /// a few dozen options are previewed, so a long list of tiles stays cheap).
    pub fn notes(&mut self) -> HashMap<u32, Vec<String>> {
        let mut notes = HashMap::new();
        if !self.session.is_human_turn() {
            return notes;
        }
        let options = self.session.options();
        if options.len() > 64 {
            return notes;
        }
        for option in options {
            let Some(space) = option.space else { continue };
            let lines: Vec<String> = self.session.preview_with(option.arg).iter().map(panels::format_preview).collect();
            if !lines.is_empty() {
                notes.insert(space, lines);
            }
        }
        notes
    }

    /// The hands as the seat shown ([`Session::viewer`]) sees them, from the engine's view: its
    /// own cards; the others' by size, with the cards they showed it.
    fn hand_ui(&self, ui: &mut egui::Ui) {
        let view = self.session.view();
        let rules = &self.session.rules;
        if view.seats.iter().all(|s| s.hand.is_empty()) {
            return;
        }
        ui.separator();
        let viewer = self.session.viewer();
        // Cards by the names players read (their labels), the unknown ones left out.
        let known = |hand: &[(u16, u16)]| -> Vec<(String, Option<String>, Option<&str>)> {
            hand.iter()
                .filter_map(|(_, card)| {
                    let id = rules.card_ids.get(*card as usize)?;
                    Some((rules.cards.get(*card as usize)?, id, art::card_image(rules, *card)))
                })
                .map(|(card, id, image)| {
                    (card.label.clone(), rules.data.cards.get(id).and_then(|def| def.text.clone()), image)
                })
                .collect()
        };
        if let Some(mine) = view.seats.get(viewer as usize) {
            ui.label(RichText::new("Your hand").strong());
            ui.horizontal_wrapped(|ui| {
                for (name, text, image) in known(&mine.hand) {
                    let response = ui.add(art::button(ui.ctx(), rules, image, name).frame(true));
                    if let Some(text) = text {
                        response.on_hover_text(text);
                    }
                }
            });
        }
        for (i, other) in view.seats.iter().enumerate() {
            if i as u8 != viewer && !other.hand.is_empty() {
                ui.label(RichText::new(format!("{}: {}", other.name, describe::card_count(other.hand.len()))).small());
                let shown: Vec<String> = known(&other.hand).into_iter().map(|(name, ..)| name).collect();
                if !shown.is_empty() {
                    ui.label(RichText::new(format!("  shown: {}", shown.join(", "))).small());
                }
            }
        }
    }

    fn game_over_window(&mut self, ui: &mut egui::Ui, choice: &mut Option<GameChoice>) {
        let stats = self.session.stats();
        // Worked out once per state: the ranking asks the mod's standing, which may run Lua.
        let revision = self.session.revision();
        if self.end_screen.as_ref().is_none_or(|(at, _, _)| *at != revision) {
            let ranking = self.session.ranking();
            self.end_screen = Some((revision, ranking, self.session.timeline.telling_series()));
        }
        let Some((_, ranking, telling)) = self.end_screen.clone() else { return };
        let chosen = self.chart_series.filter(|s| telling.contains(s)).or_else(|| telling.first().copied());
        let mut open = true;
        let online = self.online.is_some();
        egui::Window::new("Game over").collapsible(false).resizable(false).open(&mut open).show(ui.ctx(), |ui| {
            let session = &self.session;
            if let Some(winners) = session.winners() {
                ui.heading(winners);
            }
            // Rounds start afresh each match: a game of matches counts its matches instead.
            let length = if stats.matches > 1 {
                format!("{} matches", stats.matches)
            } else {
                format!("{} rounds", stats.rounds)
            };
            ui.label(format!("{} turns, {length}, {} actions", stats.turns, stats.actions));
            ui.add_space(4.0);
            for ranked in &ranking {
                let color = describe::seat_color(&session.rules, &session.state, ranked.seat);
                ui.colored_label(color, RichText::new(timeline::ranking_line(&session.state, ranked)).strong());
            }
            ui.add_space(4.0);
            if let Some(series) = chosen {
                self.chart_series = Some(series);
                self.chart_ui(ui, &telling, series);
            }
            egui::CollapsingHeader::new("Statistics").default_open(false).show(ui, |ui| {
                let session = &self.session;
                egui::Grid::new("statistics").striped(true).show(ui, |ui| {
                    for (row, cells) in session.statistics_table().iter().enumerate() {
                        for (col, cell) in cells.iter().enumerate() {
                            if row == 0 {
                                ui.strong(cell);
                            } else if col == 0 {
                                let color = describe::seat_color(&session.rules, &session.state, row as u8 - 1);
                                ui.colored_label(color, cell);
                            } else {
                                ui.label(cell);
                            }
                        }
                        ui.end_row();
                    }
                });
            });
            ui.horizontal(|ui| {
                if online {
                    if ui.button("Back to tables").clicked() {
                        *choice = Some(GameChoice::Quit);
                    }
                    ui.label(RichText::new("The server keeps the game's replay").small().weak());
                    return;
                }
                if ui.button("Rematch").on_hover_text("The same seats and players, a new seed").clicked() {
                    *choice = Some(GameChoice::Rematch);
                }
                if ui.button("Play again").on_hover_text("Set up a new game of this mod").clicked() {
                    *choice = Some(GameChoice::NewGame);
                }
                if ui.button("Back to games").clicked() {
                    *choice = Some(GameChoice::Quit);
                }
                if ui.button("Watch the replay").clicked() {
                    *choice = Some(GameChoice::WatchReplay);
                }
            });
        });
        if !open {
            self.over_closed = true;
        }
    }

    /// The chart of one figure over the game's turns, a line per seat in its colour, with a
    /// choice of the figure among those that tell the seats apart.
    fn chart_ui(&mut self, ui: &mut egui::Ui, telling: &[usize], series: usize) {
        let timeline = &self.session.timeline;
        let mut shown = series;
        egui::ComboBox::from_label("Chart").selected_text(&timeline.series[series]).show_ui(ui, |ui| {
            for &other in telling {
                ui.selectable_value(&mut shown, other, &timeline.series[other]);
            }
        });
        let (rules, state) = (&self.session.rules, &self.session.state);
        egui_plot::Plot::new("game over chart")
            .height(180.0)
            .width(420.0)
            .legend(egui_plot::Legend::default())
            .x_axis_label("Turn")
            .include_y(0.0)
            .allow_drag(false)
            .allow_zoom(false)
            .allow_scroll(false)
            .allow_boxed_zoom(false)
            .show(ui, |plot| {
                for seat in 0..state.seats.len() as u8 {
                    let name = describe::seat(state, seat);
                    let line = egui_plot::Line::new(name, timeline.points(series, seat))
                        .color(describe::seat_color(rules, state, seat))
                        .width(2.0);
                    plot.line(line);
                }
            });
        self.chart_series = Some(shown);
    }
}

#[cfg(test)]
mod tests {
    //! The game screen's general features driven like a person would, by labels (egui_kittest),
    //! on small mods of their own: sealed choices opened side by side (the engine's `showdown`
    //! fixture), the selected piece's line of sight and items' stats where items are chosen (a
    //! lookout on a grid with a wood, written here).

    use std::path::PathBuf;

    use egui_kittest::Harness;
    use egui_kittest::kittest::{NodeT, Queryable};
    use meeple_engine::game::{Action, ActionKind, GameSetup};
    use meeple_engine::rules::Ruleset;

    use super::*;
    use crate::player::catalog::{ModEntry, Origin};

    /// A lookout on a five by five grid with one wood that blocks sight, a shop of two items
    /// (one only a lookout may hold, with a description) and an action that chooses a held item.
    const OUTPOST: &str = r##"
[board]
kind = "square"
columns = 5
rows = 5
layout = [".....", "..#..", ".....", ".....", "....."]
legend = { "." = "grass", "#" = "wood" }

[terrain.grass]
[terrain.wood]
blocks_sight = true

[resources.coins]
initial = 10
min = 0

[pieces.lookout]
label = "Lookout"
items = ["lance"]

[items.lance]
label = "Lance"
price = 4
holders = ["lookout"]
description = "Reaches two squares."
stats = { strength = 3, reach = 2 }

[items.lamp]
label = "Lamp"
price = 2
stats = { light_radius = 1 }

[setup]
effect = ["place('lookout', seat(1), space('A00'))", "place('lookout', seat(2), space('E04'))"]

[turn]
phases = [{ id = "main", actions = ["buy", "polish"] }]

[actions.buy]
label = "Buy"
params = [{ name = "ware", kind = "item", where = "ware.price <= me.coins" }]
effect = ["me.coins -= ware.price", "give(me.piece, ware)"]

[actions.polish]
label = "Polish"
params = [{ name = "gear", kind = "held", held_by = "me.piece" }]
effect = ["me.coins += 1"]

[end]
win = "seat.coins >= 99"
"##;

    fn repository(relative: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(relative)
    }

    /// A mod written to a scratch folder for one test, removed when the test ends.
    struct WrittenMod {
        root: PathBuf,
        folder: PathBuf,
    }

    impl Drop for WrittenMod {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.root);
        }
    }

    /// The outpost mod written to a folder of its own for this test.
    fn outpost(test: &str) -> WrittenMod {
        let root = std::env::temp_dir().join(format!("meeple-player-{}-{test}", std::process::id()));
        let folder = root.join("outpost");
        std::fs::create_dir_all(&folder).expect("a scratch folder");
        let manifest = "id = \"outpost\"\nname = \"Outpost\"\nversion = \"0.1.0\"\napi = 1\n\
                        description = \"A lookout, a wood and a shop.\"\nseats = { min = 2, max = 2 }\n";
        std::fs::write(folder.join("mod.toml"), manifest).expect("mod.toml");
        std::fs::write(folder.join("data.toml"), OUTPOST).expect("data.toml");
        WrittenMod { root, folder }
    }

    /// The window on the game screen of a game of the mod in `folder` with these controllers.
    fn playing(folder: &Path, seed: u64, controllers: &[&str]) -> Harness<'static, PlayerApp> {
        let rules = match meeple_engine::loader::load_mod(folder) {
            Ok(loaded) => loaded.ruleset,
            Err(problems) => panic!("{}", problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")),
        };
        let mut setup = GameSetup::new(&rules, seed, controllers.len(), "human");
        for (seat, controller) in setup.seats.iter_mut().zip(controllers) {
            seat.controller = controller.to_string();
        }
        let session = Session::new(rules, setup).expect("the game starts");
        let mut app = PlayerApp::with_mods(vec![ModEntry::load(folder, Origin::User)], StartOptions::default());
        let mut game = GameScreen::new(session, folder);
        game.computer_delay = 0.0;
        app.screen = Screen::Game(Box::new(game));
        let mut harness = Harness::builder()
            .with_size(egui::vec2(1280.0, 800.0))
            .with_max_steps(10_000)
            .build_ui_state(|ui, app: &mut PlayerApp| app.ui(ui), app);
        harness.run();
        harness
    }

    fn game<'h>(harness: &'h Harness<'static, PlayerApp>) -> &'h GameScreen {
        harness.state().game().expect("the game screen")
    }

    fn session<'h>(harness: &'h mut Harness<'static, PlayerApp>) -> &'h mut Session {
        &mut harness.state_mut().game_mut().expect("the game screen").session
    }

    fn has_label(harness: &Harness<'static, PlayerApp>, label: &str) -> bool {
        harness.query_all_by_label(label).next().is_some()
    }

    /// A plain label (not a button, not the log) with exactly this text.
    fn has_text(harness: &Harness<'static, PlayerApp>, text: &str) -> bool {
        harness.query_all_by_role_and_label(egui::accesskit::Role::Label, text).next().is_some()
    }

    /// Clicks the widget labelled exactly `label`, after scrolling it into view.
    fn click(harness: &mut Harness<'static, PlayerApp>, label: &str) {
        harness
            .query_all_by_label(label)
            .next()
            .unwrap_or_else(|| panic!("no widget labelled {label:?}"))
            .scroll_to_me();
        harness.run();
        harness.query_all_by_label(label).next().unwrap_or_else(|| panic!("no widget labelled {label:?}")).click();
        harness.run();
    }

    fn action(rules: &Ruleset, id: &str) -> ActionKind {
        ActionKind::Rule(rules.actions.iter().position(|a| a.id == id).expect("the action") as u16)
    }

    /// The person to move takes the screen (hot seat, hidden hands) and the frame is drawn.
    fn hand_over(harness: &mut Harness<'static, PlayerApp>) {
        harness.state_mut().game_mut().expect("game").take_over();
        harness.run();
    }

    /// Commits the first card offered to the sealed `commit`, as the seat to answer.
    fn commit_first_card(harness: &mut Harness<'static, PlayerApp>, commit: ActionKind) -> i64 {
        let session = session(harness);
        session.select(commit);
        let card = session.options().first().expect("a card to commit").arg;
        session.choose(card);
        harness.run();
        card
    }

    #[test]
    fn opened_sealed_choices_are_shown_side_by_side_and_never_before() {
        let mut harness = playing(&repository("engine/tests/fixtures/showdown"), 3, &["human", "human"]);
        hand_over(&mut harness);
        let rules = session(&mut harness).rules.clone();
        let (challenge, commit) = (action(&rules, "challenge"), action(&rules, "commit"));
        // Seat 1 challenges seat 2; both are offered the sealed, repeated commit.
        session(&mut harness).select(challenge);
        session(&mut harness).choose(1);
        hand_over(&mut harness);
        let first = commit_first_card(&mut harness, commit);
        let second = commit_first_card(&mut harness, commit);
        let _ = session(&mut harness).act(Action::pass());
        // Seat 2 answers: seat 1's stack is sealed, not shown.
        hand_over(&mut harness);
        assert_eq!(session(&mut harness).viewer(), 1);
        assert!(session(&mut harness).opened().is_none(), "nothing is opened yet");
        assert!(!has_label(&harness, "Cards played"), "no panel before the opening");
        let third = commit_first_card(&mut harness, commit);
        assert!(!has_label(&harness, "Cards played"), "nor after seat 2's first card");
        let _ = session(&mut harness).act(Action::pass());
        hand_over(&mut harness);

        // Opened: both stacks, side by side, each seat's cards by their labels, in seat 2's view
        // (seat 1's cards are known from the discards that opening them made).
        let label = |card: i64| crate::player::describe::card_label(&rules, card);
        let opened = session(&mut harness).opened().cloned().expect("the stacks were opened");
        assert_eq!(opened.columns.len(), 2);
        assert_eq!((opened.columns[0].seat, opened.columns[1].seat), (0, 1));
        assert_eq!(opened.columns[0].choices, vec![label(first), label(second)]);
        assert_eq!(opened.columns[1].choices, vec![label(third)]);
        assert!(has_label(&harness, "Cards played"), "the panel is shown");
        for card in [first, second, third] {
            assert!(has_text(&harness, &label(card)), "{} is listed", label(card));
        }
        // It stays until the next opening: a new challenge with sealed answers still waiting
        // shows the last one.
        session(&mut harness).select(challenge);
        session(&mut harness).choose(0);
        hand_over(&mut harness);
        let _ = commit_first_card(&mut harness, commit);
        assert_eq!(session(&mut harness).opened(), Some(&opened), "the last opening stays");
        assert!(has_label(&harness, "Cards played"));
    }

    /// Clicks the board at a space, where it was drawn.
    fn click_board(harness: &mut Harness<'static, PlayerApp>, space: u32) {
        let at = game(harness).board.screen_pos(space).expect("the board was drawn");
        harness.hover_at(at);
        harness.run();
        for pressed in [true, false] {
            harness.event(egui::Event::PointerButton {
                pos: at,
                button: egui::PointerButton::Primary,
                pressed,
                modifiers: egui::Modifiers::default(),
            });
        }
        harness.run();
    }

    #[test]
    fn a_clicked_piece_shows_its_line_of_sight_until_switched_off() {
        let written = outpost("sight");
        let mut harness = playing(&written.folder, 1, &["human", "random"]);
        assert!(has_label(&harness, "Show line of sight"), "the grid has a wood that blocks sight");
        let state = &game(&harness).session.state;
        let (piece, space) = (1, state.pieces[1].space);
        let behind_the_wood = (0..state.board.space_count() as u32).find(|&s| state.board.space(s).label == "B00");
        let behind_the_wood = behind_the_wood.expect("B00");
        assert_eq!(game(&harness).sight_source(), None, "nothing selected yet");
        click_board(&mut harness, space);
        let game_screen = game(&harness);
        assert_eq!(game_screen.selected_piece, Some(piece), "the other seat's lookout, at E04");
        assert_eq!(game_screen.sight_source(), Some(space), "the board shows what it sees");
        let (rules, state) = (&game_screen.session.rules, &game_screen.session.state);
        assert!(game_screen.sight.holds(rules, state, space), "the frame worked out its sight");
        let toggle = harness.get_by_label("Show line of sight");
        assert_eq!(toggle.accesskit_node().toggled(), Some(egui::accesskit::Toggled::True), "on by default");
        // What the engine says: E04 sees itself, and the wood at C01 hides B00 from it.
        let seen = harness.state_mut().game_mut().expect("game").sight_seen().expect("sight").to_vec();
        assert!(seen[space as usize] && !seen[behind_the_wood as usize], "{seen:?}");
        click(&mut harness, "Show line of sight");
        assert!(!game(&harness).show_sight);
        assert_eq!(game(&harness).sight_source(), None, "switched off");
    }

    #[test]
    fn items_show_their_stats_where_they_are_bought_held_and_described() {
        let written = outpost("items");
        let mut harness = playing(&written.folder, 1, &["human", "random"]);
        let rules = game(&harness).session.rules.clone();
        // The piece's lines: its starting item with what it gives.
        let lines = crate::player::panels::piece_lines(&rules, &game(&harness).session.state, 0);
        assert!(lines.contains(&"Lance (strength 3, reach 2)".to_string()), "{lines:?}");

        // Buying: each item with its stats and holders under it, then its description.
        click(&mut harness, "Buy");
        assert!(has_text(&harness, "strength 3, reach 2 · for Lookout"), "the lance's stats and holder");
        assert!(has_label(&harness, "Reaches two squares."), "the description, without hovering");
        assert!(has_text(&harness, "light radius 1"), "the lamp's stats, for any holder");
        let options = game(&harness).session.options();
        let lance = options.iter().find(|o| o.label.starts_with("Lance")).expect("the lance is for sale");
        assert_eq!(lance.label, "Lance ($4)", "the price");
        assert_eq!(lance.description.as_deref(), Some("Reaches two squares."));
        click(&mut harness, "Back");

        // Choosing an item held: the same line under it.
        click(&mut harness, "Polish");
        let held = game(&harness).session.options();
        assert_eq!(held.len(), 1);
        assert_eq!(held[0].detail.as_deref(), Some("strength 3, reach 2 · for Lookout"));
        assert!(has_text(&harness, "strength 3, reach 2 · for Lookout"), "under the held item's choice");
    }

    /// Where no desktop dialog can be shown: the window's browser takes over.
    struct NoDialogs;

    impl crate::player::files::FileDialogs for NoDialogs {
        fn open(&mut self, _folder: &Path) -> Picked {
            Picked::NoDialog
        }

        fn save_as(&mut self, _folder: &Path, _name: &str) -> Picked {
            Picked::NoDialog
        }
    }

    /// Presses a key (with modifiers) and draws the frames that follow.
    fn press(harness: &mut Harness<'static, PlayerApp>, modifiers: egui::Modifiers, key: egui::Key) {
        harness.key_press_modifiers(modifiers, key);
        harness.run();
    }

    #[test]
    fn keys_cancel_a_choice_end_the_turn_undo_and_save() {
        use egui::{Key, Modifiers};
        let written = outpost("keys");
        let mut harness = playing(&written.folder, 1, &["human", "human"]);
        let rules = game(&harness).session.rules.clone();
        let buy = action(&rules, "buy");

        // Esc drops the choice in progress; Enter does not end the turn while one is made.
        click(&mut harness, "Buy");
        assert_eq!(game(&harness).session.chosen(), Some((buy, 0)));
        press(&mut harness, Modifiers::NONE, Key::Enter);
        assert_eq!(game(&harness).session.seat(), 0, "the turn goes on while choosing");
        assert!(has_label(&harness, "Finish or cancel (Esc) the choice in progress first"));
        press(&mut harness, Modifiers::NONE, Key::Escape);
        assert_eq!(game(&harness).session.chosen(), None);

        // Ctrl+Z takes back what was bought.
        click(&mut harness, "Buy");
        let lamp = game(&harness).session.options().iter().find(|o| o.label.starts_with("Lamp")).unwrap().arg;
        session(&mut harness).choose(lamp);
        harness.run();
        assert_eq!(game(&harness).session.history.len(), 1);
        press(&mut harness, Modifiers::COMMAND, Key::Z);
        assert_eq!(game(&harness).session.history.len(), 0, "undone");

        // Enter and Space end the turn, whichever button has the focus.
        harness.get_by_label("Polish").focus();
        press(&mut harness, Modifiers::NONE, Key::Enter);
        assert_eq!(game(&harness).session.seat(), 1, "Enter ended seat 1's turn");
        assert_eq!(game(&harness).session.chosen(), None, "the focused button was not pressed");
        press(&mut harness, Modifiers::NONE, Key::Space);
        assert_eq!(game(&harness).session.seat(), 0, "Space ended seat 2's");

        // Ctrl+S saves where the save field says.
        let path = written.root.join("by-key.json");
        harness.state_mut().game_mut().unwrap().save_path = path.display().to_string();
        press(&mut harness, Modifiers::COMMAND, Key::S);
        let saved = std::fs::read_to_string(&path).expect("saved by Ctrl+S");
        assert!(saved.contains("\"outpost\""), "{saved}");
    }

    #[test]
    fn keys_fit_zoom_and_pan_the_board_and_list_themselves() {
        use egui::{Key, Modifiers};
        let written = outpost("view keys");
        let mut harness = playing(&written.folder, 1, &["human", "human"]);
        let view =
            |harness: &Harness<'static, PlayerApp>| (game(harness).board.zoom(), game(harness).board.view_center());
        let (fitted, middle) = view(&harness);
        press(&mut harness, Modifiers::NONE, Key::Plus);
        let (closer, _) = view(&harness);
        assert!((closer / fitted - 1.25).abs() < 1e-3, "+ zooms in by a quarter: {fitted} to {closer}");
        // Close enough that the board overflows the view, so that it can move.
        for _ in 0..5 {
            press(&mut harness, Modifiers::NONE, Key::Plus);
        }
        let (closest, _) = view(&harness);
        press(&mut harness, Modifiers::NONE, Key::ArrowRight);
        let (_, moved) = view(&harness);
        assert!(
            moved.x > middle.x && (moved.y - middle.y).abs() < 1e-3,
            "→ moves the view right: {middle:?} to {moved:?}"
        );
        press(&mut harness, Modifiers::NONE, Key::ArrowUp);
        assert!(view(&harness).1.y < moved.y, "↑ moves it up");
        press(&mut harness, Modifiers::NONE, Key::Minus);
        assert!((view(&harness).0 * 1.25 / closest - 1.0).abs() < 1e-3, "− zooms out again");
        // F shows the whole board, centred.
        press(&mut harness, Modifiers::NONE, Key::F);
        let (whole, center) = view(&harness);
        let board = game(&harness).board.drawn_geometry().unwrap().bounds();
        assert_eq!(center, board.center());
        assert!(whole <= closer, "the whole board is no closer than before: {whole}");

        // ? lists the keys; Esc closes the list before it cancels anything.
        press(&mut harness, Modifiers::SHIFT, Key::Questionmark);
        assert!(has_label(&harness, "Ctrl+Z") && has_label(&harness, "Fit the whole board in view"));
        click(&mut harness, "Buy");
        press(&mut harness, Modifiers::NONE, Key::Escape);
        assert!(!has_label(&harness, "Ctrl+Z"), "the list is closed");
        assert!(game(&harness).session.chosen().is_some(), "the choice is still in progress");
        press(&mut harness, Modifiers::NONE, Key::Escape);
        assert_eq!(game(&harness).session.chosen(), None);

        // In a text field keys are typing: F is a letter of the name, Enter ends no turn (the
        // window's own browser's name field, where no save dialog can be shown).
        harness.state_mut().dialogs = Box::new(NoDialogs);
        click(&mut harness, "Save as…");
        harness.get_by_label("File name").focus();
        harness.run();
        harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
        harness.get_by_label("File name").type_text("f");
        harness.run();
        press(&mut harness, Modifiers::NONE, Key::Plus);
        press(&mut harness, Modifiers::NONE, Key::Enter);
        assert_eq!(view(&harness).0, whole, "the text field has the keys: no zoom");
        assert_eq!(game(&harness).session.seat(), 0, "no turn ended from the text field");
        let browser = harness.state().browser.as_ref().expect("the browser is still open");
        assert_eq!(browser.name, "f");
    }

    /// A storage in memory, as eframe keeps one on disk.
    #[derive(Default)]
    struct Kept(HashMap<String, String>);

    impl eframe::Storage for Kept {
        fn get_string(&self, key: &str) -> Option<String> {
            self.0.get(key).cloned()
        }

        fn set_string(&mut self, key: &str, value: String) {
            self.0.insert(key.to_string(), value);
        }

        fn remove_string(&mut self, key: &str) {
            self.0.remove(key);
        }

        fn flush(&mut self) {}
    }

    #[test]
    fn settings_recolour_the_seats_scale_the_window_and_are_kept_between_runs() {
        let written = outpost("settings");
        let mut harness = playing(&written.folder, 1, &["human", "human"]);
        let rules = game(&harness).session.rules.clone();
        let seat_colors = |harness: &Harness<'static, PlayerApp>| {
            let state = &game(harness).session.state;
            [0, 1].map(|seat| describe::seat_color(&rules, state, seat))
        };
        let before = seat_colors(&harness);
        click(&mut harness, "Settings");
        click(&mut harness, "Colour-blind-safe seat colours");
        assert!(harness.state().settings.colour_blind_safe);
        let safe = seat_colors(&harness);
        assert!(safe.iter().all(|c| describe::COLOUR_BLIND_PALETTE.contains(c)) && safe[0] != safe[1], "{safe:?}");
        assert_ne!(safe, before);
        harness.state_mut().settings.ui_scale = 1.5;
        harness.run();
        assert_eq!(harness.ctx.zoom_factor(), 1.5, "the interface follows the scale");
        click(&mut harness, "Reduce motion");
        assert!(game(&harness).reduce_motion, "the game follows the setting");

        // Kept by eframe's storage at the end of a run, read back at the start of the next.
        let mut kept = Kept::default();
        eframe::App::save(harness.state_mut(), &mut kept);
        let next = Settings::load(Some(&kept));
        assert_eq!(next, Settings { colour_blind_safe: true, ui_scale: 1.5, reduce_motion: true });
        assert_eq!(Settings::load(None), Settings::default(), "a first run");
        eframe::Storage::set_string(&mut kept, crate::player::settings::STORAGE_KEY, "{\"ui_scale\": 9}".into());
        assert_eq!(Settings::load(Some(&kept)).ui_scale, 2.0, "a scale out of range is brought within it");
        describe::use_colour_blind_palette(false);
    }

    #[test]
    fn each_person_is_greeted_with_what_happened_since_its_last_turn() {
        let written = outpost("since");
        let mut harness = playing(&written.folder, 1, &["human", "human"]);
        let rules = game(&harness).session.rules.clone();
        // Seat 1's first turn: nothing before it.
        assert!(!has_label(&harness, "Since your last turn"));
        session(&mut harness).act(Action::pass()).unwrap();
        harness.run();
        // Seat 2's first turn: it had none before.
        assert!(!has_label(&harness, "Since your last turn"));
        session(&mut harness).select(action(&rules, "buy"));
        let lamp = game(&harness).session.options().iter().find(|o| o.label.starts_with("Lamp")).unwrap().arg;
        session(&mut harness).choose(lamp);
        session(&mut harness).act(Action::pass()).unwrap();
        harness.run();
        // Seat 1 again: seat 2's turn and its purchase, not seat 1's own turn.
        assert!(has_label(&harness, "Since your last turn"));
        let lines: Vec<String> = game(&harness).session.since_last_turn(0).iter().map(|l| l.text.clone()).collect();
        assert!(lines.first().is_some_and(|l| l.contains("Seat 2")), "{lines:?}");
        assert!(lines.iter().any(|l| l.contains("Buy") && l.contains("Lamp")), "{lines:?}");
        assert!(lines.iter().all(|l| !l.contains("Seat 1's turn")), "{lines:?}");
        assert!(game(&harness).session.since_last_turn(1).is_empty(), "only for the seat whose turn it is");
    }
}
