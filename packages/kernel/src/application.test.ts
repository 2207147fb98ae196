import { asValue } from 'awilix';
import bunyan from 'bunyan';
import { describe, expect, it } from 'vitest';
import { Application } from './application.js';
import { planFromPlugins } from './app/plan.js';
import { LifecycleError } from './errors.js';
import type { Plugin } from './plugin.js';

declare module './plugin.js' {
  interface Cradle {
    readonly greeting?: string;
  }
}

function recorder() {
  const calls: string[] = [];
  const make = (
    name: string,
    behaviour: Partial<Record<'boot' | 'dispose', Error>> = {},
    deps: string[] = [],
  ) =>
    ({
      name,
      dependsOn: { required: deps },
      register: () => {
        calls.push(`register ${name}`);
      },
      boot: async () => {
        calls.push(`boot ${name}`);
        if (behaviour.boot) throw behaviour.boot;
      },
      dispose: async () => {
        calls.push(`dispose ${name}`);
        if (behaviour.dispose) throw behaviour.dispose;
      },
    }) satisfies Plugin<object>;
  return { calls, make };
}

function application(plugins: Plugin<object>[]) {
  const records = new bunyan.RingBuffer({ limit: 100 });
  const logger = bunyan.createLogger({
    name: 'test',
    streams: [{ type: 'raw', stream: records, level: 'trace' }],
  });
  const paths = {
    config: '/nonexistent/config',
    data: '/nonexistent/data',
    log: '/nonexistent/log',
  };
  const planned = planFromPlugins(
    plugins.map((plugin) => ({ plugin })),
    'core',
    {},
  );
  return {
    app: new Application({ mode: 'core', network: 'testnet', paths, logger }, planned),
    records,
  };
}

describe('Application lifecycle', () => {
  it('registers every plugin before booting any, in dependency order, and disposes in reverse', async () => {
    const { calls, make } = recorder();
    const { app } = application([
      make('api', {}, ['state']),
      make('state', {}, ['database']),
      make('database'),
    ]);
    await app.start();
    await app.dispose();
    expect(calls).toEqual([
      'register database',
      'register state',
      'register api',
      'boot database',
      'boot state',
      'boot api',
      'dispose api',
      'dispose state',
      'dispose database',
    ]);
  });

  it('disposes every plugin even when some fail, and reports each failure', async () => {
    const { calls, make } = recorder();
    const first = new Error('socket already closed');
    const second = new Error('flush failed');
    const { app } = application([
      make('a', { dispose: first }),
      make('b'),
      make('c', { dispose: second }),
    ]);
    await app.start();
    const failures = await app.dispose();
    expect(calls.filter((call) => call.startsWith('dispose'))).toEqual([
      'dispose c',
      'dispose b',
      'dispose a',
    ]);
    expect(failures).toEqual([
      { plugin: 'c', phase: 'dispose', error: second },
      { plugin: 'a', phase: 'dispose', error: first },
    ]);
  });

  it('stopping twice disposes once', async () => {
    const { calls, make } = recorder();
    const { app } = application([make('a')]);
    await app.start();
    await Promise.all([app.dispose(), app.dispose()]);
    await app.dispose();
    expect(calls.filter((call) => call === 'dispose a')).toHaveLength(1);
  });

  it('a plugin failing in boot disposes what already booted, in reverse, and names the cause', async () => {
    const { calls, make } = recorder();
    const cause = new Error('port 4003 in use');
    const { app } = application([
      make('database'),
      make('state'),
      make('api', { boot: cause }),
      make('forger'),
    ]);
    const error = await app.start().catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(LifecycleError);
    expect((error as LifecycleError).message).toBe("plugin 'api' failed to boot: port 4003 in use");
    expect((error as LifecycleError).cause).toBe(cause);
    expect(calls.slice(-3)).toEqual(['boot api', 'dispose state', 'dispose database']);
    expect(calls).not.toContain('boot forger');
  });

  it('gives each plugin a logger scoped to it and a strict container', async () => {
    const seen: { plugin?: string; error?: unknown } = {};
    const provider: Plugin<object> = {
      name: 'provider',
      register: ({ container }) => container.register({ greeting: asValue('hello') }),
    };
    const consumer: Plugin<object> = {
      name: 'consumer',
      dependsOn: { required: ['provider'] },
      register: () => undefined,
      boot: async ({ container, logger }) => {
        logger.info('booting');
        seen.plugin = container.cradle.greeting;
        try {
          container.resolve('missingService' as never);
        } catch (error) {
          seen.error = error;
        }
      },
    };
    const { app, records } = application([consumer, provider]);
    await app.start();
    expect(seen.plugin).toBe('hello');
    expect(String(seen.error)).toMatch(/missingService/);
    const line = records.records.find((record: { msg: string }) => record.msg === 'booting');
    expect(line).toMatchObject({ plugin: 'consumer' });
    await app.dispose();
  });

  it('announces the end of boot on the event bus', async () => {
    const { make } = recorder();
    const { app } = application([make('a'), make('b')]);
    const booted = app.events.once('kernel.booted');
    await app.start();
    await expect(booted).resolves.toEqual({ mode: 'core', plugins: ['a', 'b'] });
    await app.dispose();
  });
});
