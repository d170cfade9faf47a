//! Square and offset grids: checking their specs and building them from a layout picture, a
//! default terrain or a terrain generator.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::labels::MAX_LABEL_DIGITS;
use super::lattice::LatticeShape;
use super::spec::{GridView, check_lattice_size};
use super::{
    Board, BuildContext, Edge, GenerateSpec, LabelSpec, LegendCell, LegendEntry, MAX_SPACES, NO_SPACE, Space, SpaceId,
    SpecProblem, TerrainId, Topology, land_water,
};
use crate::diag::did_you_mean;

/// What the spec says about one lattice cell, before terrain names are resolved.
#[derive(Clone, Copy)]
struct CellPlan<'a> {
    terrain: Option<&'a str>,
    home: Option<u8>,
    name: Option<&'a str>,
    empty: bool,
}

impl<'a> CellPlan<'a> {
    fn of_terrain(terrain: Option<&'a str>) -> Self {
        Self { terrain, home: None, name: None, empty: false }
    }

    fn of_legend(entry: &'a LegendEntry) -> Self {
        match entry {
            LegendEntry::Terrain(terrain) => Self::of_terrain(Some(terrain)),
            LegendEntry::Cell(LegendCell { terrain, home, name, empty }) => {
                Self { terrain: terrain.as_deref(), home: *home, name: name.as_deref(), empty: *empty }
            }
        }
    }
}

/// The plan of every cell (row-major) from the layout, or from the default terrain when there
/// is no layout. `None` when the layout does not fit the grid or uses unknown characters (the
/// checks report those).
fn plan_cells<'a>(view: &GridView<'a>) -> Option<Vec<CellPlan<'a>>> {
    let lattice = view.lattice;
    if view.layout.is_empty() {
        return Some(vec![CellPlan::of_terrain(view.terrain); lattice.cell_count()]);
    }
    if view.layout.len() != lattice.rows as usize {
        return None;
    }
    let mut plans = Vec::with_capacity(lattice.cell_count());
    let mut key = [0u8; 4];
    for line in view.layout {
        if line.chars().count() != lattice.columns as usize {
            return None;
        }
        for character in line.chars() {
            let entry = view.legend.get(&*character.encode_utf8(&mut key))?;
            plans.push(CellPlan::of_legend(entry));
        }
    }
    Some(plans)
}

/// Static problems of a square or offset grid spec.
pub(crate) fn check(view: &GridView) -> Vec<SpecProblem> {
    let mut problems = Vec::new();
    let lattice = view.lattice;
    let size_ok = check_lattice_size(lattice.columns, lattice.rows, MAX_SPACES, &mut problems);
    let labels_ok = check_label_spec(view.labels, &mut problems);

    for (key, entry) in view.legend {
        if key.chars().count() != 1 {
            problems.push(SpecProblem::new(key_path!["legend", key], "a legend key must be exactly one character"));
        }
        if let LegendEntry::Cell(cell) = entry {
            if cell.empty && (cell.terrain.is_some() || cell.home.is_some() || cell.name.is_some()) {
                problems.push(SpecProblem::new(
                    key_path!["legend", key],
                    "an `empty` cell has no space, so it cannot have a terrain, home or name",
                ));
            } else if !cell.empty && cell.terrain.is_none() {
                problems.push(SpecProblem::new(
                    key_path!["legend", key],
                    "needs a `terrain` (or `empty = true` for a hole in the board)",
                ));
            }
        }
    }

    if !view.layout.is_empty() {
        check_layout(view, size_ok, &mut problems);
    } else if view.generate.is_none() && view.terrain.is_none() {
        problems.push(SpecProblem::new(
            key_path!["terrain"],
            "a grid without a `layout` or `generate` needs a default `terrain`",
        ));
    }

    if let Some(GenerateSpec::LandWater(generator)) = view.generate {
        if !(0.0..=1.0).contains(&generator.water_share) {
            problems.push(SpecProblem::new(
                key_path!["generate", "water_share"],
                format!("must be between 0 and 1, not {}", generator.water_share),
            ));
        }
        if generator.smoothing > super::land_water::MAX_SMOOTHING {
            problems.push(SpecProblem::new(
                key_path!["generate", "smoothing"],
                format!("must be at most {}, not {}", super::land_water::MAX_SMOOTHING, generator.smoothing),
            ));
        }
    }

    if size_ok
        && labels_ok
        && let Some(plans) = plan_cells(view)
    {
        check_labels_and_walls(view, &plans, &mut problems);
    }
    problems
}

/// Layout problems: wrong row count or length, unknown characters, clash with a generator.
fn check_layout(view: &GridView, size_ok: bool, problems: &mut Vec<SpecProblem>) {
    let lattice = view.lattice;
    if view.generate.is_some() {
        problems.push(SpecProblem::new(
            key_path!["generate"],
            "cannot be combined with `layout`; a grid is either drawn or generated",
        ));
    }
    if size_ok && view.layout.len() != lattice.rows as usize {
        problems.push(SpecProblem::new(
            key_path!["layout"],
            format!("has {} rows but `rows` is {}", view.layout.len(), lattice.rows),
        ));
    }
    let known: Vec<&str> = view.legend.keys().map(String::as_str).collect();
    let mut reported = BTreeSet::new();
    let mut key = [0u8; 4];
    for (r, line) in view.layout.iter().enumerate() {
        let length = line.chars().count();
        if size_ok && length != lattice.columns as usize {
            problems.push(SpecProblem::new(
                key_path!["layout", r],
                format!("has {length} characters but `columns` is {}", lattice.columns),
            ));
        }
        for (c, character) in line.chars().enumerate() {
            let as_key = &*character.encode_utf8(&mut key);
            if !view.legend.contains_key(as_key) && reported.insert(character) {
                problems.push(SpecProblem::new(
                    key_path!["layout", r],
                    format!(
                        "character `{character}` (column {c}) is not in the legend; it has {}",
                        if known.is_empty() { "no keys".to_string() } else { known.join(" ") }
                    ),
                ));
            }
        }
    }
}

/// Zero-padding limits of the label style; returns whether labels can be computed.
fn check_label_spec(labels: &LabelSpec, problems: &mut Vec<SpecProblem>) -> bool {
    let mut ok = true;
    for (key, digits) in [("column_digits", labels.column_digits), ("row_digits", labels.row_digits)] {
        if digits > MAX_LABEL_DIGITS {
            problems.push(SpecProblem::new(
                key_path!["labels", key],
                format!("must be at most {MAX_LABEL_DIGITS}, not {digits}"),
            ));
            ok = false;
        }
    }
    ok
}

/// Label uniqueness, and that every wall names two adjacent spaces and is not repeated.
fn check_labels_and_walls(view: &GridView, plans: &[CellPlan], problems: &mut Vec<SpecProblem>) {
    let lattice = view.lattice;
    // A BTreeMap, not a HashMap, so "did you mean" ties resolve the same way on every run.
    let mut cell_of_label: BTreeMap<String, usize> = BTreeMap::new();
    for (index, plan) in plans.iter().enumerate() {
        if plan.empty {
            continue;
        }
        let (col, row) = lattice.coords(index);
        let label = view.labels.label(col as u32, row as u32);
        if let Some(previous) = cell_of_label.insert(label.clone(), index) {
            let (other_col, other_row) = lattice.coords(previous);
            problems.push(SpecProblem::new(
                key_path!["labels"],
                format!(
                    "column {other_col} row {other_row} and column {col} row {row} are both \
                     labelled `{label}`; add a `separator` or more digits"
                ),
            ));
            return;
        }
    }

    let mut walled = BTreeSet::new();
    for (w, wall) in view.walls.iter().enumerate() {
        let mut ends = [None, None];
        for (end, label) in wall.between.iter().enumerate() {
            match cell_of_label.get(label) {
                Some(&index) => ends[end] = Some(index),
                None => problems.push(
                    SpecProblem::new(key_path!["walls", w, "between"], format!("there is no space `{label}`"))
                        .suggest(did_you_mean(label, cell_of_label.keys().map(String::as_str))),
                ),
            }
        }
        let [Some(a), Some(b)] = ends else { continue };
        let [label_a, label_b] = &wall.between;
        if a == b {
            problems.push(SpecProblem::new(
                key_path!["walls", w, "between"],
                format!("a wall needs two different spaces, not `{label_a}` twice"),
            ));
        } else if !lattice.neighbor_indices(a).any(|neighbor| neighbor == b) {
            problems.push(SpecProblem::new(
                key_path!["walls", w, "between"],
                format!("`{label_a}` and `{label_b}` are not adjacent"),
            ));
        } else if !walled.insert((a.min(b), a.max(b))) {
            problems.push(SpecProblem::new(
                key_path!["walls", w],
                format!("there is already a wall between `{label_a}` and `{label_b}`"),
            ));
        }
    }
}

/// A cell that is a space, with its terrain resolved.
#[derive(Clone, Copy)]
struct ResolvedCell<'a> {
    terrain: TerrainId,
    home: Option<u8>,
    name: Option<&'a str>,
}

/// Builds a checked square or offset grid. Spaces are numbered row-major (top row first),
/// skipping holes.
pub(crate) fn build(view: &GridView, ctx: &mut BuildContext) -> Result<Board, String> {
    let lattice = view.lattice;
    let cells: Vec<Option<ResolvedCell>> = if let Some(GenerateSpec::LandWater(generator)) = view.generate {
        let land = ctx.terrain_id(&generator.land)?;
        let water = ctx.terrain_id(&generator.water)?;
        land_water::generate(&lattice, generator, ctx.rng)
            .into_iter()
            .map(|is_water| {
                let terrain = if is_water { water } else { land };
                Some(ResolvedCell { terrain, home: None, name: None })
            })
            .collect()
    } else {
        let plans = plan_cells(view).ok_or("the layout does not match the grid")?;
        let mut resolved = Vec::with_capacity(plans.len());
        for plan in plans {
            if plan.empty {
                resolved.push(None);
            } else {
                let terrain = plan.terrain.ok_or("a layout cell has no terrain")?;
                resolved.push(Some(ResolvedCell {
                    terrain: ctx.terrain_id(terrain)?,
                    home: plan.home,
                    name: plan.name,
                }));
            }
        }
        resolved
    };

    let mut space_at_cell = vec![NO_SPACE; lattice.cell_count()];
    let mut spaces = Vec::new();
    for (index, cell) in cells.iter().enumerate() {
        let Some(ResolvedCell { terrain, home, name }) = *cell else {
            continue;
        };
        let (col, row) = lattice.coords(index);
        space_at_cell[index] = spaces.len() as SpaceId;
        spaces.push(Space {
            label: view.labels.label(col as u32, row as u32),
            pos: lattice.position(col, row),
            col,
            row,
            terrain,
            home,
            name: name.map(str::to_string),
        });
    }

    let mut edges = Vec::new();
    for (index, &a) in space_at_cell.iter().enumerate() {
        if a == NO_SPACE {
            continue;
        }
        for neighbor in lattice.neighbor_indices(index) {
            let b = space_at_cell[neighbor];
            if neighbor > index && b != NO_SPACE {
                edges.push(Edge { a, b, wall: None, one_way: false });
            }
        }
    }

    if !view.walls.is_empty() {
        let space_of_label: HashMap<&str, SpaceId> =
            spaces.iter().enumerate().map(|(id, space)| (space.label.as_str(), id as SpaceId)).collect();
        let edge_of_pair: HashMap<(SpaceId, SpaceId), usize> =
            edges.iter().enumerate().map(|(id, edge)| ((edge.a.min(edge.b), edge.a.max(edge.b)), id)).collect();
        let mut walls = Vec::with_capacity(view.walls.len());
        for wall in view.walls {
            let [a, b] = &wall.between;
            let ends = (space_of_label.get(a.as_str()), space_of_label.get(b.as_str()));
            let (Some(&a_id), Some(&b_id)) = ends else {
                return Err(format!("a wall names `{a}` and `{b}`, which are not both spaces"));
            };
            let edge = edge_of_pair
                .get(&(a_id.min(b_id), a_id.max(b_id)))
                .ok_or_else(|| format!("`{a}` and `{b}` are not adjacent"))?;
            walls.push((*edge, ctx.terrain_id(&wall.kind)?));
        }
        for (edge, terrain) in walls {
            edges[edge].wall = Some(terrain);
        }
    }

    let (columns, rows) = (lattice.columns, lattice.rows);
    let topology = match lattice.shape {
        LatticeShape::Square { diagonals } => Topology::Square { columns, rows, diagonals },
        LatticeShape::Hex(offset) => Topology::Offset { columns, rows, offset },
    };
    let walled = !view.walls.is_empty();
    let mut board = Board::assemble(topology, spaces, edges, Vec::new())?;
    if walled && matches!(lattice.shape, LatticeShape::Square { diagonals: true }) {
        board.close_walled_corners();
    }
    Ok(board)
}
