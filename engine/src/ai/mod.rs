//! Computer players. A player picks one of the legal actions the engine lists; it never sees
//! more than the engine offers, and its own randomness comes from its own seeded stream, so a
//! simulated game is reproducible and the game's stream stays the rules' alone.
//!
//! A player reasons only from what its seat may see. When the mod hides anything, it decides
//! from a guess at the game ([`guess_game`]): its seat's view ([`GameState::view_for`]) with
//! every card it does not know drawn from its own stream among the cards whose place it does
//! not know. Which actions are legal is what the game offers the seat, as the window offers a
//! person; how good each is, it judges in the guess.

mod easy;
mod greedy;
mod random;
mod search;

pub use easy::EasyPlayer;
pub use greedy::GreedyPlayer;
pub use random::RandomPlayer;
pub use search::{SearchBudget, SearchPlayer};

use crate::game::view::{fill_unknown_cards, hides_anything};
use crate::game::{Action, Engine, GameState, RuleError};
use crate::rng::GameRng;
use crate::rules::Ruleset;

/// The view of the seat acting in `state`, when the mod hides anything from some seat; `None`
/// when it hides nothing, so that the game itself is every seat's view (but for the random
/// stream, which no score reads and look-ahead replaces).
pub(crate) fn seat_view(rules: &Ruleset, state: &GameState) -> Option<GameState> {
    hides_anything(rules).then(|| state.view_for(rules, state.to_act()))
}

/// A guess at the game consistent with a seat's `view`: every card it does not know drawn from
/// `rng`, and a random stream of its own seeded from `rng`.
pub(crate) fn guess_game(rules: &Ruleset, mut view: GameState, rng: &mut GameRng) -> GameState {
    fill_unknown_cards(rules, &mut view, rng);
    view.rng = GameRng::from_seed(rng.next_u64());
    view
}

/// Visits every legal action of `state` — the real game: what the seat is offered — in listing
/// order, with its score (as [`Engine::ai_score`] gives it) in the game the seat `believes` in,
/// when it decides from a guess, else in `state`.
fn for_each_scored_in(
    engine: &mut Engine,
    state: &GameState,
    believes: Option<&GameState>,
    legal: &mut Vec<Action>,
    scores: &mut Vec<Option<(f64, Option<f64>)>>,
    mut visit: impl FnMut(Action, Option<(f64, Option<f64>)>),
) -> Result<(), RuleError> {
    let Some(believes) = believes else { return engine.for_each_scored(state, visit) };
    engine.legal_actions(state, legal)?;
    engine.ai_scores(believes, legal, scores)?;
    for (action, score) in legal.iter().zip(scores.iter()) {
        visit(*action, *score);
    }
    Ok(())
}

/// A computer player. Deciding fails only when the mod's rules do while the player weighs its
/// options — listing or scoring them past the engine's counted limits — and the error names
/// the rule: a player never hides such an error by taking something else.
pub trait Player {
    /// Picks one of `legal` (never empty, as [`Engine::legal_actions`] lists them) for the
    /// seat to move; returns its index.
    fn choose(&mut self, engine: &mut Engine, state: &GameState, legal: &[Action]) -> Result<usize, RuleError>;

    /// Picks an action for the seat to move; the same choice [`Player::choose`] would make from
    /// the full list. Players that can decide while the engine lists candidates override it.
    fn decide(&mut self, engine: &mut Engine, state: &GameState) -> Result<Action, RuleError> {
        let mut legal = Vec::new();
        engine.legal_actions(state, &mut legal)?;
        let index = self.choose(engine, state, &legal)?;
        Ok(legal.get(index).copied().unwrap_or_else(Action::pass))
    }
}

/// The computer-player levels every mod gets: the three difficulties, then the same players
/// under the names of what they do.
pub const LEVELS: &[(&str, &str)] = &[
    (
        "easy",
        "picks any legal action, uniformly (as the `random` player); when the mod gives `ai.easy_slips`, only that share of its decisions, taking the rest as `medium` does",
    ),
    (
        "medium",
        "takes the action with the best `ai.score`, passing when none reaches its `ai.min` (the `greedy` player)",
    ),
    (
        "hard",
        "plays its best-scored actions and passing forward with sampled dice (to the end of the game, or as many rounds as the mod's `ai.rollout_rounds`) and takes the one that ends best (the `search` player)",
    ),
    ("random", "picks any legal action, uniformly"),
    ("greedy", "takes the action with the best `ai.score`, passing when none reaches its `ai.min`"),
    ("search", "looks ahead by sampling, as `hard`"),
];

/// A player of the named level with its own random stream.
pub fn player(level: &str, seed: u64) -> Result<Box<dyn Player>, String> {
    match level {
        "easy" => Ok(Box::new(EasyPlayer::new(GameRng::from_seed(seed)))),
        "random" => Ok(Box::new(RandomPlayer::new(GameRng::from_seed(seed)))),
        "medium" | "greedy" => Ok(Box::new(GreedyPlayer::new(GameRng::from_seed(seed)))),
        "hard" | "search" => Ok(Box::new(SearchPlayer::new(GameRng::from_seed(seed), SearchBudget::default()))),
        other => {
            let names: Vec<&str> = LEVELS.iter().map(|(n, _)| *n).collect();
            let hint = crate::diag::did_you_mean(other, names.iter().copied())
                .map(|s| format!("; did you mean `{s}`?"))
                .unwrap_or_default();
            Err(format!("unknown computer level `{other}`{hint} (levels: {})", names.join(", ")))
        }
    }
}
