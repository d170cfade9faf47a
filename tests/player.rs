//! The player window driven like a person would: widgets found by their labels and clicked, with
//! no display (egui_kittest). A whole Dice Wars game against the computer, Dunes of Terror turns
//! (move, attack, buy), undo, save and replay, hot reload of a broken and a fixed mod.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use meeple::player::catalog::{ModEntry, Origin};
use meeple::player::{PlayerApp, StartOptions};
use meeple_engine::game::ActionKind;
use meeple_tests::mods_dir;

/// The player with the bundled mods, at the launcher.
fn app() -> PlayerApp {
    let mods = ["dice_wars", "dunes_of_terror"]
        .iter()
        .map(|id| ModEntry::load(&mods_dir().join(id), Origin::Bundled))
        .collect();
    PlayerApp::with_mods(mods, StartOptions::default())
}

fn harness(app: PlayerApp) -> Harness<'static, PlayerApp> {
    Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .with_max_steps(100_000)
        .build_ui_state(|ui, app: &mut PlayerApp| app.ui(ui), app)
}

/// Clicks the widget labelled exactly `label` (the first, when several are), after scrolling
/// it into view.
fn click(harness: &mut Harness<'static, PlayerApp>, label: &str) {
    {
        let node = harness.query_all_by_label(label).next().unwrap_or_else(|| panic!("no widget labelled {label:?}"));
        node.scroll_to_me();
    }
    harness.run();
    harness.query_all_by_label(label).next().unwrap_or_else(|| panic!("no widget labelled {label:?}")).click();
    harness.run();
}

fn has_label(harness: &Harness<'static, PlayerApp>, label: &str) -> bool {
    harness.query_all_by_label(label).next().is_some()
}

/// Opens the setup of a game from the launcher, by clicking.
fn open_setup(harness: &mut Harness<'static, PlayerApp>, name: &str) {
    harness.query_all_by_label_contains(name).next().expect("the game is listed").click();
    harness.run();
    click(harness, "New game");
    assert!(has_label(harness, "Start game"), "the setup screen shows");
}

/// Types a fixed seed into the setup.
fn set_seed(harness: &mut Harness<'static, PlayerApp>, seed: u64) {
    click(harness, "Random seed");
    harness.get_by_label("Seed").focus();
    harness.run();
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness.get_by_label("Seed").type_text(&seed.to_string());
    harness.run();
    let form = harness.state_mut().setup_mut().expect("setup");
    assert_eq!(form.seed_text, seed.to_string(), "the typed seed");
    assert!(!form.random_seed);
}

#[test]
fn a_whole_dice_wars_game_is_played_by_clicking() {
    let mut harness = harness(app());
    harness.run();
    open_setup(&mut harness, "Dice Wars");
    // Two players: a person and an easy computer.
    while harness.state_mut().setup_mut().expect("setup").seats.len() > 2 {
        click(&mut harness, "−");
    }
    harness.get_by_role_and_label(egui::accesskit::Role::ComboBox, "Seat 2").click();
    harness.run();
    click(&mut harness, "Computer: easy");
    set_seed(&mut harness, 5);
    click(&mut harness, "Start game");
    let game = harness.state_mut().game_mut().expect("the game screen shows");
    game.computer_delay = 0.0;
    assert_eq!(game.session.setup.seats[1].controller, "easy");

    let dice = game.session.rules.counter_index("dice").expect("Dice Wars counts dice") as u16;
    let mut clicks = 0;
    for _ in 0..20_000 {
        let Some(game) = harness.state().game() else { panic!("left the game screen") };
        let session = &game.session;
        if session.is_over() {
            break;
        }
        if !session.is_human_turn() {
            click(&mut harness, "Skip");
            continue;
        }
        // The person attacks where it has more dice than the defender, else ends the turn.
        let state = &session.state;
        let best = session
            .legal()
            .iter()
            .filter(|a| matches!(a.kind, ActionKind::Rule(_)))
            .map(|a| (a.args[0] as u32, a.args[1] as u32))
            .filter(|&(from, to)| state.counter(from, dice) > state.counter(to, dice))
            .max_by_key(|&(from, to)| state.counter(from, dice) - state.counter(to, dice));
        match best {
            Some((from, to)) => {
                let (from, to) = (state.board.space(from).label.clone(), state.board.space(to).label.clone());
                click(&mut harness, "Attack");
                click_option(&mut harness, &from);
                click_option(&mut harness, &to);
                let session = &harness.state().game().expect("game").session;
                assert!(!session.last_rolls.is_empty(), "the attack's dice are shown");
            }
            None => click(&mut harness, "End turn"),
        }
        clicks += 1;
    }
    let session = &harness.state().game().expect("game").session;
    assert!(session.is_over(), "the game ended ({clicks} person actions)");
    let winners = session.winners().expect("a winner");
    assert!(has_label(&harness, &winners), "the game-over window names the winner: {winners}");
    assert!(has_label(&harness, "Game over"));
    assert!(has_label(&harness, "Play again"));
    assert!(clicks > 5, "the person played: {clicks} actions");
    eprintln!("{winners} after {clicks} person actions, {} turns", session.state.turn.number);
}

/// Clicks a choice button (the options list; space labels may also appear elsewhere, so the
/// choice list's button is the one with a role of button).
fn click_option(harness: &mut Harness<'static, PlayerApp>, label: &str) {
    let found = harness
        .query_all_by_role_and_label(egui::accesskit::Role::Button, label)
        .next()
        .map(|node| node.scroll_to_me())
        .is_some();
    assert!(found, "no choice labelled {label:?}");
    harness.run();
    harness.query_all_by_role_and_label(egui::accesskit::Role::Button, label).next().expect("choice").click();
    harness.run();
}

#[test]
fn a_dunes_of_terror_turn_moves_attacks_and_buys_by_clicking() {
    let mut harness = harness(app());
    harness.run();
    open_setup(&mut harness, "Dunes of Terror");
    // The setup asks side by side: one person on the police with one character.
    let form = harness.state_mut().setup_mut().expect("setup");
    assert!(form.by_side());
    assert_eq!(form.sides[0].humans, vec!["Player 1".to_string()]);
    set_seed(&mut harness, 3);
    click(&mut harness, "Start game");
    assert!(has_label(&harness, "Police Turn 1 — Player 1"), "the turn is announced");

    // An enemy two tiles away, on land, so the pistol reaches it after any move of one step.
    let game = harness.state_mut().game_mut().expect("game");
    game.computer_delay = 0.0;
    let session = &mut game.session;
    assert!(session.is_human_turn());
    let me = session.state.seat_piece(0).expect("Police 1 stands on the map");
    let rules = session.rules.clone();
    let grass = rules.terrain_index("grass").expect("grass") as u16;
    let from = session.state.pieces[me as usize].space;
    let board = session.state.board.clone();
    let free = |s: u32, state: &meeple_engine::game::GameState| {
        board.space(s).terrain == grass && !state.pieces.iter().any(|p| p.alive && p.space == s)
    };
    let enemy_tile = board
        .space_ids()
        .find(|&s| board.distance(from, s) == Some(2) && free(s, &session.state))
        .expect("a free grass tile two steps away");
    let enemy = session.state.pieces.iter().position(|p| p.alive && p.owner == 2).expect("Terrorists 1") as u32;
    session.edit_state(|state| state.pieces[enemy as usize].space = enemy_tile);
    let money = |h: &Harness<'static, PlayerApp>| h.state().game().expect("game").session.state.seats[0].resources[0];
    assert_eq!(money(&harness), 5, "$5 at the start of the turn");

    // Move: the die is rolled and shown, the reachable tiles are offered; take the tile the
    // character stands next to that keeps the enemy within two steps.
    click(&mut harness, "Move");
    let session = &harness.state().game().expect("game").session;
    assert_eq!(session.last_rolls.len(), 1, "the move's die is shown");
    assert!(has_label(&harness, "Cancel move"));
    let options = session.options();
    assert!(!options.is_empty(), "tiles to move to");
    let target_tile = options
        .iter()
        .filter_map(|o| o.space)
        .find(|&s| board.distance(s, enemy_tile) == Some(1) || board.distance(s, enemy_tile) == Some(2))
        .expect("a tile within pistol range of the enemy");
    let label = board.space(target_tile).label.clone();
    click_option(&mut harness, &label);
    let session = &harness.state().game().expect("game").session;
    assert_eq!(session.state.pieces[me as usize].space, target_tile, "the character moved to {label}");

    // Attack: the pistol with its previews, then the roll, then the target in red.
    click(&mut harness, "Attack");
    assert!(has_label(&harness, "Chance to hit: 100.0%"), "the pistol always hits");
    let expected = format!("Expected damage at the nearest enemy: {:.0}", 3.5 * 2.0);
    assert!(has_label(&harness, &expected), "the preview shows {expected}");
    click_option(&mut harness, "Pistol (6 left)");
    let session = &harness.state().game().expect("game").session;
    let hits = session.last_rolls.last().expect("the attack's die").value;
    let target = session.options().into_iter().find(|o| o.hostile).expect("the enemy is a target");
    // The pistol: twice the die at any distance in its range (no falloff).
    let damage = hits * 2;
    assert!(has_label(&harness, &format!("Damage: {damage}")), "the roll's damage is previewed");
    click_option(&mut harness, &target.label);
    let session = &harness.state().game().expect("game").session;
    assert_eq!(session.state.pieces[enemy as usize].stats[0], 100 - damage, "the enemy lost {damage} health");
    let pistol = session.state.pieces[me as usize].items.iter().find(|h| rules.items[h.item as usize].id == "pistol");
    assert_eq!(pistol.expect("pistol").charges, 5);

    // Buy: a pistol clip for $3; bullets beyond the maximum would be lost.
    click(&mut harness, "Buy ammunition");
    click_option(&mut harness, "Pistol (5 left)");
    let session = &harness.state().game().expect("game").session;
    let pistol = session.state.pieces[me as usize].items.iter().find(|h| rules.items[h.item as usize].id == "pistol");
    assert_eq!(pistol.expect("pistol").charges, 11);
    assert!(
        session.log.iter().any(|l| l.text.trim() == "Police 1 money ($): 2 (was 5)"),
        "the clip cost $3, and the log says so"
    );
    // Moving, attacking and buying are spent: the turn ends by itself, and the computer
    // characters play on (at no delay here) until the person's next turn.
    let session = &harness.state().game().expect("game").session;
    assert!(session.history.iter().any(|(seat, _)| *seat != 0), "the computers played on");
    assert!(session.is_over() || session.is_human_turn());
    assert!(!session.can_undo(), "undo is not offered after dice were rolled");
}
