//! HTML pages. One file per area; every handler calls one use case.
mod account;
mod admin;
mod claims;
mod club_bulk;
mod clubs;
mod confirm;
mod event_exports;
mod event_import;
mod event_invitations;
mod event_pairing;
mod event_print;
mod events;
mod game_list;
mod game_new;
mod game_pdn;
mod games;
mod home;
mod keizer;
mod lang;
mod micro_match;
mod players;
mod ratings;
mod ratings_xlsx;
mod removals;
mod session;
mod setup;

use actix_web::web;

/// A Keizer absence by its Keizer name, for the tables to take away.
pub(crate) use keizer::absence as keizer_absence;

use crate::web::routes::Routes;

pub fn configure(cfg: &mut web::ServiceConfig) {
    routes().register(cfg);
}

/// The pages' route table. Its own function so that the authorisation table test can check
/// that it covers every route.
pub fn routes() -> Routes {
    let mut routes = Routes::default();
    routes
        .get("/", home::home)
        .get("/login", session::login_form)
        .post("/login", session::login)
        .post("/logout", session::logout)
        .get("/register", session::register_form)
        .post("/register", session::register)
        .get("/setup", setup::form)
        .post("/setup", setup::create)
        .post("/lang", lang::switch)
        .get("/account", account::show)
        .post("/account/password", account::change_password)
        .post("/account/language", account::set_language)
        .post("/account/tokens", account::create_token)
        .get("/account/tokens/{id}/revoke", confirm::revoke_token)
        .post("/account/tokens/{id}/revoke", account::revoke_token)
        .get("/players", players::list)
        .get("/players/new", players::new_form)
        .post("/players", players::create)
        .get("/players/{id}", players::show)
        .get("/players/{id}/edit", players::edit_form)
        .post("/players/{id}", players::update)
        .post("/players/{id}/claims", claims::claim)
        .post("/players/{id}/claim-link", claims::create_link)
        .get("/players/{id}/merge", claims::merge_form)
        .post("/players/{id}/merge", claims::merge)
        .get("/claims", claims::pending)
        .post("/claims/{id}/accept", claims::accept)
        .post("/claims/{id}/decline", claims::decline)
        .get("/claim/{code}", claims::open_link)
        .post("/claim/{code}", claims::use_link)
        .get("/ratings", ratings::list)
        .get("/ratings.csv", ratings::csv)
        .get("/ratings.xlsx", ratings_xlsx::xlsx)
        .get("/ratings/import", ratings::import_form)
        .post("/ratings/import", ratings::import)
        .get("/clubs", clubs::list)
        .get("/clubs/new", clubs::new_form)
        .post("/clubs", clubs::create)
        .get("/clubs/{id}", clubs::show)
        .get("/clubs/{id}/edit", clubs::edit_form)
        .post("/clubs/{id}", clubs::update)
        .post("/clubs/{id}/members", clubs::add_member)
        .post("/clubs/{id}/members/bulk", club_bulk::add_many)
        .post("/clubs/{id}/requests", clubs::request_to_join)
        .post(
            "/clubs/{id}/requests/{request_id}/accept",
            clubs::accept_request,
        )
        .post(
            "/clubs/{id}/requests/{request_id}/decline",
            clubs::decline_request,
        )
        .get("/events", events::list)
        .get("/events/new", events::new_form)
        .post("/events", events::create)
        .get("/events/import", event_import::form)
        .post("/events/import", event_import::import)
        .get("/events/{id}", events::show)
        .get("/events/{id}/edit", events::edit_form)
        .post("/events/{id}", events::update)
        .get("/events/{id}/export.trf", events::export_trf)
        .get("/events/{id}/games.pdn", game_pdn::event)
        .get("/events/{id}/players/{start_no}", events::card)
        .post("/events/{id}/entries", events::add_entry)
        .get("/events/{id}/entries/{entry}/withdraw", confirm::withdraw)
        .post("/events/{id}/entries/{entry}/withdraw", events::withdraw)
        .post("/events/{id}/entries/{entry}/absence", events::absence)
        .get("/events/{id}/presence", events::presence_form)
        .post("/events/{id}/presence", events::record_presence)
        .post("/events/{id}/arbiters", events::add_arbiter)
        .post("/events/{id}/forbidden-pairs", events::forbid)
        .post(
            "/events/{id}/forbidden-pairs/{first}/{second}/delete",
            events::allow,
        )
        .post("/events/{id}/rounds", events::pair)
        .get("/events/{id}/rounds/repair", confirm::repair)
        .post("/events/{id}/rounds/repair", events::repair)
        .post("/events/{id}/rounds/publish", events::publish)
        .post(
            "/events/{id}/rounds/{round}/clocks/start",
            events::start_clocks,
        )
        .post("/events/{id}/rounds/{round}/results", events::round_results)
        .post("/events/{id}/pairings/{pairing}/result", events::result)
        .get("/events/{id}/rounds/{round}/pairing", event_pairing::form)
        .post("/events/{id}/rounds/{round}/pairing", event_pairing::submit)
        .get("/events/{id}/changes", event_pairing::changes)
        .get("/events/{id}/finish", confirm::finish)
        .post("/events/{id}/finish", events::finish)
        .get("/events/{id}/reopen", confirm::reopen)
        .post("/events/{id}/reopen", events::reopen)
        .get("/games", game_list::list)
        .get("/games/new", game_new::new_form)
        .post("/games", game_new::create)
        .get("/games/{id}", games::show)
        .get("/games/{id}/pdn", game_pdn::game)
        .post("/games/{id}/moves", games::play_move)
        .post("/games/{id}/draw-offer", games::offer_draw)
        .post("/games/{id}/draw-offer/accept", games::accept_draw)
        .post("/games/{id}/draw-offer/decline", games::decline_draw)
        .post("/games/{id}/resign", games::resign)
        .post("/games/{id}/result", games::set_result)
        .post("/games/{id}/takeback", games::take_back)
        .post("/games/{id}/clock/start", games::start_clock)
        .get("/admin", admin::show)
        .post("/admin/registration", admin::set_registration)
        .post("/admin/time-zone", admin::set_time_zone)
        .post("/admin/ratings", admin::set_rating_systems)
        .post("/admin/invitations", admin::invite)
        .post("/admin/users/{id}/roles", admin::set_roles);
    sheets(&mut routes);
    removals::routes(&mut routes);
    invitations(&mut routes);
    routes
}

/// An event's invitation links: the managers make and revoke them, whoever has one joins.
fn invitations(routes: &mut Routes) {
    routes
        .post("/events/{id}/invitations", event_invitations::create)
        .get(
            "/events/{id}/invitations/{invitation_id}/revoke",
            confirm::revoke_invitation,
        )
        .post(
            "/events/{id}/invitations/{invitation_id}/revoke",
            event_invitations::revoke,
        )
        .get("/events/{id}/join/{code}", event_invitations::open)
        .post("/events/{id}/join/{code}", event_invitations::join);
}

/// An event's print sheets and the tables to take away (CSV, .xlsx): what is read off the
/// event, not acted on, with the event tabs' rule for drafts.
fn sheets(routes: &mut Routes) {
    routes
        .get("/events/{id}/rounds/{round}/print", event_print::pairings)
        .get("/events/{id}/standings/print", event_print::standings)
        .get("/events/{id}/crosstable/print", event_print::crosstable)
        .get("/events/{id}/schedule/print", event_print::schedule)
        .get("/events/{id}/standings.csv", event_exports::standings_csv)
        .get("/events/{id}/standings.xlsx", event_exports::standings_xlsx)
        .get("/events/{id}/crosstable.csv", event_exports::crosstable_csv)
        .get(
            "/events/{id}/crosstable.xlsx",
            event_exports::crosstable_xlsx,
        )
        .get(
            "/events/{id}/rounds/{round}/pairings.csv",
            event_exports::pairings_csv,
        )
        .get(
            "/events/{id}/rounds/{round}/pairings.xlsx",
            event_exports::pairings_xlsx,
        );
}
