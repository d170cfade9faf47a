//! Hot reload: notices when a mod's files change on disk (polling their modification times
//! about once a second: a mod is a handful of files) and reloads the mod. A running game moves
//! to the new rules by replaying its actions; when the mod no longer loads, its problems are
//! shown and the game goes on with the last good rules.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use meeple_engine::loader;
use meeple_engine::options::Choices;
use meeple_engine::rules::Ruleset;

/// Watches one mod folder.
pub struct ModWatcher {
    folder: PathBuf,
    /// The setup options the game was started with: a reload keeps them.
    options: Choices,
    stamp: Stamp,
    last_poll: f64,
}

/// The files of a mod and when each last changed.
type Stamp = Vec<(PathBuf, Option<SystemTime>)>;

/// What a reload gave.
pub enum Reload {
    /// The mod loads: the new rules.
    Loaded(Arc<Ruleset>),
    /// The mod is broken: every problem, located.
    Broken(Vec<String>),
}

impl ModWatcher {
    pub fn new(folder: &Path, options: &Choices) -> Self {
        Self { folder: folder.to_path_buf(), options: options.clone(), stamp: stamp(folder), last_poll: 0.0 }
    }

    /// At most once a second (by `now`, in seconds), checks the files; when any changed,
    /// reloads the mod.
    pub fn poll(&mut self, now: f64) -> Option<Reload> {
        if now - self.last_poll < 1.0 {
            return None;
        }
        self.last_poll = now;
        self.check()
    }

    /// Checks the files now; reloads the mod when any changed.
    pub fn check(&mut self) -> Option<Reload> {
        let current = stamp(&self.folder);
        if current == self.stamp {
            return None;
        }
        self.stamp = current;
        Some(match loader::load_mod_with(&self.folder, &self.options) {
            Ok(loaded) => Reload::Loaded(loaded.ruleset),
            Err(problems) => Reload::Broken(problems.iter().map(ToString::to_string).collect()),
        })
    }
}

/// How deep under the mod folder files are watched: as deep as the loader looks for data files.
const MAX_DEPTH: usize = 8;

/// Every file under the folder (data, hooks, tests, manifest) with its modification time. The
/// folder is walked as the loader walks it: a linked folder is not followed (it could lead
/// anywhere, or back to itself), nor are folders deeper than the loader looks.
fn stamp(folder: &Path) -> Stamp {
    let mut files = Vec::new();
    let mut pending = vec![(folder.to_path_buf(), 0)];
    while let Some((dir, depth)) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            // The entry's own kind and time: a link is not followed.
            let Ok(meta) = std::fs::symlink_metadata(&path) else { continue };
            if meta.is_dir() {
                if depth < MAX_DEPTH {
                    pending.push((path, depth + 1));
                }
            } else if path.extension().is_some_and(|e| e == "toml" || e == "lua") {
                files.push((path, meta.modified().ok()));
            }
        }
    }
    files.sort();
    files
}
