//! Words for what the engine holds: arguments ("C07", "Red 2 at C07", "Bow (4 left)"),
//! events as log lines, outcomes, and colours from the mod's data. Generic: it reads only the
//! ruleset's labels.

use egui::Color32;
use meeple_engine::defs::ParamKind;
use meeple_engine::game::state::NO_SEAT;
use meeple_engine::game::{Event, GameState, Outcome};
use meeple_engine::rules::Ruleset;

/// The text of an action argument of a parameter kind.
pub fn arg(rules: &Ruleset, state: &GameState, kind: ParamKind, arg: i64) -> String {
    match kind {
        ParamKind::Space => space(state, arg as u32),
        ParamKind::Seat => seat(state, arg as u8),
        ParamKind::Piece => piece(rules, state, arg as u32),
        ParamKind::Number => arg.to_string(),
        ParamKind::Item => match rules.items.get(arg as usize) {
            Some(item) if item.price > 0 => format!("{} (${})", item.label, item.price),
            Some(item) => item.label.clone(),
            None => format!("item {arg}"),
        },
        ParamKind::Held => {
            let (piece, position) = held(arg);
            let held = state.pieces.get(piece as usize).and_then(|p| p.items.get(position as usize));
            match held.and_then(|h| rules.items.get(h.item as usize).map(|item| (h, item))) {
                Some((held, item)) if item.charges > 0 || held.charges > 0 => {
                    format!("{} ({} left)", item.label, held.charges)
                }
                Some((_, item)) => item.label.clone(),
                None => format!("item {}", position + 1),
            }
        }
        ParamKind::Card => card_label(rules, arg),
    }
}

/// The kind of item an argument names: the item itself (`item`), or the kind of the item a piece
/// holds (`held`).
pub fn arg_item(state: &GameState, kind: ParamKind, arg: i64) -> Option<u16> {
    match kind {
        ParamKind::Item => u16::try_from(arg).ok(),
        ParamKind::Held if arg >= 0 => {
            let (piece, position) = held(arg);
            state.pieces.get(piece as usize)?.items.get(position as usize).map(|h| h.item)
        }
        _ => None,
    }
}

/// An item kind's named numbers as a person reads them, "strength 3, reach 2": those it gives
/// (not 0), in the order the mod's items first name them; empty when it gives none.
pub fn item_stats(rules: &Ruleset, item: u16) -> String {
    let Some(info) = rules.items.get(item as usize) else { return String::new() };
    let shown: Vec<String> = rules
        .item_stats
        .iter()
        .zip(&info.stats)
        .filter(|(_, value)| **value != 0)
        .map(|(name, value)| format!("{} {value}", name.replace('_', " ")))
        .collect();
    shown.join(", ")
}

/// What a choice of an item kind says besides its label: its stats and the piece kinds that
/// may hold it, "strength 3, reach 2 · for Lookout"; `None` when it has neither.
pub fn item_detail(rules: &Ruleset, item: u16) -> Option<String> {
    let info = rules.items.get(item as usize)?;
    let mut parts = Vec::new();
    let stats = item_stats(rules, item);
    if !stats.is_empty() {
        parts.push(stats);
    }
    let holders: Vec<&str> = info
        .holders
        .iter()
        .filter_map(|&kind| rules.piece_kinds.get(kind as usize))
        .map(|k| k.label.as_str())
        .collect();
    if !holders.is_empty() {
        parts.push(format!("for {}", holders.join(", ")));
    }
    (!parts.is_empty()).then(|| parts.join(" · "))
}

/// The mod's sentence about an item kind (its `description`), for a tooltip.
pub fn item_description(rules: &Ruleset, item: u16) -> Option<String> {
    let info = rules.items.get(item as usize)?;
    rules.data.items.get(&info.id).and_then(|def| def.description.clone())
}

/// A card by its label ("Long sword"), or its number when the mod has no such card.
pub fn card_label(rules: &Ruleset, card: i64) -> String {
    usize::try_from(card).ok().and_then(|c| rules.cards.get(c)).map_or_else(
        || {
            if card == i64::from(meeple_engine::game::state::UNKNOWN_CARD) {
                "a card".into()
            } else {
                format!("card {card}")
            }
        },
        |c| c.label.clone(),
    )
}

/// Where an argument is on the board and who owns it there: (space, owner).
pub fn arg_place(state: &GameState, kind: ParamKind, arg: i64) -> (Option<u32>, Option<u8>) {
    let piece_place = |piece: u32| match state.pieces.get(piece as usize) {
        Some(p) if p.alive => {
            let space = (p.space as usize) < state.owners.len();
            (space.then_some(p.space), (p.owner != NO_SEAT).then_some(p.owner))
        }
        _ => (None, None),
    };
    match kind {
        ParamKind::Space if arg >= 0 && (arg as usize) < state.owners.len() => {
            (Some(arg as u32), state.owner(arg as u32))
        }
        ParamKind::Piece if arg >= 0 => piece_place(arg as u32),
        ParamKind::Held if arg >= 0 => piece_place(held(arg).0),
        _ => (None, None),
    }
}

/// The (piece, position) of a held-item argument.
fn held(arg: i64) -> (u32, u8) {
    ((arg.max(0) / 256) as u32, (arg.max(0) % 256) as u8)
}

/// A space by its display name or label.
pub fn space(state: &GameState, space: u32) -> String {
    match state.board.get_space(space) {
        Some(s) => s.name.clone().unwrap_or_else(|| s.label.clone()),
        None => "off the board".into(),
    }
}

/// A seat by name.
pub fn seat(state: &GameState, seat: u8) -> String {
    state.seats.get(seat as usize).map_or_else(|| format!("seat {}", seat as u32 + 1), |s| s.name.clone())
}

/// A piece: its owner's name (or its kind) and where it stands, e.g. "Red 2 at C07".
pub fn piece(rules: &Ruleset, state: &GameState, piece: u32) -> String {
    let Some(p) = state.pieces.get(piece as usize) else { return format!("piece {}", piece + 1) };
    let mut who = piece_name(rules, state, piece);
    // A piece inside a holder is named with it: "Red's crate in Red's wagon at C04".
    if p.inside != meeple_engine::game::state::NO_PIECE {
        who = format!("{who} in {}", piece_name(rules, state, p.inside));
    }
    // A holder with what it holds, so that two on one space are told apart in a list:
    // "Red's wagon (Crate ×2, Guard) at C04".
    let contents = contents_text(rules, state, piece);
    if !contents.is_empty() {
        who = format!("{who} ({contents})");
    }
    if p.across != meeple_engine::game::state::NO_SPACE {
        return format!("{who} between {} and {}", space(state, p.space), space(state, p.across));
    }
    if (p.space as usize) < state.owners.len() { format!("{who} at {}", space(state, p.space)) } else { who }
}

/// What a holder holds, by kind in the mod's order, "Crate ×2, Guard"; empty for a piece that
/// holds nothing.
pub fn contents_text(rules: &Ruleset, state: &GameState, holder: u32) -> String {
    let mut counts = vec![0u32; rules.piece_kinds.len()];
    for q in state.pieces.iter().filter(|q| q.alive && q.inside == holder) {
        if let Some(count) = counts.get_mut(q.kind as usize) {
            *count += 1;
        }
    }
    let parts: Vec<String> = counts
        .iter()
        .enumerate()
        .filter(|(_, n)| **n > 0)
        .map(|(kind, n)| {
            let label = &rules.piece_kinds[kind].label;
            if *n == 1 { label.clone() } else { format!("{label} ×{n}") }
        })
        .collect();
    parts.join(", ")
}

/// A piece by its owner and kind ("Seat 2's archer"), or by its owner alone when the seat
/// ever had just this one piece (a character that is its seat), without where it stands.
pub fn piece_name(rules: &Ruleset, state: &GameState, piece: u32) -> String {
    let Some(p) = state.pieces.get(piece as usize) else { return format!("piece {}", piece + 1) };
    let kind = rules.piece_kinds.get(p.kind as usize).map_or("piece", |k| k.label.as_str());
    if p.owner == NO_SEAT {
        return rules
            .data
            .seats
            .nobody
            .as_deref()
            .map_or_else(|| kind.to_string(), |name| format!("{} {kind}", possessive(name)));
    }
    let pieces_of_owner = state.pieces.iter().filter(|q| q.owner == p.owner).count();
    if pieces_of_owner == 1 { seat(state, p.owner) } else { format!("{} {kind}", possessive(&seat(state, p.owner))) }
}

/// "Red's", "Bandits'": a name as the owner of what follows.
pub fn possessive(name: &str) -> String {
    if name.ends_with('s') { format!("{name}'") } else { format!("{name}'s") }
}

/// The name of who owns a piece: its seat's, or what the mod calls nobody (`[seats] nobody`),
/// else "nobody".
pub fn owner_name(rules: &Ruleset, state: &GameState, owner: u8) -> String {
    if owner == NO_SEAT {
        rules.data.seats.nobody.clone().unwrap_or_else(|| "nobody".into())
    } else {
        seat(state, owner)
    }
}

/// Who gets or gives up an item: the seat owning the piece, else the piece by name ("wolf",
/// or with `[seats] nobody`, "Bandits' wolf").
fn item_holder(rules: &Ruleset, state: &GameState, piece: u32) -> String {
    match state.pieces.get(piece as usize) {
        Some(p) if p.owner != NO_SEAT => seat(state, p.owner),
        _ => piece_name(rules, state, piece),
    }
}

/// A readable line for an event, or `None` for the events the log leaves out (counter
/// changes and the like, which the board shows).
pub fn event(rules: &Ruleset, state: &GameState, event: &Event) -> Option<String> {
    Some(match event {
        Event::GameStarted => format!("{} begins.", rules.manifest.name),
        Event::TurnStarted { seat, .. } => meeple_engine::game::seating::turn_announcement(rules, state, *seat),
        Event::Acted { seat: who, action } => {
            format!("{}: {}", seat(state, *who), super::session::action_text(rules, state, action))
        }
        // Nobody chose it: the rules did, on this seat's turn.
        Event::Performed { action, .. } => format!("  {}", super::session::action_text(rules, state, action)),
        // In a view that may not see them the faces are empty: only how many were rolled.
        Event::SecretRolled { seat: who, dice, faces, value, .. } => {
            if faces.is_empty() {
                format!("  {} rolls {dice} dice in secret", seat(state, *who))
            } else {
                let faces: Vec<String> = faces.iter().map(u32::to_string).collect();
                format!("  {} rolls {} = {value} in secret", seat(state, *who), faces.join(" + "))
            }
        }
        Event::ValueRevealed { seat: who, label, value } => format!("  {} shows {label}: {value}", seat(state, *who)),
        Event::Rolled { roll, faces, value, .. } => {
            let sum: i64 = faces.iter().map(|&f| i64::from(f)).sum();
            let faces: Vec<String> = faces.iter().map(u32::to_string).collect();
            let name = roll.as_deref().map(|r| format!("{r}: ")).unwrap_or_default();
            if faces.len() > 1 && sum != *value {
                // The highest, the lowest or a count of successes, not the sum.
                format!("  {name}rolled {} → {value}", faces.join(", "))
            } else if faces.len() > 1 {
                format!("  {name}rolled {} = {value}", faces.join(" + "))
            } else {
                format!("  {name}rolled {value}")
            }
        }
        Event::Decided { success } => (if *success { "  success" } else { "  failed" }).to_string(),
        Event::OwnerChanged { space: s, to, .. } => match to {
            Some(to) => format!("  {} now belongs to {}", space(state, *s), seat(state, *to)),
            None => format!("  {} is free", space(state, *s)),
        },
        Event::TerrainChanged { space: s, to, .. } => {
            let terrain = rules.terrain.get(*to as usize).map_or("another terrain", |t| t.label.as_str());
            format!("  {} is now {}", space(state, *s), terrain.to_lowercase())
        }
        Event::PieceOwnerChanged { piece: p, to, .. } => {
            format!("  {} now belongs to {}", piece(rules, state, *p), owner_name(rules, state, to.unwrap_or(NO_SEAT)))
        }
        Event::ResourceChanged { seat: who, resource, from, to } => {
            let info = rules.resources.get(*resource as usize)?;
            if !info.on_screen() {
                return None;
            }
            format!("  {} {}: {to} (was {from})", seat(state, *who), info.label.to_lowercase())
        }
        Event::StatChanged { piece: p, stat, from, to, .. } => {
            let info = rules.stats.get(*stat as usize)?;
            if !info.on_screen() {
                return None;
            }
            format!("  {} {}: {to} (was {from})", piece(rules, state, *p), info.label.to_lowercase())
        }
        Event::PiecePlacedBetween { piece: p, space: a, across: b, .. } => {
            format!("  {} is built between {} and {}", piece_name(rules, state, *p), space(state, *a), space(state, *b))
        }
        Event::PieceInsideChanged { piece: p, from, to } => match (from, to) {
            (_, Some(holder)) => {
                format!("  {} goes into {}", piece_name(rules, state, *p), piece(rules, state, *holder))
            }
            (Some(holder), None) => {
                format!("  {} comes out of {}", piece_name(rules, state, *p), piece(rules, state, *holder))
            }
            (None, None) => return None,
        },
        // What is inside a holder goes with it: the holder's own line says where.
        Event::PieceMoved { piece: p, .. }
            if state.pieces.get(*p as usize).is_some_and(|q| q.inside != meeple_engine::game::state::NO_PIECE) =>
        {
            return None;
        }
        Event::PieceMoved { piece: p, from, to } => {
            let at = |s: &Option<u32>| s.map_or_else(|| "off the board".to_string(), |s| space(state, s));
            format!("  {} moves from {} to {}", piece_name(rules, state, *p), at(from), at(to))
        }
        Event::PieceRemoved { piece: p } => format!("  {} is removed", piece_name(rules, state, *p)),
        Event::ItemGiven { piece: p, item, charges, .. } => {
            let label = rules.items.get(*item as usize).map_or("an item", |i| i.label.as_str());
            let who = item_holder(rules, state, *p);
            if *charges > 0 { format!("  {who} gets {label} ({charges})") } else { format!("  {who} gets {label}") }
        }
        Event::ItemDropped { piece: p, item, .. } => {
            let label = rules.items.get(*item as usize).map_or("an item", |i| i.label.as_str());
            let who = item_holder(rules, state, *p);
            format!("  {who} gives up {label}")
        }
        Event::AwaitingChoice { action } => {
            let rule = rules.actions.get(*action as usize)?;
            let next = rule.params.get(rule.before_roll).map_or("the rest", |p| p.label.as_str());
            format!("  choose {}", next.to_lowercase())
        }
        Event::Offered { seat: who, action, .. } => {
            let rule = rules.actions.get(*action as usize)?;
            let ask = if rule.may_decline { "may answer" } else { "must answer" };
            format!("  {} {ask}: {}", seat(state, *who), rule.label)
        }
        Event::Declined { seat: who, action } => {
            let label = rules.actions.get(*action as usize).map_or("the response", |a| a.label.as_str());
            format!("  {} declines: {label}", seat(state, *who))
        }
        Event::Cancelled { action } => {
            format!("  {} cancelled", rules.actions.get(*action as usize).map_or("action", |a| a.label.as_str()))
        }
        // Events come as the viewer may see them (`Event::seen_by`): the cards it may not see
        // are unknown, and then only counted.
        Event::CardsDrawn { seat: who, cards, .. } => match known_cards(rules, cards) {
            Some(names) => format!("  {} draws {names}", seat(state, *who)),
            None => format!("  {} draws {}", seat(state, *who), card_count(cards.len())),
        },
        Event::CardsRevealed { seat: who, to, cards, .. } => {
            let to = to.map_or_else(|| "everyone".to_string(), |to| seat(state, to));
            let shown = known_cards(rules, cards).unwrap_or_else(|| card_count(cards.len()));
            format!("  {} shows {to} {shown}", seat(state, *who))
        }
        Event::CardGiven { from, to, card, .. } => {
            let what = known_cards(rules, &[*card]).unwrap_or_else(|| card_count(1));
            format!("  {} gives {} {what}", seat(state, *from), seat(state, *to))
        }
        Event::CardReturned { seat: who, card, .. } => {
            let what = known_cards(rules, &[*card]).unwrap_or_else(|| card_count(1));
            format!("  {} puts {what} back under the deck", seat(state, *who))
        }
        Event::CardAttached { piece: p, card, .. } => {
            format!("  {} gets {}", piece(rules, state, *p), card_label(rules, i64::from(*card)))
        }
        Event::CardDetached { piece: p, seat: who, card, .. } => format!(
            "  {} takes {} from {}",
            seat(state, *who),
            card_label(rules, i64::from(*card)),
            piece(rules, state, *p)
        ),
        Event::SeatLeft { seat: who } => format!("{} leaves the game", seat(state, *who)),
        Event::SeatEliminated { seat: who } => format!("{} is out", seat(state, *who)),
        Event::GameOver { outcome: o } => format!("Game over: {}", outcome(state, o)),
        Event::Log { text } => text.clone(),
        Event::MatchEnded { number } => format!("Match {number} ends"),
        Event::FirstSeatDrawn { seat: who } => format!("{} is drawn to move first this match", seat(state, *who)),
        _ => return None,
    })
}

/// The ids of cards, when all of them are known: "ember, frost".
fn known_cards(rules: &Ruleset, cards: &[u16]) -> Option<String> {
    let known = cards.iter().all(|&c| (c as usize) < rules.card_ids.len());
    (known && !cards.is_empty())
        .then(|| cards.iter().map(|&c| card_label(rules, i64::from(c))).collect::<Vec<_>>().join(", "))
}

/// "1 card", "3 cards".
pub fn card_count(n: usize) -> String {
    format!("{n} card{}", if n == 1 { "" } else { "s" })
}

/// The outcome in words: "Red wins", "Blue 1, Blue 2 win", "a draw".
pub fn outcome(state: &GameState, outcome: &Outcome) -> String {
    match outcome {
        Outcome::Win { seats } => {
            let names: Vec<String> = seats.iter().map(|&s| seat(state, s)).collect();
            if names.len() == 1 { format!("{} wins", names[0]) } else { format!("{} win", names.join(", ")) }
        }
        Outcome::Draw { shares } => {
            let names: Vec<String> = shares.iter().filter(|(_, w)| *w > 0).map(|&(s, _)| seat(state, s)).collect();
            if names.is_empty() { "a draw".into() } else { format!("a draw between {}", names.join(", ")) }
        }
    }
}

/// A `#rrggbb` colour.
pub fn parse_color(text: &str) -> Option<Color32> {
    let hex = text.strip_prefix('#')?;
    if hex.len() != 6 {
        return None;
    }
    let value = u32::from_str_radix(hex, 16).ok()?;
    Some(Color32::from_rgb((value >> 16) as u8, (value >> 8) as u8, value as u8))
}

/// Colours for seats that the mod does not colour.
/// Seat colours told apart with every common kind of colour blindness (Okabe and Ito's
/// palette, its black made a light grey for the dark board), in place of the mod's colours when
/// the person asks for them (Settings).
pub const COLOUR_BLIND_PALETTE: [Color32; 8] = [
    Color32::from_rgb(0xe6, 0x9f, 0x00),
    Color32::from_rgb(0x56, 0xb4, 0xe9),
    Color32::from_rgb(0x00, 0x9e, 0x73),
    Color32::from_rgb(0xf0, 0xe4, 0x42),
    Color32::from_rgb(0x00, 0x72, 0xb2),
    Color32::from_rgb(0xd5, 0x5e, 0x00),
    Color32::from_rgb(0xcc, 0x79, 0xa7),
    Color32::from_rgb(0xbb, 0xbb, 0xbb),
];

thread_local! {
    /// Whether seats are drawn in [`COLOUR_BLIND_PALETTE`]: a setting of the window's, which
    /// draws on one thread (each test's window on its own).
    static COLOUR_BLIND_SAFE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Draws seats in [`COLOUR_BLIND_PALETTE`] (`true`) or in the mod's colours.
pub fn use_colour_blind_palette(safe: bool) {
    COLOUR_BLIND_SAFE.set(safe);
}

const FALLBACK: [Color32; 8] = [
    Color32::from_rgb(0xe0, 0x5a, 0x5a),
    Color32::from_rgb(0x4a, 0x90, 0xe2),
    Color32::from_rgb(0x7e, 0xc8, 0x50),
    Color32::from_rgb(0xf5, 0xc0, 0x3a),
    Color32::from_rgb(0xb0, 0x7c, 0xe6),
    Color32::from_rgb(0xf0, 0x8a, 0x3c),
    Color32::from_rgb(0x3c, 0xc8, 0xc0),
    Color32::from_rgb(0xf0, 0x7c, 0xc0),
];

/// A seat's colour: its side's colour when the mod has sides, else the seat's colour from
/// `[seats] colors`, else a fixed palette.
pub fn seat_color(rules: &Ruleset, state: &GameState, seat: u8) -> Color32 {
    if seat == NO_SEAT {
        let nobody = rules.data.seats.nobody_color.as_deref().and_then(parse_color);
        return nobody.unwrap_or(Color32::from_gray(220));
    }
    seat_color_on_side(rules, seat, state.seats.get(seat as usize).map(|s| s.side))
}

/// A seat's colour before the game has a state (the setup): the colour of its `side` when the
/// mod gives its sides colours, else the seat's own.
pub fn seat_color_on_side(rules: &Ruleset, seat: u8, side: Option<u8>) -> Color32 {
    let data = &rules.data.seats;
    if COLOUR_BLIND_SAFE.get() {
        // A team shares its colour: the side's, else the seat's own.
        let owner = if data.sides.is_empty() { seat } else { side.unwrap_or(seat) };
        return colour_blind_color(rules, owner as usize);
    }
    if let Some(side) = side.and_then(|s| data.sides.get(s as usize))
        && let Some(color) = side.color.as_deref().and_then(parse_color)
    {
        return color;
    }
    mod_seat_color(rules, seat as usize)
}

/// The colour the mod gives seat `seat` (a fallback colour past its list).
fn mod_seat_color(rules: &Ruleset, seat: usize) -> Color32 {
    rules.data.seats.colors.get(seat).and_then(|c| parse_color(c)).unwrap_or(FALLBACK[seat % FALLBACK.len()])
}

/// The colour of the mod's seat (or side) `owner` in [`COLOUR_BLIND_PALETTE`]: each of the
/// mod's colours takes the palette's nearest colour not taken by a nearer one (the closest pairs
/// first), so a seat called "Yellow" stays yellow and "Red" a red; past the palette, they repeat.
fn colour_blind_color(rules: &Ruleset, owner: usize) -> Color32 {
    thread_local! {
        /// The assignment of the rules last asked about: (their address, palette index per owner).
        static ASSIGNED: std::cell::RefCell<(usize, Vec<usize>)> = const { std::cell::RefCell::new((0, Vec::new())) };
    }
    let key = std::ptr::from_ref(rules) as usize;
    ASSIGNED.with_borrow_mut(|(rules_at, assigned)| {
        if *rules_at != key || assigned.is_empty() {
            let data = &rules.data.seats;
            let bases: Vec<Color32> = if data.sides.is_empty() {
                (0..data.colors.len().max(COLOUR_BLIND_PALETTE.len())).map(|s| mod_seat_color(rules, s)).collect()
            } else {
                (data.sides.iter().enumerate())
                    .map(|(i, side)| side.color.as_deref().and_then(parse_color).unwrap_or(mod_seat_color(rules, i)))
                    .collect()
            };
            *assigned = nearest_palette_colours(&bases);
            *rules_at = key;
        }
        COLOUR_BLIND_PALETTE[assigned.get(owner).copied().unwrap_or(owner % COLOUR_BLIND_PALETTE.len())]
    })
}

/// For each colour, the index of a palette colour: the closest pairs are matched first, each
/// palette colour once per round of the palette's size.
fn nearest_palette_colours(bases: &[Color32]) -> Vec<usize> {
    let distance = |a: Color32, b: Color32| {
        // The "redmean" weighting: closer to how far apart people see colours than plain RGB.
        let mean = (f32::from(a.r()) + f32::from(b.r())) / 2.0;
        let (dr, dg, db) = (
            f32::from(a.r()) - f32::from(b.r()),
            f32::from(a.g()) - f32::from(b.g()),
            f32::from(a.b()) - f32::from(b.b()),
        );
        (2.0 + mean / 256.0) * dr * dr + 4.0 * dg * dg + (2.0 + (255.0 - mean) / 256.0) * db * db
    };
    let mut assigned = vec![usize::MAX; bases.len()];
    for round in bases.chunks(COLOUR_BLIND_PALETTE.len()).enumerate().map(|(r, _)| r) {
        let start = round * COLOUR_BLIND_PALETTE.len();
        let members = start..(start + COLOUR_BLIND_PALETTE.len()).min(bases.len());
        let mut pairs: Vec<(f32, usize, usize)> = members
            .flat_map(|i| (0..COLOUR_BLIND_PALETTE.len()).map(move |j| (i, j)))
            .map(|(i, j)| (distance(bases[i], COLOUR_BLIND_PALETTE[j]), i, j))
            .collect();
        pairs.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
        let mut taken = [false; COLOUR_BLIND_PALETTE.len()];
        for (_, i, j) in pairs {
            if assigned[i] == usize::MAX && !taken[j] {
                assigned[i] = j;
                taken[j] = true;
            }
        }
    }
    assigned
}

/// A terrain's colour from the mod, or a neutral one.
pub fn terrain_color(rules: &Ruleset, terrain: usize) -> Color32 {
    match rules.terrain.get(terrain).and_then(|t| t.color) {
        Some([r, g, b]) => Color32::from_rgb(r, g, b),
        None => Color32::from_gray(200),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mod's seat colours keep their names in the palette where it has a near colour (here six
    /// of eight; a lime "green" and a lilac take what is left), and no two seats share a colour.
    #[test]
    fn each_mod_colour_takes_the_nearest_free_palette_colour() {
        let colours: Vec<Color32> =
            ["#b37ffe", "#b3ff01", "#ffff01", "#ff5858", "#31c3ff", "#ffa234", "#30e0c0", "#ff7fd0"]
                .iter()
                .map(|c| parse_color(c).unwrap())
                .collect();
        let assigned = nearest_palette_colours(&colours);
        let named = |i: usize| COLOUR_BLIND_PALETTE[assigned[i]];
        assert_eq!(named(2), Color32::from_rgb(0xf0, 0xe4, 0x42), "yellow");
        assert_eq!(named(4), Color32::from_rgb(0x56, 0xb4, 0xe9), "blue: sky blue");
        assert_eq!(named(5), Color32::from_rgb(0xe6, 0x9f, 0x00), "orange");
        assert_eq!(named(3), Color32::from_rgb(0xd5, 0x5e, 0x00), "red: vermillion");
        assert_eq!(named(6), Color32::from_rgb(0x00, 0x9e, 0x73), "teal: bluish green");
        assert_eq!(named(7), Color32::from_rgb(0xcc, 0x79, 0xa7), "pink: reddish purple");
        let mut distinct = assigned.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), 8, "{assigned:?}");
    }
}
