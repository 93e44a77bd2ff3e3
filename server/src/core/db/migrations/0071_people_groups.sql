-- Groups of people (docs/people.md): labels such as "Sales EMEA" or "Q1 cohort", several per
-- person, that a coach assigns practice to at once.
alter table people add column groups jsonb not null default '[]';
create index people_groups_idx on people using gin (groups);
