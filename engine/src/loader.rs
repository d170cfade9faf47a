//! Loading a mod folder: `mod.toml`, every data file, every hook; validation against the
//! schemas; compilation into a frozen [`Ruleset`]. Every problem in the mod is reported at
//! once, located as `file:line:col [table] key`.
//!
//! A mod folder holds `mod.toml`, data files (`*.toml` anywhere except `hooks/` and `tests/`),
//! Lua hooks in `hooks/*.lua`, scenario tests in `tests/*.lua`, and a `README.md`.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use indexmap::IndexMap;
use serde::de::DeserializeOwned;

use crate::board::{BoardSpec, GraphSpaceSpec, GraphSpec};
use crate::defs::{COLLECTIONS, Manifest, ModData, SeatRange};
use crate::diag::{Diagnostic, did_you_mean};
use crate::expr::Span;
use crate::files::{self, Links, ReadError};
use crate::lua::HookRuntime;
use crate::options::{self, Choices};
use crate::rules::{HookSource, PathSeg, Problem, Ruleset, compile_partial};
use crate::source::{self, LoadedData, Location, RawNode, RawValue, Sources};

/// Largest file a mod may contain, so a huge file gives an error instead of exhausting memory.
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// A mod that loaded, with its warnings.
#[derive(Debug)]
pub struct LoadedMod {
    pub ruleset: Arc<Ruleset>,
    pub warnings: Vec<Diagnostic>,
}

/// Where a mod's files are, found without reading them.
#[derive(Clone, Debug)]
pub struct ModFiles {
    pub folder: PathBuf,
    pub manifest: PathBuf,
    pub data: Vec<PathBuf>,
    pub hooks: Vec<PathBuf>,
    /// Scenario test files, `tests/*.lua`, except helpers.
    pub tests: Vec<PathBuf>,
    /// Test helper files, `tests/_*.lua`: loaded before each test file, not run as tests.
    pub test_helpers: Vec<PathBuf>,
    /// Folders the mod must not have as they are: `hooks/` or `tests/` as a symbolic link
    /// (which could lead anywhere on the machine); their files are not listed.
    pub refused: Vec<Diagnostic>,
}

/// Lists a mod folder's files, sorted, so loading order never depends on the file system.
pub fn mod_files(folder: &Path) -> Result<ModFiles, Diagnostic> {
    let manifest = folder.join("mod.toml");
    if !manifest.is_file() {
        return Err(Diagnostic::error(format!("`{}` is not a mod folder: it has no mod.toml", folder.display()))
            .in_file(folder.display().to_string()));
    }
    let mut data = Vec::new();
    collect(folder, folder, &mut data, 0);
    data.retain(|p| p.extension().is_some_and(|e| e == "toml") && *p != manifest);
    data.retain(|p| {
        let relative = p.strip_prefix(folder).unwrap_or(p);
        !matches!(relative.components().next().and_then(|c| c.as_os_str().to_str()), Some("hooks" | "tests"))
    });
    let mut refused = Vec::new();
    for sub in ["hooks", "tests"] {
        let path = folder.join(sub);
        if files::is_link(&path) {
            refused.push(
                Diagnostic::error(format!(
                    "the folder `{sub}` is a symbolic link; a mod's {sub} must be ordinary files in a folder of the \
                     mod itself"
                ))
                .in_file(display(&path)),
            );
        } else if std::fs::symlink_metadata(&path).is_ok_and(|m| !m.is_dir()) {
            // A file, pipe or device named like the folder: its scripts would be silently missing.
            refused.push(
                Diagnostic::error(format!(
                    "`{sub}` is not a folder (a file, device or pipe); a mod's {sub} must be ordinary files in a \
                     folder named `{sub}`"
                ))
                .in_file(display(&path)),
            );
        }
    }
    let list = |sub: &str, ext: &str| -> Vec<PathBuf> {
        // A linked folder is not walked (refused above).
        if !files::is_real_folder(&folder.join(sub)) {
            return Vec::new();
        }
        let mut files: Vec<PathBuf> = std::fs::read_dir(folder.join(sub))
            .map(|entries| {
                entries
                    .flatten()
                    .filter(|e| e.file_type().is_ok_and(|t| !t.is_dir()))
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|e| e == ext))
                    .collect()
            })
            .unwrap_or_default();
        files.sort();
        files
    };
    data.sort();
    let is_helper = |p: &PathBuf| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with('_'));
    let (test_helpers, tests): (Vec<PathBuf>, Vec<PathBuf>) = list("tests", "lua").into_iter().partition(is_helper);
    Ok(ModFiles {
        folder: folder.to_path_buf(),
        manifest,
        data,
        hooks: list("hooks", "lua"),
        tests,
        test_helpers,
        refused,
    })
}

fn collect(root: &Path, dir: &Path, out: &mut Vec<PathBuf>, depth: usize) {
    if depth > 8 {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        // The entry's own type: a link to a folder is not followed (it could lead anywhere).
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            collect(root, &path, out, depth + 1);
        } else {
            out.push(path);
        }
    }
}

/// The path of a file as shown in messages: as the user named the mod folder, plus the file.
/// A mod folder's own name, as Lua chunk names start (`cards/hooks/cards.lua`): the real one
/// when the folder is given as `.` or `..`, which have none.
fn folder_name(folder: &Path) -> String {
    let named = folder.file_name().map(|n| n.to_string_lossy().into_owned());
    named
        .or_else(|| std::fs::canonicalize(folder).ok()?.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_default()
}

fn display(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

/// Reads a file of a mod: an ordinary file of at most [`MAX_FILE_BYTES`], never a symbolic link
/// (which could show a file from anywhere on the machine in an error message) nor a device or
/// pipe (which never end, or block). The refusal names the file.
pub fn read(path: &Path) -> Result<Vec<u8>, Diagnostic> {
    files::read_capped(path, MAX_FILE_BYTES, Links::Refuse).map_err(|error| {
        let message = match error {
            ReadError::Link => "the file is a symbolic link; a mod's files must be ordinary files inside its folder \
                                (to build on another mod, use `extends` in mod.toml)"
                .to_string(),
            ReadError::NotAFile => {
                "this is not an ordinary file (a folder, device or pipe); a mod's files must be ordinary files".into()
            }
            ReadError::TooLarge { bytes, .. } => {
                format!("the file is {bytes} bytes; mod files may be at most {MAX_FILE_BYTES} bytes")
            }
            ReadError::Io(error) => format!("cannot read the file: {error}"),
        };
        Diagnostic::error(message).in_file(display(path))
    })
}

/// A mod file's bytes as loading sees them: the editor's unsaved text (`overlay`), else the new
/// text an interrupted save left waiting under a temporary name (`waiting`, by the file it
/// replaces), else the file.
fn read_through(path: &Path, overlay: &Overlay, waiting: &HashMap<PathBuf, PathBuf>) -> Result<Vec<u8>, Diagnostic> {
    match overlay.get(path) {
        Some(text) => Ok(text.clone().into_bytes()),
        None => read(waiting.get(path).map_or(path, PathBuf::as_path)),
    }
}

/// What an interrupted save of the editor left in `folder` (see [`crate::save::pending_replace`]),
/// read without changing anything: the files whose new texts wait under temporary names go
/// into `waiting`, to be read from there, with a warning saying so. A journal the editor did
/// not write is ignored with a warning located at its faulty line.
fn interrupted_save(folder: &Path, waiting: &mut HashMap<PathBuf, PathBuf>) -> Vec<Diagnostic> {
    let journal = display(&folder.join(crate::save::REPLACE_JOURNAL));
    match crate::save::pending_replace(folder) {
        Ok(None) => Vec::new(),
        Ok(Some(pending)) if pending.is_empty() => Vec::new(),
        Ok(Some(pending)) => {
            let count = pending.len();
            waiting.extend(pending.into_iter().map(|file| (file.target, file.temporary)));
            vec![
                Diagnostic::warning(format!(
                    "a save of this mod in the editor was interrupted: {count} file{} {} read from the new text{} \
                     waiting under a temporary name; open the mod in the editor to finish the save",
                    if count == 1 { "" } else { "s" },
                    if count == 1 { "is" } else { "are" },
                    if count == 1 { "" } else { "s" },
                ))
                .in_file(journal),
            ]
        }
        Err(refused) => vec![
            Diagnostic::warning(format!(
                "{}; this is not a journal of Meeple's editor, so it is ignored and no file is renamed \
                 (delete it)",
                refused.reason
            ))
            .in_file(journal)
            .at(refused.line, 0),
        ],
    }
}

/// Loads, validates and compiles the mod in `folder`, with its setup options at their defaults.
pub fn load_mod(folder: &Path) -> Result<LoadedMod, Vec<Diagnostic>> {
    load_mod_with(folder, &Choices::new())
}

/// Loads the mod in `folder` with setup options chosen (the others at their defaults).
pub fn load_mod_with(folder: &Path, chosen: &Choices) -> Result<LoadedMod, Vec<Diagnostic>> {
    load_mod_edited(folder, chosen, &Overlay::new())
}

/// Texts that stand in for files of a mod folder (by their path under the folder, as
/// [`mod_files`] lists them): the editor checks its unsaved changes by loading through them.
pub type Overlay = std::collections::BTreeMap<PathBuf, String>;

/// Loads the mod in `folder` with setup options chosen, reading the files `overlay` has from it
/// instead of from the disk.
pub fn load_mod_edited(folder: &Path, chosen: &Choices, overlay: &Overlay) -> Result<LoadedMod, Vec<Diagnostic>> {
    load(folder, chosen, overlay, &mut HookCheck::Run(None))
}

/// How a load checks the mod's hooks.
pub(crate) enum HookCheck {
    /// Run the hook files (within their counted limits) and check every `hook("name")`
    /// against the functions they define, which are left here when they all loaded.
    Run(Option<Vec<String>>),
    /// Check every `hook("name")` against functions a load of the same hook files found, without
    /// running them again: `meeple check` loads a mod once per setup choice, and a choice sets
    /// data values, never hooks. `None` when the hook files did not load: their errors were
    /// reported once, and the calls cannot be checked.
    Known(Option<Vec<String>>),
}

/// [`load_mod_edited`], checking the hooks as `hooks` says.
pub(crate) fn load(
    folder: &Path,
    chosen: &Choices,
    overlay: &Overlay,
    hook_check: &mut HookCheck,
) -> Result<LoadedMod, Vec<Diagnostic>> {
    let files = mod_files(folder).map_err(|d| vec![d])?;
    let mut problems = files.refused.clone();
    // Loading never changes a file. An editor killed while saving several files left their new
    // texts under temporary names and a journal naming them: the mod is read as that save
    // finishes, from the temporary files, and the editor renames them when it opens the mod.
    let mut waiting = HashMap::new();
    problems.extend(interrupted_save(folder, &mut waiting));
    let manifest_bytes = read_through(&files.manifest, overlay, &waiting).map_err(|d| vec![d])?;
    let manifest_data = source::load_files(vec![(display(&files.manifest), manifest_bytes)], &[]);
    let (manifest, manifest_ok) = match manifest_data.decode::<Manifest>() {
        Ok(manifest) => (manifest, true),
        Err(mut d) => {
            if manifest_data.has_errors() {
                // A manifest that could not be read or parsed explains every key it seems to lack.
                d.retain(|p| !(p.table.is_none() && p.message.starts_with("missing required key")));
            }
            problems.append(&mut d);
            (broken_manifest(), false)
        }
    };

    // A variant's data lies over the data of the mods it extends, base first.
    let bases = match extended_mods(folder, &manifest) {
        Ok(bases) => bases,
        Err(problem) => {
            // Without the mod it extends, the variant's data cannot be checked.
            let loc = manifest_data.root.get("extends").map(|n| n.loc);
            let mut located = locate_loc(&manifest_data.sources, loc, "", Some("extends"), problem.message);
            located.suggestion = problem.suggestion;
            problems.push(located.in_file(display(&files.manifest)));
            return Err(finish(problems));
        }
    };
    let mut base_files = Vec::new();
    for base in &bases {
        let listed = mod_files(base).map_err(|d| vec![d])?;
        problems.extend(listed.refused.iter().cloned());
        problems.extend(interrupted_save(base, &mut waiting));
        base_files.push(listed);
    }
    let read = |path: &Path| read_through(path, overlay, &waiting);
    // Whether a data file could not be read: the keys and tables it holds then seem missing.
    let mut unreadable = false;
    let mut layers = Vec::new();
    let mut base_hooks = Vec::new();
    for (base, listed) in bases.iter().zip(&base_files) {
        let mut layer = Vec::new();
        for path in &listed.data {
            match read(path) {
                Ok(bytes) => layer.push((display(path), bytes)),
                Err(d) => {
                    unreadable = true;
                    problems.push(d);
                }
            }
        }
        layers.push(layer);
        base_hooks.extend(listed.hooks.iter().map(|p| (base.clone(), p.clone())));
    }
    let mut inputs = Vec::new();
    for path in &files.data {
        match read(path) {
            Ok(bytes) => inputs.push((display(path), bytes)),
            Err(d) => {
                unreadable = true;
                problems.push(d);
            }
        }
    }
    let no_data = inputs.is_empty() && bases.is_empty();
    if no_data {
        problems.push(
            Diagnostic::error(
                "the mod has no data files: add a .toml file next to mod.toml with at least a `[board]` \
                 table (docs/modding/tutorial.md, step 2, shows one)",
            )
            .in_file(display(folder)),
        );
    }
    layers.push(inputs);
    let mut data_files = source::load_layers(layers, COLLECTIONS);
    let (chosen_options, mut option_problems) =
        options::apply(&mut data_files.root, chosen, &data_files.sources, manifest.seats);
    // A chosen board that is not there explains a missing `[board]`.
    let board_misnamed = option_problems.iter().any(|p| p.message.starts_with("no board `"));
    problems.append(&mut option_problems);
    // Schema problems are reported, and whatever did read correctly is still compiled, so
    // mistakes in expressions and references show up in the same run.
    let mut broken = BTreeSet::new();
    // A data file that could not be read or parsed is missing from the merged data: the tables
    // and keys it holds seem missing, and the names it defines unknown. Those problems follow
    // from its own, which is reported; they are not reported besides.
    let incomplete = unreadable
        || data_files
            .diagnostics
            .iter()
            .any(|d| d.is_error() && (d.message.starts_with("invalid TOML") || d.message.contains("not valid UTF-8")));
    let data = match data_files.decode::<ModData>() {
        Ok(data) => data,
        Err(mut d) => {
            if board_misnamed {
                d.retain(|p| !(p.message.starts_with("missing required key") && p.key.as_deref() == Some("board")));
            }
            if incomplete {
                d.retain(|p| !p.message.starts_with("missing required key"));
            } else if data_files.has_errors() || no_data {
                // No data file at all, or one that could not be merged, explains any missing
                // top-level table.
                d.retain(|p| !(p.table.is_none() && p.message.starts_with("missing required key")));
            }
            let mut value = data_files.root.to_toml_value();
            for problem in &d {
                repair(&mut value, problem);
            }
            drop_removed(&mut value);
            problems.append(&mut d);
            lenient_data(&value, &mut broken)
        }
    };

    for problem in item_stat_problems(&data) {
        problems.push(locate_problem(&data_files, &problem));
    }
    // A variant's images first, then those of the mods it extends, nearest first.
    let image_folders: Vec<PathBuf> =
        std::iter::once(folder.to_path_buf()).chain(bases.iter().rev().cloned()).collect();
    let (images, image_problems) = crate::images::find_all(&data, &image_folders);
    for problem in image_problems {
        problems.push(locate_problem(&data_files, &problem));
    }

    let mut hooks = Vec::new();
    // The extended mods' hooks first, so the variant's functions of the same name replace them.
    let own_hooks = files.hooks.iter().map(|p| (folder.to_path_buf(), p.clone()));
    for (owner, path) in base_hooks.into_iter().chain(own_hooks) {
        let path = &path;
        match read(path).and_then(|bytes| {
            // Located at the first bad byte, like a data file's.
            String::from_utf8(bytes).map_err(|error| {
                Sources::new().add_bytes(display(path), error.into_bytes()).err().unwrap_or_else(|| {
                    Diagnostic::error("the file is not valid UTF-8 text; save it as UTF-8").in_file(display(path))
                })
            })
        }) {
            Ok(text) => {
                let folder_name = folder_name(&owner);
                let file_name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
                let chunk_name = format!("{folder_name}/hooks/{file_name}");
                hooks.push(HookSource { display_path: display(path), chunk_name, text })
            }
            Err(d) => problems.push(d),
        }
    }

    // `meeple check .` names the folder by its real name, not `.`.
    let real_folder = std::fs::canonicalize(folder).unwrap_or_else(|_| folder.to_path_buf());
    if let Some(expected) = real_folder.file_name().and_then(|n| n.to_str())
        && manifest_ok
        && manifest.id != expected
    {
        let loc = manifest_data.root.get("id").map(|n| n.loc);
        let d = locate_loc(
            &manifest_data.sources,
            loc,
            "",
            Some("id"),
            format!(
                "the mod id `{}` differs from its folder name `{expected}`: rename the folder or set \
                 `id = \"{expected}\"`",
                manifest.id
            ),
        );
        problems.push(d);
    }
    let manifest_for_errors = manifest_data;
    // Hooks are loaded for real only into a mod that compiled; otherwise their syntax is still
    // checked, so every problem of the mod shows in one go.
    let hook_syntax = |hooks: &[HookSource]| -> Vec<Diagnostic> {
        HookRuntime::syntax_errors(hooks)
            .into_iter()
            .map(|error| Diagnostic::error(error.message).in_file(error.file).at(error.line, 0))
            .collect()
    };
    let hook_sources = hooks.clone();
    let mut ruleset = match compile_partial(manifest, data, hooks, &broken) {
        // Warnings (an interrupted save read whole) do not keep a mod from loading.
        Ok(ruleset) if !problems.iter().any(Diagnostic::is_error) => ruleset,
        Ok(_) => {
            problems.extend(hook_syntax(&hook_sources));
            return Err(finish(problems));
        }
        Err(compile_problems) => {
            problems.extend(hook_syntax(&hook_sources));
            for problem in compile_problems {
                if incomplete && problem.message.starts_with("unknown ") {
                    continue;
                }
                // Manifest problems (id, api, seats, version) point into mod.toml.
                let in_manifest = matches!(problem.path.first(), Some(PathSeg::Key(k)) if ["id", "api", "seats", "version"].contains(&k.as_str()))
                    && problem.path.len() <= 2;
                let target = if in_manifest { &manifest_for_errors } else { &data_files };
                problems.push(locate_problem(target, &problem));
            }
            return Err(finish(problems));
        }
    };
    ruleset.folder = Some(folder.to_path_buf());
    ruleset.chosen_options = chosen_options;
    ruleset.rule_locations = rule_locations(&data_files);
    ruleset.images = images;
    let ruleset = Arc::new(ruleset);

    // A `hook("name")` that no hook file defines, located where the data calls it.
    let missing = |reference: &crate::rules::HookRef, defined: &[String]| {
        let problem = Problem {
            path: reference.path.clone(),
            span: Some(reference.span),
            message: missing_hook_message(&ruleset.hooks, &reference.name),
            suggestion: did_you_mean(&reference.name, defined.iter().map(String::as_str)),
        };
        locate_problem(&data_files, &problem)
    };
    if let HookCheck::Known(known) = hook_check {
        let defined = known.as_deref().unwrap_or_default();
        for reference in ruleset.hook_refs.iter().filter(|_| known.is_some()) {
            if !defined.contains(&reference.name) {
                problems.push(missing(reference, defined));
            }
        }
    } else if !ruleset.hooks.is_empty() || !ruleset.hook_names.is_empty() {
        match HookRuntime::load_all(ruleset.clone()) {
            Ok(runtime) => {
                let defined = runtime.defined_functions();
                let absent = runtime.missing_functions(&ruleset);
                for reference in &ruleset.hook_refs {
                    if absent.contains(&reference.name.as_str()) {
                        problems.push(missing(reference, &defined));
                    }
                }
                if let HookCheck::Run(found) = hook_check {
                    *found = Some(defined);
                }
            }
            Err(errors) => {
                for error in errors {
                    problems.push(Diagnostic::error(error.message).in_file(error.file).at(error.line, 0));
                }
            }
        }
    }
    if problems.iter().any(Diagnostic::is_error) {
        return Err(finish(problems));
    }
    Ok(LoadedMod { ruleset, warnings: problems })
}

/// Items' numbers outside the bounds `[item_stats]` declares, and bounds declared for a number
/// no item gives (a misspelt name would otherwise bound nothing).
fn item_stat_problems(data: &ModData) -> Vec<Problem> {
    let key = |k: &str| PathSeg::Key(k.to_string());
    let mut problems = Vec::new();
    for (name, bounds) in &data.item_stats {
        let given = data.items.values().any(|item| item.stats.contains_key(name));
        if !given {
            let names = data.items.values().flat_map(|item| item.stats.keys().map(String::as_str));
            problems.push(Problem {
                path: vec![key("item_stats"), key(name)],
                span: None,
                message: format!("no item gives a number `{}` to bound", crate::diag::shown(name)),
                suggestion: did_you_mean(name, names),
            });
        }
        if let (Some(min), Some(max)) = (bounds.min, bounds.max)
            && min > max
        {
            problems.push(Problem {
                path: vec![key("item_stats"), key(name), key("min")],
                span: None,
                message: format!("`min` ({min}) is larger than `max` ({max})"),
                suggestion: None,
            });
        }
    }
    for (id, item) in &data.items {
        for (name, &value) in &item.stats {
            let Some(bounds) = data.item_stats.get(name) else { continue };
            let outside = match (bounds.min, bounds.max) {
                (Some(min), _) if value < min => Some(format!("at least {min}")),
                (_, Some(max)) if value > max => Some(format!("at most {max}")),
                _ => None,
            };
            if let Some(bound) = outside {
                problems.push(Problem {
                    path: vec![key("items"), key(id), key("stats"), key(name)],
                    span: None,
                    message: format!(
                        "`{}` is {value}, but `[item_stats.{}]` allows {bound}",
                        crate::diag::shown(name),
                        crate::diag::shown(name)
                    ),
                    suggestion: None,
                });
            }
        }
    }
    problems
}

/// Where each rule that can fail at run time is written, by the name run-time errors give it:
/// `actions.attack.effect`, `triggers[0].when`, and for lists of entries with ids both
/// `turn.phases[1].on_start` and `turn.phases.move.on_start`.
fn rule_locations(data: &LoadedData) -> HashMap<String, String> {
    // The tables whose strings are formulas and effects; the rest of a mod (boards, pieces,
    // texts) can be large and never runs.
    const RULE_TABLES: [&str; 8] = ["actions", "triggers", "end", "setup", "turn", "ai", "formulas", "effects"];
    fn walk(sources: &Sources, node: &RawNode, names: &[String], found: &mut HashMap<String, String>) {
        let location = sources.describe(node.loc);
        for name in names {
            found.insert(name.clone(), location.clone());
        }
        match &node.value {
            RawValue::Table(table) => {
                for (key, child) in table.iter() {
                    let key = source::format_key(key);
                    let child_names: Vec<String> = names.iter().map(|n| format!("{n}.{key}")).collect();
                    walk(sources, child, &child_names, found);
                }
            }
            RawValue::Array(items) => {
                for (index, child) in items.iter().enumerate() {
                    let mut child_names: Vec<String> = names.iter().map(|n| format!("{n}[{index}]")).collect();
                    if let Some(id) = child.get("id").and_then(RawNode::as_str) {
                        let id = source::format_key(id);
                        child_names.extend(names.iter().map(|n| format!("{n}.{id}")));
                    }
                    walk(sources, child, &child_names, found);
                }
            }
            _ => {}
        }
    }
    let mut found = HashMap::new();
    // A generated board can fail to build when a game starts (its shape depends on the seed).
    if let Some(board) = data.root.get("board") {
        found.insert("board".to_string(), data.sources.describe(board.loc));
    }
    for table in RULE_TABLES {
        if let Some(node) = data.root.get(table) {
            walk(&data.sources, node, &[table.to_string()], &mut found);
        }
    }
    found
}

/// The folders of the mods `manifest` extends, the most basic first (a variant of a variant
/// lies over both). Each is looked for next to `folder`, then among the bundled mods.
fn extended_mods(folder: &Path, manifest: &Manifest) -> Result<Vec<PathBuf>, Diagnostic> {
    let mut chain: Vec<PathBuf> = Vec::new();
    let mut next = manifest.extends.clone();
    let mut seen = vec![manifest.id.clone()];
    while let Some(id) = next {
        if seen.contains(&id) {
            return Err(Diagnostic::error(format!("`extends` goes round in a circle: {} → {id}", seen.join(" → ")))
                .with_key("extends"));
        }
        if chain.len() >= 8 {
            return Err(Diagnostic::error("`extends` chains at most 8 mods").with_key("extends"));
        }
        // A mod id, never a path: a variant reaches only mods beside it or bundled ones.
        if !is_mod_id(&id) {
            return Err(Diagnostic::error(format!(
                "`extends = \"{id}\"` is not a mod id: write the id of a mod next to this one or a bundled \
                 mod (lowercase letters, digits and `_`), not a path"
            ))
            .with_key("extends"));
        }
        let beside = folder.parent().map(|p| p.join(&id));
        let bundled = bundled_mods_dir().join(&id);
        let found = [beside, Some(bundled)].into_iter().flatten().find(|f| f.join("mod.toml").is_file());
        // A linked folder is not walked: the link could lead anywhere on the machine.
        if let Some(linked) = found.as_ref().filter(|f| files::is_link(f)) {
            return Err(Diagnostic::error(format!(
                "`extends = \"{id}\"`: `{}` is a symbolic link; the mod extended must be a folder of its own, not \
                 a link",
                display(linked)
            ))
            .with_key("extends"));
        }
        let Some(base) = found else {
            let near: Vec<String> = folder
                .parent()
                .map(|p| {
                    discover(p).iter().filter_map(|f| f.file_name().map(|n| n.to_string_lossy().to_string())).collect()
                })
                .unwrap_or_default();
            return Err(Diagnostic::error(format!(
                "`extends = \"{id}\"`: there is no mod `{id}` next to this one or among the bundled mods"
            ))
            .with_key("extends")
            .with_suggestion(did_you_mean(&id, near.iter().map(String::as_str))));
        };
        let text = read(&base.join("mod.toml")).ok().and_then(|b| String::from_utf8(b).ok()).unwrap_or_default();
        let base_manifest: Option<Manifest> = toml::from_str(&text).ok();
        next = base_manifest.and_then(|m| m.extends);
        seen.push(id);
        chain.push(base);
    }
    chain.reverse();
    Ok(chain)
}

/// Mends what a schema problem is about so the rest of its table can still be read and its
/// expressions checked: a misspelled key or value is replaced by the suggestion, anything else
/// wrong is removed. Missing required keys cannot be mended.
fn repair(root: &mut toml::Value, problem: &Diagnostic) {
    let (Some(table), Some(key)) = (problem.table.as_deref(), problem.key.as_deref()) else { return };
    if problem.message.starts_with("missing required key") {
        return;
    }
    if problem.message.contains("is defined twice") {
        // The entry kept is the first definition, which is fine: removing it would make every
        // use of the id an "unknown" one too.
        return;
    }
    let Some(path) = parse_path(table) else { return };
    let mut node = root;
    for segment in path {
        node = match (segment, node) {
            (PathSeg::Key(k), toml::Value::Table(t)) => match t.get_mut(&k) {
                Some(next) => next,
                None => return,
            },
            (PathSeg::Index(i), toml::Value::Array(a)) => match a.get_mut(i) {
                Some(next) => next,
                None => return,
            },
            _ => return,
        };
    }
    let toml::Value::Table(t) = node else { return };
    let key = key.trim_matches('"');
    // Entries are not removed here but marked, and `drop_removed` takes them all out in one
    // pass: removing from an ordered table shifts every later entry, and a file of 100 000
    // unknown keys made that quadratic (minutes).
    match problem.suggestion.as_deref() {
        Some(better) if problem.message.starts_with("unknown value") => {
            t.insert(key.to_string(), toml::Value::String(better.to_string()));
        }
        Some(better) if problem.message.starts_with("unknown key") && !t.contains_key(better) => {
            if let Some(value) = t.get_mut(key) {
                let value = std::mem::replace(value, removed_marker());
                t.insert(better.to_string(), value);
            }
        }
        _ => {
            if let Some(value) = t.get_mut(key) {
                *value = removed_marker();
            }
        }
    }
}

/// What [`repair`] leaves in place of an entry it removes.
fn removed_marker() -> toml::Value {
    toml::Value::String("\u{0}removed by the loader".to_string())
}

/// Takes out every entry [`repair`] marked as removed, in one pass over the tree.
fn drop_removed(value: &mut toml::Value) {
    let marker = removed_marker();
    match value {
        toml::Value::Table(table) => {
            table.retain(|_, v| *v != marker);
            table.iter_mut().for_each(|(_, v)| drop_removed(v));
        }
        toml::Value::Array(items) => items.iter_mut().for_each(drop_removed),
        _ => {}
    }
}

/// Parses a path as `source::format_path` writes it: `a.b."c d".e[1]`.
fn parse_path(text: &str) -> Option<Vec<PathSeg>> {
    let mut path = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        match c {
            '.' => {
                chars.next();
            }
            '[' => {
                chars.next();
                let digits: String = chars.by_ref().take_while(|c| *c != ']').collect();
                path.push(PathSeg::Index(digits.parse().ok()?));
            }
            '"' => {
                chars.next();
                let mut key = String::new();
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => key.push(chars.next()?),
                        '"' => break,
                        other => key.push(other),
                    }
                }
                path.push(PathSeg::Key(key));
            }
            _ => {
                let mut key = String::new();
                while let Some(&c) = chars.peek() {
                    if c == '.' || c == '[' {
                        break;
                    }
                    key.push(c);
                    chars.next();
                }
                path.push(PathSeg::Key(key));
            }
        }
    }
    Some(path)
}

/// The manifest to compile with when `mod.toml` itself is broken (its problems are reported).
fn broken_manifest() -> Manifest {
    Manifest {
        id: "broken".into(),
        name: String::new(),
        version: "0.0.0".into(),
        api: crate::defs::ENGINE_API_VERSION,
        description: String::new(),
        seats: SeatRange { min: 1, max: 16, default: None, by_side: None },
        authors: Vec::new(),
        extends: None,
    }
}

/// Reads what can be read of data that failed validation: each section, and each entry of a
/// collection, on its own. Whatever fails is left out and its name recorded in `broken`, so
/// references to it are not reported a second time.
fn lenient_data(root: &toml::Value, broken: &mut BTreeSet<String>) -> ModData {
    let empty = toml::Table::new();
    let table = root.as_table().unwrap_or(&empty);
    fn part<T: DeserializeOwned + Default>(table: &toml::Table, key: &str, broken: &mut BTreeSet<String>) -> T {
        match table.get(key) {
            None => T::default(),
            Some(value) => value.clone().try_into().unwrap_or_else(|_| {
                broken.insert(format!("[{key}]"));
                T::default()
            }),
        }
    }
    fn collection<T: DeserializeOwned>(
        table: &toml::Table,
        key: &str,
        broken: &mut BTreeSet<String>,
    ) -> IndexMap<String, T> {
        let mut out = IndexMap::new();
        if let Some(entries) = table.get(key).and_then(toml::Value::as_table) {
            for (id, value) in entries {
                match value.clone().try_into() {
                    Ok(entry) => {
                        out.insert(id.clone(), entry);
                    }
                    Err(_) => {
                        broken.insert(id.clone());
                    }
                }
            }
        }
        out
    }
    let board = match table.get("board").map(|b| b.clone().try_into::<BoardSpec>()) {
        Some(Ok(board)) => board,
        _ => {
            broken.insert("[board]".into());
            BoardSpec::Graph(GraphSpec {
                terrain: None,
                spaces: vec![GraphSpaceSpec { id: "broken".into(), terrain: None, pos: None, home: None, name: None }],
                links: Vec::new(),
            })
        }
    };
    let mut triggers = Vec::new();
    if let Some(list) = table.get("triggers").and_then(toml::Value::as_array) {
        for value in list {
            if let Ok(trigger) = value.clone().try_into() {
                triggers.push(trigger);
            }
        }
    }
    ModData {
        board,
        boards: collection(table, "boards", broken),
        terrain: collection(table, "terrain", broken),
        space_counters: collection(table, "space_counters", broken),
        space_figures: collection(table, "space_figures", broken),
        resources: collection(table, "resources", broken),
        stats: collection(table, "stats", broken),
        vars: collection(table, "vars", broken),
        item_stats: collection(table, "item_stats", broken),
        pieces: collection(table, "pieces", broken),
        items: collection(table, "items", broken),
        cards: collection(table, "cards", broken),
        decks: collection(table, "decks", broken),
        seats: part(table, "seats", broken),
        setup: part(table, "setup", broken),
        ai: part(table, "ai", broken),
        turn: part(table, "turn", broken),
        formulas: collection(table, "formulas", broken),
        effects: collection(table, "effects", broken),
        actions: collection(table, "actions", broken),
        triggers,
        end: part(table, "end", broken),
        options: collection(table, "options", broken),
    }
}

fn finish(mut problems: Vec<Diagnostic>) -> Vec<Diagnostic> {
    // A misspelled required key is one mistake: "unknown key `lable`; did you mean `label`?"
    // already says what "missing required key `label`" would.
    let misspelled: Vec<(Option<String>, Option<String>, String)> = problems
        .iter()
        .filter(|p| p.message.starts_with("unknown key"))
        .filter_map(|p| Some((p.file.clone(), p.table.clone(), p.suggestion.clone()?)))
        .collect();
    problems.retain(|p| {
        !(p.message.starts_with("missing required key")
            && misspelled.iter().any(|(file, table, meant)| {
                *file == p.file && *table == p.table && p.key.as_deref() == Some(meant.as_str())
            }))
    });
    source::sort_diagnostics(&mut problems);
    problems.dedup();
    if problems.len() > MAX_PROBLEMS {
        let more = problems.len() - MAX_PROBLEMS;
        let last_file = problems[MAX_PROBLEMS].file.clone();
        problems.truncate(MAX_PROBLEMS);
        let mut rest = Diagnostic::error(format!(
            "… and {more} more problems from here on, not shown: fix these first (at most {MAX_PROBLEMS} are reported)"
        ));
        rest.file = last_file;
        problems.push(rest);
    }
    problems
}

/// The most problems one load reports: enough to fix a broken mod from the top, short of a
/// report of megabytes for a file of 100 000 mistakes.
pub const MAX_PROBLEMS: usize = 1_000;

/// Turns a compile problem (key path plus a span inside an expression string) into a located
/// diagnostic.
fn locate_problem(data: &LoadedData, problem: &Problem) -> Diagnostic {
    let path = data.root.keys_for_indices(&problem.path);
    // The deepest existing node on the path: defaults have no node of their own.
    let mut depth = path.len();
    let node = loop {
        if let Some(node) = data.root.find(&path[..depth]) {
            break Some(node);
        }
        if depth == 0 {
            break None;
        }
        depth -= 1;
    };
    let (table, key) = split_path(&path);
    let mut loc = node.map(|n| if depth == path.len() { n.loc } else { n.key_or_value_loc() });
    if let (Some(node), Some(span), true) = (node, problem.span, depth == path.len()) {
        if let RawValue::String(text) = &node.value {
            loc = Some(string_position(&data.sources, node.loc, text, span));
        }
    }
    let mut d = locate_loc(&data.sources, loc, &table, key.as_deref(), problem.message.clone());
    d.suggestion = problem.suggestion.clone();
    d
}

/// The location of byte `span.start` of a string value's text, accounting for the quotes, the
/// newline that opens a multi-line string, and escapes.
fn string_position(sources: &Sources, loc: Location, text: &str, span: Span) -> Location {
    let Some(file) = sources.file(loc.file) else { return loc };
    let raw = file.text.get(loc.start..loc.end).unwrap_or("");
    let multiline = raw.starts_with("\"\"\"") || raw.starts_with("'''");
    let opening = if multiline {
        3
    } else if raw.starts_with('"') || raw.starts_with('\'') {
        1
    } else {
        0
    };
    let mut body_start = opening.min(raw.len());
    if multiline {
        // TOML drops a newline right after the opening quotes.
        let after = &raw[body_start..];
        body_start += if after.starts_with("\r\n") { 2 } else { usize::from(after.starts_with('\n')) };
    }
    let body = &raw[body_start..];
    let basic = raw.starts_with('"');
    // When the source cannot be matched with the text, point at the start of the string rather
    // than somewhere wrong.
    let start = raw_offset(body, text, basic, span.start as usize).unwrap_or(0);
    let end = raw_offset(body, text, basic, span.end as usize).unwrap_or(start).max(start);
    let at = |offset: usize| (loc.start + body_start + offset).min(loc.end);
    Location { file: loc.file, start: at(start), end: at(end) }
}

/// The byte offset in `body` (a string's source after its opening quotes) where byte `target` of
/// its decoded `text` is written: escapes (`\"`, `\u00e9`, a line-ending backslash) take more
/// source than text. `None` when the two do not match up.
fn raw_offset(body: &str, text: &str, basic: bool, target: usize) -> Option<usize> {
    let (raw, decoded) = (body.as_bytes(), text.as_bytes());
    let (mut r, mut d) = (0, 0);
    while d < target {
        if basic && raw.get(r) == Some(&b'\\') {
            let width = match raw.get(r + 1)? {
                b'u' => 6,
                b'U' => 10,
                b'x' => 4,
                b'b' | b't' | b'n' | b'f' | b'r' | b'"' | b'\\' | b'e' => 2,
                b' ' | b'\t' | b'\r' | b'\n' => {
                    // A line-ending backslash: it and the whitespace after it stand for nothing.
                    r += 1;
                    while raw.get(r).is_some_and(|b| b.is_ascii_whitespace()) {
                        r += 1;
                    }
                    continue;
                }
                _ => return None,
            };
            r += width;
            d += text.get(d..)?.chars().next()?.len_utf8();
        } else if raw.get(r) == decoded.get(d) {
            r += 1;
            d += 1;
        } else if raw.get(r..r + 2) == Some(b"\r\n") && decoded.get(d) == Some(&b'\n') {
            r += 2;
            d += 1;
        } else {
            return None;
        }
    }
    (d == target).then_some(r)
}

fn split_path(path: &[PathSeg]) -> (String, Option<String>) {
    let last_key = path.iter().rposition(|s| matches!(s, PathSeg::Key(_)));
    match last_key {
        Some(i) => {
            let key = source::format_path(&path[i..]);
            (source::format_path(&path[..i]), Some(key))
        }
        None => (source::format_path(path), None),
    }
}

fn locate_loc(sources: &Sources, loc: Option<Location>, table: &str, key: Option<&str>, message: String) -> Diagnostic {
    let mut d = match loc {
        Some(loc) => sources.diagnostic(loc, message),
        None => Diagnostic::error(message),
    };
    d = d.in_table(table);
    if let Some(key) = key {
        d = d.with_key(key);
    }
    d
}

/// Every mod folder directly inside `root` (folders with a `mod.toml`), sorted by name. A link
/// among them is not a mod folder: a folder of mods is walked like a mod's folder.
pub fn discover(root: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(root)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                .map(|e| e.path())
                .filter(|p| p.join("mod.toml").is_file())
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

/// Where the bundled mods are: `$MEEPLE_MODS`, else `mods/` next to the current directory or
/// above the running executable (so `cargo run` from the workspace finds them).
pub fn bundled_mods_dir() -> PathBuf {
    if let Ok(dir) = std::env::var("MEEPLE_MODS") {
        return PathBuf::from(dir);
    }
    let cwd = PathBuf::from("mods");
    if cwd.is_dir() {
        return cwd;
    }
    if let Ok(exe) = std::env::current_exe() {
        for ancestor in exe.ancestors().skip(1) {
            let candidate = ancestor.join("mods");
            if candidate.join(".").is_dir() && discover(&candidate).iter().any(|_| true) {
                return candidate;
            }
        }
    }
    cwd
}

/// Whether `id` is a mod id, as `mod.toml` must write it: lowercase ASCII letters, digits and
/// `_`, not empty. An id is never a path: no `/`, `.` or `..` can be in it.
pub fn is_mod_id(id: &str) -> bool {
    !id.is_empty() && id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// Finds the mod a save or another file names by `id` among the mods in `folders` (the bundled
/// mods, the user's mods), in order: never a path. An `id` that is not a mod id is refused.
pub fn find_mod_by_id(id: &str, folders: &[PathBuf]) -> Result<PathBuf, Diagnostic> {
    if !is_mod_id(id) {
        let shown: String = id.chars().take(48).collect();
        let cut = if shown.len() < id.len() { "…" } else { "" };
        return Err(Diagnostic::error(format!(
            "`{shown}{cut}` is not a mod id (lowercase letters, digits and `_`): a mod is named by its id here, never \
             by a path"
        )));
    }
    for root in folders {
        if let Some(found) = discover(root).into_iter().find(|f| f.file_name().is_some_and(|n| n == id)) {
            return Ok(found);
        }
    }
    let known: Vec<String> = folders
        .iter()
        .flat_map(|root| discover(root))
        .filter_map(|p| p.file_name()?.to_str().map(String::from))
        .collect();
    let looked: Vec<String> = folders.iter().map(|f| display(f)).collect();
    Err(Diagnostic::error(format!("no mod `{id}` is installed (looked in {})", looked.join(", ")))
        .with_suggestion(did_you_mean(id, known.iter().map(String::as_str))))
}

/// Resolves a mod named on the command line: a path to a folder, or the id of a bundled mod.
pub fn resolve_mod(name: &str) -> Result<PathBuf, Diagnostic> {
    let path = PathBuf::from(name);
    if path.join("mod.toml").is_file() {
        return Ok(path);
    }
    let bundled = bundled_mods_dir();
    let candidate = bundled.join(name);
    if candidate.join("mod.toml").is_file() {
        return Ok(candidate);
    }
    let known: Vec<String> =
        discover(&bundled).iter().filter_map(|p| p.file_name()?.to_str().map(String::from)).collect();
    Err(Diagnostic::error(format!("no mod `{name}`: not a folder with a mod.toml, and not a bundled mod"))
        .with_suggestion(did_you_mean(name, known.iter().map(String::as_str))))
}

/// Says that no hook file defines a global function `name`, and where a `local` one by that
/// name hides from the data (a common slip: the data can only call global functions).
fn missing_hook_message(hooks: &[HookSource], name: &str) -> String {
    let local = format!("local function {name}");
    let hidden = hooks.iter().find_map(|hook| {
        hook.text
            .lines()
            .position(|line| {
                let line = line.trim_start();
                line.strip_prefix(&local).is_some_and(|rest| rest.trim_start().starts_with('('))
            })
            .map(|index| format!("{}:{}", hook.display_path, index + 1))
    });
    match hidden {
        Some(at) => format!(
            "no hook file defines a global function `{name}`; {at} defines a `local` one, which the data cannot call: drop `local`"
        ),
        None => format!("no hook file defines a global function `{name}`"),
    }
}

/// The Lua syntax errors of a mod's scenario tests (`tests/*.lua`), so `meeple check` finds a
/// broken test file before `meeple test` runs it.
pub fn scenario_syntax_problems(folder: &Path) -> Vec<Diagnostic> {
    // Listed as loading lists them: a linked `tests` folder is refused, not walked.
    let listed = match mod_files(folder) {
        Ok(listed) => listed,
        Err(problem) => return vec![problem],
    };
    if !listed.refused.is_empty() {
        return listed.refused;
    }
    let mut paths: Vec<PathBuf> = listed.tests.into_iter().chain(listed.test_helpers).collect();
    paths.sort();
    let folder_name = folder_name(folder);
    let mut problems = Vec::new();
    let mut sources = Vec::new();
    for path in &paths {
        match read(path).map(String::from_utf8) {
            Ok(Ok(text)) => {
                let file_name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
                let chunk_name = format!("{folder_name}/tests/{file_name}");
                sources.push(HookSource { display_path: display(path), chunk_name, text });
            }
            Ok(Err(_)) => problems
                .push(Diagnostic::error("the file is not valid UTF-8 text; save it as UTF-8").in_file(display(path))),
            Err(d) => problems.push(d),
        }
    }
    problems.extend(
        HookRuntime::syntax_errors(&sources)
            .into_iter()
            .map(|error| Diagnostic::error(error.message).in_file(error.file).at(error.line, 0)),
    );
    problems
}
