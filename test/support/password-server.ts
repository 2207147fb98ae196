import { createServer, type Server } from 'node:net';

/**
 * A stand-in for a PostgreSQL server with password authentication, for the one answer the local
 * server cannot give: it trusts 127.0.0.1, so no password is ever wrong there. It asks for the
 * password as PostgreSQL does (AuthenticationCleartextPassword) and refuses any with
 * PostgreSQL's own error (SQLSTATE 28P01), as a server configured for passwords would.
 */
export async function startPasswordRefusingServer(): Promise<{
  port: number;
  close(): Promise<void>;
}> {
  const server: Server = createServer((socket) => {
    let user: string | undefined;
    socket.on('data', (chunk: Buffer) => {
      if (user === undefined) {
        user = /user\0([^\0]*)\0/.exec(chunk.toString('latin1'))?.[1] ?? '';
        socket.write(message('R', int32(3)));
        return;
      }
      if (chunk[0] === 'p'.charCodeAt(0)) {
        const fields = [
          ['S', 'FATAL'],
          ['V', 'FATAL'],
          ['C', '28P01'],
          ['M', `password authentication failed for user "${user}"`],
        ];
        const body = Buffer.concat([
          ...fields.map(([code, text]) => Buffer.from(`${code}${text}\0`, 'utf8')),
          Buffer.from([0]),
        ]);
        socket.end(message('E', body));
      }
    });
    // A client giving up mid-handshake is not this stand-in's concern.
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function int32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeInt32BE(value);
  return buffer;
}

/** A backend message: type byte, length (itself included), body. */
function message(type: string, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(type, 'ascii'), int32(body.length + 4), body]);
}
