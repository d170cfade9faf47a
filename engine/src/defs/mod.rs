//! The mod file formats: `mod.toml` (the manifest) and the data files, as serde types.
//!
//! These types are the single source of truth for the TOML format: the JSON Schemas in
//! `schemas/` and the modding reference are generated from them and their doc comments, and
//! the loader validates every data file against those schemas before deserialising. Strings
//! marked *expression* or *effect* are in the rules language (see `crate::expr`).

mod data;
mod manifest;

pub use data::*;
pub use manifest::*;
