//! The search player ("hard"): looks ahead by sampling. For each of its most promising actions
//! (ranked by the mod's `ai.score`, as the greedy player ranks them) and for passing, it plays
//! the game on several times with dice it samples itself — never the game's own coming rolls —
//! and the greedy player at every seat — to the end of the game, or for the mod's
//! `ai.rollout_rounds` in long games — and takes the action whose games end best for it on
//! average: won, lost, the share of a draw, or its share of the mod's standing (`ai.standing`,
//! `end.score`, `end.draw_shares` or spaces owned) when the look-ahead stops short of the end.
//! Playing to the end is the classic rollout improvement of a base policy: with wins counted,
//! the choice only departs from the greedy one when the sampled games say it does better.
//!
//! When the mod hides anything, it reasons from its seat's view: it ranks its candidates in one
//! guess at what the seat does not see, and plays every future in a new guess (the same for
//! every candidate), so the cards it cannot see count only as often as they are likely.
//!
//! Its effort is counted in rollouts, not seconds, so a simulation stays reproducible.

use super::{GreedyPlayer, Player};
use crate::game::view::fill_unknown_cards;
use crate::game::{Action, ActionKind, Engine, Events, GameState, Outcome, RuleError, SeatStatus};
use crate::rng::GameRng;

/// How much the search player looks ahead.
#[derive(Clone, Copy, Debug)]
pub struct SearchBudget {
    /// The best-ranked actions tried (passing is always tried too).
    pub width: usize,
    /// Sampled continuations per action.
    pub rollouts: u32,
    /// Actions a continuation may take at most before it is judged.
    pub max_actions: u32,
    /// The work one decision may do in all, as [`Engine::work_done`] counts it (rules' steps,
    /// and hooks' instructions at a tenth): when it runs out, the futures every candidate was
    /// played in decide. Counted, never timed, so the same game gets the same decision on any
    /// machine; far above what the bundled games' decisions take (see docs/performance.md).
    pub work: u64,
}

impl Default for SearchBudget {
    fn default() -> Self {
        Self { width: 6, rollouts: 12, max_actions: 400, work: 20_000_000 }
    }
}

/// Set apart the stream a future's guess at the unseen cards is drawn from and the stream of
/// its dice, which both come from the future's seed.
const GUESS_STREAM: u64 = 0x6A09_E667_F3BC_C909;

pub struct SearchPlayer {
    rng: GameRng,
    budget: SearchBudget,
    /// The players of the continuations, one per seat, kept between decisions.
    rollout_players: Vec<GreedyPlayer>,
    seeds: Vec<u64>,
}

impl SearchPlayer {
    pub fn new(rng: GameRng, budget: SearchBudget) -> Self {
        Self { rng, budget, rollout_players: Vec::new(), seeds: Vec::new() }
    }

    /// The candidates: the `width` best-scored actions of the mod, then passing when it is
    /// allowed; and which of them the medium player would take (the best one reaching its
    /// `ai.min`, a tie broken at random exactly as medium breaks it, else passing). That choice
    /// goes first among the actions of its score, so it is always a candidate.
    /// The scores are read in the game its seat `believes` in, when it decides from a guess.
    fn candidates(
        &mut self,
        engine: &mut Engine,
        state: &GameState,
        believes: Option<&GameState>,
    ) -> Result<(Vec<Action>, usize), RuleError> {
        let mut ranked: Vec<(f64, bool, Action)> = Vec::new();
        let mut pass = None;
        let mut medium = super::greedy::Best::new();
        let rng = &mut self.rng;
        let (mut legal, mut scores) = (Vec::new(), Vec::new());
        super::for_each_scored_in(engine, state, believes, &mut legal, &mut scores, |action, score| {
            medium.offer(rng, &action, score, action);
            match action.kind {
                ActionKind::Leave => {}
                ActionKind::Pass | ActionKind::Cancel => pass = Some(action),
                ActionKind::Rule(_) => {
                    let (value, min) = score.unwrap_or((0.0, None));
                    ranked.push((value, min.is_none_or(|m| value >= m), action));
                }
            }
        })?;
        // Stable: equal scores keep the listing order, but for medium's choice, put first.
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
        if let Some(chosen) = medium.pick()
            && let Some(at) = ranked.iter().position(|(_, _, action)| *action == chosen)
        {
            let first_of_its_score = ranked.iter().position(|(value, _, _)| *value == ranked[at].0).unwrap_or(at);
            let entry = ranked.remove(at);
            ranked.insert(first_of_its_score, entry);
        }
        let width = engine.rules().data.ai.search_width.map_or(self.budget.width, |w| w as usize);
        ranked.truncate(width);
        let greedy = ranked.iter().position(|(_, reaches_min, _)| *reaches_min);
        let mut out: Vec<Action> = ranked.into_iter().map(|(_, _, a)| a).collect();
        let greedy = greedy.unwrap_or(out.len());
        out.extend(pass);
        let greedy = greedy.min(out.len().saturating_sub(1));
        Ok((out, greedy))
    }

    /// Plays on from `state` with greedy players until the game ends, the mod's
    /// `ai.rollout_rounds` have passed (when it gives them), or the action budget is spent.
    /// An action the rules refuse ends the continuation where it stands; a player that cannot
    /// decide (the listing's limits) fails the whole decision, since every future would meet it.
    /// Returns whether the decision's work budget ([`SearchBudget::work`], counted from
    /// `started`) ran out before the continuation ended.
    fn roll_out(&mut self, engine: &mut Engine, state: &mut GameState, started: u64) -> Result<bool, RuleError> {
        let active = state.seats.iter().filter(|s| s.status == SeatStatus::Active).count() as u32;
        let horizon = match engine.rules().data.ai.rollout_rounds {
            Some(rounds) => state.turn.number.saturating_add(rounds.max(1).saturating_mul(active)),
            None => u32::MAX,
        };
        let mut events = Events::discard();
        for _ in 0..self.budget.max_actions {
            if state.outcome.is_some() || state.turn.number > horizon {
                return Ok(false);
            }
            if engine.work_done().wrapping_sub(started) > self.budget.work {
                return Ok(true);
            }
            let seat = state.to_act() as usize;
            let action = self.rollout_players[seat].decide(engine, state)?;
            if engine.apply(state, &action, &mut events).is_err() {
                // A continuation that cannot go on is judged where it stands.
                return Ok(false);
            }
        }
        Ok(false)
    }

    /// How a continuation ended for `me`, from 0 (lost) to 1 (won); fails when the mod's
    /// standing formula does.
    fn judge(engine: &mut Engine, state: &GameState, me: u8) -> Result<f64, RuleError> {
        Ok(match &state.outcome {
            Some(Outcome::Win { seats }) => f64::from(u8::from(seats.contains(&me))),
            Some(Outcome::Draw { shares }) => {
                let total: i64 = shares.iter().map(|(_, w)| (*w).max(0)).sum();
                let mine = shares.iter().find(|(s, _)| *s == me).map_or(0, |(_, w)| (*w).max(0));
                if total > 0 { mine as f64 / total as f64 } else { 0.0 }
            }
            None => {
                let playing: Vec<u8> = (0..state.seats.len() as u8)
                    .filter(|&s| state.seats[s as usize].status == SeatStatus::Active)
                    .collect();
                if !playing.contains(&me) {
                    return Ok(0.0);
                }
                let mine = engine.standing(state, me)?.max(0.0);
                let mut total = 0.0;
                for &seat in &playing {
                    total += engine.standing(state, seat)?.max(0.0);
                }
                // Short of a result, the share of the standing, kept below a sure win.
                if total > 0.0 { 0.9 * mine / total } else { 0.9 / playing.len() as f64 }
            }
        })
    }
}

impl Player for SearchPlayer {
    fn choose(&mut self, engine: &mut Engine, state: &GameState, legal: &[Action]) -> Result<usize, RuleError> {
        let action = self.decide(engine, state)?;
        Ok(legal.iter().position(|a| *a == action).unwrap_or(0))
    }

    fn decide(&mut self, engine: &mut Engine, state: &GameState) -> Result<Action, RuleError> {
        // What its seat sees, when the mod hides anything, and a first guess at the rest to rank
        // the candidates in; every future below is played in a guess of its own.
        let rules = engine.rules().clone();
        let view = super::seat_view(&rules, state);
        let believes = view.clone().map(|view| super::guess_game(&rules, view, &mut self.rng));
        let (candidates, greedy) = self.candidates(engine, state, believes.as_ref())?;
        match candidates.as_slice() {
            [] => return Ok(Action::pass()),
            [only] => return Ok(*only),
            _ => {}
        }
        let me = state.to_act();
        while self.rollout_players.len() < state.seats.len() {
            let seed = self.rng.next_u64();
            self.rollout_players.push(GreedyPlayer::in_guessed_game(GameRng::from_seed(seed)));
        }
        // The same sampled dice for every candidate, so they are compared on equal luck.
        self.seeds.clear();
        let futures = rules.data.ai.search_futures.unwrap_or(self.budget.rollouts);
        for _ in 0..futures {
            let seed = self.rng.next_u64();
            self.seeds.push(seed);
        }
        // Each candidate's result in each sampled future, one future at a time for every
        // candidate, so that when the work budget runs out every candidate has been judged in
        // the same futures. A candidate the rules refuse gets no results.
        let mut results: Vec<Vec<f64>> = vec![Vec::with_capacity(self.seeds.len()); candidates.len()];
        let mut refused = vec![false; candidates.len()];
        let mut events = Events::discard();
        let started = engine.work_done();
        let mut futures_judged = 0;
        'futures: for r in 0..self.seeds.len() {
            // A new guess at what the seat does not see in every future, the same for every
            // candidate, drawn from the future's own seed so it does not depend on the order.
            let world = view.as_ref().map(|view| {
                let mut world = view.clone();
                fill_unknown_cards(&rules, &mut world, &mut GameRng::from_seed(self.seeds[r] ^ GUESS_STREAM));
                world
            });
            for (i, &candidate) in candidates.iter().enumerate() {
                if refused[i] {
                    continue;
                }
                let mut future = world.as_ref().unwrap_or(state).clone();
                future.rng = GameRng::from_seed(self.seeds[r]);
                if engine.apply(&mut future, &candidate, &mut events).is_err() {
                    refused[i] = true;
                    continue;
                }
                let exhausted = self.roll_out(engine, &mut future, started)?;
                if exhausted {
                    // This future was not played to its end for every candidate: it is left
                    // out for all of them.
                    break 'futures;
                }
                results[i].push(Self::judge(engine, &future, me)?);
            }
            futures_judged = r + 1;
        }
        for (row, refused) in results.iter_mut().zip(&refused) {
            row.truncate(if *refused { 0 } else { futures_judged });
        }
        // The greedy choice stands unless another candidate did better in the same futures by
        // more than twice the standard error of the paired differences: taking the best of
        // several noisy means would otherwise favour lucky samples.
        let mut choice = greedy;
        let mut best_margin = 0.0;
        for (i, row) in results.iter().enumerate() {
            if i == greedy || row.is_empty() || results[greedy].is_empty() {
                continue;
            }
            let diffs: Vec<f64> = row.iter().zip(&results[greedy]).map(|(a, b)| a - b).collect();
            let n = diffs.len() as f64;
            let mean = diffs.iter().sum::<f64>() / n;
            let variance = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
            let margin = mean - 2.0 * (variance / n).sqrt();
            if margin > best_margin {
                best_margin = margin;
                choice = i;
            }
        }
        Ok(candidates[choice])
    }
}
