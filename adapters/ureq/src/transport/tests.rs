use std::net::TcpListener;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};

use evident_core::{EngineSignal, ExecutionEvidence, Progress};

use super::binding::HeadScan;
use super::*;
use crate::attempt::{self, Attempt, BodyShape};
use ureq::Timeout;

/// A TCP stream whose writes block until the test releases them, or
/// until the socket's write timeout passes with nothing accepted — as a
/// write into a full send buffer does.
pub(crate) struct GatedTcp {
    pub(crate) tcp: TcpStream,
    gate: std::sync::Mutex<Receiver<()>>,
    open: bool,
    writes_tried: Arc<std::sync::atomic::AtomicUsize>,
}

impl Write for GatedTcp {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.writes_tried
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        if !self.open {
            let wait = self.tcp.write_timeout()?.unwrap_or(Duration::MAX);
            let gate = self.gate.lock().unwrap();
            match gate.recv_timeout(wait) {
                Ok(()) => self.open = true,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(io::ErrorKind::WouldBlock.into());
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(io::ErrorKind::BrokenPipe.into());
                }
            }
        }
        self.tcp.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.tcp.flush()
    }
}

/// A transport over a gated loopback connection, the server's end of
/// it, the gate's key and the count of writes tried.
fn gated() -> (
    CountingTransport,
    TcpStream,
    Sender<()>,
    Arc<std::sync::atomic::AtomicUsize>,
) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let tcp = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
    let (server, _) = listener.accept().unwrap();
    let (release, gate) = channel();
    let writes_tried = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let stream = Stream::Gated(GatedTcp {
        tcp,
        gate: std::sync::Mutex::new(gate),
        open: false,
        writes_tried: writes_tried.clone(),
    });
    let transport = CountingTransport::new(stream, LazyBuffers::new(1024, 1024));
    (transport, server, release, writes_tried)
}

const HEAD: &[u8] = b"POST /pay HTTP/1.1\r\nhost: a\r\ncontent-length: 2\r\n\r\n";

fn send_head(transport: &mut CountingTransport) -> Result<(), ureq::Error> {
    transport.buffers().output()[..HEAD.len()].copy_from_slice(HEAD);
    transport.transmit_output(HEAD.len(), NextTimeout::default())
}

/// Issue 9 item 1 on ureq. Before the fix a write that ran out of time
/// before the kernel accepted a byte left "exact counting, 0 bytes" at
/// `WriteHead`, which classified as `NotSent`; the write had started,
/// so it is `SentNoResponse`. After the core sealed the attempt (as the
/// blocking client does with a failed attempt), a released write is
/// refused and the peer receives nothing.
#[test]
fn a_write_blocked_until_the_attempt_deadline_is_sent_no_response_and_a_write_after_the_seal_is_refused()
 {
    let (mut transport, mut server, release, writes_tried) = gated();
    let progress = Progress::new();
    progress.counts_writes_exactly();
    // The attempt's deadline bounds the blocked write, as the core's
    // timer would an async attempt.
    let deadline = Instant::now() + Duration::from_millis(50);
    let _current = attempt::enter(Arc::new(Attempt::new(
        progress.clone(),
        Some(deadline),
        BodyShape::Immediate,
    )));
    let failed = send_head(&mut transport).unwrap_err();
    assert!(matches!(failed, ureq::Error::Timeout(_)), "{failed:?}");
    // The socket timeout is set ahead at half the budget; the write it
    // cut short was resumed, and the timeout came at the deadline.
    assert!(Instant::now() >= deadline, "the write timed out early");
    let tried = writes_tried.load(std::sync::atomic::Ordering::SeqCst);
    assert_eq!(tried, 2, "the first try, and its resumption");

    let sealed = progress.seal();
    assert_eq!(sealed.bytes_written(), 0);
    let signal = crate::classify::classify(&failed);
    assert_eq!(signal, EngineSignal::TimedOut);
    let verdict = evident_core::classify(signal, &sealed);
    assert_eq!(verdict.evidence(), ExecutionEvidence::SentNoResponse);
    assert_eq!(verdict.stage(), AttemptStage::WriteHead);

    // Released after the seal: the transport refuses before the gate.
    release.send(()).unwrap();
    let refused = send_head(&mut transport).unwrap_err();
    assert!(
        matches!(&refused, ureq::Error::Io(e) if e.kind() == io::ErrorKind::BrokenPipe),
        "{refused:?}"
    );
    assert_eq!(
        writes_tried.load(std::sync::atomic::Ordering::SeqCst),
        tried,
        "no write is tried after the seal"
    );
    assert_eq!(progress.snapshot().bytes_written(), 0);
    // And the connection is never pooled.
    assert!(!transport.is_open());
    server.set_nonblocking(true).unwrap();
    let mut byte = [0u8; 1];
    let nothing = server.read(&mut byte);
    assert!(
        matches!(&nothing, Err(e) if e.kind() == io::ErrorKind::WouldBlock),
        "{nothing:?}"
    );
}

#[test]
fn a_connection_that_answered_421_or_whose_attempt_was_sealed_is_not_pooled() {
    for (answer, reusable) in [
        (&b"HTTP/1.1 421 Misdirected Request\r\n\r\n"[..], false),
        (&b"HTTP/1.1 200 OK\r\n\r\n"[..], true),
        (
            &b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n"[..],
            true,
        ),
    ] {
        let a = Attempt::new(Progress::new(), None, BodyShape::None);
        let seen = see_status(answer, &a);
        assert_eq!(a.connection_reusable(), reusable, "{answer:?}");
        assert_eq!(seen, !answer.starts_with(b"HTTP/1.1 1"));
    }
    let a = Attempt::new(Progress::new(), None, BodyShape::None);
    assert!(!see_status(b"HTTP/1.1 4", &a), "too short to tell yet");
    a.progress.seal();
    assert!(!a.connection_reusable());
}

#[test]
fn the_head_ends_at_the_first_blank_line_even_across_writes() {
    let mut scan = HeadScan::default();
    assert!(!scan.feed(b"GET / HTTP/1.1\r\nhost: a\r"));
    assert!(!scan.feed(b"\n\r"));
    assert!(scan.feed(b"\nbody\r\n\r\n"));
}

#[test]
fn a_lone_carriage_return_does_not_restart_the_match_wrongly() {
    let mut scan = HeadScan::default();
    assert!(!scan.feed(b"x\r\r\n\r"));
    assert!(scan.feed(b"\n"));
    let mut scan = HeadScan::default();
    assert!(!scan.feed(b"a\r\n\rb\r\n"));
    assert!(scan.feed(b"\r\n"));
}

fn binding(body: BodyShape) -> Binding {
    Binding::new(Arc::new(Attempt::new(
        evident_core::Progress::new(),
        None,
        body,
    )))
}

#[test]
fn a_request_without_body_is_complete_with_its_head() {
    let mut b = binding(BodyShape::None);
    b.wrote(b"GET / HTTP/1.1\r\n\r\n");
    let seen = b.attempt.progress.snapshot();
    assert!(seen.head_written() && seen.body_written());
    assert_eq!(seen.bytes_written(), 18);
}

#[test]
fn a_body_is_complete_at_the_first_read_after_the_head() {
    let mut b = binding(BodyShape::Immediate);
    b.reading(); // Nothing is complete before the head.
    b.wrote(b"POST / HTTP/1.1\r\ncontent-length: 2\r\n\r\n");
    assert!(!b.attempt.progress.snapshot().body_written());
    b.wrote(b"hi");
    assert!(!b.attempt.progress.snapshot().body_written());
    b.reading();
    assert!(b.attempt.progress.snapshot().body_written());
}

#[test]
fn after_100_continue_the_body_is_complete_only_after_the_wait_and_a_write() {
    let mut b = binding(BodyShape::AfterContinue);
    b.wrote(b"POST / HTTP/1.1\r\nexpect: 100-continue\r\n\r\n");
    b.reading(); // Waiting for 100 Continue.
    b.reading();
    assert!(!b.attempt.progress.snapshot().body_written());
    b.wrote(b"hi");
    b.reading();
    assert!(b.attempt.progress.snapshot().body_written());
}

#[test]
fn a_budget_takes_the_tighter_of_ureqs_timeout_and_the_deadline() {
    let next = NextTimeout {
        after: Duration::from_secs(60).into(),
        reason: Timeout::RecvResponse,
        ..NextTimeout::default()
    };
    let b = Budget::new(next, Some(Instant::now() + Duration::from_secs(1))).unwrap();
    assert_eq!(b.reason, Timeout::Global);
    assert!(b.limit.unwrap() <= Duration::from_secs(1));
    let b = Budget::new(next, None).unwrap();
    assert_eq!(b.reason, Timeout::RecvResponse);
    let spent = Budget::new(next, Some(Instant::now())).unwrap_err();
    assert!(matches!(spent, ureq::Error::Timeout(Timeout::Global)));
    assert!(
        Budget::new(NextTimeout::default(), None)
            .unwrap()
            .limit
            .is_none()
    );
}

fn budget(limit: Option<Duration>, started_ago: Duration) -> Budget {
    Budget {
        limit,
        reason: Timeout::Global,
        since: Instant::now() - started_ago,
    }
}

#[test]
fn a_socket_timeout_set_ahead_is_kept_while_it_fits_and_never_exceeds_the_budget() {
    let secs = Duration::from_secs;
    let mut armed = None;
    let mut sets = Vec::new();
    let mut fit = |armed: &mut _, limit, ahead| {
        fit_timeout(armed, budget(limit, Duration::ZERO), ahead, |t| {
            sets.push(t);
            Ok(())
        })
        .unwrap();
    };
    // Half the budget, then kept by every budget it still fits in.
    fit(&mut armed, Some(secs(10)), true);
    fit(&mut armed, Some(secs(9)), true);
    fit(&mut armed, Some(secs(5)), true);
    // A tighter budget shortens it; no budget lifts it.
    fit(&mut armed, Some(secs(4)), true);
    fit(&mut armed, None, true);
    fit(&mut armed, None, true);
    // Not ahead (a TLS write): exactly the budget, every time it changes.
    fit(&mut armed, Some(secs(3)), false);
    fit(&mut armed, Some(secs(3)), false);
    fit(&mut armed, Some(secs(2)), false);
    assert_eq!(
        sets,
        [
            Some(secs(5)),
            Some(secs(2)),
            None,
            Some(secs(3)),
            Some(secs(2))
        ]
    );
}

#[test]
fn what_is_left_of_a_budget_shrinks_with_time_and_ends() {
    let ms = Duration::from_millis;
    let left = budget(Some(ms(100)), ms(40)).left().unwrap();
    assert!(left.limit.unwrap() <= ms(60));
    assert!(budget(Some(ms(100)), ms(150)).left().is_none());
    assert!(budget(None, ms(150)).left().unwrap().limit.is_none());
}
