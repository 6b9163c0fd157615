-- Compliance state of a transaction (docs/decisions.md §59): a review hold, the append-only resolution log and the
-- reference of a suspicious-transaction report. Existing rows: not held, an empty log, no report.
alter table transaction add column held_for_review boolean not null default false;
alter table transaction add column resolution_logs jsonb not null default '[]'::jsonb;
alter table transaction add column str_filing_reference text;
create index transaction_held_for_review on transaction (account_id, updated_at) where held_for_review;
