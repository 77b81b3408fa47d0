import { createServer, type Socket } from 'node:net';

// A TCP server on 127.0.0.1 that accepts connections, reads what the client sends and never answers: a model
// server that hangs (a stuck process, a port forwarded to nowhere). It records each HTTP request line it reads.

export interface SilentServer {
  /** Origin + '/v1': what MODEL_BASE_URL would be. */
  url: string;
  /** "POST /v1/chat/completions", one per request received. */
  requests: string[];
  close(): Promise<void>;
}

const requestLine = /^(GET|POST|PUT|DELETE|HEAD|OPTIONS|PATCH) (\S{1,2048}) HTTP\/1\.[01]$/;

export async function startSilentServer(): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  const requests: string[] = [];
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.setEncoding('latin1');
    socket.on('data', (data: string) => {
      for (const line of data.split('\r\n')) {
        const match = requestLine.exec(line.slice(0, 2100));
        if (match) requests.push(`${match[1]} ${match[2]?.split('?')[0]}`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('silent server: no port');
  return {
    url: `http://127.0.0.1:${address.port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
