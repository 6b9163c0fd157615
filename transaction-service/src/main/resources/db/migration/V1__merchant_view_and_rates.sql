-- transaction-service's own copy of each merchant's effective configuration, fed by payments.merchants.v1
-- (MerchantViewConsumer). Only the newest version of a merchant is kept.
create table merchant_view (
    merchant_id  uuid         primary key,
    account_id   uuid         not null,
    external_mid varchar(255),
    status       smallint     not null,
    version      bigint       not null,
    config       jsonb        not null,
    updated_at   timestamptz  not null default now()
);
-- X-MID and sub-merchant keys may name a merchant by its externalMID within the caller's account.
create index merchant_view_external_mid on merchant_view (account_id, external_mid) where external_mid is not null;

-- Exchange rates in USD: fiat = USD per one unit of the currency (fxRateToUSD), crypto = USD per one unit of
-- the asset (cryptoFXRate). The sandbox rate provider reads this table; the operator sets it (PUT /operator/rates).
create table exchange_rate (
    code       varchar(10)  primary key,
    kind       varchar(6)   not null check (kind in ('fiat', 'crypto')),
    usd        numeric      not null check (usd > 0),
    as_of      timestamptz  not null,
    updated_at timestamptz  not null default now()
);

-- Seed: indicative rates stamped with the time of seeding. The sandbox's maximum rate age is generous
-- (cryptopay.transaction.rates.sandbox-max-age); the operator refreshes them with PUT /operator/rates.
insert into exchange_rate (code, kind, usd, as_of) values
    ('USD', 'fiat', 1, now()),
    ('EUR', 'fiat', 1.08, now()),
    ('GBP', 'fiat', 1.27, now()),
    ('CAD', 'fiat', 0.73, now()),
    ('AUD', 'fiat', 0.66, now()),
    ('JPY', 'fiat', 0.0067, now()),
    ('CHF', 'fiat', 1.13, now()),
    ('SGD', 'fiat', 0.75, now()),
    ('NZD', 'fiat', 0.60, now()),
    ('SEK', 'fiat', 0.095, now()),
    ('NOK', 'fiat', 0.093, now()),
    ('DKK', 'fiat', 0.145, now()),
    ('HKD', 'fiat', 0.128, now()),
    ('MXN', 'fiat', 0.058, now()),
    ('BRL', 'fiat', 0.20, now()),
    ('INR', 'fiat', 0.012, now()),
    ('BTC', 'crypto', 65000, now()),
    ('ETH', 'crypto', 3200, now()),
    ('USDC', 'crypto', 1, now()),
    ('USDT', 'crypto', 1, now());

-- One counter per extended public key: the next child index of its receive chain (…/0/index). An index is
-- handed out by one atomic upsert and never reused, however many requests run at once.
create table address_cursor (
    xpub       varchar(255) primary key,
    next_index bigint       not null check (next_index >= 0)
);
