//! The greedy player: scores every legal action with the mod's `ai.score` (where `chance` is
//! the exact probability of success) and takes the best one that reaches its `ai.min`;
//! otherwise it passes. Ties are broken at random.

use super::Player;
use crate::game::{Action, ActionKind, Engine, GameState};
use crate::rng::GameRng;

pub struct GreedyPlayer {
    rng: GameRng,
}

impl GreedyPlayer {
    pub fn new(rng: GameRng) -> Self {
        Self { rng }
    }
}

impl Player for GreedyPlayer {
    fn choose(&mut self, engine: &mut Engine, state: &GameState, legal: &[Action]) -> usize {
        let mut best: Option<(f64, usize)> = None;
        let mut ties = 0u32;
        let mut pass = None;
        for (i, action) in legal.iter().enumerate() {
            let score = match action.kind {
                ActionKind::Leave => continue,
                ActionKind::Pass => {
                    pass = Some(i);
                    continue;
                }
                ActionKind::Rule(_) => match engine.ai_score(state, action) {
                    Some((score, Some(min))) if score < min => continue,
                    Some((score, _)) => score,
                    None => 0.0,
                },
            };
            match best {
                Some((b, _)) if score < b => {}
                Some((b, _)) if score == b => {
                    // Reservoir choice among equal scores keeps ties fair without a list.
                    ties += 1;
                    if self.rng.below(ties + 1) == 0 {
                        best = Some((score, i));
                    }
                }
                _ => {
                    best = Some((score, i));
                    ties = 0;
                }
            }
        }
        best.map(|(_, i)| i).or(pass).unwrap_or(0)
    }
}
