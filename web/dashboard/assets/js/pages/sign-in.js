// Sign-in and sign-up with the embedded accounts. After either, the visitor goes on to where they
// were headed (`next`), or the overview.
import { api } from '../api.js';
import { Button, ErrorNotice, TextInput } from '../components/ui.js';
import { fieldError, useAction } from '../hooks.js';
import { html, useEffect, useState } from '../lib.js';
import { href, navigate } from '../router.js';
import { signIn, useSession } from '../session.js';

/** Only dashboard addresses are followed after sign-in (never another site). */
function nextPath(query) {
  const next = query.next ?? '/';
  return next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

export default function SignIn({ path, query }) {
  const { session, setSession } = useSession();
  const signingUp = path === '/sign-up';
  const [values, setValues] = useState({ name: '', email: '', password: '' });
  const set = (key) => (value) => setValues({ ...values, [key]: value });

  useEffect(() => {
    if (session) navigate(nextPath(query), { replace: true });
  }, [session]);

  const [submit, { busy, error }] = useAction(async () => {
    if (signingUp) await api.post('/auth/signup', values, { quietAuth: true });
    setSession(await signIn(values.email, values.password));
  });

  const onSubmit = (event) => {
    event.preventDefault();
    submit();
  };

  return html`<div>
    <h1 tabindex="-1" data-page-title>${signingUp ? 'Create your account' : 'Sign in'}</h1>
    <p class="muted">${signingUp ? 'A workspace is created for you, with two example scenarios.' : 'Welcome back.'}</p>
    <form class="form" onSubmit=${onSubmit} novalidate>
      ${signingUp && html`<${TextInput} label="Your name" value=${values.name} onInput=${set('name')} autocomplete="name" required error=${fieldError(error, 'name')} />`}
      <${TextInput} label="Email" type="email" value=${values.email} onInput=${set('email')} autocomplete="email" required error=${fieldError(error, 'email')} />
      <${TextInput} label="Password" type="password" value=${values.password} onInput=${set('password')}
        autocomplete=${signingUp ? 'new-password' : 'current-password'} required minlength="8"
        hint=${signingUp ? 'At least 8 characters.' : undefined} error=${fieldError(error, 'password')} />
      ${error && !error.param && html`<${ErrorNotice} error=${error} title=${signingUp ? 'Your account was not created' : 'You are not signed in'} />`}
      <${Button} type="submit" variant="primary" busy=${busy}>${signingUp ? 'Create account' : 'Sign in'}<//>
    </form>
    <p class="auth__switch">
      ${
        signingUp
          ? html`Already have an account? <a href=${href('/sign-in')}>Sign in</a>`
          : html`New here? <a href=${href('/sign-up')}>Create an account</a>`
      }
    </p>
  </div>`;
}
