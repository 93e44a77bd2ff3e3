// A new scenario: its own fields first; goals, guardrails, functions and the rest are attached on
// the scenario's page, where the form continues after the first save.
import { PageHeader } from '../../components/ui.js';
import { html } from '../../lib.js';
import { href, navigate } from '../../router.js';
import { BasicsForm } from './basics-form.js';

export default function NewScenario() {
  return html`<div class="page">
    <${PageHeader} title="New scenario" back=${{ href: href('/scenarios'), label: 'Scenarios' }}
      description="Name it, choose who the participant talks to and write the script. Goals and guardrails come next." />
    <section class="card">
      <${BasicsForm} scenario=${null} submitLabel="Create scenario"
        onSaved=${(scenario) => navigate(`/scenarios/${scenario.id}?tab=goals`, { replace: true })} />
    </section>
  </div>`;
}
