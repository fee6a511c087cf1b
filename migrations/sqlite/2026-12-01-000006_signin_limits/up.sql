-- Password checks (sign-in and the current password on a password change) are recorded
-- BEFORE the password is compared and counted afterwards, so that of many simultaneous
-- attempts at most the limit are ever compared. One row per attempt, counted per account
-- and per client address; a row stays a failure unless the password turned out right.
-- Replaces login_failures, which was written only after the comparison.
DROP TABLE login_failures;

CREATE TABLE sign_in_attempts (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    account TEXT NOT NULL,
    address TEXT NOT NULL,
    attempted_at TIMESTAMP NOT NULL,
    succeeded BOOLEAN NOT NULL DEFAULT 0
);
CREATE INDEX sign_in_attempts_account ON sign_in_attempts(account, attempted_at);
CREATE INDEX sign_in_attempts_address ON sign_in_attempts(address, attempted_at);
CREATE INDEX sign_in_attempts_at ON sign_in_attempts(attempted_at);
