// The npm packages a bundle carries, read from esbuild's metafile (every input file under a
// node_modules/<package>/ folder), and their licence texts shipped beside the bundles, as their
// licences ask (ISC and MIT: "this permission notice shall be included in all copies").
// scripts/bundle-element.mjs and scripts/bundle-page-modules.mjs call shipLicences for each bundle
// they write; OUT/licences/ then holds one <package>.txt per bundled package and packages.json:
//   [{ name, version, licence, file, bundledIn: [output paths relative to OUT] }]
// which tests/js/licences.test.mjs checks against the sources' own imports.
import { copyFile, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';

// The last node_modules/<name> or node_modules/@scope/<name> of a path (nested installs included).
const PACKAGE_DIR = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//;
const LICENCE_FILE = /^(licen[cs]e|copying)(\.(md|txt))?$/i;

/** The package folders (absolute) whose files are inputs of the metafile's outputs. */
export function bundledPackageDirs(metafile, root) {
  const dirs = new Set();
  for (const path of Object.keys(metafile.inputs)) {
    const match = PACKAGE_DIR.exec(path.replaceAll('\\', '/'));
    if (match) dirs.add(resolve(root, match[1]));
  }
  return [...dirs].sort();
}

/** The package's licence file name, or a thrown Error naming the package: it cannot be shipped. */
async function licenceFile(dir, name) {
  const found = (await readdir(dir)).filter((f) => LICENCE_FILE.test(f)).sort();
  if (!found.length) throw new Error(`${name} is bundled but has no LICENSE file in ${dir}: its licence cannot be shipped`);
  return found[0];
}

/**
 * Copies the licence of every package bundled into `outputs` (paths of the bundles written) into
 * outDir/licences/ and records them in outDir/licences/packages.json (merged with earlier calls).
 * → [{ name, version, licence }] of the packages in these outputs, sorted by name.
 */
export async function shipLicences(metafile, root, outDir, outputs) {
  const folder = join(outDir, 'licences');
  await mkdir(folder, { recursive: true });
  const index = join(folder, 'packages.json');
  const records = new Map((await readFile(index, 'utf8').then(JSON.parse, () => [])).map((r) => [r.name, r]));
  const shipped = [];
  for (const dir of bundledPackageDirs(metafile, root)) {
    const { name, version, license: licence = null } = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
    const file = `${name.replace('/', '__')}.txt`;
    await copyFile(join(dir, await licenceFile(dir, name)), join(folder, file));
    const record = records.get(name) ?? { name, version, licence, file, bundledIn: [] };
    for (const output of outputs) {
      const path = relative(outDir, output).replaceAll('\\', '/');
      if (!record.bundledIn.includes(path)) record.bundledIn.push(path);
    }
    records.set(name, record);
    shipped.push({ name, version, licence });
  }
  const sorted = [...records.values()].sort((a, b) => a.name.localeCompare(b.name));
  await writeFile(index, `${JSON.stringify(sorted, null, 1)}\n`);
  return shipped.sort((a, b) => a.name.localeCompare(b.name));
}
