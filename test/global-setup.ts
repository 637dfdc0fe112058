// Builds the browser bundle once before the suite (browser and process tests serve it).
export default async function setup() {
  // @ts-expect-error plain ESM script without types
  const { buildIfStale } = await import('../scripts/build-if-stale.mjs');
  buildIfStale();
}
