// Case 2: the client's memory during that upload: peak RSS growth of the
// uploading process (a child of its own; VmHWM from /proc/self/status).
import { peakGrowthMetric, uploadSessionCase } from './support/upload-session.ts';

export const clientMemoryCase = uploadSessionCase({ id: 'client-memory', title: 'client memory during that upload' }, (data, quick) =>
  peakGrowthMetric(quick, data.clientGrowthMiB, data.memoryMethod.client),
);
