//! Events over HTTP, standings: which rounds count (drafts and unplayed published rounds do
//! not) and how tie-breaks are shown on the 2-1-0 scale.
#![allow(clippy::unwrap_used)]
use crate::common;

use actix_web::http::Method;
use common::{EventBuilder, TestApp, create_event, enter_players, organiser_api, play_round};
use serde_json::{Value, json};

/// A draft round is the arbiters' business: its pairing-allocated bye counts in no
/// standings, crosstable or export until the round is published.
#[actix_web::test]
async fn a_draft_round_counts_nowhere_until_published() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let id = EventBuilder::swiss("Drafts", 3)
        .players(5)
        .played(&["1/2-1/2", "1/2-1/2"])
        .build(&mut org)
        .await
        .id;
    let round2 = org
        .post(&format!("/api/v1/events/{id}/rounds"))
        .await
        .json();
    assert!(
        round2["boards"]
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b["bye"] == "U")
    );

    let mut public = app.client();
    let standings = public
        .get(&format!("/api/v1/events/{id}/standings"))
        .await
        .json();
    assert_eq!(standings["after_round"], 1);
    let total: i64 = standings["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["half_points"].as_i64().unwrap())
        .sum();
    // Two draws (4 half-points) and round 1's PAB (2), nothing of the draft.
    assert_eq!(total, 6);
    let crosstable = public
        .get(&format!("/api/v1/events/{id}/crosstable"))
        .await
        .json();
    assert_eq!(crosstable["after_round"], 1);
    let trf = public.get(&format!("/events/{id}/export.trf")).await.body;
    let player_lines: Vec<&str> = trf.lines().filter(|l| l.starts_with("001")).collect();
    assert_eq!(player_lines.len(), 5);
    // One round cell (10 characters from column 92) per player, not two.
    assert!(
        player_lines.iter().all(|l| l.trim_end().len() <= 99),
        "{trf}"
    );

    org.post(&format!("/api/v1/events/{id}/rounds/publish"))
        .await;
    let standings = public
        .get(&format!("/api/v1/events/{id}/standings"))
        .await
        .json();
    assert_eq!(
        standings["after_round"], 2,
        "the published round's bye counts"
    );
}

/// A round published with none of its games played yet (no byes: 8 players) does not
/// count: the default standings, crosstable and page are those after round 1, every figure
/// included (the unplayed round used to count in the tie-breaks as unplayed games for
/// everyone while the page's selector said "after round 1"), and the print links follow.
#[actix_web::test]
async fn a_published_round_without_results_counts_nowhere_by_default() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let id = EventBuilder::swiss("Unplayed", 5)
        .players(8)
        .played(&["1-0", "0-1", "1/2-1/2", "1-0"])
        .build(&mut org)
        .await
        .id;
    let round2 = org.post(&format!("/api/v1/events/{id}/rounds")).await;
    assert_eq!(round2.status.as_u16(), 201, "{}", round2.body);
    let published = org
        .post(&format!("/api/v1/events/{id}/rounds/publish"))
        .await;
    assert!(published.status.is_success(), "{}", published.body);

    let mut public = app.client();
    let by_default = public
        .get(&format!("/api/v1/events/{id}/standings"))
        .await
        .json();
    let after_one = public
        .get(&format!("/api/v1/events/{id}/standings?after=1"))
        .await
        .json();
    assert_eq!(by_default["after_round"], 1);
    assert_eq!(by_default, after_one);
    let crosstable = public
        .get(&format!("/api/v1/events/{id}/crosstable"))
        .await
        .json();
    assert_eq!(crosstable["after_round"], 1);
    let page = public
        .get(&format!("/events/{id}?tab=standings"))
        .await
        .body;
    assert!(
        page.contains(&format!("/events/{id}/standings/print?after=1")),
        "{page}"
    );
    assert!(!page.contains("print?after=2"), "{page}");
    assert!(page.contains(r#"<option value="1" selected>"#), "{page}");
    assert!(!page.contains(r#"<option value="2""#), "{page}");
}

/// On the 2-1-0 scale the sums of points among the tie-breaks (BH, SB) are doubled with
/// the points; counts (WIN) are not.
#[actix_web::test]
async fn two_one_zero_display_doubles_point_tiebreaks_only() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let id = create_event(
        &mut org,
        json!({"name": "Scale", "system": "swiss", "rounds": 3}),
    )
    .await;
    enter_players(&mut org, id, 6).await;
    for results in [["1-0", "1/2-1/2", "0-1"], ["1/2-1/2", "1-0", "1-0"]] {
        play_round(&mut org, id, &results).await;
    }
    let values = |standings: &Value, column: usize| -> Vec<f64> {
        standings["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["tiebreaks"][column].as_str().unwrap().parse().unwrap())
            .collect()
    };
    let before = org
        .get(&format!("/api/v1/events/{id}/standings"))
        .await
        .json();
    assert_eq!(before["tiebreaks"], json!(["BH/C1", "BH", "SB", "WIN"]));
    let changed = org
        .json(
            Method::PUT,
            &format!("/api/v1/events/{id}"),
            json!({"name": "Scale", "system": "swiss", "rounds": 3, "scoring_display": "2-1-0"}),
        )
        .await;
    assert_eq!(changed.status.as_u16(), 200, "{}", changed.body);
    let after = org
        .get(&format!("/api/v1/events/{id}/standings"))
        .await
        .json();
    for column in 0..3 {
        let doubled: Vec<f64> = values(&before, column).iter().map(|v| v * 2.0).collect();
        assert_eq!(values(&after, column), doubled, "column {column}");
    }
    assert_eq!(values(&after, 3), values(&before, 3), "WIN counts rounds");
    assert!(
        values(&before, 1).iter().any(|v| v.fract() != 0.0),
        "the example has half points in BH"
    );
    // The player's card shows points on the same scale.
    let leader = &after["rows"][0];
    let card = app
        .client()
        .get(&format!("/events/{id}/players/{}", leader["start_no"]))
        .await;
    // On 2-1-0 a player's points are their half-points on the 1-½-0 scale.
    let shown = leader["half_points"].as_i64().unwrap();
    assert!(
        shown % 2 == 1,
        "the leader has a half point on the 1-½-0 scale"
    );
    assert!(
        card.body.contains(&format!("<strong>{shown}</strong>")),
        "{}",
        card.body
    );
    // Whole points on the 2-1-0 scale are written without decimals.
    assert!(
        after["rows"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| !r["tiebreaks"][1].as_str().unwrap().contains('.'))
    );
}
