//! The TRF import page: paste a TRF, pick the rules preset, get a new event.
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use damka_engine::Variant;
use serde::Deserialize;

use crate::service::events::import::{self, ImportView};
use crate::service::{AppError, AppResult, Refusal};
use crate::web::ctx::Ctx;
use crate::web::form::CsrfForm;
use crate::web::refusals;
use crate::web::render::{self, FormErrors};
use crate::web::signed_in::SignedInPage;
use crate::web::state::AppState;
use damka_domain::vocabulary::Spelling;

/// The import form as typed.
#[derive(Deserialize, Clone)]
pub struct ImportForm {
    #[serde(default)]
    trf: String,
    #[serde(default = "default_variant")]
    variant: String,
}

fn default_variant() -> String {
    Variant::default().spelling().into()
}

#[derive(Template)]
#[template(path = "event_import.html")]
struct ImportPage {
    ctx: Ctx,
    form: ImportForm,
    errors: FormErrors,
}

impl ImportPage {
    fn variants(&self) -> &'static [Variant] {
        &Variant::ALL
    }
}

fn require_organiser(ctx: &Ctx) -> AppResult<()> {
    let actor = ctx.actor();
    if actor.is_organiser() {
        Ok(())
    } else {
        Err(AppError::forbidden(Refusal::OnlyOrganisersImportEvents))
    }
}

pub async fn form(SignedInPage(ctx): SignedInPage) -> AppResult<HttpResponse> {
    require_organiser(&ctx)?;
    render::page(
        StatusCode::OK,
        &ImportPage {
            ctx,
            form: ImportForm {
                trf: String::new(),
                variant: default_variant(),
            },
            errors: FormErrors::none(),
        },
    )
}

/// The form's body: the file, URL-encoded (a character can take up to three times its
/// bytes), so that a file just over `MAX_TRF_BYTES` is read and refused by its size.
const MAX_IMPORT_FORM_BYTES: usize = 3 * import::MAX_TRF_BYTES + 4096;

#[derive(Template)]
#[template(path = "event_imported.html")]
struct ImportedPage {
    ctx: Ctx,
    imported: ImportView,
}

pub async fn import(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    CsrfForm(form): CsrfForm<ImportForm, MAX_IMPORT_FORM_BYTES>,
) -> AppResult<HttpResponse> {
    require_organiser(&ctx)?;
    if let Err(err) = import::check_size(&form.trf) {
        let errors = FormErrors {
            field: "trf".into(),
            message: refusals::text(ctx.lang, &err.refusal()),
        };
        return render::page(
            StatusCode::PAYLOAD_TOO_LARGE,
            &ImportPage { ctx, form, errors },
        );
    }
    let actor = ctx.actor();
    let (text, variant) = (form.trf.clone(), form.variant.clone());
    let result = state
        .db(move |conn| import::import_trf(conn, &actor, &text, &variant))
        .await;
    match result {
        // Players not linked to the profile their federation id matched are listed before
        // going on to the event.
        Ok(imported) if !imported.unlinked_matches.is_empty() => {
            render::page(StatusCode::CREATED, &ImportedPage { ctx, imported })
        }
        Ok(imported) => Ok(render::redirect_with_flash(
            &req,
            &format!("/events/{}", imported.event.id),
            "ok",
            "flash.event_imported",
        )),
        Err(err) => {
            let errors = FormErrors::from_error(&err, ctx.lang).ok_or(err)?;
            render::page(
                StatusCode::UNPROCESSABLE_ENTITY,
                &ImportPage { ctx, form, errors },
            )
        }
    }
}
