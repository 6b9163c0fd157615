-- Idempotency-Key is honoured by the gateway for every POST (docs/api-conventions.md) and the header never reaches
-- the services, so this service keeps no idempotency records of its own.
drop table idempotency_record;
