import { asValue } from 'awilix';
import Joi from 'joi';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Plugin } from '../plugin.js';
import { startTestKernel } from './test-kernel.js';

declare module '../plugin.js' {
  interface Cradle {
    readonly clock?: { readonly label: string };
  }
}

const clockPlugin: Plugin<{ label: string }> = {
  name: 'clock',
  configSchema: Joi.object({ label: Joi.string().default('utc') }),
  register: ({ container, options }) =>
    container.register({ clock: asValue({ label: options.label }) }),
  boot: async ({ logger }) => {
    logger.info('clock ticking');
  },
};

describe('startTestKernel', () => {
  it('boots chosen plugins with their options in temporary directories and cleans up', async () => {
    const kernel = await startTestKernel({
      plugins: [{ plugin: clockPlugin as Plugin<object>, options: { label: 'tai' } }],
    });
    expect(kernel.cradle.clock).toEqual({ label: 'tai' });
    expect(
      kernel.logs.some((record) => record.msg === 'clock ticking' && record.plugin === 'clock'),
    ).toBe(true);
    const { config } = kernel.paths;
    await kernel.stop();
    expect(existsSync(config)).toBe(false);
  });

  it('refuses invalid options as kernel start would, leaving no directory behind', async () => {
    // A temporary directory of this test's own, so that other files' kernels do not count.
    const own = await mkdtemp(join(tmpdir(), 'lni-test-kernel-refusal-'));
    const previous = process.env.TMPDIR;
    process.env.TMPDIR = own;
    try {
      await expect(
        startTestKernel({
          plugins: [{ plugin: clockPlugin as Plugin<object>, options: { label: 3 } }],
        }),
      ).rejects.toThrow(`mode 'core', plugin 'clock', option 'label': "label" must be a string`);
      expect(await readdir(own)).toEqual([]);
    } finally {
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
      await rm(own, { recursive: true, force: true });
    }
  });
});
