//! `meeple new`: scaffold a mod folder from a template, one per board kind. Every template is a
//! small complete game that passes `meeple check` and `meeple test` as created: `mod.toml`,
//! commented data files, a Lua hook called from the data, scenario tests and a README. The
//! templates live in `tools/templates/<kind>/` and are built into the binary.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

const AFTER_HELP: &str = "Templates, one per board kind:
  square       a square grid; runners step and capture (pieces that move)
  offset       a zig-zag grid with a random map of meadows and lakes; claims by dice roll
  territories  a random territory map; conquest with stacks of troops rolled against each other
  rings        a one-way ring; roll, then choose where to stop (a two-step action)
  graph        named towns joined by roads; claims paid with influence, a deck of cards

Each creates ID/mod.toml, board.toml, rules.toml, hooks/rules.lua, tests/smoke.lua and
README.md. Then: meeple check DIR/ID, meeple test DIR/ID, meeple play DIR/ID --start.";

#[derive(Args)]
#[command(after_help = AFTER_HELP)]
pub struct NewArgs {
    /// The mod's id and folder name: lowercase letters, digits and underscores (e.g. `my_game`).
    id: String,
    /// Which template to start from: square, offset, territories, rings or graph.
    #[arg(long, short, default_value = "square", value_name = "KIND")]
    template: String,
    /// The folder to create the mod in: the mod becomes PARENT/ID. Default: the current folder.
    /// (Meeple's launcher lists mods in your mods folder, `~/.local/share/meeple/mods` or
    /// `$MEEPLE_USER_MODS`; any folder can be checked, tested and played by its path.)
    #[arg(long, value_name = "PARENT")]
    dir: Option<PathBuf>,
}

/// One template: its board kind and its files (path in the mod, text with `{{id}}` and
/// `{{name}}` to fill in).
struct Template {
    kind: &'static str,
    files: &'static [(&'static str, &'static str)],
}

macro_rules! template {
    ($kind:literal) => {
        Template {
            kind: $kind,
            files: &[
                ("mod.toml", include_str!(concat!("../../templates/", $kind, "/mod.toml"))),
                ("board.toml", include_str!(concat!("../../templates/", $kind, "/board.toml"))),
                ("rules.toml", include_str!(concat!("../../templates/", $kind, "/rules.toml"))),
                ("hooks/rules.lua", include_str!(concat!("../../templates/", $kind, "/hooks/rules.lua"))),
                ("tests/smoke.lua", include_str!(concat!("../../templates/", $kind, "/tests/smoke.lua"))),
                ("README.md", include_str!(concat!("../../templates/", $kind, "/README.md"))),
            ],
        }
    };
}

const TEMPLATES: &[Template] =
    &[template!("square"), template!("offset"), template!("territories"), template!("rings"), template!("graph")];

pub fn run(args: NewArgs) -> Result<ExitCode, String> {
    check_id(&args.id)?;
    let template = TEMPLATES.iter().find(|t| t.kind == args.template).ok_or_else(|| {
        let kinds: Vec<&str> = TEMPLATES.iter().map(|t| t.kind).collect();
        format!("there is no template `{}`; the templates are {}", args.template, kinds.join(", "))
    })?;
    let parent = args.dir.unwrap_or_else(|| PathBuf::from("."));
    if parent.exists() && !parent.is_dir() {
        return Err(format!("{} is not a folder", parent.display()));
    }
    let folder = parent.join(&args.id);
    // A link counts as taken even when it leads nowhere: the mod is made in a folder of its own.
    if std::fs::symlink_metadata(&folder).is_ok() {
        return Err(format!("{} already exists; choose another id or another --dir", folder.display()));
    }
    create(&folder, template, &args.id)?;
    super::out!("created {} from the `{}` template", folder.display(), template.kind);
    let shown = folder.display();
    super::out!("next: meeple check {shown}   meeple test {shown}   meeple play {shown} --start");
    Ok(ExitCode::SUCCESS)
}

/// A mod id: lowercase ASCII letters, digits and underscores, not empty.
fn check_id(id: &str) -> Result<(), String> {
    let valid = !id.is_empty() && id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if valid {
        Ok(())
    } else {
        Err(format!(
            "`{id}` is not a valid mod id: use lowercase letters, digits and underscores only (e.g. `{}`)",
            suggested_id(id)
        ))
    }
}

/// The id's nearest valid form: lowercase, other characters as underscores.
fn suggested_id(id: &str) -> String {
    let id: String = id.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect();
    let id = id.trim_matches('_').to_string();
    if id.is_empty() { "my_game".into() } else { id }
}

/// The name players see, from the id: `my_game` → `My Game`.
fn name_from_id(id: &str) -> String {
    let words: Vec<String> = id
        .split('_')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars();
            chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
        })
        .collect();
    if words.is_empty() { id.to_string() } else { words.join(" ") }
}

/// Writes the template into a hidden folder next to `folder`, then renames it: a failure leaves
/// no half-made mod behind.
fn create(folder: &Path, template: &Template, id: &str) -> Result<(), String> {
    let parent = folder.parent().unwrap_or(Path::new("."));
    let staging = parent.join(format!(".{id}.new-{}", std::process::id()));
    let name = name_from_id(id);
    let write = || -> Result<(), String> {
        for (path, text) in template.files {
            let path = staging.join(path);
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            }
            let text = text.replace("{{id}}", id).replace("{{name}}", &name);
            std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        std::fs::rename(&staging, folder).map_err(|e| format!("cannot create {}: {e}", folder.display()))
    };
    let result = write();
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&staging);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_names() {
        assert!(check_id("my_game2").is_ok());
        for bad in ["", "My_Game", "my-game", "my game", "jeu_é"] {
            assert!(check_id(bad).is_err(), "{bad:?} was accepted");
        }
        assert!(check_id("My-Game").unwrap_err().contains("`my_game`"));
        assert_eq!(name_from_id("my_game"), "My Game");
        assert_eq!(name_from_id("race_2"), "Race 2");
    }

    #[test]
    fn every_template_fills_in_its_id() {
        for template in TEMPLATES {
            let manifest = template.files.iter().find(|(path, _)| *path == "mod.toml").expect("a mod.toml");
            assert!(manifest.1.contains("id = \"{{id}}\""), "{}", template.kind);
            assert!(manifest.1.contains("name = \"{{name}}\""), "{}", template.kind);
            let readme = template.files.iter().find(|(path, _)| *path == "README.md").expect("a README");
            assert!(readme.1.contains("## Where the rules are silent"), "{}", template.kind);
        }
    }
}
