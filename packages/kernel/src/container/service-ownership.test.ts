import { asFunction, asValue } from 'awilix';
import bunyan from 'bunyan';
import { describe, expect, it } from 'vitest';
import { Application } from '../application.js';
import { planFromPlugins } from '../app/plan.js';
import { LifecycleError } from '../errors.js';
import type { Plugin } from '../plugin.js';

declare module '../plugin.js' {
  interface Cradle {
    readonly pool?: { readonly kind: string };
    readonly chain?: { readonly height: number };
  }
}

declare module '../events/event-bus.js' {
  interface EventMap {
    'test.tick': { readonly n: number };
  }
}

function application(plugins: Plugin<object>[]) {
  const records = new bunyan.RingBuffer({ limit: 100 });
  const logger = bunyan.createLogger({
    name: 'test',
    streams: [{ type: 'raw', stream: records, level: 'trace' }],
  });
  const paths = { config: '/nonexistent/config', data: '/nonexistent/data', log: '/nonexistent/l' };
  const planned = planFromPlugins(
    plugins.map((plugin) => ({ plugin })),
    'core',
    {},
  );
  const app = new Application({ mode: 'core', network: 'testnet', paths, logger }, planned);
  return { app, logs: records.records as Record<string, unknown>[] };
}

const poolProvider: Plugin<object> = {
  name: 'state',
  register: ({ container }) => container.register({ pool: asValue({ kind: 'memory' }) }),
};

async function failure(run: () => unknown): Promise<LifecycleError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof LifecycleError) return error;
    throw error;
  }
  throw new Error('expected a LifecycleError');
}

describe('service names have one owner', () => {
  it('stops at register when a plugin registers a name the kernel provides', async () => {
    const { app } = application([
      {
        name: 'metrics',
        register: ({ container }) => container.register('metrics', asValue({ scrape: 'none' })),
      },
    ]);
    const error = await failure(() => app.register());
    expect(error.message).toBe(
      "plugin 'metrics' registers 'metrics', which the kernel provides: choose another name, or declare replaces: ['metrics'] to replace it on purpose",
    );
    expect(error.failures).toMatchObject([{ plugin: 'metrics', phase: 'register' }]);
    expect(app.container.cradle.metrics.metrics).toBeTypeOf('function');
  });

  it("stops at register when a plugin registers another plugin's name, naming both", async () => {
    const intruder: Plugin<object> = {
      name: 'cache',
      dependsOn: { required: ['state'] },
      register: ({ container }) => container.register('pool', asValue({ kind: 'redis' })),
    };
    const { app } = application([intruder, poolProvider]);
    const error = await failure(() => app.register());
    expect(error.message).toBe(
      "plugin 'cache' registers 'pool', which plugin 'state' provides: choose another name, or declare replaces: ['pool'] to replace it on purpose",
    );
    expect(app.container.cradle.pool).toEqual({ kind: 'memory' });
  });

  it('lets a plugin replace a service it declares in replaces, and says so when boot starts', async () => {
    const replacement: Plugin<object> = {
      name: 'cache',
      dependsOn: { required: ['state'] },
      replaces: ['pool'],
      register: ({ container }) => container.register({ pool: asValue({ kind: 'redis' }) }),
    };
    const { app, logs } = application([replacement, poolProvider]);
    app.register();
    expect(logs.some((record) => record.msg === 'Service replaced')).toBe(false);
    await app.boot();
    expect(app.container.cradle.pool).toEqual({ kind: 'redis' });
    expect(logs.find((record) => record.msg === 'Service replaced')).toMatchObject({
      service: 'pool',
      plugin: 'cache',
      owner: 'state',
    });
    await app.dispose();
  });

  it('refuses replaces naming a service that no plugin registered before it', async () => {
    const early: Plugin<object> = {
      name: 'cache',
      replaces: ['pool'],
      register: ({ container }) => container.register({ pool: asValue({ kind: 'redis' }) }),
    };
    const { app } = application([early, poolProvider]);
    const error = await failure(() => app.register());
    expect(error.message).toBe(
      "plugin 'cache' declares replaces: ['pool'], but no plugin registered 'pool' before it: name its provider in dependsOn so that it registers first, or drop 'pool' from replaces",
    );
  });

  it('checks registrations made during boot the same way', async () => {
    const late: Plugin<object> = {
      name: 'late',
      register: () => undefined,
      boot: async ({ container }) => {
        container.register({ pool: asValue({ kind: 'late' }) });
      },
    };
    const { app } = application([poolProvider, late]);
    const error = await failure(() => app.start());
    expect(error.message).toBe(
      "plugin 'late' registers 'pool', which plugin 'state' provides: choose another name, or declare replaces: ['pool'] to replace it on purpose",
    );
    expect(error.failures[0]).toMatchObject({ plugin: 'late', phase: 'boot' });
  });

  it('lets a plugin register its own name again, in boot', async () => {
    const twice: Plugin<object> = {
      name: 'state',
      register: ({ container }) => container.register({ pool: asValue({ kind: 'empty' }) }),
      boot: async ({ container }) => {
        container.register({ pool: asValue({ kind: 'loaded' }) });
      },
    };
    const { app } = application([twice]);
    await app.start();
    expect(app.container.cradle.pool).toEqual({ kind: 'loaded' });
    await app.dispose();
  });
});

describe('a failure names the plugin whose code threw', () => {
  it('attributes a service that fails to construct to the plugin that registered it, not the one resolving it', async () => {
    const cause = new Error('crypto/network.json has no nethash');
    const state: Plugin<object> = {
      name: 'state',
      register: ({ container }) =>
        container.register({
          chain: asFunction(() => {
            throw cause;
          }).singleton(),
        }),
    };
    const p2p: Plugin<object> = {
      name: 'p2p',
      dependsOn: { required: ['state'] },
      register: () => undefined,
      boot: async ({ container }) => {
        void container.cradle.chain?.height;
      },
    };
    const { app } = application([p2p, state]);
    const error = await failure(() => app.start());
    expect(error.message).toBe(
      "plugin 'p2p' failed to boot: service 'chain' of plugin 'state' failed: crypto/network.json has no nethash",
    );
    expect(error.failures[0]).toMatchObject({ plugin: 'state', phase: 'boot' });
    expect((error.cause as Error).cause).toBe(cause);
  });

  it('logs a failing event listener with the plugin that subscribed it', async () => {
    const listener: Plugin<object> = {
      name: 'webhooks',
      register: ({ events }) => {
        events.on('test.tick', () => {
          throw new Error('queue full');
        });
      },
    };
    const { app, logs } = application([listener]);
    await app.start();
    await app.events.emitAndWait('test.tick', { n: 1 });
    expect(logs.find((record) => record.msg === 'Event listener failed')).toMatchObject({
      event: 'test.tick',
      plugin: 'webhooks',
      err: { message: 'queue full' },
    });
    await app.dispose();
  });
});
