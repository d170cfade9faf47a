//! `line_of_sight(a, b)` in the rules language: what is between two spaces on square grids
//! (every cell the line crosses the inside of), offset grids and walls, the rule for lines
//! through corners and along sides, and the error on boards without cells. The cases are the
//! examples of docs/modding/how-a-game-runs.md.

mod common;

use std::collections::BTreeSet;
use std::sync::Arc;

use common::{fixture, legal, manifest, new_game, problems, write_mod};
use meeple_engine::game::ActionKind;
use meeple_engine::loader::load_mod;
use meeple_engine::rules::Ruleset;

/// Every `(from, to)` pair, by label, that the mod's `spot` action lists: the pairs whose
/// `where` says `line_of_sight(from, to)`.
fn seen_pairs(rules: &Arc<Ruleset>) -> BTreeSet<(String, String)> {
    let (mut engine, state, _) = new_game(rules, 1, 2);
    let label = |space: i64| state.board.space(space as u32).label.clone();
    legal(&mut engine, &state)
        .into_iter()
        .filter(|action| matches!(action.kind, ActionKind::Rule(_)))
        .map(|action| (label(action.args[0]), label(action.args[1])))
        .collect()
}

/// Checks each `(from, to, sees)` case against the listed pairs, naming every wrong one.
fn assert_cases(seen: &BTreeSet<(String, String)>, cases: &[(&str, &str, bool, &str)]) {
    let wrong: Vec<String> = cases
        .iter()
        .filter(|(from, to, sees, _)| seen.contains(&(from.to_string(), to.to_string())) != *sees)
        .map(|(from, to, sees, why)| format!("{from} → {to} should be {sees}: {why}"))
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A mod with `board` (a `[board]` table's keys) and the `spot` action of the fixture.
fn spot_mod(id: &str, board: &str) -> Arc<Ruleset> {
    let data = format!(
        "[board]\n{board}\n\n[terrain.grass]\n[terrain.wood]\nblocks_sight = true\n[terrain.stone]\nblocks_sight = true\n\n\
         [actions.spot]\nlabel = \"Spot\"\nparams = [\n  {{ name = \"from\", kind = \"space\" }},\n  \
         {{ name = \"to\", kind = \"space\", where = \"line_of_sight(from, to)\" }},\n]\n\n[end]\nwin = \"seat.number == 99\"\n"
    );
    let manifest = manifest(id);
    let folder = write_mod(id, &[("mod.toml", manifest.as_bytes()), ("data.toml", data.as_bytes())]);
    let loaded = load_mod(&folder);
    std::fs::remove_dir_all(&folder).ok();
    match loaded {
        Ok(loaded) => loaded.ruleset,
        Err(problems) => panic!("{}", problems.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("\n")),
    }
}

/// The fixture's board (`#` wood blocks sight; a stone wall F04|G04 does, a fence F05|G05 not):
///
/// ```text
///      A B C D E F G
///   0  . . . . . . .
///   1  . . # . . . .
///   2  . . . . # . .
///   3  . . . # . . .
///   4  . . . . . .|.    stone wall
///   5  . . . . . .:.    fence
/// ```
#[test]
fn a_square_grid_with_woods_and_walls() {
    let seen = seen_pairs(&fixture("sight"));
    assert_cases(
        &seen,
        &[
            ("A00", "G00", true, "clear: nothing on row 0"),
            ("A01", "G01", false, "blocked: the line crosses the wood at C01"),
            ("A01", "D01", false, "blocked: D01 is behind the wood"),
            ("A01", "B01", true, "adjacent: nothing between"),
            ("B01", "C01", true, "adjacent to the wood: a blocking space is seen, it only hides what is behind it"),
            ("C01", "C01", true, "the same space"),
            (
                "A00",
                "C02",
                true,
                "diagonal through B01; at the corners only C01 (one side) blocks, A01 and B02 are open",
            ),
            ("D02", "E03", false, "diagonal between E02 and D03, which are both wood: they close the corner"),
            ("C02", "D01", true, "diagonal past the corner of C01 alone: D02 on the other side is open"),
            ("A05", "E01", true, "a long diagonal: D03 and E02 close one side, the other side is open"),
            ("B00", "D01", false, "supercover: the line crosses C00 and C01 (Bresenham's line would pick one)"),
            ("E04", "G04", false, "the stone wall between F04 and G04 blocks sight"),
            ("F04", "G04", false, "adjacent, but across the stone wall"),
            ("E05", "G05", true, "the fence between F05 and G05 does not block sight"),
        ],
    );
}

#[test]
fn sight_is_symmetric_on_every_pair() {
    let seen = seen_pairs(&fixture("sight"));
    let one_way: Vec<_> = seen.iter().filter(|(a, b)| !seen.contains(&(b.clone(), a.clone()))).collect();
    assert!(one_way.is_empty(), "seen one way only: {one_way:?}");
    // Not everything sees everything: the woods and the wall hide some pairs.
    assert!(seen.len() < 42 * 42, "{} pairs", seen.len());
}

/// Offset grids are seen as regular hexagons: a line between C04 and C02 (odd rows shifted)
/// runs exactly along the side between B03 and C03.
#[test]
fn an_offset_grid_and_a_line_along_the_side_of_two_hexes() {
    let board = |row3: &str| {
        format!(
            "kind = \"offset\"\ncolumns = 5\nrows = 5\noffset = \"odd_rows\"\nlayout = [\".....\", \".....\", \".....\", \"{row3}\", \".....\"]\n\
             legend = {{ \".\" = \"grass\", \"#\" = \"wood\" }}"
        )
    };
    let both = seen_pairs(&spot_mod("hex_both", &board(".##..")));
    assert_cases(
        &both,
        &[
            ("C04", "C02", false, "along the side between B03 and C03, both wood"),
            ("A03", "E03", false, "along row 3 through the woods"),
            ("A02", "E02", true, "row 2 is open"),
            ("B03", "C03", true, "adjacent"),
        ],
    );
    let one = seen_pairs(&spot_mod("hex_one", &board(".#...")));
    assert_cases(&one, &[("C04", "C02", true, "along the side between B03 (wood) and C03 (open)")]);
}

/// Walls meeting at a corner: a line through the corner passes when one way around it is open.
#[test]
fn walls_at_a_corner() {
    let grid = "kind = \"square\"\ncolumns = 3\nrows = 3\nterrain = \"grass\"";
    let one_wall = seen_pairs(&spot_mod(
        "corner_one",
        &format!("{grid}\nwalls = [{{ between = [\"A00\", \"B00\"], kind = \"stone\" }}]"),
    ));
    let straight = seen_pairs(&spot_mod(
        "corner_straight",
        &format!(
            "{grid}\nwalls = [{{ between = [\"A00\", \"B00\"], kind = \"stone\" }}, {{ between = [\"A01\", \"B01\"], kind = \"stone\" }}]"
        ),
    ));
    assert_cases(&one_wall, &[("A00", "B01", true, "one wall ends at the corner: the way round by A01 is open")]);
    assert_cases(
        &straight,
        &[
            ("A00", "B01", false, "two walls make one straight wall through the corner"),
            ("A00", "C02", false, "the same corner on a longer diagonal"),
            ("B00", "A01", false, "the other diagonal crosses the same straight wall"),
            ("A02", "C02", true, "row 2 has no wall"),
        ],
    );
    let diagonal = seen_pairs(&spot_mod(
        "corner_diagonal",
        &format!("{grid}\nneighbours = 8\nwalls = [{{ between = [\"A00\", \"B01\"], kind = \"stone\" }}]"),
    ));
    assert_cases(
        &diagonal,
        &[
            ("A00", "B01", false, "a wall on the diagonal link stands on the corner"),
            ("A00", "C02", false, "a longer line through that corner crosses it too"),
            ("B00", "A01", true, "the other diagonal through the corner is not that link"),
        ],
    );
}

/// Heights: a tower (height 2, blocks sight) in the middle of the floor, a short wall (height 1)
/// on its near side and one on the floor, a stone wall (no height: blocks everything).
///
/// ```text
///      A B C D E F G
///   0  . . . . . . .
///   1  . . . . . . .        short wall between D01 and D02
///   2  . . T T T . .
///   3  . . T T T . .
///   4  . . T T T .|.        stone wall between F04 and G04
///   5  . . . . . .:.        short wall between F05 and G05
/// ```
#[test]
fn heights_a_tower_and_short_walls() {
    let board = "kind = \"square\"\ncolumns = 7\nrows = 6\nlayout = [\".......\", \".......\", \"..TTT..\", \"..TTT..\", \"..TTT..\", \".......\"]\n\
                 legend = { \".\" = \"grass\", \"T\" = \"tower\" }\n\
                 walls = [{ between = [\"D01\", \"D02\"], kind = \"short\" }, { between = [\"F04\", \"G04\"], kind = \"stone\" }, \
                 { between = [\"F05\", \"G05\"], kind = \"short\" }]";
    let data = format!(
        "[board]\n{board}\n\n[terrain.grass]\n[terrain.tower]\nblocks_sight = true\nheight = 2\n[terrain.short]\nblocks_sight = true\nheight = 1\n\
         [terrain.stone]\nblocks_sight = true\n\n\
         [actions.spot]\nlabel = \"Spot\"\nparams = [\n  {{ name = \"from\", kind = \"space\" }},\n  \
         {{ name = \"to\", kind = \"space\", where = \"line_of_sight(from, to)\" }},\n]\n\n\
         [actions.look_down]\nlabel = \"Look down\"\nparams = [\n  {{ name = \"from\", kind = \"space\" }},\n  \
         {{ name = \"to\", kind = \"space\", where = \"from.terrain.height > to.terrain.height\" }},\n]\n\n\
         [end]\nwin = \"seat.number == 99\"\n"
    );
    let manifest = manifest("heights");
    let folder = write_mod("heights", &[("mod.toml", manifest.as_bytes()), ("data.toml", data.as_bytes())]);
    let loaded = load_mod(&folder);
    std::fs::remove_dir_all(&folder).ok();
    let rules = match loaded {
        Ok(loaded) => loaded.ruleset,
        Err(problems) => panic!("{}", problems.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("\n")),
    };
    let (mut engine, state, _) = new_game(&rules, 1, 2);
    let label = |space: i64| state.board.space(space as u32).label.clone();
    let pairs_of = |rule: usize, actions: &[meeple_engine::game::Action]| -> BTreeSet<(String, String)> {
        actions
            .iter()
            .filter(|action| matches!(action.kind, ActionKind::Rule(r) if r as usize == rule))
            .map(|action| (label(action.args[0]), label(action.args[1])))
            .collect()
    };
    let listed = legal(&mut engine, &state);
    let seen = pairs_of(0, &listed);
    assert_cases(
        &seen,
        &[
            (
                "D00",
                "D02",
                true,
                "from the floor over a short wall onto the tower's near edge, which is higher than the wall",
            ),
            ("D02", "D00", true, "the same line from the tower"),
            (
                "D00",
                "D03",
                false,
                "the tower's centre: the near edge rises above the floor and is as high as the centre",
            ),
            ("D00", "D04", false, "the tower's far edge: the near edge hides it"),
            ("D02", "D04", true, "along the tower's top: its squares are no higher than both ends"),
            ("B03", "F03", false, "floor to floor across the tower"),
            ("C02", "A02", true, "from the tower's edge down to the floor"),
            ("C02", "G02", false, "from one edge through the tower to the floor beyond"),
            ("E05", "G05", false, "floor to floor across a short wall"),
            ("E04", "G05", true, "the tower sees over the short wall on the floor"),
            ("E04", "G04", false, "a wall without a height blocks even from the tower"),
            ("E03", "G03", true, "the tower's edge sees the floor beside it"),
        ],
    );
    let one_way: Vec<_> = seen.iter().filter(|(a, b)| !seen.contains(&(b.clone(), a.clone()))).collect();
    assert!(one_way.is_empty(), "seen one way only: {one_way:?}");
    let higher = pairs_of(1, &listed);
    assert!(higher.contains(&("D02".into(), "D00".into())) && !higher.contains(&("D00".into(), "D02".into())));
    assert!(!higher.contains(&("D02".into(), "D03".into())), "the tower's squares are level with each other");
}

/// `height` is the terrain's own key: a stat of that name is refused where it is written.
#[test]
fn a_terrain_stat_named_height_is_refused() {
    let data = "[board]\nkind = \"square\"\ncolumns = 2\nrows = 1\nterrain = \"hill\"\n\n[terrain.hill]\nstats = { height = 3 }\n\n\
                [actions.spot]\nlabel = \"Spot\"\nparams = [{ name = \"from\", kind = \"space\" }]\n\n[end]\nwin = \"seat.number == 99\"\n";
    let manifest = manifest("stat_height");
    let folder = write_mod("stat_height", &[("mod.toml", manifest.as_bytes()), ("data.toml", data.as_bytes())]);
    let found: Vec<String> = problems(&folder).iter().map(|p| p.to_string()).collect();
    std::fs::remove_dir_all(&folder).ok();
    let text = found.join("\n");
    assert!(text.contains("data.toml:8:20") && text.contains("`height` is the terrain's own key"), "{text}");
}

#[test]
fn a_board_without_cells_refuses_line_of_sight_where_it_is_written() {
    let data = common::MINIMAL_DATA.replace(
        "params = [{ name = \"from\", kind = \"space\", owned_by = \"me\" }]",
        "params = [{ name = \"from\", kind = \"space\", owned_by = \"me\" }]\nwhen = \"line_of_sight(from, from)\"",
    );
    let manifest = manifest("graph_sight");
    let folder = write_mod("graph_sight", &[("mod.toml", manifest.as_bytes()), ("data.toml", data.as_bytes())]);
    let found: Vec<String> = problems(&folder).iter().map(|p| p.to_string()).collect();
    std::fs::remove_dir_all(&folder).ok();
    let text = found.join("\n");
    assert!(
        text.contains("data.toml:")
            && text.contains("`line_of_sight` needs a board with coordinates")
            && text.contains("this board is a graph board"),
        "{text}"
    );
}
