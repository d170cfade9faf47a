//! Save files and replays: a versioned JSON document holding the mod id and version, the
//! setup (seed and seats), every action in readable form, and the final state with its hash.
//!
//! A replay is a save: loading re-simulates the actions from the seed and checks the hash, so a
//! save is trustworthy even if the state snapshot were tampered with. Files are written
//! atomically (temporary file, flush, rename) so a crash mid-save leaves the previous save whole.

use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::game::record::{from_record, to_record};
use crate::game::{Action, ActionRecord, Engine, Events, GameSetup, GameState};
use crate::rules::Ruleset;

/// The `format` field of every save file.
pub const SAVE_FORMAT: &str = "meeple-save";
/// The current save version. Version 1 is the first.
pub const SAVE_VERSION: u32 = 1;

/// Which mod (and which version of it) a save belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ModRef {
    pub id: String,
    pub version: String,
}

/// A saved game.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SaveFile {
    /// Always `meeple-save`.
    pub format: String,
    /// The save format version.
    pub version: u32,
    #[serde(rename = "mod")]
    pub mod_ref: ModRef,
    pub setup: GameSetup,
    /// Every action taken, in order.
    pub actions: Vec<ActionRecord>,
    /// The hash of the state after the last action (16 hex digits).
    pub state_hash: String,
    /// The state after the last action, so loading is instant; the actions can re-create it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(skip)]
    pub state: Option<GameState>,
}

/// Why a save could not be used.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    #[error("cannot read {path}: {source}")]
    Read { path: String, source: std::io::Error },
    #[error("cannot write {path}: {source}")]
    Write { path: String, source: std::io::Error },
    #[error("{path} is not a Meeple save file: {reason}")]
    NotASave { path: String, reason: String },
    #[error("{path} is save version {found}; this Meeple reads versions 1 to {SAVE_VERSION}")]
    Version { path: String, found: u32 },
    #[error("{path} is a game of `{found}`, not of `{expected}`")]
    WrongMod { path: String, found: String, expected: String },
    #[error("{path}: action {index} cannot be replayed: {reason}")]
    Replay { path: String, index: usize, reason: String },
    #[error(
        "{path}: the replayed game differs from the saved one (hash {replayed} instead of {saved}); \
         the mod changed since the game was saved, or the file was edited"
    )]
    HashMismatch { path: String, saved: String, replayed: String },
}

impl SaveFile {
    /// A save of a game played from `setup` with `history` (acting seat and action each).
    pub fn new(rules: &Ruleset, setup: &GameSetup, history: &[(u8, Action)], state: &GameState) -> Self {
        Self {
            format: SAVE_FORMAT.into(),
            version: SAVE_VERSION,
            mod_ref: ModRef { id: rules.manifest.id.clone(), version: rules.manifest.version.clone() },
            setup: setup.clone(),
            actions: history.iter().map(|(seat, action)| to_record(rules, state, *seat, action)).collect(),
            state_hash: state.hash_hex(),
            state: Some(state.clone()),
        }
    }

    /// Writes the save atomically: a temporary file next to the target, flushed to disk, then
    /// renamed over it.
    pub fn write(&self, path: &Path) -> Result<(), SaveError> {
        let shown = path.display().to_string();
        let write_error = |source| SaveError::Write { path: shown.clone(), source };
        let json = serde_json::to_vec_pretty(self).map_err(|e| write_error(std::io::Error::other(e)))?;
        let temporary = path.with_extension("tmp-save");
        {
            let mut file = std::fs::File::create(&temporary).map_err(write_error)?;
            file.write_all(&json).map_err(write_error)?;
            file.sync_all().map_err(write_error)?;
        }
        std::fs::rename(&temporary, path).map_err(write_error)?;
        Ok(())
    }

    /// Reads a save, checking its format and version.
    pub fn read(path: &Path) -> Result<Self, SaveError> {
        let shown = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|source| SaveError::Read { path: shown.clone(), source })?;
        Self::parse(&bytes, &shown)
    }

    /// Parses a save from bytes; `shown` names it in errors.
    pub fn parse(bytes: &[u8], shown: &str) -> Result<Self, SaveError> {
        let not_a_save = |reason: String| SaveError::NotASave { path: shown.to_string(), reason };
        let json: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| not_a_save(format!("{e}")))?;
        if json.get("format").and_then(|f| f.as_str()) != Some(SAVE_FORMAT) {
            return Err(not_a_save("it has no `\"format\": \"meeple-save\"`".into()));
        }
        let version = json.get("version").and_then(|v| v.as_u64()).unwrap_or(0) as u32;
        if version == 0 || version > SAVE_VERSION {
            return Err(SaveError::Version { path: shown.to_string(), found: version });
        }
        let mut save: SaveFile = serde_json::from_value(json).map_err(|e| not_a_save(format!("{e}")))?;
        if let Some(state) = save.state.as_mut() {
            state.rebuild_derived();
        }
        Ok(save)
    }

    /// Re-simulates the game from its setup and actions and checks the hash. Returns the final
    /// state and the compact history.
    pub fn replay(
        &self,
        engine: &mut Engine,
        shown: &str,
        events: &mut Events,
    ) -> Result<(GameState, Vec<(u8, Action)>), SaveError> {
        let rules = engine.rules().clone();
        if rules.manifest.id != self.mod_ref.id {
            return Err(SaveError::WrongMod {
                path: shown.into(),
                found: self.mod_ref.id.clone(),
                expected: rules.manifest.id.clone(),
            });
        }
        let replay_error =
            |index: usize, reason: String| SaveError::Replay { path: shown.into(), index: index + 1, reason };
        let mut state = engine.new_game(&self.setup, events).map_err(|e| replay_error(0, e.to_string()))?;
        let mut history = Vec::with_capacity(self.actions.len());
        for (index, record) in self.actions.iter().enumerate() {
            let (seat, action) = from_record(&rules, &state, record).map_err(|reason| replay_error(index, reason))?;
            engine.apply_as(&mut state, seat, &action, events).map_err(|e| replay_error(index, e.to_string()))?;
            history.push((seat, action));
        }
        let replayed = state.hash_hex();
        if replayed != self.state_hash {
            return Err(SaveError::HashMismatch { path: shown.into(), saved: self.state_hash.clone(), replayed });
        }
        Ok((state, history))
    }
}
