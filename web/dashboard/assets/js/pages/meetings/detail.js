// One meeting: who practised what and how it went — the recording beside its transcript, the
// analysis and speech analytics, the participant's feedback and the events it fired — with the
// actions on it: end it (while it runs), re-run the analysis (once ended), delete it.
import { api } from '../../api.js';
import { ScriptedEngineNotice, StandInNotice } from '../../components/persona-engine.js';
import {
  Async,
  Button,
  Card,
  ConfirmButton,
  Details,
  ErrorNotice,
  LinkButton,
  Notice,
  PageHeader,
  StatusBadge,
} from '../../components/ui.js';
import { formatDateTime, formatDuration } from '../../format.js';
import { useAction, useApi } from '../../hooks.js';
import { html, useEffect, useState } from '../../lib.js';
import { href, navigate } from '../../router.js';
import { EventsCard, FeedbackCard } from './activity.js';
import { AnalysisView, scoreOutOf, sharedMax } from './analysis.js';
import { RecordingAndTranscript } from './recording.js';

/** How often the page asks again while the meeting runs or its analysis is being written. */
const POLL_MS = 2000;

const loadMeeting = (id) => api.get(`meetings/${id}`).then((body) => body?.data ?? body);

const END_REASONS = {
  participant_left: 'the participant left',
  ended_by_api: 'ended from the dashboard or the API',
  duration_limit: 'the time limit was reached',
  agent_ended: 'the persona ended it',
  script_complete: 'the script was complete',
  idle_timeout: 'nobody spoke for too long',
};

function Actions({ meeting, onChanged }) {
  const [end, ending] = useAction(async () => {
    await api.put(`meetings/${meeting.id}/end`);
    onChanged();
  });
  const [rerun, rerunning] = useAction(async () => {
    await api.post(`analyses/trigger/${meeting.id}`);
    onChanged();
  });
  const running = meeting.status !== 'ended';
  return html`<div class="meeting-actions">
    ${running && html`<${Button} onClick=${end} busy=${ending.busy}>End meeting<//>`}
    ${!running && html`<${LinkButton} href=${href(`/meetings/${meeting.id}/report`)}>Learner report<//>`}
    ${
      !running &&
      html`<${Button} onClick=${rerun} busy=${rerunning.busy || meeting.analysis_status === 'processing'}>
        ${meeting.analysis_status === 'processing' ? 'Analysing…' : 'Re-run analysis'}<//>`
    }
    ${
      meeting.status === 'active'
        ? html`<span class="muted small">End the meeting to delete it.</span>`
        : html`<${ConfirmButton} label="Delete meeting" title="Delete this meeting?"
          message="This permanently removes the meeting with its transcript, recording, analysis and participant feedback. Webhook endpoints receive meeting.deleted. It cannot be undone."
          onConfirm=${async () => {
            await api.del(`meetings/${meeting.id}`);
            navigate('/meetings');
          }} />`
    }
    <${ErrorNotice} error=${ending.error} title="The meeting could not be ended" />
    <${ErrorNotice} error=${rerunning.error} title="The analysis could not be started" />
  </div>`;
}

function Header({ meeting, actions }) {
  const participant = meeting.participants?.[0];
  return html`<div class="stack">
    <${PageHeader} back=${{ href: href('/meetings'), label: 'Meetings' }}
      title=${meeting.person_name || 'Unnamed participant'}
      description=${meeting.Scenario?.name ? `Practising “${meeting.Scenario.name}”` : undefined} actions=${actions} />
    <${Card}>
      <${Details} items=${[
        ['Status', html`<${StatusBadge} status=${meeting.status} />`],
        ['Analysis', html`<${StatusBadge} status=${meeting.analysis_status} />`],
        ['Score', scoreOutOf(meeting.analysis?.average_score, sharedMax(meeting.analysis?.goal_results))],
        ['Duration', formatDuration(meeting.duration_seconds)],
        [
          'Participant',
          meeting.person_id
            ? html`<a href=${href(`/people/${meeting.person_id}`)}>${participant?.name || meeting.person_name || 'Their page'}</a>`
            : participant?.name || meeting.person_name || '—',
        ],
        ['Created', formatDateTime(meeting.created_at)],
        [
          'Ended',
          meeting.ended_at
            ? `${formatDateTime(meeting.ended_at)}${END_REASONS[meeting.end_reason] ? ` (${END_REASONS[meeting.end_reason]})` : ''}`
            : '—',
        ],
      ]} />
    <//>
    ${meeting.agent_provider === 'offline' && html`<${ScriptedEngineNotice} scope="meeting" running=${meeting.status !== 'ended'} />`}
    <${StandInNotice} meeting=${meeting} />
  </div>`;
}

export default function MeetingPage({ params }) {
  const meeting = useApi(() => loadMeeting(params.id), [params.id]);
  const [version, setVersion] = useState(0);
  const data = meeting.data;
  const waiting = data && (data.status !== 'ended' || data.analysis_status === 'processing');

  // Poll quietly (no skeleton) while something is still to come; stop when it has come.
  useEffect(() => {
    if (!waiting) return undefined;
    const timer = setInterval(() => {
      loadMeeting(params.id).then(
        (fresh) => {
          meeting.setData(fresh);
          if (fresh.status !== data.status || fresh.analysis_status !== data.analysis_status)
            setVersion((v) => v + 1);
        },
        () => {},
      );
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [waiting, params.id, data?.status, data?.analysis_status]);

  const changed = () => {
    loadMeeting(params.id).then(meeting.setData, () => meeting.reload());
    setVersion((v) => v + 1);
  };

  return html`<div class="page">
    <${Async} state=${meeting} rows=${8}>
      ${(
        m,
      ) => html`<${Header} meeting=${m} actions=${html`<${Actions} meeting=${m} onChanged=${changed} />`} />
        ${m.analysis_status === 'processing' && html`<${Notice}><p role="status">The analysis is running. This page updates when it is done.</p><//>`}
        <${Card} title="Recording and transcript">
          <${RecordingAndTranscript} meetingId=${m.id} sentences=${m.sentenced_transcripts ?? []} ended=${m.status === 'ended'}
            participant=${m.person_name} persona=${m.Scenario?.Persona?.name} />
        <//>
        <${AnalysisView} analysis=${m.analysis} status=${m.analysis_status} />
        <div class="grid grid--2">
          <${FeedbackCard} meetingId=${m.id} givenAt=${m.feedback_given_at} ended=${m.status === 'ended'} />
          <${EventsCard} meetingId=${m.id} version=${version} />
        </div>`}
    <//>
  </div>`;
}
