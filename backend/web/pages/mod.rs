//! HTML pages. One file per area; every handler calls one use case.
mod account;
mod admin;
mod clubs;
mod event_import;
mod event_pairing;
mod event_print;
mod events;
mod home;
mod lang;
mod players;
mod session;
mod setup;

use actix_web::web;

use crate::web::routes::Routes;

pub fn configure(cfg: &mut web::ServiceConfig) {
    let mut routes = Routes::default();
    routes
        .route("/", web::get().to(home::home))
        .route("/login", web::get().to(session::login_form))
        .route("/login", web::post().to(session::login))
        .route("/logout", web::post().to(session::logout))
        .route("/register", web::get().to(session::register_form))
        .route("/register", web::post().to(session::register))
        .route("/setup", web::get().to(setup::form))
        .route("/setup", web::post().to(setup::create))
        .route("/lang", web::post().to(lang::switch))
        .route("/account", web::get().to(account::show))
        .route(
            "/account/password",
            web::post().to(account::change_password),
        )
        .route("/account/language", web::post().to(account::set_language))
        .route("/account/tokens", web::post().to(account::create_token))
        .route(
            "/account/tokens/{id}/revoke",
            web::post().to(account::revoke_token),
        )
        .route("/players", web::get().to(players::list))
        .route("/players/new", web::get().to(players::new_form))
        .route("/players", web::post().to(players::create))
        .route("/players/{id}", web::get().to(players::show))
        .route("/players/{id}/edit", web::get().to(players::edit_form))
        .route("/players/{id}", web::post().to(players::update))
        .route("/clubs", web::get().to(clubs::list))
        .route("/clubs/new", web::get().to(clubs::new_form))
        .route("/clubs", web::post().to(clubs::create))
        .route("/clubs/{id}", web::get().to(clubs::show))
        .route("/clubs/{id}/edit", web::get().to(clubs::edit_form))
        .route("/clubs/{id}", web::post().to(clubs::update))
        .route("/clubs/{id}/members", web::post().to(clubs::add_member))
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
        .route("/events/new", web::get().to(events::new_form))
        .route("/events", web::post().to(events::create))
        .route("/events/import", web::get().to(event_import::form))
        .route("/events/import", web::post().to(event_import::import))
        .route("/events/{id}", web::get().to(events::show))
        .route("/events/{id}/edit", web::get().to(events::edit_form))
        .route("/events/{id}", web::post().to(events::update))
        .route("/events/{id}/export.trf", web::get().to(events::export_trf))
        .route(
            "/events/{id}/rounds/{round}/print",
            web::get().to(event_print::pairings),
        )
        .route(
            "/events/{id}/standings/print",
            web::get().to(event_print::standings),
        )
        .route(
            "/events/{id}/crosstable/print",
            web::get().to(event_print::crosstable),
        )
        .route(
            "/events/{id}/players/{start_no}",
            web::get().to(events::card),
        )
        .route("/events/{id}/entries", web::post().to(events::add_entry))
        .route(
            "/events/{id}/entries/{entry}/withdraw",
            web::post().to(events::withdraw),
        )
        .route(
            "/events/{id}/entries/{entry}/absence",
            web::post().to(events::absence),
        )
        .route("/events/{id}/arbiters", web::post().to(events::add_arbiter))
        .route(
            "/events/{id}/forbidden-pairs",
            web::post().to(events::forbid),
        )
        .route(
            "/events/{id}/forbidden-pairs/{first}/{second}/delete",
            web::post().to(events::allow),
        )
        .route("/events/{id}/rounds", web::post().to(events::pair))
        .route("/events/{id}/rounds/repair", web::post().to(events::repair))
        .route(
            "/events/{id}/rounds/publish",
            web::post().to(events::publish),
        )
        .route(
            "/events/{id}/pairings/{pairing}/result",
            web::post().to(events::result),
        )
        .route(
            "/events/{id}/rounds/{round}/pairing",
            web::get().to(event_pairing::form),
        )
        .route(
            "/events/{id}/rounds/{round}/pairing",
            web::post().to(event_pairing::submit),
        )
        .route(
            "/events/{id}/changes",
            web::get().to(event_pairing::changes),
        )
        .route("/events/{id}/finish", web::post().to(events::finish))
        .route("/events/{id}/reopen", web::post().to(events::reopen))
        .route("/admin", web::get().to(admin::show))
        .route(
            "/admin/registration",
            web::post().to(admin::set_registration),
        )
        .route("/admin/invitations", web::post().to(admin::invite))
        .route("/admin/users/{id}/roles", web::post().to(admin::set_roles));
    routes.register(cfg);
}
