//! `meeple new` as a modder runs it: every template makes a mod that passes `meeple check` and
//! `meeple test` at once and plays to the end in `meeple sim`; bad ids and existing folders are
//! refused without touching the disk.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const TEMPLATES: &[&str] = &["square", "offset", "territories", "rings", "graph"];

fn meeple(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_meeple")).args(args).current_dir(dir).output().expect("meeple runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).to_string()
}

/// A fresh, empty folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("meeple-new-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn every_template_passes_check_and_test_and_plays_to_the_end() {
    let parent = scratch("templates");
    for kind in TEMPLATES {
        let id = format!("my_{kind}_game");
        let out = meeple(&["new", &id, "--template", kind, "--dir", parent.to_str().unwrap()], &parent);
        assert!(out.status.success(), "new --template {kind}: {}", text(&out.stderr));
        let folder = parent.join(&id);
        for file in ["mod.toml", "board.toml", "rules.toml", "hooks/rules.lua", "tests/smoke.lua", "README.md"] {
            let written = std::fs::read_to_string(folder.join(file)).unwrap_or_default();
            assert!(!written.is_empty(), "{kind}: {file} is missing");
            assert!(!written.contains("{{"), "{kind}: {file} has a placeholder left");
        }
        let readme = std::fs::read_to_string(folder.join("README.md")).unwrap();
        assert!(readme.contains("Where the rules are silent"), "{kind}: README");
        let mod_path = folder.to_str().unwrap();

        let out = meeple(&["check", mod_path], &parent);
        assert!(out.status.success(), "check {kind}:\n{}{}", text(&out.stdout), text(&out.stderr));
        assert!(text(&out.stdout).starts_with(&format!("ok    {id} 0.1.0")), "{}", text(&out.stdout));
        assert!(text(&out.stderr).is_empty(), "check {kind} warns: {}", text(&out.stderr));

        let out = meeple(&["test", mod_path, "--verbose"], &parent);
        assert!(out.status.success(), "test {kind}:\n{}{}", text(&out.stdout), text(&out.stderr));
        let summary = text(&out.stdout);
        let passed: usize =
            summary.lines().last().and_then(|line| line.split(' ').next()).and_then(|n| n.parse().ok()).unwrap_or(0);
        assert!((2..=4).contains(&passed), "test {kind}: {summary}");

        let out = meeple(&["sim", mod_path, "--games", "5"], &parent);
        assert!(out.status.success(), "sim {kind}:\n{}{}", text(&out.stdout), text(&out.stderr));
        assert!(text(&out.stdout).contains("5 games"), "{}", text(&out.stdout));
    }
    let _ = std::fs::remove_dir_all(&parent);
}

#[test]
fn the_mod_goes_into_the_current_folder_by_default() {
    let dir = scratch("default");
    let out = meeple(&["new", "plain"], &dir);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let manifest = std::fs::read_to_string(dir.join("plain/mod.toml")).unwrap();
    assert!(manifest.contains("id = \"plain\"") && manifest.contains("name = \"Plain\""), "{manifest}");
    assert!(text(&out.stdout).contains("`square` template"), "square is the default template");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_existing_folder_a_bad_id_and_an_unknown_template_are_refused() {
    let dir = scratch("refusals");
    std::fs::create_dir_all(dir.join("taken")).unwrap();
    std::fs::write(dir.join("taken/notes.txt"), "mine").unwrap();
    let out = meeple(&["new", "taken"], &dir);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("already exists"), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(dir.join("taken/notes.txt")).unwrap(), "mine");
    assert!(!dir.join("taken/mod.toml").exists());

    for bad in ["My-Game", "my game", "Game"] {
        let out = meeple(&["new", bad], &dir);
        assert_eq!(out.status.code(), Some(1), "{bad}");
        let message = text(&out.stderr);
        assert!(message.contains("not a valid mod id") && message.contains("lowercase letters"), "{message}");
    }

    let out = meeple(&["new", "fine", "--template", "hexagons"], &dir);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("square, offset, territories, rings, graph"), "{}", text(&out.stderr));

    let leftovers: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|name| name != "taken")
        .collect();
    assert!(leftovers.is_empty(), "refused commands left {leftovers:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
