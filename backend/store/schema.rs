//! The one schema for both backends (kept in step with migrations/sqlite and
//! migrations/postgres by the migration test in tests/).
diesel::table! {
    site_settings (key) {
        key -> Text,
        value -> Text,
    }
}

diesel::table! {
    write_lock (id) {
        id -> BigInt,
        counter -> BigInt,
    }
}

diesel::table! {
    clubs (id) {
        id -> BigInt,
        name -> Text,
        city -> Text,
        country -> Text,
        description -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    players (id) {
        id -> BigInt,
        name -> Text,
        club_id -> Nullable<BigInt>,
        country -> Text,
        federation_id -> Text,
        birth_year -> Nullable<Integer>,
        title -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    player_ratings (player_id, variant) {
        player_id -> BigInt,
        variant -> Text,
        rating -> Integer,
        games -> Integer,
    }
}

diesel::table! {
    users (id) {
        id -> BigInt,
        email -> Text,
        display_name -> Text,
        password_hash -> Text,
        is_admin -> Bool,
        is_organiser -> Bool,
        locale -> Nullable<Text>,
        player_id -> Nullable<BigInt>,
        created_at -> Timestamp,
    }
}

diesel::table! {
    club_members (club_id, user_id) {
        club_id -> BigInt,
        user_id -> BigInt,
        role -> Text,
    }
}

diesel::table! {
    sessions (id) {
        id -> BigInt,
        token_hash -> Text,
        user_id -> BigInt,
        created_at -> Timestamp,
        expires_at -> Timestamp,
    }
}

diesel::table! {
    api_tokens (id) {
        id -> BigInt,
        user_id -> BigInt,
        name -> Text,
        token_hash -> Text,
        prefix -> Text,
        created_at -> Timestamp,
        last_used_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    login_failures (id) {
        id -> BigInt,
        subject -> Text,
        failed_at -> Timestamp,
    }
}

diesel::table! {
    invitations (id) {
        id -> BigInt,
        code_hash -> Text,
        email -> Text,
        created_by -> BigInt,
        created_at -> Timestamp,
        used_by -> Nullable<BigInt>,
        used_at -> Nullable<Timestamp>,
    }
}

diesel::joinable!(players -> clubs (club_id));
diesel::joinable!(player_ratings -> players (player_id));
diesel::joinable!(users -> players (player_id));
diesel::joinable!(club_members -> clubs (club_id));
diesel::joinable!(club_members -> users (user_id));
diesel::joinable!(sessions -> users (user_id));
diesel::joinable!(api_tokens -> users (user_id));

diesel::allow_tables_to_appear_in_same_query!(
    site_settings,
    write_lock,
    clubs,
    players,
    player_ratings,
    users,
    club_members,
    sessions,
    api_tokens,
    login_failures,
    invitations,
);
