//! The one schema for both backends, written by hand. tests/integration/store_schema.rs
//! checks it against migrations/sqlite and, on the PostgreSQL run, migrations/postgres:
//! same tables, columns, types, nullability and primary keys.
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
        archived_at -> Nullable<Timestamp>,
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
        created_by -> Nullable<BigInt>,
        merged_into -> Nullable<BigInt>,
        name_folded -> Text,
        archived_at -> Nullable<Timestamp>,
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
    sign_in_attempts (id) {
        id -> BigInt,
        account -> Text,
        address -> Text,
        attempted_at -> Timestamp,
        succeeded -> Bool,
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

diesel::table! {
    events (id) {
        id -> BigInt,
        name -> Text,
        place -> Text,
        starts_on -> Nullable<Date>,
        ends_on -> Nullable<Date>,
        variant -> Text,
        local_rules -> Text,
        system -> Text,
        rounds -> Integer,
        time_control -> Text,
        draw_offer_min_moves -> Integer,
        rated -> Bool,
        scoring_display -> Text,
        pab_half_points -> Integer,
        tiebreaks -> Text,
        first_colour -> Text,
        status -> Text,
        self_registration -> Bool,
        late_entry_until_round -> Integer,
        organiser_id -> BigInt,
        club_id -> Nullable<BigInt>,
        created_at -> Timestamp,
        revision -> BigInt,
        clock -> Text,
        games_per_pairing -> Integer,
        match_scoring -> Text,
        opening_ballot -> Text,
        ballot_per -> Text,
        custom_openings -> Text,
        keizer -> Text,
        archived_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    event_arbiters (event_id, user_id) {
        event_id -> BigInt,
        user_id -> BigInt,
    }
}

diesel::table! {
    entries (id) {
        id -> BigInt,
        event_id -> BigInt,
        player_id -> BigInt,
        start_no -> Integer,
        rating -> Nullable<Integer>,
        first_round -> Integer,
        withdrawn_from_round -> Nullable<Integer>,
        created_at -> Timestamp,
    }
}

diesel::table! {
    entry_absences (entry_id, round) {
        entry_id -> BigInt,
        round -> Integer,
        kind -> Text,
    }
}

diesel::table! {
    forbidden_pairs (event_id, first_entry_id, second_entry_id) {
        event_id -> BigInt,
        first_entry_id -> BigInt,
        second_entry_id -> BigInt,
    }
}

diesel::table! {
    rounds (id) {
        id -> BigInt,
        event_id -> BigInt,
        number -> Integer,
        published -> Bool,
        paired_at -> Timestamp,
        published_at -> Nullable<Timestamp>,
        ballot_seed -> Nullable<BigInt>,
    }
}

diesel::table! {
    pairings (id) {
        id -> BigInt,
        round_id -> BigInt,
        board -> Integer,
        white_entry_id -> BigInt,
        black_entry_id -> Nullable<BigInt>,
        bye -> Nullable<Text>,
        result -> Nullable<Text>,
        opening_index -> Nullable<Integer>,
        opening_code -> Nullable<Text>,
        opening_moves -> Nullable<Text>,
        opening_start_fen -> Nullable<Text>,
        opening_fen -> Nullable<Text>,
    }
}

diesel::table! {
    pairing_games (pairing_id, game_no) {
        pairing_id -> BigInt,
        game_no -> Integer,
        result -> Nullable<Text>,
    }
}

diesel::table! {
    result_changes (id) {
        id -> BigInt,
        pairing_id -> BigInt,
        user_id -> BigInt,
        changed_at -> Timestamp,
        old_result -> Nullable<Text>,
        new_result -> Nullable<Text>,
        game_no -> Nullable<Integer>,
    }
}

diesel::table! {
    pairing_changes (id) {
        id -> BigInt,
        round_id -> BigInt,
        user_id -> BigInt,
        changed_at -> Timestamp,
        old_pairing -> Text,
        new_pairing -> Text,
        warnings -> Text,
    }
}

diesel::table! {
    club_join_requests (id) {
        id -> BigInt,
        club_id -> BigInt,
        player_id -> BigInt,
        requested_by -> BigInt,
        requested_at -> Timestamp,
        status -> Text,
        decided_by -> Nullable<BigInt>,
        decided_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    games (id) {
        id -> BigInt,
        variant -> Text,
        local_rules -> Text,
        start_fen -> Text,
        white_player_id -> BigInt,
        black_player_id -> BigInt,
        event_id -> Nullable<BigInt>,
        pairing_id -> Nullable<BigInt>,
        rated -> Bool,
        draw_offer_min_moves -> Integer,
        status -> Text,
        result -> Nullable<Text>,
        reason -> Nullable<Text>,
        ply -> Integer,
        draw_offer_by -> Nullable<Text>,
        draw_offer_ply -> Nullable<Integer>,
        draw_offer_pending -> Bool,
        revision -> BigInt,
        created_by -> BigInt,
        created_at -> Timestamp,
        finished_at -> Nullable<Timestamp>,
        clock -> Text,
        white_ms -> Nullable<BigInt>,
        black_ms -> Nullable<BigInt>,
        deadline -> Nullable<Timestamp>,
        game_no -> Integer,
        opening_plies -> Integer,
        draw_offer_declined -> Bool,
    }
}

diesel::table! {
    game_moves (game_id, ply) {
        game_id -> BigInt,
        ply -> Integer,
        notation -> Text,
        submitted_by -> Nullable<BigInt>,
        played_at -> Timestamp,
        clock_ms -> Nullable<BigInt>,
    }
}

diesel::table! {
    game_changes (id) {
        id -> BigInt,
        game_id -> BigInt,
        user_id -> BigInt,
        changed_at -> Timestamp,
        action -> Text,
        ply -> Nullable<Integer>,
        notation -> Nullable<Text>,
        old_result -> Nullable<Text>,
        new_result -> Nullable<Text>,
        reason -> Nullable<Text>,
    }
}

diesel::table! {
    ratings (player_id, variant, system) {
        player_id -> BigInt,
        variant -> Text,
        system -> Text,
        rating -> Nullable<Double>,
        deviation -> Nullable<Double>,
        volatility -> Nullable<Double>,
        games -> Integer,
        provisional -> Bool,
        last_played -> Nullable<Timestamp>,
        history_steps -> Integer,
        history_digest -> BigInt,
    }
}

diesel::table! {
    rating_changes (player_id, variant, system, seq) {
        player_id -> BigInt,
        variant -> Text,
        system -> Text,
        seq -> Integer,
        at -> Timestamp,
        rating_before -> Nullable<Double>,
        rating_after -> Nullable<Double>,
        deviation -> Nullable<Double>,
        volatility -> Nullable<Double>,
        games -> Integer,
        event_id -> Nullable<BigInt>,
        game_id -> Nullable<BigInt>,
        performance -> Nullable<Integer>,
        step_games -> Integer,
        step_half_points -> Integer,
        period_at -> Timestamp,
        elo_reached_2400 -> Bool,
        elo_unrated_opponents -> Nullable<BigInt>,
        elo_unrated_half_points -> Nullable<Integer>,
        digest -> BigInt,
    }
}

diesel::table! {
    glicko2_starts (player_id, variant) {
        player_id -> BigInt,
        variant -> Text,
        rating -> Double,
        deviation -> Double,
        volatility -> Double,
        games -> Integer,
    }
}

diesel::table! {
    rating_variants (variant) {
        variant -> Text,
        revision -> BigInt,
        stale_from -> Nullable<Timestamp>,
        stale_since -> Nullable<Timestamp>,
    }
}

diesel::table! {
    rated_results (variant, standalone, source_id, game_no) {
        variant -> Text,
        standalone -> Bool,
        source_id -> BigInt,
        game_no -> Integer,
        at -> Timestamp,
        event_id -> Nullable<BigInt>,
        game_id -> Nullable<BigInt>,
        white_id -> BigInt,
        black_id -> BigInt,
        white_half_points -> Integer,
    }
}

diesel::table! {
    rating_requests (id) {
        id -> BigInt,
        variant -> Text,
        from_at -> Timestamp,
        requested_at -> Timestamp,
    }
}

diesel::table! {
    player_claims (id) {
        id -> BigInt,
        player_id -> BigInt,
        user_id -> BigInt,
        status -> Text,
        created_at -> Timestamp,
        decided_by -> Nullable<BigInt>,
        decided_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    player_claim_links (id) {
        id -> BigInt,
        code_hash -> Text,
        player_id -> BigInt,
        created_by -> BigInt,
        created_at -> Timestamp,
        used_by -> Nullable<BigInt>,
        used_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    player_changes (id) {
        id -> BigInt,
        player_id -> BigInt,
        user_id -> BigInt,
        changed_at -> Timestamp,
        action -> Text,
        other_player_id -> Nullable<BigInt>,
        account_id -> Nullable<BigInt>,
    }
}

diesel::table! {
    site_changes (id) {
        id -> BigInt,
        changed_at -> Timestamp,
        user_id -> Nullable<BigInt>,
        subject -> Text,
        subject_id -> BigInt,
        subject_name -> Text,
        action -> Text,
    }
}

diesel::table! {
    event_invitations (id) {
        id -> BigInt,
        event_id -> BigInt,
        code_hash -> Text,
        label -> Text,
        created_by -> BigInt,
        created_at -> Timestamp,
        revoked_by -> Nullable<BigInt>,
        revoked_at -> Nullable<Timestamp>,
        uses -> Integer,
    }
}

diesel::table! {
    event_invitation_uses (id) {
        id -> BigInt,
        invitation_id -> BigInt,
        player_id -> BigInt,
        user_id -> BigInt,
        used_at -> Timestamp,
    }
}

diesel::joinable!(players -> clubs (club_id));
diesel::joinable!(site_changes -> users (user_id));
diesel::joinable!(player_ratings -> players (player_id));
diesel::joinable!(users -> players (player_id));
diesel::joinable!(club_members -> clubs (club_id));
diesel::joinable!(club_members -> users (user_id));
diesel::joinable!(sessions -> users (user_id));
diesel::joinable!(api_tokens -> users (user_id));
diesel::joinable!(events -> users (organiser_id));
diesel::joinable!(events -> clubs (club_id));
diesel::joinable!(event_arbiters -> events (event_id));
diesel::joinable!(event_arbiters -> users (user_id));
diesel::joinable!(entries -> events (event_id));
diesel::joinable!(entries -> players (player_id));
diesel::joinable!(entry_absences -> entries (entry_id));
diesel::joinable!(rounds -> events (event_id));
diesel::joinable!(pairings -> rounds (round_id));
diesel::joinable!(result_changes -> pairings (pairing_id));
diesel::joinable!(pairing_games -> pairings (pairing_id));
diesel::joinable!(result_changes -> users (user_id));
diesel::joinable!(pairing_changes -> rounds (round_id));
diesel::joinable!(pairing_changes -> users (user_id));
diesel::joinable!(club_join_requests -> clubs (club_id));
diesel::joinable!(club_join_requests -> players (player_id));
diesel::joinable!(club_join_requests -> users (requested_by));

diesel::joinable!(games -> events (event_id));
diesel::joinable!(games -> pairings (pairing_id));
diesel::joinable!(games -> users (created_by));
diesel::joinable!(game_moves -> games (game_id));
diesel::joinable!(game_changes -> games (game_id));
diesel::joinable!(game_changes -> users (user_id));
diesel::joinable!(ratings -> players (player_id));
diesel::joinable!(rating_changes -> players (player_id));
diesel::joinable!(glicko2_starts -> players (player_id));
diesel::joinable!(player_claims -> players (player_id));
diesel::joinable!(player_claims -> users (user_id));
diesel::joinable!(player_claim_links -> players (player_id));
diesel::joinable!(player_changes -> users (user_id));
diesel::joinable!(event_invitations -> events (event_id));
diesel::joinable!(event_invitation_uses -> event_invitations (invitation_id));
diesel::joinable!(event_invitation_uses -> players (player_id));

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
    sign_in_attempts,
    invitations,
    events,
    event_arbiters,
    entries,
    entry_absences,
    forbidden_pairs,
    rounds,
    pairings,
    pairing_games,
    result_changes,
    pairing_changes,
    club_join_requests,
    games,
    game_moves,
    game_changes,
    ratings,
    rating_changes,
    glicko2_starts,
    rating_variants,
    rated_results,
    rating_requests,
    player_claims,
    player_claim_links,
    player_changes,
    site_changes,
    event_invitations,
    event_invitation_uses,
);
