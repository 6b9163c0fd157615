-- Address screening (docs/decisions.md §60, §61): the operator's screening lists, the provider's service switch and
-- each transfer's verdict.
create table screening_entry (
    id            uuid         primary key,
    list_name     varchar(64)  not null,
    network       varchar(32)  not null,   -- a catalogue network, or '*' for every network
    address       varchar(128) not null,   -- as listed
    address_key   varchar(128) not null,   -- EVM (0x + 40 hex): lower-cased; others exactly as listed
    category      varchar(32)  not null,   -- sanctioned, fraud, high-risk, custodial-exchange
    exchange_name varchar(255),
    source        varchar(255) not null,   -- the entry's id in its list (for example an OFAC SDN uid)
    created_at    timestamptz  not null
);
create index screening_entry_address on screening_entry (address_key);
create index screening_entry_list on screening_entry (list_name, address_key);

-- One row: whether the screening provider answers (the operator takes it out of service; docs/decisions.md §61).
create table screening_status (
    id         int          primary key check (id = 1),
    available  boolean      not null,
    reason     varchar(255),
    updated_at timestamptz  not null
);
insert into screening_status (id, available, updated_at) values (1, true, now());

-- The verdict on a transfer's sender: a category above, 'clear', or 'unavailable' (vendor-status); null = before V11.
alter table payment_transfer add column screening varchar(32);
alter table payment_transfer add column screening_source varchar(255);
