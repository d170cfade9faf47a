//! The player window driven like a person would: widgets found by their labels and clicked, with
//! no display (egui_kittest). A whole Dice Wars game against the computer, Dunes of Terror turns
//! (move, attack, buy), undo, save and replay, hot reload of a broken and a fixed mod.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use meeple::player::catalog::{ModEntry, Origin};
use meeple::player::files::{FileDialogs, Picked, RecentSaves};
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

/// Whether the widget labelled `label` is shown disabled.
fn disabled(harness: &Harness<'static, PlayerApp>, label: &str) -> bool {
    use egui_kittest::kittest::NodeT;
    harness.get_by_label(label).accesskit_node().is_disabled()
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
    if harness.state().game().is_some_and(|g| g.session.is_over()) {
        click(&mut harness, "Statistics");
    }
    let session = &harness.state().game().expect("game").session;
    assert!(session.is_over(), "the game ended ({clicks} person actions)");
    let winners = session.winners().expect("a winner");
    assert!(has_label(&harness, &winners), "the game-over window names the winner: {winners}");
    assert!(has_label(&harness, "Game over"));
    assert!(has_label(&harness, "Play again"));
    // The statistics: the winner "won", the loser is "out" with no spaces; attacks succeeded or
    // failed as the log says.
    let table = session.statistics_table();
    assert_eq!(table[0][..3], ["Seat", "Result", "Spaces"].map(String::from));
    let winner = table.iter().position(|row| row[1] == "won").expect("a winner's row");
    assert_eq!(table[winner][2], "32", "the winner holds every territory");
    assert_eq!(table[3 - winner][1], "out");
    assert!(has_label(&harness, "Succeeded") && has_label(&harness, "won"));
    let successes: usize = table[1..]
        .iter()
        .map(|row| row[table[0].iter().position(|h| h == "Succeeded").unwrap()].parse::<usize>().unwrap())
        .sum();
    assert_eq!(successes, session.log.iter().filter(|l| l.text.trim() == "success").count());
    assert!(clicks > 5, "the person played: {clicks} actions");
    eprintln!("{winners} after {clicks} person actions, {} turns", session.state.turn.number);

    // The end screen ranks the seats, the loser with the round it went out in, and charts the
    // spaces each held, turn by turn, from the 16 each started with (of 32) to 32 and 0.
    let timeline = &session.timeline;
    let out = &timeline.outs[0];
    assert_eq!(out.seat as usize, 2 - winner, "the loser went out");
    let (winner_name, loser_name) = (table[winner][0].clone(), table[3 - winner][0].clone());
    assert!(has_label(&harness, &format!("1st · {winner_name} · won")));
    assert!(has_label(&harness, &format!("2nd · {loser_name} · out in round {}", out.round)));
    let spaces = timeline.series.iter().position(|s| s == "Spaces").unwrap();
    assert!(timeline.telling_series().contains(&spaces));
    let held = timeline.points(spaces, winner as u8 - 1);
    assert_eq!(held.last().map(|p| p[1]), Some(32.0), "the winner ends with every territory");
    assert_eq!(timeline.points(spaces, (3 - winner) as u8 - 1).last().map(|p| p[1]), Some(0.0));
    assert!(held.len() > 2 && held.windows(2).all(|w| w[0][0] < w[1][0]), "a point a turn: {held:?}");
    assert!(has_label(&harness, "Chart"));

    // Rematch: the same seats and players, another seed, a game from its start.
    let seed = session.setup.seed;
    click(&mut harness, "Rematch");
    let session = &harness.state().game().expect("a new game").session;
    assert!(!session.is_over() && session.history.iter().all(|(seat, _)| *seat == 1), "only the computer moved yet");
    assert_eq!(session.setup.seats[1].controller, "easy");
    assert_ne!(session.setup.seed, seed);
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
    // egui scrolls a button at the side panel's foot only just into view, its middle (where a
    // click lands) still under the log: the wheel brings it up the rest of the way.
    for _ in 0..20 {
        let bottom = {
            use egui_kittest::kittest::NodeT;
            let node = harness.query_all_by_role_and_label(egui::accesskit::Role::Button, label).next();
            node.and_then(|n| n.accesskit_node().bounding_box()).map_or(0.0, |b| b.y1 as f32)
        };
        let log_top = harness.state().game().and_then(|g| g.board.drawn_rect()).map_or(f32::MAX, |r| r.bottom());
        if bottom <= log_top {
            break;
        }
        harness.hover_at(egui::pos2(1100.0, 300.0));
        harness.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: egui::vec2(0.0, -40.0),
            modifiers: egui::Modifiers::default(),
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Wheel,
        });
        harness.run();
    }
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
    assert!(has_label(&harness, "Chance to hit: 100.0% (exact)"), "the pistol always hits");
    let expected = format!("Expected damage at the nearest enemy: {:.0} (exact)", 3.5 * 2.0);
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

/// A fresh folder under the target directory for one test's files.
fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = meeple_tests::root().join("target").join("test-scratch").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// Copies a mod folder.
fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).expect("folder");
    for entry in std::fs::read_dir(from).expect("readable") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// Starts a game of the first mod with its default setup and a fixed seed.
fn started(mods: Vec<ModEntry>, seed: u64) -> Harness<'static, PlayerApp> {
    let options =
        StartOptions { mod_name: Some(mods[0].id.clone()), start: true, seed: Some(seed), ..Default::default() };
    let mut harness = harness(PlayerApp::with_mods(mods, options));
    harness.state_mut().game_mut().expect("the game starts at once").computer_delay = 0.0;
    harness.run();
    harness
}

#[test]
fn the_launcher_lists_bundled_and_user_mods_and_shows_why_a_mod_does_not_load() {
    let user = scratch_dir("launcher_user_mods");
    copy_dir(&mods_dir().join("dice_wars"), &user.join("my_dice"));
    let manifest = user.join("my_dice/mod.toml");
    let text = std::fs::read_to_string(&manifest).expect("manifest");
    std::fs::write(
        &manifest,
        text.replace("id = \"dice_wars\"", "id = \"my_dice\"").replace("name = \"Dice Wars\"", "name = \"My Dice\""),
    )
    .expect("write");
    copy_dir(&mods_dir().join("dice_wars"), &user.join("broken"));
    std::fs::write(user.join("broken/rules.toml"), "[actions.attack]\nlabel = 3\n").expect("write");

    let mods = meeple::player::catalog::discover_in(&mods_dir(), Some(&user));
    let mut harness = harness(PlayerApp::with_mods(mods, StartOptions::default()));
    harness.run();
    assert!(harness.query_all_by_label_contains("Dice Wars  ·  2–8 players").next().is_some());
    assert!(harness.query_all_by_label_contains("Dunes of Terror  ·  2–16 players").next().is_some());
    assert!(harness.query_all_by_label_contains("My Dice  ·  2–8 players  ·  your mod").next().is_some());
    harness.query_all_by_label_contains("broken  (does not load)").next().expect("the broken mod is listed").click();
    harness.run();
    assert!(
        harness.query_all_by_label_contains("broken/rules.toml:2:").next().is_some(),
        "the problem is shown with its file and line"
    );
    assert!(disabled(&harness, "New game"), "a broken mod cannot be started");
}

/// The shop lists every weapon: those the purse can pay for to choose, the dearer ones greyed
/// with what they cost (`requires` on the choice), and a dearer one is refused with the same
/// words.
#[test]
fn the_shop_greys_what_the_purse_cannot_pay_for_and_says_why() {
    let mods = vec![ModEntry::load(&mods_dir().join("dunes_of_terror"), Origin::Bundled)];
    let mut harness = started(mods, 4);
    let session = &mut harness.state_mut().game_mut().expect("game").session;
    session.edit_state(|state| state.seats[0].resources[0] = 12);
    harness.run();
    click(&mut harness, "Buy weapon");
    let session = &mut harness.state_mut().game_mut().expect("game").session;
    let offered: Vec<String> = session.options().into_iter().map(|o| o.label).collect();
    let refused: Vec<(String, String)> = session.refused_options().into_iter().map(|(o, why)| (o.label, why)).collect();
    assert!(!offered.is_empty() && !refused.is_empty(), "{offered:?} / {refused:?}");
    assert!(
        refused.iter().all(|(_, why)| why.starts_with("costs $") && why.ends_with(", $12 to spend")),
        "{refused:?}"
    );
    let dearest = refused.iter().find(|(_, why)| why == "costs $25, $12 to spend").expect("the $25 weapon is shown");
    assert!(has_label(&harness, &dearest.1), "the reason beside the greyed weapon");
    assert!(disabled(&harness, &dearest.0), "greyed");
    // Bought anyway (a stale click, a script): refused with the same words, nothing changes.
    let session = &mut harness.state_mut().game_mut().expect("game").session;
    let buy = session.rules.action_index("buy_weapon").expect("the shop's action") as u16;
    let weapon = session.rules.items.iter().position(|i| i.price == 25).expect("a $25 weapon") as i64;
    let before = session.state.hash_hex();
    let choice = meeple_engine::game::Action::rule(buy, &[weapon]);
    let refusal = session.act(choice).unwrap_err();
    assert!(refusal.contains("costs $25, $12 to spend"), "{refusal}");
    assert_eq!(session.state.hash_hex(), before);
}

#[test]
fn an_action_without_dice_is_undone_and_disabled_actions_say_why() {
    let mods = vec![ModEntry::load(&mods_dir().join("dunes_of_terror"), Origin::Bundled)];
    let mut harness = started(mods, 4);
    let session = &harness.state().game().expect("game").session;
    assert!(session.is_human_turn());
    let before = session.state.hash_hex();
    // $5: no weapon is affordable, and the menu says so.
    assert!(disabled(&harness, "Buy weapon"));
    assert!(has_label(&harness, "Buy weapon: no weapon qualifies now: costs $10, $5 to spend"));
    click(&mut harness, "Buy ammunition");
    click_option(&mut harness, "Pistol (6 left)");
    let session = &harness.state().game().expect("game").session;
    assert_ne!(session.state.hash_hex(), before);
    assert!(session.can_undo(), "buying revealed no dice");
    assert!(has_label(&harness, "Buy ammunition: only once per turn: already done"));
    click(&mut harness, "Undo");
    let session = &harness.state().game().expect("game").session;
    assert_eq!(session.state.hash_hex(), before, "the state is exactly as before");
    assert!(session.history.is_empty());
    // Moving rolls a die: no undo after it.
    click(&mut harness, "Move");
    assert!(!harness.state().game().expect("game").session.can_undo());
    assert!(disabled(&harness, "Undo"));
}

#[test]
fn a_game_is_saved_continued_and_watched_as_a_replay() {
    let dir = scratch_dir("save_and_replay");
    let path = dir.join("game.json");
    let mods = vec![ModEntry::load(&mods_dir().join("dice_wars"), Origin::Bundled)];
    let mut harness = started(mods.clone(), 8);
    // A few attacks, then the turn passes and the computers play.
    for _ in 0..3 {
        let session = &harness.state().game().expect("game").session;
        let Some(attack) = session.legal().iter().find(|a| matches!(a.kind, ActionKind::Rule(_))).copied() else {
            break;
        };
        let (from, to) = (
            session.state.board.space(attack.args[0] as u32).label.clone(),
            session.state.board.space(attack.args[1] as u32).label.clone(),
        );
        click(&mut harness, "Attack");
        click_option(&mut harness, &from);
        click_option(&mut harness, &to);
    }
    click(&mut harness, "End turn");
    // Saved where the desktop's save dialog says.
    harness.state_mut().dialogs = Box::new(Chooses(Picked::Path(path.clone())));
    click(&mut harness, "Save as…");
    let session = &harness.state().game().expect("game").session;
    let (hash, actions) = (session.state.hash_hex(), session.history.len());
    assert!(actions > 3, "the person's attacks and the computers' turns: {actions}");
    assert!(path.is_file(), "saved to {}", path.display());
    assert!(harness.query_all_by_label_contains("Saved ").next().is_some());

    // Continue it from the launcher, the file chosen in the desktop's dialog.
    let mut harness = harness_at_launcher(mods.clone());
    harness.state_mut().dialogs = Box::new(Chooses(Picked::Path(path.clone())));
    click(&mut harness, "Open a save…");
    let session = &harness.state().game().expect("the saved game continues").session;
    assert_eq!((session.state.hash_hex(), session.history.len()), (hash.clone(), actions));

    // Watch it.
    let mut harness = harness_at_launcher(mods);
    harness.state_mut().dialogs = Box::new(Chooses(Picked::Path(path.clone())));
    click(&mut harness, "Watch a save…");
    assert!(has_label(&harness, &format!("Action 0 of {actions}")));
    click(&mut harness, "Forward");
    click(&mut harness, "Forward");
    click(&mut harness, "Back");
    assert!(has_label(&harness, &format!("Action 1 of {actions}")));
    click(&mut harness, "End");
    let viewer = harness.state_mut().replay_mut().expect("the replay viewer");
    assert_eq!(viewer.state().hash_hex(), hash, "the replay ends where the game was saved");
    click(&mut harness, "Start");
    assert!(has_label(&harness, &format!("Action 0 of {actions}")));
}

/// Stands in for the person in a file dialog: always gives the same answer.
struct Chooses(Picked);

impl FileDialogs for Chooses {
    fn open(&mut self, _folder: &std::path::Path) -> Picked {
        self.0.clone()
    }

    fn save_as(&mut self, _folder: &std::path::Path, _name: &str) -> Picked {
        self.0.clone()
    }
}

/// Where no dialog can be shown, the window's own browser saves and opens; the launcher lists
/// the games saved and opened, also in the next run, and continues one with a click.
#[test]
fn saves_are_chosen_without_typing_a_path_and_listed_in_the_launcher() {
    let dir = scratch_dir("recent_saves");
    let list = dir.join("recent-saves.txt");
    let mods = vec![ModEntry::load(&mods_dir().join("dice_wars"), Origin::Bundled)];
    let options = StartOptions { mod_name: Some("dice_wars".into()), start: true, seed: Some(5), ..Default::default() };
    let app = PlayerApp::with_mods_and_recent(mods.clone(), options, RecentSaves::load(Some(list.clone())));
    let mut harness = harness(app);
    harness.state_mut().dialogs = Box::new(Chooses(Picked::NoDialog));
    harness.state_mut().game_mut().expect("game").save_path = dir.join("first.json").display().to_string();
    harness.run();

    // Save as: no dialog here, so the window's browser, in the folder of the current file.
    click(&mut harness, "Save as…");
    assert!(has_label(&harness, "Save the game as"), "the browser opens");
    type_into(&mut harness, "File name", "mine");
    click(&mut harness, "Save here");
    let saved = dir.join("mine.json");
    assert!(saved.is_file(), "saved to {}", saved.display());
    assert!(!has_label(&harness, "Save the game as"), "the browser closes");
    let hash = harness.state().game().expect("game").session.state.hash_hex();
    harness.run();
    assert_eq!(std::fs::read_to_string(&list).unwrap().trim(), saved.canonicalize().unwrap().display().to_string());

    // The next run lists it: game, seed, length; Continue opens it with no path typed.
    let app =
        PlayerApp::with_mods_and_recent(mods.clone(), StartOptions::default(), RecentSaves::load(Some(list.clone())));
    let mut harness = self::harness(app);
    harness.run();
    let moves = meeple_engine::save::SaveFile::read(&saved).unwrap().actions.len();
    assert!(has_label(&harness, &format!("Dice Wars · seed 5 · {moves} moves")), "listed");
    click(&mut harness, "Continue");
    assert_eq!(harness.state().game().expect("the game continues").session.state.hash_hex(), hash);

    // Open any other save by browsing: the folder listed, a click on the file opens it.
    std::fs::copy(&saved, dir.join("other.json")).unwrap();
    let mut harness = harness_at_launcher(mods);
    harness.state_mut().dialogs = Box::new(Chooses(Picked::NoDialog));
    click(&mut harness, "Watch a save…");
    assert!(has_label(&harness, "Watch a saved game"));
    harness.state_mut().browser.as_mut().expect("the browser").folder = dir.clone();
    harness.run();
    assert!(has_label(&harness, "mine.json") && has_label(&harness, "other.json"));
    click(&mut harness, "other.json");
    assert!(harness.state_mut().replay_mut().is_some(), "the replay viewer shows the save chosen");
}

/// The launcher shows the selected game's board as a new game lays it out, and its README
/// rendered (headings as headings, not `##`).
#[test]
fn the_launcher_previews_the_selected_games_board_and_readme() {
    let mut harness = harness(app());
    harness.run();
    click(&mut harness, "Dunes of Terror  ·  2–16 players");
    assert!(has_label(&harness, "About this game"));
    assert!(has_label(&harness, "Where the rules are silent"), "a heading of its README");
    assert!(!harness.query_all_by_label_contains("## ").any(|_| true), "no Markdown left raw");
    assert!(has_label(&harness, "The board of a new game with the default setup"));
    click(&mut harness, "Dice Wars  ·  2–8 players");
    assert!(has_label(&harness, "Dice Wars") && !has_label(&harness, "Dunes of Terror"), "the README follows");

    // Every bundled game's README draws with the window's fonts (a glyph they lack panics
    // here, and is a box in the window).
    let every: Vec<ModEntry> = std::fs::read_dir(mods_dir())
        .unwrap()
        .flatten()
        .filter(|e| e.path().join("mod.toml").is_file())
        .map(|e| ModEntry::load(&e.path(), Origin::Bundled))
        .collect();
    let names: Vec<String> = every.iter().map(|m| format!("{}  ·  {}", m.name, m.players)).collect();
    let mut harness = self::harness(PlayerApp::with_mods(every, StartOptions::default()));
    harness.run();
    for name in names {
        click(&mut harness, &name);
        assert!(has_label(&harness, "About this game"), "{name}");
    }
}

fn harness_at_launcher(mods: Vec<ModEntry>) -> Harness<'static, PlayerApp> {
    let mut harness = harness(PlayerApp::with_mods(mods, StartOptions::default()));
    harness.run();
    harness
}

fn type_into(harness: &mut Harness<'static, PlayerApp>, label: &str, text: &str) {
    harness.get_by_label(label).focus();
    harness.run();
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness.get_by_label(label).type_text(text);
    harness.run();
}

#[test]
fn a_mod_changed_on_disk_is_reloaded_and_a_broken_one_keeps_the_game_running() {
    let dir = scratch_dir("hot_reload");
    let folder = dir.join("dice_wars");
    copy_dir(&mods_dir().join("dice_wars"), &folder);
    let mut harness = started(vec![ModEntry::load(&folder, Origin::User)], 2);
    let session = &harness.state().game().expect("game").session;
    let attack = *session.legal().iter().find(|a| matches!(a.kind, ActionKind::Rule(_))).expect("an attack");
    let (from, to) = (
        session.state.board.space(attack.args[0] as u32).label.clone(),
        session.state.board.space(attack.args[1] as u32).label.clone(),
    );
    click(&mut harness, "Attack");
    click_option(&mut harness, &from);
    click_option(&mut harness, &to);
    let before = harness.state().game().expect("game").session.state.hash_hex();

    // Break the rules: the problems are shown with file:line, the game goes on unchanged.
    let rules_path = folder.join("rules.toml");
    let good = std::fs::read_to_string(&rules_path).expect("rules");
    let broken = good.replacen("label = \"Attack\"", "label = \"Attack\"\nlabl = 1", 1);
    assert_ne!(broken, good);
    std::fs::write(&rules_path, &broken).expect("write");
    harness.state_mut().game_mut().expect("game").check_reload();
    harness.run();
    let game = harness.state().game().expect("game");
    assert!(!game.problems.is_empty());
    assert_eq!(game.session.state.hash_hex(), before, "the game keeps its state");
    assert!(has_label(
        &harness,
        "The mod changed on disk and no longer loads; the game goes on with the last good version:"
    ));
    assert!(
        harness.query_all_by_label_contains("rules.toml:").next().is_some()
            && harness.query_all_by_label_contains("did you mean `label`").next().is_some(),
        "the problem names the file and line and suggests the key"
    );
    // The person can still play on the last good rules.
    assert!(!disabled(&harness, "End turn"));

    // Fix it with a change: the game is replayed on the new rules.
    let renamed = good.replacen("label = \"Attack\"", "label = \"Charge\"", 1);
    std::fs::write(&rules_path, &renamed).expect("write");
    harness.state_mut().game_mut().expect("game").check_reload();
    harness.run();
    let game = harness.state().game().expect("game");
    assert!(game.problems.is_empty());
    assert_eq!(game.session.state.hash_hex(), before, "the same actions give the same game");
    assert!(has_label(&harness, "Charge"), "the menu shows the changed label");
}

#[test]
fn people_sharing_a_screen_hand_it_over_when_hands_are_hidden() {
    let tiny = meeple_tests::root().join("engine/tests/fixtures/tiny");
    let mut harness = harness_at_launcher(vec![ModEntry::load(&tiny, Origin::User)]);
    click(&mut harness, "New game");
    harness.get_by_role_and_label(egui::accesskit::Role::ComboBox, "Seat 2").click();
    harness.run();
    click(&mut harness, "Person");
    set_seed(&mut harness, 1);
    click(&mut harness, "Start game");
    let first = harness.state().game().expect("game").session.state.seats[0].name.clone();
    let second = harness.state().game().expect("game").session.state.seats[1].name.clone();
    click(&mut harness, &format!("I am {first}: show my turn"));
    click(&mut harness, "Collect");
    if disabled(&harness, "Draw a card") {
        // The income phase does not end by itself here: pass it.
        let session = &harness.state().game().expect("game").session;
        let pass = session.rules.phases[session.state.turn.phase as usize].pass_label.clone();
        click(&mut harness, &pass);
    }
    click(&mut harness, "Draw a card");
    let session = &harness.state().game().expect("game").session;
    let card = session.state.seats[0].hand.first().copied().expect("a card drawn");
    let name = session.rules.card_ids[card.1 as usize].clone();
    assert!(has_label(&harness, "Your hand") && has_label(&harness, &name), "{first} sees the card {name}");
    let pass = session.rules.phases[session.state.turn.phase as usize].pass_label.clone();
    click(&mut harness, &pass);
    // The screen waits for the second person; nothing of the first hand shows.
    assert!(has_label(&harness, &format!("Pass the screen to {second}")));
    assert!(!has_label(&harness, "Your hand") && !has_label(&harness, &name));
    click(&mut harness, &format!("I am {second}: show my turn"));
    assert!(!has_label(&harness, &name), "{second} does not see {first}'s card");
    assert!(has_label(&harness, &format!("{first}: 1 card")));
}

#[test]
fn a_computers_hand_is_hidden_from_the_person_until_a_card_is_shown() {
    use meeple_engine::game::{Engine, Events, GameSetup};
    let secrets = meeple_tests::root().join("engine/tests/fixtures/secrets");
    let entry = ModEntry::load(&secrets, Origin::User);
    // A seed that deals the computer (seat 2) no card the person holds too, so that none of
    // its cards' names can be on the screen for another reason.
    let rules = meeple_engine::loader::load_mod(&secrets).expect("the fixture loads").ruleset;
    let disjoint = (1..200u64)
        .find(|&seed| {
            let mut engine = Engine::new(rules.clone()).unwrap();
            let state = engine.new_game(&GameSetup::new(&rules, seed, 2, "human"), &mut Events::discard()).unwrap();
            let theirs = &state.seats[1].hand;
            theirs.iter().all(|card| !state.seats[0].hand.contains(card)) && theirs[0] != theirs[1]
        })
        .expect("a seed deals two different hands");
    let mut harness = harness_at_launcher(vec![entry]);
    click(&mut harness, "New game");
    harness.get_by_role_and_label(egui::accesskit::Role::ComboBox, "Seat 2").click();
    harness.run();
    click(&mut harness, "Computer: easy");
    set_seed(&mut harness, disjoint);
    click(&mut harness, "Start game");
    let session = &harness.state().game().expect("game").session;
    assert_eq!(session.viewer(), 0, "the window shows what the person's seat sees");
    let name = |card: u16| session.rules.cards[card as usize].label.clone();
    let mine: Vec<String> = session.state.seats[0].hand.iter().map(|(_, c)| name(*c)).collect();
    let theirs: Vec<String> = session.state.seats[1].hand.iter().map(|(_, c)| name(*c)).collect();
    let computer = session.state.seats[1].name.clone();
    assert!(has_label(&harness, "Your hand"));
    for card in &mine {
        assert!(has_label(&harness, card), "the person sees its own {card}");
    }
    for card in &theirs {
        assert!(!has_label(&harness, card), "the computer's {card} is not on the screen");
    }
    assert!(has_label(&harness, &format!("{computer}: 2 cards")));
    assert!(harness.query_all_by_label_contains("shown:").next().is_none(), "nothing was shown to the person");

    // The computer's first card is shown to the person: now the window names it.
    harness.state_mut().game_mut().expect("game").session.edit_state(|state| {
        state.seats[1].show(0, Some(0));
    });
    harness.run();
    assert!(has_label(&harness, &format!("  shown: {}", theirs[0])), "the card shown to the person, alone");
    assert!(!has_label(&harness, &theirs[1]), "the other stays hidden");
}

/// Clicks the board at a space, where it was drawn.
fn click_board(harness: &mut Harness<'static, PlayerApp>, space: u32) {
    let at = harness.state().game().expect("game").board.screen_pos(space).expect("the board was drawn");
    harness.hover_at(at);
    harness.run();
    for pressed in [true, false] {
        harness.event(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::default(),
        });
    }
    harness.run();
}

#[test]
fn attacks_are_chosen_on_the_board_with_the_chance_in_the_tooltip() {
    let mods = vec![ModEntry::load(&mods_dir().join("dice_wars"), Origin::Bundled)];
    let mut harness = started(mods, 11);
    let session = &harness.state().game().expect("game").session;
    let attack = *session.legal().iter().find(|a| matches!(a.kind, ActionKind::Rule(_))).expect("an attack");
    let (from, to) = (attack.args[0] as u32, attack.args[1] as u32);
    let before = session.history.len();
    // A click on one of my territories starts an attack from it: its neighbours to attack are
    // marked red (they belong to another seat).
    click_board(&mut harness, from);
    let game = harness.state_mut().game_mut().expect("game");
    assert_eq!(game.session.chosen().map(|(_, n)| n), Some(1), "the attack starts from the clicked territory");
    let marks = game.marks();
    assert_eq!(marks.get(&to), Some(&meeple::player::board_view::Mark::Target));
    assert_eq!(marks.get(&from), Some(&meeple::player::board_view::Mark::Chosen));
    // Hovering the target shows the exact chance to conquer.
    let notes = game.notes();
    let chance = notes.get(&to).and_then(|lines| lines.first()).expect("a preview for the target").clone();
    let exact = meeple_engine::game::Engine::new(game.session.rules.clone())
        .expect("engine")
        .chance(&game.session.state, &attack)
        .expect("an attack has a chance");
    assert_eq!(chance, format!("Chance to conquer: {:.1}% (exact)", exact * 100.0), "the engine's exact chance");
    let at = game.board.screen_pos(to).expect("drawn");
    harness.hover_at(at);
    harness.run();
    assert!(has_label(&harness, &chance), "the tooltip shows {chance}");
    click_board(&mut harness, to);
    let session = &harness.state().game().expect("game").session;
    assert_eq!(session.history.get(before).map(|(_, a)| a.args[..2].to_vec()), Some(vec![from as i64, to as i64]));
    assert!(!session.last_rolls.is_empty(), "the dice are shown");
}

#[test]
fn the_setup_offers_the_mods_options() {
    let mut harness = harness(app());
    harness.run();
    open_setup(&mut harness, "Dunes of Terror");
    harness.get_by_role_and_label(egui::accesskit::Role::ComboBox, "Map size").click();
    harness.run();
    click(&mut harness, "Small: 26 × 30");
    click(&mut harness, "Start game");
    let session = &harness.state().game().expect("the game starts").session;
    assert_eq!(session.state.board.space_count(), 26 * 30);
    assert_eq!(session.setup.options.get("map_size").map(String::as_str), Some("small"));
}

/// A map for a number of players follows the seat count: Death Dome's four corners for four
/// teams, its three bases once a seat is taken away (the corners then greyed, saying for how
/// many), and the game started plays on the arena the setup showed.
#[test]
fn the_setup_picks_the_map_made_for_the_seat_count() {
    let mods = vec![ModEntry::load(&mods_dir().join("death_dome"), Origin::Bundled)];
    let mut harness = harness(PlayerApp::with_mods(mods, StartOptions::default()));
    harness.run();
    open_setup(&mut harness, "Death Dome");
    let arena = |harness: &Harness<'static, PlayerApp>| {
        harness.state().setup_form().expect("setup").options.get("arena").cloned().unwrap_or_default()
    };
    assert_eq!(harness.state_mut().setup_mut().expect("setup").seats.len(), 4);
    assert_eq!(arena(&harness), "four_corners");
    click(&mut harness, "−");
    assert_eq!(arena(&harness), "three_bases", "three teams get the arena of three bases");
    harness.get_by_role_and_label(egui::accesskit::Role::ComboBox, "Arena").click();
    harness.run();
    assert!(disabled(&harness, "Four corners (2 or 4 teams)"), "the corners are not for three");
    harness.key_press(egui::Key::Escape);
    harness.run();
    click(&mut harness, "−");
    assert_eq!(arena(&harness), "four_corners", "and two teams the corners again");
    click(&mut harness, "+");
    click(&mut harness, "Start game");
    let session = &harness.state().game().expect("the game starts").session;
    assert_eq!(session.setup.options.get("arena").map(String::as_str), Some("three_bases"));
    assert_eq!(session.rules.chosen_options.get("arena").map(String::as_str), Some("three_bases"));
    let green_base: Vec<&str> = session
        .state
        .board
        .spaces()
        .iter()
        .filter(|space| space.home == Some(2))
        .map(|space| space.label.as_str())
        .collect();
    assert!(green_base.contains(&"I15"), "green's base in the middle of the bottom edge: {green_base:?}");
}

/// The heading of the turn of the seat to move, as the header shows it.
fn announcement(harness: &Harness<'static, PlayerApp>) -> String {
    let session = &harness.state().game().expect("game").session;
    meeple_engine::game::seating::turn_announcement(&session.rules, &session.state, session.seat())
}

#[test]
fn the_frame_that_ends_a_turn_already_shows_the_next_seat() {
    let mods = vec![ModEntry::load(&mods_dir().join("dice_wars"), Origin::Bundled)];
    let mut harness = started(mods, 5);
    harness.state_mut().game_mut().expect("game").computer_delay = 2.0;
    harness.run();
    let before = announcement(&harness);
    assert!(has_label(&harness, &before) && has_label(&harness, "End turn"));
    // One click, one frame (no mouse move after it): what that frame shows is what stays on
    // the screen until something else happens.
    harness.get_by_label("End turn").click();
    harness.step();
    let session = &harness.state().game().expect("game").session;
    assert!(!session.is_human_turn(), "the turn passed to a computer");
    let now = announcement(&harness);
    assert_ne!(now, before);
    assert!(has_label(&harness, &now), "the header shows {now}, not {before}");
    assert!(!has_label(&harness, "End turn"), "no actions are offered on a computer's turn");
}

/// Plays a few attacks of the person and ends the turn (the computers play on at once).
fn play_a_little(harness: &mut Harness<'static, PlayerApp>) {
    for _ in 0..3 {
        let session = &harness.state().game().expect("game").session;
        let Some(attack) = session.legal().iter().find(|a| matches!(a.kind, ActionKind::Rule(_))).copied() else {
            break;
        };
        let (from, to) = (
            session.state.board.space(attack.args[0] as u32).label.clone(),
            session.state.board.space(attack.args[1] as u32).label.clone(),
        );
        click(harness, "Attack");
        click_option(harness, &from);
        click_option(harness, &to);
    }
    click(harness, "End turn");
}

#[test]
fn a_continued_game_shows_its_last_roll_counts_every_move_and_keeps_its_file() {
    let dir = scratch_dir("continue_save");
    let path = dir.join("game.json");
    let mods = vec![ModEntry::load(&mods_dir().join("dice_wars"), Origin::Bundled)];
    let mut harness = started(mods.clone(), 8);
    play_a_little(&mut harness);
    harness.state_mut().game_mut().expect("game").save_path = path.display().to_string();
    click(&mut harness, "Save");
    let played = &harness.state().game().expect("game").session;
    let (rolls, stats, actions) = (played.last_rolls.clone(), played.stats().per_seat, played.history.len());
    assert!(actions > 3 && !rolls.is_empty());

    let options = StartOptions { open: Some(path.clone()), ..Default::default() };
    let mut harness = self::harness(PlayerApp::with_mods(mods, options));
    harness.run();
    let game = harness.state().game().expect("the saved game continues");
    assert_eq!(game.session.history.len(), actions);
    assert_eq!(game.session.last_rolls, rolls, "the dice panel shows the last roll, not every roll of the game");
    assert_eq!(game.session.stats().per_seat, stats, "the statistics count the moves made before saving too");
    assert_eq!(game.save_path, path.display().to_string(), "\"Save to\" names the file opened");
    assert!(!game.has_unsaved_moves());
    // The computers wait, so the game stands still while it is watched.
    harness.state_mut().game_mut().expect("game").paused = true;

    // Watching the replay writes nothing and the game waits: closing the replay returns to it.
    let saved = std::fs::read(&path).expect("the save");
    play_a_little(&mut harness);
    let actions = harness.state().game().expect("game").session.history.len();
    click(&mut harness, "Replay");
    assert!(has_label(&harness, &format!("Action 0 of {actions}")), "the replay shows the game so far");
    assert_eq!(std::fs::read(&path).expect("the save"), saved, "the save was not overwritten");
    click(&mut harness, "Close replay");
    let game = harness.state().game().expect("back in the game");
    assert_eq!(game.session.history.len(), actions, "the game goes on where it was");
    click(&mut harness, "Save");
    assert!(harness.query_all_by_label_contains(&format!("to {}", path.display())).next().is_some());
    let reread = meeple_engine::save::SaveFile::read(&path).expect("saved back to the file opened");
    assert_eq!(reread.actions.len(), actions);
}

#[test]
fn territories_are_numbered_on_the_board_and_a_choice_points_at_its_space() {
    let mods = vec![ModEntry::load(&mods_dir().join("dice_wars"), Origin::Bundled)];
    let mut harness = started(mods, 11);
    let session = &harness.state().game().expect("game").session;
    let attack = *session.legal().iter().find(|a| matches!(a.kind, ActionKind::Rule(_))).expect("an attack");
    let (from, to) = (attack.args[0] as u32, attack.args[1] as u32);
    let (from_label, to_label) =
        (session.state.board.space(from).label.clone(), session.state.board.space(to).label.clone());
    let game = harness.state().game().expect("game");
    assert!(
        game.board.drawn_geometry().expect("the board was drawn").names_spaces(),
        "a territory map writes each territory's number, the name the choices and the log use"
    );
    click(&mut harness, "Attack");
    click_option(&mut harness, &from_label);
    // The pointer on a choice in the list marks that territory on the board.
    harness.query_all_by_role_and_label(egui::accesskit::Role::Button, &to_label).next().expect("the choice").hover();
    harness.run();
    let marks = harness.state().game().expect("game").marks();
    assert_eq!(marks.get(&to), Some(&meeple::player::board_view::Mark::Pointed), "{to_label} is pointed at");
    assert_eq!(marks.get(&from), Some(&meeple::player::board_view::Mark::Chosen));
}

#[test]
fn highlight_rings_stand_out_on_every_seat_colour() {
    use meeple::player::board_view::{Mark, contrast, ring_colors, space_fill};
    let marks = [Mark::Eligible, Mark::Target, Mark::Chosen, Mark::Pointed];
    // Any colour a mod may give a seat: each ring has a part that stands out from it (WCAG's
    // 4.5:1), and its own colour is told from that part.
    let steps = [0u8, 32, 64, 96, 128, 160, 192, 224, 255];
    for r in steps {
        for g in steps {
            for b in steps {
                let fill = egui::Color32::from_rgb(r, g, b);
                for mark in marks {
                    let (halo, core) = ring_colors(mark, fill);
                    assert!(contrast(halo, fill) >= 4.5, "{mark:?} on {fill:?}: halo {halo:?}");
                    if mark != Mark::Eligible {
                        assert!(contrast(core, halo) >= 1.4, "{mark:?} on {fill:?}: {core:?} inside {halo:?}");
                    }
                }
            }
        }
    }
    // In a game: the red targets of a red seat's attack, every seat's territory.
    let mods = vec![ModEntry::load(&mods_dir().join("dice_wars"), Origin::Bundled)];
    let harness = started(mods, 11);
    let session = &harness.state().game().expect("game").session;
    for space in session.state.board.space_ids() {
        let fill = space_fill(&session.rules, &session.state, space);
        for mark in marks {
            let (halo, _) = ring_colors(mark, fill);
            assert!(contrast(halo, fill) >= 4.5, "space {space}");
        }
    }
}

#[test]
fn leaving_and_dropping_a_game_ask_first() {
    let mods = vec![ModEntry::load(&mods_dir().join("dice_wars"), Origin::Bundled)];
    let mut harness = started(mods, 3);
    let menu: Vec<String> =
        harness.state_mut().game_mut().expect("game").session.menu().into_iter().map(|e| e.label).collect();
    assert_eq!(menu, ["Attack", "End turn", "Leave the game"], "leaving comes last, not between the moves");

    // A game with moves not saved: "New game" asks.
    play_a_little(&mut harness);
    assert!(harness.state().game().expect("game").has_unsaved_moves());
    click(&mut harness, "New game");
    assert!(has_label(&harness, "Start a new game?"));
    click(&mut harness, "Keep playing");
    assert!(harness.state().game().is_some() && !has_label(&harness, "Start a new game?"));

    // Leaving asks; "Keep playing" keeps the seat in the game.
    click(&mut harness, "Leave the game");
    assert!(has_label(&harness, "Leave the game?"));
    let status = |h: &Harness<'static, PlayerApp>| h.state().game().expect("game").session.state.seats[0].status;
    assert_eq!(status(&harness), meeple_engine::game::SeatStatus::Active, "one click does not forfeit");
    click(&mut harness, "Keep playing");
    assert_eq!(status(&harness), meeple_engine::game::SeatStatus::Active);
    click(&mut harness, "New game");
    click(&mut harness, "Drop this game");
    assert!(has_label(&harness, "Start game"), "the setup of a new game");
}

#[test]
fn leaving_is_done_once_confirmed() {
    let mods = vec![ModEntry::load(&mods_dir().join("dice_wars"), Origin::Bundled)];
    let mut harness = started(mods, 3);
    harness.state_mut().game_mut().expect("game").paused = true;
    click(&mut harness, "Leave the game");
    click(&mut harness, "Leave");
    let session = &harness.state().game().expect("game").session;
    assert_eq!(session.state.seats[0].status, meeple_engine::game::SeatStatus::Left);
}

#[test]
fn a_mistake_in_the_options_file_is_shown_without_the_options_it_takes_along() {
    let dir = scratch_dir("reload_options_cascade");
    let folder = dir.join("petri");
    copy_dir(&mods_dir().join("petri"), &folder);
    let mut harness = started(vec![ModEntry::load(&folder, Origin::User)], 1);
    assert!(harness.state().game().expect("game").session.setup.options.contains_key("dish"));
    let board = folder.join("board.toml");
    let text = std::fs::read_to_string(&board).expect("board.toml");
    std::fs::write(&board, text.replacen("[options.dish]", "[options.dish", 1)).expect("write");
    harness.state_mut().game_mut().expect("game").check_reload();
    harness.run();
    let problems = harness.state().game().expect("game").problems.clone();
    assert!(!problems.is_empty());
    assert!(problems[0].contains("board.toml:"), "the mistake itself comes first: {problems:?}");
    assert!(!problems.iter().any(|p| p.contains("cannot be chosen")), "no cascade: {problems:?}");
}

#[test]
fn a_rule_change_that_refuses_past_moves_says_so_and_offers_a_restart() {
    let dir = scratch_dir("reload_rewinds");
    let folder = dir.join("dice_wars");
    copy_dir(&mods_dir().join("dice_wars"), &folder);
    let mut harness = started(vec![ModEntry::load(&folder, Origin::User)], 2);
    // An attack from two dice, which the changed rules will not allow.
    let session = &harness.state().game().expect("game").session;
    let dice = session.rules.counter_index("dice").expect("dice") as u16;
    let attack = *session
        .legal()
        .iter()
        .find(|a| matches!(a.kind, ActionKind::Rule(_)) && session.state.counter(a.args[0] as u32, dice) == 2)
        .expect("an attack from two dice");
    let (from, to) = (
        session.state.board.space(attack.args[0] as u32).label.clone(),
        session.state.board.space(attack.args[1] as u32).label.clone(),
    );
    click(&mut harness, "Attack");
    click_option(&mut harness, &from);
    click_option(&mut harness, &to);
    click(&mut harness, "End turn");
    // The computers wait, so the game stands where the reload leaves it.
    harness.state_mut().game_mut().expect("game").paused = true;
    let actions = harness.state().game().expect("game").session.history.len();
    let rules_path = folder.join("rules.toml");
    let good = std::fs::read_to_string(&rules_path).expect("rules");
    let stricter = good.replacen("where = \"from.dice > 1\"", "where = \"from.dice > 2\"", 1);
    assert_ne!(stricter, good);
    std::fs::write(&rules_path, &stricter).expect("write");
    harness.state_mut().game_mut().expect("game").check_reload();
    harness.run();
    let game = harness.state().game().expect("game");
    let rewound = game.rewound.clone().expect("the reload says what it dropped");
    assert_eq!(rewound.of, actions);
    assert_eq!(game.session.history.len(), rewound.refused, "the game stands before the refused move");
    assert!(
        harness
            .query_all_by_label_contains(&format!("refuse move {} of {actions}", rewound.refused + 1))
            .next()
            .is_some(),
        "said plainly on the screen"
    );
    assert!(has_label(&harness, "Keep playing from there") && has_label(&harness, "Restart the game"));
    click(&mut harness, "Restart the game");
    let game = harness.state().game().expect("game");
    assert!(game.rewound.is_none() && !has_label(&harness, "Restart the game"));
    assert!(game.session.history.is_empty(), "a new game from the same setup");
}

#[test]
fn an_idle_game_asks_for_no_frames_until_a_mod_file_changes() {
    let dir = scratch_dir("idle_watch");
    let folder = dir.join("dice_wars");
    copy_dir(&mods_dir().join("dice_wars"), &folder);
    let mut harness = started(vec![ModEntry::load(&folder, Origin::User)], 2);
    harness.run();
    assert!(harness.state().game().expect("game").session.is_human_turn());
    assert!(!harness.ctx.has_requested_repaint(), "a person's turn with nothing moving draws nothing");
    // A change on disk wakes the window by itself.
    let rules_path = folder.join("rules.toml");
    let good = std::fs::read_to_string(&rules_path).expect("rules");
    std::fs::write(&rules_path, good.replacen("label = \"Attack\"", "label = \"Charge\"", 1)).expect("write");
    let waited = std::time::Instant::now();
    while !harness.ctx.has_requested_repaint() && waited.elapsed() < std::time::Duration::from_secs(20) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(harness.ctx.has_requested_repaint(), "the file watch woke the window");
    harness.run();
    assert!(has_label(&harness, "Charge"), "the changed rules are in play");
}

/// A figure beside a choice says how it was worked out: "exact" over every outcome, or, for odds
/// a hook's dice have too many combinations for, the margin of its 95% interval (chances in
/// percentage points).
#[test]
fn a_preview_figure_says_whether_it_is_exact_or_sampled() {
    use meeple::player::panels::format_preview;
    use meeple_engine::game::{Figure, Method};
    let figure = |label: &str, value: f64, method| Figure { label: label.to_string(), value, method };
    assert_eq!(format_preview(&figure("Chance to hit", 2.0 / 3.0, Method::Exact)), "Chance to hit: 66.7% (exact)");
    assert_eq!(
        format_preview(&figure("Chance to hit", 0.9691, Method::Sampled { margin: 0.00153 })),
        "Chance to hit: 96.9% (≈, 95% ±0.15%)"
    );
    assert_eq!(
        format_preview(&figure("Expected damage", 26.3, Method::Sampled { margin: 0.1117 })),
        "Expected damage: 26.3 (≈, 95% ±0.11)"
    );
    // A figure with no chance in it (the damage of a roll made) says nothing of odds.
    assert_eq!(format_preview(&figure("Damage", 8.0, Method::Certain)), "Damage: 8");
}

/// A response offered out of turn is asked of the seat it is offered to, on the mover's turn:
/// the window shows that seat's choice (the response, or "Decline") and nothing of the mover's
/// until it is answered. The fixture `toll_road`: stepping onto another seat's piece offers that
/// seat a toll and a shove.
#[test]
fn a_response_out_of_turn_is_asked_of_its_seat_with_a_decline_button() {
    let road = meeple_tests::root().join("engine/tests/fixtures/toll_road");
    let mut harness = harness_at_launcher(vec![ModEntry::load(&road, Origin::User)]);
    click(&mut harness, "New game");
    harness.get_by_role_and_label(egui::accesskit::Role::ComboBox, "Seat 2").click();
    harness.run();
    click(&mut harness, "Person");
    set_seed(&mut harness, 1);
    click(&mut harness, "Start game");
    // Seat 1 steps to `b`, where nobody stands; then seat 2 steps onto it.
    click(&mut harness, "Step");
    click_option(&mut harness, "b");
    let session = &harness.state().game().expect("game").session;
    assert_eq!((session.state.turn.seat, session.seat()), (1, 1), "no offer: seat 2's turn");
    click(&mut harness, "Step");
    click_option(&mut harness, "b");
    let session = &harness.state().game().expect("game").session;
    assert_eq!((session.state.turn.seat, session.seat()), (1, 0), "seat 1 answers on seat 2's turn");
    assert!(has_label(&harness, "Take the toll") && has_label(&harness, "Decline"));
    assert!(has_label(&harness, "Seat 1 may answer: Take the toll"), "whose answer it is");
    assert!(!has_label(&harness, "Step"), "nothing of seat 2's turn is offered meanwhile");
    click(&mut harness, "Take the toll");
    let session = &harness.state().game().expect("game").session;
    assert_eq!(session.state.seats[0].resources[0], 12, "the toll is paid to seat 1");
    // Then the shove: declined.
    assert!(has_label(&harness, "Shove back"));
    click(&mut harness, "Decline");
    let session = &harness.state().game().expect("game").session;
    assert!(session.state.turn.offers.is_empty());
    assert_eq!(session.seat(), 0, "seat 2 had stepped: its turn ended, and seat 1's began");
}

/// Death Dome in the window: the gunner's items show their stats in the shop and on the unit,
/// the chosen gunner's line of sight is shaded while its target is chosen, and when it shoots,
/// both teams' stacks (committed sealed) are shown side by side once opened — the computer's
/// cards too, known from the discards that opening them made.
#[test]
fn death_dome_shows_item_stats_line_of_sight_and_the_opened_stacks_side_by_side() {
    use meeple::player::Session;
    use meeple::player::app::{GameScreen, Screen};
    use meeple_engine::game::{Action, GameSetup};

    let folder = mods_dir().join("death_dome");
    let rules = meeple_tests::load("death_dome");
    let mut setup = GameSetup::new(&rules, 1, 2, "human");
    setup.seats[1].controller = "random".into();
    let session = Session::new(rules.clone(), setup).expect("the game starts");
    let mut app = PlayerApp::with_mods(vec![ModEntry::load(&folder, Origin::Bundled)], StartOptions::default());
    let mut game = GameScreen::new(session, &folder);
    game.computer_delay = 0.0;
    game.paused = true;
    app.screen = Screen::Game(Box::new(game));
    let mut harness = harness(app);
    harness.run();
    let kind = |id: &str| rules.piece_kinds.iter().position(|k| k.id == id).expect("a unit type") as u16;
    let unit = |harness: &Harness<'static, PlayerApp>, owner: u8, id: &str| {
        let state = &harness.state().game().expect("game").session.state;
        state.pieces.iter().position(|p| p.owner == owner && p.kind == kind(id)).expect("the unit") as u32
    };
    let gunner = unit(&harness, 0, "gunner");
    let lines =
        meeple::player::panels::piece_lines(&rules, &harness.state().game().expect("game").session.state, gunner);
    assert!(lines.contains(&"Service Rifle (strength 2, range 9)".to_string()), "{lines:?}");

    // The shop: items for the gunner with their stats and holders, the description on hover.
    click(&mut harness, "Buy");
    let session = &harness.state().game().expect("game").session;
    let who = session.options().into_iter().find(|o| o.arg == i64::from(gunner)).expect("the gunner");
    click_option(&mut harness, &who.label);
    assert!(has_label(&harness, "strength 3, range 9 · for Gunner"), "the chain gun's stats under it");
    let session = &harness.state().game().expect("game").session;
    let chain_gun = session.options().into_iter().find(|o| o.label.starts_with("Chain Gun")).expect("for sale");
    assert_eq!(chain_gun.description.as_deref(), Some("Ranged 9. Push back on two of a kind."));
    click(&mut harness, "Back");
    click(&mut harness, "Back");

    // Through the shop to the match: red passes (and answers what the match's start asks of it
    // with its first choice), the computer buys or passes.
    for _ in 0..400 {
        let game = harness.state_mut().game_mut().expect("game");
        let session = &mut game.session;
        let asked = !session.state.turn.offers.is_empty();
        if !session.state.turn.interlude && session.is_human_turn() && !asked {
            break;
        }
        if session.is_human_turn() {
            let first = session.legal().iter().find(|a| !a.is_pass()).copied();
            let answer = if asked { first.unwrap_or_else(Action::pass) } else { Action::pass() };
            session.act(answer).expect("red passes the shop or answers");
        } else {
            session.step_computer();
        }
    }
    harness.run();
    let session = &harness.state().game().expect("game").session;
    assert!(!session.state.turn.interlude && session.is_human_turn(), "red's first unit phase");

    // Red's gunner on the floor at E03, blue's warrior three squares down at E06, in sight.
    let target = unit(&harness, 1, "warrior");
    let square = |label: &str| {
        let board = &harness.state().game().expect("game").session.state.board;
        (0..board.space_count() as u32).find(|&s| board.space(s).label == label).expect("a square")
    };
    let (from, to) = (square("E03"), square("E06"));
    harness.state_mut().game_mut().expect("game").session.edit_state(|state| {
        state.pieces[gunner as usize].space = from;
        state.pieces[target as usize].space = to;
    });
    harness.run();

    // Attack: the gunner, its rifle (stats under it), then the target, with the gunner's line of
    // sight shaded meanwhile.
    click(&mut harness, "Attack");
    let session = &harness.state().game().expect("game").session;
    let attacker = session.options().into_iter().find(|o| o.arg == i64::from(gunner)).expect("the gunner attacks");
    click_option(&mut harness, &attacker.label);
    assert!(has_label(&harness, "strength 2, range 9 · for Gunner"), "the rifle's stats under it");
    click_option(&mut harness, "Service Rifle");
    let game = harness.state_mut().game_mut().expect("game");
    assert_eq!(game.sight_source(), Some(from), "the board shows what the gunner sees");
    let seen = game.sight_seen().expect("sight").to_vec();
    assert!(seen[to as usize], "the gunner sees its target");
    assert!(seen.iter().any(|&sees| !sees), "walls and the tower hide part of the arena");
    let session = &harness.state().game().expect("game").session;
    let victim = session.options().into_iter().find(|o| o.arg == i64::from(target)).expect("the warrior");
    click_option(&mut harness, &victim.label);

    // Red's stack: two cards, sealed; then closed.
    let mut committed = Vec::new();
    for _ in 0..2 {
        assert!(has_label(&harness, "Add to the stack"), "red is asked for its stack");
        click(&mut harness, "Add to the stack");
        let session = &harness.state().game().expect("game").session;
        let card = session.options().first().expect("a card to commit").clone();
        committed.push(card.label.clone());
        click_option(&mut harness, &card.label);
        assert!(!has_label(&harness, "Cards played"), "nothing is opened yet");
    }
    click(&mut harness, "Decline");
    // Blue's stack, by the computer; then both are opened.
    for _ in 0..50 {
        let session = &mut harness.state_mut().game_mut().expect("game").session;
        if session.opened().is_some() || session.is_human_turn() {
            break;
        }
        session.step_computer();
    }
    harness.run();
    let session = &harness.state().game().expect("game").session;
    let opened = session.opened().expect("the stacks were opened").clone();
    assert_eq!(opened.columns.iter().map(|c| c.seat).collect::<Vec<_>>(), vec![0, 1], "red's, then blue's");
    assert_eq!(opened.columns[0].choices, committed, "red's cards");
    assert!(!opened.columns[1].choices.iter().any(|c| c == "a card"), "blue's cards were discarded face up");
    assert!(has_label(&harness, "Cards played"), "the panel is shown");
    for card in opened.columns.iter().flat_map(|c| &c.choices) {
        assert!(harness.query_all_by_label(card).next().is_some(), "{card} is listed");
    }
}

/// Holders in the window (the fixture `convoy`): a wagon is one disc whose tooltip lists what is
/// inside; a click on its space takes the wagon, never a crate inside it; when the choices there
/// are all inside the wagon, the click says to pick from the list, which names each with its
/// holder.
#[test]
fn a_holder_is_one_disc_and_what_is_inside_is_picked_from_the_list() {
    let convoy = meeple_tests::root().join("engine/tests/fixtures/convoy");
    let mut harness = harness_at_launcher(vec![ModEntry::load(&convoy, Origin::User)]);
    click(&mut harness, "New game");
    harness.get_by_role_and_label(egui::accesskit::Role::ComboBox, "Seat 2").click();
    harness.run();
    click(&mut harness, "Person");
    set_seed(&mut harness, 1);
    click(&mut harness, "Start game");
    // Both crates go into the wagon, chosen as a person would: crate, then wagon, on the board.
    let a = harness.state().game().expect("game").session.state.board.find("a").expect("a");
    for _ in 0..2 {
        click(&mut harness, "Load");
        click_board(&mut harness, a);
        click_board(&mut harness, a);
    }
    let session = &harness.state().game().expect("game").session;
    let inside: Vec<u32> = session.state.pieces.iter().map(|p| p.inside).collect();
    assert_eq!(inside[1..3], [0, 0], "both crates went into the wagon: {inside:?}");
    let owner = session.state.seats[0].name.clone();
    // The tooltip of the space: the wagon, and the two crates inside it.
    harness.hover_at(harness.state().game().expect("game").board.screen_pos(a).expect("drawn"));
    harness.run();
    assert!(has_label(&harness, "Inside (2):") && harness.query_all_by_label("  crate").count() == 2);
    // Unloading: the only choices on `a` are inside the wagon, so the click asks for the list.
    click(&mut harness, "Unload");
    click_board(&mut harness, a);
    assert!(has_label(&harness, "2 choices inside on a: pick one from the list"));
    let label = format!("{owner}'s crate in {owner}'s wagon at a");
    assert_eq!(harness.query_all_by_role_and_label(egui::accesskit::Role::Button, &label).count(), 2);
    click_option(&mut harness, &label);
    // Driving: a click on `a` takes the wagon, which leaves with the crate still inside.
    click(&mut harness, "Drive");
    click_board(&mut harness, a);
    click_option(&mut harness, "b");
    let session = &harness.state().game().expect("game").session;
    let b = session.state.board.find("b").expect("b");
    let spaces: Vec<u32> = session.state.pieces.iter().take(3).map(|p| p.space).collect();
    assert_eq!(spaces, [b, a, b], "the wagon went with crate 2 and left crate 1");
}

/// The log names each piece as it was when its line happened: a guard that defects to nobody
/// was Red's when it changed hands (the line was written from the state after the action, and
/// said "Bandits' guard now belongs to Bandits"); a piece taken off later keeps its old lines.
#[test]
fn the_log_names_pieces_as_they_were_when_each_line_happened() {
    use meeple::player::Session;
    use meeple_engine::game::{Action, GameSetup};
    let folder = scratch_dir("defectors");
    std::fs::write(
        folder.join("mod.toml"),
        "id = \"defectors\"\nname = \"Defectors\"\nversion = \"1.0.0\"\napi = 1\ndescription = \"d\"\nseats = { min = 2, max = 2 }\n",
    )
    .unwrap();
    std::fs::write(
        folder.join("data.toml"),
        r#"
[seats]
names = ["Red", "Blue"]
nobody = "Bandits"

[board]
kind = "graph"
terrain = "land"
spaces = [{ id = "camp" }, { id = "hills" }]
links = [["camp", "hills"]]

[terrain.land]

[pieces.guard]
[pieces.spare]

[setup]
effect = ["place('guard', seat(1), space('camp'))", "place('spare', seat(1), space('camp'))"]

[actions.defect]
label = "Defect"
params = [{ name = "who", kind = "piece", label = "Who", where = "who.owner == me and who.kind == 'guard'" }]
effect = ["who.owner = none", "who.space = space('hills')"]

[actions.rest]
label = "Rest"
effect = []
"#,
    )
    .unwrap();
    let rules = meeple_engine::loader::load_mod(&folder).map_err(|p| format!("{p:?}")).unwrap().ruleset;
    let mut session = Session::new(rules.clone(), GameSetup::new(&rules, 1, 2, "human")).unwrap();
    let defect = rules.action_index("defect").unwrap() as u16;
    session.act(Action::rule(defect, &[0])).unwrap();
    let lines: Vec<&str> = session.log.iter().map(|l| l.text.trim()).collect();
    assert!(lines.contains(&"Red: Defect: Red's guard at camp"), "the action, its argument after a colon: {lines:?}");
    assert!(lines.contains(&"Red's guard at camp now belongs to Bandits"), "{lines:?}");
    assert!(lines.contains(&"Bandits' guard moves from camp to hills"), "{lines:?}");
    // Written again from the start (after an undo, or for another seat), the lines read the same.
    let texts = |session: &Session| session.log.iter().map(|l| l.text.clone()).collect::<Vec<_>>();
    let before = texts(&session);
    session.act(Action::rule(rules.action_index("rest").unwrap() as u16, &[])).unwrap();
    assert!(session.undo(), "resting is taken back");
    assert_eq!(texts(&session), before);
}

/// The window's clock, in seconds.
fn now(harness: &Harness<'static, PlayerApp>) -> f64 {
    harness.ctx.input(|i| i.time)
}

/// Draws frames until `seconds` of the window's clock have passed.
fn step_for(harness: &mut Harness<'static, PlayerApp>, seconds: f64) {
    let until = now(harness) + seconds;
    while now(harness) < until {
        harness.step();
    }
}

#[test]
fn an_attacks_dice_tumble_then_its_outcome_is_said_and_esc_skips_the_rest() {
    let mods = vec![ModEntry::load(&mods_dir().join("dice_wars"), Origin::Bundled)];
    let mut harness = started(mods, 11);
    let game = harness.state_mut().game_mut().expect("game");
    // The slowest pace: the dice tumble 0.6 s, the outcome flashes 0.75 s, the banner 2.7 s.
    game.computer_delay = 2.0;
    harness.step();
    let session = &mut harness.state_mut().game_mut().expect("game").session;
    let attack = *session.legal().iter().find(|a| matches!(a.kind, ActionKind::Rule(_))).expect("an attack");
    let to = attack.args[1] as u32;
    let defender = session.state.owner(to);
    session.act(attack).expect("the attack is legal");
    let conquered = session.state.owner(to) != defender;
    harness.step();
    let game = harness.state().game().expect("game");
    let t = now(&harness);
    assert!(game.motion.rolling(t), "the dice tumble first");
    assert!(has_label(&harness, "…"), "no total while they tumble");
    let drawn = game.motion.before_state(t).expect("the board shows the game from before the attack");
    assert_eq!(drawn.owner(to), defender, "the outcome is not shown before the dice settle");
    assert!(game.motion.banner(t).is_none());
    step_for(&mut harness, 0.9);
    let game = harness.state().game().expect("game");
    let t = now(&harness);
    assert!(!game.motion.rolling(t) && game.motion.before_state(t).is_none(), "the dice have settled");
    let said = if conquered { "Conquered" } else { "Repelled" };
    assert!(has_label(&harness, said), "the banner says {said}");
    let flashed = game.motion.frame(t).flashes.iter().any(|(space, _)| *space == to);
    assert_eq!(flashed, conquered, "a conquered territory flashes");
    // Esc skips what is left.
    harness.key_press(egui::Key::Escape);
    harness.step();
    let game = harness.state().game().expect("game");
    assert!(!game.motion.is_playing(now(&harness)) && !has_label(&harness, said), "Esc skipped the motion");

    // The computer's next attack waits until the last one has been shown.
    let game = harness.state_mut().game_mut().expect("game");
    game.session.act(meeple_engine::game::Action::pass()).expect("the turn ends");
    let mut acted_while_busy = 0;
    let mut actions = harness.state().game().expect("game").session.history.len();
    let mut banners = 0;
    for _ in 0..3000 {
        let busy = harness.state().game().expect("game").motion.is_busy(now(&harness));
        harness.step();
        let game = harness.state().game().expect("game");
        if game.session.history.len() > actions && busy {
            acted_while_busy += 1;
        }
        actions = game.session.history.len();
        banners += usize::from(has_label(&harness, "Conquered") || has_label(&harness, "Repelled"));
        if game.session.is_human_turn() {
            break;
        }
    }
    assert_eq!(acted_while_busy, 0, "no computer move while the last one was still shown");
    assert!(banners > 0, "the computer's attacks were said too");

    // Reduced motion: the end at once.
    harness.state_mut().settings.reduce_motion = true;
    harness.step();
    let session = &mut harness.state_mut().game_mut().expect("game").session;
    if let Some(attack) = session.legal().iter().find(|a| matches!(a.kind, ActionKind::Rule(_))).copied() {
        session.act(attack).expect("legal");
        harness.step();
        let game = harness.state().game().expect("game");
        let t = now(&harness);
        assert!(!game.motion.is_playing(t) && game.motion.before_state(t).is_none(), "no motion");
        assert!(!has_label(&harness, "…"), "the dice show their faces at once");
    }
}

#[test]
fn a_moving_piece_travels_its_path_and_a_hit_shows_its_loss_over_the_target() {
    let mods = vec![ModEntry::load(&mods_dir().join("dunes_of_terror"), Origin::Bundled)];
    let mut harness = started(mods, 3);
    let game = harness.state_mut().game_mut().expect("game");
    let session = &mut game.session;
    assert!(session.is_human_turn());
    let me = session.state.seat_piece(0).expect("Police 1 stands on the map");
    let from = session.state.pieces[me as usize].space;
    let board = session.state.board.clone();
    let health = session.state.pieces[me as usize].stats[0];
    assert_eq!(health, 100);
    // Move: roll, then take the farthest tile offered.
    click(&mut harness, "Move");
    let game = harness.state_mut().game_mut().expect("game");
    game.computer_delay = 1.5;
    let far = game
        .session
        .options()
        .into_iter()
        .filter_map(|o| Some((o.arg, o.space?)))
        .max_by_key(|&(_, space)| board.distance(from, space).unwrap_or(0))
        .expect("tiles to move to");
    game.session.choose(far.0);
    assert_eq!(game.session.state.pieces[me as usize].space, far.1);
    harness.step();
    let game = harness.state().game().expect("game");
    let frame = game.motion.frame(now(&harness));
    let (piece, path, _) = frame.travelling.first().expect("the piece is on its way");
    assert_eq!(*piece, me);
    assert_eq!((path.first(), path.last()), (Some(&from), Some(&far.1)), "from where it stood to where it goes");
    assert!(path.windows(2).all(|w| board.distance(w[0], w[1]) == Some(1)), "step by step: {path:?}");
    assert!(path.len() >= 2);
    harness.run();
    assert!(!harness.state().game().expect("game").motion.is_playing(now(&harness)), "the move ends");

    // A hit on a piece whose health is drawn as a bar: the loss rises over it and is said.
    let t = now(&harness);
    let game = harness.state_mut().game_mut().expect("game");
    let enemy = game.session.state.pieces.iter().position(|p| p.alive && p.owner == 2).expect("Terrorists 1") as u32;
    let rules = game.session.rules.clone();
    let events =
        vec![meeple_engine::game::Event::StatChanged { piece: enemy, stat: 0, from: 100, to: 88, owner: Some(2) }];
    let state = game.session.state.clone();
    game.motion.follow(&rules, &state, &events, usize::MAX, &[], None, t, 1.5);
    let frame = game.motion.frame(t + 0.01);
    let space = state.pieces[enemy as usize].space;
    assert_eq!(frame.floats.first().map(|f| (f.0, f.1.as_str())), Some((space, "-12")));
    assert!(frame.flashes.iter().any(|(s, _)| *s == space));
    assert_eq!(game.motion.banner(t + 0.01).map(|b| b.0), Some("Hit for 12"));
    // Its bar under the piece: health out of the stat's maximum, 100.
    game.session.edit_state(|state| state.pieces[enemy as usize].stats[0] = 88);
    let bar = meeple::player::board_view::bar_share(&rules, &game.session.state.pieces[enemy as usize]);
    assert_eq!(bar, Some(0.88));
}

#[test]
fn the_board_stays_put_when_the_panels_round_it_change() {
    let mods = vec![ModEntry::load(&mods_dir().join("dice_wars"), Origin::Bundled)];
    let mut harness = started(mods, 11);
    let board = |h: &Harness<'static, PlayerApp>| {
        let view = &h.state().game().expect("game").board;
        (view.drawn_rect().expect("drawn"), view.screen_pos(5).expect("territory 5 drawn"))
    };
    let (rect, at) = board(&harness);
    // A status line under the game bar takes room from the top of the board.
    harness.state_mut().game_mut().expect("game").status = Some("Saved to a file with a long name".into());
    harness.run();
    let (smaller, still) = board(&harness);
    assert!(smaller.top() > rect.top(), "the board's area shrank: {rect:?} → {smaller:?}");
    assert!(at.distance(still) < 0.5, "territory 5 stayed at {at:?}, not {still:?}");
    // And back.
    harness.state_mut().game_mut().expect("game").status = None;
    harness.run();
    assert!(at.distance(board(&harness).1) < 0.5);
}

#[test]
fn a_small_window_fits_every_bundled_board_whole_with_no_minimap_over_it() {
    for id in ["dice_wars", "dunes_of_terror", "death_dome", "forces_of_conquest", "dune_1984"] {
        let mods = vec![ModEntry::load(&mods_dir().join(id), Origin::Bundled)];
        let options = StartOptions { mod_name: Some(id.into()), start: true, seed: Some(1), ..Default::default() };
        let mut harness = Harness::builder()
            .with_size(egui::vec2(1024.0, 640.0))
            .with_max_steps(100_000)
            .build_ui_state(|ui, app: &mut PlayerApp| app.ui(ui), PlayerApp::with_mods(mods, options));
        let game = harness.state_mut().game_mut().unwrap_or_else(|| panic!("{id} starts"));
        game.computer_delay = 0.0;
        game.paused = true;
        harness.run();
        harness.key_press(egui::Key::F);
        harness.run();
        let game = harness.state().game().expect("game");
        let rect = game.board.drawn_rect().expect("drawn");
        assert!(rect.width() > 400.0 && rect.height() > 300.0, "{id}: a board area of {rect:?}");
        assert!(game.board.whole_board_in_view(), "{id}: F fits the whole board");
        for space in game.session.state.board.space_ids() {
            let at = game.board.screen_pos(space).expect("drawn");
            assert!(rect.expand(1.0).contains(at), "{id}: space {space} at {at:?} outside {rect:?}");
        }
    }
}

#[test]
fn a_mods_images_are_drawn_and_a_missing_one_is_shown_where_it_is_named() {
    // The bundled images: the characters' glyph and the weapons' icons, drawn into textures.
    let mods = vec![ModEntry::load(&mods_dir().join("dunes_of_terror"), Origin::Bundled)];
    let mut harness = started(mods, 4);
    let rules = harness.state().game().expect("game").session.rules.clone();
    let character = rules.data.pieces.get_index_of("character").expect("a character kind") as u16;
    let glyph = meeple::player::art::piece_image(&rules, character).expect("the character has an image");
    assert!(meeple::player::art::texture(&harness.ctx, &rules, glyph).is_some(), "{glyph} is drawn");
    let pixels = meeple::player::art::pixels(&rules.images[glyph]).expect("the SVG reads");
    assert_eq!(pixels.size[0].max(pixels.size[1]), meeple::player::art::RASTER_SIDE as usize);
    assert!(pixels.pixels.iter().any(|p| p.a() > 0) && pixels.pixels.iter().any(|p| p.a() == 0), "a glyph on clear");
    // A character shows the weapon it would fight with and its bullets: the pistol and its 6
    // at the start, the shotgun and its 8 once bought (the dearest item held with an image).
    let me = harness.state().game().expect("game").session.state.seat_piece(0).expect("Police 1");
    let item = |h: &Harness<'static, PlayerApp>| {
        let state = &h.state().game().expect("game").session.state;
        meeple::player::board_view::shown_item(&rules, &state.pieces[me as usize])
            .map(|(item, charges)| (rules.items[item as usize].id.clone(), charges))
    };
    assert_eq!(item(&harness), Some(("pistol".to_string(), Some(6))));
    let shotgun = rules.items.iter().position(|i| i.id == "shotgun").unwrap() as u16;
    harness.state_mut().game_mut().expect("game").session.edit_state(|state| {
        state.pieces[me as usize].items.push(meeple_engine::game::state::HeldItem { item: shotgun, charges: 8 });
    });
    assert_eq!(item(&harness), Some(("shotgun".to_string(), Some(8))));
    // The shop's weapons carry their icons.
    let session = &mut harness.state_mut().game_mut().expect("game").session;
    session.edit_state(|state| state.seats[0].resources[0] = 40);
    harness.run();
    click(&mut harness, "Buy weapon");
    let session = &mut harness.state_mut().game_mut().expect("game").session;
    let options = session.options();
    assert!(!options.is_empty() && options.iter().all(|o| o.image.is_some()), "{options:?}");

    // A copy whose character names an image that is not there does not load; the launcher
    // shows where it is named.
    let user = scratch_dir("missing_image");
    copy_dir(&mods_dir().join("dunes_of_terror"), &user.join("broken_art"));
    let rules_file = user.join("broken_art/rules.toml");
    let text = std::fs::read_to_string(&rules_file).expect("rules");
    std::fs::write(&rules_file, text.replace(&format!("image = \"{glyph}\""), "image = \"images/charakter.svg\""))
        .expect("write");
    let line = std::fs::read_to_string(&rules_file).unwrap().lines().position(|l| l.contains("charakter")).unwrap() + 1;
    let mods = meeple::player::catalog::discover_in(&mods_dir(), Some(&user));
    drop(harness);
    let mut harness = self::harness(PlayerApp::with_mods(mods, StartOptions::default()));
    harness.run();
    harness.query_all_by_label_contains("broken_art  (does not load)").next().expect("listed as broken").click();
    harness.run();
    let at = format!("broken_art/rules.toml:{line}:");
    assert!(harness.query_all_by_label_contains(&at).next().is_some(), "the problem is shown at {at}");
    assert!(
        harness.query_all_by_label_contains("no file `images/charakter.svg`").next().is_some(),
        "and says what is missing"
    );
}
