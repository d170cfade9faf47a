//! `[seats.figures]`: numbers the window shows beside each seat's resources, worked out by the
//! rules from the game as it stands (`game::seat_figures`); a figure may not call Lua, and a
//! broken one is refused at load where it is written.

mod common;

use common::{MINIMAL_DATA, load_data, new_game};
use meeple_engine::game::{Action, Events, seat_figures};

const FIGURES: &str = r#"
[seats.figures.dice]
label = "Dice owned"
value = "sum_of(space, space.dice, space.owner == seat)"
[seats.figures.lead]
value = "count_of(space, space.owner == seat) - count_of(space, space.owner != seat and space.owner != none)"
"#;

#[test]
fn figures_follow_the_game_for_each_seat() {
    let data = format!(
        "{MINIMAL_DATA}\n[setup]\neffect = [\"space('a').owner = seat(1)\", \"space('b').owner = seat(2)\"]\n{FIGURES}"
    );
    let rules = load_data("figures", &data).unwrap_or_else(|p| panic!("{p}"));
    let (mut engine, mut state, _) = new_game(&rules, 1, 2);
    let figures = |state: &meeple_engine::game::GameState, seat: u8| seat_figures(&rules, state, seat).unwrap();
    assert_eq!(figures(&state, 0), [("Dice owned".to_string(), 0.0), ("lead".to_string(), 0.0)]);
    let push = Action::rule(rules.action_index("push").unwrap() as u16, &[0]);
    engine.apply(&mut state, &push, &mut Events::discard()).unwrap();
    engine.apply(&mut state, &push, &mut Events::discard()).unwrap();
    assert_eq!(figures(&state, 0)[0].1, 2.0, "seat 1 pushed its die twice");
    assert_eq!(figures(&state, 1)[0].1, 0.0);
}

#[test]
fn a_figure_calling_lua_or_naming_what_is_not_there_is_refused_where_written() {
    let data = format!(
        "{MINIMAL_DATA}\n[seats.figures.luck]\nvalue = \"hook('luck', seat)\"\n[seats.figures.gold]\nvalue = \"seat.gold\"\n"
    );
    let problems = load_data("figures", &data).err().expect("refused").to_string();
    assert!(
        problems.contains("data.toml:22:10: error: [seats.figures.luck] key `value`: `hook` cannot be called here"),
        "{problems}"
    );
    assert!(problems.contains("without running Lua"), "{problems}");
    assert!(
        problems.contains("data.toml:24:15: error: [seats.figures.gold] key `value`: unknown seat field `gold`"),
        "{problems}"
    );
}

/// `[space_figures]`: the same for each space, shown in its tooltip (`game::space_figures`).
#[test]
fn space_figures_follow_the_game_for_each_space_and_a_broken_one_is_located() {
    let data = format!(
        "{MINIMAL_DATA}\n[setup]\neffect = [\"space('a').owner = seat(1)\"]\n\
         [space_figures.attack]\nlabel = \"Attack roll\"\nvalue = \"space.dice * 3.5\"\n\
         [space_figures.neighbours]\nvalue = \"count_of(other in space, adjacent(other, space) and other.owner != space.owner)\"\n"
    );
    let rules = load_data("space_figures", &data).unwrap_or_else(|p| panic!("{p}"));
    let (mut engine, mut state, _) = new_game(&rules, 1, 2);
    let a = state.board.find("a").unwrap();
    let figures =
        |state: &meeple_engine::game::GameState| meeple_engine::game::space_figures(&rules, state, a).unwrap();
    assert_eq!(figures(&state), [("Attack roll".to_string(), 0.0), ("neighbours".to_string(), 1.0)]);
    let push = Action::rule(rules.action_index("push").unwrap() as u16, &[a as i64]);
    engine.apply(&mut state, &push, &mut Events::discard()).unwrap();
    assert_eq!(figures(&state)[0].1, 3.5, "one die: 3.5 expected");

    let broken = format!(
        "{MINIMAL_DATA}\n[space_figures.luck]\nvalue = \"hook('luck', space)\"\n[space_figures.x]\nvalue = \"space.height\"\n"
    );
    let problems = load_data("space_figures_broken", &broken).err().expect("refused");
    assert!(problems.contains("[space_figures.luck] key `value`: `hook` cannot be called here"), "{problems}");
    assert!(problems.contains("[space_figures.x] key `value`: unknown space field `height`"), "{problems}");
    assert!(problems.contains("data.toml:"), "{problems}");
}
