//! What a space sees: the engine's own line of sight (`eval::line_of_sight`, heights and walls as
//! the rules judge them) from one space to every other, for shading the board around the piece
//! a person selected. Worked out once per space and kept until another is asked for.

use std::sync::Arc;

use meeple_engine::board::Scratch;
use meeple_engine::game::GameState;
use meeple_engine::game::eval::line_of_sight;
use meeple_engine::rules::Ruleset;

/// Whether showing sight on this game's board means anything: the board has cells to draw a
/// line across (grids and territory maps; the engine says so by answering at all) and some
/// terrain blocks sight (otherwise every space sees every other).
pub fn shows_sight(rules: &Ruleset, state: &GameState) -> bool {
    state.board.space_count() > 0
        && state.board.line_of_sight(0, 0, |_| false).is_some()
        && rules.terrain.iter().any(|terrain| terrain.blocks_sight)
}

/// The spaces one space sees, kept for the last space asked about.
#[derive(Default)]
pub struct SightCache {
    /// The rules (by address: a reload makes new ones), the board and the space the answer is for.
    key: Option<(usize, u64, u32)>,
    /// Per space of the board, whether the space in `key` sees it.
    seen: Vec<bool>,
    scratch: Scratch,
}

impl SightCache {
    /// Per space of the board, whether `from` sees it; worked out only when `from`, the board or
    /// the rules differ from the last call (a line per space, so not every frame).
    pub fn seen_from(&mut self, rules: &Arc<Ruleset>, state: &GameState, from: u32) -> &[bool] {
        let key = (Arc::as_ptr(rules) as usize, state.board.uid(), from);
        if self.key != Some(key) {
            self.seen = (0..state.board.space_count() as u32)
                .map(|to| line_of_sight(rules, state, &mut self.scratch, from, to))
                .collect();
            self.key = Some(key);
        }
        &self.seen
    }

    /// Whether the answer for `from` is kept already (no line would be drawn to ask again).
    pub fn holds(&self, rules: &Arc<Ruleset>, state: &GameState, from: u32) -> bool {
        self.key == Some((Arc::as_ptr(rules) as usize, state.board.uid(), from))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use meeple_engine::game::{Engine, Events, GameSetup};

    /// A game of one of the engine's fixture mods.
    fn fixture(name: &str) -> (Arc<Ruleset>, GameState) {
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine/tests/fixtures").join(name);
        let rules = meeple_engine::loader::load_mod(&folder).expect("the fixture loads").ruleset;
        let mut engine = Engine::new(rules.clone()).expect("engine");
        let state = engine.new_game(&GameSetup::new(&rules, 1, 2, "human"), &mut Events::discard()).expect("game");
        (rules, state)
    }

    #[test]
    fn sight_is_the_engines_and_is_kept_per_space() {
        let (rules, state) = fixture("sight");
        assert!(shows_sight(&rules, &state), "a grid with woods that block sight");
        let space = |name: &str| (0..state.board.space_count() as u32).find(|&s| state.board.space(s).label == name);
        let from = space("A01").expect("A01");
        let mut cache = SightCache::default();
        let seen = cache.seen_from(&rules, &state, from).to_vec();
        assert_eq!(seen.len(), state.board.space_count());
        let mut scratch = Scratch::new();
        for (to, &sees) in seen.iter().enumerate() {
            assert_eq!(sees, line_of_sight(&rules, &state, &mut scratch, from, to as u32), "from A01 to {to}");
        }
        // The examples of docs/modding/how-a-game-runs.md: the wood at C01 hides G01.
        assert!(seen[from as usize], "a space sees itself");
        assert!(!seen[space("G01").expect("G01") as usize], "the wood at C01 hides G01");
        assert!(seen[space("B01").expect("B01") as usize], "a neighbour is seen");
        assert!(cache.holds(&rules, &state, from));
        assert!(!cache.holds(&rules, &state, from + 1));
    }

    #[test]
    fn boards_without_cells_or_without_anything_that_blocks_show_no_sight() {
        let (rules, state) = fixture("showdown");
        assert!(!shows_sight(&rules, &state), "a graph has no lines of sight");
        let (rules, state) = fixture("shove");
        assert!(!shows_sight(&rules, &state), "a grid where nothing blocks sight");
    }
}
