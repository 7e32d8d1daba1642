// agenteval view: a page over the viewer's JSON API. Every text from a
// record is set as text (textContent), never parsed as markup.
'use strict';

const main = () => document.getElementById('main');

// h builds an element: attributes (on* are listeners), then children
// (strings become text nodes).
function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'text') el.textContent = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const k of kids.flat()) {
    if (k === null || k === undefined || k === false) continue;
    el.append(k instanceof Node ? k : document.createTextNode(String(k)));
  }
  return el;
}

async function api(path, params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) {
    if (Array.isArray(v)) v.forEach((x) => q.append(k, x));
    else if (v !== undefined && v !== '' && v !== null) q.set(k, v);
  }
  const res = await fetch('api/' + path + (q.toString() ? '?' + q : ''));
  if (!res.ok) throw new Error((await res.text()) || res.statusText);
  return res.json();
}

// token is the server's, sent with the one request that writes: a label.
let token = null;
async function review(run, j, index, verdict, note) {
  if (!token) token = (await api('session')).token;
  const res = await fetch('api/label', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Agenteval-Token': token },
    body: JSON.stringify({ run, id: j.id, index, verdict, note }),
  });
  if (!res.ok) throw new Error((await res.text()) || res.statusText);
  return res.json();
}

// reviewCard shows a job's review and lets a person give one.
function reviewCard(run, j, index) {
  const r = j.review;
  const note = h('textarea', { name: 'note', rows: 2, placeholder: 'Note (why)', 'aria-label': 'Review note' });
  note.value = r ? r.note || '' : '';
  const msg = h('span', { class: 'muted', role: 'status' });
  const send = (verdict) => async () => {
    try {
      await review(run, j, index, verdict, note.value);
      await render();
    } catch (e) {
      msg.textContent = 'Error: ' + e.message;
    }
  };
  return h('section', { class: 'card review', id: 'review' },
    h('h2', { text: 'Review' }),
    r ? h('p', { class: 'reviewed ' + (r.verdict === 'pass' ? 'passed' : 'failed'), text: 'Reviewed: ' + r.verdict + (r.note ? ' — ' + r.note : '') + ' (' + new Date(r.at).toLocaleString() + ')' })
      : h('p', { class: 'muted', text: 'Not reviewed. A review is kept in labels.jsonl beside the results; reports apply it.' }),
    note,
    h('div', { class: 'filters' },
      h('button', { class: 'b', name: 'pass', onclick: send('pass'), text: 'Mark pass' }),
      h('button', { class: 'b', name: 'fail', onclick: send('fail'), text: 'Mark fail' }),
      r ? h('button', { class: 'b', name: 'clear', onclick: send(''), text: 'Withdraw review' }) : null,
      msg));
}

const ms = (v) => (v < 1000 ? Math.round(v) + ' ms' : (v / 1000).toFixed(2) + ' s');
const pct = (a, b) => (b ? ((100 * a) / b).toFixed(1) + '%' : 'n/a');
const enc = encodeURIComponent;

function crumbs(...parts) {
  const c = document.getElementById('crumbs');
  c.replaceChildren(...parts.flatMap((p, i) => [i ? ' › ' : '', p]));
}

function show(...kids) {
  main().replaceChildren(...kids);
}

let timer = null;
function later(fn, ms) {
  clearTimeout(timer);
  timer = setTimeout(fn, ms);
}

// follow keeps watching the runs shown while any is unfinished (fewer
// jobs recorded than planned) or live: every second it asks for the runs'
// figures and draws the page again when a shown run has more jobs or its
// live mark changed. A run whose writer pauses (a slow agent: minutes a
// job) is still followed, and a finished run costs nothing.
function follow(shown) {
  const watched = shown.filter((r) => r.live || (r.total_jobs && r.recorded < r.total_jobs));
  if (!watched.length) return;
  later(async () => {
    let now = [];
    try {
      now = await runs();
    } catch (e) {
      return follow(shown); // the server is busy or restarting: ask again
    }
    const changed = watched.some((r) => {
      const n = now.find((x) => x.id === r.id);
      return n && (n.recorded !== r.recorded || n.live !== r.live);
    });
    if (changed) return render();
    follow(shown);
  }, 1000);
}

// route parses "#/kind/a/b?x=y".
function route() {
  const raw = location.hash.replace(/^#\/?/, '');
  const [path, qs] = raw.split('?');
  const parts = path ? path.split('/').map(decodeURIComponent) : [];
  return { parts, params: new URLSearchParams(qs || '') };
}

async function render() {
  clearTimeout(timer);
  const hash = location.hash;
  try {
    await page();
  } finally {
    // What the page shows is for this address (tests wait for it).
    if (location.hash === hash) document.body.dataset.shown = hash;
  }
}

async function page() {
  const { parts, params } = route();
  try {
    switch (parts[0]) {
      case 'run':
        return await runPage(parts[1], params);
      case 'job':
        return await jobPage(parts[1], Number(parts[2]), parts.slice(3).join('/'));
      case 'compare':
        return await comparePage(parts[1], parts[2], Number(parts[3]), parts.slice(4).join('/'), params);
      case 'side':
        return await sidePage(parts[1], Number(parts[2]), parts.slice(3).join('/'), params);
      default:
        return await runsPage();
    }
  } catch (e) {
    show(h('p', { class: 'failed', role: 'alert', text: 'Error: ' + e.message }));
  }
}

let runsCache = [];
async function runs() {
  runsCache = await api('runs');
  return runsCache;
}

function figures(r) {
  return h('div', { class: 'figures' },
    h('div', {}, h('b', { text: pct(r.passed, r.recorded) }), 'pass rate'),
    h('div', {}, h('b', { class: 'passed', text: r.passed }), 'passed'),
    h('div', {}, h('b', { class: 'failed', text: r.failed }), 'failed'),
    h('div', {}, h('b', { class: 'incomplete', text: r.incomplete }), 'incomplete'),
    h('div', {}, h('b', { text: r.recorded + (r.total_jobs ? ' / ' + r.total_jobs : '') }), 'recorded'),
    r.live ? h('div', {}, h('b', { class: 'live', text: 'live' }), r.eta_ms ? 'ETA ' + ms(r.eta_ms) : 'writing') : null);
}

async function runsPage() {
  crumbs();
  const rs = await runs();
  show(h('h1', { text: rs.length + ' run(s)' }),
    ...rs.map((r) => h('div', { class: 'card run', 'data-run': r.id },
      h('h2', {}, h('a', { href: '#/run/' + enc(r.id), text: r.name }), ' ', h('span', { class: 'muted', text: r.id })),
      h('p', { class: 'muted', text: 'agent ' + r.agent + ' · ' + (r.sources || []).join(', ') + ' · started ' + new Date(r.started).toLocaleString() + ' · ' + r.files.length + ' file(s)' }),
      figures(r))));
  follow(rs);
}

async function runPage(id, params) {
  const rs = await runs();
  const r = rs.find((x) => x.id === id) || rs[0];
  crumbs(h('a', { href: '#/run/' + enc(r.id), text: r.name }));
  const q = Object.fromEntries(params);
  const limit = 50;
  const offset = Number(q.offset || 0);
  // A parameter filter is "p:PATH" in the address, "param=PATH=VALUE" to the API.
  const paramFilters = [...params.entries()].filter(([k]) => k.startsWith('p:')).map(([, v]) => v);
  const [page, groups] = await Promise.all([
    api('jobs', { run: r.id, status: q.status, scenario: q.scenario, variant: q.variant, why: q.why, q: q.q, sort: q.sort, desc: q.desc,
      param: paramFilters, eval: q.eval, failing: q.failing, review: q.review, offset, limit }),
    api('groups', { run: r.id }),
  ]);
  const go = (changes) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) if (v === '' || v === undefined) next.delete(k); else next.set(k, v);
    if (!('offset' in changes)) next.delete('offset');
    location.hash = '#/run/' + enc(r.id) + (next.toString() ? '?' + next : '');
  };
  const select = (name, label, options) => h('select', { 'aria-label': label, name, onchange: (e) => go({ [name]: e.target.value }) },
    h('option', { value: '', text: label + ': all' }),
    ...options.map((o) => h('option', { value: o.name, selected: q[name] === o.name, text: o.name + (o.n !== undefined ? ' (' + o.n + ')' : '') })));
  const search = h('input', { type: 'search', name: 'q', placeholder: 'Search inputs, replies, messages…', value: q.q || '' });
  search.addEventListener('keydown', (e) => { if (e.key === 'Enter') go({ q: search.value }); });
  const sortBy = (key) => go({ sort: key, desc: q.sort === key && q.desc !== '1' ? '1' : '' });
  const others = rs.filter((x) => x.id !== r.id);
  const rows = page.rows.map((j) => h('tr', { class: 'job', 'data-id': j.id, onclick: () => { location.hash = '#/job/' + enc(r.id) + '/' + j.index + '/' + enc(j.id); } },
    h('td', { 'data-label': 'Job' }, h('a', { href: '#/job/' + enc(r.id) + '/' + j.index + '/' + enc(j.id), text: j.id })),
    h('td', { 'data-label': 'Status', class: j.status }, j.status, j.review ? h('span', { class: 'badge ' + (j.review === 'pass' ? 'passed' : 'failed'), title: 'reviewed by a person', text: ' reviewed: ' + j.review }) : null),
    h('td', { 'data-label': 'Scenario', text: j.scenario }),
    r.agent && page.facets.variants ? h('td', { 'data-label': 'Agent', text: j.variant || '' }) : null,
    h('td', { 'data-label': 'Parameters', text: Object.entries(j.params || {}).map(([k, v]) => k + '=' + JSON.stringify(v)).join(', ') }),
    h('td', { 'data-label': 'Time', class: 'n', text: ms(j.duration_ms) }),
    h('td', { 'data-label': 'Why', text: j.why || '' })));
  show(
    h('h1', { text: r.name }),
    h('div', { class: 'card' }, figures(r),
      others.length ? h('p', {}, 'Compare a job with another run: open a job, then pick the run.') : null),
    groups.length ? h('section', { class: 'card' }, h('h2', { text: 'Why jobs did not pass' }),
      h('ul', { class: 'groups' }, ...groups.map((g) => h('li', {},
        h('a', { class: 'group', onclick: () => go({ why: g.why, status: '' }) }, g.jobs + ' job(s)'), ': ',
        h('span', { class: g.status, text: g.why }))))) : null,
    h('h2', { text: 'Jobs' }),
    h('div', { class: 'filters' }, search,
      select('status', 'Status', [{ name: 'passed' }, { name: 'failed' }, { name: 'incomplete' }, { name: 'not-passed' }]),
      select('scenario', 'Scenario', page.facets.scenarios || []),
      (page.facets.variants || []).length ? select('variant', 'Agent', page.facets.variants) : null,
      ...(page.facets.params || []).map((pf) => h('select', { 'aria-label': 'Parameter ' + pf.path, name: 'p:' + pf.path, onchange: (e) => go({ ['p:' + pf.path]: e.target.value }) },
        h('option', { value: '', text: pf.path + ': all' }),
        ...pf.values.map((o) => h('option', { value: o.name, selected: q['p:' + pf.path] === o.name, text: o.name.slice(pf.path.length + 1).slice(0, 60) + ' (' + o.n + ')' })))),
      (page.facets.evals || []).length ? select('eval', 'Evaluation', page.facets.evals) : null,
      (page.facets.failing || []).length ? select('failing', 'Failing evaluation', page.facets.failing) : null,
      select('review', 'Review', [{ name: 'pass' }, { name: 'fail' }, { name: 'any' }, { name: 'none' }]),
      q.why ? h('button', { class: 'b', onclick: () => go({ why: '' }), text: 'reason: ' + q.why.slice(0, 60) + ' ✕' }) : null),
    h('div', { class: 'pager' },
      h('span', { class: 'count', text: page.total + (page.more ? '+' : '') + ' job(s)' + (page.total ? ', ' + (offset + 1) + '–' + (offset + page.rows.length) : '') + (page.more && page.searched ? ' (searched ' + page.searched + ' of ' + r.recorded + ')' : '') }),
      h('button', { class: 'b', disabled: offset === 0, onclick: () => go({ offset: Math.max(0, offset - limit) }), text: '‹ Previous' }),
      h('button', { class: 'b', disabled: offset + limit >= page.total, onclick: () => go({ offset: offset + limit }), text: 'Next ›' })),
    h('table', { class: 'jobs' },
      h('thead', {}, h('tr', {},
        h('th', {}, h('button', { onclick: () => sortBy('index'), text: 'Job' })),
        h('th', {}, h('button', { onclick: () => sortBy('status'), text: 'Status' })),
        h('th', { text: 'Scenario' }),
        r.agent && page.facets.variants ? h('th', { text: 'Agent' }) : null,
        h('th', { text: 'Parameters' }),
        h('th', { class: 'n' }, h('button', { onclick: () => sortBy('duration'), text: 'Time' })),
        h('th', { text: 'Why' }))),
      h('tbody', {}, ...rows)));
  follow([r]);
}

function kv(label, value) {
  return value === undefined || value === null || value === '' ? null : h('div', {}, h('span', { class: 'muted', text: label + ': ' }), String(value));
}

function tokens(u) {
  return u && u.total_tokens ? u.total_tokens + ' (prompt ' + u.prompt_tokens + ', completion ' + u.completion_tokens + ')' : '';
}

// jobView renders one job's record.
function jobView(j, other) {
  if (!j) return h('p', { class: 'muted', text: 'No record of this job.' });
  const status = j.passed ? 'passed' : j.completed ? 'failed' : 'incomplete';
  const differs = (f) => other && JSON.stringify(f(j)) !== JSON.stringify(f(other)) ? 'diff' : null;
  const evals = (j.evaluations || []).map((e) => h('tr', { class: differs((x) => (x.evaluations || []).map((y) => y.passed)) && !e.passed ? 'diff' : null },
    h('td', { class: e.passed ? 'passed' : 'failed', text: e.passed ? '✓' : '✗' }),
    h('td', { text: e.type + (e.description ? ' (' + e.description + ')' : '') }),
    h('td', { text: e.scope + ' ' + e.step + (e.scope === 'turn' ? ', turn ' + e.turn : '') }),
    h('td', {}, e.message, e.error ? h('div', { class: 'failed', text: 'error: ' + e.error }) : null,
      e.details ? h('details', {}, h('summary', { text: 'evidence' }), h('pre', { text: JSON.stringify(e.details, null, 2) })) : null)));
  const turns = (j.transcript || []).map((t) => h('div', { class: 'turn ' + t.role },
    h('div', { class: 'role', text: t.role + (t.duration ? ' · ' + ms(t.duration / 1e6) : '') }),
    h('pre', { text: t.text }),
    ...(t.actions || []).map((a) => h('details', { class: 'call' },
      h('summary', {}, h('code', { text: a.name }), a.error ? h('span', { class: 'failed', text: ' ✗ ' + a.error }) : null,
        a.start && a.end ? h('span', { class: 'muted', text: ' ' + ms(new Date(a.end) - new Date(a.start)) }) : null),
      h('pre', { text: 'args: ' + JSON.stringify(a.args ?? {}, null, 2) + (a.result !== undefined ? '\nresult: ' + JSON.stringify(a.result, null, 2) : '') })))));
  return h('div', { class: 'jobview' },
    h('div', { class: 'card' },
      h('div', { class: 'status ' + status + ' ' + (differs((x) => x.passed) || ''), text: status + (j.cause ? ' (' + j.cause + ')' : '') }),
      kv('Verdict' + (j.strategy ? ' (' + j.strategy + ')' : ''), j.reason),
      j.review ? kv('Reviewed by a person', j.review.verdict + (j.review.note ? ': ' + j.review.note : '')) : null,
      kv('Error', j.error),
      kv('Scenario', j.scenario_name ? j.scenario_name + ' (' + j.scenario + ')' : j.scenario),
      kv('Parameters', Object.entries(j.params || {}).map(([k, v]) => k + '=' + JSON.stringify(v)).join(', ')),
      kv('Agent', [j.agent, j.model].filter(Boolean).join(' · ')),
      kv('Score', j.score),
      kv('Duration', ms(j.duration_ms)),
      kv('Attempts', j.attempts),
      kv('Tokens', tokens(j.usage)),
      kv('Judge tokens', tokens(j.judge_usage)),
      kv('Tool calls', j.efficiency && j.efficiency.tool_calls ? j.efficiency.tool_calls.total + ' (' + j.efficiency.tool_calls.failed + ' failed)' : ''),
      kv('Termination', (j.termination_reasons || []).join(', ')),
      (j.notes || []).length ? h('details', {}, h('summary', { text: 'Notes (' + j.notes.length + ')' }), h('pre', { text: j.notes.join('\n') })) : null),
    j.crash ? h('section', { class: 'card crash' }, h('h2', { text: 'Crash' }), h('pre', { text: j.crash })) : null,
    h('h2', { text: 'Evaluations' }),
    h('table', { class: 'evals' }, h('tbody', {}, ...evals)),
    (j.checkpoints || []).length ? h('section', {}, h('h2', { text: 'Checkpoints' }), ...j.checkpoints.map((c) => h('div', { class: 'card' },
      h('span', { class: c.passed ? 'passed' : 'failed', text: (c.passed ? '✓ ' : '✗ ') + c.id }), ' ', c.description || '', kv('Expected', c.expected), kv('Error', c.error),
      c.actual ? h('pre', { text: JSON.stringify(c.actual, null, 2) }) : null))) : null,
    (j.attempt_log || []).length ? h('section', {}, h('h2', { text: 'Attempts' }), h('pre', { text: j.attempt_log.map((a) => a.n + ': ' + a.status + (a.cause ? ' (' + a.cause + ')' : '') + ' ' + a.reason + (a.evidence ? ' — ' + a.evidence : '')).join('\n') })) : null,
    h('h2', { text: 'Transcript' }),
    turns.length ? h('div', { class: 'transcript' }, ...turns) : h('p', { class: 'muted', text: 'No transcript kept (run --transcripts).' }),
    (j.code_steps || []).length ? h('section', {}, h('h2', { text: 'Code steps' }), ...j.code_steps.map((c) => h('div', { class: 'card' },
      h('div', { text: 'step ' + c.step + ': exit code ' + c.exit_code + ' in ' + ms(c.duration_ms) }),
      c.stdout ? h('div', {}, h('span', { class: 'muted', text: 'stdout' }), h('pre', { text: c.stdout })) : null,
      c.stderr ? h('div', {}, h('span', { class: 'muted', text: 'stderr' }), h('pre', { text: c.stderr })) : null))) : null,
    (j.mock_calls || []).length ? h('section', {}, h('h2', { text: 'Mock calls' }), h('pre', { text: j.mock_calls.map((m) => m.service + '.' + m.method + '(' + JSON.stringify(m.args || []).slice(1, -1) + ')' + (m.error ? ' ✗ ' + m.error : '') + (m.mock >= 0 ? ' [mock ' + m.mock + ']' : ' [no mock]')).join('\n') })) : null,
    j.agent_log ? h('section', {}, h('h2', { text: 'Agent log' }), h('pre', { text: j.agent_log })) : null);
}

async function jobPage(runID, index, id) {
  const rs = await runs();
  const r = rs.find((x) => x.id === runID);
  const j = await api('job', { run: runID, id, index });
  crumbs(h('a', { href: '#/run/' + enc(runID), text: r ? r.name : runID }), h('span', { text: id }));
  const others = rs.filter((x) => x.id !== runID);
  show(h('h1', { text: id }),
    h('p', {}, h('a', { id: 'side-link', href: '#/side/' + enc(runID) + '/' + index + '/' + enc(id), text: 'Side by side with the other agents, models, repetitions and runs of this combination' })),
    others.length ? h('div', { class: 'filters' }, h('select', { 'aria-label': 'Compare with run', onchange: (e) => { if (e.target.value) location.hash = '#/compare/' + enc(runID) + '/' + enc(e.target.value) + '/' + index + '/' + enc(id); } },
      h('option', { value: '', text: 'Compare with another run…' }), ...others.map((o) => h('option', { value: o.id, text: o.name + ' (' + o.id + ')' })))) : null,
    reviewCard(runID, j, index),
    jobView(j));
}

async function comparePage(a, b, index, id) {
  const c = await api('compare', { a, b, id, index });
  const rs = await runs();
  const name = (x) => (rs.find((r) => r.id === x) || { name: x }).name;
  crumbs(h('a', { href: '#/run/' + enc(a), text: name(a) }), h('span', { text: 'vs ' + name(b) }), h('span', { text: id }));
  const sa = c.a ? (c.a.passed ? 'passed' : c.a.completed ? 'failed' : 'incomplete') : 'missing';
  const sb = c.b ? (c.b.passed ? 'passed' : c.b.completed ? 'failed' : 'incomplete') : 'missing';
  const verdict = sa === sb ? 'same outcome: ' + sa : sa === 'passed' && sb !== 'passed' ? 'regression: ' + sa + ' → ' + sb : sa + ' → ' + sb;
  show(h('h1', { text: id }),
    h('p', { class: 'card ' + (sa === 'passed' && sb !== 'passed' ? 'failed' : ''), text: verdict }),
    h('div', { class: 'side' },
      h('div', {}, h('h2', { text: 'Baseline: ' + name(a) }), jobView(c.a, c.b)),
      h('div', {}, h('h2', { text: 'Candidate: ' + name(b) }), jobView(c.b, c.a))));
}

// sidePage shows one combination's jobs in columns (the job asked for
// first): a row per fact, the cells that differ marked, "different only"
// hiding the rest, and each job that regressed against the first marked.
async function sidePage(runID, index, id, params) {
  const data = await api('side', { run: runID, id, index });
  const rs = await runs();
  const r = rs.find((x) => x.id === runID);
  crumbs(h('a', { href: '#/run/' + enc(runID), text: r ? r.name : runID }), h('a', { href: '#/job/' + enc(runID) + '/' + index + '/' + enc(id), text: id }), h('span', { text: 'side by side' }));
  const onlyDiff = params.get('diff') === '1';
  const jobs = data.jobs;
  const status = (j) => (j.passed ? 'passed' : j.completed ? 'failed' : 'incomplete');
  const lastReply = (j) => { const t = (j.transcript || []).filter((x) => x.role === 'assistant'); return t.length ? t[t.length - 1].text : ''; };
  const evalKeys = [];
  for (const s of jobs) for (const e of s.job.evaluations || []) {
    const k = e.type + (e.description ? ' (' + e.description + ')' : '') + ' · ' + e.scope + ' ' + e.step;
    if (!evalKeys.includes(k)) evalKeys.push(k);
  }
  const evalCell = (j, k) => {
    const e = (j.evaluations || []).find((x) => x.type + (x.description ? ' (' + x.description + ')' : '') + ' · ' + x.scope + ' ' + x.step === k);
    return e ? (e.passed ? '✓ ' : '✗ ') + (e.message || '') : '';
  };
  const facts = [
    ['Run', (s) => s.run_name],
    ['Agent · model', (s) => s.variant || ''],
    ['Repetition', (s) => 'run ' + s.job.run],
    ['Status', (s) => status(s.job) + (s.versus ? ' — ' + s.versus : '')],
    ['Review', (s) => (s.job.review ? s.job.review.verdict + (s.job.review.note ? ': ' + s.job.review.note : '') : '')],
    ['Reason', (s) => s.job.reason || ''],
    ...evalKeys.map((k) => [k, (s) => evalCell(s.job, k)]),
    ['Reply', (s) => lastReply(s.job)],
    ['Tool calls', (s) => (s.job.transcript || []).flatMap((t) => (t.actions || []).map((a) => a.name + (a.error ? ' ✗' : ''))).join(', ')],
    ['Duration', (s) => ms(s.job.duration_ms)],
    ['Tokens', (s) => String((s.job.usage || {}).total_tokens || 0)],
  ];
  const rows = facts.map(([label, f]) => {
    const cells = jobs.map(f);
    const differs = cells.some((c) => c !== cells[0]);
    if (onlyDiff && !differs && label !== 'Status') return null;
    return h('tr', { class: differs ? 'differs' : null, 'data-fact': label },
      h('th', { text: label }),
      ...cells.map((c, i) => h('td', { class: (differs && c !== cells[0] ? 'diff ' : '') + (label === 'Status' ? status(jobs[i].job) : ''), 'data-label': jobs[i].run_name + ' ' + (jobs[i].variant || '') }, label === 'Reply' ? h('pre', { text: c }) : c)));
  });
  const regressions = jobs.filter((s) => s.versus === 'regression').length;
  show(h('h1', { text: 'Side by side: ' + id }),
    h('div', { class: 'filters' },
      h('label', {}, h('input', { type: 'checkbox', name: 'diff', checked: onlyDiff, onchange: (e) => { location.hash = '#/side/' + enc(runID) + '/' + index + '/' + enc(id) + (e.target.checked ? '?diff=1' : ''); } }), ' Different only'),
      h('span', { class: regressions ? 'failed' : 'muted', id: 'regressions', text: regressions + ' regression(s) against the first job' })),
    (data.groups || []).length > 1 ? h('section', { class: 'card' },
      h('h2', { text: 'This combination by run and agent' }),
      h('p', { class: 'muted', text: 'Against the first row, as report compare tests a combination: Fisher\'s exact one-sided test for a lower pass rate at α = ' + data.alpha + '.' }),
      h('table', { class: 'groups-table' },
        h('thead', {}, h('tr', {}, h('th', { text: 'Run' }), h('th', { text: 'Agent · model' }), h('th', { class: 'n', text: 'Passed' }), h('th', { class: 'n', text: 'p' }), h('th', { text: 'Decision' }))),
        h('tbody', {}, ...data.groups.map((g) => h('tr', { class: g.regression ? 'regression' : null, 'data-regression': g.regression ? '1' : null },
          h('td', { 'data-label': 'Run', text: (rs.find((x) => x.id === g.run) || { name: g.run }).name }),
          h('td', { 'data-label': 'Agent · model', text: g.variant || '' }),
          h('td', { class: 'n', 'data-label': 'Passed', text: g.passed + '/' + g.jobs }),
          h('td', { class: 'n', 'data-label': 'p', text: g.baseline ? 'baseline' : String(g.p) }),
          h('td', { 'data-label': 'Decision', class: g.regression ? 'failed' : null, text: g.baseline ? '' : g.regression ? 'regression' : 'no significant drop' })))))) : null,
    h('div', { class: 'scroll' }, h('table', { class: 'side-table' },
      h('thead', {}, h('tr', {}, h('th', { text: '' }), ...jobs.map((s, i) => h('th', { class: s.versus || null, 'data-versus': s.versus || null },
        h('a', { href: '#/job/' + enc(s.run) + '/' + s.index + '/' + enc(s.job.id), text: i === 0 ? 'baseline' : '#' + i }))))),
      h('tbody', {}, ...rows))));
}

window.addEventListener('hashchange', render);
window.addEventListener('DOMContentLoaded', render);
