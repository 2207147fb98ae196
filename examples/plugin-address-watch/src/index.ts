import type {} from '@lni/api/contracts';
import type {} from '@lni/database/contracts';
import type {} from '@lni/state/contracts';
import { asValue } from 'awilix';
import { Counter, definePlugin } from '@lni/kernel';
import { sightingsCommand } from './command.js';
import { AddressWatchSightings1765000000000 } from './migration.js';
import { environment, optionsSchema, type AddressWatchOptions } from './options.js';
import { sightingsRoute } from './route.js';
import { SightingStore } from './sighting-store.js';
import { AddressWatcher } from './watcher.js';

export type { AddressWatchOptions } from './options.js';
export type { Direction, Sighting } from './sightings.js';
export { AddressWatcher } from './watcher.js';

// The plugin owns its service's name and type; the kernel refuses a name another plugin owns.
declare module '@lni/kernel' {
  interface Cradle {
    readonly addressWatch: AddressWatcher;
  }
}

/**
 * The composition root: reads the other plugins' services through their contracts and wires
 * the watcher, its table, route, health check, metric and command.
 */
export const addressWatchPlugin = definePlugin<AddressWatchOptions>({
  name: 'address-watch',
  // Not required: `kernel address-watch:sightings` asks the node's API, and a command boots
  // the plugins its plugin requires. Without them in the mode, the plugin watches nothing.
  dependsOn: { optional: ['database', 'state', 'api'] },
  configSchema: optionsSchema,
  environment,
  register({ container, options, enabledPlugins, logger }) {
    if (!enabledPlugins.has('database') || !enabledPlugins.has('state')) {
      logger.info('Watching nothing: this mode runs no database and state');
      return;
    }
    const { schemaRegistry, metrics, healthChecks } = container.cradle;
    schemaRegistry.add('address-watch', { migrations: [AddressWatchSightings1765000000000] });
    // Resolved when used: the connection opens when `database` boots, after this register.
    const store = new SightingStore(() => container.cradle.database.manager);

    const sightings = new Counter({
      name: 'address_watch_sightings_total',
      help: 'Transactions seen touching a watched address, by direction',
      labelNames: ['direction'],
      registers: [metrics],
    });
    const watcher = new AddressWatcher(new Set(options.addresses), store, (sighting) =>
      sightings.inc({ direction: sighting.direction }),
    );
    container.register({ addressWatch: asValue(watcher) });
    // Joined before state boots, so that the genesis block it stores at its first boot counts.
    watcher.follow(container.cradle.blockCommit);

    healthChecks.add({
      name: 'address-watch',
      run: async () => ({
        watched: watcher.watched.size,
        lastHeightSeen: watcher.lastHeightSeen ?? null,
      }),
    });
    if (enabledPlugins.has('api')) container.cradle.apiRoutes.add(sightingsRoute(store));
    logger.debug({ addresses: options.addresses }, 'Watching addresses');
  },
  async dispose({ container }) {
    if (container.hasRegistration('addressWatch')) container.cradle.addressWatch.stop();
  },
  commands: [sightingsCommand],
});

export default addressWatchPlugin;
