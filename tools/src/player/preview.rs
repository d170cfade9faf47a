//! The launcher's look at a game before it is started: its board as a new game with the
//! default setup lays it out, and its README, rendered as Markdown.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use egui::RichText;
use egui_commonmark::{CommonMarkCache, CommonMarkViewer};
use meeple_engine::game::{Engine, Events, GameState};
use meeple_engine::rules::Ruleset;

use super::board_view::{BoardView, Overlay};
use super::setup::SetupForm;

/// How tall the board's preview is drawn.
const BOARD_HEIGHT: f32 = 240.0;

/// One mod's preview, built when the launcher selects it.
pub struct ModPreview {
    /// The folder of the mod it shows (a new one is built when another is selected).
    pub folder: std::path::PathBuf,
    rules: Option<Arc<Ruleset>>,
    /// A new game with the default setup, for its board; `None` when it cannot start.
    state: Option<GameState>,
    board: BoardView,
    /// Whether the whole board was fitted in view.
    fitted: bool,
    /// The README's text, when the mod has one.
    pub readme: Option<String>,
    markdown: CommonMarkCache,
}

impl ModPreview {
    /// The preview of the mod in `folder` (its rules, when it loads).
    pub fn new(folder: &Path, rules: Option<&Arc<Ruleset>>) -> Self {
        let state = rules.and_then(|rules| {
            let setup = SetupForm::new(rules.clone()).setup().ok()?;
            Engine::new(rules.clone()).ok()?.new_game(&setup, &mut Events::discard()).ok()
        });
        let mut board = BoardView::default();
        board.show_minimap = false;
        Self {
            folder: folder.to_path_buf(),
            rules: rules.cloned(),
            state,
            board,
            fitted: false,
            readme: std::fs::read_to_string(folder.join("README.md")).ok().map(|text| without_code_blocks(&text)),
            markdown: CommonMarkCache::default(),
        }
    }

    /// The board, then the README under a heading that folds it away.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        if let (Some(rules), Some(state)) = (&self.rules, &self.state) {
            let width = ui.available_width();
            ui.allocate_ui(egui::vec2(width, BOARD_HEIGHT), |ui| {
                ui.set_min_size(egui::vec2(width, BOARD_HEIGHT));
                let none = HashMap::new();
                let overlay = Overlay { marks: &none, ring: None, notes: &HashMap::new(), sight: None, motion: None };
                self.board.show(ui, rules, state, &overlay);
            });
            // The whole board, once its drawn size is known (the first frame's view of a big
            // board is a close one around its middle, as for playing).
            if !self.fitted {
                self.board.fit_whole();
                self.fitted = true;
                ui.ctx().request_repaint();
            }
            ui.label(RichText::new("The board of a new game with the default setup").small().weak());
        }
        if let Some(readme) = &self.readme {
            egui::CollapsingHeader::new("About this game").default_open(true).show(ui, |ui| {
                egui::ScrollArea::vertical().id_salt("readme").max_height(360.0).show(ui, |ui| {
                    CommonMarkViewer::new().show(ui, &mut self.markdown, readme);
                });
            });
        }
    }
}

/// The README with each fenced code block written as lines of inline code: the Markdown
/// viewer draws a copy button on a code block with a glyph egui's fonts lack (a box in the
/// window), and a README's code is there to read, not to copy from the launcher.
pub fn without_code_blocks(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_code = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            out.push('\n');
            continue;
        }
        if in_code && !line.trim().is_empty() {
            // Double backticks with spaces hold a line that has backticks of its own; the
            // spaces before the line break keep the lines apart.
            let kept = line.replace('\t', "    ");
            out.push_str(&format!("`` {kept} ``  \n"));
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_blocks_become_lines_of_inline_code() {
        let text = "Run it:\n\n```console\n$ meeple check `x`\nok\n```\n\nDone.\n";
        assert_eq!(without_code_blocks(text), "Run it:\n\n\n`` $ meeple check `x` ``  \n`` ok ``  \n\n\nDone.\n");
    }
}
