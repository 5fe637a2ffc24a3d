#!/usr/bin/env node
/* global process */
// `verdict` in a checkout (`npx verdict scan …`, and the npm scripts scan, watch and service):
// the same commands as the packaged app's `verdict scan|watch|service …`. Plain JavaScript
// that any Node can parse, so an older Node hears what it needs before anything loads the
// TypeScript sources (Node 20 cannot load .ts files at all).
const REQUIRED_MAJOR = 24;
// 24.2 brought import.meta.main, which the CLI modules use (package.json engines: >=24.2.0).
const [major, minor] = process.versions.node.split('.').map(Number);
if (!(major > REQUIRED_MAJOR || (major === REQUIRED_MAJOR && minor >= 2))) {
  process.stderr.write(`Verdict needs Node.js ${REQUIRED_MAJOR} or newer, but this is Node.js ${process.versions.node}: install Node.js ${REQUIRED_MAJOR} (https://nodejs.org, or nvm install ${REQUIRED_MAJOR}) and run the command again.\n`);
  process.exit(2);
}

// Node's compile cache keeps the TypeScript sources stripped and compiled between runs (in the
// OS temp folder): a command starts in about half the time and memory. Worker threads inherit
// the variable, so the engine's and the fingerprint's threads use it too.
const { enableCompileCache } = await import('node:module');
const cache = process.env.NODE_COMPILE_CACHE === undefined ? enableCompileCache?.() : undefined;
if (cache?.directory) process.env.NODE_COMPILE_CACHE = cache.directory;

const { cliCommandFrom, runCliCommand, USAGE } = await import('../electron/cli/commands.ts');
// Runs in this process (no child): the arguments' exact bytes are this process's /proc/self/cmdline.
const { exactArgv } = await import('../electron/file-names/exact-argv.ts');
const command = cliCommandFrom(exactArgv(process.argv), 2);
if (command === null) {
  const asked = process.argv.slice(2).some((arg) => arg === '-h' || arg === '--help');
  process.stderr.write(`${asked || process.argv.length <= 2 ? '' : `Unknown command: ${process.argv[2]}\n\n`}${USAGE}\n`);
  process.exitCode = asked ? 0 : 2;
} else {
  const outcome = await runCliCommand(command);
  if (outcome !== 'running') process.exitCode = outcome;
}
