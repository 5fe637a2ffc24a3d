// The rule files a user names: files as given, and a folder's `.yar`/`.yara` files (its subfolders' too).
import { readdirSync, statSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';

export function ruleFiles(paths: readonly string[]): string[] {
  const found: string[] = [];
  for (const path of paths.map((entry) => resolve(entry))) {
    if (!statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
      if (statSync(path, { throwIfNoEntry: false })?.isFile()) found.push(path);
      continue;
    }
    for (const name of readdirSync(path, { recursive: true, encoding: 'utf8' }).sort()) {
      if (['.yar', '.yara'].includes(extname(name).toLowerCase())) found.push(join(path, name));
    }
  }
  return found;
}
