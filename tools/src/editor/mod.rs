//! The editor: a mod's data changed with forms generated from the engine's types, saved back to
//! the TOML files as a person wrote them, with a balance panel that plays computer games of the
//! mod before and after a change. `model` holds the mod (no egui); the screen draws it.

pub mod balance;
pub mod model;
pub mod painter;
pub mod schema;
pub mod screen;
