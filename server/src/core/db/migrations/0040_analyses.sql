-- Post-meeting analysis (server/src/platform/analyses, docs/analysis.md "Pipeline"): one analysis
-- per meeting, replaced in place when the analysis is run again, and one result per scored goal.

create table analyses (
  id uuid primary key,
  -- One analysis per meeting: a re-run updates this row (same id) and replaces its goal results.
  meeting_id uuid not null unique references meetings (id) on delete cascade,
  account_id uuid not null references accounts (id) on delete cascade,
  scenario_id uuid not null,
  -- Which engine wrote the goal results and texts: the platform LLM or the offline rules.
  evaluator text not null check (evaluator in ('llm', 'offline')),
  model text,
  title text not null,
  summary text not null,
  call_summary text not null,
  -- Mean and sum of the goal scores; null when the scenario had no active goal.
  average_score double precision,
  total_score double precision,
  strengths jsonb not null,
  growth_areas jsonb not null,
  recommendations jsonb not null,
  highlights jsonb not null,
  -- Seconds.
  conversation_length integer not null,
  filler_words jsonb not null,
  weak_words jsonb not null,
  repetitions jsonb not null,
  sentence_starters jsonb not null,
  participant_word_count integer not null,
  participant_speaking_minutes double precision not null,
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null
);
create index analyses_account_idx on analyses (account_id, created_at desc, id desc);
create index analyses_scenario_idx on analyses (account_id, scenario_id, created_at desc, id desc);

create table analysis_goal_results (
  id uuid primary key,
  analysis_id uuid not null references analyses (id) on delete cascade,
  account_id uuid not null references accounts (id) on delete cascade,
  -- The goal may be deleted later: its definition at analysis time is kept in `goal`.
  goal_id uuid,
  goal jsonb not null,
  score double precision not null,
  score_min double precision not null,
  score_max double precision not null,
  short_description text not null,
  long_description text not null,
  feedback text not null,
  position integer not null,
  created_at timestamptz(3) not null
);
create index analysis_goal_results_analysis_idx on analysis_goal_results (analysis_id, position);
