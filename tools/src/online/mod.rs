//! Playing over a network: the protocol (`protocol`), the server's tables (`table`), what it
//! keeps on disk (`store`), the server itself (`server`, `meeple serve`), a client (`client`), a
//! window's connection on a thread of its own (`link`)
//! and the load runner (`bots`, `meeple bots`). See `docs/online.md`.
//!
//! Architecture invariant: the server is the only authority. A client sends what its person
//! chose; the server checks it with the same engine and sends each connection the game as its
//! seat may see it. Nothing here knows a game: tables are of whatever mods the server offers.

pub mod bots;
pub mod client;
pub mod link;
pub mod protocol;
pub mod server;
pub mod store;
pub mod table;
