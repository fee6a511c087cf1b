DROP TABLE pairing_changes;
