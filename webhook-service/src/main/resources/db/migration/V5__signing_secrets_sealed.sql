-- Signing secrets are kept encrypted (docs/decisions.md §42): signing_key holds 'v1:' + base64 of an AES-256-GCM
-- nonce, ciphertext and tag (about 100 characters). Rows written before hold the clear 'wk_' value; webhook-service
-- seals them at start-up (SecretsAtRest), with the key from configuration that SQL does not know.
-- After a rotation the previous secret keeps signing beside the new one until previous_key_expires_at.
alter table webhook alter column signing_key type varchar(255);
alter table webhook add column previous_signing_key varchar(255);
alter table webhook add column previous_key_expires_at timestamptz;
-- Payload retention (§43) deletes old bodies by age.
create index event_payload_created on event_payload (created_at);
-- ... keeping the bodies that pending deliveries still need, found through this small partial index.
create index delivery_pending_by_event on delivery (event_id) where status = 'pending';
