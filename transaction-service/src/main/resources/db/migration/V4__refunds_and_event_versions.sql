-- Refunds (issue 15) and the event stream's needs (docs/decisions.md §7, §8): a version per transaction that grows by one
-- with every event, the fee schedule in force at success, and per payment request what reporting reads.

alter table transaction add column version bigint not null default 0;
-- The merchant's discount rate and fee schedule when the transaction succeeded (JSON of the merchant event's shapes).
alter table transaction add column merchant_fees jsonb;
-- When confirmed funds first covered the amount (the refund window counts from here).
alter table transaction add column succeeded_at timestamptz;

-- When the request reached confirmed or underpaid (its transfers' last confirmation).
alter table payment_request add column completed_at timestamptz;
alter table payment_request add column wallet_name varchar(255);
-- Payer screening's verdict; null until screened (compliance issue).
alter table payment_request add column fraud_pass boolean;

-- One refund leg: crypto going back from the platform's treasury to the payer of one payment request.
create table refund (
    id                     uuid          primary key,
    transaction_id         uuid          not null references transaction (id),
    payment_request_id     uuid          not null references payment_request (id),
    account_id             uuid          not null,
    merchant_id            uuid          not null,
    crypto_asset           varchar(10)   not null,
    crypto_network         varchar(32)   not null,
    -- What the leg takes from the request's received crypto (the cap counts this) ...
    gross_crypto           numeric       not null check (gross_crypto > 0),
    -- ... and what the payer receives: gross less the gas fee when the customer bears it.
    crypto_amount          numeric       not null check (crypto_amount > 0),
    fiat_amount            numeric       not null check (fiat_amount >= 0),
    fiat_currency          varchar(3)    not null,
    amount_usd             numeric       not null,
    -- USD per unit of the asset the leg was converted at (current rate, or the locked one for a cancel).
    crypto_rate            numeric       not null check (crypto_rate > 0),
    gas_fee                numeric       not null check (gas_fee >= 0),
    gas_fee_payer          varchar(10)   not null check (gas_fee_payer in ('merchant', 'customer')),
    receiver_address       varchar(128)  not null,
    status                 int           not null check (status in (0, 2, 1, -1)),
    reason                 varchar(255),
    origin                 varchar(16)   not null,
    txn_hash               varchar(80),
    block_number           bigint,
    confirmations          int           not null default 0,
    required_confirmations int           not null,
    failure_reason         varchar(255),
    version                bigint        not null default 0,
    created_at             timestamptz   not null,
    updated_at             timestamptz   not null,
    broadcast_at           timestamptz,
    completed_at           timestamptz
);
create index refund_of_transaction on refund (transaction_id, created_at, id);
create index refund_of_request on refund (payment_request_id);
-- The payout job's work list: pending legs to send, broadcast ones to confirm.
create index refund_open on refund (status, created_at) where status in (0, 2);
