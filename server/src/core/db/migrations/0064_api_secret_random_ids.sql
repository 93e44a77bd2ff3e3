-- API-key ids were a global sequence: an id told how many keys exist. New keys get a random
-- integer in [1, 2^53 - 1] (still an integer, as the spec says, and exact in JSON / JavaScript);
-- existing keys keep theirs. 56 bits of md5 over a random UUID, masked to 53 bits.
alter table api_secrets alter column id drop default;
drop sequence if exists api_secrets_id_seq;
alter table api_secrets alter column id type bigint;
alter table api_secrets alter column id set default greatest(
  1,
  ('x' || substr(md5(gen_random_uuid()::text), 1, 16))::bit(64)::bigint & 9007199254740991
);
