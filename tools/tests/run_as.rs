//! `meeple run --as SEAT` prints only what that seat may see — its view of the state and of the
//! events, and the legal actions only when it is to act — while `meeple run` alone prints the
//! whole game, the referee's view. On the fixture `engine/tests/fixtures/secrets`: court cards
//! held face down, a hidden `vault`, `stealth` and `cache`.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// Runs the fixture's game with seed 7 and this script; the printed JSON, or the error text.
fn run(script: &str, extra: &[&str]) -> Result<Value, String> {
    let dir = std::env::temp_dir().join(format!("meeple-run-as-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("script-{}.toml", extra.join("_")));
    std::fs::write(&path, script).unwrap();
    let fixture = root().join("engine/tests/fixtures/secrets");
    let mut args = vec!["run", fixture.to_str().unwrap(), "--seed", "7", "--actions", path.to_str().unwrap()];
    args.extend(extra);
    let out = Command::new(env!("CARGO_BIN_EXE_meeple")).args(&args).current_dir(root()).output().expect("meeple runs");
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).to_string());
    }
    Ok(serde_json::from_slice(&out.stdout).expect("JSON"))
}

/// Seat 1 draws a card and hoards on its space; then it is seat 2's turn.
const SCRIPT: &str = "[[actions]]\naction = \"draw\"\n\n[[actions]]\naction = \"hoard\"\nwhere = \"a\"\n\n\
                      [[actions]]\naction = \"pass\"\n";

fn events<'a>(json: &'a Value, kind: &str) -> Vec<&'a Value> {
    json["events"].as_array().unwrap().iter().filter(|e| e["event"] == kind).collect()
}

#[test]
fn as_a_seat_the_run_prints_only_that_seats_view() {
    let referee = run(SCRIPT, &[]).expect("runs");
    let seat_two = run(SCRIPT, &["--as", "2"]).expect("runs as seat 2");
    let seat_one = run(SCRIPT, &["--as", "1"]).expect("runs as seat 1");

    // The referee sees every hand and hidden value, and the legal actions of the seat to act.
    let hand_one = referee["state"]["seats"][0]["hand"].as_array().unwrap();
    assert_eq!(hand_one.len(), 3);
    assert!(hand_one.iter().all(Value::is_string));
    assert_eq!(referee["state"]["seats"][0]["resources"]["vault"], 8);
    assert!(referee["state"]["hash"].is_string());
    assert!(referee["legal"].as_array().is_some_and(|l| !l.is_empty()));
    assert!(!events(&referee, "resource_changed").iter().all(|e| e["resource"] != "vault"));

    // Seat 2: seat 1's cards are null (three of them), its own are named; seat 1's vault,
    // stealth and cache are null; it is to act, so its legal actions are listed.
    let state = &seat_two["state"];
    assert_eq!(state["as"], 2);
    assert!(state.get("hash").is_none());
    let theirs = state["seats"][0]["hand"].as_array().unwrap();
    assert!(theirs.len() == 3 && theirs.iter().all(Value::is_null), "{theirs:?}");
    assert!(state["seats"][1]["hand"].as_array().unwrap().iter().all(Value::is_string));
    assert!(state["seats"][0]["resources"]["vault"].is_null());
    assert_eq!(state["seats"][1]["resources"]["vault"], 5);
    assert_eq!(state["seats"][0]["resources"]["coins"], referee["state"]["seats"][0]["resources"]["coins"]);
    assert!(state["pieces"][0]["stats"]["stealth"].is_null());
    assert!(state["spaces"][0]["cache"].is_null());
    assert_eq!(state["spaces"][1]["cache"], 6);
    assert!(seat_two["legal"].as_array().is_some_and(|l| !l.is_empty()), "seat 2 is to act");
    // Its events: seat 1's draws are counts, its own name the cards; seat 1's hidden changes
    // are left out.
    for drawn in events(&seat_two, "cards_drawn") {
        if drawn["seat"] == 1 {
            assert!(drawn.get("cards").is_none() && drawn["count"].is_u64(), "{drawn}");
        } else {
            assert!(drawn["cards"].as_array().is_some_and(|c| c.iter().all(Value::is_string)), "{drawn}");
        }
    }
    assert!(events(&seat_two, "resource_changed").iter().all(|e| e["resource"] != "vault"));
    assert!(events(&seat_two, "stat_changed").iter().all(|e| e["stat"] != "stealth"));
    assert_eq!(events(&seat_two, "resource_changed").len(), 1, "seat 1's coins");
    assert!(events(&seat_two, "acted").len() == 3, "the actions taken are public");

    // Seat 1 is not to act: no legal actions; it sees its own hand, vault and cache.
    assert!(seat_one.get("legal").is_none());
    assert_eq!(seat_one["state"]["seats"][0]["hand"], referee["state"]["seats"][0]["hand"]);
    assert_eq!(seat_one["state"]["seats"][0]["resources"]["vault"], 8);
    assert_eq!(seat_one["state"]["spaces"][0]["cache"], 5);
}

#[test]
fn as_a_seat_the_game_does_not_have_is_refused() {
    let error = run(SCRIPT, &["--as", "3"]).expect_err("refused");
    assert!(error.contains("--as 3: the game has seats 1 to 2"), "{error}");
}
