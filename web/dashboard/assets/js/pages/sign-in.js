// Sign-in and sign-up with the embedded accounts, and "Sign in with <provider>" when the server has
// an identity provider (GET /v1/auth/providers). After either, the visitor goes on to where they
// were headed (`next`), or the overview. A failed provider sign-in comes back as `?error=<code>`.
import { Button, ErrorNotice, Notice, TextInput } from '../components/ui.js';
import { fieldError, useAction, useApi } from '../hooks.js';
import { html, useEffect, useState } from '../lib.js';
import { href, navigate } from '../router.js';
import { loadProviders, signIn, signUp, useSession } from '../session.js';

/** Only dashboard addresses are followed after sign-in (never another site). */
function nextPath(query) {
  const next = query.next ?? '/';
  return next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

/** What the codes of a failed provider sign-in (`/#/sign-in?error=…`) mean to the visitor. */
const PROVIDER_ERRORS = {
  oidc_unavailable: 'The identity provider could not be reached. Try again in a moment.',
  oidc_denied: 'The identity provider did not sign you in.',
  oidc_state_mismatch: 'That sign-in took too long or was started in another window. Please try again.',
  oidc_exchange_failed: 'The identity provider’s answer could not be verified. Please try again.',
  oidc_token_invalid: 'The identity provider’s answer could not be verified. Please try again.',
};

function ProviderButton({ providers }) {
  const oidc = providers?.oidc;
  if (!oidc) return null;
  return html`<div class="auth__provider">
    <a class="button button--secondary auth__provider-button" href=${oidc.start_url}>Sign in with ${oidc.name}</a>
    <p class="auth__or muted"><span>or with your e-mail</span></p>
  </div>`;
}

export default function SignIn({ path, query }) {
  const { session, setSession } = useSession();
  const signingUp = path === '/sign-up';
  const [values, setValues] = useState({ name: '', email: '', password: '' });
  const set = (key) => (value) => setValues({ ...values, [key]: value });
  const providers = useApi(() => loadProviders(), []);

  useEffect(() => {
    if (session) navigate(nextPath(query), { replace: true });
  }, [session]);

  const [submit, { busy, error }] = useAction(async () => {
    setSession(signingUp ? await signUp(values) : await signIn(values.email, values.password));
  });

  const onSubmit = (event) => {
    event.preventDefault();
    submit();
  };

  const providerError =
    query.error && (PROVIDER_ERRORS[query.error] ?? 'The sign-in did not complete. Please try again.');
  const signupOpen = providers.data?.signup !== false;

  return html`<div>
    <h1 tabindex="-1" data-page-title>${signingUp ? 'Create your account' : 'Sign in'}</h1>
    <p class="muted">${signingUp ? 'A workspace is created for you, with two example scenarios.' : 'Welcome back.'}</p>
    ${providerError && html`<${Notice} kind="error"><strong>You are not signed in</strong><p>${providerError}</p><//>`}
    ${query.reset === 'done' && html`<${Notice} kind="success">Your password was changed. Sign in with the new one.<//>`}
    ${signingUp && !signupOpen && html`<${Notice} kind="warn">This server does not accept new accounts. Ask an administrator for access.<//>`}
    ${!signingUp && html`<${ProviderButton} providers=${providers.data} />`}
    <form class="form" onSubmit=${onSubmit} novalidate>
      ${signingUp && html`<${TextInput} label="Your name" value=${values.name} onInput=${set('name')} autocomplete="name" required error=${fieldError(error, 'name')} />`}
      <${TextInput} label="Email" type="email" value=${values.email} onInput=${set('email')} autocomplete="email" required error=${fieldError(error, 'email')} />
      <${TextInput} label="Password" type="password" value=${values.password} onInput=${set('password')}
        autocomplete=${signingUp ? 'new-password' : 'current-password'} required minlength="8"
        hint=${signingUp ? 'At least 8 characters.' : undefined} error=${fieldError(error, 'password')} />
      ${error && !error.param && html`<${ErrorNotice} error=${error} title=${signingUp ? 'Your account was not created' : 'You are not signed in'} />`}
      <${Button} type="submit" variant="primary" busy=${busy}>${signingUp ? 'Create account' : 'Sign in'}<//>
    </form>
    ${!signingUp && html`<p class="auth__switch"><a href=${href('/forgot-password')}>Forgot your password?</a></p>`}
    <p class="auth__switch">
      ${
        signingUp
          ? html`Already have an account? <a href=${href('/sign-in')}>Sign in</a>`
          : signupOpen && html`New here? <a href=${href('/sign-up')}>Create an account</a>`
      }
    </p>
  </div>`;
}
