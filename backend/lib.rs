//! The damka service: storage, use cases and web layer. Pure rules live in `damka-engine`
//! and pure tournament logic in `damka-domain`.
pub mod cli;
pub mod service;
pub mod store;
pub mod web;
