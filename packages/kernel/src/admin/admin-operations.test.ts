import { describe, expect, it } from 'vitest';
import { LifecycleError } from '../errors.js';
import type { Plugin } from '../plugin.js';
import { startTestKernel } from '../testing/test-kernel.js';
import { AdminError } from './admin-operation.js';
import { AdminOperations } from './admin-operations.js';

/** A plugin that offers `operation` (and a status section named `section`) when it registers. */
function offering(name: string, operation: string, section = `${name}-section`): Plugin<object> {
  return {
    name,
    register({ container, name: plugin }) {
      container.cradle.adminOperations.add(plugin, {
        name: operation,
        description: `${plugin}'s ${operation}`,
        run: () => plugin,
      });
      container.cradle.statusSections.add(plugin, { name: section, read: () => plugin });
    },
  };
}

describe('admin operations contributed by plugins', () => {
  it('stops start-up naming both plugins when two offer the same operation', async () => {
    const start = startTestKernel({
      plugins: [
        { plugin: offering('alpha', 'peers.list') },
        { plugin: offering('beta', 'peers.list') },
      ],
    });
    await expect(start).rejects.toThrow(LifecycleError);
    await expect(start).rejects.toThrow(
      "admin operation 'peers.list' is offered by two plugins: 'alpha' and 'beta'",
    );
  });

  it('stops start-up naming both plugins when two offer the same status section', async () => {
    const start = startTestKernel({
      plugins: [
        { plugin: offering('alpha', 'alpha.one', 'peers') },
        { plugin: offering('beta', 'beta.one', 'peers') },
      ],
    });
    await expect(start).rejects.toThrow(
      "status section 'peers' is offered by two plugins: 'alpha' and 'beta'",
    );
  });

  it('lists each operation with its plugin, and reads every section', async () => {
    const kernel = await startTestKernel({
      plugins: [
        { plugin: offering('alpha', 'alpha.one') },
        { plugin: offering('beta', 'beta.one') },
      ],
    });
    try {
      expect(kernel.cradle.adminOperations.list()).toEqual([
        { name: 'alpha.one', plugin: 'alpha', description: "alpha's alpha.one" },
        { name: 'beta.one', plugin: 'beta', description: "beta's beta.one" },
      ]);
      expect(await kernel.cradle.statusSections.read()).toEqual({
        'alpha-section': 'alpha',
        'beta-section': 'beta',
      });
    } finally {
      await kernel.stop();
    }
  });

  it("stops start-up when a plugin claims one of the kernel's own operations", async () => {
    await expect(
      startTestKernel({ plugins: [{ plugin: offering('alpha', 'status') }] }),
    ).rejects.toThrow("admin operation 'status' is offered by two plugins: 'kernel' and 'alpha'");
  });

  it('answers an unknown operation with the names the node offers', () => {
    const operations = new AdminOperations();
    operations.add('p2p', { name: 'peers.list', description: '', run: () => [] });
    expect(() => operations.get('peers.lst')).toThrow(AdminError);
    expect(() => operations.get('peers.lst')).toThrow(
      "unknown admin operation 'peers.lst'; this node offers: peers.list",
    );
  });

  it('refuses a name that is not lower-case words joined by dots', () => {
    const operations = new AdminOperations();
    expect(() =>
      operations.add('p2p', { name: 'Peers List', description: '', run: () => [] }),
    ).toThrow("plugin 'p2p' offers an admin operation named 'Peers List'");
  });

  it('reads a failing or hanging section as its error, the others as usual', async () => {
    const kernel = await startTestKernel({ plugins: [] });
    try {
      const { statusSections } = kernel.cradle;
      statusSections.add(
        'x',
        { name: 'broken', read: () => Promise.reject(new Error('database down')) },
        { name: 'stuck', read: () => new Promise(() => undefined) },
        { name: 'fine', read: () => ({ height: 3 }) },
      );
      expect(await statusSections.read(50)).toEqual({
        broken: { error: 'database down' },
        stuck: { error: 'no answer within 50 ms' },
        fine: { height: 3 },
      });
    } finally {
      await kernel.stop();
    }
  });
});
