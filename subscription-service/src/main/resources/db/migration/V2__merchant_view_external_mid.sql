-- The merchant view has the columns every service's copy of a merchant has (service-support MerchantViewRow,
-- docs/decisions.md §39), externalMID included, taken from the stored configuration for the rows already here.
alter table merchant_view add column external_mid varchar(64);
update merchant_view set external_mid = config ->> 'externalMID';
