//! backend/store/schema.rs is written by hand for both backends; this test runs the
//! migrations on a fresh database (SQLite, or PostgreSQL with `DAMKA_TEST_DATABASE=postgres`)
//! and checks that every table, column, column type, nullability and primary key the
//! database has is the one the `diesel::table!` definitions declare, and nothing more.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use std::collections::BTreeMap;

use damka::store::{self, DbConn, RetryPolicy};
use diesel::RunQueryDsl;
use diesel::sql_types::{Bool, Text};

use crate::common::TestDatabase;

/// A column as schema.rs declares it.
#[derive(Debug)]
pub(crate) struct DeclaredColumn {
    /// diesel's SQL type without `Nullable<...>`: `BigInt`, `Text`, ...
    sql_type: String,
    nullable: bool,
    primary_key: bool,
}

/// Table -> column -> declaration, read from the `diesel::table!` blocks of schema.rs. Any
/// line inside a block that is not a plain `name -> Type,` stops the test, so a construct
/// this reader does not know (`#[sql_name]`, doc comments) cannot slip past it unchecked.
pub(crate) fn declared_schema() -> BTreeMap<String, BTreeMap<String, DeclaredColumn>> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/backend/store/schema.rs");
    let source = std::fs::read_to_string(path).unwrap();
    let mut tables = BTreeMap::new();
    let mut lines = source.lines().map(str::trim);
    while let Some(line) = lines.next() {
        if line != "diesel::table! {" {
            continue;
        }
        let header = lines.next().unwrap();
        let (name, rest) = header
            .split_once(" (")
            .unwrap_or_else(|| panic!("unexpected table header in schema.rs: {header}"));
        let keys = rest
            .strip_suffix(") {")
            .unwrap_or_else(|| panic!("unexpected table header in schema.rs: {header}"));
        let keys: Vec<&str> = keys.split(',').map(str::trim).collect();
        let mut columns = BTreeMap::new();
        for line in lines.by_ref() {
            if line == "}" {
                break;
            }
            let (column, sql_type) = line
                .strip_suffix(',')
                .and_then(|line| line.split_once(" -> "))
                .unwrap_or_else(|| panic!("unexpected line in table {name} of schema.rs: {line}"));
            let (sql_type, nullable) = match sql_type
                .strip_prefix("Nullable<")
                .and_then(|inner| inner.strip_suffix('>'))
            {
                Some(inner) => (inner, true),
                None => (sql_type, false),
            };
            columns.insert(
                column.to_string(),
                DeclaredColumn {
                    sql_type: sql_type.to_string(),
                    nullable,
                    primary_key: keys.contains(&column),
                },
            );
        }
        assert_eq!(lines.next(), Some("}"), "table {name} of schema.rs");
        tables.insert(name.to_string(), columns);
    }
    assert!(!tables.is_empty(), "no diesel::table! found in {path}");
    tables
}

/// A column as the migrated database has it.
#[derive(diesel::QueryableByName, Debug)]
struct DatabaseColumn {
    #[diesel(sql_type = Text)]
    table_name: String,
    #[diesel(sql_type = Text)]
    column_name: String,
    #[diesel(sql_type = Text)]
    data_type: String,
    #[diesel(sql_type = Bool)]
    not_null: bool,
    #[diesel(sql_type = Bool)]
    primary_key: bool,
}

const SQLITE_COLUMNS: &str = r#"
    SELECT m.name AS table_name, c.name AS column_name, upper(c.type) AS data_type,
           c."notnull" <> 0 AS not_null, c.pk > 0 AS primary_key
    FROM sqlite_master AS m JOIN pragma_table_info(m.name) AS c
    WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\_%' ESCAPE '\'
      AND m.name <> '__diesel_schema_migrations'"#;

const POSTGRES_COLUMNS: &str = r#"
    SELECT c.table_name::text AS table_name, c.column_name::text AS column_name,
           c.data_type::text AS data_type, c.is_nullable = 'NO' AS not_null,
           EXISTS (
               SELECT 1
               FROM information_schema.table_constraints AS t
               JOIN information_schema.key_column_usage AS k
                 ON k.constraint_schema = t.constraint_schema
                AND k.constraint_name = t.constraint_name
               WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema
                 AND t.table_name = c.table_name AND k.column_name = c.column_name
           ) AS primary_key
    FROM information_schema.columns AS c
    WHERE c.table_schema = current_schema() AND c.table_name <> '__diesel_schema_migrations'"#;

/// The column types each backend's migrations must use for a diesel SQL type. On SQLite an
/// `INTEGER PRIMARY KEY` is the rowid (64 bits whatever the declared name), the one place
/// `BigInt` is declared `INTEGER`.
fn expected_type(conn: &DbConn, sql_type: &str, rowid: bool) -> &'static str {
    match (conn, sql_type) {
        (DbConn::Sqlite(_), "BigInt") if rowid => "INTEGER",
        (DbConn::Sqlite(_), "BigInt") => "BIGINT",
        (DbConn::Sqlite(_), "Integer") => "INTEGER",
        (DbConn::Sqlite(_), "Text") => "TEXT",
        (DbConn::Sqlite(_), "Bool") => "BOOLEAN",
        (DbConn::Sqlite(_), "Timestamp") => "TIMESTAMP",
        (DbConn::Sqlite(_), "Date") => "DATE",
        (DbConn::Sqlite(_), "Double") => "DOUBLE",
        (DbConn::Pg(_), "BigInt") => "bigint",
        (DbConn::Pg(_), "Integer") => "integer",
        (DbConn::Pg(_), "Text") => "text",
        (DbConn::Pg(_), "Bool") => "boolean",
        (DbConn::Pg(_), "Timestamp") => "timestamp without time zone",
        (DbConn::Pg(_), "Date") => "date",
        (DbConn::Pg(_), "Double") => "double precision",
        (_, other) => panic!("schema.rs uses {other}: add its column types to this test"),
    }
}

/// Every difference between schema.rs and the migrated database, in words.
fn differences(conn: &mut DbConn) -> Vec<String> {
    let rows: Vec<DatabaseColumn> = match conn {
        DbConn::Sqlite(c) => diesel::sql_query(SQLITE_COLUMNS).load(c).unwrap(),
        DbConn::Pg(c) => diesel::sql_query(POSTGRES_COLUMNS).load(c).unwrap(),
    };
    let mut database: BTreeMap<String, BTreeMap<String, DatabaseColumn>> = BTreeMap::new();
    for row in rows {
        database
            .entry(row.table_name.clone())
            .or_default()
            .insert(row.column_name.clone(), row);
    }
    let declared = declared_schema();
    let mut found = Vec::new();
    for table in database.keys().filter(|t| !declared.contains_key(*t)) {
        found.push(format!(
            "table {table} is in the migrations, not in schema.rs"
        ));
    }
    for (table, columns) in &declared {
        let Some(actual) = database.get(table) else {
            found.push(format!(
                "table {table} is in schema.rs, not in the migrations"
            ));
            continue;
        };
        for column in actual.keys().filter(|c| !columns.contains_key(*c)) {
            found.push(format!(
                "{table}.{column} is in the migrations, not in schema.rs"
            ));
        }
        // SQLite's rowid alias is never NULL even when not declared NOT NULL.
        let keys: Vec<&DatabaseColumn> = actual.values().filter(|c| c.primary_key).collect();
        let rowid = match (&*conn, keys.as_slice()) {
            (DbConn::Sqlite(_), [key]) if key.data_type == "INTEGER" => Some(&key.column_name),
            _ => None,
        };
        for (name, want) in columns {
            let Some(have) = actual.get(name) else {
                found.push(format!(
                    "{table}.{name} is in schema.rs, not in the migrations"
                ));
                continue;
            };
            let is_rowid = rowid == Some(name);
            let want_type = expected_type(conn, &want.sql_type, is_rowid);
            if have.data_type != want_type {
                found.push(format!(
                    "{table}.{name}: schema.rs says {}, so the migrations should declare {want_type}, not {}",
                    want.sql_type, have.data_type
                ));
            }
            let have_nullable = !(have.not_null || is_rowid);
            if have_nullable != want.nullable {
                found.push(format!(
                    "{table}.{name}: nullable in {} only",
                    if want.nullable {
                        "schema.rs"
                    } else {
                        "the migrations"
                    }
                ));
            }
            if have.primary_key != want.primary_key {
                found.push(format!(
                    "{table}.{name}: part of the primary key in {} only",
                    if want.primary_key {
                        "schema.rs"
                    } else {
                        "the migrations"
                    }
                ));
            }
        }
    }
    found
}

#[test]
fn schema_rs_matches_the_migrations() {
    let db = TestDatabase::new();
    let pool = store::open(
        &db.url,
        1,
        RetryPolicy {
            attempts: 1,
            delay: std::time::Duration::ZERO,
        },
    )
    .unwrap();
    let mut conn = pool.get().unwrap();
    let found = differences(&mut conn);
    assert!(
        found.is_empty(),
        "backend/store/schema.rs and the migrations differ:\n{}",
        found.join("\n")
    );
}
