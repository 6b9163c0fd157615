-- The Idempotency-Key of a creating POST (a merchant, an API or publishable key), kept with its answer in the creation's own database
-- transaction, as transaction-service (its V16) and subscription-service (its V3) keep theirs (docs/decisions.md
-- §112, §122). The gateway keeps the answers it sees, but it cannot know the outcome of a request whose answer it lost
-- (it timed out, or the client hung up); this record does, whatever the gateway saw. scope: SHA-256 hex of the caller
-- (key type, account, key, merchant); request_hash: SHA-256 hex of the request as the service read it (another request
-- under the same key is 422); answer: the first answer without the secrets it issued (a replay has them null, §28).
-- Kept 24 hours, as the gateway's.
create table idempotent_creation (
    scope           varchar(64)   not null,
    idempotency_key varchar(255)  not null,
    request_hash    varchar(64)   not null,
    answer          text,
    created_at      timestamptz   not null,
    primary key (scope, idempotency_key)
);
create index idempotent_creation_created on idempotent_creation (created_at);
