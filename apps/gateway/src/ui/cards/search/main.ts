/**
 * patient-search-card (browser code; markup in ../../search.ts). Search by name → results → the
 * record (a single match opens at once): demographics, identifiers, contacts, allergies (high
 * criticality first, with a banner), latest vitals and NEWS2 when the token allows, each value
 * with its age ("HR 88 /min · 12 s ago", "stale" past its code's threshold), blood pressure as one
 * "BP 120/80 mmHg" (systolic first), NEWS2 with the time of its oldest input. Reception tokens get
 * demographics only and the card says so instead of implying "no allergies".
 */
import { V } from '../shared/runtime';
import { startDelayBanner } from '../shared/delay-banner';
startDelayBanner(); // "Data delayed" banner while the vitals pipeline is late (docs/ui.md)

import { age as ageOf, clock, isStale } from '../shared/time';
import type { SearchData } from './data';

/** Injected by the card build (../../build.ts, `searchScriptData()`). */
declare const DATA: SearchData;

interface Allergy {
  substance?: string;
  criticality?: string;
  reaction?: string;
}
/** One view model from either transport. */
interface PatientView {
  id: string;
  name: string;
  birthDate: string | null;
  gender: string | null;
  identifiers: Array<{ value: string; system?: string }>;
  telecom: Array<{ system: string; value: string }>;
  /** undefined when the caller may not see them. */
  allergies: Allergy[] | undefined;
  latest: Array<{ code: string; value: number; effective_at: string }>;
  news2: { score: number; risk: string } | undefined;
  version: string | number | undefined;
  updated: string | null | undefined;
}

const CRIT: Record<string, string> = { high: 'High criticality', low: 'Low criticality', 'unable-to-assess': 'Criticality unknown' };
const VITAL_NAMES = DATA.vitalNames;

/**
 * One view model from either transport. The record envelope is the same on both, { view,
 * patient, allergies, latest_vitals, news2 }: REST with a FHIR Patient and AllergyIntolerance
 * resources, MCP get_patient with flat { id, name, birth_date, identifiers } and allergies
 * [{ substance, criticality, reaction }]. Search results: bare FHIR Patients (REST) or flat
 * patients carrying their allergies (MCP). "allergies" stays undefined when the caller may not
 * see them.
 */
function model(x: any): PatientView {
  const env = x.patient ? x : null;
  const r = env ? env.patient : x;
  const allergies: any[] | undefined = env ? env.allergies : r.allergies;
  if (r.resourceType === 'Patient') {
    const n = (r.name && r.name[0]) || {};
    return {
      id: r.id,
      name: ((n.given || []).join(' ') + ' ' + (n.family || '')).trim() || r.id,
      birthDate: r.birthDate || null,
      gender: r.gender || null,
      identifiers: r.identifier || [],
      telecom: r.telecom || [],
      allergies:
        allergies === undefined
          ? undefined
          : allergies.map((a: any) => ({
              substance: a.code && a.code.text,
              criticality: a.criticality,
              reaction: a.reaction && a.reaction[0] && a.reaction[0].description,
            })),
      latest: (env && env.latest_vitals) || [],
      news2: env && env.news2,
      version: r.meta && r.meta.versionId,
      updated: r.meta && r.meta.lastUpdated,
    };
  }
  return {
    id: r.id,
    name: r.name || r.id,
    birthDate: r.birth_date || null,
    gender: r.gender || null,
    identifiers: r.identifiers || [],
    telecom: r.telecom || [],
    allergies:
      allergies === undefined
        ? undefined
        : allergies.map((a: any) => ({ substance: a.substance, criticality: a.criticality, reaction: a.reaction })),
    latest: (env && env.latest_vitals) || [],
    news2: env && env.news2,
    version: r.version,
    updated: null,
  };
}
function age(birth: string): number {
  const b = new Date(birth + 'T00:00:00Z'),
    now = new Date();
  let a = now.getUTCFullYear() - b.getUTCFullYear();
  if (now.getUTCMonth() < b.getUTCMonth() || (now.getUTCMonth() === b.getUTCMonth() && now.getUTCDate() < b.getUTCDate())) a--;
  return a;
}
function born(m: PatientView): string {
  if (!m.birthDate) return 'Birth date unknown';
  const d = new Date(m.birthDate + 'T00:00:00Z').toLocaleDateString([], {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
  return d + ' (' + age(m.birthDate) + ' y)';
}
const SEX: Record<string, string> = { male: 'Male', female: 'Female', other: 'Other', unknown: 'Unknown' };
function ids(m: PatientView): string[] {
  return m.identifiers.map((i) => i.value + (i.system ? ' (' + i.system + ')' : ''));
}
function patientsOf(body: any): PatientView[] {
  if (!body) return [];
  const list: any[] = body.entry ? body.entry.map((e: any) => e.resource) : body.patients || (Array.isArray(body) ? body : []);
  return list.map(model);
}

/** A FHIR Bundle pages with link relation next. */
function hasNext(body: any): boolean {
  return !!(body.link && body.link.some((l: any) => l.relation === 'next'));
}

function showResults(body: any, name: string): PatientView[] {
  const list = patientsOf(body);
  const ul = V.$('#results');
  ul.textContent = '';
  list.forEach((p) => {
    const b = V.el('button', { type: 'button', 'data-patient': p.id, 'aria-current': 'false' }, [
      V.el('span', { class: 'n', text: p.name }),
      V.el('span', { class: 'd', text: [born(p), (p.gender && SEX[p.gender]) || null, p.id].filter(Boolean).join(' · ') }),
    ]);
    b.addEventListener('click', () => open(p.id));
    ul.append(V.el('li', {}, [b]));
  });
  V.$('#result-count').textContent =
    list.length === 0
      ? 'No patient matches' + (name ? ' "' + name + '"' : '') + '.'
      : list.length +
        (list.length === 1 ? ' patient found.' : ' patients found.') +
        (body && (hasNext(body) || body.next_cursor) ? ' More match: refine the name.' : '');
  return list;
}

function search(name: string): Promise<void> {
  V.setStatus('Searching…', '');
  const q = new URLSearchParams({ name: name, limit: '20' });
  return V.op('search_patients', { name: name, limit: 20 }, { path: '/api/v1/patients?' + q }).then(
    (body) => {
      V.showError(null);
      V.setStatus('Ready', 'live');
      const list = showResults(body, name);
      // one match: that is the patient, open it at once
      const [only] = list;
      if (only && list.length === 1) return open(only.id);
    },
    (err) => {
      V.setStatus('Error', 'error');
      V.showError(err);
    },
  );
}

function open(id: string): Promise<void> {
  Array.from(document.querySelectorAll('#results button')).forEach((b) =>
    b.setAttribute('aria-current', String(b.getAttribute('data-patient') === id)),
  );
  V.setStatus('Loading…', '');
  return V.op('get_patient', { patient_id: id }, { path: '/api/v1/patients/' + encodeURIComponent(id) }).then(
    (p) => {
      V.showError(null);
      V.setStatus('Ready', 'live');
      render(model(p));
    },
    (err) => {
      V.setStatus('Error', 'error');
      V.showError(err);
    },
  );
}

/** The allergy banner: said first, the fact a clinician must not miss (or that this access does not show it); none when no allergy is high. */
function allergyBanner(allergies: PatientView['allergies']): HTMLElement | null {
  if (allergies === undefined)
    return V.el('div', {
      class: 'banner restricted',
      id: 'allergy-banner',
      text: 'Allergies and clinical data are not shown with your access (demographics only).',
    });
  if (!allergies.length) return V.el('div', { class: 'banner nka', id: 'allergy-banner', text: 'No known allergies recorded.' });
  const high = allergies.filter((a) => a.criticality === 'high');
  return high.length
    ? V.el('div', {
        class: 'banner allergy',
        id: 'allergy-banner',
        role: 'alert',
        text: 'Allergy alert: ' + high.map((a) => a.substance).join(', '),
      })
    : null;
}

/** The demographics list (a row only when it has a value). */
function demographics(p: PatientView): HTMLElement {
  const dl = V.el('dl', { class: 'demo' });
  const row = (k: string, v: string) => {
    if (v) dl.append(V.el('dt', { text: k }), V.el('dd', { text: v }));
  };
  row('Born', born(p));
  row('Sex', (p.gender && SEX[p.gender]) || 'Not recorded');
  row('Identifiers', ids(p).join(', ') || 'None');
  row('Contact', p.telecom.map((t) => t.system + ': ' + t.value).join(', '));
  row('Record', p.version ? 'version ' + p.version + (p.updated ? ', updated ' + V.fmtDate(p.updated) : '') : '');
  return dl;
}

/** The allergies and intolerances, high criticality first. */
function allergyList(allergies: NonNullable<PatientView['allergies']>): HTMLElement {
  const ul = V.el('ul', { id: 'allergies', 'aria-labelledby': 'allergies-h' });
  const order: Record<string, number> = { high: 0, 'unable-to-assess': 1, low: 2 };
  allergies
    .slice()
    .sort((a, b) => (order[a.criticality ?? ''] || 1) - (order[b.criticality ?? ''] || 1))
    .forEach((a) => {
      const reaction = a.reaction;
      ul.append(
        V.el('li', { 'data-criticality': a.criticality }, [
          V.el('span', { class: 's', text: a.substance }),
          V.el('span', {
            class: 'crit',
            'data-criticality': a.criticality,
            text: (a.criticality && CRIT[a.criticality]) || a.criticality,
          }),
          reaction ? V.el('div', { class: 'muted', text: 'Reaction: ' + reaction }) : null,
        ]),
      );
    });
  if (!allergies.length) ul.append(V.el('li', { text: 'None recorded' }));
  return ul;
}

/** The latest vitals, each with its age (blood pressure as one value), then the NEWS2 as of its oldest input. */
function latestVitals(p: PatientView): HTMLElement {
  const box = V.el('ul', { class: 'vitals', id: 'vitals', 'aria-label': 'Latest vitals, each with its age' });
  aged = [];
  const by: Record<string, { code: string; value: number; effective_at: string }> = {};
  p.latest.forEach((v) => (by[v.code] = v));
  DATA.order.forEach((code) => {
    const v = by[code];
    const n = VITAL_NAMES[code];
    if (!v || !n) return;
    if (code === DATA.bp.systolic) {
      // blood pressure as one value, systolic first: "BP 120/80 mmHg"
      const dia = by[DATA.bp.diastolic];
      box.append(vitalItem('bp', 'BP ' + fmt(v.value) + '/' + (dia ? fmt(dia.value) : '–') + ' ' + n[1], dia ? [v, dia] : [v]));
    } else box.append(vitalItem(code, n[0] + ' ' + fmt(v.value) + ' ' + n[1], [v]));
  });
  if (p.news2) {
    const inputs = p.latest.filter((v) => DATA.news2Codes.indexOf(v.code) >= 0);
    const text = 'NEWS2 ' + p.news2.score + ' (' + p.news2.risk + ')' + (inputs.length ? ', as of ' + clock(oldestOf(inputs)) : '');
    box.append(inputs.length ? vitalItem('news2', text, inputs) : V.el('li', { 'data-code': 'news2', text: text }));
  }
  return box;
}

function render(p: PatientView): void {
  const rec = V.$('#record');
  rec.setAttribute('data-patient', p.id);
  V.$('#record-h').textContent = p.name;
  V.$('#record-empty').hidden = true;
  const body = V.$('#record-body');
  body.textContent = '';
  body.hidden = false;
  body.append(V.el('div', { class: 'ids', text: p.id }));
  // Allergies first: the fact a clinician must not miss.
  const banner = allergyBanner(p.allergies);
  if (banner) body.append(banner);
  body.append(V.el('h3', { text: 'Demographics' }), demographics(p));
  if (p.allergies !== undefined)
    body.append(V.el('h3', { id: 'allergies-h', text: 'Allergies and intolerances' }), allergyList(p.allergies));
  if (p.latest.length) {
    body.append(V.el('h3', { text: 'Latest vitals' }), latestVitals(p));
    tickAges();
  }
  rec.focus();
}

// ---- each value with its age (re-read every second, in place) ----

type Input = { code: string; effective_at: string };
let aged: Array<{ li: HTMLElement; el: HTMLElement; inputs: Input[] }> = [];
const fmt = (n: number) => String(Math.round(n * 10) / 10);
function oldestOf(inputs: Input[]): string {
  return inputs.map((v) => v.effective_at).reduce((o, at) => (Date.parse(at) < Date.parse(o) ? at : o));
}
function vitalItem(code: string, text: string, inputs: Input[]): HTMLLIElement {
  const el = V.el('span', { class: 'age' });
  const li = V.el('li', { 'data-code': code }, [V.el('span', { class: 'v', text: text }), el]);
  aged.push({ li, el, inputs });
  return li;
}
function tickAges(): void {
  const now = Date.now();
  aged.forEach((a) => {
    const stale = a.inputs.some((v) => isStale(v.code, v.effective_at, DATA.staleAfter, now));
    a.el.textContent = ' · ' + ageOf(oldestOf(a.inputs), now) + ' ago' + (stale ? ' · stale' : '');
    a.li.setAttribute('data-stale', String(stale));
  });
}
setInterval(tickAges, 1000);

V.$('#search').addEventListener('submit', (e) => {
  e.preventDefault();
  const q = V.$<HTMLInputElement>('#q').value.trim();
  if (q) search(q);
});
// A result the agent's own tool call produced (the host pushes it): show it.
V.onToolResult((r) => {
  if (r && (r.entry || r.patients)) {
    const list = showResults(r, '');
    const [only] = list;
    if (only && list.length === 1) open(only.id);
  } else if (r && (r.resourceType === 'Patient' || r.patient)) render(model(r));
});
V.onToolInput((args) => {
  if (args.name) V.$<HTMLInputElement>('#q').value = args.name;
});
if (V.params.q) {
  V.$<HTMLInputElement>('#q').value = V.params.q;
  search(V.params.q);
}
if (V.params.patient) open(V.params.patient);
