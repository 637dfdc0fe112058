/** Small pieces every /config screen uses: an error's text, a GET that loads a screen's data, a save form. */
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { api } from '../client/api.js';

/** The text to show for a failed call. */
export const msg = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Loads `url` when the screen opens: [data, setData, error, reload]. */
export function useLoad<T>(url: string): [T | null, (v: T) => void, string, () => void] {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState('');
  const load = () => {
    api<T>('GET', url).then(setData, (e) => setError(msg(e)));
  };
  useEffect(load, [url]);
  return [data, setData, error, load];
}

/** A named form whose submit runs `onSubmit` and says 'Saved.' (or what it returns) or the error, in live regions. */
export function SaveForm({ label, onSubmit, children, button = 'Save', status }: { label: string; onSubmit: () => Promise<string | void>; children: ReactNode; button?: string; status?: string }) {
  const [out, setOut] = useState('');
  const [err, setErr] = useState('');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setOut('');
    setErr('');
    try {
      setOut((await onSubmit()) || 'Saved.');
    } catch (x) {
      setErr(msg(x));
    }
  };
  return (
    <form onSubmit={submit} aria-label={label} className="admin-card">
      {children}
      <button type="submit">{button}</button>
      {err ? <p role="alert">{err}</p> : null}
      {out || status ? <p role="status">{out || status}</p> : null}
    </form>
  );
}
