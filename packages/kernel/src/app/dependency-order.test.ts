import { describe, expect, it } from 'vitest';
import type { Plugin } from '../plugin.js';
import { orderByDependencies } from './dependency-order.js';

const plugin = (name: string, required: string[] = [], optional: string[] = []) => ({
  plugin: { name, dependsOn: { required, optional }, register: () => undefined } as Plugin<object>,
});
const names = (entries: { plugin: Plugin<object> }[]) => entries.map((entry) => entry.plugin.name);

describe('orderByDependencies', () => {
  it('puts dependencies first whatever the order of app.json', () => {
    const ordered = orderByDependencies(
      [
        plugin('forger', ['p2p']),
        plugin('api', ['state', 'database']),
        plugin('p2p', ['state']),
        plugin('state', ['database']),
        plugin('database'),
      ],
      'core',
    );
    expect(names(ordered)).toEqual(['database', 'state', 'api', 'p2p', 'forger']);
  });

  it('keeps the order of app.json between independent plugins', () => {
    const ordered = orderByDependencies([plugin('c'), plugin('a'), plugin('b')], 'core');
    expect(names(ordered)).toEqual(['c', 'a', 'b']);
  });

  it('orders after an optional dependency only when it is enabled', () => {
    expect(names(orderByDependencies([plugin('api', [], ['p2p']), plugin('p2p')], 'core'))).toEqual(
      ['p2p', 'api'],
    );
    expect(names(orderByDependencies([plugin('api', [], ['p2p'])], 'relay'))).toEqual(['api']);
  });

  it('reports every missing required dependency with the mode', () => {
    expect(() =>
      orderByDependencies([plugin('api', ['state']), plugin('forger', ['p2p'])], 'relay'),
    ).toThrow(
      "plugin 'api' requires 'state', which is not enabled in mode 'relay'; plugin 'forger' requires 'p2p', which is not enabled in mode 'relay'",
    );
  });

  it('reports a cycle with its path', () => {
    expect(() =>
      orderByDependencies(
        [plugin('database'), plugin('api', ['state']), plugin('state', ['database', 'api'])],
        'core',
      ),
    ).toThrow("plugin dependency cycle in mode 'core': api -> state -> api");
  });

  it('reports a plugin that depends on itself', () => {
    expect(() => orderByDependencies([plugin('a', [], ['a'])], 'core')).toThrow(': a -> a');
  });
});
