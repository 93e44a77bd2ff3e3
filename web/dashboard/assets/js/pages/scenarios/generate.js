// "Create from a description": the generator (the configured LLM, else the rule-based one) writes a
// persona, a Markdown script and scored goals from a few words and an optional résumé or job
// description (POST /v1/scenarios/create-with-gpt, multipart).
import { request } from '../../api.js';
import { Button, Dialog, ErrorNotice, Field, TextArea, TextInput } from '../../components/ui.js';
import { fieldError, useAction } from '../../hooks.js';
import { html, useState } from '../../lib.js';
import { navigate } from '../../router.js';

export function GenerateDialog() {
  const [open, setOpen] = useState(false);
  const [userInput, setUserInput] = useState('');
  const [duration, setDuration] = useState('30');
  const [file, setFile] = useState(null);
  const [generate, { busy, error }] = useAction(async () => {
    const form = new FormData();
    if (userInput.trim()) form.set('userInput', userInput.trim());
    if (duration) form.set('duration', duration);
    if (file) form.set('file', file, file.name);
    const result = await request('POST', 'scenarios/create-with-gpt', { form });
    setOpen(false);
    navigate(`/scenarios/${result.scenario_id}`);
  });
  const submit = (event) => {
    event.preventDefault();
    generate();
  };
  return html`<${Button} onClick=${() => setOpen(true)}>Create from a description<//>
    <${Dialog} open=${open} title="Create a scenario from a description" onClose=${() => setOpen(false)}>
      <form class="form" onSubmit=${submit} id="generate-scenario">
        <${TextArea} label="What do you want to practise?" rows=${4} value=${userInput} onInput=${setUserInput}
          hint="For example: a mock interview for a senior data engineer at Acme." error=${fieldError(error, 'userInput')} />
        <${TextInput} label="Length in minutes" type="number" min="1" max="240" value=${duration} onInput=${setDuration}
          error=${fieldError(error, 'duration')} />
        <${Field} label="Résumé or job description" optional hint="Plain text, Markdown or PDF, at most 5 MB." error=${fieldError(error, 'file')}>
          ${(
            ids,
          ) => html`<input class="input" type="file" accept=".txt,.md,.pdf,text/plain,text/markdown,application/pdf"
            onChange=${(event) => setFile(event.currentTarget.files?.[0] ?? null)} ...${ids} />`}
        <//>
        <${ErrorNotice} error=${error && !['userInput', 'duration', 'file'].includes(error.param) ? error : null} />
        <div class="dialog__footer">
          <${Button} onClick=${() => setOpen(false)}>Cancel<//>
          <${Button} type="submit" variant="primary" busy=${busy}>Create scenario<//>
        </div>
      </form>
    <//>`;
}
