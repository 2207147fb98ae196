// A test node in a process of its own, so a test can freeze it (SIGSTOP) the way an overloaded
// or stuck peer freezes: its sockets stay open and nothing is answered. Prints its P2P port.
// Usage: node --import tsx test-node-process.ts <height>
import { MemoryChain } from '../memory-chain.js';
import { startTestNode } from '../test-node.js';

const node = await startTestNode({ chain: new MemoryChain({ height: Number(process.argv[2]) }) });
process.stdout.write(`${node.port}\n`);
process.on('SIGTERM', () => void node.stop().then(() => process.exit(0)));
