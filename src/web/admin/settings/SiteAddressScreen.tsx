/** /config/site-address: the public address of the site, which emailed links start with when PUBLIC_URL is not set. */
import { useQueryClient } from '@tanstack/react-query';
import { api } from '../../client/api.js';
import { SaveForm, useLoad } from '../ui/records.js';

interface SiteAddress {
  siteAddress: string;
  publicUrl: string | null;
  linksStartWith: string;
  serverAddress: string;
}

export function SiteAddressScreen() {
  const [d, setD, error, , saved] = useLoad<SiteAddress>('/api/config/site-address');
  const client = useQueryClient();
  if (!d) return <p>{error || 'Loading…'}</p>;
  return (
    <>
      <h1>Site address</h1>
      <p>
        The address visitors use to reach this site. Links in the emails the site sends (order confirmations, password resets, newsletter
        confirmations) start with it.
        {d.publicUrl ? ` The server's PUBLIC_URL (${d.publicUrl}) is set and takes precedence.` : ''}
      </p>
      <p>
        Links in emails start with: <strong>{d.linksStartWith}</strong>
      </p>
      <SaveForm
        label="Site address"
        onSubmit={async () => {
          saved(await api<SiteAddress>('PUT', '/api/config/site-address', { siteAddress: d.siteAddress }));
          // The dashboard's set-up checklist ticks "Set the site's address" from it.
          void client.invalidateQueries({ queryKey: ['dashboard'] });
        }}
      >
        <label>
          Site address
          <input
            type="url"
            value={d.siteAddress}
            placeholder="https://www.example.com"
            onChange={(e) => setD({ ...d, siteAddress: e.target.value })}
          />
        </label>
      </SaveForm>
    </>
  );
}
