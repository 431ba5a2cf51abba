import { useState } from 'preact/hooks';
import { html } from '../html.js';
import { ErrorMessage } from '../notices.js';
import { api } from '../api.js';

/** One field: ADMIN_TOKEN signs the operator in, an API key its customer. */
export function SignIn({ onSignedIn }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await api('/admin/session', { method: 'POST', body: { token } }));
    } catch (e) {
      setError(e.message);
    } finally {
      setBusy(false);
    }
  };
  return html`<main id="main" class="signin">
    <h1>leadbase console</h1>
    <p>Operators sign in with the server's <code>ADMIN_TOKEN</code>; customers with their API key.</p>
    <form onSubmit=${submit}>
      <label for="token">Admin token or API key</label>
      <input
        id="token"
        name="token"
        type="password"
        autocomplete="current-password"
        required
        value=${token}
        onInput=${(e) => setToken(e.currentTarget.value)}
      />
      <button type="submit" disabled=${busy}>${busy ? 'Signing in…' : 'Sign in'}</button>
      <${ErrorMessage} message=${error} />
    </form>
  </main>`;
}
