// Case 3: the local service's memory while it receives 100 MB: peak RSS growth
// of the service process (a child of its own), during each upload of case 1.
import type { BenchCase } from './bench-case.ts';
import { measureUploads, uploadMiB } from './support/upload-session.ts';
import { fromSamples } from './support/statistics.ts';

export const serviceMemoryCase: BenchCase = {
  id: 'service-memory',
  title: 'local service memory while receiving 100 MB',
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
          note: `per repetition the larger of our client's and curl's upload; max ${Math.max(...data.serviceGrowthMiB).toFixed(1)} MiB; ${data.memoryMethod.service === 'hwm' ? 'VmHWM reset before each upload' : 'VmRSS sampled every 5 ms'}`,
        },
        data.serviceGrowthMiB,
      ),
    ];
  },
};
