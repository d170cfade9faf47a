//! The player: the window that plays any mod. A library of screens and panels over the engine
//! (`Session` holds a game with no egui in it); `PlayerApp` is the thin eframe app that switches
//! between the launcher, the setup, the game and the replay viewer. Tests drive `PlayerApp`
//! with egui_kittest, with no window.

pub mod app;
pub mod art;
pub mod board_view;
pub mod catalog;
pub mod describe;
pub mod files;
pub mod keys;
pub mod lobby;
pub mod motion;
pub mod opened;
pub mod panels;
pub mod preview;
pub mod reload;
pub mod replay;
pub mod session;
pub mod settings;
pub mod setup;
pub mod sight;
pub mod timeline;

pub use app::{PlayerApp, StartOptions};
pub use session::Session;

/// Opens the player window.
pub fn run(options: StartOptions) -> Result<(), String> {
    let native = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default().with_inner_size([1280.0, 800.0]).with_title("Meeple"),
        ..Default::default()
    };
    eframe::run_native(
        "Meeple",
        native,
        Box::new(move |cc| {
            let mut app = PlayerApp::new(options);
            app.settings = settings::Settings::load(cc.storage);
            Ok(Box::new(app))
        }),
    )
    .map_err(|e| format!("cannot open a window: {e}"))
}
