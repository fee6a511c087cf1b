//! The demo club (`damka demo`): its events' games were played move by move, every stored
//! game replays legally, and every finished game's result is the result on its board.
#![allow(clippy::unwrap_used)]
use crate::common::TestApp;

use chrono::Datelike;
use damka::service::games;
use damka::store::games::{GameFilter, list};
use damka::store::{events, games as stored};
use damka_domain::vocabulary::{GameEnd, GameStatus, ResultCode};

#[actix_web::test]
async fn the_demo_games_are_legal_and_agree_with_the_boards() {
    let app = TestApp::new().await;
    app.with_db(|conn| {
        damka::cli::demo::seed(conn).unwrap();
        let all = list(
            conn,
            &GameFilter {
                limit: 10_000,
                ..GameFilter::default()
            },
        )
        .unwrap();
        let finished = all
            .iter()
            .filter(|g| g.status == GameStatus::Finished)
            .count();
        let ongoing = all.len() - finished;
        assert!(finished >= 28, "finished games: {finished}");
        assert!(ongoing >= 1, "games in progress in the running Swiss");
        let mut micro_games = 0;
        for row in &all {
            // Replays every stored move with the engine.
            let game = games::load(conn, row.id).unwrap();
            assert!(
                game.row.ply >= 6,
                "game {} has {} plies",
                row.id,
                game.row.ply
            );
            assert_eq!(game.moves.len() as i32, game.row.ply);
            if row.status == GameStatus::Ongoing {
                assert!(games::verdict(&game.game).is_none());
            }
            // The players' own endings fit the board: an agreed draw with material level
            // within a man, a resignation by the side two men (or a king) behind.
            if matches!(
                game.row.reason,
                Some(GameEnd::Agreement | GameEnd::Resignation)
            ) {
                let position = game.game.position();
                let worth = |colour: damka_engine::Color| {
                    let m = position.material(colour);
                    (m.men + 3 * m.kings) as i32
                };
                let lead = worth(damka_engine::Color::White) - worth(damka_engine::Color::Black);
                let fits = match game.row.result.unwrap() {
                    ResultCode::Draw => lead.abs() <= 1,
                    ResultCode::WhiteWins => lead >= 2,
                    ResultCode::BlackWins => lead <= -2,
                    other => panic!("game {}: {other:?} by the players", row.id),
                };
                assert!(
                    fits,
                    "game {} ended {:?} by {:?} at {}",
                    row.id,
                    game.row.result,
                    game.row.reason,
                    position.to_fen()
                );
            }
            let pairing = row.pairing_id.expect("demo games are event games");
            let (board, _) = events::pairing_with_event(conn, pairing).unwrap().unwrap();
            let micro = damka::store::micro_matches::results_of_pairing(conn, pairing).unwrap();
            if micro.is_empty() {
                assert_eq!(board.result, row.result, "game {}", row.id);
            } else {
                // A micro-match's game has its own result on the board.
                let own = micro.iter().find(|(no, _)| *no == row.game_no).unwrap().1;
                assert_eq!(own, row.result, "game {}", row.id);
                micro_games += 1;
            }
        }
        assert!(
            micro_games >= 24,
            "the micro-match cup's games: {micro_games}"
        );
        // Every played board of the finished round-robin has its game.
        let rr = events::page(conn, Default::default(), None, 1000)
            .unwrap()
            .into_iter()
            .find(|e| e.status == damka_domain::vocabulary::EventStatus::Finished)
            .unwrap();
        let boards = events::pairings(conn, rr.id).unwrap();
        let with_games = stored::ids_by_pairing(conn, rr.id).unwrap().len();
        let played = boards
            .iter()
            .filter(|(_, p)| p.black_entry_id.is_some())
            .count();
        assert_eq!(with_games, played);

        // The club's Keizer season: six nights played, with absences of every kind, its
        // standings in Keizer order, the next night's absences announced.
        let season = events::page(conn, Default::default(), None, 1000)
            .unwrap()
            .into_iter()
            .find(|e| e.system == damka_domain::vocabulary::System::Keizer)
            .unwrap();
        let boards = events::pairings(conn, season.id).unwrap();
        let rounds: std::collections::BTreeSet<i32> = boards.iter().map(|(r, _)| *r).collect();
        assert_eq!(rounds.len(), 6);
        let byes: Vec<String> = boards
            .iter()
            .filter_map(|(_, p)| p.bye.map(|b| b.code().to_string()))
            .collect();
        for kind in ["excused", "club_duty", "Z"] {
            assert!(byes.iter().any(|b| b == kind), "no {kind} in {byes:?}");
        }
        let table = damka::service::events::reports::standings(conn, season.id, None).unwrap();
        assert_eq!(table.after_round, 6);
        let sixths: Vec<u64> = table
            .rows
            .iter()
            .map(|r| r.keizer_sixths.unwrap())
            .collect();
        assert!(sixths.windows(2).all(|w| w[0] >= w[1]), "{sixths:?}");
        let entries = damka::service::events::entries::list(conn, season.id).unwrap();
        assert_eq!(entries.iter().filter(|e| !e.requests.is_empty()).count(), 2);

        // Nobody's rating is typed in: no starting ratings, and every player's Glicko-2
        // rating comes from the games, exactly as a recompute gives it.
        use diesel::prelude::*;
        let starts: i64 = damka::store::schema::player_ratings::table
            .count()
            .get_result(conn)
            .unwrap();
        assert_eq!(starts, 0);
        let variant = damka_engine::Variant::Russian;
        assert!(
            damka::service::ratings::recompute::check(conn, variant)
                .unwrap()
                .is_empty()
        );
        let list = damka::service::ratings::views::list(
            conn,
            &damka::service::ratings::views::ListFilter::default(),
        )
        .unwrap();
        assert_eq!(
            list.system,
            damka_domain::vocabulary::RatingSystem::Glicko2,
            "the demo lists Glicko-2 first"
        );
        assert_eq!(list.items.len(), 24, "everyone played");
        for item in &list.items {
            let steps = damka::store::ratings::history(
                conn,
                item.player_id,
                variant,
                damka_domain::vocabulary::RatingSystem::Glicko2,
            )
            .unwrap();
            assert_eq!(steps.len() as i32, item.games, "{}", item.name);
        }
        // The round-robin's results are dated on its October days, one round every four
        // days, not at the moment the demo was made.
        let mut days: Vec<u32> = Vec::new();
        for item in &list.items {
            let steps = damka::store::ratings::history(
                conn,
                item.player_id,
                variant,
                damka_domain::vocabulary::RatingSystem::Glicko2,
            )
            .unwrap();
            for step in steps.iter().filter(|s| s.event_id == Some(rr.id)) {
                assert_eq!(step.at.date().month(), 10, "{step:?}");
                days.push(step.at.date().day());
            }
        }
        days.sort_unstable();
        days.dedup();
        assert_eq!(days, vec![3, 7, 11, 15, 19, 23, 27]);
    })
    .await;
}
