//! The facts docs/modding/how-a-game-runs.md states, each checked: the order of effects,
//! triggers and Lua handlers around `end_turn()` and passing; that a scenario test's
//! `g:set_turn` runs none of a turn's start; what the JSON of `meeple run` shows of hidden
//! values and hands, and that a hook's dice are public events; what `for_each` loops over;
//! `clamp` on decimals; that `.toml` files in sub-folders are data; and that a trigger on
//! `game_end`, which could never run, is refused.

mod common;

use std::path::PathBuf;
use std::sync::Arc;

use common::{legal, manifest, new_game, write_mod};
use meeple_engine::game::events::Event;
use meeple_engine::game::render::{event_json, state_json};
use meeple_engine::game::{Action, ActionKind, Events, GameState};
use meeple_engine::loader::load_mod;
use meeple_engine::rules::Ruleset;
use meeple_engine::scenario::run_mod_tests;

/// Writes and loads a mod from `data.toml` and `hooks/main.lua`; panics with the problems.
fn load(id: &str, data: &str, hooks: &str) -> Arc<Ruleset> {
    let folder = write(id, data, hooks);
    let loaded = load_mod(&folder);
    std::fs::remove_dir_all(&folder).ok();
    match loaded {
        Ok(loaded) => loaded.ruleset,
        Err(problems) => panic!("{}", problems.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("\n")),
    }
}

fn write(id: &str, data: &str, hooks: &str) -> PathBuf {
    let manifest = manifest(id);
    write_mod(
        id,
        &[("mod.toml", manifest.as_bytes()), ("data.toml", data.as_bytes()), ("hooks/main.lua", hooks.as_bytes())],
    )
}

/// A two-space board with one terrain, for mods that need no more.
const BOARD: &str = "[board]\nkind = \"graph\"\nterrain = \"land\"\nspaces = [{ id = \"a\" }, { id = \"b\" }]\n\
                     links = [[\"a\", \"b\"]]\n\n[terrain.land]\n\n[end]\nwin = \"seat.number == 99\"\n";

/// Every place that runs something around the end of a turn writes a line to the log.
const TRIGGER_ORDER: &str = r#"
[turn]
on_start = ["log('turn.on_start')"]
on_end = ["log('turn.on_end')"]
phases = [{ id = "main", on_start = ["log('phase main: on_start')"], on_end = ["log('phase main: on_end')"] }]

[actions.finish]
label = "Finish"
effect = ["log('effect: before end_turn()')", "end_turn()", "log('effect: after end_turn()')"]

[[triggers]]
on = "after_action"
effect = ["log('trigger: after_action')"]

[[triggers]]
on = "turn_end"
effect = ["log('trigger: turn_end')"]

[[triggers]]
on = "turn_start"
effect = ["log('trigger: turn_start')"]
"#;

const TRIGGER_HOOKS: &str = r#"
meeple.on("after_action", function(seat) game.log("lua: after_action") end)
meeple.on("turn_end", function(seat) game.log("lua: turn_end") end)
meeple.on("turn_start", function(seat) game.log("lua: turn_start") end)
"#;

/// The log lines and turn boundaries of the events of one action.
fn story(events: &Events) -> Vec<String> {
    events
        .list()
        .iter()
        .filter_map(|event| match event {
            Event::Log { text } => Some(text.clone()),
            Event::TurnEnded { seat } => Some(format!("(turn of seat {} ends)", seat + 1)),
            Event::TurnStarted { seat, .. } => Some(format!("(turn of seat {} starts)", seat + 1)),
            _ => None,
        })
        .collect()
}

fn action_named(rules: &Ruleset, engine: &mut meeple_engine::game::Engine, state: &GameState, id: &str) -> Action {
    legal(engine, state)
        .into_iter()
        .find(|a| match a.kind {
            ActionKind::Rule(i) => rules.actions[i as usize].id == id,
            ActionKind::Pass => id == "pass",
            _ => false,
        })
        .unwrap_or_else(|| panic!("no legal {id}"))
}

#[test]
fn the_order_around_end_turn_and_around_passing() {
    let rules = load("order", &format!("{BOARD}{TRIGGER_ORDER}"), TRIGGER_HOOKS);
    let (mut engine, mut state, start) = new_game(&rules, 1, 2);
    assert_eq!(
        story(&start),
        ["(turn of seat 1 starts)", "turn.on_start", "phase main: on_start", "trigger: turn_start", "lua: turn_start"],
        "the first turn's start"
    );

    let mut events = Events::recording();
    let finish = action_named(&rules, &mut engine, &state, "finish");
    engine.apply(&mut state, &finish, &mut events).unwrap();
    assert_eq!(
        story(&events),
        [
            // `end_turn()` asks for the end; the rest of the effect list still runs.
            "effect: before end_turn()",
            "effect: after end_turn()",
            "trigger: after_action",
            "lua: after_action",
            // The phase's `on_end` is skipped: `end_turn()` ends the turn, not the phase.
            "turn.on_end",
            "(turn of seat 1 ends)",
            "trigger: turn_end",
            "lua: turn_end",
            "(turn of seat 2 starts)",
            "turn.on_start",
            "phase main: on_start",
            "trigger: turn_start",
            "lua: turn_start",
        ]
    );

    let mut events = Events::recording();
    let pass = action_named(&rules, &mut engine, &state, "pass");
    engine.apply(&mut state, &pass, &mut events).unwrap();
    assert_eq!(
        story(&events),
        [
            // Passing is no action of the mod: no `after_action`; the phase ends, then the turn.
            "phase main: on_end",
            "turn.on_end",
            "(turn of seat 2 ends)",
            "trigger: turn_end",
            "lua: turn_end",
            "(turn of seat 1 starts)",
            "turn.on_start",
            "phase main: on_start",
            "trigger: turn_start",
            "lua: turn_start",
        ]
    );
}

#[test]
fn set_turn_in_a_scenario_test_runs_nothing_of_the_turn_start() {
    let data = format!(
        "{BOARD}\n[resources.gold]\ninitial = 0\n\n[turn]\non_start = [\"me.gold += 1\"]\n\n\
         [actions.wait]\nlabel = \"Wait\"\neffect = [\"end_turn()\"]\n"
    );
    let rules = load("set_turn", &data, "");
    let lua = r#"
test("set_turn gives the turn without its on_start", function()
  local g = scenario.new{ seed = 1, seats = 2 }
  expect_eq(g:resource(1, "gold"), 1, "the first turn started for real")
  expect_eq(g:resource(2, "gold"), 0)
  g:set_turn(2)
  expect_eq(g:current_seat(), 2)
  expect_eq(g:resource(2, "gold"), 0, "no on_start ran for seat 2")
  g:act{ action = "wait" }
  expect_eq(g:resource(1, "gold"), 2, "a turn that starts by play runs on_start")
end)
"#;
    let dir = std::env::temp_dir().join(format!("meeple-how-a-game-runs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("set_turn.lua");
    std::fs::write(&file, lua).unwrap();
    let results = run_mod_tests(&rules, std::slice::from_ref(&file), &[], None);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(results.len(), 1);
    assert!(results[0].failure.is_none(), "{:?}", results[0].failure);
}

#[test]
fn the_json_of_a_run_shows_hidden_values_every_hand_and_a_hooks_dice() {
    let data = format!(
        "{BOARD}\n[resources.secret]\nhidden = true\n\n[cards.ace]\n[cards.two]\n[decks.hand]\ncards = {{ ace = 3, two = 3 }}\n\n\
         [setup]\neffect = [\"draw_cards('hand', seat(1), 2)\", \"draw_cards('hand', seat(2), 2)\"]\n\n\
         [actions.peek]\nlabel = \"Peek\"\neffect = [\"me.secret += 1\", \"hook('look')\"]\n"
    );
    let hooks = "function look()\n  local rolled = game.roll(1, 6)\n  local drawn = game.random(1, 6)\n  return rolled + drawn\nend\n";
    let rules = load("hidden", &data, hooks);
    assert!(rules.resources[0].hidden && rules.decks[0].hidden, "hidden resource, hidden hands (the default)");
    let (mut engine, mut state, start) = new_game(&rules, 1, 2);
    let mut events = Events::recording();
    let peek = action_named(&rules, &mut engine, &state, "peek");
    engine.apply(&mut state, &peek, &mut events).unwrap();

    let all: Vec<serde_json::Value> =
        start.list().iter().chain(events.list()).map(|e| event_json(&rules, &state, e)).collect();
    let named = |name: &str| all.iter().filter(|e| e["event"] == name).cloned().collect::<Vec<_>>();
    // For the referee (`meeple run` without `--as`), hidden values are in the events and the
    // state like any other; a seat's view is another matter (tests/hidden_information.rs).
    let changed = named("resource_changed");
    assert_eq!(changed.len(), 1);
    assert_eq!((changed[0]["resource"].as_str(), changed[0]["to"].as_i64()), (Some("secret"), Some(1)));
    let json = state_json(&rules, &state);
    assert_eq!(json["seats"][0]["resources"]["secret"], 1);
    // Every seat's hand, by card, in the state and in the events that dealt it.
    for seat in 0..2 {
        let hand = json["seats"][seat]["hand"].as_array().expect("a hand");
        assert_eq!(hand.len(), 2, "seat {}", seat + 1);
        assert!(hand.iter().all(|card| card == "ace" || card == "two"));
    }
    let dealt = named("cards_drawn");
    assert_eq!(dealt.len(), 2);
    assert_eq!(dealt[1]["seat"], 2);
    assert_eq!(dealt[1]["cards"], json["seats"][1]["hand"]);
    // The hook's `game.roll` is a public `rolled` event; its `game.random` makes none.
    let rolled = named("rolled");
    assert_eq!(rolled.len(), 1, "{rolled:?}");
    assert_eq!(rolled[0]["roll"], "hook");
    assert!((1..=6).contains(&rolled[0]["value"].as_i64().unwrap_or(0)), "{rolled:?}");
}

#[test]
fn for_each_loops_over_seats_spaces_and_pieces_in_play_including_pieces_off_the_board() {
    let data = format!(
        "{BOARD}\n[pieces.pawn]\n[vars]\nlooped = 0\ncounted = 0\nspaces = 0\nseats = 0\n\n\
         [setup]\neffect = [\"place('pawn', seat(1), space('a'))\", \"place('pawn', seat(2), space('b'))\", \
         \"place('pawn', seat(2), space('b'))\"]\n\n\
         [actions.count]\nlabel = \"Count\"\nparams = [{{ name = \"who\", kind = \"piece\", owned_by = \"me\" }}]\neffect = [\n  \
         \"who.space = none\",\n  \
         {{ for_each = \"piece\", as = \"p\", where = \"p.owner != none\", do = [\"looped += 1\"] }},\n  \
         \"counted = count_of(piece)\",\n  \
         {{ for_each = \"space\", do = [\"spaces += 1\"] }},\n  \
         {{ for_each = \"seat\", do = [\"seats += 1\"] }},\n]\n"
    );
    let rules = load("loops", &data, "");
    let (mut engine, mut state, _) = new_game(&rules, 1, 2);
    let count = action_named(&rules, &mut engine, &state, "count");
    engine.apply(&mut state, &count, &mut Events::discard()).unwrap();
    let var = |id: &str| state.vars[rules.vars.iter().position(|v| v.id == id).unwrap()];
    assert_eq!(
        (var("looped"), var("counted")),
        (3, 2),
        "for_each visits the piece taken off the board; count_of does not"
    );
    assert_eq!((var("spaces"), var("seats")), (2, 2));

    // Anything else is refused where it is written.
    let refused = data.replace("for_each = \"seat\"", "for_each = \"item\"");
    let folder = write("loops_refused", &refused, "");
    let text: Vec<String> = common::problems(&folder).iter().map(|p| p.to_string()).collect();
    std::fs::remove_dir_all(&folder).ok();
    assert!(text.iter().any(|t| t.contains("unknown value `item`; expected one of: seat, space, piece")), "{text:?}");
}

#[test]
fn clamp_takes_decimals_and_gives_a_decimal() {
    let data = format!(
        "{BOARD}\n[space_counters.dice]\nmax = 8\n\n[actions.check]\nlabel = \"Check\"\n\
         when = \"clamp(0.75, 0, 0.5) == 0.5 and clamp(-0.5, 0, 1) == 0 and clamp(0.25, 0, 1) == 0.25 and \
         clamp(2, 1, 3) == 2 and clamp(1, 0.5, 0.25) == 0.5\"\neffect = [\"end_turn()\"]\n"
    );
    let rules = load("clamp", &data, "");
    let (mut engine, state, _) = new_game(&rules, 1, 2);
    action_named(&rules, &mut engine, &state, "check");

    // A decimal cannot go where a whole number must.
    let into_counter = data.replace(
        "effect = [\"end_turn()\"]",
        "params = [{ name = \"s\", kind = \"space\" }]\neffect = [\"s.dice = clamp(0.5, 0, 1)\"]",
    );
    let folder = write("clamp_refused", &into_counter, "");
    let text: Vec<String> = common::problems(&folder).iter().map(|p| p.to_string()).collect();
    std::fs::remove_dir_all(&folder).ok();
    assert!(text.iter().any(|t| t.contains("expected a whole number, found a number")), "{text:?}");
}

#[test]
fn toml_files_in_sub_folders_are_data_but_not_in_hooks_or_tests() {
    let manifest = manifest("folders");
    let folder = write_mod(
        "folders",
        &[
            ("mod.toml", manifest.as_bytes()),
            ("data.toml", BOARD.as_bytes()),
            ("terrain/wet/swamp.toml", b"[terrain.swamp]\nmove_cost = 3\n"),
            // Not data: these would not even parse as a mod's tables.
            ("hooks/notes.toml", b"this is not toml"),
            ("tests/fixtures.toml", b"neither is this"),
        ],
    );
    let loaded = load_mod(&folder);
    std::fs::remove_dir_all(&folder).ok();
    let rules = loaded.map_err(|p| p.iter().map(|p| p.to_string()).collect::<Vec<_>>()).expect("loads").ruleset;
    let swamp = rules.terrain.iter().find(|t| t.id == "swamp").expect("the sub-folder's terrain");
    assert_eq!(swamp.move_cost, 3);
}

#[test]
fn a_trigger_on_game_end_is_refused_since_it_could_never_run() {
    let data = format!("{BOARD}\n[[triggers]]\non = \"game_end\"\neffect = [\"log('never')\"]\n");
    let folder = write("game_end", &data, "meeple.on(\"game_end\", function(seat) game.log(\"the end\") end)\n");
    let text: Vec<String> = common::problems(&folder).iter().map(|p| p.to_string()).collect();
    std::fs::remove_dir_all(&folder).ok();
    assert!(
        text.iter().any(|t| t.contains("data.toml:") && t.contains("a trigger never runs on `game_end`")),
        "{text:?}"
    );
}
