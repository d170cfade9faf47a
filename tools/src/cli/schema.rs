//! `meeple schema`: write (or check) the generated files: the JSON Schemas and the Lua API's
//! annotations in the schemas folder (`--out`, `schemas/` by default), and the generated
//! documentation pages under the folder that holds it (`docs/modding/lua-api.md`,
//! `docs/modding/reference.md`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub fn run(out: &Path, check: bool) -> Result<ExitCode, String> {
    // The documentation's paths are from the repository's root: the schemas folder's parent.
    let root = out.parent().unwrap_or(Path::new(""));
    let files: Vec<(PathBuf, String)> = meeple_engine::schema::all()
        .into_iter()
        .map(|(name, text)| (out.join(name), text))
        .chain(std::iter::once((
            out.join(meeple::online::protocol::SCHEMA_FILE),
            meeple::online::protocol::schema_text(),
        )))
        .chain(meeple_engine::schema::docs().into_iter().map(|(path, text)| (root.join(path), text)))
        .collect();
    let mut stale = Vec::new();
    for (path, text) in files {
        // A generated file is small; anything else at its path (a pipe, a huge file) is stale.
        let current = meeple_engine::files::read_capped(&path, 16 << 20, meeple_engine::files::Links::Follow)
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .unwrap_or_default();
        if current == text {
            continue;
        }
        if check {
            stale.push(path.display().to_string());
        } else {
            if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                std::fs::create_dir_all(folder).map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
            }
            std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            super::out!("wrote {}", path.display());
        }
    }
    if check && !stale.is_empty() {
        eprintln!("stale generated files (run `meeple schema`): {}", stale.join(", "));
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}
