-- Account configuration as one JSON document (Settings.AccountSettings); operator-set fields live in it too.
alter table account add column settings jsonb not null default '{}'::jsonb;
alter table account add column version bigint not null default 1;

create table merchant (
    id                     uuid         primary key,
    account_id             uuid         not null references account (id),
    name                   varchar(255) not null,
    dba                    varchar(255),
    address1               varchar(255) not null,
    address2               varchar(255),
    city                   varchar(255) not null,
    region                 varchar(255) not null,
    country                char(2)      not null,
    status                 smallint     not null check (status in (0, 1, -1)),
    descriptor             varchar(255) not null,
    external_mid           varchar(64),
    discount_rate          jsonb,
    settings               jsonb        not null default '{}'::jsonb,
    logo_filename          varchar(255),
    fx_rate_allowed        boolean      not null default false,
    archived_at            timestamptz,
    version                bigint       not null default 1,
    created_at             timestamptz  not null default now(),
    updated_at             timestamptz  not null default now()
);
-- An externalMID names at most one merchant of an account (X-MID may carry it instead of the UUID).
create unique index merchant_external_mid on merchant (account_id, external_mid) where external_mid is not null;
create index merchant_listing on merchant (account_id, created_at desc, id desc) where archived_at is null;

create table merchant_logo (
    merchant_id  uuid         primary key references merchant (id),
    content_type varchar(32)  not null,
    content      bytea        not null,
    updated_at   timestamptz  not null default now()
);
