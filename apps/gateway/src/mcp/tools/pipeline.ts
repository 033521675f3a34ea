/**
 * get_pipeline_status: whether vitals are reaching storage in time (the MCP twin of GET
 * /api/v1/health's `pipeline`, in short). What a UI card embedded in an MCP host reads for its
 * "Data delayed" banner (it cannot fetch the gateway's health itself), and what an agent asks
 * before trusting "latest" vitals. No patient data: any valid token.
 */
import { z } from 'zod';
import { pipelineReaderOf, pipelineSummaryShape, summaryOf } from '../../health';
import { defineTool } from './types';

export const pipelineStatusTool = defineTool({
  name: 'get_pipeline_status',
  title: 'Vitals pipeline status',
  description:
    "Whether vitals readings are reaching storage in time: `delayed` (true when an ingest partition is stalled, or messages have waited while the newest stored reading is older than the health threshold), the partitions concerned, the lag, and the newest stored reading's time and age. The same judgement as GET /api/v1/health. Any valid token; no patient data.",
  scopes: [],
  input: z.object({}),
  // The shape, not the named schema: a named one lists as a $ref, and MCP wants an object schema.
  output: z.object(pipelineSummaryShape),
  annotations: { title: 'Vitals pipeline status', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run({ deps }) {
    const p = summaryOf(await pipelineReaderOf(deps).current());
    const age =
      p.newest_observation_age_s === null ? 'no stored reading' : `the newest stored reading is ${p.newest_observation_age_s} s old`;
    const text =
      p.status === 'unknown'
        ? `The vitals pipeline could not be read (Kafka); ${age}.`
        : p.delayed
          ? `Vitals data delayed (${p.status}: partitions ${p.delayed_partitions.join(', ')}); ${age}; ${p.lag} messages wait.`
          : `Vitals pipeline ok; ${age}; ${p.lag} messages wait.`;
    return { data: p, text };
  },
});
