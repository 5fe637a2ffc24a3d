// One clamd IDSESSION with several commands in flight, as clamdscan drives it: each
// command takes the next request number, clamd answers `<id>: …` as each scan ends (in
// any order), and the answer goes to the command with that number. While scans are in
// flight the session is pinged before clamd's ReadTimeout would end it (clamd also ends
// the scans then); once idle it ends itself. A session that ends says why, and hands its
// unanswered commands back to its owner.
// A session is used once clamd has answered its first PING: a connection a stopping clamd
// accepted and then dropped takes no file with it. A FILDES session then passes its probe.
// A FILDES never follows an unanswered INSTREAM on the wire: clamd takes a received
// descriptor for the first command in what it read, and an INSTREAM read together with the
// next FILDES replaces it with its own temporary file (clamd/server-th.c): that FILDES then
// gets "No file descriptor received". Until the streams are answered, later commands wait.
import type { ClamdAddress } from '../../../shared/engine/clamd-address.ts';
import { ClamdWire } from './clamd-wire.ts';
import type { FdPassing } from './fd-passing.ts';
import type { ScanCommand } from './scan-command.ts';
import { errorVerdict, isNoDescriptorReply, isReadTimeoutNotice, numberedReply, scanReplyOutcome, type ClamdTransport, type ClamdVerdict } from './session-reply.ts';
import { chunksOf } from './stream-sources.ts';

/** Why a session ended. The explained ones are clamd's own words (or an idle end): no scan happened. */
export type SessionEnd = 'ended' | 'closed' | 'fildes-refused' | 'probe-lost' | 'read-timeout' | 'size-limit' | 'protocol';
export const EXPLAINED_ENDS: ReadonlySet<SessionEnd> = new Set(['ended', 'fildes-refused', 'probe-lost', 'read-timeout', 'size-limit']);

export interface SessionOwner {
  answered(command: ScanCommand, verdict: ClamdVerdict): void;
  /** The probe came back clean: clamd receives the descriptors this session passes. */
  fildesConfirmed(): void;
  /** `unsent`: commands that waited in the session and never went out. */
  ended(session: ClamdSession, unanswered: ScanCommand[], why: SessionEnd, detail: string, unsent: ScanCommand[]): void;
}

export interface SessionTimings {
  /** Ping a session with scans in flight after this long without a command. */
  keepAliveMs: number;
  /** End a session that has had nothing in flight for this long. */
  idleEndMs: number;
  /** A scan unanswered for this long fails with engine_timeout. */
  replyTimeoutMs: number;
  chunkSize: number;
}

type Entry = { kind: 'scan'; command: ScanCommand; via: ClamdTransport; sentAt: number } | { kind: 'given-up'; stream: boolean } | { kind: 'probe' } | { kind: 'ping'; first: boolean };

const COMMANDS = {
  idsession: Buffer.from('zIDSESSION\0'),
  // The byte after the command is the one the descriptor travels with; clamd eats it.
  fildes: Buffer.from('zFILDES\0\0'),
  instream: Buffer.from('zINSTREAM\0'),
  ping: Buffer.from('zPING\0'),
  end: Buffer.from('zEND\0'),
} as const;
// clamd's replies are one short line each; anything longer is not clamd.
const MAX_BUFFERED = 64 * 1024;

export class ClamdSession {
  readonly #owner: SessionOwner;
  readonly #timings: SessionTimings;
  readonly #pending = new Map<number, Entry>();
  /** Passed (as a FILDES) once clamd has answered the first PING. */
  readonly #probeFd: number | null;
  #wire: ClamdWire | null = null;
  /** clamd answered the first PING: commands may go. */
  #ready = false;
  #nextId = 1;
  /** Scans clamd is working on (given-up ones too: they still take a clamd thread), and those waiting here. */
  #scans = 0;
  /** INSTREAM commands sent and not yet answered. */
  #streamsOpen = 0;
  /** Commands waiting for the open streams to be answered, in order. */
  readonly #waiting: Array<{ command: ScanCommand; via: ClamdTransport }> = [];
  #received = '';
  #lastWriteAt = Date.now();
  #lastActivityAt = Date.now();
  #timer: NodeJS.Timeout | null = null;
  #over = false;
  /** end() or a failure was asked for: nothing more is sent, the close follows. */
  #ending = false;
  #why: { end: SessionEnd; detail: string } | null = null;
  /** Scans clamd answered with a word about the session, not the file: handed back with the unanswered. */
  readonly #returned: ScanCommand[] = [];

  private constructor(owner: SessionOwner, timings: SessionTimings, probeFd: number | null) {
    this.#owner = owner;
    this.#timings = timings;
    this.#probeFd = probeFd;
  }

  /** Connects and starts the session; with `probeFd`, checks that passed descriptors arrive. */
  static async open(address: ClamdAddress, addon: FdPassing | null, connectTimeoutMs: number, owner: SessionOwner, timings: SessionTimings, probeFd: number | null): Promise<ClamdSession> {
    const session = new ClamdSession(owner, timings, probeFd);
    session.#wire = await ClamdWire.connect(address, addon, connectTimeoutMs, {
      data: (chunk) => session.#data(chunk),
      closed: (error) => session.#closed(error),
    });
    session.#wire.write(COMMANDS.idsession);
    session.#pending.set(session.#nextId++, { kind: 'ping', first: true });
    session.#wire.write(COMMANDS.ping);
    const tick = Math.max(50, Math.min(1_000, Math.floor(timings.keepAliveMs / 2)));
    session.#timer = setInterval(() => session.#tick(), tick).unref();
    return session;
  }

  get usable(): boolean {
    return !this.#over && !this.#ending && this.#wire !== null && !this.#wire.closed;
  }

  get passesFds(): boolean {
    return this.#wire?.passesFds ?? false;
  }

  get inFlight(): number {
    return this.#scans;
  }

  send(command: ScanCommand, via: ClamdTransport): void {
    const wire = this.#wire;
    if (wire === null || !this.usable) throw new Error('send on a session that is over');
    if (this.#scans === 0) wire.holdProcess(true);
    this.#scans += 1;
    if (!this.#ready || this.#waiting.length > 0 || (via === 'fildes' && this.#streamsOpen > 0)) this.#waiting.push({ command, via });
    else this.#write(wire, command, via);
  }

  #write(wire: ClamdWire, command: ScanCommand, via: ClamdTransport): void {
    const id = this.#nextId++;
    const entry: Entry = { kind: 'scan', command, via, sentAt: Date.now() };
    this.#pending.set(id, entry);
    command.sends += 1;
    this.#lastWriteAt = entry.sentAt;
    const source = command.source;
    if (via === 'fildes' && source.kind === 'fd') {
      wire.passFd(source.fd, COMMANDS.fildes);
      return;
    }
    this.#streamsOpen += 1;
    wire.stream(COMMANDS.instream, chunksOf(source, this.#timings.chunkSize), (error) => {
      if (error === null || command.settled) return;
      // The stream was cut short: clamd answers for part of a file, which counts for nothing.
      if (this.#pending.get(id) === entry) this.#pending.set(id, { kind: 'given-up', stream: true });
      const code = (error as { code?: unknown }).code === 'file_unreadable' ? 'file_unreadable' : 'engine_error';
      command.finish(errorVerdict(code, (error as Error).message ?? String(error)));
    });
  }

  /** clamd answered: the probe goes first (clamd cuts the connection at a descriptor it cannot take), then what waited. */
  #start(): void {
    this.#ready = true;
    if (this.#probeFd !== null && this.#wire?.passesFds) {
      this.#pending.set(this.#nextId++, { kind: 'probe' });
      this.#wire.passFd(this.#probeFd, COMMANDS.fildes);
    }
    this.#release();
  }

  /** Sends what waited (for clamd's first answer, or for the open streams), up to a FILDES that must wait again. */
  #release(): void {
    const wire = this.#wire;
    while (wire !== null && this.usable && this.#ready && this.#waiting.length > 0 && !(this.#waiting[0]!.via === 'fildes' && this.#streamsOpen > 0)) {
      const { command, via } = this.#waiting.shift()!;
      if (!command.settled) this.#write(wire, command, via);
      else if (--this.#scans === 0) wire.holdProcess(false);
    }
  }

  /** Ends the session (zEND): for an idle session, or when the client closes. */
  end(): void {
    if (this.#over || this.#wire === null) return;
    this.#why ??= { end: 'ended', detail: 'ended by Verdict' };
    this.#ending = true;
    this.#wire.write(COMMANDS.end);
    this.#wire.close();
  }

  #data(chunk: Buffer): void {
    this.#lastActivityAt = Date.now();
    this.#received += chunk.toString('latin1');
    for (let end = this.#received.indexOf('\0'); end >= 0 && !this.#over; end = this.#received.indexOf('\0')) {
      const raw = this.#received.slice(0, end);
      this.#received = this.#received.slice(end + 1);
      this.#message(Buffer.from(raw, 'latin1').toString('utf8'));
    }
    if (isReadTimeoutNotice(this.#received)) this.#fail('read-timeout', 'clamd ended the session (COMMAND READ TIMED OUT)');
    else if (this.#received.length > MAX_BUFFERED) this.#fail('protocol', 'a reply too long to be clamd\'s');
  }

  #message(raw: string): void {
    const numbered = numberedReply(raw);
    if (numbered === null) {
      this.#fail(isReadTimeoutNotice(raw) ? 'read-timeout' : 'protocol', `an unnumbered reply: ${JSON.stringify(raw.slice(0, 120))}`);
      return;
    }
    const { id, reply } = numbered;
    const entry = this.#pending.get(id);
    if (entry === undefined) {
      // A second message for an answered request (clamd sends one per scan) is ignored; a number never sent is not clamd.
      if (id < 1 || id >= this.#nextId) this.#fail('protocol', `a reply to request ${id}, which was never sent`);
      return;
    }
    this.#pending.delete(id);
    if (entry.kind === 'ping') {
      if (entry.first) this.#start();
      return;
    }
    if (entry.kind === 'probe') {
      if (isNoDescriptorReply(reply)) this.#fail('fildes-refused', reply);
      else if (/^fd\[\d+\]: OK$/.test(reply)) this.#owner.fildesConfirmed();
      return;
    }
    this.#scans -= 1;
    if (this.#scans === 0) this.#wire?.holdProcess(false);
    if (entry.kind === 'given-up' ? entry.stream : entry.via === 'instream') {
      this.#streamsOpen -= 1;
      if (this.#streamsOpen === 0) this.#release();
    }
    if (entry.kind === 'given-up') return;
    const outcome = scanReplyOutcome(reply, entry.via);
    if (outcome.kind !== 'verdict') {
      // Not about the file: it goes back to the owner with the session's unanswered scans.
      this.#returned.push(entry.command);
      this.#fail(outcome.kind === 'fildes-refused' ? 'fildes-refused' : 'closed', outcome.kind === 'fildes-refused' ? reply : `clamd ended the session: ${reply}`);
      return;
    }
    this.#owner.answered(entry.command, outcome.verdict);
    if (outcome.sessionEnds) this.#fail('size-limit', reply);
  }

  #tick(): void {
    const now = Date.now();
    if (this.#scans === 0) {
      if (now - Math.max(this.#lastActivityAt, this.#lastWriteAt) >= this.#timings.idleEndMs) this.end();
      return;
    }
    for (const [id, entry] of this.#pending) {
      if (entry.kind !== 'scan' || now - entry.sentAt < this.#timings.replyTimeoutMs) continue;
      this.#pending.set(id, { kind: 'given-up', stream: entry.via === 'instream' });
      entry.command.finish(errorVerdict('engine_timeout', `clamd did not answer within ${Math.round(this.#timings.replyTimeoutMs / 1000)} s`));
    }
    if (now - this.#lastWriteAt >= this.#timings.keepAliveMs && this.usable) {
      this.#pending.set(this.#nextId++, { kind: 'ping', first: false });
      this.#lastWriteAt = now;
      this.#wire?.write(COMMANDS.ping);
    }
  }

  #fail(end: SessionEnd, detail: string): void {
    this.#why ??= { end, detail };
    this.#ending = true;
    this.#wire?.close();
  }

  #closed(error: NodeJS.ErrnoException | null): void {
    if (this.#over) return;
    this.#over = true;
    if (this.#timer !== null) clearInterval(this.#timer);
    const unanswered = this.#returned.filter((command) => !command.settled);
    let probePending = false;
    for (const entry of this.#pending.values()) {
      if (entry.kind === 'scan' && !entry.command.settled) unanswered.push(entry.command);
      if (entry.kind === 'probe') probePending = true;
    }
    this.#pending.clear();
    const unsent = this.#waiting.splice(0).map((waiting) => waiting.command).filter((command) => !command.settled);
    this.#scans = 0;
    this.#streamsOpen = 0;
    const why = this.#why ?? (probePending
      ? { end: 'probe-lost' as const, detail: 'clamd closed the connection when it was passed a file descriptor' }
      : { end: 'closed' as const, detail: error ? `the connection failed (${error.code ?? error.message})` : 'clamd closed the connection' });
    this.#owner.ended(this, unanswered, why.end, why.detail, unsent);
  }
}
