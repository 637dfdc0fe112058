/**
 * The time zone list of Site settings: the zones the server accepts (GET /api/admin/time-zones). Until it
 * loads, the site's own zone is the one choice; a failed load says 'Failed to load timezone, retry
 * connection' with Retry, and the form still saves the current zone.
 */
import type { ReactElement } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../client/api.js';
import { editor as editorMessages } from '../../../core/messages.js';

export function useTimeZones(current: string): { zones: string[]; failure: ReactElement | null } {
  const q = useQuery({
    queryKey: ['admin', 'time-zones'],
    queryFn: () => api<{ timeZones: string[] }>('GET', '/api/admin/time-zones'),
    retry: false,
    staleTime: 3_600_000,
  });
  const list = q.data?.timeZones ?? [];
  const zones = list.includes(current) ? list : [current, ...list];
  const failure = q.isError ? (
    <p role="alert" className="a-field__error">
      {editorMessages.TIMEZONE_FAILED}{' '}
      <button type="button" onClick={() => void q.refetch()} disabled={q.isFetching}>
        {editorMessages.RETRY}
      </button>
    </p>
  ) : null;
  return { zones, failure };
}
