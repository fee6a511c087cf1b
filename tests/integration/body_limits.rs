//! Oversized bodies: JSON, forms and files (TRF, PDN, CSV) over their limits are refused
//! with 413 and a problem+json (API) or an HTML page (forms) that says so, whether the
//! client announced the size or not; through a real socket the client reads the 413
//! instead of losing the connection.
#![allow(clippy::unwrap_used)]
use std::time::Duration;

use actix_web::http::Method;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::common::{Client, Response, Role, TestApp};

const MIB: usize = 1024 * 1024;

fn assert_api_413(res: &Response, what: &str) {
    assert_eq!(res.status.as_u16(), 413, "{what}: {}", res.body);
    assert_eq!(res.content_type(), "application/problem+json", "{what}");
    let problem = res.json();
    assert_eq!(problem["status"], 413, "{what}: {problem}");
    assert!(
        problem["code"].as_str().is_some_and(|c| !c.is_empty()),
        "{what}: {problem}"
    );
    let detail = problem["detail"].as_str().unwrap_or_default();
    assert!(
        detail.contains("KB") || detail.contains("bytes") || detail.contains("MiB"),
        "{what}: the refusal does not name the limit: {problem}"
    );
}

fn assert_page_413(res: &Response, what: &str) {
    assert_eq!(res.status.as_u16(), 413, "{what}: {}", res.body);
    assert!(
        res.content_type().starts_with("text/html"),
        "{what}: {}",
        res.content_type()
    );
    assert!(
        res.body.contains("too large") || res.body.contains("larger than"),
        "{what}: the page does not say why: {}",
        res.body.chars().take(600).collect::<String>()
    );
}

/// A JSON body of about `bytes` bytes: a valid object with one long string.
fn big_json(field: &str, bytes: usize) -> String {
    format!("{{\"{field}\": \"{}\"}}", "a".repeat(bytes))
}

async fn post_raw(
    client: &mut Client<'_>,
    path: &str,
    content_type: &str,
    body: String,
) -> Response {
    client
        .request(Method::POST, path, Some((content_type, body)), &[])
        .await
}

#[actix_web::test]
async fn oversized_api_bodies_are_refused_with_413() {
    let app = TestApp::new().await;
    let mut browser = app.user("org@limits.org", Role::Admin).await;
    let mut api = browser.api_client().await;
    let event = crate::common::create_event(
        &mut api,
        serde_json::json!({"name": "Limits", "system": "swiss", "rounds": 3}),
    )
    .await;
    crate::common::enter_players(&mut api, event, 2).await;
    let paired = api.post(&format!("/api/v1/events/{event}/rounds")).await;
    assert_eq!(paired.status.as_u16(), 201, "{}", paired.body);

    // JSON bodies: the API's 256 KiB, and the TRF import's own larger limit.
    for path in [
        "/api/v1/players",
        "/api/v1/clubs",
        "/api/v1/events",
        "/api/v1/games",
        "/api/v1/tokens",
    ] {
        let res = post_raw(
            &mut api,
            path,
            "application/json",
            big_json("name", 300 * 1024),
        )
        .await;
        assert_api_413(&res, path);
    }
    let res = post_raw(
        &mut api,
        "/api/v1/events/import",
        "application/json",
        big_json("trf", 3 * MIB),
    )
    .await;
    assert_api_413(&res, "TRF import, JSON over its limit");
    // Within the JSON limit, but the file in it is over 1 MiB.
    let res = post_raw(
        &mut api,
        "/api/v1/events/import",
        "application/json",
        big_json("trf", MIB + 10),
    )
    .await;
    assert_api_413(&res, "TRF import, file over 1 MiB");

    // Files sent as text.
    let csv = format!(
        "player_id,variant,system,rating\n{}",
        "1,russian,elo,1500\n".repeat(MIB / 18 + 10)
    );
    let res = post_raw(&mut api, "/api/v1/ratings/import", "text/csv", csv).await;
    assert_api_413(&res, "ratings CSV over 1 MiB");
    let pdn = format!("[Event \"x\"]\n{{{}}}\n*\n", "c".repeat(MIB + 10));
    let path = format!("/api/v1/events/{event}/rounds/1/pdn");
    let res = post_raw(&mut api, &path, "text/plain", pdn.clone()).await;
    assert_api_413(&res, "PDN over 1 MiB");
    let res = post_raw(
        &mut api,
        &path,
        "application/json",
        big_json("pdn", 3 * MIB),
    )
    .await;
    assert_api_413(&res, "PDN in JSON over its limit");

    // Nothing was stored by any of them.
    let players = api.get("/api/v1/players?limit=200").await.json()["items"].clone();
    assert!(
        !players.to_string().contains("aaaaaaaaaaaaaaaa"),
        "an oversized body was stored"
    );
}

#[actix_web::test]
async fn oversized_forms_and_uploads_are_refused_with_a_page() {
    let app = TestApp::new().await;
    let mut org = app.user("org@limits.org", Role::Admin).await;
    let long = "a".repeat(70 * 1024);
    for path in ["/clubs", "/players", "/events", "/account/tokens", "/login"] {
        let res = org
            .post_form(path, &[("name", &long), ("email", &long)])
            .await;
        assert_page_413(&res, path);
    }
    // The uploads take a whole file, and refuse one over 1 MiB.
    let trf = format!("012 x\n{}", "001 ".repeat(MIB / 4 + 10));
    let res = org
        .post_form("/events/import", &[("trf", &trf), ("variant", "russian")])
        .await;
    assert_eq!(
        res.status.as_u16(),
        413,
        "TRF upload: {}",
        res.body.chars().take(400).collect::<String>()
    );
    assert!(res.content_type().starts_with("text/html"));
    let csv = format!(
        "player_id,variant,system,rating\n{}",
        "1,russian,elo,1500\n".repeat(MIB / 18 + 10)
    );
    let res = org.post_form("/ratings/import", &[("csv", &csv)]).await;
    assert_eq!(
        res.status.as_u16(),
        413,
        "CSV upload: {}",
        res.body.chars().take(400).collect::<String>()
    );
    assert!(res.content_type().starts_with("text/html"));
    // Beyond even the upload's form limit.
    let huge = "b".repeat(4 * MIB);
    let res = org.post_form("/events/import", &[("trf", &huge)]).await;
    assert_page_413(&res, "TRF form over its body limit");
}

/// Sends `head` and then `body` over a real socket, reading at the same time; returns what
/// the server answered (the writer may be cut off once the server has answered).
async fn exchange(port: u16, head: String, body: Vec<u8>) -> String {
    let stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    let (mut reader, mut writer) = stream.into_split();
    let sending = actix_web::rt::spawn(async move {
        if writer.write_all(head.as_bytes()).await.is_err() {
            return;
        }
        for chunk in body.chunks(64 * 1024) {
            if writer.write_all(chunk).await.is_err() {
                return;
            }
        }
        let _ = writer.flush().await;
    });
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(20), async {
        let mut buffer = [0u8; 8192];
        loop {
            match reader.read(&mut buffer).await {
                Ok(0) => break Ok(()),
                Ok(n) => {
                    answer.extend_from_slice(&buffer[..n]);
                    // One response is enough: stop at the end of its body.
                    let text = String::from_utf8_lossy(&answer);
                    if let Some((headers, body)) = text.split_once("\r\n\r\n")
                        && let Some(length) = headers.lines().find_map(|l| {
                            l.to_ascii_lowercase()
                                .strip_prefix("content-length:")
                                .map(|v| v.trim().to_string())
                        })
                        && body.len() >= length.parse::<usize>().unwrap_or(usize::MAX)
                    {
                        break Ok(());
                    }
                }
                Err(error) => break Err(error),
            }
        }
    })
    .await
    .expect("the server answers within 20 s");
    sending.abort();
    if let Err(error) = read {
        panic!(
            "the connection failed ({error}) after {:?}",
            String::from_utf8_lossy(&answer)
        );
    }
    String::from_utf8_lossy(&answer).into_owned()
}

#[actix_web::test]
async fn over_a_real_socket_the_client_reads_the_413() {
    let app = TestApp::new().await;
    let mut browser = app.user("org@limits.org", Role::Admin).await;
    let api = browser.api_client().await;
    let authorization = format!("Authorization: {}\r\n", api.headers[0].1);
    let state = app.state.clone();
    let server = actix_web::HttpServer::new(move || damka::web::app(state.clone()))
        .workers(1)
        .disable_signals()
        .bind(("127.0.0.1", 0))
        .unwrap();
    let port = server.addrs()[0].port();
    let server = server.run();
    let handle = server.handle();
    actix_web::rt::spawn(server);

    let body = vec![b'x'; 4 * MIB];
    // Announced length over the limit: refused before the body is read.
    let head = format!(
        "POST /api/v1/players HTTP/1.1\r\nHost: localhost\r\n{authorization}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    let answer = exchange(port, head, body.clone()).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(
        answer.contains("application/problem+json") && answer.contains("\"status\":413"),
        "{answer}"
    );

    // No length announced (chunked): refused once the limit is passed.
    let mut chunked = Vec::new();
    for chunk in body.chunks(64 * 1024) {
        chunked.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
        chunked.extend_from_slice(chunk);
        chunked.extend_from_slice(b"\r\n");
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    let head = format!(
        "POST /api/v1/players HTTP/1.1\r\nHost: localhost\r\n{authorization}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    );
    let answer = exchange(port, head, chunked.clone()).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");

    // A form, and a file sent as text.
    let head = format!(
        "POST /clubs HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    let answer = exchange(port, head, body.clone()).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("text/html"), "{answer}");
    let head = format!(
        "POST /api/v1/ratings/import HTTP/1.1\r\nHost: localhost\r\n{authorization}Content-Type: text/csv\r\nTransfer-Encoding: chunked\r\n\r\n"
    );
    let answer = exchange(port, head, chunked).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    handle.stop(false).await;
}
