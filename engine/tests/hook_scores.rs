//! Lua hooks called from an action's `ai.score`, its `preview` and `[ai] standing` run, read-only,
//! as they do anywhere else: a computer player scores by them, a preview shows their figure, and
//! a hook that fails there is a located rule error — never an action quietly treated as the
//! worst. Where a key cannot call Lua by design (`success`), loading says so, naming the key.

mod common;

use common::write_mod;
use meeple_engine::ai;
use meeple_engine::game::{Action, ActionKind, Engine, Events, Figure, GameSetup, GameState, Method};

const MANIFEST: &str = r#"id = "scored"
name = "Scored"
version = "1.0.0"
api = 1
description = "Hooks in scores fixture."
seats = { min = 2, max = 2 }
"#;

/// Seven actions: six decoys scored 1 to 6 by formulas, and `win`, the only one that wins, scored
/// by a hook. A hard player looks ahead at its six best-scored actions only, so it finds `win`
/// only when the hook's score counts.
fn data(win_extra: &str) -> String {
    let mut text = String::from(
        r#"[board]
kind = "graph"
terrain = "land"
spaces = [{ id = "a", home = 0 }, { id = "b", home = 1 }]
links = [["a", "b"]]

[terrain.land]

[vars]
waited = 0

"#,
    );
    for i in 1..=6 {
        text.push_str(&format!(
            "[actions.decoy{i}]\nlabel = \"Decoy {i}\"\neffect = [\"waited += 1\"]\nai = {{ score = \"{i}\" }}\n\n"
        ));
    }
    text.push_str(&format!(
        r#"[actions.win]
label = "Win"
effect = ["win(me)"]
ai = {{ score = "hook('value_of_winning')" }}
{win_extra}

[turn]
phases = [{{ id = "main", actions = ["decoy1", "decoy2", "decoy3", "decoy4", "decoy5", "decoy6", "win"], budget = {{ decoy1 = 1, decoy2 = 1, decoy3 = 1, decoy4 = 1, decoy5 = 1, decoy6 = 1, win = 1 }} }}]

[end]
win = "seat.number == 99"
turn_limit = 50
"#
    ));
    text
}

fn mod_with(hooks: &str, win_extra: &str) -> std::path::PathBuf {
    let data = data(win_extra);
    write_mod(
        "scored",
        &[("mod.toml", MANIFEST.as_bytes()), ("data.toml", data.as_bytes()), ("hooks/score.lua", hooks.as_bytes())],
    )
}

fn start(folder: &std::path::Path) -> (Engine, GameState, std::sync::Arc<meeple_engine::rules::Ruleset>) {
    let rules = common::loaded(folder);
    let mut engine = Engine::new(rules.clone()).expect("engine");
    let state = engine.new_game(&GameSetup::new(&rules, 1, 2, "computer"), &mut Events::discard()).expect("starts");
    (engine, state, rules)
}

fn action_id(rules: &meeple_engine::rules::Ruleset, action: &Action) -> String {
    match action.kind {
        ActionKind::Rule(index) => rules.actions[index as usize].id.clone(),
        other => format!("{other:?}"),
    }
}

const VALUE_HOOK: &str = r#"
--- Winning is worth more than anything else; reads the game, changes nothing.
function value_of_winning()
  return 100 + game.var("waited")
end
"#;

#[test]
fn medium_and_hard_players_take_the_action_a_hook_scores_best() {
    let folder = mod_with(VALUE_HOOK, "");
    let (mut engine, state, rules) = start(&folder);
    let win = Action {
        kind: ActionKind::Rule(rules.actions.iter().position(|a| a.id == "win").unwrap() as u16),
        args: [0; meeple_engine::game::MAX_PARAMS],
    };
    assert_eq!(engine.ai_score(&state, &win).unwrap(), Some((100.0, None)));
    for level in ["medium", "hard"] {
        for seed in 0..5 {
            let mut player = ai::player(level, seed).unwrap();
            let chosen = player.decide(&mut engine, &state).unwrap();
            assert_eq!(action_id(&rules, &chosen), "win", "{level}, seed {seed}");
        }
    }
}

#[test]
fn a_hook_that_fails_in_a_score_is_a_located_error() {
    let folder = mod_with(
        "function value_of_winning()\n  local x = game.var('waited')\n  error('no value for ' .. x)\nend\n",
        "",
    );
    let (mut engine, state, _) = start(&folder);
    for level in ["medium", "hard"] {
        let mut player = ai::player(level, 1).unwrap();
        let error = player.decide(&mut engine, &state).expect_err(level).to_string();
        assert!(error.contains("data.toml:"), "{level}: {error}");
        assert!(error.contains("actions.win.ai.score"), "{level}: {error}");
        assert!(error.contains("score.lua:3: no value for 0"), "{level}: {error}");
    }
    // The easy player does not score: it still plays.
    let mut easy = ai::player("easy", 1).unwrap();
    easy.decide(&mut engine, &state).expect("the easy player reads no score");
}

#[test]
fn a_hook_in_a_score_reads_but_cannot_change_the_game() {
    let folder = mod_with("function value_of_winning()\n  game.set_var('waited', 5)\n  return 1\nend\n", "");
    let (mut engine, state, _) = start(&folder);
    let mut medium = ai::player("medium", 1).unwrap();
    let error = medium.decide(&mut engine, &state).expect_err("a score may not write").to_string();
    assert!(error.contains("actions.win.ai.score"), "{error}");
    assert!(error.contains("score.lua:2: game.set_var: the game can only be read here"), "{error}");
}

#[test]
fn a_preview_shows_what_a_hook_works_out() {
    let folder = mod_with(VALUE_HOOK, r#"preview = { "Worth" = "hook('value_of_winning')" }"#);
    let (mut engine, state, rules) = start(&folder);
    let win = Action {
        kind: ActionKind::Rule(rules.actions.iter().position(|a| a.id == "win").unwrap() as u16),
        args: [0; meeple_engine::game::MAX_PARAMS],
    };
    let figures = engine.preview(&state, &win).unwrap();
    assert_eq!(figures, vec![Figure { label: "Worth".to_string(), value: 100.0, method: Method::Certain }]);
    // A preview whose hook fails is an error naming the figure, not a figure left out.
    let folder = mod_with(
        "function value_of_winning() error('broken') end",
        r#"preview = { "Worth" = "hook('value_of_winning')" }"#,
    );
    let (mut engine, state, _) = start(&folder);
    let error = engine.preview(&state, &win).expect_err("the hook fails").to_string();
    assert!(error.contains("actions.win.preview.Worth"), "{error}");
    assert!(error.contains("score.lua:1: broken"), "{error}");
}

#[test]
fn success_cannot_call_a_hook_and_says_why_without_a_cascade() {
    let folder = mod_with(
        VALUE_HOOK,
        r#"rolls = { die = "1d6" }
success = "die > hook('value_of_winning')"
preview = { "Chance" = "chance" }"#,
    );
    let problems = common::problems(&folder);
    let shown: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(problems.len(), 1, "one problem, no cascade into `chance`: {shown:#?}");
    assert!(shown[0].contains("key `success`"), "{}", shown[0]);
    assert!(
        shown[0].contains("`hook` cannot be called here: an action's `success` is worked out exactly"),
        "{}",
        shown[0]
    );
}
