/** whoami: who the token says the caller is (the MCP twin of GET /agent/identity). */
import { z } from 'zod';
import { defineTool } from './types';

export const whoamiTool = defineTool({
  name: 'whoami',
  title: 'Who am I',
  description:
    'The identity behind the Bearer token: client, subject, roles, granted scopes, the patient a patient user is linked to, and when the token expires. Any valid token.',
  scopes: [],
  input: z.object({}),
  output: z.object({
    client_id: z.string(),
    sub: z.string(),
    scopes: z.array(z.string()),
    roles: z.array(z.string()),
    patient_id: z.string().optional(),
    auth_method: z.string(),
    acting_client: z.string().optional(),
    expires_in: z.number().int(),
  }),
  annotations: { title: 'Who am I', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run({ caller }) {
    const p = caller.principal;
    const expiresIn = Math.max(0, p.expiresAt - Math.floor(Date.now() / 1000));
    return {
      data: {
        client_id: p.clientId,
        sub: p.subject,
        scopes: p.scopes,
        roles: p.roles,
        ...(p.patientId ? { patient_id: p.patientId } : {}),
        auth_method: p.authMethod,
        ...(p.actor?.client_id ? { acting_client: p.actor.client_id } : {}),
        expires_in: expiresIn,
      },
      text: `${p.subject} via client ${p.clientId}; scopes: ${p.scopes.join(' ') || '(none)'}; token expires in ${expiresIn} s.`,
    };
  },
});
