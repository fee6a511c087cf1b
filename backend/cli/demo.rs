//! The demo club: a fresh database filled with players, clubs and accounts so a visitor
//! sees a working site at once: clubs, players, a finished round-robin and a running Swiss
//! whose games were played move by move. Nobody's rating is typed in: the ratings are
//! computed from these games (Glicko-2, which the demo site lists and seeds by; FIDE's Elo
//! needs rated opponents to give anyone a first rating, so a club without an imported list
//! has no Elo ratings until it brings one). Each player has a playing strength that only
//! the dice use, so that stronger players win more often.
use super::demo_games;
use crate::service::events::entries::EntryInput;
use crate::service::events::{self, EventInput};
use crate::service::ratings;
use crate::service::{Actor, AppError, accounts, auth};
use crate::store::models::{ClubFields, NewUser, PlayerFields};
use crate::store::{self, Backend, DatabaseUrl, DbConn, clubs, players, settings};
use damka_domain::vocabulary::{
    ClubRole, OpeningBallot, RatingSystem, ResultCode, Spelling, System,
};
use diesel::Connection;

/// A demo account and the password generated for it at this start.
#[derive(Debug, Clone)]
pub struct DemoAccount {
    pub role: &'static str,
    pub email: String,
    pub password: String,
}

/// Removes the previous demo database so every demo starts from the same story.
pub fn reset_database_file(url: &DatabaseUrl) -> anyhow::Result<()> {
    if url.backend != Backend::Sqlite {
        anyhow::bail!("the demo runs on its own SQLite file");
    }
    refuse_unless_demo_file(&url.target)?;
    for suffix in ["", "-wal", "-shm"] {
        let path = format!("{}{suffix}", url.target);
        match std::fs::remove_file(&path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => anyhow::bail!("cannot reset the demo database {path}: {e}"),
        }
    }
    Ok(())
}

/// Marks a database as the demo's, so that a later demo may start it afresh.
const SETTING_DEMO_DATABASE: &str = "demo_database";

/// Where `damka serve --demo` keeps its database unless told otherwise.
pub const DEMO_DATABASE_URL: &str = "sqlite://damka-demo.db";

/// The demo starts afresh by deleting its file: only a file that does not exist, is
/// empty, is marked as a demo database, or is the default demo file (made before the mark
/// existed) may go. Anything else may be a club's real data.
fn refuse_unless_demo_file(path: &str) -> anyhow::Result<()> {
    let default_file = DEMO_DATABASE_URL.trim_start_matches("sqlite://");
    let Ok(metadata) = std::fs::metadata(path) else {
        return Ok(());
    };
    if metadata.len() == 0 || path == default_file {
        return Ok(());
    }
    let marked = diesel::SqliteConnection::establish(path)
        .ok()
        .map(DbConn::Sqlite)
        .and_then(|mut conn| settings::get(&mut conn, SETTING_DEMO_DATABASE).ok())
        .flatten()
        .is_some();
    if marked {
        Ok(())
    } else {
        anyhow::bail!(
            "{path} is not a demo database; the demo starts afresh by deleting its file, so it \
             only takes a new file or one an earlier demo made"
        )
    }
}

const CLUBS: [(&str, &str, &str, &str); 3] = [
    (
        "Клуб «Дамка»",
        "Москва",
        "RUS",
        "Городской шашечный клуб: русские и международные шашки, турниры по субботам.",
    ),
    (
        "Kazan Draughts School",
        "Kazan",
        "RUS",
        "Youth school and weekly rapid events.",
    ),
    (
        "Damclub Amsterdam",
        "Amsterdam",
        "NED",
        "International draughts since 1923.",
    ),
];

/// (name, club index, country, birth year, title, and playing strengths the dice use in
/// russian, international and english draughts; the demo plays russian events only)
type DemoPlayer = (
    &'static str,
    usize,
    &'static str,
    i32,
    &'static str,
    i32,
    Option<i32>,
    Option<i32>,
);

const PLAYERS: [DemoPlayer; 24] = [
    (
        "Алексей Чижов",
        0,
        "RUS",
        1964,
        "GMI",
        2405,
        Some(2390),
        None,
    ),
    (
        "Ирина Платонова",
        0,
        "RUS",
        1990,
        "GMIF",
        2310,
        Some(2205),
        None,
    ),
    (
        "Павел Смирнов",
        0,
        "RUS",
        1985,
        "MI",
        2248,
        None,
        Some(2105),
    ),
    (
        "Мария Кузнецова",
        0,
        "RUS",
        2001,
        "MF",
        2156,
        Some(2010),
        None,
    ),
    ("Дмитрий Волков", 0, "RUS", 1978, "", 2087, None, None),
    ("Ольга Соколова", 0, "RUS", 1995, "", 1994, None, Some(1880)),
    ("Сергей Морозов", 0, "RUS", 1969, "", 1932, None, None),
    ("Анна Лебедева", 0, "RUS", 2008, "", 1815, None, None),
    (
        "Timur Gainullin",
        1,
        "RUS",
        1999,
        "MF",
        2201,
        Some(2150),
        None,
    ),
    (
        "Alina Sharipova",
        1,
        "RUS",
        2006,
        "",
        2044,
        None,
        Some(1960),
    ),
    ("Rustam Khabibullin", 1, "RUS", 1988, "", 1978, None, None),
    ("Elvira Nizamova", 1, "RUS", 2010, "", 1702, None, None),
    ("Ilnur Zakirov", 1, "RUS", 2004, "", 1866, Some(1790), None),
    ("Dinara Valieva", 1, "RUS", 1997, "", 1923, None, Some(1845)),
    ("Artem Fedorov", 1, "RUS", 2009, "", 1611, None, None),
    ("Liliya Galieva", 1, "RUS", 2011, "", 1545, None, None),
    (
        "Jan Groenendijk",
        2,
        "NED",
        1975,
        "GMI",
        2120,
        Some(2372),
        Some(2050),
    ),
    (
        "Roel Boomstra",
        2,
        "NED",
        1993,
        "GMI",
        2088,
        Some(2410),
        None,
    ),
    (
        "Heike Verheul",
        2,
        "NED",
        1986,
        "MIF",
        1910,
        Some(2140),
        None,
    ),
    (
        "Pieter de Vries",
        2,
        "NED",
        1970,
        "",
        1805,
        Some(2015),
        Some(1990),
    ),
    ("Anouk Jansen", 2, "NED", 2002, "", 1720, Some(1930), None),
    (
        "Bram Visser",
        2,
        "NED",
        1998,
        "",
        1690,
        Some(1875),
        Some(1805),
    ),
    ("Sanne Bakker", 2, "NED", 2007, "", 1588, Some(1760), None),
    ("Koen Mulder", 2, "NED", 1981, "", 1650, Some(1822), None),
];

/// One demo account: the role shown on the console, its e-mail and display name, its site
/// roles, and the index in `PLAYERS` of the profile it plays as.
struct AccountSpec {
    role: &'static str,
    email: &'static str,
    name: &'static str,
    is_admin: bool,
    is_organiser: bool,
    plays_as: Option<usize>,
}

const ACCOUNTS: &[AccountSpec] = &[
    AccountSpec {
        role: "administrator",
        email: "admin@damka.demo",
        name: "Site Admin",
        is_admin: true,
        is_organiser: true,
        plays_as: None,
    },
    AccountSpec {
        role: "organiser",
        email: "organiser@damka.demo",
        name: "Наталья Орлова (организатор)",
        is_admin: false,
        is_organiser: true,
        plays_as: None,
    },
    AccountSpec {
        role: "player",
        email: "chizhov@damka.demo",
        name: "Алексей Чижов",
        is_admin: false,
        is_organiser: false,
        plays_as: Some(0),
    },
    AccountSpec {
        role: "player",
        email: "platonova@damka.demo",
        name: "Ирина Платонова",
        is_admin: false,
        is_organiser: false,
        plays_as: Some(1),
    },
];

/// Fills an empty database with the demo club and returns the demo accounts.
pub fn seed(conn: &mut DbConn) -> Result<Vec<DemoAccount>, AppError> {
    conn.write_transaction(|conn| {
        settings::set(conn, SETTING_DEMO_DATABASE, "1")?;
        let now = store::now();
        let club_ids = seed_clubs(conn, now)?;
        let (player_ids, strengths) = seed_players(conn, &club_ids, now)?;
        let accounts_out = seed_accounts(conn, club_ids[0], &player_ids, now)?;
        accounts::site_secret(conn)?;
        // Glicko-2 rates a club from its own games; lists show it first and seed by it.
        for key in [
            ratings::SETTING_LIST_SYSTEM,
            ratings::SETTING_SEEDING_SYSTEM,
        ] {
            settings::set(conn, key, RatingSystem::Glicko2.spelling())?;
        }
        let organiser = store::accounts::user_by_email(conn, "organiser@damka.demo")?
            .ok_or(AppError::NotFound { what: "user" })?;
        let organiser = Actor::signed_in(organiser);
        seed_events(conn, &organiser, &player_ids, &strengths)?;
        seed_keizer_season(conn, &organiser, club_ids[0], &player_ids, &strengths)?;
        crate::service::effects::recompute_everything(conn)?;
        Ok(accounts_out)
    })
}

fn seed_clubs(conn: &mut DbConn, now: chrono::NaiveDateTime) -> Result<Vec<i64>, AppError> {
    let mut club_ids = Vec::new();
    for (name, city, country, description) in CLUBS {
        let club = clubs::insert(
            conn,
            &ClubFields {
                name: name.into(),
                city: city.into(),
                country: country.into(),
                description: description.into(),
            },
            now,
        )?;
        club_ids.push(club.id);
    }
    Ok(club_ids)
}

/// The demo's profiles, and how strong each plays Russian draughts in the demo's games.
#[allow(clippy::type_complexity)]
fn seed_players(
    conn: &mut DbConn,
    club_ids: &[i64],
    now: chrono::NaiveDateTime,
) -> Result<(Vec<i64>, std::collections::HashMap<i64, i32>), AppError> {
    let mut player_ids = Vec::new();
    let mut strengths = std::collections::HashMap::new();
    for (i, (name, club, country, birth, title, russian, _, _)) in PLAYERS.iter().enumerate() {
        let player = players::insert(
            conn,
            &PlayerFields {
                name: (*name).into(),
                club_id: Some(club_ids[*club]),
                country: (*country).into(),
                federation_id: format!("{}", 700_100 + i),
                birth_year: Some(*birth),
                title: (*title).into(),
            },
            now,
        )?;
        strengths.insert(player.id, *russian);
        player_ids.push(player.id);
    }
    Ok((player_ids, strengths))
}

/// The demo's accounts with fresh passwords; organisers run the first club, players are
/// its members.
fn seed_accounts(
    conn: &mut DbConn,
    club_id: i64,
    player_ids: &[i64],
    now: chrono::NaiveDateTime,
) -> Result<Vec<DemoAccount>, AppError> {
    let mut accounts_out = Vec::new();
    for spec in ACCOUNTS {
        let AccountSpec {
            role,
            email,
            name,
            is_admin,
            is_organiser,
            plays_as,
        } = *spec;
        let player_id = plays_as.map(|index| player_ids[index]);
        let password = auth::random_token(9);
        let user = store::accounts::insert_user(
            conn,
            &NewUser {
                email,
                display_name: name,
                password_hash: &auth::hash_password(&password)?,
                is_admin,
                is_organiser,
                locale: None,
                player_id,
                created_at: now,
            },
        )?;
        if is_organiser && !is_admin {
            clubs::add_member(conn, club_id, user.id, ClubRole::Organiser)?;
        }
        if player_id.is_some() {
            clubs::add_member(conn, club_id, user.id, ClubRole::Member)?;
        }
        accounts_out.push(DemoAccount {
            role,
            email: email.to_string(),
            password,
        });
    }
    Ok(accounts_out)
}

/// A small deterministic generator, so every demo tells the same story.
struct Dice(u64);

impl Dice {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    /// A result for White, more often won by the stronger player.
    fn result(&mut self, white_rating: i32, black_rating: i32) -> ResultCode {
        let expected = 1.0 / (1.0 + 10f64.powf(f64::from(black_rating - white_rating) / 400.0));
        let roll = (self.next() % 1000) as f64 / 1000.0;
        let draw_band = 0.30;
        if roll < expected - draw_band / 2.0 {
            ResultCode::WhiteWins
        } else if roll < expected + draw_band / 2.0 {
            ResultCode::Draw
        } else {
            ResultCode::BlackWins
        }
    }
}

/// Playing strength by player id.
type Strengths = std::collections::HashMap<i64, i32>;

/// A finished round-robin of the Moscow club's eight players and a 7-round Swiss of all
/// 24 players with three rounds played and the fourth under way. Each round's results
/// are dated on its day of the event (the services stamp them with the moment the demo
/// starts), and the ratings are then recomputed from them.
fn seed_events(
    conn: &mut DbConn,
    organiser: &Actor,
    player_ids: &[i64],
    strengths: &Strengths,
) -> Result<(), AppError> {
    let mut dice = Dice(2026);
    let date = |m, d| chrono::NaiveDate::from_ymd_opt(2026, m, d);
    let rr = events::settings::create(
        conn,
        organiser,
        &EventInput {
            name: "Осенний кубок клуба «Дамка»".into(),
            place: "Москва".into(),
            starts_on: date(10, 3),
            ends_on: date(10, 31),
            system: System::RoundRobin,
            ..EventInput::default()
        },
    )?;
    for id in &player_ids[..8] {
        events::entries::add(
            conn,
            organiser,
            rr.id,
            &EntryInput {
                player_id: Some(*id),
            },
        )?;
    }
    for round in 0..7 {
        let number = play_round(conn, organiser, rr.id, &mut dice, strengths, None)?;
        backdate_round(conn, rr.id, number, day(10, 3 + 4 * round))?;
    }
    events::settings::finish(conn, organiser, rr.id)?;

    let swiss = events::settings::create(
        conn,
        organiser,
        &EventInput {
            name: "Open Swiss 2026".into(),
            place: "Kazan".into(),
            starts_on: date(11, 28),
            ends_on: date(12, 6),
            system: System::Swiss,
            rounds: 7,
            late_entry_until_round: 3,
            ..EventInput::default()
        },
    )?;
    for id in player_ids {
        events::entries::add(
            conn,
            organiser,
            swiss.id,
            &EntryInput {
                player_id: Some(*id),
            },
        )?;
    }
    for round in 0..3 {
        let number = play_round(conn, organiser, swiss.id, &mut dice, strengths, None)?;
        backdate_round(conn, swiss.id, number, day(11, 28 + round))?;
    }
    let number = play_round(conn, organiser, swiss.id, &mut dice, strengths, Some(5))?;
    backdate_round(conn, swiss.id, number, day(12, 1))?;

    // Micro-matches as national events play them: two games a pairing, colours swapped,
    // from the initial moves drawn from the IDF table.
    let cup = events::settings::create(
        conn,
        organiser,
        &EventInput {
            name: "Кубок клуба по микроматчам".into(),
            place: "Москва".into(),
            starts_on: date(11, 14),
            ends_on: date(11, 22),
            system: System::Swiss,
            rounds: 5,
            games_per_pairing: 2,
            opening_ballot: OpeningBallot::Idf64,
            ..EventInput::default()
        },
    )?;
    for id in &player_ids[..12] {
        events::entries::add(
            conn,
            organiser,
            cup.id,
            &EntryInput {
                player_id: Some(*id),
            },
        )?;
    }
    let mut cup_dice = Dice(1511);
    for round in 0..2 {
        let number = play_round(conn, organiser, cup.id, &mut cup_dice, strengths, None)?;
        backdate_round(conn, cup.id, number, day(11, 14 + 4 * round))?;
    }
    Ok(())
}

/// The club's own season on Thursday evenings by the Keizer system: six nights played,
/// on each some members away (with notice, playing for the club elsewhere, or simply not
/// there, ticked off the check list), a newcomer from the third night on, and the next
/// night's absences already announced.
fn seed_keizer_season(
    conn: &mut DbConn,
    organiser: &Actor,
    club_id: i64,
    player_ids: &[i64],
    strengths: &Strengths,
) -> Result<(), AppError> {
    use crate::service::events::entries::AbsenceRequest;
    use crate::service::events::presence::{self, PresenceInput};
    let season = events::settings::create(
        conn,
        organiser,
        &EventInput {
            name: "Клубные четверги: сезон по системе Кейзера".into(),
            place: "Москва".into(),
            starts_on: chrono::NaiveDate::from_ymd_opt(2026, 9, 3),
            system: System::Keizer,
            rounds: 0,
            club_id: Some(club_id),
            ..EventInput::default()
        },
    )?;
    let mut entries = Vec::new();
    let enter = |conn: &mut DbConn, id: i64| {
        events::entries::add(
            conn,
            organiser,
            season.id,
            &EntryInput {
                player_id: Some(id),
            },
        )
    };
    for id in &player_ids[..11] {
        entries.push(enter(conn, *id)?.id);
    }
    let mut dice = Dice(1956);
    let announce = |conn: &mut DbConn, entry: i64, kind: &str| {
        let request = AbsenceRequest {
            kind: kind.into(),
            round: None,
        };
        events::entries::announce_absence(conn, organiser, season.id, entry, &request)
    };
    for night in 0..6usize {
        if night == 2 {
            entries.push(enter(conn, player_ids[11])?.id);
        }
        // Two members tell the club in advance; one more is simply not there.
        let excused = entries[(night * 3 + 1) % entries.len()];
        let on_duty = entries[(night * 5 + 4) % entries.len()];
        let missing = entries[(night * 7 + 2) % entries.len()];
        announce(conn, excused, "excused")?;
        if on_duty != excused {
            announce(conn, on_duty, "club_duty")?;
        }
        let present = entries
            .iter()
            .copied()
            .filter(|e| ![excused, on_duty, missing].contains(e))
            .collect();
        presence::record(conn, organiser, season.id, &PresenceInput { present })?;
        let number = play_round(conn, organiser, season.id, &mut dice, strengths, None)?;
        let (month, date) = if night < 4 {
            (9, 3 + 7 * night as u32)
        } else {
            (10, 1 + 7 * (night as u32 - 4))
        };
        backdate_round(conn, season.id, number, day(month, date))?;
    }
    announce(conn, entries[0], "club_duty")?;
    announce(conn, entries[6], "excused")?;
    Ok(())
}

/// 18:00 on a day of 2026, when the demo's club plays.
fn day(month: u32, day: u32) -> chrono::NaiveDateTime {
    chrono::NaiveDate::from_ymd_opt(2026, month, day)
        .and_then(|d| d.and_hms_opt(18, 0, 0))
        .unwrap_or_default()
}

/// Dates a round on its day: paired and published an hour before `at`, each board's game
/// begun then and its result final at `at` plus a minute per board.
pub fn backdate_round(
    conn: &mut DbConn,
    event_id: i64,
    number: i32,
    at: chrono::NaiveDateTime,
) -> Result<(), AppError> {
    use crate::store::schema::{games, pairings, result_changes, rounds};
    use diesel::prelude::*;
    let round_id: i64 = rounds::table
        .filter(rounds::event_id.eq(event_id))
        .filter(rounds::number.eq(number))
        .select(rounds::id)
        .first(conn)?;
    let hour_before = at - chrono::Duration::hours(1);
    diesel::update(rounds::table.find(round_id))
        .set((
            rounds::paired_at.eq(hour_before),
            rounds::published_at.eq(Some(hour_before)),
        ))
        .execute(conn)?;
    let boards: Vec<(i64, i32)> = pairings::table
        .filter(pairings::round_id.eq(round_id))
        .select((pairings::id, pairings::board))
        .load(conn)?;
    for (pairing_id, board) in boards {
        let final_at = at + chrono::Duration::minutes(i64::from(board));
        diesel::update(result_changes::table.filter(result_changes::pairing_id.eq(pairing_id)))
            .set(result_changes::changed_at.eq(final_at))
            .execute(conn)?;
        diesel::update(games::table.filter(games::pairing_id.eq(pairing_id)))
            .set(games::created_at.eq(hour_before))
            .execute(conn)?;
        diesel::update(
            games::table
                .filter(games::pairing_id.eq(pairing_id))
                .filter(games::finished_at.is_not_null()),
        )
        .set(games::finished_at.eq(Some(final_at)))
        .execute(conn)?;
    }
    Ok(())
}

/// Pairs and publishes the next round and plays its games move by move (only the first
/// `limit` games to the end when given: the rest are still being played, a few moves in).
fn play_round(
    conn: &mut DbConn,
    organiser: &Actor,
    event_id: i64,
    dice: &mut Dice,
    strengths: &Strengths,
    limit: Option<usize>,
) -> Result<i32, AppError> {
    let number = events::rounds::pair_next(conn, organiser, event_id)?.number;
    events::rounds::publish_last(conn, organiser, event_id)?;
    let round = events::rounds::list(conn, organiser, event_id)?
        .into_iter()
        .find(|r| r.number == number)
        .ok_or_else(|| AppError::internal("the demo round vanished"))?;
    let strength_of: std::collections::HashMap<i64, i32> = events::entries::list(conn, event_id)?
        .into_iter()
        .map(|e| (e.id, strengths.get(&e.player_id).copied().unwrap_or(1500)))
        .collect();
    let boards = round.boards.iter().filter(|b| b.black_entry_id.is_some());
    for (index, board) in boards.enumerate() {
        // One game, or both of a micro-match, each in its own colours.
        for game in &board.games {
            let game_id = game
                .game_id
                .ok_or_else(|| AppError::internal("a published board has no game"))?;
            let mut roll = || dice.next();
            if limit.is_some_and(|limit| index >= limit) {
                let plies = 6 + (roll() % 20) as u32;
                demo_games::play_plies(conn, organiser, game_id, plies, &mut roll)?;
                continue;
            }
            let strength = |entry: i64| strength_of.get(&entry).copied().unwrap_or(1500);
            let result = dice.result(strength(game.white), strength(game.black));
            let plies = 40 + (dice.next() % 50) as u32;
            let mut roll = || dice.next();
            demo_games::play_to_result(conn, organiser, game_id, plies, result, &mut roll)?;
        }
    }
    Ok(number)
}

pub fn print_credentials(accounts: &[DemoAccount], bind: &str) {
    println!();
    println!("damka demo: http://{bind}/");
    println!("demo accounts (passwords are new at every start):");
    for account in accounts {
        println!(
            "  {:<14} {:<24} {}",
            account.role, account.email, account.password
        );
    }
    println!();
}
