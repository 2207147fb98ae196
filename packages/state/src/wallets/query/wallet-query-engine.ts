import { WalletQueryError } from '../errors.js';
import { compareKeys, MISSING } from '../field-index.js';
import { compareAddresses, walletField, type WalletField } from '../fields.js';
import type { Wallet } from '../wallet.js';
import type { WalletStore } from '../wallet-store.js';
import { compileCondition, type CompiledCondition } from './compiled-condition.js';
import { DELEGATE_VIEW_FIELDS } from './delegate-fields.js';
import { countMatches, IndexScans } from './index-scans.js';
import type { WalletPage, WalletQuery, WalletScope } from './wallet-query.js';
import {
  cursorOf,
  firstIndex,
  isBeyond,
  parseCursor,
  type CursorPosition,
  type OrderKey,
} from './wallet-cursor.js';

export const DEFAULT_LIMIT = 100;
/**
 * Wallets an exact total may visit before it is estimated instead (a few milliseconds of the
 * thread that also applies blocks): totals from index ranks need no visits and stay exact.
 */
export const WALLET_COUNT_BUDGET = 20_000;

/** The query engine as plugins see it (an interface, for the same reason as WalletStore). */
export interface WalletQueries {
  wallets(query: WalletQuery): WalletPage;
  delegates(query: WalletQuery): WalletPage;
  /** About how many wallets answering the query would visit. */
  visits(scope: WalletScope, query: WalletQuery): number;
  /** The page, when answering costs at most `maxVisits` visits; undefined when it would not. */
  answerWithin(scope: WalletScope, query: WalletQuery, maxVisits: number): WalletPage | undefined;
}

export type QueryStrategy = 'cost' | 'walk' | 'sort';

interface Plan {
  readonly scope: WalletScope;
  readonly conditions: readonly CompiledCondition[];
  readonly keys: readonly OrderKey[];
  readonly offset: number;
  readonly limit: number;
  /** The position the page starts after: a key per order field, then the address. */
  readonly after?: CursorPosition;
}

/**
 * Answers the wallet and delegate index endpoints from the repository's sorted indexes. It either
 * walks the index of the first order field, testing each wallet, or enumerates the most
 * selective condition's index range and sorts that, whichever its cost estimate finds cheaper;
 * a single-field filter is counted from index ranks. Neither path visits every wallet unless
 * the query really matches most of them.
 */
export class WalletQueryEngine implements WalletQueries {
  readonly #repository: WalletStore;
  readonly #scans: IndexScans;
  readonly #strategy: QueryStrategy;
  readonly #countBudget: number;

  constructor({
    walletRepository,
    queryStrategy = 'cost',
    countBudget = WALLET_COUNT_BUDGET,
  }: {
    walletRepository: WalletStore;
    /** `walk` or `sort` force one path (tests compare both); `cost` picks the cheaper. */
    queryStrategy?: QueryStrategy;
    /** See WALLET_COUNT_BUDGET (tests lower it). */
    countBudget?: number;
  }) {
    this.#repository = walletRepository;
    this.#scans = new IndexScans(walletRepository);
    this.#strategy = queryStrategy;
    this.#countBudget = countBudget;
  }

  /** Wallets, with fields named by their wallet path (`attributes.delegate.username`). */
  wallets(query: WalletQuery): WalletPage {
    return this.#run(this.#plan(query, 'wallets', walletPath));
  }

  /** Delegates, with fields named as in the delegate resource (`votes`, `blocks.produced`). */
  delegates(query: WalletQuery): WalletPage {
    return this.#run(this.#plan(query, 'delegates', delegatePath));
  }

  #plan(
    query: WalletQuery,
    scope: WalletScope,
    resolve: (name: string) => WalletField | undefined,
  ): Plan {
    const fieldOf = (name: unknown, parameter: string): WalletField => {
      const field = typeof name === 'string' ? resolve(name) : undefined;
      if (!field) {
        throw new WalletQueryError(
          `${parameter}: '${String(name)}' is not a field of ${scope}`,
          parameter,
        );
      }
      return field;
    };
    const offset = query.offset ?? 0;
    const limit = query.limit ?? DEFAULT_LIMIT;
    if (!Number.isSafeInteger(offset) || offset < 0) {
      throw new WalletQueryError('offset: expected a non-negative integer', 'offset');
    }
    if (!Number.isSafeInteger(limit) || limit < 0) {
      throw new WalletQueryError('limit: expected a non-negative integer', 'limit');
    }
    const conditions = (query.conditions ?? []).map((condition) => {
      const field = fieldOf(condition.field, String(condition.field));
      return compileCondition(condition, field, this.#repository.index(field), condition.field);
    });
    const keys = (query.orderBy ?? []).map((ordering) => {
      if (ordering.direction !== 'asc' && ordering.direction !== 'desc') {
        throw new WalletQueryError(
          `orderBy: direction of '${ordering.field}' must be asc or desc`,
          'orderBy',
        );
      }
      return {
        field: fieldOf(ordering.field, 'orderBy'),
        descending: ordering.direction === 'desc',
      };
    });
    if (keys.length === 0)
      keys.push({ field: walletField('address') as WalletField, descending: false });
    if (query.after === undefined) return { scope, conditions, keys, offset, limit };
    return { scope, conditions, keys, offset: 0, limit, after: parseCursor(query.after, keys) };
  }

  /**
   * About how many wallets answering the query would visit: what decides whether it may run on
   * the thread that applies blocks (see CostRoutedWalletQueries). Throws as the query would.
   */
  visits(scope: WalletScope, query: WalletQuery): number {
    return visitsOf(this.#costs(this.#plan(query, scope, pathsOf(scope))));
  }

  /**
   * The page when answering the query costs at most `maxVisits` wallet visits, by the same
   * estimate as `visits`; undefined when it would cost more (nothing is run). One plan serves
   * both the estimate and the answer.
   */
  answerWithin(scope: WalletScope, query: WalletQuery, maxVisits: number): WalletPage | undefined {
    const plan = this.#plan(query, scope, pathsOf(scope));
    const costs = this.#costs(plan);
    return visitsOf(costs) <= maxVisits ? this.#run(plan, costs) : undefined;
  }

  /** The cheaper of walking the primary order's index and sorting the driver's range. */
  #costs(plan: Plan) {
    const { scope, conditions, keys, offset, limit } = plan;
    const repository = this.#repository;
    const empty = conditions.some((condition) => condition.count === 0);
    const scopeSize = scope === 'wallets' ? repository.size : repository.delegateCount;
    const driver = conditions.reduce<CompiledCondition | undefined>(
      (best, condition) => (best === undefined || condition.count < best.count ? condition : best),
      undefined,
    );
    const estimate = Math.min(driver?.count ?? scopeSize, scopeSize);
    const cheapTotal = this.#cheapTotal(plan, scopeSize);

    const primary = keys[0] as OrderKey;
    const primaryCondition = conditions.find((condition) => condition.field === primary.field);
    const streamSize =
      primaryCondition?.count ??
      (scope === 'wallets' || !primary.field.delegateOnly
        ? Math.max(repository.size, repository.index(primary.field).size)
        : repository.delegateCount);
    const wanted = offset + limit;
    // When every wallet the primary stream yields is a result, the stream starts at the offset
    // (found by rank), so a deep page walks no more than the first.
    const skipsByRank =
      keys.length === 1 &&
      conditions.every((condition) => condition === primaryCondition) &&
      (scope === 'wallets' || primary.field.delegateOnly);
    const walkCost =
      (skipsByRank || plan.after !== undefined
        ? limit
        : Math.min(streamSize, (wanted * streamSize) / Math.max(estimate, 1))) +
      (cheapTotal === undefined ? Math.min(estimate, this.#countBudget) : 0);
    const sortCost = estimate * (Math.log2(estimate + 2) + 1);
    return {
      empty,
      scopeSize,
      driver,
      cheapTotal,
      primary,
      primaryCondition,
      skipsByRank,
      walkCost,
      sortCost,
    };
  }

  #run(plan: Plan, costs = this.#costs(plan)): WalletPage {
    const { scope, conditions, keys, offset, limit } = plan;
    const { empty, scopeSize, driver, cheapTotal, primary, primaryCondition } = costs;
    const { skipsByRank, walkCost, sortCost } = costs;
    if (empty) return { results: [], totalCount: 0 };

    const inScope = scope === 'delegates' ? isDelegateWallet : () => true;
    const matches = (wallet: Wallet) =>
      inScope(wallet) && conditions.every((condition) => condition.matches(wallet));
    const candidates = () => this.#scans.candidates(driver, scope);

    // With a cursor: whether a wallet comes after its position (offset is then 0).
    const beyond = plan.after && isBeyond(keys, plan.after);
    const withNext = (page: WalletPage): WalletPage => {
      const last = page.results.at(-1);
      return last !== undefined && page.results.length === limit
        ? {
            ...page,
            next: cursorOf(
              keys.map(({ field }) => field),
              last,
            ),
          }
        : page;
    };

    const sort = this.#strategy === 'cost' ? sortCost <= walkCost : this.#strategy === 'sort';
    if (sort) {
      const matched: Wallet[] = [];
      for (const wallet of candidates()) if (matches(wallet)) matched.push(wallet);
      matched.sort(comparator(keys, 0, primary.descending));
      const start = beyond ? firstIndex(matched, beyond) : offset;
      return withNext({
        results: matched.slice(start, start + limit),
        totalCount: matched.length,
      });
    }

    const counted =
      cheapTotal !== undefined
        ? { count: cheapTotal, estimate: false }
        : driver
          ? countMatches(driver, conditions, inScope, this.#countBudget)
          : { count: scopeSize, estimate: false };
    const totalCount = counted.count;
    const flag = counted.estimate ? { totalCountIsEstimate: true } : {};
    const results: Wallet[] = [];
    if (limit === 0) return { results, totalCount, ...flag };
    const rest = keys.length > 1 ? comparator(keys, 1, primary.descending) : undefined;
    const skipInStream = skipsByRank ? offset : 0;
    let skipped = skipInStream;
    let group: Wallet[] = [];
    let groupKey: unknown = undefined;
    const emit = (wallets: readonly Wallet[]): boolean => {
      for (const wallet of wallets) {
        if (skipped < offset) skipped += 1;
        else if (results.push(wallet) >= limit) return true;
      }
      return false;
    };
    const stream = this.#scans.ordered(
      primary,
      primaryCondition,
      scope,
      skipInStream,
      plan.after?.keys[0],
    );
    for (const wallet of stream) {
      if (!matches(wallet) || (beyond && !beyond(wallet))) continue;
      if (!rest) {
        if (emit([wallet])) break;
        continue;
      }
      const key = primary.field.read(wallet) ?? MISSING;
      if (group.length > 0 && compareKeys(key, groupKey as typeof key) !== 0) {
        if (emit(group.sort(rest))) return withNext({ results, totalCount, ...flag });
        group = [];
      }
      groupKey = key;
      group.push(wallet);
    }
    if (rest && results.length < limit) emit(group.sort(rest));
    return withNext({ results, totalCount, ...flag });
  }

  /** The exact total when index ranks give it without visiting wallets. */
  #cheapTotal({ scope, conditions }: Plan, scopeSize: number): number | undefined {
    if (conditions.length === 0) return scopeSize;
    const only = conditions.length === 1 ? conditions[0] : undefined;
    // Indexes hold only wallets with a value, and delegate fields only delegates.
    if (only && (scope === 'wallets' || only.field.delegateOnly)) return only.count;
    return undefined;
  }
}

/** The estimated visits of a plan's cheaper path; an empty answer costs none. */
function visitsOf(costs: { empty: boolean; walkCost: number; sortCost: number }): number {
  return costs.empty ? 0 : Math.min(costs.walkCost, costs.sortCost);
}

const pathsOf = (scope: WalletScope) => (scope === 'wallets' ? walletPath : delegatePath);
const walletPath = (name: string) => walletField(name);
const delegatePath = (name: string) => {
  const path = DELEGATE_VIEW_FIELDS[name];
  return path === undefined ? undefined : walletField(path);
};

const isDelegateWallet = (wallet: Wallet): boolean => wallet.attributes.delegate !== undefined;

/** Order by the keys from `first` on, then by address in the primary key's direction. */
function comparator(
  keys: readonly OrderKey[],
  first: number,
  primaryDescending: boolean,
): (a: Wallet, b: Wallet) => number {
  return (a, b) => {
    for (let i = first; i < keys.length; i += 1) {
      const { field, descending } = keys[i] as OrderKey;
      const order = compareKeys(field.read(a) ?? MISSING, field.read(b) ?? MISSING);
      if (order !== 0) return descending ? -order : order;
    }
    const order = compareAddresses(a.address, b.address);
    return primaryDescending ? -order : order;
  };
}
