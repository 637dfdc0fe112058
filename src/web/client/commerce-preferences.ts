/**
 * Commerce preferences in the browser: read through
 * GET /api/v1/commerce-preferences/{namespace}; a save is written only when some value differs from the
 * cached one; after a write a document event asks every reader of that namespace to fetch again.
 * Load and save failures are reported to the error reporter and rethrown.
 */
import { useCallback, useEffect, useState } from 'react';
import { api } from './api.js';
import { reportError } from './error-reporter.js';

export type Preferences = Record<string, unknown>;

/** The document event that asks readers to fetch a namespace again; `detail.namespace` names it. */
export const PREFERENCES_REFETCH_EVENT = 'tessera:commerce-preferences-refetch';

const url = (namespace: string) => `/api/v1/commerce-preferences/${encodeURIComponent(namespace)}`;
const cache = new Map<string, Preferences>();

/** The stored preferences of `namespace` (websiteId stripped and empty values filtered by the server). */
export async function loadPreferences(namespace: string): Promise<Preferences> {
  try {
    const value = await api<Preferences>('GET', url(namespace));
    cache.set(namespace, value);
    return value;
  } catch (err) {
    reportError(err);
    throw err;
  }
}

/** Empty values are filtered out when read, so an empty value equals a missing one. */
const blank = (v: unknown) => (v === '' || v === undefined ? null : v);
const same = (a: unknown, b: unknown) => JSON.stringify(blank(a)) === JSON.stringify(blank(b));

/**
 * Writes `values` when one of them differs from the cached preferences; answers whether it wrote. After a
 * write, the refetch event goes out on the document.
 */
export async function savePreferences(namespace: string, values: Preferences): Promise<boolean> {
  const cached = cache.get(namespace);
  if (cached && Object.entries(values).every(([k, v]) => same(cached[k], v))) return false;
  try {
    cache.set(namespace, await api<Preferences>('PUT', url(namespace), values));
  } catch (err) {
    reportError(err);
    throw err;
  }
  document.dispatchEvent(new CustomEvent(PREFERENCES_REFETCH_EVENT, { detail: { namespace } }));
  return true;
}

/** The generic data fetch for one namespace: pending, then data or error; refetched on the document event. */
export function usePreferences(namespace: string): { data: Preferences | null; error: string; pending: boolean; refetch: () => void } {
  const [state, setState] = useState<{ data: Preferences | null; error: string; pending: boolean }>({
    data: null,
    error: '',
    pending: true,
  });
  const refetch = useCallback(() => {
    setState((s) => ({ ...s, pending: true, error: '' }));
    loadPreferences(namespace).then(
      (data) => setState({ data, error: '', pending: false }),
      (e: unknown) => setState((s) => ({ data: s.data, error: e instanceof Error ? e.message : String(e), pending: false })),
    );
  }, [namespace]);
  useEffect(() => {
    refetch();
    const onEvent = (ev: Event) => {
      if ((ev as CustomEvent<{ namespace?: string }>).detail?.namespace === namespace) refetch();
    };
    document.addEventListener(PREFERENCES_REFETCH_EVENT, onEvent);
    return () => document.removeEventListener(PREFERENCES_REFETCH_EVENT, onEvent);
  }, [namespace, refetch]);
  return { ...state, refetch };
}
