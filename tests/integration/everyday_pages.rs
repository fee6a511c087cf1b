//! Things a club does every week, done from pages (issue 27, item 1): a casual game
//! started from `/games/new`, many members added to a club at once, the "register"
//! button and the administrator's "start here" list on the landing page.
#![allow(clippy::unwrap_used)]
use crate::common;

use common::{Client, Role, TestApp};
use serde_json::json;

/// Puts a profile in a club directly (fast setup: joining is tested elsewhere).
async fn put_in_club(app: &TestApp, player: i64, club: i64) {
    app.with_db(move |conn| {
        use damka::store::schema::players;
        use diesel::prelude::*;
        diesel::update(players::table.find(player))
            .set(players::club_id.eq(Some(club)))
            .execute(conn)
            .unwrap();
    })
    .await;
}

/// A signed-in browser of a player account with its own profile; returns it and the id.
async fn player_browser<'a>(app: &'a TestApp, email: &str, name: &str) -> (Client<'a>, i64) {
    let mut browser = app.user(email, Role::Player).await;
    let made = browser.post_form("/players", &[("name", name)]).await;
    assert_eq!(made.status.as_u16(), 303, "{}", made.body);
    let id = made
        .location()
        .trim_start_matches("/players/")
        .parse()
        .unwrap();
    (browser, id)
}

async fn game_count(app: &TestApp) -> i64 {
    app.with_db(|conn| {
        use damka::store::schema::games;
        use diesel::prelude::*;
        games::table.count().get_result::<i64>(conn).unwrap()
    })
    .await
}

/// The game behind a page's redirect, read through the API.
async fn game_of(app: &TestApp, location: &str) -> serde_json::Value {
    let id = location.trim_start_matches("/games/");
    assert!(id.parse::<i64>().is_ok(), "redirected to {location}");
    let mut anyone = app.client();
    let got = anyone.get(&format!("/api/v1/games/{id}")).await;
    assert_eq!(got.status.as_u16(), 200, "{}", got.body);
    got.json()
}

#[actix_web::test]
async fn a_player_challenges_a_club_member_from_the_form() {
    let app = TestApp::new().await;
    let mut organiser = common::organiser_api(&app, "org@t.org").await;
    let club = common::create_club(&mut organiser, "Ладья").await;
    let (mut ivan, ivan_id) = player_browser(&app, "ivan@t.org", "Иван Петров").await;
    let (_, olga_id) = player_browser(&app, "olga@t.org", "Ольга Смирнова").await;
    put_in_club(&app, ivan_id, club).await;
    put_in_club(&app, olga_id, club).await;

    let home = ivan.get("/").await;
    assert!(
        home.body.contains("href=\"/games/new\""),
        "home links the form"
    );
    let list = ivan.get("/games").await;
    assert!(
        list.body.contains("href=\"/games/new\""),
        "the list links the form"
    );
    let form = ivan.get("/games/new").await;
    assert_eq!(form.status.as_u16(), 200, "{}", form.body);
    assert!(
        form.body.contains(&format!(
            "<option value=\"{olga_id}\">Ольга Смирнова</option>"
        )),
        "the club's members are offered: {}",
        form.body
    );
    assert!(
        !form.body.contains(&format!("<option value=\"{ivan_id}\"")),
        "not oneself"
    );

    let made = ivan
        .post_form(
            "/games",
            &[
                ("opponent_id", &olga_id.to_string()),
                ("opponent_name", ""),
                ("variant", "russian"),
                ("rated", "1"),
                ("clock", "fischer"),
                ("clock_base_min", "5"),
                ("clock_increment_s", "3"),
                ("colour", "white"),
            ],
        )
        .await;
    assert_eq!(made.status.as_u16(), 303, "{}", made.body);
    let game = game_of(&app, &made.location()).await;
    assert_eq!(game["white"]["player_id"], ivan_id);
    assert_eq!(game["black"]["player_id"], olga_id);
    assert_eq!(game["rated"], true);
    assert_eq!(game["event_id"], json!(null));
    assert_eq!(game["clock"]["kind"], "fischer");
    assert_eq!(game["clock"]["base_s"], 300);
    assert_eq!(game["clock"]["increment_s"], 3);
    let page = ivan.get(&made.location()).await;
    assert_eq!(page.status.as_u16(), 200);
}

#[actix_web::test]
async fn a_player_challenges_by_name_as_black_without_a_clock() {
    let app = TestApp::new().await;
    let (mut ivan, ivan_id) = player_browser(&app, "ivan@t.org", "Иван Петров").await;
    let (_, olga_id) = player_browser(&app, "olga@t.org", "Ольга Смирнова").await;
    let made = ivan
        .post_form(
            "/games",
            &[
                ("opponent_name", "  ольга смирнова "),
                ("variant", "international"),
                ("clock", "none"),
                ("colour", "black"),
            ],
        )
        .await;
    assert_eq!(made.status.as_u16(), 303, "{}", made.body);
    let game = game_of(&app, &made.location()).await;
    assert_eq!(game["white"]["player_id"], olga_id);
    assert_eq!(game["black"]["player_id"], ivan_id);
    assert_eq!(game["variant"], "international");
    assert_eq!(game["rated"], false);
    assert_eq!(game["clock"], json!(null));

    // Drawn by lot: either side, always the two of them.
    let made = ivan
        .post_form(
            "/games",
            &[("opponent_id", &olga_id.to_string()), ("colour", "random")],
        )
        .await;
    assert_eq!(made.status.as_u16(), 303, "{}", made.body);
    let game = game_of(&app, &made.location()).await;
    let mut sides = [
        game["white"]["player_id"].as_i64().unwrap(),
        game["black"]["player_id"].as_i64().unwrap(),
    ];
    sides.sort_unstable();
    let mut expected = [ivan_id, olga_id];
    expected.sort_unstable();
    assert_eq!(sides, expected);
}

#[actix_web::test]
async fn a_challenge_is_refused_on_the_form_with_its_values_kept() {
    let app = TestApp::new().await;
    let (mut ivan, ivan_id) = player_browser(&app, "ivan@t.org", "Иван Петров").await;
    player_browser(&app, "olga@t.org", "Ольга Смирнова").await;
    ivan.headers.push(("accept-language".into(), "ru".into()));
    let before = game_count(&app).await;

    let oneself = ivan
        .post_form(
            "/games",
            &[
                ("opponent_id", &ivan_id.to_string()),
                ("variant", "brazilian"),
                ("colour", "black"),
            ],
        )
        .await;
    assert_eq!(oneself.status.as_u16(), 422, "{}", oneself.body);
    assert!(
        oneself.body.contains("игрок не может играть сам с собой"),
        "{}",
        oneself.body
    );
    assert!(oneself.body.contains("value=\"brazilian\" selected"));
    assert!(oneself.body.contains("value=\"black\" checked"));

    let bad_clock = ivan
        .post_form(
            "/games",
            &[
                ("opponent_name", "Ольга Смирнова"),
                ("clock", "fischer"),
                ("clock_base_min", "0"),
                ("clock_increment_s", "0"),
            ],
        )
        .await;
    assert_eq!(bad_clock.status.as_u16(), 422, "{}", bad_clock.body);
    assert!(
        bad_clock.body.contains("от 1 до 1440"),
        "{}",
        bad_clock.body
    );
    assert!(bad_clock.body.contains("value=\"Ольга Смирнова\""));
    assert!(bad_clock.body.contains("value=\"fischer\" checked"));

    let too_long = ivan
        .post_form(
            "/games",
            &[
                ("opponent_name", "Ольга Смирнова"),
                ("clock", "fischer"),
                ("clock_base_min", "5"),
                ("clock_increment_s", "99999"),
            ],
        )
        .await;
    assert_eq!(too_long.status.as_u16(), 422, "{}", too_long.body);
    assert!(too_long.body.contains("от 0 до 3600"), "{}", too_long.body);

    let nobody = ivan
        .post_form("/games", &[("opponent_name", "Пётр Никто")])
        .await;
    assert_eq!(nobody.status.as_u16(), 422);
    assert!(nobody.body.contains("игрока с именем «Пётр Никто» нет"));

    let nothing = ivan.post_form("/games", &[("opponent_name", " ")]).await;
    assert_eq!(nothing.status.as_u16(), 422);
    assert!(nothing.body.contains("выберите соперника из списка"));
    assert_eq!(game_count(&app).await, before, "no game was created");
}

#[actix_web::test]
async fn a_player_without_a_profile_cannot_start_a_game() {
    let app = TestApp::new().await;
    let (_, olga_id) = player_browser(&app, "olga@t.org", "Ольга Смирнова").await;
    let mut anna = app.user("anna@t.org", Role::Player).await;
    let form = anna.get("/games/new").await;
    assert_eq!(form.status.as_u16(), 200);
    assert!(form.body.contains("id=\"no-profile\""));
    assert!(form.body.contains("href=\"/players/new\""));
    let refused = anna
        .post_form(
            "/games",
            &[("opponent_id", &olga_id.to_string()), ("colour", "white")],
        )
        .await;
    assert_eq!(refused.status.as_u16(), 403, "{}", refused.body);
    assert!(
        refused.body.contains("no player profile"),
        "{}",
        refused.body
    );
    assert!(refused.body.contains("value=\"white\" checked"));
    assert_eq!(game_count(&app).await, 0);

    let mut anonymous = app.client();
    assert_eq!(anonymous.get("/games/new").await.status.as_u16(), 401);
    let refused = anonymous
        .post_form("/games", &[("opponent_id", &olga_id.to_string())])
        .await;
    assert_eq!(refused.status.as_u16(), 401);
    assert_eq!(game_count(&app).await, 0);
}

async fn club_of(app: &TestApp, player: i64) -> Option<i64> {
    app.with_db(move |conn| {
        use damka::store::schema::players;
        use diesel::prelude::*;
        players::table
            .find(player)
            .select(players::club_id)
            .get_result::<Option<i64>>(conn)
            .unwrap()
    })
    .await
}

async fn player_count(app: &TestApp) -> i64 {
    app.with_db(|conn| {
        use damka::store::schema::players;
        use diesel::prelude::*;
        players::table.count().get_result::<i64>(conn).unwrap()
    })
    .await
}

#[actix_web::test]
async fn an_organiser_adds_many_members_at_once_and_every_line_is_accounted_for() {
    let app = TestApp::new().await;
    let mut organiser = app.user("org@t.org", Role::Organiser).await;
    let mut api = organiser.api_client().await;
    let club = common::create_club(&mut api, "Ладья").await;
    let other_club = common::create_club(&mut api, "Ферзь").await;
    // A profile without a club joins; one in another club is not taken from it.
    let (_, clubless) = player_browser(&app, "petr@t.org", "Пётр Иванов").await;
    let (_, elsewhere) = player_browser(&app, "olga@t.org", "Ольга Смирнова").await;
    put_in_club(&app, elsewhere, other_club).await;

    let page = organiser.get(&format!("/clubs/{club}")).await;
    assert!(
        page.body
            .contains(&format!("action=\"/clubs/{club}/members/bulk\"")),
        "the club page offers the form to its organiser"
    );
    let before = player_count(&app).await;
    let added = organiser
        .post_form(
            &format!("/clubs/{club}/members/bulk"),
            &[(
                "names",
                "Анна Кузнецова\n\n  пётр иванов \nОльга Смирнова\nАнна Кузнецова\n",
            )],
        )
        .await;
    assert_eq!(added.status.as_u16(), 200, "{}", added.body);
    let text = common::page_text(&added.body);
    assert!(
        text.contains("New profiles: 2; joined: 1; not added: 1."),
        "{text}"
    );
    assert!(
        text.contains("a player of this name is in the club already"),
        "the repeated line says why: {text}"
    );
    for line in ["1", "3", "4", "5"] {
        assert!(
            added
                .body
                .contains(&format!("<td class=\"num\">{line}</td>")),
            "line {line} is listed"
        );
    }
    assert_eq!(club_of(&app, clubless).await, Some(club), "joined");
    assert_eq!(
        club_of(&app, elsewhere).await,
        Some(other_club),
        "left alone"
    );
    assert_eq!(player_count(&app).await, before + 2);

    // A CSV with the profile columns and the ratings import's, in Russian.
    organiser
        .headers
        .push(("accept-language".into(), "ru".into()));
    let csv = "name,federation_id,birth_year,variant,rating\n\
               Борис Орлов,RUS-1,1990,russian,1500\n\
               Вера Лебедева,RUS-2,тысяча,russian,1500\n\
               Глеб Соколов,RUS-3\n";
    let added = organiser
        .post_form(&format!("/clubs/{club}/members/bulk"), &[("csv", csv)])
        .await;
    assert_eq!(added.status.as_u16(), 200, "{}", added.body);
    let text = common::page_text(&added.body);
    assert!(
        text.contains("Новых профилей: 1; вступили в клуб: 0; не добавлены: 2."),
        "{text}"
    );
    assert!(text.contains("должно быть целым числом"), "{text}");
    assert!(text.contains("полей: 2, а в заголовке 5"), "{text}");
    assert!(added.body.contains("id=\"bulk-ratings-ignored\""));
}

#[actix_web::test]
async fn a_bulk_submission_is_bounded_and_only_for_the_clubs_organisers() {
    let app = TestApp::new().await;
    let mut organiser = app.user("org@t.org", Role::Organiser).await;
    let mut api = organiser.api_client().await;
    let club = common::create_club(&mut api, "Ладья").await;
    let mut rival = app.user("rival@t.org", Role::Organiser).await;
    let mut rival_api = rival.api_client().await;
    common::create_club(&mut rival_api, "Ферзь").await;
    let before = player_count(&app).await;

    let refused = rival
        .post_form(
            &format!("/clubs/{club}/members/bulk"),
            &[("names", "Анна Кузнецова")],
        )
        .await;
    assert_eq!(refused.status.as_u16(), 403, "{}", refused.body);
    let (mut member, _) = player_browser(&app, "ivan@t.org", "Иван Петров").await;
    let refused = member
        .post_form(
            &format!("/clubs/{club}/members/bulk"),
            &[("names", "Анна Кузнецова")],
        )
        .await;
    assert_eq!(refused.status.as_u16(), 403);
    let mut anonymous = app.client();
    let refused = anonymous
        .post_form(
            &format!("/clubs/{club}/members/bulk"),
            &[("names", "Анна Кузнецова")],
        )
        .await;
    assert_eq!(refused.status.as_u16(), 401);
    assert_eq!(
        player_count(&app).await,
        before + 1,
        "only Иван's own profile"
    );

    let many: String = (1..=501).map(|i| format!("Игрок {i}\n")).collect();
    let too_many = organiser
        .post_form(&format!("/clubs/{club}/members/bulk"), &[("names", &many)])
        .await;
    assert_eq!(too_many.status.as_u16(), 422, "{}", too_many.body);
    assert!(
        too_many
            .body
            .contains("501 lines: at most 500 are taken at once"),
        "{}",
        too_many.body
    );
    assert!(too_many.body.contains("Игрок 501"), "the text is kept");
    let empty = organiser
        .post_form(&format!("/clubs/{club}/members/bulk"), &[("names", " \n")])
        .await;
    assert_eq!(empty.status.as_u16(), 422);
    let unknown = organiser
        .post_form(
            &format!("/clubs/{club}/members/bulk"),
            &[("csv", "name,colour\nАнна,white\n")],
        )
        .await;
    assert_eq!(unknown.status.as_u16(), 422);
    assert!(unknown.body.contains("unknown column"), "{}", unknown.body);
    assert_eq!(player_count(&app).await, before + 1, "nothing was added");

    // 500 lines are taken.
    let most: String = (1..=500).map(|i| format!("Игрок {i}\n")).collect();
    let taken = organiser
        .post_form(&format!("/clubs/{club}/members/bulk"), &[("names", &most)])
        .await;
    assert_eq!(taken.status.as_u16(), 200, "{}", taken.body);
    assert_eq!(player_count(&app).await, before + 501);
}

/// The steps of the "start here" list that are ticked, in order.
fn ticked(home: &str) -> Vec<bool> {
    let Some(start) = home.find("id=\"start-here\"") else {
        return Vec::new();
    };
    let end = start + home[start..].find("</section>").unwrap();
    home[start..end]
        .split("<li")
        .skip(1)
        .map(|item| item.starts_with(" class=\"done\""))
        .collect()
}

#[actix_web::test]
async fn visitors_are_offered_to_register_as_the_site_registers_them() {
    let app = TestApp::new().await;
    let mut visitor = app.client();
    let home = visitor.get("/").await;
    assert_eq!(
        home.element_text("home-register").as_deref(),
        Some("Register")
    );
    let mut admin = app.user("admin@t.org", Role::Admin).await;
    let set = admin
        .post_form("/admin/registration", &[("mode", "invitation")])
        .await;
    assert_eq!(set.status.as_u16(), 303, "{}", set.body);
    let home = visitor.get("/").await;
    assert_eq!(
        home.element_text("home-register").as_deref(),
        Some("Register with an invitation code")
    );
    assert!(
        home.body
            .contains("href=\"/register\" id=\"home-register\"")
    );
    visitor
        .headers
        .push(("accept-language".into(), "ru".into()));
    let home = visitor.get("/").await;
    assert_eq!(
        home.element_text("home-register").as_deref(),
        Some("Зарегистрироваться по приглашению")
    );
    let signed_in = admin.get("/").await;
    assert!(!signed_in.body.contains("id=\"home-register\""));
}

#[actix_web::test]
async fn the_administrator_start_here_list_ticks_each_step_and_goes_away() {
    let app = TestApp::new().await;
    let mut admin = app.user("admin@t.org", Role::Admin).await;
    let mut organiser = app.user("org@t.org", Role::Organiser).await;
    let home = admin.get("/").await;
    assert_eq!(ticked(&home.body), [false, false, false, false]);
    for link in ["/clubs/new", "/players/new", "/events/new", "/events"] {
        assert!(
            home.body.contains(&format!("<a href=\"{link}\">")),
            "links {link}"
        );
    }
    assert!(
        ticked(&organiser.get("/").await.body).is_empty(),
        "only administrators get the list"
    );

    let mut api = admin.api_client().await;
    common::create_club(&mut api, "Ладья").await;
    assert_eq!(
        ticked(&admin.get("/").await.body),
        [true, false, false, false]
    );
    let event = common::create_event(
        &mut api,
        json!({"name": "Первенство клуба", "system": "swiss", "rounds": 3}),
    )
    .await;
    assert_eq!(
        ticked(&admin.get("/").await.body),
        [true, false, true, false]
    );
    common::enter_players(&mut api, event, 4).await;
    assert_eq!(
        ticked(&admin.get("/").await.body),
        [true, true, true, false]
    );
    let round = api.post(&format!("/api/v1/events/{event}/rounds")).await;
    assert_eq!(round.status.as_u16(), 201, "{}", round.body);
    let home = admin.get("/").await;
    assert!(
        !home.body.contains("id=\"start-here\""),
        "all done: the list is gone"
    );
}

/// A player withdraws from an event from its entries tab: the link is on their own row
/// only, asks first, and the entry is gone before the first round.
#[actix_web::test]
async fn a_player_withdraws_from_an_event_on_its_page() {
    let app = TestApp::new().await;
    let mut org = app.user("org@t.org", Role::Organiser).await;
    let created = org
        .post_form(
            "/events",
            &[
                ("name", "Friday blitz"),
                ("system", "swiss"),
                ("rounds", "3"),
                ("variant", "russian"),
                ("time_control", "blitz"),
                ("scoring_display", "1-0.5-0"),
                ("first_colour", "white"),
                ("self_registration", "1"),
            ],
        )
        .await;
    assert_eq!(created.status.as_u16(), 303, "{}", created.body);
    let path = created.location();
    let id: i64 = path.rsplit('/').next().unwrap().parse().unwrap();
    let mut api = org.api_client().await;
    let other = api
        .json(
            actix_web::http::Method::POST,
            "/api/v1/players",
            json!({"name": "Anna"}),
        )
        .await
        .json()["id"]
        .as_i64()
        .unwrap();
    let entered = org
        .post_form(
            &format!("{path}/entries"),
            &[("player_id", &other.to_string())],
        )
        .await;
    assert_eq!(entered.status.as_u16(), 303, "{}", entered.body);
    let mut dima = app.user("dima@t.org", Role::Player).await;
    dima.post_form("/players", &[("name", "Dima")]).await;
    let registered = dima.post_form(&format!("{path}/entries"), &[]).await;
    assert_eq!(registered.status.as_u16(), 303, "{}", registered.body);

    let entries = api
        .get(&format!("/api/v1/events/{id}/entries"))
        .await
        .json();
    let entry_of = |name: &str| {
        entries
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["name"] == name)
            .unwrap_or_else(|| panic!("no entry of {name}: {entries}"))["id"]
            .as_i64()
            .unwrap()
    };
    let (own, anna) = (entry_of("Dima"), entry_of("Anna"));
    let page = dima.get(&format!("{path}?tab=entries")).await;
    let own_link = format!("/events/{id}/entries/{own}/withdraw");
    assert!(page.body.contains(&own_link), "{}", page.body);
    assert!(
        !page
            .body
            .contains(&format!("/events/{id}/entries/{anna}/withdraw"))
    );
    assert_eq!(dima.get(&own_link).await.status.as_u16(), 200);
    let withdrawn = dima.post_form(&own_link, &[]).await;
    assert_eq!(withdrawn.status.as_u16(), 303, "{}", withdrawn.body);
    let after = api
        .get(&format!("/api/v1/events/{id}/entries"))
        .await
        .json();
    assert_eq!(after.as_array().unwrap().len(), 1, "{after}");
    // Another player's row is not theirs to withdraw.
    let mut intruder = app.user("eve@t.org", Role::Player).await;
    let refused = intruder
        .post_form(&format!("/events/{id}/entries/{anna}/withdraw"), &[])
        .await;
    assert_eq!(refused.status.as_u16(), 403, "{}", refused.body);
}
