//! Lattice geometry shared by grids and territory maps: neighbours, distances and drawing positions.
//!
//! Hex-like lattices are stored in offset coordinates (column, row) because that is how layouts
//! are written, but every neighbour and distance computation goes through axial coordinates, so
//! the four offset conventions cannot drift apart.

use serde::{Deserialize, Serialize};

/// Which rows or columns of an offset (zig-zag, hex-like) lattice are shifted by half a cell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OffsetKind {
    /// Rows 1, 3, 5, … are shifted half a cell to the right ("pointy-top" hexes).
    #[default]
    OddRows,
    /// Rows 0, 2, 4, … are shifted half a cell to the right.
    EvenRows,
    /// Columns 1, 3, 5, … are shifted half a cell down ("flat-top" hexes).
    OddColumns,
    /// Columns 0, 2, 4, … are shifted half a cell down.
    EvenColumns,
}

/// The shape of the cells a territory map is drawn on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CellShape {
    /// Hexagonal cells: odd rows shifted half a cell right, six neighbours per cell.
    #[default]
    Hex,
    /// Square cells with four neighbours (cells touching only at a corner are not adjacent).
    Square,
}

impl CellShape {
    /// The lattice shape territory maps use for this cell shape.
    pub(crate) fn lattice_shape(self) -> LatticeShape {
        match self {
            CellShape::Hex => LatticeShape::Hex(OffsetKind::OddRows),
            CellShape::Square => LatticeShape::Square { diagonals: false },
        }
    }
}

/// How cells of a lattice touch each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LatticeShape {
    /// Square cells; with `diagonals`, corner-touching cells are neighbours too.
    Square { diagonals: bool },
    /// Six neighbours per cell, laid out with the given offset convention.
    Hex(OffsetKind),
}

/// A rectangular lattice of `columns × rows` cells, indexed row-major.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Lattice {
    pub columns: u32,
    pub rows: u32,
    pub shape: LatticeShape,
}

const SQUARE_ORTHOGONAL: [(i32, i32); 4] = [(0, -1), (-1, 0), (1, 0), (0, 1)];
const SQUARE_ALL: [(i32, i32); 8] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];
const AXIAL_DIRECTIONS: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

impl Lattice {
    /// How many cells the lattice has.
    pub fn cell_count(&self) -> usize {
        self.columns as usize * self.rows as usize
    }

    /// Whether `(col, row)` lies inside the lattice.
    pub fn contains(&self, col: i32, row: i32) -> bool {
        col >= 0 && row >= 0 && (col as u32) < self.columns && (row as u32) < self.rows
    }

    /// The row-major index of an in-bounds cell.
    pub fn index(&self, col: i32, row: i32) -> usize {
        row as usize * self.columns as usize + col as usize
    }

    /// The cell at a row-major index.
    pub fn coords(&self, index: usize) -> (i32, i32) {
        let columns = self.columns.max(1) as usize;
        ((index % columns) as i32, (index / columns) as i32)
    }

    /// How many neighbours an interior cell has.
    fn direction_count(&self) -> usize {
        match self.shape {
            LatticeShape::Square { diagonals: false } => 4,
            LatticeShape::Square { diagonals: true } => 8,
            LatticeShape::Hex(_) => 6,
        }
    }

    /// The cell one step from `(col, row)` in direction `direction` (may be out of bounds).
    fn step(&self, col: i32, row: i32, direction: usize) -> (i32, i32) {
        match self.shape {
            LatticeShape::Square { diagonals } => {
                let (dc, dr) = if diagonals { SQUARE_ALL[direction] } else { SQUARE_ORTHOGONAL[direction] };
                (col + dc, row + dr)
            }
            LatticeShape::Hex(kind) => {
                let (q, r) = to_axial(kind, col, row);
                let (dq, dr) = AXIAL_DIRECTIONS[direction];
                from_axial(kind, q + dq, r + dr)
            }
        }
    }

    /// The in-bounds neighbours of a cell; nothing for a cell outside the lattice.
    pub fn neighbors(&self, col: i32, row: i32) -> impl Iterator<Item = (i32, i32)> + use<> {
        let lattice = *self;
        let count = if lattice.contains(col, row) { lattice.direction_count() } else { 0 };
        (0..count).filter_map(move |direction| {
            let (c, r) = lattice.step(col, row, direction);
            lattice.contains(c, r).then_some((c, r))
        })
    }

    /// The row-major indices of the in-bounds neighbours of the cell at `index`.
    pub fn neighbor_indices(&self, index: usize) -> impl Iterator<Item = usize> + use<> {
        let lattice = *self;
        let (col, row) = lattice.coords(index);
        lattice.neighbors(col, row).map(move |(c, r)| lattice.index(c, r))
    }

    /// Fewest steps between two cells of a complete lattice: Manhattan, Chebyshev or hex.
    pub fn distance(&self, a: (i32, i32), b: (i32, i32)) -> u32 {
        match self.shape {
            LatticeShape::Square { diagonals: false } => a.0.abs_diff(b.0) + a.1.abs_diff(b.1),
            LatticeShape::Square { diagonals: true } => a.0.abs_diff(b.0).max(a.1.abs_diff(b.1)),
            LatticeShape::Hex(kind) => {
                let (aq, ar) = to_axial(kind, a.0, a.1);
                let (bq, br) = to_axial(kind, b.0, b.1);
                let (dq, dr) = (aq - bq, ar - br);
                (dq.unsigned_abs() + dr.unsigned_abs() + (dq + dr).unsigned_abs()) / 2
            }
        }
    }

    /// The drawing position of a cell's centre: one unit per column and row, shifted rows or
    /// columns offset by half a unit.
    pub fn position(&self, col: i32, row: i32) -> [f32; 2] {
        let (x, y) = (col as f32, row as f32);
        match self.shape {
            LatticeShape::Square { .. } => [x, y],
            LatticeShape::Hex(OffsetKind::OddRows) => [x + 0.5 * (row & 1) as f32, y],
            LatticeShape::Hex(OffsetKind::EvenRows) => [x + 0.5 * (1 - (row & 1)) as f32, y],
            LatticeShape::Hex(OffsetKind::OddColumns) => [x, y + 0.5 * (col & 1) as f32],
            LatticeShape::Hex(OffsetKind::EvenColumns) => [x, y + 0.5 * (1 - (col & 1)) as f32],
        }
    }
}

/// Offset coordinates to axial `(q, r)`; the subtracted halves are exact because they are
/// always of an even number, also for negative coordinates.
pub(super) fn to_axial(kind: OffsetKind, col: i32, row: i32) -> (i32, i32) {
    match kind {
        OffsetKind::OddRows => (col - (row - (row & 1)) / 2, row),
        OffsetKind::EvenRows => (col - (row + (row & 1)) / 2, row),
        OffsetKind::OddColumns => (col, row - (col - (col & 1)) / 2),
        OffsetKind::EvenColumns => (col, row - (col + (col & 1)) / 2),
    }
}

/// Axial `(q, r)` back to offset coordinates; the inverse of [`to_axial`].
pub(super) fn from_axial(kind: OffsetKind, q: i32, r: i32) -> (i32, i32) {
    match kind {
        OffsetKind::OddRows => (q + (r - (r & 1)) / 2, r),
        OffsetKind::EvenRows => (q + (r + (r & 1)) / 2, r),
        OffsetKind::OddColumns => (q, r + (q - (q & 1)) / 2),
        OffsetKind::EvenColumns => (q, r + (q + (q & 1)) / 2),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axial_round_trips_for_every_convention() {
        for kind in [OffsetKind::OddRows, OffsetKind::EvenRows, OffsetKind::OddColumns, OffsetKind::EvenColumns] {
            for col in -5..6 {
                for row in -5..6 {
                    let (q, r) = to_axial(kind, col, row);
                    assert_eq!(from_axial(kind, q, r), (col, row), "{kind:?}");
                }
            }
        }
    }

    #[test]
    fn neighbours_of_cells_outside_the_lattice_are_empty() {
        let lattice = Lattice { columns: 3, rows: 3, shape: LatticeShape::Hex(OffsetKind::OddRows) };
        assert_eq!(lattice.neighbors(-1, 0).count(), 0);
        assert_eq!(lattice.neighbors(i32::MAX, i32::MIN).count(), 0);
        assert_eq!(lattice.neighbors(1, 1).count(), 6);
    }
}
