/**
 * One MCP tool = one ToolDef: zod input and output schemas, the scopes it needs (the same as the
 * equivalent REST route; checked at the HTTP layer before the call reaches the SDK), annotations,
 * the UI card it renders in (MCP Apps), and `run`, which calls the domain services with the caller.
 */
import type { z } from 'zod';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { Scope } from '@vitalis/schemas';
import type { GatewayDeps } from '../../deps';
import type { Caller } from '../../access/caller';

export interface ToolContext {
  deps: GatewayDeps;
  caller: Caller;
}

export interface ToolOutput<T> {
  /** The structuredContent (validated against `output` by the SDK). */
  data: T;
  /** A short human-readable summary (the text content). */
  text: string;
}

export interface ToolDef<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  /** Every listed scope is required; [] = any valid token (the REST route contract). */
  scopes: Scope[];
  input: I;
  output: O;
  annotations: ToolAnnotations;
  /** `ui://vitalis/<card>` this tool's result is best shown in. */
  ui?: string;
  run(ctx: ToolContext, args: z.infer<I>): Promise<ToolOutput<z.infer<O>>>;
}

/** Keeps the generic types of one definition while allowing a heterogeneous list. */
export const defineTool = <I extends z.ZodObject, O extends z.ZodObject>(def: ToolDef<I, O>): ToolDef => def as unknown as ToolDef;

export const UI = {
  booking: 'ui://vitalis/appointment-booking-form',
  monitor: 'ui://vitalis/vitals-telemetry-monitor',
  triage: 'ui://vitalis/emergency-triage-board',
  search: 'ui://vitalis/patient-search-card',
} as const;
