//! Random territory maps: territories of lattice cells grown one at a time from the coast of the
//! land placed so far, so the whole map is one landmass and every territory touches another.

use std::collections::BTreeSet;

use super::lattice::Lattice;
use super::spec::check_lattice_size;
use super::{
    Board, BuildContext, Cell, Edge, MAX_SIDE, MAX_SPACES, Space, SpaceId, SpecProblem, TerritorySpec, Topology,
};
use crate::rng::GameRng;

/// The most cells one territory may have; larger sizes make generation slow for no benefit.
pub(crate) const MAX_TERRITORY_CELLS: u32 = 4096;
/// How many times a whole map is regenerated before the build gives up.
const MAP_ATTEMPTS: u32 = 32;
/// How many start cells a territory tries before the map is regenerated.
const START_ATTEMPTS: u32 = 16;
/// Marks a cell that belongs to no territory yet.
const FREE: u32 = u32::MAX;
/// Marks a cell on the lattice's edge, kept as sea so the land always has sea around it.
const SHORE: u32 = u32::MAX - 1;

/// Whether the lattice is big enough to keep its outer ring of cells as sea.
fn has_margin(columns: u32, rows: u32) -> bool {
    columns >= 3 && rows >= 3
}

/// How many cells territories may use: all but the outer ring when there is a margin.
fn usable_cells(columns: u32, rows: u32) -> u64 {
    if has_margin(columns, rows) {
        u64::from(columns - 2) * u64::from(rows - 2)
    } else {
        u64::from(columns) * u64::from(rows)
    }
}

/// Static problems of a territory map spec.
pub(crate) fn check(spec: &TerritorySpec) -> Vec<SpecProblem> {
    let mut problems = Vec::new();
    let max_cells = MAX_SIDE as usize * MAX_SIDE as usize;
    let size_ok = check_lattice_size(spec.columns, spec.rows, max_cells, &mut problems);
    if spec.territories < 2 {
        problems.push(SpecProblem::new(
            key_path!["territories"],
            format!("a territory map needs at least 2 territories, not {}", spec.territories),
        ));
    } else if spec.territories as usize > MAX_SPACES {
        problems.push(SpecProblem::new(
            key_path!["territories"],
            format!("must be at most {MAX_SPACES}, not {}", spec.territories),
        ));
    }
    let (min, max) = spec.cells_per_territory.bounds();
    let sizes_ok = 1 <= min && min <= max && max <= MAX_TERRITORY_CELLS;
    if !sizes_ok {
        problems.push(SpecProblem::new(
            key_path!["cells_per_territory"],
            format!("needs 1 ≤ min ≤ max ≤ {MAX_TERRITORY_CELLS}, not min {min} and max {max}"),
        ));
    }
    let cells = usable_cells(spec.columns, spec.rows);
    if size_ok && sizes_ok && u64::from(spec.territories) * u64::from(min) > cells {
        problems.push(SpecProblem::new(
            key_path!["territories"],
            format!(
                "{} territories of at least {min} cells do not fit in the {cells} lattice cells \
                 inside the sea margin",
                spec.territories
            ),
        ));
    }
    problems
}

/// The number of territories for this many seats: rounded down to a multiple of the seats (at
/// least one per seat) when shares are equal.
pub(crate) fn territory_count(spec: &TerritorySpec, seats: u32) -> u32 {
    let seats = seats.max(1);
    if spec.equal_shares { (spec.territories / seats * seats).max(seats) } else { spec.territories }
}

/// Generates and builds a checked territory map.
pub(crate) fn build(spec: &TerritorySpec, ctx: &mut BuildContext) -> Result<Board, String> {
    let count = territory_count(spec, ctx.seats);
    let (min, max) = spec.cells_per_territory.bounds();
    let lattice = Lattice { columns: spec.columns, rows: spec.rows, shape: spec.cell.lattice_shape() };
    if count < 2 {
        return Err(format!("a territory map needs at least 2 territories, not {count}"));
    }
    if count as usize > MAX_SPACES {
        return Err(format!("{count} territories are more than the limit of {MAX_SPACES}"));
    }
    if u64::from(count) * u64::from(min) > usable_cells(spec.columns, spec.rows) {
        return Err(format!(
            "{count} territories of at least {min} cells do not fit in {}×{} lattice cells \
             (the outer ring stays sea)",
            spec.columns, spec.rows
        ));
    }
    let terrain = ctx.terrain_id(&spec.terrain)?;
    let mut grower = Grower::new(lattice, spec.compact);
    for _ in 0..MAP_ATTEMPTS {
        if grower.grow_map(count, min, max, ctx.rng) {
            return assemble_map(spec, &lattice, &grower.owner, count, terrain);
        }
    }
    Err(format!(
        "could not fit {count} territories of {min} to {max} cells into {}×{} lattice cells in \
         {MAP_ATTEMPTS} attempts; make the lattice larger or the territories smaller",
        spec.columns, spec.rows
    ))
}

/// Turns a finished cell ownership map into a board: one space per territory at the centroid of
/// its cells, one edge per pair of territories whose cells share a side.
fn assemble_map(
    spec: &TerritorySpec,
    lattice: &Lattice,
    owner: &[u32],
    count: u32,
    terrain: u16,
) -> Result<Board, String> {
    let mut sums = vec![([0.0f64; 2], 0u32); count as usize];
    let mut borders = BTreeSet::new();
    let mut cells = Vec::with_capacity(owner.len());
    for (index, &territory) in owner.iter().enumerate() {
        let (col, row) = lattice.coords(index);
        let space = (territory < count).then_some(territory);
        cells.push(Cell { col, row, space });
        let Some(territory) = space else { continue };
        let [x, y] = lattice.position(col, row);
        let sum = &mut sums[territory as usize];
        sum.0[0] += f64::from(x);
        sum.0[1] += f64::from(y);
        sum.1 += 1;
        for neighbor in lattice.neighbor_indices(index) {
            let other = owner[neighbor];
            if other < count && other != territory {
                borders.insert((territory.min(other), territory.max(other)));
            }
        }
    }
    let spaces = sums
        .iter()
        .enumerate()
        .map(|(territory, &([x, y], cell_count))| {
            let cell_count = f64::from(cell_count.max(1));
            Space {
                label: (territory + 1).to_string(),
                pos: [(x / cell_count) as f32, (y / cell_count) as f32],
                col: -1,
                row: -1,
                terrain,
                home: None,
                name: None,
            }
        })
        .collect();
    let edges =
        borders.into_iter().map(|(a, b): (SpaceId, SpaceId)| Edge { a, b, wall: None, one_way: false }).collect();
    let topology = Topology::Territories { columns: spec.columns, rows: spec.rows, cell: spec.cell };
    Board::assemble(topology, spaces, edges, cells)
}

/// A set of cell indices with O(1) insert, remove and uniform pick, whose iteration order depends
/// only on the sequence of operations (never on hashing), so generation is reproducible.
struct CellSet {
    items: Vec<u32>,
    slot: Vec<u32>,
}

impl CellSet {
    fn new(cell_count: usize) -> Self {
        Self { items: Vec::new(), slot: vec![FREE; cell_count] }
    }

    fn insert(&mut self, cell: u32) {
        if self.slot[cell as usize] == FREE {
            self.slot[cell as usize] = self.items.len() as u32;
            self.items.push(cell);
        }
    }

    fn remove(&mut self, cell: u32) {
        let position = self.slot[cell as usize];
        if position == FREE {
            return;
        }
        self.slot[cell as usize] = FREE;
        self.items.swap_remove(position as usize);
        if let Some(&moved) = self.items.get(position as usize) {
            self.slot[moved as usize] = position;
        }
    }

    fn clear(&mut self) {
        for &cell in &self.items {
            self.slot[cell as usize] = FREE;
        }
        self.items.clear();
    }
}

/// Free cells next to the territory being grown, bucketed by how many of their sides touch it,
/// so a weighted random pick costs O(1) instead of a scan over every candidate.
struct Candidates {
    /// `by_touching[k]` holds the candidates touching the territory on `k` sides.
    by_touching: [Vec<u32>; MAX_TOUCHING + 1],
    /// How many sides of each cell touch the territory; 0 for cells that are not candidates.
    touching: Vec<u8>,
    /// Each candidate's position in its bucket.
    slot: Vec<u32>,
    /// How many candidates there are in all buckets.
    count: usize,
}

/// The most neighbours a lattice cell has (hex cells have six, square cells four).
const MAX_TOUCHING: usize = 6;

impl Candidates {
    fn new(cell_count: usize) -> Self {
        Self { by_touching: Default::default(), touching: vec![0; cell_count], slot: vec![0; cell_count], count: 0 }
    }

    fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Takes a cell out of its bucket (if it is a candidate) and returns how many sides touched.
    fn take(&mut self, cell: u32) -> usize {
        let touching = usize::from(self.touching[cell as usize]);
        if touching == 0 {
            return 0;
        }
        let bucket = &mut self.by_touching[touching];
        let position = self.slot[cell as usize] as usize;
        bucket.swap_remove(position);
        if let Some(&moved) = bucket.get(position) {
            self.slot[moved as usize] = position as u32;
        }
        self.touching[cell as usize] = 0;
        self.count -= 1;
        touching
    }

    /// Records that one more side of a free cell touches the territory.
    fn touch(&mut self, cell: u32) {
        let touching = (self.take(cell) + 1).min(MAX_TOUCHING);
        self.touching[cell as usize] = touching as u8;
        self.slot[cell as usize] = self.by_touching[touching].len() as u32;
        self.by_touching[touching].push(cell);
        self.count += 1;
    }

    fn clear(&mut self) {
        for bucket in &mut self.by_touching {
            for &cell in bucket.iter() {
                self.touching[cell as usize] = 0;
            }
            bucket.clear();
        }
        self.count = 0;
    }

    /// A random candidate: uniform, or (when compact) weighted by the square of how many sides
    /// touch the territory, which fills in notches and keeps territories blob-shaped.
    fn pick(&self, compact: bool, rng: &mut GameRng) -> u32 {
        let weight = |touching: usize| if compact { touching * touching } else { 1 };
        let total: usize = self.by_touching.iter().enumerate().map(|(k, bucket)| weight(k) * bucket.len()).sum();
        let mut remaining = rng.below(total.max(1) as u32) as usize;
        for (touching, bucket) in self.by_touching.iter().enumerate().skip(1) {
            let bucket_weight = weight(touching) * bucket.len();
            if remaining < bucket_weight {
                return bucket[remaining / weight(touching)];
            }
            remaining -= bucket_weight;
        }
        // Unreachable while candidates exist; any candidate keeps the result valid regardless.
        self.by_touching.iter().flatten().next().copied().unwrap_or(0)
    }
}

/// The state of one map generation, reused across attempts.
struct Grower {
    lattice: Lattice,
    compact: bool,
    /// The territory owning each cell; `FREE` for unclaimed sea, `SHORE` for the margin.
    owner: Vec<u32>,
    /// Free cells next to land placed so far: where the next territory may start.
    coast: CellSet,
    /// Free cells next to the territory being grown.
    candidates: Candidates,
    /// Cells of the territory being grown.
    members: Vec<u32>,
}

impl Grower {
    fn new(lattice: Lattice, compact: bool) -> Self {
        let cell_count = lattice.cell_count();
        Self {
            lattice,
            compact,
            owner: vec![FREE; cell_count],
            coast: CellSet::new(cell_count),
            candidates: Candidates::new(cell_count),
            members: Vec::new(),
        }
    }

    /// One attempt at a whole map; false when some territory could not reach its minimum size.
    fn grow_map(&mut self, count: u32, min: u32, max: u32, rng: &mut GameRng) -> bool {
        self.owner.fill(FREE);
        let (columns, rows) = (self.lattice.columns, self.lattice.rows);
        if has_margin(columns, rows) {
            for (index, owner) in self.owner.iter_mut().enumerate() {
                let (col, row) = self.lattice.coords(index);
                if col == 0 || row == 0 || col as u32 == columns - 1 || row as u32 == rows - 1 {
                    *owner = SHORE;
                }
            }
        }
        self.coast.clear();
        for territory in 0..count {
            if !self.place_territory(territory, min, max, rng) {
                return false;
            }
        }
        true
    }

    /// Places one territory, trying several start cells; commits it to the coast on success.
    fn place_territory(&mut self, territory: u32, min: u32, max: u32, rng: &mut GameRng) -> bool {
        for _ in 0..START_ATTEMPTS {
            let start = if territory == 0 {
                self.central_cell(rng)
            } else if self.coast.items.is_empty() {
                return false;
            } else {
                self.coastal_start(rng)
            };
            let target = rng.range_inclusive(i64::from(min), i64::from(max)) as usize;
            self.grow_territory(territory, start, target, rng);
            if self.members.len() >= min as usize {
                for i in 0..self.members.len() {
                    let cell = self.members[i];
                    self.coast.remove(cell);
                    for neighbor in self.lattice.neighbor_indices(cell as usize) {
                        if self.owner[neighbor] == FREE {
                            self.coast.insert(neighbor as u32);
                        }
                    }
                }
                return true;
            }
            for &cell in &self.members {
                self.owner[cell as usize] = FREE;
            }
        }
        false
    }

    /// The more central of two random coast cells: the land still grows in random directions
    /// but stays near the middle of the lattice instead of drifting into a corner.
    fn coastal_start(&self, rng: &mut GameRng) -> u32 {
        let items = &self.coast.items;
        let first = items[rng.below(items.len() as u32) as usize];
        let second = items[rng.below(items.len() as u32) as usize];
        let off_centre = |cell: u32| {
            let (col, row) = self.lattice.coords(cell as usize);
            let dx = 2 * i64::from(col) - i64::from(self.lattice.columns) + 1;
            let dy = 2 * i64::from(row) - i64::from(self.lattice.rows) + 1;
            dx * dx + dy * dy
        };
        if off_centre(second) < off_centre(first) { second } else { first }
    }

    /// A random cell in the middle half of the lattice (never in the sea margin), where the
    /// first territory starts.
    fn central_cell(&self, rng: &mut GameRng) -> u32 {
        let margin = u32::from(has_margin(self.lattice.columns, self.lattice.rows));
        let pick = |size: u32, rng: &mut GameRng| {
            let low = (size / 4).max(margin);
            let high = (size - size / 4).min(size - margin);
            low + rng.below(high - low)
        };
        let col = pick(self.lattice.columns, rng);
        let row = pick(self.lattice.rows, rng);
        self.lattice.index(col as i32, row as i32) as u32
    }

    /// Grows territory `territory` from `start` onto free cells until it has `target` cells or
    /// is boxed in. Leaves its cells in `members`, owned by `territory`.
    fn grow_territory(&mut self, territory: u32, start: u32, target: usize, rng: &mut GameRng) {
        self.members.clear();
        self.candidates.clear();
        self.claim(territory, start);
        while self.members.len() < target && !self.candidates.is_empty() {
            let pick = self.candidates.pick(self.compact, rng);
            self.claim(territory, pick);
        }
    }

    /// Gives a free cell to the territory and makes its free neighbours candidates.
    fn claim(&mut self, territory: u32, cell: u32) {
        self.owner[cell as usize] = territory;
        self.candidates.take(cell);
        self.members.push(cell);
        for neighbor in self.lattice.neighbor_indices(cell as usize) {
            if self.owner[neighbor] == FREE {
                self.candidates.touch(neighbor as u32);
            }
        }
    }
}
