//! `meeple serve` and `meeple bots`: the online server, and many scripted clients to load it.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use meeple::online::bots::{self, BotsConfig};
use meeple::online::server::{Limits, ServeConfig, start};
use meeple::online::store::Sync;

#[derive(clap::Args)]
pub struct ServeArgs {
    /// The address and port to listen on (port 0: any free port, printed at start).
    #[arg(long, default_value = "127.0.0.1:7878")]
    pub address: SocketAddr,
    /// The games to offer, by id or folder; every bundled and user mod when none is named.
    pub mods: Vec<String>,
    /// Where tables are kept: `tables/` in play (resumed at start), `finished/` ended.
    #[arg(long, default_value = "meeple-server")]
    pub data: PathBuf,
    /// Worker threads for the tables (default: the machine's cores).
    #[arg(long)]
    pub workers: Option<usize>,
    /// `every`: each step reaches the disk before it is announced; `os`: handed to the
    /// system (survives a killed server, not a lost machine).
    #[arg(long, value_enum, default_value = "every")]
    pub sync: Sync,
    /// Seconds a dropped seat is held for its person, unless its table says otherwise.
    #[arg(long, default_value_t = 120)]
    pub grace: u32,
    /// Connections open at once.
    #[arg(long, default_value_t = Limits::default().connections)]
    pub max_connections: usize,
    /// Tables in play at once.
    #[arg(long, default_value_t = Limits::default().tables)]
    pub max_tables: usize,
    /// Messages a client may send a second, on average.
    #[arg(long, default_value_t = Limits::default().messages_per_second)]
    pub rate: f64,
}

pub fn run(args: ServeArgs) -> Result<std::process::ExitCode, String> {
    let mut games = Vec::new();
    if args.mods.is_empty() {
        for entry in meeple::player::catalog::discover() {
            match entry.rules {
                Some(rules) => games.push(rules),
                None => {
                    eprintln!("{} is not offered: it does not load (meeple check tells why)", entry.folder.display())
                }
            }
        }
    } else {
        for name in &args.mods {
            games.push(super::load(name)?);
        }
    }
    let workers = args.workers.unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
    let config = ServeConfig {
        address: args.address,
        data: args.data.clone(),
        games,
        limits: Limits {
            connections: args.max_connections,
            tables: args.max_tables,
            messages_per_second: args.rate,
            burst: (args.rate * 3.0).max(1.0),
            ..Limits::default()
        },
        workers,
        sync: args.sync,
        grace_seconds: args.grace,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| e.to_string())?;
    runtime.block_on(async move {
        let offered: Vec<String> = config.games.iter().map(|r| r.manifest.id.clone()).collect();
        let (running, serving) = start(config).await.map_err(|e| format!("cannot serve on {}: {e}", args.address))?;
        for why in &running.unreadable {
            eprintln!("not resumed: {why}");
        }
        out!("meeple serve: listening on ws://{}", running.address);
        out!("games: {}; tables resumed: {}; data in {}", offered.join(", "), running.resumed, args.data.display());
        let _ = serving.await;
        Ok(std::process::ExitCode::SUCCESS)
    })
}

#[derive(clap::Args)]
pub struct BotsArgs {
    /// The game the bots play, by id.
    pub game: String,
    /// The server (`ws://host:port`); without it, a server is started for the run (a child
    /// `meeple serve` on a free port, with a data folder of its own) and its CPU time and
    /// memory are reported.
    #[arg(long)]
    pub server: Option<String>,
    /// Tables played at once.
    #[arg(long, default_value_t = 10)]
    pub tables: usize,
    /// Seats per table, each a bot.
    #[arg(long, default_value_t = 4)]
    pub seats: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A bot's pause before each action, in milliseconds.
    #[arg(long, default_value_t = 100)]
    pub think_ms: u64,
    /// Stop after this many seconds, finished or not.
    #[arg(long, default_value_t = 120)]
    pub seconds: u64,
    /// New tables a second.
    #[arg(long, default_value_t = 50.0)]
    pub arrivals: f64,
    /// `--sync` of the server started for the run.
    #[arg(long, value_enum, default_value = "every")]
    pub sync: Sync,
}

pub fn bots(args: BotsArgs) -> Result<std::process::ExitCode, String> {
    let mut child = None;
    let url = match &args.server {
        Some(url) => url.clone(),
        None => {
            let (spawned, url) = spawn_server(&args)?;
            child = Some(spawned);
            url
        }
    };
    let pid = child.as_ref().map(|c: &ServerChild| c.process.id());
    let before = pid.and_then(process_figures);
    let config = BotsConfig {
        url: url.clone(),
        game: args.game.clone(),
        tables: args.tables,
        seats: args.seats,
        seed: args.seed,
        think: Duration::from_millis(args.think_ms),
        time_limit: Duration::from_secs(args.seconds),
        tables_per_second: args.arrivals,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| e.to_string())?;
    // The server's memory with every table open: sampled while they play.
    let peak = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let report = runtime.block_on(async {
        let sampler = pid.map(|pid| {
            let peak = peak.clone();
            tokio::spawn(async move {
                loop {
                    if let Some(figures) = process_figures(pid) {
                        peak.fetch_max(figures.rss_kib, std::sync::atomic::Ordering::Relaxed);
                    }
                    tokio::time::sleep(Duration::from_millis(250)).await;
                }
            })
        });
        let report = bots::run(config).await;
        if let Some(sampler) = sampler {
            sampler.abort();
        }
        report
    });
    let after = pid.and_then(process_figures);
    out!(
        "meeple bots: {} at {url}, {} tables of {} seats, think {} ms",
        args.game,
        args.tables,
        args.seats,
        args.think_ms
    );
    out!(
        "tables started {}, games finished {}, most tables playing at once {}",
        report.tables_started,
        report.games_finished,
        report.most_tables_at_once
    );
    let seconds = report.elapsed.as_secs_f64();
    out!("actions {} in {seconds:.1} s: {:.0} actions/s", report.actions, report.actions as f64 / seconds.max(1e-9));
    out!(
        "round trip per action: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms ({} measured)",
        report.percentile(0.5).as_secs_f64() * 1000.0,
        report.percentile(0.99).as_secs_f64() * 1000.0,
        report.percentile(1.0).as_secs_f64() * 1000.0,
        report.round_trips_us.len()
    );
    if let (Some(before), Some(after)) = (before, after) {
        let cpu = after.cpu_seconds - before.cpu_seconds;
        let peak = peak.load(std::sync::atomic::Ordering::Relaxed).max(after.rss_kib);
        out!(
            "server: CPU {cpu:.1} s ({:.0} µs per action), memory {:.1} MiB before, {:.1} MiB at most: {:.0} KiB per table",
            cpu * 1e6 / (report.actions.max(1) as f64),
            before.rss_kib as f64 / 1024.0,
            peak as f64 / 1024.0,
            (peak.saturating_sub(before.rss_kib)) as f64 / (report.most_tables_at_once.max(1) as f64)
        );
    }
    out!("errors {}", report.errors);
    for why in &report.first_errors {
        out!("  {why}");
    }
    drop(child);
    if report.errors > 0 { Err(format!("{} errors", report.errors)) } else { Ok(std::process::ExitCode::SUCCESS) }
}

/// A `meeple serve` started for a run, stopped when dropped.
struct ServerChild {
    process: std::process::Child,
    data: PathBuf,
}

impl Drop for ServerChild {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
        let _ = std::fs::remove_dir_all(&self.data);
    }
}

fn spawn_server(args: &BotsArgs) -> Result<(ServerChild, String), String> {
    use std::io::BufRead;
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let data = std::env::temp_dir().join(format!("meeple-bots-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let sync = match args.sync {
        Sync::Every => "every",
        Sync::Os => "os",
    };
    let mut process = std::process::Command::new(exe)
        .args(["serve", "--address", "127.0.0.1:0", "--sync", sync, "--rate", "1000"])
        .arg("--max-tables")
        .arg((args.tables + 10).to_string())
        .arg("--max-connections")
        .arg((args.tables * args.seats + 100).to_string())
        .arg("--data")
        .arg(&data)
        .arg(&args.game)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start the server: {e}"))?;
    let stdout = process.stdout.take().ok_or("no server output")?;
    let child = ServerChild { process, data };
    let mut lines = std::io::BufReader::new(stdout).lines();
    let url = lines
        .by_ref()
        .map_while(Result::ok)
        .find_map(|line| line.split("listening on ").nth(1).map(str::to_string))
        .ok_or("the server did not start")?;
    // Keep reading its output so it never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    Ok((child, url))
}

/// A process's CPU time and resident memory, from /proc (Linux).
#[derive(Clone, Copy)]
struct ProcessFigures {
    cpu_seconds: f64,
    rss_kib: u64,
}

fn process_figures(pid: u32) -> Option<ProcessFigures> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields: Vec<&str> = stat.rsplit(')').next()?.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let rss_kib = status.lines().find(|l| l.starts_with("VmRSS:"))?.split_whitespace().nth(1)?.parse().ok()?;
    Some(ProcessFigures { cpu_seconds: ticks / 100.0, rss_kib })
}
