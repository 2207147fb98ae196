// @ts-expect-error parse-prometheus-text-format ships no types; its shape is declared below.
import parsePrometheusTextFormat from 'parse-prometheus-text-format';

/** One metric family as parse-prometheus-text-format reads Prometheus' text format. */
export interface MetricFamily {
  readonly name: string;
  readonly help: string;
  readonly type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
  readonly metrics: readonly {
    readonly value?: string;
    readonly labels?: Readonly<Record<string, string>>;
    readonly buckets?: Readonly<Record<string, string>>;
    readonly count?: string;
    readonly sum?: string;
  }[];
}

/** Fetches `url` (a node's /metrics) and parses it with a Prometheus text-format parser. */
export async function scrape(url: string): Promise<Map<string, MetricFamily>> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  const contentType = response.headers.get('content-type') ?? '';
  if (!contentType.startsWith('text/plain; version=0.0.4')) {
    throw new Error(`${url}: content-type ${contentType} is not Prometheus text`);
  }
  const families = (parsePrometheusTextFormat as (text: string) => MetricFamily[])(
    await response.text(),
  );
  return new Map(families.map((family) => [family.name, family]));
}

/** The value of a gauge or counter without labels, or of the series with these labels. */
export function valueOf(
  families: Map<string, MetricFamily>,
  name: string,
  labels: Readonly<Record<string, string>> = {},
): number | undefined {
  const series = families
    .get(name)
    ?.metrics.find((metric) =>
      Object.entries(labels).every(([key, value]) => metric.labels?.[key] === value),
    );
  return series?.value === undefined ? undefined : Number(series.value);
}
