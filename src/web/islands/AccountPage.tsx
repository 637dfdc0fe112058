/** The visitor's account forms: sign in, sign up, password reset, the account page and the access-denied page. */
import type { AddressFormat, CountryOption } from '../../core/api/common.js';
import { useEffect, useState, type FormEvent } from 'react';
import { members as memberMessages } from '../../core/messages.js';
import {
  confirmAccount,
  requestPasswordReset,
  resetPassword,
  setLocale,
  signIn,
  signOut,
  signUp,
  type SiteLanguage,
} from '../client/site-user.js';
import { AddressFields, useAddressFormat, type AddressValues } from '../shared/AddressFields.js';
import {
  CONFIRM_TITLE,
  type AccountDashboard,
  type AccountFormError,
  type AccountMode,
  type AccountPageProps,
  type AccountSubscriptionStatus,
  type SavedAddress,
} from '../../core/api/accounts.js';

export {
  CONFIRM_TITLE,
  type AccountDashboard,
  type AccountFormError,
  type AccountMode,
  type AccountPageProps,
  type AccountSubscriptionStatus,
  type SavedAddress,
};

const SUBSCRIPTION_STATUS_LABELS: Record<AccountSubscriptionStatus, string> = {
  active: 'Active',
  past_due: 'Payment overdue',
  canceled: 'Canceled',
  ended: 'Completed',
};

/** The password rule, stated before the visitor types (the server's words when it is broken). */
export const PASSWORD_RULE = 'Use at least 8 characters for your password.';
export const PASSWORD_MIN = 8;

/** Where each form posts (the same calls the island makes). */
export const ACCOUNT_ACTIONS = {
  login: '/api/site-users/account/session',
  signup: '/api/site-users/accounts',
  resetRequest: '/api/site-users/account/password-reset',
  reset: '/api/site-users/account/password',
  confirm: '/api/site-users/account/confirm',
} as const;

export const CONFIRM_INTRO = 'To finish creating your account, choose the password you will sign in with.';

/** True once the island runs in the browser: the forms then check for themselves and show the rule inline. */
function useHydrated(): boolean {
  const [h, setH] = useState(false);
  useEffect(() => setH(true), []);
  return h;
}

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

/** A new password's state: its value and whether the form was sent once (the rule then shows as the field's error). */
interface NewPasswordState {
  value: string;
  onChange: (v: string) => void;
  checked: boolean;
  /** Marks the form sent; whether the password meets the rule, so the form may go to the server. */
  ready: () => boolean;
}

function useNewPassword(): NewPasswordState {
  const [value, onChange] = useState('');
  const [checked, setChecked] = useState(false);
  const ready = () => {
    setChecked(true);
    return value.length >= PASSWORD_MIN;
  };
  return { value, onChange, checked, ready };
}

/**
 * A new password with its rule stated up front (tied to the field by aria-describedby), and checked as the
 * visitor leaves the field or submits: the rule turns into the field's error until it is met.
 */
function NewPassword({
  id,
  label,
  field: { value, onChange, checked },
  serverError,
}: {
  id: string;
  label: string;
  field: NewPasswordState;
  serverError?: string;
}) {
  const [touched, setTouched] = useState(false);
  const short = value.length < PASSWORD_MIN;
  const error = (touched || checked) && short ? PASSWORD_RULE : serverError === PASSWORD_RULE ? serverError : '';
  return (
    <div className="account-field">
      <label htmlFor={id}>{label}</label>
      <p className="account-field__hint" id={`${id}-hint`}>
        {PASSWORD_RULE}
      </p>
      <input
        id={id}
        type="password"
        name="password"
        autoComplete="new-password"
        minLength={PASSWORD_MIN}
        required
        value={value}
        aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
        aria-invalid={error ? true : undefined}
        onBlur={() => setTouched(value.length > 0)}
        onChange={(e) => onChange(e.target.value)}
      />
      {error ? (
        <p className="account-field__error" id={`${id}-error`}>
          {error}
        </p>
      ) : value.length >= PASSWORD_MIN ? (
        <p className="account-field__ok" id={`${id}-ok`}>
          Password length is fine.
        </p>
      ) : null}
    </div>
  );
}

/** What the sign-in, sign-up and reset-request forms get from the page: the crumb, messages and the values sent back. */
interface EntryFormProps {
  crumb?: string;
  error?: string;
  notice?: string;
  values?: AccountPageProps['values'];
}

/**
 * The email field of the sign-in, sign-up and reset-request forms. Uncontrolled: what a shopper or their
 * password manager typed before the island hydrated is what gets sent (the forms read their fields on submit).
 */
function EmailField({ initial }: { initial?: string }) {
  return (
    <label>
      Email
      <input type="email" name="email" autoComplete="email" required defaultValue={initial ?? ''} />
    </label>
  );
}

/** A text field of a submitted form, as the browser holds it. */
const fieldOf = (form: HTMLFormElement, name: string) => String(new FormData(form).get(name) ?? '');

function Login({ error: initial, next, crumb, notice, values }: EntryFormProps & { next?: string }) {
  const s = useSubmit({ notice });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const remember = (form.elements.namedItem('rememberMe') as HTMLInputElement | null)?.checked ?? false;
    void s.run(async () => {
      await signIn(fieldOf(form, 'email'), fieldOf(form, 'password'), remember);
      window.location.assign(next ?? '/account');
    });
  };
  return (
    <form className="account-form" method="post" action={ACCOUNT_ACTIONS.login} onSubmit={submit} aria-label="Sign in">
      <Crumb crumb={crumb} />
      {next ? <input type="hidden" name="next" value={next} /> : null}
      <h1>Sign in</h1>
      <Messages error={s.error || initial || ''} notice={s.notice} />
      <EmailField initial={values?.email} />
      <label>
        Password
        <input type="password" name="password" autoComplete="current-password" required />
      </label>
      <label className="account-form__check">
        <input type="checkbox" name="rememberMe" value="true" /> Keep me signed in
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

function SignUp({ crumb, error, notice, values }: EntryFormProps) {
  const s = useSubmit({ error, notice });
  const hydrated = useHydrated();
  const password = useNewPassword();
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!password.ready()) return;
    const form = e.currentTarget;
    void s.run(() => signUp(fieldOf(form, 'email'), password.value, fieldOf(form, 'displayName')));
  };
  return (
    <form
      className="account-form"
      method="post"
      action={ACCOUNT_ACTIONS.signup}
      onSubmit={submit}
      aria-label="Create an account"
      noValidate={hydrated}
    >
      <Crumb crumb={crumb} />
      <h1>Create an account</h1>
      <Messages error={s.error} notice={s.notice} />
      <label>
        Name
        <input name="displayName" autoComplete="name" defaultValue={values?.displayName ?? ''} />
      </label>
      <EmailField initial={values?.email} />
      <NewPassword id="signup-password" label="Password" field={password} serverError={s.error || error} />
      <button type="submit" disabled={s.busy}>
        {s.busy ? 'Creating…' : 'Create account'}
      </button>
      <p>
        Have an account? <a href="/account/login">Sign in</a>
      </p>
    </form>
  );
}

function ResetRequest({ crumb, error, notice, values }: EntryFormProps) {
  const s = useSubmit({ error, notice });
  return (
    <form
      className="account-form"
      method="post"
      action={ACCOUNT_ACTIONS.resetRequest}
      aria-label="Reset your password"
      onSubmit={(e) => {
        e.preventDefault();
        const email = fieldOf(e.currentTarget, 'email');
        void s.run(() => requestPasswordReset(email));
      }}
    >
      <Crumb crumb={crumb} />
      <h1>Reset your password</h1>
      <Messages error={s.error} notice={s.notice} />
      <EmailField initial={values?.email} />
      <button type="submit" disabled={s.busy}>
        Send me a link
      </button>
    </form>
  );
}

function Reset({ token, crumb, error, notice }: { token: string; crumb?: string; error?: string; notice?: string }) {
  const s = useSubmit({ error, notice });
  const password = useNewPassword();
  const [done, setDone] = useState(!!notice);
  const hydrated = useHydrated();
  return (
    <form
      className="account-form"
      method="post"
      action={ACCOUNT_ACTIONS.reset}
      aria-label="Choose a new password"
      noValidate={hydrated}
      onSubmit={(e) => {
        e.preventDefault();
        if (!password.ready()) return;
        void s.run(async () => {
          await resetPassword(token, password.value);
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
          <NewPassword id="reset-password" label="New password" field={password} serverError={s.error || error} />
          <button type="submit" disabled={s.busy}>
            Save password
          </button>
        </>
      )}
    </form>
  );
}

function Confirm({ token, next, crumb, error }: { token: string; next?: string; crumb?: string; error?: string }) {
  const s = useSubmit({ error });
  const password = useNewPassword();
  const hydrated = useHydrated();
  return (
    <form
      className="account-form"
      method="post"
      action={ACCOUNT_ACTIONS.confirm}
      aria-label={CONFIRM_TITLE}
      noValidate={hydrated}
      onSubmit={(e) => {
        e.preventDefault();
        if (!password.ready()) return;
        void s.run(async () => {
          window.location.assign(await confirmAccount(token, password.value, next));
        });
      }}
    >
      <Crumb crumb={crumb} />
      <input type="hidden" name="token" value={token} />
      {next ? <input type="hidden" name="next" value={next} /> : null}
      <h1>{CONFIRM_TITLE}</h1>
      <p>{CONFIRM_INTRO}</p>
      <Messages error={s.error} notice={s.notice} />
      <NewPassword id="confirm-password" label="Password" field={password} serverError={s.error || error} />
      <button type="submit" disabled={s.busy}>
        Save password and sign in
      </button>
    </form>
  );
}

/** Where the account page's forms post (plain posts that work without JavaScript: server/platform/account-routes.ts). */
export const ACCOUNT_PAGE_ACTIONS = {
  reorder: (orderId: string) => `/api/site-users/account/orders/${encodeURIComponent(orderId)}/reorder`,
  cancelSubscription: (id: string) => `/api/site-users/account/subscriptions/${encodeURIComponent(id)}/cancel`,
  addAddress: '/api/site-users/account/addresses',
  removeAddress: (id: string) => `/api/site-users/account/addresses/${encodeURIComponent(id)}/remove`,
  defaultAddress: (id: string) => `/api/site-users/account/addresses/${encodeURIComponent(id)}/default`,
  newsletters: '/api/site-users/account/newsletters',
  removeRestock: (id: string) => `/api/site-users/account/restock-alerts/${encodeURIComponent(id)}/remove`,
} as const;

const dateText = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString().slice(0, 10);
};

function SectionError({ e, section }: { e?: AccountFormError; section: AccountFormError['section'] }) {
  return e && e.section === section ? (
    <p className="account-form__error" role="alert">
      {e.message}
    </p>
  ) : null;
}

function Orders({ d, crumb, formError }: { d: AccountDashboard; crumb?: string; formError?: AccountFormError }) {
  return (
    <section className="account-section" id="orders" aria-labelledby="account-orders">
      <h2 id="account-orders">Orders</h2>
      <SectionError e={formError} section="orders" />
      {d.orders.length === 0 ? (
        <p>You have no orders yet.</p>
      ) : (
        <ul className="account-list">
          {d.orders.map((o) => (
            <li className="account-card" key={o.id}>
              <h3 className="account-card__title">
                Order #{o.orderNumber} <span className="account-card__meta">{dateText(o.created)}</span>
              </h3>
              <dl className="account-facts">
                <div>
                  <dt>Status</dt>
                  <dd>{o.statusLabel}</dd>
                </div>
                <div>
                  <dt>Total</dt>
                  <dd>{o.total}</dd>
                </div>
                <div>
                  <dt>Tracking</dt>
                  <dd>
                    {o.tracking.length === 0
                      ? 'Not shipped yet'
                      : o.tracking.map((t, i) => (
                          <span key={i} className="account-tracking">
                            {t.carrier ? `${t.carrier}: ` : ''}
                            {t.url ? (
                              <a href={t.url} rel="noopener noreferrer" target="_blank">
                                {t.number}
                                <span className="visually-hidden"> (opens in a new window)</span>
                              </a>
                            ) : (
                              t.number
                            )}
                          </span>
                        ))}
                  </dd>
                </div>
              </dl>
              <ul className="account-card__items">
                {o.items.map((i, idx) => (
                  <li key={idx}>
                    {i.productName} × {i.quantity}
                  </li>
                ))}
              </ul>
              <div className="account-card__actions">
                <a href={o.statusUrl}>
                  Order details<span className="visually-hidden"> for order #{o.orderNumber}</span>
                </a>
                {o.canReorder ? (
                  <form method="post" action={ACCOUNT_PAGE_ACTIONS.reorder(o.id)}>
                    <Crumb crumb={crumb} />
                    <button type="submit" className="account-button">
                      Buy again<span className="visually-hidden"> order #{o.orderNumber}</span>
                    </button>
                  </form>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Downloads({ d }: { d: AccountDashboard }) {
  return (
    <section className="account-section" id="downloads" aria-labelledby="account-downloads">
      <h2 id="account-downloads">Downloads</h2>
      {d.downloads.length === 0 ? (
        <p>No digital products yet.</p>
      ) : (
        <ul className="account-list account-list--plain">
          {d.downloads.map((x, i) => (
            <li key={i}>
              <a href={x.url}>
                Download {x.productName}
                <span className="visually-hidden"> from order #{x.orderNumber}</span>
              </a>{' '}
              <span className="account-card__meta">(order #{x.orderNumber}; the link works for 24 hours)</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Subscriptions({ d, crumb, formError }: { d: AccountDashboard; crumb?: string; formError?: AccountFormError }) {
  return (
    <section className="account-section" id="subscriptions" aria-labelledby="account-subscriptions">
      <h2 id="account-subscriptions">Subscriptions</h2>
      <SectionError e={formError} section="subscriptions" />
      {d.subscriptions.length === 0 ? (
        <p>You have no subscriptions.</p>
      ) : (
        <ul className="account-list">
          {d.subscriptions.map((x) => (
            <li className="account-card" key={x.id}>
              <h3 className="account-card__title">{x.productName || `Order #${x.orderNumber}`}</h3>
              <p>
                {x.priceText}. <strong>{SUBSCRIPTION_STATUS_LABELS[x.status]}</strong>{' '}
                <span className="account-card__meta">since {dateText(x.started)}</span>
              </p>
              {x.status === 'past_due' ? <p className="account-card__meta">The last renewal payment did not go through.</p> : null}
              {x.status === 'active' || x.status === 'past_due' ? (
                <form method="post" action={ACCOUNT_PAGE_ACTIONS.cancelSubscription(x.id)}>
                  <Crumb crumb={crumb} />
                  <button
                    type="submit"
                    className="account-button account-button--quiet"
                    aria-label={`Cancel subscription: ${x.productName || `order #${x.orderNumber}`}`}
                  >
                    Cancel subscription
                  </button>
                </form>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function NewAddressFields({
  e,
  countries,
  format: first,
}: {
  e?: AccountFormError;
  countries: readonly CountryOption[];
  format: AddressFormat;
}) {
  const err = e?.section === 'addresses' ? e.errors : {};
  const v = e?.section === 'addresses' ? e.values : {};
  const [values, setValues] = useState<AddressValues>(v);
  const format = useAddressFormat(first, values.country || first.country);
  return (
    <>
      <AddressFields
        format={format}
        countries={countries}
        values={values}
        onChange={(part, value) =>
          setValues((x) =>
            part === 'country' && value !== (x.country || format.country) ? { ...x, country: value, region: '' } : { ...x, [part]: value },
          )
        }
        errors={err}
        idPrefix="address"
        cls="account"
        section="shipping"
      />
      <label className="account-form__check">
        <input type="checkbox" name="isDefault" value="true" defaultChecked={v.isDefault === 'true'} /> Use this address at checkout
      </label>
    </>
  );
}

function Addresses({
  d,
  crumb,
  formError,
  countries,
  format,
}: {
  d: AccountDashboard;
  crumb?: string;
  formError?: AccountFormError;
  countries: readonly CountryOption[];
  format: AddressFormat;
}) {
  return (
    <section className="account-section" id="addresses" aria-labelledby="account-addresses">
      <h2 id="account-addresses">Saved addresses</h2>
      <p className="account-card__meta">Your default address fills in the checkout for you.</p>
      <SectionError e={formError} section="addresses" />
      {d.addresses.length === 0 ? <p>No saved addresses yet.</p> : null}
      <ul className="account-list account-list--grid">
        {d.addresses.map((a) => {
          const label = `${a.name}, ${a.line1}`;
          return (
            <li className="account-card" key={a.id}>
              <address className="account-address">
                {a.lines.map((line, i) => (
                  <span key={i}>
                    {i > 0 ? <br /> : null}
                    {line}
                  </span>
                ))}
              </address>
              {a.isDefault ? <p className="account-badge">Default at checkout</p> : null}
              <div className="account-card__actions">
                {a.isDefault ? null : (
                  <form method="post" action={ACCOUNT_PAGE_ACTIONS.defaultAddress(a.id)}>
                    <Crumb crumb={crumb} />
                    <button type="submit" className="account-button account-button--quiet" aria-label={`Use at checkout: ${label}`}>
                      Use at checkout
                    </button>
                  </form>
                )}
                <form method="post" action={ACCOUNT_PAGE_ACTIONS.removeAddress(a.id)}>
                  <Crumb crumb={crumb} />
                  <button type="submit" className="account-button account-button--quiet" aria-label={`Remove address: ${label}`}>
                    Remove
                  </button>
                </form>
              </div>
            </li>
          );
        })}
      </ul>
      <details className="account-add" open={formError?.section === 'addresses' || d.addresses.length === 0}>
        <summary>Add an address</summary>
        <form
          className="account-form account-form--wide"
          method="post"
          action={ACCOUNT_PAGE_ACTIONS.addAddress}
          aria-label="Add an address"
        >
          <Crumb crumb={crumb} />
          <NewAddressFields e={formError} countries={countries} format={format} />
          <button type="submit" className="account-button">
            Save address
          </button>
        </form>
      </details>
    </section>
  );
}

function Newsletters({ d, crumb, formError }: { d: AccountDashboard; crumb?: string; formError?: AccountFormError }) {
  if (d.newsletters.length === 0) return null;
  return (
    <section className="account-section" id="newsletters" aria-labelledby="account-newsletters">
      <h2 id="account-newsletters">Newsletters</h2>
      <SectionError e={formError} section="newsletters" />
      <form method="post" action={ACCOUNT_PAGE_ACTIONS.newsletters} aria-labelledby="account-newsletters">
        <Crumb crumb={crumb} />
        <fieldset className="account-fieldset">
          <legend>Send me these newsletters</legend>
          {d.newsletters.map((l) => (
            <label className="account-form__check" key={l.listId}>
              <input type="checkbox" name="listIds" value={l.listId} defaultChecked={l.subscribed} /> {l.name}
            </label>
          ))}
        </fieldset>
        <button type="submit" className="account-button">
          Save preferences
        </button>
      </form>
    </section>
  );
}

function Restock({ d, crumb, formError }: { d: AccountDashboard; crumb?: string; formError?: AccountFormError }) {
  return (
    <section className="account-section" id="restock" aria-labelledby="account-restock">
      <h2 id="account-restock">Restock alerts</h2>
      <SectionError e={formError} section="restock" />
      {d.restock.length === 0 ? (
        <p>You are not waiting for any product to come back.</p>
      ) : (
        <ul className="account-list account-list--plain">
          {d.restock.map((r) => {
            const name = r.variant ? `${r.product} (${r.variant})` : r.product;
            return (
              <li key={r.id} className="account-row">
                <span>
                  {name} <span className="account-card__meta">since {dateText(r.since)}</span>
                </span>
                <form method="post" action={ACCOUNT_PAGE_ACTIONS.removeRestock(r.id)}>
                  <Crumb crumb={crumb} />
                  <button type="submit" className="account-button account-button--quiet">
                    Stop alert<span className="visually-hidden"> for {name}</span>
                  </button>
                </form>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function Account({
  user,
  languages,
  dashboard,
  crumb,
  done,
  formError,
  countries,
  addressFormat,
}: {
  countries: readonly CountryOption[];
  addressFormat?: AddressFormat;
  user: NonNullable<AccountPageProps['user']>;
  languages: SiteLanguage[];
  dashboard?: AccountDashboard;
  crumb?: string;
  done?: string;
  formError?: AccountFormError;
}) {
  const s = useSubmit({ notice: done });
  const [keepCart, setKeepCart] = useState(true);
  const [language, setLanguage] = useState(user.language);
  return (
    <div className="account-dashboard">
      <div className="account-form account-form--wide account-head">
        <h1>Your account</h1>
        <p>Signed in as {user.displayName ? `${user.displayName} (${user.email})` : user.email}.</p>
        <Messages error={s.error} notice={s.notice} />
        <nav className="account-nav" aria-label="Account">
          <ul>
            <li>
              <a href="#orders">Orders</a>
            </li>
            <li>
              <a href="#downloads">Downloads</a>
            </li>
            <li>
              <a href="#subscriptions">Subscriptions</a>
            </li>
            <li>
              <a href="#addresses">Addresses</a>
            </li>
            {dashboard && dashboard.newsletters.length > 0 ? (
              <li>
                <a href="#newsletters">Newsletters</a>
              </li>
            ) : null}
            <li>
              <a href="#restock">Restock alerts</a>
            </li>
          </ul>
        </nav>
      </div>
      {dashboard ? (
        <>
          <Orders d={dashboard} crumb={crumb} formError={formError} />
          <Downloads d={dashboard} />
          <Subscriptions d={dashboard} crumb={crumb} formError={formError} />
          {addressFormat ? (
            <Addresses d={dashboard} crumb={crumb} formError={formError} countries={countries} format={addressFormat} />
          ) : null}
          <Newsletters d={dashboard} crumb={crumb} formError={formError} />
          <Restock d={dashboard} crumb={crumb} formError={formError} />
        </>
      ) : null}
      <section className="account-section" aria-labelledby="account-settings">
        <h2 id="account-settings">Settings</h2>
        {languages.length > 0 ? (
          <label className="account-field">
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
        <form
          method="post"
          action="/api/site-users/account/sign-out"
          className="account-signout"
          onSubmit={(e) => {
            e.preventDefault();
            void s.run(async () => {
              await signOut(keepCart);
              window.location.assign('/account/login');
            });
          }}
        >
          <Crumb crumb={crumb} />
          <label className="account-form__check">
            <input type="checkbox" name="cloneCart" value="true" checked={keepCart} onChange={(e) => setKeepCart(e.target.checked)} /> Keep
            my cart on this device
          </label>
          <button type="submit" className="account-button account-button--quiet" disabled={s.busy}>
            Sign out
          </button>
        </form>
      </section>
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
    case 'confirm':
      return <Confirm token={props.token ?? ''} next={props.next} crumb={props.crumb} error={props.error} />;
    case 'account':
      return props.user ? (
        <Account
          user={props.user}
          languages={props.languages}
          dashboard={props.dashboard}
          crumb={props.crumb}
          done={props.done}
          formError={props.formError}
          countries={props.countries ?? []}
          addressFormat={props.addressFormat}
        />
      ) : (
        <Login crumb={props.crumb} />
      );
    case 'denied':
      return <Denied signedIn={!!props.user} />;
  }
}
