import type { ResourceQuery } from '../query/resource-query.js';
import { encodeCursor } from './cursor.js';

export interface PageMeta {
  readonly count: number;
  readonly pageCount: number;
  readonly totalCount: number;
  /** Present on SQL-backed indexes: true when `totalCount` is an estimate (see the README). */
  readonly totalCountIsEstimate?: boolean;
  readonly next: string | null;
  readonly previous: string | null;
  readonly self: string;
  readonly first: string;
  readonly last: string;
}

export interface Page<T> {
  readonly meta: PageMeta;
  readonly data: readonly T[];
}

/** What a data source says of a page beyond its items and total. */
export interface PageExtras {
  readonly totalCountIsEstimate?: boolean;
  /** The order values of the page's last item: the `next` link then carries them as a cursor. */
  readonly next?: readonly unknown[];
}

/**
 * The index envelope. Links keep every parameter of the request (its filters, its order) and
 * change only the page, so a client can walk the pages of one query; `next` also carries the
 * cursor of the last item when the source gives one, so that following it costs the same at
 * any depth (ARK clients read only `page` and keep working).
 */
export function pageOf<T>(
  data: readonly T[],
  totalCount: number,
  query: ResourceQuery,
  path: string,
  requestQuery: URLSearchParams,
  extras: PageExtras = {},
): Page<T> {
  const pageCount = Math.max(1, Math.ceil(totalCount / query.limit));
  const link = (page: number, cursor?: string): string => {
    const params = new URLSearchParams();
    for (const [key, value] of requestQuery) {
      if (key !== 'page' && key !== 'offset' && key !== 'limit' && key !== 'cursor') {
        params.append(key, value);
      }
    }
    params.set('page', String(page));
    params.set('limit', String(query.limit));
    if (cursor !== undefined) params.set('cursor', cursor);
    return `${path}?${params.toString()}`;
  };
  // Walking by cursor, the end is where a page comes back short, whatever an estimate says.
  const more = query.after !== undefined ? extras.next !== undefined : query.page < pageCount;
  return {
    meta: {
      count: data.length,
      pageCount,
      totalCount,
      ...(extras.totalCountIsEstimate !== undefined && {
        totalCountIsEstimate: extras.totalCountIsEstimate,
      }),
      next: more ? link(query.page + 1, extras.next && encodeCursor(extras.next)) : null,
      previous: query.page > 1 ? link(query.page - 1) : null,
      self: link(query.page),
      first: link(1),
      last: link(pageCount),
    },
    data,
  };
}
