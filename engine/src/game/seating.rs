//! Seats built side by side: for mods whose seats are characters grouped by side
//! (`seats.by_side` in `mod.toml`), a setup names, for each side, the human players and how many
//! characters each controls, and how many computer characters the side has. Human characters
//! take their turns first, then the computer ones; within each group the sides alternate.

use super::state::GameState;
use super::{GameSetup, SeatSetup};
use crate::rules::Ruleset;

/// Who plays one side.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SideSeating {
    /// The side's id.
    pub side: String,
    /// The human players of this side, by name.
    pub humans: Vec<String>,
    /// Characters each human player controls.
    pub characters_per_human: u32,
    /// Computer-controlled characters.
    pub computers: u32,
    /// The level of this side's computer characters (`easy`, `medium`, `hard`).
    pub level: String,
}

impl SideSeating {
    /// The mod's defaults for a side (from `seats.by_side`), with computers at `level`; human
    /// players are named "Player 1", "Player 2", ….
    pub fn defaults(rules: &Ruleset, side: &str, level: &str) -> Self {
        let defaults = rules.manifest.seats.by_side;
        let humans = defaults.map_or(0, |d| d.humans);
        Self {
            side: side.to_string(),
            humans: (1..=humans).map(|i| format!("Player {i}")).collect(),
            characters_per_human: defaults.map_or(1, |d| u32::from(d.characters_per_human)),
            computers: defaults.map_or(1, |d| u32::from(d.computers)),
            level: level.to_string(),
        }
    }
}

/// The seats of a game whose sides are set up by [`SideSeating`]: every human character first,
/// the sides taking turns in the order given (a human's characters in a row within the side),
/// then every computer character the same way. Seats are named by the side's short label and
/// their number within the side, e.g. `Red 1`.
pub fn by_sides(rules: &Ruleset, seed: u64, sides: &[SideSeating]) -> Result<GameSetup, String> {
    let known = &rules.data.seats.sides;
    if known.is_empty() {
        return Err(format!("{} has no sides to set up", rules.manifest.name));
    }
    let mut humans: Vec<Vec<SeatSetup>> = Vec::new();
    let mut computers: Vec<Vec<SeatSetup>> = Vec::new();
    for seating in sides {
        if !known.iter().any(|s| s.id == seating.side) {
            let hint = crate::diag::did_you_mean(&seating.side, known.iter().map(|s| s.id.as_str()))
                .map(|s| format!("; did you mean `{s}`?"))
                .unwrap_or_default();
            return Err(format!("unknown side `{}`{hint}", seating.side));
        }
        crate::ai::player(&seating.level, 0).map_err(|e| format!("side `{}`: {e}", seating.side))?;
        let seat = |controller: &str, player: Option<&String>| SeatSetup {
            name: String::new(),
            controller: controller.to_string(),
            side: Some(seating.side.clone()),
            player: player.cloned(),
        };
        humans.push(
            seating
                .humans
                .iter()
                .flat_map(|name| (0..seating.characters_per_human).map(move |_| name))
                .map(|name| seat("human", Some(name)))
                .collect(),
        );
        computers.push((0..seating.computers).map(|_| seat(&seating.level, None)).collect());
    }
    let mut seats = Vec::new();
    for group in [humans, computers] {
        let longest = group.iter().map(Vec::len).max().unwrap_or(0);
        for round in 0..longest {
            seats.extend(group.iter().filter_map(|side| side.get(round).cloned()));
        }
    }
    for i in 0..seats.len() {
        let side = seats[i].side.clone().unwrap_or_default();
        let number = seats[..=i].iter().filter(|s| s.side.as_deref() == Some(side.as_str())).count();
        seats[i].name = format!("{} {number}", short_label(rules, &side));
    }
    let range = rules.manifest.seats;
    if seats.len() < range.min as usize || seats.len() > range.max as usize {
        return Err(format!("this game takes {} to {} characters in all, not {}", range.min, range.max, seats.len()));
    }
    Ok(GameSetup { seed, seats, board: None, options: rules.chosen_options.clone(), first_seat: None })
}

/// The side's short label (its label, or its id, when it has none).
fn short_label<'a>(rules: &'a Ruleset, side: &'a str) -> &'a str {
    rules
        .data
        .seats
        .sides
        .iter()
        .find(|s| s.id == side)
        .and_then(|s| s.short_label.as_deref().or(s.label.as_deref()))
        .unwrap_or(side)
}

/// What the player announces when a seat's turn begins: for a mod with sides, the side's short
/// label and the seat's number within its side, then the name of the person playing it
/// ("Red Turn 1 — Alice"; a computer character just "Red Turn 3"); otherwise the seat's
/// name.
pub fn turn_announcement(rules: &Ruleset, state: &GameState, seat: u8) -> String {
    let Some(this) = state.seats.get(seat as usize) else { return String::new() };
    let Some(side) = rules.data.seats.sides.get(this.side as usize) else {
        return format!("{}'s turn", this.name);
    };
    let number = state.seats[..=seat as usize].iter().filter(|s| s.side == this.side).count();
    let label = short_label(rules, &side.id);
    match &this.player {
        Some(player) => format!("{label} Turn {number} — {player}"),
        None => format!("{label} Turn {number}"),
    }
}
