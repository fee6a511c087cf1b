//! Authorisation as a table over the whole application: every route of the route tables
//! (API, pages, static files) x every role, the API with each role's token and the pages
//! with each role's session cookie. A refused role gets 401 (anonymous) or 403 (signed in),
//! in the API as problem+json and on pages as an HTML page, and its request leaves every
//! table as it was; an allowed role is never refused (no 401/403) and never gets a 5xx.
//! A route missing from the table fails the test, so a new route needs its row.
#![allow(clippy::unwrap_used)]
use std::collections::{BTreeMap, BTreeSet};

use actix_web::http::Method;
use serde_json::{Value, json};

use crate::common::{Client, Response, Role, TestApp};
use crate::http_roles::fingerprint;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Who {
    Anonymous,
    /// Owns the profile in the fixture club, entered in the event, white in the game.
    Player,
    /// Black in the game, entered in the event (asked to join the club).
    Opponent,
    /// Signed in, with no profile, club, event or game of their own here.
    OtherPlayer,
    /// A player account that organises the fixture club.
    ClubOrganiser,
    /// An organiser with a club and an event of their own, not the fixture's.
    OtherOrganiser,
    /// The organiser who owns the fixture event and created the game.
    Organiser,
    Admin,
}

use Who::*;

const EVERYONE: [Who; 8] = [
    Anonymous,
    Player,
    Opponent,
    OtherPlayer,
    ClubOrganiser,
    OtherOrganiser,
    Organiser,
    Admin,
];

/// Who a route lets through.
#[derive(Clone, Copy, Debug)]
enum Access {
    Public,
    SignedIn,
    /// The profile's owner, its club's organisers, administrators.
    ProfileEditors,
    /// The club's organisers and administrators.
    ClubOrganisers,
    /// Accounts with the organiser role (administrators have it).
    Organisers,
    /// The event's organiser and administrators.
    EventManagers,
    /// The game's players (white and black).
    GamePlayers,
    /// The organiser who created the standalone game, and administrators.
    GameArbiters,
    /// The game's players and arbiters.
    GameParticipants,
    Admins,
    /// Only `Who`; everybody else is refused.
    Only(Who),
    /// Exactly these.
    Set(&'static [Who]),
    /// Nobody.
    Nobody,
}

impl Access {
    fn allows(self, who: Who) -> bool {
        match self {
            Access::Public => true,
            Access::SignedIn => who != Anonymous,
            Access::ProfileEditors => matches!(who, Player | ClubOrganiser | Admin),
            Access::ClubOrganisers => matches!(who, ClubOrganiser | Admin),
            Access::Organisers => matches!(who, OtherOrganiser | Organiser | Admin),
            Access::EventManagers => matches!(who, Organiser | Admin),
            Access::GamePlayers => matches!(who, Player | Opponent),
            Access::GameArbiters => matches!(who, Organiser | Admin),
            Access::GameParticipants => matches!(who, Player | Opponent | Organiser | Admin),
            Access::Admins => who == Admin,
            Access::Only(only) => who == only,
            Access::Set(set) => set.contains(&who),
            Access::Nobody => false,
        }
    }
}

#[derive(Clone, Debug)]
enum Body {
    None,
    Json(Value),
    /// An urlencoded form; the client adds its CSRF token.
    Form(Vec<(&'static str, String)>),
    Text(&'static str, String),
}

struct Row {
    method: Method,
    /// The route as declared (`/api/v1/events/{id}`).
    route: &'static str,
    /// The route with this fixture's ids.
    path: String,
    body: Body,
    access: Access,
    /// Exact answers for some roles, where the route's rule is not the whole story (a token
    /// of someone else is "not found"; wrong credentials are 401 for everybody).
    expect: Vec<(Who, u16)>,
}

/// The ids a row's path is built from.
struct Fixture {
    club: i64,
    other_club: i64,
    player: i64,
    opponent_player: i64,
    spare_user: i64,
    event: i64,
    entry: i64,
    second_entry: i64,
    pairing: i64,
    game: i64,
    /// The same, for the pages' rows.
    page_game: i64,
    join_request: i64,
    second_join_request: i64,
    player_spare_token: i64,
    player_page_token: i64,
    claims: ClaimFixture,
    removals: RemovalFixture,
    /// Invitation links to the event: revoked through the API, then through the pages.
    api_link: Link,
    page_link: Link,
}

/// What the archive, restore and delete rows act on. Archiving and restoring act on
/// subjects nothing else uses (each row's first allowed role archives or restores, the
/// next is told it is done already); deleting acts on subjects that hold records, so every
/// allowed role is refused with 409 and nothing is deleted.
#[derive(Clone, Copy)]
struct RemovalFixture {
    /// An empty event of the organiser's.
    event: i64,
    /// A profile the organiser made.
    profile: i64,
    /// An event of the other organiser's club (so that club cannot be deleted).
    other_club_event: i64,
}

/// Makes the removal fixture.
async fn removal_fixture(clients: &mut Clients<'_>, other_club: i64) -> RemovalFixture {
    let organiser = clients.apis.get_mut(&Organiser).unwrap();
    let made = organiser
        .json(
            Method::POST,
            "/api/v1/events",
            json!({"name": "To Archive", "system": "swiss", "rounds": 3}),
        )
        .await;
    ok(&made, "event to archive");
    let event = made.json()["id"].as_i64().unwrap();
    let made = organiser
        .json(
            Method::POST,
            "/api/v1/players",
            json!({"name": "To Archive"}),
        )
        .await;
    ok(&made, "profile to archive");
    let profile = made.json()["id"].as_i64().unwrap();
    let other = clients.apis.get_mut(&OtherOrganiser).unwrap();
    let made = other
        .json(
            Method::POST,
            "/api/v1/events",
            json!({"name": "Other Club Cup", "system": "swiss", "rounds": 3, "club_id": other_club}),
        )
        .await;
    ok(&made, "the other club's event");
    RemovalFixture {
        event,
        profile,
        other_club_event: made.json()["id"].as_i64().unwrap(),
    }
}

/// An invitation link to the fixture event: its id and its code.
struct Link {
    id: i64,
    code: String,
}

/// Profiles the organiser made (so the organiser and administrators manage them), the
/// claims waiting on some of them and one-time links to others.
struct ClaimFixture {
    /// A profile anybody may claim.
    target: i64,
    /// Open claims: accepted and declined through the API, then through the pages.
    api_claim: i64,
    api_claim_two: i64,
    page_claim: i64,
    page_claim_two: i64,
    /// A profile to make a one-time link to.
    link_target: i64,
    /// A link nobody used, and one used already.
    code: String,
    used_code: String,
    /// Profiles to merge (the first of each pair into the second).
    api_merge: (i64, i64),
    page_merge: (i64, i64),
}

/// Makes the claims fixture: every profile by the organiser, the claims by two accounts
/// without a profile, the links on the organiser's profile page.
async fn claim_fixture(app: &TestApp, clients: &mut Clients<'_>) -> ClaimFixture {
    let organiser = clients.apis.get_mut(&Organiser).unwrap();
    let mut profiles = Vec::new();
    for i in 0..12 {
        let made = organiser
            .json(
                Method::POST,
                "/api/v1/players",
                json!({ "name": format!("Claims {i}") }),
            )
            .await;
        ok(&made, "claims profile");
        profiles.push(made.json()["id"].as_i64().unwrap());
    }
    let mut claims = Vec::new();
    for (email, on) in [
        ("claimant@t.org", [profiles[1], profiles[2]]),
        ("claimant2@t.org", [profiles[3], profiles[4]]),
    ] {
        let mut claimant = app.user(email, Role::Player).await.api_client().await;
        for profile in on {
            let asked = claimant
                .post(&format!("/api/v1/players/{profile}/claims"))
                .await;
            ok(&asked, "claim");
            claims.push(asked.json()["id"].as_i64().unwrap());
        }
    }
    let browser = clients.browsers.get_mut(&Organiser).unwrap();
    let mut codes = Vec::new();
    for profile in [profiles[5], profiles[6]] {
        let made = browser
            .post_form(&format!("/players/{profile}/claim-link"), &[])
            .await;
        ok(&made, "claim link");
        let url = made.element_text("claim-link").unwrap();
        codes.push(url.rsplit_once("/claim/").unwrap().1.to_string());
    }
    let mut linker = app.user("linker@t.org", Role::Player).await;
    ok(
        &linker.post_form(&format!("/claim/{}", codes[1]), &[]).await,
        "link used",
    );
    ClaimFixture {
        target: profiles[0],
        api_claim: claims[0],
        api_claim_two: claims[1],
        page_claim: claims[2],
        page_claim_two: claims[3],
        link_target: profiles[7],
        code: codes[0].clone(),
        used_code: codes[1].clone(),
        api_merge: (profiles[8], profiles[9]),
        page_merge: (profiles[10], profiles[11]),
    }
}

/// One signed-in browser (session cookie) and its API client (token) per role.
struct Clients<'a> {
    browsers: BTreeMap<Who, Client<'a>>,
    apis: BTreeMap<Who, Client<'a>>,
}

fn ok(res: &Response, what: &str) {
    assert!(
        res.status.is_success() || res.status.is_redirection(),
        "{what}: {} {}",
        res.status,
        res.body
    );
}

async fn fixture(app: &TestApp) -> (Fixture, Clients<'_>) {
    let mut browsers = BTreeMap::new();
    let mut apis = BTreeMap::new();
    for (who, email, role) in [
        (Admin, "admin@t.org", Role::Admin),
        (Organiser, "org@t.org", Role::Organiser),
        (OtherOrganiser, "otherorg@t.org", Role::Organiser),
        (ClubOrganiser, "cluborg@t.org", Role::Player),
        (Player, "player@t.org", Role::Player),
        (OtherPlayer, "other@t.org", Role::Player),
    ] {
        let mut browser = app.user(email, role).await;
        let api = browser.api_client().await;
        browsers.insert(who, browser);
        apis.insert(who, api);
    }
    browsers.insert(Anonymous, app.client());
    apis.insert(Anonymous, app.client());
    let mut clients = Clients { browsers, apis };
    let mut opponent_browser = app.user("opponent@t.org", Role::Player).await;
    let mut opponent = opponent_browser.api_client().await;
    app.user("spare@t.org", Role::Player).await;

    let admin = clients.apis.get_mut(&Admin).unwrap();
    let made = admin
        .json(
            Method::POST,
            "/api/v1/clubs",
            json!({"name": "Fixture Club"}),
        )
        .await;
    ok(&made, "club");
    let club = made.json()["id"].as_i64().unwrap();
    let added = admin
        .json(
            Method::POST,
            &format!("/api/v1/clubs/{club}/members"),
            json!({"email": "cluborg@t.org", "role": "organiser"}),
        )
        .await;
    ok(&added, "club organiser");
    let spare_user = app
        .with_db(|conn| {
            damka::store::accounts::user_by_email(conn, "spare@t.org")
                .unwrap()
                .unwrap()
                .id
        })
        .await;

    // The player's own profile, in the club.
    let player_api = clients.apis.get_mut(&Player).unwrap();
    let made = player_api
        .json(
            Method::POST,
            "/api/v1/players",
            json!({"name": "Player One"}),
        )
        .await;
    ok(&made, "player profile");
    let player = made.json()["id"].as_i64().unwrap();
    let asked = player_api
        .post(&format!("/api/v1/clubs/{club}/requests"))
        .await;
    ok(&asked, "join request");
    let asked_id = asked.json()["id"].as_i64().unwrap();
    let accepted = clients
        .apis
        .get_mut(&ClubOrganiser)
        .unwrap()
        .post(&format!("/api/v1/clubs/{club}/requests/{asked_id}/accept"))
        .await;
    ok(&accepted, "accept");

    // The opponent's profile, and two requests to join that wait for the club's organisers.
    let made = opponent
        .json(Method::POST, "/api/v1/players", json!({"name": "Opponent"}))
        .await;
    ok(&made, "opponent profile");
    let opponent_player = made.json()["id"].as_i64().unwrap();
    let asked = opponent
        .post(&format!("/api/v1/clubs/{club}/requests"))
        .await;
    ok(&asked, "opponent's request");
    let join_request = asked.json()["id"].as_i64().unwrap();
    let mut joiner = app
        .user("joiner@t.org", Role::Player)
        .await
        .api_client()
        .await;
    let made = joiner
        .json(Method::POST, "/api/v1/players", json!({"name": "Joiner"}))
        .await;
    ok(&made, "joiner's profile");
    let asked = joiner.post(&format!("/api/v1/clubs/{club}/requests")).await;
    ok(&asked, "joiner's request");
    let second_join_request = asked.json()["id"].as_i64().unwrap();

    // Another organiser's club and event.
    let other = clients.apis.get_mut(&OtherOrganiser).unwrap();
    let made = other
        .json(Method::POST, "/api/v1/clubs", json!({"name": "Other Club"}))
        .await;
    ok(&made, "other club");
    let other_club = made.json()["id"].as_i64().unwrap();
    let made = other
        .json(
            Method::POST,
            "/api/v1/events",
            json!({"name": "Other Open", "system": "swiss", "rounds": 3}),
        )
        .await;
    ok(&made, "other event");

    // The fixture event: the player, the opponent and two more, round 1 paired and published.
    let organiser = clients.apis.get_mut(&Organiser).unwrap();
    let made = organiser
        .json(
            Method::POST,
            "/api/v1/events",
            json!({"name": "Fixture Open", "system": "swiss", "rounds": 5}),
        )
        .await;
    ok(&made, "event");
    let event = made.json()["id"].as_i64().unwrap();
    let mut entries = Vec::new();
    for profile in [player, opponent_player] {
        let entered = organiser
            .json(
                Method::POST,
                &format!("/api/v1/events/{event}/entries"),
                json!({"player_id": profile}),
            )
            .await;
        ok(&entered, "entry");
        entries.push(entered.json()["id"].as_i64().unwrap());
    }
    for name in ["Third", "Fourth"] {
        let made = organiser
            .json(Method::POST, "/api/v1/players", json!({"name": name}))
            .await;
        ok(&made, "profile");
        let entered = organiser
            .json(
                Method::POST,
                &format!("/api/v1/events/{event}/entries"),
                json!({"player_id": made.json()["id"]}),
            )
            .await;
        ok(&entered, "entry");
    }
    let round = organiser
        .post(&format!("/api/v1/events/{event}/rounds"))
        .await;
    ok(&round, "round 1");
    let pairing = round.json()["boards"][0]["pairing_id"].as_i64().unwrap();
    let published = organiser
        .post(&format!("/api/v1/events/{event}/rounds/publish"))
        .await;
    ok(&published, "publish");

    // A standalone game the organiser created: the player (white) against the opponent.
    let made = organiser
        .json(
            Method::POST,
            "/api/v1/games",
            json!({"variant": "russian", "white_player_id": player, "black_player_id": opponent_player, "draw_offer_min_moves": 0}),
        )
        .await;
    ok(&made, "game");
    let game = made.json()["id"].as_i64().unwrap();
    let made = organiser
        .json(
            Method::POST,
            "/api/v1/games",
            json!({"variant": "russian", "white_player_id": player, "black_player_id": opponent_player, "draw_offer_min_moves": 0}),
        )
        .await;
    ok(&made, "the pages' game");
    let page_game = made.json()["id"].as_i64().unwrap();

    // A token of the player's to revoke.
    let player_api = clients.apis.get_mut(&Player).unwrap();
    let made = player_api
        .json(Method::POST, "/api/v1/tokens", json!({"name": "spare"}))
        .await;
    ok(&made, "spare token");
    let player_spare_token = made.json()["id"].as_i64().unwrap();
    let made = player_api
        .json(
            Method::POST,
            "/api/v1/tokens",
            json!({"name": "spare for the page"}),
        )
        .await;
    ok(&made, "spare token");
    let player_page_token = made.json()["id"].as_i64().unwrap();

    // Invitation links to the event. Joining through them is refused to everybody here
    // (round 1 is paired and the event takes no late entry), so the event stays as it is.
    let organiser = clients.apis.get_mut(&Organiser).unwrap();
    let mut links = Vec::new();
    for label in ["api", "page"] {
        let made = organiser
            .json(
                Method::POST,
                &format!("/api/v1/events/{event}/invitations"),
                json!({ "label": label }),
            )
            .await;
        ok(&made, "invitation link");
        links.push(Link {
            id: made.json()["id"].as_i64().unwrap(),
            code: made.json()["code"].as_str().unwrap().to_string(),
        });
    }
    let page_link = links.pop().unwrap();
    let api_link = links.pop().unwrap();

    clients.browsers.insert(Opponent, opponent_browser);
    clients.apis.insert(Opponent, opponent);
    let claims = claim_fixture(app, &mut clients).await;
    let removals = removal_fixture(&mut clients, other_club).await;
    (
        Fixture {
            club,
            other_club,
            player,
            opponent_player,
            spare_user,
            event,
            entry: entries[0],
            second_entry: entries[1],
            pairing,
            game,
            page_game,
            join_request,
            second_join_request,
            player_spare_token,
            player_page_token,
            claims,
            removals,
            api_link,
            page_link,
        },
        clients,
    )
}

fn json_row(method: Method, route: &'static str, path: String, body: Value, access: Access) -> Row {
    Row {
        method,
        route,
        path,
        body: if body.is_null() {
            Body::None
        } else {
            Body::Json(body)
        },
        access,
        expect: Vec::new(),
    }
}

fn get(route: &'static str, path: String, access: Access) -> Row {
    json_row(Method::GET, route, path, Value::Null, access)
}

fn form(route: &'static str, path: String, fields: &[(&'static str, &str)], access: Access) -> Row {
    Row {
        method: Method::POST,
        route,
        path,
        body: Body::Form(fields.iter().map(|(k, v)| (*k, v.to_string())).collect()),
        access,
        expect: Vec::new(),
    }
}

/// These roles get exactly these answers.
fn with_expect(mut row: Row, expect: &[(Who, u16)]) -> Row {
    row.expect.extend_from_slice(expect);
    row
}

/// Every role gets `status` (wrong credentials; a closed page).
fn everybody_gets(mut row: Row, status: u16) -> Row {
    row.expect = EVERYONE.iter().map(|w| (*w, status)).collect();
    row
}

/// A token or a confirmation of someone else's: not found, so that ids reveal nothing.
fn not_found_for_others(mut row: Row, owner: Who) -> Row {
    row.expect = EVERYONE
        .iter()
        .filter(|w| **w != owner && **w != Anonymous)
        .map(|w| (*w, 404))
        .collect();
    row
}

const TRF: &str = "012 Imported Open\nXXR 3\n\
001    1      Alpha                             1900                             0.0    1\n\
001    2      Beta                              1800                             0.0    2\n";

const PDN: &str = "[Event \"Fixture Open\"]\n[Result \"*\"]\n1. c3-d4 *\n";

/// The API's routes in an order that keeps the fixture usable: reading first, then writes
/// that leave the rest possible, and the ones that end things (results, resignation,
/// finishing the event, revoking) last.
fn api_rows(fx: &Fixture) -> Vec<Row> {
    use Access::*;
    let Fixture {
        club,
        other_club,
        player,
        opponent_player,
        spare_user,
        event,
        entry,
        second_entry,
        pairing,
        game,
        join_request,
        second_join_request,
        player_spare_token,
        ..
    } = *fx;
    let a = |p: &str| format!("/api/v1{p}");
    let csv = format!("player_id,variant,system,rating\n{player},russian,elo,1500\n");
    let _ = fx.removals.other_club_event;
    vec![
        get("/openapi.json", a("/openapi.json"), Public),
        get("/me", a("/me"), SignedIn),
        get("/players", a("/players"), Public),
        get("/players/{id}", a(&format!("/players/{player}")), Public),
        get(
            "/players/{id}/rating-history",
            a(&format!("/players/{player}/rating-history")),
            Public,
        ),
        get("/ratings", a("/ratings"), Public),
        get("/ballots", a("/ballots"), Public),
        get("/clubs", a("/clubs"), Public),
        get("/clubs/{id}", a(&format!("/clubs/{club}")), Public),
        get(
            "/clubs/{id}/members",
            a(&format!("/clubs/{club}/members")),
            Public,
        ),
        get(
            "/clubs/{id}/requests",
            a(&format!("/clubs/{club}/requests")),
            ClubOrganisers,
        ),
        get("/events", a("/events"), Public),
        get("/events/{id}", a(&format!("/events/{event}")), Public),
        get(
            "/events/{id}/entries",
            a(&format!("/events/{event}/entries")),
            Public,
        ),
        get(
            "/events/{id}/forbidden-pairs",
            a(&format!("/events/{event}/forbidden-pairs")),
            EventManagers,
        ),
        get(
            "/events/{id}/invitations",
            a(&format!("/events/{event}/invitations")),
            EventManagers,
        ),
        get(
            "/events/{id}/rounds",
            a(&format!("/events/{event}/rounds")),
            Public,
        ),
        get(
            "/events/{id}/presence",
            a(&format!("/events/{event}/presence")),
            EventManagers,
        ),
        get(
            "/events/{id}/changes",
            a(&format!("/events/{event}/changes")),
            Public,
        ),
        get(
            "/events/{id}/standings",
            a(&format!("/events/{event}/standings")),
            Public,
        ),
        get(
            "/events/{id}/crosstable",
            a(&format!("/events/{event}/crosstable")),
            Public,
        ),
        get(
            "/events/{id}/players/{start_no}",
            a(&format!("/events/{event}/players/1")),
            Public,
        ),
        get(
            "/events/{id}/export.trf",
            a(&format!("/events/{event}/export.trf")),
            Public,
        ),
        get(
            "/events/{id}/games.pdn",
            a(&format!("/events/{event}/games.pdn")),
            Public,
        ),
        get(
            "/events/{id}/stream",
            a(&format!("/events/{event}/stream")),
            Public,
        ),
        get("/games", a("/games"), Public),
        get("/games/{id}", a(&format!("/games/{game}")), Public),
        get("/games/{id}/pdn", a(&format!("/games/{game}/pdn")), Public),
        get(
            "/games/{id}/stream",
            a(&format!("/games/{game}/stream")),
            Public,
        ),
        get("/tokens", a("/tokens"), SignedIn),
        get("/admin/users", a("/admin/users"), Admins),
        get("/admin/registration", a("/admin/registration"), Admins),
        get("/admin/time-zone", a("/admin/time-zone"), Admins),
        // A player makes one profile, their own (the player has one); organisers make any.
        json_row(
            Method::POST,
            "/players",
            a("/players"),
            json!({"name": "Someone New"}),
            Set(&[OtherPlayer, ClubOrganiser, OtherOrganiser, Organiser, Admin]),
        ),
        json_row(
            Method::PUT,
            "/players/{id}",
            a(&format!("/players/{player}")),
            json!({"name": "Player One", "club_id": club}),
            ProfileEditors,
        ),
        // Claims: anybody signed in asks (409 for an account with a profile); those who
        // manage the profile (here the organiser who made it, and administrators) decide.
        json_row(
            Method::POST,
            "/players/{id}/claims",
            a(&format!("/players/{}/claims", fx.claims.target)),
            Value::Null,
            SignedIn,
        ),
        get("/claims", a("/claims"), SignedIn),
        json_row(
            Method::POST,
            "/claims/{id}/decline",
            a(&format!("/claims/{}/decline", fx.claims.api_claim_two)),
            Value::Null,
            Set(&[Organiser, Admin]),
        ),
        json_row(
            Method::POST,
            "/claims/{id}/accept",
            a(&format!("/claims/{}/accept", fx.claims.api_claim)),
            Value::Null,
            Set(&[Organiser, Admin]),
        ),
        json_row(
            Method::POST,
            "/players/{id}/merge",
            a(&format!("/players/{}/merge", fx.claims.api_merge.0)),
            json!({ "into": fx.claims.api_merge.1 }),
            Set(&[Organiser, Admin]),
        ),
        // Archive, restore, delete (see `RemovalFixture`).
        json_row(
            Method::POST,
            "/events/{id}/archive",
            a(&format!("/events/{}/archive", fx.removals.event)),
            Value::Null,
            EventManagers,
        ),
        json_row(
            Method::POST,
            "/events/{id}/restore",
            a(&format!("/events/{}/restore", fx.removals.event)),
            Value::Null,
            EventManagers,
        ),
        json_row(
            Method::DELETE,
            "/events/{id}",
            a(&format!("/events/{event}")),
            Value::Null,
            EventManagers,
        ),
        json_row(
            Method::POST,
            "/players/{id}/archive",
            a(&format!("/players/{}/archive", fx.removals.profile)),
            Value::Null,
            Set(&[Organiser, Admin]),
        ),
        json_row(
            Method::POST,
            "/players/{id}/restore",
            a(&format!("/players/{}/restore", fx.removals.profile)),
            Value::Null,
            Set(&[Organiser, Admin]),
        ),
        json_row(
            Method::DELETE,
            "/players/{id}",
            a(&format!("/players/{player}")),
            Value::Null,
            Set(&[ClubOrganiser, Admin]),
        ),
        json_row(
            Method::POST,
            "/clubs/{id}/archive",
            a(&format!("/clubs/{other_club}/archive")),
            Value::Null,
            Set(&[OtherOrganiser, Admin]),
        ),
        json_row(
            Method::POST,
            "/clubs/{id}/restore",
            a(&format!("/clubs/{other_club}/restore")),
            Value::Null,
            Set(&[OtherOrganiser, Admin]),
        ),
        json_row(
            Method::DELETE,
            "/clubs/{id}",
            a(&format!("/clubs/{other_club}")),
            Value::Null,
            Set(&[OtherOrganiser, Admin]),
        ),
        get("/admin/changes", a("/admin/changes"), Admins),
        Row {
            method: Method::POST,
            route: "/ratings/import",
            path: a("/ratings/import"),
            body: Body::Text("text/csv", csv),
            access: Organisers,
            expect: Vec::new(),
        },
        json_row(
            Method::POST,
            "/clubs",
            a("/clubs"),
            json!({"name": "New Club"}),
            Organisers,
        ),
        json_row(
            Method::PUT,
            "/clubs/{id}",
            a(&format!("/clubs/{club}")),
            json!({"name": "Fixture Club", "city": "Kazan"}),
            ClubOrganisers,
        ),
        json_row(
            Method::POST,
            "/clubs/{id}/members",
            a(&format!("/clubs/{club}/members")),
            json!({"email": "spare@t.org", "role": "member"}),
            ClubOrganisers,
        ),
        json_row(
            Method::POST,
            "/clubs/{id}/requests",
            a(&format!("/clubs/{club}/requests")),
            Value::Null,
            SignedIn,
        ),
        json_row(
            Method::POST,
            "/clubs/{id}/requests/{request_id}/accept",
            a(&format!("/clubs/{club}/requests/{join_request}/accept")),
            Value::Null,
            ClubOrganisers,
        ),
        json_row(
            Method::POST,
            "/clubs/{id}/requests/{request_id}/decline",
            a(&format!(
                "/clubs/{club}/requests/{second_join_request}/decline"
            )),
            Value::Null,
            ClubOrganisers,
        ),
        json_row(
            Method::POST,
            "/events",
            a("/events"),
            json!({"name": "New Open", "system": "swiss", "rounds": 3}),
            Organisers,
        ),
        json_row(
            Method::POST,
            "/events/import",
            a("/events/import"),
            json!({"trf": TRF, "variant": "russian"}),
            Organisers,
        ),
        json_row(
            Method::PUT,
            "/events/{id}",
            a(&format!("/events/{event}")),
            json!({"name": "Fixture Open", "system": "swiss", "rounds": 5}),
            EventManagers,
        ),
        json_row(
            Method::POST,
            "/events/{id}/entries",
            a(&format!("/events/{event}/entries")),
            json!({"player_id": opponent_player}),
            EventManagers,
        ),
        json_row(
            Method::POST,
            "/events/{id}/invitations",
            a(&format!("/events/{event}/invitations")),
            json!({"label": "table"}),
            EventManagers,
        ),
        // Everybody signed in may use a link; here the event takes no late entry (409), the
        // players are entered already and the others have no profile (422).
        json_row(
            Method::POST,
            "/events/{id}/join",
            a(&format!("/events/{event}/join")),
            json!({"code": fx.api_link.code}),
            SignedIn,
        ),
        // Revoking again is fine (204) for the second manager.
        json_row(
            Method::DELETE,
            "/events/{id}/invitations/{invitation_id}",
            a(&format!("/events/{event}/invitations/{}", fx.api_link.id)),
            Value::Null,
            EventManagers,
        ),
        json_row(
            Method::PUT,
            "/events/{id}/entries/{entry}/absence",
            a(&format!("/events/{event}/entries/{entry}/absence")),
            json!({"round": 3, "kind": "H"}),
            Set(&[Player, Organiser, Admin]),
        ),
        json_row(
            Method::POST,
            "/events/{id}/entries/{entry}/absence",
            a(&format!("/events/{event}/entries/{entry}/absence")),
            json!({"round": 3, "kind": "Z"}),
            Set(&[Player, Organiser, Admin]),
        ),
        // An entry that is not the event's: allowed roles get the 422, nothing changes.
        json_row(
            Method::PUT,
            "/events/{id}/presence",
            a(&format!("/events/{event}/presence")),
            json!({"present": [-1]}),
            EventManagers,
        ),
        json_row(
            Method::POST,
            "/events/{id}/forbidden-pairs",
            a(&format!("/events/{event}/forbidden-pairs")),
            json!({"first_entry_id": entry, "second_entry_id": second_entry}),
            EventManagers,
        ),
        json_row(
            Method::DELETE,
            "/events/{id}/forbidden-pairs/{first}/{second}",
            a(&format!(
                "/events/{event}/forbidden-pairs/{entry}/{second_entry}"
            )),
            Value::Null,
            EventManagers,
        ),
        json_row(
            Method::POST,
            "/events/{id}/arbiters",
            a(&format!("/events/{event}/arbiters")),
            json!({"email": "spare@t.org"}),
            EventManagers,
        ),
        json_row(
            Method::POST,
            "/events/{id}/rounds/{round}/pairing/check",
            a(&format!("/events/{event}/rounds/1/pairing/check")),
            json!({"boards": [{"white": 1, "black": 2}, {"white": 3, "black": 4}]}),
            EventManagers,
        ),
        json_row(
            Method::PUT,
            "/events/{id}/rounds/{round}/pairing",
            a(&format!("/events/{event}/rounds/1/pairing")),
            json!({"boards": [{"white": 1, "black": 3}, {"white": 2, "black": 4}]}),
            EventManagers,
        ),
        json_row(
            Method::POST,
            "/events/{id}/rounds/repair",
            a(&format!("/events/{event}/rounds/repair")),
            Value::Null,
            EventManagers,
        ),
        json_row(
            Method::POST,
            "/events/{id}/rounds/publish",
            a(&format!("/events/{event}/rounds/publish")),
            Value::Null,
            EventManagers,
        ),
        json_row(
            Method::POST,
            "/events/{id}/rounds/{round}/clocks/start",
            a(&format!("/events/{event}/rounds/1/clocks/start")),
            Value::Null,
            EventManagers,
        ),
        Row {
            method: Method::POST,
            route: "/events/{id}/rounds/{round}/pdn",
            path: a(&format!("/events/{event}/rounds/1/pdn")),
            body: Body::Text("text/plain", PDN.to_string()),
            access: EventManagers,
            expect: Vec::new(),
        },
        json_row(
            Method::PUT,
            "/events/{id}/pairings/{pairing}/result",
            a(&format!("/events/{event}/pairings/{pairing}/result")),
            json!({"result": "1-0"}),
            EventManagers,
        ),
        json_row(
            Method::PUT,
            "/events/{id}/pairings/{pairing}/games/{n}/result",
            a(&format!(
                "/events/{event}/pairings/{pairing}/games/1/result"
            )),
            json!({"result": "0-1"}),
            EventManagers,
        ),
        json_row(
            Method::POST,
            "/events/{id}/rounds",
            a(&format!("/events/{event}/rounds")),
            Value::Null,
            EventManagers,
        ),
        // The opponent's entry: they may withdraw themselves.
        json_row(
            Method::POST,
            "/events/{id}/entries/{entry}/withdraw",
            a(&format!("/events/{event}/entries/{second_entry}/withdraw")),
            Value::Null,
            Set(&[Opponent, Organiser, Admin]),
        ),
        json_row(
            Method::POST,
            "/games",
            a("/games"),
            json!({"variant": "russian", "white_player_id": player, "black_player_id": opponent_player}),
            Set(&[Player, Opponent, OtherOrganiser, Organiser, Admin]),
        ),
        json_row(
            Method::POST,
            "/games/{id}/clock/start",
            a(&format!("/games/{game}/clock/start")),
            Value::Null,
            GameArbiters,
        ),
        // Arbiters enter moves too (over-the-board games); the player who has just moved
        // offers a draw, which only the opponent answers.
        json_row(
            Method::POST,
            "/games/{id}/moves",
            a(&format!("/games/{game}/moves")),
            json!({"ply": 1, "move": "c3-d4"}),
            GameParticipants,
        ),
        json_row(
            Method::POST,
            "/games/{id}/draw-offer",
            a(&format!("/games/{game}/draw-offer")),
            Value::Null,
            Only(Player),
        ),
        // The player may not answer their own offer; once declined there is none to accept.
        with_expect(
            json_row(
                Method::POST,
                "/games/{id}/draw-offer/decline",
                a(&format!("/games/{game}/draw-offer/decline")),
                Value::Null,
                Only(Opponent),
            ),
            &[(Player, 403)],
        ),
        with_expect(
            json_row(
                Method::POST,
                "/games/{id}/draw-offer/accept",
                a(&format!("/games/{game}/draw-offer/accept")),
                Value::Null,
                Only(Opponent),
            ),
            &[(Player, 409)],
        ),
        json_row(
            Method::POST,
            "/games/{id}/takeback",
            a(&format!("/games/{game}/takeback")),
            Value::Null,
            GameArbiters,
        ),
        json_row(
            Method::PUT,
            "/games/{id}/result",
            a(&format!("/games/{game}/result")),
            json!({"result": "1-0"}),
            GameArbiters,
        ),
        json_row(
            Method::POST,
            "/games/{id}/resign",
            a(&format!("/games/{game}/resign")),
            Value::Null,
            GamePlayers,
        ),
        json_row(
            Method::POST,
            "/events/{id}/finish",
            a(&format!("/events/{event}/finish")),
            Value::Null,
            EventManagers,
        ),
        json_row(
            Method::POST,
            "/events/{id}/reopen",
            a(&format!("/events/{event}/reopen")),
            Value::Null,
            EventManagers,
        ),
        json_row(
            Method::POST,
            "/tokens",
            a("/tokens"),
            json!({"name": "another"}),
            SignedIn,
        ),
        not_found_for_others(
            json_row(
                Method::DELETE,
                "/tokens/{id}",
                a(&format!("/tokens/{player_spare_token}")),
                Value::Null,
                Only(Player),
            ),
            Player,
        ),
        json_row(
            Method::PUT,
            "/admin/users/{id}/roles",
            a(&format!("/admin/users/{spare_user}/roles")),
            json!({"admin": false, "organiser": false}),
            Admins,
        ),
        json_row(
            Method::POST,
            "/admin/invitations",
            a("/admin/invitations"),
            json!({}),
            Admins,
        ),
        json_row(
            Method::PUT,
            "/admin/registration",
            a("/admin/registration"),
            json!({"mode": "open"}),
            Admins,
        ),
        json_row(
            Method::PUT,
            "/admin/time-zone",
            a("/admin/time-zone"),
            json!({"time_zone": "UTC"}),
            Admins,
        ),
    ]
}

/// The pages' routes (forms with the browser's CSRF token), ordered like the API's.
fn page_rows(fx: &Fixture) -> Vec<Row> {
    use Access::*;
    let Fixture {
        club,
        player,
        spare_user,
        event,
        entry,
        second_entry,
        pairing,
        page_game,
        join_request,
        second_join_request,
        player_page_token,
        ..
    } = *fx;
    let csv = format!("player_id,variant,system,rating\n{player},russian,elo,1500\n");
    let player_id = player.to_string();
    vec![
        get("/", "/".into(), Public),
        get("/login", "/login".into(), Public),
        get("/register", "/register".into(), Public),
        // Closed once an administrator exists: refused to everybody.
        everybody_gets(get("/setup", "/setup".into(), Nobody), 403),
        get("/account", "/account".into(), SignedIn),
        not_found_for_others(
            get(
                "/account/tokens/{id}/revoke",
                format!("/account/tokens/{player_page_token}/revoke"),
                Only(Player),
            ),
            Player,
        ),
        get("/players", "/players".into(), Public),
        get("/players/new", "/players/new".into(), SignedIn),
        get("/players/{id}", format!("/players/{player}"), Public),
        get(
            "/players/{id}/edit",
            format!("/players/{player}/edit"),
            ProfileEditors,
        ),
        get("/ratings", "/ratings".into(), Public),
        get("/ratings.csv", "/ratings.csv".into(), Public),
        get("/ratings.xlsx", "/ratings.xlsx".into(), Public),
        get("/ratings/import", "/ratings/import".into(), Organisers),
        get("/claims", "/claims".into(), SignedIn),
        get("/clubs", "/clubs".into(), Public),
        get("/clubs/new", "/clubs/new".into(), Organisers),
        get("/clubs/{id}", format!("/clubs/{club}"), Public),
        get(
            "/clubs/{id}/edit",
            format!("/clubs/{club}/edit"),
            ClubOrganisers,
        ),
        get("/events", "/events".into(), Public),
        get("/games", "/games".into(), Public),
        get("/games/new", "/games/new".into(), SignedIn),
        get("/events/new", "/events/new".into(), Organisers),
        get("/events/import", "/events/import".into(), Organisers),
        get("/events/{id}", format!("/events/{event}"), Public),
        get(
            "/events/{id}/edit",
            format!("/events/{event}/edit"),
            EventManagers,
        ),
        get(
            "/events/{id}/presence",
            format!("/events/{event}/presence"),
            EventManagers,
        ),
        get(
            "/events/{id}/export.trf",
            format!("/events/{event}/export.trf"),
            Public,
        ),
        get(
            "/events/{id}/games.pdn",
            format!("/events/{event}/games.pdn"),
            Public,
        ),
        get(
            "/events/{id}/rounds/{round}/print",
            format!("/events/{event}/rounds/1/print"),
            Public,
        ),
        get(
            "/events/{id}/standings/print",
            format!("/events/{event}/standings/print"),
            Public,
        ),
        get(
            "/events/{id}/crosstable/print",
            format!("/events/{event}/crosstable/print"),
            Public,
        ),
        get(
            "/events/{id}/schedule/print",
            format!("/events/{event}/schedule/print"),
            Public,
        ),
        get(
            "/events/{id}/standings.csv",
            format!("/events/{event}/standings.csv"),
            Public,
        ),
        get(
            "/events/{id}/standings.xlsx",
            format!("/events/{event}/standings.xlsx"),
            Public,
        ),
        get(
            "/events/{id}/crosstable.csv",
            format!("/events/{event}/crosstable.csv"),
            Public,
        ),
        get(
            "/events/{id}/crosstable.xlsx",
            format!("/events/{event}/crosstable.xlsx"),
            Public,
        ),
        get(
            "/events/{id}/rounds/{round}/pairings.csv",
            format!("/events/{event}/rounds/1/pairings.csv"),
            Public,
        ),
        get(
            "/events/{id}/rounds/{round}/pairings.xlsx",
            format!("/events/{event}/rounds/1/pairings.xlsx"),
            Public,
        ),
        get(
            "/events/{id}/players/{start_no}",
            format!("/events/{event}/players/1"),
            Public,
        ),
        get(
            "/events/{id}/entries/{entry}/withdraw",
            format!("/events/{event}/entries/{second_entry}/withdraw"),
            Set(&[Opponent, Organiser, Admin]),
        ),
        get(
            "/events/{id}/invitations/{invitation_id}/revoke",
            format!("/events/{event}/invitations/{}/revoke", fx.page_link.id),
            EventManagers,
        ),
        get(
            "/events/{id}/join/{code}",
            format!("/events/{event}/join/{}", fx.page_link.code),
            Public,
        ),
        get(
            "/events/{id}/rounds/repair",
            format!("/events/{event}/rounds/repair"),
            EventManagers,
        ),
        get(
            "/events/{id}/rounds/{round}/pairing",
            format!("/events/{event}/rounds/1/pairing"),
            EventManagers,
        ),
        get(
            "/events/{id}/changes",
            format!("/events/{event}/changes"),
            Public,
        ),
        get(
            "/events/{id}/finish",
            format!("/events/{event}/finish"),
            EventManagers,
        ),
        get(
            "/events/{id}/reopen",
            format!("/events/{event}/reopen"),
            EventManagers,
        ),
        get("/games/{id}", format!("/games/{page_game}"), Public),
        get("/games/{id}/pdn", format!("/games/{page_game}/pdn"), Public),
        get("/admin", "/admin".into(), Admins),
        form(
            "/lang",
            "/lang".into(),
            &[("lang", "en"), ("next", "/")],
            Public,
        ),
        form(
            "/account/language",
            "/account/language".into(),
            &[("locale", "en")],
            SignedIn,
        ),
        form(
            "/account/tokens",
            "/account/tokens".into(),
            &[("name", "another")],
            SignedIn,
        ),
        // The players without an organiser's role made their profile in the API's row.
        form(
            "/players",
            "/players".into(),
            &[("name", "Someone New")],
            Organisers,
        ),
        form(
            "/players/{id}",
            format!("/players/{player}"),
            &[("name", "Player One"), ("club_id", &club.to_string())],
            ProfileEditors,
        ),
        form(
            "/players/{id}/claims",
            format!("/players/{}/claims", fx.claims.target),
            &[],
            SignedIn,
        ),
        form(
            "/claims/{id}/decline",
            format!("/claims/{}/decline", fx.claims.page_claim_two),
            &[("back", "/")],
            Set(&[Organiser, Admin]),
        ),
        form(
            "/claims/{id}/accept",
            format!("/claims/{}/accept", fx.claims.page_claim),
            &[("back", "/")],
            Set(&[Organiser, Admin]),
        ),
        form(
            "/players/{id}/claim-link",
            format!("/players/{}/claim-link", fx.claims.link_target),
            &[],
            Set(&[Organiser, Admin]),
        ),
        get(
            "/claim/{code}",
            format!("/claim/{}", fx.claims.code),
            Public,
        ),
        // A link used already: every account is told so (409), none is linked.
        form(
            "/claim/{code}",
            format!("/claim/{}", fx.claims.used_code),
            &[],
            SignedIn,
        ),
        get(
            "/players/{id}/merge",
            format!(
                "/players/{}/merge?into={}",
                fx.claims.page_merge.0, fx.claims.page_merge.1
            ),
            Set(&[Organiser, Admin]),
        ),
        form(
            "/players/{id}/merge",
            format!("/players/{}/merge", fx.claims.page_merge.0),
            &[("into", &fx.claims.page_merge.1.to_string())],
            Set(&[Organiser, Admin]),
        ),
        // Archive, restore, delete (see `RemovalFixture`), asked first.
        get(
            "/events/{id}/remove",
            format!("/events/{}/remove", fx.removals.event),
            EventManagers,
        ),
        form(
            "/events/{id}/archive",
            format!("/events/{}/archive", fx.removals.event),
            &[],
            EventManagers,
        ),
        form(
            "/events/{id}/restore",
            format!("/events/{}/restore", fx.removals.event),
            &[],
            EventManagers,
        ),
        form(
            "/events/{id}/delete",
            format!("/events/{event}/delete"),
            &[],
            EventManagers,
        ),
        get(
            "/players/{id}/remove",
            format!("/players/{}/remove", fx.removals.profile),
            Set(&[Organiser, Admin]),
        ),
        form(
            "/players/{id}/archive",
            format!("/players/{}/archive", fx.removals.profile),
            &[],
            Set(&[Organiser, Admin]),
        ),
        form(
            "/players/{id}/restore",
            format!("/players/{}/restore", fx.removals.profile),
            &[],
            Set(&[Organiser, Admin]),
        ),
        form(
            "/players/{id}/delete",
            format!("/players/{player}/delete"),
            &[],
            Set(&[ClubOrganiser, Admin]),
        ),
        get(
            "/clubs/{id}/remove",
            format!("/clubs/{}/remove", fx.other_club),
            Set(&[OtherOrganiser, Admin]),
        ),
        form(
            "/clubs/{id}/archive",
            format!("/clubs/{}/archive", fx.other_club),
            &[],
            Set(&[OtherOrganiser, Admin]),
        ),
        form(
            "/clubs/{id}/restore",
            format!("/clubs/{}/restore", fx.other_club),
            &[],
            Set(&[OtherOrganiser, Admin]),
        ),
        form(
            "/clubs/{id}/delete",
            format!("/clubs/{}/delete", fx.other_club),
            &[],
            Set(&[OtherOrganiser, Admin]),
        ),
        get("/admin/changes", "/admin/changes".into(), Admins),
        form(
            "/ratings/import",
            "/ratings/import".into(),
            &[("csv", &csv)],
            Organisers,
        ),
        form(
            "/clubs",
            "/clubs".into(),
            &[("name", "Page Club")],
            Organisers,
        ),
        form(
            "/clubs/{id}",
            format!("/clubs/{club}"),
            &[("name", "Fixture Club"), ("city", "Kazan")],
            ClubOrganisers,
        ),
        form(
            "/clubs/{id}/members",
            format!("/clubs/{club}/members"),
            &[("email", "spare@t.org"), ("role", "member")],
            ClubOrganisers,
        ),
        form(
            "/clubs/{id}/members/bulk",
            format!("/clubs/{club}/members/bulk"),
            &[("names", "Bulk {who}")],
            ClubOrganisers,
        ),
        form(
            "/clubs/{id}/requests",
            format!("/clubs/{club}/requests"),
            &[],
            SignedIn,
        ),
        form(
            "/clubs/{id}/requests/{request_id}/accept",
            format!("/clubs/{club}/requests/{join_request}/accept"),
            &[],
            ClubOrganisers,
        ),
        form(
            "/clubs/{id}/requests/{request_id}/decline",
            format!("/clubs/{club}/requests/{second_join_request}/decline"),
            &[],
            ClubOrganisers,
        ),
        form(
            "/events",
            "/events".into(),
            &[("name", "Page Open"), ("system", "swiss"), ("rounds", "3")],
            Organisers,
        ),
        form(
            "/events/import",
            "/events/import".into(),
            &[("trf", TRF), ("variant", "russian")],
            Organisers,
        ),
        form(
            "/events/{id}",
            format!("/events/{event}"),
            &[
                ("name", "Fixture Open"),
                ("system", "swiss"),
                ("rounds", "5"),
            ],
            EventManagers,
        ),
        form(
            "/events/{id}/entries",
            format!("/events/{event}/entries"),
            &[("player_id", &player_id)],
            EventManagers,
        ),
        form(
            "/events/{id}/entries/{entry}/absence",
            format!("/events/{event}/entries/{entry}/absence"),
            &[("round", "3"), ("kind", "H")],
            Set(&[Player, Organiser, Admin]),
        ),
        form(
            "/events/{id}/invitations",
            format!("/events/{event}/invitations"),
            &[("label", "page {who}")],
            EventManagers,
        ),
        // As through the API: allowed to everybody signed in, refused by the event's rules.
        form(
            "/events/{id}/join/{code}",
            format!("/events/{event}/join/{}", fx.page_link.code),
            &[],
            SignedIn,
        ),
        form(
            "/events/{id}/invitations/{invitation_id}/revoke",
            format!("/events/{event}/invitations/{}/revoke", fx.page_link.id),
            &[],
            EventManagers,
        ),
        form(
            "/events/{id}/presence",
            format!("/events/{event}/presence"),
            &[("present_-1", "on")],
            EventManagers,
        ),
        form(
            "/events/{id}/arbiters",
            format!("/events/{event}/arbiters"),
            &[("email", "spare@t.org")],
            EventManagers,
        ),
        form(
            "/events/{id}/forbidden-pairs",
            format!("/events/{event}/forbidden-pairs"),
            &[
                ("first", &entry.to_string()),
                ("second", &second_entry.to_string()),
            ],
            EventManagers,
        ),
        form(
            "/events/{id}/forbidden-pairs/{first}/{second}/delete",
            format!("/events/{event}/forbidden-pairs/{entry}/{second_entry}/delete"),
            &[],
            EventManagers,
        ),
        form(
            "/events/{id}/rounds/{round}/pairing",
            format!("/events/{event}/rounds/1/pairing"),
            &[
                ("white_1", "1"),
                ("black_1", "2"),
                ("white_2", "3"),
                ("black_2", "4"),
            ],
            EventManagers,
        ),
        form(
            "/events/{id}/rounds/repair",
            format!("/events/{event}/rounds/repair"),
            &[],
            EventManagers,
        ),
        form(
            "/events/{id}/rounds/publish",
            format!("/events/{event}/rounds/publish"),
            &[],
            EventManagers,
        ),
        form(
            "/events/{id}/rounds/{round}/clocks/start",
            format!("/events/{event}/rounds/1/clocks/start"),
            &[],
            EventManagers,
        ),
        form(
            "/events/{id}/pairings/{pairing}/result",
            format!("/events/{event}/pairings/{pairing}/result"),
            &[("result", "1-0")],
            EventManagers,
        ),
        form(
            "/events/{id}/rounds/{round}/results",
            format!("/events/{event}/rounds/1/results"),
            &[],
            EventManagers,
        ),
        form(
            "/events/{id}/rounds",
            format!("/events/{event}/rounds"),
            &[],
            EventManagers,
        ),
        form(
            "/events/{id}/entries/{entry}/withdraw",
            format!("/events/{event}/entries/{second_entry}/withdraw"),
            &[],
            Set(&[Opponent, Organiser, Admin]),
        ),
        // A casual game against the fixture's player: those with a profile of their own.
        form(
            "/games",
            "/games".into(),
            &[("opponent_id", &player_id), ("colour", "white")],
            Set(&[Player, Opponent, OtherPlayer, ClubOrganiser]),
        ),
        form(
            "/games/{id}/clock/start",
            format!("/games/{page_game}/clock/start"),
            &[],
            GameArbiters,
        ),
        form(
            "/games/{id}/moves",
            format!("/games/{page_game}/moves"),
            &[("ply", "1"), ("move", "c3-d4")],
            GameParticipants,
        ),
        form(
            "/games/{id}/draw-offer",
            format!("/games/{page_game}/draw-offer"),
            &[],
            Only(Player),
        ),
        with_expect(
            form(
                "/games/{id}/draw-offer/decline",
                format!("/games/{page_game}/draw-offer/decline"),
                &[],
                Only(Opponent),
            ),
            &[(Player, 403)],
        ),
        with_expect(
            form(
                "/games/{id}/draw-offer/accept",
                format!("/games/{page_game}/draw-offer/accept"),
                &[],
                Only(Opponent),
            ),
            &[(Player, 409)],
        ),
        form(
            "/games/{id}/takeback",
            format!("/games/{page_game}/takeback"),
            &[],
            GameArbiters,
        ),
        form(
            "/games/{id}/result",
            format!("/games/{page_game}/result"),
            &[("result", "1-0")],
            GameArbiters,
        ),
        form(
            "/games/{id}/resign",
            format!("/games/{page_game}/resign"),
            &[],
            GamePlayers,
        ),
        form(
            "/events/{id}/finish",
            format!("/events/{event}/finish"),
            &[],
            EventManagers,
        ),
        form(
            "/events/{id}/reopen",
            format!("/events/{event}/reopen"),
            &[],
            EventManagers,
        ),
        not_found_for_others(
            form(
                "/account/tokens/{id}/revoke",
                format!("/account/tokens/{player_page_token}/revoke"),
                &[],
                Only(Player),
            ),
            Player,
        ),
        form(
            "/admin/registration",
            "/admin/registration".into(),
            &[("mode", "open")],
            Admins,
        ),
        form(
            "/admin/time-zone",
            "/admin/time-zone".into(),
            &[("time_zone", "UTC")],
            Admins,
        ),
        form(
            "/admin/ratings",
            "/admin/ratings".into(),
            &[("list_system", "elo"), ("seeding_system", "elo")],
            Admins,
        ),
        form(
            "/admin/invitations",
            "/admin/invitations".into(),
            &[],
            Admins,
        ),
        form(
            "/admin/users/{id}/roles",
            format!("/admin/users/{spare_user}/roles"),
            &[],
            Admins,
        ),
        // Wrong current password: reaches the check without ending anybody's sessions.
        form(
            "/account/password",
            "/account/password".into(),
            &[
                ("current_password", "not-it"),
                ("new_password", "a-new-password-1"),
            ],
            SignedIn,
        ),
        // Signing in, registering and setting up are for everyone (and fail on these bodies).
        everybody_gets(
            form(
                "/login",
                "/login".into(),
                &[("email", "nobody-{who}@t.org"), ("password", "wrong")],
                Public,
            ),
            401,
        ),
        form(
            "/register",
            "/register".into(),
            &[
                ("email", "new@t.org"),
                ("display_name", "New"),
                ("password", "short"),
                ("invitation", ""),
            ],
            Public,
        ),
        everybody_gets(
            form(
                "/setup",
                "/setup".into(),
                &[
                    ("email", "root@t.org"),
                    ("display_name", "Root"),
                    ("password", "a-long-password-1"),
                ],
                Nobody,
            ),
            403,
        ),
        // Last: signing out ends the sessions the other rows use.
        form("/logout", "/logout".into(), &[], Public),
    ]
}

fn asset_rows() -> Vec<Row> {
    [
        "/static/style.css",
        "/static/print.css",
        "/static/print.js",
        "/static/game.js",
        "/static/live.js",
        "/static/address.js",
        "/favicon.svg",
        "/healthz",
    ]
    .into_iter()
    .map(|path| get(path, path.to_string(), Access::Public))
    .collect()
}

/// Sends the row's request as `client` (streams are opened, not read to their end).
async fn send(client: &mut Client<'_>, who: Who, row: &Row) -> Response {
    if row.route.ends_with("/stream") {
        let owned = client.headers.clone();
        let headers: Vec<(&str, &str)> = owned
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let (status, headers, _events) = client.stream(&row.path, &headers).await;
        return Response {
            status,
            headers,
            body: String::new(),
        };
    }
    match &row.body {
        Body::None => {
            client
                .request(row.method.clone(), &row.path, None, &[])
                .await
        }
        Body::Json(body) => {
            client
                .json(row.method.clone(), &row.path, body.clone())
                .await
        }
        Body::Form(fields) => {
            // `{who}` in a value becomes the role, for a value each role needs its own of.
            let fields: Vec<(&str, String)> = fields
                .iter()
                .map(|(k, v)| (*k, v.replace("{who}", &format!("{who:?}").to_lowercase())))
                .collect();
            let fields: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
            client.post_form(&row.path, &fields).await
        }
        Body::Text(content_type, text) => {
            client
                .request(
                    row.method.clone(),
                    &row.path,
                    Some((content_type, text.clone())),
                    &[],
                )
                .await
        }
    }
}

/// What a refused request must look like: the status, and the API's problem+json with a
/// code or the pages' HTML.
fn check_refusal(res: &Response, expected: u16, api: bool) -> Result<(), String> {
    if res.status.as_u16() != expected {
        return Err(format!(
            "expected {expected}, got {} {}",
            res.status,
            clip(&res.body)
        ));
    }
    if api {
        if res.content_type() != "application/problem+json" {
            return Err(format!(
                "refusal is {}, not problem+json",
                res.content_type()
            ));
        }
        if res.json()["code"].as_str().is_none_or(str::is_empty) {
            return Err(format!("refusal without a code: {}", res.body));
        }
    } else if !res.content_type().starts_with("text/html") {
        return Err(format!("refusal page is {}", res.content_type()));
    }
    Ok(())
}

/// A short account of an answer: a page's title and first paragraph, or the start of a text.
fn clip(text: &str) -> String {
    let between = |open: &str, close: &str| -> Option<String> {
        let start = text.find(open)? + open.len();
        let end = text[start..].find(close)?;
        Some(text[start..start + end].to_string())
    };
    match between("<title>", "</title>") {
        Some(title) => format!(
            "page {title:?}: {}",
            between("<main", "</p>")
                .unwrap_or_default()
                .chars()
                .rev()
                .take(200)
                .collect::<String>()
                .chars()
                .rev()
                .collect::<String>()
        ),
        None => text.chars().take(300).collect(),
    }
}

/// Runs `rows` for every role with `clients`; returns the mismatches and how many
/// (row, role) cases ran.
async fn run_rows(
    app: &TestApp,
    rows: &[Row],
    clients: &mut BTreeMap<Who, Client<'_>>,
    api: bool,
) -> (Vec<String>, usize) {
    let mut failures = Vec::new();
    let mut cases = 0;
    for row in rows {
        let (allowed, refused): (Vec<Who>, Vec<Who>) =
            EVERYONE.iter().partition(|who| row.access.allows(**who));
        let writes = row.method != Method::GET;
        let before = if writes && !refused.is_empty() {
            Some(fingerprint(app).await)
        } else {
            None
        };
        for who in refused.iter().chain(&allowed) {
            cases += 1;
            let client = clients.get_mut(who).unwrap();
            let res = send(client, *who, row).await;
            let at = format!("{} {} as {who:?}", row.method, row.path);
            let exact = row.expect.iter().find(|(w, _)| w == who).map(|(_, s)| *s);
            if let Some(expected) = exact {
                let checked = if expected >= 400 {
                    check_refusal(&res, expected, api)
                } else if res.status.as_u16() == expected {
                    Ok(())
                } else {
                    Err(format!(
                        "expected {expected}, got {} {}",
                        res.status,
                        clip(&res.body)
                    ))
                };
                if let Err(problem) = checked {
                    failures.push(format!("{at}: {problem}"));
                }
            } else if refused.contains(who) {
                let expected = if *who == Anonymous { 401 } else { 403 };
                if let Err(problem) = check_refusal(&res, expected, api) {
                    failures.push(format!("{at}: {problem}"));
                }
            } else {
                let status = res.status.as_u16();
                if status == 401 || status == 403 || status >= 500 {
                    failures.push(format!(
                        "{at} ({:?}): allowed, got {status} {}",
                        row.access,
                        clip(&res.body)
                    ));
                }
            }
            if *who == refused.last().copied().unwrap_or(Anonymous)
                && let Some(before) = &before
            {
                let after = fingerprint(app).await;
                if &after != before {
                    let changed: Vec<&String> = after
                        .iter()
                        .filter(|l| !before.contains(l))
                        .chain(before.iter().filter(|l| !after.contains(l)))
                        .collect();
                    failures.push(format!(
                        "{} {}: refused requests changed {changed:?}",
                        row.method, row.path
                    ));
                }
            }
        }
    }
    (failures, cases)
}

/// The (method, route) pairs of a route table that the rows do not cover, and rows that
/// name no route of it.
fn coverage(table: Vec<(Method, String)>, rows: &[Row], prefix: &str) -> Vec<String> {
    let declared: BTreeSet<(String, String)> =
        table.into_iter().map(|(m, p)| (m.to_string(), p)).collect();
    let covered: BTreeSet<(String, String)> = rows
        .iter()
        .map(|r| (r.method.to_string(), r.route.to_string()))
        .collect();
    let mut problems: Vec<String> = declared
        .difference(&covered)
        .map(|(m, p)| format!("no row for {m} {prefix}{p}"))
        .collect();
    problems.extend(
        covered
            .difference(&declared)
            .filter(|(_, p)| p != "/healthz")
            .map(|(m, p)| format!("a row for {m} {prefix}{p}, which is no route")),
    );
    problems
}

#[actix_web::test]
async fn every_route_refuses_every_role_it_should() {
    let app = TestApp::new().await;
    let (fx, mut clients) = fixture(&app).await;
    let api = api_rows(&fx);
    let pages = page_rows(&fx);
    let assets = asset_rows();
    let mut failures = Vec::new();
    failures.extend(coverage(
        damka::web::api::routes().endpoints(),
        &api,
        "/api/v1",
    ));
    failures.extend(coverage(
        damka::web::pages::routes().endpoints(),
        &pages,
        "",
    ));
    failures.extend(coverage(
        damka::web::assets::routes().endpoints(),
        &assets,
        "",
    ));

    // The API does not take the session cookie: a signed-in browser without a token is
    // anonymous there, for reads and (what a cross-site request would try) writes.
    let mut cookie_only = BTreeMap::new();
    for who in EVERYONE {
        let browser = clients.browsers.get(&who).unwrap();
        cookie_only.insert(
            who,
            Client {
                app: &app,
                cookies: browser.cookies.clone(),
                headers: Vec::new(),
            },
        );
    }
    let api_with_cookies: Vec<Row> = api
        .iter()
        .filter(|r| !matches!(r.access, Access::Public))
        .map(|r| Row {
            method: r.method.clone(),
            route: r.route,
            path: r.path.clone(),
            body: r.body.clone(),
            access: Access::Nobody,
            expect: EVERYONE.iter().map(|w| (*w, 401)).collect(),
        })
        .collect();
    let (cookie_failures, cookie_cases) =
        run_rows(&app, &api_with_cookies, &mut cookie_only, true).await;
    failures.extend(
        cookie_failures
            .into_iter()
            .map(|f| format!("cookie on the API: {f}")),
    );

    let (api_failures, api_cases) = run_rows(&app, &api, &mut clients.apis, true).await;
    failures.extend(api_failures);
    let (asset_failures, asset_cases) = run_rows(&app, &assets, &mut clients.browsers, false).await;
    failures.extend(asset_failures);
    let (page_failures, page_cases) = run_rows(&app, &pages, &mut clients.browsers, false).await;
    failures.extend(page_failures);
    println!(
        "authorisation table: {} API routes, {} pages, {} static; {} cases",
        api.len(),
        pages.len(),
        assets.len(),
        cookie_cases + api_cases + asset_cases + page_cases
    );
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// An event's arbiter (not its organiser) runs rounds and enters absences, but withdrawing
/// a player is the organiser's: the entries tab offers them no withdrawal link, whose page
/// and action would refuse them.
#[actix_web::test]
async fn an_arbiter_is_offered_only_what_they_may_do() {
    let app = TestApp::new().await;
    let mut organiser = app.user("org@t.org", Role::Organiser).await;
    let mut api = organiser.api_client().await;
    let mut arbiter = app.user("arbiter@t.org", Role::Player).await;
    let made = api
        .json(
            Method::POST,
            "/api/v1/events",
            json!({"name": "Arbitrated", "system": "swiss", "rounds": 3}),
        )
        .await;
    ok(&made, "event");
    let event = made.json()["id"].as_i64().unwrap();
    let entries = crate::common::enter_players(&mut api, event, 4).await;
    let named = api
        .json(
            Method::POST,
            &format!("/api/v1/events/{event}/arbiters"),
            json!({"email": "arbiter@t.org"}),
        )
        .await;
    ok(&named, "arbiter");

    let page = arbiter.get(&format!("/events/{event}?tab=entries")).await;
    assert_eq!(page.status.as_u16(), 200, "{}", page.body);
    assert!(
        page.body.contains("/absence"),
        "the arbiter enters absences: {}",
        clip(&page.body)
    );
    let withdraw = format!("/events/{event}/entries/{}/withdraw", entries[0]);
    assert!(
        !page.body.contains(&withdraw),
        "the arbiter is offered a withdrawal they may not make"
    );
    assert_eq!(arbiter.get(&withdraw).await.status.as_u16(), 403);
    assert_eq!(arbiter.post_form(&withdraw, &[]).await.status.as_u16(), 403);
    let absence = arbiter
        .post_form(
            &format!("/events/{event}/entries/{}/absence", entries[0]),
            &[("round", "1"), ("kind", "H")],
        )
        .await;
    assert_eq!(absence.status.as_u16(), 303, "{}", clip(&absence.body));
    // The organiser is offered the withdrawal.
    let page = organiser.get(&format!("/events/{event}?tab=entries")).await;
    assert!(page.body.contains(&withdraw));
}
