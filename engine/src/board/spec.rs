//! The `[board]` table of a mod: one spec type per board kind, static checks with key paths,
//! and the entry point that builds a [`Board`].
//!
//! The doc comments on these types become the JSON Schema descriptions and the modding
//! reference, so they are written for mod authors.
//!
//! `deny_unknown_fields` sits on each variant struct, not on [`BoardSpec`]: serde removes the
//! `kind` tag from the table before handing the rest to the variant struct, so the struct never
//! sees `kind` and still rejects every other unknown key; schemars adds `kind` to each variant's
//! properties, so the schema's `additionalProperties: false` admits it too. (On the enum itself
//! the attribute would have no effect for newtype variants.)

use std::collections::BTreeMap;
use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::lattice::{CellShape, Lattice, LatticeShape, OffsetKind};
use super::{Board, LabelSpec, TerrainId, graph, grid, rings, territory};
use crate::rng::GameRng;

/// The board of a mod. `kind` chooses the board type; the other keys depend on it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum BoardSpec {
    // The variants' descriptions are their structs' doc comments (a doc comment here would
    // replace the struct's in the schema and the reference).
    Square(SquareSpec),
    Offset(OffsetSpec),
    Territories(TerritorySpec),
    Rings(RingsSpec),
    Graph(GraphSpec),
}

/// A grid of squares with four or eight neighbours per space (`kind = "square"`). Spaces are
/// labelled by column and row (see `labels`); row 0 is the top row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SquareSpec {
    /// Number of columns, 1 to 1024.
    pub columns: u32,
    /// Number of rows, 1 to 1024. A grid has at most 100,000 spaces.
    pub rows: u32,
    /// 4: spaces sharing a side are adjacent. 8: spaces touching at a corner are adjacent too.
    #[serde(default = "default_neighbours")]
    pub neighbours: u32,
    /// A picture of the board: one string per row (top row first), one character per column.
    /// Each character is looked up in `legend`. Without a layout every space gets `terrain`.
    #[serde(default)]
    pub layout: Vec<String>,
    /// What each layout character means: a terrain name, or a table with terrain, home seat,
    /// display name, or `empty = true` for a hole in the board.
    #[serde(default)]
    pub legend: BTreeMap<String, LegendEntry>,
    /// The terrain of every space when there is no layout.
    #[serde(default)]
    #[schemars(extend("x-meeple-ref" = "terrain"))]
    pub terrain: Option<String>,
    /// Walls (or rivers, fences, …) on the edges between adjacent spaces. With
    /// `neighbours = 8`, a diagonal step cuts no wall's corner: when both ways round its corner
    /// are walled (a straight wall through the corner, or an L closing one end in), the step
    /// takes a wall of the first way round (by the square in the start's row), unless it has one
    /// of its own; a single wall ending at the corner leaves the step open.
    #[serde(default)]
    pub walls: Vec<WallSpec>,
    /// How spaces are labelled; the default gives `A00`, `B07`, …
    #[serde(default)]
    pub labels: LabelSpec,
    /// A random generator that decides the terrain of every space instead of `layout`.
    #[serde(default)]
    pub generate: Option<GenerateSpec>,
}

/// A zig-zag grid (`kind = "offset"`): every other row or column is shifted half a cell, so each
/// space has six neighbours like a hex. Row 0 is the top row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OffsetSpec {
    /// Number of columns, 1 to 1024.
    pub columns: u32,
    /// Number of rows, 1 to 1024. A grid has at most 100,000 spaces.
    pub rows: u32,
    /// Which rows or columns are shifted half a cell.
    #[serde(default)]
    pub offset: OffsetKind,
    /// A picture of the board: one string per row (top row first), one character per column.
    /// Each character is looked up in `legend`. Without a layout every space gets `terrain`.
    #[serde(default)]
    pub layout: Vec<String>,
    /// What each layout character means: a terrain name, or a table with terrain, home seat,
    /// display name, or `empty = true` for a hole in the board.
    #[serde(default)]
    pub legend: BTreeMap<String, LegendEntry>,
    /// The terrain of every space when there is no layout.
    #[serde(default)]
    #[schemars(extend("x-meeple-ref" = "terrain"))]
    pub terrain: Option<String>,
    /// Walls (or rivers, fences, …) on the edges between adjacent spaces.
    #[serde(default)]
    pub walls: Vec<WallSpec>,
    /// How spaces are labelled; the default gives `A00`, `B07`, …
    #[serde(default)]
    pub labels: LabelSpec,
    /// A random generator that decides the terrain of every space instead of `layout`.
    #[serde(default)]
    pub generate: Option<GenerateSpec>,
}

fn default_neighbours() -> u32 {
    4
}

/// The meaning of one layout character: just a terrain name, or a table with more detail.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum LegendEntry {
    /// The terrain name of spaces drawn with this character.
    Terrain(String),
    /// Terrain plus home seat or display name, or a hole.
    Cell(LegendCell),
}

/// A layout character with more than a terrain.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LegendCell {
    /// The terrain name of spaces drawn with this character (required unless `empty`).
    #[serde(default)]
    #[schemars(extend("x-meeple-ref" = "terrain"))]
    pub terrain: Option<String>,
    /// The seat (0 = first player) whose home or base these spaces are.
    #[serde(default)]
    pub home: Option<u8>,
    /// A display name for these spaces.
    #[serde(default)]
    pub name: Option<String>,
    /// `true`: there is no space at cells drawn with this character (a hole in the board).
    #[serde(default)]
    pub empty: bool,
}

/// A wall on the edge between two adjacent spaces, e.g.
/// `{ between = ["A01", "A02"], kind = "stone_wall" }`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WallSpec {
    /// The labels of the two adjacent spaces the wall separates.
    pub between: [String; 2],
    /// The terrain name of the wall; movement rules decide what it costs or blocks.
    pub kind: String,
}

/// A random terrain generator for a grid. `kind` chooses the generator.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum GenerateSpec {
    // The description is `LandWaterSpec`'s doc comment.
    LandWater(LandWaterSpec),
}

/// Random land and water with natural-looking coasts (`kind = "land_water"`).
///
/// Algorithm: every cell draws a uniform random number; `smoothing` rounds of averaging each
/// cell with its neighbours turn the noise into smooth hills and valleys; the lowest
/// `water_share` of the cells (ties broken by cell order) become water, so the share is exact.
/// With `connected = true`, only the largest land region is kept (the rest turns to water) and
/// the kept region then regrows into the highest neighbouring water cells until land is back at
/// its share, so all land is one region and the share stays exact. This never needs retries.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LandWaterSpec {
    /// The terrain name of land spaces.
    #[schemars(extend("x-meeple-ref" = "terrain"))]
    pub land: String,
    /// The terrain name of water spaces.
    #[schemars(extend("x-meeple-ref" = "terrain"))]
    pub water: String,
    /// The share of spaces that are water, 0 to 1.
    #[serde(default = "default_water_share")]
    pub water_share: f64,
    /// Rounds of neighbour averaging, 0 to 64: more rounds give larger, rounder lakes and
    /// islands; 0 gives salt-and-pepper noise.
    #[serde(default = "default_smoothing")]
    pub smoothing: u32,
    /// `true`: all land spaces form one connected region.
    #[serde(default = "default_true")]
    pub connected: bool,
}

fn default_water_share() -> f64 {
    0.3
}

fn default_smoothing() -> u32 {
    3
}

fn default_true() -> bool {
    true
}

/// A randomly generated map of territories made of lattice cells, with sea around
/// (`kind = "territories"`). Each territory is a connected group of lattice cells and is one
/// space of the board, labelled `1`, `2`, … in the order it was placed.
/// Territories sharing a cell side are adjacent.
///
/// Algorithm: the outer ring of lattice cells always stays sea (on lattices of at least 3×3).
/// The first territory starts near the centre of the lattice; every later one starts on a free
/// cell next to the land placed so far (the more central of two random picks, so the land stays
/// near the middle). A territory grows one cell at a time
/// onto a random free cell next to it (with `compact`, cells touching more of the territory are
/// likelier) until it reaches a size drawn from `cells_per_territory`. So the land is one
/// connected mass surrounded by sea, and every territory touches an earlier one. A territory
/// that gets boxed in below the minimum size is retried from another start cell, and the whole
/// map is retried a bounded number of times before the build fails with an error.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TerritorySpec {
    /// Lattice columns, 1 to 1024.
    pub columns: u32,
    /// Lattice rows, 1 to 1024.
    pub rows: u32,
    /// The shape of the lattice cells.
    #[serde(default)]
    pub cell: CellShape,
    /// How many territories to make (at least 2).
    pub territories: u32,
    /// `true`: round the territory count down to a multiple of the number of seats (but at least
    /// one per seat), so every player can start with the same number.
    #[serde(default = "default_true")]
    pub equal_shares: bool,
    /// How many cells a territory has: a number, or `{ min = 6, max = 14 }`.
    #[serde(default)]
    pub cells_per_territory: TerritorySize,
    /// The terrain name of every territory.
    #[schemars(extend("x-meeple-ref" = "terrain"))]
    pub terrain: String,
    /// `true`: territories grow into round blobs; `false`: into straggly shapes.
    #[serde(default = "default_true")]
    pub compact: bool,
}

/// The size of a territory in lattice cells: an exact number or a range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum TerritorySize {
    /// Every territory has exactly this many cells.
    Exact(u32),
    /// Each territory gets a random size in this range.
    Range(SizeRange),
}

/// An inclusive range of territory sizes in cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SizeRange {
    /// The fewest cells of a territory (at least 1).
    pub min: u32,
    /// The most cells of a territory (at most 4096).
    pub max: u32,
}

impl Default for TerritorySize {
    fn default() -> Self {
        TerritorySize::Range(SizeRange { min: 6, max: 14 })
    }
}

impl TerritorySize {
    /// The inclusive size range.
    pub fn bounds(&self) -> (u32, u32) {
        match *self {
            TerritorySize::Exact(size) => (size, size),
            TerritorySize::Range(SizeRange { min, max }) => (min, max),
        }
    }
}

/// Concentric rings and open tracks of spaces, optionally one-way, joined by links
/// (`kind = "rings"`): each ring is a cycle of spaces (or an open track), drawn as concentric
/// circles, the first ring outermost.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RingsSpec {
    /// The rings, outermost first.
    pub rings: Vec<RingSpec>,
    /// Extra connections between spaces, addressed as `"<ring id>:<index>"`, e.g. `"outer:0"`.
    #[serde(default)]
    pub links: Vec<RingLinkSpec>,
}

/// One ring or track. Space `i` of ring `outer` is labelled `"outer i"` unless `label_prefix`
/// says otherwise; links always address it as `"outer:i"`, counting from 0.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RingSpec {
    /// The ring's name, used in links and labels; no `:` allowed.
    pub id: String,
    /// The spaces in order: a list of terrain names, or `{ count = 40, terrain = "road" }`.
    pub spaces: RingSpaces,
    /// `true`: the last space connects back to the first (a cycle, at least 3 spaces).
    /// `false`: an open track.
    #[serde(default = "default_true")]
    pub closed: bool,
    /// `true`: movement only goes forward, from each space to the next (clockwise on screen).
    #[serde(default)]
    pub one_way: bool,
    /// Display names of the spaces in order; may be shorter than the ring.
    #[serde(default)]
    pub names: Vec<String>,
    /// Changes to single spaces: terrain, name or home seat.
    #[serde(default)]
    pub overrides: Vec<RingSpaceSpec>,
    /// Text before the space number in labels; defaults to the ring id and a space (`"outer "`).
    #[serde(default)]
    pub label_prefix: Option<String>,
    /// The number in the label of the ring's first space.
    #[serde(default)]
    pub first_number: u32,
}

/// The spaces of a ring: their terrains in order, or a count of spaces of one terrain.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RingSpaces {
    /// One terrain name per space, in order.
    List(Vec<String>),
    /// `count` spaces of the same terrain.
    Repeat(RepeatedSpaces),
}

/// `count` spaces of one terrain.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RepeatedSpaces {
    /// How many spaces, at least 1.
    pub count: u32,
    /// Their terrain name.
    #[schemars(extend("x-meeple-ref" = "terrain"))]
    pub terrain: String,
}

impl RingSpaces {
    /// How many spaces the ring has.
    pub fn len(&self) -> usize {
        match self {
            RingSpaces::List(list) => list.len(),
            RingSpaces::Repeat(repeat) => repeat.count as usize,
        }
    }

    /// Whether the ring has no spaces (always a spec error).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Changes to one space of a ring.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RingSpaceSpec {
    /// The space's position in the ring, from 0.
    pub index: u32,
    /// A terrain name replacing the ring's.
    #[serde(default)]
    #[schemars(extend("x-meeple-ref" = "terrain"))]
    pub terrain: Option<String>,
    /// A display name (replacing the one from `names`).
    #[serde(default)]
    pub name: Option<String>,
    /// The seat (0 = first player) whose home or base this space is.
    #[serde(default)]
    pub home: Option<u8>,
}

/// A connection between two ring spaces, e.g. `{ a = "outer:0", b = "inner:0" }`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RingLinkSpec {
    /// One end, `"<ring id>:<index>"`.
    pub a: String,
    /// The other end, `"<ring id>:<index>"`.
    pub b: String,
    /// `true`: movement only from `a` to `b`.
    #[serde(default)]
    pub one_way: bool,
    /// The terrain name of a wall on this link, if any.
    #[serde(default)]
    pub wall: Option<String>,
}

/// An explicit graph (`kind = "graph"`): spaces with ids and the links between them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GraphSpec {
    /// The terrain name of spaces that do not give their own.
    #[serde(default)]
    #[schemars(extend("x-meeple-ref" = "terrain"))]
    pub terrain: Option<String>,
    /// The spaces; their ids are their labels.
    pub spaces: Vec<GraphSpaceSpec>,
    /// The connections: `["a", "b"]` pairs or `{ a = "a", b = "b", one_way = true }` tables.
    #[serde(default)]
    pub links: Vec<GraphLinkSpec>,
}

/// One space of a graph board.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GraphSpaceSpec {
    /// The space's unique id, also its label.
    pub id: String,
    /// Its terrain name; defaults to the graph's `terrain`.
    #[serde(default)]
    #[schemars(extend("x-meeple-ref" = "terrain"))]
    pub terrain: Option<String>,
    /// Drawing position `[x, y]` (y down). Spaces without one are placed on a circle.
    #[serde(default)]
    pub pos: Option<[f32; 2]>,
    /// The seat (0 = first player) whose home or base this space is.
    #[serde(default)]
    pub home: Option<u8>,
    /// A display name.
    #[serde(default)]
    pub name: Option<String>,
}

/// A link of a graph board: a two-way pair, or a table with options.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum GraphLinkSpec {
    /// `["a", "b"]`: a two-way link.
    Pair([String; 2]),
    /// A link with options.
    Link(GraphLink),
}

/// A graph link with options.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GraphLink {
    /// One end (a space id).
    pub a: String,
    /// The other end (a space id).
    pub b: String,
    /// `true`: movement only from `a` to `b`.
    #[serde(default)]
    pub one_way: bool,
    /// The terrain name of a wall on this link, if any.
    #[serde(default)]
    pub wall: Option<String>,
}

impl GraphLinkSpec {
    /// The two ends, whether one-way, and the wall terrain name.
    pub fn parts(&self) -> (&str, &str, bool, Option<&str>) {
        match self {
            GraphLinkSpec::Pair([a, b]) => (a, b, false, None),
            GraphLinkSpec::Link(link) => (&link.a, &link.b, link.one_way, link.wall.as_deref()),
        }
    }
}

/// A problem found in a board spec, located by its key path inside the `[board]` table
/// (e.g. `["walls", "0", "between"]`) so the loader can point at the line in the mod's file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecProblem {
    /// Keys and array indexes from the `[board]` table down to the offending value.
    pub path: Vec<String>,
    /// What is wrong, in a full sentence fragment (no trailing period).
    pub message: String,
    /// A likely intended value, for a "did you mean".
    pub suggestion: Option<String>,
}

impl SpecProblem {
    /// A problem without a suggestion.
    pub(crate) fn new(path: Vec<String>, message: impl Into<String>) -> Self {
        Self { path, message: message.into(), suggestion: None }
    }

    /// The same problem with a "did you mean" suggestion.
    pub(crate) fn suggest(mut self, suggestion: Option<String>) -> Self {
        self.suggestion = suggestion;
        self
    }
}

impl fmt::Display for SpecProblem {
    /// `board.walls.0.between: message; did you mean `x`?`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "board")?;
        for part in &self.path {
            write!(f, ".{part}")?;
        }
        write!(f, ": {}", self.message)?;
        if let Some(suggestion) = &self.suggestion {
            write!(f, "; did you mean `{suggestion}`?")?;
        }
        Ok(())
    }
}

/// What building a board needs from the engine: the mod's terrain table, the number of seats
/// (for generators that share territories fairly) and the game's random stream.
pub struct BuildContext<'a> {
    /// Resolves a terrain name to its id; `None` for a name the mod does not define.
    pub terrain: &'a dyn Fn(&str) -> Option<TerrainId>,
    /// How many players the game has.
    pub seats: u32,
    /// The game's only random stream; generators draw from it and nothing else.
    pub rng: &'a mut GameRng,
}

impl BuildContext<'_> {
    /// The id of a terrain name, or an error naming where it was used.
    pub(crate) fn terrain_id(&self, name: &str) -> Result<TerrainId, String> {
        (self.terrain)(name).ok_or_else(|| format!("unknown terrain `{name}`"))
    }
}

/// The parts of a square or offset spec that grids share, borrowed.
pub(crate) struct GridView<'a> {
    pub lattice: Lattice,
    pub layout: &'a [String],
    pub legend: &'a BTreeMap<String, LegendEntry>,
    pub terrain: Option<&'a str>,
    pub walls: &'a [WallSpec],
    pub labels: &'a LabelSpec,
    pub generate: Option<&'a GenerateSpec>,
}

impl SquareSpec {
    /// The grid-generic view of this spec.
    pub(crate) fn view(&self) -> GridView<'_> {
        GridView {
            lattice: Lattice {
                columns: self.columns,
                rows: self.rows,
                shape: LatticeShape::Square { diagonals: self.neighbours == 8 },
            },
            layout: &self.layout,
            legend: &self.legend,
            terrain: self.terrain.as_deref(),
            walls: &self.walls,
            labels: &self.labels,
            generate: self.generate.as_ref(),
        }
    }
}

impl OffsetSpec {
    /// The grid-generic view of this spec.
    pub(crate) fn view(&self) -> GridView<'_> {
        GridView {
            lattice: Lattice { columns: self.columns, rows: self.rows, shape: LatticeShape::Hex(self.offset) },
            layout: &self.layout,
            legend: &self.legend,
            terrain: self.terrain.as_deref(),
            walls: &self.walls,
            labels: &self.labels,
            generate: self.generate.as_ref(),
        }
    }
}

impl BoardSpec {
    /// Every problem that can be found without building: bad sizes, layouts that do not match
    /// the legend or the dimensions, walls and links naming unknown or non-adjacent spaces,
    /// duplicate ids, impossible generator settings. Terrain names are checked separately by
    /// the loader through [`BoardSpec::terrain_names`].
    pub fn check(&self) -> Vec<SpecProblem> {
        match self {
            BoardSpec::Square(spec) => {
                let mut problems = Vec::new();
                if spec.neighbours != 4 && spec.neighbours != 8 {
                    problems.push(SpecProblem::new(
                        key_path!["neighbours"],
                        format!("must be 4 or 8, not {}", spec.neighbours),
                    ));
                }
                problems.extend(grid::check(&spec.view()));
                problems
            }
            BoardSpec::Offset(spec) => grid::check(&spec.view()),
            BoardSpec::Territories(spec) => territory::check(spec),
            BoardSpec::Rings(spec) => rings::check(spec),
            BoardSpec::Graph(spec) => graph::check(spec),
        }
    }

    /// Every terrain name the spec mentions, with the key path where it appears, so the loader
    /// can check them against the mod's terrain table and point at misspellings.
    pub fn terrain_names(&self) -> Vec<(Vec<String>, String)> {
        let mut names = Vec::new();
        match self {
            BoardSpec::Square(spec) => grid_terrain_names(&spec.view(), &mut names),
            BoardSpec::Offset(spec) => grid_terrain_names(&spec.view(), &mut names),
            BoardSpec::Territories(spec) => {
                names.push((key_path!["terrain"], spec.terrain.clone()));
            }
            BoardSpec::Rings(spec) => {
                for (r, ring) in spec.rings.iter().enumerate() {
                    match &ring.spaces {
                        RingSpaces::List(list) => {
                            for (i, terrain) in list.iter().enumerate() {
                                names.push((key_path!["rings", r, "spaces", i], terrain.clone()));
                            }
                        }
                        RingSpaces::Repeat(repeat) => {
                            names.push((key_path!["rings", r, "spaces", "terrain"], repeat.terrain.clone()))
                        }
                    }
                    for (o, change) in ring.overrides.iter().enumerate() {
                        if let Some(terrain) = &change.terrain {
                            names.push((key_path!["rings", r, "overrides", o, "terrain"], terrain.clone()));
                        }
                    }
                }
                for (l, link) in spec.links.iter().enumerate() {
                    if let Some(wall) = &link.wall {
                        names.push((key_path!["links", l, "wall"], wall.clone()));
                    }
                }
            }
            BoardSpec::Graph(spec) => {
                if let Some(terrain) = &spec.terrain {
                    names.push((key_path!["terrain"], terrain.clone()));
                }
                for (i, space) in spec.spaces.iter().enumerate() {
                    if let Some(terrain) = &space.terrain {
                        names.push((key_path!["spaces", i, "terrain"], terrain.clone()));
                    }
                }
                for (l, link) in spec.links.iter().enumerate() {
                    if let (_, _, _, Some(wall)) = link.parts() {
                        names.push((key_path!["links", l, "wall"], wall.to_string()));
                    }
                }
            }
        }
        names
    }

    /// Builds the board. Runs [`BoardSpec::check`] and resolves every terrain name first, so a
    /// bad spec gives an error listing its problems. Fixed boards use no randomness; generated
    /// ones draw only from `ctx.rng`, so the same seed gives the same board.
    pub fn build(&self, ctx: &mut BuildContext) -> Result<Board, String> {
        let mut problems: Vec<String> = self.check().iter().map(ToString::to_string).collect();
        for (path, name) in self.terrain_names() {
            if (ctx.terrain)(&name).is_none() {
                problems.push(SpecProblem::new(path, format!("unknown terrain `{name}`")).to_string());
            }
        }
        if !problems.is_empty() {
            return Err(problems.join("\n"));
        }
        match self {
            BoardSpec::Square(spec) => grid::build(&spec.view(), ctx),
            BoardSpec::Offset(spec) => grid::build(&spec.view(), ctx),
            BoardSpec::Territories(spec) => territory::build(spec, ctx),
            BoardSpec::Rings(spec) => rings::build(spec, ctx),
            BoardSpec::Graph(spec) => graph::build(spec, ctx),
        }
    }
}

/// The terrain names of a square or offset grid spec.
fn grid_terrain_names(view: &GridView, names: &mut Vec<(Vec<String>, String)>) {
    if let Some(terrain) = view.terrain {
        names.push((key_path!["terrain"], terrain.to_string()));
    }
    for (key, entry) in view.legend {
        match entry {
            LegendEntry::Terrain(terrain) => names.push((key_path!["legend", key], terrain.clone())),
            LegendEntry::Cell(LegendCell { terrain: Some(terrain), .. }) => {
                names.push((key_path!["legend", key, "terrain"], terrain.clone()));
            }
            LegendEntry::Cell(_) => {}
        }
    }
    for (w, wall) in view.walls.iter().enumerate() {
        names.push((key_path!["walls", w, "kind"], wall.kind.clone()));
    }
    if let Some(GenerateSpec::LandWater(land_water)) = view.generate {
        names.push((key_path!["generate", "land"], land_water.land.clone()));
        names.push((key_path!["generate", "water"], land_water.water.clone()));
    }
}

/// Checks a lattice size against the limits, reporting under `columns` / `rows`. Returns
/// whether the size is usable for further checks.
pub(crate) fn check_lattice_size(columns: u32, rows: u32, max_cells: usize, problems: &mut Vec<SpecProblem>) -> bool {
    let mut usable = true;
    for (key, value) in [("columns", columns), ("rows", rows)] {
        if !(1..=super::MAX_SIDE).contains(&value) {
            problems.push(SpecProblem::new(key_path![key], format!("must be 1 to {}, not {value}", super::MAX_SIDE)));
            usable = false;
        }
    }
    let cells = columns as usize * rows as usize;
    if usable && cells > max_cells {
        problems.push(SpecProblem::new(
            key_path!["rows"],
            format!("{columns} columns × {rows} rows = {cells} cells; the limit is {max_cells}"),
        ));
        usable = false;
    }
    usable
}
