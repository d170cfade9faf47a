//! The online server over real sockets on 127.0.0.1: four clients play Dice Wars to the end; a
//! dropped seat comes back with its token; a seat away past the grace period goes grey; another
//! seat's hidden cards never reach a client; a client cannot act for a seat not its own; and a
//! server process killed mid-game resumes every table where it was. Servers are started by the
//! tests themselves (in process, or as a child process to kill): nothing runs by hand.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use meeple::online::client::Client;
use meeple::online::protocol::{ClientMessage, ErrorCode, GameUpdate, SeatRequest, ServerMessage, Stage, TableRequest};
use meeple::online::server::{Limits, ServeConfig, start};
use meeple::online::store::Sync;
use meeple::online::table::state_from_view;
use meeple_engine::game::state::{SeatStatus, UNKNOWN_CARD};
use meeple_engine::game::{ActionRecord, Engine, Events, GameState};
use meeple_engine::rng::GameRng;
use meeple_engine::rules::Ruleset;
use meeple_engine::save::SaveFile;
use meeple_tests::load;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("meeple-online-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn fixture(name: &str) -> Arc<Ruleset> {
    let folder = meeple_tests::root().join("engine/tests/fixtures").join(name);
    meeple_engine::loader::load_mod(&folder).unwrap_or_else(|p| panic!("{p:?}")).ruleset
}

fn config(games: Vec<Arc<Ruleset>>, data: &Path, grace_seconds: u32) -> ServeConfig {
    ServeConfig {
        address: "127.0.0.1:0".parse().unwrap(),
        data: data.to_path_buf(),
        games,
        limits: Limits { messages_per_second: 1000.0, burst: 3000.0, ..Limits::default() },
        workers: 2,
        sync: Sync::Os,
        grace_seconds,
    }
}

/// Starts a server in this process; its address as a URL.
async fn serve(games: Vec<Arc<Ruleset>>, data: &Path, grace_seconds: u32) -> (meeple::online::server::Running, String) {
    let (running, _) = start(config(games, data, grace_seconds)).await.unwrap();
    let url = format!("ws://{}", running.address);
    (running, url)
}

fn request(game: &str, seats: Vec<SeatRequest>, seed: u64) -> TableRequest {
    TableRequest {
        game: game.into(),
        options: Default::default(),
        seats,
        seed: Some(seed),
        turn_seconds: None,
        grace_seconds: None,
    }
}

fn person() -> SeatRequest {
    SeatRequest::default()
}

fn computer(level: &str) -> SeatRequest {
    SeatRequest { computer: Some(level.into()), side: None }
}

async fn connect(url: &str) -> Client {
    Client::connect(url).await.unwrap().0
}

/// Creates a table; its number.
async fn create(client: &mut Client, request: TableRequest) -> u64 {
    client.send(&ClientMessage::CreateTable(request)).await.unwrap();
    loop {
        match client.receive().await.unwrap() {
            ServerMessage::Table { table } => return table.id,
            ServerMessage::Error { message, .. } => panic!("the table was refused: {message}"),
            _ => {}
        }
    }
}

/// Takes a seat; its token.
async fn join(client: &mut Client, table: u64, seat: u8) -> String {
    client.send(&ClientMessage::Join { table, seat, name: format!("Player {seat}") }).await.unwrap();
    loop {
        match client.receive().await.unwrap() {
            ServerMessage::Joined { token, .. } => return token,
            ServerMessage::Error { message, .. } => panic!("seat {seat} was refused: {message}"),
            _ => {}
        }
    }
}

/// The next `game` message; other messages are skipped, an error is returned.
async fn next_update(client: &mut Client) -> Result<Box<GameUpdate>, (ErrorCode, String)> {
    loop {
        match client.receive().await {
            Ok(ServerMessage::Game(update)) => return Ok(update),
            Ok(ServerMessage::Error { code, message }) => return Err((code, message)),
            Ok(_) => {}
            Err(error) => return Err((ErrorCode::Protocol, error.to_string())),
        }
    }
}

/// The next error the server sends (skipping everything else).
async fn next_error(client: &mut Client) -> (ErrorCode, String) {
    loop {
        match client.receive().await.unwrap() {
            ServerMessage::Error { code, message } => return (code, message),
            _ => {}
        }
    }
}

/// A client's picture of the game: the board last sent and the state it rebuilds.
#[derive(Default)]
struct Seen {
    board: Option<serde_json::Value>,
    updates: Vec<Box<GameUpdate>>,
}

impl Seen {
    fn take(&mut self, update: Box<GameUpdate>) -> GameState {
        if let Some(board) = &update.board {
            self.board = Some(board.clone());
        }
        let state = state_from_view(&update.view, self.board.as_ref().expect("the board comes first")).unwrap();
        self.updates.push(update);
        state
    }
}

/// Plays a seat with actions drawn at random from those the server lists (never leaving), until
/// the game ends or the connection breaks; what it saw.
async fn play_randomly(
    client: Client,
    table: u64,
    seed: u64,
    keep: impl Fn(&ActionRecord) -> bool,
) -> (Seen, Option<Client>) {
    play_randomly_after(Duration::ZERO, client, table, seed, keep).await
}

/// As [`play_randomly`], pausing `think` before each action.
async fn play_randomly_after(
    think: Duration,
    mut client: Client,
    table: u64,
    seed: u64,
    keep: impl Fn(&ActionRecord) -> bool,
) -> (Seen, Option<Client>) {
    let mut rng = GameRng::from_seed(seed);
    let mut seen = Seen::default();
    loop {
        let update = match next_update(&mut client).await {
            Ok(update) => update,
            Err((ErrorCode::NotNow, _)) => continue,
            Err((ErrorCode::Protocol, _)) => return (seen, None),
            Err((_, message)) => panic!("table {table}: {message}"),
        };
        let over = update.outcome.is_some();
        let step = update.step;
        if std::env::var("MEEPLE_DEBUG_ONLINE").is_ok() {
            eprintln!(
                "table {table} seat {:?} step {step} to_act {:?} legal {}",
                update.seat,
                update.to_act,
                update.legal.len()
            );
        }
        let choices: Vec<ActionRecord> =
            update.legal.iter().filter(|a| a.action != "leave" && keep(a)).cloned().collect();
        seen.take(update);
        if over {
            return (seen, Some(client));
        }
        if choices.is_empty() {
            continue;
        }
        let action = choices[rng.below(choices.len() as u32) as usize].clone();
        if !think.is_zero() {
            tokio::time::sleep(think).await;
        }
        if client.send(&ClientMessage::Act { table, step, action }).await.is_err() {
            return (seen, None);
        }
    }
}

/// Replays a finished table's save file and checks its hash; the final state.
fn replay_save(rules: &Arc<Ruleset>, path: &Path) -> (SaveFile, GameState) {
    let save = SaveFile::read(path).unwrap();
    let mut engine = Engine::new(rules.clone()).unwrap();
    let (state, _) = save.replay(&mut engine, &path.display().to_string(), &mut Events::discard()).unwrap();
    (save, state)
}

#[test]
fn four_clients_play_a_dice_wars_game_to_the_end() {
    let rules = load("dice_wars");
    let data = scratch("four");
    runtime().block_on(async {
        let (_server, url) = serve(vec![rules.clone()], &data, 60).await;
        let mut host = connect(&url).await;
        let table = create(&mut host, request("dice_wars", vec![person(); 4], 11)).await;
        let mut spectator = connect(&url).await;
        spectator.send(&ClientMessage::Watch { table }).await.unwrap();
        let mut players = Vec::new();
        for seat in 1..=4u8 {
            let mut client = connect(&url).await;
            join(&mut client, table, seat).await;
            client.send(&ClientMessage::Confirm { table }).await.unwrap();
            players.push(tokio::spawn(play_randomly(client, table, u64::from(seat), |_| true)));
        }
        let watched = tokio::spawn(play_randomly(spectator, table, 0, |_| true));
        let mut finals = Vec::new();
        for player in players {
            let (seen, _) = player.await.unwrap();
            let last = seen.updates.last().unwrap();
            finals.push((last.step, last.outcome.clone()));
            // Each seat saw every step after the start, in order.
            let steps: Vec<u64> = seen.updates.iter().map(|u| u.step).collect();
            assert_eq!(steps, (0..=last.step).collect::<Vec<_>>());
        }
        let (watched, _) = watched.await.unwrap();
        let last = watched.updates.last().unwrap();
        assert!(
            watched.updates.iter().all(|u| u.legal.is_empty() && u.seat.is_none()),
            "a spectator is offered nothing"
        );
        assert!(finals.iter().all(|f| *f == (last.step, last.outcome.clone())), "{finals:?}");
        assert!(last.step > 20, "a whole game takes more than {} actions", last.step);

        // The finished game is filed as a save that replays to its hash, with the same end.
        let save_path = data.join("finished").join(format!("{table}.json"));
        let (save, state) = replay_save(&rules, &save_path);
        assert_eq!(save.actions.len() as u64, last.step);
        assert_eq!(serde_json::to_value(&state.outcome).unwrap(), last.outcome.clone().unwrap());
        assert!(
            !data.join("tables").join(format!("{table}.jsonl")).exists(),
            "an ended table's log moves to finished/"
        );

        // Anyone may ask for the ended game's replay: the same save. A game not ended has none.
        host.send(&ClientMessage::Replay { table }).await.unwrap();
        let sent = loop {
            if let ServerMessage::Replay { save, .. } = host.receive().await.unwrap() {
                break save;
            }
        };
        let filed: serde_json::Value = serde_json::from_slice(&std::fs::read(&save_path).unwrap()).unwrap();
        assert_eq!(sent, filed);
        let unfinished = create(&mut host, request("dice_wars", vec![person(); 2], 3)).await;
        host.send(&ClientMessage::Replay { table: unfinished }).await.unwrap();
        assert_eq!(next_error(&mut host).await.0, ErrorCode::NoTable);
    });
    std::fs::remove_dir_all(&data).unwrap();
}

#[test]
fn a_seat_taken_back_elsewhere_is_no_longer_played_from_where_it_was() {
    let rules = load("dice_wars");
    let data = scratch("taken-elsewhere");
    runtime().block_on(async {
        let (_server, url) = serve(vec![rules.clone()], &data, 600).await;
        let mut first = connect(&url).await;
        let table = create(&mut first, request("dice_wars", vec![person(), computer("easy")], 8)).await;
        let token = join(&mut first, table, 1).await;
        first.send(&ClientMessage::Confirm { table }).await.unwrap();
        next_update(&mut first).await.unwrap();

        // The same token on a second machine, while the first is still connected.
        let mut second = connect(&url).await;
        second.send(&ClientMessage::Rejoin { table, token }).await.unwrap();
        let update = next_update(&mut second).await.unwrap();
        assert_eq!(update.seat, Some(1));
        let (code, message) = next_error(&mut first).await;
        assert_eq!(code, ErrorCode::Seat);
        assert!(message.contains("taken back on another connection"), "{message}");

        // The first connection acts no more for the seat.
        let pass = ActionRecord { seat: None, action: "pass".into(), args: Default::default() };
        first.send(&ClientMessage::Act { table, step: update.step, action: pass }).await.unwrap();
        assert_eq!(next_error(&mut first).await.0, ErrorCode::Seat);
    });
    std::fs::remove_dir_all(&data).unwrap();
}

#[test]
fn a_dropped_seat_comes_back_with_its_token_from_a_new_connection() {
    let rules = load("dice_wars");
    let data = scratch("rejoin");
    runtime().block_on(async {
        let (_server, url) = serve(vec![rules.clone()], &data, 600).await;
        let mut first = connect(&url).await;
        let table =
            create(&mut first, request("dice_wars", vec![person(), computer("medium"), computer("medium")], 5)).await;
        let token = join(&mut first, table, 1).await;
        let mut spectator = connect(&url).await;
        spectator.send(&ClientMessage::Watch { table }).await.unwrap();
        first.send(&ClientMessage::Confirm { table }).await.unwrap();
        let before = next_update(&mut first).await.unwrap();
        assert!(before.board.is_some(), "the first update carries the board");
        first.close().await;

        // The spectator sees the seat disconnected, held for its person.
        let held = loop {
            match spectator.receive().await.unwrap() {
                ServerMessage::Table { table: summary }
                    if summary.stage == Stage::Playing && !summary.seats[0].connected =>
                {
                    break summary;
                }
                _ => {}
            }
        };
        assert!(held.seats[0].taken && !held.seats[0].stand_in);

        // Another connection (another machine) takes it back with the token.
        let mut again = connect(&url).await;
        again.send(&ClientMessage::Rejoin { table, token: token.clone() }).await.unwrap();
        let (seen, _) = play_randomly(again, table, 3, |_| true).await;
        let resumed = &seen.updates[0];
        assert_eq!(resumed.seat, Some(1));
        assert!(resumed.board.is_some(), "a new connection is sent the board");
        assert!(resumed.step >= before.step);
        assert!(resumed.seats[0].connected);
        assert!(seen.updates.last().unwrap().outcome.is_some(), "the game went on to its end");
        // Computer seats never offer their actions to anyone.
        assert!(seen.updates.iter().all(|u| u.legal.is_empty() || u.to_act == Some(1)));
    });
    std::fs::remove_dir_all(&data).unwrap();
}

#[test]
fn a_seat_away_past_the_grace_period_leaves_and_turns_grey() {
    let rules = load("dice_wars");
    let data = scratch("grace");
    runtime().block_on(async {
        let (_server, url) = serve(vec![rules.clone()], &data, 600).await;
        let mut stays = connect(&url).await;
        let mut table_request = request("dice_wars", vec![person(), person(), computer("medium")], 8);
        table_request.grace_seconds = Some(1);
        let table = create(&mut stays, table_request).await;
        join(&mut stays, table, 1).await;
        let mut goes = connect(&url).await;
        join(&mut goes, table, 2).await;
        stays.send(&ClientMessage::Confirm { table }).await.unwrap();
        goes.send(&ClientMessage::Confirm { table }).await.unwrap();
        next_update(&mut goes).await.unwrap();
        goes.close().await;
        let started = std::time::Instant::now();
        let (seen, _) = play_randomly(stays, table, 9, |_| true).await;
        // The seat left by the mod's rule (Dice Wars: grey, keeps its spaces, never attacks).
        let mut board = None;
        let mut left_at = None;
        for update in &seen.updates {
            if update.board.is_some() {
                board = update.board.clone();
            }
            let state = state_from_view(&update.view, board.as_ref().unwrap()).unwrap();
            let has_left = state.seats[1].status == SeatStatus::Left;
            if has_left && left_at.is_none() {
                left_at = Some(update.step);
                assert!(
                    update.events.iter().any(|e| e["event"] == "seat_left" && e["seat"] == 1),
                    "the step that greys it says so: {:?}",
                    update.events
                );
            }
            if left_at.is_some() {
                assert_ne!(update.to_act, Some(2), "a seat that left never acts again");
            }
        }
        assert!(left_at.is_some(), "seat 2 left after its grace period");
        assert!(started.elapsed() >= Duration::from_secs(1));
        assert!(seen.updates.last().unwrap().outcome.is_some());
    });
    std::fs::remove_dir_all(&data).unwrap();
}

#[test]
fn another_seats_hidden_cards_never_reach_a_client() {
    let rules = fixture("secrets");
    let data = scratch("secrets");
    runtime().block_on(async {
        let (_server, url) = serve(vec![rules.clone()], &data, 600).await;
        let mut one = connect(&url).await;
        let table = create(&mut one, request("secrets", vec![person(), person()], 2)).await;
        join(&mut one, table, 1).await;
        let mut two = connect(&url).await;
        join(&mut two, table, 2).await;
        let mut spectator = connect(&url).await;
        spectator.send(&ClientMessage::Watch { table }).await.unwrap();
        one.send(&ClientMessage::Confirm { table }).await.unwrap();
        two.send(&ClientMessage::Confirm { table }).await.unwrap();

        // Both draw, hoard and pass — nothing that shows a card — for a while.
        let quiet = |a: &ActionRecord| ["draw", "sign", "hoard", "burn", "pass"].contains(&a.action.as_str());
        let mut seen = [Seen::default(), Seen::default(), Seen::default()];
        let mut clients = [one, two, spectator];
        let mut rng = GameRng::from_seed(4);
        let mut step = 0;
        while step < 24 {
            for (index, client) in clients.iter_mut().enumerate() {
                let update = next_update(client).await.unwrap();
                assert_eq!(update.step, step);
                let state = seen[index].take(update);
                let viewer = index as u8; // 2 is the spectator
                for (holder, held) in state.seats.iter().enumerate() {
                    let own = holder as u8 == viewer;
                    for (deck, card) in &held.hand {
                        let open_deck = *deck == 1; // `signs` is dealt face up
                        assert_eq!(
                            *card == UNKNOWN_CARD,
                            !own && !open_deck,
                            "viewer {viewer} at step {step}: seat {holder}'s card {card} of deck {deck}"
                        );
                    }
                    if !own {
                        assert_eq!(held.resources[1], 5, "seat {holder}'s hidden vault reads as its start");
                    }
                }
                for event in &seen[index].updates.last().unwrap().events {
                    if event["event"] == "cards_drawn" && event["seat"] != viewer && event["deck"] == 0 {
                        assert!(event["cards"].as_array().unwrap().iter().all(|c| *c == UNKNOWN_CARD), "{event}");
                    }
                }
            }
            let acting = seen[0].updates.last().unwrap().to_act.unwrap() as usize - 1;
            let legal = &seen[acting].updates.last().unwrap().legal;
            assert!(
                seen[1 - acting].updates.last().unwrap().legal.is_empty(),
                "only the seat to act is offered actions"
            );
            let choices: Vec<&ActionRecord> = legal.iter().filter(|a| quiet(a)).collect();
            let action = choices[rng.below(choices.len() as u32) as usize].clone();
            clients[acting].send(&ClientMessage::Act { table, step, action }).await.unwrap();
            step += 1;
        }
        // A control: once seat 1 shows its hand to seat 2, seat 2 sees it.
        for (index, client) in clients.iter_mut().enumerate() {
            seen[index].take(next_update(client).await.unwrap());
        }
        loop {
            let acting = seen[0].updates.last().unwrap().to_act.unwrap() as usize - 1;
            let legal = seen[acting].updates.last().unwrap().legal.clone();
            let action = if acting == 0 {
                legal.iter().find(|a| a.action == "show").unwrap().clone()
            } else {
                legal.iter().find(|a| a.action == "pass").unwrap().clone()
            };
            clients[acting].send(&ClientMessage::Act { table, step, action }).await.unwrap();
            let mut states = Vec::new();
            for (index, client) in clients.iter_mut().enumerate() {
                states.push(seen[index].take(next_update(client).await.unwrap()));
            }
            step += 1;
            if acting == 0 {
                assert!(states[1].seats[0].hand.iter().all(|(_, c)| *c != UNKNOWN_CARD), "shown to seat 2");
                assert!(
                    states[2].seats[0].hand.iter().any(|(d, c)| *d == 0 && *c == UNKNOWN_CARD),
                    "not to a spectator"
                );
                break;
            }
        }
    });
    std::fs::remove_dir_all(&data).unwrap();
}

#[test]
fn a_client_cannot_act_for_another_seat_or_with_a_wrong_token_and_bad_messages_close_only_their_connection() {
    let rules = load("dice_wars");
    let data = scratch("refusals");
    runtime().block_on(async {
        let (_server, url) = serve(vec![rules.clone()], &data, 600).await;
        let mut one = connect(&url).await;
        let table = create(&mut one, request("dice_wars", vec![person(), person()], 21)).await;
        join(&mut one, table, 1).await;
        let mut two = connect(&url).await;
        join(&mut two, table, 2).await;
        one.send(&ClientMessage::Confirm { table }).await.unwrap();
        two.send(&ClientMessage::Confirm { table }).await.unwrap();
        let first = [next_update(&mut one).await.unwrap(), next_update(&mut two).await.unwrap()];
        let acting = first[0].to_act.unwrap() as usize - 1;
        let (mut mover, mut waiter) = if acting == 0 { (one, two) } else { (two, one) };
        let legal = first[acting].legal.clone();
        let attack = legal.iter().find(|a| a.action != "pass" && a.action != "leave").unwrap().clone();

        // Out of turn, for the other seat, at another step: refused.
        let mut out_of_turn = attack.clone();
        out_of_turn.seat = None;
        waiter.send(&ClientMessage::Act { table, step: 0, action: out_of_turn }).await.unwrap();
        assert_eq!(next_error(&mut waiter).await.0, ErrorCode::NotNow);
        let mut for_other = attack.clone();
        for_other.seat = Some(acting as u8 + 1);
        waiter.send(&ClientMessage::Act { table, step: 0, action: for_other }).await.unwrap();
        assert_eq!(next_error(&mut waiter).await.0, ErrorCode::Seat);
        mover.send(&ClientMessage::Act { table, step: 5, action: attack.clone() }).await.unwrap();
        assert_eq!(next_error(&mut mover).await.0, ErrorCode::NotNow);
        let mut unknown = attack.clone();
        unknown.action = "attak".into();
        mover.send(&ClientMessage::Act { table, step: 0, action: unknown }).await.unwrap();
        let (code, message) = next_error(&mut mover).await;
        assert_eq!(code, ErrorCode::Refused);
        assert!(message.contains("did you mean `attack`"), "{message}");

        // A third connection: a wrong token, a taken seat, a table it is not at.
        let mut intruder = connect(&url).await;
        intruder.send(&ClientMessage::Rejoin { table, token: "0".repeat(32) }).await.unwrap();
        assert_eq!(next_error(&mut intruder).await.0, ErrorCode::Token);
        intruder.send(&ClientMessage::Join { table, seat: 1, name: "Mallory".into() }).await.unwrap();
        assert_eq!(next_error(&mut intruder).await.0, ErrorCode::NotNow);
        let mut intruder = connect(&url).await;
        intruder.send(&ClientMessage::Act { table, step: 0, action: attack.clone() }).await.unwrap();
        assert_eq!(next_error(&mut intruder).await.0, ErrorCode::NoTable);
        intruder.send(&ClientMessage::Rejoin { table: 999, token: "0".repeat(32) }).await.unwrap();
        assert_eq!(next_error(&mut intruder).await.0, ErrorCode::NoTable);

        // Malformed, oversized, or before hello: an error, and only that connection closes.
        for bad in [
            "{not json".to_string(),
            r#"{"type":"act","table":1}"#.to_string(),
            r#"{"type":"list_tables","admin":true}"#.to_string(),
            format!(r#"{{"type":"hello","protocol":1,"client":"{}"}}"#, "x".repeat(20_000)),
        ] {
            let mut hostile = connect(&url).await;
            hostile.send_text(bad.clone()).await.unwrap();
            let reply = hostile.receive().await;
            assert!(
                matches!(reply, Ok(ServerMessage::Error { code: ErrorCode::Protocol, .. }) | Err(_)),
                "{bad:.40}: {reply:?}"
            );
            assert!(hostile.receive().await.is_err(), "{bad:.40}: the connection is closed");
        }
        let (socket, _) = tokio_tungstenite::connect_async(url.as_str()).await.unwrap();
        let mut early = socket;
        use futures_util::{SinkExt, StreamExt};
        early.send(tokio_tungstenite::tungstenite::Message::text(r#"{"type":"list_tables"}"#)).await.unwrap();
        let reply = early.next().await.unwrap().unwrap();
        assert!(reply.to_text().unwrap().contains("the first message is `hello`"));

        // Nothing changed: the seat to act still acts at step 0, and both hear of step 1.
        mover.send(&ClientMessage::Act { table, step: 0, action: attack }).await.unwrap();
        assert_eq!(next_update(&mut mover).await.unwrap().step, 1);
        assert_eq!(next_update(&mut waiter).await.unwrap().step, 1);
    });
    std::fs::remove_dir_all(&data).unwrap();
}

/// The decoder never panics on any bytes: seeded mutations of valid messages, and noise.
#[test]
fn the_message_decoder_never_panics_on_any_input() {
    use meeple::online::protocol::decode_client_message;
    let valid = [
        r#"{"type":"hello","protocol":1,"client":"meeple"}"#,
        r#"{"type":"create_table","game":"dice_wars","seats":[{},{"computer":"hard"}],"turn_seconds":30}"#,
        r#"{"type":"join","table":3,"seat":2,"name":"Ann"}"#,
        r#"{"type":"act","table":3,"step":7,"action":{"action":"attack","from":"12","to":"7","seat":1}}"#,
        r#"{"type":"rejoin","table":3,"token":"00112233445566778899aabbccddeeff"}"#,
    ];
    let mut rng = GameRng::from_seed(20);
    let mut accepted = 0;
    for round in 0..50_000u32 {
        let mut bytes = valid[round as usize % valid.len()].as_bytes().to_vec();
        for _ in 0..=rng.below(6) {
            let at = rng.below(bytes.len() as u32 + 1) as usize;
            match rng.below(4) {
                0 if at < bytes.len() => bytes[at] = rng.below(256) as u8,
                1 => {
                    let inserted = b"{}[]\",:0-e\\u\xff";
                    bytes.insert(at, inserted[rng.below(inserted.len() as u32) as usize]);
                }
                2 if at < bytes.len() => {
                    bytes.remove(at);
                }
                _ => bytes.truncate(at),
            }
        }
        if decode_client_message(&bytes).is_ok() {
            accepted += 1;
        }
    }
    // Noise, deep nesting and the largest sizes.
    for length in [0usize, 1, 100, 16 * 1024, 16 * 1024 + 1, 1 << 20] {
        let noise: Vec<u8> = (0..length).map(|_| rng.below(256) as u8).collect();
        assert!(decode_client_message(&noise).is_err() || length < 16);
    }
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    assert!(decode_client_message(deep.as_bytes()).is_err());
    assert!(accepted > 0 && accepted < 50_000, "{accepted} of the mutations were still messages");
}

const CHILD_SERVER: &str = "MEEPLE_TEST_CHILD_SERVER";
/// The address the child server listens on, when it must be the one a killed server had.
const CHILD_ADDRESS: &str = "MEEPLE_TEST_CHILD_ADDRESS";

/// Run by the kill test in a process of its own: a server on a free port over the data folder
/// named by the environment; prints its address, serves until killed.
#[test]
fn child_server_process() {
    let Ok(data) = std::env::var(CHILD_SERVER) else { return };
    let rules = load("dice_wars");
    runtime().block_on(async {
        let mut serving = config(vec![rules], Path::new(&data), 600);
        serving.sync = Sync::Every;
        if let Ok(address) = std::env::var(CHILD_ADDRESS) {
            serving.address = address.parse().unwrap();
        }
        let (running, handle) = start(serving).await.unwrap();
        println!("listening on ws://{} resumed {}", running.address, running.resumed);
        let _ = handle.await;
    });
}

struct ChildServer {
    process: std::process::Child,
    url: String,
    resumed: usize,
}

fn spawn_child_server(data: &Path) -> ChildServer {
    spawn_child_server_at(data, None)
}

/// A child server on `address` (`127.0.0.1:port`), or any free port.
fn spawn_child_server_at(data: &Path, address: Option<&str>) -> ChildServer {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command
        .args(["--exact", "child_server_process", "--nocapture", "--test-threads=1"])
        .env(CHILD_SERVER, data)
        .stdout(Stdio::piped());
    if let Some(address) = address {
        command.env(CHILD_ADDRESS, address);
    }
    let mut process = command.spawn().unwrap();
    let stdout = process.stdout.take().unwrap();
    let mut lines = BufReader::new(stdout).lines();
    // libtest may print the test's name on the same line first.
    let line = lines
        .by_ref()
        .map_while(Result::ok)
        .find_map(|l| l.split_once("listening on ").map(|(_, rest)| rest.to_string()))
        .expect("the server started");
    std::thread::spawn(move || for _ in lines {});
    let mut words = line.split_whitespace();
    let url = words.next().unwrap().to_string();
    let resumed = words.nth(1).unwrap().parse().unwrap();
    ChildServer { process, url, resumed }
}

/// A server process is killed (SIGKILL) twice at random moments while four clients play at each
/// of two tables; each time it is started again on its folder, the clients take their seats
/// back with their tokens, and every table goes on from where it was: at the step the clients
/// last saw (or the one after, when the kill fell between writing a step and announcing it).
/// When the games end, each table's save replays to its hash, and the views a spectator saw
/// before the kills are the replay's views at the same steps.
#[test]
fn a_killed_server_resumes_every_table_where_it_was() {
    let rules = load("dice_wars");
    let data = scratch("killed");
    let runtime = runtime();
    let mut server = spawn_child_server(&data);
    let tables_count = 2;
    let mut tables = Vec::new();
    let mut tokens = Vec::new();
    runtime.block_on(async {
        let mut host = connect(&server.url).await;
        for t in 0..tables_count {
            let table = create(&mut host, request("dice_wars", vec![person(); 4], 100 + t)).await;
            let mut seat_tokens = Vec::new();
            for seat in 1..=4u8 {
                let mut client = connect(&server.url).await;
                seat_tokens.push(join(&mut client, table, seat).await);
                client.send(&ClientMessage::Confirm { table }).await.unwrap();
                // Kept open until the game starts for everyone, then dropped: the players below
                // take the seats back, as after every kill.
                tokio::spawn(async move {
                    let _ = next_update(&mut client).await;
                    tokio::time::sleep(Duration::from_millis(200)).await;
                });
            }
            tables.push(table);
            tokens.push(seat_tokens);
        }
    });
    // What the spectators saw: the view at each step, by table; the last step anyone saw.
    let mut spectator_views: Vec<std::collections::BTreeMap<u64, serde_json::Value>> =
        vec![Default::default(); tables_count as usize];
    let mut last_seen: Vec<Option<u64>> = vec![None; tables_count as usize];
    let mut kill_moments = GameRng::from_seed(31);
    let mut finished = vec![false; tables_count as usize];
    let mut resumed_mid_game = 0;
    for round in 0..3u64 {
        if round > 0 {
            server = spawn_child_server(&data);
            assert_eq!(server.resumed, finished.iter().filter(|f| !**f).count(), "every unfinished table is resumed");
        }
        let url = server.url.clone();
        let last_round = round == 2;
        let pause = Duration::from_millis(300 + u64::from(kill_moments.below(700)));
        let (ends, player_steps) = runtime.block_on(async {
            let mut players = Vec::new();
            let mut watchers = Vec::new();
            for (t, &table) in tables.iter().enumerate() {
                if finished[t] {
                    continue;
                }
                let mut spectator = connect(&url).await;
                spectator.send(&ClientMessage::Watch { table }).await.unwrap();
                watchers.push((t, tokio::spawn(play_randomly(spectator, table, 0, |_| true))));
                for (seat, token) in tokens[t].iter().enumerate() {
                    let mut client = connect(&url).await;
                    client.send(&ClientMessage::Rejoin { table, token: token.clone() }).await.unwrap();
                    let seed = round * 10 + seat as u64;
                    // A short pause per action, so the kills fall in the middle of the games.
                    let think = Duration::from_millis(12);
                    players.push((t, tokio::spawn(play_randomly_after(think, client, table, seed, |_| true))));
                }
            }
            if !last_round {
                // Killed while the clients play.
                tokio::time::sleep(pause).await;
                server.process.kill().unwrap();
                server.process.wait().unwrap();
            }
            let mut player_steps = Vec::new();
            for (t, player) in players {
                let (seen, _) = player.await.unwrap();
                player_steps.push((t, seen.updates.last().map(|u| u.step)));
            }
            let mut ends = Vec::new();
            for (t, watcher) in watchers {
                ends.push((t, watcher.await.unwrap().0));
            }
            (ends, player_steps)
        });
        for (t, seen) in ends {
            // Resumed where it was: the step last seen, or the one after it (written, then the
            // kill came before anyone heard of it); at the same step, the same view.
            if let (Some(before), Some(first)) = (last_seen[t], seen.updates.first()) {
                assert!(
                    first.step == before || first.step == before + 1,
                    "table {t} resumed at step {}, last seen at {before}",
                    first.step
                );
                if first.step == before {
                    assert_eq!(Some(&first.view), spectator_views[t].get(&before));
                }
                resumed_mid_game += usize::from(before > 0);
            }
            for update in &seen.updates {
                spectator_views[t].insert(update.step, update.view.clone());
            }
            finished[t] = seen.updates.last().is_some_and(|u| u.outcome.is_some());
            last_seen[t] = seen.updates.last().map(|u| u.step).max(last_seen[t]);
        }
        for (t, step) in player_steps {
            last_seen[t] = last_seen[t].max(step);
        }
        if !last_round {
            assert!(finished.iter().any(|f| !f), "the kill came while games were being played");
        }
    }
    assert!(resumed_mid_game >= 2, "tables were resumed mid-game {resumed_mid_game} times");
    server.process.kill().unwrap();
    server.process.wait().unwrap();
    // Every game ended, filed as a save that replays to its hash; the spectators' views are the
    // replay's, step for step.
    let mut engine = Engine::new(rules.clone()).unwrap();
    for (t, &table) in tables.iter().enumerate() {
        assert!(finished[t], "table {table} played to its end");
        let path = data.join("finished").join(format!("{table}.json"));
        let (save, _) = replay_save(&rules, &path);
        let mut state = engine.new_game(&save.setup, &mut Events::discard()).unwrap();
        for (step, record) in save.actions.iter().enumerate() {
            if let Some(view) = spectator_views[t].get(&(step as u64)) {
                let mut replayed = state.view_for(&rules, meeple_engine::game::state::NO_SEAT);
                replayed.board = GameState::placeholder().board;
                let mut replayed = serde_json::to_value(&replayed).unwrap();
                replayed.as_object_mut().unwrap().remove("board");
                assert_eq!(&replayed, view, "table {table}, step {step}");
            }
            let (seat, action) = meeple_engine::game::record::from_record(&rules, &state, record).unwrap();
            engine.apply_as(&mut state, seat, &action, &mut Events::discard()).unwrap();
        }
        assert_eq!(state.hash_hex(), save.state_hash);
    }
    std::fs::remove_dir_all(&data).unwrap();
}

#[test]
fn a_silent_person_passes_when_the_tables_clock_runs_out() {
    let rules = load("dice_wars");
    let data = scratch("clock");
    runtime().block_on(async {
        let (_server, url) = serve(vec![rules.clone()], &data, 600).await;
        let mut silent = connect(&url).await;
        let mut timed = request("dice_wars", vec![person(), person()], 3);
        timed.turn_seconds = Some(1);
        let table = create(&mut silent, timed).await;
        join(&mut silent, table, 1).await;
        let mut other = connect(&url).await;
        join(&mut other, table, 2).await;
        silent.send(&ClientMessage::Confirm { table }).await.unwrap();
        other.send(&ClientMessage::Confirm { table }).await.unwrap();
        let first = next_update(&mut silent).await.unwrap();
        assert_eq!(first.seconds_left, Some(1));
        let started = std::time::Instant::now();
        // Nobody acts: the seat to act passes when its second is up, then the next one's.
        let second = next_update(&mut silent).await.unwrap();
        assert!(started.elapsed() >= Duration::from_millis(900), "{:?}", started.elapsed());
        assert_eq!(second.step, 1);
        assert_ne!(second.to_act, first.to_act, "the turn passed");
        assert!(
            second.events.iter().any(|e| e["event"] == "acted" && e["action"]["kind"] == "Pass"),
            "the clock passed for the seat: {:?}",
            second.events
        );
        let (code, _) = {
            let mut refused = request("dice_wars", vec![person(), person()], 3);
            refused.turn_seconds = Some(0);
            silent.send(&ClientMessage::CreateTable(refused)).await.unwrap();
            next_error(&mut silent).await
        };
        assert_eq!(code, ErrorCode::BadTable);
    });
    std::fs::remove_dir_all(&data).unwrap();
}

/// Every message a server sends and a client writes fits `schemas/protocol.schema.json`.
#[test]
fn the_messages_on_the_wire_fit_the_protocols_schema() {
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(meeple_tests::root().join("schemas/protocol.schema.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let rules = load("dice_wars");
    let data = scratch("schema");
    let check = |text: &str| {
        let value: serde_json::Value = serde_json::from_str(text).unwrap();
        let errors: Vec<String> = validator.iter_errors(&value).map(|e| e.to_string()).take(3).collect();
        assert!(errors.is_empty(), "{text:.300}: {errors:?}");
    };
    runtime().block_on(async {
        let (_server, url) = serve(vec![rules.clone()], &data, 600).await;
        let (mut client, _) = Client::connect(&url).await.unwrap();
        let mut sent = vec![
            ClientMessage::ListTables {},
            ClientMessage::CreateTable(request("dice_wars", vec![person(), computer("easy")], 4)),
            ClientMessage::Join { table: 1, seat: 1, name: "Ann".into() },
            ClientMessage::Confirm { table: 1 },
            ClientMessage::Join { table: 1, seat: 2, name: "Bob".into() },
        ];
        for message in sent.drain(..) {
            let text = serde_json::to_string(&message).unwrap();
            check(&text);
            client.send_text(text).await.unwrap();
        }
        // Everything that comes back, up to the refusal of the last join (seat 2 is the
        // computer's).
        let mut texts = Vec::new();
        while !texts.last().is_some_and(|t: &String| t.contains(r#""type":"error""#)) {
            texts.push(client.receive_text().await.unwrap());
            assert!(texts.len() < 10_000);
        }
        for text in &texts {
            check(text);
        }
        for kind in ["tables", "table", "joined", "game", "error"] {
            assert!(
                texts.iter().any(|t| t.contains(&format!(r#""type":"{kind}""#))),
                "no `{kind}` among {texts:.100?}"
            );
        }
    });
    std::fs::remove_dir_all(&data).unwrap();
}

#[test]
fn a_seat_got_up_from_before_the_game_is_free_again() {
    let rules = load("dice_wars");
    let data = scratch("got-up");
    runtime().block_on(async {
        let (_server, url) = serve(vec![rules.clone()], &data, 600).await;
        let mut first = connect(&url).await;
        let table = create(&mut first, request("dice_wars", vec![person(), person()], 6)).await;
        join(&mut first, table, 1).await;
        first.send(&ClientMessage::LeaveTable { table }).await.unwrap();
        let mut second = connect(&url).await;
        // The seat is free once the server has heard of it: ask until the list says so.
        let listed = loop {
            second.send(&ClientMessage::ListTables {}).await.unwrap();
            if let ServerMessage::Tables { tables } = second.receive().await.unwrap()
                && !tables[0].seats[0].taken
            {
                break tables;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        };
        assert_eq!((listed[0].id, listed[0].stage), (table, Stage::Gathering));
        join(&mut second, table, 1).await;
    });
    std::fs::remove_dir_all(&data).unwrap();
}

#[test]
fn a_table_of_a_game_of_sides_seats_each_seat_on_the_side_it_chose() {
    let rules = fixture("teams");
    let data = scratch("sides");
    runtime().block_on(async {
        let (_server, url) = serve(vec![rules.clone()], &data, 600).await;
        let (mut host, games) = Client::connect(&url).await.unwrap();
        let sides: Vec<&str> = games[0].sides.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(sides, ["red", "blue"], "the offer lists the sides");
        let on = |seat: SeatRequest, side: &str| SeatRequest { side: Some(side.into()), ..seat };

        // A side the game does not have is refused, with the one meant.
        let mut asked = request("teams", vec![on(person(), "bleu"), on(computer("easy"), "red")], 1);
        host.send(&ClientMessage::CreateTable(asked.clone())).await.unwrap();
        let (code, message) = next_error(&mut host).await;
        assert_eq!(code, ErrorCode::BadTable);
        assert!(message.contains("no side `bleu`; did you mean `blue`?"), "{message}");

        // Both people on blue, both computers on red.
        asked.seats =
            vec![on(person(), "blue"), on(person(), "blue"), on(computer("easy"), "red"), on(computer("easy"), "red")];
        let table = create(&mut host, asked).await;
        let mut players = Vec::new();
        for seat in 1..=2u8 {
            let mut client = connect(&url).await;
            join(&mut client, table, seat).await;
            client.send(&ClientMessage::Confirm { table }).await.unwrap();
            players.push(client);
        }
        let update = next_update(&mut players[0]).await.unwrap();
        assert_eq!(update.seats[0].side.as_deref(), Some("blue"));
        assert_eq!(update.seats[2].side.as_deref(), Some("red"));
        let state = state_from_view(&update.view, update.board.as_ref().unwrap()).unwrap();
        let sides: Vec<u8> = state.seats.iter().map(|s| s.side).collect();
        assert_eq!(sides, [1, 1, 0, 0], "seats play the sides they chose (red is side 0, blue side 1)");
    });
    std::fs::remove_dir_all(&data).unwrap();
}

#[test]
fn refused_joins_do_not_count_against_a_connections_tables() {
    let rules = load("dice_wars");
    let data = scratch("refused-joins");
    runtime().block_on(async {
        let (_server, url) = serve(vec![rules.clone()], &data, 600).await;
        // Eighteen tables whose first seats are taken (a connection makes at most eight).
        let mut tables = Vec::new();
        let mut hosts = Vec::new();
        for host in 0..3 {
            let mut host_client = connect(&url).await;
            for i in 0..6 {
                let asked = request("dice_wars", vec![person(), person()], host * 10 + i);
                host_client.send(&ClientMessage::CreateTable(asked)).await.unwrap();
                // The new table's summary; those of tables the host sits at come too.
                let table = loop {
                    if let ServerMessage::Table { table } = host_client.receive().await.unwrap()
                        && !tables.contains(&table.id)
                    {
                        break table.id;
                    }
                };
                join(&mut host_client, table, 1).await;
                tables.push(table);
            }
            // Kept connected: their seats stay taken.
            hosts.push(host_client);
        }
        let mut latecomer = connect(&url).await;
        for &table in &tables {
            latecomer.send(&ClientMessage::Join { table, seat: 1, name: "Late".into() }).await.unwrap();
            let (code, _) = next_error(&mut latecomer).await;
            assert_eq!(code, ErrorCode::Seat, "seat 1 of table {table} is taken");
        }
        // None of the eighteen refusals counts: the connection may still sit at 16 tables.
        for &table in &tables[..16] {
            join(&mut latecomer, table, 2).await;
        }
        latecomer.send(&ClientMessage::Join { table: tables[16], seat: 2, name: "Late".into() }).await.unwrap();
        assert_eq!(next_error(&mut latecomer).await.0, ErrorCode::Limit, "the seventeenth is one too many");
    });
    std::fs::remove_dir_all(&data).unwrap();
}

// ---------------------------------------------------------------------------------------------
// The window's "Play online", driven like a person would (egui_kittest, no display).

mod window {
    use std::path::Path;
    use std::time::{Duration, Instant};

    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;
    use meeple::player::app::Screen;
    use meeple::player::catalog::{ModEntry, Origin};
    use meeple::player::{PlayerApp, StartOptions};
    use meeple_engine::game::ActionKind;
    use meeple_engine::game::state::SeatStatus;
    use meeple_tests::mods_dir;

    use super::{computer, person, runtime, scratch, serve, spawn_child_server, spawn_child_server_at};

    type Window = Harness<'static, PlayerApp>;

    /// A player window keeping the seats it holds in `kept` (as a window does in its data folder).
    fn window(kept: &Path) -> Window {
        let mods = vec![ModEntry::load(&mods_dir().join("dice_wars"), Origin::Bundled)];
        let mut app = PlayerApp::with_mods(mods, StartOptions::default());
        app.kept_seats_file = Some(kept.to_path_buf());
        Harness::builder()
            .with_size(egui::vec2(1280.0, 800.0))
            .build_ui_state(|ui, app: &mut PlayerApp| app.ui(ui), app)
    }

    /// Frames of every window until `done` holds (the server answers on its own threads).
    fn until(windows: &mut [&mut Window], what: &str, done: impl Fn(&[&mut Window]) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while !done(windows) {
            assert!(Instant::now() < deadline, "waited 30 s for {what}");
            for window in windows.iter_mut() {
                window.step();
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        // A frame of what changed, for the widgets to be found.
        for window in windows.iter_mut() {
            window.step();
        }
    }

    fn click(window: &mut Window, label: &str) {
        window
            .query_all_by_label(label)
            .next()
            .unwrap_or_else(|| panic!("no widget labelled {label:?}"))
            .scroll_to_me();
        window.step();
        window.query_all_by_label(label).next().unwrap_or_else(|| panic!("no widget labelled {label:?}")).click();
        // The click, what it changes, and a window it opens (drawn unseen once to size it).
        for _ in 0..4 {
            window.step();
        }
    }

    fn has_label(window: &Window, label: &str) -> bool {
        window.query_all_by_label(label).next().is_some()
    }

    /// Opens "Play online" and connects to `url`.
    fn connect(window: &mut Window, url: &str) {
        click(window, "Play online");
        window.state_mut().lobby_mut().expect("the lobby is shown").address = url.to_string();
        click(window, "Connect");
        until(&mut [window], "the server's welcome", |w| has_label(w[0], "Open the table"));
    }

    fn playing(window: &Window) -> bool {
        window.state().game().is_some_and(|g| g.online.is_some())
    }

    /// The pieces' owners as the window's game shows them.
    fn owners(window: &Window) -> Vec<u8> {
        window.state().game().expect("a game is shown").session.state.pieces.iter().map(|p| p.owner).collect()
    }

    fn step_of(window: &Window) -> u64 {
        window.state().game().and_then(|g| g.session.online_step()).unwrap_or(u64::MAX)
    }

    #[test]
    fn windows_open_join_confirm_play_watch_surrender_and_come_back_to_a_table() {
        let rules = meeple_tests::load("dice_wars");
        let data = scratch("window");
        let server = runtime();
        let (_running, url) = server.block_on(serve(vec![rules.clone()], &data, 60));

        // Ann opens a table for two people and a computer, with a clock, and sits at seat 1.
        let mut ann = window(&data.join("ann-seats.json"));
        connect(&mut ann, &url);
        {
            let lobby = ann.state_mut().lobby_mut().unwrap();
            lobby.name = "Ann".into();
            lobby.form.seats = vec![person(), person(), computer("easy")];
            lobby.form.clock = true;
            lobby.form.turn_seconds = 600;
        }
        click(&mut ann, "Open the table");
        until(&mut [&mut ann], "Ann's seat", |w| has_label(w[0], "Confirm"));
        let table = *ann.state_mut().lobby_mut().unwrap().held.keys().next().expect("Ann holds a seat");
        assert_eq!(ann.state_mut().lobby_mut().unwrap().held[&table].0, 1);
        assert!(has_label(&ann, "3. Computer 3 (easy)"), "the table lists its computer seat");
        click(&mut ann, "Confirm");
        until(&mut [&mut ann], "Ann ready", |w| has_label(w[0], "1. Ann (ready)"));
        assert!(!playing(&ann), "the game waits for every seat");

        // Bob finds the table in the list, takes seat 2 and confirms: the game starts for both.
        let mut bob = window(&data.join("bob-seats.json"));
        connect(&mut bob, &url);
        bob.state_mut().lobby_mut().unwrap().name = "Bob".into();
        until(&mut [&mut bob], "the table listed", |w| has_label(w[0], "Take seat 2"));
        click(&mut bob, "Take seat 2");
        until(&mut [&mut bob], "Bob's seat", |w| has_label(w[0], "Confirm"));
        click(&mut bob, "Confirm");
        until(&mut [&mut ann, &mut bob], "the game to start", |w| playing(w[0]) && playing(w[1]));
        for (window, name) in [(&ann, "Ann"), (&bob, "Bob")] {
            let game = window.state().game().unwrap();
            let seats: Vec<&str> = game.session.state.seats.iter().map(|s| s.name.as_str()).collect();
            assert_eq!(seats, ["Ann", "Bob", "Computer 3 (easy)"]);
            assert!(has_label(window, &format!("you play {name}")), "{name}'s bar names the seat");
            assert!(!has_label(window, "Undo") && !has_label(window, "Save"), "the server keeps the game");
        }

        // Cy watches: the same board, nothing to do.
        let mut cy = window(&data.join("cy-seats.json"));
        connect(&mut cy, &url);
        until(&mut [&mut cy], "the table listed", |w| has_label(w[0], "Watch"));
        click(&mut cy, "Watch");
        until(&mut [&mut cy], "the game watched", |w| playing(w[0]));
        assert!(has_label(&cy, "watching"));

        // Turns pass through the windows' own buttons; the computer moves on the server.
        let mut ended_turns = 0;
        while ended_turns < 4 {
            until(&mut [&mut ann, &mut bob, &mut cy], "a person's turn", |w| {
                w[..2].iter().any(|w| w.state().game().unwrap().session.is_human_turn())
            });
            let who = if ann.state().game().unwrap().session.is_human_turn() { &mut ann } else { &mut bob };
            let before = step_of(who);
            assert!(!window_has_text(&cy, "computer (human)"), "a person's turn is not a computer's");
            let clock = who.state().game().unwrap().online.as_ref().unwrap().clock;
            assert!(clock.is_some_and(|(s, _)| s <= 600), "the clock runs for a person: {clock:?}");
            assert!(window_has_text(who, " s left for "), "the clock is shown");
            click(who, "End turn");
            until(&mut [&mut ann, &mut bob, &mut cy], "the pass to reach every window", |w| {
                w.iter().all(|w| step_of(w) > before)
            });
            ended_turns += 1;
        }
        until(&mut [&mut ann, &mut bob, &mut cy], "every window at the same step", |w| {
            step_of(w[0]) == step_of(w[1]) && step_of(w[1]) == step_of(w[2])
        });
        assert_eq!(owners(&ann), owners(&bob));
        assert_eq!(owners(&ann), owners(&cy));
        let spectator = &cy.state().game().unwrap().session;
        assert!(spectator.legal().is_empty() && !spectator.is_human_turn(), "a spectator is offered nothing");

        // Bob goes back to the tables and takes his seat back: the game is where it was.
        click(&mut bob, "Back to tables");
        assert!(!playing(&bob));
        until(&mut [&mut ann, &mut bob, &mut cy], "Bob's seat held", |w| has_label(w[1], "Back to the game"));
        click(&mut bob, "Back to the game");
        until(&mut [&mut ann, &mut bob, &mut cy], "Bob back at the table", |w| playing(w[1]));
        until(&mut [&mut ann, &mut bob, &mut cy], "Bob at the game's step", |w| step_of(w[1]) == step_of(w[0]));
        assert_eq!(owners(&ann), owners(&bob));

        // Bob's window closes; a new one finds his seat kept and takes it back.
        drop(bob);
        let mut bob = window(&data.join("bob-seats.json"));
        click(&mut bob, "Play online");
        {
            // The server and the name are those of the last run: one click connects.
            let lobby = bob.state_mut().lobby_mut().unwrap();
            assert_eq!((lobby.address.as_str(), lobby.name.as_str()), (url.as_str(), "Bob"));
        }
        click(&mut bob, "Connect");
        until(&mut [&mut ann, &mut bob, &mut cy], "Bob's kept seat", |w| has_label(w[1], "Back to the game"));
        click(&mut bob, "Back to the game");
        until(&mut [&mut ann, &mut bob, &mut cy], "Bob back again", |w| {
            playing(w[1]) && step_of(w[1]) == step_of(w[0])
        });
        assert_eq!(owners(&ann), owners(&bob));
        assert!(has_label(&bob, "you play Bob"));

        // An action the rules allow, chosen in Bob's window when it is his turn, reaches Ann's.
        loop {
            until(&mut [&mut ann, &mut bob, &mut cy], "a person's turn", |w| {
                w[..2].iter().any(|w| w.state().game().unwrap().session.is_human_turn())
            });
            if bob.state().game().unwrap().session.is_human_turn() {
                break;
            }
            let before = step_of(&ann);
            click(&mut ann, "End turn");
            until(&mut [&mut ann, &mut bob, &mut cy], "Ann's pass", |w| w.iter().all(|w| step_of(w) > before));
        }
        let attack =
            bob.state().game().unwrap().session.legal().iter().find(|a| matches!(a.kind, ActionKind::Rule(_))).copied();
        if let Some(attack) = attack {
            let before = step_of(&bob);
            bob.state_mut().game_mut().unwrap().session.act(attack).unwrap();
            assert!(bob.state().game().unwrap().session.is_awaiting_server(), "the server decides");
            until(&mut [&mut ann, &mut bob, &mut cy], "the attack decided", |w| w.iter().all(|w| step_of(w) > before));
            assert_eq!(owners(&ann), owners(&bob));
        }

        // Both people surrender through the bar's button: their seats turn grey and the
        // computer plays the game out on the server.
        for seat in 0..2 {
            let who = if seat == 0 { &mut ann } else { &mut bob };
            click(who, "Surrender");
            click(who, "Leave");
            until(&mut [&mut ann, &mut bob, &mut cy], "the seat to turn grey", |w| {
                w.iter().all(|w| {
                    let game = w.state().game().unwrap();
                    game.session.is_over() || game.session.state.seats[seat].status == SeatStatus::Left
                })
            });
        }
        until(&mut [&mut ann, &mut bob, &mut cy], "the game's end", |w| {
            w.iter().all(|w| w.state().game().unwrap().session.is_over())
        });
        for window in [&ann, &bob, &cy] {
            let state = &window.state().game().unwrap().session.state;
            // Grey, or conquered since by the computer.
            assert!(state.seats[..2].iter().all(|s| s.status != SeatStatus::Active));
            assert!(has_label(window, "Back to tables"), "the end offers the way back");
            assert!(!has_label(window, "Rematch"), "a rematch is a new table");
            let actions = format!(" turns, {} rounds, {} actions", state.turn.round, step_of(window));
            assert!(window_has_text(window, &actions), "the end counts the server's actions: {actions}");
        }
        let outcome = |w: &Window| w.state().game().unwrap().session.state.outcome.clone();
        assert_eq!(outcome(&ann), outcome(&cy));
        assert_eq!(outcome(&bob), outcome(&cy));

        // Back at the tables, the ended game is there to watch from its start: the whole game,
        // every action the server counted, to the same end.
        let (steps, ended) = (step_of(&cy), outcome(&cy));
        // The game-over window's button (the bar's lies under the window).
        cy.query_all_by_label("Back to tables").last().unwrap().click();
        for _ in 0..4 {
            cy.step();
        }
        until(&mut [&mut cy], "the ended table listed", |w| has_label(w[0], "Watch the replay"));
        click(&mut cy, "Watch the replay");
        until(&mut [&mut cy], "the replay", |w| matches!(w[0].state().screen, Screen::Replay(_)));
        let viewer = cy.state_mut().replay_mut().unwrap();
        assert_eq!(viewer.history.len() as u64, steps);
        assert_eq!(viewer.states.last().unwrap().outcome, ended);
        click(&mut cy, "Close replay");
        assert!(has_label(&cy, "Open the table"), "closing the replay returns to the tables");
    }

    fn window_has_text(window: &Window, text: &str) -> bool {
        window.query_all_by_label_contains(text).next().is_some()
    }

    /// The person to act in `window` ends the turn, and every window hears of it.
    fn end_turn(windows: &mut [&mut Window], who: usize) {
        let before = step_of(windows[who]);
        click(windows[who], "End turn");
        until(windows, "the pass to reach every window", |w| w.iter().all(|w| step_of(w) > before));
    }

    #[test]
    fn a_window_takes_its_seat_back_from_a_killed_and_restarted_server() {
        let data = scratch("window-killed");
        let mut server = spawn_child_server(&data);
        let mut ann = window(&data.join("ann-seats.json"));
        connect(&mut ann, &server.url);
        ann.state_mut().lobby_mut().unwrap().form.seats = vec![person(), computer("easy")];
        click(&mut ann, "Open the table");
        until(&mut [&mut ann], "Ann's seat", |w| has_label(w[0], "Confirm"));
        click(&mut ann, "Confirm");
        until(&mut [&mut ann], "the game", |w| playing(w[0]));
        for _ in 0..2 {
            until(&mut [&mut ann], "Ann's turn", |w| w[0].state().game().unwrap().session.is_human_turn());
            end_turn(&mut [&mut ann], 0);
        }
        until(&mut [&mut ann], "Ann's turn", |w| w[0].state().game().unwrap().session.is_human_turn());
        let step = step_of(&ann);
        let pieces = owners(&ann);

        // The server is killed: the window says so and offers to reconnect.
        server.process.kill().unwrap();
        server.process.wait().unwrap();
        until(&mut [&mut ann], "the window to see the loss", |w| has_label(w[0], "Reconnect"));
        assert!(has_label(&ann, "not connected"));

        // Started again on its folder and address, it has the table where it was; the window
        // reconnects and takes its seat back with the token it kept.
        let address = server.url.trim_start_matches("ws://").to_string();
        let mut server = spawn_child_server_at(&data, Some(&address));
        assert_eq!(server.resumed, 1);
        click(&mut ann, "Reconnect");
        until(&mut [&mut ann], "the seat taken back", |w| {
            let game = w[0].state().game().unwrap();
            game.online.as_ref().unwrap().is_connected()
                && game.session.is_human_turn()
                && !has_label(w[0], "Reconnect")
        });
        assert_eq!(step_of(&ann), step);
        assert_eq!(owners(&ann), pieces);
        assert!(has_label(&ann, "you play Player"));
        end_turn(&mut [&mut ann], 0);
        until(&mut [&mut ann], "Ann's next turn", |w| w[0].state().game().unwrap().session.is_human_turn());
        assert!(step_of(&ann) > step + 1, "the computer played on the restarted server");
        server.process.kill().unwrap();
        server.process.wait().unwrap();
        let _ = std::fs::remove_dir_all(&data);
    }
}
