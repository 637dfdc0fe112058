import { useEffect, useState } from 'react';
import { api } from '../client/api.js';
import { screens, screenFor } from '../admin/screens.js';

interface Me {
  email: string;
  role: number;
  displayName: string;
}

/** The /config shell: navigation, the signed-in owner, and the screen for the current path. */
export function AdminShell() {
  const [me, setMe] = useState<Me | null>(null);
  useEffect(() => {
    api<Me>('GET', '/api/auth/me').then(setMe, () => setMe(null));
  }, []);
  const path = window.location.pathname;
  const screen = screenFor(path);
  const Screen = screen?.component;

  async function signOut() {
    await api('POST', '/api/auth/logout');
    window.location.assign('/config/login');
  }

  return (
    <div className="admin-shell">
      <header className="admin-shell__bar">
        <span className="admin-shell__brand">Tessera</span>
        <nav aria-label="Admin">
          <ul>
            {screens
              .filter((s) => s.label)
              .map((s) => (
                <li key={s.path}>
                  <a href={s.path} aria-current={screen?.path === s.path ? 'page' : undefined}>
                    {s.label}
                  </a>
                </li>
              ))}
            <li>
              <a href="/" target="_blank" rel="noreferrer">
                View site
              </a>
            </li>
          </ul>
        </nav>
        <span className="admin-shell__me">{me ? me.email : ''}</span>
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main className="admin-shell__main">{Screen ? <Screen path={path} /> : <h1>Not found</h1>}</main>
    </div>
  );
}
