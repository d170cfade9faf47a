//! The Meeple game engine: mods, rules, boards, dice, Lua hooks, computer players.
pub mod ai;
pub mod board;
pub mod defs;
pub mod diag;
pub mod expr;
pub mod game;
pub mod loader;
pub mod lua;
pub mod options;
pub mod rng;
pub mod rules;
pub mod save;
pub mod scenario;
pub mod schema;
pub mod schema_doc;
pub mod sim;
pub mod source;
