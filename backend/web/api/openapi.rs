//! The OpenAPI 3 document of `/api/v1`, generated from the handlers' annotations. A
//! snapshot test (tests/integration/openapi.rs) keeps the committed copy in step, so every
//! API change shows up in review.
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use super::{
    admin, ballots, claims, clubs, event_import, event_invitations, event_pairing, events,
    game_pdn, games, live, me, players, ratings, removals, tokens,
};

#[derive(OpenApi)]
#[openapi(
    info(title = "damka API", description = "Draughts club service: accounts, players, clubs, events, games. \
        Authenticate with an API token from the account page: `Authorization: Bearer dmk_...`. \
        Errors are RFC 9457 problem details (`application/problem+json`)."),
    paths(
        me::me,
        players::list, players::get, players::create, players::update,
        claims::claim, claims::pending, claims::accept, claims::decline, claims::merge,
        clubs::list, clubs::get, clubs::create, clubs::update,
        clubs::members, clubs::add_member,
        clubs::requests, clubs::request_to_join, clubs::accept_request, clubs::decline_request,
        events::list, events::get, events::create, events::update,
        events::entries, events::add_entry, events::withdraw, events::absence, events::announce_absence,
        event_invitations::create, event_invitations::list, event_invitations::revoke,
        event_invitations::join,
        events::presence, events::record_presence,
        events::forbid, events::forbidden_pairs, events::allow, events::add_arbiter, events::rounds, events::pair,
        events::repair, events::publish, events::result, events::standings,
        events::finish, events::reopen, events::crosstable, events::card, events::export_trf,
        event_import::import, ballots::list, ballots::game_result,
        games::list, games::create, games::get, games::play_move,
        games::offer_draw, games::accept_draw, games::decline_draw, games::resign,
        games::set_result, games::take_back, games::start_clock, games::start_round_clocks,
        live::game, live::event,
        game_pdn::game, game_pdn::event, game_pdn::import,
        event_pairing::check, event_pairing::change, event_pairing::changes,
        tokens::list, tokens::create, tokens::revoke,
        admin::users, admin::set_roles, admin::invite,
        admin::registration, admin::set_registration, admin::time_zone, admin::set_time_zone,
        ratings::list, ratings::history, ratings::import,
        removals::archive_event, removals::restore_event, removals::delete_event,
        removals::archive_player, removals::restore_player, removals::delete_player,
        removals::archive_club, removals::restore_club, removals::delete_club, removals::trail,
    ),
    components(schemas(crate::web::error::Problem, crate::service::live::snapshot::PlyEvent,
        crate::service::live::snapshot::LiveRound)),
    modifiers(&TokenSecurity),
    tags((name = "accounts"), (name = "players"), (name = "clubs"), (name = "events"), (name = "games"), (name = "ratings"), (name = "admin"))
)]
struct ApiDoc;

struct TokenSecurity;

impl Modify for TokenSecurity {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "token",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some("An API token created on the account page"))
                    .build(),
            ),
        );
    }
}

pub fn document() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}
