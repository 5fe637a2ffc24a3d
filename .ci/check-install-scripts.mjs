#!/usr/bin/env node
/* global process, console */
// Fails when a package in package-lock.json has install scripts that package.json's
// `allowScripts` neither approves nor denies. npm 12 skips such scripts without a word,
// which would leave keytar and the fd-passing addon unbuilt; npm 11.16+ only warns. Run by
// .ci/setup before `npm ci`, so the check does not depend on the npm version at hand.
// Plain JavaScript for any Node. Review a new one with `npm approve-scripts NAME` or
// `npm deny-scripts NAME` (registry packages are matched by name: the lockfile keeps no
// `resolved` URL to pin a version by, and its integrity hashes pin the content).
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
const keys = Object.keys(pkg.allowScripts ?? {});
const packages = lock.packages ?? {};

/** A `file:` key names a folder relative to the project, or (as npm approve-scripts writes it) to the link in node_modules. */
function namesFolder(key, folder) {
  if (!key.startsWith('file:')) return false;
  const spec = key.slice('file:'.length);
  const links = Object.entries(packages).filter(([, entry]) => entry.link && entry.resolved === folder).map(([location]) => path.dirname(location));
  return [root, ...links.map((dir) => path.join(root, dir))].some((base) => path.resolve(base, spec) === path.join(root, folder));
}

const nameOf = (location, entry) => entry.name ?? location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length);

function covered(location, entry) {
  if (!location.includes('node_modules/')) return keys.some((key) => namesFolder(key, location));
  const name = nameOf(location, entry);
  return keys.some((key) => key === name || key.startsWith(`${name}@`));
}

const unreviewed = Object.entries(packages)
  .filter(([location, entry]) => location !== '' && entry.hasInstallScript && !entry.inBundle && !entry.link)
  .filter(([location, entry]) => !covered(location, entry))
  .map(([location, entry]) => `${nameOf(location, entry)}@${entry.version ?? '?'} (${location})`);

if (unreviewed.length > 0) {
  console.error(`These packages have install scripts that package.json's allowScripts does not review:\n  ${unreviewed.join('\n  ')}\nApprove each one the app needs (npm approve-scripts NAME) and deny the rest (npm deny-scripts NAME).`);
  process.exit(1);
}
console.log(`Every install script is reviewed in allowScripts (${keys.length} entries).`);
