//! `meeple run`: apply a scripted list of actions (JSON or TOML) and print every event and the
//! final state as JSON — all of it (the referee's view), or with `--as SEAT` only what that seat
//! may see. A refused action stops the run with its reason and exit code 1.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use meeple_engine::game::record::{from_record, to_record};
use meeple_engine::game::render::{event_json, state_json, view_json};
use meeple_engine::game::{Engine, Events, GameSetup};
use meeple_engine::save::SaveFile;
use meeple_engine::schema::ActionScript;
use serde_json::json;

/// The largest action script read: as large as a save may be (a save holds every action of a
/// game too).
const MAX_SCRIPT_BYTES: u64 = meeple_engine::save::MAX_SAVE_BYTES;

#[derive(Args)]
pub struct RunArgs {
    /// The mod: a bundled mod's id or a mod folder.
    #[arg(name = "MOD")]
    mod_name: String,
    /// The game's seed (overrides the script's).
    #[arg(long)]
    seed: Option<u64>,
    /// Seats (overrides the script's).
    #[arg(long)]
    players: Option<usize>,
    /// A file holding the action script (`.json` or `.toml`): `{ "actions": [ { "action":
    /// "attack", "from": "3", "to": "7" } ] }` as JSON, or the same as TOML (`[[actions]]`).
    /// Without it, only the start is printed.
    #[arg(long, value_name = "FILE")]
    actions: Option<PathBuf>,
    /// Leave the events out of the output.
    #[arg(long)]
    no_events: bool,
    /// Also write the game to this save file (replay it with `meeple replay FILE --verify`).
    #[arg(long)]
    save: Option<PathBuf>,
    /// A setup option of the mod, as OPTION=CHOICE (repeatable), e.g. `--option map_size=small`.
    #[arg(long = "option", value_name = "OPTION=CHOICE")]
    options: Vec<String>,
    /// Print only what this seat (from 1) may see: its view of the state (other seats' cards
    /// it was not shown and their hidden values are null) and of the events (another seat's
    /// cards drawn are a count), and the legal actions only when this seat is to act. Without
    /// it, everything is printed — every hand, hidden value and card drawn: the referee's view.
    #[arg(long = "as", value_name = "SEAT")]
    as_seat: Option<usize>,
}

pub fn run(args: RunArgs) -> Result<ExitCode, String> {
    let asked = super::parse_options(&args.options)?;
    let rules = super::load_with(&args.mod_name, &asked)?;
    let script = match &args.actions {
        Some(path) => {
            let text = super::read_text(path, MAX_SCRIPT_BYTES)?;
            if path.extension().is_some_and(|e| e == "toml") {
                toml::from_str::<ActionScript>(&text).map_err(|e| format!("{}: {e}", path.display()))?
            } else {
                serde_json::from_str::<ActionScript>(&text).map_err(|e| format!("{}: {e}", path.display()))?
            }
        }
        None => ActionScript { seed: None, seats: None, actions: Vec::new() },
    };
    let seed = args.seed.or(script.seed).unwrap_or(1);
    let seats = args.players.or(script.seats).unwrap_or(rules.manifest.seats.default_count() as usize);
    // Before the seats are made: a count of a hundred billion would be allocated first.
    super::check_seats(&rules, seats)?;
    let rules = super::fit_to_seats(rules, &asked, seats)?;
    let viewer = match args.as_seat {
        None => None,
        Some(n) if (1..=seats).contains(&n) => Some((n - 1) as u8),
        Some(n) => return Err(format!("--as {n}: the game has seats 1 to {seats}")),
    };
    let setup = GameSetup::new(&rules, seed, seats, "human");
    let mut engine = Engine::new(rules.clone()).map_err(|e| e.to_string())?;
    let mut events = Events::recording();
    let mut state = engine.new_game(&setup, &mut events).map_err(|e| e.to_string())?;
    let mut failure = None;
    let mut history = Vec::new();
    for (index, record) in script.actions.iter().enumerate() {
        let applied = match from_record(&rules, &state, record) {
            Ok((seat, action)) => match engine.apply_as(&mut state, seat, &action, &mut events) {
                Ok(()) => {
                    history.push((seat, action));
                    Ok(())
                }
                // The watchdog's stop says nothing about the action: the run ends, no refusal.
                Err(error) if error.is_out_of_time() => return Err(format!("action {}: {error}", index + 1)),
                Err(error) => Err(error.to_string()),
            },
            Err(reason) => Err(reason),
        };
        if let Err(reason) = applied {
            failure = Some(json!({ "action": index + 1, "record": record, "reason": reason }));
            break;
        }
    }
    if let Some(path) = &args.save {
        SaveFile::new(&rules, &setup, &history, &state).write(path).map_err(|e| e.to_string())?;
        eprintln!("saved {} actions to {}", history.len(), path.display());
    }
    // The referee sees the game itself; a seat, its view of the game and of each event.
    let view = viewer.map(|seat| state.view_for(&rules, seat));
    let shown_state = view.as_ref().unwrap_or(&state);
    let rendered: Vec<serde_json::Value> = if args.no_events {
        Vec::new()
    } else {
        let seen = events.list().iter().filter_map(|event| match viewer {
            Some(seat) => event.seen_by(&rules, seat),
            None => Some(event.clone()),
        });
        seen.map(|event| event_json(&rules, shown_state, &event)).collect()
    };
    let mut output = json!({
        "mod": rules.manifest.id,
        "seed": seed,
        "seats": seats,
        "events": rendered,
        "state": match viewer {
            Some(seat) => view_json(&rules, shown_state, seat),
            None => state_json(&rules, &state),
        },
    });
    // What a seat may do is its own to know: listed for the seat to act, or for the referee.
    if viewer.is_none_or(|seat| seat == state.to_act() && !state.is_over()) {
        let mut legal = Vec::new();
        if let Err(error) = engine.legal_actions(&state, &mut legal) {
            return Err(format!("listing the legal actions failed: {error}"));
        }
        let legal: Vec<_> = legal.iter().map(|a| to_record(&rules, &state, state.to_act(), a)).collect();
        output["legal"] = json!(legal);
    }
    if let Some(failure) = &failure {
        output["refused"] = failure.clone();
    }
    super::out!("{}", serde_json::to_string_pretty(&output).map_err(|e| e.to_string())?);
    if let Some(failure) = failure {
        eprintln!("error: action {} was refused: {}", failure["action"], failure["reason"].as_str().unwrap_or(""));
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}
