//! Hot reload: notices when a mod's files change on disk and reloads the mod. The folder is
//! watched by the system (`notify`): the watcher wakes the window only when something changed,
//! so an idle game draws nothing. Where the system cannot watch (no inotify left, say), the files'
//! modification times are compared every two seconds instead. A running game moves to the new
//! rules by replaying its actions; when the mod no longer loads, its problems are shown and the
//! game goes on with the last good rules.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime};

use meeple_engine::loader;
use meeple_engine::options::Choices;
use meeple_engine::rules::Ruleset;
use notify::Watcher;

/// Seconds between looks at the files when the system cannot watch them.
const POLL_SECONDS: f64 = 2.0;

/// Watches one mod folder.
pub struct ModWatcher {
    folder: PathBuf,
    /// The setup options the game was started with: a reload keeps them.
    options: Choices,
    stamp: Stamp,
    last_poll: f64,
    /// The system's watch, once the window has started it; `Err` when it could not.
    watch: Option<Result<SystemWatch, String>>,
}

/// A watch on the folder: the watcher (dropping it ends the watch) and the flag it raises.
struct SystemWatch {
    _watcher: notify::RecommendedWatcher,
    changed: Arc<AtomicBool>,
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
        Self {
            folder: folder.to_path_buf(),
            options: options.clone(),
            stamp: stamp(folder),
            last_poll: 0.0,
            watch: None,
        }
    }

    /// The mod folder watched.
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// Called every frame: starts the system's watch on the first call (it wakes `ctx` when a
    /// file changes), and reloads the mod when its files changed since the last look. Without a
    /// system watch, looks every two seconds (by `now`, in seconds) and asks `ctx` to wake up
    /// for the next look.
    pub fn poll(&mut self, ctx: &egui::Context, now: f64) -> Option<Reload> {
        let watch = self.watch.get_or_insert_with(|| SystemWatch::start(&self.folder, ctx));
        match watch {
            Ok(watch) => {
                if !watch.changed.swap(false, Ordering::AcqRel) {
                    return None;
                }
            }
            Err(_) => {
                ctx.request_repaint_after(Duration::from_secs_f64(POLL_SECONDS));
                if now - self.last_poll < POLL_SECONDS {
                    return None;
                }
                self.last_poll = now;
            }
        }
        self.check()
    }

    /// Whether the system watches the folder (else the files are polled).
    pub fn is_watching(&self) -> bool {
        matches!(self.watch, Some(Ok(_)))
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
            Err(problems) if self.options.is_empty() => {
                Reload::Broken(problems.iter().map(ToString::to_string).collect())
            }
            // A mistake in the file that declares the options takes the options with it, and
            // the game's choices then "cannot be chosen": a cascade, shown before the real
            // mistake. Loaded without choices, the mod shows only its own problems; when it
            // loads so, the choices themselves are the problem (an option was removed).
            Err(problems) => match loader::load_mod_with(&self.folder, &Choices::new()) {
                Err(own) => Reload::Broken(own.iter().map(ToString::to_string).collect()),
                Ok(_) => Reload::Broken(problems.iter().map(ToString::to_string).collect()),
            },
        })
    }
}

impl SystemWatch {
    /// Watches `folder` and everything under it; a change to a data or hook file raises the
    /// flag and wakes the window. What exactly changed is read from the files afterwards
    /// (`stamp`), so a burst of events (a save writes a temporary file, then renames it) makes
    /// one reload.
    fn start(folder: &Path, ctx: &egui::Context) -> Result<Self, String> {
        let changed = Arc::new(AtomicBool::new(false));
        let flag = changed.clone();
        let ctx = ctx.clone();
        let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
            let relevant = match &event {
                Ok(event) => {
                    !event.kind.is_access()
                        && event.paths.iter().any(|p| p.extension().is_some_and(|e| e == "toml" || e == "lua"))
                }
                // A lost event may have been a change: look.
                Err(_) => true,
            };
            if relevant {
                flag.store(true, Ordering::Release);
                ctx.request_repaint();
            }
        })
        .map_err(|e| e.to_string())?;
        watcher.watch(folder, notify::RecursiveMode::Recursive).map_err(|e| e.to_string())?;
        Ok(Self { _watcher: watcher, changed })
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
