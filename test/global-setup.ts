// Builds the browser bundle once before the suite (browser and process tests serve it).
export default async function setup() {
  const { buildIfStale } = await import('../scripts/build-if-stale.mjs');
  buildIfStale();
}
