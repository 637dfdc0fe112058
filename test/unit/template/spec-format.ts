/**
 * The spec file format (test/data/template/spec/*.spec): cases of template,
 * JSON, render options, expected output and expected errors, all hand-written.
 *
 *   ### case name
 *   template text (may span lines)
 *   --- json
 *   {"a": 1}
 *   --- opts
 *   {"locale": "fr-FR"}
 *   --- output
 *   expected output (may span lines)
 *   --- errors
 *   engine: RuntimeError: ...
 *
 * Lines before the first case are comments. The newline that ends a
 * section's last line is not part of it, and one blank line after a case
 * separates it from the next (so an output that ends in a newline is written
 * with one more blank line). A missing "--- output" means the empty string; a
 * missing "--- errors" means no errors.
 */
export interface SpecCase {
  name: string;
  template: string;
  json: unknown;
  opts: Record<string, unknown>;
  output: string;
  errors: string[];
  hasOutput: boolean;
}

export function parseSpec(text: string): SpecCase[] {
  const cases: SpecCase[] = [];
  const lines = text.split('\n');
  let cur: Record<string, string[]> | null = null;
  let name = '';
  let section = 'template';
  const flush = () => {
    if (cur === null) return;
    // The blank line that separates cases belongs to none of them.
    const last = cur[section];
    if (last.length > 0 && last[last.length - 1] === '') last.pop();
    const get = (k: string) => (cur![k] === undefined ? undefined : cur![k].join('\n'));
    const errs = get('errors');
    cases.push({
      name,
      template: get('template') ?? '',
      json: get('json') ? JSON.parse(get('json') as string) : {},
      opts: get('opts') ? JSON.parse(get('opts') as string) : {},
      output: get('output') ?? '',
      hasOutput: cur.output !== undefined,
      errors: errs ? errs.split('\n').filter((l) => l !== '') : [],
    });
  };
  for (const line of lines) {
    if (line.startsWith('### ')) {
      flush();
      name = line.slice(4).trim();
      cur = { template: [] };
      section = 'template';
      continue;
    }
    if (cur === null) continue;
    const m = /^--- (json|opts|output|errors)$/.exec(line);
    if (m) {
      section = m[1];
      cur[section] = [];
      continue;
    }
    cur[section].push(line);
  }
  flush();
  return cases;
}
