import type { ResolveFnOutput, ResolveHookContext } from 'node:module';
import { describe, expect, it } from 'vitest';
import { initialize, resolve } from './shared-packages-hooks.js';

const node = 'file:///opt/lni/packages/kernel/dist/index.js';
initialize({ installation: 'file:///opt/lni/', resolveFrom: [node] });

/** Stands in for Node's resolver: it knows which packages each parent can see. */
function nextResolve(visible: Record<string, string[]>) {
  const calls: string[] = [];
  const next = async (specifier: string, context?: Partial<ResolveHookContext>) => {
    const parent = context?.parentURL ?? '';
    calls.push(`${specifier} from ${parent}`);
    if (!(visible[parent] ?? []).includes(specifier)) {
      throw Object.assign(new Error(`Cannot find package '${specifier}'`), {
        code: 'ERR_MODULE_NOT_FOUND',
      });
    }
    return { url: `${parent}#${specifier}` } satisfies ResolveFnOutput;
  };
  return { next, calls };
}

const context = (parentURL: string): ResolveHookContext => ({
  conditions: ['node', 'import'],
  importAssertions: {},
  importAttributes: {},
  parentURL,
});

describe("the resolve hook that gives plugins the node's shared packages", () => {
  const plugin = 'file:///home/op/.config/lni/testnet/plugins/watch/index.mjs';

  it('resolves @lni/*, awilix and joi imported by a plugin outside the installation from the node', async () => {
    const { next } = nextResolve({ [node]: ['joi', 'awilix', '@lni/kernel/testing'] });
    for (const specifier of ['joi', 'awilix', '@lni/kernel/testing']) {
      await expect(resolve(specifier, context(plugin), next)).resolves.toEqual({
        url: `${node}#${specifier}`,
      });
    }
  });

  it("leaves the plugin's other packages, and the node's own modules, to Node", async () => {
    const { next, calls } = nextResolve({ [plugin]: ['left-pad'], [node]: ['joi'] });
    await resolve('left-pad', context(plugin), next);
    const inside = 'file:///opt/lni/packages/api/dist/plugin.js';
    await expect(resolve('joi', context(inside), next)).rejects.toThrow(
      "Cannot find package 'joi'",
    );
    expect(calls).toEqual([`left-pad from ${plugin}`, `joi from ${inside}`]);
  });

  it('lets a shared name the node lacks fail from the plugin, whose error names it', async () => {
    const { next } = nextResolve({});
    await expect(resolve('@lni/unknown', context(plugin), next)).rejects.toThrow(
      "Cannot find package '@lni/unknown'",
    );
  });
});
