import type { DatabaseConnection, EntityManager } from '@lni/database/contracts';

/** A condition on the event's data, as ARK 3's webhooks take it. */
export interface WebhookCondition {
  readonly key: string;
  readonly condition: string;
  readonly value?: unknown;
}

export interface Webhook {
  readonly id: string;
  readonly event: string;
  readonly target: string;
  readonly enabled: boolean;
  readonly conditions: readonly WebhookCondition[];
  /** HMAC key of the signature; shown to the client once, at creation. */
  readonly secret: string;
  /**
   * The first half of the token shown once at creation, sent as `Authorization` as ARK 3 sends
   * it; null for a webhook made before tokens.
   */
  readonly token: string | null;
  readonly createdAt: number;
  /** Since when every attempt to reach the target failed (Unix ms); null while it answers. */
  readonly failingSince: number | null;
  /** Why the node disabled it (a target failing for too long); null otherwise. */
  readonly disabledReason: string | null;
}

/**
 * `conditional`: written with its event, its webhook's conditions not yet tested (the sender
 * tests them after the commit); then `pending` (to send) or `dropped` (they did not hold, or
 * could not be tested: never sent); `delivered` once the target answered 2xx.
 */
export type DeliveryStatus = 'conditional' | 'pending' | 'delivered' | 'dropped';

export interface WebhookDelivery {
  readonly id: string;
  readonly webhookId: string;
  /** The exact JSON sent, signed as it is. */
  readonly body: string;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  readonly nextAttemptAt: number;
  readonly createdAt: number;
}

export interface WebhookAttempt {
  readonly attempt: number;
  readonly at: number;
  readonly statusCode: number | null;
  readonly error: string | null;
}

interface WebhookRow {
  id: string;
  event: string;
  target: string;
  enabled: boolean;
  conditions: WebhookCondition[];
  secret: string;
  token: string | null;
  created_at: string;
  failing_since: string | null;
  disabled_reason: string | null;
}

interface DeliveryRow {
  id: string;
  webhook_id: string;
  body: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: string;
  created_at: string;
}

const toWebhook = (row: WebhookRow): Webhook => ({
  id: row.id,
  event: row.event,
  target: row.target,
  enabled: row.enabled,
  conditions: row.conditions,
  secret: row.secret,
  token: row.token,
  createdAt: Number(row.created_at),
  failingSince: row.failing_since === null ? null : Number(row.failing_since),
  disabledReason: row.disabled_reason,
});

const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  webhookId: row.webhook_id,
  body: row.body,
  status: row.status,
  attempts: row.attempts,
  nextAttemptAt: Number(row.next_attempt_at),
  createdAt: Number(row.created_at),
});

/** Webhooks, their pending and past deliveries, and each delivery's attempts. */
export class WebhookStorage {
  private readonly database: DatabaseConnection;

  constructor({ database }: { readonly database: DatabaseConnection }) {
    this.database = database;
  }

  async insert(webhook: Webhook): Promise<void> {
    await this.database.manager.query(
      `INSERT INTO webhooks (id, event, target, enabled, conditions, secret, token, created_at, failing_since, disabled_reason)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        webhook.id,
        webhook.event,
        webhook.target,
        webhook.enabled,
        JSON.stringify(webhook.conditions),
        webhook.secret,
        webhook.token,
        webhook.createdAt,
        webhook.failingSince,
        webhook.disabledReason,
      ],
    );
  }

  /** Replaces the editable fields; enabling a webhook clears why it was disabled. */
  async update(
    id: string,
    change: Pick<Webhook, 'event' | 'target' | 'enabled' | 'conditions'>,
  ): Promise<Webhook | undefined> {
    const rows = (await this.database.manager.query(
      `UPDATE webhooks SET event = $2, target = $3, enabled = $4, conditions = $5,
         disabled_reason = CASE WHEN $4 THEN NULL ELSE disabled_reason END,
         failing_since = CASE WHEN $4 THEN NULL ELSE failing_since END
       WHERE id = $1 RETURNING *`,
      [id, change.event, change.target, change.enabled, JSON.stringify(change.conditions)],
    )) as [WebhookRow[], number];
    const row = rows[0]?.[0];
    return row && toWebhook(row);
  }

  async delete(id: string): Promise<boolean> {
    const [, count] = (await this.database.manager.query('DELETE FROM webhooks WHERE id = $1', [
      id,
    ])) as [unknown, number];
    return count > 0;
  }

  async get(id: string): Promise<Webhook | undefined> {
    const rows = (await this.database.manager.query('SELECT * FROM webhooks WHERE id = $1', [
      id,
    ])) as WebhookRow[];
    return rows[0] && toWebhook(rows[0]);
  }

  async list(): Promise<Webhook[]> {
    const rows = (await this.database.manager.query(
      'SELECT * FROM webhooks ORDER BY created_at, id',
    )) as WebhookRow[];
    return rows.map(toWebhook);
  }

  /** Stores deliveries to send; with `manager`, in that transaction (a block's, as an outbox). */
  async enqueue(
    deliveries: readonly WebhookDelivery[],
    manager: EntityManager = this.database.manager,
  ): Promise<void> {
    if (deliveries.length === 0) return;
    await manager.query(
      `INSERT INTO webhook_deliveries (id, webhook_id, body, status, attempts, next_attempt_at, created_at)
       SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::text[], $4::varchar[], $5::int[], $6::bigint[], $7::bigint[])`,
      [
        deliveries.map((d) => d.id),
        deliveries.map((d) => d.webhookId),
        deliveries.map((d) => d.body),
        deliveries.map((d) => d.status),
        deliveries.map((d) => d.attempts),
        deliveries.map((d) => d.nextAttemptAt),
        deliveries.map((d) => d.createdAt),
      ],
    );
  }

  /** Deliveries whose webhook's conditions are still to be tested, oldest first. */
  async conditional(limit: number): Promise<WebhookDelivery[]> {
    const rows = (await this.database.manager.query(
      `SELECT * FROM webhook_deliveries WHERE status = 'conditional'
       ORDER BY created_at, id LIMIT $1`,
      [limit],
    )) as DeliveryRow[];
    return rows.map(toDelivery);
  }

  /**
   * Settles conditional deliveries: those of `held` become pending (to send), those of
   * `dropped` are kept as dropped, never sent. A delivery settled already is left as it is.
   */
  async settleConditions(held: readonly string[], dropped: readonly string[]): Promise<void> {
    await this.database.manager.query(
      `UPDATE webhook_deliveries
       SET status = CASE WHEN id = ANY($1::varchar[]) THEN 'pending' ELSE 'dropped' END
       WHERE status = 'conditional' AND (id = ANY($1::varchar[]) OR id = ANY($2::varchar[]))`,
      [held, dropped],
    );
  }

  /** Pending deliveries of enabled webhooks whose next attempt is due, oldest first. */
  async due(now: number, limit: number): Promise<WebhookDelivery[]> {
    const rows = (await this.database.manager.query(
      `SELECT d.* FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
       WHERE d.status = 'pending' AND d.next_attempt_at <= $1 AND w.enabled
       ORDER BY d.next_attempt_at, d.created_at LIMIT $2`,
      [now, limit],
    )) as DeliveryRow[];
    return rows.map(toDelivery);
  }

  /** Records an attempt and its outcome in one transaction. */
  async recordAttempt(
    delivery: WebhookDelivery,
    attempt: WebhookAttempt,
    outcome:
      { readonly delivered: true } | { readonly delivered: false; readonly nextAttemptAt: number },
  ): Promise<void> {
    await this.database.transaction(async (manager) => {
      await manager.query(
        `INSERT INTO webhook_attempts (delivery_id, attempt, at, status_code, error)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
        [delivery.id, attempt.attempt, attempt.at, attempt.statusCode, attempt.error],
      );
      await manager.query(
        `UPDATE webhook_deliveries SET attempts = $2, status = $3, next_attempt_at = $4 WHERE id = $1`,
        [
          delivery.id,
          attempt.attempt,
          outcome.delivered ? 'delivered' : 'pending',
          outcome.delivered ? delivery.nextAttemptAt : outcome.nextAttemptAt,
        ],
      );
      await manager.query(
        outcome.delivered
          ? 'UPDATE webhooks SET failing_since = NULL WHERE id = $1'
          : 'UPDATE webhooks SET failing_since = COALESCE(failing_since, $2) WHERE id = $1',
        outcome.delivered ? [delivery.webhookId] : [delivery.webhookId, attempt.at],
      );
    });
  }

  /** Disables the webhooks whose target has failed since before `before`; returns them. */
  async disableFailingSince(before: number, reason: (since: number) => string): Promise<Webhook[]> {
    const failing = (await this.database.manager.query(
      'SELECT * FROM webhooks WHERE enabled AND failing_since IS NOT NULL AND failing_since <= $1',
      [before],
    )) as WebhookRow[];
    for (const row of failing) {
      await this.database.manager.query(
        'UPDATE webhooks SET enabled = false, disabled_reason = $2 WHERE id = $1',
        [row.id, reason(Number(row.failing_since))],
      );
    }
    return failing.map(toWebhook);
  }

  /**
   * A webhook's deliveries to send or sent (pending, delivered), newest first, each with its
   * attempts, and how many there are; conditional and dropped ones are not listed.
   */
  async deliveries(
    webhookId: string,
    page: { readonly offset: number; readonly limit: number },
  ): Promise<{
    readonly deliveries: (WebhookDelivery & { readonly attemptLog: WebhookAttempt[] })[];
    readonly totalCount: number;
  }> {
    const { manager } = this.database;
    const rows = (await manager.query(
      `SELECT * FROM webhook_deliveries WHERE webhook_id = $1 AND status IN ('pending', 'delivered')
       ORDER BY created_at DESC, id OFFSET $2 LIMIT $3`,
      [webhookId, page.offset, page.limit],
    )) as DeliveryRow[];
    const total = (await manager.query(
      `SELECT count(*)::int AS n FROM webhook_deliveries
       WHERE webhook_id = $1 AND status IN ('pending', 'delivered')`,
      [webhookId],
    )) as { n: number }[];
    const attempts = (await manager.query(
      `SELECT delivery_id, attempt, at, status_code, error FROM webhook_attempts
       WHERE delivery_id = ANY($1::varchar[]) ORDER BY attempt`,
      [rows.map((row) => row.id)],
    )) as {
      delivery_id: string;
      attempt: number;
      at: string;
      status_code: number | null;
      error: string | null;
    }[];
    return {
      deliveries: rows.map((row) => ({
        ...toDelivery(row),
        attemptLog: attempts
          .filter((attempt) => attempt.delivery_id === row.id)
          .map((attempt) => ({
            attempt: attempt.attempt,
            at: Number(attempt.at),
            statusCode: attempt.status_code,
            error: attempt.error,
          })),
      })),
      totalCount: total[0]?.n ?? 0,
    };
  }
}
