/** Every MCP tool, in the order tools/list shows them. */
import type { Scope } from '@vitalis/schemas';
import { bookAppointmentTool, cancelAppointmentTool, findSlotsTool } from './appointments';
import { whoamiTool } from './identity';
import { getPatientTool, recordAllergyTool, registerPatientTool, searchPatientsTool } from './patients';
import { setTriageLevelTool, triageBoardTool } from './triage';
import {
  acknowledgeCriticalResultTool,
  getDiagnosticReportTool,
  listCriticalResultsTool,
  listPendingOrdersTool,
  orderDiagnosticTestTool,
} from './diagnostics';
import { acknowledgeAlarmTool, listAlarmsTool } from './alarms';
import type { ToolDef } from './types';
import { latestVitalsTool, vitalsHistoryTool } from './vitals';
import { pipelineStatusTool } from './pipeline';

export type { ToolContext, ToolDef } from './types';

export const TOOLS: ReadonlyArray<ToolDef> = [
  whoamiTool,
  searchPatientsTool,
  getPatientTool,
  registerPatientTool,
  recordAllergyTool,
  findSlotsTool,
  bookAppointmentTool,
  cancelAppointmentTool,
  vitalsHistoryTool,
  latestVitalsTool,
  triageBoardTool,
  setTriageLevelTool,
  orderDiagnosticTestTool,
  listPendingOrdersTool,
  getDiagnosticReportTool,
  listCriticalResultsTool,
  acknowledgeCriticalResultTool,
  listAlarmsTool,
  acknowledgeAlarmTool,
  pipelineStatusTool,
];

/** Tool name → the scopes it needs (the HTTP layer checks them before the SDK sees the call). */
export const TOOL_SCOPES: ReadonlyMap<string, Scope[]> = new Map(TOOLS.map((t) => [t.name, t.scopes]));
