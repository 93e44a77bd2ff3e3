-- A public scenario's reusable practice link (docs/assignments.md, "Open practice links"): anyone
-- with it gives a name (and an e-mail, optionally) and practises; each visit makes a meeting. One
-- link per scenario, found by its token's SHA-256 and kept sealed so a coach can copy it again.
create table scenario_practice_links (
  scenario_id uuid primary key references scenarios (id) on delete cascade,
  account_id uuid not null references accounts (id) on delete cascade,
  token_hash text not null unique,
  token_sealed text not null,
  created_by uuid references memberships (id) on delete set null,
  created_at timestamptz(3) not null
);

-- When each assigned person was e-mailed their personal link (SMTP_URL set; null otherwise).
alter table assignment_people add column emailed_at timestamptz(3);

-- People an open link made, and the address their visitor typed: it finds that visitor again on
-- the next visit, and nothing else. An address typed into a public form proves nothing, so it is
-- not the person's `email` (which the team's and integrators' meetings match): it can neither join
-- someone else's history nor take an address from the person it belongs to.
alter table people add column from_open_link boolean not null default false;
alter table people add column open_link_email text;
create index people_open_link_email_idx on people (account_id, lower(open_link_email))
  where open_link_email is not null;
