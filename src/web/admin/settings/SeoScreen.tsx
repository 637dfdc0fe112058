/** /config/seo: the site's robots.txt and its URL redirects (server/seo). */
import { useState } from 'react';
import { api, ApiError } from '../../client/api.js';
import { SaveForm, useLoad } from '../ui/records.js';

interface Robots {
  robotsTxt: string;
  defaultRobotsTxt: string;
  sitemapUrl: string;
}
interface Redirects {
  text: string;
  automatic: Array<{ from: string; to: string; status: number }>;
}

export function SeoScreen() {
  const [robots, setRobots, robotsError] = useLoad<Robots>('/api/seo/robots-txt');
  const [redirects, setRedirects, redirectsError] = useLoad<Redirects>('/api/seo/url-redirects');
  const [lineErrors, setLineErrors] = useState('');
  return (
    <>
      <h1>Search engines</h1>
      {robots ? (
        <SaveForm
          label="robots.txt"
          onSubmit={async () => {
            await api('PUT', '/api/seo/robots-txt', { robotsTxt: robots.robotsTxt });
          }}
        >
          <p>
            Your sitemap is at <a href={robots.sitemapUrl}>{robots.sitemapUrl}</a>; robots.txt names it unless you add your own Sitemap
            line. Leave the box empty to use the default.
          </p>
          <label>
            robots.txt
            <textarea
              rows={10}
              value={robots.robotsTxt}
              placeholder={robots.defaultRobotsTxt}
              onChange={(e) => setRobots({ ...robots, robotsTxt: e.target.value })}
              spellCheck={false}
            />
          </label>
        </SaveForm>
      ) : (
        <p>{robotsError || 'Loading…'}</p>
      )}
      {redirects ? (
        <SaveForm
          label="URL redirects"
          onSubmit={async () => {
            setLineErrors('');
            try {
              const saved = await api<{ text: string; count: number }>('PUT', '/api/seo/url-redirects', { text: redirects.text });
              setRedirects({ ...redirects, text: saved.text });
              return `Saved ${saved.count} redirect${saved.count === 1 ? '' : 's'}.`;
            } catch (e) {
              const lines = e instanceof ApiError ? (e.data.errors as Record<string, string> | undefined)?.text : undefined;
              if (lines) setLineErrors(lines);
              throw e;
            }
          }}
        >
          <p>
            One redirect a line: <code>/old-path -&gt; /new-path 301</code> (or <code>302</code> for a temporary move). A <code>*</code> at
            the end of the old path matches everything after it and can be used once in the new path.
          </p>
          <label>
            URL mappings
            <textarea
              rows={12}
              value={redirects.text}
              onChange={(e) => setRedirects({ ...redirects, text: e.target.value })}
              spellCheck={false}
              aria-invalid={lineErrors ? true : undefined}
              aria-describedby={lineErrors ? 'url-mapping-errors' : undefined}
            />
          </label>
          {lineErrors ? (
            <pre id="url-mapping-errors" className="field-error">
              {lineErrors}
            </pre>
          ) : null}
        </SaveForm>
      ) : (
        <p>{redirectsError || 'Loading…'}</p>
      )}
      {redirects && redirects.automatic.length ? (
        <section aria-label="Automatic redirects">
          <h2>Automatic redirects</h2>
          <p>Made when a page, product or post changed its URL.</p>
          <ul>
            {redirects.automatic.map((r) => (
              <li key={r.from}>
                {r.from} → {r.to} ({r.status})
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
