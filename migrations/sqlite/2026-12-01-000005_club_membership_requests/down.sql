DROP TABLE club_join_requests;
