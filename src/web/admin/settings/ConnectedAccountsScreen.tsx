/**
 * /config/connected-accounts: link services. The online food ordering provider: the
 * owner pastes the restaurant's online ordering address; the site's menu links to it, titled 'Order Now'
 * unless the owner names the link.
 */
import { api } from '../../client/api.js';
import { SaveForm, useLoad } from '../ui/records.js';

interface ConnectedAccounts {
  onlineOrdering: { connected: boolean; url: string; title: string; defaultTitle: string; shownTitle: string | null };
}

export function ConnectedAccountsScreen() {
  const [d, setD, error] = useLoad<ConnectedAccounts>('/api/config/connected-accounts');
  if (!d) return <p>{error || 'Loading…'}</p>;
  const o = d.onlineOrdering;
  const edit = (patch: Partial<ConnectedAccounts['onlineOrdering']>) => setD({ ...d, onlineOrdering: { ...o, ...patch } });
  return (
    <>
      <h1>Connected accounts</h1>
      <p>Link the site to services it works with. Leave an address empty to disconnect the service.</p>
      <SaveForm
        label="Online food ordering"
        onSubmit={async () => {
          const next = await api<ConnectedAccounts>('PUT', '/api/config/connected-accounts/online-ordering', {
            url: o.url,
            title: o.title,
          });
          setD(next);
          return next.onlineOrdering.connected ? `Connected. The menu shows “${next.onlineOrdering.shownTitle}”.` : 'Not connected.';
        }}
      >
        <h2>Online food ordering</h2>
        <label>
          Online ordering address
          <input
            type="url"
            value={o.url}
            placeholder="https://order.example.com/your-restaurant"
            onChange={(e) => edit({ url: e.target.value })}
          />
        </label>
        <label>
          Link title
          <input value={o.title} placeholder={o.defaultTitle} maxLength={60} onChange={(e) => edit({ title: e.target.value })} />
        </label>
        <small>Empty: “{o.defaultTitle}”.</small>
      </SaveForm>
    </>
  );
}
