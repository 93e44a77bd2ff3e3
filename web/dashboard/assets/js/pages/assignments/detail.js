// One assignment: each person's status, attempts and personal link, and the meeting that
// completed it (docs/assignments.md).
import { api } from '../../api.js';
import {
  Async,
  Badge,
  Card,
  ConfirmButton,
  CopyLink,
  Details,
  PageHeader,
  Table,
} from '../../components/ui.js';
import { formatDateTime } from '../../format.js';
import { useApi } from '../../hooks.js';
import { html } from '../../lib.js';
import { href, navigate } from '../../router.js';
import { counts } from './list.js';

const TONES = { done: 'success', in_progress: 'info', not_started: 'neutral', overdue: 'danger' };

export default function Assignment({ params }) {
  const assignment = useApi(() => api.get(`assignments/${params.id}`).then((body) => body.data), [params.id]);
  const remove = async () => {
    await api.del(`assignments/${params.id}`);
    navigate('/assignments');
  };
  return html`<div class="page">
    <${Async} state=${assignment} rows=${4}>
      ${(data) => html`
        <${PageHeader} back=${{ href: href('/assignments'), label: 'Assignments' }} title=${data.scenario.name ?? 'A deleted scenario'}
          description=${data.note ?? 'Assigned practice.'}
          actions=${html`<${ConfirmButton} label="Delete" buttonVariant="ghost" title="Delete this assignment?"
            message="Its links stop working; the meetings already held stay." onConfirm=${remove} />`} />
        <${Card}>
          <${Details} items=${[
            ['Progress', counts(data)],
            ['Due', formatDateTime(data.due_at)],
            ['Attempts each', data.max_attempts],
            ['Assigned', formatDateTime(data.created_at)],
          ]} />
        <//>
        <${Card} title="People">
          <${Table} caption="People and their status" rows=${data.people} rowKey=${(row) => row.person.id} columns=${[
            {
              label: 'Name',
              render: (row) => html`<a href=${href(`/people/${row.person.id}`)}>${row.person.name}</a>`,
            },
            {
              label: 'Status',
              render: (row) => html`<${Badge} tone=${TONES[row.status]}>${row.status.replace('_', ' ')}<//>`,
            },
            { label: 'Attempts', render: (row) => `${row.attempts} of ${data.max_attempts}` },
            {
              label: 'Completed',
              render: (row) =>
                row.completed_meeting_id
                  ? html`<a href=${href(`/meetings/${row.completed_meeting_id}`)}>${formatDateTime(row.completed_at)}</a>`
                  : '—',
            },
            {
              label: 'Link',
              render: (row) =>
                row.practice_url
                  ? html`<${CopyLink} url=${row.practice_url} name=${row.person.name} />`
                  : '—',
            },
          ]} />
        <//>`}
    <//>
  </div>`;
}
