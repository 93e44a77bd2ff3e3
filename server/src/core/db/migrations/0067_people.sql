-- Participants are people (docs/people.md): one identity per person in a workspace, found again by
-- external id, e-mail or (for people known by name only) name, and linked from their meetings, so a
-- participant has a history. A meeting keeps its own `person_name` as before.
create table people (
  id uuid primary key,
  account_id uuid not null references accounts (id) on delete cascade,
  name text not null,
  email text,
  external_id text,
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null
);
create unique index people_email_key on people (account_id, lower(email)) where email is not null;
create unique index people_external_id_key on people (account_id, external_id) where external_id is not null;
create index people_account_idx on people (account_id, created_at desc, id desc);
create index people_name_idx on people (account_id, lower(name));

alter table meetings add column person_id uuid references people (id) on delete set null;
create index meetings_person_idx on meetings (account_id, person_id, created_at) where person_id is not null;
