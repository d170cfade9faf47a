//! `meeple serve`: the online server. Connections are tokio tasks reading and writing
//! WebSocket frames; tables live on worker threads, each table on one worker (its number modulo
//! the workers), each worker with one engine per ruleset — the engine's Lua state is not
//! shared between threads, and a table's steps run in order on its worker. A connection sends
//! a worker what its client asked; the worker answers through the connection's outbox.
//!
//! Invariants: the server never panics on what a client sends (decoding is
//! [`decode_client_message`], fuzzed; a malformed message closes only its connection); nothing
//! a seat may not see is put in its messages (see [`Table`]); a client too slow to read its
//! messages is disconnected rather than let the server's memory grow.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc as std_mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use meeple_engine::game::Engine;
use meeple_engine::rules::Ruleset;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, mpsc};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

use super::protocol::{
    ClientMessage, ErrorCode, GameOffer, MAX_CLIENT_MESSAGE_BYTES, OptionOffer, PROTOCOL_VERSION, ServerMessage,
    TableId, TableRequest, TableSummary, decode_client_message,
};
use super::store::{Record, Store, Sync};
use super::table::{ConnId, Outbox, Table, message_text};

/// What a server allows each client and in all.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Connections open at once.
    pub connections: usize,
    /// Tables in play (gathering or playing) at once.
    pub tables: usize,
    /// Tables one connection may create.
    pub tables_per_connection: usize,
    /// Tables one connection may sit at or watch at once.
    pub memberships_per_connection: usize,
    /// Messages a client may send per second, on average; and in a burst.
    pub messages_per_second: f64,
    pub burst: f64,
    /// Messages waiting to be written to one client before it counts as not reading and is
    /// disconnected.
    pub outbox: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            connections: 4096,
            tables: 2000,
            tables_per_connection: 8,
            memberships_per_connection: 16,
            messages_per_second: 20.0,
            burst: 60.0,
            outbox: 1024,
        }
    }
}

/// How a server is set up.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    pub address: SocketAddr,
    /// Where tables are kept (see [`Store`]).
    pub data: PathBuf,
    /// The games offered (each loaded with its default options).
    pub games: Vec<Arc<Ruleset>>,
    pub limits: Limits,
    pub workers: usize,
    pub sync: Sync,
    /// Seconds a dropped seat is held when its table does not say.
    pub grace_seconds: u32,
}

/// A connection as workers reach it.
#[derive(Clone)]
struct Connection {
    id: ConnId,
    outbox: mpsc::Sender<Arc<str>>,
    /// Set when the client cannot keep up: the connection closes.
    close: Arc<Notify>,
    /// Tables whose worker refused this connection's join, rejoin or watch: it is not at them,
    /// and they no longer count against its limit.
    refused_at: Arc<std::sync::Mutex<Vec<TableId>>>,
}

/// What a worker is asked to do.
enum Work {
    Create {
        table: Box<Table>,
        conn: Connection,
    },
    Resume {
        table: Box<Table>,
        records: Vec<Record>,
    },
    Table {
        table: TableId,
        conn: Connection,
        ask: ClientMessage,
    },
    /// The connection closed, or got up from the table (`got_up`).
    Gone {
        table: TableId,
        conn: ConnId,
        got_up: bool,
    },
}

/// What every connection and worker share.
struct Shared {
    config: ServeConfig,
    store: Store,
    offers: Vec<GameOffer>,
    lobby: Mutex<Lobby>,
    workers: Vec<std_mpsc::Sender<Work>>,
    next_conn: AtomicU64,
    connections: AtomicUsize,
    /// Rulesets by game and options, loaded once.
    rulesets: Mutex<HashMap<(String, BTreeMap<String, String>), Arc<Ruleset>>>,
}

#[derive(Default)]
struct Lobby {
    next_table: TableId,
    tables: BTreeMap<TableId, TableSummary>,
}

impl Shared {
    /// The lobby (a worker that panicked holding it left nothing half-written in it: every
    /// change is one map operation).
    fn lobby(&self) -> std::sync::MutexGuard<'_, Lobby> {
        self.lobby.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn worker_of(&self, table: TableId) -> &std_mpsc::Sender<Work> {
        &self.workers[(table % self.workers.len() as u64) as usize]
    }

    fn rules_for(&self, game: &str, options: &BTreeMap<String, String>) -> Result<Arc<Ruleset>, String> {
        let key = (game.to_string(), options.clone());
        if let Some(rules) = self.rulesets.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return Ok(rules.clone());
        }
        let base = self.config.games.iter().find(|r| r.manifest.id == game).ok_or_else(|| {
            let ids: Vec<&str> = self.config.games.iter().map(|r| r.manifest.id.as_str()).collect();
            let hint = meeple_engine::diag::did_you_mean(game, ids.iter().copied())
                .map(|s| format!("; did you mean `{s}`?"))
                .unwrap_or_default();
            format!("this server offers no game `{}`{hint}", meeple_engine::diag::shown(game))
        })?;
        for (option, choice) in options {
            let Some(def) = base.data.options.get(option) else {
                return Err(format!("{} has no option `{}`", base.manifest.name, meeple_engine::diag::shown(option)));
            };
            if !def.choices.contains_key(choice) {
                return Err(format!("option `{option}` has no choice `{}`", meeple_engine::diag::shown(choice)));
            }
        }
        let rules = crate::player::catalog::with_options(base, options)?;
        self.rulesets.lock().unwrap_or_else(|e| e.into_inner()).insert(key, rules.clone());
        Ok(rules)
    }
}

/// What a game offers, for `welcome`.
fn offer(rules: &Ruleset) -> GameOffer {
    GameOffer {
        id: rules.manifest.id.clone(),
        name: rules.manifest.name.clone(),
        version: rules.manifest.version.clone(),
        min_seats: rules.manifest.seats.min,
        max_seats: rules.manifest.seats.max,
        options: rules
            .data
            .options
            .iter()
            .map(|(id, option)| OptionOffer {
                id: id.clone(),
                label: option.label.clone(),
                default: option.default.clone(),
                choices: std::iter::once(option.default.clone())
                    .chain(option.choices.keys().filter(|c| **c != option.default).cloned())
                    .collect(),
            })
            .collect(),
        levels: meeple_engine::ai::LEVELS.iter().take(3).map(|(name, _)| name.to_string()).collect(),
        sides: rules
            .data
            .seats
            .sides
            .iter()
            .map(|side| super::protocol::SideOffer {
                id: side.id.clone(),
                label: side.label.clone().unwrap_or_else(|| side.id.clone()),
            })
            .collect(),
    }
}

/// A running server: its address, and the handle that stops it.
pub struct Running {
    pub address: SocketAddr,
    /// Tables resumed from the data folder, and the logs that could not be (with why).
    pub resumed: usize,
    pub unreadable: Vec<String>,
    stop: Arc<Notify>,
}

impl Running {
    pub fn stop(&self) {
        self.stop.notify_waiters();
        self.stop.notify_one();
    }
}

/// Starts a server: resumes the tables in the data folder, binds, and serves until stopped.
/// Returns once it listens; the serving runs on the current tokio runtime.
pub async fn start(config: ServeConfig) -> std::io::Result<(Running, tokio::task::JoinHandle<()>)> {
    let store = Store::open(&config.data, config.sync)?;
    let listener = TcpListener::bind(config.address).await?;
    let address = listener.local_addr()?;
    let offers = config.games.iter().map(|r| offer(r)).collect();
    let workers = config.workers.max(1);
    let mut senders = Vec::new();
    let mut receivers = Vec::new();
    for _ in 0..workers {
        let (tx, rx) = std_mpsc::channel();
        senders.push(tx);
        receivers.push(rx);
    }
    let shared = Arc::new(Shared {
        lobby: Mutex::new(Lobby { next_table: store.highest_id() + 1, tables: BTreeMap::new() }),
        store,
        offers,
        workers: senders,
        next_conn: AtomicU64::new(1),
        connections: AtomicUsize::new(0),
        rulesets: Mutex::new(HashMap::new()),
        config,
    });
    for (index, rx) in receivers.into_iter().enumerate() {
        let shared = shared.clone();
        std::thread::Builder::new().name(format!("meeple-tables-{index}")).spawn(move || worker(shared, rx))?;
    }
    let (resumed, unreadable) = resume_tables(&shared);
    let stop = Arc::new(Notify::new());
    let stopped = stop.clone();
    let serving = tokio::spawn(async move {
        loop {
            tokio::select! {
                _ = stopped.notified() => break,
                accepted = listener.accept() => {
                    let Ok((stream, _)) = accepted else { continue };
                    let shared = shared.clone();
                    tokio::spawn(connection(shared, stream));
                }
            }
        }
    });
    Ok((Running { address, resumed, unreadable, stop }, serving))
}

/// Reads every table log and hands each table to its worker.
fn resume_tables(shared: &Arc<Shared>) -> (usize, Vec<String>) {
    let mut resumed = 0;
    let mut unreadable = Vec::new();
    for read in shared.store.tables() {
        let (id, records, log) = match read {
            Ok(read) => read,
            Err(why) => {
                unreadable.push(why);
                continue;
            }
        };
        let Some(Record::Created { request, grace_seconds, .. }) = records.first() else { continue };
        let made = shared
            .rules_for(&request.game, &request.options)
            .and_then(|rules| Table::new(id, request.clone(), rules, *grace_seconds).map_err(|(_, m)| m));
        match made {
            Ok(mut table) => {
                table.keep_log(log);
                shared.lobby().tables.insert(id, table.summary());
                let _ = shared.worker_of(id).send(Work::Resume { table: Box::new(table), records });
                resumed += 1;
            }
            Err(why) => unreadable.push(format!("table {id}: {why}")),
        }
    }
    (resumed, unreadable)
}

/// A worker thread: the tables whose number falls to it, their engines, their clocks.
fn worker(shared: Arc<Shared>, work: std_mpsc::Receiver<Work>) {
    let mut engines: HashMap<usize, Engine> = HashMap::new();
    let mut tables: HashMap<TableId, Table> = HashMap::new();
    let mut connections: HashMap<ConnId, Connection> = HashMap::new();
    let mut computers: VecDeque<TableId> = VecDeque::new();
    let mut stalled: HashSet<TableId> = HashSet::new();
    let mut out: Outbox = Vec::new();
    loop {
        let now = Instant::now();
        let next = if computers.is_empty() {
            tables.values().filter_map(Table::next_deadline).min().map(|d| d.saturating_duration_since(now))
        } else {
            Some(Duration::ZERO)
        };
        let received = match next {
            Some(wait) => match work.recv_timeout(wait) {
                Ok(w) => Some(w),
                Err(std_mpsc::RecvTimeoutError::Timeout) => None,
                Err(std_mpsc::RecvTimeoutError::Disconnected) => return,
            },
            None => match work.recv() {
                Ok(w) => Some(w),
                Err(_) => return,
            },
        };
        let mut batch: Vec<Work> = received.into_iter().collect();
        while batch.len() < 64
            && let Ok(w) = work.try_recv()
        {
            batch.push(w);
        }
        let now = Instant::now();
        let mut touched: HashSet<TableId> = HashSet::new();
        for w in batch {
            handle_work(&shared, w, &mut engines, &mut tables, &mut connections, now, &mut out, &mut touched);
        }
        // Clocks and grace periods.
        let due: Vec<TableId> =
            tables.iter().filter(|(_, t)| t.next_deadline().is_some_and(|d| d <= now)).map(|(id, _)| *id).collect();
        for id in due {
            let table = tables.get_mut(&id).expect("listed");
            if table.ended_at.is_some_and(|t| now >= t + super::table::ENDED_TABLE_KEPT) {
                tables.remove(&id);
                shared.lobby().tables.remove(&id);
                continue;
            }
            let engine = engine_for(&mut engines, table.rules());
            if let Err(why) = table.tick(engine, now, &mut out) {
                eprintln!("table {id}: {why}");
            }
            touched.insert(id);
        }
        // One computer move per table waiting for one, round the tables, so a long computer
        // turn at one table never holds up the others.
        for id in std::mem::take(&mut computers) {
            let Some(table) = tables.get_mut(&id) else { continue };
            let engine = engine_for(&mut engines, table.rules());
            if let Err(why) = table.computer_step(engine, now, &mut out) {
                eprintln!("table {id}: the computer cannot move: {why}");
                stalled.insert(id);
            }
            touched.insert(id);
        }
        for id in touched {
            let Some(table) = tables.get_mut(&id) else { continue };
            if table.computer_to_act().is_some() && !stalled.contains(&id) {
                computers.push_back(id);
            }
            finish_if_over(&shared, table);
            if let Some(summary) = table.changed_summary() {
                shared.lobby().tables.insert(id, summary);
            }
        }
        deliver(&mut out, &connections);
    }
}

/// Moves an ended game's log to `finished/` with its save, once.
fn finish_if_over(shared: &Shared, table: &mut Table) {
    if table.stage() == super::protocol::Stage::Over
        && table.take_log().is_some()
        && let Some(save) = table.save_file()
        && let Err(why) = shared.store.finish(table.id, &save)
    {
        eprintln!("table {}: the finished game could not be filed: {why}", table.id);
    }
}

/// The worker's engine for a ruleset (one per loaded ruleset, made at its first table).
fn engine_for<'a>(engines: &'a mut HashMap<usize, Engine>, rules: &Arc<Ruleset>) -> &'a mut Engine {
    let key = Arc::as_ptr(rules) as usize;
    engines.entry(key).or_insert_with(|| Engine::new(rules.clone()).expect("a checked ruleset makes an engine"))
}

#[allow(clippy::too_many_arguments)]
fn handle_work(
    shared: &Shared,
    work: Work,
    engines: &mut HashMap<usize, Engine>,
    tables: &mut HashMap<TableId, Table>,
    connections: &mut HashMap<ConnId, Connection>,
    now: Instant,
    out: &mut Outbox,
    touched: &mut HashSet<TableId>,
) {
    let error = |conn: ConnId, (code, message): (ErrorCode, String), out: &mut Outbox| {
        out.push((conn, message_text(&ServerMessage::Error { code, message })));
    };
    match work {
        Work::Create { table, conn } => {
            let id = table.id;
            // The creator is told the table's number; it is not at the table until it joins.
            if conn.outbox.try_send(message_text(&ServerMessage::Table { table: table.summary() })).is_err() {
                conn.close.notify_one();
            }
            tables.insert(id, *table);
            touched.insert(id);
        }
        Work::Resume { mut table, records } => {
            let id = table.id;
            let engine = engine_for(engines, table.rules());
            match table.resume(engine, &records, now) {
                Ok(()) => {
                    tables.insert(id, *table);
                    touched.insert(id);
                }
                Err(why) => {
                    eprintln!("table {id} cannot be resumed: {why}");
                    shared.lobby().tables.remove(&id);
                }
            }
        }
        Work::Gone { table, conn, got_up } => {
            if let Some(t) = tables.get_mut(&table) {
                if let Err(why) = t.remove_member(conn, got_up, now, out) {
                    eprintln!("table {table}: {why}");
                }
                touched.insert(table);
            }
            if !tables.values().any(|t| t.is_member(conn)) {
                connections.remove(&conn);
            }
        }
        Work::Table { table: id, conn, ask } => {
            let conn_id = conn.id;
            let Some(table) = tables.get_mut(&id) else {
                return error(conn_id, (ErrorCode::NoTable, format!("there is no table {id}")), out);
            };
            connections.insert(conn_id, conn);
            let engine = engine_for(engines, table.rules());
            let done = match &ask {
                ClientMessage::Join { seat, name, .. } => table.join(conn_id, *seat, name, out),
                ClientMessage::Rejoin { token, .. } => table.rejoin(engine, conn_id, token, now, out),
                ClientMessage::Confirm { .. } => table.confirm(engine, conn_id, now, out),
                ClientMessage::Watch { .. } => table.watch(engine, conn_id, now, out),
                ClientMessage::Act { step, action, .. } => table.act(engine, conn_id, *step, action, now, out),
                ClientMessage::Surrender { .. } => table.surrender(engine, conn_id, now, out),
                _ => Ok(()),
            };
            if let Err(refusal) = done {
                error(conn_id, refusal, out);
                if !table.is_member(conn_id)
                    && let Some(conn) = connections.get(&conn_id)
                {
                    conn.refused_at.lock().unwrap_or_else(|e| e.into_inner()).push(id);
                }
            }
            if !table.is_member(conn_id) && !tables.values().any(|t| t.is_member(conn_id)) {
                // A refused join: the worker keeps no handle for a connection at none of its
                // tables (the handle keeps the connection's writer open), once it is told why.
                deliver(out, connections);
                connections.remove(&conn_id);
            }
            touched.insert(id);
        }
    }
}

/// Sends what the outbox holds; a connection whose outbox is full is told to close.
fn deliver(out: &mut Outbox, connections: &HashMap<ConnId, Connection>) {
    for (conn, text) in out.drain(..) {
        if let Some(connection) = connections.get(&conn)
            && connection.outbox.try_send(text).is_err()
        {
            connection.close.notify_one();
        }
    }
}

/// A token bucket: `rate` messages a second on average, `burst` at once.
struct RateLimit {
    tokens: f64,
    last: Instant,
    rate: f64,
    burst: f64,
}

impl RateLimit {
    fn allow(&mut self, now: Instant) -> bool {
        self.tokens = (self.tokens + now.duration_since(self.last).as_secs_f64() * self.rate).min(self.burst);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// One client's connection: the WebSocket handshake, then messages until it closes.
async fn connection(shared: Arc<Shared>, stream: TcpStream) {
    let limits = shared.config.limits.clone();
    if shared.connections.fetch_add(1, Ordering::SeqCst) >= limits.connections {
        shared.connections.fetch_sub(1, Ordering::SeqCst);
        return;
    }
    let _ = stream.set_nodelay(true);
    // Small buffers: a client's messages are small, and the defaults (128 KiB each way per
    // connection) would make the connections most of a table's memory.
    let config = WebSocketConfig::default()
        .read_buffer_size(8 * 1024)
        .write_buffer_size(0)
        .max_message_size(Some(MAX_CLIENT_MESSAGE_BYTES + 1024))
        .max_frame_size(Some(MAX_CLIENT_MESSAGE_BYTES + 1024));
    let handshake = tokio::time::timeout(
        Duration::from_secs(10),
        tokio_tungstenite::accept_async_with_config(stream, Some(config)),
    )
    .await;
    let Ok(Ok(socket)) = handshake else {
        shared.connections.fetch_sub(1, Ordering::SeqCst);
        return;
    };
    let (mut sink, mut source) = socket.split();
    let (outbox, mut outgoing) = mpsc::channel::<Arc<str>>(limits.outbox);
    let close = Arc::new(Notify::new());
    let conn = Connection {
        id: shared.next_conn.fetch_add(1, Ordering::SeqCst),
        outbox,
        close: close.clone(),
        refused_at: Default::default(),
    };
    let writer = tokio::spawn(async move {
        while let Some(text) = outgoing.recv().await {
            if sink.send(Message::text(text.to_string())).await.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
    });
    let mut session = ClientSession {
        conn: conn.clone(),
        greeted: false,
        tables: HashSet::new(),
        created: 0,
        limit: RateLimit {
            tokens: limits.burst,
            last: Instant::now(),
            rate: limits.messages_per_second,
            burst: limits.burst,
        },
    };
    loop {
        let frame = tokio::select! {
            _ = close.notified() => break,
            frame = source.next() => frame,
        };
        let bytes = match frame {
            Some(Ok(Message::Text(text))) => text.as_str().as_bytes().to_vec(),
            Some(Ok(Message::Binary(bytes))) => bytes.to_vec(),
            Some(Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_))) => continue,
            Some(Ok(Message::Close(_))) | None => break,
            Some(Err(error)) => {
                // Too large a frame, a broken frame: say why where the socket still takes it.
                let _ = conn.outbox.try_send(message_text(&ServerMessage::Error {
                    code: ErrorCode::Protocol,
                    message: format!("the connection is closed: {error}"),
                }));
                break;
            }
        };
        if !session.handle(&shared, &bytes) {
            break;
        }
    }
    for table in &session.tables {
        let _ = shared.worker_of(*table).send(Work::Gone { table: *table, conn: conn.id, got_up: false });
    }
    drop(session);
    drop(conn);
    // The writer ends when every handle to the outbox is gone (the workers drop theirs when
    // told the connection is gone); it sends what is queued first, such as a last error.
    let _ = tokio::time::timeout(Duration::from_secs(5), writer).await;
    shared.connections.fetch_sub(1, Ordering::SeqCst);
}

/// What the server knows of one connection.
struct ClientSession {
    conn: Connection,
    greeted: bool,
    /// Tables this connection sits at or watches.
    tables: HashSet<TableId>,
    created: usize,
    limit: RateLimit,
}

impl ClientSession {
    fn send(&self, message: &ServerMessage) {
        if self.conn.outbox.try_send(message_text(message)).is_err() {
            self.conn.close.notify_one();
        }
    }

    fn refuse(&self, code: ErrorCode, message: impl Into<String>) {
        self.send(&ServerMessage::Error { code, message: message.into() });
    }

    /// Handles one message; false when the connection must close.
    fn handle(&mut self, shared: &Shared, bytes: &[u8]) -> bool {
        for table in std::mem::take(&mut *self.conn.refused_at.lock().unwrap_or_else(|e| e.into_inner())) {
            self.tables.remove(&table);
        }
        if !self.limit.allow(Instant::now()) {
            self.refuse(
                ErrorCode::Limit,
                format!(
                    "more than {} messages a second: this one was dropped",
                    shared.config.limits.messages_per_second
                ),
            );
            return true;
        }
        let message = match decode_client_message(bytes) {
            Ok(message) => message,
            Err(why) => {
                self.refuse(ErrorCode::Protocol, format!("{why}; the connection is closed"));
                return false;
            }
        };
        if !self.greeted {
            return match message {
                ClientMessage::Hello { protocol, .. } if protocol == PROTOCOL_VERSION => {
                    self.greeted = true;
                    self.send(&ServerMessage::Welcome {
                        protocol: PROTOCOL_VERSION,
                        server: format!("meeple {}", env!("CARGO_PKG_VERSION")),
                        games: shared.offers.clone(),
                    });
                    true
                }
                ClientMessage::Hello { protocol, .. } => {
                    self.refuse(
                        ErrorCode::Version,
                        format!(
                            "this server speaks protocol {PROTOCOL_VERSION}, not {protocol}; the connection is closed"
                        ),
                    );
                    false
                }
                _ => {
                    self.refuse(ErrorCode::Protocol, "the first message is `hello`; the connection is closed");
                    false
                }
            };
        }
        match message {
            ClientMessage::Hello { .. } => self.refuse(ErrorCode::Protocol, "`hello` comes once"),
            ClientMessage::ListTables {} => {
                let tables = shared
                    .lobby
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .tables
                    .values()
                    .rev()
                    .take(500)
                    .cloned()
                    .collect();
                self.send(&ServerMessage::Tables { tables });
            }
            ClientMessage::CreateTable(request) => self.create(shared, request),
            ClientMessage::Replay { table } => {
                let save = shared.store.finished_save(table).and_then(|bytes| {
                    serde_json::from_slice(&bytes).map_err(|e| format!("table {table}'s save does not read: {e}"))
                });
                match save {
                    Ok(save) => self.send(&ServerMessage::Replay { table, save }),
                    Err(why) => self.refuse(ErrorCode::NoTable, why),
                }
            }
            ClientMessage::LeaveTable { table } => {
                if self.tables.remove(&table) {
                    let _ = shared.worker_of(table).send(Work::Gone { table, conn: self.conn.id, got_up: true });
                } else {
                    self.refuse(ErrorCode::NoTable, format!("this connection is not at table {table}"));
                }
            }
            ask @ (ClientMessage::Join { table, .. }
            | ClientMessage::Rejoin { table, .. }
            | ClientMessage::Watch { table }
            | ClientMessage::Confirm { table }
            | ClientMessage::Act { table, .. }
            | ClientMessage::Surrender { table }) => {
                let joining = matches!(
                    ask,
                    ClientMessage::Join { .. } | ClientMessage::Rejoin { .. } | ClientMessage::Watch { .. }
                );
                if joining && !self.tables.contains(&table) {
                    if self.tables.len() >= shared.config.limits.memberships_per_connection {
                        self.refuse(ErrorCode::Limit, "this connection is at too many tables");
                        return true;
                    }
                    if !shared.lobby().tables.contains_key(&table) {
                        self.refuse(ErrorCode::NoTable, format!("there is no table {table}"));
                        return true;
                    }
                    self.tables.insert(table);
                } else if !joining && !self.tables.contains(&table) {
                    self.refuse(
                        ErrorCode::NoTable,
                        format!("this connection is not at table {table}: join or watch it first"),
                    );
                    return true;
                }
                let _ = shared.worker_of(table).send(Work::Table { table, conn: self.conn.clone(), ask });
            }
        }
        true
    }

    fn create(&mut self, shared: &Shared, request: TableRequest) {
        if self.created >= shared.config.limits.tables_per_connection {
            return self.refuse(ErrorCode::Limit, "this connection has made as many tables as it may");
        }
        let rules = match shared.rules_for(&request.game, &request.options) {
            Ok(rules) => rules,
            Err(why) => return self.refuse(ErrorCode::BadTable, why),
        };
        let id = {
            let mut lobby = shared.lobby();
            let in_play = lobby.tables.values().filter(|t| t.stage != super::protocol::Stage::Over).count();
            if in_play >= shared.config.limits.tables {
                drop(lobby);
                return self.refuse(ErrorCode::Limit, "the server holds as many tables as it may");
            }
            lobby.next_table += 1;
            lobby.next_table - 1
        };
        let mut table = match Table::new(id, request, rules, shared.config.grace_seconds) {
            Ok(table) => table,
            Err((code, why)) => return self.refuse(code, why),
        };
        match shared.store.create(id, &table.created_record()) {
            Ok(log) => table.keep_log(log),
            Err(why) => return self.refuse(ErrorCode::Limit, format!("the server cannot keep a new table: {why}")),
        }
        self.created += 1;
        shared.lobby().tables.insert(id, table.summary());
        let _ = shared.worker_of(id).send(Work::Create { table: Box::new(table), conn: self.conn.clone() });
    }
}
