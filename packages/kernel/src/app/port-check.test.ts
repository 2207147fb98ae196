import Joi from 'joi';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.js';
import type { Plugin } from '../plugin.js';
import { planFromPlugins } from './plan.js';
import { checkListeningPorts } from './port-check.js';

type PortOptions = { host: string; port: number };
const listening = (name: string, variable: string): Plugin<PortOptions> => ({
  name,
  configSchema: Joi.object<PortOptions>({ host: Joi.string(), port: Joi.number() }),
  environment: { [variable]: 'port' },
  listensOn: ({ host, port }) => [{ option: 'port', host, port }],
  register: () => undefined,
});
const api = listening('api', 'CORE_API_PORT') as Plugin<object>;
const p2p = listening('p2p', 'CORE_P2P_PORT') as Plugin<object>;
const planned = (apiPort: number, p2pPort: number) =>
  planFromPlugins(
    [
      { plugin: p2p, options: { host: '0.0.0.0', port: p2pPort } },
      { plugin: api, options: { host: '127.0.0.1', port: apiPort } },
    ],
    'relay',
    {},
  );

let held: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (held ? held.close(resolve) : resolve(undefined)));
  held = undefined;
});
async function holdPort(): Promise<number> {
  held = createServer();
  await new Promise<void>((resolve) => held?.listen(0, '127.0.0.1', resolve));
  return (held.address() as { port: number }).port;
}

describe('checkListeningPorts', () => {
  it('passes free ports, and port 0 (any free port) even twice', async () => {
    await expect(checkListeningPorts(planned(0, 0), { mode: 'relay', env: {} })).resolves.toBe(
      undefined,
    );
  });

  it('names the app.json option, and the variable that could set it, of a port in use', async () => {
    const port = await holdPort();
    const check = checkListeningPorts(planned(port, 0), { mode: 'relay', env: {} });
    await expect(check).rejects.toBeInstanceOf(ConfigError);
    await expect(check).rejects.toThrow(
      `mode 'relay', plugin 'api', option 'port' of app.json (or CORE_API_PORT): port ${port} on 127.0.0.1 is already in use; free it or choose another port`,
    );
  });

  it('names the variable that set a port in use', async () => {
    const port = await holdPort();
    const env = { CORE_API_PORT: String(port) };
    await expect(checkListeningPorts(planned(port, 0), { mode: 'relay', env })).rejects.toThrow(
      "plugin 'api', option 'port' (set by CORE_API_PORT): port",
    );
  });

  it('refuses two plugins on one port, a wildcard host overlapping any other', async () => {
    const check = checkListeningPorts(planned(4111, 4111), { mode: 'relay', env: {} });
    await expect(check).rejects.toThrow(
      new ConfigError(
        "mode 'relay': plugin 'p2p', option 'port' of app.json (or CORE_P2P_PORT) and plugin 'api', option 'port' of app.json (or CORE_API_PORT) are both port 4111: give each its own port",
      ),
    );
  });

  it("checks the node's own ports with its plugins': the admin over HTTP on a plugin's port", async () => {
    const port = await holdPort();
    const own = [{ host: '127.0.0.1', port, setBy: 'the admin over HTTP (CORE_ADMIN_HTTP_PORT)' }];
    await expect(
      checkListeningPorts(planned(0, 0), { mode: 'relay', env: {} }, own),
    ).rejects.toThrow(
      `mode 'relay', the admin over HTTP (CORE_ADMIN_HTTP_PORT): port ${port} on 127.0.0.1 is already in use`,
    );
    held?.close();
    held = undefined;
    await expect(
      checkListeningPorts(planned(port, 0), { mode: 'relay', env: {} }, own),
    ).rejects.toThrow(
      `plugin 'api', option 'port' of app.json (or CORE_API_PORT) and the admin over HTTP (CORE_ADMIN_HTTP_PORT) are both port ${port}`,
    );
  });
});
