// Scenarios: every scenario of the workspace (the two seeded ones included), with the ways to add
// one — a blank form, an exported JSON file, or a description the generator turns into a scenario.
import { fetchPage } from '../../api.js';
import { Async, Badge, ErrorNotice, LinkButton, LoadMore, PageHeader, Table } from '../../components/ui.js';
import { formatDate } from '../../format.js';
import { useAction, useApi } from '../../hooks.js';
import { html, useState } from '../../lib.js';
import { href } from '../../router.js';
import { GenerateDialog } from './generate.js';
import { ImportButton, ImportResultNotice, importScenario } from './import.js';

const columns = [
  {
    label: 'Name',
    render: (scenario) => html`<a href=${href(`/scenarios/${scenario.id}`)}>${scenario.name}</a>
      ${scenario.default_kind && html` <${Badge} tone="info">Example<//>`}`,
  },
  { label: 'Type', render: (scenario) => scenario.type },
  { label: 'Persona', render: (scenario) => scenario.Persona?.name ?? '—' },
  { label: 'Goals', render: (scenario) => String(scenario.goals?.length ?? 0) },
  {
    label: 'Visibility',
    render: (scenario) => (scenario.visibility === 'restricted' ? 'Invite only' : 'Public'),
  },
  { label: 'Updated', render: (scenario) => formatDate(scenario.updated_at) },
];

export default function ScenarioList() {
  const [more, setMore] = useState({ busy: false, error: null });
  const [imported, setImported] = useState(null);
  const list = useApi(() => fetchPage('scenarios'), []);
  const [importFile, importing] = useAction(async (file) => {
    setImported(null);
    const result = await importScenario(file);
    setImported(result);
    list.reload();
  });

  const loadMore = async () => {
    setMore({ busy: true, error: null });
    try {
      const next = await fetchPage('scenarios', { cursor: list.data.nextCursor });
      list.setData((previous) => ({
        items: [...previous.items, ...next.items],
        nextCursor: next.nextCursor,
      }));
      setMore({ busy: false, error: null });
    } catch (error) {
      setMore({ busy: false, error });
    }
  };

  return html`<div class="page">
    <${PageHeader} title="Scenarios"
      description="A scenario is what a practice meeting is about: the persona, the script, the goals it is scored on and the rules it keeps."
      actions=${html`<${LinkButton} variant="primary" href=${href('/scenarios/new')}>New scenario<//>
        <${ImportButton} busy=${importing.busy} onFile=${importFile} />
        <${GenerateDialog} />`} />
    <${ErrorNotice} error=${importing.error} title="The file could not be imported" />
    <${ImportResultNotice} result=${imported} />
    <${Async} state=${list} rows=${4}
      empty=${{
        when: (data) => data.items.length === 0,
        title: 'No scenarios yet',
        text: 'Create one, import an exported file, or describe what you want to practise.',
      }}>
      ${(data) => html`<${Table} caption="Scenarios" columns=${columns} rows=${data.items} />
        <${LoadMore} hasMore=${Boolean(data.nextCursor)} busy=${more.busy} onClick=${loadMore} />
        ${more.error && html`<p class="field__error" role="alert">${more.error.message}</p>`}`}
    <//>
  </div>`;
}
