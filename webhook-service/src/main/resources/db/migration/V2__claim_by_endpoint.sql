-- The dispatcher claims per endpoint (webhook): it walks the webhooks that have pending deliveries (a loose index
-- scan) and takes the oldest due rows of each, so the cost of a claim grows with the number of endpoints that have
-- work, not with the size of one endpoint's backlog (a dead receiver's queue never slows the others' claims).
create index delivery_pending_by_webhook on delivery (webhook_id, next_attempt_at, id) where status = 'pending';
drop index delivery_due;
