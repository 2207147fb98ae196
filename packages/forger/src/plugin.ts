import { asValue } from 'awilix';
import {
  deserializeTransaction,
  forgeBlock,
  loadNetworkConfig,
  Milestones,
  serializeBlock,
  SlotClock,
  type KeyPair,
} from '@lni/crypto';
import { definePlugin, type Cradle } from '@lni/kernel';
import type { AwilixContainer } from 'awilix';
import Joi from 'joi';
import { join } from 'node:path';
import { readDelegateKeys } from './delegates/delegate-secrets.js';
import { checkDelegatesFile } from './delegates/delegates-file.js';
import { forgerCommands } from './commands/forger-commands.js';
import { forgingSection } from './admin/forging-section.js';
import { createDoubleSignGuard } from './guard/create-guard.js';
import { promptPassword } from './delegates/password-prompt.js';
import type { BlockAssembler } from './forging/block-assembler.js';
import { ForgerService } from './forging/forger-service.js';
import { parseRelayAddress, relaysOptionSchema, type RelayAddress } from './relay/relay-address.js';
import { relayRoundTrips } from './metrics/relay-metrics.js';
import { RelayClient } from './relay/relay-client.js';
import { relayHealthCheck } from './relay/relay-health-check.js';
import '@lni/p2p/contracts';
import '@lni/state/contracts';

export interface ForgerOptions {
  /**
   * Relays to follow and post to, `host:port`, the first that answers leads. Unset: the node's
   * own P2P server in core mode, else 127.0.0.1 on `relayPort`.
   */
  readonly relays?: readonly string[];
  /** The P2P port of the default relay in forger mode (CORE_P2P_PORT, as ARK operators set). */
  readonly relayPort: number;
  /** Smallest share of the relay's peers that must agree with its last block. */
  readonly minimumQuorum: number;
  /** Forge although the relay has no peers (a development network with one node). */
  readonly allowSingleNode: boolean;
  /** Password of the BIP38 secret in delegates.json. */
  readonly password?: string;
  readonly requestTimeoutMs: number;
  /** Milliseconds after start before the first block, besides the relay being level. */
  readonly startupWait: number;
}

export const forgerConfigSchema = Joi.object<ForgerOptions>({
  relays: relaysOptionSchema,
  minimumQuorum: Joi.number().min(0).max(1).default(0.66),
  allowSingleNode: Joi.boolean().default(false),
  password: Joi.string().allow(''),
  relayPort: Joi.number().port().default(4000),
  requestTimeoutMs: Joi.number().integer().min(100).default(5_000),
  startupWait: Joi.number().integer().min(0).default(0),
});

export const forgerEnvironment = {
  CORE_FORGER_RELAYS: 'relays',
  CORE_P2P_PORT: 'relayPort',
  CORE_FORGER_PASSWORD: 'password',
  CORE_FORGER_STARTUP_WAIT: 'startupWait',
} as const;

declare module '@lni/kernel' {
  interface Cradle {
    /** The slot loop; registered at boot, once the delegates' keys are read. */
    readonly forger: ForgerService;
  }
}

/** Each node's relays, by its container: several nodes may run in one process (tests). */
const relaysByNode = new WeakMap<AwilixContainer<Cradle>, RelayClient[]>();
/** Each node's slot clock, by its container, for the forging section of `kernel status`. */
const timingByNode = new WeakMap<
  AwilixContainer<Cradle>,
  { readonly clock: SlotClock; readonly milestones: Milestones }
>();

/**
 * The forger plugin: reads the delegates' keys from `<config>/delegates.json`, follows the slots
 * through its relays' internal P2P endpoints, and forges and posts a block in each slot of one
 * of its delegates. The same plugin runs in core mode (relay on loopback) and in forger mode.
 */
export const forgerPlugin = definePlugin<ForgerOptions>({
  name: 'forger',
  // In core mode the relay is this node's own p2p server: let it listen before the first slot;
  // and the ledger says which secrets belong to registered delegates.
  dependsOn: { optional: ['p2p', 'state'] },
  configSchema: forgerConfigSchema,
  environment: forgerEnvironment,
  commands: forgerCommands,
  checkConfig: ({ paths, options }) =>
    checkDelegatesFile(join(paths.config, 'delegates.json'), {
      given: options.password,
      canAsk: process.stdin.isTTY === true,
    }),
  register({ container, name }) {
    // Everything else the forger needs is read at boot: the delegates' file and the network
    // config. Its relays are made then too; the health check sees them once they are.
    const relays: RelayClient[] = [];
    relaysByNode.set(container, relays);
    container.cradle.healthChecks.add(relayHealthCheck(() => relays));
    container.cradle.statusSections.add(
      name,
      forgingSection({
        forger: () => (container.hasRegistration('forger') ? container.cradle.forger : undefined),
        relays: () => relays,
        timing: () => timingByNode.get(container),
      }),
    );
  },
  async boot({ container, options, paths, logger, events }) {
    const config = loadNetworkConfig(join(paths.config, 'crypto'));
    const milestones = new Milestones(config.milestones);
    const clock = new SlotClock(milestones);
    timingByNode.set(container, { clock, milestones });
    const delegates: KeyPair[] = await readDelegateKeys(join(paths.config, 'delegates.json'), {
      // The environment or app.json first; otherwise ask, when started on a terminal.
      password: async () => options.password ?? promptPassword(),
    });
    const observe = relayRoundTrips(container.cradle.metrics);
    const relays = relaysByNode.get(container) ?? [];
    const clients = relayAddresses(container, options).map(
      (address) =>
        new RelayClient({
          address,
          clock,
          timeoutMs: options.requestTimeoutMs,
          logger,
          observe,
        }),
    );
    relays.push(...clients);
    const forger = new ForgerService({
      relays,
      delegates,
      rules: { minimumQuorum: options.minimumQuorum, allowSingleNode: options.allowSingleNode },
      assemble: cryptoBlockAssembler(milestones),
      logger,
      guard: createDoubleSignGuard({
        dataDirectory: paths.data,
        metrics: container.cradle.metrics,
        events,
        logger,
        startupWaitMs: options.startupWait,
      }),
      ...(container.hasRegistration('delegates') && {
        registry: container.cradle.delegates,
        forgedLogLevel: 'debug',
      }),
    });
    container.register({ forger: asValue(forger) });
    if (delegates.length === 0) {
      logger.warn({ file: join(paths.config, 'delegates.json') }, 'No delegates to forge for');
    }
    forger.start();
  },
  async dispose({ container }) {
    if (!container.hasRegistration('forger')) return;
    await container.cradle.forger.stop();
    for (const relay of relaysByNode.get(container) ?? []) relay.disconnect();
  },
});

/**
 * The relays to use: those configured; otherwise, in core mode, this node's own P2P server
 * (whatever port it listens on), and in forger mode 127.0.0.1 on the relay port.
 */
function relayAddresses(
  container: AwilixContainer<Cradle>,
  options: ForgerOptions,
): RelayAddress[] {
  if (options.relays) return options.relays.map((text) => parseRelayAddress(text) as RelayAddress);
  if (container.hasRegistration('p2pListener')) {
    return [{ host: '127.0.0.1', port: container.cradle.p2pListener.port }];
  }
  return [{ host: '127.0.0.1', port: options.relayPort }];
}

/**
 * Builds blocks with @lni/crypto. Each transaction's bytes, as the relay sent them, are decoded
 * from hex once, read once for the totals, and go into the block as they are.
 */
export function cryptoBlockAssembler(milestones: Milestones): BlockAssembler {
  return (template) => {
    const serialized = template.transactions.map((hex) => Buffer.from(hex, 'hex'));
    const block = forgeBlock({
      keys: template.keys,
      previousBlock: template.previousBlock,
      timestamp: template.timestamp,
      reward: template.reward,
      transactions: serialized.map((bytes) => deserializeTransaction(bytes)),
      milestones,
    });
    return {
      id: block.id,
      height: block.height,
      numberOfTransactions: block.numberOfTransactions,
      serialized: serializeBlock(block, serialized, milestones),
    };
  };
}

export default forgerPlugin;
