//! The window `meeple` opens without a command: the bundled games, each with its description,
//! number of players and whether it loads. (The full player comes with its own issue; this
//! launcher already shows what is installed and any mod problems.)

use std::process::ExitCode;

use meeple_engine::loader;

/// One row of the launcher.
struct ModEntry {
    name: String,
    id: String,
    description: String,
    seats: String,
    /// Problems when the mod does not load.
    problems: Vec<String>,
}

struct Launcher {
    mods: Vec<ModEntry>,
    selected: usize,
}

impl Launcher {
    fn new(first: Option<String>) -> Self {
        let folders = loader::discover(&loader::bundled_mods_dir());
        let mods: Vec<ModEntry> = folders
            .iter()
            .map(|folder| {
                let id = folder.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
                match loader::load_mod(folder) {
                    Ok(loaded) => {
                        let manifest = &loaded.ruleset.manifest;
                        ModEntry {
                            name: manifest.name.clone(),
                            id,
                            description: manifest.description.clone(),
                            seats: format!("{}–{} players", manifest.seats.min, manifest.seats.max),
                            problems: Vec::new(),
                        }
                    }
                    Err(problems) => ModEntry {
                        name: id.clone(),
                        id,
                        description: String::new(),
                        seats: String::new(),
                        problems: problems.iter().map(ToString::to_string).collect(),
                    },
                }
            })
            .collect();
        let selected = first.and_then(|f| mods.iter().position(|m| m.id == f)).unwrap_or(0);
        Self { mods, selected }
    }
}

impl eframe::App for Launcher {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        egui::CentralPanel::default().show(ui, |ui| {
            ui.heading("Meeple");
            ui.label("Bundled games");
            ui.separator();
            if self.mods.is_empty() {
                ui.label(format!("No mods found in {}.", loader::bundled_mods_dir().display()));
            }
            for (i, entry) in self.mods.iter().enumerate() {
                let title = if entry.problems.is_empty() {
                    format!("{}  ({})", entry.name, entry.seats)
                } else {
                    format!("{}  (does not load)", entry.name)
                };
                if ui.selectable_label(self.selected == i, title).clicked() {
                    self.selected = i;
                }
            }
            ui.separator();
            if let Some(entry) = self.mods.get(self.selected) {
                ui.strong(&entry.name);
                ui.label(&entry.description);
                for problem in &entry.problems {
                    ui.colored_label(egui::Color32::LIGHT_RED, problem);
                }
                ui.label(format!("Headless: meeple sim {} --games 100", entry.id));
            }
        });
    }
}

/// Opens the launcher window.
pub fn run(first: Option<String>) -> Result<ExitCode, String> {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default().with_inner_size([720.0, 480.0]).with_title("Meeple"),
        ..Default::default()
    };
    eframe::run_native("Meeple", options, Box::new(move |_cc| Ok(Box::new(Launcher::new(first)))))
        .map_err(|e| format!("cannot open a window: {e}"))?;
    Ok(ExitCode::SUCCESS)
}
