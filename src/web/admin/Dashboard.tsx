import { useEffect, useState } from 'react';
import { api } from '../client/api.js';

interface Me {
  email: string;
  displayName: string;
}

export function Dashboard() {
  const [me, setMe] = useState<Me | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    api<Me>('GET', '/api/auth/me').then(setMe, (e: Error) => setError(e.message));
  }, []);
  return (
    <>
      <h1>Dashboard</h1>
      {error ? <p role="alert">{error}</p> : <p>{me ? `Signed in as ${me.displayName || me.email}.` : 'Loading…'}</p>}
    </>
  );
}
