/**
 * The session recorder's browser side: the platform rule decides first (no call at all when it says no),
 * then `GET /api/commerce/fullstory/getId` names the recorder; the mock id means skip. The recorder itself
 * is a provider the owner configures on the server (its id and script); none is configured by default, so
 * no third-party script ever loads unless the owner sets one up.
 */
import { recorderIdUsable, sessionRecordingAllowed } from '../../core/session-recording.js';
import { SESSION_RECORDING_EXPERIMENT } from '../../core/experiments.js';
import type { FlagsData } from './flags.js';

export const RECORDER_ID_URL = '/api/commerce/fullstory/getId';

export interface RecorderDeps {
  fetch: typeof fetch;
  hardwareThreads: number | undefined;
  /** Loads the recorder's script (a script element in the browser). */
  load(scriptUrl: string, id: string): void;
}

export async function maybeStartRecording(
  flags: FlagsData,
  variants: Record<string, string | null>,
  deps: RecorderDeps,
): Promise<'started' | 'skipped'> {
  try {
    const allowed = sessionRecordingAllowed({
      country: flags.recording.country,
      timeZone: flags.recording.timeZone,
      hardwareThreads: deps.hardwareThreads,
      toggle: flags.recording.toggle,
      variant: variants[SESSION_RECORDING_EXPERIMENT],
    });
    if (!allowed) return 'skipped';
    const res = await deps.fetch(RECORDER_ID_URL, { credentials: 'same-origin' });
    if (!res.ok) return 'skipped';
    // The answer is the id as a string; the script comes in the X-Recorder-Script header.
    const answer = (await res.json()) as unknown;
    const id = typeof answer === 'string' ? answer : null;
    const scriptUrl = res.headers.get('x-recorder-script');
    if (!recorderIdUsable(id) || typeof scriptUrl !== 'string' || !/^https:\/\//.test(scriptUrl)) return 'skipped';
    deps.load(scriptUrl, id);
    return 'started';
  } catch {
    return 'skipped';
  }
}

/** The browser's loader: one async script element carrying the recorder's id. */
export function scriptLoader(doc: Document = document) {
  return (scriptUrl: string, id: string) => {
    const s = doc.createElement('script');
    s.async = true;
    s.src = scriptUrl;
    s.dataset.recorderId = id;
    doc.head.appendChild(s);
  };
}
