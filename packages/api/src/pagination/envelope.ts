import type { ResourceQuery } from '../query/resource-query.js';

export interface PageMeta {
  readonly count: number;
  readonly pageCount: number;
  readonly totalCount: number;
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

/**
 * The index envelope. Links keep every parameter of the request (its filters, its order) and
 * change only the page, so a client can walk the pages of one query.
 */
export function pageOf<T>(
  data: readonly T[],
  totalCount: number,
  query: ResourceQuery,
  path: string,
  requestQuery: URLSearchParams,
): Page<T> {
  const pageCount = Math.max(1, Math.ceil(totalCount / query.limit));
  const link = (page: number): string => {
    const params = new URLSearchParams();
    for (const [key, value] of requestQuery) {
      if (key !== 'page' && key !== 'offset' && key !== 'limit') params.append(key, value);
    }
    params.set('page', String(page));
    params.set('limit', String(query.limit));
    return `${path}?${params.toString()}`;
  };
  return {
    meta: {
      count: data.length,
      pageCount,
      totalCount,
      next: query.page < pageCount ? link(query.page + 1) : null,
      previous: query.page > 1 ? link(query.page - 1) : null,
      self: link(query.page),
      first: link(1),
      last: link(pageCount),
    },
    data,
  };
}
