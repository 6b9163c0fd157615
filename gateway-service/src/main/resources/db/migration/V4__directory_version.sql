-- The version of the gateway's views of keys and merchants (docs/decisions.md §106). Each replica keeps the keys and
-- merchants it has read in memory, stamped with this version, and answers from memory only while a read of the
-- version no older than the cache lifetime found it unchanged; so one read of this row a second (per replica, while
-- requests come) keeps every key and merchant in memory, and a change written by any replica reaches all of them
-- within the lifetime.
create table directory_version (
    id      smallint primary key check (id = 1),
    version bigint   not null
);
insert into directory_version (id, version) values (1, 0);

-- Bumped once per changed row, at the commit of the change (a deferred constraint trigger): the new version and the
-- change become visible together, and the row lock on the version is the last lock a writer takes, so two writers
-- (the Kafka consumers, a lookup storing merchant-service's answer) never wait on each other in opposite orders.
create function directory_version_bump() returns trigger language plpgsql as $$
begin
    update directory_version set version = version + 1 where id = 1;
    return null;
end
$$;

create constraint trigger gateway_key_changed after insert or update or delete on gateway_key
    deferrable initially deferred for each row execute function directory_version_bump();
create constraint trigger gateway_merchant_changed after insert or update or delete on gateway_merchant
    deferrable initially deferred for each row execute function directory_version_bump();
