//! `meeple schema`: write (or check) the JSON Schemas generated from the engine's types.

use std::path::Path;
use std::process::ExitCode;

pub fn run(out: &Path, check: bool) -> Result<ExitCode, String> {
    let mut stale = Vec::new();
    for (name, text) in meeple_engine::schema::all() {
        let path = out.join(name);
        let current = std::fs::read_to_string(&path).unwrap_or_default();
        if current == text {
            continue;
        }
        if check {
            stale.push(path.display().to_string());
        } else {
            std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
            std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            println!("wrote {}", path.display());
        }
    }
    if check && !stale.is_empty() {
        eprintln!("stale schemas (run `meeple schema`): {}", stale.join(", "));
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}
