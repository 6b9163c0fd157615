-- The reporting store: denormalised rows built only from the event stream (payments.transactions.v1,
-- payments.refunds.v1, payments.merchants.v1). Runs inside one store schema (store_N); no table names a schema.
-- Money and crypto amounts are unconstrained NUMERIC: exact, and wide enough for 18-decimal tokens far above
-- 2^64 base units. No floating point anywhere.

-- Every event applied, once: the inbox (idempotent on the event id) and, for versioned aggregates, the record of
-- which versions arrived (unique per aggregate and version), from which gaps are listed.
create table event_log (
    event_id     varchar(255) primary key,
    topic        varchar(40)  not null,
    aggregate_id varchar(64)  not null,
    version      bigint,
    type         varchar(64)  not null,
    event_time   timestamptz
);
create unique index event_log_version on event_log (topic, aggregate_id, version);

-- One row per transaction: its newest state (highest version) and the fee terms of its success event.
create table transaction_row (
    transaction_id        uuid         primary key,
    account_id            uuid         not null,
    merchant_id           uuid         not null,
    external_mid          varchar(255),
    descriptor            varchar(255),
    reference_number      varchar(255),
    quote_id              varchar(255),
    status                smallint     not null,
    payment_status        smallint     not null,
    currency              varchar(3),
    total_local           numeric,
    total_usd             numeric,
    received_usd          numeric,
    customer_fee_usd      numeric,
    fx_rate_to_usd        numeric,
    remaining_local       numeric,
    remaining_usd         numeric,
    kyc_triggered         boolean      not null default false,
    travel_rule_triggered boolean      not null default false,
    held_for_review       boolean,
    cancellation_reason   text,
    expiration            timestamptz,
    source_created_at     timestamptz  not null,
    source_updated_at     timestamptz  not null,
    -- order of states: version (1, 2, ... per transaction; 0 when an event carries none) then source_updated_at
    version               bigint       not null,
    -- distinct versions received; fewer than version means a gap
    versions_seen         bigint       not null,
    -- the earliest updatedAt of a successful (status 1) state: when the transaction succeeded
    success_at            timestamptz,
    -- fee terms carried by the success event (merchantFees), and the fees they give on received_usd
    mdr_percentage        numeric,
    mdr_flat_rate         numeric,
    mdr_flat_currency     varchar(3),
    platform_collection   varchar(20),
    platform_bps          numeric,
    platform_flat_cents   numeric,
    fee_mdr_usd           numeric      not null default 0,
    fee_platform_usd      numeric      not null default 0,
    fees_deducted_usd     numeric      not null default 0,
    merchant_fees         jsonb
);
-- Listing: newest first within an account, unfiltered or by one filter, stable for ties.
create index transaction_row_account on transaction_row (account_id, source_created_at desc, transaction_id desc);
create index transaction_row_merchant on transaction_row (account_id, merchant_id, source_created_at desc, transaction_id desc);
create index transaction_row_status on transaction_row (account_id, status, source_created_at desc, transaction_id desc);
create index transaction_row_payment_status on transaction_row (account_id, payment_status, source_created_at desc, transaction_id desc);
create index transaction_row_reference on transaction_row (account_id, reference_number);
-- Figures: successful transactions by the time they succeeded.
create index transaction_row_success on transaction_row (account_id, success_at) where status = 1;
-- Gaps (a metric and the reconciliation listing).
create index transaction_row_gaps on transaction_row (transaction_id) where versions_seen < version;

-- One row per payment request, as the newest transaction state shows it.
create table payment_row (
    payment_request_id    uuid         primary key,
    transaction_id        uuid         not null,
    account_id            uuid         not null,
    position              int          not null,
    crypto_asset          varchar(20),
    crypto_network        varchar(40),
    address               varchar(255),
    from_address          varchar(255),
    expected_crypto       numeric,
    received_crypto       numeric,
    expected_usd          numeric,
    received_usd          numeric,
    txn_hash              varchar(255),
    confirmation_count    int,
    gas_fee               numeric,
    gas_fee_units         varchar(20),
    status                smallint,
    fraud_pass            boolean,
    wallet_name           varchar(255),
    crypto_rate_per_usd   numeric,
    completed_at          timestamptz,
    expiration            timestamptz,
    created_at            timestamptz,
    source_updated_at     timestamptz  not null,
    tx_version            bigint       not null
);
create index payment_row_transaction on payment_row (transaction_id, position);

-- One row per refund leg (payments.refunds.v1), newest version.
create table refund_row (
    refund_id             uuid         primary key,
    transaction_id        uuid,
    account_id            uuid         not null,
    merchant_id           uuid,
    payment_request_id    uuid,
    crypto_asset          varchar(20),
    crypto_network        varchar(40),
    crypto_amount         numeric,
    fiat_amount           numeric,
    fiat_currency         varchar(3),
    amount_usd            numeric,
    gas_fee               numeric,
    gas_fee_payer         varchar(20),
    receiver_address      varchar(255),
    status                smallint     not null,
    reason                text,
    txn_hash              varchar(255),
    source_created_at     timestamptz,
    source_updated_at     timestamptz  not null,
    completed_at          timestamptz,
    version               bigint       not null,
    versions_seen         bigint       not null
);
create index refund_row_transaction on refund_row (transaction_id);
create index refund_row_completed on refund_row (account_id, completed_at) where status = 1;
create index refund_row_gaps on refund_row (refund_id) where versions_seen < version;

-- One row per merchant: the account's settlement schedule travels on every merchant's event.
create table merchant_row (
    merchant_id           uuid         primary key,
    account_id            uuid         not null,
    external_mid          varchar(255),
    settlement_frequency  varchar(20),
    settlement_anchor     timestamptz,
    version               bigint       not null,
    source_updated_at     timestamptz
);
create index merchant_row_account on merchant_row (account_id, source_updated_at desc);
