/**
 * The session-recording gate: recording is enabled only for websites in the US
 * country, in an America time zone, with more than 2 hardware threads, when the feature toggle is on and
 * the experiment variant is 'true'. `GET /api/commerce/fullstory/getId` answers the recorder's id; one
 * mock id value means skip (no recorder is configured).
 */

/** The id the server answers when no recorder is configured: the browser skips recording. */
export const SESSION_RECORDER_MOCK_ID = 'mock-recorder-id';
export const SESSION_RECORDING_COUNTRY = 'US';
export const SESSION_RECORDING_ZONE_PREFIX = 'America/';
/** Recording needs more than this many hardware threads. */
export const SESSION_RECORDING_MIN_THREADS_EXCLUSIVE = 2;
export const SESSION_RECORDING_VARIANT = 'true';

export interface SessionRecordingInput {
  /** The website's country (ISO 3166 alpha-2). */
  country: string | null | undefined;
  /** The website's IANA time zone. */
  timeZone: string | null | undefined;
  /** navigator.hardwareConcurrency (undefined in browsers that hide it). */
  hardwareThreads: number | null | undefined;
  /** The session-recording feature switch. */
  toggle: boolean;
  /** The visitor's variant of the session-recording experiment. */
  variant: string | null | undefined;
}

/** Whether this page view may be recorded; every condition must hold. */
export function sessionRecordingAllowed(i: SessionRecordingInput): boolean {
  return (
    (i.country ?? '').toUpperCase() === SESSION_RECORDING_COUNTRY &&
    typeof i.timeZone === 'string' &&
    i.timeZone.startsWith(SESSION_RECORDING_ZONE_PREFIX) &&
    typeof i.hardwareThreads === 'number' &&
    Number.isFinite(i.hardwareThreads) &&
    i.hardwareThreads > SESSION_RECORDING_MIN_THREADS_EXCLUSIVE &&
    i.toggle === true &&
    i.variant === SESSION_RECORDING_VARIANT
  );
}

/** Whether the id from getId names a real recorder (the mock id, or no id, means skip). */
export function recorderIdUsable(id: string | null | undefined): id is string {
  return typeof id === 'string' && id.trim() !== '' && id !== SESSION_RECORDER_MOCK_ID;
}
