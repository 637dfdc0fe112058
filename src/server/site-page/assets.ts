import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const CLIENT_DIR = resolve('dist/client');

interface ManifestEntry {
  file: string;
  css?: string[];
  imports?: string[];
}

/** Script and style tags of a built entry, from Vite's manifest (hashed names, cached for a year). */
export class ClientAssets {
  private manifest: Record<string, ManifestEntry> = {};

  constructor(readonly dir = CLIENT_DIR) {
    this.reload();
  }

  reload() {
    const file = join(this.dir, '.vite', 'manifest.json');
    this.manifest = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, ManifestEntry>) : {};
  }

  get built(): boolean {
    return Object.keys(this.manifest).length > 0;
  }

  /** With `nonce`, the script and module-preload tags carry it (public pages' CSP, plugins/csp.ts). */
  tags(entry: 'site' | 'admin', nonce?: string): { head: string; body: string } {
    const key = entry === 'site' ? 'src/web/entry-client.tsx' : 'src/web/entry-admin.tsx';
    const e = this.manifest[key];
    if (!e) return { head: '', body: '' };
    const css = new Set<string>(e.css ?? []);
    const preload = new Set<string>();
    const visit = (k: string) => {
      const m = this.manifest[k];
      if (!m) return;
      preload.add(m.file);
      for (const c of m.css ?? []) css.add(c);
      for (const i of m.imports ?? []) visit(i);
    };
    for (const i of e.imports ?? []) visit(i);
    const n = nonce ? ` nonce="${nonce}"` : '';
    const head =
      [...css].map((c) => `<link rel="stylesheet" href="/${c}">`).join('') +
      [...preload].map((p) => `<link rel="modulepreload" href="/${p}"${n}>`).join('');
    return { head, body: `<script type="module" src="/${e.file}"${n}></script>` };
  }
}
