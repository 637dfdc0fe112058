/**
 * /config/products/import: product CSV import and export. Choosing a file runs a dry run at once (the server reads
 * and checks every row, writes nothing) and lists each row's error; Import starts a job whose progress is polled
 * until it is done. Export downloads the catalogue in Squarespace's or Shopify's layout.
 */
import { useEffect, useState } from 'react';
import { api, ApiError } from '../../client/api.js';
import { ColumnHeads, PageHeader, useToast } from '../ui/design.js';

interface Store {
  id: string;
  title: string;
}

interface Summary {
  format: 'squarespace' | 'shopify';
  products: number;
  variants: number;
  creates: number;
  updates: number;
  preview: Array<{ row: number; title: string; variants: number; action: 'create' | 'update' }>;
  errors: Array<{ row: number; message: string }>;
}

interface Job {
  state: string;
  total: number;
  done: number;
  created: number;
  updated: number;
  warnings: string[];
}

const FORMAT_NAMES = { squarespace: 'Squarespace', shopify: 'Shopify' } as const;

export function ImportExport() {
  const toast = useToast();
  const [stores, setStores] = useState<Store[]>([]);
  const [collectionId, setCollectionId] = useState('');
  const [csv, setCsv] = useState('');
  const [fileName, setFileName] = useState('');
  const [dry, setDry] = useState<Summary | null>(null);
  const [error, setError] = useState('');
  const [checking, setChecking] = useState(false);
  const [jobId, setJobId] = useState('');

  useEffect(() => {
    api<{ stores: Store[] }>('GET', '/api/config/stores').then(
      (r) => {
        setStores(r.stores);
        setCollectionId(r.stores[0]?.id ?? '');
      },
      (e: Error) => setError(e.message),
    );
  }, []);

  const job = useImportJob(jobId, toast, setError);

  const check = async (text: string) => {
    setError('');
    setDry(null);
    setJobId('');
    setChecking(true);
    try {
      setDry(await api<Summary>('POST', '/api/config/catalog/import', { csv: text, collectionId, dryRun: true }));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setChecking(false);
    }
  };

  const start = async () => {
    setError('');
    try {
      const r = await api<{ jobId: string } & Summary>('POST', '/api/config/catalog/import', { csv, collectionId, dryRun: false });
      setJobId(r.jobId);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      if (e instanceof ApiError && Array.isArray(e.data.errors))
        setDry((d) => (d ? { ...d, errors: e.data.errors as Summary['errors'] } : d));
    }
  };

  return (
    <>
      <PageHeader
        title="Import and export products"
        description="Move products in and out with CSV files in Squarespace's or Shopify's product layout."
        breadcrumbs={[{ label: 'Products', href: '/config/products' }, { label: 'Import and export' }]}
      />
      <section className="a-card a-form" aria-labelledby="cat-import-h">
        <h2 id="cat-import-h">Import</h2>
        <p className="a-muted">
          Products whose SKUs are already in your store are updated; the others are added. Images named by address are downloaded. Nothing
          is written until you press Import.
        </p>
        <label>
          Store for new products
          <select value={collectionId} onChange={(e) => setCollectionId(e.target.value)}>
            {stores.map((s) => (
              <option key={s.id} value={s.id}>
                {s.title}
              </option>
            ))}
          </select>
        </label>
        <label>
          CSV file
          <input
            type="file"
            accept=".csv,text/csv"
            onChange={(e) => {
              const f = e.target.files?.[0];
              if (!f) return;
              setFileName(f.name);
              void f.text().then((text) => {
                setCsv(text);
                void check(text);
              });
            }}
          />
        </label>
        {checking ? <p role="status">Checking {fileName}…</p> : null}
        {error ? <p role="alert">{error}</p> : null}
        {dry ? (
          <DryRun
            dry={dry}
            fileName={fileName}
            onImport={() => void start()}
            busy={!!jobId && job?.state !== 'done' && job?.state !== 'failed'}
          />
        ) : null}
        {jobId ? <ImportProgress job={job} planned={dry?.products ?? 0} /> : null}
      </section>
      <ExportCard />
    </>
  );
}

/** Polls an import job's progress until it ends, telling the owner how it ended. */
function useImportJob(jobId: string, toast: ReturnType<typeof useToast>, setError: (m: string) => void): Job | null {
  const [job, setJob] = useState<Job | null>(null);
  useEffect(() => {
    setJob(null);
    if (!jobId) return;
    let stop = false;
    const poll = async () => {
      try {
        const j = await api<Job>('GET', `/api/config/catalog/import/${encodeURIComponent(jobId)}`);
        if (stop) return;
        setJob(j);
        if (j.state === 'done') toast(`Import finished: ${j.created} created, ${j.updated} updated.`);
        else if (j.state === 'failed') toast('The import stopped. See the messages below.', { tone: 'error' });
        else setTimeout(() => void poll(), 700);
      } catch (e) {
        if (!stop) setError(e instanceof Error ? e.message : String(e));
      }
    };
    void poll();
    return () => {
      stop = true;
    };
  }, [jobId]);
  return job;
}

/** What the dry run found: the counts, the rows with errors, or the button that imports. */
function DryRun({ dry, fileName, onImport, busy }: { dry: Summary; fileName: string; onImport: () => void; busy: boolean }) {
  return (
    <div aria-label="Dry run" role="region">
      <h3>
        Dry run of {fileName} ({FORMAT_NAMES[dry.format]} layout)
      </h3>
      <p role="status">
        {dry.products} products with {dry.variants} variants: {dry.creates} to add, {dry.updates} to update.
        {dry.errors.length ? ` ${new Set(dry.errors.map((x) => x.row)).size} rows have errors.` : ' No errors.'}
      </p>
      {dry.errors.length ? (
        <table className="cat-errors">
          <caption>Rows with errors</caption>
          <ColumnHeads columns={['Row', 'Error']} />
          <tbody>
            {dry.errors.map((x, i) => (
              <tr key={i}>
                <td>{x.row}</td>
                <td>{x.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <button type="button" className="a-button--primary" onClick={onImport} disabled={busy}>
          Import {dry.products} products
        </button>
      )}
    </div>
  );
}

/** The running import's progress bar, its end and its warnings. */
function ImportProgress({ job, planned }: { job: Job | null; planned: number }) {
  const pct = job && job.total ? Math.round((job.done / job.total) * 100) : 0;
  return (
    <div role="region" aria-label="Import progress">
      <label>
        Imported {job?.done ?? 0} of {job?.total ?? planned} products
        <progress className="cat-progress" max={job?.total || 1} value={job?.done ?? 0}>
          {pct}%
        </progress>
      </label>
      {job?.state === 'done' ? (
        <p role="status">
          Done: {job.created} created, {job.updated} updated. <a href="/config/products">See the products</a>
        </p>
      ) : null}
      {job?.warnings.length ? (
        <ul className="cat-errors">
          {job.warnings.map((w, i) => (
            <li key={i}>{w}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** The two export links. */
function ExportCard() {
  return (
    <section className="a-card" aria-labelledby="cat-export-h">
      <h2 id="cat-export-h">Export</h2>
      <p className="a-muted">Download every product with its variants, prices and stock.</p>
      <p>
        <a className="a-button" href="/api/config/catalog/export?format=shopify" download>
          Export for Shopify (CSV)
        </a>{' '}
        <a className="a-button" href="/api/config/catalog/export?format=squarespace" download>
          Export for Squarespace (CSV)
        </a>
      </p>
    </section>
  );
}
