//! What must hold of every game state the engine hands out, whatever the mod: indices point at
//! things that exist, numbers stay within their declared bounds, cards are neither made nor lost,
//! and the derived fields agree with the data they are derived from. Property tests check it
//! after every action; it is cheap enough (one pass over the state) to call that often.

use super::state::{GameState, NO_PIECE, NO_SEAT, NO_SPACE, Outcome, SeatStatus};
use crate::rules::{CounterInfo, Ruleset};

impl GameState {
    /// Every broken invariant of this state under `rules`, in words; `Ok` when there is none.
    pub fn check_invariants(&self, rules: &Ruleset) -> Result<(), String> {
        let mut problems = Vec::new();
        let mut problem = |text: String| {
            // One broken invariant usually breaks many entries: the first few say enough.
            if problems.len() < 20 {
                problems.push(text);
            }
        };
        let seats = self.seats.len();
        let spaces = self.board.space_count();
        let in_bounds = |info: &CounterInfo, value: i64| (info.min..=info.max).contains(&value);

        if seats == 0 || seats >= NO_SEAT as usize {
            problem(format!("{seats} seats"));
        }
        if self.owners.len() != spaces {
            problem(format!("{} owners for {spaces} spaces", self.owners.len()));
        }
        for (space, &owner) in self.owners.iter().enumerate() {
            if owner != NO_SEAT && owner as usize >= seats {
                problem(format!("space {space} is owned by seat {owner} of {seats}"));
            }
        }
        let mut owned = vec![0u32; seats];
        for &owner in &self.owners {
            if let Some(count) = owned.get_mut(owner as usize) {
                *count += 1;
            }
        }
        if owned != self.owned {
            problem(format!("spaces owned per seat are kept as {:?}, but the owners say {owned:?}", self.owned));
        }

        let counters = rules.space_counters.len();
        if self.counter_count as usize != counters || self.counters.len() != spaces * counters {
            problem(format!(
                "{} counter values ({} per space) for {spaces} spaces with {counters} counters",
                self.counters.len(),
                self.counter_count
            ));
        } else {
            for (index, &value) in self.counters.iter().enumerate() {
                let info = &rules.space_counters[index % counters];
                if !in_bounds(info, value) {
                    problem(format!(
                        "space {} has {} = {value}, outside {}..={}",
                        index / counters,
                        info.id,
                        info.min,
                        info.max
                    ));
                }
            }
        }

        let mut cards_held = vec![Vec::new(); rules.decks.len()];
        for (index, seat) in self.seats.iter().enumerate() {
            if seat.resources.len() != rules.resources.len() {
                problem(format!("seat {index} has {} resources of {}", seat.resources.len(), rules.resources.len()));
            }
            for (info, &value) in rules.resources.iter().zip(&seat.resources) {
                if !in_bounds(info, value) {
                    problem(format!("seat {index} has {} = {value}, outside {}..={}", info.id, info.min, info.max));
                }
            }
            let sides = rules.data.seats.sides.len();
            if (sides > 0 && seat.side as usize >= sides) || (sides == 0 && seat.side as usize != index) {
                problem(format!("seat {index} plays on side {} of {sides}", seat.side));
            }
            for &(deck, card) in &seat.hand {
                match cards_held.get_mut(deck as usize) {
                    Some(held) => held.push(card),
                    None => problem(format!("seat {index} holds a card of deck {deck} of {}", rules.decks.len())),
                }
            }
            // Who saw which card is kept by position in the hand: never for cards not held.
            if seat.shown.len() > seat.hand.len() {
                problem(format!("seat {index} has {} cards shown of {} held", seat.shown.len(), seat.hand.len()));
            }
        }

        let mut inside: std::collections::BTreeMap<u32, u32> = std::collections::BTreeMap::new();
        for (index, piece) in self.pieces.iter().enumerate() {
            if piece.kind as usize >= rules.piece_kinds.len() {
                problem(format!("piece {index} is of kind {} of {}", piece.kind, rules.piece_kinds.len()));
            }
            if piece.owner != NO_SEAT && piece.owner as usize >= seats {
                problem(format!("piece {index} is owned by seat {} of {seats}", piece.owner));
            }
            if piece.space != NO_SPACE && piece.space as usize >= spaces {
                problem(format!("piece {index} stands on space {} of {spaces}", piece.space));
            }
            if piece.stats.len() != rules.stats.len() {
                problem(format!("piece {index} has {} stats of {}", piece.stats.len(), rules.stats.len()));
            }
            for (info, &value) in rules.stats.iter().zip(&piece.stats) {
                if !in_bounds(info, value) {
                    problem(format!("piece {index} has {} = {value}, outside {}..={}", info.id, info.min, info.max));
                }
            }
            for held in &piece.items {
                if held.item as usize >= rules.items.len() || held.charges < 0 {
                    problem(format!("piece {index} holds item {} with {} charges", held.item, held.charges));
                }
            }
            // A piece between two spaces stands between neighbours, the lower id first, and is of
            // a kind that stands there (or inside a holder that does).
            if piece.across != NO_SPACE {
                let on_edge = rules.piece_kinds.get(piece.kind as usize).is_some_and(|k| k.on_edge);
                if !piece.alive
                    || piece.across <= piece.space
                    || self.board.edge_between(piece.space, piece.across).is_none()
                    || (!on_edge && piece.inside == NO_PIECE)
                {
                    problem(format!("piece {index} stands between spaces {} and {}", piece.space, piece.across));
                }
            } else if piece.alive && rules.piece_kinds.get(piece.kind as usize).is_some_and(|k| k.on_edge) {
                problem(format!("piece {index} stands in space {}, but its kind stands between two", piece.space));
            }
            // A piece inside a holder is in play with it, on its space; holders do not nest.
            if piece.inside != NO_PIECE {
                match self.pieces.get(piece.inside as usize) {
                    Some(holder)
                        if piece.alive
                            && holder.alive
                            && holder.inside == NO_PIECE
                            && holder.space == piece.space
                            && holder.across == piece.across
                            && rules.piece_kinds.get(holder.kind as usize).is_some_and(|k| k.capacity > 0) =>
                    {
                        *inside.entry(piece.inside).or_insert(0) += 1;
                    }
                    _ => problem(format!("piece {index} is inside piece {}, which cannot hold it there", piece.inside)),
                }
            }
            // Attached cards belong to their deck as cards in hand do.
            for &(deck, card) in &piece.cards {
                match cards_held.get_mut(deck as usize) {
                    Some(held) => held.push(card),
                    None => problem(format!("piece {index} holds a card of deck {deck} of {}", rules.decks.len())),
                }
            }
        }

        for (holder, count) in inside {
            let capacity = rules.piece_kinds.get(self.pieces[holder as usize].kind as usize).map_or(0, |k| k.capacity);
            if count > capacity {
                problem(format!("piece {holder} holds {count} pieces, more than its capacity {capacity}"));
            }
        }

        if self.decks.len() != rules.decks.len() {
            problem(format!("{} decks of {}", self.decks.len(), rules.decks.len()));
        }
        for (index, ((info, piles), held)) in rules.decks.iter().zip(&self.decks).zip(cards_held).enumerate() {
            // Cards move between the piles, the hands and pieces; none is made or lost.
            let mut now: Vec<u16> = piles.draw.iter().chain(&piles.discard).chain(&held).copied().collect();
            let mut dealt = info.cards.clone();
            now.sort_unstable();
            dealt.sort_unstable();
            if now != dealt {
                problem(format!("deck {index} ({}) holds cards {now:?} instead of {dealt:?}", info.id));
            }
        }

        if self.vars.len() != rules.vars.len() {
            problem(format!("{} variables of {}", self.vars.len(), rules.vars.len()));
        }
        for (info, &value) in rules.vars.iter().zip(&self.vars) {
            if !in_bounds(info, value) {
                problem(format!("variable {} = {value}, outside {}..={}", info.id, info.min, info.max));
            }
        }

        let turn = &self.turn;
        if turn.seat as usize >= seats {
            problem(format!("seat {} of {seats} is to move", turn.seat));
        }
        match rules.phases.get(turn.phase as usize) {
            None => problem(format!("phase {} of {}", turn.phase, rules.phases.len())),
            Some(phase) => {
                if turn.used.len() != rules.budget_names.len() || phase.budget.len() != turn.used.len() {
                    problem(format!("{} budget entries of {}", turn.used.len(), rules.budget_names.len()));
                }
                for ((name, &used), &limit) in rules.budget_names.iter().zip(&turn.used).zip(&phase.budget) {
                    if used > limit {
                        problem(format!("`{name}` was taken {used} times in a phase that allows {limit}"));
                    }
                }
            }
        }
        if let Some(pending) = &turn.pending {
            match rules.actions.get(pending.action as usize) {
                Some(rule) if rule.is_staged() && pending.rolls.len() == rule.rolls.len() => {}
                _ => problem(format!(
                    "the action awaiting its choices ({}) is not one rolled in two steps",
                    pending.action
                )),
            }
        }
        match &self.outcome {
            None => {
                if self.seats.get(turn.seat as usize).is_some_and(|s| s.status != SeatStatus::Active) {
                    problem(format!("seat {} is to move but no longer plays", turn.seat));
                }
                if turn.number > rules.end.turn_limit {
                    problem(format!("turn {} is past the turn limit {}", turn.number, rules.end.turn_limit));
                }
            }
            Some(Outcome::Win { seats: winners }) => {
                if winners.is_empty() || winners.iter().any(|&s| s as usize >= seats) {
                    problem(format!("the winners {winners:?} are not seats of {seats}"));
                }
            }
            Some(Outcome::Draw { shares }) => {
                if shares.iter().any(|&(s, _)| s as usize >= seats) {
                    problem(format!("the draw's shares {shares:?} name seats beyond {seats}"));
                }
            }
        }
        if problems.is_empty() { Ok(()) } else { Err(problems.join("; ")) }
    }
}
