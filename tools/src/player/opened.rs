//! The sealed choices last opened (`Event::Opened`): what each seat that answered put in, worked
//! out from the game's events as the viewing seat saw them (`Event::seen_by`), for the panel
//! that shows them side by side. Nothing before an opening is read, so a sealed answer is never
//! shown before the engine opens it, and a card the viewer was not shown stays "a card".

use meeple_engine::defs::ParamKind;
use meeple_engine::game::state::UNKNOWN_CARD;
use meeple_engine::game::{ActionKind, Event, GameState, NOT_CHOSEN};
use meeple_engine::rules::Ruleset;

use super::describe;

/// One opening of sealed answers.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenedChoices {
    /// The turn it happened in.
    pub turn: u32,
    /// The sealed response's label ("Commit a card"), from its first answer taken.
    pub action: Option<String>,
    /// Whether every choice opened is a card: the panel then says "Cards played".
    pub all_cards: bool,
    /// A column per seat that answered, in the order the offers were made.
    pub columns: Vec<OpenedColumn>,
    /// What the opened answers showed in the open (`reveal_value`: "Blue shows damage: 5"), the
    /// outcome the stacks decided.
    pub shown: Vec<String>,
}

/// What one seat put in, answer by answer (a seat that passed at once put in nothing).
#[derive(Clone, Debug, PartialEq)]
pub struct OpenedColumn {
    pub seat: u8,
    /// Each answer taken: its chosen values, a card by its label.
    pub choices: Vec<String>,
}

/// The last opening among `events` (each with its turn), as `viewer` may see it; `None` before
/// anything was opened.
pub fn last_opening(rules: &Ruleset, state: &GameState, events: &[(u32, Event)], viewer: u8) -> Option<OpenedChoices> {
    // `Opened` is everyone's: where it stands needs no view.
    let start = events.iter().rposition(|(_, event)| matches!(event, Event::Opened { .. }))?;
    let (turn, Event::Opened { answers }) = &events[start] else { unreachable!("found above") };
    // Each answer is acted in turn (`Acted`), followed by what it did: its run of events, which
    // ends at the next answer, or for the last one where the flow moves on.
    let mut runs: Vec<(u8, meeple_engine::game::Action, Vec<Event>)> = Vec::new();
    for (_, event) in &events[start + 1..] {
        let Some(seen) = event.seen_by(rules, viewer) else { continue };
        let all_acted = runs.len() == *answers as usize;
        match seen {
            Event::Acted { seat, action } if !all_acted => runs.push((seat, action, Vec::new())),
            Event::Acted { .. } | Event::Opened { .. } | Event::TurnStarted { .. } | Event::GameOver { .. }
                if all_acted =>
            {
                break;
            }
            other => {
                if let Some((_, _, run)) = runs.last_mut() {
                    run.push(other);
                }
            }
        }
    }
    let mut opened =
        OpenedChoices { turn: *turn, action: None, all_cards: true, columns: Vec::new(), shown: Vec::new() };
    for (_, _, run) in &runs {
        for event in run {
            if let Event::ValueRevealed { .. } = event
                && let Some(text) = describe::event(rules, state, event)
            {
                opened.shown.push(text.trim().to_string());
            }
        }
    }
    for (seat, action, run) in &runs {
        let column = match opened.columns.iter().position(|c| c.seat == *seat) {
            Some(index) => index,
            None => {
                opened.columns.push(OpenedColumn { seat: *seat, choices: Vec::new() });
                opened.columns.len() - 1
            }
        };
        // A pass closes the seat's answers and puts nothing in.
        let ActionKind::Rule(index) = action.kind else { continue };
        let Some(rule) = rules.actions.get(index as usize) else { continue };
        opened.action.get_or_insert_with(|| rule.label.clone());
        // The parameters the offer gave (the role, the fight) are not the seat's choice.
        let given = offered_args(&events[..start], *seat, index);
        let mut parts = Vec::new();
        for (param, &arg) in rule.params.iter().zip(&action.args).skip(given) {
            if arg == NOT_CHOSEN {
                continue;
            }
            if param.kind == ParamKind::Card {
                let card = if arg == i64::from(UNKNOWN_CARD) { card_shown(run, *seat) } else { Some(arg) };
                parts.push(card.map_or_else(|| "a card".to_string(), |card| describe::card_label(rules, card)));
            } else {
                opened.all_cards = false;
                parts.push(describe::arg(rules, state, param.kind, arg));
            }
        }
        if !parts.is_empty() {
            opened.columns[column].choices.push(parts.join(" · "));
        }
    }
    Some(opened)
}

/// How many parameters the latest offer of `action` to `seat` gave, from its `Offered` event.
fn offered_args(before: &[(u32, Event)], seat: u8, action: u16) -> usize {
    before
        .iter()
        .rev()
        .find_map(|(_, event)| match event {
            Event::Offered { seat: offered, action: offered_action, args }
                if *offered == seat && *offered_action == action =>
            {
                Some(args.len())
            }
            _ => None,
        })
        .unwrap_or(0)
}

/// The card an answer put in that the viewer did not see named in the answer itself: what the
/// answer's own events showed of it leaving the seat's hand — discarded or attached face up, or
/// given, returned or revealed where the viewer may see it. `None` when they showed nothing.
fn card_shown(run: &[Event], seat: u8) -> Option<i64> {
    let known = |card: u16| (card != UNKNOWN_CARD).then_some(i64::from(card));
    run.iter().find_map(|event| match *event {
        Event::CardDiscarded { seat: from, card, .. }
        | Event::CardAttached { seat: from, card, .. }
        | Event::CardReturned { seat: from, card, .. }
        | Event::CardGiven { from, card, .. }
            if from == seat =>
        {
            known(card)
        }
        Event::CardsRevealed { seat: from, ref cards, .. } if from == seat => cards.first().copied().and_then(known),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use meeple_engine::game::state::NO_SEAT;
    use meeple_engine::game::{Action, Engine, Events, GameSetup, MAX_PARAMS};

    /// Seat 1 commits card 0 and passes, seat 2 commits card 1 and passes; the stacks are opened
    /// but no event after the opening shows either card (nothing discards them).
    fn opening_that_shows_no_card() -> (std::sync::Arc<Ruleset>, GameState, Vec<(u32, Event)>) {
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine/tests/fixtures/showdown");
        let rules = meeple_engine::loader::load_mod(&folder).expect("the fixture loads").ruleset;
        let mut engine = Engine::new(rules.clone()).expect("engine");
        let state = engine.new_game(&GameSetup::new(&rules, 1, 2, "human"), &mut Events::discard()).expect("game");
        let commit = rules.actions.iter().position(|a| a.id == "commit").expect("commit") as u16;
        let answer = |role: i64, rival: i64, card: i64| {
            let mut args = [NOT_CHOSEN; MAX_PARAMS];
            args[..3].copy_from_slice(&[role, rival, card]);
            Action { kind: ActionKind::Rule(commit), args }
        };
        let events = vec![
            Event::Offered { seat: 0, action: commit, args: vec![1, 1] },
            Event::Offered { seat: 1, action: commit, args: vec![2, 0] },
            Event::Sealed { seat: 0, action: commit, answer: Some(answer(1, 1, 0)), done: false },
            Event::Sealed { seat: 0, action: commit, answer: Some(Action::pass()), done: true },
            Event::Sealed { seat: 1, action: commit, answer: Some(answer(2, 0, 1)), done: false },
            Event::Sealed { seat: 1, action: commit, answer: Some(Action::pass()), done: true },
            Event::Opened { answers: 4 },
            Event::Acted { seat: 0, action: answer(1, 1, 0) },
            Event::Acted { seat: 0, action: Action::pass() },
            Event::Declined { seat: 0, action: commit },
            Event::Acted { seat: 1, action: answer(2, 0, 1) },
            Event::Acted { seat: 1, action: Action::pass() },
            Event::Declined { seat: 1, action: commit },
            Event::ValueRevealed { seat: 1, label: "margin".into(), value: 2 },
        ];
        (rules, state, events.into_iter().map(|event| (4, event)).collect())
    }

    #[test]
    fn an_opened_card_no_event_shows_stays_a_card_to_the_other_seats() {
        let (rules, state, events) = opening_that_shows_no_card();
        let label = |card: i64| describe::card_label(&rules, card);
        let choices = |viewer: u8| -> Vec<Vec<String>> {
            let opened = last_opening(&rules, &state, &events, viewer).expect("an opening");
            assert_eq!((opened.turn, opened.all_cards), (4, true));
            assert_eq!(opened.action.as_deref(), Some("Commit a card"));
            opened.columns.iter().map(|c| c.choices.clone()).collect()
        };
        // Each seat knows its own card; the other's was never shown, so it is "a card". The
        // parameters the offer gave (role, rival) are not listed as choices.
        assert_eq!(choices(0), vec![vec![label(0)], vec!["a card".to_string()]]);
        assert_eq!(choices(1), vec![vec!["a card".to_string()], vec![label(1)]]);
        assert_eq!(choices(NO_SEAT), vec![vec!["a card".to_string()]; 2]);
        // What the opening decided, shown in the open, goes with it.
        let opened = last_opening(&rules, &state, &events, 0).expect("an opening");
        assert_eq!(opened.shown, [format!("{} shows margin: 2", describe::seat(&state, 1))]);
        // Before the opening, nothing: sealed answers are not read.
        let before: Vec<(u32, Event)> = events.iter().take(6).cloned().collect();
        assert_eq!(last_opening(&rules, &state, &before, 0), None);
    }
}
