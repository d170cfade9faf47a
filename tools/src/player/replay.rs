//! The replay viewer: a saved game re-played from its seed and actions (the saved hash must
//! match), stepped forward and back, or played at a chosen pace.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use egui::RichText;
use meeple_engine::game::{Action, GameState};
use meeple_engine::rules::Ruleset;
use meeple_engine::save::SaveFile;

use super::board_view::{BoardView, Mark, Overlay};
use super::{describe, panels, session};

/// A saved game open for watching.
pub struct ReplayViewer {
    pub rules: Arc<Ruleset>,
    pub name: String,
    /// The state before any action, then after each.
    pub states: Vec<GameState>,
    pub history: Vec<(u8, Action)>,
    controllers: Vec<String>,
    /// How many actions are shown as taken.
    pub step: usize,
    pub playing: bool,
    /// Seconds between steps while playing.
    pub delay: f32,
    last_step: f64,
    board: BoardView,
}

/// What the person did in the viewer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayChoice {
    Close,
}

impl ReplayViewer {
    /// Opens a save of `rules`' mod.
    pub fn open(rules: Arc<Ruleset>, path: &Path) -> Result<Self, String> {
        let shown = path.display().to_string();
        let save = SaveFile::read(path).map_err(|e| e.to_string())?;
        Self::from_save(rules, &save, &shown)
    }

    pub fn from_save(rules: Arc<Ruleset>, save: &SaveFile, shown: &str) -> Result<Self, String> {
        let session::Replayed { states, history, .. } = session::replay_states(&rules, save, shown)?;
        let controllers = save.setup.seats.iter().map(|s| s.controller.clone()).collect();
        Ok(Self {
            rules,
            name: shown.to_string(),
            states,
            history,
            controllers,
            step: 0,
            playing: false,
            delay: 0.5,
            last_step: 0.0,
            board: BoardView::default(),
        })
    }

    /// The state shown.
    pub fn state(&self) -> &GameState {
        &self.states[self.step.min(self.states.len() - 1)]
    }

    pub fn forward(&mut self) {
        self.step = (self.step + 1).min(self.history.len());
    }

    pub fn back(&mut self) {
        self.step = self.step.saturating_sub(1);
    }

    pub fn ui(&mut self, ui: &mut egui::Ui) -> Option<ReplayChoice> {
        let mut choice = None;
        let now = ui.input(|i| i.time);
        if self.playing {
            if self.step >= self.history.len() {
                self.playing = false;
            } else if now - self.last_step >= f64::from(self.delay) {
                self.forward();
                self.last_step = now;
            }
            ui.ctx().request_repaint_after(std::time::Duration::from_secs_f32(self.delay.max(0.02)));
        }
        egui::Panel::top("replay bar").show(ui, |ui| {
            ui.horizontal(|ui| {
                if ui.button("Close replay").clicked() {
                    choice = Some(ReplayChoice::Close);
                }
                ui.label(RichText::new(format!("Replay: {}", self.name)).strong());
                ui.separator();
                if ui.button("Start").clicked() {
                    self.step = 0;
                }
                if ui.add_enabled(self.step > 0, egui::Button::new("Back")).clicked() {
                    self.back();
                }
                if ui.button(if self.playing { "Pause" } else { "Play" }).clicked() {
                    self.playing = !self.playing;
                }
                if ui.add_enabled(self.step < self.history.len(), egui::Button::new("Forward")).clicked() {
                    self.forward();
                }
                if ui.button("End").clicked() {
                    self.step = self.history.len();
                }
                ui.label(format!("Action {} of {}", self.step, self.history.len()));
                ui.add(egui::Slider::new(&mut self.delay, 0.05..=2.0).suffix(" s").text("Pace"));
            });
        });
        let state = self.states[self.step].clone();
        egui::Panel::right("replay side").default_size(300.0).show(ui, |ui| {
            if self.step > 0 {
                let (seat, action) = self.history[self.step - 1];
                let before = &self.states[self.step - 1];
                ui.label(RichText::new("Last action").strong());
                ui.label(format!(
                    "{}: {}",
                    describe::seat(before, seat),
                    session::action_text(&self.rules, before, &action)
                ));
            }
            if let Some(outcome) = &state.outcome {
                ui.heading(describe::outcome(&state, outcome));
            } else {
                ui.label(meeple_engine::game::seating::turn_announcement(&self.rules, &state, state.turn.seat));
            }
            ui.separator();
            panels::seats(ui, &self.rules, &state, &state, &self.controllers);
        });
        egui::CentralPanel::default().show(ui, |ui| {
            // The spaces the last action named.
            let mut marks = HashMap::new();
            if self.step > 0
                && let (_, action) = self.history[self.step - 1]
                && let meeple_engine::game::ActionKind::Rule(index) = action.kind
            {
                for (param, &arg) in self.rules.actions[index as usize].params.iter().zip(&action.args) {
                    if let Some(space) = describe::arg_place(&state, param.kind, arg).0 {
                        marks.insert(space, Mark::Chosen);
                    }
                }
            }
            let ring = state.seat_piece(state.turn.seat);
            let notes = HashMap::new();
            self.board.show(
                ui,
                &self.rules,
                &state,
                &Overlay { marks: &marks, ring, notes: &notes, sight: None, motion: None },
            );
        });
        choice
    }
}
