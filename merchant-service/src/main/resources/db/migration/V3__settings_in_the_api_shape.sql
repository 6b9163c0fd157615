-- Settings records are written once, in the API's shape, and stored as such (docs/decisions.md §35):
-- cryptoNetworkConfigs become network -> {"cryptoAssetConfigs": asset -> values} (were network -> asset -> values),
-- and the account's billing schedule fields move from the billingFees/billingDates maps to the top level.
update account
set settings = (settings - 'billingFees' - 'billingDates')
    || case when jsonb_typeof(settings -> 'billingFees') = 'object' then settings -> 'billingFees' else '{}'::jsonb end
    || case when jsonb_typeof(settings -> 'billingDates') = 'object' then settings -> 'billingDates' else '{}'::jsonb end
where settings ? 'billingFees' or settings ? 'billingDates';

update account
set settings = jsonb_set(settings, '{cryptoNetworkConfigs}', coalesce(
        (select jsonb_object_agg(n.key, jsonb_build_object('cryptoAssetConfigs', n.value))
         from jsonb_each(settings -> 'cryptoNetworkConfigs') n), '{}'::jsonb))
where jsonb_typeof(settings -> 'cryptoNetworkConfigs') = 'object';

update merchant
set settings = jsonb_set(settings, '{cryptoNetworkConfigs}', coalesce(
        (select jsonb_object_agg(n.key, jsonb_build_object('cryptoAssetConfigs', n.value))
         from jsonb_each(settings -> 'cryptoNetworkConfigs') n), '{}'::jsonb))
where jsonb_typeof(settings -> 'cryptoNetworkConfigs') = 'object';
