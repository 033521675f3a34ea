/**
 * patient-search-card: the master patient index at a glance. Search by name → results (name,
 * birth date, sex, identifiers) → the record: demographics, identifiers, contacts and the
 * allergies (high criticality first, with an allergy banner), plus latest vitals and NEWS2 when
 * the token allows. Reception tokens (write:patients without read:patients) get demographics only
 * and the card says so instead of implying "no allergies".
 * REST: GET /api/v1/patients?name=, GET /api/v1/patients/{id}. MCP: search_patients, get_patient.
 */
import { renderCard } from './shared';
import { scriptData, VITAL_LABELS } from './vitals';

/** Screen label and unit per vital code, for the record's latest vitals. */
const VITAL_NAMES = Object.fromEntries(Object.entries(VITAL_LABELS).map(([code, v]) => [code, [v.label, v.unit]]));

const STYLE = `
.layout{display:grid;grid-template-columns:minmax(260px,360px) minmax(0,1fr);gap:12px}
@media (max-width:760px){.layout{grid-template-columns:1fr}}
.search{display:flex;gap:8px;align-items:end;margin-bottom:10px}
.search .grow{flex:1}
.search input{width:100%}
#results{list-style:none;margin:0;padding:0;display:grid;gap:6px}
#results button{width:100%;text-align:left;background:#fff;color:var(--ink);border:1px solid var(--line);font-weight:400;padding:8px 10px}
#results button[aria-current=true]{border:2px solid var(--accent);background:#eef4fb}
#results .n{font-weight:650;display:block}
#results .d{font-size:.85rem;color:var(--muted)}
.record h2{margin:0 0 2px;font-size:1.3rem}
.record .ids{color:var(--muted);font-size:.9rem;margin-bottom:10px}
.record h3{font-size:1rem;margin:14px 0 6px}
dl.demo{display:grid;grid-template-columns:max-content 1fr;gap:4px 14px;margin:0}
dl.demo dt{font-weight:600;color:var(--muted)}
dl.demo dd{margin:0}
.banner{border-radius:6px;padding:8px 12px;font-weight:650;margin:6px 0 10px}
.banner.allergy{background:#b3261e;color:#fff}
.banner.nka{background:#eaf6ee;color:#145128;border:1px solid var(--ok)}
.banner.restricted{background:#f1f3f6;color:var(--ink);border:1px solid var(--line);font-weight:400}
#allergies{list-style:none;padding:0;margin:0;display:grid;gap:6px}
#allergies li{border:1px solid var(--line);border-left:6px solid #8792a2;border-radius:6px;padding:6px 10px;background:#fff}
#allergies li[data-criticality=high]{border-left-color:#b3261e}
#allergies li[data-criticality=low]{border-left-color:#1f7a3a}
#allergies .s{font-weight:650}
.crit{display:inline-block;font-size:.75rem;font-weight:700;border-radius:4px;padding:1px 6px;margin-left:6px;background:#f1f3f6;color:var(--ink)}
.crit[data-criticality=high]{background:#b3261e;color:#fff}
.crit[data-criticality=low]{background:#1f7a3a;color:#fff}
.vitals{display:flex;gap:8px;flex-wrap:wrap}
.vitals span{border:1px solid var(--line);border-radius:6px;padding:4px 8px;background:#fff;font-variant-numeric:tabular-nums}
.placeholder{color:var(--muted);padding:24px;text-align:center}
`;

const BODY = `
<div class="card">
<header class="card-header">
  <h1>Patient search</h1>
  <span class="sub">Master patient index</span>
  <span class="spacer"></span>
  <span class="pill" id="conn" role="status">Ready</span>
</header>
<main id="main">
  <div id="error" class="error" role="alert"></div>
  <div class="layout">
    <section class="panel" aria-labelledby="results-h">
      <form class="search" id="search" role="search" aria-label="Patients">
        <div class="grow"><label for="q">Name</label><input id="q" name="name" type="search" required minlength="1" maxlength="100" autocomplete="off" spellcheck="false" placeholder="Family or given name"></div>
        <button type="submit">Search</button>
      </form>
      <h2 id="results-h" class="sr-only">Results</h2>
      <p class="muted" id="result-count" aria-live="polite"></p>
      <ul id="results"></ul>
    </section>
    <section class="panel record" id="record" aria-labelledby="record-h" tabindex="-1">
      <h2 id="record-h">No patient selected</h2>
      <p class="placeholder" id="record-empty">Search by name, then choose a patient.</p>
      <div id="record-body" hidden></div>
    </section>
  </div>
</main>
</div>
`;

const SCRIPT = String.raw`
(function () {
  'use strict';
  var V = window.Vitalis;
  var CRIT = { high: 'High criticality', low: 'Low criticality', 'unable-to-assess': 'Criticality unknown' };
  var VITAL_NAMES = ${scriptData(VITAL_NAMES)};

  /**
   * One view model from either transport. The record envelope is the same on both, { view,
   * patient, allergies, latest_vitals, news2 }: REST with a FHIR Patient and AllergyIntolerance
   * resources, MCP get_patient with flat { id, name, birth_date, identifiers } and allergies
   * [{ substance, criticality, reaction }]. Search results: bare FHIR Patients (REST) or flat
   * patients carrying their allergies (MCP). "allergies" stays undefined when the caller may not
   * see them.
   */
  function model(x) {
    if (!x) return null;
    var env = x.patient ? x : null;
    var r = env ? env.patient : x;
    var allergies = env ? env.allergies : r.allergies;
    if (r.resourceType === 'Patient') {
      var n = (r.name && r.name[0]) || {};
      return {
        id: r.id, name: ((n.given || []).join(' ') + ' ' + (n.family || '')).trim() || r.id, birthDate: r.birthDate || null, gender: r.gender || null,
        identifiers: r.identifier || [], telecom: r.telecom || [],
        allergies: allergies === undefined ? undefined : allergies.map(function (a) {
          return { substance: a.code && a.code.text, criticality: a.criticality, reaction: a.reaction && a.reaction[0] && a.reaction[0].description };
        }),
        latest: (env && env.latest_vitals) || [], news2: env && env.news2,
        version: r.meta && r.meta.versionId, updated: r.meta && r.meta.lastUpdated,
      };
    }
    return {
      id: r.id, name: r.name || r.id, birthDate: r.birth_date || null, gender: r.gender || null,
      identifiers: r.identifiers || [], telecom: r.telecom || [],
      allergies: allergies === undefined ? undefined : allergies.map(function (a) { return { substance: a.substance, criticality: a.criticality, reaction: a.reaction }; }),
      latest: (env && env.latest_vitals) || [], news2: env && env.news2, version: r.version, updated: null,
    };
  }
  function age(birth) {
    if (!birth) return null;
    var b = new Date(birth + 'T00:00:00Z'), now = new Date();
    var a = now.getUTCFullYear() - b.getUTCFullYear();
    if (now.getUTCMonth() < b.getUTCMonth() || (now.getUTCMonth() === b.getUTCMonth() && now.getUTCDate() < b.getUTCDate())) a--;
    return a;
  }
  function born(m) {
    if (!m.birthDate) return 'Birth date unknown';
    var d = new Date(m.birthDate + 'T00:00:00Z').toLocaleDateString([], { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
    return d + ' (' + age(m.birthDate) + ' y)';
  }
  var SEX = { male: 'Male', female: 'Female', other: 'Other', unknown: 'Unknown' };
  function ids(m) { return m.identifiers.map(function (i) { return i.value + (i.system ? ' (' + i.system + ')' : ''); }); }
  function patientsOf(body) {
    if (!body) return [];
    var list = body.entry ? body.entry.map(function (e) { return e.resource; }) : (body.patients || (Array.isArray(body) ? body : []));
    return list.map(model);
  }

  /** A FHIR Bundle pages with link relation next. */
  function hasNext(body) { return !!(body.link && body.link.some(function (l) { return l.relation === 'next'; })); }

  function showResults(body, name) {
    var list = patientsOf(body);
    var ul = V.$('#results');
    ul.textContent = '';
    list.forEach(function (p) {
      var b = V.el('button', { type: 'button', 'data-patient': p.id, 'aria-current': 'false' }, [
        V.el('span', { class: 'n', text: p.name }),
        V.el('span', { class: 'd', text: [born(p), SEX[p.gender] || null, p.id].filter(Boolean).join(' · ') }),
      ]);
      b.addEventListener('click', function () { open(p.id); });
      ul.append(V.el('li', {}, [b]));
    });
    V.$('#result-count').textContent = list.length === 0 ? 'No patient matches' + (name ? ' "' + name + '"' : '') + '.' : list.length + (list.length === 1 ? ' patient found.' : ' patients found.') + (body && (hasNext(body) || body.next_cursor) ? ' More match: refine the name.' : '');
    return list;
  }

  function search(name) {
    V.setStatus('Searching…', '');
    var q = new URLSearchParams({ name: name, limit: '20' });
    return V.op('search_patients', { name: name, limit: 20 }, { path: '/api/v1/patients?' + q }).then(function (body) {
      V.showError(null);
      V.setStatus('Ready', 'live');
      showResults(body, name);
    }, function (err) { V.setStatus('Error', 'error'); V.showError(err); });
  }

  function open(id) {
    Array.from(document.querySelectorAll('#results button')).forEach(function (b) { b.setAttribute('aria-current', String(b.getAttribute('data-patient') === id)); });
    V.setStatus('Loading…', '');
    return V.op('get_patient', { patient_id: id }, { path: '/api/v1/patients/' + encodeURIComponent(id) }).then(function (p) {
      V.showError(null);
      V.setStatus('Ready', 'live');
      render(model(p));
    }, function (err) { V.setStatus('Error', 'error'); V.showError(err); });
  }

  function render(p) {
    var rec = V.$('#record');
    rec.setAttribute('data-patient', p.id);
    V.$('#record-h').textContent = p.name;
    V.$('#record-empty').hidden = true;
    var body = V.$('#record-body');
    body.textContent = '';
    body.hidden = false;
    body.append(V.el('div', { class: 'ids', text: p.id }));

    // Allergies first: the fact a clinician must not miss.
    var allergies = p.allergies;
    if (allergies === undefined) {
      body.append(V.el('div', { class: 'banner restricted', id: 'allergy-banner', text: 'Allergies and clinical data are not shown with your access (demographics only).' }));
    } else if (!allergies.length) {
      body.append(V.el('div', { class: 'banner nka', id: 'allergy-banner', text: 'No known allergies recorded.' }));
    } else {
      var high = allergies.filter(function (a) { return a.criticality === 'high'; });
      if (high.length) body.append(V.el('div', { class: 'banner allergy', id: 'allergy-banner', role: 'alert', text: 'Allergy alert: ' + high.map(function (a) { return a.substance; }).join(', ') }));
    }

    var dl = V.el('dl', { class: 'demo' });
    function row(k, v) { if (v) dl.append(V.el('dt', { text: k }), V.el('dd', { text: v })); }
    row('Born', born(p));
    row('Sex', SEX[p.gender] || 'Not recorded');
    row('Identifiers', ids(p).join(', ') || 'None');
    row('Contact', p.telecom.map(function (t) { return t.system + ': ' + t.value; }).join(', '));
    row('Record', p.version ? 'version ' + p.version + (p.updated ? ', updated ' + V.fmtDate(p.updated) : '') : '');
    body.append(V.el('h3', { text: 'Demographics' }), dl);

    if (allergies !== undefined) {
      body.append(V.el('h3', { id: 'allergies-h', text: 'Allergies and intolerances' }));
      var ul = V.el('ul', { id: 'allergies', 'aria-labelledby': 'allergies-h' });
      var order = { high: 0, 'unable-to-assess': 1, low: 2 };
      allergies.slice().sort(function (a, b) { return (order[a.criticality] || 1) - (order[b.criticality] || 1); }).forEach(function (a) {
        var reaction = a.reaction;
        ul.append(V.el('li', { 'data-criticality': a.criticality }, [
          V.el('span', { class: 's', text: a.substance }),
          V.el('span', { class: 'crit', 'data-criticality': a.criticality, text: CRIT[a.criticality] || a.criticality }),
          reaction ? V.el('div', { class: 'muted', text: 'Reaction: ' + reaction }) : null,
        ]));
      });
      if (!allergies.length) ul.append(V.el('li', { text: 'None recorded' }));
      body.append(ul);
    }

    if (p.latest.length) {
      body.append(V.el('h3', { text: 'Latest vitals' }));
      var box = V.el('div', { class: 'vitals' });
      p.latest.forEach(function (v) {
        var n = VITAL_NAMES[v.code];
        if (n) box.append(V.el('span', { text: n[0] + ' ' + v.value + ' ' + n[1] }));
      });
      if (p.news2) box.append(V.el('span', { text: 'NEWS2 ' + p.news2.score + ' (' + p.news2.risk + ')' }));
      body.append(box);
    }
    rec.focus();
  }

  V.$('#search').addEventListener('submit', function (e) {
    e.preventDefault();
    var q = V.$('#q').value.trim();
    if (q) search(q);
  });
  // A result the agent's own tool call produced (the host pushes it): show it.
  V.onToolResult(function (r) {
    if (r && (r.entry || r.patients)) {
      var list = showResults(r, '');
      if (list.length === 1) open(list[0].id);
    } else if (r && (r.resourceType === 'Patient' || r.patient)) render(model(r));
  });
  V.onToolInput(function (args) { if (args.name) V.$('#q').value = args.name; });
  if (V.params.q) { V.$('#q').value = V.params.q; search(V.params.q); }
  if (V.params.patient) open(V.params.patient);
})();
`;

export function searchHtml(): string {
  return renderCard({ name: 'patient-search-card', title: 'Patient search', style: STYLE, body: BODY, script: SCRIPT });
}
