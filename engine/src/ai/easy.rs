//! The easy player: plays at random, or, when the mod gives `ai.easy_slips`, slips into a
//! random action that share of its decisions and plays the rest as the greedy player does. A
//! game where random play never ends (a long war of movement) still gets a beatable opponent
//! that finishes it.

use super::{GreedyPlayer, Player, RandomPlayer};
use crate::game::{Action, Engine, GameState, RuleError};
use crate::rng::GameRng;

pub struct EasyPlayer {
    random: RandomPlayer,
    greedy: GreedyPlayer,
    /// Decides, each time, whether this decision slips.
    slips: GameRng,
}

impl EasyPlayer {
    /// Its random play draws from `rng` alone, so that without `easy_slips` it plays exactly as
    /// the random player of that seed does.
    pub fn new(rng: GameRng) -> Self {
        let mut seeds = rng.clone();
        let greedy = GreedyPlayer::new(GameRng::from_seed_and_stream(seeds.next_u64(), 1));
        let slips = GameRng::from_seed_and_stream(seeds.next_u64(), 2);
        Self { random: RandomPlayer::new(rng), greedy, slips }
    }

    /// Whether this decision is a random one: always, unless the mod gives a share below 1.
    fn slips(&mut self, engine: &Engine) -> bool {
        match engine.rules().data.ai.easy_slips {
            Some(share) if share < 1.0 => {
                let per_mille = (share.max(0.0) * 1000.0).round() as u32;
                self.slips.below(1000) < per_mille
            }
            _ => true,
        }
    }
}

impl Player for EasyPlayer {
    fn choose(&mut self, engine: &mut Engine, state: &GameState, legal: &[Action]) -> Result<usize, RuleError> {
        if self.slips(engine) {
            self.random.choose(engine, state, legal)
        } else {
            self.greedy.choose(engine, state, legal)
        }
    }

    fn decide(&mut self, engine: &mut Engine, state: &GameState) -> Result<Action, RuleError> {
        if self.slips(engine) { self.random.decide(engine, state) } else { self.greedy.decide(engine, state) }
    }
}
