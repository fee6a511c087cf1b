//! Clients that hold the server's connections: a body trickled a byte at a time is cut off
//! at its deadline (408, connection closed) whether a JSON body, a form or a TRF import
//! reads it, while a body that arrives in time is read as before; one address may hold only
//! so many connections (a real `damka serve`, set by environment variable over its
//! configuration file) and live streams, and gets its room back as they close.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::net::tcp::OwnedReadHalf;

use crate::common::builders::GameBuilder;
use crate::common::{Role, TEST_PEER_ADDR, TestApp};
use crate::processes::Server;

/// The deadline the body tests run with: long enough for a busy machine to answer a whole
/// body in time, short enough to keep the test quick.
const BODY_TIMEOUT: Duration = Duration::from_secs(2);
/// How late after the deadline the 408 may come on a busy 2-core machine.
const MARGIN: Duration = Duration::from_secs(3);

/// One HTTP/1.1 response as read off the socket.
#[derive(Debug)]
struct Answer {
    status: u16,
    head: String,
    body: String,
}

impl Answer {
    fn headers(&self, name: &str) -> Vec<String> {
        let prefix = format!("{}:", name.to_ascii_lowercase());
        self.head
            .lines()
            .filter_map(|line| {
                let lower = line.to_ascii_lowercase();
                lower
                    .starts_with(&prefix)
                    .then(|| line[prefix.len()..].trim().to_string())
            })
            .collect()
    }

    fn problem_code(&self) -> String {
        let problem: serde_json::Value =
            serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {self:?}"));
        problem["code"].as_str().unwrap_or_default().to_string()
    }
}

/// Reads one response (its head and a `Content-Length` body); `None` if the connection
/// closes first.
async fn read_answer(reader: &mut OwnedReadHalf) -> Option<Answer> {
    let mut raw = Vec::new();
    let mut buffer = [0u8; 8192];
    loop {
        let text = String::from_utf8_lossy(&raw).into_owned();
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let answer = Answer {
                status: head.split(' ').nth(1)?.parse().ok()?,
                head: head.to_string(),
                body: body.to_string(),
            };
            let length: usize = answer.headers("content-length").first()?.parse().ok()?;
            if answer.body.len() >= length {
                return Some(answer);
            }
        }
        match reader.read(&mut buffer).await {
            Ok(0) | Err(_) => return None,
            Ok(n) => raw.extend_from_slice(&buffer[..n]),
        }
    }
}

/// Whether the server closes the connection within `within` (a reset counts: the
/// client's unread bytes may make the close a reset).
async fn closes_within(reader: &mut OwnedReadHalf, within: Duration) -> bool {
    let mut buffer = [0u8; 1024];
    tokio::time::timeout(within, async {
        loop {
            match reader.read(&mut buffer).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    })
    .await
    .is_ok()
}

/// Sends `head` (which announces a 100-byte body) and then one byte of the body every
/// 300 ms; returns the answer, how long after the head it came, and whether the
/// connection then closed.
async fn trickle(port: u16, head: String) -> (Answer, Duration, bool) {
    let stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let (mut reader, mut writer) = stream.into_split();
    writer.write_all(head.as_bytes()).await.unwrap();
    let sent = Instant::now();
    let trickling = actix_web::rt::spawn(async move {
        for _ in 0..100 {
            tokio::time::sleep(Duration::from_millis(300)).await;
            if writer.write_all(b"a").await.is_err() {
                return;
            }
        }
    });
    let answer = tokio::time::timeout(Duration::from_secs(60), read_answer(&mut reader))
        .await
        .expect("an answer within a minute")
        .expect("an answer before the connection closes");
    let took = sent.elapsed();
    let closed = closes_within(&mut reader, Duration::from_secs(10)).await;
    trickling.abort();
    (answer, took, closed)
}

fn post_head(path: &str, content_type: &str, extra: &str) -> String {
    format!(
        "POST {path} HTTP/1.1\r\nHost: localhost\r\n{extra}Content-Type: {content_type}\r\nContent-Length: 100\r\n\r\n"
    )
}

fn assert_cut_off_in_time(what: &str, answer: &Answer, took: Duration, closed: bool) {
    assert_eq!(answer.status, 408, "{what}: {answer:?}");
    assert!(
        took >= BODY_TIMEOUT - Duration::from_millis(100) && took <= BODY_TIMEOUT + MARGIN,
        "{what}: answered after {took:?}"
    );
    assert!(
        answer
            .headers("connection")
            .iter()
            .any(|v| v.eq_ignore_ascii_case("close")),
        "{what}: {answer:?}"
    );
    assert!(closed, "{what}: the connection stayed open after the 408");
}

#[actix_web::test]
async fn a_body_that_trickles_in_is_cut_off_at_its_deadline_and_one_in_time_is_read() {
    let app = TestApp::new().await;
    let mut browser = app.user("org@slow.org", Role::Admin).await;
    let api = browser.api_client().await;
    let authorization = format!("Authorization: {}\r\n", api.headers[0].1);
    let mut state = app.state.clone();
    state.limits.body_timeout = BODY_TIMEOUT;
    let server = actix_web::HttpServer::new(move || damka::web::app(state.clone()))
        .workers(1)
        .disable_signals()
        .bind(("127.0.0.1", 0))
        .unwrap();
    let port = server.addrs()[0].port();
    let server = server.run();
    let handle = server.handle();
    actix_web::rt::spawn(server);

    // Three readers of a body at once (the deadline is the same for all): the API's JSON,
    // a sign-in form in Russian and the TRF import.
    let (json, form, import) = tokio::join!(
        trickle(
            port,
            post_head("/api/v1/players", "application/json", &authorization)
        ),
        trickle(
            port,
            post_head(
                "/login",
                "application/x-www-form-urlencoded",
                "Accept: text/html\r\nAccept-Language: ru\r\n"
            )
        ),
        trickle(
            port,
            post_head("/api/v1/events/import", "application/json", &authorization)
        ),
    );
    for (what, (answer, took, closed)) in [("JSON", &json), ("TRF import", &import)] {
        assert_cut_off_in_time(what, answer, *took, *closed);
        assert_eq!(answer.problem_code(), "body_timeout", "{what}");
        assert_eq!(answer.headers("content-type"), ["application/problem+json"]);
    }
    let (page, took, closed) = &form;
    assert_cut_off_in_time("form", page, *took, *closed);
    assert!(page.headers("content-type")[0].starts_with("text/html"));
    assert!(
        page.body
            .contains("данные запроса не пришли полностью за 2 с"),
        "the page does not say why in the reader's language: {}",
        page.body
    );

    // A body that arrives whole in time, even in pieces, is read as before.
    let body = br#"{"name": "Unhurried"}"#;
    let stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let (mut reader, mut writer) = stream.into_split();
    let head = format!(
        "POST /api/v1/players HTTP/1.1\r\nHost: localhost\r\n{authorization}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    writer.write_all(head.as_bytes()).await.unwrap();
    for piece in body.chunks(body.len() / 3 + 1) {
        tokio::time::sleep(Duration::from_millis(200)).await;
        writer.write_all(piece).await.unwrap();
    }
    let answer = read_answer(&mut reader).await.expect("an answer");
    assert_eq!(answer.status, 201, "{answer:?}");
    handle.stop(false).await;
}

/// Opens a connection and has one request answered on it (so the server has counted it).
async fn connect(port: u16) -> (OwnedReadHalf, tokio::net::tcp::OwnedWriteHalf, Answer) {
    let stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let (mut reader, mut writer) = stream.into_split();
    writer
        .write_all(b"GET /api/v1/players HTTP/1.1\r\nHost: localhost\r\n\r\n")
        .await
        .unwrap();
    let answer = tokio::time::timeout(Duration::from_secs(60), read_answer(&mut reader))
        .await
        .expect("an answer within a minute")
        .expect("an answer before the connection closes");
    (reader, writer, answer)
}

#[actix_web::test]
async fn one_address_may_hold_only_so_many_connections() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("caps.db").display());
    // The environment variable wins over the file.
    let config = dir.path().join("damka.toml");
    std::fs::write(&config, "[server]\nmax_connections_per_address = 50\n").unwrap();
    let server = Server::start_with_env(
        &url,
        &[
            ("DAMKA_CONFIG", config.to_str().unwrap()),
            ("DAMKA_MAX_CONNECTIONS_PER_ADDRESS", "3"),
        ],
    );
    let port = server.port;
    let mut held = Vec::new();
    for n in 1..=3 {
        let (reader, writer, answer) = connect(port).await;
        assert_eq!(answer.status, 200, "connection {n}: {answer:?}");
        held.push((reader, writer));
    }
    let (mut reader, _writer, refused) = connect(port).await;
    assert_eq!(refused.status, 429, "{refused:?}");
    assert_eq!(refused.problem_code(), "too_many_connections");
    assert_eq!(refused.headers("retry-after").len(), 1, "{refused:?}");
    assert!(closes_within(&mut reader, Duration::from_secs(10)).await);

    // The connections held still work.
    let (reader, writer) = &mut held[0];
    writer
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
        .await
        .unwrap();
    assert_eq!(read_answer(reader).await.expect("an answer").status, 200);

    // Once one closes, a new one is let in (as soon as the server has seen it close).
    drop(held.remove(0));
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let (_reader, _writer, answer) = connect(port).await;
        if answer.status == 200 {
            break;
        }
        assert_eq!(answer.status, 429, "{answer:?}");
        assert!(Instant::now() < deadline, "no room a minute after a close");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[actix_web::test]
async fn one_address_may_hold_only_so_many_live_streams() {
    let mut app = TestApp::new().await;
    app.state.limits.max_streams_per_address = 2;
    let game = GameBuilder::russian().build(&app).await;
    let path = format!("/api/v1/games/{}/stream", game.id);
    let here = [(TEST_PEER_ADDR, "198.51.100.7:5000")];
    let mut watcher = app.client();

    let (status, _, mut first) = watcher.stream(&path, &here).await;
    assert_eq!(status.as_u16(), 200);
    first.expect("state").await;
    let (status, _, _second) = watcher
        .stream(&format!("/api/v1/games/{}/stream", game.id), &here)
        .await;
    assert_eq!(status.as_u16(), 200);
    let (status, headers, _) = watcher.stream(&path, &here).await;
    assert_eq!(status.as_u16(), 429);
    assert_eq!(headers.get_all("retry-after").count(), 1);
    // Another address has room of its own.
    let elsewhere = [(TEST_PEER_ADDR, "203.0.113.9:5000")];
    let (status, _, _other) = watcher.stream(&path, &elsewhere).await;
    assert_eq!(status.as_u16(), 200);

    // The refusal's body names it; and a watcher who leaves makes room.
    let refused = watcher
        .request(
            actix_web::http::Method::GET,
            &path,
            None,
            &[here[0], ("Accept", "application/json")],
        )
        .await;
    refused.assert_refusal(429, "too_many_streams");
    drop(first);
    let (status, _, mut again) = watcher.stream(&path, &here).await;
    assert_eq!(status.as_u16(), 200);
    again.expect("state").await;
}
