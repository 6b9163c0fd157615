-- A transaction opened for one of subscription-service's billing attempts (docs/decisions.md §109): its events go to
-- internal.billing.v1 as well, so subscription-service follows its own transactions there instead of reading every
-- transaction event of the platform. Transactions still open when this migration runs are marked too: a billing
-- transaction opened before it cannot be told apart, and an ordinary one marked by it only sends its remaining events
-- to that topic as well, where subscription-service skips an id that is none of its attempts.
alter table transaction add column billing boolean not null default false;
update transaction set billing = true where status in (0, -3);
