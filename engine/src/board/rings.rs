//! Rings and tracks: cycles or open tracks of spaces, optionally one-way, drawn on concentric
//! circles and joined by links such as shortcuts between an outer and an inner ring.

use std::collections::{BTreeMap, BTreeSet};
use std::f64::consts::TAU;

use super::{
    Board, BuildContext, Edge, MAX_SPACES, RingSpaces, RingSpec, RingsSpec, Space, SpaceId, SpecProblem, Topology,
};
use crate::diag::did_you_mean;

/// The label of space `index` of a ring: its prefix (default: the ring id and a space) followed
/// by its number.
fn label(ring: &RingSpec, index: usize) -> String {
    let number = u64::from(ring.first_number) + index as u64;
    match &ring.label_prefix {
        Some(prefix) => format!("{prefix}{number}"),
        None => format!("{} {number}", ring.id),
    }
}

/// The terrain name of space `index` of a ring, after overrides.
fn terrain_name(ring: &RingSpec, index: usize) -> &str {
    let overridden = ring
        .overrides
        .iter()
        .rev()
        .find(|change| change.index as usize == index)
        .and_then(|change| change.terrain.as_deref());
    overridden.unwrap_or(match &ring.spaces {
        RingSpaces::List(list) => list.get(index).map_or("", String::as_str),
        RingSpaces::Repeat(repeat) => &repeat.terrain,
    })
}

/// Where each ring's spaces start in the board's space numbering.
fn first_ids(spec: &RingsSpec) -> Vec<usize> {
    let mut next = 0;
    spec.rings
        .iter()
        .map(|ring| {
            let first = next;
            next += ring.spaces.len();
            first
        })
        .collect()
}

/// The edges along the rings themselves, as (from, to, one-way) with board space ids.
fn ring_edges(spec: &RingsSpec) -> Vec<(usize, usize, bool)> {
    let mut edges = Vec::new();
    for (ring, first) in spec.rings.iter().zip(first_ids(spec)) {
        let length = ring.spaces.len();
        for i in 1..length {
            edges.push((first + i - 1, first + i, ring.one_way));
        }
        if ring.closed && length >= 3 {
            edges.push((first + length - 1, first, ring.one_way));
        }
    }
    edges
}

/// Resolves `"<ring id>:<index>"` to a board space id, or explains what is wrong.
fn resolve_end(spec: &RingsSpec, first: &[usize], end: &str) -> Result<usize, (String, Option<String>)> {
    let Some((ring_id, index)) = end.rsplit_once(':') else {
        return Err((format!("`{end}` must be `<ring id>:<index>`, e.g. `outer:0`"), None));
    };
    let Some(r) = spec.rings.iter().position(|ring| ring.id == ring_id) else {
        let ids = spec.rings.iter().map(|ring| ring.id.as_str());
        return Err((format!("there is no ring `{ring_id}`"), did_you_mean(ring_id, ids)));
    };
    let length = spec.rings[r].spaces.len();
    match index.trim().parse::<usize>() {
        Ok(index) if index < length => Ok(first[r] + index),
        Ok(index) => Err((format!("ring `{ring_id}` has spaces 0 to {}, not {index}", length.saturating_sub(1)), None)),
        Err(_) => Err((format!("`{index}` in `{end}` is not a space number"), None)),
    }
}

/// Static problems of a rings spec.
pub(crate) fn check(spec: &RingsSpec) -> Vec<SpecProblem> {
    let mut problems = Vec::new();
    if spec.rings.is_empty() {
        problems.push(SpecProblem::new(key_path!["rings"], "needs at least one ring"));
        return problems;
    }
    let total: usize = spec.rings.iter().map(|ring| ring.spaces.len()).sum();
    if total > MAX_SPACES {
        problems.push(SpecProblem::new(
            key_path!["rings"],
            format!("the rings have {total} spaces in all; the limit is {MAX_SPACES}"),
        ));
        return problems;
    }

    let mut ids = BTreeSet::new();
    for (r, ring) in spec.rings.iter().enumerate() {
        if ring.id.is_empty() || ring.id.contains(':') {
            problems.push(SpecProblem::new(
                key_path!["rings", r, "id"],
                "a ring id must be non-empty and must not contain `:`",
            ));
        } else if !ids.insert(ring.id.as_str()) {
            problems.push(SpecProblem::new(key_path!["rings", r, "id"], format!("two rings are called `{}`", ring.id)));
        }
        let length = ring.spaces.len();
        if length == 0 {
            problems.push(SpecProblem::new(key_path!["rings", r, "spaces"], "a ring needs at least one space"));
        } else if ring.closed && length < 3 {
            problems.push(SpecProblem::new(
                key_path!["rings", r, "closed"],
                format!(
                    "a closed ring needs at least 3 spaces, not {length}; use `closed = false` \
                     for a shorter track"
                ),
            ));
        }
        if ring.names.len() > length {
            problems.push(SpecProblem::new(
                key_path!["rings", r, "names"],
                format!("has {} names but the ring has {length} spaces", ring.names.len()),
            ));
        }
        let mut changed = BTreeSet::new();
        for (o, change) in ring.overrides.iter().enumerate() {
            if change.index as usize >= length {
                problems.push(SpecProblem::new(
                    key_path!["rings", r, "overrides", o, "index"],
                    format!("the ring has spaces 0 to {}, not {}", length.saturating_sub(1), change.index),
                ));
            } else if !changed.insert(change.index) {
                problems.push(SpecProblem::new(
                    key_path!["rings", r, "overrides", o, "index"],
                    format!("space {} is changed twice", change.index),
                ));
            }
        }
    }

    let mut labels = BTreeMap::new();
    'labels: for (r, ring) in spec.rings.iter().enumerate() {
        for index in 0..ring.spaces.len() {
            let text = label(ring, index);
            if let Some(other) = labels.insert(text.clone(), r) {
                problems.push(SpecProblem::new(
                    key_path!["rings", r, "label_prefix"],
                    format!(
                        "label `{text}` is used by ring `{}` and ring `{}`; give them different \
                         `label_prefix`es",
                        spec.rings[other].id, ring.id
                    ),
                ));
                break 'labels;
            }
        }
    }

    let first = first_ids(spec);
    let mut connected: BTreeSet<(usize, usize)> =
        ring_edges(spec).into_iter().map(|(a, b, _)| (a.min(b), a.max(b))).collect();
    for (l, link) in spec.links.iter().enumerate() {
        let mut ends = [None, None];
        for (slot, (key, end)) in [("a", &link.a), ("b", &link.b)].into_iter().enumerate() {
            match resolve_end(spec, &first, end) {
                Ok(id) => ends[slot] = Some(id),
                Err((message, suggestion)) => {
                    problems.push(SpecProblem::new(key_path!["links", l, key], message).suggest(suggestion))
                }
            }
        }
        let [Some(a), Some(b)] = ends else { continue };
        if a == b {
            problems.push(SpecProblem::new(
                key_path!["links", l],
                format!("a link needs two different spaces, not `{}` twice", link.a),
            ));
        } else if !connected.insert((a.min(b), a.max(b))) {
            problems.push(SpecProblem::new(
                key_path!["links", l],
                format!("`{}` and `{}` are already connected", link.a, link.b),
            ));
        }
    }
    problems
}

/// Builds a checked rings board. Spaces are numbered ring by ring, in ring order.
pub(crate) fn build(spec: &RingsSpec, ctx: &mut BuildContext) -> Result<Board, String> {
    let ring_count = spec.rings.len();
    let widest = spec.rings.iter().map(|ring| ring.spaces.len()).max().unwrap_or(0);
    // Neighbouring spaces of the most crowded ring sit about one unit apart.
    let outer_radius = (widest as f64 / TAU).max(1.0);
    let mut spaces = Vec::new();
    for (r, ring) in spec.rings.iter().enumerate() {
        let radius = outer_radius * (ring_count - r) as f64 / ring_count as f64;
        let length = ring.spaces.len();
        // An open track leaves one empty step between its ends so they do not look joined.
        let steps = if ring.closed { length } else { length + 1 };
        for index in 0..length {
            let change = ring.overrides.iter().rev().find(|change| change.index as usize == index);
            let name = change.and_then(|change| change.name.clone()).or_else(|| ring.names.get(index).cloned());
            // Angles grow clockwise on screen (y points down), starting at the top.
            let angle = TAU * index as f64 / steps as f64 - TAU / 4.0;
            spaces.push(Space {
                label: label(ring, index),
                pos: [(outer_radius + radius * angle.cos()) as f32, (outer_radius + radius * angle.sin()) as f32],
                col: -1,
                row: -1,
                terrain: ctx.terrain_id(terrain_name(ring, index))?,
                home: change.and_then(|change| change.home),
                name,
            });
        }
    }

    let mut edges: Vec<Edge> = ring_edges(spec)
        .into_iter()
        .map(|(a, b, one_way)| Edge { a: a as SpaceId, b: b as SpaceId, wall: None, one_way })
        .collect();
    let first = first_ids(spec);
    for link in &spec.links {
        let a = resolve_end(spec, &first, &link.a).map_err(|(message, _)| message)?;
        let b = resolve_end(spec, &first, &link.b).map_err(|(message, _)| message)?;
        let wall = link.wall.as_deref().map(|wall| ctx.terrain_id(wall)).transpose()?;
        edges.push(Edge { a: a as SpaceId, b: b as SpaceId, wall, one_way: link.one_way });
    }
    Board::assemble(Topology::Rings, spaces, edges, Vec::new())
}
