// Choosing a new password from a reset link (`/#/reset-password?token=…`). The token works once;
// afterwards the visitor signs in with the new password (their other sessions were ended).
import { api } from '../api.js';
import { Button, ErrorNotice, Notice, TextInput } from '../components/ui.js';
import { fieldError, useAction } from '../hooks.js';
import { html, useState } from '../lib.js';
import { href, navigate } from '../router.js';

export default function ResetPassword({ query }) {
  const token = query.token ?? '';
  const [values, setValues] = useState({ password: '', repeat: '' });
  const [mismatch, setMismatch] = useState(null);
  const set = (key) => (value) => {
    setValues({ ...values, [key]: value });
    setMismatch(null);
  };
  const [submit, { busy, error }] = useAction(async () => {
    await api.post(
      '/v1/auth/password-resets/confirm',
      { token, password: values.password },
      { quietAuth: true },
    );
    navigate('/sign-in?reset=done', { replace: true });
  });
  const onSubmit = (event) => {
    event.preventDefault();
    if (values.password !== values.repeat) {
      setMismatch('The two passwords are not the same.');
      return;
    }
    setMismatch(null);
    submit();
  };
  const tokenError = fieldError(error, 'token');

  if (!token) {
    return html`<div>
      <h1 tabindex="-1" data-page-title>Choose a new password</h1>
      <${Notice} kind="error">This address has no reset token. Open the link exactly as it was given, or ask for a new one.<//>
      <p class="auth__switch"><a href=${href('/forgot-password')}>Ask for a new link</a></p>
    </div>`;
  }

  return html`<div>
    <h1 tabindex="-1" data-page-title>Choose a new password</h1>
    <p class="muted">After this, you sign in with the new password everywhere; other signed-in browsers are signed out.</p>
    ${tokenError && html`<${Notice} kind="error"><p>${tokenError}</p><p><a href=${href('/forgot-password')}>Ask for a new link</a></p><//>`}
    <form class="form" onSubmit=${onSubmit} novalidate>
      <${TextInput} label="New password" type="password" value=${values.password} onInput=${set('password')}
        autocomplete="new-password" required minlength="8" hint="At least 8 characters." error=${fieldError(error, 'password')} />
      <${TextInput} label="Repeat the new password" type="password" value=${values.repeat} onInput=${set('repeat')}
        autocomplete="new-password" required minlength="8" error=${mismatch} />
      ${error && !error.param && html`<${ErrorNotice} error=${error} title="Your password was not changed" />`}
      <${Button} type="submit" variant="primary" busy=${busy}>Set new password<//>
    </form>
  </div>`;
}
