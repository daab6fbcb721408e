/** The login form: username, password and an eauth choice (the first configured back end by default). */
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, consoleConfig, login, type Session } from './api.js';

export function LoginView(props: { onLogin: (s: Session) => void }) {
  const [backends, setBackends] = useState<string[]>([]);
  const [eauth, setEauth] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    consoleConfig().then(
      (c) => {
        setBackends(c.eauth);
        setEauth((e) => e || c.eauth[0] || 'pam');
      },
      () => setBackends([]),
    );
  }, []);
  const submit = async (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    setBusy(true);
    setError(undefined);
    try {
      props.onLogin(await login(String(form.get('username')), String(form.get('password')), eauth));
    } catch (err) {
      if (err instanceof ApiError && err.status === 401)
        setError('Login failed: wrong username, password or eauth.');
      else if (err instanceof ApiError && err.status === 429)
        setError(`Login refused for now: ${err.message}`);
      else setError(`Login failed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      setBusy(false);
    }
  };
  const options = backends.length ? backends : eauth ? [eauth] : [];
  return html`<main class="login">
    <form class="card" onSubmit=${submit} aria-label="Log in">
      <h1>tsalt console</h1>
      <label>Username <input name="username" autocomplete="username" required autofocus /></label>
      <label>Password <input name="password" type="password" autocomplete="current-password" /></label>
      <label
        >Eauth
        <select name="eauth" value=${eauth} onChange=${(e: Event) => setEauth((e.target as HTMLSelectElement).value)}>
          ${options.map((b) => html`<option value=${b}>${b}</option>`)}
        </select>
      </label>
      ${error && html`<p class="error" role="alert">${error}</p>`}
      <button type="submit" disabled=${busy}>Log in</button>
    </form>
  </main>`;
}
