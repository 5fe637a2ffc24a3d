// Case 3: the local service's memory while it receives 100 MB: peak RSS growth
// of the service process (a child of its own), during each upload of case 1.
import { peakGrowthMetric, uploadSessionCase } from './support/upload-session.ts';

export const serviceMemoryCase = uploadSessionCase({ id: 'service-memory', title: 'local service memory while receiving 100 MB' }, (data, quick) =>
  peakGrowthMetric(quick, data.serviceGrowthMiB, data.memoryMethod.service, "per repetition the larger of our client's and curl's upload; "),
);
