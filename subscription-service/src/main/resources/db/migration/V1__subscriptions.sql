-- subscription-service: plans, subscriptions, their history, subscription payments and their attempts, the merchant
-- view and the e-mail queue. Money is NUMERIC (exact), every time timestamptz in UTC.

-- This service's copy of each merchant's effective configuration (payments.merchants.v1, MerchantViewConsumer):
-- accepted assets and networks, status, the account's e-mail and its two subscription e-mail switches.
create table merchant_view (
    merchant_id  uuid         primary key,
    account_id   uuid         not null,
    status       smallint     not null,
    version      bigint       not null,
    config       jsonb        not null,
    updated_at   timestamptz  not null default now()
);
create index merchant_view_account on merchant_view (account_id);

create table plan (
    id               uuid          primary key,
    account_id       uuid          not null,
    merchant_id      uuid,
    plan_name        varchar(255),
    description      varchar(255),
    billing_interval varchar(10)   not null check (billing_interval in ('MONTHLY', 'YEARLY')),
    amount           numeric       not null check (amount > 0),
    currency         varchar(3)    not null,
    created_at       timestamptz   not null
);
create index plan_listing on plan (account_id, created_at desc, id desc);

-- next_period: index of the next billing period (0 = the first, billed at creation); its date is the billing
-- calendar's date for that index counted from anchor_at (BillingCalendar). open_payment_id: the payment of the
-- period being billed; while it is set the subscription is not billed again.
create table subscription (
    id               uuid          primary key,
    account_id       uuid          not null,
    merchant_id      uuid          not null,
    plan_id          uuid          not null references plan (id),
    plan_name        varchar(255),
    customer_email   varchar(255)  not null,
    wallet_address   varchar(255)  not null,
    asset            varchar(20)   not null,
    network          varchar(40)   not null,
    status           varchar(20)   not null
        check (status in ('CREATED', 'ACTIVE', 'PAUSED', 'PAYMENT_FAILED', 'CANCELED')),
    billing_interval varchar(10)   not null check (billing_interval in ('MONTHLY', 'YEARLY')),
    amount           numeric       not null check (amount > 0),
    currency         varchar(3)    not null,
    anchor_at        timestamptz   not null,
    next_period      integer       not null default 0,
    ever_paid        boolean       not null default false,
    last_billing_at  timestamptz,
    next_billing_at  timestamptz,
    open_payment_id  uuid,
    created_at       timestamptz   not null,
    updated_at       timestamptz   not null
);
create index subscription_listing on subscription (account_id, created_at desc, id desc);
create index subscription_due on subscription (next_billing_at)
    where status in ('CREATED', 'ACTIVE') and open_payment_id is null;

-- The history of GET /subscriptions/{id}/events (newest first: id desc).
create table subscription_event (
    id              bigserial     primary key,
    subscription_id uuid          not null references subscription (id),
    type            varchar(20)   not null,
    reason          varchar(255),
    created_at      timestamptz   not null
);
create index subscription_event_listing on subscription_event (subscription_id, id desc);

-- One payment per billed period: the unique key makes billing a period twice impossible, whatever runs at once.
-- amount_paid: what finished attempts received (in the plan's currency); next_attempt_at: when the billing job opens
-- the next attempt (null while one is open or when none is due); failed_attempts counts the dunning steps used.
create table subscription_payment (
    id               uuid          primary key,
    subscription_id  uuid          not null references subscription (id),
    plan_id          uuid          not null,
    account_id       uuid          not null,
    merchant_id      uuid          not null,
    period           integer       not null,
    billing_date     timestamptz   not null,
    item_id          uuid          not null,
    total            numeric       not null check (total > 0),
    currency         varchar(3)    not null,
    amount_paid      numeric       not null default 0,
    status           varchar(20)   not null check (status in ('PAID', 'PENDING', 'PARTIALLY_PAID', 'FAILED')),
    failed_attempts  integer       not null default 0,
    next_attempt_at  timestamptz,
    open_attempt_id  uuid,
    created_at       timestamptz   not null,
    updated_at       timestamptz   not null,
    unique (subscription_id, period)
);
create index subscription_payment_listing on subscription_payment (account_id, created_at desc, id desc);
create index subscription_payment_due on subscription_payment (next_attempt_at) where next_attempt_at is not null;

-- One billing transaction in transaction-service: its id IS the transaction's id (billing.transaction_requested).
create table payment_attempt (
    id               uuid          primary key,
    payment_id       uuid          not null references subscription_payment (id),
    result           varchar(20)   not null
        check (result in ('REQUESTED', 'PENDING', 'CONFIRMING', 'PARTIALLY_PAID', 'PAID', 'FAILED')),
    network          varchar(40)   not null,
    asset            varchar(20)   not null,
    address          varchar(255),
    txn_hash         varchar(255),
    amount           numeric,
    requested_amount numeric       not null,
    started_at       timestamptz   not null,
    completed_at     timestamptz,
    failure_reason   varchar(500),
    tx_version       bigint        not null default 0
);
create index payment_attempt_payment on payment_attempt (payment_id, started_at);
create index payment_attempt_requested on payment_attempt (started_at) where result = 'REQUESTED';

-- E-mails wait here, written in the transaction that decided to send them; MailSender delivers them afterwards.
create table notification (
    id            uuid          primary key,
    recipient     varchar(255)  not null,
    subject       varchar(255)  not null,
    body          text          not null,
    kind          varchar(40)   not null,
    created_at    timestamptz   not null,
    sent_at       timestamptz,
    attempts      integer       not null default 0,
    next_try_at   timestamptz   not null,
    last_error    varchar(500)
);
create index notification_pending on notification (next_try_at) where sent_at is null;
