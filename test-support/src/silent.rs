//! A silent address: a loopback port whose TCP connects hang, for the
//! "first address silent, second live" tests of every engine (async or
//! blocking). The fault itself is the conformance lab's
//! [`SilentListener`], written once there.

use std::io;
use std::time::Duration;

pub use evident_conformance::lab::SilentListener;
use evident_core::{AttemptRecord, CallInfo, Observer};

/// The host name [`SilentThenLive`] resolves.
pub const HOST: &str = "multi.test";

/// A common attempt timeout: a per-address timeout equal to it (the 2 s of
/// old) lets every attempt die on the silent address.
pub const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(2);

/// What answering on the first attempt may take at most: the 250 ms
/// Connection Attempt Delay plus a loopback exchange, with room to spare.
pub const WITHIN: Duration = Duration::from_millis(500);

/// How long the live server waits for a request head.
const LIVE_READ_LIMIT: Duration = Duration::from_secs(10);

/// A name whose first address (127.0.0.2) is silent and whose second
/// (127.0.0.3, same port) answers one request with 200: the lab of every
/// engine's Happy Eyeballs test (RFC 8305). Real time, measured, never
/// slept on.
#[derive(Debug)]
pub struct SilentThenLive {
    _silent: SilentListener,
    port: u16,
    served: Option<std::thread::JoinHandle<io::Result<()>>>,
}

impl SilentThenLive {
    /// Binds both addresses and serves the live one on its own thread.
    ///
    /// # Errors
    ///
    /// When either loopback address cannot be bound, or the silent one
    /// cannot be made silent here (see [`SilentListener::bind`]).
    pub fn start() -> io::Result<SilentThenLive> {
        let silent = SilentListener::bind("127.0.0.2:0".parse().expect("a socket address"))?;
        let port = silent.addr().port();
        let live = std::net::TcpListener::bind(("127.0.0.3", port))?;
        let served = std::thread::spawn(move || -> io::Result<()> {
            use std::io::{Read, Write};
            let (mut conn, _) = live.accept()?;
            // Bounded: a request head arrives within this, or the test fails.
            conn.set_read_timeout(Some(LIVE_READ_LIMIT))?;
            let mut head = Vec::new();
            let mut byte = [0u8; 1];
            while !head.ends_with(b"\r\n\r\n") && conn.read(&mut byte)? == 1 {
                head.push(byte[0]);
            }
            conn.write_all(
                b"HTTP/1.1 200 OK\r\ncontent-length: 5\r\nconnection: close\r\n\r\nhello",
            )
        });
        Ok(SilentThenLive {
            _silent: silent,
            port,
            served: Some(served),
        })
    }

    /// The overrides that resolve [`HOST`] to the silent address, then the
    /// live one.
    pub fn overrides(&self) -> evident_core::HostOverrides {
        evident_core::HostOverrides::new().map(
            HOST,
            vec![
                std::net::Ipv4Addr::new(127, 0, 0, 2).into(),
                std::net::Ipv4Addr::new(127, 0, 0, 3).into(),
            ],
        )
    }

    /// The URL to call.
    pub fn url(&self) -> String {
        format!("http://{HOST}:{}/", self.port)
    }

    /// One GET through the async client over `engine`: answered 200 on the
    /// first attempt within [`WITHIN`].
    pub async fn answers_at_once<E: evident_core::Engine>(mut self, engine: E) {
        use evident_core::client::{Body, CallOptions, ClientBuilder};
        let records = std::sync::Arc::new(Records::default());
        let client = ClientBuilder::new()
            .attempt_timeout(ATTEMPT_TIMEOUT)
            .observer(records.clone())
            .build(engine)
            .expect("a valid client");
        let started = std::time::Instant::now();
        let request = http::Request::get(self.url())
            .body(Body::Empty)
            .expect("a valid request");
        let response = client.execute(request, CallOptions::new()).await;
        self.check(response.map(|r| r.status()), started.elapsed(), &records);
    }

    /// The same through the blocking client.
    pub fn answers_at_once_blocking<E: evident_core::engine::BlockingEngine>(mut self, engine: E) {
        use evident_core::client::blocking::Body;
        use evident_core::client::{CallOptions, ClientBuilder};
        let records = std::sync::Arc::new(Records::default());
        let client = ClientBuilder::new()
            .attempt_timeout(ATTEMPT_TIMEOUT)
            .observer(records.clone())
            .build_blocking(engine)
            .expect("a valid client");
        let started = std::time::Instant::now();
        let request = http::Request::get(self.url())
            .body(Body::Empty)
            .expect("a valid request");
        let response = client.execute(request, CallOptions::new());
        self.check(response.map(|r| r.status()), started.elapsed(), &records);
    }

    fn check(
        &mut self,
        status: Result<http::StatusCode, evident_core::client::Error>,
        took: Duration,
        records: &Records,
    ) {
        let status = status.unwrap_or_else(|e| panic!("the call failed: {e} {:?}", e.attempts()));
        assert_eq!(status, 200);
        if let Some(served) = self.served.take() {
            served
                .join()
                .expect("the live server did not panic")
                .expect("the live server answered");
        }
        assert!(took < WITHIN, "the silent address cost {took:?}");
        let calls = records.calls();
        assert_eq!(calls.len(), 1);
        assert_eq!(calls[0].len(), 1, "one attempt: {:?}", calls[0]);
        assert_eq!(calls[0][0].status, Some(200));
        assert_eq!(calls[0][0].attempt_index, 0);
    }
}

/// An observer keeping the records of each call that ended.
#[derive(Debug, Default)]
pub struct Records(std::sync::Mutex<Vec<Vec<AttemptRecord>>>);

impl Records {
    /// The records of every call that ended, in order.
    pub fn calls(&self) -> Vec<Vec<AttemptRecord>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

impl Observer for Records {
    fn on_attempt(&self, _call: &CallInfo, _record: &AttemptRecord) {}

    fn on_call_end(&self, _call: &CallInfo, records: &[AttemptRecord]) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(records.to_vec());
    }
}
