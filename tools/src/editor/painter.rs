//! The map painter: a grid board drawn from a `layout` and its `legend`, painted cell by cell
//! with a legend character (terrain, homes, named spaces, holes), and walls put on and taken off
//! the edges between cells. Every stroke is one change of the [`ModModel`], checked like any
//! edit and undone with Undo; the rows it changes are rewritten in place, so a save changes just
//! those lines. [`Map`] and [`MapPainter`]'s strokes work without egui; `MapPainter::ui` draws.

use std::collections::{BTreeMap, BTreeSet};

use egui::epaint::Mesh;
use egui::{Align2, Color32, FontId, Pos2, Rect, RichText, Sense, Shape, Stroke, vec2};
use meeple_engine::board::{Board, BoardSpec, BuildContext, LabelSpec, LegendCell, LegendEntry, WallSpec};
use meeple_engine::options::Choices;
use meeple_engine::rng::GameRng;
use meeple_engine::rules::Ruleset;
use serde_json::Value as Json;
use toml_edit::{Array, InlineTable, Value};

use super::model::{DataPath, Edit, ModModel, Refusal, Seg, path_text};
use crate::player::board_view::{Geometry, add_polygon, ink_on, wall_color};
use crate::player::describe;

/// A cell of the grid: its column and row, from 0 at the top left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell {
    pub col: u32,
    pub row: u32,
}

impl Cell {
    pub fn new(col: u32, row: u32) -> Self {
        Self { col, row }
    }
}

/// One character of the legend and what it stands for.
#[derive(Clone, Debug, PartialEq)]
pub struct LegendKey {
    pub key: char,
    /// The terrain's id (`None` for a hole).
    pub terrain: Option<String>,
    /// The seat whose home cells of this character are (0 = the first seat).
    pub home: Option<u8>,
    pub name: Option<String>,
    /// Cells of this character are holes: no space.
    pub empty: bool,
}

/// A wall of the map: where it is in the written list, the cells it separates, its kind.
#[derive(Clone, Debug, PartialEq)]
pub struct MapWall {
    /// Its position in the list at [`Map::walls_at`].
    pub index: usize,
    pub between: [Cell; 2],
    pub kind: String,
}

/// What a click on an edge did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WallChange {
    Added,
    Removed,
    /// The wall there was of another kind; it is of the chosen kind now.
    Changed,
}

/// A grid board's map as the mod's texts give it now, and where each part of it is written.
pub struct Map {
    pub columns: u32,
    pub rows: u32,
    /// The layout: one character per cell, row by row.
    pub layout: Vec<Vec<char>>,
    /// The legend, by character.
    pub legend: Vec<LegendKey>,
    pub walls: Vec<MapWall>,
    /// The `layout` list that is painted: the board's own, or its template's.
    pub layout_at: DataPath,
    /// The `legend` table (written or to be written).
    pub legend_at: DataPath,
    /// The `walls` list (written, or where the first wall would go: beside the layout).
    pub walls_at: DataPath,
    /// Whether a `walls` list is written at `walls_at` (else the first wall writes one).
    walls_written: bool,
    /// The template the layout is written in, when the board inherits it.
    pub template: Option<String>,
    /// The boards whose layout this is (more than one when it is a template's).
    pub boards: Vec<String>,
    /// The setup choices that play on those boards, other than the defaults: a change is checked
    /// with the mod loaded with each, since a board no default plays on is only built then.
    pub checked_with: Vec<Choices>,
    /// The grid with every cell a space (holes filled) and the map's walls: its labels, its
    /// adjacency and its drawing.
    pub board: Board,
    labels: LabelSpec,
    /// Why the walls could not be drawn, when they cannot.
    pub wall_problem: Option<String>,
}

/// Whether the board at `path` (`board`, `boards.<id>`) has a map to paint: a square or offset
/// grid drawn from a layout.
pub fn can_paint(model: &ModModel, path: &[Seg]) -> bool {
    resolved_spec(model, path).is_ok_and(|spec| grid_parts(&spec).is_some_and(|(_, _, layout, ..)| !layout.is_empty()))
}

/// The board spec at `path` as the mod resolves it: `[board]` as written, a `[boards]` entry
/// with what it inherits.
fn resolved_spec(model: &ModModel, path: &[Seg]) -> Result<BoardSpec, String> {
    let rules = model.rules.as_ref().map_err(|_| "the mod does not load; fix it first".to_string())?;
    match path {
        [Seg::Key(board)] if board == "board" => {
            let json = model.json(path).ok_or("the mod has no `[board]`")?;
            serde_json::from_value(json).map_err(|e| format!("[board] cannot be read: {e}"))
        }
        [Seg::Key(boards), Seg::Key(id)] if boards == "boards" => rules
            .data
            .boards
            .get(id)
            .cloned()
            .ok_or_else(|| format!("`boards.{id}` is a template; paint a board that inherits it")),
        _ => Err(format!("`{}` is not a board", path_text(path))),
    }
}

/// Columns, rows, layout, legend, walls and labels of a grid spec.
type GridParts<'a> = (u32, u32, &'a [String], &'a BTreeMap<String, LegendEntry>, &'a [WallSpec], &'a LabelSpec);

fn grid_parts(spec: &BoardSpec) -> Option<GridParts<'_>> {
    match spec {
        BoardSpec::Square(s) => Some((s.columns, s.rows, &s.layout, &s.legend, &s.walls, &s.labels)),
        BoardSpec::Offset(s) => Some((s.columns, s.rows, &s.layout, &s.legend, &s.walls, &s.labels)),
        _ => None,
    }
}

/// The most templates followed up an `inherits` chain (the loader refuses cycles; this keeps a
/// broken chain from looping before it does).
const MAX_INHERITANCE: usize = 16;

/// The templates a `[boards]` entry names in `inherits`, the last one first (it wins).
fn templates_of(model: &ModModel, id: &str) -> Vec<String> {
    let path = [Seg::Key("boards".into()), Seg::Key(id.into()), Seg::Key("inherits".into())];
    match model.json(&path) {
        Some(Json::String(one)) => vec![one],
        Some(Json::Array(many)) => many.iter().rev().filter_map(|v| v.as_str().map(String::from)).collect(),
        _ => Vec::new(),
    }
}

/// Where `key` of the board at `path` is written: the board's own table, or the nearest
/// template up its `inherits` that has it (with the template's id).
fn written_at(model: &ModModel, path: &[Seg], key: &str) -> Option<(DataPath, Option<String>)> {
    let with_key = |table: &[Seg]| [table, &[Seg::Key(key.into())]].concat();
    if model.get(&with_key(path)).is_some() {
        return Some((with_key(path), None));
    }
    let [Seg::Key(_), Seg::Key(id)] = path else { return None };
    let mut queue = templates_of(model, id);
    let mut seen = BTreeSet::new();
    while let Some(template) = queue.first().cloned() {
        queue.remove(0);
        if !seen.insert(template.clone()) || seen.len() > MAX_INHERITANCE {
            continue;
        }
        let table = vec![Seg::Key("boards".into()), Seg::Key(template.clone())];
        if model.get(&with_key(&table)).is_some() {
            return Some((with_key(&table), Some(template)));
        }
        queue.extend(templates_of(model, &template));
    }
    None
}

/// Whether `[boards].<id>` inherits `template`, directly or through other templates.
fn inherits_from(model: &ModModel, id: &str, template: &str) -> bool {
    let mut queue = templates_of(model, id);
    let mut seen = BTreeSet::new();
    while let Some(next) = queue.pop() {
        if next == template {
            return true;
        }
        if seen.insert(next.clone()) && seen.len() <= MAX_INHERITANCE {
            queue.extend(templates_of(model, &next));
        }
    }
    false
}

impl Map {
    /// Reads the map of the board at `path` from the model's texts.
    pub fn read(model: &ModModel, path: &[Seg]) -> Result<Map, String> {
        let spec = resolved_spec(model, path)?;
        let rules = model.rules.as_ref().map_err(|_| "the mod does not load; fix it first".to_string())?;
        let Some((columns, rows, _, legend, _, labels)) = grid_parts(&spec) else {
            return Err("only square and offset grids are drawn from a layout; this board is not one".into());
        };
        let (layout_at, template) = written_at(model, path, "layout")
            .ok_or("this board has no `layout` to paint (it is generated or of one terrain)")?;
        let table = &layout_at[..layout_at.len() - 1];
        let layout: Vec<Vec<char>> = match model.json(&layout_at) {
            Some(Json::Array(lines)) => lines.iter().map(|l| l.as_str().unwrap_or("").chars().collect()).collect(),
            _ => return Err(format!("`{}` is not a list of rows", path_text(&layout_at))),
        };
        if layout.len() != rows as usize || layout.iter().any(|line| line.len() != columns as usize) {
            return Err(format!(
                "`{}` does not fit the grid of {columns} columns and {rows} rows; fix it in the form",
                path_text(&layout_at)
            ));
        }
        let legend_at = written_at(model, path, "legend")
            .map_or_else(|| [table, &[Seg::Key("legend".into())]].concat(), |(at, _)| at);
        let walls_at = written_at(model, path, "walls")
            .map_or_else(|| [table, &[Seg::Key("walls".into())]].concat(), |(at, _)| at);
        let mut legend: Vec<LegendKey> = legend
            .iter()
            .filter_map(|(key, entry)| {
                let mut chars = key.chars();
                let (Some(key), None) = (chars.next(), chars.next()) else { return None };
                Some(match entry {
                    LegendEntry::Terrain(terrain) => {
                        LegendKey { key, terrain: Some(terrain.clone()), home: None, name: None, empty: false }
                    }
                    LegendEntry::Cell(LegendCell { terrain, home, name, empty }) => {
                        LegendKey { key, terrain: terrain.clone(), home: *home, name: name.clone(), empty: *empty }
                    }
                })
            })
            .collect();
        // In the order the legend is written (the resolved spec's is sorted by character).
        let written: Vec<String> = (model.children(&legend_at).into_iter())
            .filter_map(|(seg, _)| match seg {
                Seg::Key(key) => Some(key),
                Seg::Index(_) => None,
            })
            .collect();
        legend.sort_by_key(|k| written.iter().position(|w| w.chars().eq(std::iter::once(k.key))).unwrap_or(usize::MAX));
        let written_walls: Vec<WallSpec> = match model.json(&walls_at) {
            Some(json) => {
                serde_json::from_value(json).map_err(|e| format!("`{}` cannot be read: {e}", path_text(&walls_at)))?
            }
            None => Vec::new(),
        };
        let boards: Vec<String> = match (path, &template) {
            (_, Some(template)) => (rules.data.boards.keys())
                .filter(|id| *id == template || inherits_from(model, id, template))
                .cloned()
                .collect(),
            ([_, Seg::Key(id)], None) => vec![id.clone()],
            _ => Vec::new(),
        };
        let checked_with = rules
            .data
            .options
            .iter()
            .flat_map(|(option, def)| {
                def.choices
                    .iter()
                    .filter(|(choice, c)| {
                        **choice != def.default && c.board.as_ref().is_some_and(|b| boards.contains(b))
                    })
                    .map(|(choice, _)| Choices::from([(option.clone(), choice.clone())]))
            })
            .collect();
        // Every cell a space, so holes can be painted over and have a place on screen.
        let filler = rules.terrain.first().map(|t| t.id.clone()).ok_or("the mod has no terrain")?;
        let mut filled = spec.clone();
        let (filled_layout, filled_legend, filled_walls) = match &mut filled {
            BoardSpec::Square(s) => (&mut s.layout, &mut s.legend, &mut s.walls),
            BoardSpec::Offset(s) => (&mut s.layout, &mut s.legend, &mut s.walls),
            _ => unreachable!("a grid, matched above"),
        };
        *filled_layout = layout.iter().map(|line| line.iter().collect()).collect();
        for entry in filled_legend.values_mut() {
            if matches!(entry, LegendEntry::Cell(LegendCell { empty: true, .. })) {
                *entry = LegendEntry::Terrain(filler.clone());
            }
        }
        filled_walls.clone_from(&written_walls);
        let build = |spec: &BoardSpec| {
            let terrain = |name: &str| rules.terrain_index(name).and_then(|i| u16::try_from(i).ok());
            let mut rng = GameRng::from_seed(0);
            spec.build(&mut BuildContext { terrain: &terrain, seats: 2, rng: &mut rng })
        };
        let (board, wall_problem) = match build(&filled) {
            Ok(board) => (board, None),
            Err(problem) => {
                // Drawn without its walls, which are what the problem is about.
                match &mut filled {
                    BoardSpec::Square(s) => s.walls.clear(),
                    BoardSpec::Offset(s) => s.walls.clear(),
                    _ => {}
                }
                (build(&filled).map_err(|e| format!("the board cannot be built: {e}"))?, Some(problem))
            }
        };
        let mut map = Map {
            columns,
            rows,
            layout,
            legend,
            walls: Vec::new(),
            layout_at,
            legend_at,
            walls_written: model.get(&walls_at).is_some(),
            walls_at,
            template,
            boards,
            checked_with,
            board,
            labels: labels.clone(),
            wall_problem,
        };
        map.walls = written_walls
            .into_iter()
            .enumerate()
            .filter_map(|(index, wall)| {
                let [a, b] = &wall.between;
                Some(MapWall { index, between: [map.cell_of(a)?, map.cell_of(b)?], kind: wall.kind })
            })
            .collect();
        Ok(map)
    }

    /// The character at a cell.
    pub fn key_at(&self, cell: Cell) -> Option<char> {
        self.layout.get(cell.row as usize)?.get(cell.col as usize).copied()
    }

    /// What a legend character stands for.
    pub fn legend_key(&self, key: char) -> Option<&LegendKey> {
        self.legend.iter().find(|k| k.key == key)
    }

    /// A cell's label (`A00`), as rules and walls name it.
    pub fn label(&self, cell: Cell) -> String {
        self.labels.label(cell.col, cell.row)
    }

    /// The cell a label names.
    pub fn cell_of(&self, label: &str) -> Option<Cell> {
        let space = self.board.find(label)?;
        self.cell_of_space(space)
    }

    /// The cell of a space of [`Map::board`].
    pub fn cell_of_space(&self, space: u32) -> Option<Cell> {
        let space = self.board.get_space(space)?;
        Some(Cell::new(u32::try_from(space.col).ok()?, u32::try_from(space.row).ok()?))
    }

    /// The space of [`Map::board`] at a cell.
    pub fn space_of(&self, cell: Cell) -> Option<u32> {
        self.board.space_at(i32::try_from(cell.col).ok()?, i32::try_from(cell.row).ok()?)
    }

    /// The cells that share a side with `cell` (not those that only touch its corner): the
    /// edges a wall can be drawn on.
    pub fn side_neighbours(&self, cell: Cell) -> Vec<Cell> {
        let Some(space) = self.space_of(cell) else { return Vec::new() };
        let here = self.board.space(space);
        self.board
            .neighbors(space)
            .iter()
            .filter_map(|&(other, _)| {
                let there = self.board.space(other);
                // Diagonal neighbours of a square grid are a column and a row away.
                let diagonal = matches!(self.board.topology(), meeple_engine::board::Topology::Square { .. })
                    && here.col != there.col
                    && here.row != there.row;
                (!diagonal).then(|| self.cell_of_space(other)).flatten()
            })
            .collect()
    }

    /// The wall between two cells, if any.
    pub fn wall_between(&self, a: Cell, b: Cell) -> Option<&MapWall> {
        self.walls.iter().find(|w| w.between == [a, b] || w.between == [b, a])
    }

    /// The edits that paint `cells` with `key`: one per row that changes (the row's line is
    /// rewritten in place). Cells off the grid, and cells that have `key` already, are left out.
    pub fn paint_edits(&self, cells: &[Cell], key: char) -> Vec<Edit> {
        let mut rows: BTreeMap<u32, Vec<char>> = BTreeMap::new();
        for &cell in cells {
            if self.key_at(cell).is_none_or(|old| old == key) {
                continue;
            }
            let row = rows.entry(cell.row).or_insert_with(|| self.layout[cell.row as usize].clone());
            row[cell.col as usize] = key;
        }
        rows.into_iter()
            .map(|(row, line)| {
                let path = [self.layout_at.as_slice(), &[Seg::Index(row as usize)]].concat();
                Edit::Set(path, Value::from(line.into_iter().collect::<String>()))
            })
            .collect()
    }

    /// How many cells each seat has as its home.
    fn homes(&self, layout: &[Vec<char>]) -> BTreeMap<u8, usize> {
        let mut homes = BTreeMap::new();
        for key in layout.iter().flatten() {
            if let Some(seat) = self.legend_key(*key).and_then(|k| k.home) {
                *homes.entry(seat).or_default() += 1;
            }
        }
        homes
    }

    /// The seats whose last home cell painting `cells` with `key` would paint over.
    pub fn homes_lost(&self, cells: &[Cell], key: char) -> Vec<u8> {
        let mut after = self.layout.clone();
        for &cell in cells {
            if let Some(slot) = after.get_mut(cell.row as usize).and_then(|row| row.get_mut(cell.col as usize)) {
                *slot = key;
            }
        }
        let (before, after) = (self.homes(&self.layout), self.homes(&after));
        before.keys().filter(|seat| !after.contains_key(seat)).copied().collect()
    }

    /// The edits that toggle a wall of `kind` between two adjacent cells: added where there is
    /// none, removed where there is one of `kind`, changed to `kind` where it is another kind.
    pub fn wall_edits(&self, a: Cell, b: Cell, kind: &str) -> Result<(Vec<Edit>, WallChange), String> {
        if !self.side_neighbours(a).contains(&b) {
            return Err(format!("{} and {} share no side", self.label(a), self.label(b)));
        }
        if let Some(wall) = self.wall_between(a, b) {
            return Ok(if wall.kind == kind {
                (vec![Edit::Remove(self.walls_at.clone(), wall.index)], WallChange::Removed)
            } else {
                let path = [self.walls_at.as_slice(), &[Seg::Index(wall.index), Seg::Key("kind".into())]].concat();
                (vec![Edit::Set(path, Value::from(kind))], WallChange::Changed)
            });
        }
        let mut between = Array::new();
        between.push(self.label(a));
        between.push(self.label(b));
        let mut wall = InlineTable::new();
        wall.insert("between", Value::Array(between));
        wall.insert("kind", Value::from(kind));
        wall.fmt();
        let wall = Value::InlineTable(wall);
        let edit = if !self.walls_written {
            // The first wall: a new list, one wall a line.
            let mut list = Array::new();
            list.push_formatted(wall.decorated("\n  ", ""));
            list.set_trailing("\n");
            list.set_trailing_comma(true);
            Edit::Set(self.walls_at.clone(), Value::Array(list))
        } else {
            Edit::Push(self.walls_at.clone(), wall)
        };
        Ok((vec![edit], WallChange::Added))
    }
}

/// What a press on the map does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// Paint cells with the brush's legend character (a drag is one stroke).
    Paint,
    /// Put a wall on the edge clicked, or take it off.
    Walls,
}

/// The map as read for one revision of the model's texts, with its drawing.
struct ReadMap {
    folder: std::path::PathBuf,
    revision: u64,
    map: Result<Map, String>,
    geometry: Option<Geometry>,
}

/// Where the map was drawn last frame: its screen rectangle, pixels per cell and the world
/// point at the rectangle's middle.
#[derive(Clone, Copy)]
struct Frame {
    rect: Rect,
    zoom: f32,
    center: Pos2,
}

impl Frame {
    fn to_screen(self, world: Pos2) -> Pos2 {
        self.rect.center() + (world - self.center) * self.zoom
    }

    fn to_world(self, screen: Pos2) -> Pos2 {
        self.center + (screen - self.rect.center()) / self.zoom
    }
}

/// The painter open on one board.
pub struct MapPainter {
    /// The board painted: `board` or `boards.<id>`.
    pub board: DataPath,
    pub tool: Tool,
    /// The legend character painted with.
    pub brush: Option<char>,
    /// The kind of wall drawn (a terrain id).
    pub wall_kind: Option<String>,
    /// The cells of the stroke under way, painted when the button is let go.
    stroke: Vec<Cell>,
    /// Where the pointer was last frame during a stroke, so a fast drag skips no cell.
    last_pointer: Option<Pos2>,
    /// The edge the wall tool was pressed on, acted on when the button is let go there.
    wall_press: Option<(Cell, Cell)>,
    read: Option<ReadMap>,
    frame: Option<Frame>,
    /// The legend entry being added: its character, terrain and home seat.
    new_key: String,
    new_terrain: Option<String>,
    new_home: Option<u8>,
}

impl MapPainter {
    pub fn new(board: DataPath) -> Self {
        Self {
            board,
            tool: Tool::Paint,
            brush: None,
            wall_kind: None,
            stroke: Vec::new(),
            last_pointer: None,
            wall_press: None,
            read: None,
            frame: None,
            new_key: String::new(),
            new_terrain: None,
            new_home: None,
        }
    }

    /// Reads the map again when the texts changed since it was read (an edit, undo, redo).
    fn refresh(&mut self, model: &ModModel) {
        let fresh = self.read.as_ref().is_some_and(|r| r.revision == model.revision() && r.folder == model.folder);
        if fresh {
            return;
        }
        let map = Map::read(model, &self.board);
        let geometry = map.as_ref().ok().map(|m| Geometry::new(&m.board));
        if let Ok(map) = &map {
            // A brush and a wall kind to start with: the first legend character, the first kind
            // of wall the map has.
            if self.brush.is_none_or(|b| map.legend_key(b).is_none()) {
                self.brush = map.legend.first().map(|k| k.key);
            }
            if self.wall_kind.is_none() {
                self.wall_kind = map.walls.first().map(|w| w.kind.clone());
            }
        }
        self.read = Some(ReadMap { folder: model.folder.clone(), revision: model.revision(), map, geometry });
    }

    /// The map as the model's texts give it now.
    pub fn map(&mut self, model: &ModModel) -> Result<&Map, String> {
        self.refresh(model);
        match &self.read.as_ref().expect("refreshed").map {
            Ok(map) => Ok(map),
            Err(problem) => Err(problem.clone()),
        }
    }

    /// Paints `cells` with the legend character `key` as one change (one undo step). Refused,
    /// with nothing changed, when the key is not in the legend, when it would paint over a seat's
    /// last home cell, or when the mod (with each setup choice that plays on the board) does
    /// not load with it. Returns how many cells changed.
    pub fn paint(&mut self, model: &mut ModModel, cells: &[Cell], key: char) -> Result<usize, Refusal> {
        let refusal = |message: String| Refusal { message, problems: Vec::new() };
        let map = self.map(model).map_err(refusal)?;
        let Some(entry) = map.legend_key(key) else {
            return Err(refusal(format!("`{key}` is not in the legend")));
        };
        let lost = map.homes_lost(cells, key);
        if let Some(seat) = lost.first() {
            return Err(refusal(format!(
                "this stroke paints over the last home cell of seat {seat} (`home = {seat}`), and a seat the \
                 layout gives a home keeps one: paint another home of seat {seat} first"
            )));
        }
        let changed: BTreeSet<Cell> =
            cells.iter().copied().filter(|&c| map.key_at(c).is_some_and(|k| k != key)).collect();
        let edits = map.paint_edits(cells, key);
        if edits.is_empty() {
            return Ok(0);
        }
        let what = entry.terrain.clone().unwrap_or_else(|| "a hole".into());
        let checked_with = map.checked_with.clone();
        model.change(&edits, &checked_with).map_err(|mut refused| {
            refused.message = format!("painting `{key}` ({what}) there is refused: {}", refused.message);
            refused
        })?;
        Ok(changed.len())
    }

    /// Puts a wall of `kind` between two cells that share a side, or takes off (or changes to
    /// `kind`) the one there; one change, checked like any edit.
    pub fn toggle_wall(&mut self, model: &mut ModModel, a: Cell, b: Cell, kind: &str) -> Result<WallChange, Refusal> {
        let refusal = |message: String| Refusal { message, problems: Vec::new() };
        let map = self.map(model).map_err(refusal)?;
        let (edits, change) = map.wall_edits(a, b, kind).map_err(refusal)?;
        let checked_with = map.checked_with.clone();
        model.change(&edits, &checked_with)?;
        Ok(change)
    }

    /// Adds a legend entry: `key` for `terrain`, with a home seat when `home` is given.
    pub fn add_legend_key(
        &mut self,
        model: &mut ModModel,
        key: char,
        terrain: &str,
        home: Option<u8>,
    ) -> Result<(), Refusal> {
        let refusal = |message: String| Refusal { message, problems: Vec::new() };
        let map = self.map(model).map_err(refusal)?;
        if map.legend_key(key).is_some() {
            return Err(refusal(format!("`{key}` is in the legend already")));
        }
        if key.is_whitespace() || key.is_control() {
            return Err(refusal("a legend character must be visible: not a space".into()));
        }
        let value = match home {
            None => Value::from(terrain),
            Some(seat) => {
                let mut cell = InlineTable::new();
                cell.insert("terrain", Value::from(terrain));
                cell.insert("home", Value::from(i64::from(seat)));
                cell.fmt();
                Value::InlineTable(cell)
            }
        };
        let edit = if model.get(&map.legend_at).is_some() {
            Edit::Set([map.legend_at.as_slice(), &[Seg::Key(key.to_string())]].concat(), value)
        } else {
            let mut legend = InlineTable::new();
            legend.insert(key.to_string().as_str(), value);
            legend.fmt();
            Edit::Set(map.legend_at.clone(), Value::InlineTable(legend))
        };
        let checked_with = map.checked_with.clone();
        model.change(&[edit], &checked_with)
    }

    /// Where a cell was drawn last frame (its middle), for clicking it.
    pub fn cell_screen_pos(&self, cell: Cell) -> Option<Pos2> {
        let read = self.read.as_ref()?;
        let (map, geometry) = (read.map.as_ref().ok()?, read.geometry.as_ref()?);
        Some(self.frame?.to_screen(geometry.center(map.space_of(cell)?)?))
    }

    /// Where the edge between two cells was drawn last frame (its middle).
    pub fn edge_screen_pos(&self, a: Cell, b: Cell) -> Option<Pos2> {
        let (a, b) = (self.cell_screen_pos(a)?, self.cell_screen_pos(b)?);
        Some(a + (b - a) * 0.5)
    }

    /// Draws the painter: where the map is written, the tools, the legend palette and the map.
    /// Returns the outcome of a stroke for the editor's status line (`true`: made).
    pub fn ui(&mut self, ui: &mut egui::Ui, model: &mut ModModel, editable: bool) -> Option<(bool, String)> {
        self.refresh(model);
        let mut outcome = None;
        let read = self.read.take().expect("refreshed");
        let map = match &read.map {
            Ok(map) => map,
            Err(problem) => {
                ui.heading(format!("Map of {}", path_text(&self.board)));
                ui.colored_label(Color32::LIGHT_RED, problem);
                self.read = Some(read);
                return None;
            }
        };
        let Ok(rules) = model.rules.clone() else {
            self.read = Some(read);
            return None;
        };
        egui::Panel::top("map painter header").show(ui, |ui| {
            self.header_ui(ui, model, map, &rules, editable);
        });
        egui::Panel::left("map painter palette").default_size(250.0).resizable(true).show(ui, |ui| {
            egui::ScrollArea::vertical().id_salt("map palette").show(ui, |ui| {
                if let Some(result) = self.palette_ui(ui, model, map, &rules, editable) {
                    outcome = Some(result);
                }
            });
        });
        if let Some(geometry) = &read.geometry
            && let Some(result) = self.map_ui(ui, model, map, geometry, &rules, editable)
        {
            outcome = Some(result);
        }
        self.read = Some(read);
        outcome
    }

    /// The title, where the map is written, and the tools.
    fn header_ui(&mut self, ui: &mut egui::Ui, model: &ModModel, map: &Map, rules: &Ruleset, editable: bool) {
        ui.heading(format!("Map of {}", path_text(&self.board)));
        let file = model.get(&map.layout_at).map(|(file, _)| model.files[file].name.clone()).unwrap_or_default();
        match &map.template {
            None => {
                ui.label(RichText::new(format!("The layout is `{}` in {file}.", path_text(&map.layout_at))).small())
            }
            Some(template) => ui.label(
                RichText::new(format!(
                    "The layout is inherited: it is written in the template `boards.{template}` ({file}), and painting \
                     changes it for every board that inherits it: {}.",
                    map.boards.join(", ")
                ))
                .small()
                .color(Color32::from_rgb(0xf0, 0xc0, 0x40)),
            ),
        };
        if let Some(problem) = &map.wall_problem {
            ui.colored_label(Color32::LIGHT_RED, format!("The walls cannot be drawn: {problem}"));
        }
        ui.horizontal_wrapped(|ui| {
            ui.selectable_value(&mut self.tool, Tool::Paint, "Paint cells")
                .on_hover_text("Click or drag over cells to paint them with the chosen legend character; right-click a cell to pick its character");
            ui.selectable_value(&mut self.tool, Tool::Walls, "Walls")
                .on_hover_text("Click the edge between two cells to put a wall there; click it again to take it off");
            if self.tool == Tool::Walls {
                let label = ui.label("Wall kind");
                let used: BTreeSet<&str> = map.walls.iter().map(|w| w.kind.as_str()).collect();
                let shown = |id: &str| terrain_label(rules, id);
                let selected = self.wall_kind.as_deref().map(shown).unwrap_or_else(|| "choose".into());
                egui::ComboBox::from_id_salt("wall kind")
                    .selected_text(selected)
                    .show_ui(ui, |ui| {
                        // The kinds the map has first, then every other terrain of the mod.
                        let others = rules.terrain.iter().map(|t| t.id.as_str()).filter(|id| !used.contains(id));
                        for id in used.iter().copied().chain(others) {
                            ui.selectable_value(&mut self.wall_kind, Some(id.to_string()), shown(id));
                        }
                    })
                    .response
                    .labelled_by(label.id);
            }
            if !editable {
                ui.label(RichText::new("Choose where changes go (above) to paint.").weak());
            }
        });
    }

    /// The legend as a palette to pick the brush from, and a form to add an entry.
    fn palette_ui(
        &mut self,
        ui: &mut egui::Ui,
        model: &mut ModModel,
        map: &Map,
        rules: &Ruleset,
        editable: bool,
    ) -> Option<(bool, String)> {
        ui.strong("Legend");
        let counts = {
            let mut counts: BTreeMap<char, usize> = BTreeMap::new();
            for key in map.layout.iter().flatten() {
                *counts.entry(*key).or_default() += 1;
            }
            counts
        };
        for entry in &map.legend {
            ui.horizontal(|ui| {
                let (swatch, painter) = ui.allocate_painter(vec2(18.0, 18.0), Sense::hover());
                let fill = key_fill(rules, entry);
                painter.rect_filled(swatch.rect, 3.0, fill);
                if let Some(seat) = entry.home {
                    painter.rect_stroke(
                        swatch.rect.shrink(1.5),
                        3.0,
                        Stroke::new(3.0, describe::seat_color_on_side(rules, seat, None)),
                        egui::StrokeKind::Inside,
                    );
                }
                let chosen = self.brush == Some(entry.key) && self.tool == Tool::Paint;
                if ui.selectable_label(chosen, legend_text(rules, entry)).clicked() {
                    self.brush = Some(entry.key);
                    self.tool = Tool::Paint;
                }
                ui.label(RichText::new(counts.get(&entry.key).copied().unwrap_or(0).to_string()).small().weak())
                    .on_hover_text("cells of the map with this character");
            });
        }
        if !editable {
            return None;
        }
        ui.separator();
        let mut outcome = None;
        egui::CollapsingHeader::new("Add to the legend").id_salt("add legend").show(ui, |ui| {
            let used: BTreeSet<&str> = map.legend.iter().filter_map(|k| k.terrain.as_deref()).collect();
            egui::Grid::new("new legend entry").num_columns(2).show(ui, |ui| {
                let label = ui.label("Character");
                ui.add(egui::TextEdit::singleline(&mut self.new_key).char_limit(1).desired_width(30.0))
                    .labelled_by(label.id);
                ui.end_row();
                let label = ui.label("Terrain");
                let shown = |id: &str| terrain_label(rules, id);
                egui::ComboBox::from_id_salt("new legend terrain")
                    .selected_text(self.new_terrain.as_deref().map(shown).unwrap_or_else(|| "choose".into()))
                    .show_ui(ui, |ui| {
                        // Terrains the legend lacks first.
                        let (missing, present): (Vec<_>, Vec<_>) =
                            rules.terrain.iter().partition(|t| !used.contains(t.id.as_str()));
                        for terrain in missing.into_iter().chain(present) {
                            ui.selectable_value(&mut self.new_terrain, Some(terrain.id.clone()), &terrain.label);
                        }
                    })
                    .response
                    .labelled_by(label.id);
                ui.end_row();
                let label = ui.label("Home of seat");
                egui::ComboBox::from_id_salt("new legend home")
                    .selected_text(self.new_home.map_or("none".to_string(), |s| s.to_string()))
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut self.new_home, None, "none");
                        let seats = rules.manifest.seats.max;
                        for seat in 0..seats {
                            ui.selectable_value(&mut self.new_home, Some(seat), seat.to_string());
                        }
                    })
                    .response
                    .labelled_by(label.id);
                ui.end_row();
            });
            let key = self.new_key.chars().next();
            let ready = key.is_some() && self.new_terrain.is_some();
            if ui.add_enabled(ready, egui::Button::new("Add to the legend")).clicked()
                && let (Some(key), Some(terrain)) = (key, self.new_terrain.clone())
            {
                outcome = Some(match self.add_legend_key(model, key, &terrain, self.new_home) {
                    Ok(()) => {
                        self.brush = Some(key);
                        self.new_key.clear();
                        (true, format!("`{key}` is {terrain} now; paint with it"))
                    }
                    Err(refusal) => (false, refusal.to_string()),
                });
            }
        });
        outcome
    }

    /// The map: cells in their terrain's colour, homes framed in their seat's colour, walls on
    /// the edges, rulers; strokes and wall clicks.
    fn map_ui(
        &mut self,
        ui: &mut egui::Ui,
        model: &mut ModModel,
        map: &Map,
        geometry: &Geometry,
        rules: &Ruleset,
        editable: bool,
    ) -> Option<(bool, String)> {
        let size = ui.available_size().max(vec2(120.0, 120.0));
        let (response, painter) = ui.allocate_painter(size, Sense::click_and_drag());
        // Room for the rulers along the top and the left.
        let (top, left) = (16.0, 30.0);
        let area = Rect::from_min_max(response.rect.min + vec2(left, top), response.rect.max - vec2(4.0, 4.0));
        let bounds = geometry.bounds();
        let zoom = (area.width() / bounds.width()).min(area.height() / bounds.height()).max(1.0);
        let frame = Frame { rect: area, zoom, center: bounds.center() };
        self.frame = Some(frame);
        painter.rect_filled(response.rect, 0.0, Color32::from_rgb(0x1e, 0x2a, 0x38));

        let pointer = response.hover_pos().or_else(|| response.interact_pointer_pos());
        let cell_under = |at: Pos2| geometry.space_at(frame.to_world(at)).and_then(|s| map.cell_of_space(s));
        let mut outcome = None;
        if editable {
            outcome = match self.tool {
                Tool::Paint => self.paint_input(ui, &response, model, map, geometry, frame),
                Tool::Walls => self.wall_input(&response, model, map, geometry, rules, frame),
            };
        }
        if response.secondary_clicked()
            && let Some(cell) = pointer.and_then(cell_under)
        {
            self.brush = map.key_at(cell);
            self.tool = Tool::Paint;
        }

        let pending: BTreeSet<Cell> = self.stroke.iter().copied().collect();
        let mut mesh = Mesh::default();
        for &(center, space) in geometry.cells() {
            let Some(cell) = space.and_then(|s| map.cell_of_space(s)) else { continue };
            let key = if pending.contains(&cell) { self.brush } else { map.key_at(cell) };
            let entry = key.and_then(|k| map.legend_key(k));
            let at = frame.to_screen(center);
            match entry {
                Some(entry) if entry.empty => {
                    add_polygon(&mut mesh, at, geometry.corners(), zoom * 0.9, Color32::from_rgb(0x14, 0x1c, 0x26));
                }
                Some(entry) => {
                    let fill = key_fill(rules, entry);
                    match entry.home {
                        Some(seat) => {
                            let seat_color = describe::seat_color_on_side(rules, seat, None);
                            add_polygon(&mut mesh, at, geometry.corners(), zoom, seat_color);
                            add_polygon(&mut mesh, at, geometry.corners(), zoom * 0.7, fill);
                        }
                        None => add_polygon(&mut mesh, at, geometry.corners(), zoom, fill),
                    }
                }
                None => add_polygon(&mut mesh, at, geometry.corners(), zoom, Color32::from_gray(90)),
            }
        }
        painter.add(Shape::mesh(mesh));
        let outline = Stroke::new(1.0, Color32::from_black_alpha(50));
        let font = FontId::monospace((zoom * 0.45).clamp(8.0, 18.0));
        for &(center, space) in geometry.cells() {
            let Some(cell) = space.and_then(|s| map.cell_of_space(s)) else { continue };
            let points: Vec<Pos2> = geometry.corners().iter().map(|c| frame.to_screen(center + *c)).collect();
            painter.add(Shape::closed_line(points, outline));
            // The character as the layout writes it, so the picture reads like the file.
            let key = if pending.contains(&cell) { self.brush } else { map.key_at(cell) };
            if zoom >= 14.0
                && let Some(key) = key
            {
                let fill = map.legend_key(key).map_or(Color32::GRAY, |entry| key_fill(rules, entry));
                let ink = ink_on(fill).gamma_multiply(0.7);
                painter.text(frame.to_screen(center), Align2::CENTER_CENTER, key, font.clone(), ink);
            }
        }
        let wall_width = (zoom * 0.15).clamp(2.0, 7.0);
        for ([a, b], terrain) in geometry.walls() {
            let (a, b) = (frame.to_screen(*a), frame.to_screen(*b));
            painter.line_segment([a, b], Stroke::new(wall_width + 2.0, Color32::BLACK));
            painter.line_segment([a, b], Stroke::new(wall_width, wall_color(rules, *terrain)));
        }
        self.draw_rulers(&painter, response.rect, map, geometry, frame);
        // What a click would act on.
        if let Some(at) = response.hover_pos() {
            match self.tool {
                Tool::Paint => {
                    if let Some(cell) = cell_under(at)
                        && let Some(center) = map.space_of(cell).and_then(|s| geometry.center(s))
                    {
                        let points: Vec<Pos2> =
                            geometry.corners().iter().map(|c| frame.to_screen(center + *c * 0.95)).collect();
                        painter.add(Shape::closed_line(points, Stroke::new(2.0, Color32::WHITE)));
                    }
                }
                Tool::Walls => {
                    let screen_of = |cell: Cell| Some(frame.to_screen(geometry.center(map.space_of(cell)?)?));
                    if let Some((a, b)) = edge_at(map, geometry, frame.to_world(at))
                        && let (Some(a), Some(b)) = (screen_of(a), screen_of(b))
                    {
                        let middle = a + (b - a) * 0.5;
                        let along = (b - a).rot90() * 0.5;
                        painter.line_segment([middle - along, middle + along], Stroke::new(3.0, Color32::WHITE));
                    }
                }
            }
            if let Some(cell) = cell_under(at) {
                let text = cell_text(rules, map, cell);
                response.on_hover_ui_at_pointer(|ui| {
                    ui.label(text);
                });
            }
        }
        outcome
    }

    /// A stroke of the paint tool: cells gathered while the button is down, painted as one
    /// change when it is let go.
    fn paint_input(
        &mut self,
        ui: &egui::Ui,
        response: &egui::Response,
        model: &mut ModModel,
        map: &Map,
        geometry: &Geometry,
        frame: Frame,
    ) -> Option<(bool, String)> {
        let primary_down = ui.input(|i| i.pointer.primary_down());
        let pressed_here = (response.is_pointer_button_down_on() && primary_down) || response.clicked();
        if pressed_here && let Some(at) = response.interact_pointer_pos() {
            let to = frame.to_world(at);
            let from = self.last_pointer.map_or(to, |p| frame.to_world(p));
            // Samples a quarter of a cell apart: a fast drag paints every cell it crosses.
            let steps = (from.distance(to) * 4.0).ceil().clamp(1.0, 4096.0) as usize;
            for step in 0..=steps {
                let world = from + (to - from) * (step as f32 / steps as f32);
                if let Some(cell) = geometry.space_at(world).and_then(|s| map.cell_of_space(s))
                    && !self.stroke.contains(&cell)
                {
                    self.stroke.push(cell);
                }
            }
            self.last_pointer = Some(at);
        }
        if self.stroke.is_empty() || primary_down {
            return None;
        }
        // The stroke ended: one change.
        let cells = std::mem::take(&mut self.stroke);
        self.last_pointer = None;
        let key = self.brush?;
        Some(match self.paint(model, &cells, key) {
            Ok(0) => return None,
            Ok(1) => (true, format!("Painted {} with `{key}`", map.label(cells[0]))),
            Ok(count) => (true, format!("Painted {count} cells with `{key}`")),
            Err(refusal) => (false, refusal.to_string()),
        })
    }

    /// A click of the wall tool: the edge nearest the pointer walled, unwalled or changed.
    fn wall_input(
        &mut self,
        response: &egui::Response,
        model: &mut ModModel,
        map: &Map,
        geometry: &Geometry,
        rules: &Ruleset,
        frame: Frame,
    ) -> Option<(bool, String)> {
        // The edge pressed on is acted on when the button is let go over it (however long it
        // was held), not when the pointer left it first.
        let edge_under = || edge_at(map, geometry, frame.to_world(response.interact_pointer_pos()?));
        let primary_down = response.ctx.input(|i| i.pointer.primary_down());
        if response.is_pointer_button_down_on() && primary_down {
            if self.wall_press.is_none() {
                self.wall_press = edge_under();
            }
            return None;
        }
        let pressed = self.wall_press.take();
        let released_on = if response.clicked() || pressed.is_some() { edge_under() } else { None };
        let (a, b) = released_on.filter(|edge| pressed.is_none_or(|p| p == *edge))?;
        // Named (and written) in reading order, whichever side of the edge was clicked.
        let (a, b) = if (a.row, a.col) <= (b.row, b.col) { (a, b) } else { (b, a) };
        let Some(kind) = self.wall_kind.clone() else {
            return Some((false, "Choose a wall kind first".into()));
        };
        let (la, lb) = (map.label(a), map.label(b));
        let shown = terrain_label(rules, &kind);
        Some(match self.toggle_wall(model, a, b, &kind) {
            Ok(WallChange::Added) => (true, format!("{shown} put between {la} and {lb}")),
            Ok(WallChange::Removed) => (true, format!("The wall between {la} and {lb} is taken off")),
            Ok(WallChange::Changed) => (true, format!("The wall between {la} and {lb} is a {shown} now")),
            Err(refusal) => (false, refusal.to_string()),
        })
    }

    /// Column labels along the top and row labels down the left, as the spaces are named.
    fn draw_rulers(&self, painter: &egui::Painter, rect: Rect, map: &Map, geometry: &Geometry, frame: Frame) {
        let font = FontId::monospace(10.0);
        let color = Color32::from_gray(220);
        for col in 0..map.columns {
            if let Some(center) = map.space_of(Cell::new(col, 0)).and_then(|s| geometry.center(s)) {
                let x = frame.to_screen(center).x;
                painter.text(
                    egui::pos2(x, rect.top() + 8.0),
                    Align2::CENTER_CENTER,
                    map.labels.column_label(col),
                    font.clone(),
                    color,
                );
            }
        }
        for row in 0..map.rows {
            if let Some(center) = map.space_of(Cell::new(0, row)).and_then(|s| geometry.center(s)) {
                let y = frame.to_screen(center).y;
                painter.text(
                    egui::pos2(rect.left() + 14.0, y),
                    Align2::CENTER_CENTER,
                    map.labels.row_label(row),
                    font.clone(),
                    color,
                );
            }
        }
    }
}

/// The edge under a world position: between the cell there and the neighbour across its
/// nearest side; none near the cell's middle, where no side is nearer than another.
fn edge_at(map: &Map, geometry: &Geometry, world: Pos2) -> Option<(Cell, Cell)> {
    let space = geometry.space_at(world)?;
    let cell = map.cell_of_space(space)?;
    let center = geometry.center(space)?;
    if center.distance(world) < 0.2 {
        return None;
    }
    map.side_neighbours(cell)
        .into_iter()
        .filter_map(|other| {
            let there = geometry.center(map.space_of(other)?)?;
            let middle = center + (there - center) * 0.5;
            Some((middle.distance(world), other))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, other)| (cell, other))
}

/// The colour of a legend character's cells: its terrain's.
fn key_fill(rules: &Ruleset, entry: &LegendKey) -> Color32 {
    match entry.terrain.as_deref().and_then(|t| rules.terrain_index(t)) {
        Some(index) => describe::terrain_color(rules, index),
        None => Color32::from_rgb(0x14, 0x1c, 0x26),
    }
}

/// A terrain's name as the mod gives it (its id when it has none).
fn terrain_label(rules: &Ruleset, id: &str) -> String {
    rules.terrain.iter().find(|t| t.id == id).map_or_else(|| id.to_string(), |t| t.label.clone())
}

/// A palette line: the character, the terrain's name, the home seat and the space name.
fn legend_text(rules: &Ruleset, entry: &LegendKey) -> String {
    if entry.empty {
        return format!("{}  no space (a hole)", entry.key);
    }
    let mut text = format!("{}  {}", entry.key, terrain_label(rules, entry.terrain.as_deref().unwrap_or("?")));
    if let Some(seat) = entry.home {
        text.push_str(&format!(", home of seat {seat}"));
    }
    if let Some(name) = &entry.name {
        text.push_str(&format!(", \"{name}\""));
    }
    text
}

/// What the tooltip says about a cell: its label, character and what that stands for.
fn cell_text(rules: &Ruleset, map: &Map, cell: Cell) -> String {
    let key = map.key_at(cell);
    let meaning = key.and_then(|k| map.legend_key(k)).map(|entry| legend_text(rules, entry)).unwrap_or_default();
    format!("{}: {meaning}", map.label(cell))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::model::path;

    const MANIFEST: &str = "id = \"fields\"\nname = \"Fields\"\nversion = \"0.1.0\"\napi = 1\n\
                            description = \"Claim squares.\"\nseats = { min = 2, max = 2 }\n";

    /// Two maps on one template, a third that inherits the first's layout, and a setup option
    /// choosing among them (only the first is built when the mod loads with the defaults).
    const MAPS: &str = r##"# The maps.
[options.map]
label = "Map"
default = "small"
choices.small = { label = "Small", board = "small" }
choices.wide = { label = "Wide", board = "wide" }
choices.again = { label = "Again", board = "again" }

[boards.common]
abstract = true
kind = "square"
columns = 4
rows = 3
legend = { "." = "grass", "#" = "rock", "a" = { terrain = "grass", home = 0 }, "b" = { terrain = "grass", home = 1 }, "x" = { empty = true } }

[boards.small]
inherits = "common"
# One row a line.
layout = [
  "a..b",
  ".#..", # the rock
  "a..b",
]
walls = [
  # A fence.
  { between = ["A00", "B00"], kind = "fence" },
]

[boards.wide]
inherits = "common"
columns = 6
layout = [
  "a....b",
  "..##..",
  "x....x",
]

[boards.again]
inherits = "small"

[terrain.grass]
color = "#80c080"
[terrain.rock]
color = "#808080"
[terrain.fence]

[turn]
phases = [{ id = "main", actions = ["claim"] }]

[actions.claim]
label = "Claim"
params = [{ name = "target", kind = "space", where = "target.owner == none" }]
effect = ["target.owner = me"]

[end]
win = "owned(seat) >= 3"
"##;

    /// The mod written to a scratch folder of this test's own, removed when it ends.
    struct Fields {
        root: std::path::PathBuf,
        model: ModModel,
    }

    impl Drop for Fields {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.root);
        }
    }

    impl Fields {
        fn open(test: &str) -> Self {
            let root = std::env::temp_dir().join(format!("meeple-painter-{}-{test}", std::process::id()));
            let folder = root.join("fields");
            std::fs::create_dir_all(&folder).expect("a scratch folder");
            std::fs::write(folder.join("mod.toml"), MANIFEST).expect("mod.toml");
            std::fs::write(folder.join("maps.toml"), MAPS).expect("maps.toml");
            let model = ModModel::open(&folder).expect("opens");
            if let Err(problems) = &model.rules {
                panic!("{}", problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"));
            }
            Self { root, model }
        }

        fn text(&self) -> String {
            self.model.files[1].text()
        }
    }

    /// The lines of `after` that differ from `before` (the same number of lines).
    fn changed(before: &str, after: &str) -> Vec<(String, String)> {
        assert_eq!(before.lines().count(), after.lines().count(), "{after}");
        before.lines().zip(after.lines()).filter(|(a, b)| a != b).map(|(a, b)| (a.into(), b.into())).collect()
    }

    fn cells(list: &[(u32, u32)]) -> Vec<Cell> {
        list.iter().map(|&(col, row)| Cell::new(col, row)).collect()
    }

    #[test]
    fn a_stroke_rewrites_the_rows_it_paints_and_is_one_undo_step() {
        let mut fields = Fields::open("stroke");
        let mut painter = MapPainter::new(path("boards.small"));
        let map = painter.map(&fields.model).expect("a map");
        assert_eq!((map.columns, map.rows, map.template.clone()), (4, 3, None));
        assert_eq!(map.label(Cell::new(1, 2)), "B02");
        assert_eq!(map.walls.len(), 1);
        assert!(map.checked_with.is_empty(), "the default choice plays on it: {:?}", map.checked_with);
        let count = painter.paint(&mut fields.model, &cells(&[(1, 0), (2, 0), (1, 2), (1, 1)]), '#').expect("painted");
        assert_eq!(count, 3, "the rock that was there already is not counted");
        assert_eq!(
            changed(MAPS, &fields.text()),
            [("  \"a..b\",", "  \"a##b\","), ("  \"a..b\",", "  \"a#.b\",")]
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .to_vec()
        );
        assert_eq!(painter.map(&fields.model).expect("read again").key_at(Cell::new(2, 0)), Some('#'));
        // The same paint again changes nothing, and makes no undo step.
        assert_eq!(painter.paint(&mut fields.model, &cells(&[(1, 0)]), '#'), Ok(0));
        assert!(fields.model.undo());
        assert!(!fields.model.is_dirty(), "one undo takes the whole stroke back");
        assert_eq!(painter.map(&fields.model).expect("read again").key_at(Cell::new(2, 0)), Some('.'));
    }

    #[test]
    fn painting_over_a_seats_last_home_is_refused() {
        let mut fields = Fields::open("homes");
        let mut painter = MapPainter::new(path("boards.small"));
        let refused = painter.paint(&mut fields.model, &cells(&[(0, 0), (0, 2)]), '.').expect_err("refused");
        assert!(refused.message.contains("last home cell of seat 0"), "{refused}");
        assert!(!fields.model.is_dirty());
        // One of the two may go; and a home painted elsewhere first lets the other go too.
        painter.paint(&mut fields.model, &cells(&[(0, 0)]), '.').expect("one of two");
        painter.paint(&mut fields.model, &cells(&[(1, 1)]), 'a').expect("a new home");
        painter.paint(&mut fields.model, &cells(&[(0, 2)]), '.').expect("the old one");
        assert_eq!(painter.map(&fields.model).expect("a map").key_at(Cell::new(1, 1)), Some('a'));
    }

    #[test]
    fn walls_are_added_changed_and_taken_off_keeping_the_comments() {
        let mut fields = Fields::open("walls");
        let mut painter = MapPainter::new(path("boards.small"));
        let (a, b) = (Cell::new(1, 1), Cell::new(1, 2));
        assert_eq!(painter.toggle_wall(&mut fields.model, a, b, "fence"), Ok(WallChange::Added));
        assert!(
            fields.text().contains(
                "  { between = [\"A00\", \"B00\"], kind = \"fence\" },\n  { between = [\"B01\", \"B02\"], kind = \"fence\" },\n]"
            ),
            "{}",
            fields.text()
        );
        let rules = fields.model.rules.as_ref().expect("loads");
        assert_eq!(rules.data.board.clone(), rules.data.boards["small"].clone(), "the default board");
        assert_eq!(painter.toggle_wall(&mut fields.model, b, a, "rock"), Ok(WallChange::Changed));
        assert!(fields.text().contains("{ between = [\"B01\", \"B02\"], kind = \"rock\" }"));
        assert_eq!(painter.toggle_wall(&mut fields.model, a, b, "rock"), Ok(WallChange::Removed));
        assert_eq!(fields.text(), MAPS, "back as written");
        // The first wall, taken off, leaves its comment.
        assert_eq!(
            painter.toggle_wall(&mut fields.model, Cell::new(0, 0), Cell::new(1, 0), "fence"),
            Ok(WallChange::Removed)
        );
        assert!(fields.text().contains("walls = [\n  # A fence.\n]"), "{}", fields.text());
        // Only cells that share a side have an edge to wall.
        let refused = painter.toggle_wall(&mut fields.model, Cell::new(0, 0), Cell::new(1, 1), "fence");
        assert!(refused.is_err_and(|r| r.message.contains("share no side")));
    }

    #[test]
    fn the_first_wall_of_a_map_starts_a_list_beside_its_layout() {
        let mut fields = Fields::open("first_wall");
        let mut painter = MapPainter::new(path("boards.wide"));
        let map = painter.map(&fields.model).expect("a map");
        assert_eq!(map.walls_at, path("boards.wide.walls"));
        assert_eq!(map.checked_with, vec![Choices::from([("map".to_string(), "wide".to_string())])]);
        painter.toggle_wall(&mut fields.model, Cell::new(1, 1), Cell::new(1, 2), "fence").expect("added");
        assert!(
            fields
                .text()
                .contains("  \"x....x\",\n]\nwalls = [\n  { between = [\"B01\", \"B02\"], kind = \"fence\" },\n]\n"),
            "{}",
            fields.text()
        );
        // A hole painted under the wall: the board cannot be built with that choice, and the
        // mod's own problem says why.
        let refused = painter.paint(&mut fields.model, &cells(&[(1, 2)]), 'x').expect_err("refused");
        assert!(refused.message.contains("map = wide"), "{refused}");
        assert!(refused.problems.iter().any(|p| p.contains("B02")), "{refused}");
        assert_eq!(painter.map(&fields.model).expect("a map").key_at(Cell::new(1, 2)), Some('.'));
    }

    #[test]
    fn an_inherited_layout_is_painted_in_its_template() {
        let mut fields = Fields::open("inherited");
        let mut painter = MapPainter::new(path("boards.again"));
        let map = painter.map(&fields.model).expect("a map");
        assert_eq!(map.template.as_deref(), Some("small"));
        assert_eq!(map.layout_at, path("boards.small.layout"));
        assert_eq!(map.boards, ["small", "again"]);
        assert_eq!(map.checked_with, vec![Choices::from([("map".to_string(), "again".to_string())])]);
        painter.paint(&mut fields.model, &cells(&[(2, 1)]), '#').expect("painted");
        assert_eq!(
            changed(MAPS, &fields.text()),
            [("  \".#..\", # the rock".to_string(), "  \".##.\", # the rock".to_string())]
        );
    }

    #[test]
    fn a_legend_entry_is_added_and_painted_with() {
        let mut fields = Fields::open("legend");
        let mut painter = MapPainter::new(path("boards.wide"));
        painter.add_legend_key(&mut fields.model, 'f', "fence", None).expect("added");
        painter.add_legend_key(&mut fields.model, 'c', "grass", Some(1)).expect("added");
        assert!(painter.add_legend_key(&mut fields.model, 'f', "rock", None).is_err(), "in the legend already");
        let legend = fields.text().lines().find(|l| l.starts_with("legend =")).expect("the legend").to_string();
        assert!(legend.ends_with(", f = \"fence\", c = { terrain = \"grass\", home = 1 } }"), "{legend}");
        painter.paint(&mut fields.model, &cells(&[(2, 2)]), 'c').expect("painted");
        let rules = meeple_engine::loader::load_mod_edited(
            &fields.model.folder,
            &Choices::from([("map".to_string(), "wide".to_string())]),
            &fields.model.overlay(),
        )
        .expect("loads")
        .ruleset;
        let terrain = |name: &str| rules.terrain_index(name).and_then(|i| u16::try_from(i).ok());
        let board =
            rules.data.board.build(&mut BuildContext { terrain: &terrain, seats: 2, rng: &mut GameRng::from_seed(1) });
        let board = board.expect("builds");
        assert_eq!(board.home_spaces(1).count(), 2);
    }

    #[test]
    fn an_edge_is_picked_near_a_side_and_never_across_a_corner() {
        let fields = Fields::open("edges");
        let mut painter = MapPainter::new(path("boards.small"));
        let map = painter.map(&fields.model).expect("a map");
        let geometry = Geometry::new(&map.board);
        let centre = geometry.center(map.space_of(Cell::new(1, 1)).expect("a space")).expect("drawn");
        assert_eq!(edge_at(map, &geometry, centre + vec2(0.45, 0.05)), Some((Cell::new(1, 1), Cell::new(2, 1))));
        assert_eq!(edge_at(map, &geometry, centre + vec2(-0.1, -0.4)), Some((Cell::new(1, 1), Cell::new(1, 0))));
        assert_eq!(edge_at(map, &geometry, centre), None, "the middle of a cell is no edge");
        assert_eq!(map.side_neighbours(Cell::new(0, 0)), [Cell::new(1, 0), Cell::new(0, 1)]);
    }
}
