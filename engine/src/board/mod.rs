//! The board: a graph of spaces with coordinates, terrain and drawing positions, built from the
//! `[board]` table of a mod.
//!
//! A [`Board`] is immutable once built. Its adjacency is stored compactly (one flat list of
//! neighbours with per-space offsets) and distances are answered in constant time where a
//! closed form or a precomputed table applies, because rules and computer players query the
//! board thousands of times per game. The board knows nothing about any game: terrain is an
//! opaque [`TerrainId`] that the mod's terrain table resolves, and home spaces are seat numbers.

/// A key path inside the `[board]` table, from parts of any printable type: `key_path!["walls", 0]`.
macro_rules! key_path {
    ($($part:expr),* $(,)?) => {
        vec![$($part.to_string()),*]
    };
}

mod graph;
mod grid;
mod labels;
mod land_water;
mod lattice;
mod queries;
mod rings;
mod spec;
mod territory;

use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use lattice::{Lattice, LatticeShape};

pub use labels::{LabelOrder, LabelSpec, LabelStyle};
pub use lattice::{CellShape, OffsetKind};
pub use queries::{Scratch, searched};
pub use spec::{
    BoardSpec, BuildContext, GenerateSpec, GraphLink, GraphLinkSpec, GraphSpaceSpec, GraphSpec, LandWaterSpec,
    LegendCell, LegendEntry, OffsetSpec, RepeatedSpaces, RingLinkSpec, RingSpaceSpec, RingSpaces, RingSpec, RingsSpec,
    SizeRange, SpecProblem, SquareSpec, TerritorySize, TerritorySpec, WallSpec,
};

/// Index of a space on the board, `0..space_count()`.
pub type SpaceId = u32;
/// Index into the mod's terrain table; the board never interprets it.
pub type TerrainId = u16;
/// Index of an edge (a connection between two spaces), `0..edge_count()`.
pub type EdgeId = u32;

/// The most spaces a board may have; bigger specs are rejected instead of exhausting memory.
pub const MAX_SPACES: usize = 100_000;
/// The most columns or rows a grid or territory lattice may have.
pub const MAX_SIDE: u32 = 1024;
/// Boards with at most this many spaces get an all-pairs distance table at build time.
pub const DISTANCE_TABLE_LIMIT: usize = 512;

/// Marks "no space" in the lattice index.
const NO_SPACE: SpaceId = SpaceId::MAX;

/// One space of the board: a grid square, a hex, a territory, a track position or a graph node.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Space {
    /// The unique name rules, scripts and players use for the space, e.g. `B07` or `outer 3`.
    pub label: String,
    /// Drawing position of the space's centre in board units (one unit per grid cell).
    pub pos: [f32; 2],
    /// Lattice column for grid spaces; -1 where the board has no lattice position for it.
    pub col: i32,
    /// Lattice row for grid spaces; -1 where the board has no lattice position for it.
    pub row: i32,
    /// The space's terrain, resolved through the mod's terrain table.
    pub terrain: TerrainId,
    /// The seat whose home or base this space is, for games that have them.
    pub home: Option<u8>,
    /// An optional display name, shown instead of the label where present.
    pub name: Option<String>,
}

/// A connection between two spaces. Undirected unless `one_way`, in which case movement goes
/// only from `a` to `b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Edge {
    /// One end (the start of a one-way edge).
    pub a: SpaceId,
    /// The other end (the end of a one-way edge).
    pub b: SpaceId,
    /// A wall (or river, fence, …) on this edge, as a terrain the rules may charge for.
    pub wall: Option<TerrainId>,
    /// Whether movement goes only from `a` to `b`.
    pub one_way: bool,
}

/// The kind of board and its lattice dimensions, for drawing and for closed-form distances.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Topology {
    /// A grid of squares with four or (with `diagonals`) eight neighbours.
    Square {
        /// Lattice columns.
        columns: u32,
        /// Lattice rows.
        rows: u32,
        /// Whether corner-touching squares are adjacent.
        diagonals: bool,
    },
    /// A zig-zag grid with six neighbours per space (hexes drawn on an offset lattice).
    Offset {
        /// Lattice columns.
        columns: u32,
        /// Lattice rows.
        rows: u32,
        /// Which rows or columns are shifted half a cell.
        offset: OffsetKind,
    },
    /// Territories made of lattice cells; [`Board::cells`] tells which cell belongs to which.
    Territories {
        /// Lattice columns.
        columns: u32,
        /// Lattice rows.
        rows: u32,
        /// The shape of the lattice cells.
        cell: CellShape,
    },
    /// Concentric rings and tracks of spaces.
    Rings,
    /// An explicit graph of spaces and links.
    Graph,
}

impl Topology {
    /// The lattice the board's spaces or cells sit on, if it has one.
    fn lattice(&self) -> Option<Lattice> {
        match *self {
            Topology::Square { columns, rows, diagonals } => {
                Some(Lattice { columns, rows, shape: LatticeShape::Square { diagonals } })
            }
            Topology::Offset { columns, rows, offset } => {
                Some(Lattice { columns, rows, shape: LatticeShape::Hex(offset) })
            }
            Topology::Territories { columns, rows, cell } => {
                Some(Lattice { columns, rows, shape: cell.lattice_shape() })
            }
            Topology::Rings | Topology::Graph => None,
        }
    }
}

/// One lattice cell of a territory map, for drawing: the territory it belongs to, or `None` for
/// sea.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cell {
    /// Lattice column of the cell.
    pub col: i32,
    /// Lattice row of the cell.
    pub row: i32,
    /// The territory (space) the cell belongs to; `None` for sea.
    pub space: Option<SpaceId>,
}

/// How [`Board::distance`] is answered, chosen once when the board is assembled.
#[derive(Clone)]
enum Metric {
    /// A complete grid whose space ids are row-major cells: a closed form applies.
    Lattice(Lattice),
    /// A small board: `table[a * n + b]`, `u16::MAX` for unreachable. Shared between clones so
    /// copying a game state does not copy the table.
    Table(Arc<[u16]>),
    /// A large irregular board: breadth-first search per query.
    Search,
}

impl std::fmt::Debug for Metric {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Metric::Lattice(lattice) => write!(f, "Lattice({lattice:?})"),
            Metric::Table(table) => write!(f, "Table({} entries)", table.len()),
            Metric::Search => write!(f, "Search"),
        }
    }
}

/// Compressed adjacency: the neighbours of space `s` are `links[start[s]..start[s + 1]]`,
/// sorted by neighbour id so iteration order never depends on how the board was built.
#[derive(Clone, Debug, Default)]
struct Adjacency {
    start: Vec<u32>,
    links: Vec<(SpaceId, EdgeId)>,
}

impl Adjacency {
    /// Builds the adjacency; `undirected` adds one-way edges in both directions too.
    fn new(space_count: usize, edges: &[Edge], undirected: bool) -> Self {
        let both_ways = |edge: &Edge| undirected || !edge.one_way;
        let mut start = vec![0u32; space_count + 1];
        for edge in edges {
            start[edge.a as usize + 1] += 1;
            if both_ways(edge) {
                start[edge.b as usize + 1] += 1;
            }
        }
        for i in 0..space_count {
            start[i + 1] += start[i];
        }
        let mut cursor = start.clone();
        let mut links = vec![(0, 0); start[space_count] as usize];
        for (id, edge) in edges.iter().enumerate() {
            links[cursor[edge.a as usize] as usize] = (edge.b, id as EdgeId);
            cursor[edge.a as usize] += 1;
            if both_ways(edge) {
                links[cursor[edge.b as usize] as usize] = (edge.a, id as EdgeId);
                cursor[edge.b as usize] += 1;
            }
        }
        for space in 0..space_count {
            links[start[space] as usize..start[space + 1] as usize].sort_unstable();
        }
        Self { start, links }
    }

    fn of(&self, space: SpaceId) -> &[(SpaceId, EdgeId)] {
        let space = space as usize;
        match (self.start.get(space), self.start.get(space + 1)) {
            (Some(&from), Some(&to)) => &self.links[from as usize..to as usize],
            _ => &[],
        }
    }
}

/// A built board: spaces, edges, lattice cells and the indexes that make queries cheap.
///
/// Boards are saved with their spaces, edges and cells only; the indexes are rebuilt (and the
/// data re-validated) when a save is loaded, so a damaged save gives an error, not a panic.
#[derive(Clone)]
pub struct Board {
    topology: Topology,
    spaces: Vec<Space>,
    edges: Vec<Edge>,
    cells: Vec<Cell>,
    adjacency: Adjacency,
    /// Adjacency ignoring direction, only when some edge is one-way (else `adjacency` serves).
    undirected: Option<Adjacency>,
    /// Space ids sorted by label, for [`Board::find`].
    by_label: Vec<SpaceId>,
    /// The space at each lattice cell (row-major), `NO_SPACE` for holes and sea.
    lattice_index: Vec<SpaceId>,
    metric: Metric,
    /// Tells boards apart for caches of derived data (see [`Scratch`]): every assembled board
    /// gets a new one; a clone keeps it, having the same spaces; a change of terrain in play
    /// gets a new one, since walking costs and sight read the terrain.
    uid: u64,
    /// Tells boards of different shapes apart (the drawing's geometry): like `uid`, but kept
    /// when a space's terrain changes.
    shape: u64,
}

/// The next [`Board`] uid.
static NEXT_BOARD_UID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

fn next_board_uid() -> u64 {
    NEXT_BOARD_UID.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Board")
            .field("topology", &self.topology)
            .field("spaces", &self.spaces)
            .field("edges", &self.edges)
            .field("cells", &self.cells.len())
            .field("metric", &self.metric)
            .finish()
    }
}

impl PartialEq for Board {
    /// Boards are equal when their saved data is; the indexes follow from it.
    fn eq(&self, other: &Self) -> bool {
        self.topology == other.topology
            && self.spaces == other.spaces
            && self.edges == other.edges
            && self.cells == other.cells
    }
}

/// The saved form of a board (borrowed for saving).
#[derive(Serialize)]
struct SavedBoardRef<'a> {
    topology: &'a Topology,
    spaces: &'a [Space],
    edges: &'a [Edge],
    #[serde(skip_serializing_if = "<[Cell]>::is_empty")]
    cells: &'a [Cell],
}

/// The saved form of a board (owned, for loading).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SavedBoard {
    topology: Topology,
    spaces: Vec<Space>,
    edges: Vec<Edge>,
    #[serde(default)]
    cells: Vec<Cell>,
}

impl Serialize for Board {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        SavedBoardRef { topology: &self.topology, spaces: &self.spaces, edges: &self.edges, cells: &self.cells }
            .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Board {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let saved = SavedBoard::deserialize(deserializer)?;
        Board::assemble(saved.topology, saved.spaces, saved.edges, saved.cells).map_err(serde::de::Error::custom)
    }
}

impl Board {
    /// Validates the parts of a board and builds its indexes. Every builder and save loader
    /// goes through here, so the invariants the queries rely on hold for every board.
    pub(crate) fn assemble(
        topology: Topology,
        spaces: Vec<Space>,
        edges: Vec<Edge>,
        cells: Vec<Cell>,
    ) -> Result<Board, String> {
        let space_count = spaces.len();
        if space_count > MAX_SPACES {
            return Err(format!("the board has {space_count} spaces; the limit is {MAX_SPACES}"));
        }
        if edges.len() >= EdgeId::MAX as usize / 2 {
            return Err(format!("the board has too many edges ({})", edges.len()));
        }
        let lattice = topology.lattice();
        if let Some(lattice) = lattice
            && (!(1..=MAX_SIDE).contains(&lattice.columns) || !(1..=MAX_SIDE).contains(&lattice.rows))
        {
            return Err(format!("the lattice must have 1 to {MAX_SIDE} columns and rows"));
        }

        let mut by_label: Vec<SpaceId> = (0..space_count as SpaceId).collect();
        by_label.sort_unstable_by(|&x, &y| spaces[x as usize].label.cmp(&spaces[y as usize].label));
        if let Some(pair) =
            by_label.windows(2).find(|pair| spaces[pair[0] as usize].label == spaces[pair[1] as usize].label)
        {
            return Err(format!("two spaces are labelled `{}`", spaces[pair[0] as usize].label));
        }

        let mut pairs = Vec::with_capacity(edges.len());
        for edge in &edges {
            if edge.a as usize >= space_count || edge.b as usize >= space_count {
                return Err(format!("an edge joins {} and {}, which are not spaces", edge.a, edge.b));
            }
            if edge.a == edge.b {
                return Err(format!("an edge joins `{}` to itself", spaces[edge.a as usize].label));
            }
            pairs.push((edge.a.min(edge.b), edge.a.max(edge.b)));
        }
        pairs.sort_unstable();
        if let Some(pair) = pairs.windows(2).find(|pair| pair[0] == pair[1]) {
            return Err(format!(
                "`{}` and `{}` are connected twice; one edge per pair of spaces",
                spaces[pair[0].0 as usize].label, spaces[pair[0].1 as usize].label
            ));
        }

        let lattice_index = match (topology, lattice) {
            (Topology::Territories { .. }, Some(lattice)) => territory_lattice_index(&lattice, &cells, space_count)?,
            (_, Some(lattice)) => {
                if !cells.is_empty() {
                    return Err("only territory maps have lattice cells".into());
                }
                grid_lattice_index(&lattice, &spaces)?
            }
            _ => {
                if !cells.is_empty() {
                    return Err("only territory maps have lattice cells".into());
                }
                Vec::new()
            }
        };

        let adjacency = Adjacency::new(space_count, &edges, false);
        let undirected = edges.iter().any(|edge| edge.one_way).then(|| Adjacency::new(space_count, &edges, true));
        let mut board = Board {
            topology,
            spaces,
            edges,
            cells,
            adjacency,
            undirected,
            by_label,
            lattice_index,
            metric: Metric::Search,
            uid: next_board_uid(),
            shape: 0,
        };
        board.shape = board.uid;
        board.metric = board.choose_metric();
        Ok(board)
    }

    /// A board with no spaces, for placeholder game states that hold no game.
    pub fn empty() -> Self {
        Board {
            topology: Topology::Graph,
            spaces: Vec::new(),
            edges: Vec::new(),
            cells: Vec::new(),
            adjacency: Adjacency::new(0, &[], false),
            undirected: None,
            by_label: Vec::new(),
            lattice_index: Vec::new(),
            metric: Metric::Table(Arc::from([])),
            uid: 0,
            shape: 0,
        }
    }

    /// A closed form for complete grids, a table for small boards, search otherwise.
    fn choose_metric(&self) -> Metric {
        if let (Topology::Square { .. } | Topology::Offset { .. }, Some(lattice)) =
            (self.topology, self.topology.lattice())
            && self.is_complete_grid(&lattice)
        {
            return Metric::Lattice(lattice);
        }
        if self.spaces.len() <= DISTANCE_TABLE_LIMIT {
            return Metric::Table(self.distance_table().into());
        }
        Metric::Search
    }

    /// Whether every lattice cell is a space with id `row * columns + col` and the edges are
    /// exactly the two-way lattice links, so lattice distance equals graph distance.
    fn is_complete_grid(&self, lattice: &Lattice) -> bool {
        if self.spaces.len() != lattice.cell_count() || self.undirected.is_some() {
            return false;
        }
        let mut expected = Vec::with_capacity(8);
        self.spaces.iter().enumerate().all(|(id, space)| {
            if (space.col, space.row) != lattice.coords(id) {
                return false;
            }
            expected.clear();
            expected.extend(lattice.neighbor_indices(id).map(|cell| cell as SpaceId));
            expected.sort_unstable();
            let actual = self.adjacency.of(id as SpaceId);
            actual.len() == expected.len()
                && actual.iter().zip(&expected).all(|(&(neighbor, _), &want)| neighbor == want)
        })
    }

    /// All-pairs step counts by one breadth-first search per space.
    fn distance_table(&self) -> Vec<u16> {
        let count = self.spaces.len();
        let mut table = vec![u16::MAX; count * count];
        let mut queue = Vec::with_capacity(count);
        for source in 0..count {
            let row = &mut table[source * count..(source + 1) * count];
            row[source] = 0;
            queue.clear();
            queue.push(source as SpaceId);
            let mut head = 0;
            while let Some(&space) = queue.get(head) {
                head += 1;
                let next = row[space as usize] + 1;
                for &(neighbor, _) in self.adjacency.of(space) {
                    if row[neighbor as usize] == u16::MAX {
                        row[neighbor as usize] = next;
                        queue.push(neighbor);
                    }
                }
            }
        }
        table
    }

    /// The board's identity for caches of derived data (drawing geometry, walking costs): a
    /// new one for every assembled board, kept by clones.
    pub fn uid(&self) -> u64 {
        self.uid
    }

    /// The identity of the board's shape (its spaces, edges and cells, not their terrain): what
    /// a drawing of it may keep while terrain changes in play.
    pub fn shape_uid(&self) -> u64 {
        self.shape
    }

    /// Changes a space's terrain, in play (`space.terrain = 'water'`): the board gets a new
    /// [`Board::uid`], so walking costs and sight worked out before are not reused.
    pub fn set_terrain(&mut self, space: SpaceId, terrain: TerrainId) {
        if let Some(changed) = self.spaces.get_mut(space as usize) {
            changed.terrain = terrain;
            self.uid = next_board_uid();
        }
    }

    /// How many spaces the board has; space ids are `0..space_count()`.
    pub fn space_count(&self) -> usize {
        self.spaces.len()
    }

    /// Every space id in order, for iterating without casts.
    pub fn space_ids(&self) -> std::ops::Range<SpaceId> {
        0..self.spaces.len() as SpaceId
    }

    /// How many edges the board has; edge ids are `0..edge_count()`.
    pub fn edge_count(&self) -> usize {
        self.edges.len()
    }

    /// The space with this id.
    ///
    /// # Panics
    /// If `id` is not a space of this board; use [`Board::get_space`] for untrusted ids.
    pub fn space(&self, id: SpaceId) -> &Space {
        &self.spaces[id as usize]
    }

    /// The space with this id, or `None` for an id that is not on this board.
    pub fn get_space(&self, id: SpaceId) -> Option<&Space> {
        self.spaces.get(id as usize)
    }

    /// Every space, indexed by id.
    pub fn spaces(&self) -> &[Space] {
        &self.spaces
    }

    /// The spaces one step away from `id` with the edge leading there, sorted by neighbour id.
    /// One-way edges appear only at their start. Empty for an id not on the board.
    pub fn neighbors(&self, id: SpaceId) -> &[(SpaceId, EdgeId)] {
        self.adjacency.of(id)
    }

    /// Neighbours ignoring edge direction, for connectivity questions such as groups.
    pub(crate) fn undirected_neighbors(&self, id: SpaceId) -> &[(SpaceId, EdgeId)] {
        self.undirected.as_ref().unwrap_or(&self.adjacency).of(id)
    }

    /// The edge with this id.
    ///
    /// # Panics
    /// If `id` is not an edge of this board; use [`Board::get_edge`] for untrusted ids.
    pub fn edge(&self, id: EdgeId) -> &Edge {
        &self.edges[id as usize]
    }

    /// The edge with this id, or `None` for an id that is not on this board.
    pub fn get_edge(&self, id: EdgeId) -> Option<&Edge> {
        self.edges.get(id as usize)
    }

    /// Every edge, indexed by id.
    pub fn edges(&self) -> &[Edge] {
        &self.edges
    }

    /// The edge joining `a` and `b` in either direction (also a one-way edge from `b` to `a`;
    /// check [`Edge::one_way`] or use [`Board::neighbors`] to know whether `a → b` is allowed).
    pub fn edge_between(&self, a: SpaceId, b: SpaceId) -> Option<EdgeId> {
        let links = self.undirected_neighbors(a);
        links.binary_search_by_key(&b, |&(neighbor, _)| neighbor).ok().map(|i| links[i].1)
    }

    /// The space with this label, if any. Labels are unique.
    pub fn find(&self, label: &str) -> Option<SpaceId> {
        self.by_label
            .binary_search_by(|&id| self.spaces[id as usize].label.as_str().cmp(label))
            .ok()
            .map(|i| self.by_label[i])
    }

    /// The kind of board and its lattice dimensions.
    pub fn topology(&self) -> &Topology {
        &self.topology
    }

    /// The lattice cells of a territory map (row-major, sea included) for drawing; empty for
    /// other boards, whose spaces carry their own lattice coordinates.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// The territory-map cell at a lattice position, if the board is a territory map and the
    /// position is inside its lattice.
    pub fn cell_at(&self, col: i32, row: i32) -> Option<&Cell> {
        let lattice = self.topology.lattice()?;
        if self.cells.is_empty() || !lattice.contains(col, row) {
            return None;
        }
        self.cells.get(lattice.index(col, row))
    }

    /// The space at a lattice position: the grid space there, or the territory owning that cell.
    /// `None` outside the lattice, on holes and sea, and on boards without a lattice.
    pub fn space_at(&self, col: i32, row: i32) -> Option<SpaceId> {
        let lattice = self.topology.lattice()?;
        if !lattice.contains(col, row) {
            return None;
        }
        self.lattice_index.get(lattice.index(col, row)).copied().filter(|&id| id != NO_SPACE)
    }

    /// The lattice positions next to `(col, row)`, inside the lattice, for drawing borders
    /// between cells. Empty on boards without a lattice or for positions outside it.
    pub fn lattice_neighbors(&self, col: i32, row: i32) -> impl Iterator<Item = (i32, i32)> + use<> {
        let lattice = self.topology.lattice().unwrap_or(Lattice {
            columns: 0,
            rows: 0,
            shape: LatticeShape::Square { diagonals: false },
        });
        lattice.neighbors(col, row)
    }

    /// The spaces that are `seat`'s home or base, in id order.
    pub fn home_spaces(&self, seat: u8) -> impl Iterator<Item = SpaceId> + '_ {
        self.space_ids().filter(move |&id| self.spaces[id as usize].home == Some(seat))
    }
}

/// For a grid: the space at each cell, checking that spaces sit on distinct in-bounds cells.
fn grid_lattice_index(lattice: &Lattice, spaces: &[Space]) -> Result<Vec<SpaceId>, String> {
    let mut index = vec![NO_SPACE; lattice.cell_count()];
    for (id, space) in spaces.iter().enumerate() {
        if !lattice.contains(space.col, space.row) {
            return Err(format!(
                "space `{}` is at column {}, row {}, outside the grid",
                space.label, space.col, space.row
            ));
        }
        let slot = &mut index[lattice.index(space.col, space.row)];
        if *slot != NO_SPACE {
            return Err(format!("two spaces share column {}, row {}", space.col, space.row));
        }
        *slot = id as SpaceId;
    }
    Ok(index)
}

/// For a territory map: the territory at each cell, checking the cells cover the lattice in
/// row-major order and name real spaces.
fn territory_lattice_index(lattice: &Lattice, cells: &[Cell], space_count: usize) -> Result<Vec<SpaceId>, String> {
    if cells.len() != lattice.cell_count() {
        return Err(format!(
            "a territory map of {}×{} cells lists {} cells",
            lattice.columns,
            lattice.rows,
            cells.len()
        ));
    }
    let mut index = Vec::with_capacity(cells.len());
    for (i, cell) in cells.iter().enumerate() {
        if (cell.col, cell.row) != lattice.coords(i) {
            return Err(format!("territory cell {i} is out of order"));
        }
        match cell.space {
            Some(space) if space as usize >= space_count => {
                return Err(format!("territory cell {i} names space {space}, which does not exist"));
            }
            Some(space) => index.push(space),
            None => index.push(NO_SPACE),
        }
    }
    Ok(index)
}

#[cfg(test)]
mod tests;
