// Case 2: the client's memory during that upload: peak RSS growth of the
// uploading process (a child of its own; VmHWM from /proc/self/status).
import type { BenchCase } from './bench-case.ts';
import { measureUploads, uploadMiB } from './support/upload-session.ts';
import { fromSamples } from './support/statistics.ts';

export const clientMemoryCase: BenchCase = {
  id: 'client-memory',
  title: 'client memory during that upload',
  needs: ['curl'],
  reps: { full: 7, quick: 2 },
  async run(context) {
    const data = await measureUploads(context);
    return [
      fromSamples(
        {
          name: `peak RSS growth, ${uploadMiB(context.quick)} MiB upload`,
          unit: 'MiB',
          target: { on: 'ours', op: '<', value: 32, text: '< 32 MB' },
          note: `max ${Math.max(...data.clientGrowthMiB).toFixed(1)} MiB; ${data.memoryMethod.client === 'hwm' ? 'VmHWM reset before the upload' : 'VmRSS sampled every 5 ms'}`,
        },
        data.clientGrowthMiB,
      ),
    ];
  },
};
