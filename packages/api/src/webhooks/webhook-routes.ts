import Boom from '@hapi/boom';
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import type { Service } from '@lni/database';
import { AddressRanges } from '@lni/kernel';
import type { ClientAddress } from '../clients/client-address.js';
import type { Webhook, WebhookStorage } from './storage/webhook-storage.js';
import Joi from 'joi';
import { randomBytes, randomUUID } from 'node:crypto';
import { pageOf } from '../pagination/envelope.js';
import {
  indexQueryRule,
  toResourceQuery,
  type IndexQueryDefinition,
} from '../query/index-query.js';
import { patternProblem } from './condition-pattern.js';
import { CONDITION_OPERATORS } from './conditions.js';
import { WEBHOOK_EVENTS } from './webhook-event-data.js';

export interface WebhookRouteSources {
  readonly storage: () => Service<WebhookStorage>;
  /** IPs allowed to manage webhooks (exact addresses). */
  readonly whitelist: readonly string[];
  /** Who a request comes from, behind trusted proxies. */
  readonly clientAddress: ClientAddress;
  /** After a change, so that events see it. */
  readonly changed: () => Promise<void>;
}

const conditionSchema = Joi.object({
  key: Joi.string().max(200).required(),
  condition: Joi.string()
    .valid(...CONDITION_OPERATORS)
    .required(),
  value: Joi.any(),
}).custom((condition: { condition: string; value: unknown }, helpers) => {
  if (condition.condition !== 'regexp') return condition;
  const problem = patternProblem(String(condition.value));
  if (problem === undefined) return condition;
  return helpers.message({
    custom: `"value" is not a pattern RE2 takes (no backreferences nor lookaround): ${problem}`,
  });
});

const webhookSchema = Joi.object({
  event: Joi.string()
    .valid(...WEBHOOK_EVENTS)
    .required(),
  target: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .required(),
  enabled: Joi.boolean().default(true),
  conditions: Joi.array().items(conditionSchema).max(50).default([]),
});

const idParams = Joi.object({ id: Joi.string().guid().required() });

/** Deliveries page by page, newest first: no field to filter or order on. */
const deliveryIndex: IndexQueryDefinition = { catalog: {}, defaultOrder: [] };

/** A webhook as the API shows it: never its secret after creation. */
function webhookResource(webhook: Webhook) {
  return {
    id: webhook.id,
    event: webhook.event,
    target: webhook.target,
    enabled: webhook.enabled,
    conditions: webhook.conditions,
    createdAt: new Date(webhook.createdAt).toISOString(),
    failingSince:
      webhook.failingSince === null ? null : new Date(webhook.failingSince).toISOString(),
    disabledReason: webhook.disabledReason,
  };
}

/** GET/POST /api/webhooks, GET/PUT/DELETE /api/webhooks/{id}, GET /api/webhooks/{id}/deliveries. */
export function webhookRoutes(sources: WebhookRouteSources): ServerRoute[] {
  const allowed = new AddressRanges(sources.whitelist);
  const onlyWhitelisted = {
    onPreAuth: {
      method: (request: Request, h: ResponseToolkit) => {
        const ip = sources.clientAddress.ofRequest(request);
        if (!allowed.has(ip)) {
          throw Boom.forbidden(`${ip} is not in the API plugin's webhooks.whitelist`);
        }
        return h.continue;
      },
    },
  };
  const found = async (id: string): Promise<Webhook> => {
    const webhook = await sources.storage().get(id);
    if (!webhook) throw Boom.notFound(`webhook ${id} not found`);
    return webhook;
  };
  const tags = ['api', 'webhooks'];
  return [
    {
      method: 'GET',
      path: '/api/webhooks',
      options: {
        description: 'Every webhook (without secrets)',
        tags,
        ext: onlyWhitelisted,
        handler: async () => {
          const webhooks = await sources.storage().list();
          return { data: webhooks.map(webhookResource) };
        },
      },
    },
    {
      method: 'POST',
      path: '/api/webhooks',
      options: {
        description:
          'Creates a webhook; the answer carries its token (ARK’s) and its signing secret, shown only this once',
        tags,
        ext: onlyWhitelisted,
        validate: { payload: webhookSchema },
        handler: async (request, h) => {
          const input = request.payload as Pick<
            Webhook,
            'event' | 'target' | 'enabled' | 'conditions'
          >;
          // As ARK: the whole token is shown once; its first half is kept and sent as
          // Authorization, the second half lets the receiver tell the token is theirs.
          const token = randomBytes(32).toString('hex');
          const webhook: Webhook = {
            id: randomUUID(),
            ...input,
            secret: randomBytes(32).toString('hex'),
            token: token.slice(0, 32),
            createdAt: Date.now(),
            failingSince: null,
            disabledReason: null,
          };
          await sources.storage().insert(webhook);
          await sources.changed();
          return h
            .response({ data: { ...webhookResource(webhook), token, secret: webhook.secret } })
            .code(201);
        },
      },
    },
    {
      method: 'GET',
      path: '/api/webhooks/{id}',
      options: {
        description: 'A webhook, and why it was disabled if it was',
        tags,
        ext: onlyWhitelisted,
        validate: { params: idParams },
        handler: async (request) => ({
          data: webhookResource(await found(request.params.id as string)),
        }),
      },
    },
    {
      method: 'PUT',
      path: '/api/webhooks/{id}',
      options: {
        description:
          'Replaces a webhook’s event, target, enabled and conditions (enabling clears a disablement)',
        tags,
        ext: onlyWhitelisted,
        validate: { params: idParams, payload: webhookSchema },
        handler: async (request) => {
          const input = request.payload as Pick<
            Webhook,
            'event' | 'target' | 'enabled' | 'conditions'
          >;
          const webhook = await sources.storage().update(request.params.id as string, input);
          if (!webhook) throw Boom.notFound(`webhook ${request.params.id as string} not found`);
          await sources.changed();
          return { data: webhookResource(webhook) };
        },
      },
    },
    {
      method: 'DELETE',
      path: '/api/webhooks/{id}',
      options: {
        description: 'Deletes a webhook and its deliveries',
        tags,
        ext: onlyWhitelisted,
        validate: { params: idParams },
        handler: async (request, h) => {
          if (!(await sources.storage().delete(request.params.id as string))) {
            throw Boom.notFound(`webhook ${request.params.id as string} not found`);
          }
          await sources.changed();
          return h.response().code(204);
        },
      },
    },
    {
      method: 'GET',
      path: '/api/webhooks/{id}/deliveries',
      options: {
        description:
          'A webhook’s deliveries, newest first, each with its attempts (time, status, error)',
        tags,
        ext: onlyWhitelisted,
        validate: { params: idParams, query: indexQueryRule(deliveryIndex) },
        handler: async (request) => {
          const webhook = await found(request.params.id as string);
          const query = toResourceQuery(request.query, deliveryIndex);
          const { deliveries, totalCount } = await sources
            .storage()
            .deliveries(webhook.id, { offset: query.offset, limit: query.limit });
          return pageOf(
            deliveries.map((delivery) => ({
              id: delivery.id,
              event: (JSON.parse(delivery.body) as { event: string }).event,
              status: delivery.status,
              createdAt: new Date(delivery.createdAt).toISOString(),
              ...(delivery.status === 'pending' && {
                nextAttemptAt: new Date(delivery.nextAttemptAt).toISOString(),
              }),
              attempts: delivery.attemptLog.map((attempt) => ({
                attempt: attempt.attempt,
                at: new Date(attempt.at).toISOString(),
                statusCode: attempt.statusCode,
                error: attempt.error,
              })),
            })),
            totalCount,
            query,
            request.path,
            request.url.searchParams,
          );
        },
      },
    },
  ];
}
