/**
 * The Grafana dashboard (infra/grafana/vitalis.json) and the Prometheus rules
 * (infra/prometheus/rules.yml) name only series that exist: a metric of libs/metrics/src/names.ts
 * (or its histogram _bucket/_count/_sum), one of prom-client's default process series, or a
 * recording rule defined in rules.yml. Every Vitalis metric is on the dashboard and documented in
 * docs/operations.md. (promtool checks the rules' syntax and behaviour: `make metrics-check`.)
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { METRIC, createRegistry } from '@vitalis/metrics';

const root = new URL('../../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

const rules = read('infra/prometheus/rules.yml');
const recorded = new Set([...rules.matchAll(/^\s*- record: (\S+)$/gm)].map((m) => m[1]!));
const defaults = new Set((createRegistry('unit').getMetricsAsArray() as { name: string }[]).map((m) => m.name));
const ours = new Set<string>(Object.values(METRIC));

/** A series name as written in PromQL, resolved to the metric it comes from (or undefined: unknown). */
function known(name: string): boolean {
  if (name.includes(':')) return recorded.has(name);
  const base = name.replace(/_(bucket|count|sum)$/, '');
  return ours.has(name) || ours.has(base) || defaults.has(name) || defaults.has(base);
}
const seriesIn = (expr: string) =>
  [...expr.matchAll(/\b(vitalis[_:][a-z0-9_:]+|process_[a-z0-9_]+|nodejs_[a-z0-9_]+)\b/g)].map((m) => m[1]!);

interface Panel {
  title: string;
  type: string;
  targets?: { expr: string }[];
}
const dashboard = JSON.parse(read('infra/grafana/vitalis.json')) as {
  title: string;
  uid: string;
  panels: Panel[];
  templating: { list: { query: string }[] };
};
const dashboardExprs = [
  ...dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ where: p.title, expr: t.expr }))),
  ...dashboard.templating.list.map((v) => ({ where: 'templating', expr: String(v.query) })),
];

describe('Grafana dashboard', () => {
  it('is a dashboard whose every panel queries Prometheus', () => {
    expect(dashboard.uid).toBe('vitalis-overview');
    const graphs = dashboard.panels.filter((p) => p.type !== 'row');
    expect(graphs.length).toBeGreaterThan(10);
    for (const p of graphs) expect(p.targets?.length, p.title).toBeGreaterThan(0);
  });

  it('names only series that exist', () => {
    for (const { where, expr } of dashboardExprs) {
      for (const name of seriesIn(expr)) expect(known(name), `${where}: ${name} in ${expr}`).toBe(true);
    }
  });

  it('shows every Vitalis metric', () => {
    const shown = new Set(dashboardExprs.flatMap(({ expr }) => seriesIn(expr)).map((n) => n.replace(/_(bucket|count|sum)$/, '')));
    for (const name of ours) expect(shown.has(name), name).toBe(true);
  });
});

describe('Prometheus rules', () => {
  it('name only series that exist, and recording rules defined in the file', () => {
    const exprs = [...rules.matchAll(/expr: (?:\|\n((?:\s{10}.*\n)+)|(.*)\n)/g)].map((m) => m[1] ?? m[2]!);
    expect(exprs.length).toBe(21);
    for (const expr of exprs) for (const name of seriesIn(expr)) expect(known(name), `${name} in ${expr}`).toBe(true);
  });

  it('the paging alerts the platform team needs are there, each with a runbook in docs/operations.md', () => {
    const alerts = [...rules.matchAll(/- alert: (\S+)/g)].map((m) => m[1]!);
    expect(alerts).toEqual(
      expect.arrayContaining([
        'VitalisConsumerLagGrowing',
        'VitalisLiveSubscriberLagged',
        'VitalisAlertUndelivered',
        'VitalisAuditWriteFailing',
      ]),
    );
    const operations = read('docs/operations.md');
    for (const alert of alerts) {
      expect(operations, alert).toContain(`#### ${alert}`);
      expect(rules, alert).toContain(`runbook: docs/operations.md#${alert.toLowerCase()}`);
    }
  });
});

describe('docs/operations.md', () => {
  it('documents every metric', () => {
    const operations = read('docs/operations.md');
    for (const name of ours) expect(operations, name).toContain(`\`${name}\``);
  });
});
