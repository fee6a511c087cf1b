//! `damka-load`: a small HTTP/1.1 keep-alive load generator for benchmarking damka on
//! loopback.
//!
//! It opens `--connections` persistent connections, each sending one request after
//! another for `--warmup` (not measured) and then `--duration` (measured), and reports
//! requests per second, latency percentiles, status codes and errors. It only ever talks
//! to loopback addresses (127.0.0.0/8, `localhost`, `::1`): anything else is refused.
//!
//! `--login EMAIL:PASSWORD` signs in through the HTML form (as a browser would: CSRF
//! cookie and token, session cookie), creates an API token on the account page and sends
//! it as `Authorization: Bearer ...` with every request.
//!
//! `--method PUT --body A --body B` sends writes, each connection alternating the bodies.
//!
//! `--play-games N` (with `--login` as an organiser) plays N games of Russian draughts at
//! once through the games API, one connection each, and reports accepted moves per second
//! and the latency of a move (`games.rs`).
//!
//! `--live N --watch-url URL` (with `--play-games`) adds N Server-Sent Events subscribers
//! on another instance and times each move from its 201 to its event there (`live.rs`).
//!
//! `--in-events` plays the boards of Swiss events instead of standalone games (`events.rs`);
//! `--also-url` spreads the games over several instances; `--verify` reads every game back
//! at the end and checks it against what was acknowledged and against the rules
//! (`verify.rs`); `--expect-outage` keeps going through a server that is killed and
//! restarted during the run.
//!
//! Exit status: 0 when at most 1% of the measured requests failed (non-2xx status or a
//! transport error; in the games mode: every move answered 201), 1 otherwise, 2 on bad
//! arguments or a failed setup.
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::Parser;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

#[path = "damka_load/events.rs"]
mod events;
#[path = "damka_load/games.rs"]
mod games;
#[path = "damka_load/live.rs"]
mod live;
#[path = "damka_load/verify.rs"]
mod verify;

#[derive(Debug, Parser)]
#[command(
    name = "damka-load",
    about = "HTTP/1.1 keep-alive load generator for loopback benchmarks of damka",
    long_about = None
)]
struct Args {
    /// Target, e.g. `http://127.0.0.1:8080/api/v1/me`. Plain HTTP to a loopback host only.
    #[arg(long)]
    url: String,
    /// Request method: `GET` (default), `POST`, `PUT`, `PATCH` or `DELETE`.
    #[arg(long, default_value = "GET")]
    method: String,
    /// Request body; repeatable: each connection cycles through the bodies in turn (e.g. a
    /// result entered as `1-0`, then corrected to `0-1`, so every request really writes).
    /// Give the content type with `--header`.
    #[arg(long = "body")]
    bodies: Vec<String>,
    /// Extra request header `Name: value`; repeatable.
    #[arg(long = "header", short = 'H')]
    headers: Vec<String>,
    /// Concurrent keep-alive connections.
    #[arg(long, short = 'c', default_value_t = 64)]
    connections: usize,
    /// Measured duration (`10s`, `500ms`, `1m`; a bare number is seconds).
    #[arg(long, short = 'd', default_value = "10s", value_parser = parse_duration)]
    duration: Duration,
    /// Unmeasured warm-up before the measured duration, on the same connections.
    #[arg(long, default_value = "0s", value_parser = parse_duration)]
    warmup: Duration,
    /// A request that takes longer than this counts as an error (`timeout`).
    #[arg(long, default_value = "10s", value_parser = parse_duration)]
    timeout: Duration,
    /// Client threads. The client competes with the server for the CPU on loopback;
    /// one thread is enough for tens of thousands of requests per second.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Sign in as `EMAIL:PASSWORD` through the HTML form, create an API token and send it
    /// as `Authorization: Bearer <token>`.
    #[arg(long)]
    login: Option<String>,
    /// With `--login`: print the token on standard output and exit without loading.
    #[arg(long, requires = "login")]
    print_token: bool,
    /// Play N games of Russian draughts at once instead of repeating one request: one
    /// connection per game, each posting moves chosen among the legal ones (needs `--login`
    /// as an organiser or administrator; the path of `--url` is not used).
    #[arg(long, value_name = "N", requires = "login",
          conflicts_with_all = ["connections", "bodies", "method", "print_token"],
          value_parser = clap::value_parser!(u16).range(1..=10_000))]
    play_games: Option<u16>,
    /// Seed of the move choices of `--play-games` (the same seed plays the same games).
    #[arg(long, default_value_t = 1, requires = "play_games")]
    seed: u64,
    /// With `--play-games`: offer this many moves per second in all, each game moving at
    /// even intervals, and time each move from when it was due (default: every game moves
    /// as soon as its last move is answered).
    #[arg(long, value_name = "MOVES_PER_SEC", requires = "play_games", value_parser = parse_rate)]
    rate: Option<f64>,
    /// With `--play-games`: N Server-Sent Events subscribers spread over the games on the
    /// instance of `--watch-url`, timing each move from its 201 to its event there.
    #[arg(long, value_name = "N", requires_all = ["play_games", "watch_url"],
          value_parser = clap::value_parser!(u32).range(1..=20_000))]
    live: Option<u32>,
    /// The instance the `--live` subscribers watch, e.g. `http://127.0.0.1:8081/` (loopback
    /// only; its path is not used).
    #[arg(long, requires = "live")]
    watch_url: Option<String>,
    /// With `--play-games`: play the boards of Swiss events the tool runs as their
    /// organiser (2N players, rounds paired and published as the games end) instead of
    /// standalone games.
    #[arg(long, requires = "play_games", conflicts_with_all = ["live", "rate"])]
    in_events: bool,
    /// With `--play-games`: another instance of the same service (one database), e.g.
    /// `http://127.0.0.1:8081/`; repeatable. The games' connections are spread over
    /// `--url` and these in turn.
    #[arg(long = "also-url", value_name = "URL", requires = "play_games")]
    also_urls: Vec<String>,
    /// With `--play-games`: when the run is over, read every game back and check that
    /// every acknowledged move is stored, every game replays legally, and every finished
    /// event game's result is on its board. Problems make the exit status 1.
    #[arg(long, requires = "play_games")]
    verify: bool,
    /// With `--play-games`: play on past `--duration` until N games are over (at most five
    /// minutes more), so a busy machine still finishes games; rates are then per second of
    /// the whole measured time.
    #[arg(long, value_name = "N", default_value_t = 0, requires = "play_games")]
    min_finished: u64,
    /// With `--verify`: the server may be killed and restarted during the run. Failed
    /// requests are retried and do not fail the run; the verification decides.
    #[arg(long, requires = "verify")]
    expect_outage: bool,
    /// Print the result as one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

fn parse_rate(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(rate) if rate.is_finite() && rate > 0.0 && rate <= 1e6 => Ok(rate),
        _ => Err(format!(
            "`{text}` is not a rate between 0 and 1000000 moves per second"
        )),
    }
}

fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let (number, unit) = match text.find(|c: char| c.is_ascii_alphabetic()) {
        Some(at) => text.split_at(at),
        None => (text, "s"),
    };
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a duration such as 10s, 500ms or 1m"))?;
    let seconds = match unit {
        "ms" => value / 1000.0,
        "s" => value,
        "m" | "min" => value * 60.0,
        _ => {
            return Err(format!(
                "unknown unit `{unit}` in `{text}` (use ms, s or m)"
            ));
        }
    };
    if !(seconds.is_finite() && (0.0..=24.0 * 3600.0).contains(&seconds)) {
        return Err(format!("`{text}` is out of range"));
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// A parsed `http://host:port/path` on a loopback address.
#[derive(Debug, Clone)]
struct Target {
    addr: SocketAddr,
    /// The `Host` header value.
    authority: String,
    /// Path and query.
    path: String,
}

fn is_loopback(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => v4.is_loopback(),
        IpAddr::V6(v6) => {
            v6.is_loopback() || v6.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
        }
    }
}

fn parse_target(url: &str) -> anyhow::Result<Target> {
    let Some(rest) = url.strip_prefix("http://") else {
        bail!("--url must start with http:// (plain HTTP on loopback), got `{url}`");
    };
    let (authority, path) = match rest.find(['/', '?']) {
        Some(at) if rest.as_bytes()[at] == b'?' => (&rest[..at], format!("/{}", &rest[at..])),
        Some(at) => (&rest[..at], rest[at..].to_string()),
        None => (rest, "/".to_string()),
    };
    if authority.contains('@') {
        bail!("user information in --url is not supported");
    }
    let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
        let (host, after) = v6
            .split_once(']')
            .with_context(|| format!("bad IPv6 address in `{url}`"))?;
        let port = after.strip_prefix(':').unwrap_or("80");
        (host, port)
    } else {
        match authority.rsplit_once(':') {
            Some((host, port)) => (host, port),
            None => (authority, "80"),
        }
    };
    let port: u16 = port
        .parse()
        .with_context(|| format!("bad port `{port}` in `{url}`"))?;
    let ip: IpAddr = if host.eq_ignore_ascii_case("localhost") {
        IpAddr::V4(Ipv4Addr::LOCALHOST)
    } else {
        match host.parse::<IpAddr>() {
            Ok(ip) => ip,
            Err(_) => bail!(
                "refusing host `{host}`: damka-load only sends load to loopback addresses \
                 (127.0.0.0/8, localhost, ::1), given as literal addresses"
            ),
        }
    };
    if !is_loopback(ip) {
        bail!(
            "refusing host `{host}`: it is not a loopback address; damka-load only sends load \
             to 127.0.0.0/8, localhost and ::1"
        );
    }
    Ok(Target {
        addr: SocketAddr::new(ip, port),
        authority: authority.to_string(),
        path,
    })
}

/// Why a request did not produce a response.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Failure {
    Connect,
    Write,
    Read,
    /// The server closed the connection in the middle of a response.
    Closed,
    /// The response could not be parsed.
    Malformed,
    Timeout,
}

impl Failure {
    fn label(self) -> &'static str {
        match self {
            Failure::Connect => "connect",
            Failure::Write => "write",
            Failure::Read => "read",
            Failure::Closed => "closed",
            Failure::Malformed => "malformed",
            Failure::Timeout => "timeout",
        }
    }
}

/// A response; headers and body are only kept when asked for.
#[derive(Debug, Default)]
struct Response {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    /// Bytes of body received (also when not kept).
    body_len: usize,
    /// The server will close the connection after this response.
    close: bool,
}

impl Response {
    fn cookies(&self) -> impl Iterator<Item = (&str, &str)> {
        self.headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case("set-cookie"))
            .filter_map(|(_, v)| v.split(';').next()?.trim().split_once('='))
    }
}

const MAX_HEAD: usize = 64 * 1024;
const READ_CHUNK: usize = 16 * 1024;

/// One HTTP/1.1 connection with its read buffer.
struct Conn {
    stream: TcpStream,
    buf: Vec<u8>,
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

impl Conn {
    async fn open(addr: SocketAddr) -> Result<Conn, Failure> {
        let stream = TcpStream::connect(addr)
            .await
            .map_err(|_| Failure::Connect)?;
        stream.set_nodelay(true).map_err(|_| Failure::Connect)?;
        Ok(Conn {
            stream,
            buf: Vec::with_capacity(READ_CHUNK),
        })
    }

    /// Reads more bytes into the buffer; false at end of stream.
    async fn fill(&mut self) -> Result<bool, Failure> {
        let old = self.buf.len();
        self.buf.resize(old + READ_CHUNK, 0);
        let read = self.stream.read(&mut self.buf[old..]).await;
        match read {
            Ok(n) => {
                self.buf.truncate(old + n);
                Ok(n > 0)
            }
            Err(_) => {
                self.buf.truncate(old);
                Err(Failure::Read)
            }
        }
    }

    /// Makes sure at least `len` bytes are buffered.
    async fn need(&mut self, len: usize) -> Result<(), Failure> {
        while self.buf.len() < len {
            if !self.fill().await? {
                return Err(Failure::Closed);
            }
        }
        Ok(())
    }

    /// Reads a line (without CRLF) starting at `from`; returns it and the offset after it.
    async fn line(&mut self, from: usize) -> Result<(String, usize), Failure> {
        loop {
            if let Some(at) = find(&self.buf[from..], b"\r\n") {
                let line = String::from_utf8_lossy(&self.buf[from..from + at]).into_owned();
                return Ok((line, from + at + 2));
            }
            if self.buf.len() - from > MAX_HEAD {
                return Err(Failure::Malformed);
            }
            if !self.fill().await? {
                return Err(Failure::Closed);
            }
        }
    }

    /// Reads one response. `Err(Closed)` with nothing read means the server had closed an
    /// idle connection.
    async fn read_response(&mut self, keep: bool, head_request: bool) -> Result<Response, Failure> {
        loop {
            let response = self.read_one(keep, head_request).await?;
            // Interim responses (100 Continue and the like) precede the real one.
            if !(100..200).contains(&response.status) || response.status == 101 {
                return Ok(response);
            }
        }
    }

    async fn read_one(&mut self, keep: bool, head_request: bool) -> Result<Response, Failure> {
        let head_end = loop {
            if let Some(at) = find(&self.buf, b"\r\n\r\n") {
                break at;
            }
            if self.buf.len() > MAX_HEAD {
                return Err(Failure::Malformed);
            }
            if !self.fill().await? {
                return Err(Failure::Closed);
            }
        };
        let head = std::str::from_utf8(&self.buf[..head_end]).map_err(|_| Failure::Malformed)?;
        let mut lines = head.split("\r\n");
        let status_line = lines.next().ok_or(Failure::Malformed)?;
        let mut parts = status_line.splitn(3, ' ');
        let version = parts.next().ok_or(Failure::Malformed)?;
        if !version.starts_with("HTTP/1.") {
            return Err(Failure::Malformed);
        }
        let status: u16 = parts
            .next()
            .and_then(|s| s.parse().ok())
            .ok_or(Failure::Malformed)?;
        let mut close = version == "HTTP/1.0";
        let mut content_length: Option<usize> = None;
        let mut chunked = false;
        let mut headers = Vec::new();
        for line in lines {
            let (name, value) = line.split_once(':').ok_or(Failure::Malformed)?;
            let value = value.trim();
            if name.eq_ignore_ascii_case("content-length") {
                content_length = Some(value.parse().map_err(|_| Failure::Malformed)?);
            } else if name.eq_ignore_ascii_case("transfer-encoding") {
                chunked = value.to_ascii_lowercase().contains("chunked");
            } else if name.eq_ignore_ascii_case("connection") {
                let value = value.to_ascii_lowercase();
                if value.contains("close") {
                    close = true;
                } else if value.contains("keep-alive") {
                    close = false;
                }
            }
            if keep {
                headers.push((name.trim().to_string(), value.to_string()));
            }
        }
        let mut response = Response {
            status,
            headers,
            close,
            ..Response::default()
        };
        let body_start = head_end + 4;
        let no_body =
            head_request || (100..200).contains(&status) || status == 204 || status == 304;
        let consumed = if no_body {
            body_start
        } else if chunked {
            let mut at = body_start;
            loop {
                let (size_line, after) = self.line(at).await?;
                let size_text = size_line.split(';').next().unwrap_or("").trim();
                let size = usize::from_str_radix(size_text, 16).map_err(|_| Failure::Malformed)?;
                at = after;
                if size == 0 {
                    // Trailers, up to an empty line.
                    loop {
                        let (trailer, after) = self.line(at).await?;
                        at = after;
                        if trailer.is_empty() {
                            break;
                        }
                    }
                    break at;
                }
                self.need(at + size + 2).await?;
                if keep {
                    response.body.extend_from_slice(&self.buf[at..at + size]);
                }
                response.body_len += size;
                if &self.buf[at + size..at + size + 2] != b"\r\n" {
                    return Err(Failure::Malformed);
                }
                at += size + 2;
            }
        } else if let Some(len) = content_length {
            self.need(body_start + len).await?;
            if keep {
                response
                    .body
                    .extend_from_slice(&self.buf[body_start..body_start + len]);
            }
            response.body_len = len;
            body_start + len
        } else {
            // No framing: the body runs until the server closes the connection.
            while self.fill().await? {}
            response.close = true;
            if keep {
                response.body.extend_from_slice(&self.buf[body_start..]);
            }
            response.body_len = self.buf.len() - body_start;
            self.buf.len()
        };
        self.buf.drain(..consumed);
        Ok(response)
    }
}

/// Builds the bytes of a request.
fn request_bytes(
    method: &str,
    target: &Target,
    path: &str,
    headers: &[(String, String)],
    body: &[u8],
) -> Vec<u8> {
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nUser-Agent: damka-load\r\nAccept: */*\r\n",
        target.authority
    );
    for (name, value) in headers {
        let _ = write!(head, "{name}: {value}\r\n");
    }
    if !body.is_empty() || method == "POST" {
        let _ = write!(head, "Content-Length: {}\r\n", body.len());
    }
    head.push_str("\r\n");
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

/// A single request on a fresh connection, keeping headers and body (for the sign-in).
async fn fetch(
    target: &Target,
    method: &str,
    path: &str,
    headers: &[(String, String)],
    body: &[u8],
) -> anyhow::Result<Response> {
    let mut headers = headers.to_vec();
    headers.push(("Connection".into(), "close".into()));
    let bytes = request_bytes(method, target, path, &headers, body);
    let attempt = async {
        let mut conn = Conn::open(target.addr).await?;
        conn.stream
            .write_all(&bytes)
            .await
            .map_err(|_| Failure::Write)?;
        conn.read_response(true, method == "HEAD").await
    };
    match tokio::time::timeout(Duration::from_secs(30), attempt).await {
        Ok(Ok(response)) => Ok(response),
        Ok(Err(failure)) => bail!("{method} {path} on {}: {}", target.addr, failure.label()),
        Err(_) => bail!("{method} {path} on {}: no answer within 30 s", target.addr),
    }
}

fn form_encode(pairs: &[(&str, &str)]) -> String {
    let mut out = String::new();
    for (i, (name, value)) in pairs.iter().enumerate() {
        if i > 0 {
            out.push('&');
        }
        for (j, text) in [name, value].into_iter().enumerate() {
            if j == 1 {
                out.push('=');
            }
            for byte in text.bytes() {
                match byte {
                    b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'*' => {
                        out.push(char::from(byte));
                    }
                    b' ' => out.push('+'),
                    _ => {
                        let _ = write!(out, "%{byte:02X}");
                    }
                }
            }
        }
    }
    out
}

fn html_unescape(text: &str) -> String {
    text.replace("&quot;", "\"")
        .replace("&#34;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&#x2f;", "/")
        .replace("&#x2F;", "/")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// The value of the first hidden `csrf_token` input of a page.
fn csrf_input(page: &str) -> Option<String> {
    let at = page.find("name=\"csrf_token\"")?;
    let rest = &page[at..];
    let value = rest.find("value=\"")? + "value=\"".len();
    let end = rest[value..].find('"')?;
    Some(html_unescape(&rest[value..value + end]))
}

/// The text of `<p class="secret" id="new-token">TOKEN</p>`.
fn new_token(page: &str) -> Option<String> {
    let at = page.find("id=\"new-token\"")?;
    let rest = &page[at..];
    let start = rest.find('>')? + 1;
    let end = rest[start..].find('<')?;
    Some(html_unescape(rest[start..start + end].trim())).filter(|t| !t.is_empty())
}

#[derive(Default)]
struct Jar(BTreeMap<String, String>);

impl Jar {
    fn take(&mut self, response: &Response) {
        for (name, value) in response.cookies() {
            if value.is_empty() {
                self.0.remove(name);
            } else {
                self.0.insert(name.to_string(), value.to_string());
            }
        }
    }

    fn header(&self) -> (String, String) {
        let value = self
            .0
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect::<Vec<_>>()
            .join("; ");
        ("Cookie".into(), value)
    }
}

fn page_text(response: &Response) -> String {
    String::from_utf8_lossy(&response.body).into_owned()
}

/// Signs in through the HTML form and creates an API token on the account page.
async fn obtain_token(target: &Target, login: &str) -> anyhow::Result<String> {
    let (email, password) = login
        .split_once(':')
        .context("--login must be EMAIL:PASSWORD")?;
    let form_headers = |jar: &Jar| {
        vec![
            jar.header(),
            (
                "Content-Type".into(),
                "application/x-www-form-urlencoded".into(),
            ),
        ]
    };
    let mut jar = Jar::default();

    let login_page = fetch(target, "GET", "/login", &[], b"").await?;
    if login_page.status != 200 {
        bail!("GET /login answered {}", login_page.status);
    }
    jar.take(&login_page);
    let csrf = csrf_input(&page_text(&login_page)).context("no csrf_token input on /login")?;
    if !jar.0.contains_key("damka_csrf") {
        bail!("GET /login did not set the damka_csrf cookie");
    }

    let body = form_encode(&[
        ("csrf_token", &csrf),
        ("next", ""),
        ("email", email),
        ("password", password),
    ]);
    let signed_in = fetch(
        target,
        "POST",
        "/login",
        &form_headers(&jar),
        body.as_bytes(),
    )
    .await?;
    match signed_in.status {
        300..=399 => {}
        401 => bail!("signing in as {email} failed: wrong email or password"),
        other => bail!(
            "POST /login answered {other}: {}",
            page_text(&signed_in).chars().take(300).collect::<String>()
        ),
    }
    jar.take(&signed_in);
    if !jar.0.contains_key("damka_session") {
        bail!("POST /login did not set the damka_session cookie");
    }
    jar.0.remove("damka_flash");

    let account = fetch(target, "GET", "/account", &[jar.header()], b"").await?;
    if account.status != 200 {
        bail!("GET /account answered {} after signing in", account.status);
    }
    jar.take(&account);
    jar.0.remove("damka_flash");
    let csrf = csrf_input(&page_text(&account)).context("no csrf_token input on /account")?;

    let name = format!(
        "damka-load-{}",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis())
            .unwrap_or_default()
    );
    let body = form_encode(&[("csrf_token", &csrf), ("name", &name)]);
    let created = fetch(
        target,
        "POST",
        "/account/tokens",
        &form_headers(&jar),
        body.as_bytes(),
    )
    .await?;
    // The account page answers with a redirect (post/redirect/get): the new token travels
    // in a short-lived cookie and is shown once on the page it redirects to.
    let shown = match created.status {
        200 => created,
        300..=399 => {
            jar.take(&created);
            let page = fetch(target, "GET", "/account", &[jar.header()], b"").await?;
            if page.status != 200 {
                bail!(
                    "GET /account answered {} after creating a token",
                    page.status
                );
            }
            page
        }
        other => bail!("POST /account/tokens answered {other}"),
    };
    new_token(&page_text(&shown))
        .context("the account page did not show the new token (id=\"new-token\")")
}

/// What one connection measured.
#[derive(Default)]
struct Stats {
    /// Latencies in microseconds.
    latencies: Vec<u32>,
    statuses: BTreeMap<u16, u64>,
    failures: BTreeMap<Failure, u64>,
    body_bytes: u64,
    reconnects: u64,
}

impl Stats {
    fn merge(&mut self, other: Stats) {
        self.latencies.extend(other.latencies);
        for (status, n) in other.statuses {
            *self.statuses.entry(status).or_default() += n;
        }
        for (failure, n) in other.failures {
            *self.failures.entry(failure).or_default() += n;
        }
        self.body_bytes += other.body_bytes;
        self.reconnects += other.reconnects;
    }

    /// The statuses seen, as `{"201": 812, ...}`.
    fn statuses_json(&self) -> serde_json::Map<String, serde_json::Value> {
        self.statuses
            .iter()
            .map(|(s, n)| (s.to_string(), (*n).into()))
            .collect()
    }

    /// The failures seen, as `{"timeout": 3, ...}`.
    fn failures_json(&self) -> serde_json::Map<String, serde_json::Value> {
        self.failures
            .iter()
            .map(|(f, n)| (f.label().to_string(), (*n).into()))
            .collect()
    }

    /// The statuses seen, as `201: 812, 409: 2`, or `none`.
    fn statuses_text(&self) -> String {
        counts_text(self.statuses.iter().map(|(s, n)| (s.to_string(), *n)))
    }

    /// The failures seen, as `timeout: 3`, or `none`.
    fn failures_text(&self) -> String {
        counts_text(
            self.failures
                .iter()
                .map(|(f, n)| (f.label().to_string(), *n)),
        )
    }
}

/// `name: count` pairs joined by commas, or `none`.
fn counts_text(counts: impl Iterator<Item = (String, u64)>) -> String {
    let text = counts
        .map(|(name, n)| format!("{name}: {n}"))
        .collect::<Vec<_>>()
        .join(", ");
    if text.is_empty() {
        "none".to_string()
    } else {
        text
    }
}

/// Sends one request on `conn` (opening it when needed) and reads the response.
async fn exchange(
    conn: &mut Option<Conn>,
    addr: SocketAddr,
    request: &[u8],
    keep: bool,
    stats: &mut Stats,
) -> Result<Response, Failure> {
    let reused = conn.is_some();
    let live = match conn {
        Some(live) => live,
        None => conn.insert(Conn::open(addr).await?),
    };
    let first = async {
        live.stream
            .write_all(request)
            .await
            .map_err(|_| Failure::Write)?;
        live.read_response(keep, false).await
    }
    .await;
    match first {
        // A kept-alive connection the server had already closed: reconnect once.
        Err(Failure::Closed | Failure::Write | Failure::Read) if reused && live.buf.is_empty() => {
            stats.reconnects += 1;
            let fresh = conn.insert(Conn::open(addr).await?);
            fresh
                .stream
                .write_all(request)
                .await
                .map_err(|_| Failure::Write)?;
            fresh.read_response(keep, false).await
        }
        other => other,
    }
}

/// Sends requests one after another on one connection; the `first`-th of `requests`
/// first, then the next ones in turn.
async fn connection_loop(
    addr: SocketAddr,
    requests: Arc<[Vec<u8>]>,
    first: usize,
    measure_from: Instant,
    deadline: Instant,
    timeout: Duration,
) -> Stats {
    let mut stats = Stats::default();
    let mut conn: Option<Conn> = None;
    let mut next = first;
    loop {
        let request = &requests[next % requests.len()];
        next += 1;
        let started = Instant::now();
        if started >= deadline {
            break;
        }
        let measured = started >= measure_from;
        let limit = (started + timeout).min(deadline);
        let outcome = tokio::time::timeout_at(
            limit.into(),
            exchange(&mut conn, addr, request, false, &mut stats),
        )
        .await;
        let finished = Instant::now();
        match outcome {
            Err(_) => {
                conn = None;
                if finished >= deadline {
                    break;
                }
                if measured {
                    *stats.failures.entry(Failure::Timeout).or_default() += 1;
                }
            }
            Ok(Err(failure)) => {
                conn = None;
                if measured {
                    *stats.failures.entry(failure).or_default() += 1;
                }
                if failure == Failure::Connect {
                    // Do not spin on a server that is not there.
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            }
            Ok(Ok(response)) => {
                if measured {
                    let micros = finished.duration_since(started).as_micros();
                    stats
                        .latencies
                        .push(u32::try_from(micros).unwrap_or(u32::MAX));
                    *stats.statuses.entry(response.status).or_default() += 1;
                    stats.body_bytes += response.body_len as u64;
                }
                if response.close {
                    conn = None;
                }
            }
        }
    }
    stats
}

/// Nearest-rank percentile of sorted samples.
fn percentile(sorted: &[u32], p: f64) -> u32 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = (p / 100.0 * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// The latencies of a run as both reports show them: the mean, the percentiles and the
/// maximum, in milliseconds.
struct LatencySummary {
    mean_ms: f64,
    p50: u32,
    p90: u32,
    p99: u32,
    p999: u32,
    max: u32,
}

impl LatencySummary {
    /// Of `sorted` samples in microseconds.
    fn of(sorted: &[u32]) -> LatencySummary {
        let mean_ms = if sorted.is_empty() {
            0.0
        } else {
            sorted.iter().map(|&l| f64::from(l)).sum::<f64>() / sorted.len() as f64 / 1000.0
        };
        LatencySummary {
            mean_ms,
            p50: percentile(sorted, 50.0),
            p90: percentile(sorted, 90.0),
            p99: percentile(sorted, 99.0),
            p999: percentile(sorted, 99.9),
            max: sorted.last().copied().unwrap_or(0),
        }
    }

    fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "mean": (self.mean_ms * 1000.0).round() / 1000.0,
            "p50": ms(self.p50), "p90": ms(self.p90), "p99": ms(self.p99),
            "p99_9": ms(self.p999), "max": ms(self.max),
        })
    }

    fn text(&self) -> String {
        format!(
            "  latency ms   mean {:.2}  p50 {:.2}  p90 {:.2}  p99 {:.2}  p99.9 {:.2}  max {:.2}",
            self.mean_ms,
            ms(self.p50),
            ms(self.p90),
            ms(self.p99),
            ms(self.p999),
            ms(self.max)
        )
    }
}

fn ms(micros: u32) -> f64 {
    f64::from(micros) / 1000.0
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(args) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("damka-load: {err:#}");
            ExitCode::from(2)
        }
    }
}

fn run(args: Args) -> anyhow::Result<ExitCode> {
    let target = parse_target(&args.url)?;
    if args.connections == 0 || args.connections > 10_000 {
        bail!("--connections must be between 1 and 10000");
    }
    if args.duration.is_zero() {
        bail!("--duration must be positive");
    }
    let method = args.method.to_ascii_uppercase();
    if !["GET", "POST", "PUT", "PATCH", "DELETE"].contains(&method.as_str()) {
        bail!("--method must be GET, POST, PUT, PATCH or DELETE");
    }
    let mut headers = Vec::new();
    for header in &args.headers {
        let (name, value) = header
            .split_once(':')
            .with_context(|| format!("--header `{header}` is not `Name: value`"))?;
        let name = name.trim();
        if name.is_empty() || name.contains(char::is_whitespace) || value.contains(['\r', '\n']) {
            bail!("--header `{header}` is not `Name: value`");
        }
        headers.push((name.to_string(), value.trim().to_string()));
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(args.threads.max(1))
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async move {
        if let Some(login) = &args.login {
            let token = obtain_token(&target, login).await.context("--login")?;
            if args.print_token {
                println!("{token}");
                return Ok(ExitCode::SUCCESS);
            }
            eprintln!("damka-load: signed in and created an API token for the run");
            headers.push(("Authorization".into(), format!("Bearer {token}")));
        }
        if let Some(games) = args.play_games {
            let also = args
                .also_urls
                .iter()
                .map(|url| parse_target(url).context("--also-url"))
                .collect::<anyhow::Result<Vec<_>>>()?;
            let plan = games::Plan {
                target: target.clone(),
                also,
                in_events: args.in_events,
                verify: args.verify,
                expect_outage: args.expect_outage,
                headers,
                games: usize::from(games),
                seed: args.seed,
                warmup: args.warmup,
                duration: args.duration,
                min_finished: args.min_finished,
                timeout: args.timeout,
                rate: args.rate,
                live: match (args.live, &args.watch_url) {
                    (Some(subscribers), Some(url)) => Some(live::Watch {
                        target: parse_target(url).context("--watch-url")?,
                        subscribers: subscribers as usize,
                    }),
                    _ => None,
                },
            };
            return games::run(plan, args.json).await;
        }
        let bodies: Vec<&[u8]> = if args.bodies.is_empty() {
            vec![b""]
        } else {
            args.bodies.iter().map(|b| b.as_bytes()).collect()
        };
        let requests: Arc<[Vec<u8>]> = bodies
            .iter()
            .map(|body| request_bytes(&method, &target, &target.path, &headers, body))
            .collect();

        let begin = Instant::now();
        let measure_from = begin + args.warmup;
        let deadline = measure_from + args.duration;
        let tasks: Vec<_> = (0..args.connections)
            .map(|i| {
                tokio::spawn(connection_loop(
                    target.addr,
                    requests.clone(),
                    i,
                    measure_from,
                    deadline,
                    args.timeout,
                ))
            })
            .collect();
        let mut stats = Stats::default();
        for task in tasks {
            stats.merge(task.await.context("a connection task failed")?);
        }
        report(&args, &target, stats)
    })
}

fn report(args: &Args, target: &Target, mut stats: Stats) -> anyhow::Result<ExitCode> {
    stats.latencies.sort_unstable();
    let responses = stats.latencies.len() as u64;
    let failures: u64 = stats.failures.values().sum();
    let ok: u64 = stats
        .statuses
        .iter()
        .filter(|(s, _)| (200..300).contains(*s))
        .map(|(_, n)| n)
        .sum();
    let attempts = responses + failures;
    let bad = attempts - ok;
    let seconds = args.duration.as_secs_f64();
    let rps = responses as f64 / seconds;
    let latency = LatencySummary::of(&stats.latencies);
    let failed = attempts == 0 || bad * 100 > attempts;
    if args.json {
        let statuses = stats.statuses_json();
        let errors = stats.failures_json();
        let out = serde_json::json!({
            "url": args.url,
            "connections": args.connections,
            "duration_s": seconds,
            "warmup_s": args.warmup.as_secs_f64(),
            "requests": responses,
            "requests_per_s": (rps * 10.0).round() / 10.0,
            "latency_ms": latency.json(),
            "statuses": statuses,
            "errors": errors,
            "non_2xx_or_failed": bad,
            "reconnects": stats.reconnects,
            "body_bytes": stats.body_bytes,
            "ok": !failed,
        });
        println!("{out}");
    } else {
        println!(
            "{} http://{}{} with {} connections for {:.1} s (after {:.1} s warm-up), {} client thread(s)",
            args.method.to_ascii_uppercase(),
            target.addr,
            target.path,
            args.connections,
            seconds,
            args.warmup.as_secs_f64(),
            args.threads.max(1)
        );
        println!("  requests     {responses}");
        println!("  requests/s   {rps:.1}");
        println!("{}", latency.text());
        println!("  statuses     {}", stats.statuses_text());
        println!("  errors       {}", stats.failures_text());
        println!(
            "  transfer     {:.1} MiB of bodies ({:.1} MiB/s), {} reconnects",
            stats.body_bytes as f64 / 1048576.0,
            stats.body_bytes as f64 / 1048576.0 / seconds,
            stats.reconnects
        );
    }
    if failed {
        eprintln!("damka-load: {bad} of {attempts} requests were not 2xx or failed (more than 1%)");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_targets_are_accepted() {
        for ok in [
            "http://127.0.0.1:8080/",
            "http://127.1.2.3:80/api/v1/me",
            "http://localhost:3000",
            "http://[::1]:8080/x?y=1",
        ] {
            assert!(parse_target(ok).is_ok(), "{ok}");
        }
        for refused in [
            "http://10.0.0.1:8080/",
            "http://example.com/",
            "http://0.0.0.0:8080/",
            "http://[::]:8080/",
            "https://127.0.0.1/",
            "http://user@127.0.0.1/",
        ] {
            assert!(parse_target(refused).is_err(), "{refused}");
        }
    }

    #[test]
    fn targets_keep_path_and_query() -> anyhow::Result<()> {
        let target = parse_target("http://127.0.0.1:9000/players?q=a")?;
        assert_eq!(target.path, "/players?q=a");
        assert_eq!(target.authority, "127.0.0.1:9000");
        assert_eq!(parse_target("http://localhost:9000?x")?.path, "/?x");
        Ok(())
    }

    #[test]
    fn durations_parse() {
        assert_eq!(parse_duration("10s"), Ok(Duration::from_secs(10)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("2"), Ok(Duration::from_secs(2)));
        assert_eq!(parse_duration("1m"), Ok(Duration::from_secs(60)));
        assert!(parse_duration("ten").is_err());
        assert!(parse_duration("5h").is_err());
        assert_eq!(parse_rate("1500"), Ok(1500.0));
        assert!(parse_rate("0").is_err());
        assert!(parse_rate("fast").is_err());
    }

    #[test]
    fn percentiles_use_nearest_rank() {
        let samples: Vec<u32> = (1..=100).collect();
        assert_eq!(percentile(&samples, 50.0), 50);
        assert_eq!(percentile(&samples, 99.0), 99);
        assert_eq!(percentile(&samples, 100.0), 100);
        assert_eq!(percentile(&[], 99.0), 0);
    }

    #[test]
    fn page_scraping() {
        let page = r#"<input type="hidden" name="csrf_token" value="ab&#x2f;c"><p class="secret" id="new-token">dk_123</p>"#;
        assert_eq!(csrf_input(page).as_deref(), Some("ab/c"));
        assert_eq!(new_token(page).as_deref(), Some("dk_123"));
        assert_eq!(form_encode(&[("a b", "x@y.z&")]), "a+b=x%40y.z%26");
    }
}
