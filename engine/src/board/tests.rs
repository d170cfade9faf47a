//! Tests of the board module: builders, queries, generators, specs and the schema.

use std::collections::VecDeque;

use super::*;
use crate::rng::GameRng;

/// A stand-in for a mod's terrain table.
fn terrain_table(name: &str) -> Option<TerrainId> {
    ["land", "water", "hill", "rock", "wall", "road"].iter().position(|&t| t == name).map(|i| i as TerrainId)
}

const LAND: TerrainId = 0;
const WATER: TerrainId = 1;
const HILL: TerrainId = 2;

fn parse(text: &str) -> BoardSpec {
    toml::from_str(text).unwrap_or_else(|error| panic!("{error}\n{text}"))
}

fn build_seeded(spec: &BoardSpec, seed: u64, seats: u32) -> Result<Board, String> {
    let mut rng = GameRng::from_seed(seed);
    let mut ctx = BuildContext { terrain: &terrain_table, seats, rng: &mut rng };
    spec.build(&mut ctx)
}

fn board(text: &str) -> Board {
    build_seeded(&parse(text), 0, 2).unwrap_or_else(|error| panic!("{error}"))
}

fn id(board: &Board, label: &str) -> SpaceId {
    board.find(label).unwrap_or_else(|| panic!("no space {label}"))
}

fn neighbour_labels(board: &Board, label: &str) -> Vec<String> {
    let mut labels: Vec<String> =
        board.neighbors(id(board, label)).iter().map(|&(neighbor, _)| board.space(neighbor).label.clone()).collect();
    labels.sort();
    labels
}

/// Reference step distances by plain breadth-first search over `neighbors`.
fn reference_distances(board: &Board, from: SpaceId) -> Vec<Option<u32>> {
    let mut distances = vec![None; board.space_count()];
    distances[from as usize] = Some(0);
    let mut queue = VecDeque::from([from]);
    while let Some(space) = queue.pop_front() {
        let next = distances[space as usize].unwrap() + 1;
        for &(neighbor, _) in board.neighbors(space) {
            if distances[neighbor as usize].is_none() {
                distances[neighbor as usize] = Some(next);
                queue.push_back(neighbor);
            }
        }
    }
    distances
}

/// Checks `distance` and `within` against breadth-first search for every pair of spaces.
fn assert_distances_match_search(board: &Board) {
    let mut within = Vec::new();
    for a in board.space_ids() {
        let reference = reference_distances(board, a);
        for b in board.space_ids() {
            assert_eq!(board.distance(a, b), reference[b as usize], "{a} → {b} on {:?}", board.topology());
        }
        for steps in 0..4 {
            board.within(a, steps, &mut within);
            let expected: Vec<SpaceId> =
                board.space_ids().filter(|&b| b != a && reference[b as usize].is_some_and(|d| d <= steps)).collect();
            assert_eq!(within, expected, "within {steps} of {a}");
        }
    }
}

// ---------------------------------------------------------------- neighbours

#[test]
fn square_grid_neighbour_counts() {
    let four = board("kind = 'square'\ncolumns = 5\nrows = 4\nterrain = 'land'");
    assert_eq!(four.space_count(), 20);
    assert_eq!(four.neighbors(id(&four, "A00")).len(), 2);
    assert_eq!(four.neighbors(id(&four, "C00")).len(), 3);
    assert_eq!(four.neighbors(id(&four, "A02")).len(), 3);
    assert_eq!(four.neighbors(id(&four, "C02")).len(), 4);
    assert_eq!(neighbour_labels(&four, "C02"), ["B02", "C01", "C03", "D02"]);
    assert_eq!(four.edge_count(), 5 * 3 + 4 * 4);

    let eight = board("kind = 'square'\ncolumns = 5\nrows = 4\nneighbours = 8\nterrain = 'land'");
    assert_eq!(eight.neighbors(id(&eight, "A00")).len(), 3);
    assert_eq!(eight.neighbors(id(&eight, "E03")).len(), 3);
    assert_eq!(eight.neighbors(id(&eight, "C00")).len(), 5);
    assert_eq!(eight.neighbors(id(&eight, "C02")).len(), 8);
    assert_eq!(neighbour_labels(&eight, "B01"), ["A00", "A01", "A02", "B00", "B02", "C00", "C01", "C02"]);
    assert_eq!(eight.space(id(&eight, "C02")).pos, [2.0, 2.0]);
}

#[test]
fn offset_grid_neighbours_follow_the_hex_conventions() {
    // Expected neighbours spelled out from the standard offset-coordinate direction tables.
    let cases = [
        ("odd_rows", "B01", ["A01", "B00", "B02", "C00", "C01", "C02"]),
        ("odd_rows", "B02", ["A01", "A02", "A03", "B01", "B03", "C02"]),
        ("even_rows", "B01", ["A00", "A01", "A02", "B00", "B02", "C01"]),
        ("even_rows", "B02", ["A02", "B01", "B03", "C01", "C02", "C03"]),
        ("odd_columns", "B01", ["A01", "A02", "B00", "B02", "C01", "C02"]),
        ("odd_columns", "C02", ["B01", "B02", "C01", "C03", "D01", "D02"]),
        ("even_columns", "B01", ["A00", "A01", "B00", "B02", "C00", "C01"]),
        ("even_columns", "C02", ["B02", "B03", "C01", "C03", "D02", "D03"]),
    ];
    for (offset, label, expected) in cases {
        let grid = board(&format!("kind = 'offset'\ncolumns = 5\nrows = 5\noffset = '{offset}'\nterrain = 'land'"));
        assert_eq!(neighbour_labels(&grid, label), expected, "{offset} {label}");
    }
    let odd_rows = board("kind = 'offset'\ncolumns = 3\nrows = 3\nterrain = 'land'");
    assert_eq!(odd_rows.neighbors(id(&odd_rows, "A00")).len(), 2);
    assert_eq!(odd_rows.neighbors(id(&odd_rows, "A01")).len(), 5);
    assert_eq!(neighbour_labels(&odd_rows, "C01"), ["B01", "C00", "C02"]);
    assert_eq!(odd_rows.space(id(&odd_rows, "A01")).pos, [0.5, 1.0]);
    assert_eq!(odd_rows.space(id(&odd_rows, "A02")).pos, [0.0, 2.0]);
}

#[test]
fn rings_follow_direction_and_links() {
    let rings = board(
        r#"
        kind = "rings"
        [[rings]]
        id = "outer"
        spaces = { count = 8, terrain = "road" }
        one_way = true
        names = ["Start", "Second"]
        overrides = [{ index = 4, terrain = "hill", name = "Summit", home = 1 }]
        [[rings]]
        id = "inner"
        spaces = ["land", "water", "land", "land"]
        [[rings]]
        id = "spur"
        spaces = ["land", "land", "land"]
        closed = false
        label_prefix = "S"
        first_number = 1
        [[links]]
        a = "outer:0"
        b = "inner:0"
        [[links]]
        a = "inner:2"
        b = "spur:0"
        one_way = true
        wall = "wall"
        "#,
    );
    assert_eq!(rings.space_count(), 15);
    assert_eq!(neighbour_labels(&rings, "outer 0"), ["inner 0", "outer 1"]);
    assert_eq!(neighbour_labels(&rings, "outer 7"), ["outer 0"]);
    assert_eq!(neighbour_labels(&rings, "outer 1"), ["outer 2"]);
    assert_eq!(neighbour_labels(&rings, "inner 0"), ["inner 1", "inner 3", "outer 0"]);
    assert_eq!(neighbour_labels(&rings, "inner 2"), ["S1", "inner 1", "inner 3"]);
    assert_eq!(neighbour_labels(&rings, "S1"), ["S2"]);
    assert_eq!(neighbour_labels(&rings, "S3"), ["S2"]);
    let (outer0, outer1) = (id(&rings, "outer 0"), id(&rings, "outer 1"));
    assert_eq!(rings.distance(outer0, outer1), Some(1));
    assert_eq!(rings.distance(outer1, outer0), Some(7));
    assert_eq!(rings.distance(id(&rings, "S1"), outer0), None, "the spur link is one-way");
    let wall = rings.edge_between(id(&rings, "S1"), id(&rings, "inner 2")).unwrap();
    assert_eq!(rings.edge(wall).wall, Some(4));
    assert!(rings.edge(wall).one_way);
    let summit = rings.space(id(&rings, "outer 4"));
    assert_eq!((summit.terrain, summit.home, summit.name.as_deref()), (HILL, Some(1), Some("Summit")));
    assert_eq!(rings.space(outer0).name.as_deref(), Some("Start"));
    assert_eq!(rings.space(id(&rings, "inner 1")).terrain, WATER);
    assert_eq!(rings.home_spaces(1).collect::<Vec<_>>(), [id(&rings, "outer 4")]);
    // The outer ring is drawn outside the inner one, starting at the top.
    let centre = rings.space(outer0).pos[0];
    let radius = |label: &str| {
        let [x, y] = rings.space(id(&rings, label)).pos;
        ((x - centre).powi(2) + (y - rings.space(id(&rings, "outer 2")).pos[1]).powi(2)).sqrt()
    };
    assert!(radius("outer 0") > radius("inner 0"));
    assert!(rings.space(outer0).pos[1] < rings.space(id(&rings, "outer 4")).pos[1]);
}

#[test]
fn graph_links_pairs_and_tables() {
    let graph = board(
        r#"
        kind = "graph"
        terrain = "land"
        spaces = [
            { id = "a", pos = [0, 0], home = 0, name = "Alpha" },
            { id = "b", terrain = "water", pos = [1.5, 0] },
            { id = "c" },
            { id = "d" },
        ]
        links = [["a", "b"], { a = "b", b = "c", one_way = true }, { a = "c", b = "d", wall = "wall" }]
        "#,
    );
    assert_eq!(*graph.topology(), Topology::Graph);
    assert_eq!(neighbour_labels(&graph, "a"), ["b"]);
    assert_eq!(neighbour_labels(&graph, "b"), ["a", "c"]);
    assert_eq!(neighbour_labels(&graph, "c"), ["d"]);
    assert_eq!(neighbour_labels(&graph, "d"), ["c"]);
    let (a, b, c, d) = (id(&graph, "a"), id(&graph, "b"), id(&graph, "c"), id(&graph, "d"));
    assert_eq!(graph.edge_between(c, b), graph.edge_between(b, c));
    assert_eq!(graph.edge_between(a, d), None);
    assert_eq!(graph.edge(graph.edge_between(c, d).unwrap()).wall, Some(4));
    assert_eq!(graph.distance(a, d), Some(3));
    assert_eq!(graph.distance(d, a), None);
    assert_eq!(graph.space(b).pos, [1.5, 0.0]);
    assert_eq!(graph.space(b).terrain, WATER);
    assert_eq!(graph.space(a).name.as_deref(), Some("Alpha"));
    assert_eq!(graph.space(a).home, Some(0));
    assert!(graph.space(c).pos != graph.space(d).pos, "unplaced spaces are spread out");
    assert_eq!((graph.space(c).col, graph.space(c).row), (-1, -1));
}

// ---------------------------------------------------------------- distance

#[test]
fn closed_form_distances_agree_with_search_on_every_pair() {
    let mut grids = Vec::new();
    for (columns, rows) in [(6, 5), (5, 6)] {
        for neighbours in [4, 8] {
            grids.push(format!(
                "kind = 'square'\ncolumns = {columns}\nrows = {rows}\nneighbours = {neighbours}\nterrain = 'land'"
            ));
        }
        for offset in ["odd_rows", "even_rows", "odd_columns", "even_columns"] {
            grids.push(format!(
                "kind = 'offset'\ncolumns = {columns}\nrows = {rows}\noffset = '{offset}'\nterrain = 'land'"
            ));
        }
    }
    for text in grids {
        let grid = board(&text);
        assert!(matches!(grid.metric, Metric::Lattice(_)), "{text}");
        assert_distances_match_search(&grid);
    }
}

#[test]
fn table_and_search_distances_agree_with_search() {
    // A hole makes the grid irregular, so it gets a table.
    let holed = board(
        r#"
        kind = "offset"
        columns = 5
        rows = 4
        layout = ["....." , ".##..", "..#..", "....."]
        legend = { "." = "land", '#' = { empty = true } }
        "#,
    );
    assert_eq!(holed.space_count(), 17);
    assert!(matches!(holed.metric, Metric::Table(_)));
    assert_distances_match_search(&holed);

    // Large and irregular: searched per query.
    let track = board(
        r#"
        kind = "rings"
        links = [{ a = "big:0", b = "small:0" }, { a = "big:300", b = "small:7", one_way = true }]
        [[rings]]
        id = "big"
        spaces = { count = 600, terrain = "road" }
        [[rings]]
        id = "small"
        spaces = { count = 20, terrain = "road" }
        one_way = true
        "#,
    );
    assert!(matches!(track.metric, Metric::Search));
    let mut scratch = Scratch::new();
    let mut within = Vec::new();
    for a in [0, 1, 150, 300, 599, 600, 607, 619] {
        let reference = reference_distances(&track, a);
        for b in track.space_ids() {
            assert_eq!(track.distance_with(a, b, &mut scratch), reference[b as usize]);
        }
        track.within_with(a, 5, &mut scratch, &mut within);
        let expected: Vec<SpaceId> =
            track.space_ids().filter(|&b| b != a && reference[b as usize].is_some_and(|d| d <= 5)).collect();
        assert_eq!(within, expected);
    }
}

#[test]
fn unreachable_and_invalid_ids_give_none() {
    let graph = board(
        "kind = 'graph'\nterrain = 'land'\nspaces = [{ id = 'a' }, { id = 'b' }, { id = 'c' }]\nlinks = [['a', 'b']]",
    );
    assert_eq!(graph.distance(0, 2), None);
    assert_eq!(graph.distance(0, 1), Some(1));
    assert_eq!(graph.distance(0, 99), None);
    assert_eq!(graph.neighbors(99), &[]);
    let mut out = vec![7];
    graph.within(99, 3, &mut out);
    assert!(out.is_empty());
    let grid = board("kind = 'square'\ncolumns = 3\nrows = 3\nterrain = 'land'");
    assert_eq!(grid.distance(0, 9), None);
    assert_eq!(grid.distance(0, 8), Some(4));
}

// ---------------------------------------------------------------- movement

const COST_LAYOUT: &str = r#"
    kind = "square"
    columns = 4
    rows = 3
    layout = ["..h.", ".#h.", "...."]
    legend = { "." = "land", "h" = "hill", '#' = "rock" }
"#;

/// Land costs 1, hills 2, rock cannot be entered.
fn terrain_cost(board: &Board, to: SpaceId) -> Option<u32> {
    match board.space(to).terrain {
        LAND => Some(1),
        HILL => Some(2),
        _ => None,
    }
}

fn labelled(board: &Board, found: &[(SpaceId, u32)]) -> Vec<(String, u32)> {
    found.iter().map(|&(space, cost)| (board.space(space).label.clone(), cost)).collect()
}

fn expected(pairs: &[(&str, u32)]) -> Vec<(String, u32)> {
    pairs.iter().map(|&(label, cost)| (label.to_string(), cost)).collect()
}

#[test]
fn reachable_charges_terrain_costs() {
    let grid = board(COST_LAYOUT);
    let mut scratch = Scratch::new();
    let mut found = Vec::new();
    let start = id(&grid, "A00");
    grid.reachable(start, 3, |_, to, _| terrain_cost(&grid, to), &mut scratch, &mut found);
    assert_eq!(labelled(&grid, &found), expected(&[("B00", 1), ("C00", 3), ("A01", 1), ("A02", 2), ("B02", 3)]));
    grid.reachable(start, 0, |_, to, _| terrain_cost(&grid, to), &mut scratch, &mut found);
    assert!(found.is_empty());
    grid.reachable(start, 100, |_, _, _| None, &mut scratch, &mut found);
    assert!(found.is_empty());
}

#[test]
fn reachable_respects_walls_through_the_callback() {
    let text = format!("{COST_LAYOUT}\nwalls = [{{ between = ['A00', 'A01'], kind = 'wall' }}]");
    let grid = board(&text);
    let wall = grid.edge_between(id(&grid, "A00"), id(&grid, "A01")).unwrap();
    assert_eq!(grid.edge(wall).wall, Some(4));
    let cost = |_, to, edge: EdgeId| {
        if grid.edge(edge).wall.is_some() { None } else { terrain_cost(&grid, to) }
    };
    let mut scratch = Scratch::new();
    let mut found = Vec::new();
    grid.reachable(id(&grid, "A00"), 3, cost, &mut scratch, &mut found);
    assert_eq!(labelled(&grid, &found), expected(&[("B00", 1), ("C00", 3)]));
    grid.reachable(id(&grid, "A00"), 10, cost, &mut scratch, &mut found);
    assert_eq!(
        labelled(&grid, &found),
        expected(&[
            ("B00", 1),
            ("C00", 3),
            ("D00", 4),
            ("A01", 9),
            ("C01", 5),
            ("D01", 5),
            ("A02", 8),
            ("B02", 7),
            ("C02", 6),
            ("D02", 6),
        ])
    );
}

#[test]
fn reachable_follows_one_way_edges_forwards_only() {
    let ring = board("kind = 'rings'\n[[rings]]\nid = 'r'\nspaces = { count = 6, terrain = 'road' }\none_way = true");
    let mut scratch = Scratch::new();
    let mut found = Vec::new();
    ring.reachable(0, 2, |_, _, _| Some(1), &mut scratch, &mut found);
    assert_eq!(found, [(1, 1), (2, 2)]);
}

#[test]
fn walks_of_exactly_n_steps_end_where_every_way_does() {
    // Two one-way rings of 8 joined both ways at outer 0 / inner 0: a junction between rings.
    let rings = board(
        r#"
        kind = "rings"
        [[rings]]
        id = "outer"
        spaces = { count = 8, terrain = "road" }
        one_way = true
        [[rings]]
        id = "inner"
        spaces = { count = 8, terrain = "road" }
        one_way = true
        [[links]]
        a = "outer:0"
        b = "inner:0"
        "#,
    );
    let mut found = Vec::new();
    let ends = |found: &[(SpaceId, u32)]| labelled(&rings, found).into_iter().map(|(l, _)| l).collect::<Vec<_>>();
    // From outer 6, three steps: through the junction at outer 0, on to either ring; four steps
    // go one further on each.
    rings.reachable_exactly(id(&rings, "outer 6"), 3, |_, _, _| Some(1), &mut found, || true);
    assert_eq!(ends(&found), ["outer 1", "inner 0"]);
    rings.reachable_exactly(id(&rings, "outer 6"), 4, |_, _, _| Some(1), &mut found, || true);
    assert_eq!(ends(&found), ["outer 2", "inner 1"]);
    // Exactly 2 ends at the junction itself; "up to 2" would also give outer 7.
    rings.reachable_exactly(id(&rings, "outer 6"), 2, |_, _, _| Some(1), &mut found, || true);
    assert_eq!(ends(&found), ["outer 0"]);
    // No walk enters a space twice: 8 steps round the ring cannot end where it began.
    rings.reachable_exactly(id(&rings, "outer 3"), 8, |_, _, _| Some(1), &mut found, || true);
    assert!(ends(&found).iter().all(|l| l != "outer 3"), "{found:?}");
    // On an open grid, exactly 2 from the centre of 3 x 3 is the corners, not the edges' middles.
    let grid = board("kind = 'square'\ncolumns = 3\nrows = 3\nterrain = 'road'");
    grid.reachable_exactly(id(&grid, "B01"), 2, |_, _, _| Some(1), &mut found, || true);
    assert_eq!(labelled(&grid, &found).len(), 4);
    assert!(labelled(&grid, &found).iter().all(|(l, _)| ["A00", "C00", "A02", "C02"].contains(&l.as_str())));
    // The caller's count of steps can stop the search.
    let mut allowed = 3;
    grid.reachable_exactly(
        id(&grid, "B01"),
        2,
        |_, _, _| Some(1),
        &mut found,
        || {
            allowed -= 1;
            allowed >= 0
        },
    );
    assert!(found.len() < 4);
}

// ---------------------------------------------------------------- groups

const GROUP_LAYOUT: &str = r#"
    columns = 4
    rows = 3
    layout = ["xx.x", "x..x", ".xxx"]
    legend = { "x" = "land", "." = "water" }
"#;

#[test]
fn groups_on_a_hand_checked_layout() {
    let grid = board(&format!("kind = 'square'\n{GROUP_LAYOUT}"));
    let is_land = |space: SpaceId| grid.space(space).terrain == LAND;
    let mut scratch = Scratch::new();
    assert_eq!(grid.largest_group(is_land, &mut scratch), 5);
    assert_eq!(grid.groups(is_land, &mut scratch), vec![vec![0, 1, 4], vec![3, 7, 9, 10, 11]]);
    let mut group = Vec::new();
    grid.group_of(id(&grid, "B02"), is_land, &mut scratch, &mut group);
    assert_eq!(group, [3, 7, 9, 10, 11]);
    grid.group_of(id(&grid, "C00"), is_land, &mut scratch, &mut group);
    assert!(group.is_empty());
    assert_eq!(grid.largest_group(|_| false, &mut scratch), 0);
    assert!(grid.groups(|_| false, &mut scratch).is_empty());

    let diagonal = board(&format!("kind = 'square'\nneighbours = 8\n{GROUP_LAYOUT}"));
    let is_land = |space: SpaceId| diagonal.space(space).terrain == LAND;
    assert_eq!(diagonal.largest_group(is_land, &mut scratch), 8);
}

#[test]
fn groups_ignore_edge_direction() {
    let ring = board("kind = 'rings'\n[[rings]]\nid = 'r'\nspaces = { count = 6, terrain = 'road' }\none_way = true");
    let mut scratch = Scratch::new();
    // Without space 0 the one-way cycle is a path 1 → 2 → … → 5; still one group.
    assert_eq!(ring.largest_group(|space| space != 0, &mut scratch), 5);
    assert_eq!(ring.groups(|space| space != 0 && space != 3, &mut scratch), vec![vec![1, 2], vec![4, 5]]);
}

#[test]
fn scratch_survives_many_searches_and_board_sizes() {
    let small = board("kind = 'square'\ncolumns = 2\nrows = 2\nterrain = 'land'");
    let large = board("kind = 'square'\ncolumns = 30\nrows = 30\nterrain = 'land'");
    let mut scratch = Scratch::new();
    for round in 0..100 {
        assert_eq!(small.largest_group(|_| true, &mut scratch), 4);
        assert_eq!(large.largest_group(|space| space != round * 7, &mut scratch), 899);
    }
}

// ---------------------------------------------------------------- territory maps

fn territory_spec(columns: u32, rows: u32, territories: u32, cell: &str) -> BoardSpec {
    parse(&format!(
        "kind = 'territories'\ncolumns = {columns}\nrows = {rows}\ncell = '{cell}'\n\
         territories = {territories}\ncells_per_territory = {{ min = 6, max = 14 }}\nterrain = 'land'"
    ))
}

/// Checks every structural promise of a territory map.
fn assert_valid_territory_map(map: &Board, expected_count: u32, min: u32, max: u32) {
    let Topology::Territories { columns, rows, .. } = *map.topology() else { panic!("not a map") };
    assert_eq!(map.space_count(), expected_count as usize);
    assert_eq!(map.cells().len(), (columns * rows) as usize);
    let mut scratch = Scratch::new();
    assert_eq!(map.largest_group(|_| true, &mut scratch), expected_count, "territory graph connected");
    for territory in map.space_ids() {
        assert!(!map.neighbors(territory).is_empty(), "territory {territory} has a neighbour");
        assert_eq!(map.space(territory).label, (territory + 1).to_string());
        // The territory's cells are one connected patch of the lattice.
        let cells: Vec<&Cell> = map.cells().iter().filter(|cell| cell.space == Some(territory)).collect();
        assert!((min as usize..=max as usize).contains(&cells.len()), "size {}", cells.len());
        let mut seen = vec![(cells[0].col, cells[0].row)];
        let mut head = 0;
        while let Some(&(col, row)) = seen.get(head) {
            head += 1;
            for (c, r) in map.lattice_neighbors(col, row) {
                if map.space_at(c, r) == Some(territory) && !seen.contains(&(c, r)) {
                    seen.push((c, r));
                }
            }
        }
        assert_eq!(seen.len(), cells.len(), "territory {territory} is contiguous");
    }
    // The outer ring of the lattice is sea, so the land has sea all around.
    for cell in map.cells() {
        if cell.col == 0 || cell.row == 0 || cell.col as u32 == columns - 1 || cell.row as u32 == rows - 1 {
            assert_eq!(cell.space, None, "edge cell {cell:?}");
        }
    }
    // Edges are exactly the pairs of territories whose cells touch.
    for cell in map.cells() {
        for (c, r) in map.lattice_neighbors(cell.col, cell.row) {
            if let (Some(a), Some(b)) = (cell.space, map.space_at(c, r))
                && a != b
            {
                assert!(map.edge_between(a, b).is_some());
            }
        }
    }
}

#[test]
fn territory_maps_are_exact_fair_and_connected() {
    let spec = territory_spec(28, 24, 30, "hex");
    for seats in 2..=8u32 {
        let expected_count = 30 / seats * seats;
        for seed in 0..200 {
            let map = build_seeded(&spec, seed, seats).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            assert_eq!(map.space_count() % seats as usize, 0);
            assert_valid_territory_map(&map, expected_count, 6, 14);
        }
    }
}

#[test]
fn territory_maps_are_deterministic_and_vary_by_seed() {
    let spec = territory_spec(28, 24, 30, "hex");
    let mut previous = String::new();
    for seed in 0..20 {
        let first = serde_json::to_string(&build_seeded(&spec, seed, 4).unwrap()).unwrap();
        let again = serde_json::to_string(&build_seeded(&spec, seed, 4).unwrap()).unwrap();
        assert_eq!(first, again, "seed {seed} is reproducible");
        assert_ne!(first, previous, "seed {seed} differs from the one before");
        previous = first;
    }
}

#[test]
fn territory_map_options() {
    let square = territory_spec(20, 20, 12, "square");
    for seed in 0..30 {
        assert_valid_territory_map(&build_seeded(&square, seed, 5).unwrap(), 10, 6, 14);
    }
    let loose = parse(
        "kind = 'territories'\ncolumns = 30\nrows = 20\nterritories = 13\nequal_shares = false\n\
         cells_per_territory = 9\ncompact = false\nterrain = 'hill'",
    );
    for seed in 0..30 {
        let map = build_seeded(&loose, seed, 4).unwrap();
        assert_valid_territory_map(&map, 13, 9, 9);
        assert_eq!(map.space(0).terrain, HILL);
    }
    // More seats than territories: one territory per seat.
    let few = territory_spec(20, 20, 3, "hex");
    assert_eq!(build_seeded(&few, 1, 6).unwrap().space_count(), 6);
}

#[test]
fn impossible_territory_maps_fail_with_an_error() {
    // Fits by cell count (100 = the 10×10 inside the sea margin), but random growth would have
    // to tile that area exactly.
    let tight = parse(
        "kind = 'territories'\ncolumns = 12\nrows = 12\nterritories = 10\ncells_per_territory = 10\nterrain = 'land'",
    );
    assert!(tight.check().is_empty());
    let error = build_seeded(&tight, 3, 2).unwrap_err();
    assert!(error.contains("attempts"), "{error}");
    // Seats push the count past what the lattice holds.
    let crowded = territory_spec(8, 8, 2, "hex");
    assert!(build_seeded(&crowded, 0, 12).unwrap_err().contains("do not fit"));
}

// ---------------------------------------------------------------- land and water

fn land_water_spec(kind: &str, share: f64, connected: bool) -> BoardSpec {
    parse(&format!(
        "kind = '{kind}'\ncolumns = 40\nrows = 30\n\
         generate = {{ kind = 'land_water', land = 'land', water = 'water', water_share = {share}, \
         smoothing = 3, connected = {connected} }}"
    ))
}

#[test]
fn land_water_keeps_land_connected_at_the_requested_share() {
    let mut scratch = Scratch::new();
    for kind in ["offset", "square"] {
        for share in [0.0, 0.1, 0.3, 0.5, 0.8, 1.0] {
            let spec = land_water_spec(kind, share, true);
            for seed in 0..10 {
                let map = build_seeded(&spec, seed, 2).unwrap();
                let is_land = |space: SpaceId| map.space(space).terrain == LAND;
                let land = map.space_ids().filter(|&space| is_land(space)).count() as u32;
                let water_share = 1.0 - f64::from(land) / map.space_count() as f64;
                assert!((water_share - share).abs() < 0.01, "{kind} {share}: got {water_share}");
                assert_eq!(map.largest_group(is_land, &mut scratch), land, "{kind} {share} {seed}");
            }
        }
    }
}

#[test]
fn land_water_is_deterministic_and_random_by_seed() {
    let spec = land_water_spec("offset", 0.3, true);
    let json = |seed| serde_json::to_string(&build_seeded(&spec, seed, 2).unwrap()).unwrap();
    assert_eq!(json(5), json(5));
    assert_ne!(json(5), json(6));
    // Without the connectivity repair, noise leaves several land regions.
    let scattered = land_water_spec("offset", 0.5, false);
    let map = build_seeded(&scattered, 5, 2).unwrap();
    let mut scratch = Scratch::new();
    assert!(map.groups(|space| map.space(space).terrain == LAND, &mut scratch).len() > 1);
}

// ---------------------------------------------------------------- labels

#[test]
fn labels_continue_past_z_and_round_trip() {
    let grid = board("kind = 'square'\ncolumns = 28\nrows = 100\nterrain = 'land'");
    assert_eq!(grid.space(0).label, "A00");
    assert_eq!(grid.space(id(&grid, "Z99")).col, 25);
    assert_eq!(grid.space(27).label, "AB00");
    assert_eq!(grid.spaces().last().unwrap().label, "AB99");
    for space in grid.space_ids() {
        assert_eq!(grid.find(&grid.space(space).label), Some(space));
    }
    assert_eq!(grid.find("AC00"), None);
    assert_eq!(grid.space_at(26, 3), Some(id(&grid, "AA03")));
    assert_eq!(grid.space_at(28, 0), None);

    let custom = board(
        "kind = 'square'\ncolumns = 3\nrows = 3\nterrain = 'land'\n\
         labels = { columns = 'numbers', rows = 'letters', first_column = 1, order = 'row_first', separator = '-' }",
    );
    assert_eq!(custom.spaces().last().unwrap().label, "C-3");
}

#[test]
fn clashing_labels_are_reported() {
    let spec = parse(
        "kind = 'square'\ncolumns = 12\nrows = 12\nterrain = 'land'\n\
         labels = { columns = 'numbers', rows = 'numbers', row_digits = 1 }",
    );
    let problems = spec.check();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].path, ["labels"]);
    assert!(build_seeded(&spec, 0, 2).is_err());
}

// ---------------------------------------------------------------- specs

#[test]
fn every_kind_parses_from_toml() {
    let square = parse(
        r#"
        kind = "square"
        columns = 3
        rows = 2
        neighbours = 8
        layout = ["a.b", "..."]
        legend = { "." = "land", "a" = { terrain = "land", home = 0 }, "b" = { terrain = "hill", home = 1, name = "Keep" } }
        walls = [{ between = ["A0", "A1"], kind = "wall" }]
        labels = { row_digits = 1 }
        "#,
    );
    let grid = build_seeded(&square, 0, 2).unwrap();
    assert_eq!(grid.home_spaces(0).collect::<Vec<_>>(), [id(&grid, "A0")]);
    assert_eq!(grid.space(id(&grid, "C0")).name.as_deref(), Some("Keep"));
    assert!(matches!(parse("kind = 'offset'\ncolumns = 2\nrows = 2\nterrain = 'land'"), BoardSpec::Offset(_)));
    assert!(matches!(territory_spec(10, 10, 4, "hex"), BoardSpec::Territories(_)));
    assert!(matches!(
        parse("kind = 'rings'\nrings = [{ id = 'r', spaces = ['land'], closed = false }]"),
        BoardSpec::Rings(_)
    ));
    assert!(matches!(parse("kind = 'graph'\nspaces = [{ id = 'a', terrain = 'land' }]"), BoardSpec::Graph(_)));
}

#[test]
fn unknown_keys_are_rejected() {
    let rejected = [
        "kind = 'square'\ncolumns = 3\nrows = 3\nterrain = 'land'\ncolour = 'red'",
        "kind = 'squares'\ncolumns = 3\nrows = 3",
        "columns = 3\nrows = 3",
        "kind = 'square'\ncolumns = 3\nrows = 3\nterrain = 'land'\nlabels = { row_digit = 1 }",
        "kind = 'square'\ncolumns = 3\nrows = 3\nlayout = ['...','...','...']\nlegend = { '.' = { terrain = 'land', hom = 1 } }",
        "kind = 'square'\ncolumns = 3\nrows = 3\nterrain = 'land'\nwalls = [{ between = ['A00', 'A01'], kind = 'wall', height = 2 }]",
        "kind = 'offset'\ncolumns = 3\nrows = 3\ngenerate = { kind = 'land_water', land = 'land', water = 'water', share = 0.2 }",
        "kind = 'territories'\ncolumns = 9\nrows = 9\nterritories = 4\nterrain = 'land'\nsize = 3",
        "kind = 'rings'\nrings = [{ id = 'r', spaces = ['land'], closed = false, oneway = true }]",
        "kind = 'rings'\nrings = [{ id = 'r', spaces = { count = 3, terrain = 'land', colour = 1 } }]",
        "kind = 'rings'\nrings = [{ id = 'r', spaces = ['land'], closed = false }]\nlinks = [{ a = 'r:0', b = 'r:0', oneway = true }]",
        "kind = 'graph'\nspaces = [{ id = 'a', terrain = 'land', position = [0, 0] }]",
        "kind = 'graph'\nspaces = [{ id = 'a', terrain = 'land' }]\nlinks = [{ a = 'a', b = 'a', walls = 'x' }]",
    ];
    for text in rejected {
        assert!(toml::from_str::<BoardSpec>(text).is_err(), "accepted:\n{text}");
    }
}

fn paths(spec: &BoardSpec) -> Vec<Vec<String>> {
    spec.check().into_iter().map(|problem| problem.path).collect()
}

fn has_problem(spec: &BoardSpec, path: &[&str]) -> SpecProblem {
    spec.check()
        .into_iter()
        .find(|problem| problem.path == path)
        .unwrap_or_else(|| panic!("no problem at {path:?}; found {:?}", paths(spec)))
}

#[test]
fn check_locates_grid_problems() {
    let spec = parse(
        r#"
        kind = "square"
        columns = 3
        rows = 4
        neighbours = 6
        layout = ["...", "..", "..?", "x.."]
        legend = { "." = "land", "x" = { empty = true }, "ab" = "hill", "h" = { home = 1 } }
        walls = [
            { between = ["A0O", "B00"], kind = "wall" },
            { between = ["A00", "C00"], kind = "wall" },
            { between = ["A03", "B03"], kind = "wall" },
        ]
        "#,
    );
    has_problem(&spec, &["neighbours"]);
    has_problem(&spec, &["layout", "1"]);
    assert!(has_problem(&spec, &["layout", "2"]).message.contains('?'));
    has_problem(&spec, &["legend", "ab"]);
    has_problem(&spec, &["legend", "h"]);
    // The layout is broken, so walls cannot be checked yet; fix it and they are.
    let BoardSpec::Square(mut square) = spec else { unreachable!() };
    square.neighbours = 4;
    square.layout = vec!["...".into(), "...".into(), "...".into(), "x..".into()];
    square.legend.retain(|key, _| key == "." || key == "x");
    let fixed = BoardSpec::Square(square);
    assert_eq!(
        paths(&fixed),
        vec![key_path!["walls", 0, "between"], key_path!["walls", 1, "between"], key_path!["walls", 2, "between"]]
    );
    let misspelt = has_problem(&fixed, &["walls", "0", "between"]);
    assert_eq!(misspelt.suggestion.as_deref(), Some("A00"));
    assert!(misspelt.to_string().starts_with("board.walls.0.between: there is no space `A0O`"));
    assert!(fixed.check()[1].message.contains("not adjacent"));
    assert!(fixed.check()[2].message.contains("no space `A03`"), "holes have no label");

    let rows = parse("kind = 'square'\ncolumns = 2\nrows = 3\nlayout = ['..', '..']\nlegend = { '.' = 'land' }");
    assert_eq!(paths(&rows), vec![key_path!["layout"]]);
    assert_eq!(paths(&parse("kind = 'square'\ncolumns = 0\nrows = 3\nterrain = 'land'")), vec![key_path!["columns"]]);
    assert_eq!(paths(&parse("kind = 'offset'\ncolumns = 3\nrows = 2000\nterrain = 'land'")), vec![key_path!["rows"]]);
    assert_eq!(
        paths(&parse("kind = 'square'\ncolumns = 1000\nrows = 1000\nterrain = 'land'")),
        vec![key_path!["rows"]]
    );
    assert_eq!(paths(&parse("kind = 'square'\ncolumns = 3\nrows = 3")), vec![key_path!["terrain"]]);
    let generated = parse(
        "kind = 'offset'\ncolumns = 3\nrows = 1\nlayout = ['...']\nlegend = { '.' = 'land' }\n\
         generate = { kind = 'land_water', land = 'land', water = 'water', water_share = 1.5, smoothing = 99 }",
    );
    assert_eq!(
        paths(&generated),
        vec![key_path!["generate"], key_path!["generate", "water_share"], key_path!["generate", "smoothing"]]
    );
    let digits = parse("kind = 'square'\ncolumns = 3\nrows = 3\nterrain = 'land'\nlabels = { row_digits = 1000000 }");
    assert_eq!(paths(&digits), vec![key_path!["labels", "row_digits"]]);
}

#[test]
fn check_locates_ring_problems() {
    let spec = parse(
        r#"
        kind = "rings"
        [[rings]]
        id = "outer"
        spaces = { count = 5, terrain = "road" }
        names = ["a", "b", "c", "d", "e", "f"]
        overrides = [{ index = 5, home = 0 }, { index = 1 }, { index = 1 }]
        [[rings]]
        id = "outer"
        spaces = ["land", "land"]
        [[rings]]
        id = "in:ner"
        spaces = []
        [[links]]
        a = "outr:0"
        b = "outer:9"
        [[links]]
        a = "outer:0"
        b = "outer:1"
        [[links]]
        a = "outer"
        b = "outer:x"
        "#,
    );
    has_problem(&spec, &["rings", "0", "names"]);
    has_problem(&spec, &["rings", "0", "overrides", "0", "index"]);
    has_problem(&spec, &["rings", "0", "overrides", "2", "index"]);
    has_problem(&spec, &["rings", "1", "id"]);
    has_problem(&spec, &["rings", "1", "closed"]);
    has_problem(&spec, &["rings", "2", "id"]);
    has_problem(&spec, &["rings", "2", "spaces"]);
    has_problem(&spec, &["rings", "1", "label_prefix"]);
    assert_eq!(has_problem(&spec, &["links", "0", "a"]).suggestion.as_deref(), Some("outer"));
    assert!(has_problem(&spec, &["links", "0", "b"]).message.contains("0 to 4"));
    assert!(has_problem(&spec, &["links", "1"]).message.contains("already connected"));
    has_problem(&spec, &["links", "2", "a"]);
    has_problem(&spec, &["links", "2", "b"]);
    assert!(build_seeded(&spec, 0, 2).is_err());
    assert_eq!(paths(&parse("kind = 'rings'\nrings = []")), vec![key_path!["rings"]]);
    let huge = parse("kind = 'rings'\nrings = [{ id = 'r', spaces = { count = 4000000000, terrain = 'road' } }]");
    assert_eq!(paths(&huge), vec![key_path!["rings"]]);
}

#[test]
fn check_locates_graph_and_territory_problems() {
    let graph = parse(
        r#"
        kind = "graph"
        spaces = [{ id = "alpha", terrain = "land" }, { id = "alpha", terrain = "land" }, { id = "beta", pos = [nan, 0] }]
        links = [["alpha", "bta"], { a = "gamma", b = "beta" }, ["alpha", "alpha"], ["beta", "alpha"], { a = "alpha", b = "beta" }]
        "#,
    );
    has_problem(&graph, &["spaces", "1", "id"]);
    has_problem(&graph, &["spaces", "2", "terrain"]);
    has_problem(&graph, &["spaces", "2", "pos"]);
    assert_eq!(has_problem(&graph, &["links", "0", "1"]).suggestion.as_deref(), Some("beta"));
    has_problem(&graph, &["links", "1", "a"]);
    has_problem(&graph, &["links", "2"]);
    assert!(has_problem(&graph, &["links", "4"]).message.contains("already linked"));
    assert_eq!(paths(&parse("kind = 'graph'\nspaces = []")), vec![key_path!["spaces"]]);

    let crowded = territory_spec(10, 10, 20, "hex");
    assert_eq!(paths(&crowded), vec![key_path!["territories"]]);
    let sizes = parse(
        "kind = 'territories'\ncolumns = 10\nrows = 10\nterritories = 1\ncells_per_territory = { min = 5, max = 2 }\nterrain = 'land'",
    );
    assert_eq!(paths(&sizes), vec![key_path!["territories"], key_path!["cells_per_territory"]]);
}

#[test]
fn terrain_names_are_listed_with_paths_and_checked_on_build() {
    let spec = parse(
        r#"
        kind = "square"
        columns = 2
        rows = 1
        layout = ["ab"]
        legend = { "a" = "land", "b" = { terrain = "marsh" } }
        walls = [{ between = ["A00", "B00"], kind = "fence" }]
        "#,
    );
    assert_eq!(
        spec.terrain_names(),
        vec![
            (key_path!["legend", "a"], "land".to_string()),
            (key_path!["legend", "b", "terrain"], "marsh".to_string()),
            (key_path!["walls", 0, "kind"], "fence".to_string()),
        ]
    );
    let error = build_seeded(&spec, 0, 2).unwrap_err();
    assert!(error.contains("board.legend.b.terrain: unknown terrain `marsh`"), "{error}");
    assert!(error.contains("board.walls.0.kind"), "{error}");

    let rings = parse(
        "kind = 'rings'\nlinks = [{ a = 'r:0', b = 'r:2', wall = 'w' }]\n\
         rings = [{ id = 'r', spaces = ['x', 'y', 'z'], overrides = [{ index = 1, terrain = 'q' }] }]",
    );
    let names: Vec<String> =
        rings.terrain_names().into_iter().map(|(path, name)| format!("{}={name}", path.join("."))).collect();
    assert_eq!(
        names,
        [
            "rings.0.spaces.0=x",
            "rings.0.spaces.1=y",
            "rings.0.spaces.2=z",
            "rings.0.overrides.0.terrain=q",
            "links.0.wall=w"
        ]
    );
}

#[test]
fn schema_describes_every_kind() {
    let schema = serde_json::to_value(schemars::schema_for!(BoardSpec)).unwrap();
    let text = schema.to_string();
    for kind in ["square", "offset", "territories", "rings", "graph", "land_water"] {
        assert!(text.contains(&format!("\"const\":\"{kind}\"")), "schema lacks {kind}");
    }
    let variants = schema["oneOf"].as_array().expect("one schema per kind");
    assert_eq!(variants.len(), 5);
    for variant in variants {
        assert_eq!(variant["additionalProperties"], false, "{variant}");
        assert!(variant["properties"]["kind"].is_object(), "kind is allowed: {variant}");
        assert!(variant["description"].is_string());
    }
    assert!(text.contains("cellular") || text.contains("averaging"), "generator documented");
}

// ---------------------------------------------------------------- boards as data

#[test]
fn boards_round_trip_through_saves() {
    let boards = [
        board(COST_LAYOUT),
        board(
            "kind = 'offset'\ncolumns = 4\nrows = 3\nlayout = ['..#.', '....', '.#..']\nlegend = { '.' = 'land', '#' = { empty = true } }",
        ),
        build_seeded(&territory_spec(20, 16, 8, "hex"), 9, 4).unwrap(),
        board("kind = 'rings'\nrings = [{ id = 'r', spaces = { count = 5, terrain = 'road' }, one_way = true }]"),
    ];
    for original in boards {
        let json = serde_json::to_string(&original).unwrap();
        let loaded: Board = serde_json::from_str(&json).unwrap();
        assert_eq!(loaded, original);
        assert_eq!(serde_json::to_string(&loaded).unwrap(), json);
        for a in original.space_ids() {
            assert_eq!(loaded.neighbors(a), original.neighbors(a));
            for b in original.space_ids() {
                assert_eq!(loaded.distance(a, b), original.distance(a, b));
            }
        }
    }
}

#[test]
fn damaged_saves_are_errors_not_panics() {
    let json = serde_json::to_string(&board(COST_LAYOUT)).unwrap();
    let damaged = [
        json.replacen("\"b\":1", "\"b\":99", 1),
        json.replacen("\"b\":1", "\"b\":0", 1),
        json.replacen("\"label\":\"B00\"", "\"label\":\"A00\"", 1),
        json.replacen("\"col\":1", "\"col\":40", 1),
        json.replacen("\"columns\":4", "\"columns\":0", 1),
    ];
    for text in damaged {
        assert_ne!(text, json, "the damage applied");
        assert!(serde_json::from_str::<Board>(&text).is_err(), "{text}");
    }
}

#[test]
fn fixed_boards_draw_no_randomness() {
    let mut rng = GameRng::from_seed(42);
    let before = rng.snapshot();
    let mut ctx = BuildContext { terrain: &terrain_table, seats: 3, rng: &mut rng };
    for text in [COST_LAYOUT, "kind = 'graph'\nterrain = 'land'\nspaces = [{ id = 'a' }]"] {
        parse(text).build(&mut ctx).unwrap();
    }
    assert_eq!(rng.snapshot(), before);
}

#[test]
fn territory_cells_and_lattice_lookups() {
    let map = build_seeded(&territory_spec(12, 10, 4, "hex"), 2, 2).unwrap();
    let cell = map.cell_at(3, 4).unwrap();
    assert_eq!((cell.col, cell.row), (3, 4));
    assert_eq!(cell.space, map.space_at(3, 4));
    assert!(map.cell_at(12, 0).is_none());
    assert!(map.cells().iter().any(|cell| cell.space.is_none()), "sea surrounds the land");
    assert_eq!(map.lattice_neighbors(0, 0).count(), 2);
    assert_eq!(map.lattice_neighbors(5, 5).count(), 6);
    let graph = board("kind = 'graph'\nterrain = 'land'\nspaces = [{ id = 'a' }]");
    assert_eq!(graph.lattice_neighbors(0, 0).count(), 0);
    assert!(graph.cell_at(0, 0).is_none() && graph.space_at(0, 0).is_none());
}

/// The examples given in the modding reference, one per board kind, kept building.
const REFERENCE_EXAMPLES: [&str; 5] = [
    r#"
    kind = "square"
    columns = 4
    rows = 3
    neighbours = 4
    layout = ["1..2", ".##.", "...."]
    legend = { "." = "land", '#' = "rock", "1" = { terrain = "land", home = 0 }, "2" = { terrain = "land", home = 1 } }
    walls = [{ between = ["A01", "A02"], kind = "wall" }]
    labels = { columns = "letters", rows = "numbers", row_digits = 2 }
    "#,
    r#"
    kind = "offset"
    columns = 30
    rows = 20
    offset = "odd_rows"
    generate = { kind = "land_water", land = "land", water = "water", water_share = 0.3, smoothing = 3, connected = true }
    "#,
    r#"
    kind = "territories"
    columns = 28
    rows = 24
    cell = "hex"
    territories = 30
    equal_shares = true
    cells_per_territory = { min = 6, max = 14 }
    terrain = "land"
    compact = true
    "#,
    r#"
    kind = "rings"
    links = [{ a = "outer:0", b = "inner:0" }, { a = "inner:2", b = "spur:0", one_way = true, wall = "wall" }]
    [[rings]]
    id = "outer"
    spaces = { count = 40, terrain = "road" }
    one_way = true
    names = ["Start"]
    overrides = [{ index = 10, terrain = "hill", home = 0 }]
    [[rings]]
    id = "inner"
    spaces = ["land", "water", "land", "land"]
    [[rings]]
    id = "spur"
    spaces = ["land", "land"]
    closed = false
    label_prefix = "S"
    first_number = 1
    "#,
    r#"
    kind = "graph"
    terrain = "land"
    spaces = [{ id = "north", pos = [0, 0], home = 0 }, { id = "south", pos = [0, 2], terrain = "water", name = "The South" }, { id = "east" }]
    links = [["north", "south"], { a = "south", b = "east", one_way = true, wall = "wall" }]
    "#,
];

#[test]
fn reference_examples_build() {
    let counts = [12, 600, 30, 46, 3];
    for (text, expected) in REFERENCE_EXAMPLES.iter().zip(counts) {
        let spec = parse(text);
        assert!(spec.check().is_empty(), "{:?}", spec.check());
        let built = build_seeded(&spec, 11, 3).unwrap_or_else(|error| panic!("{error}\n{text}"));
        assert_eq!(built.space_count(), expected, "{text}");
    }
}

#[test]
fn the_empty_board_answers_every_query_harmlessly() {
    let empty = Board::empty();
    assert_eq!((empty.space_count(), empty.edge_count()), (0, 0));
    assert_eq!(empty.distance(0, 0), None);
    assert!(empty.neighbors(0).is_empty() && empty.find("A00").is_none() && empty.get_space(0).is_none());
    let mut scratch = Scratch::new();
    assert_eq!(empty.largest_group(|_| true, &mut scratch), 0);
    let json = serde_json::to_string(&empty).unwrap();
    assert_eq!(serde_json::from_str::<Board>(&json).unwrap(), empty);
}
