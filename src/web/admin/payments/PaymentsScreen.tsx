/**
 * Settings → Payments (/config/payments, admin role): connect Stripe with its publishable key, secret key and
 * webhook signing secret (the server answers secrets masked; a blank secret field keeps the saved one), the
 * webhook address to register, and Check connection (the account's country, currency and whether it can take
 * charges, or the problem in words). Without a secret key the built-in test mode takes (test) payments.
 */
import { useEffect, useId, useState } from 'react';
import { useForm, type FieldPath, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../client/api.js';
import { PageHeader, Skeleton, useToast } from '../ui/design.js';

type Source = 'environment' | 'settings' | 'none';
interface PaymentSettings {
  provider: 'stripe' | 'test';
  mode: 'test' | 'live';
  publishableKey: string;
  secretKey: string;
  webhookSecret: string;
  sources: { publishableKey: Source; secretKey: Source; webhookSecret: Source };
  webhookUrl: string;
  webhookEvents: string[];
}
type Check =
  | {
      ok: true;
      accountId: string;
      country: string | null;
      currency: string | null;
      chargesEnabled: boolean;
      mode: string;
      problem: string | null;
    }
  | { ok: false; problem: string };

const optionalKey = (re: RegExp, message: string) =>
  z
    .string()
    .trim()
    .refine((v) => v === '' || re.test(v), message);
const schema = z.object({
  publishableKey: optionalKey(
    /^pk_(test|live)_[A-Za-z0-9_]{4,250}$/,
    'Enter a Stripe publishable key: it starts with pk_test_ or pk_live_.',
  ),
  secretKey: optionalKey(
    /^(sk|rk)_(test|live)_[A-Za-z0-9_]{4,250}$/,
    'Enter a Stripe secret key: it starts with sk_test_ or sk_live_ (or rk_ for a restricted key).',
  ),
  webhookSecret: optionalKey(/^whsec_[A-Za-z0-9_]{4,250}$/, 'Enter the webhook signing secret from Stripe: it starts with whsec_.'),
});
type Values = z.infer<typeof schema>;

function KeyField({
  form,
  name,
  label,
  hint,
  secret,
  source,
}: {
  form: UseFormReturn<Values>;
  name: FieldPath<Values>;
  label: string;
  hint: string;
  secret: boolean;
  source: Source;
}) {
  const id = useId();
  const err = form.getFieldState(name, form.formState).error?.message;
  const locked = source === 'environment';
  return (
    <div>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={secret ? 'password' : 'text'}
        autoComplete="off"
        spellCheck={false}
        readOnly={locked}
        aria-invalid={err ? true : undefined}
        aria-describedby={`${id}-hint${err ? ` ${id}-err` : ''}`}
        {...form.register(name)}
      />
      <p id={`${id}-hint`} className="a-muted">
        {locked ? 'Set by the server environment; change it there.' : hint}
      </p>
      {err ? (
        <p id={`${id}-err`} className="a-field__error">
          {err}
        </p>
      ) : null}
    </div>
  );
}

function ModeBanner({ s }: { s: PaymentSettings }) {
  if (s.provider === 'test') {
    return (
      <p className="a-error-box" role="status">
        <strong>Test mode.</strong> Checkout takes test cards only and no money is taken. Connect Stripe below to take real payments.
      </p>
    );
  }
  return (
    <p className={s.mode === 'live' ? 'a-card' : 'a-error-box'} role="status">
      <strong>{s.mode === 'live' ? 'Live mode.' : 'Stripe test mode.'}</strong>{' '}
      {s.mode === 'live'
        ? 'Stripe takes real payments.'
        : 'Payments go through Stripe with test keys: no money is taken. Use live keys to sell for real.'}
    </p>
  );
}

function PaymentsForm({ s }: { s: PaymentSettings }) {
  const toast = useToast();
  const client = useQueryClient();
  const initial: Values = { publishableKey: s.publishableKey, secretKey: '', webhookSecret: '' };
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: initial, mode: 'onTouched' });
  const [formError, setFormError] = useState('');
  const [check, setCheck] = useState<Check | null>(null);
  useEffect(() => form.reset(initial), [s]);

  const save = useMutation({
    mutationFn: (v: Values) => {
      // A blank secret keeps the saved one; only what the owner typed is sent.
      const body: Partial<Values> = {};
      if (s.sources.publishableKey !== 'environment' && v.publishableKey !== s.publishableKey) body.publishableKey = v.publishableKey;
      if (s.sources.secretKey !== 'environment' && v.secretKey) body.secretKey = v.secretKey;
      if (s.sources.webhookSecret !== 'environment' && v.webhookSecret) body.webhookSecret = v.webhookSecret;
      return api<PaymentSettings>('PUT', '/api/config/payments', body);
    },
    onSuccess: (r) => {
      client.setQueryData(['payment-settings'], r);
      setFormError('');
      setCheck(null);
      toast('Payment settings saved.');
    },
    onError: (e) => {
      const fields =
        e instanceof ApiError && e.data.errors && typeof e.data.errors === 'object' ? (e.data.errors as Record<string, string>) : {};
      for (const [k, m] of Object.entries(fields)) form.setError(k as FieldPath<Values>, { message: m });
      setFormError(e.message);
    },
  });
  const disconnect = useMutation({
    mutationFn: () => api<PaymentSettings>('PUT', '/api/config/payments', { secretKey: '', webhookSecret: '', publishableKey: '' }),
    onSuccess: (r) => {
      client.setQueryData(['payment-settings'], r);
      toast('Stripe disconnected: checkout is in test mode.');
    },
    onError: (e) => setFormError(e.message),
  });
  const checking = useMutation({
    mutationFn: () => api<Check>('POST', '/api/config/payments/check', {}),
    onSuccess: (r) => setCheck(r),
    onError: (e) => setCheck({ ok: false, problem: e.message }),
  });
  const fromEnv = Object.values(s.sources).some((x) => x === 'environment');

  return (
    <>
      <ModeBanner s={s} />
      <form className="a-card a-form" aria-label="Stripe keys" noValidate onSubmit={form.handleSubmit((v) => save.mutate(v))}>
        <h2>Stripe keys</h2>
        <p className="a-muted">
          From your Stripe dashboard, Developers → API keys. Test keys (pk_test_, sk_test_) take test cards only; live keys take real money.
          Secrets are kept on the server and shown here only by their last four characters.
        </p>
        <KeyField
          form={form}
          name="publishableKey"
          label="Publishable key"
          hint="Starts with pk_test_ or pk_live_. Shoppers' browsers use it."
          secret={false}
          source={s.sources.publishableKey}
        />
        <KeyField
          form={form}
          name="secretKey"
          label="Secret key"
          hint={s.secretKey ? `Saved: ${s.secretKey}. Leave blank to keep it.` : 'Starts with sk_test_ or sk_live_.'}
          secret
          source={s.sources.secretKey}
        />
        <KeyField
          form={form}
          name="webhookSecret"
          label="Webhook signing secret"
          hint={
            s.webhookSecret
              ? `Saved: ${s.webhookSecret}. Leave blank to keep it.`
              : 'Starts with whsec_. Stripe shows it when you add the endpoint below.'
          }
          secret
          source={s.sources.webhookSecret}
        />
        <div className="a-form-actions">
          <button type="submit" className="a-button--primary" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save keys'}
          </button>
          {s.provider === 'stripe' && !fromEnv ? (
            <button type="button" disabled={disconnect.isPending} onClick={() => disconnect.mutate()}>
              Disconnect Stripe
            </button>
          ) : null}
          {formError ? <p role="alert">{formError}</p> : null}
        </div>
      </form>

      <section className="a-card" aria-labelledby="payments-check">
        <h2 id="payments-check">Connection</h2>
        <p className="a-muted">Asks Stripe for the account these keys belong to.</p>
        <button type="button" disabled={checking.isPending || s.provider !== 'stripe'} onClick={() => checking.mutate()}>
          {checking.isPending ? 'Checking…' : 'Check connection'}
        </button>
        <div role="status" aria-live="polite">
          {check ? (
            check.ok ? (
              <dl className="a-facts">
                <dt>Account</dt>
                <dd>{check.accountId}</dd>
                <dt>Country</dt>
                <dd>{check.country ?? 'not set'}</dd>
                <dt>Currency</dt>
                <dd>{check.currency ?? 'not set'}</dd>
                <dt>Charges</dt>
                <dd>{check.chargesEnabled ? 'Enabled' : 'Not enabled yet'}</dd>
                <dt>Mode</dt>
                <dd>{check.mode === 'live' ? 'Live' : 'Test'}</dd>
                {check.problem ? <dd className="a-field__error">{check.problem}</dd> : null}
              </dl>
            ) : (
              <p className="a-field__error">{check.problem}</p>
            )
          ) : null}
        </div>
      </section>

      <section className="a-card" aria-labelledby="payments-webhook">
        <h2 id="payments-webhook">Webhook</h2>
        <p>
          In Stripe (Developers → Webhooks), add an endpoint with this address, then paste its signing secret above. Tessera needs it to
          finish orders whose shopper closed the page, and to record refunds and disputes.
        </p>
        <p>
          <code>{s.webhookUrl}</code>
        </p>
        <p className="a-muted">Events: {s.webhookEvents.join(', ')}.</p>
      </section>
    </>
  );
}

export function PaymentsScreen() {
  const q = useQuery({ queryKey: ['payment-settings'], queryFn: () => api<PaymentSettings>('GET', '/api/config/payments') });
  return (
    <>
      <PageHeader title="Payments" description="How the shop takes money: Stripe for cards, or test mode." />
      {q.isPending ? (
        <Skeleton lines={6} label="Loading the payment settings" />
      ) : q.isError ? (
        <p role="alert">{q.error.message}</p>
      ) : (
        <PaymentsForm s={q.data} />
      )}
    </>
  );
}
