-- The version of merchant_view (docs/decisions.md §106). MerchantAccess keeps the merchants it has read in memory
-- with the version they were read at, and answers from memory only while a read of the version no older than a second
-- found it unchanged; so one read of this row every half second (while creations come) keeps every merchant in
-- memory, however rarely each creates, and a change written by any replica reaches all of them within the second.
create table merchant_view_version (
    id      smallint primary key check (id = 1),
    version bigint   not null
);
insert into merchant_view_version (id, version) values (1, 0);

-- Bumped once per changed row, at the commit of the change (a deferred constraint trigger): the new version and the
-- change become visible together, and the row lock on the version is the last lock a writer takes (the merchants
-- consumer, a creation storing merchant-service's answer), so writers never wait on each other in opposite orders.
create function merchant_view_version_bump() returns trigger language plpgsql as $$
begin
    update merchant_view_version set version = version + 1 where id = 1;
    return null;
end
$$;

create constraint trigger merchant_view_changed after insert or update or delete on merchant_view
    deferrable initially deferred for each row execute function merchant_view_version_bump();
