-- The quota of open transactions per merchant (docs/decisions.md §25, §47) counts 0 and -3 through this index.
create index transaction_open_per_merchant on transaction (merchant_id) where status in (0, -3);
