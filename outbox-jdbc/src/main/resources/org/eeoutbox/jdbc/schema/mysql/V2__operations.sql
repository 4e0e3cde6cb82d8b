--liquibase formatted sql

--changeset eeoutbox:2
-- EE Outbox schema version 2 for MySQL 8.0 or later (InnoDB): upgrades a version 1 table, rows kept.
-- Apply after V1__create_outbox.sql, by hand (mysql < file), as a Flyway migration or as a
-- Liquibase formatted-SQL changeset; outbox.schema.create=true applies it at startup. MySQL
-- commits each DDL statement by itself: the tables come first (rerunnable), the ALTER of outbox,
-- which also sets the new version marker, last and in one statement. It adds what operators need
-- (the operations API):
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
-- - a feed channel's events (delivery type 'feed', the channel is the ordering key) after a cursor
--   are read through outbox_ordering_idx (ordering_key, status, ordering_seq): no index of their own.
CREATE TABLE IF NOT EXISTS outbox_attempt (
    entry_id     BINARY(16)  NOT NULL,
    attempted_at DATETIME(6) NOT NULL,
    attempt      INT         NOT NULL,
    outcome      VARCHAR(16) NOT NULL,
    error        TEXT        NULL,
    -- attempt alone is not unique: a replay starts the count again.
    PRIMARY KEY (entry_id, attempted_at, attempt),
    CONSTRAINT outbox_attempt_entry_fk FOREIGN KEY (entry_id) REFERENCES outbox (id) ON DELETE CASCADE
) ENGINE = InnoDB
  DEFAULT CHARSET = utf8mb4
  COLLATE = utf8mb4_bin;
CREATE TABLE IF NOT EXISTS outbox_pause (
    delivery_type VARCHAR(64)  NOT NULL,
    paused_at     DATETIME(6)  NOT NULL,
    paused_by     VARCHAR(255) NOT NULL,
    PRIMARY KEY (delivery_type)
) ENGINE = InnoDB
  DEFAULT CHARSET = utf8mb4
  COLLATE = utf8mb4_bin;
CREATE TABLE IF NOT EXISTS outbox_key_sequence (
    ordering_key VARCHAR(255) NOT NULL,
    last_seq     BIGINT       NOT NULL,
    PRIMARY KEY (ordering_key)
) ENGINE = InnoDB
  DEFAULT CHARSET = utf8mb4
  COLLATE = utf8mb4_bin;
-- status is a VARCHAR(16) without a check: DISCARDED needs no change to it.
-- outbox_status_updated_idx: the purge of discarded entries and the lists of failed ones, by the
-- time of their last change. outbox_ordering_idx: the head of each key, its earliest entry that
-- still blocks the key (pending, or failed under the BLOCK policy).
ALTER TABLE outbox
    ADD COLUMN last_attempt_at DATETIME(6) NULL,
    ADD COLUMN ordering_key VARCHAR(255) NULL,
    ADD COLUMN ordering_seq BIGINT NULL,
    ADD COLUMN lease_owner VARCHAR(255) NULL,
    ADD COLUMN lease_token BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN lease_expires_at DATETIME(6) NULL,
    ADD COLUMN trace_parent VARCHAR(55) NULL,
    ADD COLUMN trace_state VARCHAR(512) NULL,
    ADD KEY outbox_status_updated_idx (status, updated_at),
    ADD KEY outbox_ordering_idx (ordering_key, status, ordering_seq),
    COMMENT = 'eeoutbox schema 2';
