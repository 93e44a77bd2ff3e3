-- Analysis that rests on evidence (docs/analysis.md): how each participant sentence came in, the
-- sentences each goal result rests on, and why the offline evaluator wrote an analysis.

-- `voice` (speech recognition) or `typed`, as the room client reports it; null when unknown
-- (older transcripts, persona sentences). Speech rates count spoken sentences only.
alter table transcript_sentences
  add column input text check (input in ('voice', 'typed'));

-- Why the offline evaluator wrote this analysis although a language model is configured (its
-- reply stayed invalid after the repair round); null otherwise.
alter table analyses add column evaluator_reason text;
-- How the participant's sentences came in: voice, typed, mixed, or none (the participant was silent).
alter table analyses
  add column participant_input text not null default 'voice'
  check (participant_input in ('voice', 'typed', 'mixed', 'none'));

-- Ids of the transcript sentences a goal result rests on (a JSON array of integers).
alter table analysis_goal_results add column sentence_ids jsonb not null default '[]';
