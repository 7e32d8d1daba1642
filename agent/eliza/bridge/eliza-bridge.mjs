// eliza-bridge.mjs: agenteval's bridge to a real ElizaOS runtime (Node 20+).
//
// agenteval starts it for the agent kind `eliza` (or `eliza:PROJECT_DIR`)
// and speaks version 1 of its exec protocol (docs/exec-protocol.md) with it
// on stdin and stdout. It serves many sessions, one at a time; each session
// (one job of a scenario) gets an AgentRuntime of its own:
//
//   - the character is the scenario's (name, bio, system, style, settings,
//     llm.model as OPENAI_SMALL_MODEL/OPENAI_LARGE_MODEL, temperature and
//     max_tokens for the text models), over the project's own character when
//     PROJECT_DIR exports one;
//   - the plugins are the scenario's (default @elizaos/plugin-sql,
//     @elizaos/plugin-bootstrap, @elizaos/plugin-openai), resolved from the
//     project's node_modules, else from AGENTEVAL_NPM_DIR's global packages;
//   - the database is PGLite in a directory of the session's own (inside the
//     job's directory), copied from a migrated template and removed at the
//     end of the session;
//   - each message goes through runtime.messageService.handleMessage and is
//     answered when it resolves (no sleeps, no polling); the actions the
//     runtime ran are read from its action_result memories;
//   - the service methods the scenario mocks (the start line's `mocks`) are
//     wrapped behind runtime.getService, as ElizaOS's MockEngine does, and
//     answered by agenteval over the protocol (a NO_MOCK answer calls the real
//     method, bound to its service).
//
// Environment: AGENTEVAL_ELIZA_PROJECT (the project directory, or empty),
// AGENTEVAL_NPM_DIR (where scripts/test.sh installs npm_packages),
// AGENTEVAL_ELIZA_CACHE (a folder to keep the PGLite template in across
// runs; by default it is made in the run's work folder), OPENAI_BASE_URL
// and OPENAI_API_KEY (plugin-openai's endpoint).

import { createInterface } from 'node:readline';
import { existsSync, readFileSync, mkdirSync, mkdtempSync, rmSync, renameSync, cpSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const PROTOCOL_VERSION = 1;
const DEFAULT_PLUGINS = ['@elizaos/plugin-sql', '@elizaos/plugin-bootstrap', '@elizaos/plugin-openai'];
const SQL_PLUGIN = '@elizaos/plugin-sql';

// stdout belongs to the protocol: whatever ElizaOS and its plugins print
// (their logger writes to stdout) goes to stderr, agenteval's log.
const protocolWrite = process.stdout.write.bind(process.stdout);
process.stdout.write = process.stderr.write.bind(process.stderr);
process.env.LOG_LEVEL ??= 'warn';
globalThis.AI_SDK_LOG_WARNINGS = false;

function send(obj) {
  protocolWrite(JSON.stringify(obj) + '\n');
}

function log(...parts) {
  process.stderr.write(`eliza-bridge: ${parts.join(' ')}\n`);
}

// ---- finding ElizaOS ------------------------------------------------------

const projectDir = process.env.AGENTEVAL_ELIZA_PROJECT ? resolve(process.env.AGENTEVAL_ELIZA_PROJECT) : '';
const npmDir = process.env.AGENTEVAL_NPM_DIR || '';

// roots are the node_modules folders packages are looked up in, in order:
// the project's (and its parents', as Node resolves), then the test setup's.
function roots() {
  const out = [];
  if (projectDir) {
    for (let d = projectDir; ; d = dirname(d)) {
      out.push(join(d, 'node_modules'));
      if (dirname(d) === d) break;
    }
  }
  if (npmDir) out.push(join(npmDir, 'lib', 'node_modules'));
  return out.filter((d) => existsSync(d));
}

function installHint(name) {
  if (projectDir) return `install it in the project: (cd ${projectDir} && npm install ${name})`;
  return `install it where agenteval looks (${npmDir ? join(npmDir, 'lib', 'node_modules') : 'AGENTEVAL_NPM_DIR'}): add it to scripts/test.sh's npm_packages, or npm install --global --prefix ${npmDir || '$AGENTEVAL_NPM_DIR'} ${name}`;
}

export class MissingPackage extends Error {
  constructor(name, looked) {
    super(`${name} is not installed (looked in ${looked.length ? looked.join(', ') : 'no node_modules folder'}); ${installHint(name)}`);
    this.name = 'MissingPackage';
  }
}

// exportTarget picks a package's entry from its exports field as Node does
// for an ES module import (conditions node, import, default).
function exportTarget(exp) {
  if (exp == null) return null;
  if (typeof exp === 'string') return exp;
  if (Array.isArray(exp)) {
    for (const e of exp) {
      const t = exportTarget(e);
      if (t) return t;
    }
    return null;
  }
  if ('.' in exp) return exportTarget(exp['.']);
  for (const cond of ['node', 'import', 'default']) {
    if (cond in exp) {
      const t = exportTarget(exp[cond]);
      if (t) return t;
    }
  }
  return null;
}

function packageEntry(dir) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const entry = exportTarget(pkg.exports) ?? pkg.module ?? pkg.main ?? 'index.js';
  return { pkg, file: join(dir, entry) };
}

const loaded = new Map();

async function load(name) {
  if (loaded.has(name)) return loaded.get(name);
  const looked = roots();
  for (const root of looked) {
    const dir = join(root, ...name.split('/'));
    if (!existsSync(join(dir, 'package.json'))) continue;
    const { pkg, file } = packageEntry(dir);
    const mod = await import(pathToFileURL(file).href);
    const out = { mod, version: pkg.version ?? '', dir };
    loaded.set(name, out);
    return out;
  }
  throw new MissingPackage(name, looked);
}

// pluginOf finds the Plugin object a plugin package exports.
function pluginOf(name, mod) {
  const isPlugin = (v) => v && typeof v === 'object' && typeof v.name === 'string' && !Array.isArray(v);
  if (isPlugin(mod.default)) return mod.default;
  for (const v of Object.values(mod)) if (isPlugin(v) && (v.actions || v.services || v.init || v.providers || v.models)) return v;
  throw new Error(`${name} exports no ElizaOS plugin (no default export with a name)`);
}

// The project's own agent: its default export (a Project with agents, or a
// character), for its character and its plugins (custom actions, services).
let projectAgent;
async function projectOwn() {
  if (projectAgent !== undefined) return projectAgent;
  projectAgent = null;
  if (!projectDir || !existsSync(join(projectDir, 'package.json'))) return projectAgent;
  const envFile = join(projectDir, '.env');
  if (existsSync(envFile)) {
    // As ElizaOS loads it: variables already set (agenteval's endpoint) win.
    process.loadEnvFile(envFile);
  }
  const { file } = packageEntry(projectDir);
  if (!existsSync(file)) return projectAgent;
  const mod = await import(pathToFileURL(file).href);
  const exp = mod.default ?? mod.project ?? mod;
  const agent = Array.isArray(exp?.agents) ? exp.agents[0] : exp?.character ? exp : null;
  projectAgent = { character: agent?.character ?? null, plugins: agent?.plugins ?? [] };
  return projectAgent;
}

// ---- the character ----------------------------------------------------------

function lines(v) {
  if (v == null) return undefined;
  return Array.isArray(v) ? v.map(String) : [String(v)];
}

// character makes the scenario's character ElizaOS's, over base (the
// project's): the scenario's keys win, ElizaOS's defaults fill the rest.
export function character(scenarioCharacter, base, settings) {
  const c = { ...(base ?? {}) };
  const s = scenarioCharacter ?? {};
  for (const [k, v] of Object.entries(s)) {
    if (['llm', 'temperature', 'max_tokens', 'system_prompt', 'bio', 'settings'].includes(k)) continue;
    c[k] = v;
  }
  c.name ||= 'Eliza';
  if (s.bio !== undefined) c.bio = lines(s.bio);
  c.bio ??= ['An ElizaOS agent under test.'];
  if (s.system_prompt) c.system = [c.system, s.system_prompt].filter(Boolean).join('\n');
  c.settings = { ...(base?.settings ?? {}), ...(s.settings ?? {}), ...settings };
  c.settings.secrets = { ...(base?.settings?.secrets ?? {}), ...(s.settings?.secrets ?? {}) };
  const model = s.llm?.model;
  if (model) {
    c.settings.OPENAI_SMALL_MODEL = model;
    c.settings.OPENAI_LARGE_MODEL = model;
  }
  delete c.plugins;
  delete c.id;
  return c;
}

function sampling(s) {
  const temperature = s?.llm?.temperature ?? s?.temperature;
  const maxTokens = s?.llm?.max_tokens ?? s?.max_tokens;
  return { temperature: typeof temperature === 'number' ? temperature : undefined, maxTokens: maxTokens > 0 ? maxTokens : undefined };
}

// ---- the database -----------------------------------------------------------

// template returns a PGLite data directory migrated with plugin-sql's
// schema (making one runs PGLite's initdb and 60 statements: tens of
// seconds; copying it takes milliseconds). It is made once per plugin-sql
// version in the run's work folder, the parent of the job's directory
// (removed with it when the run ends: nothing is written outside the
// run), or in AGENTEVAL_ELIZA_CACHE when the user names a folder to keep
// it in across runs.
let templateDir = null;
async function template(core, sql, jobDir) {
  if (templateDir && existsSync(templateDir)) return templateDir;
  const cache = process.env.AGENTEVAL_ELIZA_CACHE || (jobDir ? join(dirname(jobDir), '.eliza') : join(tmpdir(), 'agenteval-eliza'));
  const dir = join(cache, `pglite-${sql.version}-${(await load('@elizaos/core')).version}`);
  if (existsSync(join(dir, 'PG_VERSION'))) return (templateDir = dir);
  mkdirSync(cache, { recursive: true });
  const work = mkdtempSync(join(cache, 'making-'));
  try {
    const runtime = new core.AgentRuntime({
      character: { name: 'agenteval-template', bio: ['template'], settings: { PGLITE_DATA_DIR: join(work, 'db') } },
      plugins: [pluginOf(SQL_PLUGIN, sql.mod)],
      settings: { PGLITE_DATA_DIR: join(work, 'db') },
    });
    await initialize(runtime);
    await runtime.stop();
    await runtime.adapter?.close?.();
    try {
      renameSync(join(work, 'db'), dir);
    } catch (e) {
      if (!existsSync(join(dir, 'PG_VERSION'))) throw e; // another process made it first otherwise
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return (templateDir = dir);
}

// freshDatabase makes plugin-sql open the data directory of the runtime
// about to be made: it keeps one PGLite client per process, made for the
// first data directory it was given (a process-global singleton), so
// without this every session would share the first one's database.
function freshDatabase() {
  const singletons = globalThis[Symbol.for('@elizaos/plugin-sql/global-singletons')];
  if (singletons) delete singletons.pgLiteClientManager;
}

// initialize runs the plugins' migrations before the runtime looks for its
// agent in the database (AgentServer does so before it starts agents).
async function initialize(runtime) {
  freshDatabase();
  const ensure = runtime.ensureAgentExists.bind(runtime);
  runtime.ensureAgentExists = async (agent) => {
    await runtime.runPluginMigrations();
    return ensure(agent);
  };
  try {
    await runtime.initialize({ skipMigrations: true });
  } finally {
    freshDatabase();
  }
}

// ---- mocks ------------------------------------------------------------------

class MockError extends Error {
  constructor(code, message) {
    super(`${code}: ${message}`);
    this.code = code;
  }
}

const pendingMocks = new Map();
let nextMockId = 0;

function callMock(service, method, args) {
  const id = ++nextMockId;
  const p = new Promise((resolve, reject) => pendingMocks.set(id, { resolve, reject }));
  send({ type: 'mock', id, service, method, args: JSON.parse(JSON.stringify(args ?? [])) });
  return p;
}

function deliverMock(line) {
  const p = pendingMocks.get(line.id);
  if (!p) return;
  pendingMocks.delete(line.id);
  if (line.error) p.reject(new MockError(line.error.code ?? 'MOCK_ERROR', line.error.message ?? ''));
  else p.resolve(line.result ?? null);
}

// installMocks wraps runtime.getService as MockEngine does: a service whose
// name has mocked methods comes back behind a Proxy whose mocked methods
// ask agenteval (asynchronously, as MockEngine's wrappers are); agenteval
// answers NO_MOCK when no mock's conditions hold, and the real method runs.
function installMocks(runtime, mocks) {
  const keys = new Set((mocks ?? []).map((m) => `${m.service}.${m.method}`));
  if (!keys.size) return;
  const original = runtime.getService.bind(runtime);
  runtime.getService = (name) => {
    const service = original(name);
    if (!service) return service;
    return new Proxy(service, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (typeof prop !== 'string' || !keys.has(`${name}.${prop}`)) return value;
        return async (...args) => {
          try {
            return await callMock(name, prop, args);
          } catch (e) {
            if (e instanceof MockError && e.code === 'NO_MOCK' && typeof value === 'function') return value.apply(target, args);
            throw e;
          }
        };
      },
    });
  };
}

// ---- sessions ---------------------------------------------------------------

class Session {
  constructor(start) {
    this.start = start;
    this.runtime = null;
    this.dir = null;
    this.ownDir = false;
    this.usage = null;
    this.failed = null;
  }

  async open() {
    const core = (await load('@elizaos/core')).mod;
    this.core = core;
    const own = await projectOwn();
    const names = this.start.plugins?.length ? [...this.start.plugins] : [...DEFAULT_PLUGINS];
    if (!names.includes(SQL_PLUGIN)) names.unshift(SQL_PLUGIN);
    const plugins = [];
    let sql;
    const options = this.start.plugin_options ?? {};
    for (const name of names) {
      const p = await load(name);
      if (name === SQL_PLUGIN) sql = p;
      const want = options[name]?.version;
      if (want && p.version !== want) {
        throw new MissingPackage(`${name}@${want}`, [`${p.dir} (version ${p.version})`]);
      }
      const plugin = pluginOf(name, p.mod);
      // The scenario's config reaches the plugin's init(config, runtime),
      // over the plugin's own, as ElizaOS passes plugin.config.
      const config = options[name]?.config;
      plugins.push(config ? { ...plugin, config: { ...(plugin.config ?? {}), ...config } } : plugin);
    }
    for (const p of own?.plugins ?? []) {
      if (typeof p === 'string') {
        if (!names.includes(p)) plugins.push(pluginOf(p, (await load(p)).mod));
      } else if (p && !plugins.some((q) => q.name === p.name)) plugins.push(p);
    }
    const tmpl = await template(core, sql, this.start.dir);
    if (this.start.dir) {
      this.dir = mkdtempSync(join(this.start.dir, '.eliza-'));
    } else {
      this.dir = mkdtempSync(join(tmpdir(), 'agenteval-eliza-session-'));
    }
    if (!this.start.dir) liveDirs.add(this.dir);
    const db = join(this.dir, 'pglite');
    cpSync(tmpl, db, { recursive: true });
    const settings = { PGLITE_DATA_DIR: db };
    for (const k of ['OPENAI_BASE_URL', 'OPENAI_API_KEY']) if (process.env[k]) settings[k] = process.env[k];
    const ch = character(this.start.character, own?.character, settings);
    this.sampling = sampling(this.start.character);
    const agentId = core.stringToUuid(`agenteval:${this.start.job ?? ''}:${ch.name}:${Date.now()}:${Math.random()}`);
    const runtime = new core.AgentRuntime({ agentId, character: ch, plugins, settings });
    this.runtime = runtime;
    installMocks(runtime, this.start.mocks);
    const useModel = runtime.useModel.bind(runtime);
    const { temperature, maxTokens } = this.sampling;
    runtime.useModel = (type, params, ...rest) => {
      if (typeof type === 'string' && type.startsWith('TEXT_') && type !== 'TEXT_EMBEDDING' && params && typeof params === 'object') {
        params = { ...params };
        if (temperature !== undefined) params.temperature ??= temperature;
        if (maxTokens !== undefined) params.maxTokens ??= maxTokens;
      }
      return useModel(type, params, ...rest);
    };
    runtime.registerEvent(core.EventType.MODEL_USED, async (p) => {
      const t = p?.tokens;
      if (!t) return;
      const u = (this.usage ??= { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });
      u.prompt_tokens += t.prompt ?? 0;
      u.completion_tokens += t.completion ?? 0;
      u.total_tokens += t.total ?? (t.prompt ?? 0) + (t.completion ?? 0);
    });
    await initialize(runtime);
    this.userId = core.stringToUuid(`agenteval-user:${agentId}`);
    this.roomId = core.stringToUuid(`agenteval-room:${agentId}`);
    await runtime.ensureConnection({
      entityId: this.userId, roomId: this.roomId, worldId: this.roomId, userName: 'user', name: 'Scenario User',
      source: 'agenteval', type: core.ChannelType.DM, channelId: this.roomId,
    });
  }

  async message(text) {
    const core = this.core;
    const runtime = this.runtime;
    this.usage = null;
    const since = Date.now();
    const replies = [];
    const thoughts = [];
    const message = {
      id: core.stringToUuid(`agenteval-message:${this.roomId}:${since}:${Math.random()}`),
      entityId: this.userId, agentId: runtime.agentId, roomId: this.roomId,
      content: { text, source: 'agenteval', channelType: core.ChannelType.DM },
      createdAt: since,
    };
    // Each response is kept as the agent's message in the room, as
    // ElizaOS's server does with what an agent sends: the next turn's
    // prompt (recent messages) and the trajectory read it there.
    const result = await runtime.messageService.handleMessage(runtime, message, async (content) => {
      if (!content?.text) return [];
      replies.push(String(content.text));
      if (content.thought) thoughts.push(String(content.thought));
      const reply = {
        id: core.stringToUuid(`agenteval-reply:${message.id}:${replies.length}`),
        entityId: runtime.agentId, agentId: runtime.agentId, roomId: this.roomId,
        content: { ...content, source: 'agenteval', channelType: core.ChannelType.DM, inReplyTo: message.id },
        createdAt: Date.now(),
      };
      await runtime.createMemory(reply, 'messages');
      return [reply];
    });
    let reply = replies.join('\n');
    if (!reply && result?.responseContent?.text) reply = String(result.responseContent.text);
    if (!thoughts.length && result?.responseContent?.thought) thoughts.push(String(result.responseContent.thought));
    const memories = await runtime.getMemories({ tableName: 'messages', roomId: this.roomId, count: 200, unique: false });
    const actions = memories
      .filter((m) => (m.content?.type === 'action_result' || m.metadata?.type === 'action_result') && (m.createdAt ?? since) >= since)
      .sort((a, b) => (a.createdAt ?? 0) - (b.createdAt ?? 0))
      .map((m) => {
        const c = m.content ?? {};
        const a = { name: c.actionName ?? m.metadata?.actionName ?? 'unknown', args: c.actionParams ?? {} };
        const r = c.actionResult;
        if (r !== undefined) a.result = jsonSafe(r);
        if (c.actionStatus === 'failed') a.error = String(r?.error ?? c.thought ?? 'the action failed');
        return a;
      });
    const out = { type: 'reply', text: reply, actions };
    if (thoughts.length) out.thought = thoughts.join('\n');
    if (this.usage) out.usage = this.usage;
    return out;
  }

  // close stops the runtime's services and removes the session's
  // directory. The PGLite database is not closed: closing checkpoints it to
  // disk, seconds of blocking WebAssembly on a busy machine, for files about
  // to be deleted; unreachable once the runtime is dropped (plugin-sql's
  // process-wide client was cleared when it was made), it is collected.
  async close() {
    try {
      await this.runtime?.stop();
    } catch (e) {
      log('stopping the runtime:', e?.stack ?? e);
    }
    if (this.dir) {
      // Asynchronously: removing thousands of files must not hold up the
      // event loop, which must see the input end in time (see liveDirs).
      await rm(this.dir, { recursive: true, force: true, maxRetries: 3 });
      liveDirs.delete(this.dir);
    }
  }
}

// liveDirs are the directories of sessions without a job directory not
// yet removed: when the input ends (the run is over) they are removed and
// the process exits at once, without waiting for anything else (the
// protocol gives it 2 seconds). A session's directory inside its job's
// directory goes with the job's, which agenteval removes.
const liveDirs = new Set();

function jsonSafe(v) {
  try {
    return JSON.parse(JSON.stringify(v, (_, x) => (typeof x === 'bigint' ? String(x) : x)));
  } catch {
    return String(v);
  }
}

function describe(e) {
  if (e instanceof MissingPackage) return e.message;
  process.stderr.write(`${e?.stack ?? e}\n`);
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

// ---- the protocol loop ------------------------------------------------------

let session = null;

async function handle(line) {
  switch (line.type) {
    case 'start':
      if (session) await session.close();
      session = new Session(line);
      try {
        await session.open();
      } catch (e) {
        session.failed = describe(e);
      }
      return;
    case 'end':
      if (session) await session.close();
      session = null;
      return;
    case 'message': {
      const id = line.id ?? 0;
      if (!session) return send({ type: 'error', id, message: 'message before start' });
      if (session.failed !== null) return send({ type: 'error', id, message: `starting ElizaOS: ${session.failed}` });
      try {
        const out = await session.message(line.text ?? '');
        send({ ...out, id });
      } catch (e) {
        send({ type: 'error', id, message: describe(e) });
      }
      return;
    }
  }
}

// A plugin's background work that fails after its session ended (an
// embedding queued before the runtime stopped, say) is logged, not fatal:
// the process serves the next session.
process.on('unhandledRejection', (e) => log('a promise failed unhandled:', e?.stack ?? e));

send({ type: 'ready', sessions: 'many', protocol: PROTOCOL_VERSION });
let queue = Promise.resolve();
const input = createInterface({ input: process.stdin, crlfDelay: Infinity });
input.on('line', (text) => {
  if (!text.trim()) return;
  let line;
  try {
    line = JSON.parse(text);
  } catch {
    log('a line that is not JSON:', text.slice(0, 200));
    return;
  }
  if (line.type === 'mock_result') deliverMock(line);
  else queue = queue.then(() => handle(line)).catch((e) => describe(e));
});
input.on('close', () => {
  for (const dir of liveDirs) rmSync(dir, { recursive: true, force: true });
  process.exit(0);
});
