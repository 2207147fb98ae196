import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('./p2p-firewall.sh', import.meta.url));
const SERVER = fileURLToPath(new URL('./fixtures/tcp-server.mjs', import.meta.url));
const CLIENT = fileURLToPath(new URL('./fixtures/tcp-client.mjs', import.meta.url));
const PORT = 4000;

interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

const hasCommand = (name: string): boolean => {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

// Says why the namespace tests cannot run here, or undefined when they can.
const namespaceSkipReason = (): string | undefined => {
  if (process.platform !== 'linux') return 'network namespaces need Linux';
  if (process.getuid?.() !== 0) return 'needs root to create network namespaces and run iptables';
  for (const tool of ['ip', 'iptables', 'iptables-restore']) {
    if (!hasCommand(tool)) return `'${tool}' is not installed (apt-get install iptables iproute2)`;
  }
  const probe = `lni-fw-probe-${process.pid}`;
  try {
    execFileSync('ip', ['netns', 'add', probe], { stdio: 'pipe' });
    execFileSync('ip', ['netns', 'del', probe], { stdio: 'pipe' });
  } catch (error) {
    return `'ip netns add' fails here: ${String(error)}`;
  }
  return undefined;
};

// The script must see only what a test sets, not the settings of whoever runs the suite.
const cleanEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(P2P_|CORE_P2P_|IPTABLES$|IP6TABLES$|SYSTEMD_DIR$|SUDOERS_DIR$|SBIN_DIR$)/.test(key)) {
      env[key] = value;
    }
  }
  return { ...env, ...extra };
};

const run = (file: string, args: string[], env: Record<string, string> = {}) =>
  new Promise<RunResult>((resolve, reject) => {
    execFile(file, args, { env: cleanEnv(env) }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') reject(error);
      else resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });

const must = async (file: string, args: string[]): Promise<string> => {
  const result = await run(file, args);
  if (result.code !== 0) {
    throw new Error(`${file} ${args.join(' ')} exited ${result.code}: ${result.stderr}`, {
      cause: result,
    });
  }
  return result.stdout;
};

describe('p2p-firewall.sh usage', () => {
  it('rejects an unknown command with exit 2 and says which', async () => {
    const result = await run(SCRIPT, ['bogus']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown command 'bogus'");
  });

  it('requires a command and prints usage on help', async () => {
    expect((await run(SCRIPT, [])).code).toBe(2);
    const help = await run(SCRIPT, ['help']);
    expect(help.code).toBe(0);
    for (const word of ['start', 'stop', 'restart', 'status', 'install-boot', 'P2P_GLOBAL_CONN']) {
      expect(help.stdout).toContain(word);
    }
  });

  it('names the setting whose value is invalid', async () => {
    const conn = await run(SCRIPT, ['status'], { P2P_GLOBAL_CONN: 'ten' });
    expect(conn.code).toBe(2);
    expect(conn.stderr).toContain("P2P_GLOBAL_CONN must be an integer from 1 to 65535, got 'ten'");
    const port = await run(SCRIPT, ['--port', '70000', 'start']);
    expect(port.code).toBe(2);
    expect(port.stderr).toContain('P2P_PORT');
    const chain = await run(SCRIPT, ['--chain', 'bad chain', 'start']);
    expect(chain.code).toBe(2);
    expect(chain.stderr).toContain('P2P_CHAIN');
  });
});

/** A tcp-client.mjs process inside one namespace, driven one JSON line at a time. */
class Client {
  private readonly lines: AsyncIterator<string>;

  private constructor(
    readonly child: ChildProcess,
    reader: Interface,
  ) {
    this.lines = reader[Symbol.asyncIterator]();
  }

  static start(netns: string): Client {
    const child = spawn('ip', ['netns', 'exec', netns, process.execPath, CLIENT], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    if (!child.stdout) throw new Error('client has no stdout');
    return new Client(child, createInterface({ input: child.stdout }));
  }

  private async send(command: object): Promise<unknown> {
    this.child.stdin?.write(`${JSON.stringify(command)}\n`);
    const line = await this.lines.next();
    if (line.done) throw new Error(`client exited (code ${this.child.exitCode})`);
    return JSON.parse(line.value) as unknown;
  }

  open(host: string, count: number, port = PORT): Promise<unknown> {
    return this.send({ op: 'open', host, port, count });
  }

  close(): Promise<unknown> {
    return this.send({ op: 'close' });
  }
}

const times = (n: number, value: string): string[] => Array.from({ length: n }, () => value);

const skipReason = namespaceSkipReason();
const title = skipReason
  ? `p2p-firewall.sh in a network namespace (skipped: ${skipReason})`
  : 'p2p-firewall.sh in a network namespace';

describe.skipIf(skipReason !== undefined)(title, () => {
  const id = `${process.pid.toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const net = Math.floor(Math.random() * 256);
  const server = { ns: `lni-fw-s-${id}`, v4: `10.200.${net}.1`, v4b: `10.200.${net}.5` };
  const server6 = `fd00:200:${net.toString(16)}::1`;
  const created: string[] = [];
  const children: ChildProcess[] = [];
  let c1: Client;
  let c2: Client;
  let local: Client;
  let pristine: string;
  let lockDir: string;

  const ip = (...args: string[]) => must('ip', args);
  const inServer = (file: string, ...args: string[]) =>
    must('ip', ['netns', 'exec', server.ns, file, ...args]);
  const firewall = (args: string[], env: Record<string, string> = {}) =>
    run('ip', ['netns', 'exec', server.ns, SCRIPT, ...args], {
      P2P_FIREWALL_LOCK: join(lockDir, 'lock'),
      ...env,
    });
  const rules = async () =>
    `${await inServer('iptables', '-S')}${await inServer('ip6tables', '-S')}`;
  const fresh = async (args: string[], env: Record<string, string> = {}) => {
    expect((await firewall(['stop'])).code).toBe(0);
    const started = await firewall([...args, 'start'], env);
    expect(started.stderr).not.toContain('error');
    expect(started.code).toBe(0);
  };

  beforeAll(async () => {
    lockDir = await mkdtemp(join(tmpdir(), 'lni-fw-'));
    const c1ns = `lni-fw-a-${id}`;
    const c2ns = `lni-fw-b-${id}`;
    for (const ns of [server.ns, c1ns, c2ns]) {
      await ip('netns', 'add', ns);
      created.push(ns);
      await ip('-n', ns, 'link', 'set', 'lo', 'up');
    }
    // Two clients on separate links, so the server sees two distinct source addresses.
    await ip(
      '-n',
      server.ns,
      'link',
      'add',
      'fw0',
      'type',
      'veth',
      'peer',
      'name',
      'fw0',
      'netns',
      c1ns,
    );
    await ip(
      '-n',
      server.ns,
      'link',
      'add',
      'fw1',
      'type',
      'veth',
      'peer',
      'name',
      'fw1',
      'netns',
      c2ns,
    );
    await ip('-n', server.ns, 'addr', 'add', `${server.v4}/30`, 'dev', 'fw0');
    await ip('-n', server.ns, 'addr', 'add', `${server.v4b}/30`, 'dev', 'fw1');
    await ip('-n', server.ns, '-6', 'addr', 'add', `${server6}/64`, 'dev', 'fw0', 'nodad');
    await ip('-n', c1ns, 'addr', 'add', `10.200.${net}.2/30`, 'dev', 'fw0');
    await ip(
      '-n',
      c1ns,
      '-6',
      'addr',
      'add',
      `fd00:200:${net.toString(16)}::2/64`,
      'dev',
      'fw0',
      'nodad',
    );
    await ip('-n', c2ns, 'addr', 'add', `10.200.${net}.6/30`, 'dev', 'fw1');
    for (const [ns, dev] of [
      [server.ns, 'fw0'],
      [server.ns, 'fw1'],
      [c1ns, 'fw0'],
      [c2ns, 'fw1'],
    ] as const) {
      await ip('-n', ns, 'link', 'set', dev, 'up');
    }
    await ip('-n', c2ns, 'route', 'add', `${server.v4}/32`, 'via', server.v4b);

    const tcpServer = spawn(
      'ip',
      [
        'netns',
        'exec',
        server.ns,
        process.execPath,
        SERVER,
        String(PORT),
        server.v4,
        server6,
        '127.0.0.1',
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    children.push(tcpServer);
    const [ready] = (await once(createInterface({ input: tcpServer.stdout }), 'line')) as [string];
    expect(ready).toBe('listening');

    c1 = Client.start(c1ns);
    c2 = Client.start(c2ns);
    local = Client.start(server.ns);
    children.push(c1.child, c2.child, local.child);
    pristine = await rules();
  });

  afterAll(async () => {
    for (const child of children) {
      child.stdin?.end();
      if (child.exitCode === null) child.kill('SIGTERM');
    }
    const results = await Promise.allSettled([
      ...created.map((ns) => ip('netns', 'del', ns)),
      ...(lockDir ? [rm(lockDir, { recursive: true, force: true })] : []),
    ]);
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed.length > 0) {
      throw new AggregateError(
        failed.map((r) => r.reason),
        'network namespace cleanup failed',
      );
    }
  });

  beforeEach(async () => {
    await Promise.all([c1.close(), c2.close(), local.close()]);
  });

  it('accepts 10 simultaneous connections from one IP and refuses the 11th', async () => {
    // A host firewall that already accepts the port must not bypass the limits.
    await inServer('iptables', '-A', 'INPUT', '-p', 'tcp', '--dport', String(PORT), '-j', 'ACCEPT');
    try {
      await fresh([], { P2P_NEW_CONN: '100' });
      expect(await c1.open(server.v4, 11)).toEqual([...times(10, 'ok'), 'ECONNREFUSED']);
      // The limit is per source address: another IP still gets in.
      expect(await c2.open(server.v4, 1)).toEqual(['ok']);
      // It counts simultaneous connections, so closing frees the slots.
      await c1.close();
      expect(await c1.open(server.v4, 1)).toEqual(['ok']);
    } finally {
      await inServer(
        'iptables',
        '-D',
        'INPUT',
        '-p',
        'tcp',
        '--dport',
        String(PORT),
        '-j',
        'ACCEPT',
      );
    }
  });

  it('applies a configured per-IP limit over IPv6 too', async () => {
    await fresh([], { P2P_GLOBAL_CONN: '3', P2P_NEW_CONN: '100' });
    expect(await c1.open(server6, 4)).toEqual([...times(3, 'ok'), 'ECONNREFUSED']);
  });

  it('limits NEW connections to 4 per 30 s across all source addresses together', async () => {
    await fresh([]);
    expect(await c1.open(server.v4, 2)).toEqual(['ok', 'ok']);
    expect(await c2.open(server.v4, 2)).toEqual(['ok', 'ok']);
    // A per-source limit would still let each client in; the spec's limit is global.
    expect(await c2.open(server.v4, 1)).toEqual(['ECONNREFUSED']);
    expect(await c1.open(server.v4, 1)).toEqual(['ECONNREFUSED']);
    // The node's own loopback traffic (a local forger) is not limited.
    expect(await local.open('127.0.0.1', 1)).toEqual(['ok']);
  });

  it('lets new connections in again once the configured interval has passed', async () => {
    await fresh(['--new-conn', '2', '--new-conn-interval', '2']);
    expect(await c1.open(server.v4, 3)).toEqual(['ok', 'ok', 'ECONNREFUSED']);
    await delay(1000);
    expect(await c1.open(server.v4, 2)).toEqual(['ECONNREFUSED', 'ECONNREFUSED']);
    // Only accepted connections use up the budget: the refusals one second ago do not keep
    // the port shut once the accepted ones are older than the interval.
    await delay(1300);
    expect(await c1.open(server.v4, 1)).toEqual(['ok']);
  });

  it('gives the same rules when started twice, and stop restores the rules it found', async () => {
    await fresh([]);
    const once = await rules();
    expect((await firewall(['start'])).code).toBe(0);
    expect(await rules()).toBe(once);
    expect(once).toContain(`-A INPUT -p tcp -m tcp --dport ${PORT} -j LNI-P2P`);
    expect(once).toContain('--connlimit-above 10 --connlimit-mask 32');
    expect(once).toContain('--connlimit-above 10 --connlimit-mask 128');
    expect(once).toContain('--seconds 30 --hitcount 4 --name LNI-P2P --mask 0.0.0.0');
    expect(once).toContain('--seconds 30 --hitcount 4 --name LNI-P2P --mask ::');

    // A start on another port moves the jump instead of adding a second one.
    expect((await firewall(['--port', '4100', 'start'])).code).toBe(0);
    const moved = await inServer('iptables', '-S', 'INPUT');
    expect(moved).toContain('--dport 4100 -j LNI-P2P');
    expect(moved).not.toContain(`--dport ${PORT} -j LNI-P2P`);

    expect((await firewall(['stop'])).code).toBe(0);
    expect(await rules()).toBe(pristine);
    const again = await firewall(['stop']);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('not installed');
  });

  it('reports status: exit 3 when stopped, 0 with the rules when active', async () => {
    expect((await firewall(['stop'])).code).toBe(0);
    const stopped = await firewall(['status']);
    expect(stopped.code).toBe(3);
    expect(stopped.stdout).toContain('iptables: not active');
    await fresh([]);
    const active = await firewall(['status']);
    expect(active.code).toBe(0);
    expect(active.stdout).toContain('iptables: active');
    expect(active.stdout).toContain('ip6tables: active');
    expect(active.stdout).toContain(`--dport ${PORT} -j LNI-P2P`);
    expect(active.stdout).toContain('#conn src/32 > 10');
  });

  it('--docker limits the connections Docker forwards from the published port, and only those', async () => {
    // Docker's part, played here: the published port 14000 rewritten to the node's port, and
    // DOCKER-USER consulted for it (Docker jumps from FORWARD; the node here is local, so INPUT).
    const published = 14000;
    const dnat = (action: '-A' | '-D') =>
      inServer(
        'iptables',
        '-t',
        'nat',
        action,
        'PREROUTING',
        '-p',
        'tcp',
        '--dport',
        String(published),
        '-j',
        'DNAT',
        '--to-destination',
        `${server.v4}:${PORT}`,
      );
    await dnat('-A');
    await inServer('iptables', '-N', 'DOCKER-USER');
    await inServer('iptables', '-I', 'INPUT', '1', '-j', 'DOCKER-USER');
    const docker = (command: string, ...options: string[]) =>
      firewall(['--docker', '--port', String(published), ...options, command]);
    try {
      expect((await firewall(['stop'])).code).toBe(0);
      const started = await docker('start', '--global-conn', '2');
      expect(started.code).toBe(0);
      expect(started.stderr).toContain('IPv6: skipped, ip6tables has no DOCKER-USER chain');
      expect(await inServer('iptables', '-S', 'INPUT')).not.toContain('LNI-P2P');
      expect((await docker('status')).code).toBe(0);

      expect(await c1.open(server.v4, 3, published)).toEqual(['ok', 'ok', 'ECONNREFUSED']);
      // The node's own port, reached without Docker's rewrite, is not the published one.
      expect(await c2.open(server.v4, 3)).toEqual(times(3, 'ok'));

      expect((await docker('stop')).code).toBe(0);
      expect((await docker('status')).code).toBe(3);
      await c1.close();
      expect(await c1.open(server.v4, 3, published)).toEqual(times(3, 'ok'));
      // Docker's chain stays: Docker made it (here, the test did).
      expect(await inServer('iptables', '-S', 'DOCKER-USER')).toBe('-N DOCKER-USER\n');
    } finally {
      await inServer('iptables', '-D', 'INPUT', '-j', 'DOCKER-USER');
      await inServer('iptables', '-X', 'DOCKER-USER');
      await dnat('-D');
    }
    expect(await rules()).toBe(pristine);
  });

  describe('install-boot', () => {
    let dirs: { SYSTEMD_DIR: string; SUDOERS_DIR: string; SBIN_DIR: string };

    beforeAll(async () => {
      const base = await mkdtemp(join(tmpdir(), 'lni-fw-boot-'));
      dirs = {
        SYSTEMD_DIR: join(base, 'systemd'),
        SUDOERS_DIR: join(base, 'sudoers.d'),
        SBIN_DIR: join(base, 'sbin'),
      };
    });

    afterAll(async () => {
      await rm(join(dirs.SBIN_DIR, '..'), { recursive: true, force: true });
    });

    it('writes a oneshot unit and a sudoers entry for exactly this script', async () => {
      const result = await run(
        SCRIPT,
        ['--user', 'nobody', '--port', '4100', 'install-boot'],
        dirs,
      );
      expect(result.stderr).not.toContain('error');
      expect(result.code).toBe(0);

      const installed = join(dirs.SBIN_DIR, 'lni-p2p-firewall');
      expect(await readFile(installed, 'utf8')).toBe(await readFile(SCRIPT, 'utf8'));
      expect((await stat(installed)).mode & 0o777).toBe(0o755);

      const command = `${installed} --port 4100 --global-conn 10 --new-conn 4 --new-conn-interval 30 --chain LNI-P2P`;
      const unit = (
        await readFile(join(dirs.SYSTEMD_DIR, 'lni-p2p-firewall.service'), 'utf8')
      ).split('\n');
      expect(unit).toContain('Type=oneshot');
      expect(unit).toContain('RemainAfterExit=yes');
      expect(unit).toContain(`ExecStart=${command} start`);
      expect(unit).toContain(`ExecStop=${command} stop`);
      expect(unit).toContain('WantedBy=multi-user.target');

      const sudoersPath = join(dirs.SUDOERS_DIR, 'lni-p2p-firewall');
      expect((await stat(sudoersPath)).mode & 0o777).toBe(0o440);
      const sudoers = await readFile(sudoersPath, 'utf8');
      expect(sudoers).toContain('nobody ALL=(root) NOPASSWD: LNI_P2P_FIREWALL');
      for (const action of ['start', 'stop', 'restart', 'status']) {
        expect(sudoers).toContain(`${command} ${action}`);
      }
      if (hasCommand('visudo')) {
        expect((await run('visudo', ['-cf', sudoersPath])).code).toBe(0);
      }
    });

    it('installs a command line that really applies and removes the limits', async () => {
      const unit = await readFile(join(dirs.SYSTEMD_DIR, 'lni-p2p-firewall.service'), 'utf8');
      const exec = (key: string) => {
        const line = unit.split('\n').find((l) => l.startsWith(`${key}=`));
        if (!line) throw new Error(`unit has no ${key}`);
        return line.slice(key.length + 1).split(' ');
      };
      const [startFile = '', ...startArgs] = exec('ExecStart');
      const [stopFile = '', ...stopArgs] = exec('ExecStop');
      await inServer(startFile, ...startArgs);
      expect(await inServer('iptables', '-S', 'INPUT')).toContain('--dport 4100 -j LNI-P2P');
      await inServer(stopFile, ...stopArgs);
      expect(await rules()).toBe(pristine);
    });

    it('refuses a script directory other users could write to', async () => {
      const loose = join(dirs.SBIN_DIR, '..', 'loose');
      await must('mkdir', ['-p', loose]);
      await chmod(loose, 0o777);
      const result = await run(SCRIPT, ['--user', 'nobody', 'install-boot'], {
        ...dirs,
        SBIN_DIR: loose,
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('writable only by root');
    });

    it('refuses a user that does not exist', async () => {
      const result = await run(SCRIPT, ['--user', 'no-such-lni-user', 'install-boot'], dirs);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("P2P_USER 'no-such-lni-user' does not exist");
    });

    it('uninstall-boot removes what install-boot wrote, and is harmless when repeated', async () => {
      expect((await run(SCRIPT, ['uninstall-boot'], dirs)).code).toBe(0);
      for (const path of [
        join(dirs.SYSTEMD_DIR, 'lni-p2p-firewall.service'),
        join(dirs.SUDOERS_DIR, 'lni-p2p-firewall'),
        join(dirs.SBIN_DIR, 'lni-p2p-firewall'),
      ]) {
        await expect(stat(path)).rejects.toMatchObject({ code: 'ENOENT' });
      }
      expect((await run(SCRIPT, ['uninstall-boot'], dirs)).code).toBe(0);
    });
  });
});
