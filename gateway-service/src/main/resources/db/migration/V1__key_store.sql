-- The gateway's local view of every key, fed from the compacted payments.keys.v1 topic.
-- Only hashes: key_hash is the SHA-256 of the key string, as merchant-service stores it.
create table gateway_key (
    key_hash      char(64)    primary key,
    key_id        uuid        not null unique,
    account_id    uuid        not null,
    key_type      varchar(16) not null,
    role          varchar(16),
    merchant_uuid uuid,
    status        smallint    not null,
    version       bigint      not null,
    updated_at    timestamptz not null default now()
);
