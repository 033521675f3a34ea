/**
 * MCP benchmark (plain script: DATABASE_URL=... node --import tsx test/bench/mcp.bench.ts). One
 * in-process gateway; the same reads over REST (the baseline, measured in the same run) and as MCP
 * tool calls with the SDK Client on one session (Streamable HTTP, SSE response per call):
 *  - get_patient vs GET /api/v1/patients/pat-0001
 *  - get_latest_vitals vs GET /api/v1/vitals/latest?patient=pat-0001
 *  - a whole MCP session (initialize + initialized + one call + DELETE) vs one REST call
 * Prints p50/p99 per operation and the MCP/REST ratio. BENCH_N (300) sequential calls each. Never asserts.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startGateway } from '../helpers/gateway';
import { clientCredentialsToken, registerClient } from '../helpers/auth';

const N = Number(process.env.BENCH_N ?? 300);
const out = (line: string) => process.stdout.write(`${line}\n`);

async function time(n: number, op: () => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < Math.min(20, n); i++) await op(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await op();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return { p50: samples[Math.floor(n / 2)]!, p99: samples[Math.min(n - 1, Math.floor(n * 0.99))]! };
}

async function connect(url: string, token: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/.well-known/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'mcp-bench', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

const gw = await startGateway({ LOG_LEVEL: 'error' });
try {
  const reg = await registerClient(gw.url, ['read:patients', 'read:vitals'], 'mcp-bench');
  const token = await clientCredentialsToken(gw.url, reg);
  const headers = { authorization: `Bearer ${token}` };
  const rest = async (path: string) => {
    const res = await fetch(gw.url + path, { headers });
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    await res.arrayBuffer();
  };
  const { client } = await connect(gw.url, token);
  const tool = async (name: string, args: Record<string, unknown>) => {
    const r = await client.callTool({ name, arguments: args });
    if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content)}`);
  };

  const rows: [string, { p50: number; p99: number }, { p50: number; p99: number }][] = [];
  rows.push([
    'get_patient',
    await time(N, () => rest('/api/v1/patients/pat-0001')),
    await time(N, () => tool('get_patient', { patient_id: 'pat-0001' })),
  ]);
  rows.push([
    'get_latest_vitals',
    await time(N, () => rest('/api/v1/vitals/latest?patient=pat-0001')),
    await time(N, () => tool('get_latest_vitals', { patient_id: 'pat-0001' })),
  ]);
  rows.push([
    'session (init+call+delete)',
    await time(Math.ceil(N / 3), () => rest('/api/v1/patients/pat-0001')),
    await time(Math.ceil(N / 3), async () => {
      const s = await connect(gw.url, token);
      await s.client.callTool({ name: 'get_patient', arguments: { patient_id: 'pat-0001' } });
      await s.transport.terminateSession();
      await s.client.close();
    }),
  ]);
  await client.close();

  out(`MCP vs REST, ${N} sequential calls each, one in-process gateway (ms)`);
  out('operation                    REST p50  REST p99   MCP p50   MCP p99  ratio p50  ratio p99');
  for (const [name, r, m] of rows) {
    out(
      `${name.padEnd(28)} ${r.p50.toFixed(2).padStart(8)} ${r.p99.toFixed(2).padStart(9)} ${m.p50.toFixed(2).padStart(9)} ${m.p99.toFixed(2).padStart(9)} ${(m.p50 / r.p50).toFixed(2).padStart(9)}x ${(m.p99 / r.p99).toFixed(2).padStart(8)}x`,
    );
  }
  out(`open MCP sessions at the end: ${gw.app.mcpSessions.size}`);
} finally {
  await gw.close();
}
