// P2P's services as other plugins use them, types only: importing this entry declares the
// names in the kernel's Cradle and EventMap without loading the p2p plugin.
export type * from './peers.js';
import './events.js';
import './services.js';
