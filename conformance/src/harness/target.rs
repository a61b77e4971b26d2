//! The lab side of a scenario: the servers its fault needs, the URL the
//! calls go to and the resolver overrides that lead there.

use std::net::{IpAddr, SocketAddr};

use evident_core::engine::HostOverrides;

use crate::lab::{
    ConnectTimeoutServer, Http1Behaviour, Http1Server, Http2Server, LabServer, Ledger,
    NeverReadsServer, TlsFault, TlsFaultServer, loopback_v4, refused_addr, refused_addr_on,
    shared_free_port,
};
use crate::scenario::{AddressFault, Fault};

/// The host name every scenario's URL uses; the engine's resolver maps it
/// through [`EngineEnv::overrides`](super::EngineEnv::overrides). It is on
/// the lab certificate.
pub const LAB_HOST: &str = "localhost";

/// A host name the lab's resolver says does not exist.
pub const MISSING_HOST: &str = "missing.evident.invalid";

/// The lab side of a scenario: its servers and the URL to call.
pub(super) struct Target {
    pub(super) url: String,
    pub(super) overrides: HostOverrides,
    pub(super) ledger: Option<Ledger>,
    pub(super) http2_prior_knowledge: bool,
    /// Kept alive for the scenario's duration.
    pub(super) servers: Vec<LabServer>,
}

fn lab_url(scheme: &str, port: u16) -> String {
    format!("{scheme}://{LAB_HOST}:{port}/evident")
}

pub(super) fn start_fault(fault: &Fault) -> std::io::Result<Target> {
    let on = |addr: SocketAddr| HostOverrides::new().map(LAB_HOST, vec![addr.ip()]);
    let single = |server: LabServer, h2c: bool| Target {
        url: lab_url(server.scheme(), server.port()),
        overrides: on(server.addr()),
        ledger: Some(server.ledger().clone()),
        http2_prior_knowledge: h2c,
        servers: vec![server],
    };
    Ok(match fault {
        Fault::Http1 {
            script,
            tls,
            ipv6,
            receive_buffer,
        } => {
            let mut server = Http1Server::new(script.clone());
            if *tls {
                server = server.tls();
            }
            if let Some(bytes) = receive_buffer {
                server = server.receive_buffer(*bytes);
            }
            if *ipv6 {
                server = server.bind(SocketAddr::from((std::net::Ipv6Addr::LOCALHOST, 0)));
            }
            single(server.start()?, false)
        }
        Fault::Http2 { script, tls } => {
            let mut server = Http2Server::new(script.clone());
            if *tls {
                server = server.tls();
            }
            single(server.start()?, !tls)
        }
        Fault::NameNotFound => Target {
            url: format!("http://{MISSING_HOST}:80/evident"),
            overrides: HostOverrides::new().not_found(MISSING_HOST),
            ledger: None,
            http2_prior_knowledge: false,
            servers: Vec::new(),
        },
        Fault::Refused => {
            let addr = refused_addr()?;
            Target {
                url: lab_url("http", addr.port()),
                overrides: on(addr),
                ledger: None,
                http2_prior_knowledge: false,
                servers: Vec::new(),
            }
        }
        Fault::ConnectTimeout => single(ConnectTimeoutServer::new().start()?, false),
        Fault::NeverReads => single(NeverReadsServer::new().start()?, false),
        Fault::Tls(fault) => single(TlsFaultServer::new(*fault).start()?, false),
        Fault::TwoAddresses(first, second) => {
            let ips: [IpAddr; 2] = [loopback_v4(2), loopback_v4(3)];
            let port = shared_free_port(&ips)?;
            let mut servers = Vec::new();
            let mut answering = None;
            let mut scheme = "http";
            for (ip, fault) in ips.iter().zip([first, second]) {
                match fault {
                    AddressFault::Refused => {
                        // Nothing listens on this IP at that port.
                        let _ = refused_addr_on(*ip);
                    }
                    AddressFault::UntrustedCertificate => {
                        scheme = "https";
                        servers.push(
                            TlsFaultServer::new(TlsFault::UntrustedCertificate)
                                .bind(SocketAddr::new(*ip, port))
                                .start()?,
                        );
                    }
                    AddressFault::Silent => servers.push(
                        ConnectTimeoutServer::new()
                            .bind(SocketAddr::new(*ip, port))
                            .start()?,
                    ),
                    AddressFault::Answers => {
                        let server = Http1Server::new([Http1Behaviour::respond(200)])
                            .bind(SocketAddr::new(*ip, port))
                            .start()?;
                        answering = Some(server.ledger().clone());
                        servers.push(server);
                    }
                }
            }
            // Executions are counted where a request can be executed.
            let ledger = answering.or_else(|| servers.first().map(|s| s.ledger().clone()));
            Target {
                url: lab_url(scheme, port),
                overrides: HostOverrides::new().map(LAB_HOST, ips.to_vec()),
                ledger,
                http2_prior_knowledge: false,
                servers,
            }
        }
    })
}
