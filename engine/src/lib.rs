//! The Meeple game engine: mods, rules, boards, dice, Lua hooks, computer players.
pub mod diag;
pub mod rng;
