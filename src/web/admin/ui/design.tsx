/**
 * The /config design system's widgets, on accessible primitives: Radix Primitives (dialog, alert dialog,
 * dropdown menu, toast: WAI-ARIA roles, focus trapping and return, Escape) and TanStack Query (server state:
 * loading, caching, refetch after saves). Styles are the tokens of admin.css.
 *
 * - AdminProviders: the query client and the toast region, around the whole shell.
 * - useToast(): `toast('Saved.')` after a save; errors with `{ tone: 'error' }`.
 * - ConfirmDialog: asks before a destructive action (an alert dialog whose Cancel has focus first).
 * - PageHeader (title, description, breadcrumbs, primary actions), EmptyState, Skeleton.
 * - ScreenBoundary: a screen's error boundary; reports the error through the error reporter and offers Try again.
 */
import { Component, createContext, useCallback, useContext, useState, type ErrorInfo, type ReactNode } from 'react';
import * as Toast from '@radix-ui/react-toast';
import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ErrorReporter, ERRORS_URL } from '../../client/error-reporter.js';
import { ApiError, readCookie } from '../../client/api.js';
import { formatMoney } from '../../../core/money.js';
import { CRUMB_COOKIE } from '../../../core/cookies.js';

// ---- Server state -----------------------------------------------------------------------------------

export function makeQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { staleTime: 15_000, retry: 1, refetchOnWindowFocus: true } } });
}

// ---- Toasts -----------------------------------------------------------------------------------------

interface ToastItem {
  id: number;
  text: string;
  tone: 'info' | 'error';
}
type ToastFn = (text: string, opts?: { tone?: 'info' | 'error' }) => void;
const ToastContext = createContext<ToastFn>(() => undefined);

/** Shows a short message in the toast region (announced politely; errors assertively). */
export const useToast = () => useContext(ToastContext);

export function AdminProviders({ children }: { children: ReactNode }) {
  const [client] = useState(makeQueryClient);
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const toast = useCallback<ToastFn>(
    (text, opts) => setToasts((t) => [...t.slice(-3), { id: Date.now() + Math.random(), text, tone: opts?.tone ?? 'info' }]),
    [],
  );
  return (
    <QueryClientProvider client={client}>
      <Toast.Provider swipeDirection="right" duration={5000} label="Notification">
        <ToastContext.Provider value={toast}>{children}</ToastContext.Provider>
        {toasts.map((t) => (
          <Toast.Root
            key={t.id}
            className={`a-toast${t.tone === 'error' ? ' a-toast--error' : ''}`}
            type={t.tone === 'error' ? 'foreground' : 'background'}
            onOpenChange={(open) => {
              if (!open) setToasts((all) => all.filter((x) => x.id !== t.id));
            }}
          >
            <Toast.Description>{t.text}</Toast.Description>
            <Toast.Close aria-label="Dismiss notification">Dismiss</Toast.Close>
          </Toast.Root>
        ))}
        <Toast.Viewport className="a-toasts" label="Notifications ({hotkey})" />
      </Toast.Provider>
    </QueryClientProvider>
  );
}

// ---- Confirm dialog -----------------------------------------------------------------------------------

/**
 * A destructive action behind a confirmation: `trigger` opens an alert dialog naming what will happen; Confirm
 * runs `onConfirm`. Focus starts on Cancel, is trapped inside, and returns to the trigger; Escape cancels.
 */
export function ConfirmDialog({
  trigger,
  title,
  description,
  confirm,
  onConfirm,
}: {
  trigger: ReactNode;
  title: string;
  description: ReactNode;
  confirm: string;
  onConfirm: () => void | Promise<void>;
}) {
  return (
    <AlertDialog.Root>
      <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="a-overlay" />
        <AlertDialog.Content className="a-dialog">
          <AlertDialog.Title>{title}</AlertDialog.Title>
          <AlertDialog.Description>{description}</AlertDialog.Description>
          <div className="a-dialog__actions">
            <AlertDialog.Cancel asChild>
              <button type="button">Cancel</button>
            </AlertDialog.Cancel>
            <AlertDialog.Action asChild>
              <button type="button" className="a-button--danger" onClick={() => void onConfirm()}>
                {confirm}
              </button>
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

// ---- Page furniture ------------------------------------------------------------------------------------

export interface Crumb {
  label: string;
  href?: string;
}

/** A screen's heading: breadcrumbs on detail screens, the title (h1), a line of description, primary actions. */
export function PageHeader({
  title,
  description,
  actions,
  breadcrumbs,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  breadcrumbs?: Crumb[];
}) {
  return (
    <div className="a-page-header">
      <div>
        {breadcrumbs?.length ? (
          <nav aria-label="Breadcrumbs" className="a-breadcrumbs">
            <ol>
              {breadcrumbs.map((c, i) => (
                <li key={i}>{c.href ? <a href={c.href}>{c.label}</a> : <span aria-current="page">{c.label}</span>}</li>
              ))}
            </ol>
          </nav>
        ) : null}
        <h1>{title}</h1>
        {description ? <p>{description}</p> : null}
      </div>
      {actions ? <div className="a-page-header__actions">{actions}</div> : null}
    </div>
  );
}

/**
 * A table's header row: `first` (say a select-all box), one header per column, then `children` (headers that are
 * not plain text) and a last header for the row buttons ('Actions', for screen readers) when `actions` is set.
 */
export function ColumnHeads({
  columns,
  actions = false,
  first,
  children,
}: {
  columns: string[];
  actions?: boolean;
  first?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <thead>
      <tr>
        {first}
        {columns.map((c) => (
          <th key={c} scope="col">
            {c}
          </th>
        ))}
        {children}
        {actions ? (
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        ) : null}
      </tr>
    </thead>
  );
}

/**
 * A screen's table of records: named by its (visually hidden) caption, one header per column, and a last header
 * for the row buttons ('Actions', for screen readers) when `actions` is set. The rows are the children.
 */
export function DataTable({
  caption,
  columns,
  actions = false,
  children,
}: {
  caption: string;
  columns: string[];
  actions?: boolean;
  children: ReactNode;
}) {
  return (
    <table className="admin-table">
      <caption className="visually-hidden">{caption}</caption>
      <ColumnHeads columns={columns} actions={actions} />
      <tbody>{children}</tbody>
    </table>
  );
}

/** What a list shows when it has nothing: what is missing and what to do next. */
export function EmptyState({
  title,
  children,
  action,
  level = 2,
}: {
  title: string;
  children?: ReactNode;
  action?: ReactNode;
  level?: 2 | 3;
}) {
  const H = level === 2 ? 'h2' : 'h3';
  return (
    <div className="a-empty">
      <H>{title}</H>
      {children ? <p>{children}</p> : null}
      {action}
    </div>
  );
}

/** Grey bars while a screen loads; announced once as busy. */
export function Skeleton({ lines = 3, label = 'Loading' }: { lines?: number; label?: string }) {
  return (
    <div role="status" aria-busy="true" aria-label={label}>
      {Array.from({ length: lines }, (_, i) => (
        <span key={i} className="a-skeleton" style={{ width: `${90 - ((i * 17) % 40)}%` }} />
      ))}
    </div>
  );
}

// ---- Error boundary -----------------------------------------------------------------------------------

let reporter: ErrorReporter | null = null;

/** The error reporter of the admin (the same queue, debounce and budget as the public pages' reporter). */
export function adminErrorReporter(websiteId: string): ErrorReporter {
  reporter ??= new ErrorReporter({
    send: (events) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      const c = readCookie(CRUMB_COOKIE);
      if (c) headers['x-csrf-token'] = c;
      return fetch(ERRORS_URL, { method: 'POST', headers, body: JSON.stringify(events), credentials: 'same-origin', keepalive: true });
    },
    context: () => ({ url: location.href, websiteId: ctx.websiteId, templateId: 'config', browser: navigator.userAgent }),
    setTimeout: (fn, ms) => window.setTimeout(fn, ms),
    clearTimeout: (h) => window.clearTimeout(h as number),
    now: () => Date.now(),
  });
  ctx.websiteId = websiteId || ctx.websiteId;
  return reporter;
}
const ctx = { websiteId: '' };

interface BoundaryState {
  error: Error | null;
}

/** Catches a screen's render errors: reports them and shows what happened with a Try again button. */
export class ScreenBoundary extends Component<
  { children: ReactNode; websiteId: string; name: string; onReset?: () => void },
  BoundaryState
> {
  override state: BoundaryState = { error: null };

  static getDerivedStateFromError(error: Error): BoundaryState {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    const e = new Error(`${this.props.name}: ${error.message}`);
    e.stack = `${error.stack ?? ''}\n${info.componentStack ?? ''}`;
    adminErrorReporter(this.props.websiteId).report(e, 'error');
  }

  override render() {
    if (!this.state.error) return this.props.children;
    // A refusal by role is no failure: it says which roles the screen needs (the server's 403 message).
    if (this.state.error instanceof ApiError && this.state.error.status === 403 && Array.isArray(this.state.error.data.roles)) {
      return (
        <div className="a-error-box" role="alert">
          <h2>{this.props.name}</h2>
          <p>{this.state.error.message}</p>
        </div>
      );
    }
    return (
      <div className="a-error-box" role="alert">
        <h2>This screen stopped working</h2>
        <p>Something went wrong showing {this.props.name}. The error was reported. Your saved work is safe.</p>
        <button
          type="button"
          onClick={() => {
            this.props.onReset?.();
            this.setState({ error: null });
          }}
        >
          Try again
        </button>
      </div>
    );
  }
}

/** Formats minor units of `currency` with core's formatMoney, the one money text of every admin screen. */
export function useMoney(currency: string) {
  return useCallback((minor: number) => formatMoney(minor, currency), [currency]);
}
