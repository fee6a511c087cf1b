//! The event with its tabs, from one load of the event (service `events::overview`).
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;

use crate::service::AppResult;
use crate::service::events::audit::ChangeView;
use crate::service::events::ballot::OpeningView;
use crate::service::events::entries::EntryView;
use crate::service::events::invitations::InvitationView;
use crate::service::events::overview::{self, EventOverview};
use crate::service::events::reports::StandingView;
use crate::service::events::rounds::RoundView;
use crate::service::events::rounds::{BoardGameView, BoardView};
use crate::service::ratings::views::{self as rating_views, EventRatingRow};
use crate::web::ctx::Ctx;
use crate::web::opening_diagram::{self, OpeningDiagram};
use crate::web::pages::{keizer, micro_match};
use crate::web::render::{self, FormErrors};
use crate::web::state::AppState;
use damka_domain::tournament::ByeKind;
use damka_domain::vocabulary::{EventStatus, OpeningBallot, ResultCode, Spelling, System};

/// Everything the event's tabs show, from one load of its history.
type EventData = EventOverview;

pub(super) async fn load(ctx: &Ctx, state: &AppState, id: i64) -> AppResult<EventData> {
    load_after(ctx, state, id, None).await
}

/// The event's data with standings (and crosstable) after `after_round` (default: the
/// last round with results).
async fn load_after(
    ctx: &Ctx,
    state: &AppState,
    id: i64,
    after_round: Option<u32>,
) -> AppResult<EventData> {
    let actor = ctx.actor();
    state
        .db(move |conn| overview::overview(conn, &actor, id, after_round))
        .await
}

#[derive(Template)]
#[template(path = "event.html")]
pub(super) struct EventPage {
    pub(super) ctx: Ctx,
    pub(super) tab: String,
    pub(super) data: EventData,
    pub(super) errors: FormErrors,
    /// The round the pairings tab shows (default: the latest).
    pub(super) round: Option<i32>,
    /// Each player's rating change and performance over the event (rated events).
    pub(super) ratings: Vec<EventRatingRow>,
    /// The organiser's name search for a profile to enter (empty: none asked).
    pub(super) player_q: String,
}

/// The event's rating changes, for the standings tab.
pub(super) async fn rating_rows(state: &AppState, id: i64) -> AppResult<Vec<EventRatingRow>> {
    state.db(move |conn| rating_views::of_event(conn, id)).await
}

impl EventPage {
    /// What the pairings tab shows, for the live script (`web::live_keys`).
    fn live_round_key(&self) -> String {
        crate::web::live_keys::round(self.data.rounds.iter())
    }

    /// The pairings tab as the live script fetches it again: the round it shows, however
    /// the page was reached (a form's answer too), so an update never shows another round.
    fn live_rounds_page(&self) -> String {
        let id = self.data.event.id;
        match self.shown_round() {
            Some(round) => format!("/events/{id}?tab=rounds&round={round}"),
            None => format!("/events/{id}?tab=rounds"),
        }
    }

    /// The line under the title: place, dates, variant and system, those there are,
    /// one separator between each two (an event need not have a place or dates).
    fn facts_line(&self) -> String {
        let e = &self.data.event;
        let dates = match (e.starts_on, e.ends_on) {
            (Some(start), Some(end)) if start != end => {
                format!("{} – {}", self.ctx.day(&start), self.ctx.day(&end))
            }
            (Some(day), _) | (None, Some(day)) => self.ctx.day(&day),
            (None, None) => String::new(),
        };
        [
            e.place.clone(),
            dates,
            self.ctx.variant_name(&e.variant),
            self.ctx.t(&format!("system.{}", e.system)),
        ]
        .into_iter()
        .filter(|fact| !fact.is_empty())
        .collect::<Vec<_>>()
        .join(" · ")
    }

    /// "made by Anna, 7 Dec 2026 18:00 (UTC)" for an invitation link.
    fn invitation_made(&self, link: &InvitationView) -> String {
        self.ctx.lang.tf(
            "invite.made_by",
            &[&link.created_by, &self.ctx.date_time(&link.created_at)],
        )
    }

    /// "revoked by Anna, ..." for a revoked link.
    fn invitation_revoked(&self, link: &InvitationView) -> Option<String> {
        let at = link.revoked_at?;
        let by = link.revoked_by.clone().unwrap_or_default();
        Some(
            self.ctx
                .lang
                .tf("invite.revoked_by", &[&by, &self.ctx.date_time(&at)]),
        )
    }

    fn can_self_register(&self) -> bool {
        self.data.may_self_register
    }

    fn points(&self, half_points: &u32) -> String {
        self.ctx.event_points(&self.data.event, *half_points)
    }

    fn result_label(&self, result: &Option<ResultCode>) -> String {
        match result {
            Some(code) => self.code_label(code),
            None => String::from("—"),
        }
    }

    /// A result as this event prints it (½ for a draw, or the 2-1-0 scale).
    fn code_label(&self, result: &ResultCode) -> String {
        result.shown(self.data.event.scoring_display, false)
    }

    /// Each pairing plays a micro-match of two games.
    fn is_micro(&self) -> bool {
        self.data.event.games_per_pairing > 1
    }

    /// The opening of the whole round, when the event draws one per round.
    fn round_opening(&self, round: &RoundView) -> Option<OpeningView> {
        crate::service::events::sheets::round_opening(&self.data.event, round)
    }

    fn opening_text(&self, opening: &OpeningView) -> String {
        micro_match::opening_text(self.ctx.lang, opening)
    }

    fn round_opening_text(&self, opening: &OpeningView) -> String {
        micro_match::round_opening_text(self.ctx.lang, opening)
    }

    /// The opening's position as a small diagram, with its FEN.
    fn opening_diagram(&self, opening: &OpeningView) -> Option<OpeningDiagram> {
        opening_diagram::of_opening(self.ctx.lang, opening)
    }

    /// The micro-match's score, game 1's White first (`1½–½`); a dash before any result.
    fn board_score(&self, board: &BoardView) -> String {
        micro_match::board_score(&self.data.event, &board.games).unwrap_or_else(|| "—".into())
    }

    /// "Game 2 · White: Petrov" for game `number` of the board.
    fn game_heading(&self, board: &BoardView, number: &usize, game: &BoardGameView) -> String {
        let white = if game.white == board.white_entry_id {
            board.white_name.as_str()
        } else {
            board.black_name.as_deref().unwrap_or("")
        };
        self.ctx.lang.tf("micro.game_white", &[number, &white])
    }

    fn game_field_label(&self, board: &BoardView, number: &usize) -> String {
        self.ctx
            .lang
            .tf("micro.game_result_field", &[&board.board, number])
    }

    fn game_link_text(&self, number: &usize) -> String {
        self.ctx.tf1("micro.game_link", number)
    }

    /// The event's opening table as the information tab names it (an organiser's own
    /// table with its size).
    fn ballot_text(&self) -> String {
        let e = &self.data.event;
        match e.opening_ballot {
            // The form's "(below)" means nothing here: the table by its size.
            OpeningBallot::Custom => self.ctx.lang.plural(
                "micro.custom_table",
                self.data.custom_table_size.unwrap_or(0) as i64,
            ),
            ballot => self.ctx.t(&format!("ballot.{ballot}")),
        }
    }

    fn next_round(&self) -> i32 {
        self.data.rounds.len() as i32 + 1
    }

    fn next_round_text(&self, key: &str) -> String {
        self.ctx.tf1(key, &self.next_round())
    }

    /// Whether the viewer may still change this round's pairing by hand (the service's
    /// rule: the last round, no result in yet, the event not finished).
    fn can_change_pairing(&self, round: &RoundView) -> bool {
        self.data.changeable_round == Some(round.number)
    }

    fn pairing_change(&self, round: &i32) -> Option<&ChangeView> {
        self.data.pairing_changes.get(round)
    }

    /// "half-point bye in round 3" for an entry's pending requests (a Keizer event's
    /// absences by their Keizer names).
    fn requests_text(&self, entry: &EntryView) -> String {
        entry
            .requests
            .iter()
            .map(|r| {
                if self.is_keizer() {
                    keizer::request(self.ctx.lang, r.kind, r.round)
                } else {
                    self.ctx
                        .lang
                        .tf(&format!("event.request.{}", r.kind), &[&r.round])
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn is_keizer(&self) -> bool {
        self.data.event.system == System::Keizer
    }

    /// A bye or an absence as the event names it (a Keizer event's `Z` is an absence
    /// without notice).
    fn bye_label(&self, kind: &ByeKind) -> String {
        if self.is_keizer() {
            keizer::absence(self.ctx.lang, *kind)
        } else {
            self.ctx.t(&format!("event.bye.{kind}"))
        }
    }

    /// The viewer's own entry: they announce their own absences.
    fn is_own_entry(&self, entry: &EntryView) -> bool {
        self.ctx
            .user
            .as_ref()
            .is_some_and(|u| u.player_id == Some(entry.player_id))
    }

    /// Whether the viewer may set the next round's absence of `entry`: the event's
    /// officials for everyone, a player for themselves.
    fn may_set_absence(&self, entry: &EntryView) -> bool {
        self.data.can_arbitrate || self.is_own_entry(entry)
    }

    /// Whether the entries table has the column of absences (someone's the viewer sets).
    fn has_absence_column(&self) -> bool {
        self.data.entries.iter().any(|e| self.may_set_absence(e))
    }

    /// A Keizer score as the reader writes numbers (`71.5`, `83,33`).
    fn keizer_points(&self, row: &StandingView) -> String {
        row.keizer_sixths
            .map(|sixths| keizer::points(self.ctx.lang, sixths))
            .unwrap_or_default()
    }

    /// A Keizer event's options, for the information tab.
    fn keizer_summary(&self) -> Vec<(String, String)> {
        keizer::summary(self.ctx.lang, &self.data.event.keizer)
    }

    /// The officials' check list of the next round (Keizer events, no draft waiting).
    fn shows_check_list(&self) -> bool {
        self.is_keizer()
            && self.data.can_arbitrate
            && self.data.event.status != EventStatus::Finished
            && !self.last_is_draft()
    }

    /// The request already made for the next round, to preselect it.
    fn next_request(&self, entry: &EntryView) -> Option<ByeKind> {
        let next = self.next_round();
        entry
            .requests
            .iter()
            .find(|r| r.round == next)
            .map(|r| r.kind)
    }

    /// What a player may ask for instead of a game: a half-point bye (Swiss only) or an
    /// absence.
    fn absence_kinds(&self) -> &'static [ByeKind] {
        crate::service::events::pairing_system::of(&self.data.event).requests()
    }

    fn changed_by(&self, change: &ChangeView) -> String {
        self.ctx.lang.tf(
            "pairing.changed_by",
            &[&change.by, &self.ctx.date_time(&change.at)],
        )
    }

    fn warning_texts(&self, change: &ChangeView) -> Vec<String> {
        change
            .warnings
            .iter()
            .map(|w| crate::web::pairing_warnings::text(self.ctx.lang, w))
            .collect()
    }

    fn last_is_draft(&self) -> bool {
        self.data.rounds.last().is_some_and(|r| !r.published)
    }

    fn tiebreak_label(&self, code: &str) -> String {
        crate::web::tiebreaks::label(
            self.ctx.lang,
            self.data.event.variant,
            self.data.event.system,
            code,
        )
    }

    fn tiebreak_abbr(&self, code: &str) -> String {
        crate::web::tiebreaks::abbreviation(
            self.ctx.lang,
            self.data.event.variant,
            self.data.event.system,
            code,
        )
    }

    fn cross_cell(&self, text: &str) -> String {
        crate::web::cross_cells::cell(self.ctx.lang, text)
    }

    fn cross_legend(&self, round_robin: &bool) -> &'static str {
        crate::web::cross_cells::legend_key(*round_robin)
    }

    /// The rounds standings can be shown after, for the "after round" selector: every
    /// published round up to the last with an outcome (a result, a bye or an absence), the
    /// same rule as the default table.
    fn rounds_with_results(&self) -> Vec<i32> {
        let last = self
            .data
            .rounds
            .iter()
            .filter(|r| r.published)
            .filter(|r| {
                r.boards
                    .iter()
                    .any(|b| b.result.is_some() || b.bye.is_some())
            })
            .map(|r| r.number)
            .max()
            .unwrap_or(0);
        (1..=last).collect()
    }

    fn results(&self) -> &'static [ResultCode] {
        ResultCode::ALL
    }

    /// The round the pairings tab shows: the one asked for, else the latest.
    fn shown_round(&self) -> Option<i32> {
        let last = self.data.rounds.iter().map(|r| r.number).max();
        self.round
            .filter(|n| self.data.rounds.iter().any(|r| r.number == *n))
            .or(last)
    }

    fn is_shown_round(&self, number: &i32) -> bool {
        self.shown_round() == Some(*number)
    }

    fn is_last_round(&self, number: &i32) -> bool {
        self.data.rounds.iter().map(|r| r.number).max() == Some(*number)
    }

    /// A player's points before `round`, as the event writes points.
    fn points_before(&self, round: &i32, start_no: &i32) -> String {
        let half_points = self
            .data
            .points_before
            .get(round)
            .and_then(|points| points.get(start_no))
            .copied()
            .unwrap_or(0);
        self.ctx.event_points(&self.data.event, half_points)
    }

    fn club_of(&self, start_no: &u32) -> &str {
        self.data
            .clubs
            .get(&(*start_no as i32))
            .map_or("", String::as_str)
    }

    /// Why the next round cannot be paired yet: the boards still without a result.
    fn missing_text(&self) -> String {
        let boards: Vec<String> = self
            .data
            .boards_missing
            .iter()
            .map(|b| b.to_string())
            .collect();
        self.ctx.tf1("event.pair_waits", &boards.join(", "))
    }

    /// A rating after the event with its change: `2254 (+4)`, `2398 (−2)`; "unrated"
    /// while an Elo player has no rating yet.
    fn with_change(&self, rating: &Option<i64>, change: &Option<i64>) -> String {
        let Some(rating) = rating else {
            return self.ctx.t("ratings.unrated");
        };
        match change {
            Some(c) if *c > 0 => format!("{rating} (+{c})"),
            Some(c) if *c < 0 => format!("{rating} (−{})", c.abs()),
            Some(_) => format!("{rating} (0)"),
            None => rating.to_string(),
        }
    }
}

#[derive(Deserialize)]
pub struct TabQuery {
    #[serde(default)]
    tab: String,
    /// Standings and crosstable after this round.
    #[serde(default)]
    after: Option<u32>,
    /// The round the pairings tab shows.
    #[serde(default)]
    round: Option<i32>,
    /// The organiser's name search for a profile to enter (the entries tab).
    #[serde(default)]
    player_q: String,
}

const TABS: [&str; 5] = ["info", "entries", "rounds", "standings", "crosstable"];

pub async fn show(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    query: web::Query<TabQuery>,
) -> AppResult<HttpResponse> {
    let tab = if TABS.contains(&query.tab.as_str()) {
        query.tab.clone()
    } else {
        "info".to_string()
    };
    let id = path.into_inner();
    let mut data = load_after(&ctx, &state, id, query.after).await?;
    let player_q = query.player_q.trim().to_string();
    if data.can_manage && !player_q.is_empty() {
        let (actor, search) = (ctx.actor(), player_q.clone());
        data.candidates = state
            .db(move |conn| overview::candidates(conn, &actor, id, &search))
            .await?;
    }
    let ratings = rating_rows(&state, id).await?;
    render::page(
        StatusCode::OK,
        &EventPage {
            ctx,
            tab,
            data,
            errors: FormErrors::none(),
            round: query.round,
            ratings,
            player_q,
        },
    )
}
