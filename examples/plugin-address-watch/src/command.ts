import type { PluginCommand } from '@lni/kernel';

interface SightingsAnswer {
  readonly meta: { readonly totalCount: number };
  readonly data: readonly {
    transactionId: string;
    height: number;
    amount: string;
    direction: 'in' | 'out';
  }[];
}

/**
 * `kernel address-watch:sightings <address> [--api URL] [--limit N]`. It asks the running node's
 * API rather than opening the database: the route is the one reader of the table, the command
 * works against a remote node, and it does not open a second connection pool to a node's
 * database (nor start the embedded one, which the running node holds).
 */
export const sightingsCommand: PluginCommand = {
  name: 'sightings',
  description: 'print the transactions a running node saw touching a watched address',
  arguments: [{ name: 'address', description: 'the watched address' }],
  options: [
    { name: 'api', value: 'url', default: 'http://127.0.0.1:4003' },
    { name: 'limit', value: 'n', default: '25' },
  ],
  async run({ args, flags, print }) {
    const url = `${flags.api}/api/address-watch/${encodeURIComponent(String(args.address))}?limit=${flags.limit}`;
    const response = await fetch(url);
    if (!response.ok) {
      throw new Error(`${flags.api} answered ${response.status}: ${await response.text()}`);
    }
    const { meta, data } = (await response.json()) as SightingsAnswer;
    if (data.length === 0) print('no sightings');
    for (const sighting of data) {
      print(
        `height ${sighting.height} ${sighting.direction} ${sighting.amount} ${sighting.transactionId}`,
      );
    }
    if (meta.totalCount > data.length) print(`(${data.length} of ${meta.totalCount})`);
  },
};
