// Run in a child process with LNI_CRYPTO_BACKEND=js, since the backend is chosen at load time.
import { benchSignatures } from './signatures.js';

process.stdout.write(JSON.stringify(benchSignatures(1000)));
