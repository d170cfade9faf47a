//! Pieces changing hands: `piece.owner = …` in the rules and `game.set_piece_owner` in a hook
//! give a piece to a seat or to nobody, and every seat sees it happen (`PieceOwnerChanged`), as
//! it sees a space change hands. The mod below: a wolf of seat 1's on `a`; `release` sets it
//! free, `tame` (a hook) gives it to seat 2, `keep` gives it back to seat 1; `spawn` (a hook)
//! places a wild wolf on `b` with `game.place`, gives the new one to seat 2 by the id it got
//! back, and removes the old one with `game.remove`.

mod common;

use common::{manifest, new_game, write_mod};
use meeple_engine::game::{Action, Event, Events};
use meeple_engine::loader::load_mod;

const DATA: &str = r#"
[board]
kind = "graph"
terrain = "plain"
spaces = [{ id = "a" }, { id = "b" }]
links = [["a", "b"]]

[terrain.plain]

[pieces.wolf]

[setup]
effect = ["place('wolf', seat(1), space('a'))"]

# Every action is about one piece.
[actions.on_a_piece]
abstract = true
params = [{ name = "who", kind = "piece" }]

[actions.release]
inherits = "on_a_piece"
label = "Release"
effect = ["who.owner = none"]

[actions.tame]
inherits = "on_a_piece"
label = "Tame"
effect = ["hook('tame', who)"]

[actions.keep]
inherits = "on_a_piece"
label = "Keep"
effect = ["who.owner = me"]

[actions.spawn]
inherits = "on_a_piece"
label = "Spawn"
effect = ["hook('spawn', who)"]

[end]
win = "seat.number == 99"
"#;

const HOOKS: &str = r#"
-- Gives the piece to seat 2, or to nobody when it is seat 2's already.
function tame(who)
  if game.piece_owner(who) == 2 then
    game.set_piece_owner(who, nil)
  else
    game.set_piece_owner(who, 2)
  end
end

function spawn(who)
  local wolf = game.place("wolf", nil, "b")
  game.set_piece_owner(wolf, 2)
  game.remove(who)
  game.remove(who)
end
"#;

#[test]
fn a_piece_changes_hands_in_the_rules_and_in_hooks_and_everyone_sees_it() {
    let manifest = manifest("owners");
    let folder = write_mod(
        "owners",
        &[("mod.toml", manifest.as_bytes()), ("data.toml", DATA.as_bytes()), ("hooks/main.lua", HOOKS.as_bytes())],
    );
    let loaded = load_mod(&folder);
    std::fs::remove_dir_all(&folder).ok();
    let rules = loaded.unwrap_or_else(|p| panic!("{p:?}")).ruleset;
    let (mut engine, mut state, _) = new_game(&rules, 1, 2);
    let act = |engine: &mut meeple_engine::game::Engine, state: &mut meeple_engine::game::GameState, id: &str| {
        let mut events = Events::recording();
        let action = Action::rule(rules.action_index(id).unwrap() as u16, &[0]);
        engine.apply(state, &action, &mut events).unwrap_or_else(|e| panic!("{id}: {e}"));
        events
            .take()
            .into_iter()
            .filter(|e| matches!(e, Event::PieceOwnerChanged { .. }))
            .map(|e| {
                // Both seats see the change: nothing about a piece's owner is hidden.
                assert_eq!(e.seen_by(&rules, 0).as_ref(), Some(&e));
                assert_eq!(e.seen_by(&rules, 1).as_ref(), Some(&e));
                e
            })
            .collect::<Vec<_>>()
    };
    let changed = |from: Option<u8>, to: Option<u8>| vec![Event::PieceOwnerChanged { piece: 0, from, to }];
    assert_eq!(act(&mut engine, &mut state, "release"), changed(Some(0), None));
    assert_eq!(state.pieces[0].owner, meeple_engine::game::state::NO_SEAT);
    assert_eq!(act(&mut engine, &mut state, "tame"), changed(None, Some(1)), "the hook gives it to seat 2");
    assert_eq!(state.pieces[0].owner, 1);
    assert_eq!(act(&mut engine, &mut state, "tame"), changed(Some(1), None), "and to nobody");
    // Seat 1 (to move) keeps it; the same owner again changes nothing and says nothing.
    assert_eq!(act(&mut engine, &mut state, "keep"), changed(None, Some(0)));
    assert_eq!(act(&mut engine, &mut state, "keep"), Vec::new());
    let mut events = Events::recording();
    let spawn = Action::rule(rules.action_index("spawn").unwrap() as u16, &[0]);
    engine.apply(&mut state, &spawn, &mut events).unwrap();
    let b = state.board.find("b").unwrap();
    assert_eq!(
        events
            .take()
            .into_iter()
            .filter(|e| matches!(
                e,
                Event::PiecePlaced { .. } | Event::PieceOwnerChanged { .. } | Event::PieceRemoved { .. }
            ))
            .collect::<Vec<_>>(),
        [
            Event::PiecePlaced { piece: 1, kind: 0, owner: None, space: b },
            Event::PieceOwnerChanged { piece: 1, from: None, to: Some(1) },
            Event::PieceRemoved { piece: 0 },
        ],
        "placed wild, given to seat 2 by the id placing gave back, the old wolf removed once"
    );
    assert!(!state.pieces[0].alive && state.pieces[1].alive && state.pieces[1].space == b);
    let json = meeple_engine::game::render::event_json(&rules, &state, &changed(Some(0), None)[0]);
    assert_eq!(json, serde_json::json!({ "event": "piece_owner_changed", "piece": 1, "from": 1, "to": null }));
}

/// `let p = place(…)` names the piece it puts down, for the rest of the effect; outside
/// effects `place` is refused where written.
#[test]
fn a_piece_placed_in_an_effect_can_be_named() {
    let data = DATA.replace(
        "effect = [\"who.owner = me\"]",
        "effect = [\"let cub = place('wolf', none, space('b'))\", \"cub.owner = me\", \"remove(who)\"]",
    );
    let manifest = manifest("named_cub");
    let folder = write_mod(
        "named_cub",
        &[("mod.toml", manifest.as_bytes()), ("data.toml", data.as_bytes()), ("hooks/main.lua", HOOKS.as_bytes())],
    );
    let loaded = load_mod(&folder);
    let refused = {
        let bad = data.replace(
            "[actions.keep]\ninherits = \"on_a_piece\"",
            "[actions.keep]\ninherits = \"on_a_piece\"\nwhen = \"place('wolf', me, space('a')) == who\"",
        );
        std::fs::write(folder.join("data.toml"), bad).unwrap();
        load_mod(&folder)
    };
    std::fs::remove_dir_all(&folder).ok();
    let rules = loaded.unwrap_or_else(|p| panic!("{p:?}")).ruleset;
    let (mut engine, mut state, _) = new_game(&rules, 1, 2);
    let keep = Action::rule(rules.action_index("keep").unwrap() as u16, &[0]);
    engine.apply(&mut state, &keep, &mut Events::discard()).unwrap();
    let b = state.board.find("b").unwrap();
    assert_eq!(
        (state.pieces.len(), state.pieces[1].owner, state.pieces[1].space),
        (2, 0, b),
        "the cub is seat 1's, on b"
    );
    assert!(!state.pieces[0].alive);
    let problems: Vec<String> = refused.expect_err("place in a condition").iter().map(ToString::to_string).collect();
    assert!(
        problems.iter().any(|p| p.contains("`place` changes the game and is only allowed in effects")),
        "{problems:?}"
    );
}
