import { loadNetworkConfig, Milestones, SlotClock } from '@lni/crypto';
import type { CommandContext, PluginCommand } from '@lni/kernel';
import type { CurrentRoundReply } from '@lni/p2p/wire';
import { join, resolve } from 'node:path';
import { readDelegateKeys } from '../delegates/delegate-secrets.js';
import { promptPassword } from '../delegates/password-prompt.js';
import { exportGuardState, importGuardState } from '../guard/guard-state-transfer.js';
import { SigningRecord, signingRecordPath } from '../guard/signing-record.js';
import { RelayClient } from '../relay/relay-client.js';
import { parseRelayAddress, type RelayAddress } from '../relay/relay-address.js';
import { delegateStatuses, statusLines } from './forger-status.js';

/** The options the commands read; the plugin's own type, kept apart to avoid an import cycle. */
interface CommandOptions {
  readonly relays?: readonly string[];
  readonly relayPort: number;
  readonly password?: string;
  readonly requestTimeoutMs: number;
}

type Context = CommandContext<CommandOptions>;

const status: PluginCommand<CommandOptions> = {
  name: 'status',
  description:
    "Per delegate of delegates.json: registered, rank, next slot, last forged, missed this round and the double-sign guard's record",
  async run(context) {
    const { paths, options, print } = context;
    const config = loadNetworkConfig(join(paths.config, 'crypto'));
    const milestones = new Milestones(config.milestones);
    const clock = new SlotClock(milestones);
    const keys = await readDelegateKeys(join(paths.config, 'delegates.json'), {
      password: async () => options.password ?? promptPassword(),
    });
    const record = new SigningRecord(signingRecordPath(paths.data));
    const round = await askRelay(context, clock);
    const height = round?.lastBlock.height ?? 1;
    const statuses = delegateStatuses({
      publicKeys: keys.map((pair) => pair.publicKey.toString('hex')),
      marks: record.entries(),
      ...(round && { round }),
      blockTime: milestones.at(height).blocktime,
      toDate: (epochSeconds) => new Date(clock.unixMs(epochSeconds)),
    });
    if (round) print(`relay height ${round.lastBlock.height}, round ${round.current}`);
    for (const line of statusLines(statuses)) print(line);
    if (statuses.length === 0) print('delegates.json holds no secrets');
  },
};

const exportCommand: PluginCommand<CommandOptions> = {
  name: 'export',
  description:
    "Writes the double-sign guard's record to FILE, to move this forger to another machine",
  arguments: [{ name: 'file', description: 'where to write it' }],
  run({ paths, args, print }) {
    const file = resolve(String(args.file));
    const count = exportGuardState(new SigningRecord(signingRecordPath(paths.data)), file);
    print(`wrote the signing record of ${count} delegate(s) to ${file}`);
  },
};

const importCommand: PluginCommand<CommandOptions> = {
  name: 'import',
  description:
    'Takes a record written by forger:export; per delegate the higher mark is kept, never an older one',
  arguments: [{ name: 'file', description: 'a file written by forger:export' }],
  run({ paths, args, print }) {
    const file = resolve(String(args.file));
    const record = new SigningRecord(signingRecordPath(paths.data));
    const { advanced, kept } = importGuardState(record, file);
    print(
      `imported ${file}: ${advanced.length} delegate(s) moved forward, ${kept} already at or above it here`,
    );
  },
};

export const forgerCommands: readonly PluginCommand<CommandOptions>[] = [
  status,
  exportCommand,
  importCommand,
];

/** The first relay's round, or undefined (said on a line) when none answers. */
async function askRelay(
  context: Context,
  clock: SlotClock,
): Promise<CurrentRoundReply | undefined> {
  const { options, logger, print } = context;
  const addresses: RelayAddress[] = options.relays
    ? options.relays.map((text) => parseRelayAddress(text) as RelayAddress)
    : [{ host: '127.0.0.1', port: options.relayPort }];
  for (const address of addresses) {
    const relay = new RelayClient({ address, clock, timeoutMs: options.requestTimeoutMs, logger });
    try {
      return await relay.roundReply();
    } catch (error) {
      print(`relay ${relay.name} did not answer: ${(error as Error).message}`);
    } finally {
      relay.disconnect();
    }
  }
  return undefined;
}
