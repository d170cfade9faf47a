//! The games the launcher lists: the bundled mods and those in the user's mod folder, each with
//! its name, description, number of players, or the problems that keep it from loading.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use meeple_engine::loader;
use meeple_engine::rules::Ruleset;

/// Where a mod was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    Bundled,
    User,
}

/// One mod in the launcher.
#[derive(Clone)]
pub struct ModEntry {
    pub id: String,
    pub name: String,
    pub description: String,
    /// "2–8 players".
    pub players: String,
    pub folder: PathBuf,
    pub origin: Origin,
    pub rules: Option<Arc<Ruleset>>,
    /// Every problem, located, when the mod does not load.
    pub problems: Vec<String>,
}

impl ModEntry {
    /// Loads the mod in `folder`.
    pub fn load(folder: &Path, origin: Origin) -> Self {
        let id = folder.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
        match loader::load_mod(folder) {
            Ok(loaded) => {
                let manifest = &loaded.ruleset.manifest;
                let (min, max) = (manifest.seats.min, manifest.seats.max);
                Self {
                    id,
                    name: manifest.name.clone(),
                    description: manifest.description.clone(),
                    players: if min == max { format!("{min} players") } else { format!("{min}–{max} players") },
                    folder: folder.to_path_buf(),
                    origin,
                    rules: Some(loaded.ruleset),
                    problems: Vec::new(),
                }
            }
            Err(problems) => Self {
                name: id.clone(),
                id,
                description: String::new(),
                players: String::new(),
                folder: folder.to_path_buf(),
                origin,
                rules: None,
                problems: problems.iter().map(ToString::to_string).collect(),
            },
        }
    }
}

/// The mod's rules with setup options chosen: the same rules when they were loaded with
/// those options, else the mod loaded again from its folder with them.
pub fn with_options(rules: &Arc<Ruleset>, options: &meeple_engine::options::Choices) -> Result<Arc<Ruleset>, String> {
    let wanted: meeple_engine::options::Choices =
        rules.chosen_options.iter().map(|(k, v)| (k.clone(), options.get(k).unwrap_or(v).clone())).collect();
    if wanted == rules.chosen_options && options.keys().all(|k| rules.chosen_options.contains_key(k)) {
        return Ok(rules.clone());
    }
    let folder = rules.folder.as_ref().ok_or("the mod was not loaded from a folder")?;
    loader::load_mod_with(folder, options)
        .map(|loaded| loaded.ruleset)
        .map_err(|problems| problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))
}

/// The user's own mod folder: `$MEEPLE_USER_MODS`, else `$XDG_DATA_HOME/meeple/mods`, else
/// `~/.local/share/meeple/mods`.
pub fn user_mods_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("MEEPLE_USER_MODS") {
        return Some(PathBuf::from(dir));
    }
    data_dir().map(|d| d.join("mods"))
}

/// Meeple's folder for the user's data (mods, saves).
pub fn data_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("XDG_DATA_HOME") {
        return Some(PathBuf::from(dir).join("meeple"));
    }
    std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".local/share/meeple"))
}

/// The bundled mods, then the user's (a user mod with a bundled mod's id is listed too: the
/// launcher marks where each comes from).
pub fn discover() -> Vec<ModEntry> {
    discover_in(&loader::bundled_mods_dir(), user_mods_dir().as_deref())
}

/// The mods of a bundled folder and of a user folder.
pub fn discover_in(bundled: &Path, user: Option<&Path>) -> Vec<ModEntry> {
    let mut entries: Vec<ModEntry> =
        loader::discover(bundled).iter().map(|f| ModEntry::load(f, Origin::Bundled)).collect();
    if let Some(dir) = user {
        entries.extend(loader::discover(dir).iter().map(|f| ModEntry::load(f, Origin::User)));
    }
    entries
}
