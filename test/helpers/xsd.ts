/**
 * XML Schema validation through libxml2's xmllint (compiled to WebAssembly: the xmllint-wasm package), against
 * the schemas in test/data/xsd/ (written for these tests from the formats' public descriptions).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { validateXML } from 'xmllint-wasm';

const DIR = fileURLToPath(new URL('../data/xsd/', import.meta.url));
const FILES = ['sitemap.xsd', 'sitemap-image.xsd', 'xhtml-link.xsd', 'rss2.xsd', 'merchant-feed.xsd', 'merchant-g.xsd'] as const;
export type SchemaName = 'sitemap.xsd' | 'rss2.xsd' | 'merchant-feed.xsd';
const schemas = FILES.map((fileName) => ({ fileName, contents: readFileSync(DIR + fileName, 'utf8') }));

/** The schema's verdict on a document: its errors (none when it is valid). */
export async function xsdErrors(xml: string, schema: SchemaName): Promise<string[]> {
  const r = await validateXML({
    xml: [{ fileName: 'document.xml', contents: xml }],
    schema: schemas.filter((s) => s.fileName === schema),
    preload: schemas.filter((s) => s.fileName !== schema),
    maxMemoryPages: 4096,
  });
  return r.valid ? [] : r.errors.map((e) => e.rawMessage);
}
