--liquibase formatted sql

--changeset eeoutbox:1
-- EE Outbox schema version 1 for MariaDB 10.11 or later (InnoDB); the same table as MySQL's.
-- Usable by hand (mariadb < file), as a Flyway migration (V1__create_outbox.sql) and as a Liquibase
-- formatted-SQL changelog. DATETIME(6) columns hold UTC instants whatever the session time zone; JSON is
-- MariaDB's alias of LONGTEXT with a JSON_VALID check.
CREATE TABLE outbox (
    id                BINARY(16)   NOT NULL,
    message_type      VARCHAR(255) NOT NULL,
    payload           LONGTEXT     NOT NULL,
    delivery_type     VARCHAR(64)  NOT NULL,
    delivery_metadata JSON         NOT NULL,
    deduplication_key VARCHAR(255) NULL,
    status            VARCHAR(16)  NOT NULL,
    attempts          INT          NOT NULL,
    next_attempt_at   DATETIME(6)  NOT NULL,
    created_at        DATETIME(6)  NOT NULL,
    updated_at        DATETIME(6)  NOT NULL,
    last_error        TEXT         NULL,
    delivered_at      DATETIME(6)  NULL,
    PRIMARY KEY (id),
    -- One entry per deduplication key; NULL keys never conflict.
    UNIQUE KEY outbox_deduplication_key_uq (deduplication_key),
    -- The claim: status equality, then the ORDER BY columns, so LIMIT stops early.
    KEY outbox_claim_idx (status, next_attempt_at, id),
    -- The purge (status = 'DELIVERED') and the failed gauge (status = 'FAILED').
    KEY outbox_purge_idx (status, delivered_at)
) ENGINE = InnoDB
  DEFAULT CHARSET = utf8mb4
  COLLATE = utf8mb4_bin
  COMMENT = 'eeoutbox schema 1';
