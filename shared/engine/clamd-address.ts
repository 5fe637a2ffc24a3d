// Which clamd to use, as the user writes it (`--clamd unix:PATH|tcp:HOST:PORT`, the
// Settings field): parsed once here, with an error that says how to write it right.
import { err, ok, type Result } from '../result.ts';

export type ClamdAddress = { kind: 'unix'; path: string } | { kind: 'tcp'; host: string; port: number };

/** clamd's default TCPSocket, used when `tcp:HOST` names no port. */
export const CLAMD_TCP_DEFAULT_PORT = 3310;

export const CLAMD_ADDRESS_INVALID = 'clamd_address_invalid';

const FORMS = 'unix:/path/to/clamd.sock or tcp:HOST:PORT';
const IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
// The shapes of an IPv6 literal (hex groups, `::`, an IPv4 tail); its exact validity is the resolver's.
const IPV6 = /^(?=.*:)[0-9A-Fa-f:.]{2,45}$/;

function invalid(text: string, reason: string): Result<never> {
  return err(CLAMD_ADDRESS_INVALID, `Not a clamd address: ${JSON.stringify(text)}: ${reason}`, { address: text });
}

/** `unix:/run/clamav/clamd.ctl`, `tcp:127.0.0.1:3310`, `tcp:[::1]:3310`, `tcp:clamav` (port 3310). */
export function parseClamdAddress(text: string): Result<ClamdAddress> {
  const trimmed = text.trim();
  if (trimmed === '') return invalid(text, `write ${FORMS}`);
  const colon = trimmed.indexOf(':');
  if (colon < 0) {
    return trimmed.startsWith('/') ? invalid(text, `say what it is: unix:${trimmed}`) : invalid(text, `write ${FORMS}`);
  }
  const kind = trimmed.slice(0, colon).toLowerCase();
  const rest = trimmed.slice(colon + 1);
  if (kind === 'unix') return parseUnix(text, rest);
  if (kind === 'tcp') return parseTcp(text, rest);
  return invalid(text, `"${kind}" is not a kind of address: write ${FORMS}`);
}

function parseUnix(text: string, path: string): Result<ClamdAddress> {
  if (path === '') return invalid(text, 'the socket path is missing (unix:/run/clamav/clamd.ctl)');
  if (path.includes('\0')) return invalid(text, 'the socket path holds a NUL character');
  if (!path.startsWith('/')) return invalid(text, 'the socket path must be absolute, starting with /');
  return ok({ kind: 'unix', path });
}

function parseTcp(text: string, rest: string): Result<ClamdAddress> {
  let host: string;
  let portText: string | undefined;
  if (rest.startsWith('[')) {
    const close = rest.indexOf(']');
    if (close < 0) return invalid(text, 'an IPv6 address needs its closing ] (tcp:[::1]:3310)');
    host = rest.slice(1, close);
    const after = rest.slice(close + 1);
    if (after !== '' && !after.startsWith(':')) return invalid(text, 'write the port after the ] as :PORT');
    portText = after === '' ? undefined : after.slice(1);
    if (!IPV6.test(host)) return invalid(text, `"${host}" is not an IPv6 address`);
  } else {
    const parts = rest.split(':');
    if (parts.length > 2) return invalid(text, 'an IPv6 address goes in brackets: tcp:[::1]:3310');
    host = parts[0] ?? '';
    portText = parts[1];
    if (host === '') return invalid(text, 'the host is missing (tcp:127.0.0.1:3310)');
    if (!IPV4.test(host) && !HOST_NAME.test(host)) return invalid(text, `"${host}" is not a host name or an IP address`);
  }
  if (portText === undefined) return ok({ kind: 'tcp', host, port: CLAMD_TCP_DEFAULT_PORT });
  const port = /^\d{1,5}$/.test(portText) ? Number(portText) : NaN;
  if (!(port >= 1 && port <= 65535)) return invalid(text, `the port must be a number from 1 to 65535, not "${portText}"`);
  return ok({ kind: 'tcp', host, port });
}

/** The address as the user would write it; parseClamdAddress reads it back unchanged. */
export function formatClamdAddress(address: ClamdAddress): string {
  if (address.kind === 'unix') return `unix:${address.path}`;
  return address.host.includes(':') ? `tcp:[${address.host}]:${address.port}` : `tcp:${address.host}:${address.port}`;
}
