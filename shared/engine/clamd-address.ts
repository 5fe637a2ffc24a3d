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

/** What is wrong, as a code the UI and the CLIs word in their language (`params.problem`, with `host`, `port`, `kind`, `path`). */
export const CLAMD_ADDRESS_PROBLEMS = [
  'empty', 'kind_missing', 'path_without_kind', 'unknown_kind', 'socket_missing', 'socket_nul', 'socket_relative',
  'ipv6_unclosed', 'port_after_bracket', 'not_ipv6', 'host_missing', 'bad_host', 'ipv6_brackets', 'bad_port',
] as const;
export type ClamdAddressProblem = (typeof CLAMD_ADDRESS_PROBLEMS)[number];

function invalid(text: string, problem: ClamdAddressProblem, reason: string, params: Record<string, string> = {}): Result<never> {
  return err(CLAMD_ADDRESS_INVALID, `Not a clamd address: ${JSON.stringify(text)}: ${reason}`, { address: text, problem, ...params });
}

/** `unix:/run/clamav/clamd.ctl`, `tcp:127.0.0.1:3310`, `tcp:[::1]:3310`, `tcp:clamav` (port 3310). */
export function parseClamdAddress(text: string): Result<ClamdAddress> {
  const trimmed = text.trim();
  if (trimmed === '') return invalid(text, 'empty', `write ${FORMS}`);
  const colon = trimmed.indexOf(':');
  if (colon < 0) {
    return trimmed.startsWith('/') ? invalid(text, 'path_without_kind', `say what it is: unix:${trimmed}`, { path: trimmed }) : invalid(text, 'kind_missing', `write ${FORMS}`);
  }
  const kind = trimmed.slice(0, colon).toLowerCase();
  const rest = trimmed.slice(colon + 1);
  if (kind === 'unix') return parseUnix(text, rest);
  if (kind === 'tcp') return parseTcp(text, rest);
  return invalid(text, 'unknown_kind', `"${kind}" is not a kind of address: write ${FORMS}`, { kind });
}

function parseUnix(text: string, path: string): Result<ClamdAddress> {
  if (path === '') return invalid(text, 'socket_missing', 'the socket path is missing (unix:/run/clamav/clamd.ctl)');
  if (path.includes('\0')) return invalid(text, 'socket_nul', 'the socket path holds a NUL character');
  if (!path.startsWith('/')) return invalid(text, 'socket_relative', 'the socket path must be absolute, starting with /');
  return ok({ kind: 'unix', path });
}

function parseTcp(text: string, rest: string): Result<ClamdAddress> {
  let host: string;
  let portText: string | undefined;
  if (rest.startsWith('[')) {
    const close = rest.indexOf(']');
    if (close < 0) return invalid(text, 'ipv6_unclosed', 'an IPv6 address needs its closing ] (tcp:[::1]:3310)');
    host = rest.slice(1, close);
    const after = rest.slice(close + 1);
    if (after !== '' && !after.startsWith(':')) return invalid(text, 'port_after_bracket', 'write the port after the ] as :PORT');
    portText = after === '' ? undefined : after.slice(1);
    if (!IPV6.test(host)) return invalid(text, 'not_ipv6', `"${host}" is not an IPv6 address`, { host });
  } else {
    const parts = rest.split(':');
    if (parts.length > 2) return invalid(text, 'ipv6_brackets', 'an IPv6 address goes in brackets: tcp:[::1]:3310');
    host = parts[0] ?? '';
    portText = parts[1];
    if (host === '') return invalid(text, 'host_missing', 'the host is missing (tcp:127.0.0.1:3310)');
    if (!IPV4.test(host) && !HOST_NAME.test(host)) return invalid(text, 'bad_host', `"${host}" is not a host name or an IP address`, { host });
  }
  if (portText === undefined) return ok({ kind: 'tcp', host, port: CLAMD_TCP_DEFAULT_PORT });
  const port = /^\d{1,5}$/.test(portText) ? Number(portText) : NaN;
  if (!(port >= 1 && port <= 65535)) return invalid(text, 'bad_port', `the port must be a number from 1 to 65535, not "${portText}"`, { port: portText });
  return ok({ kind: 'tcp', host, port });
}

/** The address as the user would write it; parseClamdAddress reads it back unchanged. */
export function formatClamdAddress(address: ClamdAddress): string {
  if (address.kind === 'unix') return `unix:${address.path}`;
  return address.host.includes(':') ? `tcp:[${address.host}]:${address.port}` : `tcp:${address.host}:${address.port}`;
}
