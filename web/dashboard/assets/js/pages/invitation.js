// An invitation link (`/#/invitations/<token>`, docs/teams.md): says which workspace and role it
// offers, then joins as the signed-in user, with the password of the invited address's account,
// or by creating that account.
import { api } from '../api.js';
import { Async, Button, ErrorNotice, Notice, TextInput } from '../components/ui.js';
import { fieldError, useAction, useApi } from '../hooks.js';
import { html, useState } from '../lib.js';
import { href, navigate } from '../router.js';
import { acceptInvitation, loadSession, ROLE_LABELS, useSession } from '../session.js';

export default function Invitation({ params }) {
  const { session, setSession } = useSession();
  const invitation = useApi(
    () => api.get(`/v1/auth/invitations/${encodeURIComponent(params.token)}`, undefined, { quietAuth: true }),
    [params.token],
  );
  const [values, setValues] = useState({ name: '', password: '' });
  const set = (key) => (value) => setValues({ ...values, [key]: value });
  const [accept, { busy, error }] = useAction(async (event, withPassword) => {
    event?.preventDefault();
    const body = session ? undefined : withPassword ? { password: values.password } : values;
    await acceptInvitation(params.token, body);
    setSession(await loadSession());
    navigate('/', { replace: true });
  });
  const next = encodeURIComponent(`/invitations/${params.token}`);
  return html`<div class="stack">
    <h1 tabindex="-1" data-page-title>Join a workspace</h1>
    <${Async} state=${invitation} rows=${2}>
      ${(offer) => {
        const role = ROLE_LABELS[offer.role];
        const intro = html`<p>${html`<strong>${offer.invited_by ?? 'A member'}</strong>`} invited ${html`<span class="break">${offer.email}</span>`} to ${html`<strong>${offer.workspace.name}</strong>`} as ${role.article} ${role.name.toLowerCase()}.</p>
          <p class="muted small">${role.text}</p>`;
        if (offer.status !== 'pending') {
          return html`${intro}<${Notice} kind="error">This invitation is ${offer.status}. Ask whoever invited you for a new link.<//>`;
        }
        if (session) {
          return html`${intro}
            <p>You are signed in as <span class="break">${session.user.email}</span>.</p>
            <${ErrorNotice} error=${error} title="You did not join" />
            <${Button} variant="primary" busy=${busy} onClick=${() => accept()}>Join ${offer.workspace.name}<//>`;
        }
        if (offer.has_account) {
          // An account with this address exists (perhaps removed from every workspace, so it
          // cannot sign in): its password joins.
          return html`${intro}
            <form class="form" onSubmit=${(event) => accept(event, true)} novalidate>
              <${TextInput} label="E-mail" value=${offer.email} readonly hint="You already have an account with this address." />
              <${TextInput} label="Your password" type="password" value=${values.password} onInput=${set('password')}
                autocomplete="current-password" required error=${fieldError(error, 'password') ?? (error?.code === 'invalid_credentials' ? error.message : null)} />
              <${ErrorNotice} error=${error && error.param !== 'password' && error.code !== 'invalid_credentials' ? error : null} title="You did not join" />
              <${Button} type="submit" variant="primary" busy=${busy}>Join ${offer.workspace.name}<//>
            </form>
            <p class="auth__switch"><a href=${href('/forgot-password')}>Forgot your password?</a></p>`;
        }
        return html`${intro}
          <form class="form" onSubmit=${accept} novalidate>
            <${TextInput} label="E-mail" value=${offer.email} readonly hint="Your account uses the invited address." />
            <${TextInput} label="Your name" value=${values.name} onInput=${set('name')} autocomplete="name" required error=${fieldError(error, 'name')} />
            <${TextInput} label="Choose a password" type="password" value=${values.password} onInput=${set('password')}
              autocomplete="new-password" required minlength="8" hint="At least 8 characters." error=${fieldError(error, 'password')} />
            <${ErrorNotice} error=${error && !['name', 'password'].includes(error.param) ? error : null} title="You did not join" />
            <${Button} type="submit" variant="primary" busy=${busy}>Create account and join<//>
          </form>
          <p class="auth__switch">Already have an account? <a href=${href(`/sign-in?next=${next}`)}>Sign in</a> to join with it.</p>`;
      }}
    <//>
  </div>`;
}
