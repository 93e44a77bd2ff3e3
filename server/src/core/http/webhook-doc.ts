import type { TObject } from 'typebox';

/**
 * One event a service POSTs to its receivers, as the OpenAPI document's `webhooks` section shows
 * it: the payload schema (named by its `$id`) and the headers that come with it.
 */
export interface WebhookDoc {
  event: string;
  summary: string;
  payload: TObject;
  headers: Record<string, { description: string; example?: string }>;
  deprecated?: boolean;
}
