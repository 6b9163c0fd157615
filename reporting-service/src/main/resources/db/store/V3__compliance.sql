-- Compliance of a transaction as its events carry it (docs/decisions.md §67): the resolution log (every compliance
-- decision, oldest first) and the reference of a filed suspicious-transaction report. held_for_review is in V1.
alter table transaction_row add column resolution_logs jsonb;
alter table transaction_row add column str_filing_reference text;
