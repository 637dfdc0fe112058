import { useState, type FormEvent } from 'react';
import { api, ApiError } from '../client/api.js';

export interface LoginPageProps {
  error?: string;
  next?: string;
  crumb: string;
}

/** The owner sign-in form. Works as a plain form post without JavaScript; with it, errors show in place. */
export function LoginPage(props: LoginPageProps) {
  const [error, setError] = useState(props.error ?? '');
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError('');
    try {
      await api('POST', '/api/auth/login', { email: form.get('email'), password: form.get('password') });
      window.location.assign(props.next && props.next.startsWith('/config') ? props.next : '/config');
    } catch (err) {
      setError(
        err instanceof ApiError && err.crumbFail
          ? 'Your session has expired. Please reload the page and try again.'
          : (err as Error).message,
      );
      setBusy(false);
    }
  }

  return (
    <main className="admin-login">
      <h1>Sign in to Tessera</h1>
      <form method="post" action="/api/auth/login" onSubmit={onSubmit} noValidate>
        <input type="hidden" name="crumb" value={props.crumb} />
        <input type="hidden" name="next" value={props.next ?? '/config'} />
        {error ? (
          <p role="alert" className="admin-login__error">
            {error}
          </p>
        ) : null}
        <label>
          Email
          <input type="email" name="email" autoComplete="username" required />
        </label>
        <label>
          Password
          <input type="password" name="password" autoComplete="current-password" required />
        </label>
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p className="admin-login__links">
        <a href="/config/forgot">Forgot password?</a>
      </p>
    </main>
  );
}
