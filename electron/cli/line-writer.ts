// The CLI's lines, written a turn of the event loop at a time: a 20,000-file scan prints 40,000
// lines, and one write per line cost its thread more than printing them (stdout and stderr are
// synchronous writes to a file or a pipe). Lines keep their order on each stream; whatever is
// still held when the process exits (process.exit included) is written then. A terminal gets each
// line at once: there stdout's and stderr's lines interleave as they always did.

export interface LineWriter {
  line(text: string): void;
  flush(): void;
}

export function createLineWriter(write: (text: string) => void, onExit: (flush: () => void) => void, terminal = false): LineWriter {
  if (terminal) return { line: (text) => write(`${text}\n`), flush() {} };
  let held: string[] = [];
  let scheduled: NodeJS.Immediate | null = null;
  const flush = () => {
    if (scheduled) clearImmediate(scheduled);
    scheduled = null;
    if (held.length === 0) return;
    const text = `${held.join('\n')}\n`;
    held = [];
    write(text);
  };
  onExit(flush);
  return {
    line(text) {
      held.push(text);
      scheduled ??= setImmediate(flush);
    },
    flush,
  };
}
