-- Assigned practice (docs/assignments.md): a scenario given to people with a due date and a number
-- of attempts, each person with a personal practice link. A meeting started from a link records
-- whose it is; the first one that ends completes that person's assignment.
create table assignments (
  id uuid primary key,
  account_id uuid not null references accounts (id) on delete cascade,
  scenario_id uuid not null references scenarios (id) on delete cascade,
  due_at timestamptz(3),
  max_attempts integer not null check (max_attempts between 1 and 20),
  note text,
  created_by uuid references memberships (id) on delete set null,
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null
);
create index assignments_account_idx on assignments (account_id, created_at desc, id desc);

create table assignment_people (
  id uuid primary key,
  assignment_id uuid not null references assignments (id) on delete cascade,
  account_id uuid not null references accounts (id) on delete cascade,
  person_id uuid not null references people (id) on delete cascade,
  -- The personal link's token: found by its SHA-256, kept sealed so a coach can copy the link again.
  token_hash text not null unique,
  token_sealed text not null,
  completed_at timestamptz(3),
  completed_meeting_id uuid,
  created_at timestamptz(3) not null,
  unique (assignment_id, person_id)
);
create index assignment_people_person_idx on assignment_people (account_id, person_id);

alter table meetings add column assignment_person_id uuid references assignment_people (id) on delete set null;
create index meetings_assignment_person_idx on meetings (assignment_person_id) where assignment_person_id is not null;
