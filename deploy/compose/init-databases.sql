-- Run once by the postgres container of docker-compose.yml on an empty data volume
-- (/docker-entrypoint-initdb.d). Role payments/payments is a LOCAL DEVELOPMENT credential.
CREATE ROLE payments LOGIN PASSWORD 'payments';
CREATE DATABASE gateway OWNER payments;
CREATE DATABASE merchant OWNER payments;
CREATE DATABASE transaction OWNER payments;
CREATE DATABASE subscription OWNER payments;
CREATE DATABASE webhook OWNER payments;
CREATE DATABASE reporting OWNER payments;
