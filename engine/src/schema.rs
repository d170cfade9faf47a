//! JSON Schemas for every file kind a modder or a tool writes, generated from the Rust types
//! (`meeple schema` writes them into `schemas/`; a test fails when the checked-in copies are
//! stale).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::defs::{Manifest, ModData};
use crate::game::{ActionRecord, GameSetup};
use crate::save::SaveFile;

/// A script of actions for `meeple run`.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionScript {
    /// The seed of the game; `--seed` on the command line wins.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// How many seats; the mod's default when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seats: Option<usize>,
    /// The actions, in order.
    pub actions: Vec<ActionRecord>,
}

/// Every schema: (file name, pretty JSON text ending in a newline).
pub fn all() -> Vec<(&'static str, String)> {
    fn text<T: JsonSchema>() -> String {
        let schema = schemars::schema_for!(T);
        serde_json::to_string_pretty(&schema).unwrap_or_default() + "\n"
    }
    vec![
        ("mod.schema.json", text::<Manifest>()),
        ("data.schema.json", text::<ModData>()),
        ("actions.schema.json", text::<ActionScript>()),
        ("save.schema.json", text::<SaveFile>()),
        ("setup.schema.json", text::<GameSetup>()),
    ]
}
