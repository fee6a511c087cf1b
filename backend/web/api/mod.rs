//! The JSON API under `/api/v1`. Authentication is by API token only
//! (`Authorization: Bearer dmk_...`, created on the account page), so browser cookies
//! can never be used for cross-site requests here. Errors are `application/problem+json`.
pub(crate) mod admin;
pub(crate) mod auth;
pub(crate) mod clubs;
pub(crate) mod event_import;
pub(crate) mod event_pairing;
pub(crate) mod events;
pub(crate) mod me;
pub(crate) mod players;
pub(crate) mod tokens;

use actix_web::{HttpResponse, web};

use crate::web::routes::Routes;

pub use auth::ApiActor;

pub fn configure(cfg: &mut web::ServiceConfig) {
    let mut routes = Routes::default();
    routes
        .route("/openapi.json", web::get().to(openapi_document))
        .route("/me", web::get().to(me::me))
        .route("/players", web::get().to(players::list))
        .route("/players", web::post().to(players::create))
        .route("/players/{id}", web::get().to(players::get))
        .route("/players/{id}", web::put().to(players::update))
        .route("/clubs", web::get().to(clubs::list))
        .route("/clubs", web::post().to(clubs::create))
        .route("/clubs/{id}", web::get().to(clubs::get))
        .route("/clubs/{id}", web::put().to(clubs::update))
        .route("/clubs/{id}/members", web::get().to(clubs::members))
        .route("/clubs/{id}/members", web::post().to(clubs::add_member))
        .route("/clubs/{id}/requests", web::get().to(clubs::requests))
        .route(
            "/clubs/{id}/requests",
            web::post().to(clubs::request_to_join),
        )
        .route(
            "/clubs/{id}/requests/{request_id}/accept",
            web::post().to(clubs::accept_request),
        )
        .route(
            "/clubs/{id}/requests/{request_id}/decline",
            web::post().to(clubs::decline_request),
        )
        .route("/events", web::get().to(events::list))
        .route("/events", web::post().to(events::create))
        .route("/events/import", web::post().to(event_import::import))
        .json_config("/events/import", event_import::json_config())
        .route("/events/{id}", web::get().to(events::get))
        .route("/events/{id}", web::put().to(events::update))
        .route("/events/{id}/entries", web::get().to(events::entries))
        .route("/events/{id}/entries", web::post().to(events::add_entry))
        .route(
            "/events/{id}/entries/{entry}/withdraw",
            web::post().to(events::withdraw),
        )
        .route(
            "/events/{id}/entries/{entry}/absence",
            web::put().to(events::absence),
        )
        .route(
            "/events/{id}/forbidden-pairs",
            web::post().to(events::forbid),
        )
        .route(
            "/events/{id}/forbidden-pairs",
            web::get().to(events::forbidden_pairs),
        )
        .route(
            "/events/{id}/forbidden-pairs/{first}/{second}",
            web::delete().to(events::allow),
        )
        .route("/events/{id}/arbiters", web::post().to(events::add_arbiter))
        .route("/events/{id}/rounds", web::get().to(events::rounds))
        .route("/events/{id}/rounds", web::post().to(events::pair))
        .route("/events/{id}/rounds/repair", web::post().to(events::repair))
        .route(
            "/events/{id}/rounds/publish",
            web::post().to(events::publish),
        )
        .route(
            "/events/{id}/rounds/{round}/pairing",
            web::put().to(event_pairing::change),
        )
        .route(
            "/events/{id}/rounds/{round}/pairing/check",
            web::post().to(event_pairing::check),
        )
        .route(
            "/events/{id}/pairings/{pairing}/result",
            web::put().to(events::result),
        )
        .route(
            "/events/{id}/changes",
            web::get().to(event_pairing::changes),
        )
        .route("/events/{id}/standings", web::get().to(events::standings))
        .route("/events/{id}/crosstable", web::get().to(events::crosstable))
        .route(
            "/events/{id}/players/{start_no}",
            web::get().to(events::card),
        )
        .route("/events/{id}/export.trf", web::get().to(events::export_trf))
        .route("/events/{id}/finish", web::post().to(events::finish))
        .route("/events/{id}/reopen", web::post().to(events::reopen))
        .route("/tokens", web::get().to(tokens::list))
        .route("/tokens", web::post().to(tokens::create))
        .route("/tokens/{id}", web::delete().to(tokens::revoke))
        .route("/admin/users", web::get().to(admin::users))
        .route("/admin/users/{id}/roles", web::put().to(admin::set_roles))
        .route("/admin/invitations", web::post().to(admin::invite))
        .route("/admin/registration", web::get().to(admin::registration))
        .route(
            "/admin/registration",
            web::put().to(admin::set_registration),
        );
    routes.register(cfg);
}

async fn openapi_document() -> HttpResponse {
    HttpResponse::Ok().json(super::openapi::document())
}
