"""agenteval_agent: an agenteval exec agent is a function (Python 3.8+, standard library only).

    from agenteval_agent import serve

    def reply(message, session):
        forecast = session.mock("weather", "forecast", {"city": "Paris"})
        session.action("GET_WEATHER", {"city": "Paris"}, result=forecast)
        session.usage(prompt_tokens=12, completion_tokens=5)
        return "The weather in Paris: " + forecast["condition"]

    serve(reply)

Run it with `agenteval run --agent "exec:python3 my_agent.py" SCENARIOS...`.

serve() speaks version 1 of agenteval's exec protocol (docs/exec-protocol.md in
the agenteval repository) on stdin and stdout. It announces that the program
serves many sessions, so agenteval starts it once per slot of --concurrency and
reuses it for every session of the run, one session at a time. Each session
gets a fresh Session (its `state` dict is the agent's memory for that
session); the working directory is the session's directory while it lasts.

Write logs to stderr (Session.log does): stdout belongs to the protocol.
"""

import json
import os
import sys
import traceback

__all__ = ["serve", "Session", "MockError", "PROTOCOL_VERSION"]

PROTOCOL_VERSION = 1


class MockError(Exception):
    """A mocked service answered with an error (code "NO_MOCK": no mock of the
    scenario answers that service and method)."""

    def __init__(self, code, message):
        super().__init__("%s: %s" % (code, message))
        self.code = code
        self.message = message


class _Connection:
    """JSON lines on two binary streams."""

    def __init__(self, reader, writer):
        self._reader = reader
        self._writer = writer

    def send(self, obj):
        self.send_text(_encode(obj))

    def send_text(self, text):
        self._writer.write(text.encode("utf-8") + b"\n")
        self._writer.flush()

    def receive(self):
        """The next line as an object, or None at the end of input."""
        while True:
            line = self._reader.readline()
            if not line:
                return None
            if line.strip():
                return json.loads(line)


class Session:
    """One session (one run of one scenario).

    Attributes: job (the job's id), scenario (its id), character (dict or
    None), plugins (list of names), dir (the session's directory or None),
    seed (int), state (a dict for the agent's own memory in this session).
    """

    def __init__(self, conn, start):
        self._conn = conn
        self.job = start.get("job", "")
        self.scenario = start.get("scenario", "")
        self.character = start.get("character")
        self.plugins = start.get("plugins") or []
        self.dir = start.get("dir") or None
        self.seed = start.get("seed", 0)
        self.state = {}
        self._next_mock = 0
        self._usage = None

    def mock(self, service, method, *args):
        """Calls a service the scenario mocks and returns its response; raises
        MockError when the mock answers with an error."""
        self._next_mock += 1
        call_id = self._next_mock
        self._conn.send({"type": "mock", "id": call_id, "service": service, "method": method, "args": list(args)})
        while True:
            line = self._conn.receive()
            if line is None:
                raise SystemExit(0)  # the runner is gone
            if line.get("type") == "mock_result" and line.get("id") == call_id:
                break
            self.log("agenteval_agent: ignored a line while waiting for mock %d: %r" % (call_id, line))
        err = line.get("error")
        if err:
            raise MockError(err.get("code", "MOCK_ERROR"), err.get("message", ""))
        return line.get("result")

    def action(self, name, args=None, result=None, error=None):
        """Reports an action (a tool call) the agent made."""
        line = {"type": "action", "name": name, "args": args if args is not None else {}}
        if result is not None:
            line["result"] = result
        if error:
            line["error"] = _show(error)
        self._conn.send(line)

    def usage(self, prompt_tokens=0, completion_tokens=0, total_tokens=None):
        """Adds to the tokens spent on the message being answered."""
        u = self._usage or {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}
        u["prompt_tokens"] += prompt_tokens
        u["completion_tokens"] += completion_tokens
        u["total_tokens"] += total_tokens if total_tokens is not None else prompt_tokens + completion_tokens
        self._usage = u

    def log(self, *parts):
        """Writes a line to stderr, which agenteval keeps as the agent's log."""
        print(*parts, file=sys.stderr, flush=True)


def serve(reply, on_start=None, on_end=None, stdin=None, stdout=None):
    """Serves sessions until the input ends: reply(message, session) answers
    each message with a string. An exception in reply (or on_start) fails
    that message's session, with the exception as the reason, and the
    program goes on serving. on_start(session) and on_end(session), when
    given, run as each session begins and ends."""
    conn = _Connection(stdin or sys.stdin.buffer, stdout or sys.stdout.buffer)
    try:
        home = os.getcwd()
    except OSError:
        home = None
    conn.send({"type": "ready", "sessions": "many", "protocol": PROTOCOL_VERSION})
    session, failed = None, None

    def finish():
        if session is None:
            return
        if on_end is not None:
            try:
                on_end(session)
            except Exception:
                _describe(sys.exc_info()[1])
        if home is not None and session.dir:
            os.chdir(home)

    while True:
        line = conn.receive()
        if line is None:
            break
        kind = line.get("type")
        if kind == "start":
            finish()
            session, failed = Session(conn, line), None
            try:
                if session.dir:
                    os.chdir(session.dir)
                if on_start is not None:
                    on_start(session)
            except Exception as e:  # every message of the session says why
                failed = _describe(e)
        elif kind == "end":
            finish()
            session = None
        elif kind == "message":
            msg_id = line.get("id", 0)
            if session is None:
                conn.send({"type": "error", "id": msg_id, "message": "message before start"})
                continue
            if failed is not None:
                conn.send({"type": "error", "id": msg_id, "message": "starting the session: " + failed})
                continue
            session._usage = None
            # Whatever reply raises or returns, the message gets an answer:
            # a reply, or an error that fails its session (never silence).
            try:
                out = {"type": "reply", "id": msg_id, "text": _reply_text(reply(line.get("text", ""), session))}
                if session._usage is not None:
                    out["usage"] = session._usage
                data = _encode(out)
            except Exception as e:
                conn.send({"type": "error", "id": msg_id, "message": _describe(e), "traceback": _traceback()})
                continue
            conn.send_text(data)
        # Other types (a stray mock_result, newer ones) are not for this version.
    finish()


def _encode(obj):
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def _show(v):
    """Any value as text, without raising (a __str__ may raise)."""
    try:
        return str(v)
    except Exception:
        pass
    try:
        return repr(v)
    except Exception:
        return "<%s>" % type(v).__name__


def _reply_text(v):
    """What reply returned as the reply's text: a string as it is, None as
    "", anything else as str (or JSON) makes it; a value neither can make
    text fails the message."""
    if v is None:
        return ""
    if isinstance(v, str):
        return v
    try:
        return str(v)
    except Exception:
        pass
    try:
        return json.dumps(v)
    except Exception:
        raise TypeError("reply returned a %s that cannot be made text" % type(v).__name__)


def _traceback():
    """The exception being handled with its stack, as Python prints it."""
    try:
        return traceback.format_exc()
    except Exception:
        return ""


def _describe(e):
    try:
        traceback.print_exc(file=sys.stderr)
        sys.stderr.flush()
    except Exception:
        pass
    return "%s: %s" % (type(e).__name__, _show(e))
