//! What the server keeps on disk so a table outlives the process: one log per table,
//! `tables/<id>.jsonl`, a line per thing that happened to it (created, a seat taken or freed,
//! confirmed, the game started with its setup, each action). A line is appended in one write
//! and, under [`Sync::Every`], flushed to the disk before anyone hears of it; a line cut short
//! by a kill was never announced, so reading drops it. Reading the log again and replaying the
//! actions is the table exactly as it was (the engine is deterministic).
//!
//! A table whose game ended moves to `finished/`: its log, and a save file (`<id>.json`) the
//! window opens as a replay.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use meeple_engine::game::{ActionRecord, GameSetup};
use serde::{Deserialize, Serialize};

use super::protocol::{TableId, TableRequest};

/// How hard the server tries to keep each line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Sync {
    /// Each line reaches the disk (`fdatasync`) before the step is announced: nothing
    /// announced is lost even when the machine stops.
    Every,
    /// Each line is handed to the operating system before the step is announced: nothing is
    /// lost when the server process is killed; a machine that loses power may lose the last
    /// steps (never part of one).
    Os,
}

/// One line of a table's log.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "record", rename_all = "snake_case")]
pub enum Record {
    /// The first line: the table as asked, its seed drawn.
    Created {
        id: TableId,
        request: TableRequest,
        mod_version: String,
        grace_seconds: u32,
    },
    /// A person took a seat (1-based) with this token.
    Seated {
        seat: u8,
        name: String,
        token: String,
    },
    /// A seat was given back before the game.
    Freed {
        seat: u8,
    },
    Confirmed {
        seat: u8,
    },
    /// The game began with this setup.
    Started {
        setup: GameSetup,
    },
    /// An action, with its seat (1-based).
    Action {
        action: ActionRecord,
    },
    /// The computer plays a seat for its absent person (`on`), or stops when the person is back.
    StandIn {
        seat: u8,
        on: bool,
    },
}

/// The server's folder: `tables/` for tables in play, `finished/` for ended ones.
#[derive(Clone, Debug)]
pub struct Store {
    root: PathBuf,
    sync: Sync,
}

/// A table's open log.
#[derive(Debug)]
pub struct TableLog {
    file: File,
    path: PathBuf,
    sync: Sync,
}

impl Store {
    pub fn open(root: &Path, sync: Sync) -> std::io::Result<Self> {
        std::fs::create_dir_all(root.join("tables"))?;
        std::fs::create_dir_all(root.join("finished"))?;
        Ok(Self { root: root.to_path_buf(), sync })
    }

    fn log_path(&self, id: TableId) -> PathBuf {
        self.root.join("tables").join(format!("{id}.jsonl"))
    }

    /// Starts a new table's log with its first line.
    pub fn create(&self, id: TableId, first: &Record) -> std::io::Result<TableLog> {
        let path = self.log_path(id);
        let file = OpenOptions::new().create_new(true).append(true).open(&path)?;
        let mut log = TableLog { file, path, sync: self.sync };
        log.append(first)?;
        meeple_engine::save::sync_folder(&self.root.join("tables"))?;
        Ok(log)
    }

    /// Every table log in `tables/`, read: (id, lines, the log reopened for appending), or why
    /// one could not be read.
    pub fn tables(&self) -> Vec<Result<(TableId, Vec<Record>, TableLog), String>> {
        let Ok(entries) = std::fs::read_dir(self.root.join("tables")) else { return Vec::new() };
        let mut ids: Vec<TableId> =
            entries.flatten().filter_map(|e| e.file_name().to_str()?.strip_suffix(".jsonl")?.parse().ok()).collect();
        ids.sort_unstable();
        ids.into_iter().map(|id| self.read_table(id).map(|(records, log)| (id, records, log))).collect()
    }

    fn read_table(&self, id: TableId) -> Result<(Vec<Record>, TableLog), String> {
        let path = self.log_path(id);
        let shown = path.display().to_string();
        let bytes = meeple_engine::files::read_capped(&path, MAX_LOG_BYTES, meeple_engine::files::Links::Refuse)
            .map_err(|e| format!("{shown}: {e}"))?;
        let (records, whole) = parse_log(&bytes).map_err(|e| format!("{shown}: {e}"))?;
        let file = OpenOptions::new().append(true).open(&path).map_err(|e| format!("{shown}: {e}"))?;
        // A line cut short by a kill was never announced: cut it off, so the next line starts clean.
        if whole < bytes.len() {
            file.set_len(whole as u64).map_err(|e| format!("{shown}: {e}"))?;
        }
        Ok((records, TableLog { file, path, sync: self.sync }))
    }

    /// The highest table number any log here has used (0 when none): new tables count on from it.
    pub fn highest_id(&self) -> TableId {
        ["tables", "finished"]
            .iter()
            .filter_map(|folder| std::fs::read_dir(self.root.join(folder)).ok())
            .flat_map(|entries| entries.flatten())
            .filter_map(|e| e.file_name().to_str()?.split('.').next()?.parse::<TableId>().ok())
            .max()
            .unwrap_or(0)
    }

    /// Moves an ended table's log to `finished/` with its save file beside it.
    /// The save file of an ended table, as written when it ended.
    pub fn finished_save(&self, id: TableId) -> Result<Vec<u8>, String> {
        let path = self.root.join("finished").join(format!("{id}.json"));
        meeple_engine::files::read_capped(
            &path,
            meeple_engine::save::MAX_SAVE_BYTES,
            meeple_engine::files::Links::Refuse,
        )
        .map_err(|_| format!("table {id} has no finished game to replay"))
    }

    pub fn finish(&self, id: TableId, save: &meeple_engine::save::SaveFile) -> std::io::Result<()> {
        let finished = self.root.join("finished");
        let bytes = serde_json::to_vec_pretty(save).map_err(std::io::Error::other)?;
        meeple_engine::save::write_atomically(&finished.join(format!("{id}.json")), &bytes)?;
        std::fs::rename(self.log_path(id), finished.join(format!("{id}.jsonl")))?;
        meeple_engine::save::sync_folder(&self.root.join("tables"))
    }
}

/// The largest table log read back: a long game is a few thousand lines of under 200 bytes.
pub const MAX_LOG_BYTES: u64 = 64 << 20;

/// The records of a log and how many of its bytes are whole lines. Only the last line may be
/// cut short (a kill during its write); any other unreadable line is damage, and the log is
/// refused rather than resumed as something else.
pub fn parse_log(bytes: &[u8]) -> Result<(Vec<Record>, usize), String> {
    let mut records = Vec::new();
    let mut whole = 0;
    let mut rest = bytes;
    let mut number = 0;
    while !rest.is_empty() {
        number += 1;
        let Some(end) = rest.iter().position(|&b| b == b'\n') else {
            // The last line, never finished: it was not announced.
            break;
        };
        let line = &rest[..end];
        let record: Record = serde_json::from_slice(line).map_err(|e| format!("line {number} is damaged: {e}"))?;
        records.push(record);
        whole += end + 1;
        rest = &rest[end + 1..];
    }
    match records.first() {
        Some(Record::Created { .. }) => Ok((records, whole)),
        _ => Err("it does not begin with the table's creation".into()),
    }
}

impl TableLog {
    /// Appends one line, in one write, flushed as the store's [`Sync`] says.
    pub fn append(&mut self, record: &Record) -> std::io::Result<()> {
        let mut line = serde_json::to_vec(record).map_err(std::io::Error::other)?;
        line.push(b'\n');
        self.file.write_all(&line)?;
        if self.sync == Sync::Every {
            self.file.sync_data()?;
        }
        Ok(())
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn created() -> Record {
        Record::Created {
            id: 1,
            request: TableRequest {
                game: "g".into(),
                options: Default::default(),
                seats: vec![Default::default(); 2],
                seed: Some(5),
                turn_seconds: None,
                grace_seconds: None,
            },
            mod_version: "1.0.0".into(),
            grace_seconds: 60,
        }
    }

    #[test]
    fn a_line_cut_short_is_dropped_and_a_damaged_one_refuses_the_log() {
        let mut text = serde_json::to_string(&created()).unwrap();
        text.push('\n');
        text.push_str(r#"{"record":"confirmed","seat":1}"#);
        text.push('\n');
        let whole_len = text.len();
        text.push_str(r#"{"record":"confirmed","se"#);
        let (records, whole) = parse_log(text.as_bytes()).unwrap();
        assert_eq!(records.len(), 2);
        assert_eq!(whole, whole_len);
        assert!(matches!(records[1], Record::Confirmed { seat: 1 }));

        let damaged = text[..whole_len].replace(r#""seat":1"#, r#""seat":"#);
        assert!(parse_log(damaged.as_bytes()).unwrap_err().contains("line 2 is damaged"));
        assert!(parse_log(b"{\"record\":\"freed\",\"seat\":1}\n").is_err());
    }

    #[test]
    fn a_log_reads_back_after_a_torn_write_and_appends_after_the_whole_lines() {
        let folder = std::env::temp_dir().join(format!("meeple-store-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&folder);
        let store = Store::open(&folder, Sync::Os).unwrap();
        let mut log = store.create(4, &created()).unwrap();
        log.append(&Record::Confirmed { seat: 2 }).unwrap();
        std::fs::OpenOptions::new().append(true).open(log.path()).unwrap().write_all(b"{\"rec").unwrap();
        drop(log);
        let mut tables = store.tables();
        let (id, records, mut log) = tables.pop().unwrap().unwrap();
        assert_eq!((id, records.len()), (4, 2));
        log.append(&Record::Confirmed { seat: 1 }).unwrap();
        let (records, _) = parse_log(&std::fs::read(log.path()).unwrap()).unwrap();
        assert!(matches!(records.last(), Some(Record::Confirmed { seat: 1 })));
        assert_eq!(store.highest_id(), 4);
        std::fs::remove_dir_all(&folder).unwrap();
    }
}
