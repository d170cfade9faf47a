//! The runtime on the `tiny` fixture: phases and budgets, legal actions, rolls and odds,
//! pieces and templates, decks, hooks, events, rollback of failed actions, saves.

mod common;

use common::{fixture, legal, new_game};
use meeple_engine::game::record::{from_record, to_record};
use meeple_engine::game::{Action, ActionError, ActionKind, Event, Events, Outcome};
use meeple_engine::save::SaveFile;

fn action(rules: &meeple_engine::rules::Ruleset, id: &str, args: &[i64]) -> Action {
    Action::rule(rules.action_index(id).expect("action exists") as u16, args)
}

fn space(state: &meeple_engine::game::GameState, label: &str) -> u32 {
    state.board.find(label).expect("label exists")
}

#[test]
fn setup_places_pieces_from_templates() {
    let rules = fixture("tiny");
    let (_engine, state, _events) = new_game(&rules, 1, 2);
    assert_eq!(state.pieces.len(), 2, "one scout per seat");
    let health = rules.stat_index("health").unwrap();
    // `scout` inherits `base_unit`'s health 5; `knight` overrides it with 8.
    assert!(state.pieces.iter().all(|p| p.stats[health] == 5 && p.space == space(&state, "a")));
    let knight = rules.piece_kind_index("knight").unwrap();
    assert_eq!(rules.piece_kinds[knight].stats[health], 8);
    assert!(rules.piece_kind_index("base_unit").is_some(), "a template without `abstract` is a kind too");
}

#[test]
fn phases_budgets_and_passing() {
    let rules = fixture("tiny");
    let (mut engine, mut state, mut events) = new_game(&rules, 1, 2);
    // Income phase: only `collect`, and passing is not allowed before it.
    let first = legal(&mut engine, &state);
    assert_eq!(first, vec![action(&rules, "collect", &[])]);
    assert_eq!(engine.apply(&mut state, &Action::pass(), &mut events), Err(ActionError::MustAct));
    engine.apply(&mut state, &action(&rules, "collect", &[]), &mut events).unwrap();
    assert_eq!(
        engine.apply(&mut state, &action(&rules, "collect", &[]), &mut events),
        Err(ActionError::BudgetSpent { action: "collect".into(), limit: 1 })
    );
    assert_eq!(legal(&mut engine, &state), vec![Action::pass()], "with the budget spent only passing is left");
    engine.apply(&mut state, &Action::pass(), &mut events).unwrap();
    assert_eq!(rules.phases[state.turn.phase as usize].id, "main");
    // `dig` is allowed twice per main phase, on an owned space.
    let a = space(&state, "a");
    state.set_owner(a, 0);
    let dig = action(&rules, "dig", &[a as i64]);
    assert!(legal(&mut engine, &state).contains(&dig));
    engine.apply(&mut state, &dig, &mut events).unwrap();
    engine.apply(&mut state, &dig, &mut events).unwrap();
    assert!(matches!(engine.apply(&mut state, &dig, &mut events), Err(ActionError::BudgetSpent { .. })));
    // Passing the last phase ends the turn: `turn.on_end` pays a coin, seat 2 moves.
    let coins = rules.resource_index("coins").unwrap();
    let before = state.seats[0].resources[coins];
    engine.apply(&mut state, &Action::pass(), &mut events).unwrap();
    assert_eq!(state.seats[0].resources[coins], before + 1);
    assert_eq!((state.turn.seat, state.turn.number, state.turn.phase), (1, 2, 0));
}

#[test]
fn illegal_parameters_are_refused_without_change() {
    let rules = fixture("tiny");
    let (mut engine, mut state, mut events) = new_game(&rules, 1, 2);
    engine.apply(&mut state, &action(&rules, "collect", &[]), &mut events).unwrap();
    engine.apply(&mut state, &Action::pass(), &mut events).unwrap();
    let hash = state.hash();
    // Digging on a space the seat does not own.
    let b = space(&state, "b");
    let refused = engine.apply(&mut state, &action(&rules, "dig", &[b as i64]), &mut events);
    assert!(matches!(refused, Err(ActionError::Illegal { .. })), "{refused:?}");
    // Out of range space id, out of range number, another seat's turn.
    assert!(engine.apply(&mut state, &action(&rules, "dig", &[99]), &mut events).is_err());
    assert!(engine.apply(&mut state, &action(&rules, "probe", &[4]), &mut events).is_err());
    assert!(matches!(engine.apply_as(&mut state, 1, &Action::pass(), &mut events), Err(ActionError::NotYourTurn(2))));
    assert!(matches!(engine.apply(&mut state, &Action::leave(), &mut events), Err(ActionError::LeavingNotAllowed)));
    assert_eq!(state.hash(), hash);
}

#[test]
fn forced_rolls_decide_success_and_events_show_them() {
    let rules = fixture("tiny");
    let (mut engine, mut state, mut events) = new_game(&rules, 1, 2);
    engine.apply(&mut state, &action(&rules, "collect", &[]), &mut events).unwrap();
    engine.apply(&mut state, &Action::pass(), &mut events).unwrap();
    let a = space(&state, "a");
    state.set_owner(a, 0);
    let gold = rules.counter_index("gold").unwrap() as u16;
    state.forced_faces.extend([5, 2]);
    let mark = events.len();
    engine.apply(&mut state, &action(&rules, "dig", &[a as i64]), &mut events).unwrap();
    assert_eq!(state.counter(a, gold), 5, "a find of 5 succeeds (>= 4) and adds 5 gold");
    assert!(events.list()[mark..].iter().any(
        |e| matches!(e, Event::Rolled { roll: Some(r), faces, value: 5, .. } if r == "found" && faces == &vec![5])
    ));
    assert!(events.list()[mark..].contains(&Event::Decided { success: true }));
    engine.apply(&mut state, &action(&rules, "dig", &[a as i64]), &mut events).unwrap();
    assert_eq!(state.counter(a, gold), 5, "a find of 2 fails and adds nothing");
}

#[test]
fn exact_odds_for_previews_and_scores() {
    let rules = fixture("tiny");
    let (mut engine, mut state, mut events) = new_game(&rules, 1, 2);
    engine.apply(&mut state, &action(&rules, "collect", &[]), &mut events).unwrap();
    engine.apply(&mut state, &Action::pass(), &mut events).unwrap();
    let (a, b) = (space(&state, "a"), space(&state, "b"));
    state.set_owner(a, 0);
    let dig = action(&rules, "dig", &[a as i64]);
    assert_eq!(engine.chance(&state, &dig), Some(0.5));
    let preview: Vec<(String, f64)> =
        engine.preview(&state, &dig).unwrap().into_iter().map(|f| (f.label, f.value)).collect();
    assert_eq!(preview, vec![("Chance".to_string(), 0.5), ("Mean find".to_string(), 3.5)]);
    assert_eq!(engine.ai_score(&state, &dig).unwrap(), Some((0.5, None)));
    // Raid: (gold)d6 against the highest of 2d6, attacker strictly greater.
    let gold = rules.counter_index("gold").unwrap() as u16;
    *state.counter_mut(a, gold) = 1;
    let raid = action(&rules, "raid", &[a as i64, b as i64]);
    // P(1d6 > max(2d6)) = sum_k P(X=k) P(max < k) = (1/6) * sum_{k=1..6} ((k-1)/6)^2 = 55/216.
    let p = engine.chance(&state, &raid).unwrap();
    assert!((p - 55.0 / 216.0).abs() < 1e-12, "{p}");
}

#[test]
fn legal_actions_follow_parameter_sources_and_filters() {
    let rules = fixture("tiny");
    let (mut engine, mut state, mut events) = new_game(&rules, 1, 2);
    engine.apply(&mut state, &action(&rules, "collect", &[]), &mut events).unwrap();
    engine.apply(&mut state, &Action::pass(), &mut events).unwrap();
    let (a, b, c, d) = (space(&state, "a"), space(&state, "b"), space(&state, "c"), space(&state, "d"));
    state.set_owner(b, 0);
    state.set_owner(d, 1);
    let gold = rules.counter_index("gold").unwrap() as u16;
    *state.counter_mut(b, gold) = 2;
    let raids: Vec<Action> = legal(&mut engine, &state)
        .into_iter()
        .filter(|x| x.kind == ActionKind::Rule(rules.action_index("raid").unwrap() as u16))
        .collect();
    // From b (owned, gold > 0) to its neighbours a, c, d, but not c (water).
    let raid = |from: u32, to: u32| action(&rules, "raid", &[from as i64, to as i64]);
    assert_eq!(raids, vec![raid(b, a), raid(b, d)]);
    assert!(!raids.contains(&raid(b, c)));
    // Numbers 1..=3 for `probe`.
    let probes = legal(&mut engine, &state)
        .into_iter()
        .filter(|x| x.kind == ActionKind::Rule(rules.action_index("probe").unwrap() as u16))
        .count();
    assert_eq!(probes, 3);
}

#[test]
fn hooks_return_values_keep_plain_data_and_fail_cleanly() {
    let rules = fixture("tiny");
    let (mut engine, mut state, mut events) = new_game(&rules, 1, 2);
    // The turn_start handler stored plain data in the state.
    assert!(state.script_data.contains_key("last_turn_start"));
    engine.apply(&mut state, &action(&rules, "collect", &[]), &mut events).unwrap();
    engine.apply(&mut state, &Action::pass(), &mut events).unwrap();
    engine.apply(&mut state, &action(&rules, "probe", &[3]), &mut events).unwrap();
    assert_eq!(state.vars[rules.var_index("hooks_seen").unwrap()], 6, "double(3)");
    // `boom` adds coins, then its hook raises an error: the action is refused and the coins
    // (and everything else) are as before.
    let hash = state.hash();
    let mark = events.len();
    let refused = engine.apply(&mut state, &action(&rules, "boom", &[]), &mut events);
    let Err(ActionError::Rule(error)) = refused else { panic!("{refused:?}") };
    assert!(error.message().contains("main.lua:8: boom went wrong"), "{}", error.message());
    assert!(
        error.message().ends_with(
            "tiny/data.toml:92:10 actions.boom.effect: hook `explode`: tiny/hooks/main.lua:8: boom went wrong"
        ),
        "{}",
        error.message()
    );
    assert_eq!(state.hash(), hash);
    assert_eq!(events.len(), mark, "events of a refused action are dropped");
    // The game goes on.
    engine.apply(&mut state, &Action::pass(), &mut events).unwrap();
}

#[test]
fn decks_draw_into_hands_and_run_out() {
    let rules = fixture("tiny");
    let (mut engine, mut state, mut events) = new_game(&rules, 3, 2);
    engine.apply(&mut state, &action(&rules, "collect", &[]), &mut events).unwrap();
    engine.apply(&mut state, &Action::pass(), &mut events).unwrap();
    let draw = action(&rules, "draw", &[]);
    for _ in 0..4 {
        engine.apply(&mut state, &draw, &mut events).unwrap();
    }
    // Three cards in the deck, no reshuffle: the fourth draw finds nothing.
    assert_eq!(state.seats[0].hand.len(), 3);
    assert!(state.decks[0].draw.is_empty());
    let mut names: Vec<&str> = state.seats[0].hand.iter().map(|(_, c)| rules.card_ids[*c as usize].as_str()).collect();
    names.sort();
    assert_eq!(names, vec!["blank", "coin", "coin"]);
    assert!(events.list().iter().any(|e| matches!(e, Event::CardsDrawn { cards, .. } if cards.is_empty())));
}

#[test]
fn winning_ends_the_game_and_refuses_more_actions() {
    let rules = fixture("tiny");
    let (mut engine, mut state, mut events) = new_game(&rules, 1, 2);
    let coins = rules.resource_index("coins").unwrap();
    state.seats[0].resources[coins] = 19;
    // Passing the turn pays one coin: 20 wins.
    engine.apply(&mut state, &action(&rules, "collect", &[]), &mut events).unwrap();
    engine.apply(&mut state, &Action::pass(), &mut events).unwrap();
    engine.apply(&mut state, &Action::pass(), &mut events).unwrap();
    assert_eq!(state.outcome, Some(Outcome::Win { seats: vec![0] }));
    assert!(matches!(events.list().last(), Some(Event::GameOver { .. })));
    assert_eq!(engine.apply(&mut state, &Action::pass(), &mut events), Err(ActionError::GameOver));
    let mut actions = Vec::new();
    engine.legal_actions(&state, &mut actions).unwrap();
    assert!(actions.is_empty());
}

#[test]
fn the_turn_limit_draws_the_game() {
    let rules = fixture("tiny");
    let (mut engine, mut state, mut events) = new_game(&rules, 1, 2);
    let collect = action(&rules, "collect", &[]);
    let coins = rules.resource_index("coins").unwrap();
    while state.outcome.is_none() {
        // Keep both seats from winning by coins.
        for seat in &mut state.seats {
            seat.resources[coins] = 1;
        }
        engine.apply(&mut state, &collect, &mut events).unwrap();
        engine.apply(&mut state, &Action::pass(), &mut events).unwrap();
        engine.apply(&mut state, &Action::pass(), &mut events).unwrap();
    }
    assert_eq!(state.turn.number, 201, "the limit is 200 turns");
    assert_eq!(state.outcome, Some(Outcome::Draw { shares: vec![(0, 1), (1, 1)] }));
}

#[test]
fn records_round_trip_and_saves_replay() {
    let rules = fixture("tiny");
    let (mut engine, mut state, mut events) = new_game(&rules, 9, 2);
    let setup = meeple_engine::game::GameSetup::new(&rules, 9, 2, "human");
    let mut history = Vec::new();
    let a = space(&state, "a");
    for act in
        [action(&rules, "collect", &[]), Action::pass(), action(&rules, "probe", &[2]), action(&rules, "draw", &[])]
    {
        let record = to_record(&rules, &state, state.turn.seat, &act);
        assert_eq!(from_record(&rules, &state, &record), Ok((state.turn.seat, act)));
        history.push((state.turn.seat, act));
        engine.apply(&mut state, &act, &mut events).unwrap();
    }
    let _ = a;
    let save = SaveFile::new(&rules, &setup, &history, &state);
    let path = std::env::temp_dir().join(format!("meeple-save-{}.json", std::process::id()));
    save.write(&path).unwrap();
    let loaded = SaveFile::read(&path).unwrap();
    std::fs::remove_file(&path).ok();
    assert_eq!(loaded.state.as_ref().map(|s| s.hash()), Some(state.hash()), "the snapshot loads back identical");
    let (replayed, replayed_history) = loaded.replay(&mut engine, "save", &mut Events::discard()).unwrap();
    assert_eq!(replayed.hash(), state.hash());
    assert_eq!(replayed_history, history);
}

#[test]
fn readable_records_report_mistakes() {
    let rules = fixture("tiny");
    let (_engine, state, _events) = new_game(&rules, 1, 2);
    let record = |json: &str| serde_json::from_str::<meeple_engine::game::ActionRecord>(json).unwrap();
    let err = from_record(&rules, &state, &record(r#"{"action": "dgi", "where": "a"}"#)).unwrap_err();
    assert_eq!(err, "unknown action `dgi`; did you mean `dig`?");
    let err = from_record(&rules, &state, &record(r#"{"action": "dig", "wher": "a"}"#)).unwrap_err();
    assert_eq!(err, "`dig` has no parameter `wher`; did you mean `where`?");
    let err = from_record(&rules, &state, &record(r#"{"action": "dig", "where": "e"}"#)).unwrap_err();
    assert!(err.starts_with("`where`: no space is labelled `e`"), "{err}");
    let err = from_record(&rules, &state, &record(r#"{"action": "pass", "seat": 5}"#)).unwrap_err();
    assert_eq!(err, "there is no seat 5: the game has 2 seats");
}

#[test]
fn lua_changes_are_clamped_and_reported_like_toml_changes() {
    let rules = fixture("tiny");
    let (mut engine, mut state, mut events) = new_game(&rules, 1, 2);
    engine.apply(&mut state, &action(&rules, "collect", &[]), &mut events).unwrap();
    engine.apply(&mut state, &Action::pass(), &mut events).unwrap();
    let mark = events.len();
    engine.apply(&mut state, &action(&rules, "meddle", &[]), &mut events).unwrap();
    let b = space(&state, "b");
    let (gold, coins) = (rules.counter_index("gold").unwrap() as u16, rules.resource_index("coins").unwrap());
    assert_eq!(state.counter(b, gold), 10, "clamped to max 10");
    assert_eq!(state.owner(b), Some(0));
    assert_eq!(state.seats[1].resources[coins], 0, "clamped to min 0");
    assert_eq!(state.vars[rules.var_index("countdown").unwrap()], 3);
    assert_eq!(state.pieces[0].stats[rules.stat_index("health").unwrap()], 7);
    assert_eq!(state.pieces[1].space, space(&state, "d"));
    let new: Vec<&Event> = events.list()[mark..].iter().collect();
    assert!(new.contains(&&Event::CounterChanged { space: b, counter: gold, from: 0, to: 10, owner: None }));
    assert!(new.contains(&&Event::OwnerChanged { space: b, from: None, to: Some(0) }));
    assert!(new.contains(&&Event::ResourceChanged { seat: 1, resource: coins as u16, from: 3, to: 0 }));
    assert!(new.iter().any(|e| matches!(e, Event::Log { text } if text == "meddled 10")));
}

#[test]
fn the_standing_of_a_seat_can_come_from_a_read_only_lua_hook() {
    let rules = fixture("tiny");
    let (mut engine, mut state, _) = new_game(&rules, 1, 2);
    let coins = rules.resource_index("coins").unwrap();
    state.seats[0].resources[coins] = 7;
    state.seats[1].resources[coins] = 4;
    let before = state.hash();
    assert_eq!(engine.standing(&state, 0).unwrap(), 14.0);
    assert_eq!(engine.standing(&state, 1).unwrap(), 8.0);
    assert_eq!(state.hash(), before, "judging changes nothing");
}

/// `floor`, `round` and `ceil` turn decimals into whole numbers, in effects and in odds:
/// `round` takes halves away from 0.
#[test]
fn decimals_round_down_to_the_nearest_or_up() {
    let manifest = common::manifest("rounding");
    let data = r#"
[board]
kind = "graph"
terrain = "land"
spaces = [{ id = "a" }, { id = "b" }]
links = [["a", "b"]]

[terrain.land]

[vars]
x = 0

[actions.count]
label = "Count"
rolls = { die = "1d6" }
effect = ["x = floor(7 / 2.0) * 1000 + round(2.5) * 100 + round(-2.5) * 10 + ceil(3.5)"]
preview = { "Half" = "expect(round(die * 0.5))" }
"#;
    let folder = common::write_mod("rounding", &[("mod.toml", manifest.as_bytes()), ("data.toml", data.as_bytes())]);
    let rules = common::loaded(&folder);
    let (mut engine, mut state, _) = common::new_game(&rules, 1, 2);
    let count = Action::rule(rules.action_index("count").unwrap() as u16, &[]);
    let figures = engine.preview(&state, &count).unwrap();
    // round(0.5, 1, 1.5, 2, 2.5, 3) = 1, 1, 2, 2, 3, 3: a mean of 2.
    assert!((figures[0].value - 2.0).abs() < 1e-12, "{figures:?}");
    engine.apply(&mut state, &count, &mut Events::discard()).unwrap();
    assert_eq!(state.vars[0], 3000 + 300 - 30 + 4);
}

/// `exact_steps = true` offers only the spaces where a walk of exactly `steps` ends: on two
/// one-way rings joined at a junction, both rings past it, never the spaces before.
#[test]
fn exact_steps_offer_only_where_walks_of_that_length_end() {
    let manifest = common::manifest("exact_walks");
    let data = r#"
[board]
kind = "rings"
[[board.rings]]
id = "outer"
spaces = { count = 8, terrain = "sand" }
one_way = true
[[board.rings]]
id = "inner"
spaces = { count = 8, terrain = "sand" }
one_way = true
[[board.links]]
a = "outer:0"
b = "inner:0"

[terrain.sand]

[pieces.walker]

[setup]
effect = ["place('walker', me, space('outer 6'))"]

[actions.walk]
label = "Walk"
params = [{ name = "to", kind = "space", reachable_from = "me.piece.space", steps = "3", exact_steps = true }]
effect = ["me.piece.space = to"]
"#;
    let folder = common::write_mod("exact_walks", &[("mod.toml", manifest.as_bytes()), ("data.toml", data.as_bytes())]);
    let rules = common::loaded(&folder);
    let (mut engine, state, _) = common::new_game(&rules, 1, 2);
    let labels: Vec<String> = legal(&mut engine, &state)
        .into_iter()
        .filter(|a| matches!(a.kind, ActionKind::Rule(_)))
        .map(|a| state.board.space(a.args[0] as u32).label.clone())
        .collect();
    assert_eq!(labels, ["outer 1", "inner 0"]);
    // Checking an action agrees with the listing: 2 steps on is refused.
    let short = Action::rule(0, &[i64::from(state.board.find("outer 0").unwrap())]);
    assert!(engine.apply(&mut state.clone(), &short, &mut Events::discard()).is_err());
    let broken = data.replace("reachable_from = \"me.piece.space\", steps = \"3\", ", "");
    let folder =
        common::write_mod("exact_walks", &[("mod.toml", manifest.as_bytes()), ("data.toml", broken.as_bytes())]);
    let problems: Vec<String> = common::problems(&folder).iter().map(ToString::to_string).collect();
    assert!(problems.iter().any(|p| p.contains("`exact_steps` is about a `reachable_from` walk")), "{problems:?}");
}
