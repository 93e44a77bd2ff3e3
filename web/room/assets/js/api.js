// The room's HTTP calls (docs/realtime.md, "Room HTTP API"). The room token travels in the
// X-Room-Token header on HTTP calls, so it stays out of access logs; only the WebSocket, which
// cannot send headers from a browser, carries it as `?t=`.

/** Where this page is: `/room/<id>?t=…` (embeddable room) or `/meetings/<id>?t=…` (full page). */
export function readLocation(location = window.location) {
  const match = /^\/(room|meetings)\/([^/]+)\/?$/.exec(location.pathname);
  const params = new URLSearchParams(location.search);
  return {
    mode: match?.[1] === 'meetings' ? 'meeting' : 'room',
    meetingId: match ? decodeURIComponent(match[2]) : '',
    // `?t=X?t=X` (the token appended to a meeting_url that already carries it) reads as `X?t=X`.
    token: (params.get('t') ?? '').split('?')[0],
  };
}

export class RoomApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function errorFrom(response) {
  let code = 'http_error';
  let message = `The service answered ${response.status}.`;
  try {
    const body = await response.json();
    code = body?.error?.code ?? code;
    message = body?.error?.message ?? body?.message ?? message;
  } catch {
    // not JSON: keep the generic message
  }
  return new RoomApiError(response.status, code, message);
}

export class RoomApi {
  constructor({ meetingId, token, origin = window.location.origin }) {
    this.meetingId = meetingId;
    this.token = token;
    this.origin = origin;
    this.base = `${origin}/v1/rooms/${encodeURIComponent(meetingId)}`;
  }

  async #get(path) {
    const response = await fetch(`${this.base}${path}`, {
      headers: { 'X-Room-Token': this.token, Accept: 'application/json' },
      cache: 'no-store',
      credentials: 'omit',
    });
    if (!response.ok) throw await errorFrom(response);
    return response.json();
  }

  /** Welcome data: meeting, scenario, persona (may be null), recording, controls, live_path. */
  welcome() {
    return this.#get('');
  }

  /** `{ status, end_reason, sentences }`. */
  transcript() {
    return this.#get('/transcript');
  }

  /** `{ status: 'pending' | 'ready' | 'unavailable', results }` after the end (docs/room.md, "Results"). */
  results() {
    return this.#get('/results');
  }

  /** The post-call questions: `{ ratings, video_issues, agent_issues }`, each `[{ key, label }]`. */
  async feedbackCatalog() {
    return (await this.#get('/feedback/catalog')).data;
  }

  /** The participant's answer to them (replaces an earlier one). */
  async sendFeedback(answer) {
    const response = await fetch(`${this.base}/feedback`, {
      method: 'PUT',
      headers: { 'X-Room-Token': this.token, 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(answer),
      credentials: 'omit',
    });
    if (!response.ok) throw await errorFrom(response);
    return (await response.json()).data;
  }

  /** The WebSocket address: same origin as the page, ws: or wss: to match http: or https:. */
  liveUrl(livePath) {
    const url = new URL(livePath || `/v1/rooms/${encodeURIComponent(this.meetingId)}/live`, this.origin);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    url.searchParams.set('t', this.token);
    return url.toString();
  }

  uploadRecording(blob, contentType, onProgress) {
    return this.#put('/recording', blob, contentType, onProgress);
  }

  uploadThumbnail(blob) {
    return this.#put('/recording/thumbnail', blob, blob.type || 'image/jpeg');
  }

  /** PUT with upload progress (fetch cannot report it), resolving to the parsed 201 body. */
  #put(path, blob, contentType, onProgress) {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('PUT', `${this.base}${path}`);
      xhr.setRequestHeader('Content-Type', contentType);
      xhr.setRequestHeader('X-Room-Token', this.token);
      xhr.setRequestHeader('Accept', 'application/json');
      xhr.responseType = 'text';
      if (onProgress) {
        xhr.upload.addEventListener('progress', (event) => {
          if (event.lengthComputable) onProgress(event.loaded / event.total);
        });
      }
      xhr.addEventListener('load', () => {
        let body = null;
        try {
          body = JSON.parse(xhr.responseText);
        } catch {
          // empty or not JSON
        }
        if (xhr.status >= 200 && xhr.status < 300) resolve(body);
        else
          reject(
            new RoomApiError(
              xhr.status,
              body?.error?.code ?? 'http_error',
              body?.error?.message ?? `Upload failed (${xhr.status}).`,
            ),
          );
      });
      xhr.addEventListener('error', () => reject(new RoomApiError(0, 'network_error', 'The upload failed.')));
      xhr.addEventListener('abort', () =>
        reject(new RoomApiError(0, 'aborted', 'The upload was cancelled.')),
      );
      xhr.send(blob);
    });
  }
}
