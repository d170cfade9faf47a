//! The headless subcommands, one file each, plus what they share: loading a mod by name and
//! printing its problems.

/// `println!` for a command's output: when the reader closes the pipe (`meeple run … | head`), the
/// rest of the output is dropped quietly instead of a panic.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}
pub(crate) use out;

pub mod check;
pub mod lua;
pub mod new;
pub mod replay;
pub mod run;
pub mod schema;
pub mod serve;
pub mod sim;
pub mod test;

use std::sync::Arc;

use meeple_engine::loader::{self, LoadedMod};
use meeple_engine::options::Choices;
use meeple_engine::rules::Ruleset;

/// Loads a mod named by id or folder, printing its problems to stderr on failure.
pub fn load(name: &str) -> Result<Arc<Ruleset>, String> {
    load_with(name, &Choices::new())
}

/// Loads a mod with setup options chosen (`--option size=small`).
pub fn load_with(name: &str, options: &Choices) -> Result<Arc<Ruleset>, String> {
    let folder = loader::resolve_mod(name).map_err(|d| d.to_string())?;
    match loader::load_mod_with(&folder, options) {
        Ok(LoadedMod { ruleset, warnings }) => {
            for warning in warnings {
                eprintln!("{warning}");
            }
            Ok(ruleset)
        }
        Err(problems) => {
            for problem in &problems {
                eprintln!("{problem}");
            }
            Err(format!(
                "{}: {} problem{} (see above)",
                folder.display(),
                problems.len(),
                if problems.len() == 1 { "" } else { "s" }
            ))
        }
    }
}

/// Loads the mod a save names by its id (never a path: a save may come from anyone), found
/// among the bundled mods and then the user's, with the save's setup options.
pub fn load_by_id(id: &str, options: &Choices) -> Result<Arc<Ruleset>, String> {
    let mut folders = vec![loader::bundled_mods_dir()];
    folders.extend(meeple::player::catalog::user_mods_dir());
    let folder = loader::find_mod_by_id(id, &folders).map_err(|d| d.to_string())?;
    load_with(&folder.to_string_lossy(), options)
}

/// Checks a number of seats asked for against the mod's range before anything is made for
/// them.
pub fn check_seats(rules: &Ruleset, seats: usize) -> Result<(), String> {
    let range = rules.manifest.seats;
    if seats < range.min as usize || seats > range.max as usize {
        return Err(format!("{} takes {} to {} players, not {seats}", rules.manifest.name, range.min, range.max));
    }
    Ok(())
}

/// The rules for a game of `seats` seats: `rules` when their setup choices suit that many
/// (the ones `asked` on the command line, the others each option's default when it fits, else
/// its first choice that does: a three-player map for three), else the mod loaded again with
/// the choices that do.
pub fn fit_to_seats(rules: Arc<Ruleset>, asked: &Choices, seats: usize) -> Result<Arc<Ruleset>, String> {
    meeple_engine::options::rules_for_seats(&rules, asked, seats, &loader::Overlay::new()).map_err(|problems| {
        for problem in &problems {
            eprintln!("{problem}");
        }
        format!("the mod does not load with the setup choices for {seats} seats (see above)")
    })
}

/// Reads a text file the user names (an action script): an ordinary file, or a link to one,
/// of at most `max_bytes`; a pipe or a device is refused without waiting on it.
pub fn read_text(path: &std::path::Path, max_bytes: u64) -> Result<String, String> {
    let bytes = meeple_engine::files::read_capped(path, max_bytes, meeple_engine::files::Links::Follow)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    String::from_utf8(bytes).map_err(|e| {
        format!("{}: the file is not UTF-8 text (byte {} is not UTF-8)", path.display(), e.utf8_error().valid_up_to())
    })
}

/// Parses `--option KEY=CHOICE` arguments.
pub fn parse_options(given: &[String]) -> Result<Choices, String> {
    given
        .iter()
        .map(|text| match text.split_once('=') {
            Some((key, choice)) if !key.trim().is_empty() => Ok((key.trim().to_string(), choice.trim().to_string())),
            _ => Err(format!("`--option {text}`: write it as OPTION=CHOICE, e.g. `--option map_size=small`")),
        })
        .collect()
}

/// Every bundled mod's folder.
pub fn bundled() -> Vec<std::path::PathBuf> {
    loader::discover(&loader::bundled_mods_dir())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads `path` as an action script on a thread of its own, waiting at most 2 s for it.
    fn read_within_two_seconds(path: &std::path::Path) -> Result<String, String> {
        let (sender, receiver) = std::sync::mpsc::channel();
        let path = path.to_path_buf();
        std::thread::spawn(move || {
            let _ = sender.send(read_text(&path, 1 << 20));
        });
        receiver.recv_timeout(std::time::Duration::from_secs(2)).expect("read or refused within 2 s")
    }

    #[test]
    fn a_save_names_its_mod_by_id_never_by_path() {
        let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine/tests/fixtures");
        for path in ["../../x", "/tmp/x", "tiny/../tiny", "./tiny", fixtures.join("tiny").to_str().unwrap()] {
            let refused = loader::find_mod_by_id(path, std::slice::from_ref(&fixtures)).unwrap_err();
            assert!(refused.message.contains("is not a mod id"), "{path}: {refused}");
        }
        assert_eq!(loader::find_mod_by_id("tiny", &[fixtures.clone()]).unwrap(), fixtures.join("tiny"));
        let missing = loader::find_mod_by_id("tiny2", &[fixtures]).unwrap_err();
        assert!(missing.message.starts_with("no mod `tiny2` is installed"), "{missing}");
        let refused = load_by_id("../../x", &Choices::new()).unwrap_err();
        assert!(refused.contains("`../../x` is not a mod id"), "{refused}");
    }

    #[test]
    fn seat_counts_are_checked_before_anything_is_made_for_them() {
        let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine/tests/fixtures/tiny");
        let rules = loader::load_mod(&fixture).expect("the fixture loads").ruleset;
        let range = rules.manifest.seats;
        assert!(check_seats(&rules, range.min as usize).is_ok());
        for seats in [0, range.max as usize + 1, 100_000_000_000] {
            let refused = check_seats(&rules, seats).unwrap_err();
            assert!(refused.ends_with(&format!("players, not {seats}")), "{refused}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn action_scripts_are_read_like_saves() {
        let dir = std::env::temp_dir().join(format!("meeple-cli-read-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let script = dir.join("script.json");
        std::fs::write(&script, "{ \"actions\": [] }").unwrap();
        assert_eq!(read_within_two_seconds(&script).unwrap(), "{ \"actions\": [] }");
        std::os::unix::fs::symlink(&script, dir.join("linked.json")).unwrap();
        assert!(read_within_two_seconds(&dir.join("linked.json")).is_ok(), "a link the user made is followed");
        std::os::unix::fs::symlink("/dev/zero", dir.join("zero.json")).unwrap();
        let refused = read_within_two_seconds(&dir.join("zero.json")).unwrap_err();
        assert!(refused.ends_with("zero.json: this is not an ordinary file (a folder, device or pipe)"), "{refused}");
        let large = dir.join("large.json");
        std::fs::File::create(&large).unwrap().set_len(2 << 20).unwrap();
        let refused = read_within_two_seconds(&large).unwrap_err();
        assert!(
            refused.ends_with("large.json: the file is 2097152 bytes; at most 1048576 bytes are read"),
            "{refused}"
        );
        let fifo = dir.join("pipe.json");
        if std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success()) {
            let refused = read_within_two_seconds(&fifo).unwrap_err();
            assert!(refused.contains("not an ordinary file"), "{refused}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
