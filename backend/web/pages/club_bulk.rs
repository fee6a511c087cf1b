//! Adding many players to a club at once (`POST /clubs/{id}/members/bulk`, the form on the
//! club page for its organisers): the result page lists every line with what became of
//! it; a submission refused whole (too many lines, nothing given, an unknown CSV column)
//! shows the form again with the reason and the text as sent.
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;

use crate::service::AppResult;
use crate::service::club_bulk::{self, BulkResult, LineOutcome, Outcome};
use crate::service::clubs::{self, ClubView};
use crate::web::ctx::Ctx;
use crate::web::form::CsrfForm;
use crate::web::refusals;
use crate::web::render::{self, FormErrors};
use crate::web::signed_in::SignedInPage;
use crate::web::state::AppState;

/// 500 lines of a CSV with a few columns, with room to spare.
const MAX_BULK_FORM_BYTES: usize = 256 * 1024;

#[derive(Debug, Clone, Default, Deserialize)]
pub struct BulkForm {
    #[serde(default)]
    names: String,
    #[serde(default)]
    csv: String,
}

#[derive(Template)]
#[template(path = "club_bulk.html")]
struct BulkPage {
    ctx: Ctx,
    club: ClubView,
    bulk_form: BulkForm,
    errors: FormErrors,
    result: Option<BulkResult>,
}

impl BulkPage {
    fn count(&self, which: fn(&Outcome) -> bool) -> usize {
        self.result
            .as_ref()
            .map_or(0, |r| r.lines.iter().filter(|l| which(&l.outcome)).count())
    }

    fn summary(&self) -> String {
        let created = self.count(|o| matches!(o, Outcome::Created { .. }));
        let joined = self.count(|o| matches!(o, Outcome::Joined { .. }));
        let refused = self.count(|o| matches!(o, Outcome::Refused { .. }));
        self.ctx
            .lang
            .tf("club_bulk.summary", &[&created, &joined, &refused])
    }

    /// The line's outcome in words (a refusal with the field at fault, when there is one).
    fn outcome_text(&self, line: &LineOutcome) -> String {
        match &line.outcome {
            Outcome::Created { .. } => self.ctx.t("club_bulk.created"),
            Outcome::Joined { .. } => self.ctx.t("club_bulk.joined"),
            Outcome::Refused { field, reason } => {
                let reason = refusals::text(self.ctx.lang, reason);
                let why = match field {
                    Some(field) => {
                        let label = match field.as_str() {
                            "club_id" => "player.club".to_string(),
                            other => format!("player.{other}"),
                        };
                        format!("{}: {reason}", self.ctx.t(&label))
                    }
                    None => reason,
                };
                self.ctx.tf1("club_bulk.refused", &why)
            }
        }
    }

    fn player_of(&self, line: &LineOutcome) -> Option<i64> {
        match line.outcome {
            Outcome::Created { player_id } | Outcome::Joined { player_id } => Some(player_id),
            Outcome::Refused { .. } => None,
        }
    }

    fn is_refused(&self, line: &LineOutcome) -> bool {
        matches!(line.outcome, Outcome::Refused { .. })
    }
}

pub async fn add_many(
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    CsrfForm(form): CsrfForm<BulkForm, MAX_BULK_FORM_BYTES>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let actor = ctx.actor();
    let (names, csv) = (form.names.clone(), form.csv.clone());
    let (club, result) = state
        .db(move |conn| {
            let club = clubs::get(conn, id)?;
            Ok((club, club_bulk::add_many(conn, &actor, id, &names, &csv)))
        })
        .await?;
    let (status, errors, result) = match result {
        Ok(result) => (StatusCode::OK, FormErrors::none(), Some(result)),
        Err(err) => {
            let errors = FormErrors::from_error(&err, ctx.lang).ok_or(err)?;
            (StatusCode::UNPROCESSABLE_ENTITY, errors, None)
        }
    };
    render::page(
        status,
        &BulkPage {
            ctx,
            club,
            bulk_form: form,
            errors,
            result,
        },
    )
}
