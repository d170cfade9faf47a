//! A client of `meeple serve`: connects, says `hello`, and then sends [`ClientMessage`]s and
//! reads [`ServerMessage`]s. `meeple bots`, the integration tests and the window use it.

use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use super::protocol::{ClientMessage, GameOffer, PROTOCOL_VERSION, ServerMessage};

/// A connection to a server.
pub struct Client {
    socket: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

/// Why talking to a server failed.
#[derive(Debug)]
pub enum ClientError {
    /// The connection could not be made, or broke.
    Connection(String),
    /// The server closed the connection.
    Closed,
    /// A message from the server did not read.
    BadMessage(String),
}

impl std::fmt::Display for ClientError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClientError::Connection(why) => write!(f, "the connection failed: {why}"),
            ClientError::Closed => write!(f, "the server closed the connection"),
            ClientError::BadMessage(why) => write!(f, "the server sent a message that does not read: {why}"),
        }
    }
}

impl Client {
    /// Connects to `url` (`ws://host:port`) and says hello; returns the games the server offers.
    pub async fn connect(url: &str) -> Result<(Self, Vec<GameOffer>), ClientError> {
        let (socket, _) =
            tokio_tungstenite::connect_async(url).await.map_err(|e| ClientError::Connection(e.to_string()))?;
        let mut client = Self { socket };
        client
            .send(&ClientMessage::Hello {
                protocol: PROTOCOL_VERSION,
                client: format!("meeple {}", env!("CARGO_PKG_VERSION")),
            })
            .await?;
        match client.receive().await? {
            ServerMessage::Welcome { games, .. } => Ok((client, games)),
            ServerMessage::Error { message, .. } => Err(ClientError::Connection(message)),
            other => Err(ClientError::BadMessage(format!("expected `welcome`, got {other:?}"))),
        }
    }

    pub async fn send(&mut self, message: &ClientMessage) -> Result<(), ClientError> {
        let text = serde_json::to_string(message).map_err(|e| ClientError::BadMessage(e.to_string()))?;
        self.send_text(text).await
    }

    /// Sends any text, even one that is not a message (tests of the server's defences).
    pub async fn send_text(&mut self, text: String) -> Result<(), ClientError> {
        self.socket.send(Message::text(text)).await.map_err(|e| ClientError::Connection(e.to_string()))
    }

    /// The next message from the server.
    pub async fn receive(&mut self) -> Result<ServerMessage, ClientError> {
        let text = self.receive_text().await?;
        serde_json::from_str(&text).map_err(|e| ClientError::BadMessage(e.to_string()))
    }

    /// The next message from the server, as the text it came in.
    pub async fn receive_text(&mut self) -> Result<String, ClientError> {
        loop {
            match self.socket.next().await {
                Some(Ok(Message::Text(text))) => return Ok(text.as_str().to_string()),
                Some(Ok(Message::Close(_))) | None => return Err(ClientError::Closed),
                Some(Ok(_)) => continue,
                Some(Err(e)) => return Err(ClientError::Connection(e.to_string())),
            }
        }
    }

    /// Closes the connection politely.
    pub async fn close(mut self) {
        let _ = self.socket.close(None).await;
    }
}
