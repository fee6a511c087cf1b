//! Player profiles: list, view, create, edit, with their per-variant ratings.
use std::collections::HashSet;

use damka_engine::Variant;
use serde::{Deserialize, Serialize};

use super::effects::{self, Effects};
use super::paging::{Page, PageRequest};
use super::{Actor, AppError, AppResult, Refusal, validate};
use crate::store::models::{Player, PlayerFields};
use crate::store::ratings as ratings_store;
use crate::store::{self, DbConn, accounts, clubs, players};
use damka_domain::vocabulary::spelled;

/// What a form or an API request sends to create or change a profile.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
pub struct PlayerInput {
    pub name: String,
    #[serde(default)]
    pub club_id: Option<i64>,
    #[serde(default)]
    pub country: String,
    #[serde(default)]
    pub federation_id: String,
    #[serde(default)]
    pub birth_year: Option<i32>,
    #[serde(default)]
    pub title: String,
}

/// A profile as pages and the API show it.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct PlayerView {
    pub id: i64,
    pub name: String,
    pub club_id: Option<i64>,
    pub club_name: Option<String>,
    pub country: String,
    pub federation_id: String,
    pub birth_year: Option<i32>,
    pub title: String,
    /// Current ratings per variant in the system the site's lists show first (variants
    /// with a rating only).
    pub ratings: Vec<RatingView>,
    /// The account linked to this profile, if any (its display name).
    pub account: Option<String>,
    /// When it was archived (left out of the lists, closed to changes); null when it is not.
    #[serde(serialize_with = "crate::service::utc_json::optional")]
    pub archived_at: Option<chrono::NaiveDateTime>,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct RatingView {
    #[serde(with = "spelled")]
    #[schema(value_type = String)]
    pub variant: Variant,
    pub rating: i32,
    pub games: i32,
}

/// Ratings are listed in `Variant::ALL`'s order, the home variant first.
fn sort_ratings(ratings: &mut [RatingView]) {
    ratings.sort_by_key(|r| Variant::ALL.iter().position(|v| *v == r.variant));
}

/// The players' current ratings in the site's list system, by player.
fn current_ratings(
    conn: &mut DbConn,
    player_ids: &[i64],
) -> AppResult<std::collections::HashMap<i64, Vec<RatingView>>> {
    let system = crate::service::ratings::system_choice(conn)?.list_system;
    let mut by_player: std::collections::HashMap<i64, Vec<RatingView>> =
        std::collections::HashMap::new();
    for (player, variant, rating, games) in ratings_store::current_for(conn, player_ids, system)? {
        if let Some(rating) = rating {
            by_player.entry(player).or_default().push(RatingView {
                variant,
                rating: rating.round() as i32,
                games,
            });
        }
    }
    for ratings in by_player.values_mut() {
        sort_ratings(ratings);
    }
    Ok(by_player)
}

fn fields(conn: &mut DbConn, input: &PlayerInput) -> AppResult<PlayerFields> {
    if let Some(club) = input.club_id
        && clubs::by_id(conn, club)?.is_none()
    {
        return Err(AppError::invalid("club_id", Refusal::NoSuchClub));
    }
    Ok(PlayerFields {
        name: validate::required("name", &input.name, 100)?,
        club_id: input.club_id,
        country: validate::country(&input.country)?,
        federation_id: validate::optional("federation_id", &input.federation_id, 32)?,
        birth_year: validate::birth_year(input.birth_year)?,
        title: validate::optional("title", &input.title, 16)?,
    })
}

/// What one actor may do to profiles, looked up once: an import checks hundreds.
#[derive(Debug, Clone, Default)]
pub struct ProfileRights {
    admin: bool,
    /// A site organiser (or administrator).
    organiser: bool,
    user_id: Option<i64>,
    own_profile: Option<i64>,
    organised_clubs: HashSet<i64>,
}

impl ProfileRights {
    pub fn of(conn: &mut DbConn, actor: &Actor) -> AppResult<ProfileRights> {
        let Some(user) = &actor.user else {
            return Ok(ProfileRights::default());
        };
        Ok(ProfileRights {
            admin: user.is_admin,
            organiser: user.is_admin || user.is_organiser,
            user_id: Some(user.id),
            own_profile: user.player_id,
            organised_clubs: clubs::organised_by(conn, user.id)?.into_iter().collect(),
        })
    }

    /// Who may edit a profile: administrators, the account linked to it, and organisers
    /// of the player's club.
    pub fn may_edit(&self, player: &Player) -> bool {
        self.admin
            || self.own_profile == Some(player.id)
            || player
                .club_id
                .is_some_and(|club| self.organised_clubs.contains(&club))
    }

    /// Who manages a profile (decides claims on it, hands out links to it, merges it):
    /// administrators, organisers of the player's club, and the organiser who made it.
    pub fn may_manage(&self, player: &Player) -> bool {
        self.admin
            || player
                .club_id
                .is_some_and(|club| self.organised_clubs.contains(&club))
            || (self.organiser && self.user_id.is_some() && player.created_by == self.user_id)
    }

    /// Whose open claims this actor decides (`may_manage` as a query); `None` when signed
    /// out.
    pub fn decider(&self) -> Option<crate::store::claims::Decider> {
        Some(crate::store::claims::Decider {
            user_id: self.user_id?,
            every_profile: self.admin,
            clubs: self.organised_clubs.iter().copied().collect(),
            profiles_it_made: self.organiser,
        })
    }

    /// Who may put a profile in a club without asking: administrators and the club's
    /// organisers. A player asks to join (`clubs::request_to_join`) and waits for them.
    pub fn may_add_to_club(&self, club_id: i64) -> bool {
        self.admin || self.organised_clubs.contains(&club_id)
    }
}

fn may_edit(conn: &mut DbConn, actor: &Actor, player: &Player) -> AppResult<bool> {
    Ok(ProfileRights::of(conn, actor)?.may_edit(player))
}

/// Refuses to move a profile into a club that did not agree to it.
fn check_club_change(
    rights: &ProfileRights,
    current: Option<i64>,
    wanted: Option<i64>,
) -> AppResult<()> {
    match wanted {
        Some(club) if wanted != current && !rights.may_add_to_club(club) => {
            Err(AppError::forbidden(Refusal::NotClubOrganiser))
        }
        _ => Ok(()),
    }
}

/// Refuses to move a profile into an archived club.
fn check_club_open(conn: &mut DbConn, current: Option<i64>, wanted: Option<i64>) -> AppResult<()> {
    match wanted {
        Some(club) if wanted != current => {
            crate::service::archived::require_club_not_archived(conn, club)
        }
        _ => Ok(()),
    }
}

pub fn can_edit(conn: &mut DbConn, actor: &Actor, player_id: i64) -> AppResult<bool> {
    match players::by_id(conn, player_id)? {
        Some(player) if player.merged_into.is_none() => may_edit(conn, actor, &player),
        _ => Ok(false),
    }
}

/// Whether the actor manages the profile (see `ProfileRights::may_manage`).
pub fn can_manage(conn: &mut DbConn, actor: &Actor, player_id: i64) -> AppResult<bool> {
    match players::by_id(conn, player_id)? {
        Some(player) if player.merged_into.is_none() => {
            Ok(ProfileRights::of(conn, actor)?.may_manage(&player))
        }
        _ => Ok(false),
    }
}

/// A profile that is still there: 404 if there never was one, 404 `player_merged` (with
/// the survivor's id) if it was merged into another.
pub fn live(conn: &mut DbConn, player_id: i64) -> AppResult<Player> {
    let player = players::by_id(conn, player_id)?.ok_or(AppError::NotFound { what: "player" })?;
    match player.merged_into {
        Some(into) => Err(AppError::NotFoundBecause {
            reason: Refusal::PlayerMerged { into },
        }),
        None => Ok(player),
    }
}

/// Administrators and organisers create any profile; a club organiser creates profiles in
/// their club; any signed-in user without a profile creates their own (linked to them).
/// Only administrators and a club's organisers put a profile in that club.
pub fn create(conn: &mut DbConn, actor: &Actor, input: &PlayerInput) -> AppResult<PlayerView> {
    let user = actor.require_user()?;
    conn.write_transaction(|conn| {
        let fields = fields(conn, input)?;
        let rights = ProfileRights::of(conn, actor)?;
        check_club_change(&rights, None, fields.club_id)?;
        check_club_open(conn, None, fields.club_id)?;
        let club_organiser = fields
            .club_id
            .is_some_and(|club| rights.may_add_to_club(club));
        let own_profile = !actor.is_organiser() && !club_organiser;
        if own_profile && user.player_id.is_some() {
            return Err(AppError::forbidden(Refusal::AlreadyHasProfile));
        }
        let player = players::insert_by(conn, &fields, Some(user.id), store::now())?;
        if own_profile {
            accounts::link_player(conn, user.id, Some(player.id))?;
        }
        view_of(conn, player)
    })
}

pub fn update(
    conn: &mut DbConn,
    actor: &Actor,
    player_id: i64,
    input: &PlayerInput,
) -> AppResult<PlayerView> {
    actor.require_user()?;
    let (updated, effects) = conn.write_transaction(|conn| {
        let player = live(conn, player_id)?;
        let rights = ProfileRights::of(conn, actor)?;
        if !rights.may_edit(&player) {
            return Err(AppError::forbidden(Refusal::MayNotEditProfile));
        }
        crate::service::archived::require_player_not_archived(&player)?;
        let fields = fields(conn, input)?;
        check_club_change(&rights, player.club_id, fields.club_id)?;
        check_club_open(conn, player.club_id, fields.club_id)?;
        let updated = players::update(conn, player_id, &fields)?;
        // The Elo K factor reads the birth year (the under-18 rule).
        let mut effects = Effects::none();
        if updated.birth_year != player.birth_year {
            effects.birth_year_changed(conn, player_id)?;
        }
        Ok((updated, effects))
    })?;
    effects::apply(conn, effects);
    view_of(conn, updated)
}

pub fn get(conn: &mut DbConn, player_id: i64) -> AppResult<PlayerView> {
    let player = live(conn, player_id)?;
    view_of(conn, player)
}

pub(crate) fn view_of(conn: &mut DbConn, player: Player) -> AppResult<PlayerView> {
    let club_name = match player.club_id {
        Some(id) => clubs::by_id(conn, id)?.map(|c| c.name),
        None => None,
    };
    let ratings = current_ratings(conn, &[player.id])?
        .remove(&player.id)
        .unwrap_or_default();
    let account = accounts::user_by_player(conn, player.id)?.map(|u| u.display_name);
    Ok(PlayerView {
        id: player.id,
        name: player.name,
        club_id: player.club_id,
        club_name,
        country: player.country,
        federation_id: player.federation_id,
        birth_year: player.birth_year,
        title: player.title,
        ratings,
        account,
        archived_at: player.archived_at,
    })
}

/// Where a page of players continues: the (name, id) of the last one shown.
pub type PlayerKey = (String, i64);

/// Which profiles a list of players shows.
#[derive(Debug, Clone, Default)]
pub struct PlayerFilter {
    /// Only those of this club.
    pub club: Option<i64>,
    /// Only those whose name contains this (folded: `damka_domain::names`).
    pub search: Option<String>,
}

/// A page of profiles by name (optionally one club's, or matching a name), with their
/// ratings and clubs, in three queries (and those of the name search's batches).
pub fn page(
    conn: &mut DbConn,
    filter: &PlayerFilter,
    asked: &PageRequest<PlayerKey>,
) -> AppResult<Page<PlayerView>> {
    let rows = players::page(
        conn,
        filter.club,
        filter.search.as_deref(),
        asked.after.as_ref(),
        asked.fetch(),
    )?;
    let page = Page::from_rows(rows, asked.limit, |p| (p.name.clone(), p.id));
    let ids: Vec<i64> = page.items.iter().map(|p| p.id).collect();
    let mut ratings = current_ratings(conn, &ids)?;
    let mut club_ids: Vec<i64> = page.items.iter().filter_map(|p| p.club_id).collect();
    club_ids.sort_unstable();
    club_ids.dedup();
    let club_names: std::collections::HashMap<i64, String> = clubs::by_ids(conn, &club_ids)?
        .into_iter()
        .map(|c| (c.id, c.name))
        .collect();
    Ok(page.map(|p| {
        let own = ratings.remove(&p.id).unwrap_or_default();
        PlayerView {
            club_name: p.club_id.and_then(|id| club_names.get(&id).cloned()),
            id: p.id,
            name: p.name,
            club_id: p.club_id,
            country: p.country,
            federation_id: p.federation_id,
            birth_year: p.birth_year,
            title: p.title,
            ratings: own,
            account: None,
            archived_at: p.archived_at,
        }
    }))
}

/// Every profile by name (tools and tests; a page offers `candidates` instead).
pub fn every(conn: &mut DbConn) -> AppResult<Vec<PlayerView>> {
    let mut all: Vec<PlayerView> = Vec::new();
    loop {
        let asked = PageRequest {
            limit: super::paging::MAX_LIMIT,
            after: all.last().map(|p| (p.name.clone(), p.id)),
        };
        let page = page(conn, &PlayerFilter::default(), &asked)?;
        all.extend(page.items);
        if page.next_cursor.is_none() {
            return Ok(all);
        }
    }
}

/// How many profiles the event page's entry form offers at once: a site of 55,000
/// profiles cannot send them all in one list, so the organiser searches by name.
pub const CANDIDATES: usize = 20;

/// Up to `CANDIDATES` profiles by name that are not in `entered`, whose name matches
/// `search` (any word order) if given: the choice of the event page's entry form. Reads
/// name-ordered pages until enough are found, so an event's own entries never crowd out
/// the rest.
pub fn candidates(
    conn: &mut DbConn,
    entered: &[i64],
    search: Option<&str>,
) -> AppResult<Vec<PlayerView>> {
    let filter = PlayerFilter {
        club: None,
        search: search.map(str::to_string),
    };
    let mut found: Vec<PlayerView> = Vec::new();
    let mut after = None;
    loop {
        let asked = PageRequest {
            limit: CANDIDATES * 2,
            after,
        };
        let page = page(conn, &filter, &asked)?;
        after = page.items.last().map(|p| (p.name.clone(), p.id));
        found.extend(
            page.items
                .into_iter()
                .filter(|p| !entered.contains(&p.id))
                .take(CANDIDATES - found.len()),
        );
        if found.len() >= CANDIDATES || page.next_cursor.is_none() {
            return Ok(found);
        }
    }
}

/// How many profiles there are (of one club, if given).
pub fn count(conn: &mut DbConn, club: Option<i64>) -> AppResult<i64> {
    Ok(players::count_in(conn, club)?)
}

/// A row of a top-rated list.
#[derive(Debug, Clone)]
pub struct TopPlayer {
    pub id: i64,
    pub name: String,
    /// The club's name; empty for a player without a club.
    pub club: String,
    pub rating: i64,
}

/// What the home page shows of the site: how many players and clubs, and the best-rated
/// players of the home variant.
#[derive(Debug, Clone)]
pub struct SiteSummary {
    pub player_count: i64,
    pub club_count: i64,
    pub top: Vec<TopPlayer>,
}

pub fn site_summary(conn: &mut DbConn, top: i64) -> AppResult<SiteSummary> {
    let (player_count, club_count) = players::counts(conn)?;
    let system = crate::service::ratings::system_choice(conn)?.list_system;
    let top = ratings_store::top_rated(conn, damka_engine::Variant::Russian, system, top)?
        .into_iter()
        .map(|(id, name, club, rating)| TopPlayer {
            id,
            name,
            club: club.unwrap_or_default(),
            rating: rating.unwrap_or_default().round() as i64,
        })
        .collect();
    Ok(SiteSummary {
        player_count,
        club_count,
        top,
    })
}
