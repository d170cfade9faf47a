//! Responses out of turn: an effect offers a seat a `response = true` action with `offer(…)`,
//! and that seat answers — takes it, choosing what the offer left open, or passes — before
//! anyone else acts. The fixture `toll_road`: stepping onto another seat's space offers that seat
//! a toll (2 gold from the mover) and a shove (the mover's piece one space back).

mod common;

use meeple_engine::ai::{self, Player};
use meeple_engine::game::{Action, ActionError, ActionKind, Engine, Event, Events, GameState};
use meeple_engine::rng::GameRng;
use meeple_engine::rules::Ruleset;

fn rule(rules: &Ruleset, id: &str) -> u16 {
    rules.action_index(id).unwrap() as u16
}

fn space(state: &GameState, label: &str) -> i64 {
    i64::from(state.board.find(label).unwrap())
}

fn gold(state: &GameState, seat: usize) -> i64 {
    state.seats[seat].resources[0]
}

/// Seat 2's piece waits on `b`; seat 1 (to move) stands on `a`.
fn start(seats: usize) -> (std::sync::Arc<Ruleset>, Engine, GameState) {
    let rules = common::fixture("toll_road");
    let (engine, mut state, _) = common::new_game(&rules, 3, seats);
    let b = state.board.find("b").unwrap();
    state.pieces[1].space = b;
    (rules, engine, state)
}

#[test]
fn landing_on_a_seat_offers_it_a_response_before_anyone_else_acts() {
    let (rules, mut engine, mut state) = start(2);
    let step = Action::rule(rule(&rules, "step"), &[space(&state, "b")]);
    let mut events = Events::recording();
    engine.apply(&mut state, &step, &mut events).unwrap();
    // Seat 2 answers now, on seat 1's turn: the toll first, as offered first.
    assert_eq!((state.turn.seat, state.to_act()), (0, 1));
    let offered: Vec<_> = events.take().into_iter().filter(|e| matches!(e, Event::Offered { .. })).collect();
    assert_eq!(offered.len(), 2, "a toll and a shove: {offered:?}");
    let legal = common::legal(&mut engine, &state);
    let toll = Action::rule(rule(&rules, "toll"), &[0]);
    assert_eq!(legal, vec![toll, Action::pass()]);
    // Seat 1 cannot go on (it is told whose answer is awaited), nor can seat 2 take what it was
    // not offered.
    assert_eq!(
        engine.apply_as(&mut state.clone(), 0, &Action::pass(), &mut Events::discard()),
        Err(ActionError::AwaitingResponse { seat: 2, action: "toll".into() })
    );
    let other_payer = Action::rule(rule(&rules, "toll"), &[1]);
    assert!(matches!(
        engine.apply_as(&mut state.clone(), 1, &other_payer, &mut Events::discard()),
        Err(ActionError::Illegal { .. })
    ));
    // Seat 2 takes the toll: 2 gold moves, and seat 1's step budget is untouched by it.
    engine.apply_as(&mut state, 1, &toll, &mut Events::discard()).unwrap();
    assert_eq!((gold(&state, 0), gold(&state, 1)), (8, 12));
    // The shove: seat 2 chooses where the victim goes (back to `a`, the only space behind).
    assert_eq!(state.to_act(), 1);
    let legal = common::legal(&mut engine, &state);
    let shove = Action::rule(rule(&rules, "shove"), &[0, space(&state, "a")]);
    assert_eq!(legal, vec![shove, Action::pass()]);
    engine.apply_as(&mut state, 1, &Action::pass(), &mut Events::discard()).unwrap();
    // Both answered: seat 1's turn goes on; it stepped already, so its turn ended by itself.
    assert!(state.turn.offers.is_empty());
    assert_eq!(state.to_act(), state.turn.seat);
    assert_eq!(state.turn.seat, 1, "seat 1's step was its one action: the turn passed on");
}

#[test]
fn a_shove_moves_the_mover_back_and_offers_are_answered_in_the_order_made() {
    let (rules, mut engine, mut state) = start(3);
    // Seats 2 and 3 both wait on `b`.
    let b = state.board.find("b").unwrap();
    state.pieces[2].space = b;
    let step = Action::rule(rule(&rules, "step"), &[space(&state, "b")]);
    engine.apply(&mut state, &step, &mut Events::discard()).unwrap();
    let order: Vec<(u8, String)> =
        state.turn.offers.iter().map(|o| (o.seat, rules.actions[o.action as usize].id.clone())).collect();
    assert_eq!(
        order,
        vec![(1, "toll".into()), (1, "shove".into()), (2, "toll".into()), (2, "shove".into())],
        "in piece order, each piece's offers in the order its effect made them"
    );
    engine.apply_as(&mut state, 1, &Action::pass(), &mut Events::discard()).unwrap();
    let shove = Action::rule(rule(&rules, "shove"), &[0, space(&state, "a")]);
    engine.apply_as(&mut state, 1, &shove, &mut Events::discard()).unwrap();
    assert_eq!(i64::from(state.pieces[0].space), space(&state, "a"), "shoved back");
    // Seat 3 still answers its offers, though the mover is gone from its space.
    assert_eq!(state.to_act(), 2);
    let toll = Action::rule(rule(&rules, "toll"), &[0]);
    engine.apply_as(&mut state, 2, &toll, &mut Events::discard()).unwrap();
    engine.apply_as(&mut state, 2, &Action::pass(), &mut Events::discard()).unwrap();
    assert_eq!((gold(&state, 0), gold(&state, 2)), (8, 12));
    assert_eq!(state.to_act(), 1, "then seat 2's turn");
}

#[test]
fn computer_players_answer_offers_by_their_scores_and_games_replay() {
    let (rules, mut engine, mut state) = start(2);
    // The greedy player takes the toll: scored 2, above its minimum of 1.
    let mut greedy = ai::GreedyPlayer::new(GameRng::from_seed(1));
    let step = Action::rule(rule(&rules, "step"), &[space(&state, "b")]);
    engine.apply(&mut state, &step, &mut Events::discard()).unwrap();
    let answer = greedy.decide(&mut engine, &state).unwrap();
    assert_eq!(answer.kind, ActionKind::Rule(rule(&rules, "toll")));
    // Whole games between computer players, offers and all, replay to the same state.
    for seed in 0..20u64 {
        let (state, answered) = play_and_replay(&rules, seed, 3, 2000);
        assert!(state.outcome.is_some(), "seed {seed}: the game ends");
        assert!(answered > 0, "seed {seed}: some offers were answered");
    }
}

/// A whole game between greedy computer players (at most `limit` actions), offers and all,
/// replayed from its setup to the same state: the final state and how many actions answered
/// an offer.
fn play_and_replay(rules: &std::sync::Arc<Ruleset>, seed: u64, seats: usize, limit: usize) -> (GameState, usize) {
    let (mut engine, mut state, _) = common::new_game(rules, seed, seats);
    let mut players: Vec<Box<dyn Player>> =
        (0..seats as u64).map(|i| ai::player("greedy", seed * 10 + i).unwrap()).collect();
    let mut taken = Vec::new();
    let mut answered = 0;
    while state.outcome.is_none() && taken.len() < limit {
        let seat = state.to_act();
        answered += usize::from(!state.turn.offers.is_empty());
        let action = players[seat as usize].decide(&mut engine, &state).unwrap();
        engine.apply_as(&mut state, seat, &action, &mut Events::discard()).unwrap();
        taken.push((seat, action));
    }
    let setup = meeple_engine::game::GameSetup::new(rules, seed, seats, "human");
    let replayed = engine.replay(&setup, &taken, &mut Events::discard()).unwrap();
    assert_eq!(replayed.hash(), state.hash(), "seed {seed}: the replay reaches the same state");
    (state, answered)
}

#[test]
fn offers_are_checked_when_the_mod_loads() {
    let manifest = common::manifest("bad_offers");
    let data = r#"
[board]
kind = "graph"
terrain = "road"
spaces = [{ id = "a" }, { id = "b" }]
links = [["a", "b"]]

[terrain.road]

[actions.go]
label = "Go"
effect = ["offer('go', me)", "offer('toll', me, me, me)", "offer('toll', space('a'))"]

[actions.toll]
label = "Toll"
response = true
params = [{ name = "payer", kind = "seat" }]
after_roll = [{ name = "where", kind = "space" }]
rolls = { die = "1d6" }

[turn]
phases = [{ id = "main", actions = ["go", "toll"] }]
"#;
    let folder = common::write_mod("bad_offers", &[("mod.toml", manifest.as_bytes()), ("data.toml", data.as_bytes())]);
    let messages: Vec<String> = common::problems(&folder).iter().map(|p| p.to_string()).collect();
    let all = messages.join("\n");
    for wanted in [
        "`go` is not a response: only an action with `response = true` is offered out of turn",
        "`offer` gives the seat and at most 1 parameter of `toll`, not 2",
        "expected a seat, found a space",
        "a response (`response = true`) is taken in one step: it cannot have `after_roll` choices",
        "`toll` is a response (`response = true`): an effect offers it with `offer(\"toll\", seat, …)`; no phase lists it",
    ] {
        assert!(all.contains(wanted), "missing {wanted:?} in:\n{all}");
    }
}

/// A fight of rounds with a choice between rounds (fixture `duel`): the loser of each round must
/// say which of its fighters takes the wound — a response it cannot decline — and the next round
/// follows from that answer; a tie is rolled again at the attacker's word; the side left standing
/// gains a point per fighter.
#[test]
fn a_duel_of_rounds_asks_the_loser_of_each_round_for_its_choice() {
    let rules = common::fixture("duel");
    let (mut engine, mut state, _) = common::new_game(&rules, 5, 2);
    let strength = rules.stat_index("strength").unwrap();
    let kind = |state: &GameState, piece: usize| rules.piece_kinds[state.pieces[piece].kind as usize].id.clone();
    let (wound, again) = (rule(&rules, "wound"), rule(&rules, "roll_again"));
    let fight = Action::rule(rule(&rules, "fight"), &[1]);
    // Round 1: seat 1 rolls 5 dice (guard 2 + knight 3) and wins 6 to 5; seat 2 rolls 4.
    state.turn.seat = 0;
    state.forced_faces.extend([6, 1, 1, 1, 1, 5, 5, 5, 5]);
    engine.apply(&mut state, &fight, &mut Events::discard()).unwrap();
    assert_eq!(state.to_act(), 1, "the loser answers");
    let legal = common::legal(&mut engine, &state);
    assert_eq!(legal, vec![Action::rule(wound, &[0, 2])], "its one fighter, and no passing");
    assert!(matches!(
        engine.apply_as(&mut state.clone(), 1, &Action::pass(), &mut Events::discard()),
        Err(ActionError::Illegal { .. })
    ));
    // Round 2 is rolled as the wound is taken: a tie, 4 against 4: the attacker rolls again.
    state.forced_faces.extend([4, 1, 1, 1, 1, 4, 1, 1]);
    engine.apply_as(&mut state, 1, &Action::rule(wound, &[0, 2]), &mut Events::discard()).unwrap();
    assert_eq!(state.pieces[2].stats[strength], 3);
    assert_eq!((state.to_act(), common::legal(&mut engine, &state)), (0, vec![Action::rule(again, &[0, 1])]));
    // Round 3: seat 2 wins 6 to 3; seat 1 chooses between its guard and its knight.
    state.forced_faces.extend([3, 3, 3, 3, 3, 6, 1, 1]);
    engine.apply_as(&mut state, 0, &Action::rule(again, &[0, 1]), &mut Events::discard()).unwrap();
    assert_eq!(state.to_act(), 0);
    let choices: Vec<String> =
        common::legal(&mut engine, &state).iter().map(|a| kind(&state, a.args[1] as usize)).collect();
    assert_eq!(choices, ["guard", "knight"]);
    // The guard takes it (down to 1). Round 4 is the winner's to roll first: the ogre's 3 dice
    // show 2 at best, seat 1's 4 dice a 5: seat 2 must wound its ogre again.
    state.forced_faces.extend([2, 2, 2, 5, 1, 1, 1]);
    engine.apply_as(&mut state, 0, &Action::rule(wound, &[1, 0]), &mut Events::discard()).unwrap();
    assert_eq!(state.pieces[0].stats[strength], 1);
    // The ogre is worn down over rounds seat 1 wins (its 4 dice first, then the ogre's).
    for (round, faces) in [vec![6, 1, 1, 1, 1, 1], vec![6, 1, 1, 1, 1], vec![]].into_iter().enumerate() {
        assert_eq!(state.to_act(), 1, "round {}", 5 + round);
        state.forced_faces.extend(faces);
        engine.apply_as(&mut state, 1, &Action::rule(wound, &[0, 2]), &mut Events::discard()).unwrap();
    }
    assert!(state.forced_faces.is_empty(), "every die forced was rolled");
    assert!(!state.pieces[2].alive, "the ogre is out");
    assert_eq!((state.pieces[0].stats[strength], state.pieces[1].stats[strength]), (2, 4), "the winners gain a point");
    assert!(state.turn.offers.is_empty());
    assert_eq!(state.outcome, Some(meeple_engine::game::Outcome::Win { seats: vec![0] }));
    // Computer players fight whole duels and the games replay.
    for seed in 0..20u64 {
        let (state, _) = play_and_replay(&rules, seed, 2, 500);
        assert!(state.outcome.is_some(), "seed {seed}: one side is out");
    }
}

/// A Lua hook offers a response as the rules language does (`game.offer`), parameters written
/// as Lua writes them; a non-response is refused with the line.
#[test]
fn a_hook_offers_a_response_with_game_offer() {
    let manifest = common::manifest("hooked_toll");
    let data = r#"
[board]
kind = "graph"
terrain = "road"
spaces = [{ id = "a" }, { id = "b" }]
links = [["a", "b"]]

[terrain.road]

[resources.gold]
initial = 10

[actions.ask]
label = "Ask for a toll"
effect = ["hook('ask_toll')"]

[actions.wrong]
label = "Offer what is no response"
effect = ["hook('offer_wrong')"]

[actions.toll]
label = "Take the toll"
response = true
params = [{ name = "payer", kind = "seat" }, { name = "at", kind = "space" }]
effect = ["payer.gold -= 2", "me.gold += 2"]

[turn]
phases = [{ id = "main", actions = ["ask", "wrong", "swapped"] }]

[actions.swapped]
label = "Swapped"
effect = ["hook('offer_swapped')"]
"#;
    let hooks = "function ask_toll() game.offer(2, 'toll', game.current_seat(), 'b') end\n\
                 function offer_wrong() game.offer(2, 'ask') end\n\
                 function offer_swapped() game.offer('toll', 2, 1, 'b') end\n";
    let folder = common::write_mod(
        "hooked_toll",
        &[("mod.toml", manifest.as_bytes()), ("data.toml", data.as_bytes()), ("hooks/toll.lua", hooks.as_bytes())],
    );
    let rules = common::loaded(&folder);
    let (mut engine, mut state, _) = common::new_game(&rules, 1, 2);
    let error = engine
        .apply(&mut state.clone(), &Action::rule(rule(&rules, "wrong"), &[]), &mut Events::discard())
        .unwrap_err()
        .to_string();
    assert!(error.contains("toll.lua:2") && error.contains("`ask` is not a response"), "{error}");
    let error = engine
        .apply(&mut state.clone(), &Action::rule(rule(&rules, "swapped"), &[]), &mut Events::discard())
        .unwrap_err()
        .to_string();
    assert!(error.contains("the seat comes first, then the action: game.offer(seat, \"toll\", …)"), "{error}");
    engine.apply(&mut state, &Action::rule(rule(&rules, "ask"), &[]), &mut Events::discard()).unwrap();
    let b = space(&state, "b");
    assert_eq!(state.to_act(), 1);
    assert_eq!(common::legal(&mut engine, &state), vec![Action::rule(rule(&rules, "toll"), &[0, b]), Action::pass()]);
}

/// The fixture's scenario test (`tests/offers.lua`): what a modder's test sees of an offer
/// (`g:seat_to_act`, `g:act` for the seat answering, passing to decline).
#[test]
fn scenario_tests_see_who_answers_an_offer() {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/toll_road");
    let rules = common::fixture("toll_road");
    let file = folder.join("tests/offers.lua");
    let results = meeple_engine::scenario::run_mod_tests(&rules, std::slice::from_ref(&file), &[], None);
    assert_eq!(results.len(), 1);
    assert!(results[0].failure.is_none(), "{:?}", results[0].failure);
}

/// A gate keeper (seat 2) may stop whoever steps onto its gate; when it lets the traveller
/// through, `on_decline` runs what the gate does — the way a rule goes on when nobody calls an
/// ambush. The offer gives `payer`, which `on_decline` reads.
const GATE: &str = r#"
[board]
kind = "graph"
terrain = "road"
spaces = [{ id = "a" }, { id = "gate" }]
links = [["a", "gate"]]

[terrain.road]

[resources.gold]
initial = 10

[actions.step]
label = "Step through the gate"
effect = ["offer('stop', seat(2), me, 3)"]

[actions.stop]
label = "Stop the traveller"
response = true
params = [{ name = "payer", kind = "seat" }, { name = "fine", kind = "number", min = "1", max = "3" }]
effect = ["payer.gold -= fine", "me.gold += fine"]
on_decline = ["payer.gold += 1", "log('let through')"]

[actions.lua_step]
label = "Step, offered from Lua"
effect = ["hook('offer_stop')"]

[turn]
phases = [{ id = "main", actions = ["step", "lua_step"] }]
"#;

#[test]
fn declining_an_offer_runs_its_on_decline_with_the_offered_parameters() {
    let manifest = common::manifest("gate");
    let hooks = "function offer_stop() game.offer(2, 'stop') end\n";
    let folder = common::write_mod(
        "gate",
        &[("mod.toml", manifest.as_bytes()), ("data.toml", GATE.as_bytes()), ("hooks/gate.lua", hooks.as_bytes())],
    );
    let rules = common::loaded(&folder);
    let (mut engine, mut state, _) = common::new_game(&rules, 1, 2);
    engine.apply(&mut state, &Action::rule(rule(&rules, "step"), &[]), &mut Events::discard()).unwrap();
    assert_eq!(state.to_act(), 1);
    let mut events = Events::recording();
    engine.apply(&mut state, &Action::pass(), &mut events).unwrap();
    assert_eq!((gold(&state, 0), gold(&state, 1)), (11, 10), "declining runs on_decline for the payer");
    assert!(events.list().iter().any(|e| matches!(e, Event::Declined { seat: 1, .. })));
    assert_eq!(state.to_act(), 0, "the turn goes on");
    // Taken, the response runs its effect and not on_decline.
    engine.apply(&mut state, &Action::rule(rule(&rules, "step"), &[]), &mut Events::discard()).unwrap();
    engine.apply(&mut state, &Action::rule(rule(&rules, "stop"), &[0, 3]), &mut Events::discard()).unwrap();
    assert_eq!((gold(&state, 0), gold(&state, 1)), (8, 13));
    // A Lua offer that leaves out what on_decline reads is an error, and changes nothing.
    let before = state.clone();
    let error = engine
        .apply(&mut state, &Action::rule(rule(&rules, "lua_step"), &[]), &mut Events::discard())
        .unwrap_err()
        .to_string();
    assert!(error.contains("`on_decline` reads its parameter `payer`"), "{error}");
    assert_eq!(state.hash(), before.hash());
}

#[test]
fn an_offer_that_leaves_out_what_on_decline_reads_is_refused_at_load() {
    let manifest = common::manifest("bad_gate");
    let data = GATE.replace("offer('stop', seat(2), me, 3)", "offer('stop', seat(2))")
        + "\n[actions.plain]\nlabel = \"Plain\"\non_decline = [\"log('never')\"]\n";
    let folder = common::write_mod("bad_gate", &[("mod.toml", manifest.as_bytes()), ("data.toml", data.as_bytes())]);
    let all: Vec<String> = common::problems(&folder).iter().map(|p| p.to_string()).collect();
    let all = all.join("\n");
    for wanted in [
        "`stop`'s `on_decline` reads its parameter `payer`, so an `offer` of it gives at least 1 parameter, not 0",
        "`on_decline` is about a response (`response = true`)",
    ] {
        assert!(all.contains(wanted), "missing {wanted:?} in:\n{all}");
    }
}

/// Dice rolled by any seat wake `rolled` triggers: here a bet pays its seat whenever anyone —
/// the seat to move, or a seat answering an offer — rolls a 6 on `luck`.
const BETS: &str = r#"
[board]
kind = "graph"
terrain = "road"
spaces = [{ id = "a" }]

[terrain.road]

[resources.gold]

[resources.bet]

[actions.wager]
label = "Wager"
rolls = { luck = "1d6" }
effect = ["offer('answer', seat(2))"]

[actions.answer]
label = "Roll back"
response = true
rolls = { luck = "1d6", other = "1d6" }

[[triggers]]
on = "rolled"
roll = "luck"
when = "rolled == 6"
effect = [{ for_each = "seat", where = "seat.bet > 0", do = ["seat.gold += seat.bet"] }, "me.bet += 1"]

[turn]
phases = [{ id = "main", actions = ["wager"] }]
"#;

#[test]
fn rolls_of_any_seat_wake_rolled_triggers_with_their_value() {
    let manifest = common::manifest("bets");
    let folder = common::write_mod("bets", &[("mod.toml", manifest.as_bytes()), ("data.toml", BETS.as_bytes())]);
    let rules = common::loaded(&folder);
    let (mut engine, mut state, _) = common::new_game(&rules, 1, 2);
    let bet = |state: &GameState, seat: usize| state.seats[seat].resources[1];
    // Seat 1's 6, then seat 2's 6 in its answer (its `other` die wakes nothing), then seat 1's 3.
    state.forced_faces.extend([6, 6, 5, 3]);
    engine.apply(&mut state, &Action::rule(rule(&rules, "wager"), &[]), &mut Events::discard()).unwrap();
    assert_eq!((bet(&state, 0), bet(&state, 1)), (1, 0), "the roller's 6: `me` is the seat that rolled");
    engine.apply(&mut state, &Action::rule(rule(&rules, "answer"), &[]), &mut Events::discard()).unwrap();
    assert_eq!((gold(&state, 0), bet(&state, 1)), (1, 1), "a response's 6 pays seat 1's bet and counts for seat 2");
    engine.apply(&mut state, &Action::rule(rule(&rules, "wager"), &[]), &mut Events::discard()).unwrap();
    assert_eq!((gold(&state, 0), gold(&state, 1)), (1, 0), "a 3 wakes nothing");
}

#[test]
fn a_rolled_trigger_names_a_roll_that_exists() {
    let manifest = common::manifest("bad_bets");
    let data = BETS.replace("roll = \"luck\"", "roll = \"lcuk\"")
        + "\n[[triggers]]\non = \"turn_start\"\nroll = \"luck\"\neffect = []\n";
    let folder = common::write_mod("bad_bets", &[("mod.toml", manifest.as_bytes()), ("data.toml", data.as_bytes())]);
    let all: Vec<String> = common::problems(&folder).iter().map(|p| p.to_string()).collect();
    let all = all.join("\n");
    for wanted in ["unknown roll `lcuk`", "did you mean `luck`", "`roll` is for triggers `on = \"rolled\"`"] {
        assert!(all.contains(wanted), "missing {wanted:?} in:\n{all}");
    }
}

/// Dice an effect rolls for a `let` name are shown under that name, like a named roll's: the
/// duel's `let a = highest(…)` and `let d = …` make `rolled` events named `a` and `d`.
#[test]
fn dice_rolled_for_a_let_name_carry_it() {
    let rules = common::fixture("duel");
    let (mut engine, mut state, _) = common::new_game(&rules, 5, 2);
    let mut events = Events::recording();
    engine.apply(&mut state, &Action::rule(rule(&rules, "fight"), &[1]), &mut events).unwrap();
    let names: Vec<Option<String>> = events
        .list()
        .iter()
        .filter_map(|e| match e {
            Event::Rolled { roll, .. } => Some(roll.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(names, [Some("a".to_string()), Some("d".to_string())]);
}
