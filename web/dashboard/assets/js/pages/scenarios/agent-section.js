// Your own agent endpoint instead of the platform's model. The API key is write-only: reads show it
// masked, so the form says whether one is set and offers to replace or remove it.
import { api } from '../../api.js';
import { Button, Card, Checkbox, ErrorNotice, TextArea, TextInput } from '../../components/ui.js';
import { fieldError, useAction } from '../../hooks.js';
import { html, useState } from '../../lib.js';

const headersText = (headers) =>
  Object.entries(headers ?? {})
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');

/** `Name: value` lines → an object (blank lines skipped). */
function parseHeaders(text) {
  const headers = {};
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const colon = line.indexOf(':');
    if (colon < 1) return null;
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** What the API stores when no model is given (platform-api-v1, custom_agent_config.model). */
const PLACEHOLDER_MODEL = 'waterr-agent';

export function AgentSection({ scenario, onChanged }) {
  const config = scenario.custom_agent_config;
  const [enabled, setEnabled] = useState(scenario.custom_agent_enabled);
  const [baseUrl, setBaseUrl] = useState(config?.base_url ?? '');
  // The API's placeholder model name (the contract's default) is shown as an empty field.
  const [model, setModel] = useState(config?.model === PLACEHOLDER_MODEL ? '' : (config?.model ?? ''));
  const [timeout, setTimeoutSeconds] = useState(String(config?.timeout_s ?? 10));
  const [headers, setHeaders] = useState(headersText(config?.extra_headers));
  const [replacingKey, setReplacingKey] = useState(!config?.api_key);
  const [apiKey, setApiKey] = useState('');
  const [removeKey, setRemoveKey] = useState(false);
  const [localError, setLocalError] = useState(null);
  const [saved, setSaved] = useState(false);

  const [save, { busy, error }] = useAction(async () => {
    setSaved(false);
    const extra = parseHeaders(headers);
    if (extra === null) {
      setLocalError('Write one header a line, as Name: value.');
      return;
    }
    setLocalError(null);
    const body = { custom_agent_enabled: enabled };
    if (baseUrl.trim()) {
      body.custom_agent_config = { base_url: baseUrl.trim(), extra_headers: extra };
      if (model.trim()) body.custom_agent_config.model = model.trim();
      if (timeout !== '') body.custom_agent_config.timeout_s = Number(timeout);
      if (removeKey) body.custom_agent_config.api_key = null;
      else if (replacingKey && apiKey) body.custom_agent_config.api_key = apiKey;
    }
    const answer = await api.put(`scenarios/${scenario.id}`, body);
    setApiKey('');
    setRemoveKey(false);
    setReplacingKey(!answer.custom_agent_config?.api_key);
    setSaved(true);
    onChanged(answer);
  });
  const submit = (event) => {
    event.preventDefault();
    save();
  };
  const err = (field) => fieldError(error, `custom_agent_config.${field}`);
  const known = [
    'custom_agent_enabled',
    ...['base_url', 'api_key', 'model', 'timeout_s', 'extra_headers'].map((f) => `custom_agent_config.${f}`),
  ];

  return html`<${Card} title="Custom agent">
    <form class="form" noValidate onSubmit=${submit}>
      <p class="muted">Answer the participant with your own OpenAI-compatible endpoint (POST …/chat/completions) instead of the platform's model.</p>
      <${Checkbox} label="Use my own agent for every meeting of this scenario" checked=${enabled} onChange=${setEnabled} />
      <div class="form-grid">
        <${TextInput} label="Base URL" type="url" value=${baseUrl} onInput=${setBaseUrl} error=${err('base_url')}
          placeholder="https://agent.example.com/v1" hint="The part before /chat/completions; public HTTPS." />
        <${TextInput} label="Model" optional value=${model} onInput=${setModel} error=${err('model')} hint="Sent to your agent as the request's model. Leave it empty if your agent does not read it." />
        <${TextInput} label="First-response timeout (seconds)" type="number" min="1" max="30" value=${timeout}
          onInput=${setTimeoutSeconds} error=${err('timeout_s')} />
      </div>
      <div class="key-field">
        ${
          replacingKey
            ? html`<${TextInput} label="API key" optional type="password" autocomplete="off" value=${apiKey} onInput=${setApiKey}
                error=${err('api_key')} hint="Sent as Authorization: Bearer …; stored encrypted and never shown again." />`
            : html`<p><strong>API key</strong> <span class="badge badge--success">set</span> <span class="mono">${config?.api_key}</span></p>
              <div class="toolbar">
                <${Button} onClick=${() => setReplacingKey(true)}>Replace key<//>
                <${Checkbox} label="Remove the key on save" checked=${removeKey} onChange=${setRemoveKey} />
              </div>`
        }
      </div>
      <${TextArea} label="Extra headers" optional rows=${3} value=${headers} onInput=${setHeaders}
        error=${localError ?? err('extra_headers')} hint="One a line, as Name: value. Host and Authorization are refused. Values are stored encrypted and shown masked; a masked line left as it is keeps its value." class="input mono" />
      <${ErrorNotice} error=${error && !known.includes(error.param) ? error : null} />
      <div class="form-actions">
        <${Button} type="submit" variant="primary" busy=${busy}>Save agent settings<//>
        ${saved && html`<span class="muted" role="status">Saved.</span>`}
      </div>
    </form>
  <//>`;
}
