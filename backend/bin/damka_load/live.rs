//! `--live N` (with `--play-games`): N Server-Sent Events subscribers spread evenly over
//! the games, connected to another instance (`--watch-url`), measure how long a move
//! takes from its `201 Created` on the playing instance to its `move` event at each
//! subscriber of the watching one (through the database: PostgreSQL NOTIFY and that
//! instance's listener).
//!
//! Every subscriber opens `GET /api/v1/games/{id}/stream` and waits for its first `state`
//! before the games start. Each measured move is expected once at each subscriber of its
//! game; one that has not arrived a second after the run is counted missed. An event that
//! arrives before the mover has read its 201 counts as 0 ms.
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::task::JoinSet;

use super::{LatencySummary, Target};

/// How long after the run subscribers still wait for the last moves' events.
const GRACE: Duration = Duration::from_secs(1);
/// Subscribers connected at once while setting up (a listen backlog is finite).
const CONNECT_BATCH: usize = 100;

/// Where and how many subscribers watch.
#[derive(Clone)]
pub struct Watch {
    pub target: Target,
    pub subscribers: usize,
}

/// When each measured move was acknowledged (201 read), by (game, ply).
#[derive(Clone, Default)]
pub struct Acks(Arc<Mutex<HashMap<(i64, i32), Instant>>>);

impl Acks {
    pub fn stored(&self, game: i64, ply: i32, at: Instant) {
        if let Ok(mut acks) = self.0.lock() {
            acks.insert((game, ply), at);
        }
    }
}

/// The subscribers, connected and running.
pub struct Watching {
    tasks: JoinSet<anyhow::Result<Vec<(i64, i32, Instant)>>>,
    /// Subscribers per game.
    per_game: HashMap<i64, u64>,
    stop: Arc<Mutex<Option<Instant>>>,
    subscribers: usize,
    target: Target,
}

/// What the subscribers saw.
pub struct LiveReport {
    pub subscribers: usize,
    pub url: String,
    pub expected: u64,
    pub delivered: u64,
    pub missed: u64,
    pub latency: LatencySummary,
}

impl LiveReport {
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "subscribers": self.subscribers,
            "watch_url": self.url,
            "expected_events": self.expected,
            "delivered_events": self.delivered,
            "missed_events": self.missed,
            "move_to_event_latency_ms": self.latency.json(),
        })
    }

    pub fn text(&self) -> String {
        format!(
            "  live         {} subscribers on {}: {} move events delivered of {} expected, {} missed\n\
             {}  (from a move's 201 to its event on the other instance)",
            self.subscribers,
            self.url,
            self.delivered,
            self.expected,
            self.missed,
            self.latency.text().replacen("latency ms", "event ms  ", 1)
        )
    }
}

/// Connects `watch.subscribers` subscribers over `games` (round robin) and returns once
/// each has its game's first `state`.
pub async fn start(watch: &Watch, games: &[i64]) -> anyhow::Result<Watching> {
    if games.is_empty() {
        bail!("no games to watch");
    }
    let stop: Arc<Mutex<Option<Instant>>> = Arc::default();
    let mut per_game: HashMap<i64, u64> = HashMap::new();
    let mut tasks = JoinSet::new();
    let started = Instant::now();
    for batch in (0..watch.subscribers)
        .collect::<Vec<_>>()
        .chunks(CONNECT_BATCH)
    {
        let mut ready = JoinSet::new();
        for &index in batch {
            let game = games[index % games.len()];
            *per_game.entry(game).or_default() += 1;
            let target = watch.target.clone();
            ready.spawn(async move { Subscriber::connect(&target, game).await });
        }
        while let Some(connected) = ready.join_next().await {
            let subscriber = connected.context("a subscriber task failed")??;
            let stop = stop.clone();
            tasks.spawn(subscriber.run(stop));
        }
    }
    eprintln!(
        "damka-load: {} subscribers watching {} games on http://{}/ ({:.1} s to connect)",
        watch.subscribers,
        per_game.len(),
        watch.target.authority,
        started.elapsed().as_secs_f64()
    );
    Ok(Watching {
        tasks,
        per_game,
        stop,
        subscribers: watch.subscribers,
        target: watch.target.clone(),
    })
}

impl Watching {
    /// Lets the subscribers wait `GRACE` past `deadline`, then matches their events with
    /// the moves acknowledged.
    pub async fn finish(mut self, deadline: Instant, acks: &Acks) -> anyhow::Result<LiveReport> {
        if let Ok(mut stop) = self.stop.lock() {
            *stop = Some(deadline + GRACE);
        }
        let mut latencies = Vec::new();
        let acked = acks.0.lock().map(|a| a.clone()).unwrap_or_default();
        while let Some(done) = self.tasks.join_next().await {
            for (game, ply, at) in done.context("a subscriber task failed")?? {
                if let Some(stored) = acked.get(&(game, ply)) {
                    let micros = at.saturating_duration_since(*stored).as_micros();
                    latencies.push(u32::try_from(micros).unwrap_or(u32::MAX));
                }
            }
        }
        latencies.sort_unstable();
        let expected: u64 = acked
            .keys()
            .map(|(game, _)| self.per_game.get(game).copied().unwrap_or(0))
            .sum();
        let delivered = latencies.len() as u64;
        Ok(LiveReport {
            subscribers: self.subscribers,
            url: format!("http://{}/", self.target.authority),
            expected,
            delivered,
            missed: expected.saturating_sub(delivered),
            latency: LatencySummary::of(&latencies),
        })
    }
}

/// One stream, connected and past its first `state`.
struct Subscriber {
    stream: TcpStream,
    game: i64,
    /// Bytes read and not yet taken apart (chunked framing).
    raw: Vec<u8>,
    /// Event text not yet taken apart.
    text: String,
}

impl Subscriber {
    async fn connect(target: &Target, game: i64) -> anyhow::Result<Subscriber> {
        let mut stream = TcpStream::connect(target.addr)
            .await
            .with_context(|| format!("connecting a subscriber of game {game}"))?;
        stream.set_nodelay(true)?;
        let request = format!(
            "GET /api/v1/games/{game}/stream HTTP/1.1\r\nHost: {}\r\nUser-Agent: damka-load\r\n\
             Accept: text/event-stream\r\n\r\n",
            target.authority
        );
        stream.write_all(request.as_bytes()).await?;
        let mut subscriber = Subscriber {
            stream,
            game,
            raw: Vec::new(),
            text: String::new(),
        };
        let head = loop {
            if let Some(end) = find(&subscriber.raw, b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&subscriber.raw[..end]).to_string();
                subscriber.raw.drain(..end + 4);
                break head;
            }
            subscriber.read(Duration::from_secs(30)).await?;
        };
        if !head.starts_with("HTTP/1.1 200") {
            bail!("the stream of game {game} answered: {head}");
        }
        // The first event is the game's state.
        loop {
            if subscriber
                .next_event()?
                .is_some_and(|(event, _)| event == "state")
            {
                return Ok(subscriber);
            }
            subscriber.read(Duration::from_secs(30)).await?;
        }
    }

    async fn read(&mut self, within: Duration) -> anyhow::Result<()> {
        let mut chunk = [0u8; 16 * 1024];
        let n = tokio::time::timeout(within, self.stream.read(&mut chunk))
            .await
            .context("the stream went quiet")??;
        if n == 0 {
            bail!("the stream of game {} closed", self.game);
        }
        self.raw.extend_from_slice(&chunk[..n]);
        Ok(())
    }

    /// The next whole event (name, id), if one is in.
    fn next_event(&mut self) -> anyhow::Result<Option<(String, Option<String>)>> {
        // Chunked transfer: `<hex size>\r\n<data>\r\n`.
        while let Some(line_end) = find(&self.raw, b"\r\n") {
            let size_text = String::from_utf8_lossy(&self.raw[..line_end]).to_string();
            let size = usize::from_str_radix(size_text.trim(), 16)
                .with_context(|| format!("a chunk size `{size_text}`"))?;
            if self.raw.len() < line_end + 2 + size + 2 {
                break;
            }
            self.text.push_str(&String::from_utf8_lossy(
                &self.raw[line_end + 2..line_end + 2 + size],
            ));
            self.raw.drain(..line_end + 2 + size + 2);
        }
        while let Some(end) = self.text.find("\n\n") {
            let block: String = self.text.drain(..end + 2).collect();
            let (mut event, mut id, mut data) = (None, None, false);
            for line in block.lines() {
                if let Some(value) = line.strip_prefix("event: ") {
                    event = Some(value.to_string());
                } else if let Some(value) = line.strip_prefix("id: ") {
                    id = Some(value.to_string());
                } else if line.starts_with("data: ") {
                    data = true;
                }
            }
            if let (Some(event), true) = (event, data) {
                return Ok(Some((event, id)));
            }
        }
        Ok(None)
    }

    /// Reads events until told to stop; returns each `move` event's (game, ply, arrival).
    async fn run(
        mut self,
        stop: Arc<Mutex<Option<Instant>>>,
    ) -> anyhow::Result<Vec<(i64, i32, Instant)>> {
        let mut seen = Vec::new();
        loop {
            while let Some((event, id)) = self.next_event()? {
                if event == "move"
                    && let Some(ply) = id.and_then(|id| id.parse().ok())
                {
                    seen.push((self.game, ply, Instant::now()));
                }
            }
            let until = stop.lock().ok().and_then(|s| *s);
            let wait = match until {
                Some(until) if Instant::now() >= until => return Ok(seen),
                Some(until) => until.saturating_duration_since(Instant::now()),
                // Still playing: check for the end now and then.
                None => Duration::from_millis(500),
            };
            let mut chunk = [0u8; 16 * 1024];
            match tokio::time::timeout(wait, self.stream.read(&mut chunk)).await {
                Err(_) => {}
                Ok(Ok(0)) => bail!("the stream of game {} closed", self.game),
                Ok(Ok(n)) => {
                    // Stamped when read: the events in it arrived now.
                    self.raw.extend_from_slice(&chunk[..n]);
                }
                Ok(Err(e)) => return Err(e.into()),
            }
        }
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}
