/**
 * The console's entry: the session (login, logout, expiry), the navigation, the pages by hash
 * route, and the light/dark theme (the system's, or the user's choice, remembered).
 */
import { html } from 'htm/preact';
import { type ComponentChild, render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { mayRunKind, mayRunMinion } from './acl.js';
import { logout, SESSION_ENDED, type Session, savedSession, saveSession } from './api.js';
import { EventsView } from './events-view.js';
import { useRoute } from './hooks.js';
import { JobsView, JobView } from './jobs-view.js';
import { KeysView } from './keys-view.js';
import { LoginView } from './login-view.js';
import { MinionsView } from './minions-view.js';
import { RunView } from './run-view.js';
import { RunnersView } from './runners-view.js';
import { SchedulesView } from './schedules-view.js';
import { StatesView } from './states-view.js';
import { closeStream, openStream } from './stream.js';

type Theme = 'light' | 'dark';

function initialTheme(): Theme {
  const saved = localStorage.getItem('tsalt-console-theme');
  if (saved === 'light' || saved === 'dark') return saved;
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function Nav(props: {
  session: Session;
  page: string;
  theme: Theme;
  onTheme: () => void;
  onLogout: () => void;
}) {
  const p = props.session.perms;
  const links: [string, string, boolean][] = [
    ['minions', 'Minions', true],
    ['run', 'Run', true],
    ['states', 'States', mayRunMinion(p, 'state.apply')],
    ['jobs', 'Jobs', mayRunKind(p, 'runner', 'jobs.list_jobs')],
    ['keys', 'Keys', mayRunKind(p, 'wheel', 'key.list_all')],
    ['schedules', 'Schedules', mayRunMinion(p, 'schedule.list')],
    ['events', 'Events', true],
    [
      'runners',
      'Runners',
      mayRunKind(p, 'runner', 'manage.status') || mayRunKind(p, 'runner', 'jobs.active'),
    ],
  ];
  return html`<nav aria-label="Pages">
    <strong class="brand">tsalt</strong>
    ${links
      .filter(([, , ok]) => ok)
      .map(
        ([path, label]) =>
          html`<a href=${`#/${path}`} aria-current=${props.page === path ? 'page' : undefined}>${label}</a>`,
      )}
    <span class="spacer"></span>
    <span class="who">${props.session.user} (${props.session.eauth})</span>
    <button type="button" class="secondary" onClick=${props.onTheme} aria-label="Toggle dark mode">
      ${props.theme === 'dark' ? 'Light' : 'Dark'}
    </button>
    <button type="button" class="secondary" onClick=${props.onLogout}>Log out</button>
  </nav>`;
}

function App() {
  const [session, setSession] = useState<Session | undefined>(savedSession);
  const [theme, setTheme] = useState<Theme>(initialTheme);
  const route = useRoute();
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  // the event stream opens with the session: the events tail shows what came since
  useEffect(() => {
    if (session) openStream().catch(() => undefined);
  }, [session]);
  const toggle = () => {
    const next = theme === 'dark' ? 'light' : 'dark';
    localStorage.setItem('tsalt-console-theme', next);
    setTheme(next);
  };
  const onLogin = (s: Session) => {
    saveSession(s);
    setSession(s);
    if (!route.parts[0]) location.hash = '#/minions';
  };
  const onLogout = () => {
    if (session) void logout(session.token);
    closeStream();
    saveSession(undefined);
    setSession(undefined);
  };
  useEffect(() => {
    const ended = () => {
      closeStream();
      saveSession(undefined);
      setSession(undefined);
    };
    addEventListener(SESSION_ENDED, ended);
    return () => removeEventListener(SESSION_ENDED, ended);
  }, []);
  if (!session) return html`<${LoginView} onLogin=${onLogin} />`;
  const [page = 'minions', arg] = route.parts;
  let view: ComponentChild;
  if (page === 'run')
    view = html`<${RunView} session=${session} query=${route.query} key=${route.query.toString()} />`;
  else if (page === 'jobs' && arg) view = html`<${JobView} session=${session} jid=${arg} />`;
  else if (page === 'jobs') view = html`<${JobsView} session=${session} />`;
  else if (page === 'keys') view = html`<${KeysView} session=${session} />`;
  else if (page === 'events') view = html`<${EventsView} />`;
  else if (page === 'states') view = html`<${StatesView} session=${session} />`;
  else if (page === 'schedules') view = html`<${SchedulesView} session=${session} />`;
  else if (page === 'runners') view = html`<${RunnersView} session=${session} />`;
  else view = html`<${MinionsView} session=${session} />`;
  return html`<${Nav} session=${session} page=${page} theme=${theme} onTheme=${toggle} onLogout=${onLogout} />${view}`;
}

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(html`<${App} />`, root);
}
