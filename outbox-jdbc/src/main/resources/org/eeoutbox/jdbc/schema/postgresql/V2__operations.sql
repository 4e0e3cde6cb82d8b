--liquibase formatted sql

--changeset eeoutbox:2
-- EE Outbox schema version 2 for PostgreSQL 12 or later: upgrades a version 1 table, rows kept.
-- Apply after V1__create_outbox.sql, by hand (psql -f), as a Flyway migration or as a Liquibase
-- formatted-SQL changeset; outbox.schema.create=true applies it at startup. One transaction: it
-- changes all or nothing. It adds what operators need (the operations API):
-- - status DISCARDED: an entry an operator gave up, kept for audit until its retention ends;
-- - last_attempt_at: when the entry's last delivery attempt ended (NULL before the first);
-- - outbox_attempt: the failed attempts of each entry (successes are not recorded), deleted with it;
-- - outbox_pause: the delivery types paused cluster-wide; publishing continues while paused.
-- It adds what per-key ordering needs:
-- - ordering_key, ordering_seq: the entry's key and its position in the key's commit order;
-- - outbox_key_sequence: the last sequence given out per key, locked by each publishing transaction;
-- and what lease mode needs (deliveries outside the database transaction):
-- - lease_owner, lease_token, lease_expires_at: who holds the entry's lease, the fencing token
--   incremented at every claim, and when the lease ends (database clock);
-- and what tracing and feeds need:
-- - trace_parent, trace_state: the W3C trace context of the publishing transaction (NULL without a
--   tracer), the parent of the delivery's span;
-- - outbox_feed_idx: the events of a feed channel (delivery type 'feed', the channel is the ordering
--   key) after a cursor, delivered ones included.
ALTER TABLE outbox DROP CONSTRAINT outbox_status_check;
-- NOT VALID, then VALIDATE: the check of the existing rows does not block writers.
ALTER TABLE outbox ADD CONSTRAINT outbox_status_check
    CHECK (status IN ('PENDING', 'DELIVERED', 'FAILED', 'DISCARDED')) NOT VALID;
ALTER TABLE outbox VALIDATE CONSTRAINT outbox_status_check;
ALTER TABLE outbox ADD COLUMN last_attempt_at timestamptz;
ALTER TABLE outbox ADD COLUMN ordering_key varchar(255);
ALTER TABLE outbox ADD COLUMN ordering_seq bigint;
ALTER TABLE outbox ADD CONSTRAINT outbox_ordering_check CHECK ((ordering_key IS NULL) = (ordering_seq IS NULL));
ALTER TABLE outbox ADD COLUMN lease_owner varchar(255);
-- A constant default: no rewrite of the existing rows.
ALTER TABLE outbox ADD COLUMN lease_token bigint NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN lease_expires_at timestamptz;
ALTER TABLE outbox ADD COLUMN trace_parent varchar(55);
ALTER TABLE outbox ADD COLUMN trace_state varchar(512);
-- The head of each key: its earliest entry that still blocks the key (pending, or failed under the
-- BLOCK policy). Partial, so delivered history never grows it.
CREATE INDEX outbox_ordering_idx ON outbox (ordering_key, ordering_seq) WHERE status IN ('PENDING', 'FAILED');
-- A feed channel's events after a cursor. Partial, so entries of other delivery types never grow it.
CREATE INDEX outbox_feed_idx ON outbox (ordering_key, ordering_seq) WHERE delivery_type = 'feed';
-- The purge of discarded entries, by the time they were discarded.
CREATE INDEX outbox_discarded_idx ON outbox (updated_at) WHERE status = 'DISCARDED';
CREATE TABLE outbox_attempt (
    entry_id     uuid        NOT NULL REFERENCES outbox (id) ON DELETE CASCADE,
    attempted_at timestamptz NOT NULL,
    attempt      integer     NOT NULL,
    outcome      varchar(16) NOT NULL,
    error        text,
    -- attempt alone is not unique: a replay starts the count again.
    PRIMARY KEY (entry_id, attempted_at, attempt),
    CONSTRAINT outbox_attempt_outcome_check CHECK (outcome IN ('RETRY', 'FAILED'))
);
CREATE TABLE outbox_pause (
    delivery_type varchar(64)  NOT NULL PRIMARY KEY,
    paused_at     timestamptz  NOT NULL,
    paused_by     varchar(255) NOT NULL
);
CREATE TABLE outbox_key_sequence (
    ordering_key varchar(255) NOT NULL PRIMARY KEY,
    last_seq     bigint       NOT NULL
);
COMMENT ON TABLE outbox IS 'eeoutbox schema 2';
