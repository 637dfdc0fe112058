import { describe, expect, it } from 'vitest';
import {
  SESSION_RECORDER_MOCK_ID,
  recorderIdUsable,
  sessionRecordingAllowed,
  type SessionRecordingInput,
} from '../../../src/core/session-recording.js';

const ok: SessionRecordingInput = { country: 'US', timeZone: 'America/New_York', hardwareThreads: 3, toggle: true, variant: 'true' };

describe('session-recording gate', () => {
  it('records when every condition holds', () => {
    expect(sessionRecordingAllowed(ok)).toBe(true);
    expect(sessionRecordingAllowed({ ...ok, country: 'us' })).toBe(true);
    expect(sessionRecordingAllowed({ ...ok, timeZone: 'America/Los_Angeles', hardwareThreads: 16 })).toBe(true);
  });

  it('country: only the US', () => {
    for (const country of ['CA', 'GB', 'MX', '', null, undefined])
      expect(sessionRecordingAllowed({ ...ok, country }), String(country)).toBe(false);
  });

  it('time zone: only America zones', () => {
    for (const timeZone of ['Europe/London', 'UTC', 'Pacific/Honolulu', 'america/new_york', 'AmericaNew_York', '', null, undefined]) {
      expect(sessionRecordingAllowed({ ...ok, timeZone }), String(timeZone)).toBe(false);
    }
    expect(sessionRecordingAllowed({ ...ok, timeZone: 'America/Argentina/Buenos_Aires' })).toBe(true);
  });

  it('hardware threads: more than 2 (2 is not enough, 3 is)', () => {
    expect(sessionRecordingAllowed({ ...ok, hardwareThreads: 2 })).toBe(false);
    expect(sessionRecordingAllowed({ ...ok, hardwareThreads: 3 })).toBe(true);
    expect(sessionRecordingAllowed({ ...ok, hardwareThreads: 2.5 })).toBe(true);
    for (const hardwareThreads of [1, 0, -4, Number.NaN, Number.POSITIVE_INFINITY, null, undefined]) {
      expect(sessionRecordingAllowed({ ...ok, hardwareThreads }), String(hardwareThreads)).toBe(false);
    }
  });

  it('toggle: must be on', () => {
    expect(sessionRecordingAllowed({ ...ok, toggle: false })).toBe(false);
  });

  it("variant: must be exactly 'true'", () => {
    for (const variant of ['false', 'TRUE', 'control', '', null, undefined])
      expect(sessionRecordingAllowed({ ...ok, variant }), String(variant)).toBe(false);
  });

  it('the mock id means skip', () => {
    expect(recorderIdUsable(SESSION_RECORDER_MOCK_ID)).toBe(false);
    expect(recorderIdUsable('')).toBe(false);
    expect(recorderIdUsable(null)).toBe(false);
    expect(recorderIdUsable('o-1ABC')).toBe(true);
  });
});
