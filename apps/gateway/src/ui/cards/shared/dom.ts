/** DOM helpers every card uses: element builder, query, the status pill and error box, dates. */

export type Attrs = Record<string, string | number | boolean | null | undefined>;
export type Child = Node | string | null | undefined;

/** An element with attributes (`text` sets textContent, `class` the class name; null/false/undefined are left out). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs | null, children?: Child[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (attrs) {
    for (const k of Object.keys(attrs)) {
      const v = attrs[k];
      if (v === undefined || v === null || v === false) continue;
      if (k === 'text') e.textContent = String(v);
      else if (k === 'class') e.className = String(v);
      else e.setAttribute(k, v === true ? '' : String(v));
    }
  }
  for (const c of children ?? []) if (c !== null && c !== undefined) e.append(c);
  return e;
}

/** The one element a card's markup holds for `sel` (the markup is the card's own: it is there). */
export function $<T extends HTMLElement = HTMLElement>(sel: string): T {
  return document.querySelector(sel) as T;
}

/** The header's connection/status pill (`#conn`). */
export function setStatus(text: string, state?: string): void {
  const s = document.querySelector('#conn');
  if (!s) return;
  s.textContent = text;
  s.setAttribute('data-state', state || '');
}

/** The card's error box (`#error`, role=alert); null clears it. */
export function showError(err: unknown): void {
  const box = document.querySelector('#error');
  if (box) box.textContent = err ? (err as Error).message || String(err) : '';
}

export function fmtTime(iso: string): string {
  const d = new Date(iso);
  return isNaN(d.getTime()) ? '' : d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

export function fmtDate(iso: string): string {
  const d = new Date(iso);
  return isNaN(d.getTime()) ? '' : d.toLocaleDateString([], { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric' });
}
