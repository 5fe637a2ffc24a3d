// Child program of the upload cases: one async submission of a file through
// our service client (as the pipeline calls it), timed from the call to the
// answer, with this process's peak RSS growth during it. After a warm-up
// upload (modules loaded, JIT and connection warm). Prints one JSON line:
// { id, ms, growthMiB, memory }.
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { createServiceClient } from '../../../../electron/service-client/client.ts';
import { startPeakProbe } from './memory.ts';

const { values } = parseArgs({
  options: { url: { type: 'string' }, key: { type: 'string' }, file: { type: 'string' }, warm: { type: 'string' }, ref: { type: 'string' } },
});
const { url, key, file, warm, ref } = values;
if (!url || !key || !file || !warm || !ref) throw new Error('usage: upload-child.ts --url U --key K --file F --warm W --ref R');

const client = createServiceClient({ baseUrl: url, apiKey: () => key });
const submit = (path: string, reference: string) =>
  client.submitAndResolve({ path, size: statSync(path).size, name: basename(path) }, { mode: 'async', externalReferenceId: reference });

await submit(warm, `${ref}-warm`);
const probe = startPeakProbe('self');
const started = performance.now();
const { scan } = await submit(file, ref);
const ms = performance.now() - started;
const growthMiB = probe.stop();
await client.close();
console.log(JSON.stringify({ id: scan.id, ms, growthMiB, memory: probe.method }));
