//! `meeple bots`: many scripted clients on one server, for load. Each table is made by its
//! first seat's client; every seat is a person's, played by a bot that joins, confirms, and
//! answers each of its turns with one of the legal actions the server lists, drawn from its
//! own seeded stream, after a short pause (a person does not click twenty times a second).
//! It measures what a person would feel: the time from sending an action to receiving the
//! step it made (the round trip), and counts actions and ended games.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use meeple_engine::game::ActionRecord;
use meeple_engine::rng::GameRng;
use tokio::sync::{Mutex, oneshot};

use super::client::Client;
use super::protocol::{ClientMessage, ErrorCode, SeatRequest, ServerMessage, TableRequest};

/// What to run.
#[derive(Clone, Debug)]
pub struct BotsConfig {
    /// `ws://host:port`.
    pub url: String,
    /// The game's id.
    pub game: String,
    pub tables: usize,
    pub seats: usize,
    pub seed: u64,
    /// A bot's pause before each action.
    pub think: Duration,
    /// When to stop, finished or not.
    pub time_limit: Duration,
    /// Tables started per second (a crowd arrives over time, not in one instant).
    pub tables_per_second: f64,
}

/// What was measured.
#[derive(Clone, Debug, Default)]
pub struct BotsReport {
    pub tables_started: usize,
    pub games_finished: usize,
    /// The most tables playing at the same time.
    pub most_tables_at_once: usize,
    pub actions: u64,
    pub elapsed: Duration,
    /// Round trips of actions, sorted, in microseconds.
    pub round_trips_us: Vec<u64>,
    /// Messages refused or connections lost (with the first few reasons).
    pub errors: usize,
    pub first_errors: Vec<String>,
}

impl BotsReport {
    /// The round trip below which `share` of them fall.
    pub fn percentile(&self, share: f64) -> Duration {
        if self.round_trips_us.is_empty() {
            return Duration::ZERO;
        }
        let index = ((self.round_trips_us.len() as f64 - 1.0) * share).round() as usize;
        Duration::from_micros(self.round_trips_us[index.min(self.round_trips_us.len() - 1)])
    }
}

#[derive(Default)]
struct Tally {
    started: AtomicUsize,
    playing: AtomicUsize,
    most_playing: AtomicUsize,
    finished: AtomicUsize,
    actions: AtomicU64,
    errors: AtomicUsize,
    first_errors: Mutex<Vec<String>>,
    round_trips: Mutex<Vec<u64>>,
}

impl Tally {
    async fn error(&self, why: String) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        let mut first = self.first_errors.lock().await;
        if first.len() < 5 {
            first.push(why);
        }
    }
}

/// Runs the bots until every game ends or the time limit.
pub async fn run(config: BotsConfig) -> BotsReport {
    let tally = Arc::new(Tally::default());
    let started = Instant::now();
    let mut tasks = Vec::new();
    for table in 0..config.tables {
        if config.tables_per_second > 0.0 {
            let due = started + Duration::from_secs_f64(table as f64 / config.tables_per_second);
            tokio::time::sleep_until(due.into()).await;
        }
        let mut to_guests = Vec::new();
        let mut guests = Vec::new();
        for _ in 1..config.seats {
            let (tx, rx) = oneshot::channel();
            to_guests.push(tx);
            guests.push(Role::Guest(rx));
        }
        let roles = std::iter::once(Role::Host(to_guests)).chain(guests);
        for (seat, role) in (1..=config.seats).zip(roles) {
            let config = config.clone();
            let tally = tally.clone();
            let seed = meeple_engine::sim::derive_seed(config.seed, (table * 16 + seat) as u64);
            tasks.push(tokio::spawn(async move {
                let limit = config.time_limit;
                if let Err(why) =
                    tokio::time::timeout(limit, bot(&config, seat as u8, role, seed, &tally)).await.unwrap_or(Ok(()))
                {
                    tally.error(why).await;
                }
            }));
        }
    }
    for task in tasks {
        let _ = task.await;
    }
    let mut round_trips = std::mem::take(&mut *tally.round_trips.lock().await);
    round_trips.sort_unstable();
    BotsReport {
        tables_started: tally.started.load(Ordering::Relaxed),
        games_finished: tally.finished.load(Ordering::Relaxed),
        most_tables_at_once: tally.most_playing.load(Ordering::Relaxed),
        actions: tally.actions.load(Ordering::Relaxed),
        elapsed: started.elapsed(),
        round_trips_us: round_trips,
        errors: tally.errors.load(Ordering::Relaxed),
        first_errors: std::mem::take(&mut *tally.first_errors.lock().await),
    }
}

enum Role {
    /// Makes the table and tells the others its number.
    Host(Vec<oneshot::Sender<u64>>),
    Guest(oneshot::Receiver<u64>),
}

async fn bot(config: &BotsConfig, seat: u8, role: Role, seed: u64, tally: &Tally) -> Result<(), String> {
    let (mut client, _) = Client::connect(&config.url).await.map_err(|e| e.to_string())?;
    let table = match role {
        Role::Host(guests) => {
            let request = TableRequest {
                game: config.game.clone(),
                options: Default::default(),
                seats: vec![SeatRequest::default(); config.seats],
                seed: Some(seed),
                turn_seconds: None,
                grace_seconds: None,
            };
            client.send(&ClientMessage::CreateTable(request)).await.map_err(|e| e.to_string())?;
            let id = loop {
                match client.receive().await.map_err(|e| e.to_string())? {
                    ServerMessage::Table { table } => break table.id,
                    ServerMessage::Error { message, .. } => return Err(format!("creating a table: {message}")),
                    _ => {}
                }
            };
            tally.started.fetch_add(1, Ordering::Relaxed);
            for guest in guests {
                let _ = guest.send(id);
            }
            id
        }
        Role::Guest(host) => host.await.map_err(|_| "the table's host gave up".to_string())?,
    };
    client
        .send(&ClientMessage::Join { table, seat, name: format!("Bot {table}.{seat}") })
        .await
        .map_err(|e| e.to_string())?;
    client.send(&ClientMessage::Confirm { table }).await.map_err(|e| e.to_string())?;
    let mut rng = GameRng::from_seed(seed);
    // The step of the action sent and when, while its answer is awaited.
    let mut waiting: Option<(u64, Instant)> = None;
    let mut counted_start = false;
    loop {
        let message = client.receive().await.map_err(|e| e.to_string())?;
        let update = match message {
            ServerMessage::Game(update) => update,
            ServerMessage::Error { code: ErrorCode::NotNow, .. } => continue,
            ServerMessage::Error { message, .. } => {
                tally.error(format!("seat {seat} at table {table}: {message}")).await;
                continue;
            }
            _ => continue,
        };
        if seat == 1 && !counted_start {
            counted_start = true;
            let now = tally.playing.fetch_add(1, Ordering::Relaxed) + 1;
            tally.most_playing.fetch_max(now, Ordering::Relaxed);
        }
        if let Some((step, sent)) = waiting
            && update.step > step
        {
            tally.round_trips.lock().await.push(sent.elapsed().as_micros() as u64);
            waiting = None;
        }
        if update.outcome.is_some() {
            if seat == 1 {
                tally.finished.fetch_add(1, Ordering::Relaxed);
                tally.playing.fetch_sub(1, Ordering::Relaxed);
            }
            client.close().await;
            return Ok(());
        }
        // A bot never gives up: leaving would end games early and measure less.
        let choices: Vec<&ActionRecord> = update.legal.iter().filter(|a| a.action != "leave").collect();
        if choices.is_empty() {
            continue;
        }
        tokio::time::sleep(config.think).await;
        let action = choices[rng.below(choices.len() as u32) as usize].clone();
        waiting = Some((update.step, Instant::now()));
        client.send(&ClientMessage::Act { table, step: update.step, action }).await.map_err(|e| e.to_string())?;
        tally.actions.fetch_add(1, Ordering::Relaxed);
    }
}
