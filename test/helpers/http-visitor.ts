/**
 * A visitor over real HTTP (fetch) with a cookie jar: sends the crumb on writes, keeps Set-Cookie answers,
 * and spreads its calls over several server instances in turn when given more than one base URL.
 */
export class HttpVisitor {
  cookies = new Map<string, string>();
  private n = 0;
  constructor(private readonly bases: string[]) {}

  next(): string {
    return this.bases[this.n++ % this.bases.length]!;
  }

  async call(method: string, path: string, body?: unknown, base = this.next(), extra: Record<string, string> = {}): Promise<Response> {
    const headers: Record<string, string> = { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '), ...extra };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method !== 'GET' && this.cookies.has('crumb')) headers['x-csrf-token'] = this.cookies.get('crumb')!;
    const res = await fetch(base + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
    });
    for (const sc of res.headers.getSetCookie()) {
      const [pair] = sc.split(';');
      const i = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, i), pair!.slice(i + 1));
    }
    return res;
  }
}
