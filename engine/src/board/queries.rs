//! Graph queries on a board: step distances, spaces within a range, movement under terrain costs,
//! and connected groups. These run thousands of times per simulated game, so they reuse a
//! caller-owned [`Scratch`] instead of allocating.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::{Board, EdgeId, Metric, SpaceId};

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
}

/// Walking costs from every space to a few targets, kept between queries (see
/// [`Board::walk_cost`]).
#[derive(Clone, Debug, Default)]
struct WalkFields {
    /// The uid of the board the fields belong to.
    board: u64,
    /// Target, and the cost of the cheapest walk from each space to it (`u32::MAX`: none).
    fields: Vec<(SpaceId, Vec<u32>)>,
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

    /// The fewest movement points a walk from `from` to `to` costs, paying `enter(space, edge)`
    /// for each space entered over an edge (`None`: not that way); `None` when there is no such
    /// walk. One-way edges are followed forwards only.
    ///
    /// The cost from every space to `to` is worked out at once and kept in `scratch`, so asking
    /// again about the same target is a lookup: rules ask about the same targets (where the
    /// pieces stand) over and over. So `enter` must be the same function on every call with
    /// the same scratch and board.
    pub fn walk_cost(
        &self,
        from: SpaceId,
        to: SpaceId,
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
        let index = match scratch.walks.fields.iter().position(|(target, _)| *target == to) {
            Some(index) => index,
            None => {
                let field = self.walk_field(to, &enter, &mut scratch.heap);
                if scratch.walks.fields.len() >= MAX_WALK_FIELDS {
                    scratch.walks.fields.remove(0);
                }
                scratch.walks.fields.push((to, field));
                scratch.walks.fields.len() - 1
            }
        };
        let cost = scratch.walks.fields[index].1[from as usize];
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
