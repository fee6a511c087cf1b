DROP TABLE sign_in_attempts;

CREATE TABLE login_failures (
    id BIGSERIAL PRIMARY KEY,
    subject TEXT NOT NULL,
    failed_at TIMESTAMP NOT NULL
);
CREATE INDEX login_failures_subject ON login_failures(subject, failed_at);
