//! The greedy player: scores every legal action with the mod's `ai.score` (where `chance` is
//! the exact probability of success) and takes the best one that reaches its `ai.min`;
//! otherwise it passes. Ties are broken at random. The scores are read in a guess at the game
//! from its seat's view when the mod hides anything (see the module `ai`).

use super::Player;
use crate::game::{Action, ActionKind, Engine, GameState, RuleError};
use crate::rng::GameRng;

pub struct GreedyPlayer {
    rng: GameRng,
    scores: Vec<Option<(f64, Option<f64>)>>,
    legal: Vec<Action>,
    /// Whether it guesses what its seat does not see (a player of the game); false for the
    /// players of the hard player's look-ahead, whose game is a guess already.
    guesses: bool,
}

impl GreedyPlayer {
    pub fn new(rng: GameRng) -> Self {
        Self { rng, scores: Vec::new(), legal: Vec::new(), guesses: true }
    }

    /// A player of a game that is itself a guess (a look-ahead): it reads all of it.
    pub(super) fn in_guessed_game(rng: GameRng) -> Self {
        Self { guesses: false, ..Self::new(rng) }
    }

    /// The guess at the game this player decides from, when the mod hides something from it.
    fn believes(&mut self, engine: &Engine, state: &GameState) -> Option<GameState> {
        let rules = engine.rules();
        let view = if self.guesses { super::seat_view(rules, state)? } else { return None };
        Some(super::guess_game(rules, view, &mut self.rng))
    }
}

/// The running choice: best score so far, ties counted for fair reservoir sampling. The hard
/// player makes the same choice with it, so both break ties alike.
pub(super) struct Best<T> {
    best: Option<(f64, T)>,
    ties: u32,
    pass: Option<T>,
}

impl<T: Copy> Best<T> {
    pub(super) fn new() -> Self {
        Self { best: None, ties: 0, pass: None }
    }

    /// Offers one candidate in listing order.
    #[inline]
    pub(super) fn offer(&mut self, rng: &mut GameRng, action: &Action, score: Option<(f64, Option<f64>)>, item: T) {
        let score = match action.kind {
            ActionKind::Leave => return,
            // Cancelling a rolled action is the fallback while it awaits its choices, as
            // passing is otherwise.
            ActionKind::Pass | ActionKind::Cancel => {
                self.pass = Some(item);
                return;
            }
            ActionKind::Rule(_) => match score {
                Some((score, Some(min))) if score < min => return,
                Some((score, _)) => score,
                None => 0.0,
            },
        };
        match self.best {
            Some((b, _)) if score < b => {}
            Some((b, _)) if score == b => {
                // Reservoir choice among equal scores keeps ties fair without a list.
                self.ties += 1;
                if rng.below(self.ties + 1) == 0 {
                    self.best = Some((score, item));
                }
            }
            _ => {
                self.best = Some((score, item));
                self.ties = 0;
            }
        }
    }

    pub(super) fn pick(&self) -> Option<T> {
        self.best.map(|(_, item)| item).or(self.pass)
    }
}

impl Player for GreedyPlayer {
    fn choose(&mut self, engine: &mut Engine, state: &GameState, legal: &[Action]) -> Result<usize, RuleError> {
        let believes = self.believes(engine, state);
        engine.ai_scores(believes.as_ref().unwrap_or(state), legal, &mut self.scores)?;
        let mut best = Best::new();
        for (i, action) in legal.iter().enumerate() {
            best.offer(&mut self.rng, action, self.scores[i], i);
        }
        Ok(best.pick().unwrap_or(0))
    }

    fn decide(&mut self, engine: &mut Engine, state: &GameState) -> Result<Action, RuleError> {
        let believes = self.believes(engine, state);
        let mut best = Best::new();
        let Self { rng, legal, scores, .. } = self;
        super::for_each_scored_in(engine, state, believes.as_ref(), legal, scores, |action, score| {
            best.offer(rng, &action, score, action)
        })?;
        Ok(best.pick().unwrap_or_else(Action::pass))
    }
}
