import { describe, expect, it } from 'vitest';
import { PublicServices } from './public-services.js';

describe('PublicServices, what the node announces to peers', () => {
  it('announces each added service with the port it listens on now', () => {
    const services = new PublicServices();
    let apiPort = 0;
    services.add({ name: '@arkecosystem/core-api', port: () => apiPort });
    services.add({ name: 'acme-explorer', port: () => 8080 });
    // Not listening yet (port 0): not announced.
    expect(services.announced()).toEqual({ 'acme-explorer': { port: 8080, enabled: true } });
    apiPort = 4003;
    expect(services.announced()).toEqual({
      '@arkecosystem/core-api': { port: 4003, enabled: true },
      'acme-explorer': { port: 8080, enabled: true },
    });
  });

  it('refuses a second service under a name already added', () => {
    const services = new PublicServices();
    services.add({ name: 'acme-explorer', port: () => 8080 });
    expect(() => services.add({ name: 'acme-explorer', port: () => 9090 })).toThrow(
      "a public service named 'acme-explorer' is already added",
    );
  });
});
