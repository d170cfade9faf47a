//! Shared helpers for the tests and benchmarks that exercise the bundled mods.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use meeple_engine::loader::{discover, load_mod};
use meeple_engine::rules::Ruleset;

/// The workspace root.
/// P(the sum of `n` six-sided dice = s), for s in 0..=6n: the exact distribution, by
/// convolution, that odds tests compare the engine against.
pub fn d6_sum_distribution(n: usize) -> Vec<f64> {
    let mut dist = vec![1.0];
    for _ in 0..n {
        let mut next = vec![0.0; dist.len() + 6];
        for (s, p) in dist.iter().enumerate() {
            for face in 1..=6 {
                next[s + face] += p / 6.0;
            }
        }
        dist = next;
    }
    dist
}

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ is inside the workspace").to_path_buf()
}

/// The bundled mods' folder.
pub fn mods_dir() -> PathBuf {
    root().join("mods")
}

/// Every bundled mod folder.
pub fn bundled() -> Vec<PathBuf> {
    discover(&mods_dir())
}

/// Loads a bundled mod by id, panicking with every problem if it does not load.
pub fn load(id: &str) -> Arc<Ruleset> {
    match load_mod(&mods_dir().join(id)) {
        Ok(loaded) => loaded.ruleset,
        Err(problems) => {
            panic!("{id} does not load:\n{}", problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))
        }
    }
}

/// The text of a panic's payload, for tests that catch panics and report them.
pub fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "(a panic without a message)".into())
}
