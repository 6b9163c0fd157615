-- Refund payouts on EVM networks are signed first and broadcast after the signature is stored, so a crash between
-- the two re-broadcasts the same signed transaction (same hash, same nonce) instead of paying twice.
alter table refund add column payout_raw text;
