// The overview: where a team lead lands after signing in — what to do next and what happened lately.
import { api, itemsOf } from '../api.js';
import { Async, Card, LinkButton, PageHeader } from '../components/ui.js';
import { useApi } from '../hooks.js';
import { html } from '../lib.js';
import { href } from '../router.js';
import { useSession } from '../session.js';

export default function Home() {
  const { session } = useSession();
  const scenarios = useApi(() => api.get('scenarios', { limit: 5 }).then(itemsOf));
  return html`<div class="page">
    <${PageHeader} title=${`Welcome, ${session?.user?.name || session?.user?.email || ''}`}
      description="Author scenarios, run practice meetings with an AI persona, and read how participants did." />
    <div class="grid grid--2">
      <${Card} title="Scenarios" actions=${html`<a href=${href('/scenarios')}>All scenarios</a>`}>
        <${Async} state=${scenarios} rows=${3}
          empty=${{ when: (items) => items.length === 0, title: 'No scenarios yet', text: 'Create one to start practising.' }}>
          ${(items) => html`<ul class="list">
            ${items.map((scenario) => html`<li><a href=${href(`/scenarios/${scenario.id}`)}>${scenario.name}</a></li>`)}
          </ul>`}
        <//>
      <//>
      <${Card} title="Get started">
        <ol class="steps-list">
          <li>Open a scenario and adjust the persona, goals and guardrails.</li>
          <li>Start a practice meeting and talk with the persona in your browser.</li>
          <li>Read the analysis: per-goal scores, strengths and what to practise next.</li>
        </ol>
        <${LinkButton} variant="primary" href=${href('/meetings')}>Go to meetings<//>
      <//>
    </div>
  </div>`;
}
