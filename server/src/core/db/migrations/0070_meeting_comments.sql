-- The coach's comment on a meeting (docs/reports.md): one per meeting, shown on its learner report
-- and, when the scenario shares results, to the participant through their meeting link.
create table meeting_comments (
  meeting_id uuid primary key references meetings (id) on delete cascade,
  account_id uuid not null references accounts (id) on delete cascade,
  text text not null,
  membership_id uuid references memberships (id) on delete set null,
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null
);
