/**
 * One axe-core check for the browser tests. axe is put into the page through DevTools (page.evaluate),
 * because the pages' CSP allows no inline script; each caller says what to scan and which rules to run.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** WCAG 2.0 and 2.1, levels A and AA. */
export const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] as const;
/** WCAG 2.0 and 2.1 A/AA and axe's best practices. */
export const WCAG_AA_BEST_PRACTICE = [...WCAG_AA, 'best-practice'] as const;

export interface AxeScan {
  /** Scan only these parts of the page (every element each selector matches); without it, the document. */
  include?: readonly string[];
  /** Scan the first element this selector matches (the whole document when none does). */
  element?: string;
  /** Run only the rules with these tags; without it, axe's default rule set. */
  tags?: readonly string[];
  /** Rules to leave out of the run. */
  disableRules?: readonly string[];
  /** Whether axe also scans inside iframes (axe's default: yes). */
  iframes?: boolean;
  /** Count only violations of these impacts (for example serious and critical); without it, all. */
  impacts?: readonly string[];
}

export interface AxeFinding {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown; html: string; failureSummary?: string }>;
}

/** axe-core's violations on the page as it is now. */
export async function axeViolations(page: Page, scan: AxeScan = {}): Promise<AxeFinding[]> {
  await page.evaluate(axeSource);
  return page.evaluate(async (s) => {
    type Raw = {
      id: string;
      impact: string | null;
      help: string;
      nodes: Array<{ target: unknown; html: string; failureSummary?: string }>;
    };
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: Raw[] }> } }).axe;
    const context = s.include
      ? { include: s.include.map((sel) => [sel]) }
      : s.element
        ? (document.querySelector(s.element) ?? document)
        : document;
    const options: Record<string, unknown> = { resultTypes: ['violations'] };
    if (s.tags) options.runOnly = { type: 'tag', values: s.tags };
    if (s.disableRules) options.rules = Object.fromEntries(s.disableRules.map((id) => [id, { enabled: false }]));
    if (s.iframes !== undefined) options.iframes = s.iframes;
    const res = await axe.run(context, options);
    return res.violations
      .filter((v) => !s.impacts || s.impacts.includes(v.impact ?? ''))
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target, html: n.html, failureSummary: n.failureSummary })),
      }));
  }, scan);
}

/** Fails the test when axe-core finds any violation; the message lists each with the elements it names. */
export async function expectNoAxeViolations(page: Page, scan: AxeScan = {}, what?: string): Promise<void> {
  const found = await axeViolations(page, scan);
  const detail = found.map((v) => `${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(v.nodes.map((n) => n.target))}`).join('\n');
  expect(found, what ? `${what}\n${detail}` : detail).toEqual([]);
}
