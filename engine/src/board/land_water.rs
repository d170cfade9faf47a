//! The land/water generator for grids: smoothed random noise cut at an exact water share, with
//! an optional guarantee that all land is one connected region.
//!
//! Averaging noise (a continuous cellular automaton) is used instead of the classic majority-vote
//! automaton because majority voting erodes whichever of land and water is the minority, so the
//! resulting share drifts far from the one asked for. Cutting at a quantile keeps it exact.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::LandWaterSpec;
use super::lattice::Lattice;
use crate::rng::GameRng;

/// The most smoothing rounds a spec may ask for; beyond this the map stops changing visibly.
pub(crate) const MAX_SMOOTHING: u32 = 64;

/// Decides which cells (row-major) are water. Draws exactly one number per cell from `rng`.
pub(crate) fn generate(lattice: &Lattice, spec: &LandWaterSpec, rng: &mut GameRng) -> Vec<bool> {
    let cell_count = lattice.cell_count();
    let mut height: Vec<f64> = (0..cell_count).map(|_| rng.unit_f64()).collect();
    let mut smoothed = vec![0.0; cell_count];
    for _ in 0..spec.smoothing.min(MAX_SMOOTHING) {
        for (index, value) in smoothed.iter_mut().enumerate() {
            let mut sum = height[index];
            let mut count = 1.0;
            for neighbor in lattice.neighbor_indices(index) {
                sum += height[neighbor];
                count += 1.0;
            }
            *value = sum / count;
        }
        std::mem::swap(&mut height, &mut smoothed);
    }

    let share = if spec.water_share.is_finite() { spec.water_share.clamp(0.0, 1.0) } else { 0.0 };
    let water_count = ((share * cell_count as f64).round() as usize).min(cell_count);
    let land_count = cell_count - water_count;
    let mut lowest_first: Vec<usize> = (0..cell_count).collect();
    lowest_first.sort_unstable_by(|&a, &b| height[a].total_cmp(&height[b]).then(a.cmp(&b)));
    let mut water = vec![false; cell_count];
    for &index in &lowest_first[..water_count] {
        water[index] = true;
    }
    if spec.connected && land_count > 0 {
        connect_land(lattice, &height, &mut water, land_count);
    }
    water
}

/// Keeps the largest land region, floods the rest, then regrows the region into the highest
/// adjacent water cells until there are `land_count` land cells again. Every regrown cell
/// touches the region, so it stays connected; the lattice is connected, so regrowth always
/// reaches the target.
fn connect_land(lattice: &Lattice, height: &[f64], water: &mut [bool], land_count: usize) {
    const UNSEEN: u32 = u32::MAX;
    let cell_count = water.len();
    let mut region = vec![UNSEEN; cell_count];
    let mut queue = Vec::new();
    let (mut largest_size, mut largest_region) = (0usize, UNSEEN);
    for start in 0..cell_count {
        if water[start] || region[start] != UNSEEN {
            continue;
        }
        let label = start as u32;
        region[start] = label;
        queue.clear();
        queue.push(start);
        let mut head = 0;
        while let Some(&cell) = queue.get(head) {
            head += 1;
            for neighbor in lattice.neighbor_indices(cell) {
                if !water[neighbor] && region[neighbor] == UNSEEN {
                    region[neighbor] = label;
                    queue.push(neighbor);
                }
            }
        }
        // Strictly larger: ties keep the region found first, so the choice is deterministic.
        if queue.len() > largest_size {
            (largest_size, largest_region) = (queue.len(), label);
        }
    }
    for cell in 0..cell_count {
        if !water[cell] && region[cell] != largest_region {
            water[cell] = true;
        }
    }

    // Heights are averages of numbers in [0, 1), so their bit patterns order like the numbers.
    let mut coast: BinaryHeap<(u64, Reverse<usize>)> = BinaryHeap::new();
    for cell in 0..cell_count {
        if !water[cell] {
            for neighbor in lattice.neighbor_indices(cell) {
                if water[neighbor] {
                    coast.push((height[neighbor].to_bits(), Reverse(neighbor)));
                }
            }
        }
    }
    let mut land = largest_size;
    while land < land_count {
        let Some((_, Reverse(cell))) = coast.pop() else {
            break;
        };
        if !water[cell] {
            continue;
        }
        water[cell] = false;
        land += 1;
        for neighbor in lattice.neighbor_indices(cell) {
            if water[neighbor] {
                coast.push((height[neighbor].to_bits(), Reverse(neighbor)));
            }
        }
    }
}
