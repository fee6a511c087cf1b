DROP TABLE event_invitation_uses;
DROP TABLE event_invitations;
