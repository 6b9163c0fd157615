-- Payment detection (issue 6): the sandbox chain, the watcher's position per network, and every transfer seen
-- to a payment request's address. Money is NUMERIC (exact).

-- The sandbox chain (docs/decisions.md §9): blocks and transfers per network, persisted so heights and hashes survive
-- restarts. A transfer without a block is in the "mempool" until the next block is mined.
create table sandbox_block (
    network     varchar(32)  not null,
    number      bigint       not null check (number >= 0),
    hash        varchar(80)  not null,
    parent_hash varchar(80)  not null,
    mined_at    timestamptz  not null,
    primary key (network, number)
);

create table sandbox_transfer (
    txn_hash     varchar(80)   primary key,
    network      varchar(32)   not null,
    asset        varchar(10)   not null,
    from_address varchar(128)  not null,
    to_address   varchar(128)  not null,
    amount       numeric       not null check (amount > 0),
    block_number bigint,
    account_id   uuid          not null,
    created_at   timestamptz   not null
);
create index sandbox_transfer_block on sandbox_transfer (network, block_number);
create index sandbox_transfer_pending on sandbox_transfer (network) where block_number is null;

-- The watcher's position per network: the last block it has read, and the hashes of recent blocks, so a
-- reorganisation (a block at a known height with another hash) is noticed and rewound.
create table chain_cursor (
    network      varchar(32)  primary key,
    block_number bigint       not null,
    block_hash   varchar(80),
    updated_at   timestamptz  not null
);

create table chain_block (
    network varchar(32) not null,
    number  bigint      not null,
    hash    varchar(80) not null,
    primary key (network, number)
);

-- Every transfer to a payment request's address, once: (network, txn_hash, position) is the chain's own identity
-- of a transfer, so a watcher that re-reads a block after a crash finds the row already there.
-- status: 0 confirming, 1 confirmed (reached the request's required confirmations), -1 dropped (left the chain
-- in a reorganisation before it was confirmed). late: first seen after its request or transaction had ended.
create table payment_transfer (
    id                 uuid          primary key,
    payment_request_id uuid          not null references payment_request (id),
    transaction_id     uuid          not null references transaction (id),
    network            varchar(32)   not null,
    txn_hash           varchar(128)  not null,
    position           integer       not null,
    asset              varchar(10)   not null,
    from_address       varchar(128),
    amount             numeric       not null check (amount > 0),
    block_number       bigint,
    block_hash         varchar(80),
    confirmations      integer       not null default 0,
    status             smallint      not null check (status in (0, 1, -1)),
    late               boolean       not null default false,
    detected_at        timestamptz   not null,
    confirmed_at       timestamptz,
    unique (network, txn_hash, position)
);
create index payment_transfer_request on payment_transfer (payment_request_id, detected_at);
create index payment_transfer_open on payment_transfer (network, block_number) where status = 0;

-- Confirmations a request needs (docs/decisions.md §2), fixed when it is opened; and who paid it.
alter table payment_request add column required_confirmations integer;
alter table payment_request add column from_address varchar(128);
-- EVM addresses are matched without regard to case (EIP-55 checksums are only a spelling).
create index payment_request_address_lower on payment_request (crypto_network, lower(address));
-- Expiry: open requests and transactions whose time has passed.
create index payment_request_expiry on payment_request (expiration) where status = 0;
create index transaction_expiry on transaction (expiration) where status in (0, -3);
