import Boom from '@hapi/boom';
import type { ServerRoute } from '@hapi/hapi';
import type { RoundStorage, Service } from '@lni/database';
import Joi from 'joi';

/** GET /api/rounds/{round}/delegates: the delegates of a round and the votes that elected them. */
export function roundRoutes(rounds: () => Service<RoundStorage>): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/api/rounds/{round}/delegates',
      options: {
        description: 'The active delegates of a round with their vote balances',
        tags: ['api', 'rounds'],
        validate: {
          params: Joi.object({
            round: Joi.number()
              .integer()
              .min(1)
              .max(2 ** 31)
              .required(),
          }),
        },
        handler: async (request) => {
          const round = request.params.round as number;
          const delegates = await rounds().getRound(round);
          if (delegates.length === 0) throw Boom.notFound(`round ${round} not found`);
          return {
            data: delegates.map(({ publicKey, balance }) => ({
              publicKey,
              votes: balance.toString(),
            })),
          };
        },
      },
    },
  ];
}
