/**
 * Where the engine reads a CLDR language pack from, kept apart from cldr.ts so that installing a loader
 * does not load @phensley/cldr itself: a process (or a test file) that never formats never pays for it.
 */
type PackLoader = (language: string) => string;

let packLoader: PackLoader | null = null;
let generation = 0;

/** Install how a language's pack (the JSON text of @phensley/cldr/packs/<lang>.json) is read. */
export function setCldrPackLoader(loader: PackLoader): void {
  packLoader = loader;
  generation += 1;
}

/** The installed loader, or null before one is installed. */
export function cldrPackLoader(): PackLoader | null {
  return packLoader;
}

/** Counts installs, so the engine can drop what it built with an earlier loader. */
export function cldrLoaderGeneration(): number {
  return generation;
}
