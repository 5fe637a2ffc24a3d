// CONNECT asks for a tunnel: Node hands the socket to the server's 'connect'
// listener and, without one, closes it without a word. The service tunnels
// nothing, so a CONNECT goes through the same pipeline as any request (rate
// limit, authentication, route: 405 on a known path, else 404) and the
// connection closes after the answer.
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
/** Node's own field: the answer being written on the socket (pipelined ones wait behind it). */
type HttpSocket = Socket & { _httpMessage?: ServerResponse | null };

export function answerConnect(handler: Handler): (req: IncomingMessage, socket: Duplex) => void {
  return (req, duplex) => {
    // An HTTP server's connections are net.Sockets (the event's type is the wider Duplex).
    const socket = duplex as HttpSocket;
    // Node took its own listeners off the socket: without this, a reset would be an uncaught 'error'.
    socket.on('error', () => socket.destroy());
    // This runs inside Node's parser: a throw here would end the process, so it ends the connection instead.
    const orDrop = (step: () => void) => () => {
      try {
        step();
      } catch {
        socket.destroy();
      }
    };
    whenFree(socket, orDrop(() => answerOn(socket, req, handler)));
  };
}

/** Answers of requests pipelined before the CONNECT go first: a socket carries one answer at a time. */
function whenFree(socket: HttpSocket, then: () => void): void {
  const inFlight = socket._httpMessage;
  if (socket.destroyed) return;
  if (!inFlight) return then();
  // 'close' follows 'finish', by which time Node has detached it (and may have assigned the next one).
  inFlight.once('close', () => whenFree(socket, then));
}

function answerOn(socket: HttpSocket, req: IncomingMessage, handler: Handler): void {
  const res = new ServerResponse(req);
  res.shouldKeepAlive = false;
  res.assignSocket(socket);
  res.once('finish', () => {
    res.detachSocket(socket);
    socket.end();
  });
  handler(req, res);
}
