import type { Command } from 'commander';
import { resolve } from 'node:path';
import { withKernelTarballs } from '../plugins/kernel-tarballs.js';
import { scaffoldPlugin } from '../plugins/scaffold.js';
import type { CommandResult } from '../program.js';

interface NewFlags {
  readonly dir?: string;
  readonly packages?: string;
}

export function registerPluginNew(program: Command, result: CommandResult): void {
  program
    .command('plugin:new')
    .description(
      'write a TypeScript plugin package to start from: a service, an option, a health check, a command and a test',
    )
    .argument('<name>', 'the plugin name, also its package name (address-watch)')
    .option('--dir <dir>', 'where to write it (default: ./<name>)')
    .option(
      '--packages <dir>',
      'the packed node packages to build against (npm run pack writes packs/); default: packs this kernel now',
    )
    .action(async (name: string, flags: NewFlags) => {
      const directory = resolve(flags.dir ?? name);
      const files = await withKernelTarballs(flags.packages, (kernelTarballs) =>
        scaffoldPlugin({ name, directory, kernelTarballs }),
      );
      const out = (line: string): boolean => process.stdout.write(`${line}\n`);
      out(`Plugin ${name} written to ${directory}:`);
      for (const file of files) out(`  ${file}`);
      out('Next:');
      out(`  cd ${directory} && npm install && npm run build && npm test`);
      out(`  kernel plugin:add ${directory} --config <the node's config directory>`);
      result.code = 0;
    });
}
