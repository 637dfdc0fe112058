import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EXPERIMENTS,
  DEFAULT_INTERNAL_HOST_PATTERNS,
  assignVariant,
  experimentProblem,
  experimentStorageKey,
  experimentTags,
  fnv1a,
  isInternalHost,
  overrideFromQuery,
  parseHostPatterns,
  resolveAssignment,
  type Experiment,
} from '../../../src/core/experiments.js';
import { randomVisitorId } from '../../../src/core/cookies.js';

const hero: Experiment = {
  name: 'hero',
  variants: [
    { name: 'a', weight: 50 },
    { name: 'b', weight: 50 },
  ],
};

/** A seeded random source, so the visitor ids are the same on every run. */
function seeded(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 0x1_0000_0000;
  };
}

describe('experiment assignment', () => {
  it('is stable per visitor and differs between experiments', () => {
    const id = 'b3c1e2f4-0000-4000-8000-000000000001';
    const first = assignVariant(hero, id);
    for (let i = 0; i < 20; i++) expect(assignVariant(hero, id)).toBe(first);
    expect(fnv1a('abc')).toBe(fnv1a('abc'));
    expect(fnv1a('abc')).not.toBe(fnv1a('abd'));
  });

  it('follows the weights over many visitors', () => {
    const random = seeded(42);
    const e: Experiment = {
      name: 'checkout',
      variants: [
        { name: 'x', weight: 70 },
        { name: 'y', weight: 20 },
        { name: 'z', weight: 10 },
      ],
    };
    const counts: Record<string, number> = { x: 0, y: 0, z: 0 };
    const n = 20_000;
    for (let i = 0; i < n; i++) counts[assignVariant(e, randomVisitorId(random))!]! += 1;
    expect(counts.x! / n).toBeGreaterThan(0.68);
    expect(counts.x! / n).toBeLessThan(0.72);
    expect(counts.y! / n).toBeGreaterThan(0.18);
    expect(counts.y! / n).toBeLessThan(0.22);
    expect(counts.z! / n).toBeGreaterThan(0.08);
    expect(counts.z! / n).toBeLessThan(0.12);
  });

  it('never assigns a variant of weight 0', () => {
    const random = seeded(7);
    const e: Experiment = {
      name: 'hero',
      variants: [
        { name: 'on', weight: 0 },
        { name: 'off', weight: 5 },
      ],
    };
    for (let i = 0; i < 2000; i++) expect(assignVariant(e, randomVisitorId(random))).toBe('off');
  });

  it('keys the stored override by a name plus the experiment name', () => {
    expect(experimentStorageKey('hero')).toBe('tessera.experiment.hero');
  });
});

describe('internal and staging hosts', () => {
  it('detects internal .net domains, stage, qa plus a number and dev variants', () => {
    for (const h of [
      'shop.internal.net',
      'a.b.internal.net:8443',
      'stage.example.com',
      'www.stage.example.com',
      'shop-stage.example.com',
      'staging.example.com',
      'qa1.example.com',
      'qa42.example.com',
      'eu.qa3.example.com',
      'dev.example.com',
      'shop.dev.example.com',
      'shop-dev.example.com',
      'dev2.example.com',
    ]) {
      expect(isInternalHost(h), h).toBe(true);
    }
  });

  it('production hosts are not internal', () => {
    for (const h of [
      'www.example.com',
      'example.com',
      'internal.net.example.com',
      'devices.example.com',
      'qa.example.com',
      'qualified.example.com',
      'stagecoach.com',
      'localhost',
      '',
      null,
      undefined,
    ]) {
      expect(isInternalHost(h), String(h)).toBe(false);
    }
  });

  it('patterns are configurable', () => {
    const p = parseHostPatterns(' *.preview.example , ,beta.shop.example');
    expect(p).toEqual(['*.preview.example', 'beta.shop.example']);
    expect(isInternalHost('x.preview.example', p)).toBe(true);
    expect(isInternalHost('BETA.shop.example:3000', p)).toBe(true);
    expect(isInternalHost('stage.example.com', p)).toBe(false);
    expect(DEFAULT_INTERNAL_HOST_PATTERNS.length).toBeGreaterThan(0);
  });
});

describe('overrides', () => {
  it('reads set and reset from the query; unknown variants are ignored', () => {
    expect(overrideFromQuery(hero, { 'experiment.hero': 'b' })).toEqual({ kind: 'set', variant: 'b' });
    expect(overrideFromQuery(hero, new URLSearchParams('experiment.hero=reset'))).toEqual({ kind: 'reset' });
    expect(overrideFromQuery(hero, { 'experiment.hero': 'c' })).toBeNull();
    expect(overrideFromQuery(hero, { 'experiment.other': 'b' })).toBeNull();
    expect(overrideFromQuery(hero, { 'experiment.hero': ['a', 'b'] })).toEqual({ kind: 'set', variant: 'a' });
  });

  it('an override sets and stores the variant on internal hosts only', () => {
    const visitorId = 'visitor-1';
    const hashed = assignVariant(hero, visitorId);
    const other = hashed === 'a' ? 'b' : 'a';
    expect(resolveAssignment({ experiment: hero, visitorId, internal: true, query: { 'experiment.hero': other } })).toEqual({
      variant: other,
      source: 'override',
      store: { kind: 'set', variant: other },
    });
    expect(resolveAssignment({ experiment: hero, visitorId, internal: false, query: { 'experiment.hero': other } })).toEqual({
      variant: hashed,
      source: 'hash',
      store: null,
    });
  });

  it('a stored override counts on internal hosts; a reset removes it', () => {
    const visitorId = 'visitor-2';
    const hashed = assignVariant(hero, visitorId)!;
    const other = hashed === 'a' ? 'b' : 'a';
    expect(resolveAssignment({ experiment: hero, visitorId, internal: true, stored: other })).toEqual({
      variant: other,
      source: 'stored',
      store: null,
    });
    expect(resolveAssignment({ experiment: hero, visitorId, internal: false, stored: other })).toEqual({
      variant: hashed,
      source: 'hash',
      store: null,
    });
    expect(resolveAssignment({ experiment: hero, visitorId, internal: true, stored: 'gone' })).toEqual({
      variant: hashed,
      source: 'hash',
      store: null,
    });
    expect(
      resolveAssignment({ experiment: hero, visitorId, internal: true, stored: other, query: { 'experiment.hero': 'reset' } }),
    ).toEqual({ variant: hashed, source: 'hash', store: { kind: 'remove' } });
    expect(resolveAssignment({ experiment: hero, visitorId: null, internal: false })).toEqual({
      variant: null,
      source: 'none',
      store: null,
    });
  });

  it('events carry the assignments as name:variant tags', () => {
    expect(experimentTags({ hero: 'b', 'session-recording': 'false', unassigned: null })).toEqual(['hero:b', 'session-recording:false']);
  });
});

describe('experiment definitions', () => {
  it('checks what an owner saves', () => {
    expect(experimentProblem([hero])).toBeNull();
    expect(experimentProblem([{ name: 'Hero', variants: hero.variants }])).toContain('not a valid experiment name');
    expect(experimentProblem([hero, hero])).toBe('This experiment already exists');
    expect(experimentProblem([{ name: 'x', variants: [{ name: 'a', weight: 1 }] }])).toBe('Experiment x needs at least two variants.');
    expect(
      experimentProblem([
        {
          name: 'x',
          variants: [
            { name: 'a', weight: 1 },
            { name: 'a', weight: 1 },
          ],
        },
      ]),
    ).toBe('This variant already exists');
    expect(
      experimentProblem([
        {
          name: 'x',
          variants: [
            { name: 'a', weight: 0 },
            { name: 'b', weight: 0 },
          ],
        },
      ]),
    ).toBe('Experiment x needs a variant with a weight above 0.');
    expect(
      experimentProblem([
        {
          name: 'x',
          variants: [
            { name: 'a', weight: 1.5 },
            { name: 'b', weight: 1 },
          ],
        },
      ]),
    ).toBe('Weights are whole numbers from 0 to 1000.');
  });

  it('starts with the session-recording experiment, never assigning true', () => {
    expect(DEFAULT_EXPERIMENTS).toEqual([
      {
        name: 'session-recording',
        variants: [
          { name: 'true', weight: 0 },
          { name: 'false', weight: 100 },
        ],
      },
    ]);
    expect(experimentProblem([...DEFAULT_EXPERIMENTS])).toBeNull();
  });
});
