-- Which schema holds the live reporting store. The store's own tables live in a schema of their own
-- (store_1, store_2, ...; migrated by Flyway from db/store, see store/StoreSchemas), so that a rebuild from offset
-- zero can fill a fresh schema while the live one keeps serving, and then switch this pointer in one transaction.
create table store_pointer (
    id            int          primary key check (id = 1),
    active_schema varchar(63)  not null,
    switched_at   timestamptz  not null default now()
);

-- One row per rebuild an operator started (POST /operator/reporting/rebuild).
create table store_rebuild (
    id            bigserial    primary key,
    target_schema varchar(63)  not null,
    status        varchar(20)  not null,
    started_at    timestamptz  not null default now(),
    finished_at   timestamptz,
    events        bigint       not null default 0,
    detail        text
);
