//! `mod.toml`: who a mod is, which engine API it targets, and how many seats it takes.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The engine API version this engine implements. A mod declares the version it targets in
/// `api`; a mod written for another version is refused with both versions named.
pub const ENGINE_API_VERSION: u32 = 1;

/// `mod.toml`: the manifest every mod folder has at its root.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// The mod's id: lowercase letters, digits and underscores, the same as its folder name.
    #[schemars(example = &"my_game")]
    pub id: String,
    /// The name players see, e.g. in the launcher.
    #[schemars(example = &"My Game")]
    pub name: String,
    /// The mod's own version, `major.minor.patch`. Saves and replays record it.
    #[schemars(example = &"1.0.0")]
    pub version: String,
    /// The engine API version the mod is written for.
    #[schemars(example = ENGINE_API_VERSION)]
    pub api: u32,
    /// One or two sentences shown under the name.
    #[schemars(example = &"Two players race to the far side of the board.")]
    pub description: String,
    /// How many seats (players, human or computer) a game of this mod takes.
    #[schemars(example = SeatRange { min: 2, max: 4, default: None, by_side: None })]
    pub seats: SeatRange,
    /// Who wrote the mod.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub authors: Vec<String>,
    /// The id of a mod this one changes (a variant): its data files are laid over that mod's
    /// (tables merge key by key, its `[[triggers]]` are added to that mod's, other values
    /// replace), and its hooks load after that mod's, so
    /// a function of the same name replaces the original. The mod is looked for next to this
    /// one, then among the bundled mods.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extends: Option<String>,
}

/// The range of seat counts a mod supports.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatRange {
    /// The fewest seats a game can have.
    #[schemars(range(min = 1, max = 16))]
    pub min: u8,
    /// The most seats a game can have.
    #[schemars(range(min = 1, max = 16))]
    pub max: u8,
    /// The seat count offered first in the setup screen and used by `meeple sim` when no
    /// `--players` is given; `min` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 16))]
    pub default: Option<u8>,
    /// When given, seats are characters grouped by side (the sides of the data's `[seats]`):
    /// the setup asks, for each side, who plays it (human players by name, each controlling
    /// some characters) and how many computer characters it has, at which difficulty. Human
    /// characters take their turns first, then the computer ones. These are the defaults the
    /// setup offers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by_side: Option<BySideDefaults>,
}

/// The setup's defaults for mods whose seats are characters grouped by side.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BySideDefaults {
    /// Human players per side.
    #[serde(default)]
    pub humans: u8,
    /// Characters each human player controls.
    #[serde(default = "one")]
    pub characters_per_human: u8,
    /// Computer-controlled characters per side.
    #[serde(default = "one")]
    pub computers: u8,
}

fn one() -> u8 {
    1
}

impl SeatRange {
    pub fn default_count(&self) -> u8 {
        self.default.unwrap_or(self.min)
    }
}
