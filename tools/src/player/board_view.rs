//! The board, drawn from what the engine says about it: lattice cells (zig-zag grids, square
//! grids with walls, territory maps whose regions are cells) or nodes and links (rings, tracks,
//! graphs). Owner and terrain colours, counters, pieces, highlights, line of sight shading, pan
//! and zoom, rulers with the column and row labels, territory numbers, an overview minimap and
//! tooltips. Knows no game.

use std::collections::HashMap;

use egui::epaint::Mesh;
use egui::{Align2, Color32, FontId, Pos2, Rect, RichText, Sense, Shape, Stroke, TextureId, Vec2, pos2, vec2};
use meeple_engine::board::{Board, BoardSpec, LabelSpec, OffsetKind, Topology};
use meeple_engine::game::GameState;
use meeple_engine::game::state::{NO_PIECE, NO_SEAT, NO_SPACE};
use meeple_engine::rules::{BarFull, Ruleset};

use super::motion::MotionFrame;
use super::{art, describe};

/// How a space is marked while a person chooses an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// May be chosen (white).
    Eligible,
    /// May be chosen, and belongs to another side (red).
    Target,
    /// Already chosen for the action (yellow).
    Chosen,
    /// The choice under the pointer in the choices list (cyan, wider): where that choice is.
    Pointed,
}

impl Mark {
    /// The mark's own colour, the core of its ring.
    pub fn color(self) -> Color32 {
        match self {
            Mark::Eligible => Color32::WHITE,
            Mark::Target => Color32::from_rgb(0xff, 0x40, 0x40),
            Mark::Chosen => Color32::from_rgb(0xff, 0xd0, 0x30),
            Mark::Pointed => Color32::from_rgb(0x30, 0xe0, 0xff),
        }
    }
}

/// The two colours of a highlight ring on a space of colour `fill`: a halo (outside, wider)
/// and the mark's own colour inside it. The halo is black on light spaces and white on dark
/// ones, so every ring stands out from any seat's or terrain's colour, even a red ring on a red
/// territory.
pub fn ring_colors(mark: Mark, fill: Color32) -> (Color32, Color32) {
    // Where black and white stand out equally (both 4.58:1).
    let halo = if luminance(fill) > 0.179 { Color32::BLACK } else { Color32::WHITE };
    (halo, mark.color())
}

/// Relative luminance of an sRGB colour (WCAG), 0 for black to 1 for white.
pub fn luminance(color: Color32) -> f32 {
    let linear = |c: u8| {
        let c = f32::from(c) / 255.0;
        if c <= 0.040_45 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
    };
    0.2126 * linear(color.r()) + 0.7152 * linear(color.g()) + 0.0722 * linear(color.b())
}

/// The WCAG contrast ratio of two colours, from 1 (the same) to 21 (black on white).
pub fn contrast(a: Color32, b: Color32) -> f32 {
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

/// What happened on the board this frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BoardResponse {
    pub clicked: Option<u32>,
    pub hovered: Option<u32>,
}

/// How the board's spaces are drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
enum CellKind {
    /// Hexes; `pointy` for row-shifted lattices.
    Hex {
        pointy: bool,
    },
    Square,
    /// Circles joined by lines.
    Node,
}

/// A board's drawing geometry in world units, computed once per board.
pub struct Geometry {
    uid: u64,
    kind: CellKind,
    /// World position of each lattice cell's centre and its space (`None`: sea).
    cells: Vec<(Pos2, Option<u32>)>,
    /// World position of each space's centre.
    centers: Vec<Pos2>,
    /// Region borders (between different spaces, or a space and the sea) and walls.
    borders: Vec<[Pos2; 2]>,
    /// Wall segments with their terrain (its colour draws them).
    walls: Vec<([Pos2; 2], u16)>,
    /// Links drawn between node spaces: the two ends, whether it goes one way only (from the
    /// first) and whether a wall (gate, fence) lies on it.
    links: Vec<(u32, u32, bool, bool)>,
    /// The corners of a cell relative to its centre.
    corners: Vec<Vec2>,
    /// Radius of node spaces.
    node_radius: f32,
    bounds: Rect,
    /// Lattice size and scale, for rulers and picking.
    lattice: Option<(u32, u32, OffsetKind)>,
    scale: Vec2,
    /// Per lattice cell, the index into `cells` (row-major), for picking.
    cell_index: Vec<u32>,
    /// Territory maps write each territory's number on it (above its counter, at its middle).
    numbered: bool,
}

const HEX_R: f32 = 0.577_350_26; // 1 / sqrt(3): hexes one unit across their flat sides
const ROW_STEP: f32 = 0.866_025_4; // sqrt(3) / 2: the spacing of hex rows one unit wide

impl Geometry {
    pub fn new(board: &Board) -> Self {
        let (kind, lattice, scale) = match *board.topology() {
            Topology::Offset { columns, rows, offset } => {
                let pointy = matches!(offset, OffsetKind::OddRows | OffsetKind::EvenRows);
                let scale = if pointy { vec2(1.0, ROW_STEP) } else { vec2(ROW_STEP, 1.0) };
                (CellKind::Hex { pointy }, Some((columns, rows, offset)), scale)
            }
            Topology::Territories { columns, rows, cell } => match cell {
                meeple_engine::board::CellShape::Hex => {
                    (CellKind::Hex { pointy: true }, Some((columns, rows, OffsetKind::OddRows)), vec2(1.0, ROW_STEP))
                }
                meeple_engine::board::CellShape::Square => {
                    (CellKind::Square, Some((columns, rows, OffsetKind::OddRows)), vec2(1.0, 1.0))
                }
            },
            Topology::Square { columns, rows, .. } => {
                (CellKind::Square, Some((columns, rows, OffsetKind::OddRows)), vec2(1.0, 1.0))
            }
            Topology::Rings | Topology::Graph => (CellKind::Node, None, vec2(1.0, 1.0)),
        };
        let world = |p: [f32; 2]| pos2(p[0] * scale.x, p[1] * scale.y);
        let centers: Vec<Pos2> = board.spaces().iter().map(|s| world(s.pos)).collect();
        let corners: Vec<Vec2> = match kind {
            CellKind::Hex { pointy } => (0..6)
                .map(|k| {
                    let angle = (60.0 * k as f32 + if pointy { 30.0 } else { 0.0 }).to_radians();
                    vec2(angle.cos(), angle.sin()) * HEX_R
                })
                .collect(),
            CellKind::Square => vec![vec2(0.5, 0.5), vec2(-0.5, 0.5), vec2(-0.5, -0.5), vec2(0.5, -0.5)],
            CellKind::Node => Vec::new(),
        };
        let mut cells = Vec::new();
        if !board.cells().is_empty() {
            // Territory maps: regions made of cells; positions come from the lattice.
            for cell in board.cells() {
                cells.push((world(cell_position(kind, cell.col, cell.row)), cell.space));
            }
        } else if kind != CellKind::Node {
            cells.extend(centers.iter().enumerate().map(|(id, center)| (*center, Some(id as u32))));
        }
        let (columns, rows) = lattice.map_or((0, 0), |(c, r, _)| (c, r));
        let mut cell_index = vec![u32::MAX; columns as usize * rows as usize];
        let lattice_of = |i: usize| -> (i32, i32) {
            if !board.cells().is_empty() {
                let c = board.cells()[i];
                (c.col, c.row)
            } else {
                let s = &board.spaces()[i];
                (s.col, s.row)
            }
        };
        for i in 0..cells.len() {
            let (col, row) = lattice_of(i);
            if col >= 0 && row >= 0 && (col as u32) < columns && (row as u32) < rows {
                cell_index[row as usize * columns as usize + col as usize] = i as u32;
            }
        }
        let mut geometry = Self {
            uid: board.shape_uid(),
            kind,
            cells,
            centers,
            borders: Vec::new(),
            walls: Vec::new(),
            links: Vec::new(),
            corners,
            node_radius: 0.3,
            bounds: Rect::NOTHING,
            lattice,
            scale,
            cell_index,
            numbered: !board.cells().is_empty() && kind != CellKind::Node,
        };
        geometry.find_borders(board);
        geometry.find_links_and_walls(board);
        let mut bounds = Rect::NOTHING;
        for (center, _) in &geometry.cells {
            bounds.extend_with(*center);
        }
        for center in &geometry.centers {
            bounds.extend_with(*center);
        }
        let margin = if kind == CellKind::Node { geometry.node_radius * 1.5 } else { 0.7 };
        geometry.bounds = if bounds.is_positive() || bounds.width() >= 0.0 {
            bounds.expand(margin)
        } else {
            Rect::from_min_size(Pos2::ZERO, vec2(1.0, 1.0))
        };
        geometry
    }

    /// Territory borders: the cell edges between different spaces (or a space and the sea).
    fn find_borders(&mut self, board: &Board) {
        if board.cells().is_empty() || self.kind == CellKind::Node {
            return;
        }
        for i in 0..self.cells.len() {
            let (center, space) = self.cells[i];
            if space.is_none() {
                continue;
            }
            for k in 0..self.corners.len() {
                let a = center + self.corners[k];
                let b = center + self.corners[(k + 1) % self.corners.len()];
                let across = center + ((a + b.to_vec2()).to_vec2() * 0.5 - center.to_vec2()) * 2.0;
                let other = self.cell_at(across).and_then(|j| self.cells[j].1);
                if other != space {
                    self.borders.push([a, b]);
                }
            }
        }
    }

    /// Links between node spaces; walls on the edges of grid boards.
    fn find_links_and_walls(&mut self, board: &Board) {
        let mut shortest = f32::INFINITY;
        for edge in board.edges() {
            let (a, b) = (self.centers[edge.a as usize], self.centers[edge.b as usize]);
            if self.kind == CellKind::Node {
                self.links.push((edge.a, edge.b, edge.one_way, edge.wall.is_some()));
                shortest = shortest.min(a.distance(b));
            } else if let Some(terrain) = edge.wall
                // A diagonal link's wall that only closes a corner walls on the sides already
                // close would cross the corner out.
                && board.corner_wall(edge.a, edge.b).is_none()
            {
                let middle = a + (b - a) * 0.5;
                let along = (b - a).normalized().rot90() * 0.5;
                self.walls.push(([middle - along, middle + along], terrain));
            }
        }
        if self.kind == CellKind::Node {
            self.node_radius = if shortest.is_finite() && shortest > 0.0 { shortest * 0.35 } else { 0.3 };
        }
    }

    /// The cell (index into `cells`) under a world position.
    fn cell_at(&self, world: Pos2) -> Option<usize> {
        let (columns, rows, offset) = self.lattice?;
        let (x, y) = (world.x / self.scale.x, world.y / self.scale.y);
        let (col, row) = match self.kind {
            CellKind::Square => (x.round() as i32, y.round() as i32),
            CellKind::Hex { .. } => match offset {
                OffsetKind::OddRows | OffsetKind::EvenRows => {
                    let row = y.round() as i32;
                    let shifted = (row & 1 == 1) == (offset == OffsetKind::OddRows);
                    ((x - if shifted { 0.5 } else { 0.0 }).round() as i32, row)
                }
                OffsetKind::OddColumns | OffsetKind::EvenColumns => {
                    let col = x.round() as i32;
                    let shifted = (col & 1 == 1) == (offset == OffsetKind::OddColumns);
                    (col, (y - if shifted { 0.5 } else { 0.0 }).round() as i32)
                }
            },
            CellKind::Node => return None,
        };
        if col < 0 || row < 0 || col as u32 >= columns || row as u32 >= rows {
            return None;
        }
        let index = self.cell_index[row as usize * columns as usize + col as usize];
        (index != u32::MAX).then_some(index as usize)
    }

    /// The space under a world position.
    pub fn space_at(&self, world: Pos2) -> Option<u32> {
        if self.kind == CellKind::Node {
            return self.centers.iter().position(|c| c.distance(world) <= self.node_radius).map(|i| i as u32);
        }
        // Hexes: the rounded lattice position can be a neighbour near corners; take the
        // nearest centre among it and its neighbours' cells.
        let index = self.cell_at(world)?;
        self.cells[index].1
    }

    /// The world rectangle holding the whole board.
    pub fn bounds(&self) -> Rect {
        self.bounds
    }

    /// The world position of a space's centre.
    pub fn center(&self, space: u32) -> Option<Pos2> {
        self.centers.get(space as usize).copied()
    }

    /// Each lattice cell's centre and its space (`None`: sea), in world units.
    pub fn cells(&self) -> &[(Pos2, Option<u32>)] {
        &self.cells
    }

    /// The corners of a cell relative to its centre, in world units.
    pub fn corners(&self) -> &[Vec2] {
        &self.corners
    }

    /// The wall segments drawn, in world units, with their terrain.
    pub fn walls(&self) -> &[([Pos2; 2], u16)] {
        &self.walls
    }

    /// Whether the board writes each space's name on it: territory maps number their
    /// territories (the names choices and the log use), node boards name their nodes.
    pub fn names_spaces(&self) -> bool {
        self.numbered || self.kind == CellKind::Node
    }
}

/// A lattice cell's drawing position (the engine's convention: one unit per column and row,
/// shifted rows by half a unit).
fn cell_position(kind: CellKind, col: i32, row: i32) -> [f32; 2] {
    match kind {
        CellKind::Hex { .. } => [col as f32 + 0.5 * (row & 1) as f32, row as f32],
        _ => [col as f32, row as f32],
    }
}

/// The closest zoom, in pixels per board unit.
const MAX_ZOOM: f32 = 200.0;

/// Pan and zoom of one board, and its geometry.
pub struct BoardView {
    geometry: Option<Geometry>,
    /// Pixels per world unit.
    zoom: f32,
    /// The world point at the middle of the view.
    center: Pos2,
    /// Whether the view was set up for the current board (fitted) yet.
    fitted: bool,
    /// Where to centre the view once it is fitted.
    focus: Option<Pos2>,
    /// Where the view was last centred on request, so it follows the piece to move only when
    /// that changes.
    pub followed: Option<u32>,
    pub show_minimap: bool,
    /// Where the board was drawn last frame, for turning spaces into screen positions.
    last_rect: Option<Rect>,
}

impl Default for BoardView {
    fn default() -> Self {
        Self {
            geometry: None,
            zoom: 20.0,
            center: Pos2::ZERO,
            fitted: false,
            focus: None,
            followed: None,
            show_minimap: true,
            last_rect: None,
        }
    }
}

/// What the board shows besides the state.
pub struct Overlay<'a> {
    pub marks: &'a HashMap<u32, Mark>,
    /// The piece whose turn it is: drawn with a white ring.
    pub ring: Option<u32>,
    /// Extra tooltip lines per space (the preview of choosing it).
    pub notes: &'a HashMap<u32, Vec<String>>,
    /// Per space, whether the selected piece sees it: the spaces it sees are lit, the others
    /// shaded. `None` draws no line of sight.
    pub sight: Option<&'a [bool]>,
    /// What is moving, flashing or rising at this moment (see [`super::motion`]).
    pub motion: Option<&'a MotionFrame>,
}

impl BoardView {
    /// The geometry of `board`, rebuilt when the board changes.
    pub fn geometry(&mut self, board: &Board) -> &Geometry {
        if self.geometry.as_ref().is_none_or(|g| g.uid != board.shape_uid()) {
            self.geometry = Some(Geometry::new(board));
            self.fitted = false;
        }
        self.geometry.as_ref().expect("just built")
    }

    /// The geometry last drawn, if any.
    pub fn drawn_geometry(&self) -> Option<&Geometry> {
        self.geometry.as_ref()
    }

    /// A point on the screen inside a space, as drawn in the last frame (for a territory, the
    /// centre of its cell nearest its middle, which may lie outside a bent region): where a
    /// click chooses that space.
    pub fn screen_pos(&self, space: u32) -> Option<Pos2> {
        let rect = self.last_rect?;
        let geometry = self.geometry.as_ref()?;
        let middle = geometry.center(space)?;
        let world = geometry
            .cells
            .iter()
            .filter(|(_, s)| *s == Some(space))
            .map(|(cell, _)| *cell)
            .min_by(|a, b| a.distance(middle).total_cmp(&b.distance(middle)))
            .unwrap_or(middle);
        Some(rect.center() + (world - self.center) * self.zoom)
    }

    /// Whether the whole board was in view last frame (then no minimap covers any of it).
    pub fn whole_board_in_view(&self) -> bool {
        let (Some(rect), Some(geometry)) = (self.last_rect, &self.geometry) else { return false };
        // A hair of slack: a board fitted exactly spans the view to the last rounding error.
        let view = Rect::from_center_size(self.center, rect.size() / self.zoom * 1.001);
        view.contains_rect(geometry.bounds())
    }

    /// Where the board was drawn last frame, on the screen.
    pub fn drawn_rect(&self) -> Option<Rect> {
        self.last_rect
    }

    /// Pixels per board unit.
    pub fn zoom(&self) -> f32 {
        self.zoom
    }

    /// The board point at the middle of the view.
    pub fn view_center(&self) -> Pos2 {
        self.center
    }

    /// Centres the view on a world position.
    pub fn center_on(&mut self, world: Pos2) {
        self.center = world;
    }

    /// Centres the view on a space when it is not well inside the view of `size` pixels (before
    /// the first frame: once the view is fitted).
    pub fn keep_in_view(&mut self, space: u32, size: Vec2) {
        let Some(world) = self.geometry.as_ref().and_then(|g| g.center(space)) else { return };
        if !self.fitted {
            self.focus = Some(world);
            return;
        }
        let half = size / self.zoom * 0.5 * 0.8;
        if (world.x - self.center.x).abs() > half.x || (world.y - self.center.y).abs() > half.y {
            self.center = world;
        }
    }

    /// The zoom at which the whole board fits a view of `size` pixels.
    fn whole_board_zoom(&self, size: Vec2) -> Option<f32> {
        let bounds = self.geometry.as_ref()?.bounds();
        Some((size.x / bounds.width().max(1e-3)).min(size.y / bounds.height().max(1e-3)))
    }

    /// Shows the whole board, centred (the key F).
    pub fn fit_whole(&mut self) {
        let Some(rect) = self.last_rect else { return };
        let Some(zoom) = self.whole_board_zoom(rect.size()) else { return };
        self.zoom = zoom;
        self.center = self.geometry.as_ref().map_or(self.center, |g| g.bounds().center());
    }

    /// Zooms by `factor` around the middle of the view, within the limits the wheel has (the
    /// keys + and −).
    pub fn zoom_by(&mut self, factor: f32) {
        let Some(rect) = self.last_rect else { return };
        let Some(whole) = self.whole_board_zoom(rect.size()) else { return };
        self.zoom = (self.zoom * factor).clamp((0.8 * whole).min(MAX_ZOOM), MAX_ZOOM);
    }

    /// Moves the view by a fraction of its size: right and down for positive `x` and `y` (the
    /// arrow keys). The board stays in view.
    pub fn pan_by(&mut self, x: f32, y: f32) {
        let Some(rect) = self.last_rect else { return };
        self.center += vec2(x * rect.width(), y * rect.height()) / self.zoom;
        self.clamp_center(rect.size());
    }

    /// Keeps the board in view: along an axis where it fits, centred; where it does not, no
    /// further than its edge.
    fn clamp_center(&mut self, view: Vec2) {
        let Some(bounds) = self.geometry.as_ref().map(Geometry::bounds) else { return };
        let half = view / self.zoom * 0.5;
        let clamp = |center: f32, min: f32, max: f32, half: f32| {
            if max - min <= 2.0 * half { (min + max) * 0.5 } else { center.clamp(min + half, max - half) }
        };
        self.center.x = clamp(self.center.x, bounds.min.x, bounds.max.x, half.x);
        self.center.y = clamp(self.center.y, bounds.min.y, bounds.max.y, half.y);
    }

    /// Draws the board filling the available space; returns clicks and hovers.
    pub fn show(&mut self, ui: &mut egui::Ui, rules: &Ruleset, state: &GameState, overlay: &Overlay) -> BoardResponse {
        self.geometry(&state.board);
        let size = ui.available_size().max(vec2(64.0, 64.0));
        let (response, painter) = ui.allocate_painter(size, Sense::click_and_drag());
        let rect = response.rect;
        // The board stays where it is on the screen when panels round it grow or shrink (a
        // status line, a resized side panel): what was under a point stays under it.
        if let Some(last) = self.last_rect
            && self.fitted
            && last != rect
        {
            self.center += (rect.center() - last.center()) / self.zoom;
        }
        self.last_rect = Some(rect);
        let geometry = self.geometry.as_ref().expect("built above");
        if !self.fitted {
            let bounds = geometry.bounds();
            let fit = (rect.width() / bounds.width()).min(rect.height() / bounds.height());
            // Big boards start at a readable zoom around the middle (or the piece to move);
            // the minimap shows the whole.
            self.zoom = fit.max(18.0_f32.min(rect.width() / bounds.width().max(1.0) * 4.0)).max(fit);
            self.center = self.focus.take().unwrap_or(bounds.center());
            self.fitted = true;
        }
        // Zooming out stops a little past the whole board.
        let min_zoom = 0.8 * self.whole_board_zoom(rect.size()).unwrap_or(self.zoom);
        // Pan by dragging, zoom with the wheel (or pinch) around the pointer.
        if response.dragged() {
            self.center -= response.drag_delta() / self.zoom;
        }
        if response.hovered() {
            let (scroll, pinch) = ui.input(|i| (i.smooth_scroll_delta, i.zoom_delta()));
            let factor = pinch * (scroll.y / 300.0).exp();
            if (factor - 1.0).abs() > 1e-4
                && let Some(pointer) = response.hover_pos()
            {
                let before = self.to_world(rect, pointer);
                self.zoom = (self.zoom * factor).clamp(min_zoom.min(MAX_ZOOM), MAX_ZOOM);
                let after = self.to_world(rect, pointer);
                self.center += before - after;
            }
        }
        self.clamp_center(rect.size());
        let geometry = self.geometry.as_ref().expect("built above");
        let to_screen = |w: Pos2| rect.center() + (w - self.center) * self.zoom;
        let visible = Rect::from_center_size(self.center, rect.size() / self.zoom).expand(1.0);
        painter.rect_filled(rect, 0.0, Color32::from_rgb(0x1e, 0x2a, 0x38));

        let fill_of = |space: u32| space_fill(rules, state, space);
        // Cells: one mesh.
        let mut mesh = Mesh::default();
        for &(center, space) in &geometry.cells {
            if !visible.contains(center) {
                continue;
            }
            let Some(space) = space else { continue };
            add_polygon(&mut mesh, to_screen(center), &geometry.corners, self.zoom, fill_of(space));
            // Owned land on a board of several terrains: the owner's colour as a frame round
            // the terrain, which decides what the land costs and yields.
            if let Some(terrain) = terrain_inside_frame(rules, state, space) {
                add_polygon(&mut mesh, to_screen(center), &geometry.corners, self.zoom * 0.72, terrain);
            }
        }
        painter.add(Shape::mesh(mesh));
        self.draw_terrain_tiles(ui.ctx(), &painter, geometry, rules, state, &visible, &to_screen);
        // Line of sight: the cells the selected piece sees lit, the others shaded, in one mesh.
        if let Some(seen) = overlay.sight {
            let (lit, shade) = (Color32::from_white_alpha(40), Color32::from_black_alpha(120));
            let mut mesh = Mesh::default();
            for &(center, space) in &geometry.cells {
                let Some(space) = space else { continue };
                if visible.contains(center) {
                    let color = if seen.get(space as usize).copied().unwrap_or(false) { lit } else { shade };
                    add_polygon(&mut mesh, to_screen(center), &geometry.corners, self.zoom, color);
                }
            }
            painter.add(Shape::mesh(mesh));
        }
        if let Some(motion) = overlay.motion {
            for (space, color) in &motion.flashes {
                self.tint_space(&painter, geometry, state, &to_screen, *space, *color);
            }
        }
        // Thin outlines between cells of grid boards, when zoomed in enough to see them.
        if geometry.kind != CellKind::Node && geometry.cells.len() == state.board.space_count() && self.zoom >= 10.0 {
            let stroke = Stroke::new(1.0, Color32::from_black_alpha(40));
            for &(center, _) in &geometry.cells {
                if visible.contains(center) {
                    let points: Vec<Pos2> = geometry.corners.iter().map(|c| to_screen(center + *c)).collect();
                    painter.add(Shape::closed_line(points, stroke));
                }
            }
        }
        let border = Stroke::new((self.zoom * 0.12).clamp(1.0, 3.0), Color32::from_rgb(0x20, 0x20, 0x20));
        for [a, b] in &geometry.borders {
            if visible.contains(*a) {
                painter.line_segment([to_screen(*a), to_screen(*b)], border);
            }
        }
        let wall_width = (self.zoom * 0.15).clamp(2.0, 6.0);
        for ([a, b], terrain) in &geometry.walls {
            if visible.contains(*a) {
                painter
                    .line_segment([to_screen(*a), to_screen(*b)], Stroke::new(wall_width, wall_color(rules, *terrain)));
            }
        }
        // Nodes and links.
        if geometry.kind == CellKind::Node {
            let link = Stroke::new(2.0, Color32::from_gray(150));
            let radius = geometry.node_radius * self.zoom;
            for &(a, b, one_way, walled) in &geometry.links {
                let (from, to) = (to_screen(geometry.centers[a as usize]), to_screen(geometry.centers[b as usize]));
                painter.line_segment([from, to], link);
                if walled {
                    // A bar across the link's middle: a gate, fence or river to cross.
                    let middle = from + (to - from) * 0.5;
                    let across = (to - from).normalized().rot90() * (radius * 0.5).clamp(5.0, 16.0);
                    let bar = Stroke::new((radius * 0.18).clamp(2.5, 6.0), Color32::from_rgb(0x8a, 0x5a, 0x2a));
                    painter.line_segment([middle - across, middle + across], bar);
                }
                if one_way && from.distance(to) > radius * 2.5 {
                    // An arrowhead at the edge of the node the link leads to.
                    let along = (to - from).normalized();
                    let tip = to - along * radius;
                    let size = (radius * 0.45).clamp(5.0, 14.0);
                    let back = tip - along * size;
                    let side = along.rot90() * size * 0.55;
                    painter.add(Shape::convex_polygon(
                        vec![tip, back + side, back - side],
                        Color32::from_gray(200),
                        Stroke::NONE,
                    ));
                }
            }
            let label_font = FontId::proportional((radius * 0.45).clamp(9.0, 14.0));
            for (space, center) in geometry.centers.iter().enumerate() {
                let at = to_screen(*center);
                painter.circle(at, radius, fill_of(space as u32), Stroke::new(1.5, Color32::from_gray(40)));
                if radius >= 12.0 {
                    // Node boards have no rulers: each space is named under it.
                    painter.text(
                        at + vec2(0.0, radius + 2.0),
                        Align2::CENTER_TOP,
                        describe::space(state, space as u32),
                        label_font.clone(),
                        Color32::from_gray(220),
                    );
                }
            }
        }
        // Highlights: each ring a halo that contrasts with the space's colour around the mark's
        // own colour. The pointed choice is drawn last and widest, on top of the others.
        let mut marks: Vec<(u32, Mark)> = overlay.marks.iter().map(|(&s, &m)| (s, m)).collect();
        marks.sort_by_key(|&(space, mark)| (mark == Mark::Pointed, space));
        for (space, mark) in marks {
            let Some(center) = geometry.center(space) else { continue };
            let (halo, color) = ring_colors(mark, fill_of(space));
            let width = (self.zoom * 0.1).clamp(1.5, 3.5) * if mark == Mark::Pointed { 1.6 } else { 1.0 };
            let strokes = [Stroke::new(width + 3.0, halo), Stroke::new(width, color)];
            if geometry.kind == CellKind::Node {
                for stroke in strokes {
                    painter.circle_stroke(to_screen(center), geometry.node_radius * self.zoom * 1.15, stroke);
                }
            } else if geometry.cells.len() == state.board.space_count() {
                let points: Vec<Pos2> = geometry.corners.iter().map(|c| to_screen(center + *c * 0.92)).collect();
                for stroke in strokes {
                    painter.add(Shape::closed_line(points.clone(), stroke));
                }
            } else {
                // Territories: tint every cell of the region, then a ring at its middle.
                for &(cell, s) in &geometry.cells {
                    if s == Some(space) {
                        let points: Vec<Pos2> = geometry.corners.iter().map(|c| to_screen(cell + *c * 0.85)).collect();
                        painter.add(Shape::convex_polygon(points, halo.gamma_multiply(0.3), Stroke::NONE));
                    }
                }
                for stroke in strokes {
                    painter.circle_stroke(to_screen(center), (self.zoom * 0.9).max(8.0), stroke);
                }
            }
        }
        // Pieces: discs in the owner's colour with the kind's symbol. What is inside a holder
        // is not drawn; the holder carries a badge with how many pieces it holds.
        let mut on_space: HashMap<u32, u32> = HashMap::new();
        let mut held: HashMap<u32, u32> = HashMap::new();
        for piece in state.pieces.iter().filter(|p| p.alive && p.inside != NO_PIECE) {
            *held.entry(piece.inside).or_default() += 1;
        }
        let standing = |piece: &&meeple_engine::game::state::Piece| {
            piece.alive
                && piece.inside == NO_PIECE
                && piece.across == NO_SPACE
                && (piece.space as usize) < state.board.space_count()
        };
        // Pieces on their way are drawn where they are along their path, alone.
        let travelling: HashMap<u32, Pos2> = overlay
            .motion
            .map(|m| m.travelling.iter().map(|(piece, path, t)| (*piece, along(geometry, path, *t))).collect())
            .unwrap_or_default();
        let mut standing_on: HashMap<u32, u32> = HashMap::new();
        for (_, piece) in state.pieces.iter().enumerate().filter(|(id, _)| !travelling.contains_key(&(*id as u32))) {
            if standing(&piece) {
                *standing_on.entry(piece.space).or_default() += 1;
            }
        }
        // Room for one piece: a node's disc, or most of a cell.
        let (full_radius, room) = if geometry.kind == CellKind::Node {
            (geometry.node_radius * self.zoom * 0.7, geometry.node_radius * self.zoom * 1.6)
        } else {
            ((self.zoom * 0.36).max(3.0), self.zoom * 0.84)
        };
        for (id, piece) in state.pieces.iter().enumerate() {
            if !piece.alive || piece.inside != NO_PIECE || (piece.space as usize) >= state.board.space_count() {
                continue;
            }
            if piece.across != NO_SPACE {
                self.draw_piece_between(&painter, &geometry, &visible, &to_screen, rules, state, id as u32, &held);
                continue;
            }
            let (at, radius) = if let Some(world) = travelling.get(&(id as u32)) {
                (to_screen(*world), full_radius * 0.9)
            } else {
                let Some(center) = geometry.center(piece.space) else { continue };
                if !visible.contains(center) {
                    continue;
                }
                // Several pieces on a space share it in a grid of smaller discs, so none hides
                // another (a flag, an army and a tower on one territory) and none spills over
                // into the next space.
                let stacked = on_space.entry(piece.space).or_default();
                let (offset, radius) = stack_slot(*stacked, standing_on[&piece.space], full_radius, room);
                *stacked += 1;
                (to_screen(center) + offset, radius)
            };
            let color = describe::seat_color(rules, state, piece.owner);
            if art::piece_image(rules, piece.kind).is_some() {
                painter.circle(at, radius, color, Stroke::new(1.0, Color32::BLACK));
            } else {
                token(&painter, at, radius, color, piece.kind);
            }
            if overlay.ring == Some(id as u32) {
                painter.circle_stroke(at, radius + 3.0, Stroke::new(2.5, Color32::WHITE));
            }
            if radius >= 6.0
                && let Some(share) = bar_share(rules, piece)
            {
                health_bar(&painter, at + vec2(0.0, radius + 2.0), radius, share);
            }
            if radius >= 8.0
                && let Some((item, charges)) = shown_item(rules, piece)
                && let Some(texture) = art::item_image(rules, item).and_then(|name| art::texture(ui.ctx(), rules, name))
            {
                item_badge(&painter, at + vec2(radius * 0.8, radius * 0.55), radius * 0.62, texture, charges);
            }
            let image = art::piece_image(rules, piece.kind).and_then(|name| art::texture(ui.ctx(), rules, name));
            if let Some(texture) = image
                && radius >= 5.0
            {
                // The mod's glyph for the kind on the disc of the owner's colour.
                let inside = Rect::from_center_size(at, Vec2::splat(radius * 1.55));
                painter.image(texture, inside, Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0)), Color32::WHITE);
            } else if let Some(kind) = rules.piece_kinds.get(piece.kind as usize)
                && self.zoom >= 14.0
            {
                // One or two characters: "Pa" and "Ch" tell two characters apart where "P"
                // and "C" might not.
                let symbol: String = kind.symbol.chars().take(2).collect();
                let scale = if symbol.chars().count() > 1 { 0.8 } else { 1.1 };
                painter.text(
                    at,
                    Align2::CENTER_CENTER,
                    symbol,
                    FontId::proportional((radius * scale).min(28.0)),
                    ink_on(color),
                );
            }
            if let Some(count) = held.get(&(id as u32))
                && self.zoom >= 8.0
            {
                count_badge(&painter, at + vec2(radius * 0.75, -radius * 0.75), (radius * 0.55).max(6.0), *count);
            }
        }
        // Counters: the first shown counter of each space, as a number on it.
        let shown_counter = rules.space_counters.iter().position(|c| c.on_screen());
        let font = FontId::proportional((self.zoom * 0.55).clamp(9.0, 22.0));
        if let Some(counter) = shown_counter
            && self.zoom >= 6.0
        {
            let occupied: std::collections::HashSet<u32> =
                state.pieces.iter().filter(|p| p.alive).map(|p| p.space).collect();
            let corner = if geometry.kind == CellKind::Node { geometry.node_radius * 0.75 } else { 0.32 };
            for space in 0..state.board.space_count() as u32 {
                let center = geometry.centers[space as usize];
                if !visible.contains(center) {
                    continue;
                }
                let value = state.counter(space, counter as u16);
                if value != 0 {
                    // Beside a piece standing there, not under it.
                    let shift = if occupied.contains(&space) { vec2(corner, -corner) * self.zoom } else { Vec2::ZERO };
                    let at = to_screen(center) + shift;
                    painter.circle_filled(at, font.size * 0.75, Color32::from_black_alpha(150));
                    painter.text(at, Align2::CENTER_CENTER, value.to_string(), font.clone(), Color32::WHITE);
                }
            }
        }
        // Territory numbers: the names choices and the log give territories, written on them
        // (above the counter) so "Attack 30 27" can be found on the board.
        if geometry.numbered && self.zoom >= 9.0 {
            let number_font = FontId::proportional((self.zoom * 0.45).clamp(9.0, 15.0));
            // Just above the counter's badge, drawn at the same middle.
            let badge = font.size * 0.75;
            for (space, world) in geometry.centers.iter().enumerate() {
                if !visible.contains(*world) {
                    continue;
                }
                let galley = painter.layout_no_wrap(
                    describe::space(state, space as u32),
                    number_font.clone(),
                    Color32::from_gray(250),
                );
                let at = to_screen(*world) - vec2(0.0, badge + galley.size().y * 0.5 + 1.0);
                let rect = Align2::CENTER_CENTER.anchor_size(at, galley.size()).expand2(vec2(2.0, 0.0));
                painter.rect_filled(rect, 3.0, Color32::from_black_alpha(110));
                painter.galley(rect.min + vec2(2.0, 0.0), galley, Color32::from_gray(250));
            }
        }
        if let Some(motion) = overlay.motion {
            self.draw_arrows_and_floats(&painter, geometry, &to_screen, motion);
        }
        self.draw_rulers(&painter, rect, rules);
        let mut result = BoardResponse::default();
        if let Some(pointer) = response.hover_pos() {
            result.hovered = geometry.space_at(self.to_world(rect, pointer));
        }
        if self.show_minimap {
            self.draw_minimap(ui, &painter, rect, rules, state);
        }
        if response.clicked()
            && let Some(pointer) = response.interact_pointer_pos()
        {
            result.clicked = self.geometry.as_ref().and_then(|g| g.space_at(self.to_world(rect, pointer)));
        }
        if let Some(space) = result.hovered {
            response.on_hover_ui_at_pointer(|ui| {
                if let Some(notes) = overlay.notes.get(&space) {
                    for note in notes {
                        ui.label(RichText::new(note).strong());
                    }
                }
                space_tooltip(ui, rules, state, space);
            });
        }
        result
    }

    /// The terrain tiles the mod draws (`[terrain.<id>] image`): repeated over each cell of
    /// that terrain in view, one unit a tile, so neighbouring cells join without seams; inside
    /// an owned space's frame of its owner's colour. A board whose spaces all share one terrain
    /// shows its owners' colours alone.
    #[allow(clippy::too_many_arguments)]
    fn draw_terrain_tiles(
        &self,
        ctx: &egui::Context,
        painter: &egui::Painter,
        geometry: &Geometry,
        rules: &Ruleset,
        state: &GameState,
        visible: &Rect,
        to_screen: &dyn Fn(Pos2) -> Pos2,
    ) {
        if geometry.kind == CellKind::Node {
            return;
        }
        let tiles: Vec<Option<TextureId>> = (0..rules.terrain.len() as u16)
            .map(|t| art::terrain_image(rules, t).and_then(|name| art::texture(ctx, rules, name)))
            .collect();
        if tiles.iter().all(Option::is_none) {
            return;
        }
        let mut meshes: HashMap<TextureId, Mesh> = HashMap::new();
        for &(center, space) in &geometry.cells {
            let Some(space) = space else { continue };
            if !visible.contains(center) {
                continue;
            }
            let Some(texture) = tiles.get(state.board.space(space).terrain as usize).copied().flatten() else {
                continue;
            };
            let scale = match state.owner(space) {
                None => 1.0,
                Some(_) if terrain_inside_frame(rules, state, space).is_some() => 0.72,
                Some(_) => continue,
            };
            let mesh = meshes.entry(texture).or_insert_with(|| Mesh::with_texture(texture));
            let base = mesh.vertices.len() as u32;
            let vertex = |world: Pos2| egui::epaint::Vertex {
                pos: to_screen(world),
                uv: pos2(world.x, world.y),
                color: Color32::WHITE,
            };
            mesh.vertices.push(vertex(center));
            for corner in &geometry.corners {
                mesh.vertices.push(vertex(center + *corner * (scale * 1.02)));
            }
            let n = geometry.corners.len() as u32;
            for k in 0..n {
                mesh.add_triangle(base, base + 1 + k, base + 1 + (k + 1) % n);
            }
        }
        for (_, mesh) in meshes {
            painter.add(Shape::mesh(mesh));
        }
    }

    /// Lays a colour over a whole space: its cell, node, or every cell of its territory.
    fn tint_space(
        &self,
        painter: &egui::Painter,
        geometry: &Geometry,
        state: &GameState,
        to_screen: &dyn Fn(Pos2) -> Pos2,
        space: u32,
        color: Color32,
    ) {
        let Some(center) = geometry.center(space) else { return };
        let mut mesh = Mesh::default();
        if geometry.kind == CellKind::Node {
            painter.circle_filled(to_screen(center), geometry.node_radius * self.zoom * 1.1, color);
            return;
        } else if geometry.cells.len() == state.board.space_count() {
            add_polygon(&mut mesh, to_screen(center), &geometry.corners, self.zoom, color);
        } else {
            for &(cell, s) in &geometry.cells {
                if s == Some(space) {
                    add_polygon(&mut mesh, to_screen(cell), &geometry.corners, self.zoom, color);
                }
            }
        }
        painter.add(Shape::mesh(mesh));
    }

    /// The arrows of actions from one place to another, and the words rising over spaces.
    fn draw_arrows_and_floats(
        &self,
        painter: &egui::Painter,
        geometry: &Geometry,
        to_screen: &dyn Fn(Pos2) -> Pos2,
        motion: &MotionFrame,
    ) {
        for &(from, to, color, grown, alpha) in &motion.arrows {
            let (Some(a), Some(b)) = (geometry.center(from), geometry.center(to)) else { continue };
            let (a, b) = (to_screen(a), to_screen(b));
            let tip = a + (b - a) * grown;
            let width = (self.zoom * 0.18).clamp(5.0, 10.0);
            let along = (b - a).normalized();
            let head = (width * 2.4).min(a.distance(b) * 0.5);
            let base = tip - along * head;
            let side = along.rot90() * head * 0.6;
            // A dark outline, so the arrow shows on land of its own colour.
            let outline = Stroke::new(2.5, Color32::BLACK.gamma_multiply(alpha));
            let ink = color.gamma_multiply(alpha);
            painter.line_segment([a, base], Stroke::new(width + 5.0, outline.color));
            painter.add(Shape::convex_polygon(vec![tip, base + side, base - side], ink, outline));
            painter.line_segment([a, base], Stroke::new(width, ink));
        }
        let font = FontId::proportional((self.zoom * 0.6).clamp(14.0, 30.0));
        for (space, text, color, risen) in &motion.floats {
            let Some(center) = geometry.center(*space) else { continue };
            let at = to_screen(center) - vec2(0.0, (0.3 + risen) * self.zoom.clamp(20.0, 60.0));
            painter.text(
                at + vec2(1.5, 1.5),
                Align2::CENTER_CENTER,
                text,
                font.clone(),
                Color32::BLACK.gamma_multiply(color.a() as f32 / 255.0),
            );
            painter.text(at, Align2::CENTER_CENTER, text, font.clone(), *color);
        }
    }

    fn to_world(&self, rect: Rect, screen: Pos2) -> Pos2 {
        self.center + (screen - rect.center()) / self.zoom
    }

    /// Column labels along the top and row labels along the left, for labelled grids.
    fn draw_rulers(&self, painter: &egui::Painter, rect: Rect, rules: &Ruleset) {
        let Some(geometry) = &self.geometry else { return };
        let Some((columns, rows, _)) = geometry.lattice else { return };
        let Some(labels) = ruler_labels(rules) else { return };
        if self.zoom < 12.0 {
            return;
        }
        let font = FontId::monospace(10.0);
        let color = Color32::from_gray(230);
        let band = Color32::from_black_alpha(170);
        painter.rect_filled(Rect::from_min_size(rect.min, vec2(rect.width(), 14.0)), 0.0, band);
        painter.rect_filled(Rect::from_min_size(rect.min, vec2(26.0, rect.height())), 0.0, band);
        let to_screen = |w: Pos2| rect.center() + (w - self.center) * self.zoom;
        for col in 0..columns {
            let x = to_screen(pos2(col as f32 * geometry.scale.x, 0.0)).x;
            if x > rect.left() + 26.0 && x < rect.right() {
                painter.text(
                    pos2(x, rect.top() + 7.0),
                    Align2::CENTER_CENTER,
                    labels.column_label(col),
                    font.clone(),
                    color,
                );
            }
        }
        for row in 0..rows {
            let y = to_screen(pos2(0.0, row as f32 * geometry.scale.y)).y;
            if y > rect.top() + 14.0 && y < rect.bottom() {
                painter.text(
                    pos2(rect.left() + 13.0, y),
                    Align2::CENTER_CENTER,
                    labels.row_label(row),
                    font.clone(),
                    color,
                );
            }
        }
    }

    /// The whole board small in a corner, with the part in view outlined; clicking it moves
    /// the view there.
    fn draw_minimap(
        &mut self,
        ui: &mut egui::Ui,
        painter: &egui::Painter,
        rect: Rect,
        rules: &Ruleset,
        state: &GameState,
    ) {
        let Some(geometry) = &self.geometry else { return };
        let bounds = geometry.bounds();
        let max = vec2(160.0, 160.0).min(rect.size() * 0.3);
        let scale = (max.x / bounds.width()).min(max.y / bounds.height());
        if !(scale.is_finite() && scale > 0.0) {
            return;
        }
        let size = bounds.size() * scale;
        let area = Rect::from_min_size(rect.right_bottom() - size - vec2(8.0, 8.0), size);
        // Hidden when the whole board is in view anyway: it would only cover a part of it.
        if self.whole_board_in_view() {
            return;
        }
        let view = Rect::from_center_size(self.center, rect.size() / self.zoom);
        painter.rect_filled(area.expand(3.0), 3.0, Color32::from_black_alpha(200));
        let to_mini = |w: Pos2| area.min + (w - bounds.min) * scale;
        let mut mesh = Mesh::default();
        let dot = (scale * 0.5).max(0.5);
        for &(center, space) in &geometry.cells {
            if let Some(space) = space {
                let at = to_mini(center);
                mesh.add_colored_rect(
                    Rect::from_center_size(at, vec2(dot * 2.0, dot * 2.0)),
                    space_fill(rules, state, space),
                );
            }
        }
        if geometry.kind == CellKind::Node {
            for (space, center) in geometry.centers.iter().enumerate() {
                mesh.add_colored_rect(
                    Rect::from_center_size(to_mini(*center), vec2(3.0, 3.0)),
                    space_fill(rules, state, space as u32),
                );
            }
        }
        painter.add(Shape::mesh(mesh));
        for piece in &state.pieces {
            if piece.alive
                && let Some(center) = geometry.center(piece.space)
                && piece.owner != NO_SEAT
            {
                painter.circle_filled(to_mini(center), 2.0, describe::seat_color(rules, state, piece.owner));
            }
        }
        let shown = Rect::from_min_max(to_mini(view.min), to_mini(view.max)).intersect(area);
        painter.rect_stroke(shown, 0.0, Stroke::new(1.5, Color32::WHITE), egui::StrokeKind::Middle);
        let response = ui.interact(area, ui.scope_id().with("minimap"), Sense::click_and_drag());
        if (response.clicked() || response.dragged())
            && let Some(pointer) = response.interact_pointer_pos()
        {
            self.center = bounds.min + (pointer - area.min) / scale;
        }
    }
}

impl BoardView {
    /// A piece standing between two spaces (a wall built in play): a bar across the border in
    /// its owner's colour, with its kind's symbol, and a badge for what it holds.
    #[allow(clippy::too_many_arguments)]
    fn draw_piece_between(
        &self,
        painter: &egui::Painter,
        geometry: &Geometry,
        visible: &Rect,
        to_screen: &dyn Fn(Pos2) -> Pos2,
        rules: &Ruleset,
        state: &GameState,
        id: u32,
        held: &HashMap<u32, u32>,
    ) {
        let piece = &state.pieces[id as usize];
        let (Some(a), Some(b)) = (geometry.center(piece.space), geometry.center(piece.across)) else { return };
        let middle = a + (b - a) * 0.5;
        if !visible.contains(middle) {
            return;
        }
        // Across the border: half a cell each way on a grid, a bar across the link on nodes.
        let half = if geometry.kind == CellKind::Node { geometry.node_radius * 0.6 } else { 0.45 };
        let across = (b - a).normalized().rot90() * half;
        let (from, to) = (to_screen(middle - across), to_screen(middle + across));
        let color = describe::seat_color(rules, state, piece.owner);
        let width = (self.zoom * 0.22).clamp(3.0, 12.0);
        painter.line_segment([from, to], Stroke::new(width + 2.0, Color32::BLACK));
        painter.line_segment([from, to], Stroke::new(width, color));
        let at = to_screen(middle);
        if let Some(kind) = rules.piece_kinds.get(piece.kind as usize)
            && self.zoom >= 20.0
        {
            let symbol: String = kind.symbol.chars().take(2).collect();
            painter.circle(at, width * 0.9, color, Stroke::new(1.0, Color32::BLACK));
            painter.text(at, Align2::CENTER_CENTER, symbol, FontId::proportional(width * 1.1), Color32::BLACK);
        }
        if let Some(count) = held.get(&id) {
            count_badge(painter, at + (to - from).normalized() * (width * 1.6), (width * 0.7).max(6.0), *count);
        }
    }
}

/// How full the piece's bar is (0 to 1): the first stat the mod draws as a bar, when the
/// watcher may see it and the piece has it (its kind gives it or the full value, or every
/// piece starts with some).
pub fn bar_share(rules: &Ruleset, piece: &meeple_engine::game::state::Piece) -> Option<f32> {
    let (stat, info) = rules.stats.iter().enumerate().find(|(_, s)| s.bar.is_some() && s.on_screen())?;
    let full_stat = match info.bar? {
        BarFull::Max => None,
        BarFull::Stat(other) => Some(other as usize),
    };
    let full = match full_stat {
        None => info.max,
        Some(other) => *piece.stats.get(other)?,
    };
    let value = *piece.stats.get(stat)?;
    let kind = rules.data.pieces.get_index(piece.kind as usize).map(|(_, def)| def);
    let given = |index: usize| {
        let id = rules.stats.get(index).map(|s| s.id.as_str()).unwrap_or("");
        kind.is_some_and(|k| k.stats.contains_key(id))
    };
    let has_it = info.initial > 0 || given(stat) || full_stat.is_some_and(given);
    (full > 0 && has_it).then(|| (value as f32 / full as f32).clamp(0.0, 1.0))
}

/// A piece of a kind the mod draws no image for: a token in the owner's colour whose shape
/// tells its kind from the others (a disc, a rounded square, a diamond, a hexagon, a shield,
/// in the order the mod lists its kinds), with a lighter rim so it stands off the board.
fn token(painter: &egui::Painter, at: Pos2, radius: f32, color: Color32, kind: u16) {
    let rim = Stroke::new(1.0, Color32::BLACK);
    let corners = |count: usize, turn: f32, scale: f32| -> Vec<Pos2> {
        (0..count)
            .map(|i| {
                let angle = turn + i as f32 * std::f32::consts::TAU / count as f32;
                at + vec2(angle.cos(), angle.sin()) * radius * scale
            })
            .collect()
    };
    match kind % 5 {
        0 => {
            painter.circle(at, radius, color, rim);
        }
        1 => {
            let square = Rect::from_center_size(at, Vec2::splat(radius * 1.75));
            painter.rect(square, radius * 0.3, color, rim, egui::StrokeKind::Middle);
        }
        2 => {
            painter.add(Shape::convex_polygon(corners(4, 0.0, 1.15), color, rim));
        }
        3 => {
            painter.add(Shape::convex_polygon(corners(6, 0.0, 1.05), color, rim));
        }
        _ => {
            // A shield: flat top, point below.
            let r = radius;
            let points = vec![
                at + vec2(-r * 0.9, -r * 0.85),
                at + vec2(r * 0.9, -r * 0.85),
                at + vec2(r * 0.85, r * 0.15),
                at + vec2(0.0, r * 1.05),
                at + vec2(-r * 0.85, r * 0.15),
            ];
            painter.add(Shape::convex_polygon(points, color, rim));
        }
    }
    // A lighter inner rim: the token reads as a raised piece on any ground.
    painter.circle_stroke(
        at,
        radius * 0.78,
        Stroke::new((radius * 0.08).clamp(0.5, 2.0), Color32::from_white_alpha(60)),
    );
}

/// The item a piece shows on its disc: the dearest it holds that has an image (what it
/// bought rather than what it started with), with its charges when it has any.
pub fn shown_item(rules: &Ruleset, piece: &meeple_engine::game::state::Piece) -> Option<(u16, Option<i64>)> {
    let held = piece
        .items
        .iter()
        .filter(|h| art::item_image(rules, h.item).is_some())
        .max_by_key(|h| rules.items.get(h.item as usize).map_or(0, |i| i.price))?;
    let uses_charges = rules.items.get(held.item as usize).is_some_and(|i| i.charges > 0) || held.charges > 0;
    Some((held.item, uses_charges.then_some(held.charges)))
}

/// An item's icon in a small dark square at a piece's side, with its charges under it.
fn item_badge(painter: &egui::Painter, at: Pos2, size: f32, texture: TextureId, charges: Option<i64>) {
    let square = Rect::from_center_size(at, Vec2::splat(size * 2.0));
    painter.rect(
        square,
        3.0,
        Color32::from_black_alpha(200),
        Stroke::new(1.0, Color32::from_gray(200)),
        egui::StrokeKind::Inside,
    );
    painter.image(
        texture,
        square.shrink(size * 0.2),
        Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0)),
        Color32::WHITE,
    );
    if let Some(charges) = charges {
        let font = FontId::proportional((size * 1.1).clamp(8.0, 14.0));
        let text_at = square.right_bottom() + vec2(1.0, 0.0);
        painter.text(text_at + vec2(1.0, 1.0), Align2::LEFT_BOTTOM, charges.to_string(), font.clone(), Color32::BLACK);
        painter.text(text_at, Align2::LEFT_BOTTOM, charges.to_string(), font, Color32::WHITE);
    }
}

/// A bar under a piece: green when full, through yellow to red when nearly empty.
fn health_bar(painter: &egui::Painter, top_middle: Pos2, radius: f32, share: f32) {
    let width = radius * 1.8;
    let height = (radius * 0.28).clamp(3.0, 7.0);
    let back = Rect::from_min_size(top_middle - vec2(width / 2.0, 0.0), vec2(width, height));
    painter.rect_filled(back.expand(1.0), 2.0, Color32::BLACK);
    painter.rect_filled(back, 1.5, Color32::from_gray(60));
    let color = if share > 0.5 {
        Color32::from_rgb(0x40, 0xd0, 0x50).lerp_to_gamma(Color32::from_rgb(0xf0, 0xd0, 0x30), (1.0 - share) * 2.0)
    } else {
        Color32::from_rgb(0xf0, 0xd0, 0x30).lerp_to_gamma(Color32::from_rgb(0xe8, 0x40, 0x30), 1.0 - share * 2.0)
    };
    let filled = Rect::from_min_size(back.min, vec2(width * share, height));
    painter.rect_filled(filled, 1.5, color);
}

/// The point `t` (0 to 1) of the way along a path of spaces, in world units.
fn along(geometry: &Geometry, path: &[u32], t: f32) -> Pos2 {
    let centers: Vec<Pos2> = path.iter().filter_map(|&space| geometry.center(space)).collect();
    match centers.len() {
        0 => Pos2::ZERO,
        1 => centers[0],
        n => {
            let legs = (n - 1) as f32;
            let position = t.clamp(0.0, 1.0) * legs;
            let leg = (position.floor() as usize).min(n - 2);
            centers[leg].lerp(centers[leg + 1], position - leg as f32)
        }
    }
}

/// How many pieces a holder holds: a small dark disc with the number, beside the holder.
fn count_badge(painter: &egui::Painter, at: Pos2, size: f32, count: u32) {
    painter.circle(at, size, Color32::from_gray(30), Stroke::new(1.0, Color32::WHITE));
    painter.text(
        at,
        Align2::CENTER_CENTER,
        count.to_string(),
        FontId::proportional((size * 1.3).min(18.0)),
        Color32::WHITE,
    );
}

/// The colour a wall of `terrain` is drawn in: the terrain's, else a dark brown.
pub fn wall_color(rules: &Ruleset, terrain: u16) -> Color32 {
    let [r, g, b] = rules.terrain.get(terrain as usize).and_then(|t| t.color).unwrap_or([0x3a, 0x2a, 0x1a]);
    Color32::from_rgb(r, g, b)
}

/// A convex polygon (a cell) added to a mesh as a triangle fan.
pub fn add_polygon(mesh: &mut Mesh, center: Pos2, corners: &[Vec2], zoom: f32, color: Color32) {
    let base = mesh.vertices.len() as u32;
    mesh.colored_vertex(center, color);
    for corner in corners {
        // A hair larger than the cell, so neighbouring cells leave no seams.
        mesh.colored_vertex(center + *corner * (zoom * 1.02 + 0.5), color);
    }
    let n = corners.len() as u32;
    for k in 0..n {
        mesh.add_triangle(base, base + 1 + k, base + 1 + (k + 1) % n);
    }
}

/// The terrain's colour drawn inside an owned space's frame of its owner's colour: on a board
/// of more than one terrain, where the terrain matters to play; `None` for a space nobody owns
/// or a board of one terrain (the owner's colour fills it).
pub fn terrain_inside_frame(rules: &Ruleset, state: &GameState, space: u32) -> Option<Color32> {
    (rules.terrain.len() > 1 && state.owner(space).is_some())
        .then(|| describe::terrain_color(rules, state.board.space(space).terrain as usize))
}

/// A space's fill: its owner's colour (greyed for a seat out of the game) or its terrain's
/// colour. On a board of several terrains an owned space shows its terrain inside
/// ([`terrain_inside_frame`]).
pub fn space_fill(rules: &Ruleset, state: &GameState, space: u32) -> Color32 {
    let terrain = describe::terrain_color(rules, state.board.space(space).terrain as usize);
    match state.owner(space) {
        Some(owner) => {
            let color = describe::seat_color(rules, state, owner);
            if state.seats[owner as usize].status == meeple_engine::game::SeatStatus::Active {
                color
            } else {
                color.lerp_to_gamma(Color32::GRAY, 0.6)
            }
        }
        None => terrain,
    }
}

/// The label scheme of a labelled grid, for its rulers.
fn ruler_labels(rules: &Ruleset) -> Option<&LabelSpec> {
    match &rules.data.board {
        BoardSpec::Square(spec) => Some(&spec.labels),
        BoardSpec::Offset(spec) => Some(&spec.labels),
        _ => None,
    }
}

/// What a tooltip says about a space: its label, terrain, owner, counters and the pieces on it
/// with their stats and items.
pub fn space_tooltip(ui: &mut egui::Ui, rules: &Ruleset, state: &GameState, space: u32) {
    let info = state.board.space(space);
    ui.strong(describe::space(state, space));
    if let Some(terrain) = rules.terrain.get(info.terrain as usize)
        && rules.terrain.len() > 1
    {
        ui.label(&terrain.label);
    }
    if let Some(owner) = state.owner(space) {
        ui.colored_label(describe::seat_color(rules, state, owner), describe::seat(state, owner));
    }
    for (i, counter) in rules.space_counters.iter().enumerate() {
        if counter.on_screen() {
            ui.label(format!("{}: {}", counter.label, state.counter(space, i as u16)));
        }
    }
    for line in super::panels::space_figure_lines(rules, state, space) {
        ui.label(line);
    }
    // Pieces standing on the space; what is inside a holder is listed with it.
    for (id, piece) in state.pieces.iter().enumerate() {
        if piece.alive && (piece.space == space || piece.across == space) && piece.inside == NO_PIECE {
            ui.separator();
            ui.label(describe::piece(rules, state, id as u32));
            for line in super::panels::piece_lines(rules, state, id as u32) {
                ui.label(line);
            }
        }
    }
}

/// Black or white, whichever reads on `background`: a symbol on a dark token is drawn white.
pub fn ink_on(background: Color32) -> Color32 {
    let [r, g, b, _] = background.to_array();
    let luma = 0.299 * f32::from(r) + 0.587 * f32::from(g) + 0.114 * f32::from(b);
    if luma < 110.0 { Color32::WHITE } else { Color32::BLACK }
}

/// Where the `index`th of `count` pieces on one space is drawn, from the space's middle, and
/// how big: one piece alone at full size; more in a grid of as many columns as rows, within
/// `room` (the width of the space on screen).
fn stack_slot(index: u32, count: u32, full_radius: f32, room: f32) -> (Vec2, f32) {
    if count <= 1 {
        return (Vec2::ZERO, full_radius);
    }
    let columns = (count as f32).sqrt().ceil() as u32;
    let rows = count.div_ceil(columns);
    let pitch = room / columns as f32;
    let (column, row) = (index % columns, index / columns);
    let offset =
        vec2((column as f32 - (columns - 1) as f32 / 2.0) * pitch, (row as f32 - (rows - 1) as f32 / 2.0) * pitch);
    (offset, (pitch * 0.46).min(full_radius).max(2.5))
}

#[cfg(test)]
mod tests {
    use super::stack_slot;

    /// However many pieces share a space, their discs stay inside it and none covers another.
    #[test]
    fn pieces_sharing_a_space_neither_overlap_nor_spill() {
        let (full, room) = (14.4, 33.6); // a cell 40 pixels wide
        assert_eq!(stack_slot(0, 1, full, room), (egui::Vec2::ZERO, full));
        for count in 2..=9 {
            let slots: Vec<_> = (0..count).map(|i| stack_slot(i, count, full, room)).collect();
            for (i, (at, radius)) in slots.iter().enumerate() {
                assert!(at.x.abs() + radius <= 20.0 && at.y.abs() + radius <= 20.0, "{count} pieces: {i} spills");
                for (other, _) in &slots[i + 1..] {
                    assert!((*at - *other).length() >= 2.0 * radius, "{count} pieces: {i} covers another");
                }
            }
        }
    }
}
