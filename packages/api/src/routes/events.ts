import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import type { CatchUp } from '../live/catch-up.js';

/**
 * GET /api/events?channel=…&since=…: what a subscription delivered above a height, for a
 * client that reconnects (see CatchUp). Computed per request: it reads the chain and the tip.
 */
export function eventRoutes(catchUp: () => CatchUp): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/api/events',
      options: {
        description:
          'Replays a live channel above a height (at most 100 messages; ask again from meta.until until meta.complete)',
        tags: ['api', 'events'],
        validate: {
          query: Joi.object({
            channel: Joi.string()
              .max(200)
              .required()
              .description(
                '/events/block.applied, /events/transaction.applied or /wallets/{address}/transactions',
              ),
            since: Joi.number()
              .integer()
              .min(0)
              .max(2 ** 32 - 1)
              .required()
              .description('the last height the client saw on the channel'),
          }),
        },
        handler: (request) => {
          const { channel, since } = request.query as { channel: string; since: number };
          return catchUp().since(channel, since);
        },
      },
    },
  ];
}
