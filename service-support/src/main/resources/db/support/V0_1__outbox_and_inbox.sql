-- Shared by every service (Flyway location classpath:db/support, versions below the service's own V1).

-- Transactional outbox: a state change and its event commit in one database transaction;
-- OutboxRelay publishes rows to Kafka afterwards, in seq order, and stamps published_at.
create table outbox_event (
    seq          bigserial    primary key,
    id           uuid         not null unique,
    topic        varchar(255) not null,
    message_key  varchar(255) not null,
    event_type   varchar(255) not null,
    payload      text         not null,
    created_at   timestamptz  not null default now(),
    published_at timestamptz
);
create index outbox_event_pending on outbox_event (seq) where published_at is null;

-- Idempotent consumer: one row per (consumer, event id) applied; a redelivered event finds its row and is skipped.
create table processed_event (
    consumer     varchar(100) not null,
    event_id     varchar(255) not null,
    processed_at timestamptz  not null default now(),
    primary key (consumer, event_id)
);
