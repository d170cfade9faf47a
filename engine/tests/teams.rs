//! Sides, matches and score endings, hands and discards, on the `teams` fixture: four seats on
//! two sides, two matches of three rounds, the highest score wins.

mod common;

use common::{fixture, legal, new_game};
use meeple_engine::game::{Action, Engine, Event, Events, GameSetup, Outcome};

fn act(rules: &meeple_engine::rules::Ruleset, id: &str, args: &[i64]) -> Action {
    Action::rule(rules.action_index(id).unwrap() as u16, args)
}

#[test]
fn seats_go_round_the_sides_and_allies_know_each_other() {
    let rules = fixture("teams");
    let (mut engine, state, _) = new_game(&rules, 1, 4);
    let sides: Vec<u8> = state.seats.iter().map(|s| s.side).collect();
    assert_eq!(sides, vec![0, 1, 0, 1]);
    // Seat 1 (red) may help seat 3 (red) only.
    let helps: Vec<Action> = legal(&mut engine, &state)
        .into_iter()
        .filter(|a| {
            *a == act(&rules, "help", &[2]) || *a == act(&rules, "help", &[1]) || *a == act(&rules, "help", &[3])
        })
        .collect();
    assert_eq!(helps, vec![act(&rules, "help", &[2])]);
}

#[test]
fn matches_end_after_their_rounds_and_scores_decide() {
    let rules = fixture("teams");
    let (mut engine, mut state, mut events) = new_game(&rules, 1, 4);
    let points = rules.resource_index("points").unwrap();
    let score = act(&rules, "score", &[]);
    // Seat 1 scores every turn, seat 2 scores twice overall; the rest pass.
    let mut turns = 0;
    while state.outcome.is_none() {
        let seat = state.turn.seat;
        if seat == 0 || (seat == 1 && turns < 8) {
            engine.apply(&mut state, &score, &mut events).unwrap();
        }
        engine.apply(&mut state, &Action::pass(), &mut events).unwrap();
        turns += 1;
        if turns == 12 {
            assert_eq!((state.turn.match_number, state.turn.round, state.turn.seat), (2, 1, 0), "match 2 starts");
            assert_eq!(state.vars[rules.var_index("matches_seen").unwrap()], 1);
        }
    }
    assert_eq!(turns, 24, "2 matches × 3 rounds × 4 seats");
    assert_eq!(state.seats[0].resources[points], 6);
    assert_eq!(state.seats[1].resources[points], 2);
    // Red (seats 1 and 3) scored 6, blue 2: the whole red side wins.
    assert_eq!(state.outcome, Some(Outcome::Win { seats: vec![0, 2] }));
    let ended: Vec<u32> = events
        .list()
        .iter()
        .filter_map(|e| match e {
            Event::MatchEnded { number } => Some(*number),
            _ => None,
        })
        .collect();
    assert_eq!(ended, vec![1, 2]);
}

#[test]
fn a_tie_on_score_is_a_draw_between_the_tied_sides() {
    let rules = fixture("teams");
    let (mut engine, mut state, mut events) = new_game(&rules, 1, 4);
    while state.outcome.is_none() {
        engine.apply(&mut state, &Action::pass(), &mut events).unwrap();
    }
    assert_eq!(state.outcome, Some(Outcome::Draw { shares: vec![(0, 1), (2, 1), (1, 1), (3, 1)] }));
}

#[test]
fn the_last_side_standing_wins() {
    let rules = fixture("teams");
    let (mut engine, mut state, mut events) = new_game(&rules, 1, 4);
    let quit = act(&rules, "quit", &[]);
    engine.apply(&mut state, &Action::pass(), &mut events).unwrap(); // seat 1
    engine.apply(&mut state, &quit, &mut events).unwrap(); // seat 2 (blue) is out
    assert_eq!(state.turn.seat, 2, "the quitting seat's turn ended");
    engine.apply(&mut state, &Action::pass(), &mut events).unwrap(); // seat 3
    assert!(state.outcome.is_none());
    engine.apply(&mut state, &quit, &mut events).unwrap(); // seat 4 (blue) is out: red is alone
    assert_eq!(state.outcome, Some(Outcome::Win { seats: vec![0, 2] }));
}

#[test]
fn cards_are_drawn_discarded_and_counted() {
    let rules = fixture("teams");
    let (mut engine, mut state, mut events) = new_game(&rules, 1, 4);
    let (take, drop) = (act(&rules, "take", &[]), act(&rules, "drop", &[]));
    assert!(!legal(&mut engine, &state).contains(&drop), "no rock in hand yet");
    // An unshuffled deck deals from the end of its list: rock, rock, gem, gem.
    engine.apply(&mut state, &take, &mut events).unwrap();
    engine.apply(&mut state, &take, &mut events).unwrap();
    let rock = rules.card_ids.iter().position(|c| c == "rock").unwrap() as u16;
    assert_eq!(state.seats[0].hand, vec![(0, rock), (0, rock)]);
    engine.apply(&mut state, &drop, &mut events).unwrap();
    assert_eq!(state.seats[0].hand, vec![(0, rock)]);
    assert_eq!(state.decks[0].discard, vec![rock]);
    assert!(events.list().contains(&Event::CardDiscarded { seat: 0, deck: 0, card: rock }));
    assert_eq!(state.seats[0].resources[rules.resource_index("points").unwrap()], 2);
}

#[test]
fn a_setup_naming_an_unknown_side_is_refused() {
    let rules = fixture("teams");
    let mut setup = GameSetup::new(&rules, 1, 4, "human");
    setup.seats[3].side = Some("bleu".into());
    let mut engine = Engine::new(rules).unwrap();
    let error = engine.new_game(&setup, &mut Events::discard()).unwrap_err();
    assert_eq!(error.message(), "seat 4: unknown side `bleu`; did you mean `blue`?");
    setup.seats[3].side = Some("red".into());
    let state = engine.new_game(&setup, &mut Events::discard()).unwrap();
    assert_eq!(state.seats.iter().map(|s| s.side).collect::<Vec<_>>(), vec![0, 1, 0, 0]);
}

#[test]
fn seats_set_up_side_by_side_put_human_characters_first_and_announce_their_players() {
    use meeple_engine::game::seating::{SideSeating, by_sides, turn_announcement};
    let rules = fixture("teams");
    let side = |id: &str, humans: &[&str], per_human: u32, computers: u32| SideSeating {
        side: id.into(),
        humans: humans.iter().map(|h| h.to_string()).collect(),
        characters_per_human: per_human,
        computers,
        level: "medium".into(),
    };
    // Red: Alice with two characters and no computers; blue: one computer character.
    let setup = by_sides(&rules, 5, &[side("red", &["Alice"], 2, 0), side("blue", &[], 1, 1)]).unwrap();
    let seats: Vec<(&str, &str, Option<&str>, Option<&str>)> = setup
        .seats
        .iter()
        .map(|s| (s.name.as_str(), s.controller.as_str(), s.side.as_deref(), s.player.as_deref()))
        .collect();
    assert_eq!(
        seats,
        vec![
            ("red 1", "human", Some("red"), Some("Alice")),
            ("red 2", "human", Some("red"), Some("Alice")),
            ("blue 1", "medium", Some("blue"), None),
        ]
    );
    let mut engine = Engine::new(rules.clone()).unwrap();
    let state = engine.new_game(&setup, &mut Events::discard()).unwrap();
    assert_eq!(turn_announcement(&rules, &state, 0), "red Turn 1 — Alice");
    assert_eq!(turn_announcement(&rules, &state, 1), "red Turn 2 — Alice");
    assert_eq!(turn_announcement(&rules, &state, 2), "blue Turn 1");
    // Humans of both sides alternate before any computer character.
    let setup = by_sides(&rules, 5, &[side("red", &[], 1, 1), side("blue", &["Bo", "Cy"], 1, 0)]).unwrap();
    let names: Vec<&str> = setup.seats.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, vec!["blue 1", "blue 2", "red 1"]);
    // Mistakes are named.
    let error = by_sides(&rules, 5, &[side("rde", &[], 1, 1)]).unwrap_err();
    assert!(error.contains("unknown side `rde`; did you mean `red`?"), "{error}");
    let error = by_sides(&rules, 5, &[side("red", &[], 1, 3), side("blue", &[], 1, 3)]).unwrap_err();
    assert!(error.contains("2 to 4 characters in all, not 6"), "{error}");
}
