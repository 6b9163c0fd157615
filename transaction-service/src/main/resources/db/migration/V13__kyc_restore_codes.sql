-- One-time codes of the KYC restore (docs/decisions.md §64): a returning customer asks for a code sent to the e-mail
-- of their stored record and enters it on a later transaction. Neither the code nor the e-mail is stored: both only
-- as HMAC-SHA256 under the service's key, so a copy of this table cannot be brute-forced offline. A code is kept for
-- every request, known e-mail or not, so the answer and the limits cannot tell the two apart.
create table kyc_restore_code (
    id              uuid         primary key,
    transaction_id  uuid         not null,
    account_id      uuid         not null,
    email_hash      varchar(64)  not null,
    code_hash       varchar(64)  not null,
    attempts        integer      not null default 0,
    created_at      timestamptz  not null,
    expires_at      timestamptz  not null,
    used_at         timestamptz
);
create index kyc_restore_code_email on kyc_restore_code (account_id, email_hash, created_at);
create index kyc_restore_code_transaction on kyc_restore_code (transaction_id, created_at);
