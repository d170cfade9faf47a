//! The random player: any legal action, uniformly, except leaving the game.

use super::Player;
use crate::game::{Action, ActionKind, Engine, GameState, RuleError};
use crate::rng::GameRng;

pub struct RandomPlayer {
    rng: GameRng,
}

impl RandomPlayer {
    pub fn new(rng: GameRng) -> Self {
        Self { rng }
    }
}

impl Player for RandomPlayer {
    fn choose(&mut self, _engine: &mut Engine, _state: &GameState, legal: &[Action]) -> Result<usize, RuleError> {
        let choices = legal.iter().filter(|a| a.kind != ActionKind::Leave).count();
        if choices == 0 {
            return Ok(0);
        }
        let pick = self.rng.below(choices as u32) as usize;
        Ok(legal.iter().enumerate().filter(|(_, a)| a.kind != ActionKind::Leave).nth(pick).map_or(0, |(i, _)| i))
    }
}
