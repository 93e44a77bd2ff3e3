// What else belongs to a meeting: the participant's post-call feedback (with the catalog's labels)
// and the events it fired (what webhook endpoints were sent).
import { api, fetchPage } from '../../api.js';
import { Async, Badge, Card, LoadMore } from '../../components/ui.js';
import { formatDateTime } from '../../format.js';
import { useApi } from '../../hooks.js';
import { html, useState } from '../../lib.js';

/** The feedback with its labels, or null when the participant gave none (404). */
async function loadFeedback(meetingId) {
  const [feedback, catalog] = await Promise.all([
    api.get(`meetings/${meetingId}/feedback`).then(
      (body) => body?.data ?? body,
      (error) => {
        if (error.status === 404) return null;
        throw error;
      },
    ),
    api.get('meetings/feedback/catalog'),
  ]);
  if (!feedback) return null;
  const labels = (list) => Object.fromEntries((list ?? []).map((entry) => [entry.key, entry.label]));
  const catalogData = catalog?.data ?? catalog;
  return {
    ...feedback,
    rating_label: labels(catalogData.ratings)[feedback.rating] ?? feedback.rating,
    video_labels: feedback.video_issues.map((key) => labels(catalogData.video_issues)[key] ?? key),
    agent_labels: feedback.agent_issues.map((key) => labels(catalogData.agent_issues)[key] ?? key),
  };
}

/** `givenAt`: the meeting read's `feedback_given_at` (null: nothing to fetch, so no 404 either). */
export function FeedbackCard({ meetingId, givenAt, ended }) {
  const feedback = useApi(
    () => (givenAt ? loadFeedback(meetingId) : Promise.resolve(null)),
    [meetingId, givenAt],
  );
  const none = ended
    ? 'The participant did not answer the post-call questions the room asked after the meeting.'
    : 'The room asks the participant a few questions once the meeting ends.';
  return html`<${Card} title="Participant feedback">
    <${Async} state=${feedback} rows=${2}
      empty=${{ when: (data) => data === null, title: 'No feedback', text: none }}>
      ${(data) => html`<div class="stack">
        <p><${Badge} tone=${data.rating === 'good' ? 'success' : 'warn'}>${data.rating_label}<//></p>
        ${data.video_labels.length > 0 && html`<div><h3>Call quality</h3><ul class="list list--bullets">${data.video_labels.map((label) => html`<li>${label}</li>`)}</ul></div>`}
        ${data.agent_labels.length > 0 && html`<div><h3>The persona</h3><ul class="list list--bullets">${data.agent_labels.map((label) => html`<li>${label}</li>`)}</ul></div>`}
        ${data.comment && html`<blockquote class="quote">${data.comment}</blockquote>`}
        <p class="muted small">Given ${formatDateTime(data.updated_at)}</p>
      </div>`}
    <//>
  <//>`;
}

export function EventsCard({ meetingId, version }) {
  const events = useApi(() => fetchPage('events', { meeting_id: meetingId }, 25), [meetingId, version]);
  const [busy, setBusy] = useState(false);
  const more = async () => {
    setBusy(true);
    try {
      const page = await fetchPage('events', { meeting_id: meetingId, cursor: events.data.nextCursor }, 25);
      events.setData((current) => ({
        items: [...current.items, ...page.items],
        nextCursor: page.nextCursor,
      }));
    } finally {
      setBusy(false);
    }
  };
  return html`<${Card} title="Events">
    <${Async} state=${events} rows=${3}
      empty=${{ when: (data) => data.items.length === 0, title: 'No events yet', text: 'Events appear as the meeting starts, ends and is analysed.' }}>
      ${(data) => html`<ol class="events" data-events>
          ${data.items.map(
            (event) => html`<li key=${event.id} class="events__item">
              <code>${event.type}</code>
              <time class="muted small" datetime=${event.created_at}>${formatDateTime(event.created_at)}</time>
            </li>`,
          )}
        </ol>
        <${LoadMore} hasMore=${Boolean(data.nextCursor)} busy=${busy} onClick=${more} />`}
    <//>
  <//>`;
}
