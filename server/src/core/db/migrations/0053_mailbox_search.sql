-- Full-text search over messages (docs/mailbox.md, "Search"): one tsvector per message, kept in
-- the row as a stored generated column, so every writer (inbound, outbound, later ones) fills it
-- without knowing about it, and adding the column computes it for every existing row (the
-- backfill). Threads have no vector of their own: a thread matches when one of its messages does.
--
-- The `simple` configuration: it lower-cases and does no stemming and no stop words, so it is
-- right (if literal) for every language, and it needs no dictionary files (PGlite has none).
-- Weights: subject A, participants B, body C; lists stay newest first, the weights are there
-- for a relevance order later without recomputing every row.
-- Participants are the From, To and Cc as shown ("Name <addr>"), once as they are (the parser
-- reads `addr` as one e-mail token) and once with `@<>` as blanks (so `alice`, the domain
-- `example.com` and the name match too; `<…>` would otherwise be skipped as a markup tag).
-- Bodies are cut before parsing: a tsvector is at most 1 MB, and a 25 MiB message must still be
-- stored. HTML is searched as text: style and script blocks, then tags, are blanked.
alter table mailbox_messages add column search_vector tsvector generated always as (
  setweight(to_tsvector('simple', left(subject, 2000)), 'A')
  || setweight(to_tsvector('simple',
       left("from" || ' ' || "to"::text || ' ' || cc::text, 20000) || ' '
       || translate(left("from" || ' ' || "to"::text || ' ' || cc::text, 20000), '@<>', '   ')), 'B')
  || setweight(to_tsvector('simple',
       left(coalesce(text, ''), 100000) || ' '
       || regexp_replace(
            regexp_replace(left(coalesce(html, ''), 200000), '<(style|script)[^>]*>.*?</(style|script)>', ' ', 'gi'),
            '<[^>]*>', ' ', 'g')), 'C')
) stored;

create index mailbox_messages_search_idx on mailbox_messages using gin (search_vector);
