//! The `meeple` package as a library: the player window's screens and panels, so tests drive
//! them without a window (the `meeple` binary in `main.rs` is a thin layer over this and the
//! engine).

pub mod editor;
pub mod online;
pub mod player;
