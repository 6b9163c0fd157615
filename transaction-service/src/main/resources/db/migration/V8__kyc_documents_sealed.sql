-- KYC documents at rest (docs/decisions.md §46): new rows are sealed with AES-256-GCM (encrypted = true); rows stored
-- in clear before are sealed by the service on its next start, and every document is deleted after the retention.
alter table kyc_document add column encrypted boolean not null default false;
create index kyc_document_in_clear on kyc_document (id) where not encrypted;
create index kyc_document_created on kyc_document (created_at);

