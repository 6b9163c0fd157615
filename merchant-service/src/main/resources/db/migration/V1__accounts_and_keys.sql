create table account (
    id         uuid         primary key,
    name       varchar(255) not null,
    email      varchar(255) not null,
    created_at timestamptz  not null default now(),
    updated_at timestamptz  not null default now()
);

-- API and publishable keys. Only hashes of secrets are stored: key_hash is the SHA-256 of the key string
-- (keys carry 192 random bits, so a fast hash is enough), private_key_hash that of an API key's private key.
create table account_key (
    id               uuid         primary key,
    account_id       uuid         not null references account (id),
    key_type         varchar(16)  not null check (key_type in ('api', 'publishable')),
    key_hash         char(64)     not null unique,
    key_last4        varchar(4)   not null,
    publishable_key  varchar(64),
    private_key_hash char(64),
    role             varchar(16)  check (role in ('admin', 'read_only')),
    name             varchar(255) not null,
    merchant_uuid    uuid,
    status           smallint     not null default 1 check (status in (1, -1)),
    version          bigint       not null default 1,
    created_at       timestamptz  not null default now(),
    updated_at       timestamptz  not null default now(),
    revoked_at       timestamptz
);
create index account_key_account on account_key (account_id, created_at desc);
