/** The request serializer of @vitalis/log: query values never reach a log line. */
import { describe, expect, it } from 'vitest';
import { redactQuery, requestForLog } from '@vitalis/log';

describe('redactQuery', () => {
  it.each([
    ['/api/v1/patients', '/api/v1/patients'],
    ['/api/v1/patients?', '/api/v1/patients?'],
    ['/api/v1/patients?name=Ann%20Lee&birthdate=1950-01-02', '/api/v1/patients?name=[redacted]&birthdate=[redacted]'],
    ['/p?identifier=urn:mrn|MRN-1&identifier=x', '/p?identifier=[redacted]&identifier=[redacted]'],
    ['/p?MRN-12345', '/p?[redacted]'],
    ['/p?a%20b=1&=x&ok=', '/p?[redacted]&[redacted]&ok=[redacted]'],
    ['/p?x=1?y=2', '/p?x=[redacted]'],
  ])('%s → %s', (url, logged) => {
    expect(redactQuery(url)).toBe(logged);
  });

  it('a request is its method, route pattern, redacted URL and address; no headers', () => {
    const req = {
      method: 'GET',
      url: '/api/v1/patients?name=Ann',
      ip: '127.0.0.1',
      routeOptions: { url: '/api/v1/patients' },
      headers: { authorization: 'Bearer x', cookie: 'c=1' },
    };
    expect(requestForLog(req)).toEqual({
      method: 'GET',
      route: '/api/v1/patients',
      url: '/api/v1/patients?name=[redacted]',
      remoteAddress: '127.0.0.1',
    });
  });
});
