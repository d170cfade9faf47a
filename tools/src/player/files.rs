//! Files the player opens and writes: the desktop's open and save dialogs, the window's own
//! folder browser for when no dialog can be shown, and the list of recent saves.
//!
//! Native dialogs go through the desktop portal (`rfd`), which needs a session bus; under a
//! bare X server (CI, Xvfb) there is none, and the window browses folders itself. The dialogs
//! sit behind [`FileDialogs`] so tests can stand in for the person choosing.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use egui::RichText;
use meeple_engine::save::SaveFile;

/// What a file dialog gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Picked {
    Path(PathBuf),
    /// The person closed the dialog without choosing.
    Cancelled,
    /// No dialog can be shown here: the window's own browser takes over.
    NoDialog,
}

/// The open and save dialogs.
pub trait FileDialogs {
    /// A save file to open, starting in `folder`.
    fn open(&mut self, folder: &Path) -> Picked;
    /// Where to save, starting in `folder` with the name `name` proposed.
    fn save_as(&mut self, folder: &Path, name: &str) -> Picked;
}

/// The desktop's own dialogs, through its portal.
pub struct NativeDialogs;

impl NativeDialogs {
    /// The portal answers on the session bus: without one no dialog can appear.
    fn available() -> bool {
        std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some()
    }

    fn dialog(folder: &Path) -> rfd::FileDialog {
        rfd::FileDialog::new().set_directory(folder).add_filter("Meeple saves", &["json"])
    }
}

impl FileDialogs for NativeDialogs {
    fn open(&mut self, folder: &Path) -> Picked {
        if !Self::available() {
            return Picked::NoDialog;
        }
        Self::dialog(folder).set_title("Open a saved game").pick_file().map_or(Picked::Cancelled, Picked::Path)
    }

    fn save_as(&mut self, folder: &Path, name: &str) -> Picked {
        if !Self::available() {
            return Picked::NoDialog;
        }
        Self::dialog(folder)
            .set_title("Save the game")
            .set_file_name(name)
            .save_file()
            .map_or(Picked::Cancelled, Picked::Path)
    }
}

/// What the launcher shows of a save: its game, seed, length and age.
#[derive(Clone, Debug)]
pub struct SaveSummary {
    pub path: PathBuf,
    /// The mod's id, as the save names it.
    pub mod_id: String,
    pub seed: u64,
    pub actions: usize,
    /// Whether the game in it is over.
    pub over: bool,
    pub modified: Option<SystemTime>,
}

impl SaveSummary {
    /// Reads what the launcher shows; `None` for a file that is gone or no save.
    pub fn read(path: &Path) -> Option<Self> {
        let save = SaveFile::read(path).ok()?;
        Some(Self {
            path: path.to_path_buf(),
            mod_id: save.mod_ref.id.clone(),
            seed: save.setup.seed,
            actions: save.actions.len(),
            over: save.state.as_ref().is_some_and(|s| s.is_over()),
            modified: std::fs::metadata(path).and_then(|m| m.modified()).ok(),
        })
    }

    /// How long ago the file was written, in words: "just now", "5 minutes ago", "3 days ago".
    pub fn age(&self, now: SystemTime) -> String {
        let Some(seconds) = self.modified.and_then(|m| now.duration_since(m).ok()).map(|d| d.as_secs()) else {
            return String::new();
        };
        let (count, unit) = match seconds {
            0..60 => return "just now".into(),
            60..3600 => (seconds / 60, "minute"),
            3600..86_400 => (seconds / 3600, "hour"),
            _ => (seconds / 86_400, "day"),
        };
        format!("{count} {unit}{} ago", if count == 1 { "" } else { "s" })
    }
}

/// How many saves the launcher lists.
pub const RECENT_SAVES: usize = 8;

/// The saves opened or written lately, newest first, kept in a file of one path a line so the
/// launcher lists them in the next run too. Files gone since are left out.
pub struct RecentSaves {
    /// Where the list is kept; `None` keeps it for this run only.
    file: Option<PathBuf>,
    saves: Vec<SaveSummary>,
}

impl RecentSaves {
    /// The list kept in `file` (none yet when it does not exist).
    pub fn load(file: Option<PathBuf>) -> Self {
        let text = file.as_ref().and_then(|f| std::fs::read_to_string(f).ok()).unwrap_or_default();
        let saves = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .filter_map(|l| SaveSummary::read(Path::new(l.trim())))
            .take(RECENT_SAVES)
            .collect();
        Self { file, saves }
    }

    /// The file of the player's own list, in its data folder.
    pub fn default_file() -> Option<PathBuf> {
        super::catalog::data_dir().map(|d| d.join("recent-saves.txt"))
    }

    pub fn saves(&self) -> &[SaveSummary] {
        &self.saves
    }

    /// Puts a save at the top of the list (it was just opened or written) and keeps the list.
    pub fn remember(&mut self, path: &Path) {
        let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        self.saves.retain(|s| s.path != path);
        if let Some(summary) = SaveSummary::read(&path) {
            self.saves.insert(0, summary);
        }
        self.saves.truncate(RECENT_SAVES);
        if let Some(file) = &self.file {
            if let Some(folder) = file.parent() {
                let _ = std::fs::create_dir_all(folder);
            }
            let lines: String = self.saves.iter().map(|s| format!("{}\n", s.path.display())).collect();
            // The list is a convenience: failing to keep it costs nothing of the game.
            let _ = std::fs::write(file, lines);
        }
    }
}

/// What the window's own browser is choosing a file for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BrowsePurpose {
    /// A save to continue.
    Open,
    /// A save to watch in the replay viewer.
    Replay,
    /// Where to save the game being played.
    SaveAs,
}

/// The window's own file browser: a folder's subfolders and saves, a way up, and for saving a
/// name field. Shown where no desktop dialog can be.
pub struct FolderBrowser {
    pub purpose: BrowsePurpose,
    pub folder: PathBuf,
    /// The file name typed, when saving.
    pub name: String,
    /// Why the folder could not be listed, if it could not.
    problem: Option<String>,
}

/// What the person did in the browser this frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BrowseAnswer {
    Chosen(BrowsePurpose, PathBuf),
    Cancelled,
}

impl FolderBrowser {
    pub fn new(purpose: BrowsePurpose, folder: &Path, name: &str) -> Self {
        Self { purpose, folder: folder.to_path_buf(), name: name.to_string(), problem: None }
    }

    /// The folder's subfolders and its `.json` files, each sorted by name (hidden ones left out).
    pub fn listing(&mut self) -> (Vec<PathBuf>, Vec<PathBuf>) {
        let (mut folders, mut saves) = (Vec::new(), Vec::new());
        match std::fs::read_dir(&self.folder) {
            Ok(entries) => {
                self.problem = None;
                for entry in entries.flatten() {
                    let path = entry.path();
                    if entry.file_name().to_string_lossy().starts_with('.') {
                        continue;
                    }
                    if path.is_dir() {
                        folders.push(path);
                    } else if path.extension().is_some_and(|e| e == "json") {
                        saves.push(path);
                    }
                }
            }
            Err(error) => self.problem = Some(format!("cannot list {}: {error}", self.folder.display())),
        }
        folders.sort();
        saves.sort();
        (folders, saves)
    }

    /// Draws the browser in a window of its own; what was chosen, when something was.
    pub fn ui(&mut self, ctx: &egui::Context) -> Option<BrowseAnswer> {
        let title = match self.purpose {
            BrowsePurpose::Open => "Open a saved game",
            BrowsePurpose::Replay => "Watch a saved game",
            BrowsePurpose::SaveAs => "Save the game as",
        };
        let mut answer = None;
        let mut open = true;
        let (folders, saves) = self.listing();
        egui::Window::new(title).open(&mut open).collapsible(false).default_width(460.0).show(ctx, |ui| {
            ui.horizontal(|ui| {
                let up = self.folder.parent().map(Path::to_path_buf);
                if ui.add_enabled(up.is_some(), egui::Button::new("Up")).clicked()
                    && let Some(up) = up
                {
                    self.folder = up;
                }
                ui.label(RichText::new(self.folder.display().to_string()).monospace());
            });
            if let Some(problem) = &self.problem {
                ui.colored_label(egui::Color32::LIGHT_RED, problem);
            }
            ui.separator();
            egui::ScrollArea::vertical().id_salt("browser list").max_height(300.0).show(ui, |ui| {
                for folder in &folders {
                    let name = folder.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
                    if ui.selectable_label(false, format!("{name}/")).clicked() {
                        self.folder = folder.clone();
                    }
                }
                for save in &saves {
                    let name = save.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
                    if ui.selectable_label(self.name == name, name.as_str()).clicked() {
                        if self.purpose == BrowsePurpose::SaveAs {
                            self.name = name;
                        } else {
                            answer = Some(BrowseAnswer::Chosen(self.purpose, save.clone()));
                        }
                    }
                }
                if folders.is_empty() && saves.is_empty() && self.problem.is_none() {
                    ui.label(RichText::new("No saves or folders here").weak());
                }
            });
            if self.purpose == BrowsePurpose::SaveAs {
                ui.separator();
                ui.horizontal(|ui| {
                    let label = ui.label("File name");
                    ui.add(egui::TextEdit::singleline(&mut self.name).id_salt("browser name")).labelled_by(label.id);
                    let name = self.name.trim();
                    if ui.add_enabled(!name.is_empty(), egui::Button::new("Save here")).clicked() {
                        let file = if name.ends_with(".json") { name.to_string() } else { format!("{name}.json") };
                        answer = Some(BrowseAnswer::Chosen(self.purpose, self.folder.join(file)));
                    }
                });
            }
            if ui.button("Cancel").clicked() {
                answer = Some(BrowseAnswer::Cancelled);
            }
        });
        if !open {
            answer = Some(BrowseAnswer::Cancelled);
        }
        answer
    }
}
