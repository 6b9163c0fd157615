-- Text from events is stored as it came: a value longer than a varchar limit (a malformed or future event) must
-- never make a batch fail forever and hold the projection. varchar -> text needs no table rewrite in PostgreSQL.
alter table event_log alter column event_id type text, alter column topic type text,
    alter column aggregate_id type text, alter column type type text;
alter table transaction_row alter column external_mid type text, alter column descriptor type text,
    alter column reference_number type text, alter column quote_id type text, alter column currency type text,
    alter column mdr_flat_currency type text, alter column platform_collection type text;
alter table payment_row alter column crypto_asset type text, alter column crypto_network type text,
    alter column address type text, alter column from_address type text, alter column txn_hash type text,
    alter column gas_fee_units type text, alter column wallet_name type text;
alter table refund_row alter column crypto_asset type text, alter column crypto_network type text,
    alter column fiat_currency type text, alter column gas_fee_payer type text,
    alter column receiver_address type text, alter column txn_hash type text;
alter table merchant_row alter column external_mid type text, alter column settlement_frequency type text;
