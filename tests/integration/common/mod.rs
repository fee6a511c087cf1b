//! `TestApp`: the whole application on an isolated database per test, SQLite by default or
//! PostgreSQL when `DAMKA_TEST_DATABASE=postgres` (a fresh database is created on
//! `DAMKA_TEST_POSTGRES_URL`, default `postgres://postgres@127.0.0.1:5432`, as a copy of a
//! migrated template, and dropped afterwards). `Client` is a browser-like cookie jar over it.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::cell::OnceCell;
use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

use actix_web::body::BoxBody;
use actix_web::dev::ServiceResponse;
use actix_web::http::{Method, StatusCode, header};
use actix_web::test;
use damka::service::{accounts, auth};
use damka::store::{self, DatabaseUrl, DbPool, RetryPolicy};
use damka::web::{self, AppState};
use diesel::Connection;
use diesel::connection::SimpleConnection;

pub mod builders;
pub mod private_postgres;
pub mod racing;
pub mod tmpfs;

pub use builders::{EventBuilder, GameBuilder};

pub fn postgres_base_url() -> String {
    std::env::var("DAMKA_TEST_POSTGRES_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432".into())
}

pub fn uses_postgres() -> bool {
    std::env::var("DAMKA_TEST_DATABASE").is_ok_and(|v| v == "postgres")
}

/// A database made for one test and removed after it.
pub struct TestDatabase {
    pub url: DatabaseUrl,
    _dir: Option<tempfile::TempDir>,
    pg_name: Option<String>,
    /// A copy of `TEMPLATE`, which lives while any copy does.
    from_template: bool,
}

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// The migrated, otherwise empty PostgreSQL database that this test process copies for each
/// test (`TestDatabase::new`): copying it takes a fraction of a second, where running the
/// migrations on a fresh database took seconds per test. PostgreSQL refuses to copy a
/// template while anyone is connected to it, so it is made and copied only under this lock,
/// and nobody stays connected to it. It is dropped with its last live copy, so a run leaves
/// no database behind (and makes it again if a later test needs one).
static TEMPLATE: Mutex<PgTemplate> = Mutex::new(PgTemplate {
    name: None,
    live_copies: 0,
});

struct PgTemplate {
    name: Option<String>,
    live_copies: usize,
}

fn unique_pg_name() -> String {
    format!(
        "damka_t_{}_{}_{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::SeqCst),
        auth::random_token(4)
            .to_lowercase()
            .replace(['-', '_'], "x")
    )
}

/// A connection to the server's `test` database, from which test databases are created and
/// dropped. Panics with a clear message when PostgreSQL is not reachable: a PostgreSQL run
/// must never pass silently without it.
fn pg_admin() -> diesel::PgConnection {
    let base = postgres_base_url();
    diesel::PgConnection::establish(&format!("{base}/test")).unwrap_or_else(|e| {
        panic!("PostgreSQL tests need a server at {base} (database `test`): {e}")
    })
}

fn pg_url(name: &str) -> DatabaseUrl {
    DatabaseUrl::parse(&format!("{}/{name}", postgres_base_url())).unwrap()
}

impl TestDatabase {
    pub fn new() -> TestDatabase {
        if uses_postgres() {
            TestDatabase::new_postgres_migrated()
        } else {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("test.db");
            TestDatabase {
                url: DatabaseUrl::parse(&format!("sqlite://{}", path.display())).unwrap(),
                _dir: Some(dir),
                pg_name: None,
                from_template: false,
            }
        }
    }

    /// A SQLite database in a fresh folder under `under` (a test's own file system).
    pub fn sqlite_in(under: &std::path::Path) -> TestDatabase {
        let dir = tempfile::tempdir_in(under).unwrap();
        let path = dir.path().join("test.db");
        TestDatabase {
            url: DatabaseUrl::parse(&format!("sqlite://{}", path.display())).unwrap(),
            _dir: Some(dir),
            pg_name: None,
            from_template: false,
        }
    }

    /// A database the test looks after itself (on a server of its own, or a second way
    /// into another test database): nothing is removed afterwards.
    pub fn at(url: &str) -> TestDatabase {
        TestDatabase {
            url: DatabaseUrl::parse(url).unwrap(),
            _dir: None,
            pg_name: None,
            from_template: false,
        }
    }

    /// Creates a fresh, empty PostgreSQL database (no migrations run: for tests of
    /// start-up itself).
    pub fn new_postgres() -> TestDatabase {
        let name = unique_pg_name();
        pg_admin()
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .unwrap();
        TestDatabase {
            url: pg_url(&name),
            _dir: None,
            pg_name: Some(name),
            from_template: false,
        }
    }

    /// Creates a PostgreSQL database with the migrations already run, as a copy of this
    /// process's template (made first if there is none).
    fn new_postgres_migrated() -> TestDatabase {
        let name = unique_pg_name();
        let mut admin = pg_admin();
        let mut template = TEMPLATE.lock().unwrap_or_else(PoisonError::into_inner);
        let template_name = match &template.name {
            Some(existing) => existing.clone(),
            None => {
                let made = format!("{}_template", unique_pg_name());
                admin
                    .batch_execute(&format!("CREATE DATABASE {made}"))
                    .unwrap();
                // The pool and its connections are gone when `open` returns here.
                store::open(
                    &pg_url(&made),
                    1,
                    RetryPolicy {
                        attempts: 1,
                        delay: std::time::Duration::ZERO,
                    },
                )
                .unwrap();
                template.name = Some(made.clone());
                made
            }
        };
        admin
            .batch_execute(&format!("CREATE DATABASE {name} TEMPLATE {template_name}"))
            .unwrap();
        template.live_copies += 1;
        TestDatabase {
            url: pg_url(&name),
            _dir: None,
            pg_name: Some(name),
            from_template: true,
        }
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        let Some(name) = &self.pg_name else {
            return;
        };
        let mut admin = diesel::PgConnection::establish(&format!("{}/test", postgres_base_url()));
        let mut drop_database = |name: &str| {
            if let Ok(admin) = &mut admin {
                let _ =
                    admin.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
            }
        };
        drop_database(name);
        if self.from_template {
            let mut template = TEMPLATE.lock().unwrap_or_else(PoisonError::into_inner);
            template.live_copies -= 1;
            if template.live_copies == 0
                && let Some(template_name) = template.name.take()
            {
                drop_database(&template_name);
            }
        }
    }
}

/// The application as a service that answers test requests.
type AppService =
    Rc<dyn Fn(test::TestRequest) -> Pin<Box<dyn Future<Output = ServiceResponse<BoxBody>>>>>;

pub struct TestApp {
    pub state: AppState,
    pub pool: DbPool,
    /// Built on the first request and kept: building the application (every route of it)
    /// takes a hundred times longer than answering a request in a debug build, and the
    /// application keeps no state of its own that a test could see between requests.
    service: OnceCell<AppService>,
    // Declared last so the pool's connections close before the database is dropped.
    pub db: TestDatabase,
}

impl TestApp {
    pub async fn new() -> TestApp {
        TestApp::on(TestDatabase::new()).await
    }

    /// The application on `db`, migrated first.
    pub async fn on(db: TestDatabase) -> TestApp {
        let url = db.url.clone();
        let pool = actix_web::rt::task::spawn_blocking(move || {
            store::open(
                &url,
                4,
                RetryPolicy {
                    attempts: 1,
                    delay: std::time::Duration::ZERO,
                },
            )
            .unwrap()
        })
        .await
        .unwrap();
        TestApp::on_pool(db, pool).await
    }

    /// The application on a pool the test built itself (no migrations run).
    pub async fn on_pool(db: TestDatabase, pool: DbPool) -> TestApp {
        let reader = pool.clone();
        let secret = actix_web::rt::task::spawn_blocking(move || {
            accounts::site_secret(&mut reader.get().unwrap()).unwrap()
        })
        .await
        .unwrap();
        TestApp {
            state: AppState {
                pool: pool.clone(),
                site_secret: secret.into_bytes(),
                trusted_proxies: Default::default(),
                limits: Default::default(),
                site_zone: Default::default(),
            },
            pool,
            service: OnceCell::new(),
            db,
        }
    }

    /// The application, built once.
    async fn service(&self) -> AppService {
        if let Some(service) = self.service.get() {
            return service.clone();
        }
        let app = Rc::new(test::init_service(web::app(self.state.clone())).await);
        let service: AppService = Rc::new(move |req: test::TestRequest| {
            let app = app.clone();
            Box::pin(async move {
                test::call_service(&*app, req.to_request())
                    .await
                    .map_into_boxed_body()
            })
        });
        self.service.get_or_init(|| service).clone()
    }

    pub fn client(&self) -> Client<'_> {
        Client {
            app: self,
            cookies: BTreeMap::new(),
            headers: Vec::new(),
        }
    }

    /// Runs blocking storage work (test setup) against this app's database.
    /// The time this app's games read (`TimeSource`): set or advance it to test clocks
    /// without waiting.
    pub fn time(&self) -> std::sync::Arc<store::time_source::TimeSource> {
        self.pool
            .get()
            .unwrap()
            .shared()
            .expect("a pooled connection knows its database")
            .extension::<store::time_source::TimeSource>()
    }

    pub async fn with_db<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut store::DbConn) -> T + Send + 'static,
    ) -> T {
        let pool = self.pool.clone();
        actix_web::rt::task::spawn_blocking(move || f(&mut pool.get().unwrap()))
            .await
            .unwrap()
    }

    /// Creates an account directly (fast setup) and returns a client signed in as it.
    pub async fn user(&self, email: &str, role: Role) -> Client<'_> {
        let email = email.to_string();
        let password = "password-123".to_string();
        let (e, p) = (email.clone(), password.clone());
        self.with_db(move |conn| {
            let user = accounts::register(
                conn,
                &accounts::Registration {
                    email: e.clone(),
                    display_name: e.split('@').next().unwrap().to_string(),
                    password: p,
                    invitation: None,
                },
                None,
            )
            .unwrap();
            let (admin, organiser) = match role {
                Role::Admin => (true, true),
                Role::Organiser => (false, true),
                Role::Player => (false, false),
            };
            store::accounts::set_roles(conn, user.id, admin, organiser).unwrap();
        })
        .await;
        let mut client = self.client();
        client.sign_in(&email, &password).await;
        client
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Admin,
    Organiser,
    Player,
}

pub struct Response {
    pub status: StatusCode,
    pub headers: header::HeaderMap,
    pub body: String,
}

impl Response {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }

    pub fn content_type(&self) -> String {
        self.headers
            .get(header::CONTENT_TYPE)
            .map(|v| v.to_str().unwrap().to_string())
            .unwrap_or_default()
    }

    pub fn location(&self) -> String {
        self.headers
            .get(header::LOCATION)
            .map(|v| v.to_str().unwrap().to_string())
            .unwrap_or_default()
    }

    /// The value of the hidden input `name` in this page.
    pub fn hidden_input(&self, name: &str) -> Option<String> {
        let marker = format!("name=\"{name}\" value=\"");
        let start = self.body.find(&marker)? + marker.len();
        let end = self.body[start..].find('"')?;
        Some(self.body[start..start + end].to_string())
    }

    /// Text of the element with this id (`<p ... id="x">text</p>`).
    pub fn element_text(&self, id: &str) -> Option<String> {
        let marker = format!("id=\"{id}\">");
        let start = self.body.find(&marker)? + marker.len();
        let end = self.body[start..].find('<')?;
        Some(self.body[start..start + end].to_string())
    }

    pub fn assert_problem(&self, status: u16, code: &str) -> serde_json::Value {
        assert_eq!(self.status.as_u16(), status, "body: {}", self.body);
        assert_eq!(
            self.content_type(),
            "application/problem+json",
            "body: {}",
            self.body
        );
        let json = self.json();
        assert_eq!(json["type"], format!("urn:damka:problem:{code}"), "{json}");
        assert!(
            json["code"].as_str().is_some_and(|c| !c.is_empty()),
            "{json}"
        );
        assert_eq!(json["status"], status);
        assert!(json["title"].as_str().is_some_and(|t| !t.is_empty()));
        assert!(json["detail"].as_str().is_some_and(|t| !t.is_empty()));
        json
    }

    /// A problem+json refusal with this status and exact `code`.
    pub fn assert_refusal(&self, status: u16, code: &str) -> serde_json::Value {
        assert_eq!(self.status.as_u16(), status, "body: {}", self.body);
        assert_eq!(
            self.content_type(),
            "application/problem+json",
            "body: {}",
            self.body
        );
        let json = self.json();
        assert_eq!(json["code"], code, "{json}");
        assert_eq!(json["status"], status);
        assert!(json["detail"].as_str().is_some_and(|t| !t.is_empty()));
        json
    }
}

/// A pseudo-header of the test client, never sent: its value (`IP:PORT`) becomes the TCP
/// peer address of the request (`HttpRequest::peer_addr`); without it there is none.
pub const TEST_PEER_ADDR: &str = "x-test-peer-addr";

/// A browser (or API client): keeps cookies, adds its default headers to every request.
pub struct Client<'a> {
    pub app: &'a TestApp,
    pub cookies: BTreeMap<String, String>,
    pub headers: Vec<(String, String)>,
}

impl<'a> Client<'a> {
    pub async fn request(
        &mut self,
        method: Method,
        path: &str,
        body: Option<(&str, String)>,
        extra: &[(&str, &str)],
    ) -> Response {
        self.request_raw(method, path, body, extra).await.0
    }

    /// A GET whose body is also wanted as the bytes sent (a binary download).
    pub async fn get_bytes(&mut self, path: &str) -> (Response, Vec<u8>) {
        self.request_raw(Method::GET, path, None, &[]).await
    }

    async fn request_raw(
        &mut self,
        method: Method,
        path: &str,
        body: Option<(&str, String)>,
        extra: &[(&str, &str)],
    ) -> (Response, Vec<u8>) {
        let mut req = test::TestRequest::default().method(method).uri(path);
        req = req.insert_header((header::HOST, "localhost"));
        if !self.cookies.is_empty() {
            let cookie = self
                .cookies
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join("; ");
            req = req.insert_header((header::COOKIE, cookie));
        }
        let defaults = self.headers.iter().map(|(k, v)| (k.as_str(), v.as_str()));
        for (k, v) in defaults.chain(extra.iter().copied()) {
            if k == TEST_PEER_ADDR {
                req = req.peer_addr(v.parse().expect("the test peer is IP:PORT"));
            } else {
                req = req.insert_header((k, v));
            }
        }
        if let Some((content_type, body)) = body {
            req = req
                .insert_header((header::CONTENT_TYPE, content_type))
                .set_payload(body);
        }
        let res = self.app.service().await(req).await;
        let status = res.status();
        let headers = res.headers().clone();
        for value in headers.get_all(header::SET_COOKIE) {
            let cookie =
                actix_web::cookie::Cookie::parse(value.to_str().unwrap().to_string()).unwrap();
            let removed = cookie
                .max_age()
                .is_some_and(|age| age.is_zero() || age.is_negative())
                || cookie.value().is_empty();
            if removed {
                self.cookies.remove(cookie.name());
            } else {
                self.cookies
                    .insert(cookie.name().to_string(), cookie.value().to_string());
            }
        }
        let bytes = test::read_body(res).await;
        let response = Response {
            status,
            headers,
            body: String::from_utf8_lossy(&bytes).into_owned(),
        };
        (response, bytes.to_vec())
    }

    /// This client's requests come from `peer` (`IP:PORT`) over TCP.
    pub fn coming_from(mut self, peer: &str) -> Client<'a> {
        self.headers.push((TEST_PEER_ADDR.into(), peer.into()));
        self
    }

    pub async fn get(&mut self, path: &str) -> Response {
        self.request(Method::GET, path, None, &[]).await
    }

    /// A POST without a body (the API's actions: pair, publish, withdraw, ...).
    pub async fn post(&mut self, path: &str) -> Response {
        self.request(Method::POST, path, None, &[]).await
    }

    /// The CSRF token a page would carry for this browser (gets a CSRF cookie first):
    /// computed as the server does, from the CSRF cookie and, once signed in, the session
    /// cookie.
    pub async fn csrf_token(&mut self) -> String {
        if !self.cookies.contains_key("damka_csrf") {
            self.get("/healthz").await;
        }
        let cookie = self
            .cookies
            .get("damka_csrf")
            .cloned()
            .expect("the server sets a CSRF cookie");
        let session = self
            .cookies
            .get("damka_session")
            .filter(|s| !s.is_empty())
            .map(String::as_str);
        auth::csrf_token(&self.app.state.site_secret, &cookie, session)
    }

    /// Posts a form with a valid CSRF token.
    pub async fn post_form(&mut self, path: &str, fields: &[(&str, &str)]) -> Response {
        let token = self.csrf_token().await;
        let mut all: Vec<(&str, &str)> = fields.to_vec();
        all.push(("csrf_token", &token));
        self.post_form_raw(path, &all).await
    }

    /// Posts a form exactly as given (no CSRF token added).
    pub async fn post_form_raw(&mut self, path: &str, fields: &[(&str, &str)]) -> Response {
        let body = serde_urlencoded::to_string(fields).unwrap();
        self.request(
            Method::POST,
            path,
            Some(("application/x-www-form-urlencoded", body)),
            &[],
        )
        .await
    }

    pub async fn sign_in(&mut self, email: &str, password: &str) -> Response {
        let res = self
            .post_form("/login", &[("email", email), ("password", password)])
            .await;
        assert_eq!(
            res.status,
            StatusCode::SEE_OTHER,
            "sign-in failed: {}",
            res.body
        );
        assert!(self.cookies.contains_key("damka_session"));
        res
    }

    pub async fn json(&mut self, method: Method, path: &str, body: serde_json::Value) -> Response {
        self.request(
            method,
            path,
            Some(("application/json", body.to_string())),
            &[],
        )
        .await
    }

    /// Creates an API token through the account page and returns an API client using it.
    pub async fn api_client(&mut self) -> Client<'a> {
        let made = self
            .post_form("/account/tokens", &[("name", "tests")])
            .await;
        assert_eq!(made.status, StatusCode::SEE_OTHER, "{}", made.body);
        assert_eq!(made.location(), "/account");
        let page = self.get("/account").await;
        let token = page
            .element_text("new-token")
            .expect("the new token is shown once");
        assert!(token.starts_with("dmk_"));
        Client {
            app: self.app,
            cookies: BTreeMap::new(),
            headers: vec![("authorization".into(), format!("Bearer {token}"))],
        }
    }
}

/// An API client of a new organiser account.
pub async fn organiser_api<'a>(app: &'a TestApp, email: &str) -> Client<'a> {
    let mut browser = app.user(email, Role::Organiser).await;
    browser.api_client().await
}

/// Creates `n` player profiles rated 2400, 2350, ... (russian) and enters them in the
/// event; returns the entry ids.
pub async fn enter_players(api: &mut Client<'_>, event_id: i64, n: usize) -> Vec<i64> {
    let mut ids = Vec::new();
    for i in 0..n {
        let player = api
            .json(
                Method::POST,
                "/api/v1/players",
                serde_json::json!({"name": format!("Player {i:02}")}),
            )
            .await;
        assert_eq!(player.status.as_u16(), 201, "{}", player.body);
        let player_id = player.json()["id"].as_i64().unwrap();
        let rating = 2400 - 50 * i as i32;
        api.app
            .with_db(move |conn| {
                store::players::set_rating(
                    conn,
                    &damka::store::models::PlayerRating {
                        player_id,
                        variant: damka_engine::Variant::Russian,
                        rating,
                        games: 30,
                    },
                )
                .unwrap();
                // A starting rating counts once the variant is recomputed, as imports do.
                damka::service::ratings::recompute::recompute(conn, damka_engine::Variant::Russian)
                    .unwrap();
            })
            .await;
        let entry = api
            .json(
                Method::POST,
                &format!("/api/v1/events/{event_id}/entries"),
                serde_json::json!({"player_id": player_id}),
            )
            .await;
        assert_eq!(entry.status.as_u16(), 201, "{}", entry.body);
        ids.push(entry.json()["id"].as_i64().unwrap());
    }
    ids
}

/// Creates an unrated profile for each name and enters it in the event (both must
/// succeed); returns the entry ids.
pub async fn enter_named(api: &mut Client<'_>, event_id: i64, names: &[&str]) -> Vec<i64> {
    let mut ids = Vec::new();
    for name in names {
        let player = api
            .json(
                Method::POST,
                "/api/v1/players",
                serde_json::json!({"name": name}),
            )
            .await;
        assert_eq!(player.status.as_u16(), 201, "{}", player.body);
        let entry = api
            .json(
                Method::POST,
                &format!("/api/v1/events/{event_id}/entries"),
                serde_json::json!({"player_id": player.json()["id"]}),
            )
            .await;
        assert_eq!(entry.status.as_u16(), 201, "{}", entry.body);
        ids.push(entry.json()["id"].as_i64().unwrap());
    }
    ids
}

/// Creates a club over the API (its creator becomes its organiser); returns its id.
pub async fn create_club(api: &mut Client<'_>, name: &str) -> i64 {
    let created = api
        .json(
            Method::POST,
            "/api/v1/clubs",
            serde_json::json!({ "name": name }),
        )
        .await;
    assert_eq!(created.status.as_u16(), 201, "{}", created.body);
    created.json()["id"].as_i64().unwrap()
}

/// The id of the event a form post created, read from its redirect (`/events/7`).
pub fn created_event_id(created: &Response) -> i64 {
    assert_eq!(created.status.as_u16(), 303, "{}", created.body);
    let location = created.location();
    location
        .trim_start_matches("/events/")
        .split(['?', '/'])
        .next()
        .and_then(|id| id.parse().ok())
        .unwrap_or_else(|| panic!("not an event's address: {location}"))
}

/// Creates an event over the API (it must succeed) and returns its id.
pub async fn create_event(api: &mut Client<'_>, body: serde_json::Value) -> i64 {
    let created = api.json(Method::POST, "/api/v1/events", body).await;
    assert_eq!(created.status.as_u16(), 201, "{}", created.body);
    created.json()["id"].as_i64().unwrap()
}

/// Pairs and publishes the next round, then enters `results` on its games in board
/// order (games beyond the list stay open); returns the round as it was paired.
pub async fn play_round(
    api: &mut Client<'_>,
    event_id: i64,
    results: &[&str],
) -> serde_json::Value {
    let round = api.post(&format!("/api/v1/events/{event_id}/rounds")).await;
    assert_eq!(round.status.as_u16(), 201, "{}", round.body);
    let round = round.json();
    let published = api
        .post(&format!("/api/v1/events/{event_id}/rounds/publish"))
        .await;
    assert_eq!(published.status.as_u16(), 204, "{}", published.body);
    let games = round["boards"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| !b["black_entry_id"].is_null());
    for (board, result) in games.zip(results) {
        let res = api
            .json(
                Method::PUT,
                &format!(
                    "/api/v1/events/{event_id}/pairings/{}/result",
                    board["pairing_id"]
                ),
                serde_json::json!({ "result": result }),
            )
            .await;
        assert_eq!(res.status.as_u16(), 204, "{}", res.body);
    }
    round
}

/// The boards of a paired round that are games (a bye has no black entry), in board order.
pub fn games(round: &serde_json::Value) -> Vec<&serde_json::Value> {
    round["boards"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| !b["black_entry_id"].is_null())
        .collect()
}

/// One Server-Sent Event as a client reads it.
#[derive(Debug, Clone)]
pub struct SseEvent {
    pub event: String,
    pub id: Option<String>,
    pub data: String,
}

impl SseEvent {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.data)
            .unwrap_or_else(|e| panic!("event data not JSON ({e}): {}", self.data))
    }
}

/// Reads events from a `text/event-stream` body as they come, in any chunking: one
/// event, or several at once, or one split over several chunks.
pub struct SseReader<B> {
    body: Pin<Box<B>>,
    buffer: String,
}

impl<B: actix_web::body::MessageBody> SseReader<B>
where
    B::Error: std::fmt::Debug,
{
    pub fn new(body: B) -> SseReader<B> {
        SseReader {
            body: Box::pin(body),
            buffer: String::new(),
        }
    }

    /// The next event (comments and `retry:` skipped), or `None` if none comes within
    /// `within` or the stream ends.
    pub async fn next_within(&mut self, within: std::time::Duration) -> Option<SseEvent> {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            if let Some(event) = self.buffered() {
                return Some(event);
            }
            let chunk = tokio::time::timeout_at(
                deadline,
                std::future::poll_fn(|cx| self.body.as_mut().poll_next(cx)),
            )
            .await
            .ok()??;
            let chunk = chunk.expect("the stream fails");
            self.buffer.push_str(std::str::from_utf8(&chunk).unwrap());
        }
    }

    /// The next event, which must be `event` and come within five seconds.
    pub async fn expect(&mut self, event: &str) -> SseEvent {
        let got = self
            .next_within(std::time::Duration::from_secs(5))
            .await
            .unwrap_or_else(|| panic!("no `{event}` event within 5 s"));
        assert_eq!(got.event, event, "{got:?}");
        got
    }

    /// Asserts that no event comes within `quiet`.
    pub async fn assert_quiet(&mut self, quiet: std::time::Duration) {
        if let Some(event) = self.next_within(quiet).await {
            panic!("no event expected, got {event:?}");
        }
    }

    fn buffered(&mut self) -> Option<SseEvent> {
        loop {
            let end = self.buffer.find("\n\n")?;
            let block: String = self.buffer.drain(..end + 2).collect();
            let mut event = SseEvent {
                event: "message".into(),
                id: None,
                data: String::new(),
            };
            let mut has_data = false;
            for line in block.lines() {
                if let Some(value) = line.strip_prefix("event: ") {
                    event.event = value.to_string();
                } else if let Some(value) = line.strip_prefix("id: ") {
                    event.id = Some(value.to_string());
                } else if let Some(value) = line.strip_prefix("data: ") {
                    if has_data {
                        event.data.push('\n');
                    }
                    event.data.push_str(value);
                    has_data = true;
                }
            }
            if has_data {
                return Some(event);
            }
        }
    }
}

impl<'a> Client<'a> {
    /// Opens a stream (`GET path` with `extra` headers); returns the status, the headers
    /// and, for a 200, the reader of its events.
    pub async fn stream(
        &mut self,
        path: &str,
        extra: &[(&str, &str)],
    ) -> (StatusCode, header::HeaderMap, SseReader<BoxBody>) {
        let mut req = test::TestRequest::default().method(Method::GET).uri(path);
        req = req.insert_header((header::HOST, "localhost"));
        for (k, v) in extra.iter().copied() {
            if k == TEST_PEER_ADDR {
                req = req.peer_addr(v.parse().expect("the test peer is IP:PORT"));
            } else {
                req = req.insert_header((k, v));
            }
        }
        let res = self.app.service().await(req).await;
        let status = res.status();
        let headers = res.headers().clone();
        (status, headers, SseReader::new(res.into_body()))
    }
}

/// The text of a page without its tags (each tag a space), the escaper's entities undone
/// and whitespace collapsed: what a reader sees, for looking for words.
pub fn page_text(page: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in page.chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                out.push(' ');
            }
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("&#39;", "'")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}
