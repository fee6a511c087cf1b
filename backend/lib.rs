//! The damka service: domain logic, storage, web.
pub mod domain;
