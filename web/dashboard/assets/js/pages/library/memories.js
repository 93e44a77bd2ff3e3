// Memories: facts the personas remember about a person or a team, kept in containers (tags). The
// containers (GET /memories/tags), the facts of one (GET /memories/tags/{tag}), adding facts one per
// line, importing a file (POST /memories, 500 entries a request), editing and deleting a fact, and
// deleting a whole container.
import { api, itemsOf } from '../../api.js';
import { parseJson } from '../../components/json-field.js';
import {
  Async,
  Badge,
  Button,
  Card,
  ConfirmButton,
  EmptyState,
  LoadMore,
  Notice,
  PageHeader,
  Select,
  Table,
  TextArea,
  TextInput,
} from '../../components/ui.js';
import { formatDateTime } from '../../format.js';
import { fieldError, useAction, useApi } from '../../hooks.js';
import { html, useState } from '../../lib.js';
import { navigate } from '../../router.js';
import { dataOf, FormDialog, FormError, useValues } from './common.js';

const IMPORT_BATCH = 500;
const tagPath = (tag) => `memories/tags/${encodeURIComponent(tag)}`;
const open = (tag) => navigate(tag ? `/memories?tag=${encodeURIComponent(tag)}` : '/memories');

/** Import file contents as entries: a JSON array (strings or { content, external_id, created_at }), or text lines. */
export function importEntries(text) {
  const trimmed = text.trim();
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    const parsed = parseJson(trimmed);
    if (parsed.error) throw new Error(parsed.error);
    const list = Array.isArray(parsed.value) ? parsed.value : parsed.value.memories;
    if (!Array.isArray(list))
      throw new Error('The JSON must be an array of facts, or an object with a "memories" array.');
    return list;
  }
  return trimmed ? [trimmed] : [];
}

/** POSTs the entries in batches the API accepts; sums what was created and skipped. */
async function addEntries(tag, scenarioId, entries) {
  const totals = { created: 0, skipped: 0 };
  for (let start = 0; start < entries.length; start += IMPORT_BATCH) {
    const body = { user_memory_tag: tag, memories: entries.slice(start, start + IMPORT_BATCH) };
    if (scenarioId) body.scenario_id = scenarioId;
    const answer = dataOf(await api.post('memories', body));
    totals.created += answer.created.length;
    totals.skipped += answer.skipped.length;
  }
  return totals;
}

function AddForm({ mode, tag, scenarios, onClose, onAdded }) {
  const [values, set] = useValues({ tag: tag ?? '', scenario_id: '', text: '' });
  const [fileError, setFileError] = useState(null);
  const readFile = async (event) => {
    const file = event.currentTarget.files?.[0];
    setFileError(null);
    if (file) set('text')(await file.text());
  };
  const [save, { busy, error }] = useAction(async () => {
    let entries;
    try {
      entries = mode === 'import' ? importEntries(values.text) : values.text.trim() ? [values.text] : [];
    } catch (caught) {
      setFileError(caught.message);
      return;
    }
    if (entries.length === 0) {
      setFileError('Nothing to add: write at least one fact.');
      return;
    }
    onAdded(values.tag, await addEntries(values.tag, values.scenario_id, entries));
  });
  return html`<${FormDialog} open title=${mode === 'import' ? 'Import memories' : 'Add memories'} onClose=${onClose} onSubmit=${save}
      busy=${busy} submitLabel=${mode === 'import' ? 'Import' : 'Add'}>
    <${TextInput} label="Container (tag)" value=${values.tag} onInput=${set('tag')} required maxlength="128"
      hint="Who the facts are about, e.g. candidate:jane@example.com. Letters, digits and . _ : @ + - / | =."
      error=${fieldError(error, 'user_memory_tag')} />
    ${
      scenarios.length > 0 &&
      html`<${Select} label="Scenario" optional value=${values.scenario_id} onChange=${set('scenario_id')} error=${fieldError(error, 'scenario_id')}
        options=${[{ value: '', label: 'Any scenario' }, ...scenarios.map((item) => ({ value: item.id, label: item.name }))]} />`
    }
    ${
      mode === 'import' &&
      html`<div class="field">
        <label for="memory-file">File (.json or .txt)</label>
        <input id="memory-file" class="input" type="file" accept=".json,.txt,application/json,text/plain" onChange=${readFile} />
      </div>`
    }
    <${TextArea} label=${mode === 'import' ? 'Contents' : 'Facts, one per line'} rows=${8} value=${values.text} onInput=${set('text')}
      error=${fileError ?? fieldError(error, 'memories')}
      hint=${
        mode === 'import'
          ? 'A JSON array of facts (strings, or { "content", "external_id", "created_at" }), or plain text, one fact per line. Facts already held are skipped.'
          : 'Bullets and numbering are removed; facts already held are skipped.'
      } />
    <${FormError} error=${error} fields=${['user_memory_tag', 'scenario_id', 'memories']} title="Nothing was added" />
  <//>`;
}

function EditFact({ memory, onClose, onSaved }) {
  const [content, setContent] = useState(memory.content);
  const [save, { busy, error }] = useAction(async () => {
    onSaved(dataOf(await api.patch(`memories/${memory.id}`, { content })));
  });
  return html`<${FormDialog} open title="Edit fact" onClose=${onClose} onSubmit=${save} busy=${busy}>
    <${TextArea} label="Fact" rows=${3} value=${content} onInput=${setContent} maxlength="1000" error=${fieldError(error, 'content')} />
    <${FormError} error=${error} fields=${['content']} title="The fact was not saved" />
  <//>`;
}

async function loadTag(tag, cursor) {
  const answer = await api.get(tagPath(tag), { limit: 100, cursor });
  return { ...answer.data, nextCursor: answer.has_more ? answer.next_cursor : null };
}

function TagView({ tag, onChanged }) {
  const state = useApi(() => loadTag(tag), [tag]);
  const [editing, setEditing] = useState(null);
  const [more, { busy }] = useAction(async () => {
    const page = await loadTag(tag, state.data.nextCursor);
    state.setData((data) => ({
      ...data,
      memories: [...data.memories, ...page.memories],
      nextCursor: page.nextCursor,
    }));
  });
  const removeFact = async (memory) => {
    await api.del(`memories/${memory.id}`);
    if (state.data.memories.length === 1) {
      onChanged();
      open(null);
    } else {
      state.setData((data) => ({
        ...data,
        memories: data.memories.filter((item) => item.id !== memory.id),
        memory_count: data.memory_count - 1,
      }));
      onChanged();
    }
  };
  const removeTag = async () => {
    await api.del(tagPath(tag));
    onChanged();
    open(null);
  };
  return html`<${Card} title=${html`Facts in <code class="break">${tag}</code>`}
      actions=${html`<${ConfirmButton} label="Delete container" title="Delete this container?" buttonVariant="ghost"
        message=${`Every fact in ${tag} is deleted, for every persona. This cannot be undone.`} onConfirm=${removeTag} />`}>
    <${Async} state=${state} rows=${4}>
      ${(data) => html`
        <p class="muted small">${data.memory_count} fact${data.memory_count === 1 ? '' : 's'} · last written ${formatDateTime(data.last_activity_at)}</p>
        <${Table} caption=${`Facts in ${tag}`} rows=${data.memories} columns=${[
          { label: 'Fact', className: 'library-wide', render: (row) => row.content },
          {
            label: 'Source',
            render: (row) =>
              html`<${Badge} tone=${row.source === 'meeting' ? 'info' : 'neutral'}>${row.source === 'meeting' ? 'Meeting' : 'Added'}<//>`,
          },
          { label: 'Written', render: (row) => formatDateTime(row.created_at) },
          {
            label: 'Actions',
            render: (row) => html`<div class="form-actions">
              <${Button} onClick=${() => setEditing(row)} aria-label=${`Edit fact: ${row.content}`}>Edit<//>
              <${ConfirmButton} label="Delete" title="Delete this fact?" buttonVariant="ghost" message=${row.content} onConfirm=${() => removeFact(row)} />
            </div>`,
          },
        ]} />
        <${LoadMore} hasMore=${Boolean(data.nextCursor)} busy=${busy} onClick=${more} />
      `}
    <//>
    ${
      editing &&
      html`<${EditFact} key=${editing.id} memory=${editing} onClose=${() => setEditing(null)} onSaved=${(
        memory,
      ) => {
        state.setData((data) => ({
          ...data,
          memories: data.memories.map((item) => (item.id === memory.id ? memory : item)),
        }));
        setEditing(null);
      }} />`
    }
  <//>`;
}

async function loadTags(cursor) {
  const [answer, scenarios] = await Promise.all([
    api.get('memories/tags', { limit: 50, cursor }),
    cursor ? Promise.resolve(null) : api.get('scenarios').then(itemsOf),
  ]);
  return { tags: itemsOf(answer), nextCursor: answer.has_more ? answer.next_cursor : null, scenarios };
}

const subjectLabel = (summary) =>
  summary.subject ? (summary.subject.type === 'membership' ? 'Team member' : 'Participant') : null;

export default function Memories({ query }) {
  const selected = query.tag ?? null;
  const state = useApi(() => loadTags());
  const [adding, setAdding] = useState(null);
  const [added, setAdded] = useState(null);
  const [version, setVersion] = useState(0);
  const [more, { busy }] = useAction(async () => {
    const page = await loadTags(state.data.nextCursor);
    state.setData((data) => ({ ...data, tags: [...data.tags, ...page.tags], nextCursor: page.nextCursor }));
  });
  const changed = () => state.reload();
  const onAdded = (tag, totals) => {
    setAdding(null);
    setAdded({ tag, ...totals });
    setVersion(version + 1);
    state.reload();
    open(tag);
  };
  const ready = Boolean(state.data);

  return html`<div class="page">
    <${PageHeader} title="Memories" description="What personas remember about the people they meet, by container. Meetings add facts too."
      actions=${html`<${Button} onClick=${() => setAdding('import')} disabled=${!ready}>Import<//>
        <${Button} variant="primary" onClick=${() => setAdding('add')} disabled=${!ready}>Add memories<//>`} />
    ${
      added &&
      html`<${Notice} kind="success"><p>Added ${added.created} fact${added.created === 1 ? '' : 's'} to <code class="break">${added.tag}</code>${
        added.skipped ? `; ${added.skipped} already held were skipped` : ''
      }.</p><//>`
    }
    <div class="library-split">
      <${Card} title="Containers">
        <${Async} state=${state} rows=${4}
          empty=${{ when: (data) => data.tags.length === 0, title: 'No memories yet', text: 'Add facts about a person, or let meetings collect them.' }}>
          ${(data) => html`<ul class="tag-list">
              ${data.tags.map(
                (summary) => html`<li>
                  <a class="tag-list__item" href=${`#/memories?tag=${encodeURIComponent(summary.user_memory_tag)}`}
                    aria-current=${summary.user_memory_tag === selected ? 'true' : undefined}>
                    <span class="mono break">${summary.user_memory_tag}</span>
                    <span class="muted small">${summary.memory_count} fact${summary.memory_count === 1 ? '' : 's'}${subjectLabel(summary) ? ` · ${subjectLabel(summary)}` : ''}</span>
                  </a>
                </li>`,
              )}
            </ul>
            <${LoadMore} hasMore=${Boolean(data.nextCursor)} busy=${busy} onClick=${more} />`}
        <//>
      <//>
      ${
        selected
          ? html`<${TagView} key=${`${selected}-${version}`} tag=${selected} onChanged=${changed} />`
          : html`<${Card}><${EmptyState} title="Choose a container">Its facts are listed here.<//><//>`
      }
    </div>
    ${
      ready &&
      adding &&
      html`<${AddForm} key=${adding} mode=${adding} tag=${selected} scenarios=${state.data.scenarios ?? []}
      onClose=${() => setAdding(null)} onAdded=${onAdded} />`
    }
  </div>`;
}
