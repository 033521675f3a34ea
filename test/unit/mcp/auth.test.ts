/** What each MCP message needs from the token (pure: the table the HTTP layer enforces). */
import { describe, expect, it } from 'vitest';
import { needOf, needOfBody } from '../../../apps/gateway/src/mcp/auth';
import { parseResourceUri } from '../../../apps/gateway/src/mcp/resource-uri';
import { parseEventId } from '../../../apps/gateway/src/mcp/event-store';
import { TOOL_SCOPES, TOOLS } from '../../../apps/gateway/src/mcp/tools';

const call = (name: string) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {} } });

describe('needOf', () => {
  it('lets the handshake, listing, ping and notifications through without a token', () => {
    for (const method of [
      'initialize',
      'notifications/initialized',
      'ping',
      'tools/list',
      'resources/list',
      'resources/templates/list',
      'prompts/list',
      'resources/unsubscribe',
    ]) {
      expect(needOf({ jsonrpc: '2.0', id: 1, method }, TOOL_SCOPES), method).toEqual({ token: false, scopes: [], what: [] });
    }
  });

  it('asks for the REST scopes of each tool', () => {
    expect(needOf(call('get_vitals_history'), TOOL_SCOPES)).toMatchObject({ token: true, scopes: ['read:vitals'] });
    expect(needOf(call('get_latest_vitals'), TOOL_SCOPES).scopes).toEqual(['read:vitals']);
    expect(needOf(call('register_patient'), TOOL_SCOPES).scopes).toEqual(['write:patients']);
    expect(needOf(call('find_available_slots'), TOOL_SCOPES).scopes).toEqual(['read:appointments']);
    expect(needOf(call('book_appointment'), TOOL_SCOPES).scopes).toEqual(['write:appointments']);
    expect(needOf(call('cancel_appointment'), TOOL_SCOPES).scopes).toEqual(['write:appointments']);
    expect(needOf(call('get_triage_board'), TOOL_SCOPES).scopes).toEqual(['read:patients']);
    expect(needOf(call('set_triage_level'), TOOL_SCOPES).scopes).toEqual(['write:triage']);
    // like GET /api/v1/patients(/{id}) and /agent/identity: any valid token, the service decides what it sees
    for (const t of ['search_patients', 'get_patient', 'whoami'])
      expect(needOf(call(t), TOOL_SCOPES), t).toMatchObject({ token: true, scopes: [] });
    expect(TOOLS.every((t) => TOOL_SCOPES.has(t.name))).toBe(true);
  });

  it('protects patient resources, not the ui:// cards; unknown tools are left to the SDK', () => {
    const read = (uri: string) => ({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri } });
    expect(needOf(read('vitalis://patients/p1/vitals'), TOOL_SCOPES)).toMatchObject({ token: true, scopes: ['read:vitals'] });
    expect(needOf({ ...read('vitalis://patients/p1/vitals'), method: 'resources/subscribe' }, TOOL_SCOPES)).toMatchObject({
      token: true,
      scopes: ['read:vitals'],
    });
    expect(needOf(read('ui://vitalis/patient-search-card'), TOOL_SCOPES).token).toBe(false);
    expect(needOf(call('no_such_tool'), TOOL_SCOPES).token).toBe(false);
    for (const junk of [null, 42, 'x', [], { method: 7 }, { method: 'tools/call' }, { method: 'tools/call', params: { name: 5 } }]) {
      expect(needOf(junk, TOOL_SCOPES).token).toBe(false);
    }
  });

  it('classifies a resource URI as the SDK will read it: case, spaces and control characters do not skip the gate', () => {
    const read = (uri: string) => ({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri } });
    for (const uri of [
      'VITALIS://patients/p1/vitals',
      ' vitalis://patients/p1/vitals',
      'vitalis://patients/p1/vitals\n',
      '\u0000vitalis://patients/p1/vitals',
      'vita\tlis://patients/p1/vitals',
      'ViTaLiS://patients/p1/vitals',
    ]) {
      expect(needOf(read(uri), TOOL_SCOPES), JSON.stringify(uri)).toMatchObject({ token: true, scopes: ['read:vitals'] });
      expect(parseResourceUri(uri), JSON.stringify(uri)).toEqual({
        kind: 'patient-vitals',
        uri: 'vitalis://patients/p1/vitals',
        patientId: 'p1',
      });
    }
    // other vitalis:// URIs are patient data's scheme too (and no resource): read:vitals
    for (const uri of ['vitalis://patients/p%2D1/vitals', 'vitalis://%70atients/p1/vitals', 'VITALIS://patients/p1/vitals?x']) {
      expect(needOf(read(uri), TOOL_SCOPES), uri).toMatchObject({ token: true, scopes: ['read:vitals'] });
      expect(parseResourceUri(uri).kind, uri).toBe('vitalis');
    }
    expect(needOf(read(' UI://vitalis/patient-search-card'), TOOL_SCOPES).token).toBe(false);
  });

  it('refuses unknown schemes and non-URIs, whatever the token', () => {
    const read = (uri: string) => ({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri } });
    for (const uri of ['file:///etc/passwd', 'https://example.org/x', 'vitalis+x://patients/p1/vitals', 'not a uri', '']) {
      expect(needOf(read(uri), TOOL_SCOPES).refused, uri).toEqual([
        expect.stringMatching(/^resources\/read: (unknown resource scheme|not a URI)/),
      ]);
      expect(parseResourceUri(uri).kind, uri).toBe('refused');
    }
    expect(needOfBody([read('file:///x'), { jsonrpc: '2.0', id: 2, method: 'ping' }], TOOL_SCOPES).refused).toHaveLength(1);
  });

  it('a batch needs the union', () => {
    expect(needOfBody([call('get_triage_board'), call('register_patient'), call('get_triage_board')], TOOL_SCOPES)).toMatchObject({
      token: true,
      scopes: ['read:patients', 'write:patients'],
    });
    expect(needOfBody([{ jsonrpc: '2.0', method: 'ping', id: 1 }], TOOL_SCOPES).token).toBe(false);
  });
});

describe('event ids', () => {
  it('name their stream and Redis entry, and refuse anything else', () => {
    expect(parseEventId('_GET_stream~1700000000000-0')).toEqual({ stream: '_GET_stream', entry: '1700000000000-0' });
    expect(parseEventId('6f1c2a9e-1b2c-4d5e-8f90-123456789abc~1-12')).toEqual({
      stream: '6f1c2a9e-1b2c-4d5e-8f90-123456789abc',
      entry: '1-12',
    });
    for (const bad of ['', '~1-0', 'abc', 'abc~', 'abc~1', 'a b~1-0', 'x~1-0-0', '../x~1-0'])
      expect(parseEventId(bad), bad).toBeUndefined();
  });
});
