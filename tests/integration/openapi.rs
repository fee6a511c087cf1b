//! The OpenAPI document describes every API route, and its committed snapshot
//! (tests/snapshots/) changes only on purpose: `INSTA_UPDATE=always cargo test --test openapi`
//! then review the diff.
#![allow(clippy::unwrap_used)]
use crate::common;

#[test]
fn openapi_document_matches_snapshot() {
    let doc = serde_json::to_value(damka::web::openapi::document()).unwrap();
    insta::assert_json_snapshot!("openapi", doc);
}

#[test]
fn every_api_route_is_documented() {
    let doc = serde_json::to_value(damka::web::openapi::document()).unwrap();
    let source = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/backend/web/api/mod.rs"
    ))
    .unwrap();
    let mut missing = Vec::new();
    for line in source.lines() {
        let line = line.trim();
        let Some(rest) = line.strip_prefix(".route(\"") else {
            continue;
        };
        let path = &rest[..rest.find('"').unwrap()];
        if path == "/openapi.json" {
            continue;
        }
        let method = ["get", "post", "put", "delete"]
            .into_iter()
            .find(|m| line.contains(&format!("web::{m}()")))
            .unwrap();
        let full = format!("/api/v1{path}");
        if doc["paths"][&full][method].is_null() {
            missing.push(format!("{} {full}", method.to_uppercase()));
        }
    }
    assert!(
        missing.is_empty(),
        "routes missing from the OpenAPI document: {missing:?}"
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
