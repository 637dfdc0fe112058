/** The visitor's account forms: sign in, sign up, password reset, the account page and the access-denied page. */
import { useState, type FormEvent } from 'react';
import { members as memberMessages } from '../../core/messages.js';
import { requestPasswordReset, resetPassword, setLocale, signIn, signOut, signUp, type SiteLanguage } from '../client/site-user.js';

export type AccountMode = 'login' | 'signup' | 'reset-request' | 'reset' | 'account' | 'denied';

export interface AccountPageProps {
  mode: AccountMode;
  error?: string;
  /** Where to go after signing in (a same-site path). */
  next?: string;
  token?: string;
  user: { email: string; displayName: string; language: string } | null;
  languages: SiteLanguage[];
  /** The visitor's crumb: each form is also a plain POST (no JavaScript), never a password in an address. */
  crumb?: string;
  /** The server's answer to a plain post: a notice, and the values to keep (never a password). */
  notice?: string;
  values?: { email?: string; displayName?: string };
}

/** Where each form posts (the same calls the island makes). */
export const ACCOUNT_ACTIONS = {
  login: '/api/site-users/account/session',
  signup: '/api/site-users/accounts',
  resetRequest: '/api/site-users/account/password-reset',
  reset: '/api/site-users/account/password',
} as const;

function Crumb({ crumb }: { crumb?: string }) {
  return crumb ? <input type="hidden" name="crumb" value={crumb} /> : null;
}

function useSubmit(initial: { error?: string; notice?: string } = {}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(initial.error ?? '');
  const [notice, setNotice] = useState(initial.notice ?? '');
  const run = async (fn: () => Promise<string | void>) => {
    setBusy(true);
    setError('');
    setNotice('');
    try {
      const msg = await fn();
      if (msg) setNotice(msg);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, notice, run, setError };
}

function Messages({ error, notice }: { error: string; notice: string }) {
  return (
    <>
      {error ? (
        <p className="account-form__error" role="alert">
          {error}
        </p>
      ) : null}
      {notice ? (
        <p className="account-form__notice" role="status">
          {notice}
        </p>
      ) : null}
    </>
  );
}

function Login({ error: initial, next, crumb, notice, values }: { error?: string; next?: string; crumb?: string; notice?: string; values?: AccountPageProps['values'] }) {
  const s = useSubmit({ notice });
  const [email, setEmail] = useState(values?.email ?? '');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void s.run(async () => {
      await signIn(email, password, remember);
      window.location.assign(next ?? '/account');
    });
  };
  return (
    <form className="account-form" method="post" action={ACCOUNT_ACTIONS.login} onSubmit={submit} aria-label="Sign in">
      <Crumb crumb={crumb} />
      {next ? <input type="hidden" name="next" value={next} /> : null}
      <h1>Sign in</h1>
      <Messages error={s.error || initial || ''} notice={s.notice} />
      <label>
        Email
        <input type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
      <label>
        Password
        <input type="password" name="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
      </label>
      <label className="account-form__check">
        <input type="checkbox" name="rememberMe" value="true" checked={remember} onChange={(e) => setRemember(e.target.checked)} /> Keep me signed in
      </label>
      <button type="submit" disabled={s.busy}>
        {s.busy ? 'Signing in…' : 'Sign in'}
      </button>
      <p>
        <a href="/account/signup">Create an account</a> · <a href="/account/reset">Forgot your password?</a>
      </p>
    </form>
  );
}

function SignUp({ crumb, error, notice, values }: { crumb?: string; error?: string; notice?: string; values?: AccountPageProps['values'] }) {
  const s = useSubmit({ error, notice });
  const [email, setEmail] = useState(values?.email ?? '');
  const [password, setPassword] = useState('');
  const [name, setName] = useState(values?.displayName ?? '');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void s.run(() => signUp(email, password, name));
  };
  return (
    <form className="account-form" method="post" action={ACCOUNT_ACTIONS.signup} onSubmit={submit} aria-label="Create an account">
      <Crumb crumb={crumb} />
      <h1>Create an account</h1>
      <Messages error={s.error} notice={s.notice} />
      <label>
        Name
        <input name="displayName" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        Email
        <input type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
      <label>
        Password
        <input type="password" name="password" autoComplete="new-password" minLength={8} required value={password} onChange={(e) => setPassword(e.target.value)} />
      </label>
      <button type="submit" disabled={s.busy}>
        {s.busy ? 'Creating…' : 'Create account'}
      </button>
      <p>
        Have an account? <a href="/account/login">Sign in</a>
      </p>
    </form>
  );
}

function ResetRequest({ crumb, error, notice, values }: { crumb?: string; error?: string; notice?: string; values?: AccountPageProps['values'] }) {
  const s = useSubmit({ error, notice });
  const [email, setEmail] = useState(values?.email ?? '');
  return (
    <form
      className="account-form"
      method="post"
      action={ACCOUNT_ACTIONS.resetRequest}
      aria-label="Reset your password"
      onSubmit={(e) => {
        e.preventDefault();
        void s.run(() => requestPasswordReset(email));
      }}
    >
      <Crumb crumb={crumb} />
      <h1>Reset your password</h1>
      <Messages error={s.error} notice={s.notice} />
      <label>
        Email
        <input type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
      <button type="submit" disabled={s.busy}>
        Send me a link
      </button>
    </form>
  );
}

function Reset({ token, crumb, error, notice }: { token: string; crumb?: string; error?: string; notice?: string }) {
  const s = useSubmit({ error, notice });
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(!!notice);
  return (
    <form
      className="account-form"
      method="post"
      action={ACCOUNT_ACTIONS.reset}
      aria-label="Choose a new password"
      onSubmit={(e) => {
        e.preventDefault();
        void s.run(async () => {
          await resetPassword(token, password);
          setDone(true);
          return 'Your password is changed. You can sign in now.';
        });
      }}
    >
      <Crumb crumb={crumb} />
      <input type="hidden" name="token" value={token} />
      <h1>Choose a new password</h1>
      <Messages error={s.error} notice={s.notice} />
      {done ? (
        <a href="/account/login">Sign in</a>
      ) : (
        <>
          <label>
            New password
            <input type="password" name="password" autoComplete="new-password" minLength={8} required value={password} onChange={(e) => setPassword(e.target.value)} />
          </label>
          <button type="submit" disabled={s.busy}>
            Save password
          </button>
        </>
      )}
    </form>
  );
}

function Account({ user, languages }: { user: NonNullable<AccountPageProps['user']>; languages: SiteLanguage[] }) {
  const s = useSubmit();
  const [keepCart, setKeepCart] = useState(true);
  const [language, setLanguage] = useState(user.language);
  return (
    <div className="account-form">
      <h1>Your account</h1>
      <p>Signed in as {user.displayName ? `${user.displayName} (${user.email})` : user.email}.</p>
      <Messages error={s.error} notice={s.notice} />
      {languages.length > 0 ? (
        <label>
          Language
          <select
            value={language}
            onChange={(e) => {
              const l = languages.find((x) => x.code === e.target.value);
              setLanguage(e.target.value);
              if (l) void s.run(async () => ((await setLocale(l)) ? 'Language saved.' : undefined));
            }}
          >
            <option value="">Site default</option>
            {languages.map((l) => (
              <option key={l.code} value={l.code}>
                {l.code}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <label className="account-form__check">
        <input type="checkbox" checked={keepCart} onChange={(e) => setKeepCart(e.target.checked)} /> Keep my cart on this device
      </label>
      <button
        type="button"
        disabled={s.busy}
        onClick={() =>
          void s.run(async () => {
            await signOut(keepCart);
            window.location.assign('/account/login');
          })
        }
      >
        Sign out
      </button>
    </div>
  );
}

function Denied({ signedIn }: { signedIn: boolean }) {
  return (
    <div className="account-form">
      <h1>Members only</h1>
      <p>{signedIn ? 'This area is for members. Join to see it.' : memberMessages.DENIED_TEXT}</p>
      <p>
        <a className="button" href="/account/signup">
          {memberMessages.JOIN_BUTTON}
        </a>{' '}
        {signedIn ? null : <a href="/account/login">{memberMessages.SIGN_IN_BUTTON}</a>}
      </p>
    </div>
  );
}

export function AccountPage(props: AccountPageProps) {
  switch (props.mode) {
    case 'login':
      return <Login error={props.error} next={props.next} crumb={props.crumb} notice={props.notice} values={props.values} />;
    case 'signup':
      return <SignUp crumb={props.crumb} error={props.error} notice={props.notice} values={props.values} />;
    case 'reset-request':
      return <ResetRequest crumb={props.crumb} error={props.error} notice={props.notice} values={props.values} />;
    case 'reset':
      return <Reset token={props.token ?? ''} crumb={props.crumb} error={props.error} notice={props.notice} />;
    case 'account':
      return props.user ? <Account user={props.user} languages={props.languages} /> : <Login crumb={props.crumb} />;
    case 'denied':
      return <Denied signedIn={!!props.user} />;
  }
}
