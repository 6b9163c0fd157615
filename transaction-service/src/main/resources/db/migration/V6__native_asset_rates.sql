-- Gas is paid in each network's native asset; a refund of a token converts the fee at that asset's rate, so the
-- natives that are not catalogue assets (POL on polygon, TRX on tron) have rates too (sandbox seed values).
insert into exchange_rate (code, kind, usd, as_of) values
    ('POL', 'crypto', 0.50, now()),
    ('TRX', 'crypto', 0.25, now())
on conflict (code) do nothing;
