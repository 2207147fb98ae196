// Opens `count` TCP connections to host:port one after another and keeps those that connect
// open until all were tried, so the far side sees them as simultaneous. Prints one JSON array:
// "connected" per accepted connection, else the error code (ECONNREFUSED: a TCP reset).
// Usage: node connect-probe.mjs HOST PORT COUNT
import net from 'node:net';

const [host, port, count] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const TIMEOUT_MS = 3_000;
const open = [];

const connect = () =>
  new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(TIMEOUT_MS, () => {
      socket.destroy();
      resolve('ETIMEDOUT');
    });
    socket.once('connect', () => {
      socket.setTimeout(0);
      // The node may close a connection it does not want; that is not what is measured.
      socket.on('error', () => {});
      open.push(socket);
      resolve('connected');
    });
    socket.once('error', (error) => resolve(error.code ?? error.message));
  });

const results = [];
for (let i = 0; i < count; i += 1) results.push(await connect());
for (const socket of open) socket.destroy();
console.log(JSON.stringify(results));
