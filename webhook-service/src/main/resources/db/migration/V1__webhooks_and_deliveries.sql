-- Webhook listeners of an account (interface document "Webhook"; docs/decisions.md §7).
-- signing_key is kept in full: it is the HMAC key of every delivery and the listing shows it (interface document).
-- A deleted webhook keeps its row (deleted_at) so its delivery log stays consistent; the API treats it as gone.
create table webhook (
    id          uuid          primary key,
    account_id  uuid          not null,
    name        varchar(255)  not null,
    url         varchar(2048) not null,
    status      smallint      not null check (status in (1, -1)),
    events      text[]        not null,
    signing_key varchar(64)   not null,
    created_at  timestamptz   not null,
    updated_at  timestamptz   not null,
    deleted_at  timestamptz
);
create index webhook_account on webhook (account_id, created_at desc) where deleted_at is null;

-- One event for one webhook: what a receiver sees as one message (its webhook-id is event_id).
-- payload is the exact body sent on every attempt. status: pending (waiting for its next attempt at
-- next_attempt_at), delivered, failed (schedule exhausted), cancelled (the webhook was disabled or deleted).
-- A dispatcher owns a pending row while lease_until is in the future; a crashed owner's lease simply expires.
-- retry_step counts the failures since the last (re)delivery request; generation grows with every redelivery
-- request so that an attempt started before it cannot overwrite it.
create table delivery (
    id              uuid         primary key,
    webhook_id      uuid         not null references webhook (id),
    account_id      uuid         not null,
    event_id        varchar(255) not null,
    event_type      varchar(255) not null,
    payload         text         not null,
    status          varchar(16)  not null check (status in ('pending', 'delivered', 'failed', 'cancelled')),
    attempts        integer      not null default 0,
    retry_step      integer      not null default 0,
    generation      integer      not null default 0,
    next_attempt_at timestamptz,
    lease_until     timestamptz,
    created_at      timestamptz  not null default now(),
    updated_at      timestamptz  not null default now(),
    constraint delivery_once_per_webhook unique (webhook_id, event_id)
);
create index delivery_due on delivery (next_attempt_at) where status = 'pending';

-- Every HTTP attempt, successful or not (docs/decisions.md §7: "every attempt is recorded").
create table delivery_attempt (
    id           uuid         primary key,
    delivery_id  uuid         not null references delivery (id),
    webhook_id   uuid         not null,
    attempt      integer      not null,
    attempted_at timestamptz  not null,
    http_status  integer,
    error        varchar(255),
    duration_ms  integer      not null,
    succeeded    boolean      not null
);
create index delivery_attempt_listing on delivery_attempt (webhook_id, attempted_at desc, id desc);

-- Idempotency-Key of webhook creation (docs/decisions.md §6): the first answer, replayed for 24 hours.
-- response_status is null while the first request is still being handled.
create table idempotency_record (
    account_id      uuid         not null,
    idempotency_key varchar(255) not null,
    request_hash    char(64)     not null,
    response_status integer,
    response_body   text,
    created_at      timestamptz  not null default now(),
    primary key (account_id, idempotency_key)
);
