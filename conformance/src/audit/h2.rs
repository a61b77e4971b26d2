//! The recording HTTP/2 server (placeholder until the stream faults land).

use std::sync::Arc;

use tokio::net::TcpStream;

use super::state::AuditState;

/// Serves one accepted HTTP/2 connection.
pub(crate) async fn serve(stream: TcpStream, state: Arc<AuditState>, lane: usize, number: u64) {
    let _ = (stream, state, lane, number);
}
