//! The OpenAPI document describes every API route and no other, and its committed snapshot
//! (tests/integration/snapshots/) changes only on purpose: `INSTA_UPDATE=always cargo test
//! -p damka --test integration openapi::` then review the diff.
#![allow(clippy::unwrap_used)]
use std::collections::BTreeSet;

use crate::common;

#[test]
fn openapi_document_matches_snapshot() {
    let doc = serde_json::to_value(damka::web::openapi::document()).unwrap();
    insta::assert_json_snapshot!("openapi", doc);
}

/// Every (METHOD, path) the API answers, read from its route table, as the OpenAPI document
/// names them. The document does not describe itself, so `/openapi.json` is left out.
fn routed_operations() -> BTreeSet<String> {
    damka::web::api::routes()
        .endpoints()
        .into_iter()
        .filter(|(_, path)| path != "/openapi.json")
        .map(|(method, path)| format!("{method} /api/v1{path}"))
        .collect()
}

/// Every (METHOD, path) the OpenAPI document describes.
fn documented_operations() -> BTreeSet<String> {
    let doc = serde_json::to_value(damka::web::openapi::document()).unwrap();
    let mut operations = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            if HTTP_METHODS.contains(&method.as_str()) {
                operations.insert(format!("{} {path}", method.to_uppercase()));
            }
        }
    }
    operations
}

/// The keys of an OpenAPI path item that are operations (the others are `parameters`,
/// `summary`, ...).
const HTTP_METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

#[test]
fn every_api_route_is_documented() {
    let (routed, documented) = (routed_operations(), documented_operations());
    let missing: Vec<_> = routed.difference(&documented).collect();
    assert!(
        missing.is_empty(),
        "routes missing from the OpenAPI document: {missing:?}"
    );
    // The table is read, not guessed: it has the routes rustfmt wraps over several lines.
    assert!(routed.contains("POST /api/v1/clubs/{id}/requests/{request_id}/decline"));
}

#[test]
fn the_openapi_document_describes_no_route_that_does_not_exist() {
    let (routed, documented) = (routed_operations(), documented_operations());
    assert!(!documented.is_empty());
    let unknown: Vec<_> = documented.difference(&routed).collect();
    assert!(
        unknown.is_empty(),
        "the OpenAPI document describes routes the API does not have: {unknown:?}"
    );
}

#[actix_web::test]
async fn the_document_is_served() {
    let app = common::TestApp::new().await;
    let res = app.client().get("/api/v1/openapi.json").await;
    assert_eq!(res.status.as_u16(), 200);
    let json = res.json();
    assert!(json["openapi"].as_str().unwrap().starts_with("3."));
    assert!(json["components"]["securitySchemes"]["token"].is_object());
}
