-- The webhook body is the same for every webhook an event goes to: keep it once per event, so delivery rows stay
-- small (they are rewritten when claimed and when an attempt is recorded, and a fan-out to many webhooks no longer
-- copies the body each time). Small rows also leave room for PostgreSQL to update them in place (HOT).
create table event_payload (
    event_id   varchar(255) primary key,
    event_type varchar(255) not null,
    payload    text         not null,
    created_at timestamptz  not null default now()
);
insert into event_payload (event_id, event_type, payload)
select distinct on (event_id) event_id, event_type, payload from delivery order by event_id, created_at;
alter table delivery drop column payload;
alter table delivery set (fillfactor = 80);
