//! The online protocol: the messages a client and `meeple serve` exchange over a WebSocket, one
//! JSON object per text frame, tagged by `type`. Versioned ([`PROTOCOL_VERSION`]), documented in
//! `docs/online.md`, with a JSON Schema in `schemas/protocol.schema.json` generated from these
//! types.
//!
//! The server is the authority: a client says what its person chose (`act`) and receives the
//! game as its seat may see it (`game`). Nothing in a `game` message is more than the seat's
//! view ([`GameState::view_for`], [`Event::seen_by`]): no other seat's hidden card, number or
//! sealed answer, and no hash of the whole game (a hash of a state with few possible hidden
//! cards would give them away to a client that tries them all).

use meeple_engine::game::ActionRecord;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The protocol's version. A server refuses a `hello` of another version with
/// [`ErrorCode::Version`]; a change that an older client could misread raises it.
pub const PROTOCOL_VERSION: u32 = 1;

/// The largest message a client may send, in bytes. An action, a table's setup or a name is a
/// few hundred bytes; anything near this is not a Meeple client.
pub const MAX_CLIENT_MESSAGE_BYTES: usize = 16 * 1024;

/// The longest name a person may give a seat, in characters.
pub const MAX_NAME_CHARS: usize = 40;

/// A table's number, unique on one server (and kept across its restarts).
pub type TableId = u64;

/// What a client sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// The first message of a connection: the protocol the client speaks. The server answers
    /// `welcome` (or `error` with code `version`, and closes).
    Hello {
        protocol: u32,
        /// The client's name and version, for the server's log (`meeple 0.1.0`).
        #[serde(default)]
        client: String,
    },
    /// Asks for the tables: the server answers `tables`. (A struct variant, so an unknown field
    /// in it is refused like in any other message.)
    ListTables {},
    /// Opens a new table; the server answers `table` with its number. The creator does not sit
    /// by creating: it joins a seat like anyone else.
    CreateTable(TableRequest),
    /// Takes an open seat (1-based). The server answers `joined` with the seat's token, the
    /// only way to act for the seat or to take it back after a lost connection.
    Join { table: TableId, seat: u8, name: String },
    /// Takes back a seat with its token (from this or any other machine): after a lost
    /// connection, or to play on after the server restarted.
    Rejoin { table: TableId, token: String },
    /// Says the seat is ready. The game starts when every seat for a person is taken and
    /// confirmed.
    Confirm { table: TableId },
    /// Watches a table as a spectator: public information only.
    Watch { table: TableId },
    /// An action of the seat this connection holds at the table, at game step `step` (the
    /// number of actions taken so far, as the last `game` message gave it): an action meant for
    /// an older step is refused, so a click on a stale screen never does something else.
    Act { table: TableId, step: u64, action: ActionRecord },
    /// Leaves the game by the mod's rule (`[seats] allow_leaving`): the seat keeps what it has,
    /// takes no more turns, and still defends. Refused when the mod has no leaving.
    Surrender { table: TableId },
    /// Gets up from the table: before the game, the seat is free again; during it, the seat is
    /// held like a lost connection (see `grace_seconds`). A spectator stops watching.
    LeaveTable { table: TableId },
    /// Asks for an ended table's game from its start; the server answers `replay`.
    Replay { table: TableId },
}

/// A new table: the game, its options, its seats and its clocks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableRequest {
    /// The mod's id, one of the `games` the server's `welcome` lists.
    pub game: String,
    /// The mod's setup options (option id → choice id); the others at their defaults.
    #[serde(default)]
    pub options: std::collections::BTreeMap<String, String>,
    /// The seats, in turn order: a person's seat (`{}`) or a computer (`{ "computer": "medium" }`).
    pub seats: Vec<SeatRequest>,
    /// The game's seed; drawn by the server when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Seconds a person has for each decision; when they run out, the server passes for the
    /// seat (or, when passing is not allowed, plays the medium computer's choice). None: no
    /// clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 86400))]
    pub turn_seconds: Option<u32>,
    /// Seconds a seat whose connection dropped is held for its person; after them, the seat
    /// leaves by the mod's rule (or, in a mod without leaving, the computer plays it until its
    /// person comes back). The server's default when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0, max = 86400))]
    pub grace_seconds: Option<u32>,
}

/// One seat of a new table.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatRequest {
    /// A computer player's level (`easy`, `medium`, `hard`, …) for a seat the server plays;
    /// absent for a person's seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub computer: Option<String>,
    /// In a game of sides (the offer lists them), the side the seat plays, by its id; when
    /// absent, seats take the sides in turn (the first seat the first side, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
}

/// What the server sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// The answer to `hello`: the server's protocol and the games it offers.
    Welcome { protocol: u32, server: String, games: Vec<GameOffer> },
    /// Every table (newest first), as `list_tables` asked.
    Tables { tables: Vec<TableSummary> },
    /// A table as it is now: sent on creating it, and to everyone at it when its seats change.
    Table { table: TableSummary },
    /// A seat taken: keep the token, it is the seat's key.
    Joined { table: TableId, seat: u8, token: String },
    /// The game as the receiver may see it, after each step.
    Game(Box<GameUpdate>),
    /// An ended table's whole game, as a save file (setup, every action, the final state's
    /// hash) that any window replays. Only once the game is over: it tells every hidden card.
    Replay {
        table: TableId,
        #[schemars(with = "serde_json::Map<String, serde_json::Value>")]
        save: serde_json::Value,
    },
    /// Something the client asked was refused; nothing changed. With code `protocol` (a
    /// malformed, oversized or hostile message) the server closes the connection after it.
    Error { code: ErrorCode, message: String },
}

/// Why a message was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Not a message of this protocol: not JSON, too large, an unknown type or field. The
    /// connection is closed.
    Protocol,
    /// Another protocol version.
    Version,
    /// Too many messages, connections or tables.
    Limit,
    /// No such table (or it has ended and is gone).
    NoTable,
    /// The seat is taken, not a person's, or not this connection's.
    Seat,
    /// The token is not the seat's.
    Token,
    /// Not now: the game has not started or has ended, it is another seat's turn, or the
    /// action was meant for another step.
    NotNow,
    /// The action is not one the rules allow (the message says why).
    Refused,
    /// The table could not be made (unknown game, options or levels, a wrong seat count).
    BadTable,
}

/// A game the server offers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct GameOffer {
    pub id: String,
    pub name: String,
    pub version: String,
    pub min_seats: u8,
    pub max_seats: u8,
    /// The mod's setup options, with their choices (the default first).
    pub options: Vec<OptionOffer>,
    /// The computer levels a seat may have.
    pub levels: Vec<String>,
    /// The sides a seat may play, in a game of sides (none otherwise).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sides: Vec<SideOffer>,
}

/// A side of an offered game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SideOffer {
    pub id: String,
    pub label: String,
}

/// A setup option of an offered game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct OptionOffer {
    pub id: String,
    pub label: String,
    pub default: String,
    pub choices: Vec<String>,
}

/// A table as the lobby shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TableSummary {
    pub id: TableId,
    /// The mod's id.
    pub game: String,
    pub options: std::collections::BTreeMap<String, String>,
    pub seats: Vec<SeatSummary>,
    pub stage: Stage,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_seconds: Option<u32>,
    pub grace_seconds: u32,
    /// How many watch.
    pub spectators: u32,
}

/// Where a table is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Seats are being taken and confirmed.
    Gathering,
    Playing,
    Over,
}

/// A seat as others see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SeatSummary {
    /// The person's name, the computer's, or empty while the seat is open.
    pub name: String,
    /// The computer's level, for a seat the server plays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub computer: Option<String>,
    /// The side the seat plays, when the table chose one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// Whether a person holds the seat.
    pub taken: bool,
    pub confirmed: bool,
    /// Whether the seat's person is connected now.
    pub connected: bool,
    /// Whether the computer plays the seat for its absent person (a mod without leaving, past
    /// the grace period).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stand_in: bool,
}

/// The game as the receiver may see it, after a step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct GameUpdate {
    pub table: TableId,
    /// The receiver's seat (1-based); absent for a spectator.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
    /// The number of actions taken so far: an `act` names it.
    pub step: u64,
    /// The board, when the receiver does not have it yet (its first `game` message at the
    /// table) or the rules changed it (a space's terrain); otherwise the one last sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<serde_json::Map<String, serde_json::Value>>")]
    pub board: Option<serde_json::Value>,
    /// The receiver's view of the game state, in the engine's state format (as a save file's
    /// `state`) without its `board`: another seat's hidden cards are unknown, hidden numbers at
    /// their starting values, the random stream not the game's.
    #[schemars(with = "serde_json::Map<String, serde_json::Value>")]
    pub view: serde_json::Value,
    /// What happened since the last step, as the receiver may see it (the engine's events).
    #[schemars(with = "Vec<serde_json::Map<String, serde_json::Value>>")]
    pub events: Vec<serde_json::Value>,
    /// The seat to act now (1-based); absent when the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_act: Option<u8>,
    /// The actions the receiver may take now: only for the seat to act, else empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub legal: Vec<ActionRecord>,
    /// Seconds left for the seat to act, when the table has a clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seconds_left: Option<u32>,
    pub seats: Vec<SeatSummary>,
    /// How the game ended, once it has (the engine's outcome).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<serde_json::Map<String, serde_json::Value>>")]
    pub outcome: Option<serde_json::Value>,
}

/// Why a client's message could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError(pub String);

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Reads a client's message: at most [`MAX_CLIENT_MESSAGE_BYTES`], JSON, one of
/// [`ClientMessage`], with names of at most [`MAX_NAME_CHARS`]. Never panics on any input (a
/// fuzz test holds it).
pub fn decode_client_message(bytes: &[u8]) -> Result<ClientMessage, DecodeError> {
    if bytes.len() > MAX_CLIENT_MESSAGE_BYTES {
        return Err(DecodeError(format!(
            "a message of {} bytes; at most {MAX_CLIENT_MESSAGE_BYTES} are read",
            bytes.len()
        )));
    }
    let message: ClientMessage = serde_json::from_slice(bytes)
        .map_err(|e| DecodeError(format!("not a message of protocol {PROTOCOL_VERSION}: {e}")))?;
    match &message {
        ClientMessage::Join { name, .. } => {
            let chars = name.chars().count();
            if chars == 0 || chars > MAX_NAME_CHARS || name.chars().any(char::is_control) {
                return Err(DecodeError(format!(
                    "a seat's name has 1 to {MAX_NAME_CHARS} characters and no control characters"
                )));
            }
        }
        ClientMessage::Rejoin { token, .. } if token.len() > 128 => {
            return Err(DecodeError("a token is 32 hex digits".into()));
        }
        ClientMessage::CreateTable(request) if request.seats.len() > 16 => {
            return Err(DecodeError("a table has at most 16 seats".into()));
        }
        _ => {}
    }
    Ok(message)
}

/// Where the protocol's schema is written, in the schemas folder.
pub const SCHEMA_FILE: &str = "protocol.schema.json";

/// The schema as the file holds it.
pub fn schema_text() -> String {
    serde_json::to_string_pretty(&schema()).unwrap_or_default() + "\n"
}

/// The JSON Schema of both directions' messages (`schemas/protocol.schema.json`).
pub fn schema() -> serde_json::Value {
    #[derive(JsonSchema)]
    #[allow(dead_code)]
    /// A message of the Meeple online protocol: `client` from a client to the server, `server`
    /// back.
    enum ProtocolMessage {
        Client(ClientMessage),
        Server(ServerMessage),
    }
    let mut schema = serde_json::to_value(schemars::schema_for!(ProtocolMessage)).unwrap_or_default();
    if let Some(object) = schema.as_object_mut() {
        object.insert("title".into(), "Meeple online protocol, version 1".into());
        // Either direction's message: validators take a message of either kind.
        if let Some(one_of) = object.remove("oneOf") {
            let refs: Vec<serde_json::Value> = one_of
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|variant| variant.pointer("/properties").and_then(|p| p.as_object()))
                .filter_map(|properties| properties.values().next().cloned())
                .collect();
            object.insert("anyOf".into(), serde_json::Value::Array(refs));
        }
    }
    schema
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_back_as_written() {
        let act = ClientMessage::Act {
            table: 3,
            step: 7,
            action: ActionRecord {
                seat: None,
                action: "attack".into(),
                args: [("from".to_string(), "12".into())].into(),
            },
        };
        let text = serde_json::to_string(&act).unwrap();
        assert_eq!(text, r#"{"type":"act","table":3,"step":7,"action":{"action":"attack","from":"12"}}"#);
        assert_eq!(decode_client_message(text.as_bytes()).unwrap(), act);
    }

    #[test]
    fn unknown_fields_oversized_messages_and_odd_names_are_refused() {
        assert!(decode_client_message(br#"{"type":"list_tables","admin":true}"#).is_err());
        assert!(decode_client_message(br#"{"type":"become_server"}"#).is_err());
        let name = "x".repeat(MAX_NAME_CHARS + 1);
        assert!(
            decode_client_message(format!(r#"{{"type":"join","table":1,"seat":1,"name":"{name}"}}"#).as_bytes())
                .is_err()
        );
        assert!(decode_client_message(br#"{"type":"join","table":1,"seat":1,"name":"a\nb"}"#).is_err());
        let huge = format!(r#"{{"type":"hello","protocol":1,"client":"{}"}}"#, "y".repeat(MAX_CLIENT_MESSAGE_BYTES));
        assert!(decode_client_message(huge.as_bytes()).unwrap_err().0.contains("at most"));
    }
}
