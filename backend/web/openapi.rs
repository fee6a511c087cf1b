//! The OpenAPI 3 document of `/api/v1`, generated from the handlers' annotations. A
//! snapshot test (tests/integration/openapi.rs) keeps the committed copy in step, so every
//! API change shows up in review.
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use super::api;

#[derive(OpenApi)]
#[openapi(
    info(title = "damka API", description = "Draughts club service: accounts, players, clubs, events, games. \
        Authenticate with an API token from the account page: `Authorization: Bearer dmk_...`. \
        Errors are RFC 9457 problem details (`application/problem+json`)."),
    paths(
        api::me::me,
        api::players::list, api::players::get, api::players::create, api::players::update,
        api::clubs::list, api::clubs::get, api::clubs::create, api::clubs::update,
        api::clubs::members, api::clubs::add_member,
        api::clubs::requests, api::clubs::request_to_join, api::clubs::accept_request, api::clubs::decline_request,
        api::events::list, api::events::get, api::events::create, api::events::update,
        api::events::entries, api::events::add_entry, api::events::withdraw, api::events::absence,
        api::events::forbid, api::events::forbidden_pairs, api::events::allow, api::events::add_arbiter, api::events::rounds, api::events::pair,
        api::events::repair, api::events::publish, api::events::result, api::events::standings,
        api::events::finish, api::events::reopen, api::events::crosstable, api::events::card, api::events::export_trf,
        api::event_import::import, api::ballots::list, api::ballots::game_result,
        api::games::list, api::games::create, api::games::get, api::games::play_move,
        api::games::offer_draw, api::games::accept_draw, api::games::decline_draw, api::games::resign,
        api::games::set_result, api::games::take_back, api::games::start_clock, api::games::start_round_clocks,
        api::live::game, api::live::event,
        api::game_pdn::game, api::game_pdn::event, api::game_pdn::import,
        api::event_pairing::check, api::event_pairing::change, api::event_pairing::changes,
        api::tokens::list, api::tokens::create, api::tokens::revoke,
        api::admin::users, api::admin::set_roles, api::admin::invite,
        api::admin::registration, api::admin::set_registration,
        api::ratings::list, api::ratings::history, api::ratings::import,
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
