//! Whole-game limits of the run stage: listing the legal actions and a computer player's
//! scoring are counted, and a mod that passes a limit gets an error naming its rule and where it
//! is written, quickly, instead of a run that takes hours or gigabytes.

mod common;

use std::time::{Duration, Instant};

use common::write_mod;
use meeple_engine::ai;
use meeple_engine::game::{Engine, Events, GameSetup};

const MANIFEST: &str = r#"id = "crowded"
name = "Crowded"
version = "1.0.0"
api = 1
description = "Limits fixture."
seats = { min = 2, max = 2 }
"#;

/// A 12 × 12 grid (144 spaces) and the given actions, all in one phase.
fn grid_mod(actions: &str, phase_actions: &str) -> std::path::PathBuf {
    let data = format!(
        r#"[board]
kind = "square"
columns = 12
rows = 12
terrain = "field"

[terrain.field]

[space_counters.dice]
max = 8

{actions}
[turn]
phases = [{{ id = "main", actions = [{phase_actions}] }}]

[end]
win = "seat.number == 99"
"#
    );
    write_mod("crowded", &[("mod.toml", MANIFEST.as_bytes()), ("data.toml", data.as_bytes())])
}

fn start(folder: &std::path::Path) -> (Engine, meeple_engine::game::GameState) {
    let rules = common::loaded(folder);
    let mut engine = Engine::new(rules.clone()).expect("engine");
    let state = engine.new_game(&GameSetup::new(&rules, 1, 2, "human"), &mut Events::discard()).expect("starts");
    (engine, state)
}

#[test]
fn an_action_whose_parameters_combine_past_the_limit_is_an_error_naming_it() {
    // 144⁴ ≈ 430 million combinations: listing them all took minutes and gigabytes.
    let folder = grid_mod(
        r#"[actions.pick_four]
label = "Pick four"
params = [
  { name = "a", kind = "space" },
  { name = "b", kind = "space" },
  { name = "c", kind = "space" },
  { name = "d", kind = "space" },
]
effect = ["a.dice += 1"]
"#,
        r#""pick_four""#,
    );
    let (mut engine, state) = start(&folder);
    let started = Instant::now();
    let mut legal = Vec::new();
    let error = engine.legal_actions(&state, &mut legal).expect_err("past the listing limit");
    let took = started.elapsed();
    eprintln!("listing refused after {took:?}");
    assert!(took < Duration::from_secs(2), "took {took:?}");
    assert!(legal.is_empty(), "a failed listing lists nothing");
    let message = error.to_string();
    assert!(message.contains("data.toml:12:1 actions.pick_four"), "{message}");
    assert!(message.contains("more than 10000000 steps"), "{message}");
    // Every computer player meets the same error, rather than playing on without the action.
    for level in ["easy", "medium", "hard"] {
        let mut player = ai::player(level, 1).unwrap();
        let error = player.decide(&mut engine, &state).expect_err(level);
        assert!(error.to_string().contains("actions.pick_four"), "{level}: {error}");
    }
}

#[test]
fn three_parameters_over_the_board_still_list() {
    // 144³ ≈ 3 million candidates, each with a filter: within the limit, and the filter keeps
    // the list short.
    let folder = grid_mod(
        r#"[actions.pick_three]
label = "Pick three"
params = [
  { name = "a", kind = "space" },
  { name = "b", kind = "space", where = "a == space(\"A00\")" },
  { name = "c", kind = "space", where = "b == space(\"B00\")" },
]
effect = ["a.dice += 1"]
"#,
        r#""pick_three""#,
    );
    let (mut engine, state) = start(&folder);
    let mut legal = Vec::new();
    engine.legal_actions(&state, &mut legal).expect("within the limit");
    // The 144 choices of `c`, then passing.
    assert_eq!(legal.len(), 145);
}

#[test]
fn a_score_that_loops_over_the_board_for_every_candidate_stops_the_decision() {
    // Each candidate's score walks every space for every space (144² = 20,736 steps, under
    // one formula's limit); for 144 × 144 candidates that is 430 million steps a decision,
    // which used to run every time, silently. The listing's count stops it at its limit.
    let folder = grid_mod(
        r#"[actions.pair]
label = "Pair"
params = [
  { name = "a", kind = "space" },
  { name = "b", kind = "space" },
]
effect = ["a.dice += 1"]
ai = { score = "count_of(space, count_of(space, space.dice == 0) > 0)" }
"#,
        r#""pair""#,
    );
    let (mut engine, state) = start(&folder);
    let mut legal = Vec::new();
    engine.legal_actions(&state, &mut legal).expect("listing alone is within the limit");
    assert_eq!(legal.len(), 144 * 144 + 1);
    let started = Instant::now();
    let mut medium = ai::player("medium", 1).unwrap();
    let error = medium.decide(&mut engine, &state).expect_err("scoring past the limit");
    eprintln!("decision refused after {:?}", started.elapsed());
    assert!(started.elapsed() < Duration::from_secs(2));
    assert!(error.to_string().contains("data.toml:12:1 actions.pair"), "{error}");
    // Choosing from the full list scores the same actions and meets the same limit.
    let error = medium.choose(&mut engine, &state, &legal).expect_err("scoring past the limit");
    assert!(error.to_string().contains("actions.pair"), "{error}");
}

#[test]
fn a_game_places_at_most_so_many_pieces() {
    // Three loops over 144 spaces would place 2,985,984 pieces (gigabytes of them, with their
    // stats and events); the game stops at 100,000 with an error naming the setup.
    let data = r#"[board]
kind = "square"
columns = 12
rows = 12
terrain = "field"

[terrain.field]

[pieces.pawn]

[setup]
effect = [
  { for_each = "space", as = "a", do = [
    { for_each = "space", as = "b", do = [
      { for_each = "space", as = "c", do = ["place('pawn', none, c)"] },
    ] },
  ] },
]

[turn]
phases = [{ id = "main", actions = [] }]

[end]
win = "seat.number == 99"
"#;
    let folder = write_mod("crowded", &[("mod.toml", MANIFEST.as_bytes()), ("data.toml", data.as_bytes())]);
    let rules = common::loaded(&folder);
    let mut engine = Engine::new(rules.clone()).unwrap();
    let started = Instant::now();
    let error = engine.new_game(&GameSetup::new(&rules, 1, 2, "human"), &mut Events::discard()).expect_err("too many");
    eprintln!("placing refused after {:?}", started.elapsed());
    assert!(started.elapsed() < Duration::from_secs(2));
    let message = error.to_string();
    assert!(message.contains("at most 100000 pieces"), "{message}");
    assert!(message.contains("data.toml:12:10 setup.effect"), "{message}");
}

const SMALL_DATA: &str = r#"[board]
kind = "graph"
terrain = "land"
spaces = [{ id = "a", home = 0 }, { id = "b", home = 1 }]
links = [["a", "b"]]

[terrain.land]

[end]
win = "seat.number == 99"
"#;

#[test]
fn a_collection_holds_at_most_ten_thousand_definitions() {
    // 10,002 kinds of terrain over three files: the first one too many (the 10,001st) is named
    // where it is written.
    let first: String = (0..6_000).map(|i| format!("terrain.t{i:05} = {{}}\n")).collect();
    let second: String = (6_000..10_001).map(|i| format!("terrain.t{i:05} = {{}}\n")).collect();
    let folder = write_mod(
        "crowded",
        &[
            ("mod.toml", MANIFEST.as_bytes()),
            ("data.toml", SMALL_DATA.as_bytes()),
            ("more.toml", first.as_bytes()),
            ("zmore.toml", second.as_bytes()),
        ],
    );
    let problems = common::problems(&folder);
    let shown: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(problems.len(), 1, "{shown:#?}");
    assert!(shown[0].contains("zmore.toml:4000:9: error: [terrain] key `t09999`"), "{}", shown[0]);
    assert!(
        shown[0].contains("`terrain` holds 10002 definitions; a collection may hold at most 10000"),
        "{}",
        shown[0]
    );
}

#[test]
fn a_mods_data_files_come_to_at_most_32_mib_together() {
    // Five files of 7 MiB (each under the 8 MiB a file may have): the fifth passes 32 MiB and is
    // refused unread.
    let padding = format!("# {}\n", "x".repeat(7 * 1024 * 1024));
    let mut files: Vec<(String, Vec<u8>)> =
        vec![("mod.toml".into(), MANIFEST.into()), ("data.toml".into(), SMALL_DATA.into())];
    for i in 1..=5 {
        files.push((format!("pad{i}.toml"), padding.clone().into_bytes()));
    }
    let borrowed: Vec<(&str, &[u8])> = files.iter().map(|(p, b)| (p.as_str(), b.as_slice())).collect();
    let folder = write_mod("crowded", &borrowed);
    let problems = common::problems(&folder);
    let shown: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(problems.len(), 1, "{shown:#?}");
    assert!(shown[0].contains("pad5.toml"), "{}", shown[0]);
    assert!(shown[0].contains("more than 32 MiB together"), "{}", shown[0]);
}

/// A two-space mod whose hook file is `hooks`.
fn hooked_mod(hooks: &str) -> std::path::PathBuf {
    let data = format!("{SMALL_DATA}\n[turn]\nphases = [{{ id = \"main\", actions = [] }}]\n");
    write_mod(
        "crowded",
        &[("mod.toml", MANIFEST.as_bytes()), ("data.toml", data.as_bytes()), ("hooks/many.lua", hooks.as_bytes())],
    )
}

#[test]
fn the_hooks_of_one_action_share_one_budget() {
    // 200 handlers of the end of a turn, each running about 3 million instructions (under the
    // 5 million one call may run): one pass ran 600 million instructions, seconds of work.
    let folder = hooked_mod(
        r#"for _ = 1, 200 do
  meeple.on("turn_end", function(seat)
    local x = 0
    for i = 1, 1500000 do x = x + i end
    game.put("last", x)
  end)
end
"#,
    );
    let (mut engine, state) = start(&folder);
    let mut messages = Vec::new();
    for _ in 0..2 {
        let mut after = state.clone();
        let started = Instant::now();
        let error = engine
            .apply(&mut after, &meeple_engine::game::Action::pass(), &mut Events::discard())
            .expect_err("past the shared budget");
        eprintln!("pass refused after {:?}", started.elapsed());
        assert!(started.elapsed() < Duration::from_secs(2));
        assert_eq!(
            serde_json::to_string(&after).unwrap(),
            serde_json::to_string(&state).unwrap(),
            "a refused action changes nothing"
        );
        messages.push(error.to_string());
    }
    assert!(messages[0].contains("ran more than 50000000 instructions together"), "{}", messages[0]);
    assert!(messages[0].contains("many.lua:4"), "{}", messages[0]);
    assert_eq!(messages[0], messages[1], "the same action fails the same way every time");
}

#[test]
fn a_mod_registers_at_most_256_event_handlers() {
    let folder = hooked_mod("for _ = 1, 300 do\n  meeple.on(\"turn_end\", function() end)\nend\n");
    let problems = common::problems(&folder);
    let shown: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(problems.len(), 1, "{shown:#?}");
    assert!(shown[0].contains("many.lua:2"), "{}", shown[0]);
    assert!(shown[0].contains("at most 256 event handlers"), "{}", shown[0]);
}

#[test]
fn a_hard_decision_does_a_bounded_amount_of_work() {
    // Every score calls a hook that runs about 2 million instructions: a hard player's look-ahead
    // (6 candidates × 12 futures × up to 400 actions, each scored) ran for minutes. Its work is
    // counted, and the look-ahead stops where its budget runs out, with every candidate judged in
    // the same futures: the same decision every time, on any machine.
    let data = format!(
        "{SMALL_DATA}\n[vars]\nn = 0\n\n[actions.tick]\nlabel = \"Tick\"\neffect = [\"n += 1\"]\nai = {{ score = \"hook('burn')\" }}\n\n[actions.tock]\nlabel = \"Tock\"\neffect = [\"n += 2\"]\nai = {{ score = \"hook('burn') + 1\" }}\n\n[turn]\nphases = [{{ id = \"main\", actions = [\"tick\", \"tock\"], budget = {{ tick = 1, tock = 1 }} }}]\n"
    );
    let data = data.replace("win = \"seat.number == 99\"", "win = \"seat.number == 99\"\nturn_limit = 200");
    let folder = write_mod(
        "crowded",
        &[
            ("mod.toml", MANIFEST.as_bytes()),
            ("data.toml", data.as_bytes()),
            ("hooks/burn.lua", b"function burn() local n = 0 for i = 1, 1000000 do n = n + i end return 1 end\n"),
        ],
    );
    let (mut engine, state) = start(&folder);
    let mut decisions = Vec::new();
    for _ in 0..2 {
        let mut hard = ai::player("hard", 3).unwrap();
        let before = engine.work_done();
        let started = Instant::now();
        decisions.push(hard.decide(&mut engine, &state).expect("decides"));
        let work = engine.work_done() - before;
        eprintln!("hard decision: {work} units of work in {:?}", started.elapsed());
        // The budget, plus at most the one continuation step that crossed it.
        assert!(work < 30_000_000, "{work}");
    }
    assert_eq!(decisions[0], decisions[1]);
}

#[test]
fn the_rules_of_one_action_share_one_step_budget() {
    // Each statement loops 144³ ≈ 3 million steps (under one formula's 10 million); a hundred of
    // them took minutes. And `largest_group` searches the whole board on every call, which used to
    // count as one step.
    let statement = "let x = count_of(a in space, count_of(b in space, count_of(c in space, c.dice == 0) > 143) > 0)";
    let effects: Vec<String> = (0..100).map(|_| format!("  \"{statement}\",")).collect();
    for (setup, expected) in [
        (format!("[setup]\neffect = [\n{}\n]\n", effects.join("\n")), "data.toml:13:10 setup.effect"),
        (
            "[setup]\neffect = [\"deal_spaces()\", \"let x = count_of(a in space, count_of(b in space, count_of(c in space, largest_group(seat(1)) >= 0) > 0) > 0)\"]\n"
                .to_string(),
            "data.toml:13:10 setup.effect",
        ),
    ] {
        let data = format!(
            "[board]\nkind = \"square\"\ncolumns = 12\nrows = 12\nterrain = \"field\"\n\n[terrain.field]\n\n[space_counters.dice]\nmax = 8\n\n{setup}\n[turn]\nphases = [{{ id = \"main\", actions = [] }}]\n\n[end]\nwin = \"seat.number == 99\"\n"
        );
        let folder = write_mod("crowded", &[("mod.toml", MANIFEST.as_bytes()), ("data.toml", data.as_bytes())]);
        let rules = common::loaded(&folder);
        let mut engine = Engine::new(rules.clone()).unwrap();
        let started = Instant::now();
        let error = engine
            .new_game(&GameSetup::new(&rules, 1, 2, "human"), &mut Events::discard())
            .expect_err("past the budget")
            .to_string();
        eprintln!("setup refused after {:?}", started.elapsed());
        assert!(started.elapsed() < Duration::from_secs(2));
        assert!(error.contains(expected), "{error}");
        assert!(error.contains("took more than 10000000 steps"), "{error}");
    }
}

#[test]
fn a_log_line_is_kept_cut() {
    // A handler that logs 1 MiB at every turn kept gigabytes of events; a line is kept cut to
    // 4 KiB with its length.
    let folder =
        hooked_mod("local s = string.rep('x', 1024 * 1024)\nmeeple.on('turn_end', function(seat) game.log(s) end)\n");
    let (mut engine, mut state) = start(&folder);
    let mut events = Events::recording();
    engine.apply(&mut state, &meeple_engine::game::Action::pass(), &mut events).expect("passes");
    let logged: Vec<String> = events
        .list()
        .iter()
        .filter_map(|e| match e {
            meeple_engine::game::Event::Log { text } => Some(text.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(logged.len(), 1);
    assert!(logged[0].len() < 4_200, "{}", logged[0].len());
    assert!(logged[0].ends_with("… (1048576 bytes)"), "{}", &logged[0][4_000..]);
}
