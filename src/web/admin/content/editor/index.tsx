/** The page editor's /config screens: pages at /config/pages(/:id), journal posts at /config/posts(/:id) (issue 27). */
import { PageEditor } from './PageEditor.js';
import { PagesScreen } from './PagesScreen.js';
import { PostsScreen } from './PostsScreen.js';

export function PagesEditorScreen({ path }: { path: string }) {
  const m = path.match(/^\/config\/pages\/([^/]+)\/?$/);
  return m ? <PageEditor id={decodeURIComponent(m[1]!)} /> : <PagesScreen />;
}

export function PostsEditorScreen({ path }: { path: string }) {
  const m = path.match(/^\/config\/posts\/([^/]+)\/?$/);
  return m ? <PageEditor key={m[1]} id={decodeURIComponent(m[1]!)} kind="post" /> : <PostsScreen />;
}
