//! A declared-idempotent GET over the ureq engine (blocking), against a
//! loopback server that reads the first request and closes without
//! answering (the server may have acted: the outcome is ambiguous).
//!
//! Because the caller declared the GET idempotent, repeating it is safe and
//! evident retries on a new connection; the second attempt gets a 200.
//! Every attempt's record is printed.
//!
//! ```text
//! cargo run --example blocking_over_ureq --features ureq
//! ```

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::time::Duration;

use evident::client::blocking::Body;
use evident::client::{CallOptions, ClientBuilder, attempts_of};
use evident::resilience::PipelineConfig;
use evident::ureq::UreqEngine;

/// How many connections the server accepts before it stops.
const CONNECTIONS: usize = 2;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A loopback server on a thread of its own: the first request is read
    // and the connection closed with no answer; the second gets a 200.
    let listener = TcpListener::bind("127.0.0.1:0")?;
    let addr = listener.local_addr()?;
    let server = std::thread::spawn(move || -> std::io::Result<()> {
        for n in 0..CONNECTIONS {
            let (mut stream, _) = listener.accept()?;
            // Read the request head (the GET has no body).
            let mut reader = BufReader::new(stream.try_clone()?);
            let mut line = String::new();
            while reader.read_line(&mut line)? > 2 {
                line.clear();
            }
            if n == 1 {
                stream.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello")?;
            }
        }
        Ok(())
    });

    let client = ClientBuilder::new()
        .attempt_timeout(Duration::from_secs(2))
        .pipeline(PipelineConfig::disabled())
        .build_blocking(UreqEngine::builder().build()?)?;
    let request = http::Request::get(format!("http://{addr}/report")).body(Body::Empty)?;
    let response = client.execute(request, CallOptions::new().idempotent())?;

    println!(
        "status: {}, body: {:?}",
        response.status(),
        String::from_utf8_lossy(response.body())
    );
    for record in attempts_of(&response) {
        println!("  {record}");
    }
    server.join().expect("the server thread does not panic")?;
    Ok(())
}
