//! Save files and replays: a versioned JSON document holding the mod id and version, the
//! setup (seed and seats), every action in readable form, and the final state with its hash.
//!
//! A replay is a save: loading re-simulates the actions from the seed and checks the hash, so a
//! save is trustworthy even if the state snapshot were tampered with (a snapshot that disagrees
//! with the hash is dropped when the file is read, and [`SaveFile::replay`] never reads it).
//! Files are written atomically ([`StagedFile`]: a temporary file of a unique name, flushed,
//! renamed over the target, the folder flushed) so a crash mid-save leaves the previous save
//! whole. Reading never panics: an empty, cut short, damaged, foreign or too new file is a
//! [`SaveError`] that names the file and says what is wrong with it.

use std::ffi::OsString;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};

use crate::files::{self, Links, ReadError};
use crate::game::record::{from_record, to_record};
use crate::game::{Action, ActionRecord, Engine, Events, GameSetup, GameState};
use crate::rules::Ruleset;

/// The `format` field of every save file.
pub const SAVE_FORMAT: &str = "meeple-save";
/// The current save version. Version 1 is the first.
pub const SAVE_VERSION: u32 = 1;
/// The oldest save version this Meeple reads: versions from it up to [`SAVE_VERSION`] are
/// brought to the current one by [`migrate`].
pub const OLDEST_SAVE_VERSION: u32 = 1;
/// The largest file read as a save. A whole game of a few hundred actions on a board of a thousand
/// spaces saves to about 120 KiB (mostly the state snapshot), so anything this large is not a
/// save, and reading it would only fill the memory.
pub const MAX_SAVE_BYTES: u64 = 16 << 20;
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

/// Why a save could not be used. Every message names the file.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    #[error("cannot read {path}: {source}")]
    Read { path: String, source: io::Error },
    #[error("cannot write {path}: {source}")]
    Write { path: String, source: io::Error },
    #[error("{path} is not an ordinary file (a folder, device or pipe), so it is not read as a save")]
    NotAFile { path: String },
    #[error("{path} is empty, not a Meeple save file")]
    Empty { path: String },
    #[error("{path} is {bytes} bytes, too large for a Meeple save file (at most {MAX_SAVE_BYTES} bytes)")]
    TooLarge { path: String, bytes: u64 },
    #[error("{path} is not a Meeple save file: it is not text (byte {offset} is not UTF-8)")]
    NotText { path: String, offset: usize },
    #[error(
        "{path} is cut short: it ends in the middle of the save (at line {line}, column {column}); \
         it was not written completely or was truncated since"
    )]
    Truncated { path: String, line: usize, column: usize },
    #[error("{path} is not a Meeple save file: {reason}")]
    NotASave { path: String, reason: String },
    #[error("{path} was saved by a newer Meeple (save version {found}; this one reads {})", supported_versions())]
    NewerVersion { path: String, found: u64 },
    #[error("{path} was saved by an older Meeple (save version {found}; this one reads {})", supported_versions())]
    OlderVersion { path: String, found: u64 },
    #[error("{path} has an unknown save version ({found}); this Meeple reads {}", supported_versions())]
    UnknownVersion { path: String, found: String },
    #[error("{path} is a damaged Meeple save: {reason}")]
    Damaged { path: String, reason: String },
    #[error("{path} is a game of `{found}`, not of `{expected}`")]
    WrongMod { path: String, found: String, expected: String },
    #[error("{path}: the saved game cannot be set up: {reason}")]
    Setup { path: String, reason: String },
    #[error("{path}: action {index} cannot be replayed: {reason}")]
    Replay { path: String, index: usize, reason: String },
    #[error(
        "{path}: the replayed game differs from the saved one (hash {replayed} instead of {saved}); \
         the mod changed since the game was saved, or the file was edited"
    )]
    HashMismatch { path: String, saved: String, replayed: String },
}

/// The save versions this Meeple reads, for messages: `save version 1`, `save versions 1 to 3`.
pub fn supported_versions() -> String {
    if OLDEST_SAVE_VERSION == SAVE_VERSION {
        format!("save version {SAVE_VERSION}")
    } else {
        format!("save versions {OLDEST_SAVE_VERSION} to {SAVE_VERSION}")
    }
}

/// One step of [`migrate`]: a save's JSON of one version turned into the next version's.
type Migration = fn(serde_json::Value) -> Result<serde_json::Value, String>;

/// The steps that bring an older save to the current version: `MIGRATIONS[i]` turns a save of
/// version `OLDEST_SAVE_VERSION + i` into one of the next version. Version 1 is the only one so
/// far, so there are none. A format change bumps [`SAVE_VERSION`] and adds its step here (and
/// keeps `tests/fixtures/saves/`, whose old saves must still load and replay to their hashes).
const MIGRATIONS: &[Migration] = &[];
const _: () = assert!(MIGRATIONS.len() as u32 == SAVE_VERSION - OLDEST_SAVE_VERSION, "one migration per version");

/// Brings the JSON of a save of version `from_version` (checked to be a version this Meeple
/// reads) to the current version, one step at a time. The identity for the current version.
pub fn migrate(mut json: serde_json::Value, from_version: u32) -> Result<serde_json::Value, String> {
    if !(OLDEST_SAVE_VERSION..=SAVE_VERSION).contains(&from_version) {
        return Err(format!("save version {from_version} cannot be read; this Meeple reads {}", supported_versions()));
    }
    for (step, migration) in MIGRATIONS.iter().enumerate().skip((from_version - OLDEST_SAVE_VERSION) as usize) {
        let version = OLDEST_SAVE_VERSION + step as u32;
        json = migration(json).map_err(|reason| format!("from save version {version}: {reason}"))?;
        if let Some(object) = json.as_object_mut() {
            object.insert("version".into(), (version + 1).into());
        }
    }
    Ok(json)
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

    /// Writes the save atomically (see [`write_atomically`]): whoever reads `path`, even after a
    /// crash or a power cut mid-save, finds the previous save or this one, whole.
    pub fn write(&self, path: &Path) -> Result<(), SaveError> {
        let write_error = |source| SaveError::Write { path: path.display().to_string(), source };
        let json = serde_json::to_vec_pretty(self).map_err(|e| write_error(io::Error::other(e)))?;
        write_atomically(path, &json).map_err(write_error)
    }

    /// Reads a save, checking its format and version. The save must be an ordinary file (a
    /// link the user made to one is followed; a pipe or a device is refused without waiting on
    /// it) of at most [`MAX_SAVE_BYTES`].
    pub fn read(path: &Path) -> Result<Self, SaveError> {
        let shown = path.display().to_string();
        let contents = match files::read_capped(path, MAX_SAVE_BYTES, Links::Follow) {
            Ok(contents) => contents,
            Err(ReadError::Io(source)) => return Err(SaveError::Read { path: shown, source }),
            Err(ReadError::TooLarge { bytes, .. }) => return Err(SaveError::TooLarge { path: shown, bytes }),
            Err(ReadError::Link | ReadError::NotAFile) => return Err(SaveError::NotAFile { path: shown }),
        };
        Self::parse(&contents, &shown)
    }

    /// Parses a save from bytes; `shown` names it in errors. Older save versions are migrated;
    /// a state snapshot that disagrees with the saved hash is dropped (the actions are the save).
    pub fn parse(bytes: &[u8], shown: &str) -> Result<Self, SaveError> {
        let path = || shown.to_string();
        if bytes.is_empty() {
            return Err(SaveError::Empty { path: path() });
        }
        if bytes.len() as u64 > MAX_SAVE_BYTES {
            return Err(SaveError::TooLarge { path: path(), bytes: bytes.len() as u64 });
        }
        let text = match std::str::from_utf8(bytes) {
            Ok(text) => text,
            // A character cut in two at the very end: the file stops mid-write, it is not binary.
            Err(error) if error.error_len().is_none() => {
                let (line, column) = end_position(&bytes[..error.valid_up_to()]);
                return Err(SaveError::Truncated { path: path(), line, column });
            }
            Err(error) => return Err(SaveError::NotText { path: path(), offset: error.valid_up_to() }),
        };
        let json: serde_json::Value = serde_json::from_str(text).map_err(|error| {
            if error.is_eof() {
                SaveError::Truncated { path: path(), line: error.line(), column: error.column() }
            } else {
                SaveError::NotASave { path: path(), reason: format!("it is not JSON ({error})") }
            }
        })?;
        let not_a_save = |reason: String| SaveError::NotASave { path: path(), reason };
        let Some(object) = json.as_object() else {
            return Err(not_a_save(format!("it holds {}, not a JSON object", json_kind(&json))));
        };
        match object.get("format") {
            Some(serde_json::Value::String(format)) if format == SAVE_FORMAT => {}
            Some(other) => return Err(not_a_save(format!("its format is {other}, not \"{SAVE_FORMAT}\""))),
            None => return Err(not_a_save(format!("it has no `\"format\": \"{SAVE_FORMAT}\"`"))),
        }
        let version = match object.get("version") {
            None => return Err(SaveError::UnknownVersion { path: path(), found: "none".into() }),
            Some(found) => match found.as_u64() {
                Some(version) if version > u64::from(SAVE_VERSION) => {
                    return Err(SaveError::NewerVersion { path: path(), found: version });
                }
                Some(version) if (1..u64::from(OLDEST_SAVE_VERSION)).contains(&version) => {
                    return Err(SaveError::OlderVersion { path: path(), found: version });
                }
                Some(version) if version >= u64::from(OLDEST_SAVE_VERSION) => version as u32,
                _ => return Err(SaveError::UnknownVersion { path: path(), found: found.to_string() }),
            },
        };
        let damaged = |reason: String| SaveError::Damaged { path: path(), reason };
        // A save of the current version is read from its text, so a wrong value is located by
        // line and column; an older one from its migrated JSON.
        let mut save: SaveFile = if version == SAVE_VERSION {
            serde_json::from_str(text)
        } else {
            serde_json::from_value(migrate(json, version).map_err(&damaged)?)
        }
        .map_err(|error| damaged(error.to_string()))?;
        if save.state_hash.len() != 16 || !save.state_hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
            return Err(damaged(format!("its state_hash `{}` is not 16 lowercase hex digits", save.state_hash)));
        }
        // The mod is found by this id among the installed mods: it must not be a path.
        if !crate::loader::is_mod_id(&save.mod_ref.id) {
            return Err(damaged(format!(
                "its mod `{}` is not a mod id (lowercase letters, digits and `_`); a save names its mod, \
                 never a folder",
                echoed(&save.mod_ref.id)
            )));
        }
        // A board of its own is what scenario tests set up; a saved game is a game of the mod
        // as it is, on the mod's board.
        if save.setup.board.is_some() {
            return Err(damaged(
                "its setup carries a board of its own (`setup.board`); a saved game is played on its mod's board"
                    .into(),
            ));
        }
        if let Some(state) = save.state.as_mut() {
            state.rebuild_derived();
            // The snapshot is only a shortcut to the state the actions lead to; one that is not
            // the state the hash names was edited or damaged, and is not used.
            if state.hash_hex() != save.state_hash {
                save.state = None;
            }
        }
        Ok(save)
    }

    /// Re-simulates the game from its setup and actions and checks the hash. Returns the final
    /// state and the compact history. The snapshot (`state`) is never read: the replayed state is
    /// the game, whatever the snapshot says.
    pub fn replay(
        &self,
        engine: &mut Engine,
        shown: &str,
        events: &mut Events,
    ) -> Result<(GameState, Vec<(u8, Action)>), SaveError> {
        let rules = engine.rules().clone();
        if self.setup.board.is_some() {
            return Err(SaveError::Setup {
                path: shown.into(),
                reason: "the setup carries a board of its own; a saved game is played on its mod's board".into(),
            });
        }
        if rules.manifest.id != self.mod_ref.id {
            return Err(SaveError::WrongMod {
                path: shown.into(),
                found: self.mod_ref.id.clone(),
                expected: rules.manifest.id.clone(),
            });
        }
        let replay_error =
            |index: usize, reason: String| SaveError::Replay { path: shown.into(), index: index + 1, reason };
        let mut state = engine
            .new_game(&self.setup, events)
            .map_err(|e| SaveError::Setup { path: shown.into(), reason: e.to_string() })?;
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

/// A text from a file as a message shows it: whole when short, else its beginning and its size,
/// so a name of a megabyte does not make a message of a megabyte.
fn echoed(text: &str) -> String {
    const SHOWN_CHARS: usize = 48;
    match text.char_indices().nth(SHOWN_CHARS) {
        Some((cut, _)) => format!("{}… ({} bytes)", &text[..cut], text.len()),
        None => text.to_string(),
    }
}

/// The line and column (1-based) just after `bytes`.
fn end_position(bytes: &[u8]) -> (usize, usize) {
    let line = 1 + bytes.iter().filter(|&&b| b == b'\n').count();
    let column = 1 + bytes.iter().rev().take_while(|&&b| b != b'\n').count();
    (line, column)
}

/// What a JSON value is, for messages: `a JSON array`, `a number`.
fn json_kind(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "a JSON array",
        serde_json::Value::Object(_) => "a JSON object",
    }
}

/// Writes `bytes` to `path` atomically: into a temporary file of a unique name beside it,
/// flushed to disk, renamed over `path`, and the folder flushed (on Unix), so that after a crash
/// or a power cut `path` holds the old contents or the new ones, whole. On error the temporary
/// file is removed and `path` is as it was.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let staged = StagedFile::write(path, bytes)?;
    let folder = folder_of(staged.target());
    staged.replace()?;
    sync_folder(&folder)
}

/// The number of temporary files this process has made, so that each has a name of its own.
static STAGED_FILES: AtomicU64 = AtomicU64::new(0);

/// New contents for a file, written and flushed to disk under a temporary name beside it
/// (`.NAME.PID-N.tmp`, unique per process and write), waiting to replace it. Dropped without
/// [`StagedFile::replace`], the temporary file is removed. A target that is a symbolic link is
/// replaced where the link points, so the link stays. Several files are replaced all together
/// or not at all (as far as renames go) by staging them all first; see [`replace_files`].
#[derive(Debug)]
pub struct StagedFile {
    target: PathBuf,
    temporary: PathBuf,
    /// Whether the temporary file is gone (renamed over the target).
    replaced: bool,
}

impl StagedFile {
    /// Writes `bytes` to a new temporary file beside `target` and flushes it to disk. The
    /// temporary file takes the target's permissions, so replacing a file keeps them.
    pub fn write(target: &Path, bytes: &[u8]) -> io::Result<Self> {
        let linked;
        let target = match std::fs::symlink_metadata(target) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                linked = std::fs::canonicalize(target)
                    .map_err(|error| context(error, format!("following the link {}", target.display())))?;
                linked.as_path()
            }
            _ => target,
        };
        let name = target
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the path does not name a file"))?;
        let folder = folder_of(target);
        // `create_new` never opens another writer's file: a name already taken (a leftover of a
        // killed process whose id came round again) is skipped.
        let (temporary, mut file) = loop {
            let mut temporary_name = OsString::from(".");
            temporary_name.push(name);
            temporary_name.push(format!(
                ".{}-{}.tmp",
                std::process::id(),
                STAGED_FILES.fetch_add(1, Ordering::Relaxed)
            ));
            let temporary = folder.join(temporary_name);
            match std::fs::OpenOptions::new().write(true).create_new(true).open(&temporary) {
                Ok(file) => break (temporary, file),
                Err(error) if error.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(error) => return Err(context(error, format!("creating {}", temporary.display()))),
            }
        };
        let staged = Self { target: target.to_path_buf(), temporary, replaced: false };
        let writing = |error| context(error, format!("writing {}", staged.temporary.display()));
        file.write_all(bytes).map_err(writing)?;
        if let Ok(metadata) = std::fs::metadata(target) {
            // Best effort: a file system without permissions still takes the contents.
            let _ = file.set_permissions(metadata.permissions());
        }
        file.sync_all().map_err(writing)?;
        Ok(staged)
    }

    /// The file the contents are for.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// The temporary file holding the contents until they replace the target.
    pub fn temporary(&self) -> &Path {
        &self.temporary
    }

    /// Renames the temporary file over the target: an atomic replacement. The folder is not
    /// flushed; see [`sync_folder`].
    pub fn replace(mut self) -> io::Result<()> {
        std::fs::rename(&self.temporary, &self.target).map_err(|error| {
            context(error, format!("renaming {} to {}", self.temporary.display(), self.target.display()))
        })?;
        self.replaced = true;
        Ok(())
    }
}

impl Drop for StagedFile {
    fn drop(&mut self) {
        if !self.replaced {
            let _ = std::fs::remove_file(&self.temporary);
        }
    }
}

/// Flushes `folder` to disk, so that files renamed into it stay renamed after a power cut (Unix;
/// elsewhere there is nothing to do). File systems that cannot flush a folder are not an error.
pub fn sync_folder(folder: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        let flushed = std::fs::File::open(folder).and_then(|f| f.sync_all());
        match flushed {
            Err(error) if !matches!(error.kind(), io::ErrorKind::InvalidInput | io::ErrorKind::Unsupported) => {
                return Err(context(error, format!("flushing the folder {} to disk", folder.display())));
            }
            _ => {}
        }
    }
    #[cfg(not(unix))]
    let _ = folder;
    Ok(())
}

/// Why [`replace_files`] did not replace every file, and what is on disk now.
#[derive(Debug, thiserror::Error)]
pub enum ReplaceError {
    /// No file changed: a new text could not be written (a read-only folder, a full disk), or a
    /// rename failed and the files replaced before it were put back.
    #[error("cannot write {path}: {source}; no file was changed")]
    NothingChanged { path: String, source: io::Error },
    /// A rename failed and some files already replaced could not be put back.
    #[error(
        "cannot write {path}: {source}; {} could not be put back ({restore_error}), so they hold the new \
         text and the other files the old", mixed.join(", ")
    )]
    Mixed {
        path: String,
        source: io::Error,
        /// The indices (into the `files` given) of the files that hold their new text.
        new: Vec<usize>,
        /// Their paths, for the message.
        mixed: Vec<String>,
        restore_error: io::Error,
    },
    /// Every file holds its new text, but a folder could not be flushed to disk: a power cut
    /// now could undo some of the renames.
    #[error("every file was written, but {source}")]
    NotFlushed { source: io::Error },
}

/// The journal of a [`replace_files`] in progress, in the folder the files are in (a mod's
/// folder): one line per file, the temporary file and the file it replaces, separated by a tab,
/// both relative to that folder. Written (atomically) once every new text is on disk and
/// removed once every rename is done, so a process killed between the two leaves it behind, and
/// [`finish_interrupted_replace`] completes the renames when the editor next opens the folder.
pub const REPLACE_JOURNAL: &str = ".meeple-replace.journal";

/// The largest journal read: a line per file of a mod is a few kilobytes.
pub const MAX_JOURNAL_BYTES: u64 = 1 << 20;

/// One file of an interrupted [`replace_files`]: its new text, still under its temporary name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingFile {
    /// The file to replace, inside the folder (the folder joined with the journal's path).
    pub target: PathBuf,
    /// The temporary file holding its new text, beside it.
    pub temporary: PathBuf,
}

/// Why a journal is not followed: it names something Meeple's editor never writes there.
#[derive(Debug, thiserror::Error)]
#[error("{journal}{}: {reason}", if *line > 0 { format!(":{line}") } else { String::new() })]
pub struct JournalRefused {
    /// The journal, as shown.
    pub journal: String,
    /// The line at fault (1-based), 0 for the whole file.
    pub line: u32,
    pub reason: String,
}

/// Why [`finish_interrupted_replace`] did not finish a save.
#[derive(Debug, thiserror::Error)]
pub enum FinishError {
    /// The journal was not followed, and nothing was renamed.
    #[error("{0}; it is not followed, and no file was renamed")]
    Refused(#[from] JournalRefused),
    #[error("finishing an interrupted save: {0}")]
    Io(#[from] io::Error),
}

/// Reads the journal an interrupted [`replace_files`] left in `folder`, without changing
/// anything: `None` when there is none, else the files whose new text still waits under its
/// temporary name. The journal is read like a mod's files (an ordinary file, not a link, at most
/// [`MAX_JOURNAL_BYTES`]) and is followed only when every line names what Meeple itself writes
/// there: a file inside `folder` by a relative path without `..`, reached through real folders,
/// never a link, and beside it a temporary file named as [`StagedFile`] names them. Anything
/// else refuses the whole journal: it was not written by Meeple, and following it could move
/// files anywhere.
pub fn pending_replace(folder: &Path) -> Result<Option<Vec<PendingFile>>, JournalRefused> {
    let path = folder.join(REPLACE_JOURNAL);
    let refused = |line: u32, reason: String| JournalRefused { journal: path.display().to_string(), line, reason };
    if std::fs::symlink_metadata(&path).is_err() {
        return Ok(None);
    }
    let bytes =
        files::read_capped(&path, MAX_JOURNAL_BYTES, Links::Refuse).map_err(|error| refused(0, error.to_string()))?;
    let text = String::from_utf8(bytes).map_err(|_| refused(0, "the journal is not UTF-8 text".into()))?;
    let mut pending = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let number = index as u32 + 1;
        let Some((temporary, target)) = line.split_once('\t') else {
            return Err(refused(number, "a line is not a temporary file and a file separated by a tab".into()));
        };
        let file = journal_entry(folder, temporary, target).map_err(|reason| refused(number, reason))?;
        // A temporary file already renamed (or never written) leaves nothing to do.
        if std::fs::symlink_metadata(&file.temporary).is_ok() {
            pending.push(file);
        }
    }
    Ok(Some(pending))
}

/// Checks one line of a journal: the file to replace and its temporary file, as paths relative
/// to `folder`; both must be what [`replace_files`] writes there.
fn journal_entry(folder: &Path, temporary: &str, target: &str) -> Result<PendingFile, String> {
    let target_path =
        relative_inside(target).ok_or_else(|| format!("`{}` is not a path inside the mod folder", echoed(target)))?;
    let temporary_path = relative_inside(temporary)
        .ok_or_else(|| format!("`{}` is not a path inside the mod folder", echoed(temporary)))?;
    let target_name = target_path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let temporary_name = temporary_path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    if target_path.parent() != temporary_path.parent() || !is_staged_name(temporary_name, target_name) {
        return Err(format!("`{}` is not a temporary file Meeple writes for `{}`", echoed(temporary), echoed(target)));
    }
    if target_name == REPLACE_JOURNAL {
        return Err("the journal names itself".into());
    }
    // Every folder on the way is a real one: through a linked folder, a path inside the mod
    // leads anywhere.
    let mut walked = folder.to_path_buf();
    for component in target_path.parent().into_iter().flat_map(Path::components) {
        walked.push(component);
        if !files::is_real_folder(&walked) {
            return Err(format!("`{}` is not a folder of the mod (a link, or missing)", echoed(target)));
        }
    }
    let target = folder.join(&target_path);
    let temporary = folder.join(&temporary_path);
    for (path, shown) in [(&target, target_path.as_path()), (&temporary, temporary_path.as_path())] {
        if let Ok(metadata) = std::fs::symlink_metadata(path)
            && !metadata.is_file()
        {
            return Err(format!(
                "`{}` is not an ordinary file (a link, folder, device or pipe)",
                echoed(&shown.to_string_lossy())
            ));
        }
    }
    Ok(PendingFile { target, temporary })
}

/// `text` as a path relative to a folder that stays inside it: not empty, not absolute, only
/// names (no `..`, `.`, root or drive), each a file name Meeple could have written.
fn relative_inside(text: &str) -> Option<PathBuf> {
    use std::path::Component;
    let path = Path::new(text);
    let plain = !text.is_empty()
        && !text.contains(['\\', '\0'])
        && path.components().all(|c| matches!(c, Component::Normal(_)))
        && text.split('/').all(|part| !part.is_empty() && part != "." && part != "..");
    plain.then(|| path.to_path_buf())
}

/// A relative path as the journal writes it, with `/` between names on every system.
fn slashed(path: &Path) -> String {
    path.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

/// Whether `temporary` is a name [`StagedFile::write`] gives a new text of `target`:
/// `.TARGET.PID-N.tmp`.
fn is_staged_name(temporary: &str, target: &str) -> bool {
    let Some(rest) = temporary.strip_prefix('.').and_then(|r| r.strip_prefix(target)) else { return false };
    let Some(numbers) = rest.strip_prefix('.').and_then(|r| r.strip_suffix(".tmp")) else { return false };
    let digits = |s: &str| !s.is_empty() && s.len() <= 20 && s.bytes().all(|b| b.is_ascii_digit());
    numbers.split_once('-').is_some_and(|(pid, n)| digits(pid) && digits(n))
}

/// Completes a [`replace_files`] that a killed process left half done in `folder`: every
/// temporary file its journal names that is still there is renamed over its file, so the files
/// are all new — a multi-file save is all or nothing. Returns whether a file was left to
/// rename (a journal whose renames were all done is only removed).
///
/// Only the editor calls this, when it opens a mod: loading a mod never changes a file (the
/// loader reads the waiting new texts in place of the files instead, see
/// [`pending_replace`]). A journal that names anything but the editor's own temporary files
/// inside `folder` is refused whole, and nothing is renamed.
pub fn finish_interrupted_replace(folder: &Path) -> Result<bool, FinishError> {
    let Some(pending) = pending_replace(folder)? else { return Ok(false) };
    let mut folders = vec![folder.to_path_buf()];
    for file in &pending {
        std::fs::rename(&file.temporary, &file.target).map_err(|error| {
            context(error, format!("renaming {} to {}", file.temporary.display(), file.target.display()))
        })?;
        folders.push(folder_of(&file.target));
    }
    folders.sort();
    folders.dedup();
    for folder in &folders {
        sync_folder(folder)?;
    }
    std::fs::remove_file(folder.join(REPLACE_JOURNAL))?;
    sync_folder(folder)?;
    Ok(!pending.is_empty())
}

/// Replaces several files inside `folder` with new contents: every new text written and
/// flushed under a temporary name first (where writing fails — a read-only folder, a full disk
/// — and then no file has changed), then a journal in `folder` naming them, then each renamed
/// over its file (atomic per file), then the folders flushed and the journal removed. When a
/// rename fails the files already replaced are put back from their old contents, read before
/// anything was renamed. No temporary file is left behind, whatever happens — short of the
/// process being killed: then either no file has changed, or the journal lets
/// [`finish_interrupted_replace`] make them all new, and a `.*.tmp` of an unfinished write may
/// remain. Every file must lie inside `folder` (by a path without `..`) and not be a link,
/// since the journal names only such files.
pub fn replace_files(folder: &Path, files: &[(&Path, &[u8])]) -> Result<(), ReplaceError> {
    let shown = |path: &Path| path.display().to_string();
    let refused = |path: &Path, reason: &str| ReplaceError::NothingChanged {
        path: shown(path),
        source: io::Error::new(io::ErrorKind::InvalidInput, reason.to_string()),
    };
    // Each file by its path relative to the folder, as the journal names it.
    let mut relative = Vec::with_capacity(files.len());
    for &(path, _) in files {
        let inside = path.strip_prefix(folder).ok().and_then(Path::to_str).and_then(relative_inside);
        let Some(inside) = inside.filter(|p| !p.to_string_lossy().contains(['\t', '\n', '\r'])) else {
            return Err(refused(path, "not a file inside the folder saved to, by a plain path"));
        };
        if files::is_link(path) {
            return Err(refused(path, "the file is a symbolic link"));
        }
        relative.push(inside);
    }
    // Each file's new contents staged, with its old contents (`None`: it did not exist).
    let mut staged = Vec::with_capacity(files.len());
    for &(path, bytes) in files {
        let old = match files::read_capped(path, MAX_SAVE_BYTES, Links::Refuse) {
            Ok(old) => Some(old),
            Err(ReadError::Io(error)) if error.kind() == io::ErrorKind::NotFound => None,
            Err(ReadError::Io(source)) => return Err(ReplaceError::NothingChanged { path: shown(path), source }),
            Err(error) => return Err(refused(path, &error.to_string())),
        };
        match StagedFile::write(path, bytes) {
            Ok(file) => staged.push((file, old)),
            Err(source) => return Err(ReplaceError::NothingChanged { path: shown(path), source }),
        }
    }
    let mut folders: Vec<PathBuf> = staged.iter().map(|(file, _)| folder_of(file.target())).collect();
    // With several files, a journal makes the renames all or nothing across a kill.
    let journal = (staged.len() > 1).then(|| folder.join(REPLACE_JOURNAL));
    if let Some(journal) = &journal {
        let lines: String = staged
            .iter()
            .zip(&relative)
            .map(|((file, _), target)| {
                let temporary = target.with_file_name(file.temporary().file_name().unwrap_or_default());
                format!("{}\t{}\n", slashed(&temporary), slashed(target))
            })
            .collect();
        if let Err(source) = write_atomically(journal, lines.as_bytes()) {
            return Err(ReplaceError::NothingChanged { path: shown(journal), source });
        }
    }
    let remove_journal = || {
        if let Some(journal) = &journal {
            let _ = std::fs::remove_file(journal);
        }
    };
    let mut replaced: Vec<(usize, PathBuf, Option<Vec<u8>>)> = Vec::with_capacity(files.len());
    let mut pending = staged.into_iter().enumerate();
    while let Some((index, (file, old))) = pending.next() {
        let target = file.target().to_path_buf();
        if let Err(source) = file.replace() {
            // The other temporary files go first, then the files already replaced are put back.
            drop(pending);
            let mut new = Vec::new();
            let mut restore_error = None;
            for (done, target, old) in replaced.into_iter().rev() {
                let restored = match old {
                    Some(old) => write_atomically(&target, &old),
                    None => std::fs::remove_file(&target).and_then(|()| sync_folder(&folder_of(&target))),
                };
                if let Err(error) = restored {
                    new.push(done);
                    restore_error.get_or_insert(error);
                }
            }
            new.sort_unstable();
            remove_journal();
            return Err(match restore_error {
                None => ReplaceError::NothingChanged { path: shown(files[index].0), source },
                Some(restore_error) => ReplaceError::Mixed {
                    path: shown(files[index].0),
                    source,
                    mixed: new.iter().map(|&i| shown(files[i].0)).collect(),
                    new,
                    restore_error,
                },
            });
        }
        replaced.push((index, target, old));
    }
    folders.sort();
    folders.dedup();
    for folder in &folders {
        sync_folder(folder).map_err(|source| ReplaceError::NotFlushed { source })?;
    }
    remove_journal();
    if let Some(journal) = &journal {
        sync_folder(&folder_of(journal)).map_err(|source| ReplaceError::NotFlushed { source })?;
    }
    Ok(())
}

/// The folder holding `path` (`.` for a bare file name).
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// `error` with what was being done, keeping its kind.
fn context(error: io::Error, doing: String) -> io::Error {
    io::Error::new(error.kind(), format!("{doing}: {error}"))
}
