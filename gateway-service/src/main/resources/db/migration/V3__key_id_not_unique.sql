-- gateway_key is written by one upsert (StoredKey.save: insert ... on conflict (key_hash) do update ... where the
-- version is newer), from the keys consumer and from the directory's synchronous lookup, sometimes at the same moment.
-- An upsert absorbs a racing insert only on its arbiter index; a second unique index (key_id) made the loser of such
-- a race fail with a unique violation instead, which stopped the keys consumer for good. A key's id and its hash
-- belong together (both come from merchant-service's one row of the key), so the hash alone is enough as the key.
alter table gateway_key drop constraint gateway_key_key_id_key;
create index gateway_key_key_id on gateway_key (key_id);
