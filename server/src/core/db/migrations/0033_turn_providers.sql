-- Who answered each persona turn (docs/live-engine.md, "When a provider fails"): when the meeting's
-- reply provider fails after its retry, the offline engine or a spoken apology stands in, and the
-- transcript and the usage say so.

-- On persona sentences: `welcome` (the scenario's opening line), the provider that spoke it, or
-- `apology`. Null on the participant's sentences (and on sentences stored before this column).
alter table transcript_sentences
  add column provider text
    check (provider in ('welcome', 'custom_agent', 'llm', 'offline', 'apology'));

-- Completed persona turns per answering provider (`turns` keeps counting every turn, the welcome
-- included).
alter table meeting_usage
  add column custom_agent_turns integer not null default 0,
  add column llm_turns integer not null default 0,
  add column offline_turns integer not null default 0,
  add column apology_turns integer not null default 0;
