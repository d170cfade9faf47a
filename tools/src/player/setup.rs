//! The setup screen: seats (person or computer, names, difficulty) or, for mods whose seats are
//! characters grouped by side, the people and computer characters of each side; and the seed.
//! Built from what the mod declares (`seats` in `mod.toml`, the sides in its data).

use std::sync::Arc;

use egui::RichText;
use meeple_engine::game::seating::{SideSeating, by_sides};
use meeple_engine::game::{GameSetup, SeatSetup};
use meeple_engine::options::Choices;
use meeple_engine::rules::Ruleset;

/// The computer levels offered, easiest first.
pub const LEVELS: [&str; 3] = ["easy", "medium", "hard"];

/// One seat of a plain setup.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatRow {
    pub name: String,
    pub human: bool,
    pub level: String,
}

/// What the setup screen asks for.
pub struct SetupForm {
    pub rules: Arc<Ruleset>,
    /// Plain seats (mods without `seats.by_side`).
    pub seats: Vec<SeatRow>,
    /// Sides (mods with `seats.by_side`).
    pub sides: Vec<SideSeating>,
    pub random_seed: bool,
    pub seed_text: String,
    /// The mod's setup options: option id → choice id.
    pub options: Choices,
    /// The options the person chose a value of (the others follow the seat count: an option's
    /// default, or its first choice for that many seats).
    pub picked: std::collections::BTreeSet<String>,
    pub error: Option<String>,
}

/// What the person did on the setup screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupChoice {
    Start,
    Back,
}

impl SetupForm {
    /// The mod's defaults: its default seat count with the first seat a person and the others
    /// computers at medium; for sides, the mod's defaults with one person on the first side.
    pub fn new(rules: Arc<Ruleset>) -> Self {
        let count = rules.manifest.seats.default_count() as usize;
        let seats = (0..count).map(|i| default_row(&rules, i, i == 0)).collect();
        let mut sides: Vec<SideSeating> = if rules.manifest.seats.by_side.is_some() {
            rules.data.seats.sides.iter().map(|s| SideSeating::defaults(&rules, &s.id, "medium")).collect()
        } else {
            Vec::new()
        };
        let nobody = sides.iter().all(|s| s.humans.is_empty());
        if let Some(first) = sides.first_mut()
            && nobody
        {
            first.humans.push("Player 1".into());
            first.computers = first.computers.saturating_sub(first.characters_per_human);
        }
        let mut form = Self {
            rules: rules.clone(),
            seats,
            sides,
            random_seed: true,
            seed_text: "1".into(),
            options: rules.chosen_options.clone(),
            picked: Default::default(),
            error: None,
        };
        form.fit_options();
        form
    }

    /// How many seats the form sets up, when it makes a setup.
    pub fn seat_count(&self) -> Option<usize> {
        if self.by_side() {
            let seed = 1;
            by_sides(&self.rules, seed, &self.sides).ok().map(|setup| setup.seats.len())
        } else {
            Some(self.seats.len())
        }
    }

    /// Fits the options to the seat count: a choice the person picked stays while it suits that
    /// many seats; every other option takes its default, or its first choice that suits them.
    pub fn fit_options(&mut self) {
        // Drawn every frame: a mod without options has nothing to fit.
        if self.rules.data.options.is_empty() {
            return;
        }
        let Some(count) = self.seat_count() else { return };
        let kept: Choices = self
            .options
            .iter()
            .filter(|(id, choice)| {
                self.picked.contains(*id)
                    && self
                        .rules
                        .data
                        .options
                        .get(*id)
                        .and_then(|o| o.choices.get(*choice))
                        .is_some_and(|c| c.fits(count))
            })
            .map(|(id, choice)| (id.clone(), choice.clone()))
            .collect();
        self.options = meeple_engine::options::for_seats(&self.rules.data.options, &kept, count);
    }

    /// Whether seats are set up side by side.
    pub fn by_side(&self) -> bool {
        !self.sides.is_empty()
    }

    /// The seed to play: the one given, or a fresh one from the clock.
    pub fn seed(&self) -> Result<u64, String> {
        if self.random_seed {
            return Ok(fresh_seed());
        }
        self.seed_text.trim().parse::<u64>().map_err(|_| format!("the seed `{}` is not a whole number", self.seed_text))
    }

    /// The game's setup, or why the form does not make one.
    pub fn setup(&self) -> Result<GameSetup, String> {
        let seed = self.seed()?;
        let range = self.rules.manifest.seats;
        let setup = if self.by_side() {
            by_sides(&self.rules, seed, &self.sides)?
        } else {
            GameSetup {
                seed,
                seats: self
                    .seats
                    .iter()
                    .map(|row| SeatSetup {
                        name: row.name.clone(),
                        controller: if row.human { "human".into() } else { row.level.clone() },
                        side: None,
                        player: None,
                    })
                    .collect(),
                board: None,
                options: Default::default(),
                first_seat: None,
            }
        };
        let mut setup = setup;
        setup.options = self.options.clone();
        let count = setup.seats.len();
        if count < range.min as usize || count > range.max as usize {
            return Err(format!(
                "{} takes {}–{} seats; this setup has {count}",
                self.rules.manifest.name, range.min, range.max
            ));
        }
        Ok(setup)
    }

    /// Draws the form.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Option<SetupChoice> {
        let mut choice = None;
        let rules = self.rules.clone();
        ui.heading(format!("New game: {}", rules.manifest.name));
        ui.label(&rules.manifest.description);
        ui.separator();
        if self.by_side() {
            self.sides_ui(ui);
        } else {
            self.seats_ui(ui);
        }
        self.fit_options();
        self.options_ui(ui);
        ui.separator();
        ui.horizontal(|ui| {
            ui.checkbox(&mut self.random_seed, "Random seed");
            if !self.random_seed {
                let label = ui.label("Seed");
                ui.add(egui::TextEdit::singleline(&mut self.seed_text).desired_width(100.0)).labelled_by(label.id);
            }
        });
        ui.separator();
        if let Err(problem) = self.setup_check() {
            ui.colored_label(egui::Color32::LIGHT_RED, problem);
        }
        if let Some(error) = &self.error {
            ui.colored_label(egui::Color32::LIGHT_RED, error);
        }
        ui.horizontal(|ui| {
            if ui.button("Back").clicked() {
                choice = Some(SetupChoice::Back);
            }
            let ready = self.setup_check().is_ok();
            if ui.add_enabled(ready, egui::Button::new(RichText::new("Start game").strong())).clicked() {
                choice = Some(SetupChoice::Start);
            }
        });
        choice
    }

    /// The setup's problems other than the seed (which a random seed cannot have).
    fn setup_check(&self) -> Result<(), String> {
        let seed_ok = self.random_seed || self.seed_text.trim().parse::<u64>().is_ok();
        if !seed_ok {
            return Err(format!("the seed `{}` is not a whole number", self.seed_text));
        }
        self.setup().map(|_| ())
    }

    /// One choice box per setup option the mod declares.
    fn options_ui(&mut self, ui: &mut egui::Ui) {
        let rules = self.rules.clone();
        if rules.data.options.is_empty() {
            return;
        }
        ui.separator();
        let count = self.seat_count();
        egui::Grid::new("options").show(ui, |ui| {
            for (id, option) in &rules.data.options {
                let label = ui.label(&option.label);
                let chosen = self.options.entry(id.clone()).or_insert_with(|| option.default.clone());
                let shown = |choice: &str| {
                    option.choices.get(choice).and_then(|c| c.label.clone()).unwrap_or_else(|| choice.to_string())
                };
                let mut picked = false;
                let mut response = egui::ComboBox::from_id_salt(("option", id))
                    .selected_text(shown(chosen))
                    .show_ui(ui, |ui| {
                        for (choice_id, choice) in &option.choices {
                            // A choice for other seat counts is shown, greyed, saying which.
                            let fits = count.is_none_or(|n| choice.fits(n));
                            let item = ui
                                .add_enabled_ui(fits, |ui| {
                                    ui.selectable_value(chosen, choice_id.clone(), shown(choice_id))
                                })
                                .inner
                                .on_disabled_hover_text(format!("For {} players", choice.seats_text()));
                            picked |= item.clicked();
                        }
                    })
                    .response
                    .labelled_by(label.id);
                if picked {
                    self.picked.insert(id.clone());
                }
                if let Some(description) = &option.description {
                    response = response.on_hover_text(description);
                }
                let _ = response;
                ui.end_row();
            }
        });
    }

    fn seats_ui(&mut self, ui: &mut egui::Ui) {
        let range = self.rules.manifest.seats;
        ui.horizontal(|ui| {
            ui.label(format!("Players ({}–{})", range.min, range.max));
            if ui.add_enabled(self.seats.len() > range.min as usize, egui::Button::new("−")).clicked() {
                self.seats.pop();
            }
            ui.label(self.seats.len().to_string());
            if ui.add_enabled(self.seats.len() < range.max as usize, egui::Button::new("+")).clicked() {
                let row = default_row(&self.rules, self.seats.len(), false);
                self.seats.push(row);
            }
        });
        let rules = self.rules.clone();
        egui::Grid::new("seats").striped(true).show(ui, |ui| {
            for (i, row) in self.seats.iter_mut().enumerate() {
                let color = super::describe::seat_color_on_side(&rules, i as u8, None);
                let label = ui.horizontal(|ui| {
                    let (swatch, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
                    ui.painter().circle_filled(swatch.center(), 6.0, color);
                    ui.label(format!("Seat {}", i + 1))
                });
                let width = name_width(ui, &row.name);
                // Sized, not just desired: a grid cell would hold it to last frame's width.
                let height = ui.spacing().interact_size.y;
                ui.add_sized([width, height], egui::TextEdit::singleline(&mut row.name).id_salt(("seat name", i)))
                    .labelled_by(label.inner.id);
                let label = label.inner;
                egui::ComboBox::from_id_salt(("controller", i))
                    .selected_text(if row.human { "Person".to_string() } else { format!("Computer: {}", row.level) })
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut row.human, true, "Person");
                        for level in LEVELS {
                            if ui
                                .selectable_label(!row.human && row.level == level, format!("Computer: {level}"))
                                .clicked()
                            {
                                row.human = false;
                                row.level = level.to_string();
                            }
                        }
                    })
                    .response
                    .labelled_by(label.id);
                ui.end_row();
            }
        });
    }

    fn sides_ui(&mut self, ui: &mut egui::Ui) {
        let rules = self.rules.clone();
        for (index, seating) in self.sides.iter_mut().enumerate() {
            let side = rules.data.seats.sides.iter().find(|s| s.id == seating.side);
            let label = side.and_then(|s| s.label.clone()).unwrap_or_else(|| seating.side.clone());
            let color = side.and_then(|s| s.color.as_deref()).and_then(super::describe::parse_color);
            ui.group(|ui| {
                ui.label(RichText::new(&label).strong().color(color.unwrap_or(egui::Color32::WHITE)));
                ui.horizontal(|ui| {
                    ui.label("People");
                    if ui.add_enabled(!seating.humans.is_empty(), egui::Button::new("−").small()).clicked() {
                        seating.humans.pop();
                    }
                    ui.label(seating.humans.len().to_string());
                    if ui.add(egui::Button::new("+").small()).clicked() {
                        let n = seating.humans.len() + 1;
                        seating.humans.push(format!("Player {}", index * 4 + n));
                    }
                    let label = ui.label("characters each");
                    ui.add(egui::DragValue::new(&mut seating.characters_per_human).range(1..=8)).labelled_by(label.id);
                });
                for (i, name) in seating.humans.iter_mut().enumerate() {
                    ui.horizontal(|ui| {
                        let label = ui.label(format!("{} person {}", seating.side, i + 1));
                        let width = name_width(ui, name);
                        let height = ui.spacing().interact_size.y;
                        ui.add_sized([width, height], egui::TextEdit::singleline(name).id_salt(("person", index, i)))
                            .labelled_by(label.id);
                    });
                }
                ui.horizontal(|ui| {
                    let label = ui.label(format!("{} computer characters", seating.side));
                    ui.add(egui::DragValue::new(&mut seating.computers).range(0..=16)).labelled_by(label.id);
                    let label = ui.label("at");
                    egui::ComboBox::from_id_salt(("side level", index))
                        .selected_text(&seating.level)
                        .show_ui(ui, |ui| {
                            for level in LEVELS {
                                ui.selectable_value(&mut seating.level, level.to_string(), level);
                            }
                        })
                        .response
                        .labelled_by(label.id);
                });
            });
        }
    }
}

/// A seat row with the mod's name for the seat.
fn default_row(rules: &Ruleset, index: usize, human: bool) -> SeatRow {
    let name = rules.data.seats.names.get(index).cloned().unwrap_or_else(|| format!("Seat {}", index + 1));
    SeatRow { name, human, level: "medium".into() }
}

/// A new seed from the clock (the seed picks the game; what happens in it is the seed's alone).
/// Short seeds are easier to note down and share.
pub fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64);
    nanos % 1_000_000
}

/// How wide a name field is drawn: the whole name shows, and short names get room to grow.
fn name_width(ui: &egui::Ui, name: &str) -> f32 {
    let font = egui::TextStyle::Body.resolve(ui.style());
    let text = ui.fonts_mut(|fonts| fonts.layout_no_wrap(name.to_string(), font, egui::Color32::WHITE).size().x);
    (text + 16.0).max(140.0)
}
