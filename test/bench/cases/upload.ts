// Case 1: uploading 100 MB async to the local service, our client's submit
// wall time against `curl -F` of the same file to the same endpoint.
import { uploadMiB, uploadSessionCase } from './support/upload-session.ts';
import { fromSamples } from './support/statistics.ts';

export const uploadCase = uploadSessionCase({ id: 'upload', title: 'upload 100 MB async to the local service' }, (data, quick) =>
  fromSamples(
    {
      name: `submit wall time, ${uploadMiB(quick)} MiB`,
      unit: 'ms',
      peerLabel: 'curl -F',
      target: { on: 'ratio', op: '<=', value: 1.15, text: 'ratio ≤ 1.15' },
      note: 'from the call to the answer (curl: %{time_total}); process start-up not counted',
    },
    data.clientMs,
    data.curlMs,
  ),
);
