// A public scenario's open practice link (docs/assignments.md, "Open practice links"): one link to
// hand out in a class, a newsletter or an onboarding page; each visitor gives a name and practises.
import { api } from '../../api.js';
import { Button, Card, ConfirmButton, CopyLink, ErrorNotice, Loading, Notice } from '../../components/ui.js';
import { formatDateTime } from '../../format.js';
import { useAction, useApi } from '../../hooks.js';
import { html } from '../../lib.js';
import { mayCoach, useSession } from '../../session.js';

export function PracticeLinkSection({ scenario }) {
  const { session } = useSession();
  const path = `scenarios/${scenario.id}/practice-link`;
  const link = useApi(() => api.get(path).then((body) => body.data), [scenario.id]);
  const [open, opening] = useAction(async () => link.setData((await api.post(path)).data));
  const editable = mayCoach(session?.role);
  if (scenario.visibility !== 'public') {
    return html`<${Card} title="Open practice link">
      <${Notice}>This scenario is invite-only. Make it public (Details & script → Visibility) to share one link that anyone can practise with.<//>
    <//>`;
  }
  if (link.loading && !link.data)
    return html`<${Card} title="Open practice link"><${Loading} rows=${2} /><//>`;
  return html`<${Card} title="Open practice link">
    <p class="muted">Anyone with this link can practise this scenario without an account. They give their name (and an e-mail, if they like) and each visit starts a new meeting, which shows up under Meetings and People. Starts are limited per network address and per link, so a leaked link cannot run up meetings.</p>
    <${ErrorNotice} error=${link.error ?? opening.error} />
    ${
      link.data && !link.data.url
        ? html`<p>This scenario has an open practice link. Coaches and authors can copy it.</p>`
        : link.data
          ? html`<div class="secret__row">
            <code class="secret__value" data-practice-link>${link.data.url}</code>
            <${CopyLink} url=${link.data.url} />
          </div>
          <p class="small muted">Made ${formatDateTime(link.data.created_at)}.</p>
          ${
            editable &&
            html`<div class="row-actions">
              <${ConfirmButton} label="Replace link" buttonVariant="secondary" variant="primary" title="Replace the link?"
                message="A new link is made and the current one stops working for everyone who has it."
                onConfirm=${open} />
              <${ConfirmButton} label="Close link" buttonVariant="ghost" title="Close the link?"
                message="The link stops working. Meetings already held stay."
                confirmLabel="Close link"
                onConfirm=${async () => {
                  await api.del(path);
                  link.setData(null);
                }} />
            </div>`
          }`
          : editable
            ? html`<${Button} variant="primary" busy=${opening.busy} onClick=${() => open()}>Create practice link<//>`
            : html`<p>No open practice link yet.</p>`
    }
  <//>`;
}
