// The mailbox service's own /v0 API, called straight from the browser. A signed-in admin or owner
// is connected as themselves: the page asks the platform for a user token of the session
// (POST /v1/auth/session/token) and keeps it in memory. Anyone may instead paste a mailbox key,
// kept in sessionStorage only (gone when the tab closes) and sent to the mailbox alone — never to
// the platform. The mailbox's address comes from the page's <meta name="understudy-mailbox-url">
// (MAILBOX_PUBLIC_URL), which the page's CSP also allows.
import { ApiError, api } from '../../api.js';
import { useEffect, useState } from '../../lib.js';
import { isAdmin, useSession } from '../../session.js';

const STORAGE_KEY = 'understudy.mailbox-key';

export const mailboxUrl = () =>
  document.querySelector('meta[name="understudy-mailbox-url"]')?.content?.replace(/\/$/, '') ?? '';

/**
 * `[credential, remember, viaSession]`: a pasted key wins; else, for an admin or owner, a user
 * token of their session (`viaSession` true); null until one is known. `remember(null)` forgets
 * the pasted key and stops using the session (until the page is opened again).
 */
export function useMailboxKey() {
  const { session } = useSession();
  const [key, setKey] = useState(() => sessionStorage.getItem(STORAGE_KEY));
  const [sessionToken, setSessionToken] = useState(null);
  const [useSessionToken, setUseSessionToken] = useState(isAdmin(session?.role));
  useEffect(() => {
    if (key || !useSessionToken || sessionToken) return;
    api
      .post('/v1/auth/session/token')
      .then((body) => setSessionToken(body.token))
      .catch(() => setUseSessionToken(false));
  }, [key, useSessionToken, sessionToken]);
  const remember = (value) => {
    if (value) sessionStorage.setItem(STORAGE_KEY, value);
    else sessionStorage.removeItem(STORAGE_KEY);
    if (!value) setUseSessionToken(false);
    setKey(value || null);
  };
  return [key ?? (useSessionToken ? sessionToken : null), remember, !key && useSessionToken];
}

/** `/inboxes/{id}/…` with every segment encoded (inbox ids are addresses, message ids `<…@…>`). */
export const mailboxPath = (...segments) => `/${segments.map(encodeURIComponent).join('/')}`;

/** One /v0 call; errors are ApiErrors carrying the mailbox's own message. `raw` returns the Response. */
export async function mailboxRequest(key, method, path, { body, query, raw } = {}) {
  const target = new URL(`${mailboxUrl()}/v0${path}`);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') target.searchParams.set(name, String(value));
  }
  const headers = { Authorization: `Bearer ${key}`, Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(target, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'omit',
    });
  } catch {
    throw new ApiError(0, {
      error: {
        message: `The mailbox service cannot be reached at ${mailboxUrl()}. Check that it is running.`,
      },
    });
  }
  if (!response.ok) {
    const errorBody = await response.json().catch(() => null);
    if (response.status === 401) {
      throw new ApiError(401, {
        ...errorBody,
        error: {
          ...errorBody?.error,
          message: 'The mailbox did not accept this key (unknown or revoked). Paste another one.',
        },
      });
    }
    throw new ApiError(response.status, errorBody);
  }
  if (raw) return response;
  return response.status === 204 ? null : response.json();
}

/** Saves an attachment: fetched with the key (a plain link could not send it), then downloaded. */
export async function downloadAttachment(key, inboxId, message, attachment) {
  const response = await mailboxRequest(
    key,
    'GET',
    mailboxPath('inboxes', inboxId, 'messages', message.message_id, 'attachments', attachment.attachment_id),
    { raw: true },
  );
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = attachment.filename || attachment.attachment_id;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
