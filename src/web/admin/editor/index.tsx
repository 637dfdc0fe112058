/** The page editor's /config screens: the pages list at /config/pages, the editor at /config/pages/:id. */
import { PageEditor } from './PageEditor.js';
import { PagesScreen } from './PagesScreen.js';

export function PagesEditorScreen({ path }: { path: string }) {
  const m = path.match(/^\/config\/pages\/([^/]+)\/?$/);
  return m ? <PageEditor id={decodeURIComponent(m[1]!)} /> : <PagesScreen />;
}
