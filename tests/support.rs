//! Shared helpers for the tests and benchmarks that exercise the bundled mods.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use meeple_engine::loader::{discover, load_mod};
use meeple_engine::rules::Ruleset;

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ is inside the workspace").to_path_buf()
}

/// The bundled mods' folder.
pub fn mods_dir() -> PathBuf {
    root().join("mods")
}

/// Every bundled mod folder.
pub fn bundled() -> Vec<PathBuf> {
    discover(&mods_dir())
}

/// Loads a bundled mod by id, panicking with every problem if it does not load.
pub fn load(id: &str) -> Arc<Ruleset> {
    match load_mod(&mods_dir().join(id)) {
        Ok(loaded) => loaded.ruleset,
        Err(problems) => {
            panic!("{id} does not load:\n{}", problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))
        }
    }
}
