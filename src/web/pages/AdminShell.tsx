import { useEffect, useState } from 'react';
import { api } from '../client/api.js';

interface Me {
  email: string;
  role: number;
  displayName: string;
}

export interface AdminSection {
  path: string;
  label: string;
}

/** Screens that later areas add to the shell; each owns its path under /config. */
export const adminSections: AdminSection[] = [{ path: '/config', label: 'Dashboard' }];

/** The /config shell: navigation, the signed-in owner, and the area for each screen. */
export function AdminShell() {
  const [me, setMe] = useState<Me | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    api<Me>('GET', '/api/auth/me').then(setMe, (e: Error) => setError(e.message));
  }, []);

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
            {adminSections.map((s) => (
              <li key={s.path}>
                <a href={s.path}>{s.label}</a>
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
      <main className="admin-shell__main">
        <h1>Dashboard</h1>
        {error ? <p role="alert">{error}</p> : <p>{me ? `Signed in as ${me.displayName || me.email}.` : 'Loading…'}</p>}
      </main>
    </div>
  );
}
