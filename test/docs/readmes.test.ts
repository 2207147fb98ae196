import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFile(join(root, path), 'utf8');
const packages = readdirSync(join(root, 'packages')).filter((name) =>
  existsSync(join(root, 'packages', name, 'README.md')),
);

/** The shell lines of a README's ```sh blocks. */
function shellLines(markdown: string): string[] {
  return [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((block) =>
    (block[1] as string).split('\n').filter((line) => line.trim() !== ''),
  );
}

describe('what the READMEs tell a reader', () => {
  it.each(packages)(
    'packages/%s/README.md begins with its title, not with a work note',
    async (name) => {
      const text = await read(`packages/${name}/README.md`);
      const [title, , first] = text.split('\n');
      expect(title).toBe(`# @lni/${name}`);
      expect(first).not.toMatch(/\(issue \d+/);
    },
  );

  it('shows the Docker commands for Compose v2 and v1, on a compose file that exists', async () => {
    const lines = shellLines(await read('README.md'));
    const v2 = lines.filter((line) => line.startsWith('docker compose '));
    const v1 = lines.filter((line) => line.startsWith('docker-compose '));
    expect(v2.length).toBeGreaterThan(0);
    // The v1 lines repeat the v2 ones' arguments: starting and stopping the network.
    const argumentsOf = (line: string) =>
      line
        .replace(/^docker[ -]compose /, '')
        .replace(/\s+#.*$/, '')
        .trim();
    const v2Arguments = v2.map(argumentsOf);
    for (const args of v1.map(argumentsOf)) expect(v2Arguments).toContain(args);
    expect(v1.map(argumentsOf)).toEqual([
      expect.stringMatching(/ up -d --build$/),
      expect.stringMatching(/ down$/),
    ]);
    for (const line of [...v2, ...v1]) {
      const file = /-f (\S+)/.exec(line)?.[1];
      expect(file && existsSync(join(root, file)), line).toBe(true);
    }
  });

  it('says what the test setup needs instead of pointing at machines a reader has not seen', async () => {
    const readmes = ['README.md', ...packages.map((name) => `packages/${name}/README.md`)];
    for (const readme of readmes) {
      expect(await read(readme), readme).not.toMatch(/as on the project machines/);
    }
    expect(await read('README.md')).toMatch(/LNI_TEST_POSTGRES=unavailable/);
  });

  it("keeps the API's dated benchmark runs in its bench README, with how to run them", async () => {
    const api = await read('packages/api/README.md');
    expect(api).not.toMatch(/^## Measured/m);
    expect(api).toContain('packages/api/bench/README.md');
    const bench = await read('packages/api/bench/README.md');
    expect(bench).toMatch(/^# Benchmarks of @lni\/api/);
    expect(bench).toMatch(/^## How to run/m);
    expect(bench).toMatch(/^## Latest figures/m);
    // Every bench file it names exists, and `npm run bench` runs them.
    const files = [...bench.matchAll(/bench\/([\w-]+\.ts)/g)].map((match) => match[1] as string);
    expect(files.length).toBeGreaterThan(0);
    const script = JSON.parse(await read('packages/api/package.json')).scripts.bench as string;
    for (const file of new Set(files)) {
      expect(existsSync(join(root, 'packages/api/bench', file)), file).toBe(true);
      expect(script).toContain(`bench/${file}`);
    }
  });
});
