/** Reading a Prometheus text-format scrape in tests. */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** One sample per non-comment line: `name{label="value",...} number`. */
export function parseScrape(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)/.exec(line);
    if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}

export async function scrape(url: string): Promise<{ text: string; samples: Sample[] }> {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`scrape ${url}: ${res.status}`);
  const text = await res.text();
  return { text, samples: parseScrape(text) };
}

/** Sum of the samples named `name` whose labels include `labels`. */
export function total(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

export const has = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.some((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
