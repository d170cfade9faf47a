//! The editor's model of a mod: its TOML files as `toml_edit` documents (so a save keeps every
//! comment, key order and the formatting a person chose), values read and written by path, each
//! change checked by loading the mod through the unsaved texts before it is accepted, undo and
//! redo, and saving only the files that changed. No egui here.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use meeple_engine::diag::Diagnostic;
use meeple_engine::loader::{self, Overlay};
use meeple_engine::options::Choices;
use meeple_engine::rules::Ruleset;
use meeple_engine::save::{self, ReplaceError};
use toml_edit::{DocumentMut, Item, Value};

/// One step of a path into the data: a table key or an array index.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seg {
    Key(String),
    Index(usize),
}

/// A path into the data, e.g. `items.bow.price`.
pub type DataPath = Vec<Seg>;

/// Builds a path from dotted text (`items.bow.stats.range`; numbers are array indices).
pub fn path(text: &str) -> DataPath {
    text.split('.')
        .map(|part| match part.parse::<usize>() {
            Ok(index) => Seg::Index(index),
            Err(_) => Seg::Key(part.to_string()),
        })
        .collect()
}

/// A path as dotted text.
pub fn path_text(path: &[Seg]) -> String {
    path.iter()
        .map(|seg| match seg {
            Seg::Key(key) => key.clone(),
            Seg::Index(index) => index.to_string(),
        })
        .collect::<Vec<_>>()
        .join(".")
}

/// One TOML file of the mod.
#[derive(Clone)]
pub struct SourceFile {
    /// Where it is on disk.
    pub path: PathBuf,
    /// The path shown: relative to the mod folder, e.g. `weapons.toml`.
    pub name: String,
    /// The text as last read from or written to disk.
    pub saved: String,
    pub doc: DocumentMut,
}

impl SourceFile {
    /// The file's text as the editor would write it.
    pub fn text(&self) -> String {
        self.doc.to_string()
    }

    pub fn is_changed(&self) -> bool {
        self.text() != self.saved
    }
}

/// Why a change was not made.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    pub message: String,
    /// The mod's problems with the change, located in the edited texts.
    pub problems: Vec<String>,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.message)?;
        for problem in &self.problems {
            write!(f, "\n{problem}")?;
        }
        Ok(())
    }
}

/// The texts of the files a change touched, as they were before it.
type Snapshot = Vec<(usize, String)>;

/// A mod open in the editor.
pub struct ModModel {
    pub folder: PathBuf,
    /// `mod.toml` first, then the data files in loading order.
    pub files: Vec<SourceFile>,
    /// The mod as the current texts give it; `Err` with every problem when they do not load
    /// (only possible when the files on disk were broken already: changes that break the mod
    /// are refused).
    pub rules: Result<Arc<Ruleset>, Vec<Diagnostic>>,
    /// The mod as saved on disk (the "before" of the balance panel).
    pub saved_rules: Option<Arc<Ruleset>>,
    undo: Vec<Snapshot>,
    redo: Vec<Snapshot>,
    /// The path of the last change, so the steps of one drag make one undo step.
    last_path: Option<DataPath>,
    /// Counts changes, undos and redos ([`ModModel::revision`]).
    revision: u64,
    /// What opening the mod did about a save of it that was interrupted (an editor killed
    /// mid-save): `(true, …)` when it was finished, `(false, …)` when its journal was refused.
    pub interrupted_save: Option<(bool, String)>,
}

impl ModModel {
    /// Opens the mod in `folder`: first finishes a save of it that an editor killed mid-save
    /// left half done (the only place that happens: loading a mod never changes its files),
    /// then every TOML file parsed for editing (a file TOML cannot parse cannot be edited here:
    /// the error says where). Files are read as the loader reads them: ordinary files, no links.
    pub fn open(folder: &Path) -> Result<Self, String> {
        let interrupted_save = match save::finish_interrupted_replace(folder) {
            Ok(false) => None,
            Ok(true) => Some((true, "Finished a save of this mod that was interrupted".to_string())),
            // Refused, nothing was renamed; the files are edited as they are.
            Err(error @ save::FinishError::Refused(_)) => Some((false, error.to_string())),
            Err(error @ save::FinishError::Io(_)) => return Err(error.to_string()),
        };
        let listed = loader::mod_files(folder).map_err(|d| d.to_string())?;
        let mut files = Vec::new();
        for path in std::iter::once(&listed.manifest).chain(&listed.data) {
            let bytes = loader::read(path).map_err(|d| d.to_string())?;
            let saved = String::from_utf8(bytes)
                .map_err(|_| format!("{}: the file is not valid UTF-8 text; save it as UTF-8", path.display()))?;
            let doc: DocumentMut = saved.parse().map_err(|e| format!("{}: {e}", path.display()))?;
            let name = path.strip_prefix(folder).unwrap_or(path).to_string_lossy().replace('\\', "/");
            files.push(SourceFile { path: path.clone(), name, saved, doc });
        }
        let mut model = Self {
            folder: folder.to_path_buf(),
            files,
            rules: Err(Vec::new()),
            saved_rules: None,
            undo: Vec::new(),
            redo: Vec::new(),
            last_path: None,
            revision: 0,
            interrupted_save,
        };
        model.rules = model.load(&Overlay::new());
        model.saved_rules = model.rules.as_ref().ok().cloned();
        Ok(model)
    }

    /// Loads the mod with `overlay` standing in for files on disk.
    fn load(&self, overlay: &Overlay) -> Result<Arc<Ruleset>, Vec<Diagnostic>> {
        loader::load_mod_edited(&self.folder, &Choices::new(), overlay).map(|loaded| loaded.ruleset)
    }

    /// The unsaved texts, by path.
    pub fn overlay(&self) -> Overlay {
        self.files.iter().filter(|f| f.is_changed()).map(|f| (f.path.clone(), f.text())).collect()
    }

    /// Whether any file has unsaved changes.
    pub fn is_dirty(&self) -> bool {
        self.files.iter().any(SourceFile::is_changed)
    }

    /// The item at `path` in the file that has it (the first such file).
    ///
    /// Paths starting with `mod` are in `mod.toml` (`mod.name`, `mod.seats.max`); the others in
    /// the data files.
    pub fn get(&self, path: &[Seg]) -> Option<(usize, &Item)> {
        if let Some(inner) = manifest_path(path) {
            return walk(self.files.first()?.doc.as_item(), inner).map(|item| (0, item));
        }
        self.files.iter().enumerate().skip(1).find_map(|(i, f)| walk(f.doc.as_item(), path).map(|item| (i, item)))
    }

    /// The value at `path` for showing: strings without quotes, other values as TOML.
    pub fn display_text(&self, path: &[Seg]) -> Option<String> {
        let (_, item) = self.get(path)?;
        match item.as_str() {
            Some(text) => Some(text.to_string()),
            None => self.value_text(path),
        }
    }

    /// The value at `path` as plain TOML text (`25`, `"bow"`, `{ range = 2 }`), trimmed.
    pub fn value_text(&self, path: &[Seg]) -> Option<String> {
        let (_, item) = self.get(path)?;
        Some(match item {
            Item::Value(value) => value.to_string().trim().to_string(),
            other => other.to_string().trim().to_string(),
        })
    }

    /// Sets the value at `path` (in the file that has it, or that has its table), keeping the
    /// spacing and comments around it. The change is kept only when the mod still loads;
    /// otherwise it is undone and every problem it caused is returned.
    pub fn set(&mut self, path: &[Seg], value: Value) -> Result<(), Refusal> {
        let file = self.file_for(path)?;
        let before = self.files[file].text();
        if let Err(refusal) = self.apply(&Edit::Set(path.to_vec(), value)) {
            self.restore(&vec![(file, before)]);
            return Err(refusal);
        }
        self.commit(vec![(file, before)], &format!("`{}` cannot be set so", path_text(path)), &[])?;
        self.last_path = Some(path.to_vec());
        Ok(())
    }

    /// Makes several edits as one change (one undo step): kept only when the mod still loads,
    /// and loads too with each of `also_with`'s setup choices (a board only a choice plays on
    /// is checked only when the mod is loaded with that choice); otherwise every edit is
    /// undone and the problems are returned.
    pub fn change(&mut self, edits: &[Edit], also_with: &[Choices]) -> Result<(), Refusal> {
        let mut before: Snapshot = Vec::new();
        for edit in edits {
            let result = self.file_for(edit.path()).and_then(|file| {
                if !before.iter().any(|(f, _)| *f == file) {
                    before.push((file, self.files[file].text()));
                }
                self.apply(edit)
            });
            if let Err(refusal) = result {
                self.restore(&before);
                return Err(refusal);
            }
        }
        if before.is_empty() {
            return Ok(());
        }
        self.commit(before, "the change cannot be made", also_with)?;
        self.last_path = None;
        Ok(())
    }

    /// The file an edit of `path` goes to: the one that has it, or that has its table.
    fn file_for(&self, path: &[Seg]) -> Result<usize, Refusal> {
        let Some((last, parent)) = path.split_last() else {
            return Err(Refusal { message: "no value is named".into(), problems: Vec::new() });
        };
        match self.get(path).or_else(|| self.get(parent)) {
            Some((file, _)) => Ok(file),
            None => Err(Refusal {
                message: format!(
                    "the mod has no `{}` to put `{}` in",
                    path_text(parent),
                    path_text(std::slice::from_ref(last))
                ),
                problems: Vec::new(),
            }),
        }
    }

    /// Makes one edit in the documents, unchecked.
    fn apply(&mut self, edit: &Edit) -> Result<(), Refusal> {
        let file = self.file_for(edit.path())?;
        let not_a_list =
            |path: &[Seg]| Refusal { message: format!("`{}` is not a list", path_text(path)), problems: Vec::new() };
        let path = edit.path();
        match edit {
            Edit::Set(_, value) => {
                let (last, parent) = path.split_last().expect("file_for checked");
                let inner_parent = manifest_path(parent).unwrap_or(parent);
                let item = walk_mut(self.files[file].doc.as_item_mut(), inner_parent).expect("file_for found it");
                match last {
                    Seg::Key(key) => {
                        let existed = item.get(key.as_str()).is_some();
                        let slot = item.get_mut(key.as_str()).ok_or_else(|| Refusal {
                            message: format!("`{}` is not a table", path_text(parent)),
                            problems: Vec::new(),
                        })?;
                        put(slot, value.clone(), existed);
                    }
                    Seg::Index(index) => {
                        let slot = item.get_mut(*index).ok_or_else(|| Refusal {
                            message: format!("`{}` has no element {index}", path_text(parent)),
                            problems: Vec::new(),
                        })?;
                        put(slot, value.clone(), true);
                    }
                }
            }
            Edit::Push(_, value) => {
                let inner = manifest_path(path).unwrap_or(path);
                let item = walk_mut(self.files[file].doc.as_item_mut(), inner).ok_or_else(|| not_a_list(path))?;
                let array = item.as_array_mut().ok_or_else(|| not_a_list(path))?;
                push_formatted(array, value.clone());
            }
            Edit::Remove(_, index) => {
                let inner = manifest_path(path).unwrap_or(path);
                let item = walk_mut(self.files[file].doc.as_item_mut(), inner).ok_or_else(|| not_a_list(path))?;
                let array = item.as_array_mut().ok_or_else(|| not_a_list(path))?;
                if *index >= array.len() {
                    return Err(Refusal {
                        message: format!("`{}` has no element {index}", path_text(path)),
                        problems: Vec::new(),
                    });
                }
                remove_keeping_comments(array, *index);
            }
        }
        Ok(())
    }

    /// Sets a value as [`ModModel::set`] does, but as part of the previous change when that
    /// was to the same value and no [`ModModel::end_edit`] came between (the steps of one drag
    /// of a number, the keystrokes of one edit of a text, are one undo step).
    pub fn set_merging(&mut self, path: &[Seg], value: Value) -> Result<(), Refusal> {
        let merge = self.last_path.as_deref() == Some(path) && !self.undo.is_empty();
        let undo = self.undo.len();
        self.set(path, value)?;
        if merge && self.undo.len() == undo + 1 {
            // Keep the texts from before the first step of the gesture.
            self.undo.pop();
        }
        Ok(())
    }

    /// Ends the current edit: the next change starts a new undo step even when it is to the
    /// same value (a field typed into again after leaving it, a second drag).
    pub fn end_edit(&mut self) {
        self.last_path = None;
    }

    /// Whether setting the value at `path` would be accepted, without making the change (for
    /// checking text as it is typed).
    pub fn check(&mut self, path: &[Seg], value: Value) -> Result<(), Refusal> {
        let undo = self.undo.len();
        let redo = std::mem::take(&mut self.redo);
        let rules = self.rules.clone();
        let result = self.set(path, value);
        if result.is_ok() {
            let snapshot = self.undo.pop().expect("a change was made");
            self.restore(&snapshot);
        }
        debug_assert_eq!(self.undo.len(), undo);
        self.redo = redo;
        self.rules = rules;
        result
    }

    /// The entries under `path`: its keys (tables, inline tables) or positions (arrays), each
    /// with what it holds.
    pub fn children(&self, path: &[Seg]) -> Vec<(Seg, Node)> {
        let Some((_, item)) = self.get(path) else { return Vec::new() };
        children_of(item)
    }

    /// The data's value at `path` as JSON (for choosing the shape of a field from the schema).
    pub fn json(&self, path: &[Seg]) -> Option<serde_json::Value> {
        let (_, item) = self.get(path)?;
        item_json(item)
    }

    /// The definitions the data has: for each collection (`items`, `pieces`, …) its entry ids,
    /// for each single table (`board`, `turn`, …) itself, in the order the files give them.
    pub fn sections(&self) -> Vec<(String, Vec<String>)> {
        // `mod.toml` first: the mod's name, description, seats.
        let mut sections: Vec<(String, Vec<String>)> = vec![(MANIFEST.to_string(), Vec::new())];
        for file in self.files.iter().skip(1) {
            for (key, item) in file.doc.as_table().iter() {
                let entries: Vec<String> = if is_collection(key) {
                    item.as_table_like().map(|t| t.iter().map(|(k, _)| k.to_string()).collect()).unwrap_or_default()
                } else {
                    Vec::new()
                };
                match sections.iter_mut().find(|(k, _)| k == key) {
                    Some((_, existing)) => existing.extend(entries),
                    None => sections.push((key.to_string(), entries)),
                }
            }
        }
        sections
    }

    /// Replaces a whole file's text (the text view of a file): kept only when it parses and
    /// the mod still loads.
    pub fn set_text(&mut self, file: usize, text: &str) -> Result<(), Refusal> {
        let doc: DocumentMut = text.parse().map_err(|e: toml_edit::TomlError| Refusal {
            message: format!("{}: {}", self.files[file].name, e.to_string().trim()),
            problems: Vec::new(),
        })?;
        let before = self.files[file].text();
        self.files[file].doc = doc;
        self.commit(vec![(file, before)], &format!("{} cannot be changed so", self.files[file].name), &[])
    }

    /// Checks the texts after a change: keeps it (with an undo step) when the mod loads, else
    /// restores the texts and refuses.
    fn commit(&mut self, before: Snapshot, refusal: &str, also_with: &[Choices]) -> Result<(), Refusal> {
        let overlay = self.overlay();
        let mut loaded = self.load(&overlay).map_err(|problems| (None, problems));
        for choices in also_with {
            if loaded.is_err() {
                break;
            }
            if let Err(problems) = loader::load_mod_edited(&self.folder, choices, &overlay) {
                loaded = Err((Some(choices), problems));
            }
        }
        match loaded {
            Ok(rules) => {
                self.rules = Ok(rules);
                self.undo.push(before);
                self.redo.clear();
                self.revision += 1;
                Ok(())
            }
            Err((choices, problems)) => {
                self.restore(&before);
                let message = match choices {
                    None => refusal.to_string(),
                    Some(choices) => {
                        let chosen: Vec<String> = choices.iter().map(|(o, c)| format!("{o} = {c}")).collect();
                        format!("{refusal}: the mod does not load with the setup choice {}", chosen.join(", "))
                    }
                };
                Err(Refusal { message, problems: problems.iter().map(ToString::to_string).collect() })
            }
        }
    }

    fn restore(&mut self, snapshot: &Snapshot) {
        for (file, text) in snapshot {
            if let Ok(doc) = text.parse() {
                self.files[*file].doc = doc;
            }
        }
    }

    /// A number that grows with every change, undo and redo: what is drawn from the texts is
    /// worked out again when it differs.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Takes back the last change.
    pub fn undo(&mut self) -> bool {
        self.step(true)
    }

    /// Makes the last undone change again.
    pub fn redo(&mut self) -> bool {
        self.step(false)
    }

    fn step(&mut self, back: bool) -> bool {
        self.last_path = None;
        let Some(snapshot) = (if back { self.undo.pop() } else { self.redo.pop() }) else { return false };
        let current: Snapshot = snapshot.iter().map(|(file, _)| (*file, self.files[*file].text())).collect();
        self.restore(&snapshot);
        if back {
            self.redo.push(current);
        } else {
            self.undo.push(current);
        }
        self.rules = self.load(&self.overlay());
        self.revision += 1;
        true
    }

    /// Writes the changed files, only when the mod as edited loads. Returns the names of the
    /// files written.
    ///
    /// The files are replaced together as far as a file system allows
    /// ([`save::replace_files`]): every new text is written and flushed beside its file first
    /// (a read-only folder or a full disk fails here, and no file changes), then each is renamed
    /// over its file (atomic per file), and when a rename fails the files already replaced are
    /// put back. A process killed mid-save leaves each file whole, old or new.
    pub fn save(&mut self) -> Result<Vec<String>, Refusal> {
        if let Err(problems) = self.load(&self.overlay()) {
            return Err(Refusal {
                message: "the mod as edited does not load, so nothing was written".into(),
                problems: problems.iter().map(ToString::to_string).collect(),
            });
        }
        let changed: Vec<(usize, String)> =
            self.files.iter().enumerate().filter(|(_, f)| f.is_changed()).map(|(i, f)| (i, f.text())).collect();
        let contents: Vec<(&Path, &[u8])> =
            changed.iter().map(|(i, text)| (self.files[*i].path.as_path(), text.as_bytes())).collect();
        let replaced = save::replace_files(&self.folder, &contents);
        // Which files hold their new text now.
        let written: Vec<usize> = match &replaced {
            Ok(()) | Err(ReplaceError::NotFlushed { .. }) => (0..changed.len()).collect(),
            Err(ReplaceError::Mixed { new, .. }) => new.clone(),
            Err(ReplaceError::NothingChanged { .. }) => Vec::new(),
        };
        let mut names = Vec::new();
        for &index in &written {
            let (file, text) = &changed[index];
            self.files[*file].saved = text.clone();
            names.push(self.files[*file].name.clone());
        }
        if written.len() == changed.len() {
            self.saved_rules = self.rules.as_ref().ok().cloned();
        }
        match replaced {
            Ok(()) => Ok(names),
            Err(error) => Err(Refusal { message: error.to_string(), problems: Vec::new() }),
        }
    }
}

/// One edit of a change made with [`ModModel::change`].
#[derive(Clone, Debug)]
pub enum Edit {
    /// The value at a path set, as [`ModModel::set`] sets it (its spacing and comments kept).
    Set(DataPath, Value),
    /// A value added at the end of the list at a path: on a line of its own when the list's
    /// elements start lines, else after the last one.
    Push(DataPath, Value),
    /// The element at an index of the list at a path taken out; the comment lines before it
    /// stay, before what follows it.
    Remove(DataPath, usize),
}

impl Edit {
    /// The path the edit is at (the value's, or the list's).
    pub fn path(&self) -> &[Seg] {
        match self {
            Edit::Set(path, _) | Edit::Push(path, _) | Edit::Remove(path, _) => path,
        }
    }
}

/// What a data item holds, for drawing its form.
#[derive(Clone, Debug)]
pub enum Node {
    Value(Value),
    Table,
    List(usize),
}

/// The first key of paths into `mod.toml`.
pub const MANIFEST: &str = "mod";

/// The path inside `mod.toml` of a path that starts with `mod`.
fn manifest_path(path: &[Seg]) -> Option<&[Seg]> {
    match path.first() {
        Some(Seg::Key(key)) if key == MANIFEST => Some(&path[1..]),
        _ => None,
    }
}

/// Collections of definitions by id (the rest of the top level are single tables).
pub fn is_collection(key: &str) -> bool {
    meeple_engine::defs::COLLECTIONS.contains(&key) || ["space_counters", "resources", "stats", "vars"].contains(&key)
}

fn children_of(item: &Item) -> Vec<(Seg, Node)> {
    let node = |item: &Item| match item {
        Item::Value(Value::Array(array)) => Node::List(array.len()),
        Item::Value(Value::InlineTable(_)) | Item::Table(_) => Node::Table,
        Item::ArrayOfTables(tables) => Node::List(tables.len()),
        Item::Value(value) => Node::Value(value.clone()),
        Item::None => Node::Table,
    };
    match item {
        Item::Value(Value::Array(array)) => {
            array.iter().enumerate().map(|(i, v)| (Seg::Index(i), node(&Item::Value(v.clone())))).collect()
        }
        Item::ArrayOfTables(tables) => (0..tables.len()).map(|i| (Seg::Index(i), Node::Table)).collect(),
        other => other
            .as_table_like()
            .map(|t| t.iter().map(|(k, v)| (Seg::Key(k.to_string()), node(v))).collect())
            .unwrap_or_default(),
    }
}

/// A TOML item as JSON.
fn item_json(item: &Item) -> Option<serde_json::Value> {
    use serde_json::Value as Json;
    Some(match item {
        Item::None => return None,
        Item::Value(value) => value_json(value),
        Item::Table(table) => {
            Json::Object(table.iter().filter_map(|(k, v)| Some((k.to_string(), item_json(v)?))).collect())
        }
        Item::ArrayOfTables(tables) => Json::Array(
            tables
                .iter()
                .map(|t| Json::Object(t.iter().filter_map(|(k, v)| Some((k.to_string(), item_json(v)?))).collect()))
                .collect(),
        ),
    })
}

fn value_json(value: &Value) -> serde_json::Value {
    use serde_json::Value as Json;
    match value {
        Value::String(s) => Json::String(s.value().clone()),
        Value::Integer(i) => Json::from(*i.value()),
        Value::Float(f) => Json::from(*f.value()),
        Value::Boolean(b) => Json::Bool(*b.value()),
        Value::Datetime(d) => Json::String(d.value().to_string()),
        Value::Array(array) => Json::Array(array.iter().map(value_json).collect()),
        Value::InlineTable(table) => Json::Object(table.iter().map(|(k, v)| (k.to_string(), value_json(v))).collect()),
    }
}

/// The item at `path` below `item`.
fn walk<'a>(item: &'a Item, path: &[Seg]) -> Option<&'a Item> {
    let mut item = item;
    for seg in path {
        item = match seg {
            Seg::Key(key) => item.get(key.as_str())?,
            Seg::Index(index) => item.get(*index)?,
        };
    }
    Some(item)
}

/// The item at an existing `path` below `item`, for changing it.
fn walk_mut<'a>(item: &'a mut Item, path: &[Seg]) -> Option<&'a mut Item> {
    walk(item, path)?;
    let mut item = item;
    for seg in path {
        item = match seg {
            Seg::Key(key) => item.get_mut(key.as_str())?,
            Seg::Index(index) => item.get_mut(*index)?,
        };
    }
    Some(item)
}

/// Puts `value` in `slot`, keeping the old value's surrounding spaces and comments.
fn put(slot: &mut Item, mut value: Value, existed: bool) {
    if existed && let Item::Value(old) = slot {
        *value.decor_mut() = old.decor().clone();
    } else if !existed {
        value.decor_mut().set_prefix(" ");
    }
    *slot = Item::Value(value);
}

/// Adds `value` at the end of `array`, written like the elements before it: where they start
/// lines, on a new line with the indent of the last such line; else after a space.
fn push_formatted(array: &mut toml_edit::Array, mut value: Value) {
    let line_start = array.iter().filter_map(|v| v.decor().prefix()?.as_str()).filter(|p| p.contains('\n')).last();
    let prefix = match line_start {
        Some(prefix) => format!("\n{}", &prefix[prefix.rfind('\n').map_or(0, |i| i + 1)..]),
        None if array.is_empty() => String::new(),
        None => " ".to_string(),
    };
    value.decor_mut().clear();
    value.decor_mut().set_prefix(prefix);
    array.push_formatted(value);
}

/// Takes the element at `index` out of `array`, keeping the comment lines before it: they go
/// before the element that takes its place (or before the closing bracket), and when that
/// element shared the line of the one removed, it takes the line's start too.
fn remove_keeping_comments(array: &mut toml_edit::Array, index: usize) {
    let removed = array.remove(index);
    let prefix = removed.decor().prefix().and_then(|p| p.as_str()).unwrap_or("").to_string();
    let Some(line) = prefix.rfind('\n') else { return };
    // The comment lines (and blank lines) above the removed element, without the new line that
    // starts the element's own line.
    let above = &prefix[..line];
    match array.get_mut(index) {
        Some(next) => {
            let next_prefix = next.decor().prefix().and_then(|p| p.as_str()).unwrap_or("").to_string();
            let merged = if next_prefix.contains('\n') { format!("{above}{next_prefix}") } else { prefix.clone() };
            next.decor_mut().set_prefix(merged);
        }
        None => {
            let trailing = array.trailing().as_str().unwrap_or("").to_string();
            array.set_trailing(format!("{above}{trailing}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_read_and_print() {
        assert_eq!(
            path("items.bow.stats.range"),
            vec![Seg::Key("items".into()), Seg::Key("bow".into()), Seg::Key("stats".into()), Seg::Key("range".into())]
        );
        assert_eq!(path_text(&path("turn.phases.0.budget")), "turn.phases.0.budget");
    }

    fn list(text: &str) -> (DocumentMut, Vec<Seg>) {
        (text.parse().unwrap(), path("list"))
    }

    fn array(doc: &mut DocumentMut) -> &mut toml_edit::Array {
        doc["list"].as_array_mut().unwrap()
    }

    #[test]
    fn an_element_pushed_takes_a_line_of_its_own_when_the_others_do() {
        let (mut doc, _) = list("list = [\n  # first\n  1, 2,\n  3,\n]\n");
        push_formatted(array(&mut doc), Value::from(4));
        assert_eq!(doc.to_string(), "list = [\n  # first\n  1, 2,\n  3,\n  4,\n]\n");
        let (mut doc, _) = list("list = [1, 2]\n");
        push_formatted(array(&mut doc), Value::from(3));
        assert_eq!(doc.to_string(), "list = [1, 2, 3]\n");
        let (mut doc, _) = list("list = []\n");
        push_formatted(array(&mut doc), Value::from(1));
        assert_eq!(doc.to_string(), "list = [1]\n");
    }

    #[test]
    fn an_element_removed_leaves_the_comments_above_it() {
        let text = "list = [\n  # ones\n  1, 2,\n  # threes\n  3, 4,\n]\n";
        let (mut doc, _) = list(text);
        remove_keeping_comments(array(&mut doc), 0);
        assert_eq!(doc.to_string(), "list = [\n  # ones\n  2,\n  # threes\n  3, 4,\n]\n");
        remove_keeping_comments(array(&mut doc), 0);
        assert_eq!(doc.to_string(), "list = [\n  # ones\n  # threes\n  3, 4,\n]\n");
        remove_keeping_comments(array(&mut doc), 1);
        assert_eq!(doc.to_string(), "list = [\n  # ones\n  # threes\n  3,\n]\n");
        let (mut doc, _) = list("list = [\n  1,\n  # last\n  2,\n]\n");
        remove_keeping_comments(array(&mut doc), 1);
        assert_eq!(doc.to_string(), "list = [\n  1,\n  # last\n]\n");
    }
}
