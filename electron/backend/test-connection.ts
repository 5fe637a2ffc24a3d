// "Test connection": one real request to the configured service. A GET for a
// reference nobody used must answer 404 with the service's JSON error body:
// that proves the URL, the key and the service's kind in one round trip.
import type { ConnectionReport } from '../../shared/bridge/api.ts';
import type { ServiceCalls } from '../service-client/service-client.ts';
import { isServiceError } from '../service-client/service-error.ts';

export async function testConnection(
  client: Pick<ServiceCalls, 'getByReference'>,
  probeReference: string,
  options: { signal?: AbortSignal; now?: () => number } = {},
): Promise<ConnectionReport> {
  const now = options.now ?? (() => performance.now());
  const startedAt = now();
  const latency = () => Math.round(now() - startedAt);
  try {
    await client.getByReference(probeReference, { signal: options.signal });
    // Nobody can have used a fresh random reference: a scan here means the server is not honest about 404s.
    return {
      reachable: true,
      authorized: true,
      latencyMs: latency(),
      message: 'The service answered, but returned a scan for a reference that was never used; check the base URL.',
      problem: 'not_a_service',
    };
  } catch (error) {
    if (!isServiceError(error)) {
      return { reachable: false, authorized: false, latencyMs: null, message: `The test failed: ${(error as Error).message}`, problem: 'unreachable' };
    }
    const answered = error.status !== undefined;
    switch (error.kind) {
      case 'not_found':
        if (error.code) return { reachable: true, authorized: true, latencyMs: latency(), message: 'Connected: the service answered and accepted the API key.', problem: null };
        return {
          reachable: true,
          authorized: false,
          latencyMs: latency(),
          message: 'A server answered, but not like a File Scanning Service (no error body on 404); check the base URL.',
          problem: 'not_a_service',
        };
      case 'unauthorized':
        // Without a status the key was never sent: none is stored, or it cannot go in a header.
        return { reachable: answered, authorized: false, latencyMs: answered ? latency() : null, message: error.message, problem: answered ? 'unauthorized' : 'no_key' };
      case 'network':
      case 'timeout':
        return { reachable: false, authorized: false, latencyMs: null, message: error.message, problem: 'unreachable' };
      case 'malformed_response':
        // An HTML page, a redirect, the wrong JSON: whatever answers is not a File Scanning Service.
        return { reachable: true, authorized: false, latencyMs: latency(), message: `${error.message} Is the base URL right?`, problem: 'not_a_service' };
      default:
        return { reachable: answered, authorized: false, latencyMs: answered ? latency() : null, message: error.message, problem: answered ? 'service_error' : 'unreachable' };
    }
  }
}
