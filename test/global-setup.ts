// Builds the browser bundle once before the suite (browser and process tests serve it), and the migrated, empty
// PGlite data folder that every test process clones its databases from.
import { writePgliteTemplate } from './helpers/db.js';

export default async function setup() {
  const { buildIfStale } = await import('../scripts/build-if-stale.mjs');
  buildIfStale();
  await writePgliteTemplate();
}
