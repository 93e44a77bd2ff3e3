import type { ErrorCode } from './errors.ts';

/**
 * What each error code means to an integrator: the text of its section at `/docs/errors#<code>`,
 * where every error body's `doc_url` points. Keyed by `ErrorCode`, so a code added to errors.ts
 * does not compile until it is explained here (and the reference site's test checks the page).
 */
export interface ErrorExplanation {
  /** One line: what happened. */
  summary: string;
  /** Situations that typically produce the code. */
  causes: string[];
  /** What the caller should do about it. */
  fix: string;
}

export const ERROR_CATALOG = {
  invalid_request: {
    summary: 'The request is malformed in a way no more specific code describes.',
    causes: [
      'A URL path that is not validly percent-encoded, or a path segment that is too long.',
      'A `Content-Length` header that does not match the body.',
      'An upload that did not complete, or a realtime frame of an unknown type.',
      'A body sent to an operation that takes none (`param: "body"`), such as revoke or end.',
      'A request that is not valid HTTP/1.1: bad chunked framing, both `Content-Length` and `Transfer-Encoding`, a NUL in the path or an unknown method.',
    ],
    fix: 'Read `message` and `param`: they name the problem. Fix the request; sending it again unchanged fails the same way.',
  },
  invalid_json: {
    summary: 'The request body is not valid JSON.',
    causes: [
      'A body that is empty while `Content-Type: application/json` is set.',
      'A trailing comma, single quotes or an unescaped control character in the body.',
    ],
    fix: 'Serialise the body with a JSON library rather than by hand, and send no `Content-Type` header when there is no body.',
  },
  parameter_invalid: {
    summary: 'A parameter has a value of the wrong type, format or range.',
    causes: [
      'A string where a number is expected, a value outside the allowed range or enum, or a malformed date.',
      'Text that holds characters that cannot be stored, such as NUL.',
      'An identifier that refers to a resource which does not exist (for example a persona id in a scenario).',
    ],
    fix: 'Correct the parameter named in `param`. Payloads that report several problems list each in `errors[]`.',
  },
  parameter_missing: {
    summary: 'A required parameter was not sent.',
    causes: ['A required body field is absent (`null` does not count as present for required fields).'],
    fix: 'Send the parameter named in `param`; the API reference lists the required fields of each operation.',
  },
  parameter_not_allowed: {
    summary: 'A parameter is known but may not be set in this request.',
    causes: [
      'A read-only field sent in a create or update (for example `default_kind` of a seeded scenario).',
      'A field that only makes sense together with another one that was not sent.',
    ],
    fix: 'Leave out the parameter named in `param`; unknown fields are refused rather than ignored, so the request is otherwise unchanged.',
  },
  invalid_pagination: {
    summary: 'The `limit` or `cursor` of a list request is not usable.',
    causes: [
      '`limit` outside 1 to 100, or not an integer.',
      'A `cursor` that was edited, truncated, or taken from a different list.',
    ],
    fix: 'Pass `next_cursor` exactly as the previous page returned it, with the same filters; keep `limit` from 1 to 100.',
  },
  invalid_idempotency_key: {
    summary: 'The `Idempotency-Key` header is empty or too long.',
    causes: ['An empty `Idempotency-Key` header, or one longer than 255 characters.'],
    fix: 'Send a unique key of 1 to 255 characters (a UUID works well) per logical operation, or no header at all.',
  },
  recipient_not_allowed: {
    summary: 'The mailbox refuses a recipient because of the allow and block lists.',
    causes: [
      'A recipient on the inbox’s or the organisation’s block list.',
      'An allow list is set and the recipient is not on it.',
    ],
    fix: 'Check the send lists of the inbox (mailbox guide, “Allow and block lists”); `param` names the refused recipient’s field.',
  },
  unauthorized: {
    summary: 'No credentials were sent, or they were not recognised.',
    causes: [
      'No `Authorization` header, or one that is not `Bearer <key>`.',
      'A key that was revoked or belongs to another environment.',
    ],
    fix: 'Send `Authorization: Bearer <API key>` with a current key. Create keys with `POST /v1/api-secrets`.',
  },
  invalid_api_key: {
    summary: 'The API key or token is not valid.',
    causes: [
      'A mistyped or truncated key, or a key that was deleted.',
      'A user token that has expired or was signed for another server.',
    ],
    fix: 'Check the key; log in again for a fresh user token. Retrying with the same credentials will not help.',
  },
  invalid_token: {
    summary: 'The token is well-formed but names no known identity.',
    causes: [
      'A token of an external identity provider whose subject is not linked to a member of any workspace.',
    ],
    fix: 'Sign in with an identity that belongs to the workspace, or ask a workspace owner to invite it.',
  },
  invalid_credentials: {
    summary: 'The email or password is wrong.',
    causes: ['A log-in with an unknown email or a wrong password (the API does not say which).'],
    fix: 'Check both and try again. Repeated failures are rate limited.',
  },
  permission_denied: {
    summary: 'The credentials are valid but may not do this.',
    causes: [
      'A mailbox key restricted to some inboxes or a pod, used outside them.',
      'An action the resource forbids, such as recording when the scenario or the participant does not allow it.',
    ],
    fix: 'Use a key with a wider reach, or change the resource’s settings; `message` says which rule applied.',
  },
  user_token_required: {
    summary: 'The endpoint accepts only a logged-in user’s token, not an API key.',
    causes: ['Account management (such as creating API keys or changing members) called with an API key.'],
    fix: 'Call the endpoint with the user token returned by `/auth/login` or `/auth/signup`.',
  },
  insufficient_scope: {
    summary: 'The API key lacks a scope the operation needs.',
    causes: ['A key created with a restricted `scopes` list, used for an operation outside it.'],
    fix: 'Create a key with the scope named in `message` (and `param`), or use an unrestricted key.',
  },
  insufficient_role: {
    summary: "The signed-in member's role (or, for an API key, its creator's) does not allow the operation.",
    causes: [
      'A viewer, coach or author calling an operation of a higher role (docs/teams.md lists what each role may do).',
      'An API key whose creator was later given a lower role: keys act with their creator’s current role.',
    ],
    fix: 'Ask an admin or owner of the workspace for a role that allows it, or use a key made by one.',
  },
  signup_disabled: {
    summary: 'This server does not accept new sign-ups.',
    causes: ['`POST /auth/signup` on a server whose operator turned sign-up off.'],
    fix: 'Ask the operator for an invitation to an existing workspace.',
  },
  csrf_token_invalid: {
    summary: 'A request signed in by the dashboard’s session cookie failed the cross-site request check.',
    causes: [
      'A POST, PUT, PATCH or DELETE authenticated by the session cookie without an `X-CSRF-Token` header, or with one that is not the session’s.',
      'A request sent from another site (a cross-site `Origin` or `Sec-Fetch-Site: cross-site`).',
    ],
    fix: 'Send the `csrf_token` from `POST /v1/auth/sessions` or `GET /v1/auth/session` as `X-CSRF-Token` on every write. Integrations use an API key (`Authorization: Bearer`), which needs no CSRF token.',
  },
  resource_not_found: {
    summary: 'The resource does not exist, or is not visible to these credentials.',
    causes: [
      'A mistyped or malformed id, or a resource that was deleted.',
      'A resource of another workspace (the API does not reveal that it exists).',
    ],
    fix: 'Check the id (`param`) and that the key belongs to the workspace that owns the resource.',
  },
  route_not_found: {
    summary: 'No endpoint matches the URL.',
    causes: ['A typo in the path, a missing `/v1` prefix, or a trailing segment the API does not have.'],
    fix: 'Compare the path with the API reference. The message repeats the method and path that were received.',
  },
  not_found: {
    summary: 'The mailbox service’s 404: the inbox, message, thread or other resource does not exist.',
    causes: [
      'An id of a deleted resource, or one outside the inboxes the key may reach.',
      'A realtime subscription to an inbox the socket does not carry.',
    ],
    fix: 'Check the id (`param`) and the key’s reach (organisation, pod or inbox keys).',
  },
  results_not_shared: {
    summary: 'The meeting’s scenario does not share results with the participant.',
    causes: [
      '`GET /v1/rooms/{meetingId}/results` for a meeting whose scenario has `meeting_controls.share_results_with_participant` off (the default).',
    ],
    fix: 'The scenario’s owner turns `share_results_with_participant` on; owners read the full analysis with their own credentials.',
  },
  method_not_allowed: {
    summary: 'The path exists but not with this HTTP method.',
    causes: ['For example `PATCH` on a collection, or `DELETE` on a resource that cannot be deleted.'],
    fix: 'Use one of the methods in the response’s `Allow` header.',
  },
  resource_conflict: {
    summary: 'The resource is in a state that does not allow this operation now.',
    causes: [
      'Acting on a meeting that has not started or has already ended.',
      'Publishing a recording that is already published.',
    ],
    fix: 'Fetch the resource, check its `status`, and act on what it allows; retrying unchanged fails the same way.',
  },
  duplicate: {
    summary: 'A resource with these unique values already exists.',
    causes: [
      'Signing up with an email that has an account, or reusing a name that must be unique (a guardrail’s).',
    ],
    fix: 'Choose another value for the field in `param`, or use the existing resource.',
  },
  meeting_active: {
    summary: 'The meeting is running, so it cannot be deleted yet.',
    causes: ['`DELETE /meetings/{id}` while the participant is in the room (`status` is `active`).'],
    fix: 'End it with `PUT /meetings/{id}/end`, then delete it. Meetings that have not started (`created`) or have ended can be deleted at once.',
  },
  idempotency_key_in_use: {
    summary: 'A request with the same `Idempotency-Key` is still running.',
    causes: [
      'A retry sent while the first attempt is still being processed (for example after a client timeout).',
    ],
    fix: 'Wait for the `Retry-After` seconds and retry with the same key: you then receive the first attempt’s response. The SDKs do this for you.',
  },
  request_timeout: {
    summary: 'The request did not arrive in time; the connection is closed.',
    causes: [
      'Headers not complete within 10 s of the connection (HTTP_HEADERS_TIMEOUT_MS).',
      'A body not complete within 30 s of its headers (HTTP_BODY_TIMEOUT_MS; media uploads: 10 minutes).',
    ],
    fix: 'Send the whole request promptly, on a new connection; upload large media through the upload endpoints.',
  },
  payload_too_large: {
    summary: 'The request body is larger than the server accepts.',
    causes: [
      'A JSON body over 1 MiB (on the mailbox’s message routes: over the message size limit plus 64 KiB), chunked or not.',
      'Attachments over the mailbox’s message size limit.',
    ],
    fix: 'Send less per request: split batches, or upload large media through the upload endpoints.',
  },
  unsupported_media_type: {
    summary: 'The body’s `Content-Type` is not one the endpoint accepts.',
    causes: ['A body sent as form data or plain text to an endpoint that takes `application/json`.'],
    fix: 'Send `Content-Type: application/json` with a JSON body (uploads name their own types in the reference).',
  },
  range_not_satisfiable: {
    summary: 'The `Range` header asks for bytes the file does not have.',
    causes: ['A range starting beyond the end of a recording or attachment.'],
    fix: 'Read the size from `Content-Range` or `Content-Length` of a full request and ask for a range inside it.',
  },
  idempotency_key_reuse: {
    summary: 'The `Idempotency-Key` was already used with a different request.',
    causes: [
      'A key reused for a new operation, or a retry whose body or path differs from the first attempt.',
    ],
    fix: 'Use a new key for every new operation; reuse a key only to retry exactly the same request.',
  },
  headers_too_large: {
    summary: 'The request line and headers are larger than the server accepts (16 KiB).',
    causes: ['A very long URL, or many or large cookies or headers.'],
    fix: 'Send parameters in the body where the endpoint takes one, and fewer or shorter headers.',
  },
  rate_limited: {
    summary: 'Too many requests in the current window.',
    causes: [
      'More requests per minute than the key’s limit (writes have a lower limit of their own).',
      'Realtime traffic faster than real time (utterances or audio).',
    ],
    fix: 'Wait for the `Retry-After` seconds, then retry; spread requests using the `RateLimit-*` headers. The SDKs back off automatically.',
  },
  internal_error: {
    summary: 'Something failed on the server.',
    causes: ['An unexpected failure; the details are in the server’s log under the request id.'],
    fix: 'Retry with backoff (with the same `Idempotency-Key` for writes). If it persists, contact support quoting `request_id`.',
  },
  upstream_error: {
    summary: 'A service the API depends on failed or answered with something unusable.',
    causes: ['The language model provider or another upstream service timed out or returned an error.'],
    fix: 'Retry after a short wait; writes are safe to retry with the same `Idempotency-Key`.',
  },
  service_unavailable: {
    summary: 'The service cannot take the request right now.',
    causes: [
      'The server is shutting down or restarting, or a dependency such as the database is unreachable.',
    ],
    fix: 'Retry with backoff, honouring `Retry-After` when present.',
  },
} as const satisfies Record<ErrorCode, ErrorExplanation>;
