-- Which scoped key created a webhook (null: the admin key or a platform key), so revoking the key
-- stops what it alone authorised; and why a webhook was disabled by the service (shown in GET).
alter table mailbox_webhooks add column created_by_key_id text;
alter table mailbox_webhooks add column disabled_reason text;
create index mailbox_webhooks_created_by_key on mailbox_webhooks (created_by_key_id)
  where created_by_key_id is not null;
