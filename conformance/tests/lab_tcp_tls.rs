//! TCP- and TLS-level lab faults, observed by plain tokio and tokio-rustls
//! clients.

use std::io;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use evident_conformance::lab::{
    ALPN_HTTP1, ConnectTimeoutServer, SERVER_NAMES, ServerIdentity, TestPki, TlsFault,
    TlsFaultServer, loopback_v4, refused_addr, refused_addr_on, shared_free_port,
};
use rustls_pki_types::ServerName;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::time::timeout;

/// Upper bound for anything that should happen promptly.
const BOUND: Duration = Duration::from_secs(5);

/// The connect-timeout fault must hold a connect at least this long.
const CONNECT_HANG: Duration = Duration::from_millis(500);

async fn tls_handshake(
    addr: SocketAddr,
    name: &str,
) -> io::Result<tokio_rustls::client::TlsStream<TcpStream>> {
    let config = TestPki::get().client_config(&[ALPN_HTTP1]);
    let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
    let tcp = TcpStream::connect(addr).await?;
    let name = ServerName::try_from(name.to_owned()).unwrap();
    timeout(BOUND, connector.connect(name, tcp))
        .await
        .expect("handshake ends in time")
}

fn rustls_error(error: &io::Error) -> Option<&rustls::Error> {
    error.get_ref()?.downcast_ref::<rustls::Error>()
}

#[tokio::test]
async fn a_refused_address_refuses_the_connect() {
    let addr = refused_addr().unwrap();
    assert!(addr.ip().is_loopback());

    let error = TcpStream::connect(addr).await.unwrap_err();
    assert_eq!(error.kind(), io::ErrorKind::ConnectionRefused);
}

#[tokio::test]
async fn a_refused_address_can_be_taken_on_another_loopback_ip() {
    let addr = refused_addr_on(loopback_v4(7)).unwrap();
    assert_eq!(addr.ip(), loopback_v4(7));
    let error = TcpStream::connect(addr).await.unwrap_err();
    assert_eq!(error.kind(), io::ErrorKind::ConnectionRefused);
    assert!(refused_addr_on("10.0.0.1".parse().unwrap()).is_err());
}

#[tokio::test]
async fn a_connect_to_a_full_backlog_does_not_complete_within_half_a_second() {
    let server = ConnectTimeoutServer::new().start().unwrap();
    let started = Instant::now();

    let outcome = timeout(CONNECT_HANG, TcpStream::connect(server.addr())).await;
    assert!(outcome.is_err(), "connect completed: {outcome:?}");
    assert!(started.elapsed() >= CONNECT_HANG);
    assert_eq!(server.ledger().connections(), 0);
}

#[tokio::test]
async fn a_full_backlog_keeps_hanging_for_every_new_connect() {
    let server = ConnectTimeoutServer::new().start().unwrap();
    let first = tokio::spawn(TcpStream::connect(server.addr()));
    let second = timeout(CONNECT_HANG, TcpStream::connect(server.addr())).await;

    assert!(second.is_err());
    assert!(!first.is_finished());
    first.abort();
}

#[tokio::test]
async fn the_trusted_certificate_is_valid_for_every_lab_name() {
    let server = evident_conformance::lab::Http1Server::new([])
        .tls()
        .start()
        .unwrap();
    for name in SERVER_NAMES {
        let stream = tls_handshake(server.addr(), name).await;
        assert!(stream.is_ok(), "{name}: {stream:?}");
    }
}

#[tokio::test]
async fn an_untrusted_certificate_fails_the_handshake_with_unknown_issuer() {
    let server = TlsFaultServer::new(TlsFault::UntrustedCertificate)
        .start()
        .unwrap();

    let error = tls_handshake(server.addr(), "localhost").await.unwrap_err();
    assert_eq!(error.kind(), io::ErrorKind::InvalidData);
    assert!(
        matches!(
            rustls_error(&error),
            Some(rustls::Error::InvalidCertificate(
                rustls::CertificateError::UnknownIssuer
            ))
        ),
        "{error:?}"
    );
    assert_eq!(server.ledger().connections(), 1);
    assert_eq!(server.ledger().requests(), 0);
}

#[tokio::test]
async fn the_untrusted_certificate_differs_from_the_trusted_one_only_by_issuer() {
    let pki = TestPki::get();
    assert_ne!(
        pki.server_cert_der(ServerIdentity::Trusted),
        pki.server_cert_der(ServerIdentity::Untrusted)
    );
    assert_ne!(pki.ca_cert_der(), pki.untrusted_ca_cert_der());
    assert!(pki.ca_cert_pem().starts_with("-----BEGIN CERTIFICATE-----"));
    let file = pki.ca_pem_file().unwrap();
    assert_eq!(std::fs::read_to_string(file).unwrap(), pki.ca_cert_pem());
}

#[tokio::test]
async fn a_handshake_closed_after_the_client_hello_is_an_unexpected_eof() {
    let server = TlsFaultServer::new(TlsFault::ClosedDuringHandshake)
        .start()
        .unwrap();

    let error = tls_handshake(server.addr(), "localhost").await.unwrap_err();
    assert_eq!(error.kind(), io::ErrorKind::UnexpectedEof, "{error:?}");
    assert_eq!(server.ledger().connections(), 1);
}

#[tokio::test]
async fn a_handshake_closed_after_the_client_hello_reads_the_whole_hello_first() {
    // The server reads exactly one TLS record, then closes with FIN: a raw
    // client sending a tiny fake record sees a clean EOF, not a reset.
    let server = TlsFaultServer::new(TlsFault::ClosedDuringHandshake)
        .start()
        .unwrap();
    let mut tcp = TcpStream::connect(server.addr()).await.unwrap();
    tcp.write_all(&[0x16, 0x03, 0x01, 0x00, 0x02, 0x01, 0x00])
        .await
        .unwrap();
    let mut rest = Vec::new();
    let read = timeout(BOUND, tcp.read_to_end(&mut rest)).await.unwrap();
    assert_eq!(read.unwrap(), 0);
}

#[tokio::test]
async fn one_port_can_refuse_on_one_loopback_ip_and_present_the_untrusted_cert_on_another() {
    let refusing: IpAddr = loopback_v4(2);
    let untrusted: IpAddr = loopback_v4(3);
    let port = shared_free_port(&[refusing, untrusted]).unwrap();
    let server = TlsFaultServer::new(TlsFault::UntrustedCertificate)
        .bind(SocketAddr::new(untrusted, port))
        .start()
        .unwrap();
    assert_eq!(server.addr(), SocketAddr::new(untrusted, port));

    let refused = TcpStream::connect(SocketAddr::new(refusing, port))
        .await
        .unwrap_err();
    assert_eq!(refused.kind(), io::ErrorKind::ConnectionRefused);
    let rejected = tls_handshake(server.addr(), "localhost").await.unwrap_err();
    assert!(matches!(
        rustls_error(&rejected),
        Some(rustls::Error::InvalidCertificate(_))
    ));
}

#[tokio::test]
async fn a_shared_port_needs_only_loopback_ips() {
    assert!(shared_free_port(&[]).is_err());
    assert!(shared_free_port(&[loopback_v4(1), "192.0.2.1".parse().unwrap()]).is_err());
}

#[tokio::test]
async fn a_server_that_never_reads_blocks_a_large_write_and_receives_no_request() {
    use tokio::io::AsyncWriteExt;
    let server = evident_conformance::lab::NeverReadsServer::new()
        .start()
        .unwrap();
    let mut stream = tokio::net::TcpStream::connect(server.addr()).await.unwrap();
    let head = format!(
        "GET / HTTP/1.1\r\nhost: lab\r\nx-padding: {}\r\n\r\n",
        "a".repeat(8 * 1024 * 1024)
    );
    let write = tokio::time::timeout(
        std::time::Duration::from_millis(300),
        stream.write_all(head.as_bytes()),
    )
    .await;
    assert!(write.is_err(), "the head cannot fully leave");
    let ledger = server.ledger();
    tokio::time::timeout(
        std::time::Duration::from_secs(5),
        ledger.wait_until(|s| s.connections >= 1),
    )
    .await
    .expect("the connection is counted");
    assert_eq!((ledger.connections(), ledger.requests()), (1, 0));
}
