// "Forgot your password?": asks the server for a reset link. The answer is the same whether or not
// the address has an account, so the page says so rather than confirming anything.
import { api } from '../api.js';
import { Button, ErrorNotice, Notice, TextInput } from '../components/ui.js';
import { fieldError, useAction } from '../hooks.js';
import { html, useState } from '../lib.js';
import { href } from '../router.js';

export default function ForgotPassword() {
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState(null);
  const [submit, { busy, error }] = useAction(async () => {
    await api.post('/v1/auth/password-resets', { email }, { quietAuth: true });
    setSentTo(email);
  });
  const onSubmit = (event) => {
    event.preventDefault();
    submit();
  };

  return html`<div>
    <h1 tabindex="-1" data-page-title>Forgot your password?</h1>
    ${
      sentTo
        ? html`<${Notice} kind="success">
            <strong>Check for the reset link</strong>
            <p>If an account uses ${sentTo}, a link to choose a new password has been issued. It works once, for one hour.</p>
            <p class="small">On a development server the link is written to the server’s log.</p>
          <//>`
        : html`<p class="muted">Enter the e-mail address of your account and we will issue a link to choose a new password.</p>
          <form class="form" onSubmit=${onSubmit} novalidate>
            <${TextInput} label="Email" type="email" value=${email} onInput=${setEmail} autocomplete="email" required error=${fieldError(error, 'email')} />
            ${error && !error.param && html`<${ErrorNotice} error=${error} title="No link was issued" />`}
            <${Button} type="submit" variant="primary" busy=${busy}>Send reset link<//>
          </form>`
    }
    <p class="auth__switch"><a href=${href('/sign-in')}>Back to sign-in</a></p>
  </div>`;
}
