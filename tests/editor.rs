//! The editor driven like a designer would: widgets found by their labels (egui_kittest, no
//! display). A unit's stat changed through its form and saved changes exactly that value in the
//! file; an invalid value is refused with a message and nothing is written; every TOML file of
//! every bundled mod goes through the editor's model and back unchanged; the map painter's strokes
//! and walls, undone and saved, change just the rows and walls painted.

use std::path::{Path, PathBuf};

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use meeple::editor::model::{ModModel, Node, Seg, path};
use meeple::player::catalog::{ModEntry, Origin};
use meeple::player::{PlayerApp, StartOptions};
use meeple_tests::{bundled, mods_dir, root};

/// A copy of a bundled mod in a folder of the test's own.
fn copy_of(id: &str, test: &str) -> PathBuf {
    let dir = root().join("target/test-scratch/editor").join(test).join(id);
    let _ = std::fs::remove_dir_all(&dir);
    copy(&mods_dir().join(id), &dir);
    dir
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// The editor open on a mod folder of the user's (no question where changes go).
fn editor_on(folder: &Path) -> Harness<'static, PlayerApp> {
    let entry = ModEntry::load(folder, Origin::User);
    let options = StartOptions { mod_name: Some(entry.id.clone()), edit: true, ..Default::default() };
    let app = PlayerApp::with_mods(vec![entry], options);
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 900.0))
        .with_max_steps(10_000)
        .build_ui_state(|ui, app: &mut PlayerApp| app.ui(ui), app);
    harness.run();
    harness
}

fn click(harness: &mut Harness<'static, PlayerApp>, label: &str) {
    harness.query_all_by_label(label).next().unwrap_or_else(|| panic!("no widget labelled {label:?}")).scroll_to_me();
    harness.run();
    harness.query_all_by_label(label).next().unwrap_or_else(|| panic!("no widget labelled {label:?}")).click();
    harness.run();
}

/// Opens a definition's form from the list, opening its section first when it is closed.
fn open_entry(harness: &mut Harness<'static, PlayerApp>, section: &str, label: &str) {
    if !has_label(harness, label) {
        harness.query_all_by_label(section).next().unwrap_or_else(|| panic!("no section {section:?}")).click();
        harness.run();
    }
    click(harness, label);
}

fn has_label(harness: &Harness<'static, PlayerApp>, label: &str) -> bool {
    harness.query_all_by_label(label).next().is_some()
}

fn changed_lines(before: &str, after: &str) -> Vec<(String, String)> {
    assert_eq!(before.lines().count(), after.lines().count(), "no line added or removed");
    before.lines().zip(after.lines()).filter(|(a, b)| a != b).map(|(a, b)| (a.to_string(), b.to_string())).collect()
}

#[test]
fn a_weapon_price_changed_in_its_form_is_saved_as_exactly_that_value() {
    let folder = copy_of("dunes_of_terror", "price");
    let before = std::fs::read_to_string(folder.join("weapons.toml")).unwrap();
    let mut harness = editor_on(&folder);
    open_entry(&mut harness, "Items", "Sniper Rifle");
    assert!(has_label(&harness, "items.sniper_rifle"), "the form of the sniper rifle");
    // The price field: a number with its range from the engine's types.
    let price = harness.get_by_role_and_label(egui::accesskit::Role::SpinButton, "price");
    assert_eq!(price.value().as_deref(), Some("25"));
    price.set_value_accesskit(30.0);
    harness.run();
    let editor = harness.state_mut().editor_mut().expect("the editor");
    assert!(editor.model.is_dirty());
    assert!(editor.model.can_undo());
    click(&mut harness, "Save");
    let after = std::fs::read_to_string(folder.join("weapons.toml")).unwrap();
    let changed = changed_lines(&before, &after);
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert!(changed[0].0.contains("price = 25") && changed[0].1.contains("price = 30"), "{changed:?}");
    assert_eq!(changed[0].0.replace("25", "30"), changed[0].1, "only the number changed");
    // Every other file is untouched.
    for file in ["rules.toml", "board.toml", "mod.toml"] {
        assert_eq!(
            std::fs::read_to_string(folder.join(file)).unwrap(),
            std::fs::read_to_string(mods_dir().join("dunes_of_terror").join(file)).unwrap()
        );
    }
    // Play-test: the game runs on the edited rules; quitting returns to the editor.
    click(&mut harness, "Play-test");
    let game = harness.state().game().expect("the game screen");
    let sniper = game.session.rules.items.iter().find(|i| i.id == "sniper_rifle").expect("the sniper rifle");
    assert_eq!(sniper.price, 30);
    click(&mut harness, "Quit to games");
    assert!(harness.state_mut().editor_mut().is_some(), "back in the editor");
}

#[test]
fn an_invalid_value_is_refused_with_a_message_and_nothing_is_written() {
    let folder = copy_of("dice_wars", "invalid");
    let before = std::fs::read_to_string(folder.join("rules.toml")).unwrap();
    let mut harness = editor_on(&folder);
    open_entry(&mut harness, "Actions", "Attack");
    // A condition that does not parse: shown as it is typed, never taken.
    let success = harness.get_by_label("success");
    success.focus();
    harness.run();
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness.get_by_label("success").type_text("attack > defence +");
    harness.run();
    assert!(
        harness.query_all_by_label_contains("rules.toml:").next().is_some(),
        "the problem is shown with its file and line"
    );
    let editor = harness.state_mut().editor_mut().expect("the editor");
    assert!(!editor.model.is_dirty(), "the invalid text was not taken");
    assert_eq!(editor.model.value_text(&path("actions.attack.success")).as_deref(), Some("\"attack > defence\""));
    // A number out of its type's range through the model is refused too, with the mod's problem.
    let refused = editor.model.set(&path("board.territories"), toml_edit::Value::from(-3)).unwrap_err();
    assert!(!refused.problems.is_empty(), "{refused}");
    editor.save();
    assert_eq!(std::fs::read_to_string(folder.join("rules.toml")).unwrap(), before, "nothing was written");
    assert_eq!(
        std::fs::read_to_string(folder.join("board.toml")).unwrap(),
        std::fs::read_to_string(mods_dir().join("dice_wars/board.toml")).unwrap()
    );
}

#[test]
fn every_bundled_toml_file_goes_through_the_model_byte_identical() {
    for folder in bundled() {
        let mut model = ModModel::open(&folder).expect("every bundled mod opens");
        for file in &model.files {
            assert_eq!(file.text(), file.saved, "{}: read and written back", file.name);
        }
        // Every value set to itself, through the same path a form takes.
        let mut values = 0;
        let mut stack: Vec<Vec<Seg>> = model.sections().into_iter().map(|(key, _)| vec![Seg::Key(key)]).collect();
        while let Some(at) = stack.pop() {
            for (seg, node) in model.children(&at) {
                let mut child = at.clone();
                child.push(seg);
                match node {
                    Node::Value(value) => {
                        model.set(&child, value).unwrap_or_else(|e| panic!("{}: {e}", folder.display()));
                        values += 1;
                    }
                    Node::Table | Node::List(_) => stack.push(child),
                }
            }
        }
        assert!(values > 10, "{}: {values} values", folder.display());
        for file in &model.files {
            assert_eq!(file.text(), file.saved, "{}: every value set to itself", file.name);
        }
        assert!(!model.is_dirty());
    }
}

#[test]
fn the_table_view_compares_every_weapon_and_search_finds_entries() {
    let folder = copy_of("dunes_of_terror", "table");
    let mut harness = editor_on(&folder);
    open_entry(&mut harness, "Items", "Sniper Rifle");
    harness.query_all_by_label("Compare all").last().expect("compare").click();
    harness.run();
    assert!(has_label(&harness, "All items"));
    for column in ["price", "stats.range", "stats.clip_price"] {
        assert!(has_label(&harness, column), "a column {column}");
    }
    for id in ["knife", "pistol", "shotgun", "submachine_gun", "assault_rifle", "sniper_rifle", "machine_gun"] {
        assert!(has_label(&harness, id), "a row for {id}");
    }
    // Search narrows the list to what matches.
    let search = harness.get_by_label("Search");
    search.focus();
    harness.run();
    harness.get_by_label("Search").type_text("sniper");
    harness.run();
    assert!(has_label(&harness, "Sniper Rifle"));
    // The list keeps the sniper rifle only (the table's cells are labels, the list's entries
    // are buttons).
    let listed = |h: &Harness<'static, PlayerApp>, name: &str| {
        h.query_all_by_label(name).any(|node| node.accesskit_node().role() != egui::accesskit::Role::Label)
    };
    assert!(listed(&harness, "Sniper Rifle"));
    assert!(!listed(&harness, "Shotgun"));
    assert!(!listed(&harness, "Knife"));
}

#[test]
fn a_bundled_mod_asks_where_changes_go() {
    let entry = ModEntry::load(&mods_dir().join("dice_wars"), Origin::Bundled);
    let app = PlayerApp::with_mods(vec![entry], StartOptions::default());
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 900.0))
        .build_ui_state(|ui, app: &mut PlayerApp| app.ui(ui), app);
    harness.run();
    click(&mut harness, "Edit");
    assert!(has_label(&harness, "This is a bundled mod. Where should changes go?"));
    assert!(has_label(&harness, "Edit the bundled files in place"));
    let editor = harness.state_mut().editor_mut().expect("the editor");
    assert!(!editor.editable(), "nothing is changed before the choice");
    // Editing a copy: the folder is copied to the user's mods and the copy is edited.
    let user_mods = root().join("target/test-scratch/editor/user_mods");
    let _ = std::fs::remove_dir_all(&user_mods);
    let copy = editor.edit_a_copy(&user_mods).expect("copied");
    assert_eq!(copy, user_mods.join("dice_wars"));
    assert!(copy.join("rules.toml").is_file());
    assert_eq!(editor.model.folder, copy);
    assert!(editor.editable());
}

#[test]
fn a_field_the_types_allow_is_added_from_the_form() {
    let folder = copy_of("dice_wars", "add_field");
    let mut harness = editor_on(&folder);
    open_entry(&mut harness, "Terrain", "Land");
    harness.get_by_role_and_label(egui::accesskit::Role::ComboBox, "Add a field").click();
    harness.run();
    click(&mut harness, "blocks_sight");
    click(&mut harness, "Save");
    let text = std::fs::read_to_string(folder.join("board.toml")).unwrap();
    let land = &text[text.find("[terrain.land]").expect("the land table")..];
    assert!(land.lines().take(4).any(|l| l.trim() == "blocks_sight = false"), "{land}");
    let rules = meeple_engine::loader::load_mod(&folder).expect("still loads").ruleset;
    assert!(!rules.terrain[0].blocks_sight);
}

/// The check a designer makes: raise the sniper rifle's price, see what it does to balance
/// (the saved mod and the edited one played with the same seeds), save, play-test.
#[test]
fn a_price_raise_is_checked_for_balance_saved_and_play_tested() {
    use std::time::{Duration, Instant};
    let folder = copy_of("dunes_of_terror", "balance");
    let mut harness = editor_on(&folder);
    open_entry(&mut harness, "Items", "Sniper Rifle");
    harness.get_by_role_and_label(egui::accesskit::Role::SpinButton, "price").set_value_accesskit(35.0);
    harness.run();
    click(&mut harness, "Balance");
    let editor = harness.state_mut().editor_mut().expect("the editor");
    let rules = editor.model.saved_rules.clone().expect("the saved mod");
    *editor.balance.settings_for(&rules) =
        meeple::editor::balance::BalanceSettings { games: 24, level: "easy".into(), seats: 4, seed: 3 };
    click(&mut harness, "Run balance check");
    let started = Instant::now();
    while harness.state_mut().editor_mut().expect("editor").balance.is_running() {
        assert!(started.elapsed() < Duration::from_secs(120), "the games take too long");
        std::thread::sleep(Duration::from_millis(20));
        harness.step();
    }
    harness.run();
    let balance = &mut harness.state_mut().editor_mut().expect("editor").balance;
    let after = balance.after_run().expect("the edited mod was played").poll().expect("done").clone().expect("played");
    let before = balance.before_run().expect("the saved mod was played").poll().expect("done").clone().expect("played");
    assert_eq!((before.games, after.games), (24, 24));
    assert_eq!(after.competitors.len(), 2, "police and terrorists");
    assert!(has_label(&harness, "Police Special Forces wins"));
    assert_eq!(harness.query_all_by_label_contains("24 games in").count(), 2, "before and after");
    click(&mut harness, "Save");
    let before_text = std::fs::read_to_string(mods_dir().join("dunes_of_terror/weapons.toml")).unwrap();
    let after_text = std::fs::read_to_string(folder.join("weapons.toml")).unwrap();
    assert_eq!(changed_lines(&before_text, &after_text), vec![("price = 25".to_string(), "price = 35".to_string())]);
    click(&mut harness, "Play-test");
    assert!(harness.state().game().is_some(), "playing the edited mod");
}

// The model under the forms, on its own.

#[test]
fn a_change_writes_exactly_that_value() {
    let folder = copy_of("dice_wars", "model_one_value");
    let mut model = ModModel::open(&folder).unwrap();
    let before = std::fs::read_to_string(folder.join("board.toml")).unwrap();
    assert_eq!(model.value_text(&path("board.territories")).as_deref(), Some("32"));
    model.set(&path("board.territories"), toml_edit::Value::from(24)).unwrap();
    assert!(model.is_dirty());
    assert_eq!(model.save().unwrap(), vec!["board.toml".to_string()]);
    let after = std::fs::read_to_string(folder.join("board.toml")).unwrap();
    let changed: Vec<(&str, &str)> = before.lines().zip(after.lines()).filter(|(a, b)| a != b).collect();
    assert_eq!(changed, vec![("territories = 32", "territories = 24")]);
    assert_eq!(before.lines().count(), after.lines().count());
    assert!(!model.is_dirty());
}

#[test]
fn a_change_that_breaks_the_mod_is_refused_and_nothing_changes() {
    let folder = copy_of("dice_wars", "model_refused");
    let mut model = ModModel::open(&folder).unwrap();
    let refused = model.set(&path("board.territories"), toml_edit::Value::from("many")).unwrap_err();
    assert!(refused.problems.iter().any(|p| p.contains("board.toml")), "{refused}");
    assert!(!model.is_dirty(), "the edit was taken back");
    assert!(!model.can_undo());
}

#[test]
fn the_steps_of_one_drag_are_one_undo_step() {
    let folder = copy_of("dice_wars", "model_drag");
    let mut model = ModModel::open(&folder).unwrap();
    for n in [30, 28, 26] {
        model.set_merging(&path("board.territories"), toml_edit::Value::from(n)).unwrap();
    }
    assert!(model.undo());
    assert!(!model.is_dirty(), "one undo takes back the whole drag");
    assert!(!model.can_undo());
}

#[test]
fn undo_and_redo_step_through_changes() {
    let folder = copy_of("dice_wars", "model_undo");
    let mut model = ModModel::open(&folder).unwrap();
    model.set(&path("board.territories"), toml_edit::Value::from(24)).unwrap();
    model.set(&path("board.territories"), toml_edit::Value::from(16)).unwrap();
    assert!(model.undo());
    assert_eq!(model.value_text(&path("board.territories")).as_deref(), Some("24"));
    assert!(model.undo());
    assert!(!model.is_dirty());
    assert!(model.redo());
    assert_eq!(model.value_text(&path("board.territories")).as_deref(), Some("24"));
    assert!(model.rules.is_ok());
}

#[test]
fn the_manifest_is_edited_by_its_own_types() {
    let folder = copy_of("dice_wars", "manifest");
    let before = std::fs::read_to_string(folder.join("mod.toml")).unwrap();
    let mut harness = editor_on(&folder);
    click(&mut harness, "mod.toml");
    assert!(has_label(&harness, "name") && has_label(&harness, "seats"), "mod.toml's fields");
    let editor = harness.state_mut().editor_mut().expect("editor");
    editor.model.set(&path("mod.seats.max"), toml_edit::Value::from(6)).expect("six seats at most");
    let refused = editor.model.set(&path("mod.seats.max"), toml_edit::Value::from(40));
    assert!(refused.is_err(), "the manifest's range (at most 16 seats) is enforced");
    editor.save();
    let after = std::fs::read_to_string(folder.join("mod.toml")).unwrap();
    let changed = changed_lines(&before, &after);
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert!(changed[0].1.contains("max = 6"), "{changed:?}");
}

#[test]
fn closing_the_editor_with_unsaved_changes_asks_first() {
    let folder = copy_of("dice_wars", "close_asks");
    let mut harness = editor_on(&folder);
    // The editor opens on the board's form.
    harness.get_by_role_and_label(egui::accesskit::Role::SpinButton, "territories").set_value_accesskit(24.0);
    harness.run();
    click(&mut harness, "Close editor");
    assert!(has_label(&harness, "Close the editor?"), "unsaved changes are not dropped at one click");
    assert!(harness.state_mut().editor_mut().is_some());
    click(&mut harness, "Keep editing");
    assert!(harness.state_mut().editor_mut().expect("still editing").model.is_dirty());
    click(&mut harness, "Close editor");
    click(&mut harness, "Discard changes");
    assert!(harness.state_mut().editor_mut().is_none(), "closed");
    assert_eq!(
        std::fs::read_to_string(folder.join("board.toml")).unwrap(),
        std::fs::read_to_string(mods_dir().join("dice_wars/board.toml")).unwrap(),
        "nothing was written"
    );
}

#[test]
fn a_long_rules_language_problem_wraps_within_the_window() {
    let folder = copy_of("dice_wars", "wrap");
    let mut harness = editor_on(&folder);
    open_entry(&mut harness, "Actions", "Attack");
    let success = harness.get_by_label("success");
    success.focus();
    harness.run();
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    let long = format!("attack > defence + {} + nonsense_name", vec!["from.dice"; 40].join(" + "));
    harness.get_by_label("success").type_text(&long);
    harness.run();
    let problem = harness.query_all_by_label_contains("rules.toml:").next().expect("the problem is shown");
    let rect = problem.rect();
    assert!(rect.max.x <= 1280.0, "the problem ends inside the window: {rect:?}");
    assert!(rect.height() > 30.0, "it wraps onto several lines: {rect:?}");
}

#[test]
fn item_stats_keep_within_their_declared_bounds() {
    let folder = copy_of("dunes_of_terror", "stat_bounds");
    let weapons = folder.join("weapons.toml");
    let text = std::fs::read_to_string(&weapons).unwrap();
    std::fs::write(&weapons, format!("{text}\n[item_stats.range]\nmin = 1\nmax = 20\n")).unwrap();
    let mut harness = editor_on(&folder);
    open_entry(&mut harness, "Items", "Sniper Rifle");
    // The form offers only values within the bounds.
    // Nested fields are indented under their table.
    harness.get_by_role_and_label(egui::accesskit::Role::SpinButton, "    range").set_value_accesskit(-3.0);
    harness.run();
    let editor = harness.state_mut().editor_mut().expect("the editor");
    assert_eq!(editor.model.value_text(&path("items.sniper_rifle.stats.range")).as_deref(), Some("1"));
    // Set another way, the mod refuses it, located.
    let refused = editor.model.set(&path("items.sniper_rifle.stats.range"), toml_edit::Value::from(-3)).unwrap_err();
    assert!(
        refused.problems.iter().any(|p| p.contains("weapons.toml:") && p.contains("allows at least 1")),
        "{refused}"
    );
    // And on disk: `meeple check` refuses it too.
    std::fs::write(
        &weapons,
        format!("{}\n[item_stats.range]\nmin = 1\n", text.replacen("range = 1,", "range = -3,", 1)),
    )
    .unwrap();
    let problems = meeple_engine::loader::load_mod(&folder).err().expect("refused");
    assert!(problems.iter().any(|p| p.to_string().contains("`range` is -3")), "{problems:?}");
}

#[test]
fn typing_into_a_field_is_one_undo_step() {
    let folder = copy_of("dice_wars", "typing_undo");
    let mut harness = editor_on(&folder);
    open_entry(&mut harness, "Actions", "Attack");
    harness.get_by_label("label").focus();
    harness.run();
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    for key in ["C", "h", "a", "r", "g", "e"] {
        harness.get_by_label("label").type_text(key);
        harness.run();
    }
    let editor = harness.state_mut().editor_mut().expect("the editor");
    assert_eq!(editor.model.value_text(&path("actions.attack.label")).as_deref(), Some("\"Charge\""));
    // Leave the field, then one undo takes back the whole edit.
    harness.key_press(egui::Key::Tab);
    harness.run();
    let editor = harness.state_mut().editor_mut().expect("the editor");
    assert!(editor.model.undo());
    assert_eq!(editor.model.value_text(&path("actions.attack.label")).as_deref(), Some("\"Attack\""));
    assert!(!editor.model.is_dirty());
}

// The map painter.

use meeple::editor::painter::Cell;

/// Where the painter drew a cell (or the edge between two) in the last frame.
fn cell_at(harness: &mut Harness<'static, PlayerApp>, col: u32, row: u32) -> egui::Pos2 {
    let painter = harness.state_mut().editor_mut().expect("the editor").painter.as_ref().expect("the painter");
    painter.cell_screen_pos(Cell::new(col, row)).expect("the map was drawn")
}

fn edge_at(harness: &mut Harness<'static, PlayerApp>, a: (u32, u32), b: (u32, u32)) -> egui::Pos2 {
    let painter = harness.state_mut().editor_mut().expect("the editor").painter.as_ref().expect("the painter");
    painter.edge_screen_pos(Cell::new(a.0, a.1), Cell::new(b.0, b.1)).expect("the map was drawn")
}

/// Presses the primary button at the first point, moves through the others and lets go at
/// the last: a click with one point, a drag with more.
fn stroke(harness: &mut Harness<'static, PlayerApp>, points: &[egui::Pos2]) {
    let button = |pos, pressed| egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::default(),
    };
    harness.hover_at(points[0]);
    harness.run();
    harness.event(button(points[0], true));
    harness.run();
    for point in &points[1..] {
        harness.event(egui::Event::PointerMoved(*point));
        harness.run();
    }
    harness.event(button(*points.last().expect("a point"), false));
    harness.run();
}

/// Chooses an option of a drop-down (the option in its list, not an entry of the same name in
/// the list of definitions).
fn choose(harness: &mut Harness<'static, PlayerApp>, combo: &str, option: &str) {
    harness.get_by_role_and_label(egui::accesskit::Role::ComboBox, combo).click();
    harness.run();
    harness.query_all_by_label(option).last().unwrap_or_else(|| panic!("no option {option:?}")).click();
    harness.run();
}

/// The painter open on the four-corner arena of a copy of Death Dome.
fn painter_on_the_arena(test: &str) -> (PathBuf, Harness<'static, PlayerApp>) {
    let folder = copy_of("death_dome", test);
    let mut harness = editor_on(&folder);
    open_entry(&mut harness, "Boards", "four_corners");
    click(&mut harness, "Paint the map");
    assert!(has_label(&harness, "Map of boards.four_corners"));
    (folder, harness)
}

#[test]
fn the_map_painter_paints_walls_undoes_and_saves_just_those_lines() {
    let (folder, mut harness) = painter_on_the_arena("map_painter");
    let before = std::fs::read_to_string(folder.join("arena.toml")).unwrap();
    // A control point clicked on D03, three dragged over F05 to H05, one on C13 taken back.
    click(&mut harness, "c  Control point");
    let at = cell_at(&mut harness, 3, 3);
    stroke(&mut harness, &[at]);
    assert!(has_label(&harness, "Painted D03 with `c`"));
    let drag = [cell_at(&mut harness, 5, 5), cell_at(&mut harness, 6, 5), cell_at(&mut harness, 7, 5)];
    stroke(&mut harness, &drag);
    assert!(has_label(&harness, "Painted 3 cells with `c`"));
    let at = cell_at(&mut harness, 2, 13);
    stroke(&mut harness, &[at]);
    click(&mut harness, "Undo");
    // Walls: a tall wall put between E12 and E13; the short wall between H04 and H05 taken off.
    click(&mut harness, "Walls");
    choose(&mut harness, "Wall kind", "Tall wall");
    let at = edge_at(&mut harness, (4, 12), (4, 13));
    stroke(&mut harness, &[at]);
    let status = harness.state_mut().editor_mut().expect("the editor").status.clone();
    assert!(has_label(&harness, "Tall wall put between E12 and E13"), "{status:?}");
    choose(&mut harness, "Wall kind", "Short wall");
    let at = edge_at(&mut harness, (7, 4), (7, 5));
    stroke(&mut harness, &[at]);
    let status = harness.state_mut().editor_mut().expect("the editor").status.clone();
    assert!(has_label(&harness, "The wall between H04 and H05 is taken off"), "{status:?}");
    click(&mut harness, "Save");
    let after = std::fs::read_to_string(folder.join("arena.toml")).unwrap();
    let expected = before
        .replacen("  \".................\",\n  \"..c.....c.....c..\",", "  \"...c.............\",\n  \"..c.....c.....c..\",", 1)
        .replacen(
            "  \"..c.....c.....c..\",\n  \".................\",\n  \"......~~=~~......\",",
            "  \"..c.....c.....c..\",\n  \".....ccc.........\",\n  \"......~~=~~......\",",
            1,
        )
        .replacen(
            "  { between = [\"H04\", \"H05\"], kind = \"short_wall\" }, { between = [\"J04\", \"J05\"], kind = \"short_wall\" },",
            "  { between = [\"J04\", \"J05\"], kind = \"short_wall\" },",
            1,
        )
        .replacen(
            "{ between = [\"K14\", \"L14\"], kind = \"tall_wall\" },\n]",
            "{ between = [\"K14\", \"L14\"], kind = \"tall_wall\" },\n  { between = [\"E12\", \"E13\"], kind = \"tall_wall\" },\n]",
            1,
        );
    assert_ne!(expected, before, "the expected changes apply to the file as bundled");
    assert_eq!(after, expected, "exactly the painted rows and the walls changed; every comment kept");
    for file in ["arena_three.toml", "rules.toml", "mod.toml"] {
        assert_eq!(
            std::fs::read_to_string(folder.join(file)).unwrap(),
            std::fs::read_to_string(mods_dir().join("death_dome").join(file)).unwrap()
        );
    }
    // The saved mod loads, and its board is the one painted.
    let rules = meeple_engine::loader::load_mod(&folder).expect("loads").ruleset;
    let meeple_engine::board::BoardSpec::Square(board) = &rules.data.board else { panic!("a square grid") };
    assert_eq!(board.layout[5], ".....ccc.........");
    assert!(board.walls.iter().any(|w| w.between == ["E12", "E13"] && w.kind == "tall_wall"));
    assert!(!board.walls.iter().any(|w| w.between == ["H04", "H05"]));
}

#[test]
fn a_stroke_over_a_teams_whole_base_is_refused_with_the_reason() {
    let (folder, mut harness) = painter_on_the_arena("map_painter_refused");
    click(&mut harness, "c  Control point");
    // A drag over every square of the first team's base (A00 to C02), row by row.
    let mut path = Vec::new();
    for row in 0..3 {
        let cols: Vec<u32> = if row % 2 == 0 { vec![0, 1, 2] } else { vec![2, 1, 0] };
        for col in cols {
            path.push(cell_at(&mut harness, col, row));
        }
    }
    stroke(&mut harness, &path);
    assert!(
        harness.query_all_by_label_contains("last home cell of seat 0").next().is_some(),
        "the status line says why"
    );
    let editor = harness.state_mut().editor_mut().expect("the editor");
    assert!(!editor.model.is_dirty(), "nothing was changed");
    assert!(!editor.model.can_undo());
    // The base less one square is a stroke the rules can use.
    stroke(&mut harness, &path[..8]);
    assert!(has_label(&harness, "Painted 8 cells with `c`"));
    click(&mut harness, "Undo");
    click(&mut harness, "Save");
    assert_eq!(
        std::fs::read_to_string(folder.join("arena.toml")).unwrap(),
        std::fs::read_to_string(mods_dir().join("death_dome/arena.toml")).unwrap(),
        "the file is unchanged"
    );
}

#[test]
fn a_legend_entry_added_to_a_template_is_written_beside_the_others() {
    let folder = copy_of("death_dome", "map_painter_legend");
    let before = std::fs::read_to_string(folder.join("arena.toml")).unwrap();
    let mut model = ModModel::open(&folder).unwrap();
    let mut painter = meeple::editor::painter::MapPainter::new(path("boards.four_corners"));
    assert_eq!(painter.map(&model).expect("the map").legend_at, path("boards.arena.legend"));
    painter.add_legend_key(&mut model, 'L', "lava", None).expect("added");
    painter.paint(&mut model, &[Cell::new(0, 3)], 'L').expect("painted with it");
    model.save().expect("saved");
    let after = std::fs::read_to_string(folder.join("arena.toml")).unwrap();
    let expected = before
        .replacen(
            "legend.Y = { terrain = \"base\", home = 3 }\n",
            "legend.Y = { terrain = \"base\", home = 3 }\nlegend.L = \"lava\"\n",
            1,
        )
        .replacen(
            "  \".................\",\n  \"..c.....c.....c..\",",
            "  \"L................\",\n  \"..c.....c.....c..\",",
            1,
        );
    assert_eq!(after, expected);
}
