//! The JSON API under `/api/v1`. Authentication is by API token only
//! (`Authorization: Bearer dmk_...`, created on the account page), so browser cookies
//! can never be used for cross-site requests here. Errors are `application/problem+json`.
pub(crate) mod admin;
pub(crate) mod auth;
pub(crate) mod ballots;
pub(crate) mod claims;
pub(crate) mod clubs;
pub(crate) mod event_import;
pub(crate) mod event_invitations;
pub(crate) mod event_pairing;
pub(crate) mod events;
pub(crate) mod game_pdn;
pub(crate) mod games;
pub(crate) mod live;
pub(crate) mod me;
pub mod openapi;
pub(crate) mod page_query;
pub(crate) mod players;
pub(crate) mod ratings;
pub(crate) mod removals;
pub(crate) mod tokens;

use actix_web::{HttpResponse, web};

use crate::web::routes::Routes;

pub use auth::ApiActor;

pub fn configure(cfg: &mut web::ServiceConfig) {
    routes().register(cfg);
}

/// The API's route table, paths relative to `/api/v1`. Its own function so that a test can
/// compare it with the OpenAPI document.
pub fn routes() -> Routes {
    let mut routes = Routes::default();
    routes
        .get("/openapi.json", openapi_document)
        .get("/me", me::me)
        .get("/players", players::list)
        .post("/players", players::create)
        .get("/players/{id}", players::get)
        .put("/players/{id}", players::update)
        .post("/players/{id}/claims", claims::claim)
        .post("/players/{id}/merge", claims::merge)
        .get("/claims", claims::pending)
        .post("/claims/{id}/accept", claims::accept)
        .post("/claims/{id}/decline", claims::decline)
        .get("/players/{id}/rating-history", ratings::history)
        .get("/ratings", ratings::list)
        .post("/ratings/import", ratings::import)
        .get("/clubs", clubs::list)
        .post("/clubs", clubs::create)
        .get("/clubs/{id}", clubs::get)
        .put("/clubs/{id}", clubs::update)
        .get("/clubs/{id}/members", clubs::members)
        .post("/clubs/{id}/members", clubs::add_member)
        .get("/clubs/{id}/requests", clubs::requests)
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
        .post("/events", events::create)
        .post("/events/import", event_import::import)
        .json_config("/events/import", event_import::json_config())
        .get("/events/{id}", events::get)
        .put("/events/{id}", events::update)
        .get("/events/{id}/entries", events::entries)
        .post("/events/{id}/entries", events::add_entry)
        .post("/events/{id}/entries/{entry}/withdraw", events::withdraw)
        .get("/events/{id}/invitations", event_invitations::list)
        .post("/events/{id}/invitations", event_invitations::create)
        .delete(
            "/events/{id}/invitations/{invitation_id}",
            event_invitations::revoke,
        )
        .post("/events/{id}/join", event_invitations::join)
        .put("/events/{id}/entries/{entry}/absence", events::absence)
        .post(
            "/events/{id}/entries/{entry}/absence",
            events::announce_absence,
        )
        .get("/events/{id}/presence", events::presence)
        .put("/events/{id}/presence", events::record_presence)
        .post("/events/{id}/forbidden-pairs", events::forbid)
        .get("/events/{id}/forbidden-pairs", events::forbidden_pairs)
        .delete(
            "/events/{id}/forbidden-pairs/{first}/{second}",
            events::allow,
        )
        .post("/events/{id}/arbiters", events::add_arbiter)
        .get("/events/{id}/rounds", events::rounds)
        .post("/events/{id}/rounds", events::pair)
        .post("/events/{id}/rounds/repair", events::repair)
        .post("/events/{id}/rounds/publish", events::publish)
        .put("/events/{id}/rounds/{round}/pairing", event_pairing::change)
        .post(
            "/events/{id}/rounds/{round}/pairing/check",
            event_pairing::check,
        )
        .put("/events/{id}/pairings/{pairing}/result", events::result)
        .put(
            "/events/{id}/pairings/{pairing}/games/{n}/result",
            ballots::game_result,
        )
        .get("/ballots", ballots::list)
        .get("/events/{id}/changes", event_pairing::changes)
        .get("/events/{id}/standings", events::standings)
        .get("/events/{id}/crosstable", events::crosstable)
        .get("/events/{id}/players/{start_no}", events::card)
        .get("/events/{id}/export.trf", events::export_trf)
        .get("/events/{id}/games.pdn", game_pdn::event)
        .get("/events/{id}/stream", live::event)
        .post("/events/{id}/rounds/{round}/pdn", game_pdn::import)
        .post("/events/{id}/finish", events::finish)
        .post("/events/{id}/reopen", events::reopen)
        .get("/games", games::list)
        .post("/games", games::create)
        .get("/games/{id}", games::get)
        .get("/games/{id}/pdn", game_pdn::game)
        .get("/games/{id}/stream", live::game)
        .post("/games/{id}/moves", games::play_move)
        .post("/games/{id}/draw-offer", games::offer_draw)
        .post("/games/{id}/draw-offer/accept", games::accept_draw)
        .post("/games/{id}/draw-offer/decline", games::decline_draw)
        .post("/games/{id}/resign", games::resign)
        .put("/games/{id}/result", games::set_result)
        .post("/games/{id}/takeback", games::take_back)
        .post("/games/{id}/clock/start", games::start_clock)
        .post(
            "/events/{id}/rounds/{round}/clocks/start",
            games::start_round_clocks,
        )
        .get("/tokens", tokens::list)
        .post("/tokens", tokens::create)
        .delete("/tokens/{id}", tokens::revoke)
        .get("/admin/users", admin::users)
        .put("/admin/users/{id}/roles", admin::set_roles)
        .post("/admin/invitations", admin::invite)
        .get("/admin/registration", admin::registration)
        .put("/admin/registration", admin::set_registration)
        .get("/admin/time-zone", admin::time_zone)
        .put("/admin/time-zone", admin::set_time_zone);
    removals::routes(&mut routes);
    routes
}

async fn openapi_document() -> HttpResponse {
    HttpResponse::Ok().json(openapi::document())
}
