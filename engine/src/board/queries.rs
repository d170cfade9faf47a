//! Graph queries on a board: step distances, spaces within a range, movement under terrain costs,
//! connected groups, and lines of sight across the board's cells. These run thousands of times
//! per simulated game, so they reuse a caller-owned [`Scratch`] instead of allocating.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use super::lattice::{LatticeShape, OffsetKind, from_axial, to_axial};
use super::{Board, EdgeId, Metric, SpaceId, TerrainId, Topology};

thread_local! {
    /// Spaces the board searches of this thread may have visited, in all (a search counts the
    /// board's size when it begins): the rules language charges what a call cost by it.
    static SEARCHED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The running count of spaces this thread's board searches may have visited; the difference
/// between two readings is the work of the searches in between.
pub fn searched() -> u64 {
    SEARCHED.get()
}

fn note_searched(spaces: usize) {
    SEARCHED.set(SEARCHED.get().wrapping_add(spaces as u64));
}

/// Reusable working memory for board searches. Keep one per thread (or per computer player) and
/// pass it to every query: after the first use on a board, queries allocate nothing.
///
/// Visited marks carry a generation number, so starting a new search is O(1) instead of
/// clearing a per-space array.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    marks: Vec<u32>,
    generation: u32,
    costs: Vec<u32>,
    queue: Vec<SpaceId>,
    heap: BinaryHeap<Reverse<(u32, SpaceId)>>,
    walks: WalkFields,
    sight: SightCentres,
}

/// The cell each territory of a territory map is seen from (see [`Board::line_of_sight`]),
/// worked out once per board.
#[derive(Clone, Debug, Default)]
struct SightCentres {
    /// The uid of the board the centres belong to; 0 before the first use.
    board: u64,
    /// Per space, the lattice `(column, row)` of its centre cell; `None` for a territory
    /// without cells.
    cells: Vec<Option<(i32, i32)>>,
}

/// Walking costs from every space to a few targets, kept between queries (see
/// [`Board::walk_cost`]).
#[derive(Clone, Debug, Default)]
struct WalkFields {
    /// The uid of the board the fields belong to.
    board: u64,
    /// Target, the key of the costs paid (see [`Board::walk_cost`]), and the cost of the
    /// cheapest walk from each space to it (`u32::MAX`: none).
    fields: Vec<(SpaceId, Vec<u32>, Vec<u32>)>,
}

/// Most walking-cost fields a scratch keeps per board: enough for every piece of a game.
const MAX_WALK_FIELDS: usize = 64;

impl Scratch {
    /// Empty scratch space; it grows to the board's size on first use.
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts a new search over `space_count` spaces: nothing marked, queues empty.
    fn begin(&mut self, space_count: usize) {
        note_searched(space_count);
        if self.marks.len() < space_count {
            self.marks.resize(space_count, 0);
            self.costs.resize(space_count, 0);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // After 2^32 searches the old marks could look current again: clear them once.
            self.marks.fill(0);
            self.generation = 1;
        }
        self.queue.clear();
        self.heap.clear();
    }

    /// Marks a space; true if it was not marked yet in this search.
    fn mark(&mut self, space: SpaceId) -> bool {
        let mark = &mut self.marks[space as usize];
        let fresh = *mark != self.generation;
        *mark = self.generation;
        fresh
    }

    fn is_marked(&self, space: SpaceId) -> bool {
        self.marks[space as usize] == self.generation
    }
}

impl Board {
    /// The fewest steps from `a` to `b` following edges (one-way edges only forwards), ignoring
    /// terrain and walls. `None` when `b` cannot be reached or either id is not on the board.
    ///
    /// Constant time on complete grids (Manhattan, Chebyshev or hex distance) and on boards of
    /// at most [`super::DISTANCE_TABLE_LIMIT`] spaces (a table built with the board). Larger
    /// irregular boards search, allocating a scratch buffer; use [`Board::distance_with`] in
    /// loops there.
    pub fn distance(&self, a: SpaceId, b: SpaceId) -> Option<u32> {
        self.distance_with(a, b, &mut Scratch::new())
    }

    /// [`Board::distance`] with caller-owned scratch space for boards that need a search.
    pub fn distance_with(&self, a: SpaceId, b: SpaceId, scratch: &mut Scratch) -> Option<u32> {
        let count = self.spaces.len();
        if a as usize >= count || b as usize >= count {
            return None;
        }
        match &self.metric {
            Metric::Lattice(lattice) => Some(lattice.distance(lattice.coords(a as usize), lattice.coords(b as usize))),
            Metric::Table(table) => {
                let steps = table[a as usize * count + b as usize];
                (steps != u16::MAX).then_some(u32::from(steps))
            }
            Metric::Search => self.search_distance(a, b, scratch),
        }
    }

    /// Breadth-first search from `a` until `b` is found.
    fn search_distance(&self, a: SpaceId, b: SpaceId, scratch: &mut Scratch) -> Option<u32> {
        if a == b {
            return Some(0);
        }
        scratch.begin(self.spaces.len());
        scratch.mark(a);
        scratch.costs[a as usize] = 0;
        scratch.queue.push(a);
        let mut head = 0;
        while let Some(&space) = scratch.queue.get(head) {
            head += 1;
            let next = scratch.costs[space as usize] + 1;
            for &(neighbor, _) in self.neighbors(space) {
                if scratch.mark(neighbor) {
                    if neighbor == b {
                        return Some(next);
                    }
                    scratch.costs[neighbor as usize] = next;
                    scratch.queue.push(neighbor);
                }
            }
        }
        None
    }

    /// Replaces `out` with every space at most `max_steps` steps from `origin` (see
    /// [`Board::distance`]), **excluding `origin` itself**, sorted by id. Empty for an id not
    /// on the board. Allocates only on large irregular boards; see [`Board::within_with`].
    pub fn within(&self, origin: SpaceId, max_steps: u32, out: &mut Vec<SpaceId>) {
        self.within_with(origin, max_steps, &mut Scratch::new(), out);
    }

    /// [`Board::within`] with caller-owned scratch space for boards that need a search.
    pub fn within_with(&self, origin: SpaceId, max_steps: u32, scratch: &mut Scratch, out: &mut Vec<SpaceId>) {
        out.clear();
        let count = self.spaces.len();
        if origin as usize >= count {
            return;
        }
        match &self.metric {
            Metric::Lattice(lattice) => {
                // One step moves at most one column and one row on every lattice, so the
                // answer lies in this box; row-major scanning yields ids in order.
                let (col, row) = lattice.coords(origin as usize);
                let reach = i64::from(max_steps);
                let clamp = |centre: i32, size: u32| {
                    let low = (i64::from(centre) - reach).max(0);
                    let high = (i64::from(centre) + reach).min(i64::from(size) - 1);
                    (low as i32, high as i32)
                };
                let (first_col, last_col) = clamp(col, lattice.columns);
                let (first_row, last_row) = clamp(row, lattice.rows);
                for r in first_row..=last_row {
                    for c in first_col..=last_col {
                        if (c, r) != (col, row) && lattice.distance((col, row), (c, r)) <= max_steps {
                            out.push(lattice.index(c, r) as SpaceId);
                        }
                    }
                }
            }
            Metric::Table(table) => {
                let distances = &table[origin as usize * count..(origin as usize + 1) * count];
                for (space, &steps) in distances.iter().enumerate() {
                    if space != origin as usize && steps != u16::MAX && u32::from(steps) <= max_steps {
                        out.push(space as SpaceId);
                    }
                }
            }
            Metric::Search => {
                scratch.begin(count);
                scratch.mark(origin);
                scratch.costs[origin as usize] = 0;
                scratch.queue.push(origin);
                let mut head = 0;
                while let Some(&space) = scratch.queue.get(head) {
                    head += 1;
                    let steps = scratch.costs[space as usize];
                    if steps >= max_steps {
                        continue;
                    }
                    for &(neighbor, _) in self.neighbors(space) {
                        if scratch.mark(neighbor) {
                            scratch.costs[neighbor as usize] = steps + 1;
                            scratch.queue.push(neighbor);
                            out.push(neighbor);
                        }
                    }
                }
                out.sort_unstable();
            }
        }
    }

    /// Replaces `out` with every space reachable from `start` for a total cost of at most
    /// `budget`, with its cheapest cost, sorted by space id; `start` itself is excluded.
    ///
    /// `cost(from, to, edge)` gives the price of one step (terrain, walls and occupants are the
    /// caller's business), or `None` when the step is not allowed. One-way edges are followed
    /// forwards only. Dijkstra's algorithm; allocates nothing once `scratch` has grown.
    pub fn reachable(
        &self,
        start: SpaceId,
        budget: u32,
        mut cost: impl FnMut(SpaceId, SpaceId, EdgeId) -> Option<u32>,
        scratch: &mut Scratch,
        out: &mut Vec<(SpaceId, u32)>,
    ) {
        out.clear();
        if start as usize >= self.spaces.len() {
            return;
        }
        scratch.begin(self.spaces.len());
        scratch.mark(start);
        scratch.costs[start as usize] = 0;
        scratch.heap.push(Reverse((0, start)));
        while let Some(Reverse((spent, space))) = scratch.heap.pop() {
            // Each improvement pushes a new entry; entries costlier than the best are stale.
            if spent > scratch.costs[space as usize] {
                continue;
            }
            if space != start {
                out.push((space, spent));
            }
            for &(neighbor, edge) in self.neighbors(space) {
                let Some(step) = cost(space, neighbor, edge) else {
                    continue;
                };
                let Some(total) = spent.checked_add(step).filter(|&total| total <= budget) else {
                    continue;
                };
                let improves = !scratch.is_marked(neighbor) || total < scratch.costs[neighbor as usize];
                if improves {
                    scratch.mark(neighbor);
                    scratch.costs[neighbor as usize] = total;
                    scratch.heap.push(Reverse((total, neighbor)));
                }
            }
        }
        out.sort_unstable_by_key(|&(space, _)| space);
    }

    /// Replaces `out` with every space where a walk from `start` that spends exactly `budget`
    /// ends, each once with the cost, sorted by space id. The walk never enters a space twice,
    /// `start` included, so it cannot spend points going back and forth; where ways part, every
    /// way counts. `cost` is as for [`Board::reachable`]. `step_taken` is called for every step
    /// tried, so the caller can count the work (walks on an open grid grow as 3^n); when it
    /// returns false the search stops with what it found.
    pub fn reachable_exactly(
        &self,
        start: SpaceId,
        budget: u32,
        mut cost: impl FnMut(SpaceId, SpaceId, EdgeId) -> Option<u32>,
        out: &mut Vec<(SpaceId, u32)>,
        mut step_taken: impl FnMut() -> bool,
    ) {
        out.clear();
        if start as usize >= self.spaces.len() {
            return;
        }
        let mut on_path = vec![false; self.spaces.len()];
        let mut ends = vec![false; self.spaces.len()];
        on_path[start as usize] = true;
        // Depth-first, with an explicit stack of (space, points spent, next neighbour to try).
        let mut stack: Vec<(SpaceId, u32, usize)> = vec![(start, 0, 0)];
        while let Some(&mut (space, spent, ref mut next)) = stack.last_mut() {
            let neighbors = self.neighbors(space);
            let Some(&(neighbor, edge)) = neighbors.get(*next) else {
                on_path[space as usize] = false;
                stack.pop();
                continue;
            };
            *next += 1;
            if on_path[neighbor as usize] {
                continue;
            }
            if !step_taken() {
                break;
            }
            let Some(total) = cost(space, neighbor, edge).and_then(|step| spent.checked_add(step)) else {
                continue;
            };
            if total == budget {
                ends[neighbor as usize] = true;
            } else if total < budget {
                on_path[neighbor as usize] = true;
                stack.push((neighbor, total, 0));
            }
        }
        out.extend(ends.iter().enumerate().filter(|(_, end)| **end).map(|(space, _)| (space as SpaceId, budget)));
    }

    /// The fewest movement points a walk from `from` to `to` costs, paying `enter(space, edge)`
    /// for each space entered over an edge (`None`: not that way); `None` when there is no such
    /// walk. One-way edges are followed forwards only.
    ///
    /// The cost from every space to `to` is worked out at once and kept in `scratch`, so asking
    /// again about the same target is a lookup: rules ask about the same targets (where the
    /// pieces stand) over and over. So `enter` must be the same function on every call with
    /// the same scratch, board and `key` (walkers that pay differently give different keys).
    pub fn walk_cost(
        &self,
        from: SpaceId,
        to: SpaceId,
        key: &[u32],
        enter: impl Fn(SpaceId, EdgeId) -> Option<u32>,
        scratch: &mut Scratch,
    ) -> Option<u32> {
        let count = self.spaces.len();
        if from as usize >= count || to as usize >= count {
            return None;
        }
        if from == to {
            return Some(0);
        }
        if scratch.walks.board != self.uid {
            scratch.walks.board = self.uid;
            scratch.walks.fields.clear();
        }
        let index = match scratch.walks.fields.iter().position(|(target, k, _)| *target == to && k == key) {
            Some(index) => index,
            None => {
                note_searched(count);
                let field = self.walk_field(to, &enter, &mut scratch.heap);
                if scratch.walks.fields.len() >= MAX_WALK_FIELDS {
                    scratch.walks.fields.remove(0);
                }
                scratch.walks.fields.push((to, key.to_vec(), field));
                scratch.walks.fields.len() - 1
            }
        };
        let cost = scratch.walks.fields[index].2[from as usize];
        (cost != u32::MAX).then_some(cost)
    }

    /// The cost of the cheapest walk from every space to `to`: Dijkstra's algorithm backwards
    /// from the target, where stepping from `v` onto `u` over edge `e` costs `enter(u, e)`.
    fn walk_field(
        &self,
        to: SpaceId,
        enter: &impl Fn(SpaceId, EdgeId) -> Option<u32>,
        heap: &mut BinaryHeap<Reverse<(u32, SpaceId)>>,
    ) -> Vec<u32> {
        let mut field = vec![u32::MAX; self.spaces.len()];
        field[to as usize] = 0;
        heap.clear();
        heap.push(Reverse((0, to)));
        while let Some(Reverse((spent, space))) = heap.pop() {
            if spent > field[space as usize] {
                continue;
            }
            // Walks reach `space` by entering it; a space that cannot be entered can only
            // be where a walk starts.
            for &(neighbor, edge) in self.undirected_neighbors(space) {
                if self.undirected.is_some() && self.edge_between(neighbor, space).is_none() {
                    continue;
                }
                let Some(step) = enter(space, edge) else { continue };
                let total = spent.saturating_add(step);
                if total < field[neighbor as usize] {
                    field[neighbor as usize] = total;
                    heap.push(Reverse((total, neighbor)));
                }
            }
        }
        heap.clear();
        field
    }

    /// Floods from a marked `start` that passes `filter`, over edges in either direction,
    /// appending the group to `scratch.queue`; returns its size. Spaces failing the filter are
    /// marked too, so the filter runs at most once per space per search.
    fn flood(&self, start: SpaceId, filter: &impl Fn(SpaceId) -> bool, scratch: &mut Scratch) -> usize {
        let first = scratch.queue.len();
        scratch.queue.push(start);
        let mut head = first;
        while let Some(&space) = scratch.queue.get(head) {
            head += 1;
            for &(neighbor, _) in self.undirected_neighbors(space) {
                if scratch.mark(neighbor) && filter(neighbor) {
                    scratch.queue.push(neighbor);
                }
            }
        }
        scratch.queue.len() - first
    }

    /// The size of the largest connected set of spaces that all pass `filter` (edges count in
    /// both directions, even one-way ones); 0 when no space passes.
    pub fn largest_group(&self, filter: impl Fn(SpaceId) -> bool, scratch: &mut Scratch) -> u32 {
        scratch.begin(self.spaces.len());
        let mut largest = 0;
        for space in self.space_ids() {
            if scratch.mark(space) && filter(space) {
                scratch.queue.clear();
                largest = largest.max(self.flood(space, &filter, scratch));
            }
        }
        largest as u32
    }

    /// Every maximal connected set of spaces passing `filter` (edges count in both directions),
    /// each sorted by id, the groups ordered by their smallest member. Allocates the result.
    pub fn groups(&self, filter: impl Fn(SpaceId) -> bool, scratch: &mut Scratch) -> Vec<Vec<SpaceId>> {
        scratch.begin(self.spaces.len());
        let mut groups = Vec::new();
        // Scanning ids in order finds each group at its smallest member, so groups come out in
        // the documented order without sorting them.
        for space in self.space_ids() {
            if scratch.mark(space) && filter(space) {
                scratch.queue.clear();
                self.flood(space, &filter, scratch);
                let mut group = scratch.queue.clone();
                group.sort_unstable();
                groups.push(group);
            }
        }
        groups
    }

    /// Replaces `out` with the connected set of spaces passing `filter` that contains `start`,
    /// sorted by id; empty when `start` fails the filter or is not on the board.
    pub fn group_of(
        &self,
        start: SpaceId,
        filter: impl Fn(SpaceId) -> bool,
        scratch: &mut Scratch,
        out: &mut Vec<SpaceId>,
    ) {
        out.clear();
        if start as usize >= self.spaces.len() || !filter(start) {
            return;
        }
        scratch.begin(self.spaces.len());
        scratch.mark(start);
        self.flood(start, &filter, scratch);
        out.extend_from_slice(&scratch.queue);
        out.sort_unstable();
    }
}

/// The shape of a lattice's cells, for lines of sight. Cells are addressed in coordinates where
/// straight lines stay straight: `(column, row)` for squares, axial `(q, r)` for hexagons.
#[derive(Clone, Copy, Debug)]
enum CellGeometry {
    Square,
    Hex(OffsetKind),
}

/// A cell in [`CellGeometry`] coordinates.
type GeometryCell = (i32, i32);

/// A place on a line of sight: the parameter `(value + ε·nudge) / den` along it (0 at the
/// first centre, 1 at the second), where ε is the infinitesimal distance the line is shifted
/// sideways. Comparing value first and nudge second is exact, so every corner and side the
/// line meets is decided without rounding.
#[derive(Clone, Copy, Debug)]
struct LinePlace {
    value: i64,
    nudge: i64,
    /// Always positive.
    den: i64,
}

impl LinePlace {
    const START: LinePlace = LinePlace { value: 0, nudge: 0, den: 1 };
    const END: LinePlace = LinePlace { value: 1, nudge: 0, den: 1 };

    fn cmp(self, other: LinePlace) -> Ordering {
        (self.value * other.den)
            .cmp(&(other.value * self.den))
            .then((self.nudge * other.den).cmp(&(other.nudge * self.den)))
    }

    fn max(self, other: LinePlace) -> LinePlace {
        if self.cmp(other) == Ordering::Less { other } else { self }
    }

    fn min(self, other: LinePlace) -> LinePlace {
        if self.cmp(other) == Ordering::Greater { other } else { self }
    }
}

impl CellGeometry {
    /// The linear forms that bound a cell: a point `p` lies inside the cell centred on `c`
    /// when `|f(p) − f(c)| < 1` for every form `f`. Squares use doubled coordinates (their sides
    /// are half a cell from the centre); hexagons the differences of cube coordinates
    /// (`x − y`, `y − z`, `z − x` with `x = q`, `z = r`, `y = −q − r`), whose cells are regular
    /// hexagons.
    fn forms(self) -> &'static [(i64, i64)] {
        match self {
            CellGeometry::Square => &[(2, 0), (0, 2)],
            CellGeometry::Hex(_) => &[(2, 1), (-1, -2), (-1, 1)],
        }
    }

    /// The cells sharing a side with a cell. A line shifted off every corner passes from cell
    /// to cell only across sides.
    fn side_neighbours(self) -> &'static [(i32, i32)] {
        match self {
            CellGeometry::Square => &[(1, 0), (-1, 0), (0, 1), (0, -1)],
            CellGeometry::Hex(_) => &[(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)],
        }
    }

    fn cell_at(self, col: i32, row: i32) -> GeometryCell {
        match self {
            CellGeometry::Square => (col, row),
            CellGeometry::Hex(kind) => to_axial(kind, col, row),
        }
    }

    fn lattice_position(self, cell: GeometryCell) -> (i32, i32) {
        match self {
            CellGeometry::Square => cell,
            CellGeometry::Hex(kind) => from_axial(kind, cell.0, cell.1),
        }
    }
}

/// One of the two lines of sight between two cell centres, shifted an infinitesimal distance
/// to one side (`side` is +1 or −1), so it meets no corner and runs along no side.
struct ShiftedLine {
    geometry: CellGeometry,
    start: GeometryCell,
    direction: (i64, i64),
    /// The sideways shift: the direction turned a quarter, times `side`.
    shift: (i64, i64),
}

impl ShiftedLine {
    /// Where the line runs inside `cell`, from where it enters to where it leaves (within the
    /// segment between the centres); `None` when it does not pass through the cell's inside.
    fn inside(&self, cell: GeometryCell) -> Option<(LinePlace, LinePlace)> {
        let (mut enter, mut leave) = (LinePlace::START, LinePlace::END);
        for &(x, y) in self.geometry.forms() {
            let form = |(p, q): (i64, i64)| x * p + y * q;
            let offset =
                form((i64::from(self.start.0), i64::from(self.start.1))) - form((i64::from(cell.0), i64::from(cell.1)));
            let (slope, nudge) = (form(self.direction), form(self.shift));
            // −1 < offset + slope·t + ε·nudge < 1, solved for t.
            match slope.cmp(&0) {
                Ordering::Greater => {
                    enter = enter.max(LinePlace { value: -1 - offset, nudge: -nudge, den: slope });
                    leave = leave.min(LinePlace { value: 1 - offset, nudge: -nudge, den: slope });
                }
                Ordering::Less => {
                    enter = enter.max(LinePlace { value: offset - 1, nudge, den: -slope });
                    leave = leave.min(LinePlace { value: offset + 1, nudge, den: -slope });
                }
                // The line runs parallel to these two sides: inside them all along, or never.
                Ordering::Equal => {
                    if !((-1, 0) < (offset, nudge) && (offset, nudge) < (1, 0)) {
                        return None;
                    }
                }
            }
        }
        (enter.cmp(leave) == Ordering::Less).then_some((enter, leave))
    }
}

impl Board {
    /// Whether a straight line from the centre of `a` to the centre of `b` is clear: no space it
    /// passes through, other than `a` and `b`, has a terrain that `blocks` sight, and it crosses
    /// no wall whose terrain does. `None` on boards without cells (rings and graphs) and for ids
    /// not on the board.
    ///
    /// - **Between** means inside: a space is between `a` and `b` when the line passes through
    ///   the inside of its cell (a supercover, symmetric in `a` and `b`, not Bresenham's line).
    ///   Holes, sea and cells off the lattice are between nothing and block nothing.
    /// - **Corners and sides.** A line that runs exactly through a corner where cells meet, or
    ///   along the side between two hexagons, is shifted a hair to the left and a hair to the
    ///   right; sight passes when either shifted line is clear. So a line squeezing between two
    ///   cells that only touch it is blocked when both of them block (or walls close both ways
    ///   around), and clear when one of them is open.
    /// - **Walls** block where the (shifted) line crosses the side they stand on. A wall on the
    ///   diagonal link of an eight-neighbour square grid stands on the corner between the two
    ///   squares, and a line through that corner crosses it on either side.
    /// - **Centres.** A grid space is seen from the centre of its cell (squares and offset
    ///   hexagons, taken as regular hexagons); a territory from the centre of its cell nearest the
    ///   mean of its cells' centres (the first in reading order on a tie), so the line starts
    ///   inside the territory even when it is crescent-shaped.
    ///
    /// Allocates only the first time on a territory map; see [`Board::line_of_sight_with`].
    pub fn line_of_sight(&self, a: SpaceId, b: SpaceId, blocks: impl Fn(TerrainId) -> bool) -> Option<bool> {
        self.line_of_sight_with(a, b, blocks, &mut Scratch::new())
    }

    /// [`Board::line_of_sight`] with caller-owned scratch space, which keeps the centres of a
    /// territory map between queries.
    pub fn line_of_sight_with(
        &self,
        a: SpaceId,
        b: SpaceId,
        blocks: impl Fn(TerrainId) -> bool,
        scratch: &mut Scratch,
    ) -> Option<bool> {
        let geometry = self.cell_geometry()?;
        if a as usize >= self.spaces.len() || b as usize >= self.spaces.len() {
            return None;
        }
        if a == b {
            return Some(true);
        }
        let from = self.sight_centre(a, geometry, scratch)?;
        let to = self.sight_centre(b, geometry, scratch)?;
        let direction = (i64::from(to.0) - i64::from(from.0), i64::from(to.1) - i64::from(from.1));
        let clear = |side: i64| {
            let line =
                ShiftedLine { geometry, start: from, direction, shift: (-direction.1 * side, direction.0 * side) };
            self.shifted_line_is_clear(&line, to, (a, b), &blocks)
        };
        Some(clear(1) || clear(-1))
    }

    /// The squares one step beyond `to`, going straight away from `from`, on a square grid:
    /// what a piece knocked back by a blow from `from` moves onto. When `from` and `to` lie on a
    /// line the grid can step along (a row, a column, or on eight-neighbour grids a diagonal),
    /// the one square next along it; otherwise the two squares around that line — the
    /// neighbouring steps nearest the line's direction on either side of it. Only squares on the
    /// board and linked to `to` are given (a hole, the board's edge or a missing link leaves a
    /// side out); walls, terrain and pieces are the rules' to weigh. Empty when `from == to`;
    /// `None` on boards that are not square grids and for ids not on the board.
    pub fn beyond(&self, from: SpaceId, to: SpaceId) -> Option<Vec<SpaceId>> {
        let Topology::Square { diagonals, .. } = self.topology else { return None };
        let (start, end) = (self.get_space(from)?, self.get_space(to)?);
        let direction = (i64::from(end.col) - i64::from(start.col), i64::from(end.row) - i64::from(start.row));
        if direction == (0, 0) {
            return Some(Vec::new());
        }
        const SIDE_STEPS: [(i64, i64); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
        const CORNER_STEPS: [(i64, i64); 4] = [(1, 1), (-1, 1), (-1, -1), (1, -1)];
        let steps = SIDE_STEPS.iter().chain(if diagonals { &CORNER_STEPS[..] } else { &[] });
        // Per side of the line (the sign of the cross product), the step nearest the direction:
        // the largest cosine, dot / |step|, compared exactly as dot² · |other|² (dots are > 0).
        let mut nearest: [Option<(i64, i64)>; 2] = [None, None];
        for &(dx, dy) in steps {
            let dot = dx * direction.0 + dy * direction.1;
            let cross = dx * direction.1 - dy * direction.0;
            if dot <= 0 {
                continue;
            }
            if cross == 0 {
                return Some(self.step_from(to, (dx, dy)).into_iter().collect());
            }
            let length_squared = dx * dx + dy * dy;
            let side = &mut nearest[usize::from(cross > 0)];
            let better = side.is_none_or(|(bx, by)| {
                let best_dot = bx * direction.0 + by * direction.1;
                dot * dot * (bx * bx + by * by) > best_dot * best_dot * length_squared
            });
            if better {
                *side = Some((dx, dy));
            }
        }
        Some(nearest.iter().flatten().filter_map(|&step| self.step_from(to, step)).collect())
    }

    /// On an eight-neighbour grid, the wall that closes the corner a diagonal step from `a` to
    /// `b` would cut: when both ways round it are walled on the squares' sides (a straight wall
    /// through the corner, or an L closing one end in), a wall of the first way round (by the
    /// square in `a`'s row). `None` when a way round is open — a single wall ending at the
    /// corner — or `a` and `b` are not diagonal neighbours.
    pub fn corner_wall(&self, a: SpaceId, b: SpaceId) -> Option<TerrainId> {
        let (p, q) = (self.get_space(a)?, self.get_space(b)?);
        if (p.col - q.col).abs() != 1 || (p.row - q.row).abs() != 1 {
            return None;
        }
        let wall = |x: Option<SpaceId>, y: Option<SpaceId>| {
            let (x, y) = (x?, y?);
            self.edge_between(x, y).and_then(|edge| self.edges[edge as usize].wall)
        };
        let (beside_a, beside_b) = (self.space_at(q.col, p.row), self.space_at(p.col, q.row));
        let first_way = wall(Some(a), beside_a).or_else(|| wall(beside_a, Some(b)))?;
        wall(Some(a), beside_b).or_else(|| wall(beside_b, Some(b)))?;
        Some(first_way)
    }

    /// Gives every diagonal link without a wall of its own the wall of the corner it would cut
    /// ([`Board::corner_wall`]), so no step cuts a wall's corner and its cost and sight apply.
    pub(crate) fn close_walled_corners(&mut self) {
        let closed: Vec<(usize, TerrainId)> = (0..self.edges.len())
            .filter(|&i| self.edges[i].wall.is_none())
            .filter_map(|i| self.corner_wall(self.edges[i].a, self.edges[i].b).map(|wall| (i, wall)))
            .collect();
        for (edge, wall) in closed {
            self.edges[edge].wall = Some(wall);
        }
    }

    /// The space one lattice step from `space`, when it is on the board and linked to it.
    fn step_from(&self, space: SpaceId, (dx, dy): (i64, i64)) -> Option<SpaceId> {
        let at = self.get_space(space)?;
        let (col, row) = (i64::from(at.col) + dx, i64::from(at.row) + dy);
        let next = self.space_at(i32::try_from(col).ok()?, i32::try_from(row).ok()?)?;
        self.edge_between(space, next).map(|_| next)
    }

    /// The shape of the board's cells; `None` for boards without a lattice.
    fn cell_geometry(&self) -> Option<CellGeometry> {
        match self.topology {
            Topology::Rings | Topology::Graph => None,
            _ => Some(match self.topology.lattice()?.shape {
                LatticeShape::Square { .. } => CellGeometry::Square,
                LatticeShape::Hex(kind) => CellGeometry::Hex(kind),
            }),
        }
    }

    /// The cell a space is seen from (see [`Board::line_of_sight`]).
    fn sight_centre(&self, space: SpaceId, geometry: CellGeometry, scratch: &mut Scratch) -> Option<GeometryCell> {
        let lattice_cell = if matches!(self.topology, Topology::Territories { .. }) {
            if scratch.sight.board != self.uid || scratch.sight.cells.len() != self.spaces.len() {
                scratch.sight.cells = self.territory_centres();
                scratch.sight.board = self.uid;
            }
            scratch.sight.cells[space as usize]?
        } else {
            let space = &self.spaces[space as usize];
            (space.col, space.row)
        };
        Some(geometry.cell_at(lattice_cell.0, lattice_cell.1))
    }

    /// Each territory's cell nearest the mean of its cells' centres, the first in reading order
    /// on a tie (cells are listed row by row).
    fn territory_centres(&self) -> Vec<Option<(i32, i32)>> {
        let mut best: Vec<Option<(f64, (i32, i32))>> = vec![None; self.spaces.len()];
        let Some(lattice) = self.topology.lattice() else { return vec![None; self.spaces.len()] };
        for cell in &self.cells {
            let Some(space) = cell.space else { continue };
            let [x, y] = lattice.position(cell.col, cell.row);
            let [mean_x, mean_y] = self.spaces[space as usize].pos;
            let distance = (f64::from(x) - f64::from(mean_x)).powi(2) + (f64::from(y) - f64::from(mean_y)).powi(2);
            let slot = &mut best[space as usize];
            if slot.is_none_or(|(nearest, _)| distance < nearest) {
                *slot = Some((distance, (cell.col, cell.row)));
            }
        }
        best.into_iter().map(|found| found.map(|(_, cell)| cell)).collect()
    }

    /// The space at a cell in geometry coordinates, if any.
    fn space_at_cell(&self, geometry: CellGeometry, cell: GeometryCell) -> Option<SpaceId> {
        let (col, row) = geometry.lattice_position(cell);
        self.space_at(col, row)
    }

    /// Whether a wall on the link between two spaces blocks sight.
    fn wall_blocks(&self, p: SpaceId, q: SpaceId, blocks: &impl Fn(TerrainId) -> bool) -> bool {
        p != q && self.edge_between(p, q).and_then(|edge| self.edges[edge as usize].wall).is_some_and(blocks)
    }

    /// Follows one shifted line from cell to cell, across sides, until it reaches `to`; false at
    /// the first blocking space or wall.
    fn shifted_line_is_clear(
        &self,
        line: &ShiftedLine,
        to: GeometryCell,
        (a, b): (SpaceId, SpaceId),
        blocks: &impl Fn(TerrainId) -> bool,
    ) -> bool {
        let geometry = line.geometry;
        let mut current = line.start;
        let Some((_, mut leaves)) = line.inside(current) else { return false };
        let mut current_space = self.space_at_cell(geometry, current);
        // The space before the current cell, and whether the current cell is only grazed at a
        // corner the unshifted line runs through (it enters and leaves at the same point).
        let mut previous_space: Option<SpaceId> = None;
        let mut grazed = false;
        // A line crosses at most two cells per column and row it spans, plus its ends.
        let most_cells = 4 * (line.direction.0.unsigned_abs() + line.direction.1.unsigned_abs()) + 8;
        for _ in 0..most_cells {
            if current == to {
                return true;
            }
            let next = geometry.side_neighbours().iter().find_map(|&(dx, dy)| {
                let cell = (current.0 + dx, current.1 + dy);
                let (enters, next_leaves) = line.inside(cell)?;
                (enters.cmp(leaves) == Ordering::Equal).then_some((cell, enters, next_leaves))
            });
            // The line leaves every cell across a side into the next one; this cannot fail,
            // and a failure would not pretend the way is clear.
            let Some((next, enters, next_leaves)) = next else { return false };
            let next_space = self.space_at_cell(geometry, next);
            if let (Some(p), Some(q)) = (current_space, next_space)
                && self.wall_blocks(p, q, blocks)
            {
                return false;
            }
            if grazed
                && matches!(geometry, CellGeometry::Square)
                && let (Some(p), Some(q)) = (previous_space, next_space)
                && self.wall_blocks(p, q, blocks)
            {
                return false;
            }
            if let Some(q) = next_space
                && q != a
                && q != b
                && blocks(self.spaces[q as usize].terrain)
            {
                return false;
            }
            grazed = enters.value * next_leaves.den == next_leaves.value * enters.den;
            previous_space = current_space;
            current_space = next_space;
            current = next;
            leaves = next_leaves;
        }
        false
    }
}

#[cfg(test)]
mod sight_tests {
    use super::super::{Cell, CellShape, Edge, Space};
    use super::*;

    /// A territory map of one row of square cells: `row[i]` is the territory (space) of cell
    /// `i`, `None` for sea; territory `t` has terrain `t`. Each territory sits at the mean of
    /// its cells, as generated maps place them.
    fn territories(row: &[Option<u32>]) -> Board {
        let count = row.iter().flatten().max().map_or(0, |t| t + 1);
        let spaces = (0..count)
            .map(|t| {
                let columns: Vec<f32> =
                    row.iter().enumerate().filter(|(_, s)| **s == Some(t)).map(|(c, _)| c as f32).collect();
                Space {
                    label: format!("T{t}"),
                    pos: [columns.iter().sum::<f32>() / columns.len() as f32, 0.0],
                    col: -1,
                    row: -1,
                    terrain: t as TerrainId,
                    home: None,
                    name: None,
                }
            })
            .collect();
        let cells = row.iter().enumerate().map(|(c, &space)| Cell { col: c as i32, row: 0, space }).collect();
        let mut edges = Vec::new();
        for pair in row.windows(2) {
            if let [Some(a), Some(b)] = *pair
                && a != b
                && !edges.iter().any(|e: &Edge| (e.a, e.b) == (a.min(b), a.max(b)))
            {
                edges.push(Edge { a: a.min(b), b: a.max(b), wall: None, one_way: false });
            }
        }
        let topology = Topology::Territories { columns: row.len() as u32, rows: 1, cell: CellShape::Square };
        Board::assemble(topology, spaces, edges, cells).expect("a valid map")
    }

    #[test]
    fn territories_are_seen_from_their_middle_cell_across_the_territories_between() {
        // T0 T0 T1 T2 T2: T1 lies between the other two.
        let map = territories(&[Some(0), Some(0), Some(1), Some(2), Some(2)]);
        // T0's mean is halfway between its cells 0 and 1, T2's between 3 and 4: the first wins.
        assert_eq!(map.territory_centres(), vec![Some((0, 0)), Some((2, 0)), Some((3, 0))]);
        let t1_blocks = |terrain: TerrainId| terrain == 1;
        assert_eq!(map.line_of_sight(0, 2, t1_blocks), Some(false));
        assert_eq!(map.line_of_sight(2, 0, t1_blocks), Some(false));
        assert_eq!(map.line_of_sight(0, 2, |_| false), Some(true));
        // The ends never hide each other, nor does a territory hide itself.
        let ends_block = |terrain: TerrainId| terrain != 1;
        assert_eq!(map.line_of_sight(0, 2, ends_block), Some(true));
        assert_eq!(map.line_of_sight(0, 1, t1_blocks), Some(true));
        assert_eq!(map.line_of_sight(1, 1, t1_blocks), Some(true));
    }

    #[test]
    fn sea_between_territories_hides_nothing() {
        let map = territories(&[Some(0), None, None, Some(1)]);
        assert_eq!(map.line_of_sight(0, 1, |_| true), Some(true));
    }

    #[test]
    fn a_territory_is_seen_from_its_cell_nearest_its_mean_the_first_on_a_tie() {
        // T0 has cells 0, 1 and 4 around T1's cells 2 and 3: its mean (5/3) lies in cell 2,
        // which is T1's, so T0 is seen from the nearest of its own cells, 1.
        let map = territories(&[Some(0), Some(0), Some(1), Some(1), Some(0), Some(2)]);
        let mut scratch = Scratch::new();
        let centres = map.territory_centres();
        assert_eq!(centres, vec![Some((1, 0)), Some((2, 0)), Some((5, 0))]);
        // From cell 1 to T2 at cell 5 the line crosses T1 (cells 2, 3) and T0's own cell 4.
        assert_eq!(map.line_of_sight_with(0, 2, |terrain| terrain == 1, &mut scratch), Some(false));
        assert_eq!(map.line_of_sight_with(0, 2, |terrain| terrain == 0, &mut scratch), Some(true));
    }

    #[test]
    fn rings_and_graphs_have_no_line_of_sight() {
        let spaces = (0..2)
            .map(|i| Space {
                label: format!("s{i}"),
                pos: [i as f32, 0.0],
                col: -1,
                row: -1,
                terrain: 0,
                home: None,
                name: None,
            })
            .collect();
        let edges = vec![Edge { a: 0, b: 1, wall: None, one_way: false }];
        let graph = Board::assemble(Topology::Graph, spaces, edges, Vec::new()).expect("a graph");
        assert_eq!(graph.line_of_sight(0, 1, |_| false), None);
    }
}
