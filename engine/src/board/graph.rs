//! Explicit graph boards: named spaces with optional positions and the links between them.

use std::collections::{BTreeMap, BTreeSet};
use std::f64::consts::TAU;

use super::{Board, BuildContext, Edge, GraphSpec, MAX_SPACES, Space, SpaceId, SpecProblem, Topology};
use crate::diag::did_you_mean;

/// Static problems of a graph spec.
pub(crate) fn check(spec: &GraphSpec) -> Vec<SpecProblem> {
    let mut problems = Vec::new();
    if spec.spaces.is_empty() {
        problems.push(SpecProblem::new(key_path!["spaces"], "a graph needs at least one space"));
    } else if spec.spaces.len() > MAX_SPACES {
        problems.push(SpecProblem::new(
            key_path!["spaces"],
            format!("has {} spaces; the limit is {MAX_SPACES}", spec.spaces.len()),
        ));
        return problems;
    }

    let mut ids: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, space) in spec.spaces.iter().enumerate() {
        if space.id.is_empty() {
            problems.push(SpecProblem::new(key_path!["spaces", i, "id"], "must not be empty"));
        } else if ids.contains_key(space.id.as_str()) {
            problems
                .push(SpecProblem::new(key_path!["spaces", i, "id"], format!("two spaces have the id `{}`", space.id)));
        } else {
            ids.insert(&space.id, i);
        }
        if space.terrain.is_none() && spec.terrain.is_none() {
            problems.push(SpecProblem::new(
                key_path!["spaces", i, "terrain"],
                "needs a terrain (or give the graph a default `terrain`)",
            ));
        }
        if let Some(pos) = space.pos
            && !pos.iter().all(|coordinate| coordinate.is_finite())
        {
            problems.push(SpecProblem::new(key_path!["spaces", i, "pos"], "must be two finite numbers"));
        }
    }

    let mut connected = BTreeSet::new();
    for (l, link) in spec.links.iter().enumerate() {
        let (a, b, _, _) = link.parts();
        let mut ends = [None, None];
        for (slot, (key, end)) in [("a", a), ("b", b)].into_iter().enumerate() {
            match ids.get(end) {
                Some(&index) => ends[slot] = Some(index),
                None => {
                    // A pair `["a", "b"]` is located by array index; a table by its key.
                    let path = match link {
                        super::GraphLinkSpec::Pair(_) => key_path!["links", l, slot],
                        super::GraphLinkSpec::Link(_) => key_path!["links", l, key],
                    };
                    problems.push(
                        SpecProblem::new(path, format!("there is no space `{end}`"))
                            .suggest(did_you_mean(end, ids.keys().copied())),
                    );
                }
            }
        }
        let [Some(a_index), Some(b_index)] = ends else {
            continue;
        };
        if a_index == b_index {
            problems.push(SpecProblem::new(
                key_path!["links", l],
                format!("a link needs two different spaces, not `{a}` twice"),
            ));
        } else if !connected.insert((a_index.min(b_index), a_index.max(b_index))) {
            problems.push(SpecProblem::new(
                key_path!["links", l],
                format!("`{a}` and `{b}` are already linked; one link per pair of spaces"),
            ));
        }
    }
    problems
}

/// Builds a checked graph board. Spaces keep the spec's order; spaces without a position are
/// spread evenly on a circle.
pub(crate) fn build(spec: &GraphSpec, ctx: &mut BuildContext) -> Result<Board, String> {
    let unplaced = spec.spaces.iter().filter(|space| space.pos.is_none()).count();
    // Neighbours on the circle sit about one unit apart.
    let radius = (unplaced as f64 / TAU).max(1.0);
    let mut placed_so_far = 0;
    let mut spaces = Vec::with_capacity(spec.spaces.len());
    let mut id_of: BTreeMap<&str, SpaceId> = BTreeMap::new();
    for space in &spec.spaces {
        let terrain_name = space
            .terrain
            .as_deref()
            .or(spec.terrain.as_deref())
            .ok_or_else(|| format!("space `{}` has no terrain", space.id))?;
        let pos = space.pos.unwrap_or_else(|| {
            let angle = TAU * placed_so_far as f64 / unplaced as f64 - TAU / 4.0;
            placed_so_far += 1;
            [(radius + radius * angle.cos()) as f32, (radius + radius * angle.sin()) as f32]
        });
        id_of.insert(&space.id, spaces.len() as SpaceId);
        spaces.push(Space {
            label: space.id.clone(),
            pos,
            col: -1,
            row: -1,
            terrain: ctx.terrain_id(terrain_name)?,
            home: space.home,
            name: space.name.clone(),
        });
    }
    let mut edges = Vec::with_capacity(spec.links.len());
    for link in &spec.links {
        let (a, b, one_way, wall) = link.parts();
        let (Some(&a_id), Some(&b_id)) = (id_of.get(a), id_of.get(b)) else {
            return Err(format!("a link joins `{a}` and `{b}`, which are not both spaces"));
        };
        let wall = wall.map(|wall| ctx.terrain_id(wall)).transpose()?;
        edges.push(Edge { a: a_id, b: b_id, wall, one_way });
    }
    Board::assemble(Topology::Graph, spaces, edges, Vec::new())
}
