// A local stand-in for VirusTotal's v3 API on loopback: GET /api/v3/files/{sha256}
// with the key in x-apikey, answering as VirusTotal documents it: 200 with a file
// object for a known hash, 404 NotFoundError for an unknown one, 401
// WrongCredentialsError for any key but the one it accepts, and 429
// QuotaExceededError while the test has 429s queued. Every request is recorded
// (method, path, whether its key was the accepted one, body bytes).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface KnownFile {
  malicious: number;
  suspicious: number;
  undetected: number;
  harmless: number;
  /** Unix seconds. */
  analysedAt: number;
}

export interface StandInRequest {
  method: string;
  path: string;
  keyAccepted: boolean;
  bodyBytes: number;
}

export interface VirusTotalStandIn {
  url: string;
  requests: StandInRequest[];
  known: Map<string, KnownFile>;
  /** The next `count` requests with the right key answer 429. */
  answerTooMany(count: number): void;
  close(): Promise<void>;
}

export async function startVirusTotalStandIn(acceptedKey: string): Promise<VirusTotalStandIn> {
  const requests: StandInRequest[] = [];
  const known = new Map<string, KnownFile>();
  let tooMany = 0;
  const answer = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    let bodyBytes = 0;
    for await (const chunk of request) bodyBytes += (chunk as Buffer).length;
    const path = new URL(request.url ?? '/', 'http://stand-in').pathname;
    const keyAccepted = request.headers['x-apikey'] === acceptedKey;
    requests.push({ method: request.method ?? '', path, keyAccepted, bodyBytes });
    const match = /^\/api\/v3\/files\/([0-9a-f]{64})$/.exec(path);
    if (request.method !== 'GET' || !match) return answer(response, 400, { error: { code: 'BadRequestError', message: 'not in the stand-in' } });
    if (!keyAccepted) return answer(response, 401, { error: { code: 'WrongCredentialsError', message: 'Wrong API key' } });
    if (tooMany > 0) {
      tooMany--;
      return answer(response, 429, { error: { code: 'QuotaExceededError', message: 'Quota exceeded' } });
    }
    const file = known.get(match[1] as string);
    if (!file) return answer(response, 404, { error: { code: 'NotFoundError', message: `File "${match[1]}" not found` } });
    const stats = { malicious: file.malicious, suspicious: file.suspicious, undetected: file.undetected, harmless: file.harmless, timeout: 0, 'confirmed-timeout': 0, failure: 1, 'type-unsupported': 4 };
    answer(response, 200, { data: { id: match[1], type: 'file', links: { self: '' }, attributes: { last_analysis_stats: stats, last_analysis_date: file.analysedAt, meaningful_name: 'x', reputation: 0 } } });
  };
  const server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    known,
    answerTooMany: (count) => void (tooMany = count),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
