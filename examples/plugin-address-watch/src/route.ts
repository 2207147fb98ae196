import type { ApiRoutes } from '@lni/api/contracts';
import Joi from 'joi';
import type { SightingStore } from './sighting-store.js';

/** A route as the API takes it (hapi's), without depending on hapi ourselves. */
type ApiRoute = Parameters<ApiRoutes['add']>[number];

/** A base58check address as the network writes them: 34 characters of the base58 alphabet. */
export const addressRule = Joi.string()
  .pattern(/^[1-9A-HJ-NP-Za-km-z]{34}$/)
  .message('"address" must be a 34-character base58 address');

/**
 * `GET /api/address-watch/{address}?page=&limit=`: the sightings of one address, newest first.
 * The API answers a bad address or page with 422 naming the parameter (its failAction).
 */
export function sightingsRoute(store: SightingStore): ApiRoute {
  return {
    method: 'GET',
    path: '/api/address-watch/{address}',
    options: {
      description: 'The transactions the address-watch plugin saw touching an address',
      validate: {
        params: Joi.object({ address: addressRule.required() }),
        query: Joi.object({
          page: Joi.number().integer().min(1).default(1),
          limit: Joi.number().integer().min(1).max(100).default(25),
        }),
      },
    },
    handler: async (request) => {
      const { address } = request.params as { address: string };
      const { page, limit } = request.query as { page: number; limit: number };
      const { sightings, totalCount } = await store.page(address, (page - 1) * limit, limit);
      return {
        meta: { page, limit, totalCount, pageCount: Math.ceil(totalCount / limit) },
        data: sightings.map((sighting) => ({
          transactionId: sighting.transactionId,
          height: sighting.height,
          amount: sighting.amount.toString(),
          direction: sighting.direction,
        })),
      };
    },
  };
}
