--liquibase formatted sql

--changeset eeoutbox:1
-- EE Outbox schema version 1 for PostgreSQL 12 or later.
-- Usable by hand (psql -f), as a Flyway migration (V1__create_outbox.sql) and as a Liquibase
-- formatted-SQL changelog. All times are UTC instants (timestamptz).
CREATE TABLE outbox (
    id                uuid         NOT NULL PRIMARY KEY,
    message_type      varchar(255) NOT NULL,
    payload           text         NOT NULL,
    delivery_type     varchar(64)  NOT NULL,
    delivery_metadata json         NOT NULL,
    deduplication_key varchar(255),
    status            varchar(16)  NOT NULL,
    attempts          integer      NOT NULL,
    next_attempt_at   timestamptz  NOT NULL,
    created_at        timestamptz  NOT NULL,
    updated_at        timestamptz  NOT NULL,
    last_error        text,
    delivered_at      timestamptz,
    CONSTRAINT outbox_status_check CHECK (status IN ('PENDING', 'DELIVERED', 'FAILED'))
);
-- One entry per deduplication key; NULL keys never conflict.
CREATE UNIQUE INDEX outbox_deduplication_key_uq ON outbox (deduplication_key);
-- The claim: WHERE status = 'PENDING' AND next_attempt_at <= ? ORDER BY next_attempt_at, id.
-- Partial, so delivered history never slows it down.
CREATE INDEX outbox_claim_idx ON outbox (next_attempt_at, id) WHERE status = 'PENDING';
-- The purge: delivered entries by delivery time.
CREATE INDEX outbox_purge_idx ON outbox (delivered_at) WHERE status = 'DELIVERED';
-- Failed entries, for the gauge and for operators.
CREATE INDEX outbox_failed_idx ON outbox (updated_at) WHERE status = 'FAILED';
-- Vacuum after a fixed number of changed rows rather than a share of the table: every delivery
-- leaves a dead entry at the front of outbox_claim_idx, which each claim walks over until VACUUM
-- removes it, and the default (20 % of a table that holds days of delivered history) lets
-- hundreds of thousands pile up. 10,000 rows is 100 batches of the default size; autovacuum
-- checks at most once per autovacuum_naptime (1 minute by default).
ALTER TABLE outbox SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 10000);
-- The schema version, read by the library at startup.
COMMENT ON TABLE outbox IS 'eeoutbox schema 1';
