/**
 * The editor's screens load on demand: the page editor and the site styles are the largest /config
 * screens, so they are split out of the admin bundle and fetched when one of their paths is opened.
 */
import { Suspense, lazy } from 'react';

const Pages = lazy(() => import('./index.js').then((m) => ({ default: m.PagesEditorScreen })));
const Posts = lazy(() => import('./index.js').then((m) => ({ default: m.PostsEditorScreen })));
const Styles = lazy(() => import('./StylesScreen.js').then((m) => ({ default: m.StylesScreen })));

export function PagesEditorScreen({ path }: { path: string }) {
  return (
    <Suspense fallback={<p>Loading…</p>}>
      <Pages path={path} />
    </Suspense>
  );
}

export function PostsEditorScreen({ path }: { path: string }) {
  return (
    <Suspense fallback={<p>Loading…</p>}>
      <Posts path={path} />
    </Suspense>
  );
}

export function StylesScreen() {
  return (
    <Suspense fallback={<p>Loading…</p>}>
      <Styles />
    </Suspense>
  );
}
