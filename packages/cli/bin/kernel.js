#!/usr/bin/env node
import { main } from '../dist/main.js';

// Exit explicitly: a plugin's forgotten handle must not keep a stopped node alive.
process.exit(await main(process.argv));
