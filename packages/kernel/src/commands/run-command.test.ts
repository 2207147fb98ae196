import { asValue } from 'awilix';
import Joi from 'joi';
import { describe, expect, it } from 'vitest';
import type { Plugin } from '../plugin.js';
import { runTestCommand } from '../testing/test-command.js';

declare module '../plugin.js' {
  interface Cradle {
    readonly ledgerStore?: { readonly rows: readonly string[]; open: boolean };
  }
}

function plugins(calls: string[], fail?: Error) {
  const store: Plugin<object> = {
    name: 'store',
    register: ({ container }) => {
      calls.push('register store');
      container.register({ ledgerStore: asValue({ rows: ['a', 'b', 'c'], open: false }) });
    },
    boot: async ({ container }) => {
      calls.push('boot store');
      const store = container.cradle.ledgerStore;
      if (store) store.open = true;
    },
    dispose: async () => {
      calls.push('dispose store');
    },
  };
  const unrelated: Plugin<object> = {
    name: 'audit',
    register: () => {
      calls.push('register audit');
    },
  };
  const report: Plugin<{ prefix: string }> = {
    name: 'report',
    dependsOn: { required: ['store'], optional: ['audit'] },
    configSchema: Joi.object({ prefix: Joi.string().default('rows') }),
    register: () => {
      calls.push('register report');
    },
    boot: async () => {
      calls.push('boot report');
    },
    commands: [
      {
        name: 'count',
        description: 'count the rows',
        arguments: [{ name: 'table' }],
        options: [{ name: 'dry-run' }],
        run: ({ container, options, args, flags, print }) => {
          calls.push('run count');
          if (fail) throw fail;
          const store = container.cradle.ledgerStore;
          print(
            `${options.prefix} in ${String(args.table)}: ${store?.rows.length} (open: ${store?.open})`,
          );
          print(`dry run: ${String(flags['dry-run'])}`);
        },
      },
    ],
  };
  return [
    { plugin: unrelated },
    { plugin: report as Plugin<object>, options: { prefix: 'entries' } },
    { plugin: store },
  ];
}

describe('running a plugin command', () => {
  it('boots what the plugin requires, registers the plugin without booting it, and disposes after', async () => {
    const calls: string[] = [];
    const { output } = await runTestCommand({
      plugins: plugins(calls),
      plugin: 'report',
      command: 'count',
      args: { table: 'blocks' },
      flags: { 'dry-run': true },
    });
    expect(output).toEqual(['entries in blocks: 3 (open: true)', 'dry run: true']);
    expect(calls).toEqual([
      'register store',
      'register report',
      'boot store',
      'run count',
      'dispose store',
    ]);
  });

  it('reports a command that throws in one line naming it, after disposing', async () => {
    const calls: string[] = [];
    await expect(
      runTestCommand({
        plugins: plugins(calls, new Error('table blocks is locked')),
        plugin: 'report',
        command: 'count',
        args: { table: 'blocks' },
      }),
    ).rejects.toThrow('report:count failed: table blocks is locked');
    expect(calls.at(-1)).toBe('dispose store');
  });

  it('refuses a plugin the mode does not run, and a command the plugin does not have', async () => {
    await expect(
      runTestCommand({ plugins: plugins([]), plugin: 'export', command: 'count' }),
    ).rejects.toThrow("plugin 'export' is not enabled in mode 'core'");
    await expect(
      runTestCommand({ plugins: plugins([]), plugin: 'report', command: 'purge' }),
    ).rejects.toThrow("plugin 'report' has no command 'purge'");
  });

  it('validates the plugin options as start does, before anything boots', async () => {
    const calls: string[] = [];
    const [unrelated, report, store] = plugins(calls);
    await expect(
      runTestCommand({
        plugins: [unrelated!, { ...report!, options: { prefix: 7 } }, store!],
        plugin: 'report',
        command: 'count',
      }),
    ).rejects.toThrow(`mode 'core', plugin 'report', option 'prefix': "prefix" must be a string`);
    expect(calls).toEqual([]);
  });
});
