// Import: a JSON file made by "Export" becomes a new scenario here (POST /v1/scenarios/import),
// with its persona, goals, guardrails and custom functions.
import { ApiError, api } from '../../api.js';
import { Button, Notice, SecretOnce } from '../../components/ui.js';
import { html, useRef } from '../../lib.js';
import { href } from '../../router.js';

async function readJson(file) {
  try {
    return JSON.parse(await file.text());
  } catch {
    throw new ApiError(0, {
      error: { message: `${file.name} is not a JSON file exported from a scenario.` },
    });
  }
}

/** Sends an exported file to the API; answers with the import result. */
export async function importScenario(file) {
  return api.post('scenarios/import', await readJson(file));
}

/** "Import" with its file picker; `onFile(file)` receives the chosen file. */
export function ImportButton({ busy, onFile }) {
  const input = useRef(null);
  const picked = (event) => {
    const file = event.currentTarget.files?.[0];
    event.currentTarget.value = '';
    if (file) onFile(file);
  };
  return html`<${Button} busy=${busy} onClick=${() => input.current?.click()}>Import<//>
    <input ref=${input} type="file" accept="application/json,.json" hidden aria-label="Scenario file to import"
      data-import-file onChange=${picked} />`;
}

/** What an import did: a link to the new scenario, reused items, warnings and new secrets. */
export function ImportResultNotice({ result }) {
  if (!result) return null;
  const reused = [...(result.reused?.guardrails ?? []), ...(result.reused?.custom_functions ?? [])];
  return html`<${Notice} kind="success">
    <p><strong>Imported.</strong> <a href=${href(`/scenarios/${result.scenario_id}`)}>Open ${result.data?.name ?? 'the new scenario'}</a></p>
    ${reused.length > 0 && html`<p>Reused what this workspace already had: ${reused.join(', ')}.</p>`}
    ${result.warnings?.map((warning) => html`<p>${warning}</p>`)}
    ${result.custom_function_secrets?.map(
      (secret) =>
        html`<${SecretOnce} label=${`Signing secret of ${secret.name}`} value=${secret.webhook_secret} />`,
    )}
  <//>`;
}
