// One scenario: its fields in tabs (details and script, goals, guardrails, functions, custom
// agent, session options, the open practice link, the assembled system prompt) and the header's actions.
import { api } from '../../api.js';
import { ScenarioEngineNotice } from '../../components/persona-engine.js';
import { Async, Badge, ErrorNotice, PageHeader, Tabs } from '../../components/ui.js';
import { useApi } from '../../hooks.js';
import { html } from '../../lib.js';
import { href, navigate } from '../../router.js';
import { useScenarioActions } from './actions.js';
import { AgentSection } from './agent-section.js';
import { BasicsForm } from './basics-form.js';
import { FunctionsSection } from './functions-section.js';
import { GoalsSection } from './goals-section.js';
import { GuardrailsSection } from './guardrails-section.js';
import { PracticeLinkSection } from './practice-link-section.js';
import { PromptPreviewSection } from './prompt-preview.js';
import { SessionSection } from './session-section.js';

const TABS = [
  { id: 'details', label: 'Details & script' },
  { id: 'goals', label: 'Goals' },
  { id: 'guardrails', label: 'Guardrails' },
  { id: 'functions', label: 'Functions' },
  { id: 'agent', label: 'Custom agent' },
  { id: 'session', label: 'Session & recording' },
  { id: 'practice-link', label: 'Practice link' },
  { id: 'prompt', label: 'System prompt' },
];

function Section({ tab, scenario, onChanged }) {
  const props = { scenario, onChanged };
  switch (tab) {
    case 'goals':
      return html`<${GoalsSection} ...${props} />`;
    case 'guardrails':
      return html`<${GuardrailsSection} ...${props} />`;
    case 'functions':
      return html`<${FunctionsSection} ...${props} />`;
    case 'agent':
      return html`<${AgentSection} ...${props} />`;
    case 'session':
      return html`<${SessionSection} ...${props} />`;
    case 'practice-link':
      return html`<${PracticeLinkSection} ...${props} />`;
    case 'prompt':
      return html`<${PromptPreviewSection} ...${props} />`;
    default:
      return html`<section class="card"><${BasicsForm} scenario=${scenario} onSaved=${onChanged} /></section>`;
  }
}

function Loaded({ scenario, onChanged, tab }) {
  const actions = useScenarioActions(scenario);
  const current = TABS.some((item) => item.id === tab) ? tab : 'details';
  const label = TABS.find((item) => item.id === current).label;
  return html`<div class="page">
    <${PageHeader} title=${scenario.name} back=${{ href: href('/scenarios'), label: 'Scenarios' }}
      description=${html`${scenario.type} · ${scenario.Persona?.name ?? 'no persona'} · ${scenario.call_duration} min
        ${scenario.default_kind && html` <${Badge} tone="info">Example<//>`}`}
      actions=${actions.buttons} />
    <${ErrorNotice} error=${actions.error} />
    <${ScenarioEngineNotice} scenario=${scenario} />
    <${Tabs} label="Scenario sections" tabs=${TABS} current=${current}
      onSelect=${(id) => navigate(`/scenarios/${scenario.id}?tab=${id}`, { replace: true })} />
    <div role="tabpanel" aria-label=${label} class="tab-panel" key=${`${scenario.id}-${current}`}>
      <${Section} tab=${current} scenario=${scenario} onChanged=${onChanged} />
    </div>
  </div>`;
}

export default function EditScenario({ params, query }) {
  const scenario = useApi(() => api.get(`scenarios/${params.id}`), [params.id]);
  if (!scenario.data) {
    return html`<div class="page">
      <${PageHeader} title="Scenario" back=${{ href: href('/scenarios'), label: 'Scenarios' }} />
      <${Async} state=${scenario} rows=${6}>${() => null}<//>
    </div>`;
  }
  return html`<${Loaded} scenario=${scenario.data} onChanged=${scenario.setData} tab=${query.tab} />`;
}
