// The console's shell: sign-in, the session, navigation between screens (hash routes), light/dark.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { html } from './html.js';
import { Loading } from './notices.js';
import { api, setCsrf } from './api.js';
import { SignIn } from './screens/sign-in.js';
import { Overview } from './screens/overview.js';
import { Keys, KeyDetail } from './screens/keys.js';
import { Sources } from './screens/sources.js';
import { Audit } from './screens/audit.js';
import { Explore } from './screens/explore.js';

function useHash() {
  const [hash, setHash] = useState(location.hash.slice(1) || '');
  useEffect(() => {
    const onChange = () => setHash(location.hash.slice(1) || '');
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return hash;
}

function useTheme() {
  const [theme, setTheme] = useState(() => localStorage.getItem('leadbase-theme') ?? 'auto');
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
    localStorage.setItem('leadbase-theme', theme);
  }, [theme]);
  return [theme, setTheme];
}

const OPERATOR_SCREENS = [
  ['/overview', 'Overview'],
  ['/keys', 'Keys'],
  ['/sources', 'Sources'],
  ['/explore', 'Explore'],
  ['/audit', 'Audit log'],
];

const CUSTOMER_SCREENS = [
  ['/key', 'My key'],
  ['/explore', 'Explore'],
];

function Screen({ session, path }) {
  const parts = path.split('/').filter(Boolean);
  if (parts[0] === 'explore') return html`<${Explore} session=${session} />`;
  if (session.role === 'customer') {
    // A customer has one key: its page, and Explore to spend it.
    return html`<${KeyDetail} id=${session.key_id} session=${session} />`;
  }
  if (parts[0] === 'keys' && parts[1]) return html`<${KeyDetail} id=${Number(parts[1])} session=${session} />`;
  if (parts[0] === 'keys') return html`<${Keys} session=${session} />`;
  if (parts[0] === 'sources') return html`<${Sources} />`;
  if (parts[0] === 'audit') return html`<${Audit} />`;
  return html`<${Overview} />`;
}

function App() {
  const [session, setSession] = useState(undefined);
  const [theme, setTheme] = useTheme();
  const path = useHash() || '/overview';

  useEffect(() => {
    api('/admin/session').then(
      (s) => {
        setCsrf(s.csrf_token);
        setSession(s);
      },
      () => setSession(null),
    );
  }, []);

  const signedIn = (s) => {
    setCsrf(s.csrf_token);
    setSession(s);
    if (s.role === 'operator' && !location.hash) location.hash = '#/overview';
  };
  const signOut = async () => {
    await api('/admin/session', { method: 'DELETE' }).catch(() => {});
    setCsrf(null);
    setSession(null);
  };

  // Cycles: the system's choice, light, dark.
  const nextTheme = { auto: 'light', light: 'dark', dark: 'auto' }[theme] ?? 'auto';
  const themeButton = html`<button class="ghost" type="button" onClick=${() => setTheme(nextTheme)}>Theme: ${theme}</button>`;

  if (session === undefined) return html`<main id="main"><${Loading} what="Loading…" /></main>`;
  if (session === null)
    return html`<div class="signin-page">
      <div class="signin-top">${themeButton}</div>
      <${SignIn} onSignedIn=${signedIn} />
    </div>`;

  const first = '/' + (path.split('/').filter(Boolean)[0] ?? 'overview');
  // A customer's every path but Explore shows its key.
  const current = session.role === 'customer' && first !== '/explore' ? '/key' : first;
  return html`<div class="shell">
    <a class="skip" href="#main">Skip to content</a>
    <header class="top">
      <span class="brand">leadbase <small>${session.role === 'operator' ? 'operator' : `key ${session.key_id}`}</small></span>
      <nav aria-label="Screens">
        ${(session.role === 'operator' ? OPERATOR_SCREENS : CUSTOMER_SCREENS).map(
          ([to, label]) => html`<a href=${`#${to}`} aria-current=${current === to ? 'page' : undefined}>${label}</a>`,
        )}
      </nav>
      <span class="spacer"></span>
      ${themeButton}
      <button class="ghost" type="button" onClick=${signOut}>Sign out</button>
    </header>
    <main id="main" tabindex="-1"><${Screen} session=${session} path=${path} /></main>
  </div>`;
}

const root = document.getElementById('app');
// The page's "Loading…" placeholder goes: Preact renders beside what a container holds.
root.textContent = '';
render(html`<${App} />`, root);
