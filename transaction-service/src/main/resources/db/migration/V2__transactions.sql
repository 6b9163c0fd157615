-- Transactions and their payment requests (interface document, "Transaction"). Money is NUMERIC (exact).
create table transaction (
    id                    uuid          primary key,
    account_id            uuid          not null,
    merchant_id           uuid          not null,
    external_mid          varchar(255),
    descriptor            varchar(255),
    reference_number      varchar(255),
    quote_id              varchar(255),
    status                smallint      not null check (status in (0, 1, -1, -2, -3, -4)),
    payment_status        smallint      not null check (payment_status in (0, 1, 2, 3, 4)),
    currency              char(3)       not null,
    total_local           numeric       not null check (total_local > 0),
    total_usd             numeric       not null check (total_usd > 0),
    received_usd          numeric       not null default 0,
    customer_fee_usd      numeric       not null default 0,
    fx_rate_to_usd        numeric       not null check (fx_rate_to_usd > 0),
    fx_rate_source        varchar(16)   not null,
    requested_asset       varchar(10)   not null,
    requested_network     varchar(32)   not null,
    kyc_triggered         boolean       not null default false,
    travel_rule_triggered boolean       not null default false,
    required_fields       jsonb         not null default '[]'::jsonb,
    prefill               jsonb,
    kyc_details           jsonb,
    cancellation_reason   varchar(255),
    created_at            timestamptz   not null,
    updated_at            timestamptz   not null,
    expiration            timestamptz   not null
);
-- GET /transactions: an account's transactions, newest first, ties broken by id.
create index transaction_listing on transaction (account_id, created_at desc, id desc);
create index transaction_merchant on transaction (merchant_id, created_at desc);
create index transaction_reference on transaction (account_id, reference_number) where reference_number is not null;

create table payment_request (
    id                 uuid          primary key,
    transaction_id     uuid          not null references transaction (id),
    crypto_asset       varchar(10)   not null,
    crypto_network     varchar(32)   not null,
    address            varchar(128)  not null,
    xpub               varchar(255)  not null,
    derivation_index   bigint        not null,
    expected_crypto    numeric       not null check (expected_crypto > 0),
    received_crypto    numeric       not null default 0,
    expected_usd       numeric       not null,
    received_usd       numeric       not null default 0,
    crypto_fx_rate     numeric       not null check (crypto_fx_rate > 0),
    customer_fee_usd   numeric       not null default 0,
    tx_hash            varchar(128),
    confirmation_count integer       not null default 0,
    gas_fee            numeric,
    status             smallint      not null check (status in (0, 1, 2, 3, -1, -2)),
    qr_data            text          not null,
    wallet             varchar(255),
    expiration         timestamptz   not null,
    created_at         timestamptz   not null
);
create index payment_request_transaction on payment_request (transaction_id, created_at);
-- Payment detection finds a request by the address funds arrive at; an address is never handed out twice.
create unique index payment_request_address on payment_request (crypto_network, address);
create unique index payment_request_derivation on payment_request (xpub, derivation_index);

-- KYC documents of a transaction (front and rear), checked by content: PNG, JPEG or PDF, at most 10 MiB each.
create table kyc_document (
    id             uuid          primary key,
    transaction_id uuid          not null references transaction (id),
    side           varchar(5)    not null check (side in ('front', 'rear')),
    content_type   varchar(32)   not null,
    size_bytes     integer       not null,
    content        bytea         not null,
    created_at     timestamptz   not null default now()
);
create index kyc_document_transaction on kyc_document (transaction_id);

-- Customer records kept with storeKYC=true, one per e-mail address (lower case) within an account.
create table kyc_customer (
    account_id           uuid          not null,
    email                varchar(255)  not null,
    details              jsonb         not null,
    last_transaction_id  uuid          not null,
    created_at           timestamptz   not null default now(),
    updated_at           timestamptz   not null default now(),
    primary key (account_id, email)
);
