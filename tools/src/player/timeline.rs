//! What the end of a game shows: each seat's figures turn by turn (the chart), the order in
//! which seats went out, and the seats ranked.
//!
//! The figures are what the mod counts: the spaces a seat owns, its pieces, each resource shown
//! on screen and each figure of `[seats.figures]`. They are taken from the game's own state
//! after every action that starts a new turn, and shown only once the game is over, when
//! nothing is hidden any more.

use meeple_engine::game::{GameState, Outcome, SeatStatus};
use meeple_engine::rules::Ruleset;

use super::describe;

/// The figures of every seat at the start of one turn.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub turn: u32,
    /// Per series, per seat.
    pub values: Vec<Vec<f64>>,
}

/// A seat that went out of the game, and when.
#[derive(Clone, Debug, PartialEq)]
pub struct Out {
    pub seat: u8,
    pub status: SeatStatus,
    pub turn: u32,
    pub round: u32,
}

/// One place of the final ranking.
#[derive(Clone, Debug, PartialEq)]
pub struct Ranked {
    /// 1 for the first; seats sharing a place share its number.
    pub place: usize,
    pub seat: u8,
    /// How it ended for the seat: "won", "out in round 7", "played on".
    pub result: String,
}

/// Each seat's figures over the game's turns, and who went out when.
#[derive(Clone, Debug, Default)]
pub struct Timeline {
    /// The figures' names, one per series ("Spaces", "Pieces", a resource, a seat figure).
    pub series: Vec<String>,
    pub samples: Vec<Sample>,
    pub outs: Vec<Out>,
}

impl Timeline {
    /// The timeline of a game just started: its series and their first values.
    pub fn new(rules: &Ruleset, state: &GameState) -> Self {
        let mut series = vec!["Spaces".to_string(), "Pieces".to_string()];
        series.extend(rules.resources.iter().filter(|r| r.on_screen()).map(|r| r.label.clone()));
        series.extend(rules.seat_figures.iter().map(|(label, _)| label.clone()));
        let mut timeline = Self { series, samples: Vec::new(), outs: Vec::new() };
        timeline.samples.push(timeline.sample(rules, state));
        timeline
    }

    /// Looks at the game after an action: a sample when a new turn began or the game ended,
    /// and the seats that went out since the last look.
    pub fn observe(&mut self, rules: &Ruleset, state: &GameState) {
        for (seat, status) in state.seats.iter().map(|s| s.status).enumerate() {
            if status != SeatStatus::Active && !self.outs.iter().any(|o| o.seat as usize == seat) {
                let (turn, round) = (state.turn.number, state.turn.round);
                self.outs.push(Out { seat: seat as u8, status, turn, round });
            }
        }
        let last = self.samples.last().map(|s| s.turn);
        if last != Some(state.turn.number) || state.is_over() {
            let sample = self.sample(rules, state);
            // The end of a game within a turn replaces that turn's sample.
            if last == Some(sample.turn) {
                self.samples.pop();
            }
            self.samples.push(sample);
        }
    }

    /// Goes back to the first `samples` samples and `outs` seats out (an undo).
    pub fn truncate(&mut self, samples: usize, outs: usize) {
        self.samples.truncate(samples.max(1));
        self.outs.truncate(outs);
    }

    fn sample(&self, rules: &Ruleset, state: &GameState) -> Sample {
        let seats = 0..state.seats.len() as u8;
        let mut values: Vec<Vec<f64>> = vec![
            seats.clone().map(|s| f64::from(state.owned_count(s))).collect(),
            seats.clone().map(|s| state.pieces.iter().filter(|p| p.alive && p.owner == s).count() as f64).collect(),
        ];
        for (index, _) in rules.resources.iter().enumerate().filter(|(_, r)| r.on_screen()) {
            values.push(seats.clone().map(|s| state.seats[s as usize].resources[index] as f64).collect());
        }
        let figures: Vec<Vec<f64>> = seats
            .clone()
            .map(|s| match meeple_engine::game::seat_figures(rules, state, s) {
                Ok(figures) => figures.into_iter().map(|(_, value)| value as f64).collect(),
                Err(_) => vec![0.0; rules.seat_figures.len()],
            })
            .collect();
        for figure in 0..rules.seat_figures.len() {
            values.push(figures.iter().map(|per_seat| per_seat.get(figure).copied().unwrap_or(0.0)).collect());
        }
        Sample { turn: state.turn.number, values }
    }

    /// The series worth a chart: those that are not the same for every seat all game long.
    pub fn telling_series(&self) -> Vec<usize> {
        (0..self.series.len())
            .filter(|&series| {
                let first = self.samples.first().and_then(|s| s.values[series].first()).copied();
                self.samples.iter().any(|s| s.values[series].iter().any(|v| Some(*v) != first))
            })
            .collect()
    }

    /// The points of one seat's line in one series: (turn, value).
    pub fn points(&self, series: usize, seat: u8) -> Vec<[f64; 2]> {
        self.samples
            .iter()
            .filter_map(|s| s.values.get(series)?.get(seat as usize).map(|v| [f64::from(s.turn), *v]))
            .collect()
    }

    /// The seats ranked once the game is over: the winners first; then, by `standing` (the
    /// mod's own judgement of who is ahead), the seats that played to the end; then the seats
    /// that went out, the last to go first. A draw ranks its seats by their shares.
    pub fn ranking(&self, state: &GameState, standing: &mut dyn FnMut(u8) -> f64) -> Vec<Ranked> {
        let seats = state.seats.len() as u8;
        let mut ranked: Vec<(f64, u8, String)> = Vec::new();
        let out_text = |out: &Out| match out.status {
            SeatStatus::Left => format!("left in round {}", out.round),
            _ => format!("out in round {}", out.round),
        };
        match &state.outcome {
            Some(Outcome::Win { seats: winners }) => {
                for &seat in winners {
                    ranked.push((f64::INFINITY, seat, "won".into()));
                }
            }
            Some(Outcome::Draw { shares }) => {
                let total: i64 = shares.iter().map(|(_, w)| *w).sum();
                for &(seat, weight) in shares {
                    let share = if total > 0 { weight as f64 / total as f64 } else { 0.0 };
                    ranked.push((1e12 + share, seat, format!("draw, {:.0}% share", share * 100.0)));
                }
            }
            None => {}
        }
        for seat in 0..seats {
            if ranked.iter().any(|(_, s, _)| *s == seat) {
                continue;
            }
            match self.outs.iter().position(|o| o.seat == seat) {
                // The later a seat went out, the higher it ranks, below every seat still in.
                Some(order) => ranked.push((-1e12 + order as f64, seat, out_text(&self.outs[order]))),
                None => ranked.push((standing(seat), seat, "played on".into())),
            }
        }
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut places = Vec::new();
        for (i, (score, seat, result)) in ranked.iter().enumerate() {
            let place = match i.checked_sub(1).map(|j| &ranked[j]) {
                Some((previous, _, _)) if previous == score => places.last().map_or(1, |r: &Ranked| r.place),
                _ => i + 1,
            };
            places.push(Ranked { place, seat: *seat, result: result.clone() });
        }
        places
    }
}

/// "1st", "2nd", "3rd", "4th"…
pub fn ordinal(place: usize) -> String {
    let suffix = match (place % 10, place % 100) {
        (1, n) if n != 11 => "st",
        (2, n) if n != 12 => "nd",
        (3, n) if n != 13 => "rd",
        _ => "th",
    };
    format!("{place}{suffix}")
}

/// A ranking line as the end screen shows it: "1st · Seat 2 · won".
pub fn ranking_line(state: &GameState, ranked: &Ranked) -> String {
    format!("{} · {} · {}", ordinal(ranked.place), describe::seat(state, ranked.seat), ranked.result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals_read_as_english() {
        let read: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111].into_iter().map(ordinal).collect();
        assert_eq!(read, ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"]);
    }
}
