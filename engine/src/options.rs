//! Setup options: the choices a mod offers before a game (map size, starting money, a variant
//! rule). Each choice sets data values by dotted path; the chosen ones are written into the
//! merged data tree before it is validated, so a chosen value is checked like any value written
//! in place, and its problems point at the option's line. A game's setup records its choices,
//! and replaying it loads the mod with them.

use std::collections::BTreeMap;
use std::path::Path;

use indexmap::IndexMap;

use crate::defs::{OptionDef, SeatRange};
use crate::diag::{Diagnostic, did_you_mean};
use crate::loader::{HookCheck, LoadedMod, mod_files};
use crate::source::{RawNode, RawValue, Sources};

/// Chosen options: option id → choice id.
pub type Choices = BTreeMap<String, String>;

/// Setup options one mod may declare. `meeple check` loads a mod once per choice, so these
/// bound what checking a mod costs.
pub const MAX_OPTIONS: usize = 16;
/// Choices one option may offer.
pub const MAX_CHOICES: usize = 32;
/// Choices of all options together: `meeple check` loads the mod at most this many times.
pub const MAX_CHOICES_IN_ALL: usize = 64;
/// Data `meeple check` loads again for a mod's choices, all loads together: a mod of 1 MiB has
/// every one of its choices checked, a mod of 8 MiB two of them.
pub const MAX_CHECKED_BYTES: u64 = 16 << 20;

/// Problems with how many options and choices a mod declares, located at the tables that hold
/// too many.
fn count_problems(options: &crate::source::RawTable, options_node: &RawNode, sources: &Sources) -> Vec<Diagnostic> {
    let mut problems = Vec::new();
    if options.len() > MAX_OPTIONS {
        problems.push(
            sources
                .diagnostic(
                    options_node.key_or_value_loc(),
                    format!("the mod declares {} setup options; a mod may have at most {MAX_OPTIONS}", options.len()),
                )
                .in_table("options"),
        );
    }
    let mut in_all = 0usize;
    for (id, option) in options.iter() {
        let Some(choices) = option.get("choices") else { continue };
        let count = choices.as_table().map_or(0, |c| c.len());
        in_all += count;
        if count > MAX_CHOICES {
            problems.push(
                sources
                    .diagnostic(
                        choices.key_or_value_loc(),
                        format!("the option offers {count} choices; an option may offer at most {MAX_CHOICES}"),
                    )
                    .in_table(format!("options.{}", crate::diag::shown(id)))
                    .with_key("choices"),
            );
        }
    }
    if in_all > MAX_CHOICES_IN_ALL && problems.is_empty() {
        problems.push(
            sources
                .diagnostic(
                    options_node.key_or_value_loc(),
                    format!(
                        "the options offer {in_all} choices in all; a mod may offer at most {MAX_CHOICES_IN_ALL} \
                     (`meeple check` loads the mod once for each)"
                    ),
                )
                .in_table("options"),
        );
    }
    problems
}

/// Writes the values of the chosen options (each option's default when `chosen` does not name
/// it) into `root`. Returns every option's choice and the problems met: an unknown option or
/// choice asked for, a default naming no choice, a path naming no table of the data.
pub fn apply(root: &mut RawNode, chosen: &Choices, sources: &Sources, seats: SeatRange) -> (Choices, Vec<Diagnostic>) {
    let mut problems = Vec::new();
    let mut made = Choices::new();
    let Some(options_node) = root.get("options").cloned() else {
        for id in chosen.keys() {
            problems.push(Diagnostic::error(format!(
                "the mod has no setup options; `{}` cannot be chosen",
                crate::diag::shown(id)
            )));
        }
        problems.extend(unplayed_boards(root, &[], sources));
        return (made, problems);
    };
    let Some(options) = options_node.as_table().cloned() else { return (made, problems) };
    let too_many = count_problems(&options, &options_node, sources);
    if !too_many.is_empty() {
        return (made, too_many);
    }
    problems.extend(seat_problems(&options, sources, seats));
    let boards = root.get("boards").cloned();
    let mut named_boards = Vec::new();
    for (id, option) in options.iter() {
        for (choice_id, choice) in option.get("choices").and_then(RawNode::as_table).into_iter().flat_map(|c| c.iter())
        {
            let Some(board) = choice.get("board") else { continue };
            let Some(name) = board.as_str() else { continue };
            named_boards.push(name.to_string());
            if boards.as_ref().and_then(|b| b.get(name)).is_none() {
                let known: Vec<String> = boards
                    .as_ref()
                    .and_then(RawNode::as_table)
                    .map(|b| b.iter().map(|(k, _)| k.to_string()).collect())
                    .unwrap_or_default();
                let hint = did_you_mean(name, known.iter().map(String::as_str));
                // The board it meant is not "played on by no choice" too: one mistake, one problem.
                named_boards.extend(hint.clone());
                problems.push(
                    sources
                        .diagnostic(board.loc, format!("no board `{name}` in `[boards]`"))
                        .in_table(format!(
                            "options.{}.choices.{}",
                            crate::diag::shown(id),
                            crate::diag::shown(choice_id)
                        ))
                        .with_key("board")
                        .with_suggestion(hint),
                );
            }
        }
    }
    problems.extend(unplayed_boards(root, &named_boards, sources));
    for id in chosen.keys() {
        if options.get(id).is_none() {
            let hint = did_you_mean(id, options.iter().map(|(k, _)| k));
            problems.push(Diagnostic::error(format!("the mod has no setup option `{id}`")).with_suggestion(hint));
        }
    }
    for (id, option) in options.iter() {
        let Some(choices) = option.get("choices").and_then(RawNode::as_table) else { continue };
        let default = option.get("default");
        let pick = match chosen.get(id) {
            Some(pick) => pick.clone(),
            None => match default.and_then(RawNode::as_str) {
                Some(pick) => pick.to_string(),
                None => continue,
            },
        };
        let Some(choice) = choices.get(&pick) else {
            let hint = did_you_mean(&pick, choices.iter().map(|(k, _)| k));
            let message = format!("the option `{id}` has no choice `{pick}`");
            let problem = match (chosen.contains_key(id), default) {
                (false, Some(node)) => {
                    sources.diagnostic(node.loc, message).in_table(format!("options.{id}")).with_key("default")
                }
                _ => Diagnostic::error(message),
            };
            problems.push(problem.with_suggestion(hint));
            continue;
        };
        made.insert(id.to_string(), pick.clone());
        // The chosen board first, so the choice's `set` may change it (`"board.rows" = 30`).
        if let Some(board) = choice.get("board").and_then(RawNode::as_str).and_then(|name| boards.as_ref()?.get(name))
            && let RawValue::Table(top) = &mut root.value
        {
            top.insert("board", board.clone());
        }
        let Some(set) = choice.get("set").and_then(RawNode::as_table) else { continue };
        for (path, value) in set.iter() {
            if let Err(message) = set_path(root, path, value.clone()) {
                let (message, hint) = message;
                problems.push(
                    sources
                        .diagnostic(value.key_or_value_loc(), message)
                        .in_table(format!("options.{id}.choices.{pick}.set"))
                        .with_key(path.to_string())
                        .with_suggestion(hint),
                );
            }
        }
    }
    (made, problems)
}

/// The boards of `[boards]` no option's choice plays on (`named`): written for nothing.
fn unplayed_boards(root: &RawNode, named: &[String], sources: &Sources) -> Vec<Diagnostic> {
    let Some(boards) = root.get("boards").and_then(RawNode::as_table) else { return Vec::new() };
    boards
        .iter()
        .filter(|(id, _)| !named.iter().any(|n| n == id))
        .map(|(id, board)| {
            sources
                .diagnostic(
                    board.key_or_value_loc(),
                    format!(
                        "no setup option plays on the board `{id}`: name it in an option's choice (`board = \"{id}\"`) \
                         or remove it"
                    ),
                )
                .in_table(format!("boards.{}", crate::diag::shown(id)))
        })
        .collect()
}

/// Problems with the seat counts choices are for: a count the game does not take, and a count
/// it takes that an option has no choice for (a game of that many seats could not be set up).
fn seat_problems(options: &crate::source::RawTable, sources: &Sources, seats: SeatRange) -> Vec<Diagnostic> {
    let mut problems = Vec::new();
    let takes = seats.min..=seats.max;
    for (id, option) in options.iter() {
        let Some(choices) = option.get("choices").and_then(RawNode::as_table) else { continue };
        let table = |choice: &str| format!("options.{}.choices.{}", crate::diag::shown(id), crate::diag::shown(choice));
        let mut any_limited = false;
        let mut fitting = vec![false; usize::from(seats.max) + 1];
        for (choice_id, choice) in choices.iter() {
            let counts = match choice.get("seats").map(|n| &n.value) {
                None => {
                    fitting.iter_mut().for_each(|f| *f = true);
                    continue;
                }
                Some(RawValue::Array(counts)) => counts,
                // The type is checked where the data is decoded.
                Some(_) => continue,
            };
            any_limited = true;
            for count in counts {
                let RawValue::Integer(n) = count.value else { continue };
                match u8::try_from(n) {
                    Ok(n) if takes.contains(&n) => fitting[usize::from(n)] = true,
                    _ => problems.push(
                        sources
                            .diagnostic(
                                count.loc,
                                format!("the game takes {} to {} seats (mod.toml), not {n}", seats.min, seats.max),
                            )
                            .in_table(table(choice_id))
                            .with_key("seats"),
                    ),
                }
            }
        }
        let missing: Vec<String> = takes.clone().filter(|&n| !fitting[usize::from(n)]).map(|n| n.to_string()).collect();
        if any_limited && !missing.is_empty() {
            let node = option.get("choices").expect("read above");
            problems.push(
                sources
                    .diagnostic(
                        node.key_or_value_loc(),
                        format!(
                            "no choice of the option is for {} seats, which the game takes: give one `seats = [{}]`",
                            missing.join(" or "),
                            missing.join(", ")
                        ),
                    )
                    .in_table(format!("options.{}", crate::diag::shown(id)))
                    .with_key("choices"),
            );
        }
    }
    problems
}

/// Every option's choice for a game of `seats` seats: the choice asked for when `asked` names
/// one (fitting or not: the game then refuses it, saying why), else the option's default when
/// it fits, else its first choice that does.
pub fn for_seats(options: &IndexMap<String, OptionDef>, asked: &Choices, seats: usize) -> Choices {
    options
        .iter()
        .map(|(id, option)| {
            let pick = asked.get(id).cloned().unwrap_or_else(|| {
                let default_fits = option.choices.get(&option.default).is_some_and(|c| c.fits(seats));
                if default_fits {
                    return option.default.clone();
                }
                option
                    .choices
                    .iter()
                    .find(|(_, c)| c.fits(seats))
                    .map_or_else(|| option.default.clone(), |(k, _)| k.clone())
            });
            (id.clone(), pick)
        })
        .collect()
}

/// The rules for a game of `seats` seats: `rules` themselves when the choices they were loaded
/// with are those [`for_seats`] gives (the `asked` ones kept), else the mod loaded again from
/// its folder with those choices, `overlay` standing in for files on disk (an editor's unsaved
/// texts; empty for the files as saved).
pub fn rules_for_seats(
    rules: &std::sync::Arc<crate::rules::Ruleset>,
    asked: &Choices,
    seats: usize,
    overlay: &crate::loader::Overlay,
) -> Result<std::sync::Arc<crate::rules::Ruleset>, Vec<Diagnostic>> {
    let wanted = for_seats(&rules.data.options, asked, seats);
    if wanted == rules.chosen_options {
        return Ok(rules.clone());
    }
    let Some(folder) = rules.folder.as_ref() else {
        return Err(vec![Diagnostic::error(
            "the mod was not loaded from a folder: it cannot be loaded with other choices",
        )]);
    };
    crate::loader::load_mod_edited(folder, &wanted, overlay).map(|loaded| loaded.ruleset)
}

/// Loads the mod in `folder` as `meeple check` checks it: with every option at its default,
/// then once for each other choice of each option (the other options at their defaults), since
/// the values a choice sets are checked only when it is chosen. The message of a problem only a
/// choice has starts with the choice, as the command line chooses it (``with `--option
/// dish=square`: ``); a problem the defaults have too is reported once.
/// Gives the mod as loaded with the defaults, with the warnings of every load.
pub fn load_every_choice(folder: &Path) -> Result<LoadedMod, Vec<Diagnostic>> {
    // The hook files run once, with the defaults; each choice's load checks its `hook("name")`
    // calls against the functions they defined (a choice sets data, never hooks).
    let mut hooks = HookCheck::Run(None);
    let defaults = crate::loader::load(folder, &Choices::new(), &crate::loader::Overlay::new(), &mut hooks);
    let HookCheck::Run(defined) = hooks else { unreachable!("set to Run above") };
    let mut known = HookCheck::Known(defined);
    let options = match &defaults {
        Ok(loaded) => loaded
            .ruleset
            .data
            .options
            .iter()
            .map(|(id, option)| (id.clone(), option.default.clone(), option.choices.keys().cloned().collect()))
            .collect(),
        Err(_) => options_written_in(folder),
    };
    let (loaded, mut found) = match defaults {
        Ok(mut loaded) => {
            let warnings = std::mem::take(&mut loaded.warnings);
            (Some(loaded), warnings)
        }
        Err(problems) => (None, problems),
    };
    let with_defaults = found.clone();
    // However many choices a broken mod writes, it is loaded at most once per choice allowed
    // (its problem with too many is among the defaults' problems already).
    // And the data it loads again for its choices is bounded too: a mod of many megabytes is
    // checked with as many of its choices as `MAX_CHECKED_BYTES` allows, and told which were not.
    let data_bytes: u64 = mod_files(folder)
        .map(|files| files.data.iter().filter_map(|path| std::fs::symlink_metadata(path).ok()).map(|m| m.len()).sum())
        .unwrap_or(0);
    let affordable = (MAX_CHECKED_BYTES / data_bytes.max(1)).max(1) as usize;
    let mut loads_left = MAX_CHOICES_IN_ALL.min(affordable);
    let mut unchecked = Vec::new();
    for (option, default, choices) in options.into_iter().take(MAX_OPTIONS) {
        for choice in choices.into_iter().filter(|choice| *choice != default).take(MAX_CHOICES) {
            // A choice already reported broken in itself (a board it names is not there) is not
            // loaded: what it would give follows from that one mistake.
            let own_table = format!("options.{}.choices.{}", crate::diag::shown(&option), crate::diag::shown(&choice));
            if with_defaults.iter().any(|p| p.is_error() && p.table.as_deref() == Some(own_table.as_str())) {
                continue;
            }
            if loads_left == 0 {
                unchecked.push(format!("{option}={choice}"));
                continue;
            }
            loads_left -= 1;
            let chosen = Choices::from([(option.clone(), choice.clone())]);
            let problems = match crate::loader::load(folder, &chosen, &crate::loader::Overlay::new(), &mut known) {
                Ok(loaded) => loaded.warnings,
                Err(problems) => problems,
            };
            for mut problem in problems.into_iter().filter(|p| !with_defaults.contains(p)) {
                problem.message = format!("with `--option {option}={choice}`: {}", problem.message);
                found.push(problem);
            }
        }
    }
    if !unchecked.is_empty() && unchecked.len() < MAX_CHOICES_IN_ALL {
        found.push(
            Diagnostic::warning(format!(
                "{} setup choices were not checked one by one ({}): the mod's data files come to {data_bytes} \
                 bytes, and `meeple check` loads at most {} MiB of data for a mod's choices; they are checked when \
                 a game is set up with them",
                unchecked.len(),
                unchecked.iter().take(8).cloned().collect::<Vec<_>>().join(", "),
                MAX_CHECKED_BYTES >> 20
            ))
            .in_file(folder.join("mod.toml").to_string_lossy().replace('\\', "/")),
        );
    }
    match loaded {
        Some(mut loaded) if !found.iter().any(Diagnostic::is_error) => {
            loaded.warnings = found;
            Ok(loaded)
        }
        _ => Err(found),
    }
}

/// The options the mod's own data files declare, as `(id, default, choices)`, read leniently:
/// what a mod that does not load still offers.
fn options_written_in(folder: &Path) -> Vec<(String, String, Vec<String>)> {
    let Ok(files) = mod_files(folder) else { return Vec::new() };
    let mut found = Vec::new();
    for path in &files.data {
        // Through the loader's reader: a link, device or pipe is not read (nor waited on) here either.
        let text = crate::loader::read(path).ok().and_then(|bytes| String::from_utf8(bytes).ok());
        let Some(table) = text.and_then(|text| toml::from_str::<toml::Table>(&text).ok()) else {
            continue;
        };
        for (id, option) in table.get("options").and_then(toml::Value::as_table).into_iter().flatten() {
            let default = option.get("default").and_then(toml::Value::as_str).unwrap_or_default().to_string();
            let choices = option.get("choices").and_then(toml::Value::as_table);
            found.push((id.clone(), default, choices.map(|c| c.keys().cloned().collect()).unwrap_or_default()));
        }
    }
    found
}

/// Sets the value at a dotted path (`board.rows`) of the data tree. Every table on the way must
/// exist; the last key may be new (an optional key the data left out).
fn set_path(root: &mut RawNode, path: &str, value: RawNode) -> Result<(), (String, Option<String>)> {
    let keys: Vec<&str> = path.split('.').collect();
    if keys.iter().any(|k| k.is_empty()) || keys.first() == Some(&"options") {
        return Err((format!("`{path}` is not a path of the mod's data, like `board.rows`"), None));
    }
    let (last, tables) = keys.split_last().expect("split gives at least one key");
    let mut node = root;
    let mut walked = Vec::new();
    for key in tables {
        let RawValue::Table(table) = &mut node.value else {
            return Err((format!("`{}` is not a table", walked.join(".")), None));
        };
        if table.get(key).is_none() {
            let hint = did_you_mean(key, table.iter().map(|(k, _)| k))
                .map(|k| walked.iter().copied().chain([k.as_str()]).collect::<Vec<_>>().join("."));
            let at = if walked.is_empty() { "the data".to_string() } else { format!("`{}`", walked.join(".")) };
            return Err((format!("{at} has no table `{key}`"), hint));
        }
        walked.push(*key);
        node = table.get_mut(key).expect("checked above");
    }
    let RawValue::Table(table) = &mut node.value else {
        return Err((format!("`{}` is not a table", walked.join(".")), None));
    };
    let mut value = value;
    // The value keeps its own location (the option's line), so problems point there.
    value.key_loc = value.key_loc.or(Some(value.loc));
    table.insert(last.to_string(), value);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::load_files;

    fn data(text: &str) -> crate::source::LoadedData {
        load_files(vec![("data.toml".into(), text.as_bytes().to_vec())], &[])
    }

    const SEATS: SeatRange = SeatRange { min: 2, max: 4, default: None, by_side: None };

    const MOD: &str = r#"
[board]
rows = 100
[options.size]
label = "Map size"
default = "large"
choices.large = { label = "Large" }
choices.small = { label = "Small", set = { "board.rows" = 30 } }
"#;

    #[test]
    fn defaults_apply_and_chosen_values_are_written() {
        let mut loaded = data(MOD);
        let (made, problems) = apply(&mut loaded.root, &Choices::new(), &loaded.sources, SEATS);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(made.get("size").map(String::as_str), Some("large"));
        assert_eq!(
            loaded.root.get("board").and_then(|b| b.get("rows")).map(|r| r.value.clone()),
            Some(RawValue::Integer(100))
        );

        let mut loaded = data(MOD);
        let chosen = Choices::from([("size".to_string(), "small".to_string())]);
        let (made, problems) = apply(&mut loaded.root, &chosen, &loaded.sources, SEATS);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(made, chosen);
        assert_eq!(
            loaded.root.get("board").and_then(|b| b.get("rows")).map(|r| r.value.clone()),
            Some(RawValue::Integer(30))
        );
    }

    #[test]
    fn unknown_options_choices_and_paths_are_reported_with_suggestions() {
        let mut loaded = data(MOD);
        let chosen = Choices::from([("sise".to_string(), "small".to_string())]);
        let (_, problems) = apply(&mut loaded.root, &chosen, &loaded.sources, SEATS);
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].suggestion.as_deref(), Some("size"));

        let mut loaded = data(MOD);
        let chosen = Choices::from([("size".to_string(), "smal".to_string())]);
        let (_, problems) = apply(&mut loaded.root, &chosen, &loaded.sources, SEATS);
        assert_eq!(problems[0].suggestion.as_deref(), Some("small"));

        let mut loaded = data(&MOD.replace("\"board.rows\"", "\"bord.rows\""));
        let chosen = Choices::from([("size".to_string(), "small".to_string())]);
        let (_, problems) = apply(&mut loaded.root, &chosen, &loaded.sources, SEATS);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].suggestion.as_deref(), Some("board"));
        assert_eq!(problems[0].line, 8, "points at the option's line: {}", problems[0]);
    }
}
