// The overview: where a team lead lands after signing in — start practising in one click, the
// latest meetings with their scores, and the scenarios to practise; a notice while the scripted
// engine plays the personas.
import { fetchPage } from '../api.js';
import { WorkspaceEngineNotice } from '../components/persona-engine.js';
import { Async, Card, LinkButton, PageHeader, StatusBadge } from '../components/ui.js';
import { formatDateTime, formatScore } from '../format.js';
import { useApi } from '../hooks.js';
import { html } from '../lib.js';
import { href } from '../router.js';
import { useSession } from '../session.js';
import { StartMeetingButton } from './meetings/start-meeting.js';

function RecentMeetings({ state }) {
  return html`<${Async} state=${state} rows=${4}
    empty=${{ when: (data) => data.items.length === 0, title: 'No meetings yet', text: 'Start a practice meeting: it takes a minute.' }}>
    ${(data) => html`<ul class="recent">
      ${data.items.map(
        (meeting) => html`<li class="recent__item">
          <a href=${href(`/meetings/${meeting.id}`)} class="recent__link">
            <span class="recent__name">${meeting.person_name || 'Unnamed participant'}</span>
            <span class="muted small">${meeting.scenario_name} · ${formatDateTime(meeting.created_at)}</span>
          </a>
          <span class="recent__meta">
            <${StatusBadge} status=${meeting.analysis_status === 'completed' ? 'completed' : meeting.status} />
            <span class="recent__score" title="Average score">${formatScore(meeting.average_score)}</span>
          </span>
        </li>`,
      )}
    </ul>`}
  <//>`;
}

export default function Home() {
  const { session } = useSession();
  const meetings = useApi(() => fetchPage('meetings', {}, 5));
  const scenarios = useApi(() => fetchPage('scenarios', {}, 5));
  return html`<div class="page">
    <${PageHeader} title=${`Welcome, ${session?.user?.name || session?.user?.email || ''}`}
      description="Author scenarios, run practice meetings with an AI persona, and read how participants did."
      actions=${html`<${StartMeetingButton} onStarted=${meetings.reload} />`} />
    <${WorkspaceEngineNotice} />
    <div class="grid grid--2">
      <${Card} title="Recent meetings" actions=${html`<a href=${href('/meetings')}>All meetings</a>`}>
        <${RecentMeetings} state=${meetings} />
      <//>
      <div class="stack">
        <${Card} title="Quick start">
          <ol class="steps-list">
            <li>Open a scenario and adjust the persona, goals and guardrails.</li>
            <li>Start a practice meeting and talk with the persona in your browser.</li>
            <li>Read the analysis: per-goal scores, strengths and what to practise next.</li>
          </ol>
          <div class="toolbar">
            <${LinkButton} href=${href('/results')}>See results<//>
          </div>
        <//>
        <${Card} title="Scenarios" actions=${html`<a href=${href('/scenarios')}>All scenarios</a>`}>
          <${Async} state=${scenarios} rows=${3}
            empty=${{ when: (data) => data.items.length === 0, title: 'No scenarios yet', text: 'Create one to start practising.' }}>
            ${(data) => html`<ul class="list">
              ${data.items.map((scenario) => html`<li><a href=${href(`/scenarios/${scenario.id}`)}>${scenario.name}</a></li>`)}
            </ul>`}
          <//>
        <//>
      </div>
    </div>
  </div>`;
}
