//! A window's connection to a server: the socket lives on a thread of its own with a small
//! tokio runtime, so a frame never waits for the network. The window sends messages into a
//! channel and reads what came, each frame; a callback wakes it when something arrives.

use std::sync::Arc;
use std::sync::mpsc;

use super::client::Client;
use super::protocol::{ClientMessage, GameOffer, ServerMessage};

/// What the connection reports.
#[derive(Debug)]
pub enum LinkEvent {
    /// The server said welcome: the games it offers.
    Connected {
        games: Vec<GameOffer>,
    },
    Message(ServerMessage),
    /// The connection could not be made, or broke; nothing more comes.
    Lost(String),
}

/// A connection to a server, as a window holds it. Dropping it closes the connection.
pub struct Link {
    url: String,
    outgoing: tokio::sync::mpsc::UnboundedSender<ClientMessage>,
    incoming: mpsc::Receiver<LinkEvent>,
    /// Whether the connection is open (after `Connected`, before `Lost`).
    open: bool,
    /// Whether it has ended (`Lost`).
    ended: bool,
}

impl Link {
    /// Starts connecting to `url` (`ws://host:port`); `wake` is called whenever something
    /// arrives (a window asks for a frame).
    pub fn connect(url: &str, wake: impl Fn() + Send + Sync + 'static) -> Link {
        let (outgoing, mut to_send) = tokio::sync::mpsc::unbounded_channel::<ClientMessage>();
        let (report, incoming) = mpsc::channel();
        let wake: Arc<dyn Fn() + Send + Sync> = Arc::new(wake);
        let address = url.to_string();
        let spawned = std::thread::Builder::new().name("meeple link".into()).spawn(move || {
            let tell = |event: LinkEvent| {
                let _ = report.send(event);
                wake();
            };
            let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
                Ok(runtime) => runtime,
                Err(error) => return tell(LinkEvent::Lost(format!("cannot start the network: {error}"))),
            };
            runtime.block_on(async move {
                let mut client = match Client::connect(&address).await {
                    Ok((client, games)) => {
                        tell(LinkEvent::Connected { games });
                        client
                    }
                    Err(error) => return tell(LinkEvent::Lost(error.to_string())),
                };
                loop {
                    tokio::select! {
                        received = client.receive() => match received {
                            Ok(message) => tell(LinkEvent::Message(message)),
                            Err(error) => return tell(LinkEvent::Lost(error.to_string())),
                        },
                        next = to_send.recv() => match next {
                            Some(message) => {
                                if let Err(error) = client.send(&message).await {
                                    return tell(LinkEvent::Lost(error.to_string()));
                                }
                            }
                            // The window dropped the link: say goodbye.
                            None => return client.close().await,
                        },
                    }
                }
            });
        });
        let link = Link { url: url.to_string(), outgoing, incoming, open: false, ended: false };
        if let Err(error) = spawned {
            // The thread never ran: the link reports the failure itself.
            let (report, incoming) = mpsc::channel();
            let _ = report.send(LinkEvent::Lost(format!("cannot start the network: {error}")));
            return Link { incoming, ..link };
        }
        link
    }

    /// The server's address as given.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Whether the server has said welcome and the connection has not ended.
    pub fn is_open(&self) -> bool {
        self.open && !self.ended
    }

    /// Queues a message for the server; false when the connection has ended.
    pub fn send(&self, message: ClientMessage) -> bool {
        !self.ended && self.outgoing.send(message).is_ok()
    }

    /// What has arrived since the last call, in order.
    pub fn poll(&mut self) -> Vec<LinkEvent> {
        let mut events = Vec::new();
        loop {
            match self.incoming.try_recv() {
                Ok(event) => {
                    match &event {
                        LinkEvent::Connected { .. } => self.open = true,
                        LinkEvent::Lost(_) => self.ended = true,
                        LinkEvent::Message(_) => {}
                    }
                    events.push(event);
                }
                Err(mpsc::TryRecvError::Empty) => return events,
                // The thread ended without a word (it cannot, but a link must not hang on it).
                Err(mpsc::TryRecvError::Disconnected) => {
                    if !self.ended {
                        self.ended = true;
                        events.push(LinkEvent::Lost("the connection ended".into()));
                    }
                    return events;
                }
            }
        }
    }
}
