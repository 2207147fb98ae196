'use strict';
/* global module */

// ARK's CLI loads every command at start, relay:share included, so the module must resolve;
// the interop tests never share a relay through a tunnel.
module.exports = {
  connect() {
    throw new Error('ngrok is stubbed out in the LNI interop install');
  },
};
