-- The gateway's view of merchants (to resolve X-MID and sub-merchant keys), fed from payments.merchants.v1.
-- Rows filled by a synchronous lookup carry version 0, so the next event always replaces them.
create table gateway_merchant (
    merchant_id  uuid        primary key,
    account_id   uuid        not null,
    external_mid varchar(64),
    status       smallint    not null,
    version      bigint      not null,
    updated_at   timestamptz not null default now()
);
create index gateway_merchant_external on gateway_merchant (account_id, external_mid);

-- Idempotency-Key records (docs/decisions.md §6): one per (scope, key) for 24 hours. While the first request is in
-- flight response_status is null; afterwards the stored answer is replayed to every retry with the same body.
create table idempotency_record (
    scope            varchar(64)  not null,
    idempotency_key  varchar(255) not null,
    request_hash     char(64)     not null,
    response_status  integer,
    response_type    varchar(255),
    response_body    bytea,
    created_at       timestamptz  not null default now(),
    expires_at       timestamptz  not null,
    primary key (scope, idempotency_key)
);
create index idempotency_record_expiry on idempotency_record (expires_at);
