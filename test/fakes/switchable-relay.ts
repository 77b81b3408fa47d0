import { createConnection, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

// A loopback TCP relay in front of another server (the fake model server): while down it drops every connection
// at once, as a stopped server's port does; once up it passes bytes both ways. For "the server comes up later".

export interface SwitchableRelay {
  /** http://127.0.0.1:<port>: the relay's own address. */
  origin: string;
  /** Connections dropped while down so far. */
  dropped: number;
  /** Resolves once `count` connections were dropped while down. */
  whenDropped(count: number): Promise<void>;
  up(): void;
  close(): Promise<void>;
}

export async function startSwitchableRelay(target: { host: string; port: number }): Promise<SwitchableRelay> {
  let isUp = false;
  const sockets = new Set<Socket>();
  const waiters: { count: number; resolve: () => void }[] = [];
  const relay: SwitchableRelay = {
    origin: '',
    dropped: 0,
    whenDropped: (count) => new Promise<void>((resolve) => (relay.dropped >= count ? resolve() : waiters.push({ count, resolve }))),
    up: () => void (isUp = true),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    if (!isUp) {
      // A reset, as a port with nothing behind it answers (a plain close leaves the first request hanging).
      client.resetAndDestroy();
      relay.dropped += 1;
      for (const waiter of waiters.filter((candidate) => relay.dropped >= candidate.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      return;
    }
    const upstream = createConnection(target);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  relay.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return relay;
}
