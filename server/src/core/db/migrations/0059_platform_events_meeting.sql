-- The events one meeting fired (GET /v1/events?meeting_id=…), newest first, without scanning the
-- workspace's whole event log. Every platform event's data carries meeting_id.
create index platform_events_meeting_idx
  on platform_events (account_id, ((data ->> 'meeting_id')), created_at desc, id desc);
