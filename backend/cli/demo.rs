//! The demo club: a fresh database filled with players, clubs, ratings and accounts so a
//! visitor sees a working site at once. Extended as each capability lands (events,
//! games and rating histories come with their issues).
use crate::service::{AppError, accounts, auth};
use crate::store::models::{ClubFields, NewUser, PlayerFields, PlayerRating};
use crate::store::{self, Backend, DatabaseUrl, DbConn, clubs, players};

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

/// (name, club index, country, birth year, title, russian, international, english)
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

/// (role shown on the console, e-mail, display name, admin, organiser, linked player)
type DemoAccountSpec = (
    &'static str,
    &'static str,
    &'static str,
    bool,
    bool,
    Option<i64>,
);

/// Fills an empty database with the demo club and returns the demo accounts.
pub fn seed(conn: &mut DbConn) -> Result<Vec<DemoAccount>, AppError> {
    conn.write_transaction(|conn| {
        let now = store::now();
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
        let mut player_ids = Vec::new();
        for (i, (name, club, country, birth, title, russian, international, english)) in
            PLAYERS.iter().enumerate()
        {
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
            let games = 12 + (i as i32 * 7) % 90;
            for (variant, rating) in [
                ("russian", Some(*russian)),
                ("international", *international),
                ("english", *english),
            ] {
                if let Some(rating) = rating {
                    players::set_rating(
                        conn,
                        &PlayerRating {
                            player_id: player.id,
                            variant: variant.into(),
                            rating,
                            games,
                        },
                    )?;
                }
            }
            player_ids.push(player.id);
        }
        let specs: [DemoAccountSpec; 4] = [
            (
                "administrator",
                "admin@damka.demo",
                "Site Admin",
                true,
                true,
                None,
            ),
            (
                "organiser",
                "organiser@damka.demo",
                "Наталья Орлова (организатор)",
                false,
                true,
                None,
            ),
            (
                "player",
                "chizhov@damka.demo",
                "Алексей Чижов",
                false,
                false,
                Some(player_ids[0]),
            ),
            (
                "player",
                "platonova@damka.demo",
                "Ирина Платонова",
                false,
                false,
                Some(player_ids[1]),
            ),
        ];
        let mut accounts_out = Vec::new();
        for (role, email, name, is_admin, is_organiser, player_id) in specs {
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
                clubs::add_member(conn, club_ids[0], user.id, clubs::ROLE_ORGANISER)?;
            }
            if player_id.is_some() {
                clubs::add_member(conn, club_ids[0], user.id, clubs::ROLE_MEMBER)?;
            }
            accounts_out.push(DemoAccount {
                role,
                email: email.to_string(),
                password,
            });
        }
        accounts::site_secret(conn)?;
        Ok(accounts_out)
    })
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
