-- Invitation links to an event (issue 27): the organiser hands out a link, and whoever
-- opens it (signed in, with a profile) enters themselves even while the event's open
-- self-registration is off. A link is for a group: it may be used again until it is
-- revoked or the event is finished. Only the hash of the code is stored, as for the
-- site's invitations and the one-time links to profiles.
CREATE TABLE event_invitations (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    event_id BIGINT NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    code_hash TEXT NOT NULL UNIQUE,
    -- The organiser's note ("club night group"); may be empty.
    label TEXT NOT NULL,
    created_by BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL,
    revoked_by BIGINT REFERENCES users(id) ON DELETE SET NULL,
    revoked_at TIMESTAMP,
    -- How many players joined through the link (the rows of event_invitation_uses).
    uses INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX event_invitations_event ON event_invitations(event_id);

-- Who joined through which link and when: the organiser's audit of the links.
CREATE TABLE event_invitation_uses (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    invitation_id BIGINT NOT NULL REFERENCES event_invitations(id) ON DELETE CASCADE,
    player_id BIGINT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    used_at TIMESTAMP NOT NULL
);
CREATE INDEX event_invitation_uses_invitation ON event_invitation_uses(invitation_id);
