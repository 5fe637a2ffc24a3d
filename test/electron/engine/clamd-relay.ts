// A Unix-socket relay in front of a real clamd, for what clamd's surroundings can do to
// passed descriptors. Node reads with read(), so a descriptor passed to the relay is
// dropped on the way and clamd answers "No file descriptor received" ('forward'). With
// 'close-on-fildes' a connection is cut when a FILDES arrives, as clamd cuts it when
// AppArmor or SELinux strips the descriptor (its recvmsg sees MSG_CTRUNC: clamd/clamd_others.c).
import { createConnection, createServer, type Socket } from 'node:net';
import { join } from 'node:path';

export interface ClamdRelay {
  path: string;
  connections(): number;
  close(): Promise<void>;
}

export async function startClamdRelay(target: string, dir: string, mode: 'forward' | 'close-on-fildes'): Promise<ClamdRelay> {
  const path = join(dir, `relay-${mode}.sock`);
  const open = new Set<Socket>();
  let connections = 0;
  const server = createServer((client) => {
    connections += 1;
    const clamd = createConnection({ path: target });
    open.add(client).add(clamd);
    const cut = () => {
      client.destroy();
      clamd.destroy();
    };
    // In 'forward', what follows a FILDES waits for clamd's next reply: clamd ends the session
    // after "No file descriptor received", and a write to it then would fail (EPIPE) and cost the reply.
    let waiting: Buffer[] | null = null;
    const toClamd = (data: Buffer) => {
      if (waiting !== null) return void waiting.push(data);
      clamd.write(data);
      if (mode === 'forward' && data.includes('zFILDES')) waiting = [];
    };
    client.on('data', (data: Buffer) => {
      if (mode === 'close-on-fildes' && data.includes('zFILDES')) cut();
      else toClamd(data);
    });
    clamd.on('data', (data: Buffer) => {
      client.write(data);
      const held = waiting ?? [];
      waiting = null;
      for (const chunk of held) toClamd(chunk);
    });
    for (const socket of [client, clamd]) {
      socket.on('error', cut);
      socket.on('close', () => open.delete(socket));
    }
    client.on('close', cut);
    // clamd's last reply still reaches the client, then the close does.
    clamd.on('close', () => client.end());
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return {
    path,
    connections: () => connections,
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
