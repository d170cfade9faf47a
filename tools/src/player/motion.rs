//! Motion on the board after each action: dice that tumble before they settle, a piece that
//! travels its path, an arrow from where an action came to where it went, spaces that flash
//! when they change hands, losses that rise over a hit piece, and a banner with the outcome.
//! The engine has decided everything before any of it starts: motion only shows, from the
//! events the watching seat may see, and never changes what is shown at its end.
//!
//! Timing follows the computer pace (an action's motion fits in about one pace), so the
//! computers never outrun it; a pace of 0, the "reduce motion" setting or skipping shows the
//! end at once.

use std::collections::VecDeque;

use egui::Color32;
use meeple_engine::board::Board;
use meeple_engine::game::state::{NO_SEAT, NO_SPACE};
use meeple_engine::game::{ActionKind, Event, GameState};
use meeple_engine::rules::Ruleset;

use super::describe;

/// The longest an action's motion lasts, in paces: a slow pace should not make a game crawl.
const LONGEST_PACE: f64 = 1.5;
/// Shares of one pace: dice tumbling, a piece's first step, a flash.
const ROLL_SHARE: f64 = 0.4;
const STEP_SHARE: f64 = 0.25;
const FLASH_SHARE: f64 = 0.5;
/// How long a banner stays, in paces, and at least (seconds): long enough to read.
const BANNER_SHARE: f64 = 1.8;
const BANNER_AT_LEAST: f64 = 0.9;

/// One piece of motion, with its start and end in window time (seconds).
#[derive(Clone, Debug, PartialEq)]
pub struct Clip {
    pub start: f64,
    pub end: f64,
    pub kind: ClipKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ClipKind {
    /// The dice panel tumbles its dice.
    Roll,
    /// A piece goes from space to space along `path` (its first space where it stood).
    Travel { piece: u32, path: Vec<u32> },
    /// An arrow grows from one space to another: where an action came from and went to.
    Arrow { from: u32, to: u32, color: Color32 },
    /// A space lights up in a colour and fades.
    Flash { space: u32, color: Color32 },
    /// Words rise over a space and fade (a loss: "-12").
    Float { space: u32, text: String, color: Color32 },
    /// The outcome in large words over the board.
    Banner { text: String, tone: Tone },
}

/// How a banner is coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    Success,
    Failure,
    Hit,
    Plain,
}

impl Tone {
    pub fn color(self) -> Color32 {
        match self {
            Tone::Success => Color32::from_rgb(0x6c, 0xe0, 0x7a),
            Tone::Failure => Color32::from_rgb(0xff, 0x70, 0x60),
            Tone::Hit => Color32::from_rgb(0xff, 0xb0, 0x40),
            Tone::Plain => Color32::from_gray(235),
        }
    }
}

/// What the board draws of the motion at one moment.
#[derive(Clone, Debug, Default)]
pub struct MotionFrame {
    /// Pieces on their way: the path and how far along it (0 to 1).
    pub travelling: Vec<(u32, Vec<u32>, f32)>,
    /// Arrows: ends, colour, how much of it is drawn (0 to 1) and its opacity.
    pub arrows: Vec<(u32, u32, Color32, f32, f32)>,
    /// Spaces lit, with the colour (its alpha fading).
    pub flashes: Vec<(u32, Color32)>,
    /// Words over spaces: the text, colour (alpha fading) and how far it has risen (0 to 1).
    pub floats: Vec<(u32, String, Color32, f32)>,
}

impl MotionFrame {
    pub fn is_empty(&self) -> bool {
        self.travelling.is_empty() && self.arrows.is_empty() && self.flashes.is_empty() && self.floats.is_empty()
    }
}

/// The motion still to show, and how far the game's events have been turned into motion.
#[derive(Default)]
pub struct Motion {
    /// How many of the session's events were looked at.
    seen: usize,
    clips: VecDeque<Clip>,
    /// The state to draw until the dice have settled (the outcome not yet shown), and until when.
    before: Option<(f64, GameState)>,
    /// When the last queued action's motion ends (a banner may stay a little longer).
    busy_until: f64,
}

impl Motion {
    /// Turns the events from the last look on into motion starting `now` (or after what is
    /// still playing), an action's motion lasting about `pace` seconds. With `pace` 0 it
    /// only notes the events as seen. `places` are the spaces the last action named, in
    /// order; `before` is the state before it, shown while its dice tumble.
    #[allow(clippy::too_many_arguments)]
    pub fn follow(
        &mut self,
        rules: &Ruleset,
        state: &GameState,
        events: &[Event],
        event_count: usize,
        places: &[u32],
        before: Option<GameState>,
        now: f64,
        pace: f64,
    ) {
        if event_count < self.seen {
            // Undone or reloaded: what was shown no longer happened.
            self.skip();
            self.seen = event_count;
            return;
        }
        self.seen = event_count;
        let pace = pace.min(LONGEST_PACE);
        if events.is_empty() || pace <= 0.0 {
            return;
        }
        let start = now.max(self.busy_until);
        let (clips, end) = clips_for(rules, state, events, places, start, pace);
        if clips.iter().any(|c| matches!(c.kind, ClipKind::Banner { .. })) {
            // A new outcome takes the place of the last one's banner.
            for clip in self.clips.iter_mut().filter(|c| matches!(c.kind, ClipKind::Banner { .. })) {
                clip.end = clip.end.min(start);
            }
        }
        if let Some(roll_end) = clips.iter().find(|c| c.kind == ClipKind::Roll).map(|c| c.end)
            && let Some(before) = before
            && start <= now
        {
            self.before = Some((roll_end, before));
        }
        self.busy_until = self.busy_until.max(end);
        self.clips.extend(clips);
    }

    /// How many of the session's events were looked at.
    pub fn seen(&self) -> usize {
        self.seen
    }

    /// Notes the events as seen without showing them (skipping, computers playing at once).
    pub fn pass_over(&mut self, event_count: usize) {
        self.seen = event_count;
    }

    /// Shows the end at once.
    pub fn skip(&mut self) {
        self.clips.clear();
        self.before = None;
        self.busy_until = 0.0;
    }

    /// Whether an action's motion is still playing at `now` (a banner fading out is not).
    pub fn is_busy(&self, now: f64) -> bool {
        now < self.busy_until
    }

    /// Whether anything is still to be drawn at `now`, so frames must keep coming.
    pub fn is_playing(&self, now: f64) -> bool {
        self.clips.iter().any(|c| c.end > now)
    }

    /// Forgets the motion that has ended by `now`.
    pub fn tidy(&mut self, now: f64) {
        self.clips.retain(|c| c.end > now);
        if self.before.as_ref().is_some_and(|(until, _)| *until <= now) {
            self.before = None;
        }
    }

    /// The state to draw at `now`: before the last action while its dice tumble.
    pub fn before_state(&self, now: f64) -> Option<&GameState> {
        self.before.as_ref().filter(|(until, _)| now < *until).map(|(_, state)| state)
    }

    /// Whether the dice panel tumbles its dice at `now`.
    pub fn rolling(&self, now: f64) -> bool {
        self.clips.iter().any(|c| c.kind == ClipKind::Roll && c.start <= now && now < c.end)
    }

    /// The banner showing at `now` and its opacity (it fades in and out quickly).
    pub fn banner(&self, now: f64) -> Option<(&str, Tone, f32)> {
        self.clips.iter().rev().find_map(|c| match &c.kind {
            ClipKind::Banner { text, tone } if c.start <= now && now < c.end => {
                let fade = ((now - c.start).min(c.end - now) / 0.15).min(1.0) as f32;
                Some((text.as_str(), *tone, fade))
            }
            _ => None,
        })
    }

    /// What the board draws at `now`.
    pub fn frame(&self, now: f64) -> MotionFrame {
        let mut frame = MotionFrame::default();
        for clip in &self.clips {
            if now < clip.start || now >= clip.end {
                // A travelling piece waits at its start until its turn comes.
                if let ClipKind::Travel { piece, path } = &clip.kind
                    && now < clip.start
                {
                    frame.travelling.push((*piece, path.clone(), 0.0));
                }
                continue;
            }
            let progress = ((now - clip.start) / (clip.end - clip.start)).clamp(0.0, 1.0) as f32;
            let fading = 1.0 - progress;
            match &clip.kind {
                ClipKind::Roll | ClipKind::Banner { .. } => {}
                ClipKind::Travel { piece, path } => frame.travelling.push((*piece, path.clone(), ease(progress))),
                ClipKind::Arrow { from, to, color } => {
                    // Grows over the first half, then fades.
                    let grown = (progress * 2.0).min(1.0);
                    let alpha = if progress < 0.5 { 1.0 } else { (1.0 - progress) * 2.0 };
                    frame.arrows.push((*from, *to, *color, ease(grown), alpha));
                }
                ClipKind::Flash { space, color } => frame.flashes.push((*space, color.gamma_multiply(fading * 0.85))),
                ClipKind::Float { space, text, color } => {
                    frame.floats.push((*space, text.clone(), color.gamma_multiply(fading.sqrt()), progress))
                }
            }
        }
        frame
    }
}

/// Starts slowly and ends slowly.
fn ease(t: f32) -> f32 {
    t * t * (3.0 - 2.0 * t)
}

/// The motion of the events of one look (usually one action), from `start`, with when its
/// last blocking part ends.
fn clips_for(
    rules: &Ruleset,
    state: &GameState,
    events: &[Event],
    places: &[u32],
    start: f64,
    pace: f64,
) -> (Vec<Clip>, f64) {
    let mut clips = Vec::new();
    let at = |from: f64, share: f64, kind: ClipKind| Clip { start: from, end: from + share * pace, kind };
    let rolled = events.iter().any(|e| matches!(e, Event::Rolled { .. }));
    let mut t = start;
    if rolled {
        clips.push(at(t, ROLL_SHARE, ClipKind::Roll));
        t += ROLL_SHARE * pace;
    }
    // The actor and action: the last action taken among these events decides the banner.
    let mut actor = NO_SEAT;
    let mut action = None;
    let mut success = None;
    let mut moved = Vec::new();
    let mut flashes = Vec::new();
    let mut losses: Vec<(u32, i64)> = Vec::new();
    for event in events {
        match event {
            Event::Acted { seat, action: taken } => {
                actor = *seat;
                action = match taken.kind {
                    ActionKind::Rule(index) => rules.actions.get(index as usize),
                    _ => None,
                };
                success = None;
            }
            Event::Decided { success: decided } => success = Some(*decided),
            Event::PieceMoved { piece, from: Some(from), to: Some(to) }
                if from != to && (*from as usize) < state.board.space_count() =>
            {
                moved.push((*piece, *from, *to));
            }
            Event::OwnerChanged { space, to, .. } => {
                let color = describe::seat_color(rules, state, to.unwrap_or(NO_SEAT));
                flashes.push((*space, color.lerp_to_gamma(Color32::WHITE, 0.35)));
            }
            Event::StatChanged { piece, stat, from, to, .. }
                if to < from && rules.stats.get(*stat as usize).is_some_and(|s| s.bar.is_some()) =>
            {
                match losses.iter_mut().find(|(p, _)| p == piece) {
                    Some((_, lost)) => *lost += from - to,
                    None => losses.push((*piece, from - to)),
                }
            }
            Event::PieceRemoved { piece } => {
                if let Some(space) = state.pieces.get(*piece as usize).map(|p| p.space)
                    && (space as usize) < state.board.space_count()
                {
                    flashes.push((space, Color32::from_rgb(0x30, 0x30, 0x30)));
                }
            }
            _ => {}
        }
    }
    // A piece that moved travels; otherwise an action naming two places draws an arrow.
    let mut travelled = t;
    for (piece, from, to) in moved.iter().take(8) {
        let path = path_between(&state.board, *from, *to);
        let steps = path.len().saturating_sub(1).clamp(1, 8) as f64;
        let share = STEP_SHARE * (1.0 + steps).sqrt();
        let clip = at(t, share, ClipKind::Travel { piece: *piece, path });
        travelled = travelled.max(clip.end);
        clips.push(clip);
    }
    if moved.is_empty()
        && let (Some(&from), Some(&to)) = (places.first(), places.last())
        && from != to
        && (from as usize) < state.board.space_count()
        && (to as usize) < state.board.space_count()
    {
        let color = describe::seat_color(rules, state, actor);
        clips.push(at(t, STEP_SHARE * 2.0 + FLASH_SHARE, ClipKind::Arrow { from, to, color }));
        travelled = t + STEP_SHARE * pace;
    }
    t = travelled;
    let mut end = t;
    for (space, color) in flashes {
        let clip = at(t, FLASH_SHARE, ClipKind::Flash { space, color });
        end = end.max(clip.end);
        clips.push(clip);
    }
    let hit = Color32::from_rgb(0xff, 0x50, 0x40);
    for (piece, lost) in &losses {
        let Some(space) = state.pieces.get(*piece as usize).map(|p| p.space) else { continue };
        if (space as usize) >= state.board.space_count() || space == NO_SPACE {
            continue;
        }
        clips.push(at(t, FLASH_SHARE, ClipKind::Flash { space, color: hit }));
        let float = at(t, FLASH_SHARE * 2.0, ClipKind::Float { space, text: format!("-{lost}"), color: hit });
        end = end.max(t + FLASH_SHARE * pace);
        clips.push(float);
    }
    let said = action.and_then(|a| match success {
        Some(true) => a.banner.0.clone().map(|text| (text, Tone::Success)),
        Some(false) => a.banner.1.clone().map(|text| (text, Tone::Failure)),
        None => None,
    });
    let banner = said.or_else(|| {
        let lost: i64 = losses.iter().map(|(_, lost)| lost).sum();
        (lost > 0).then(|| (format!("Hit for {lost}"), Tone::Hit))
    });
    if let Some((text, tone)) = banner {
        let length = (BANNER_SHARE * pace).max(BANNER_AT_LEAST);
        clips.push(Clip { start: t, end: t + length, kind: ClipKind::Banner { text, tone } });
        end = end.max(t + FLASH_SHARE * pace);
    }
    (clips, end)
}

/// The fewest steps from `from` to `to` over the board's edges (the way the piece most
/// plausibly went; the engine records where a piece went, not its route), preferring edges
/// with no wall across. Just the two ends when no way is found.
pub fn path_between(board: &Board, from: u32, to: u32) -> Vec<u32> {
    let count = board.space_count();
    if (from as usize) >= count || (to as usize) >= count {
        return vec![from, to];
    }
    for walls_allowed in [false, true] {
        let mut came_from = vec![u32::MAX; count];
        came_from[from as usize] = from;
        let mut queue = VecDeque::from([from]);
        while let Some(space) = queue.pop_front() {
            if space == to {
                let mut path = vec![to];
                let mut at = to;
                while at != from {
                    at = came_from[at as usize];
                    path.push(at);
                }
                path.reverse();
                return path;
            }
            for &(next, edge) in board.neighbors(space) {
                let walled = board.get_edge(edge).is_some_and(|e| e.wall.is_some());
                if came_from[next as usize] == u32::MAX && (walls_allowed || !walled) {
                    came_from[next as usize] = space;
                    queue.push_back(next);
                }
            }
        }
    }
    vec![from, to]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clip(start: f64, end: f64, kind: ClipKind) -> Clip {
        Clip { start, end, kind }
    }

    #[test]
    fn a_frame_shows_what_is_playing_and_a_traveller_waits_for_its_turn() {
        let mut motion = Motion::default();
        motion.clips.push_back(clip(0.0, 1.0, ClipKind::Flash { space: 3, color: Color32::WHITE }));
        motion.clips.push_back(clip(1.0, 2.0, ClipKind::Travel { piece: 7, path: vec![1, 2, 3] }));
        motion.busy_until = 2.0;
        let early = motion.frame(0.5);
        assert_eq!(early.flashes.len(), 1);
        assert_eq!(early.travelling, vec![(7, vec![1, 2, 3], 0.0)], "waits at its start");
        let later = motion.frame(1.5);
        assert!(later.flashes.is_empty());
        assert_eq!(later.travelling[0].2, 0.5, "half way at the middle (eased)");
        assert!(motion.is_busy(1.9) && !motion.is_busy(2.0));
        motion.tidy(2.5);
        assert!(!motion.is_playing(2.5) && motion.frame(2.5).is_empty());
    }

    #[test]
    fn skipping_ends_everything_at_once() {
        let mut motion = Motion::default();
        motion.clips.push_back(clip(0.0, 5.0, ClipKind::Banner { text: "Taken".into(), tone: Tone::Success }));
        motion.busy_until = 5.0;
        assert_eq!(motion.banner(1.0).map(|b| b.0), Some("Taken"));
        motion.skip();
        assert!(motion.banner(1.0).is_none() && !motion.is_busy(1.0) && !motion.is_playing(1.0));
    }
}
