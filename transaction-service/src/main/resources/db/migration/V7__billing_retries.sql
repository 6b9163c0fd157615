-- Billing requests that could not be opened yet (the merchant view lags, a rate is stale) wait here for the retry
-- job instead of holding up the consumer, so one such request never delays the others behind it.
create table billing_retry (
    transaction_id  uuid          primary key,
    event_id        varchar(64)   not null,
    payload         text          not null,
    attempts        int           not null,
    last_error      varchar(255),
    next_attempt_at timestamptz   not null,
    created_at      timestamptz   not null
);
create index billing_retry_due on billing_retry (next_attempt_at);
