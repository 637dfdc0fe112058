/**
 * URL redirects: the owner's rules, written as text in the documented platform's URL-mappings format
 * (one rule a line, `/old -> /new 301`; `302` for a temporary move; the code may be left out for 301),
 * and the automatic 301s written by the database when a page's or item's url id changes (migration 0017).
 *
 * Wildcards: a source ending in `*` matches every path that starts with what comes before it; a `*` in
 * the target is replaced by the text the source's `*` matched (`/shop/* -> /store/* 301`). Matching
 * compares paths without their query (which is carried over to the target when the target has none) and
 * ignores letter case. Exact rules win over wildcards, longer wildcards over shorter ones, and the owner's
 * rules over automatic ones. Lookups are a map read plus a scan of the wildcard prefixes: no regular
 * expression runs on a visitor's path.
 */
import { seo as text } from '../../core/messages.js';

export const MAX_RULES = 5000;
export const MAX_RULE_PATH = 2000;

export interface RedirectRule {
  from: string;
  to: string;
  status: 301 | 302;
}

export interface RuleError {
  line: number;
  message: string;
}

const TARGET_OK = /^(\/(?!\/)|https?:\/\/[^\s/]+)/i;

/** Parses URL-mappings text: the rules, and every invalid line with its 1-based line number. */
export function parseRedirects(input: string): { rules: RedirectRule[]; errors: RuleError[] } {
  const rules: RedirectRule[] = [];
  const errors: RuleError[] = [];
  const seen = new Set<string>();
  const ruleLines: number[] = [];
  const lines = input.split(/\r?\n/);
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!.trim();
    const bad = (message: string) => errors.push({ line: n + 1, message });
    if (line === '' || line.startsWith('#')) continue;
    if (line.length > MAX_RULE_PATH * 2 + 20) {
      bad(text.ruleTooLong(MAX_RULE_PATH));
      continue;
    }
    const arrow = line.indexOf('->');
    if (arrow < 0) {
      bad(text.RULE_FORMAT);
      continue;
    }
    const from = line.slice(0, arrow).trim();
    const rest = line
      .slice(arrow + 2)
      .trim()
      .split(/\s+/);
    const to = rest[0] ?? '';
    const code = rest[1] ?? '301';
    if (rest.length > 2 || from === '' || to === '' || /\s/.test(from)) {
      bad(text.RULE_FORMAT);
      continue;
    }
    if (!from.startsWith('/') || from.startsWith('//')) {
      bad(text.RULE_SOURCE);
      continue;
    }
    if (from.length > MAX_RULE_PATH || to.length > MAX_RULE_PATH) {
      bad(text.ruleTooLong(MAX_RULE_PATH));
      continue;
    }
    if (from.indexOf('*') !== -1 && from.indexOf('*') !== from.length - 1) {
      bad(text.RULE_WILDCARD);
      continue;
    }
    if (!TARGET_OK.test(to)) {
      bad(text.RULE_TARGET);
      continue;
    }
    const stars = to.split('*').length - 1;
    if (stars > 1 || (stars === 1 && !from.endsWith('*'))) {
      bad(text.RULE_TARGET_WILDCARD);
      continue;
    }
    if (code !== '301' && code !== '302') {
      bad(text.RULE_CODE);
      continue;
    }
    if (from.split('?')[0]!.toLowerCase() === to.split('?')[0]!.toLowerCase()) {
      bad(text.RULE_LOOP);
      continue;
    }
    const key = from.toLowerCase();
    if (seen.has(key)) {
      bad(text.ruleDuplicate(from));
      continue;
    }
    seen.add(key);
    rules.push({ from, to, status: code === '302' ? 302 : 301 });
    ruleLines.push(n + 1);
    if (rules.length > MAX_RULES) {
      bad(text.tooManyRules(MAX_RULES));
      break;
    }
  }
  if (errors.length === 0) flattenChains(rules, ruleLines, errors);
  return { rules, errors };
}

/** A local target's path as an exact rule's key: lower case, no query; null for wildcards and other sites. */
function chainKey(to: string): string | null {
  if (!to.startsWith('/') || to.includes('*')) return null;
  const q = to.indexOf('?');
  return (q < 0 ? to : to.slice(0, q)).toLowerCase();
}

/**
 * Chains become one hop (`/a -> /b` and `/b -> /c` store `/a -> /c`), keeping each rule's own status;
 * a chain that comes back to a path it passed is reported on its first rule's line as a loop.
 */
function flattenChains(rules: RedirectRule[], ruleLines: number[], errors: RuleError[]): void {
  const exact = new Map<string, RedirectRule>();
  for (const r of rules) if (!r.from.endsWith('*')) exact.set(r.from.toLowerCase(), r);
  const finalTo = new Map<RedirectRule, string>();
  for (const [i, r] of rules.entries()) {
    const path = [r.from];
    const seen = new Set([r.from.toLowerCase()]);
    let to = r.to;
    let looped = false;
    for (;;) {
      const key = chainKey(to);
      const next = key === null ? undefined : exact.get(key);
      if (!next) break;
      path.push(next.from);
      if (seen.has(key!)) {
        looped = true;
        break;
      }
      seen.add(key!);
      // The first query wins: a later rule's target keeps the query asked for when it has none.
      const q = to.indexOf('?');
      to = q >= 0 && !next.to.includes('?') ? next.to + to.slice(q) : next.to;
    }
    if (looped) {
      errors.push({ line: ruleLines[i]!, message: text.ruleChainLoop(path) });
      return;
    }
    finalTo.set(r, to);
  }
  for (const r of rules) r.to = finalTo.get(r) ?? r.to;
}

/** Rules back as URL-mappings text. */
export function formatRedirects(rules: RedirectRule[]): string {
  return rules.map((r) => `${r.from} -> ${r.to} ${r.status}`).join('\n');
}

/** The site's redirects, ready for lookups (built once per content version). */
export class RedirectTable {
  private readonly exact = new Map<string, RedirectRule>();
  private readonly prefixes: Array<{ prefix: string; rule: RedirectRule }> = [];

  /** `rules` in precedence order: the owner's first, then the automatic ones. */
  constructor(rules: RedirectRule[]) {
    for (const r of rules) {
      const key = r.from.toLowerCase();
      if (key.endsWith('*')) {
        const prefix = key.slice(0, -1);
        if (!this.prefixes.some((p) => p.prefix === prefix)) this.prefixes.push({ prefix, rule: r });
      } else if (!this.exact.has(key)) this.exact.set(key, r);
    }
    // Longest prefix first; the sort is stable, so among equals the earlier (owner's) rule stays first.
    this.prefixes.sort((a, b) => b.prefix.length - a.prefix.length);
  }

  get size(): number {
    return this.exact.size + this.prefixes.length;
  }

  /** Where `url` (path and query) moved to, or null. */
  match(url: string): { location: string; status: 301 | 302 } | null {
    if (url.length > MAX_RULE_PATH * 2) return null;
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const query = q < 0 ? '' : url.slice(q);
    const key = path.toLowerCase();
    let rule = this.exact.get(key);
    let rest = '';
    if (!rule && key.length > 1 && key.endsWith('/')) rule = this.exact.get(key.slice(0, -1));
    if (!rule) {
      for (const p of this.prefixes) {
        if (key.startsWith(p.prefix)) {
          rule = p.rule;
          rest = path.slice(p.prefix.length);
          break;
        }
      }
    }
    if (!rule) return null;
    let location = rule.to.includes('*') ? rule.to.replace('*', rest) : rule.to;
    if (query && !location.includes('?')) location += query;
    // Never a redirect to the address asked for.
    if (location.split('?')[0]!.toLowerCase() === key) return null;
    return { location, status: rule.status };
  }
}
