/** Browser mode: same-origin REST with the bearer token; a refusal throws ApiError with the problem's detail. */
import { ApiError, token } from './access';

export function rest(method: string, path: string, body?: unknown, extraHeaders?: Record<string, string>): Promise<any> {
  const headers: Record<string, string> = { accept: 'application/json', ...extraHeaders };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }).then((res) =>
    res.text().then((text) => {
      let json: any;
      try {
        json = text ? JSON.parse(text) : null;
      } catch {
        json = null;
      }
      if (!res.ok) throw new ApiError((json && (json.detail || json.title)) || `HTTP ${res.status}`, res.status, json);
      return json;
    }),
  );
}
