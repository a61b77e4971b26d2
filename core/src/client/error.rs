//! The client's error: opaque, with a private kind and every attempt's record.

use std::fmt;

use evident_resilience::LocalRejection;

use super::machine::Records;
use crate::failure::TransportFailure;
use crate::observe::AttemptRecord;

#[derive(Debug)]
enum Kind {
    InvalidRequest(&'static str),
    /// Drained: before the call started (no attempt), or while it waited to
    /// retry or for admission (with the last attempt's failure, if it
    /// failed).
    Draining(Option<TransportFailure>),
    Rejected(LocalRejection),
    Failed(TransportFailure),
}

/// Why a call failed, with the record of every attempt it made.
///
/// ```
/// # async fn demo(client: evident_core::client::Client<impl evident_core::Engine>) {
/// use evident_core::client::{Body, CallOptions};
/// let request = http::Request::get("http://127.0.0.1:1/").body(Body::Empty).unwrap();
/// match client.execute(request, CallOptions::new()).await {
///     Ok(response) => println!("{}", response.status()),
///     Err(err) => {
///         for record in err.attempts() {
///             println!("{record}");
///         }
///     }
/// }
/// # }
/// ```
pub struct Error {
    kind: Kind,
    attempts: Vec<AttemptRecord>,
}

impl Error {
    pub(crate) fn invalid_request(reason: &'static str) -> Self {
        Error {
            kind: Kind::InvalidRequest(reason),
            attempts: Vec::new(),
        }
    }

    pub(crate) fn draining() -> Self {
        Error {
            kind: Kind::Draining(None),
            attempts: Vec::new(),
        }
    }

    pub(crate) fn drained(last: Option<TransportFailure>, attempts: Records) -> Self {
        Error {
            kind: Kind::Draining(last),
            attempts: attempts.into_vec(),
        }
    }

    pub(crate) fn rejected(rejection: LocalRejection, attempts: Records) -> Self {
        Error {
            kind: Kind::Rejected(rejection),
            attempts: attempts.into_vec(),
        }
    }

    pub(crate) fn failed(failure: TransportFailure, attempts: Records) -> Self {
        Error {
            kind: Kind::Failed(failure),
            attempts: attempts.into_vec(),
        }
    }

    /// The request could not be sent at all (invalid URI, unsupported scheme
    /// or body); no attempt was made.
    pub fn is_invalid_request(&self) -> bool {
        matches!(self.kind, Kind::InvalidRequest(_))
    }

    /// The client is draining: it refused a new call (no attempt was made),
    /// or it stopped a call that was waiting to retry or for admission (its
    /// last record is `rejected:draining -> stop(draining)`).
    pub fn is_draining(&self) -> bool {
        matches!(self.kind, Kind::Draining(_))
    }

    /// The pipeline refused the last attempt locally.
    pub fn rejection(&self) -> Option<&LocalRejection> {
        match &self.kind {
            Kind::Rejected(r) => Some(r),
            _ => None,
        }
    }

    /// The last attempt's transport failure (also when a drain stopped the
    /// retry that would have followed it).
    pub fn failure(&self) -> Option<&TransportFailure> {
        match &self.kind {
            Kind::Failed(f) | Kind::Draining(Some(f)) => Some(f),
            _ => None,
        }
    }

    /// The limit and the size seen, when the call failed because a response
    /// body exceeded its limit.
    pub fn response_too_large(&self) -> Option<&super::ResponseTooLarge> {
        self.failure()?
            .engine_error()?
            .downcast_ref::<super::ResponseTooLarge>()
    }

    /// Every attempt's record, in order.
    pub fn attempts(&self) -> &[AttemptRecord] {
        &self.attempts
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("kind", &self.kind)
            .field("attempts", &self.attempts)
            .finish()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            Kind::InvalidRequest(reason) => write!(f, "invalid request: {reason}"),
            Kind::Draining(_) if self.attempts.is_empty() => {
                f.write_str("the client is draining and accepts no new calls")
            }
            Kind::Draining(_) => write!(
                f,
                "the client was drained while the call waited, after {} attempt(s)",
                self.attempts.len() - 1
            ),
            Kind::Rejected(r) => write!(f, "rejected locally: {r}"),
            Kind::Failed(failure) => {
                write!(f, "{failure} after {} attempt(s)", self.attempts.len())?;
                if let Some(last) = self.attempts.last() {
                    write!(f, "; {}", last.decision)?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            Kind::Rejected(r) => Some(r),
            Kind::Failed(f) | Kind::Draining(Some(f)) => Some(f),
            _ => None,
        }
    }
}
