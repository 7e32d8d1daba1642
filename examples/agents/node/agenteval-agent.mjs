// agenteval-agent.mjs: an agenteval exec agent is a function (Node 18+, no dependencies).
//
//   import { serve } from './agenteval-agent.mjs';
//
//   serve(async (message, session) => {
//     const forecast = await session.mock('weather', 'forecast', { city: 'Paris' });
//     session.action('GET_WEATHER', { city: 'Paris' }, { result: forecast });
//     session.usage({ prompt_tokens: 12, completion_tokens: 5 });
//     return `The weather in Paris: ${forecast.condition}`;
//   });
//
// Run it with `agenteval run --agent "exec:node my-agent.mjs" SCENARIOS...`.
//
// serve() speaks version 1 of agenteval's exec protocol (docs/exec-protocol.md
// in the agenteval repository) on stdin and stdout. It announces that the
// program serves many sessions, so agenteval starts it once per slot of
// --concurrency and reuses it for every session of the run, one session at a
// time. Each session gets a fresh Session (its `state` object is the agent's
// memory for that session); the working directory is the session's directory
// while it lasts. Write logs to stderr (session.log does): stdout belongs to
// the protocol.

import { createInterface } from 'node:readline';

export const PROTOCOL_VERSION = 1;

/** A mocked service answered with an error (code "NO_MOCK": no mock of the scenario answers that service and method). */
export class MockError extends Error {
  constructor(code, message) {
    super(`${code}: ${message}`);
    this.name = 'MockError';
    this.code = code;
  }
}

/**
 * One session (one run of one scenario): job (the job's id), scenario (its
 * id), character (object or null), plugins (names), dir (the session's
 * directory or null), seed, and state (the agent's own memory in this session).
 */
export class Session {
  #conn;
  #nextMock = 0;
  constructor(conn, start) {
    this.#conn = conn;
    this.job = start.job ?? '';
    this.scenario = start.scenario ?? '';
    this.character = start.character ?? null;
    this.plugins = start.plugins ?? [];
    this.dir = start.dir || null;
    this.seed = start.seed ?? 0;
    this.state = {};
    this._usage = null;
  }

  /** Calls a service the scenario mocks; resolves to its response, rejects with a MockError. */
  mock(service, method, ...args) {
    const id = ++this.#nextMock;
    const result = this.#conn.expect(id);
    this.#conn.send({ type: 'mock', id, service, method, args });
    return result;
  }

  /** Reports an action (a tool call) the agent made. */
  action(name, args = {}, { result, error } = {}) {
    const line = { type: 'action', name, args };
    if (result !== undefined) line.result = result;
    if (error) line.error = show(error);
    this.#conn.send(line);
  }

  /** Adds to the tokens spent on the message being answered. */
  usage({ prompt_tokens = 0, completion_tokens = 0, total_tokens } = {}) {
    const u = this._usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
    u.prompt_tokens += prompt_tokens;
    u.completion_tokens += completion_tokens;
    u.total_tokens += total_tokens ?? prompt_tokens + completion_tokens;
    this._usage = u;
  }

  /** Writes a line to stderr, which agenteval keeps as the agent's log. */
  log(...parts) {
    process.stderr.write(parts.join(' ') + '\n');
  }
}

class Connection {
  #output;
  #pending = new Map(); // mock id -> {resolve, reject}
  constructor(output) {
    this.#output = output;
  }
  send(obj) {
    this.sendLine(JSON.stringify(obj));
  }
  sendLine(text) {
    this.#output.write(text + '\n');
  }
  expect(id) {
    return new Promise((resolve, reject) => this.#pending.set(id, { resolve, reject }));
  }
  deliver(line) {
    const p = this.#pending.get(line.id);
    if (!p) return;
    this.#pending.delete(line.id);
    if (line.error) p.reject(new MockError(line.error.code ?? 'MOCK_ERROR', line.error.message ?? ''));
    else p.resolve(line.result ?? null);
  }
  abandon() {
    for (const p of this.#pending.values()) p.reject(new Error('agenteval_agent: the input ended'));
    this.#pending.clear();
  }
}

// show makes any value text without throwing: String() throws for an
// object without a prototype (Object.create(null)) or a Symbol's template.
function show(v) {
  try {
    return String(v);
  } catch {}
  try {
    const j = JSON.stringify(v);
    if (j !== undefined) return j;
  } catch {}
  return Object.prototype.toString.call(v);
}

// stackOf is an error's stack as Node prints it, or "" (a thrown non-Error has none).
function stackOf(e) {
  try {
    return typeof e?.stack === 'string' ? e.stack : '';
  } catch {
    return '';
  }
}

function describe(e) {
  let text;
  try {
    text = e instanceof Error ? `${e.name}: ${e.message}` : show(e);
  } catch {
    text = show(e);
  }
  try {
    process.stderr.write(`${e?.stack ?? text}\n`);
  } catch {
    process.stderr.write(`${text}\n`);
  }
  return text;
}

// replyText is what reply returned as the reply's text: a string as it
// is, nothing as "", anything else as String (or JSON) makes it; a value
// neither can make text fails the message.
function replyText(v) {
  if (v == null) return '';
  if (typeof v === 'string') return v;
  try {
    return String(v);
  } catch {}
  try {
    const j = JSON.stringify(v);
    if (j !== undefined) return j;
  } catch {}
  throw new TypeError(`reply returned a ${typeof v} that cannot be made text`);
}

/**
 * Serves sessions until the input ends: reply(message, session) answers each
 * message with a string (or a promise of one). An error thrown by reply (or
 * onStart) fails that message's session, with the error as the reason, and
 * the program goes on serving. onStart(session) and onEnd(session), when
 * given, run as each session begins and ends. Resolves when the input ends.
 */
export function serve(reply, { onStart, onEnd, input = process.stdin, output = process.stdout } = {}) {
  const conn = new Connection(output);
  let home = null;
  try {
    home = process.cwd();
  } catch {}
  let session = null;
  let failed = null;

  const finish = async () => {
    if (!session) return;
    try {
      await onEnd?.(session);
    } catch (e) {
      describe(e);
    }
    if (home && session.dir) process.chdir(home);
    session = null;
  };

  const handle = async (line) => {
    switch (line.type) {
      case 'start':
        await finish();
        session = new Session(conn, line);
        failed = null;
        try {
          if (session.dir) process.chdir(session.dir);
          await onStart?.(session);
        } catch (e) {
          failed = describe(e);
        }
        return;
      case 'end':
        await finish();
        return;
      case 'message': {
        const id = line.id ?? 0;
        if (!session) return conn.send({ type: 'error', id, message: 'message before start' });
        if (failed !== null) return conn.send({ type: 'error', id, message: `starting the session: ${failed}` });
        session._usage = null;
        // Whatever reply throws or returns, the message gets an answer:
        // a reply, or an error that fails its session (never silence).
        let out;
        try {
          out = { type: 'reply', id, text: replyText(await reply(line.text ?? '', session)) };
          if (session._usage) out.usage = session._usage;
          out = JSON.stringify(out);
        } catch (e) {
          return conn.send({ type: 'error', id, message: describe(e), traceback: stackOf(e) });
        }
        return conn.sendLine(out);
      }
      // Other types are not for this version.
    }
  };

  conn.send({ type: 'ready', sessions: 'many', protocol: PROTOCOL_VERSION });
  return new Promise((resolve) => {
    let queue = Promise.resolve();
    const lines = createInterface({ input, crlfDelay: Infinity });
    lines.on('line', (text) => {
      if (!text.trim()) return;
      let line;
      try {
        line = JSON.parse(text);
      } catch (e) {
        process.stderr.write(`agenteval-agent: a line that is not JSON: ${text.slice(0, 200)}\n`);
        return;
      }
      // Mock results arrive while a reply is being computed; the rest waits its turn.
      if (line.type === 'mock_result') conn.deliver(line);
      else queue = queue.then(() => handle(line)).catch(describe);
    });
    lines.on('close', () => {
      conn.abandon();
      queue.then(finish).then(resolve);
    });
  });
}
