-- Live turns survive an instance's death (docs/reliability.md, "Live meetings across restarts").
-- The room's id for a participant utterance: a room that reconnects resends what was not
-- acknowledged with the id it had, and a transcript stores each utterance once.
alter table transcript_sentences add column client_id text;
create unique index transcript_sentences_client_id
  on transcript_sentences (transcript_id, client_id) where client_id is not null;

-- A persona reply that was cut: `participant` (barge-in, a newer utterance) or `handover` (the
-- instance shut down mid-reply). A resumed meeting answers again an utterance whose reply was cut
-- by a hand-over.
alter table transcript_sentences
  add column cut text check (cut in ('participant', 'handover'));
