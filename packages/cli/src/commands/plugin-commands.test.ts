import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runKernel } from '../testing/run-kernel.js';

// `store` keeps rows and records its lifecycle; `report` requires it and offers commands.
const store = (journal: string) => `import { appendFileSync } from 'node:fs';
import { asValue } from 'awilix';
export default {
  name: 'store',
  register({ container }) { container.register({ reportRows: asValue(['a', 'b', 'c']) }); },
  async boot() { appendFileSync(${JSON.stringify(journal)}, 'boot store\\n'); },
  async dispose() { appendFileSync(${JSON.stringify(journal)}, 'dispose store\\n'); },
};
`;
const report = (journal: string) => `import { appendFileSync } from 'node:fs';
import Joi from 'joi';
export default {
  name: 'report',
  dependsOn: { required: ['store'] },
  configSchema: Joi.object({ title: Joi.string().default('Rows') }),
  register() {},
  async boot() { appendFileSync(${JSON.stringify(journal)}, 'boot report\\n'); },
  commands: [
    {
      name: 'count',
      description: 'count the rows of a table',
      arguments: [{ name: 'table', description: 'which table' }],
      options: [{ name: 'min-rows', value: 'n', description: 'fail below this', default: '0' }],
      run({ container, options, args, flags, print }) {
        const rows = container.cradle.reportRows.length;
        if (rows < Number(flags['min-rows'])) throw new Error('only ' + rows + ' rows in ' + args.table);
        print(options.title + ' in ' + args.table + ': ' + rows);
      },
    },
  ],
};
`;

let dir: string;
let config: string;
let data: string;
let journal: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lni-plugin-commands-'));
  config = join(dir, 'config');
  data = join(dir, 'data');
  journal = join(dir, 'journal.txt');
  await mkdir(join(config, 'plugins'), { recursive: true });
  await writeFile(join(config, 'plugins', 'store.mjs'), store(journal));
  await writeFile(join(config, 'plugins', 'report.mjs'), report(journal));
  await writeFile(join(config, 'plugins', 'broken.mjs'), 'export default {');
  await writeApp(['report', 'store']);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeApp(relay: string[], core: string[] = []): Promise<void> {
  const entries = (names: string[]) =>
    names.map((name) => ({
      package: `./plugins/${name}.mjs`,
      options: name === 'report' ? { title: 'Entries' } : {},
    }));
  await writeFile(
    join(config, 'app.json'),
    JSON.stringify({ core: { plugins: entries(core) }, relay: { plugins: entries(relay) } }),
  );
}

async function kernel(...args: string[]) {
  // The level a command logs at unless told otherwise (the harness asks for debug).
  const run = runKernel([...args, '--config', config, '--data', data], { CORE_LOG_LEVEL: 'warn' });
  const { code } = await run.exited();
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

describe('commands contributed by plugins', () => {
  it('are listed by kernel --help with their plugin and modes', async () => {
    const { code, stdout } = await kernel('--help');
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /report:count \[options\] <table>\s+count the rows of a table \(plugin report,\s+in\s+app\.json's\s+relay\s+mode\)/,
    );
  });

  it("run with the plugin's options and its required dependencies booted, the plugin itself not booted", async () => {
    const { code, stdout } = await kernel('report:count', 'blocks', '--min-rows', '2');
    expect({ code, stdout }).toEqual({ code: 0, stdout: 'Entries in blocks: 3\n' });
    expect(await readFile(journal, 'utf8')).toBe('boot store\ndispose store\n');
  });

  it('fail with exit code 1 and one line naming the command and the reason', async () => {
    const { code, stdout, stderr } = await kernel('report:count', 'blocks', '--min-rows', '5');
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
    expect(stderr).toBe('error: report:count failed: only 3 rows in blocks\n');
    expect(await readFile(journal, 'utf8')).toBe('boot store\ndispose store\n');
  });

  it('say which plugin could not be loaded when its command is asked for', async () => {
    await writeApp(['broken']);
    const { code, stderr } = await kernel('broken:fix');
    expect(code).toBe(1);
    expect(stderr).toMatch(
      new RegExp(
        `^error: ${join(config, 'app.json')}, mode 'relay': plugin './plugins/broken.mjs' failed to load: SyntaxError: [^\\n]+\\n$`,
      ),
    );
    expect(existsSync(data)).toBe(false);
  });

  it('refuse a mode that does not list the plugin', async () => {
    await writeApp(['report', 'store'], ['store']);
    const { code, stderr } = await kernel('report:count', 'blocks', '--mode', 'core');
    expect(code).toBe(1);
    expect(stderr).toBe(
      `error: ${join(config, 'app.json')}: plugin 'report' is not in mode 'core'\n`,
    );
  });
});
