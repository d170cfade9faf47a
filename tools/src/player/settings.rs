//! The window's settings, kept between runs in eframe's storage: seat colours told apart with
//! colour blindness, the interface's scale, and reduced motion.

use serde::{Deserialize, Serialize};

use super::describe;

/// What the person chose in Settings.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Seats drawn in a palette safe for colour blindness instead of the mod's colours.
    pub colour_blind_safe: bool,
    /// The interface's scale: 1 is egui's own size.
    pub ui_scale: f32,
    /// No dice tumbling, pieces travelling, flashes or banners: each action shows its end at once.
    pub reduce_motion: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Self { colour_blind_safe: false, ui_scale: 1.0, reduce_motion: false }
    }
}

/// The key the settings are stored under.
pub const STORAGE_KEY: &str = "meeple.settings";

/// The scales offered, smallest to largest.
pub const UI_SCALES: std::ops::RangeInclusive<f32> = 0.75..=2.0;

impl Settings {
    /// The settings last stored, or the defaults (none stored, or stored by a version that
    /// wrote them otherwise).
    pub fn load(storage: Option<&dyn eframe::Storage>) -> Self {
        let stored = storage.and_then(|s| s.get_string(STORAGE_KEY));
        let mut settings: Self = stored.and_then(|text| serde_json::from_str(&text).ok()).unwrap_or_default();
        settings.ui_scale = settings.ui_scale.clamp(*UI_SCALES.start(), *UI_SCALES.end());
        settings
    }

    /// Keeps the settings for the next run.
    pub fn store(&self, storage: &mut dyn eframe::Storage) {
        if let Ok(text) = serde_json::to_string(self) {
            storage.set_string(STORAGE_KEY, text);
        }
    }

    /// Makes the window follow the settings.
    pub fn apply(&self, ctx: &egui::Context) {
        describe::use_colour_blind_palette(self.colour_blind_safe);
        if (ctx.zoom_factor() - self.ui_scale).abs() > 1e-4 {
            ctx.set_zoom_factor(self.ui_scale);
        }
    }

    /// The settings' controls.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        ui.checkbox(&mut self.colour_blind_safe, "Colour-blind-safe seat colours")
            .on_hover_text("Draw the seats in colours told apart with every common kind of colour blindness");
        ui.horizontal(|ui| {
            let label = ui.label("Interface scale");
            ui.add(
                egui::Slider::new(&mut self.ui_scale, UI_SCALES)
                    .step_by(0.05)
                    .custom_formatter(|v, _| format!("{:.0}%", v * 100.0)),
            )
            .labelled_by(label.id);
        });
        ui.checkbox(&mut self.reduce_motion, "Reduce motion").on_hover_text(
            "No dice tumbling, pieces travelling, flashing spaces or banners: each action shows its end at once",
        );
        if ui.button("Reset to defaults").clicked() {
            *self = Self::default();
        }
    }
}
