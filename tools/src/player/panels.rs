//! The panels around the board: whose turn it is and the current piece, the Actions menu and
//! the choice of an action's arguments (with the mod's previews and the stats of items), the
//! dice last rolled, the sealed choices last opened side by side, the seats, and the event log.
//! Each takes a `Session` and an `egui::Ui`, so tests run them without a window.

use egui::{Align2, Color32, FontId, RichText, Sense, Stroke, Vec2, vec2};
use meeple_engine::game::state::Piece;
use meeple_engine::game::{ActionKind, Figure, GameState, Method, SeatStatus};
use meeple_engine::rules::Ruleset;

use super::opened::OpenedChoices;
use super::session::{LineKind, LogLine, RollShown, Session};
use super::{art, describe};

/// The stats of a piece the window lists, by index with their values: those shown on screen
/// that its kind gives or that are not 0 (every piece carries every stat, and a flag's
/// "Attack: 0" says nothing).
fn listed_stats<'a>(rules: &'a Ruleset, piece: &'a Piece) -> impl Iterator<Item = (usize, i64)> + 'a {
    let kind = rules.piece_kinds.get(piece.kind as usize);
    rules.stats.iter().zip(&piece.stats).enumerate().filter_map(move |(i, (stat, value))| {
        let gives = kind.is_some_and(|k| k.gives_stat.get(i).copied().unwrap_or(false));
        (stat.on_screen() && (*value != 0 || gives)).then_some((i, *value))
    })
}

/// Lines describing a piece: its stats (see [`listed_stats`]) and the items it holds, each
/// with the item's stats.
pub fn piece_lines(rules: &Ruleset, state: &GameState, piece: u32) -> Vec<String> {
    let Some(p) = state.pieces.get(piece as usize) else { return Vec::new() };
    let mut lines = Vec::new();
    for (i, value) in listed_stats(rules, p) {
        lines.push(format!("{}: {value}", rules.stats[i].label));
    }
    // Each item with what it gives, "Lance (strength 3, reach 2)": what the piece can do
    // with it is read here, not looked up in the mod's files.
    for held in &p.items {
        let Some(item) = rules.items.get(held.item as usize) else { continue };
        let mut line = if item.charges > 0 || held.charges > 0 {
            format!("{}: {} left", item.label, held.charges)
        } else {
            item.label.clone()
        };
        let stats = describe::item_stats(rules, held.item);
        if !stats.is_empty() {
            line.push_str(&format!(" ({stats})"));
        }
        lines.push(line);
    }
    // Attached cards lie face up: every seat may see them.
    if !p.cards.is_empty() {
        let labels: Vec<String> =
            p.cards.iter().map(|(_, card)| describe::card_label(rules, i64::from(*card))).collect();
        lines.push(format!("Cards: {}", labels.join(", ")));
    }
    // A holder: what is inside, each with its shown stats ("Crate: health 3").
    let inside: Vec<usize> =
        state.pieces.iter().enumerate().filter(|(_, q)| q.alive && q.inside == piece).map(|(id, _)| id).collect();
    if !inside.is_empty() {
        lines.push(format!("Inside ({}):", inside.len()));
        for id in inside {
            let q = &state.pieces[id];
            let kind = rules.piece_kinds.get(q.kind as usize).map_or("piece", |k| k.label.as_str());
            let stats: Vec<String> = listed_stats(rules, q)
                .map(|(i, value)| format!("{} {value}", rules.stats[i].label.to_lowercase()))
                .collect();
            let owner = if q.owner == p.owner {
                String::new()
            } else {
                format!(" ({})", describe::owner_name(rules, state, q.owner))
            };
            if stats.is_empty() {
                lines.push(format!("  {kind}{owner}"));
            } else {
                lines.push(format!("  {kind}{owner}: {}", stats.join(", ")));
            }
        }
    }
    lines
}

/// The seat's resources as "Label: value" lines.
pub fn resource_lines(rules: &Ruleset, state: &GameState, seat: u8) -> Vec<String> {
    let Some(s) = state.seats.get(seat as usize) else { return Vec::new() };
    rules
        .resources
        .iter()
        .zip(&s.resources)
        .filter(|(info, _)| info.on_screen())
        .map(|(info, value)| format!("{}: {value}", info.label))
        .collect()
}

/// A seat's figures (the mod's `seats.figures`, "Upkeep due: 6"), worked out in `view`, what
/// the person watching may see. A figure the rules cannot work out shows a question mark
/// rather than stopping the window.
pub fn figure_lines(rules: &Ruleset, view: &GameState, seat: u8) -> Vec<String> {
    match meeple_engine::game::seat_figures(rules, view, seat) {
        Ok(figures) => figures.into_iter().map(|(label, value)| format!("{label}: {value}")).collect(),
        Err(_) => rules.seat_figures.iter().map(|(label, _)| format!("{label}: ?")).collect(),
    }
}

/// The mod's `space_figures` of a space, as "Label: value" lines ("?" for one that fails).
pub fn space_figure_lines(rules: &Ruleset, view: &GameState, space: u32) -> Vec<String> {
    match meeple_engine::game::space_figures(rules, view, space) {
        Ok(figures) => figures.into_iter().map(|(label, value)| format!("{label}: {}", figure_text(value))).collect(),
        Err(_) => rules.space_figures.iter().map(|(label, _)| format!("{label}: ?")).collect(),
    }
}

/// A figure as shown: whole numbers without decimals, others with one.
fn figure_text(value: f64) -> String {
    if (value - value.round()).abs() < 1e-9 { format!("{}", value.round()) } else { format!("{value:.1}") }
}

/// The turn header: the announcement, the phase, and the current seat's piece and resources.
pub fn turn_header(ui: &mut egui::Ui, session: &Session) {
    let rules = &session.rules;
    let state = &session.state;
    // The seat acting now: the seat whose turn it is, or one answering an offer on that turn.
    let seat = session.seat();
    let turn_seat = state.turn.seat;
    let color = describe::seat_color(rules, state, turn_seat);
    if let Some(winners) = session.winners() {
        ui.heading(format!("Game over — {winners}"));
        return;
    }
    ui.horizontal(|ui| {
        let (rect, _) = ui.allocate_exact_size(vec2(14.0, 14.0), Sense::hover());
        ui.painter().circle_filled(rect.center(), 7.0, color);
        ui.heading(meeple_engine::game::seating::turn_announcement(rules, state, turn_seat));
    });
    if let Some(offer) = state.turn.offers.first()
        && offer.seat != turn_seat
    {
        let rule = &rules.actions[offer.action as usize];
        let ask = if rule.may_decline { "may answer" } else { "must answer" };
        ui.colored_label(
            describe::seat_color(rules, state, offer.seat),
            RichText::new(format!("{} {ask}: {}", describe::seat(state, offer.seat), rule.label)).strong(),
        );
    }
    let phase = &rules.phases[state.turn.phase as usize];
    // Between matches there are no rounds: the interlude's phase names the turn.
    let mut where_in_game = if state.turn.interlude {
        format!("Before match {}", state.turn.match_number)
    } else {
        format!("Round {}", state.turn.round)
    };
    if rules.phases.len() > 1 {
        where_in_game.push_str(&format!(" · {}", phase.label));
    }
    // Online, another person's seat is not this window's, yet no computer's either.
    let controller = session.setup.seats.get(seat as usize).map_or("human", |s| s.controller.as_str());
    if !session.is_human(seat) && controller != "human" {
        where_in_game.push_str(&format!(" · computer ({controller})"));
    }
    ui.label(where_in_game);
    // A seat that is one character shows it here; a seat of several lists them in the seats panel.
    if state.pieces.iter().filter(|p| p.owner == seat).count() == 1
        && let Some(piece) = state.seat_piece(seat)
    {
        ui.label(RichText::new(describe::piece(rules, state, piece)).strong());
        for line in piece_lines(rules, state, piece) {
            ui.label(line);
        }
    }
    for line in resource_lines(rules, state, seat).into_iter().chain(figure_lines(rules, session.view(), seat)) {
        ui.label(line);
    }
}

/// What the person did in the Actions panel this frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ActionsResponse {
    /// Something was chosen or taken.
    pub acted: bool,
    /// "Leave the game" was clicked: the window asks before the seat forfeits.
    pub leave: bool,
    /// The space of the choice under the pointer, to highlight on the board.
    pub pointed: Option<u32>,
}

/// The Actions menu and the choice in progress.
pub fn actions(ui: &mut egui::Ui, session: &mut Session) -> ActionsResponse {
    let mut out = ActionsResponse::default();
    if !session.is_human_turn() {
        return out;
    }
    // While a rolled action waits, it alone (and cancelling) is shown.
    let choosing = session.chosen();
    // A response offered out of turn says whose answer it is and whether it may be declined.
    if let Some(offer) = session.state.turn.offers.first() {
        let rule = &session.rules.actions[offer.action as usize];
        let who = &session.state.seats[offer.seat as usize].name;
        let ask = if rule.may_decline { "may answer" } else { "must answer" };
        ui.label(RichText::new(format!("{who} {ask}: {}", rule.label)).strong());
        // What the offer says: the parameters it gave, by their labels ("Card: Shield").
        let given: Vec<String> = rule
            .params
            .iter()
            .zip(&offer.args)
            .map(|(param, &arg)| {
                let label = &param.label;
                format!("{label}: {}", describe::arg(&session.rules, &session.state, param.kind, arg))
            })
            .collect();
        if !given.is_empty() {
            ui.label(given.join(" · "));
        }
    }
    ui.label(RichText::new("Actions").strong());
    let menu = session.menu();
    ui.horizontal_wrapped(|ui| {
        for entry in menu.iter().filter(|e| e.kind != ActionKind::Leave) {
            let selected = choosing.is_some_and(|(kind, _)| kind == entry.kind);
            let button = egui::Button::selectable(selected, entry.label.as_str());
            let mut response = ui.add_enabled(entry.unavailable.is_none(), button);
            if let Some(reason) = &entry.unavailable {
                response = response.on_disabled_hover_text(reason.as_str());
            } else if let Some(description) = &entry.description {
                response = response.on_hover_text(description.as_str());
            }
            if response.clicked() {
                if matches!(entry.kind, ActionKind::Pass | ActionKind::Cancel) {
                    let _ = session.act(meeple_engine::game::Action {
                        kind: entry.kind,
                        args: [0; meeple_engine::game::MAX_PARAMS],
                    });
                } else {
                    session.select(entry.kind);
                }
                out.acted = true;
            }
        }
    });
    // Why each disabled action is unavailable, in small print under the menu (hover says it too).
    for entry in menu.iter().filter(|e| e.unavailable.is_some()) {
        ui.label(
            RichText::new(format!("{}: {}", entry.label, entry.unavailable.as_deref().unwrap_or(""))).small().weak(),
        );
    }
    if let Some(label) = session.next_param_label() {
        ui.separator();
        ui.label(RichText::new(format!("Choose {}", label.to_lowercase())).strong());
        let options = session.options();
        egui::ScrollArea::vertical().id_salt("choices").max_height(220.0).show(ui, |ui| {
            for option in options {
                let preview = session.preview_with(option.arg);
                let text = if option.hostile {
                    RichText::new(&option.label).color(Color32::from_rgb(0xff, 0x70, 0x70))
                } else {
                    RichText::new(&option.label)
                };
                ui.horizontal(|ui| {
                    let button = art::button(ui.ctx(), &session.rules, option.image.as_deref(), text);
                    let mut response = ui.add(button);
                    // An item's description (and what it gives) on hover, where it is chosen.
                    if let Some(description) = &option.description {
                        response = response.on_hover_text(description.as_str());
                    }
                    if response.hovered() {
                        out.pointed = option.space;
                    }
                    if response.clicked() {
                        session.choose(option.arg);
                        out.acted = true;
                    }
                    for figure in &preview {
                        ui.label(RichText::new(format_preview(figure)).small());
                    }
                });
                // An item's stats and holders under it, then the mod's sentence about it: what
                // buying or using it gives, where a stat alone would not say ("incapacitates").
                for (line, weak) in [(&option.detail, false), (&option.description, true)] {
                    let Some(line) = line else { continue };
                    ui.horizontal(|ui| {
                        ui.add_space(12.0);
                        let text = RichText::new(line.as_str()).small();
                        ui.add(egui::Label::new(if weak { text.weak() } else { text }).wrap());
                    });
                }
            }
        });
        // What is shown but cannot be chosen now, greyed, with why (a shop's dearer wares).
        for (option, why) in session.refused_options() {
            ui.horizontal(|ui| {
                let button = art::button(ui.ctx(), &session.rules, option.image.as_deref(), option.label.as_str());
                let button = ui.add_enabled(false, button);
                button.on_disabled_hover_text(why.as_str());
                ui.label(RichText::new(&why).small().weak());
            });
            if let Some(detail) = &option.detail {
                ui.horizontal(|ui| {
                    ui.add_space(12.0);
                    ui.add(egui::Label::new(RichText::new(detail.as_str()).small().weak()).wrap());
                });
            }
        }
        if ui.button("Back").clicked() {
            session.back();
            out.acted = true;
        }
    }
    // Leaving is not a move of the turn: it stands apart, below the choices, and the window
    // asks before it is done.
    if let Some(leave) = menu.iter().find(|e| e.kind == ActionKind::Leave) {
        ui.add_space(6.0);
        let mut response = ui.add(egui::Button::new(RichText::new(&leave.label).small()));
        if let Some(description) = &leave.description {
            response = response.on_hover_text(description.as_str());
        }
        if response.clicked() {
            out.leave = true;
        }
    }
    out
}

/// A preview figure with how it was worked out: chances as percentages, other figures with one
/// decimal (whole ones without), then, for a figure of odds, "exact" or, for odds sampled from a
/// hook's draws, "≈, 95% ±margin": `Chance to hit: 66.7% (exact)`, `Expected damage: 26.3 (≈,
/// 95% ±0.12)`, `Damage: 8`.
pub fn format_preview(figure: &Figure) -> String {
    let label = &figure.label;
    let value = figure.value;
    let lower = label.to_lowercase();
    let is_chance = lower.contains("chance") || lower.contains("probab");
    let shown = if is_chance {
        format!("{:.1}%", value * 100.0)
    } else if (value - value.round()).abs() < 1e-9 {
        format!("{value:.0}")
    } else {
        format!("{value:.1}")
    };
    let method = match figure.method {
        Method::Certain => return format!("{label}: {shown}"),
        Method::Exact => "exact".to_string(),
        Method::Sampled { margin } if is_chance => format!("≈, 95% ±{}%", significant(margin * 100.0)),
        Method::Sampled { margin } => format!("≈, 95% ±{}", significant(margin)),
    };
    format!("{label}: {shown} ({method})")
}

/// A margin to two significant digits (`0.0012`, `0.31`, `4.2`, `12`).
fn significant(x: f64) -> String {
    if !x.is_finite() || x <= 0.0 {
        return "0".to_string();
    }
    let digits = (1 - x.log10().floor() as i32).clamp(0, 12) as usize;
    format!("{x:.digits$}")
}

/// The dice of the last roll, drawn as dice (pips for six-sided ones).
/// While `tumbling` (a number that changes a few times a second), the dice show faces that
/// change as they tumble, and no total: the result is the engine's, shown once they settle.
pub fn dice(ui: &mut egui::Ui, rules: &Ruleset, state: &GameState, rolls: &[RollShown], tumbling: Option<u64>) {
    if rolls.is_empty() {
        return;
    }
    for (r, roll) in rolls.iter().enumerate() {
        ui.horizontal_wrapped(|ui| {
            let color = describe::seat_color(rules, state, roll.seat);
            if let Some(name) = &roll.name {
                ui.label(format!("{name}:"));
            }
            for (d, &face) in roll.faces.iter().enumerate() {
                let shown = match tumbling {
                    Some(tick) => tumbling_face(tick, r, d, roll.sides),
                    None => face,
                };
                draw_die(ui, shown, roll.sides, color);
            }
            if tumbling.is_some() {
                ui.label(RichText::new("…").strong());
                return;
            }
            // A sum says "=", the highest, lowest or a count of successes "→".
            let sum: i64 = roll.faces.iter().map(|&f| i64::from(f)).sum();
            let sign = if sum == roll.value { "=" } else { "→" };
            ui.label(RichText::new(format!("{sign} {}", roll.value)).strong());
        });
    }
}

/// A face for a tumbling die: a mix of the moment and the die's place, never the game's
/// random stream (drawing must not change the game).
fn tumbling_face(tick: u64, roll: usize, die: usize, sides: u32) -> u32 {
    let mut x = tick.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ ((roll as u64) << 32 | die as u64);
    x ^= x >> 29;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 32;
    1 + (x % u64::from(sides.max(1))) as u32
}

/// One die: a rounded square with pips (d6) or the number.
fn draw_die(ui: &mut egui::Ui, face: u32, sides: u32, tint: Color32) {
    let size = 26.0;
    let (rect, response) = ui.allocate_exact_size(Vec2::splat(size), Sense::hover());
    let painter = ui.painter();
    painter.rect(
        rect,
        4.0,
        tint.lerp_to_gamma(Color32::WHITE, 0.55),
        Stroke::new(1.0, Color32::BLACK),
        egui::StrokeKind::Inside,
    );
    if sides == 6 && (1..=6).contains(&face) {
        let c = rect.center();
        let d = size * 0.27;
        let spots: &[(f32, f32)] = match face {
            1 => &[(0.0, 0.0)],
            2 => &[(-1.0, -1.0), (1.0, 1.0)],
            3 => &[(-1.0, -1.0), (0.0, 0.0), (1.0, 1.0)],
            4 => &[(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)],
            5 => &[(-1.0, -1.0), (1.0, -1.0), (0.0, 0.0), (-1.0, 1.0), (1.0, 1.0)],
            _ => &[(-1.0, -1.0), (1.0, -1.0), (-1.0, 0.0), (1.0, 0.0), (-1.0, 1.0), (1.0, 1.0)],
        };
        for (x, y) in spots {
            painter.circle_filled(c + vec2(x * d, y * d), 2.6, Color32::BLACK);
        }
    } else {
        painter.text(
            rect.center(),
            Align2::CENTER_CENTER,
            face.to_string(),
            FontId::proportional(14.0),
            Color32::BLACK,
        );
    }
    response.on_hover_text(format!("{face} (d{sides})"));
}

/// The sealed choices last opened, side by side: a column per seat that answered, headed by its
/// name in its colour, listing what it put in (its cards by their labels).
pub fn opened_choices(ui: &mut egui::Ui, rules: &Ruleset, state: &GameState, opened: &OpenedChoices) {
    let title = if opened.all_cards { "Cards played" } else { "Opened choices" };
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(title).strong());
        let mut about = opened.action.clone().unwrap_or_default();
        if !about.is_empty() {
            about.push_str(" · ");
        }
        about.push_str(&format!("turn {}", opened.turn));
        ui.label(RichText::new(about).small().weak());
    });
    if opened.columns.is_empty() {
        return;
    }
    ui.columns(opened.columns.len(), |columns| {
        for (ui, column) in columns.iter_mut().zip(&opened.columns) {
            let color = describe::seat_color(rules, state, column.seat);
            ui.label(RichText::new(describe::seat(state, column.seat)).strong().color(color));
            if column.choices.is_empty() {
                ui.label(RichText::new("nothing").small().weak());
            }
            for choice in &column.choices {
                ui.label(choice);
            }
        }
    });
    // What the stacks decided, where the rules show it (a blow's damage).
    for line in &opened.shown {
        ui.label(RichText::new(line).small());
    }
}

/// Every seat: colour, name, status and a short summary (spaces owned, resources, the mod's
/// figures worked out in `view`, what the person watching may see).
pub fn seats(ui: &mut egui::Ui, rules: &Ruleset, state: &GameState, view: &GameState, controllers: &[String]) {
    for (i, seat) in state.seats.iter().enumerate() {
        let i = i as u8;
        // What is inside a holder is listed with the holder, not again on its own.
        let pieces: Vec<u32> = (0..state.pieces.len() as u32)
            .filter(|&p| {
                let piece = &state.pieces[p as usize];
                piece.alive && piece.owner == i && piece.inside == meeple_engine::game::state::NO_PIECE
            })
            .collect();
        let one_piece_seat = state.pieces.iter().filter(|p| p.owner == i).count() == 1;
        ui.horizontal(|ui| {
            let (rect, _) = ui.allocate_exact_size(vec2(10.0, 10.0), Sense::hover());
            ui.painter().circle_filled(rect.center(), 5.0, describe::seat_color(rules, state, i));
            let mut text = RichText::new(&seat.name);
            if i == state.turn.seat && !state.is_over() {
                text = text.strong();
            }
            if seat.status != SeatStatus::Active {
                text = text.strikethrough().weak();
            }
            ui.label(text);
            let mut summary = Vec::new();
            if state.owned_count(i) > 0 {
                summary.push(format!("{} spaces", state.owned_count(i)));
            }
            // A seat that is one piece (a character): its first figure beside the name; a seat
            // of a few pieces: a line each, below, down to its last one.
            if one_piece_seat
                && let [piece] = pieces.as_slice()
                && let Some(first) = piece_lines(rules, state, *piece).into_iter().next()
            {
                summary.push(first);
            }
            summary.extend(resource_lines(rules, state, i));
            summary.extend(figure_lines(rules, view, i));
            if let Some(controller) = controllers.get(i as usize).filter(|c| *c != "human") {
                summary.push(controller.clone());
            }
            ui.label(RichText::new(summary.join(" · ")).small());
        });
        if !one_piece_seat && pieces.len() > MAX_PIECES_LISTED {
            // Too many to list: say so rather than list nothing.
            let text = format!("    {} pieces: point at the board to see them", pieces.len());
            ui.label(RichText::new(text).small().weak());
        }
        if !one_piece_seat && (1..=MAX_PIECES_LISTED).contains(&pieces.len()) {
            for piece in pieces {
                let p = &state.pieces[piece as usize];
                let kind = &rules.piece_kinds[p.kind as usize];
                let name = if (p.space as usize) < state.owners.len() {
                    format!("{} at {}", kind.label, describe::space(state, p.space))
                } else {
                    kind.label.clone()
                };
                let lines = piece_lines(rules, state, piece);
                let text = if lines.is_empty() { name } else { format!("{name}: {}", lines.join(" · ")) };
                ui.label(RichText::new(format!("    {text}")).small().weak());
            }
        }
    }
}

/// Pieces of one seat listed one by one under its name (characters, not an army).
const MAX_PIECES_LISTED: usize = 6;

/// The event log, newest at the bottom.
pub fn log(ui: &mut egui::Ui, session: &Session) {
    egui::ScrollArea::vertical().id_salt("log").stick_to_bottom(true).show(ui, |ui| {
        let start = session.log.len().saturating_sub(400);
        for line in &session.log[start..] {
            log_line(ui, session, line, false);
        }
    });
}

/// One line of the log, drawn by what it tells: a turn's start as a heading, an action with its
/// seat's colour in a swatch beside it (the words in the text colour, readable whatever the
/// seat's colour), rolls and changes indented, success in green and failure in red; what the
/// line is says its tooltip. `compact`: in small type, for a summary beside the actions.
pub fn log_line(ui: &mut egui::Ui, session: &Session, line: &LogLine, compact: bool) {
    let seat_color = line.seat.map(|s| describe::seat_color(&session.rules, &session.state, s));
    let text = line.text.trim_start();
    let text = if compact { RichText::new(line.text.as_str()) } else { RichText::new(text) };
    if line.kind == LineKind::Turn {
        ui.add_space(2.0);
        ui.separator();
    }
    if compact {
        // One small line, in the seat's colour: a summary beside the actions stays short.
        let mut words = text.small();
        match line.kind {
            LineKind::Outcome(success) => words = words.color(outcome_color(success)),
            LineKind::Turn | LineKind::Action | LineKind::Milestone => {
                if let Some(color) = seat_color {
                    words = words.color(color);
                }
            }
            LineKind::Roll | LineKind::Change => {}
        }
        ui.label(words).on_hover_text(format!("Turn {} · {}", line.turn, line.kind.meaning()));
        return;
    }
    let response = ui
        .horizontal(|ui| {
            ui.spacing_mut().item_spacing.x = 6.0;
            match line.kind {
                LineKind::Turn | LineKind::Action => {
                    swatch(ui, seat_color);
                    ui.add(egui::Label::new(text.strong()).wrap())
                }
                LineKind::Outcome(success) => {
                    ui.add_space(18.0);
                    ui.add(egui::Label::new(text.strong().color(outcome_color(success))).wrap())
                }
                LineKind::Milestone => {
                    swatch(ui, seat_color);
                    ui.add(egui::Label::new(text.strong().color(Color32::from_rgb(0xff, 0xd0, 0x60))).wrap())
                }
                LineKind::Roll | LineKind::Change => {
                    ui.add_space(18.0);
                    ui.add(egui::Label::new(text).wrap())
                }
            }
        })
        .inner;
    response.on_hover_text(format!("Turn {} · {}", line.turn, line.kind.meaning()));
}

/// Green for success, red for failure.
fn outcome_color(success: bool) -> Color32 {
    if success { Color32::from_rgb(0x6c, 0xd0, 0x7a) } else { Color32::from_rgb(0xff, 0x78, 0x68) }
}

/// A small square in a seat's colour, or the room of one.
fn swatch(ui: &mut egui::Ui, color: Option<Color32>) {
    let (rect, _) = ui.allocate_exact_size(Vec2::splat(12.0), Sense::hover());
    if let Some(color) = color {
        ui.painter().rect(rect, 2.0, color, Stroke::new(1.0, Color32::BLACK), egui::StrokeKind::Inside);
    }
}

/// How many lines "Since your last turn" shows at most: the latest.
const SINCE_LAST_TURN_LINES: usize = 12;

/// What happened since the person to act last had a turn, folded open above the actions: the
/// other seats' moves as its log tells them (nothing when it is a computer's turn, or the
/// person's first).
pub fn since_last_turn(ui: &mut egui::Ui, session: &Session) {
    if !session.is_human_turn() {
        return;
    }
    let lines = session.since_last_turn(session.seat());
    // Only the turn's start, or nothing: no summary to give.
    if lines.iter().filter(|l| !l.text.starts_with(' ')).count() <= 1 {
        return;
    }
    egui::CollapsingHeader::new("Since your last turn").default_open(true).show(ui, |ui| {
        let skipped = lines.len().saturating_sub(SINCE_LAST_TURN_LINES);
        if skipped > 0 {
            ui.label(RichText::new(format!("… {skipped} earlier lines in the log below")).small().weak());
        }
        for line in &lines[skipped..] {
            log_line(ui, session, line, true);
        }
    });
    ui.separator();
}
