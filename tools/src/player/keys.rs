//! The game screen's keyboard shortcuts: which key asks for what, and the list `?` shows.
//!
//! Keys are read once at the start of a frame, before any widget, and consumed, so a button
//! that happens to have the keyboard focus never takes Enter or Space for itself. Nothing is
//! read while a text field has the keyboard: there, keys are typing.

use egui::{Key, KeyboardShortcut, Modifiers};

/// What a key asks of the game screen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Command {
    /// Skip the motion playing; else drop the choice in progress (or close the list of keys).
    Cancel,
    /// Pass: end the turn, or the phase, when that is legal and nothing is being chosen.
    EndTurn,
    Undo,
    Save,
    /// Show the whole board.
    Fit,
    ZoomIn,
    ZoomOut,
    /// Move the view by this fraction of its size (right and down are positive).
    Pan(f32, f32),
    /// Open or close the list of keys.
    Keys,
}

/// One shortcut: the keys pressed, with their modifiers, and the command.
struct Binding {
    shortcut: KeyboardShortcut,
    command: Command,
}

const fn bind(modifiers: Modifiers, key: Key, command: Command) -> Binding {
    Binding { shortcut: KeyboardShortcut::new(modifiers, key), command }
}

/// How far an arrow key moves the view: a tenth of its size.
const PAN_STEP: f32 = 0.1;

/// Every binding. Shortcuts with a modifier come first, so that Ctrl+S is read as saving
/// before a bare S could be read as anything else.
const BINDINGS: [Binding; 14] = [
    bind(Modifiers::COMMAND, Key::Z, Command::Undo),
    bind(Modifiers::COMMAND, Key::S, Command::Save),
    bind(Modifiers::NONE, Key::Escape, Command::Cancel),
    bind(Modifiers::NONE, Key::Enter, Command::EndTurn),
    bind(Modifiers::NONE, Key::Space, Command::EndTurn),
    bind(Modifiers::NONE, Key::F, Command::Fit),
    bind(Modifiers::NONE, Key::Plus, Command::ZoomIn),
    bind(Modifiers::NONE, Key::Equals, Command::ZoomIn),
    bind(Modifiers::NONE, Key::Minus, Command::ZoomOut),
    bind(Modifiers::NONE, Key::ArrowLeft, Command::Pan(-PAN_STEP, 0.0)),
    bind(Modifiers::NONE, Key::ArrowRight, Command::Pan(PAN_STEP, 0.0)),
    bind(Modifiers::NONE, Key::ArrowUp, Command::Pan(0.0, -PAN_STEP)),
    bind(Modifiers::NONE, Key::ArrowDown, Command::Pan(0.0, PAN_STEP)),
    bind(Modifiers::NONE, Key::Questionmark, Command::Keys),
];

/// What the list of keys says, a row per shortcut (the keys, what they do).
pub const KEY_LIST: [(&str, &str); 9] = [
    ("Esc", "Skip the dice, moves and banners playing; else cancel the choice in progress"),
    ("Enter or Space", "End the turn (or the stage), when nothing is being chosen"),
    ("Ctrl+Z", "Undo"),
    ("Ctrl+S", "Save"),
    ("F", "Fit the whole board in view"),
    ("+ and −", "Zoom in and out"),
    ("Arrow keys", "Move the view"),
    ("?", "Show or hide this list"),
    ("Mouse", "Drag to move the view, wheel to zoom, click a space to choose it"),
];

/// The commands asked for this frame, in the order pressed, each key consumed; none while a
/// text field has the keyboard.
pub fn read(ctx: &egui::Context) -> Vec<Command> {
    if ctx.text_edit_focused() {
        return Vec::new();
    }
    ctx.input_mut(|input| {
        let mut commands = Vec::new();
        for Binding { shortcut, command } in &BINDINGS {
            // A key held down repeats; each repeat is one more press.
            let presses = input.count_and_consume_key(shortcut.modifiers, shortcut.logical_key);
            commands.extend(std::iter::repeat_n(*command, presses));
        }
        commands
    })
}
