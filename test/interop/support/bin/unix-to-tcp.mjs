// Runs inside a node's namespace: accepts connections on a Unix socket (the filesystem is shared
// with the host) and relays each to a TCP port of the namespace's loopback. Prints "listening"
// once ready. Usage: node unix-to-tcp.mjs <socket path> <port>
import { connect, createServer } from 'node:net';

const [socketPath, port] = process.argv.slice(2);

const server = createServer((client) => {
  const upstream = connect(Number(port), '127.0.0.1');
  client.pipe(upstream).pipe(client);
  const close = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', close).on('close', close);
  upstream.on('error', close).on('close', close);
});
server.listen(socketPath, () => process.stdout.write('listening\n'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
