"""A kit agent whose reply function is hostile when asked: it raises an
exception that cannot be printed, returns what is not a string (a number,
a dict, an object whose __str__ raises, bytes, None), a huge string,
reports impossible usage, or never returns. Anything else is answered
"ok"."""
import time

from agenteval_agent import serve


class Unprintable(Exception):
    def __str__(self):
        raise RuntimeError("no text for you")


class NoText:
    def __str__(self):
        raise RuntimeError("no text for you")

    def __repr__(self):
        raise RuntimeError("no repr either")


def reply(message, session):
    if message == "throw-null":
        raise Unprintable()
    if message == "throw-nullproto":
        raise Unprintable()
    if message == "number":
        return 42
    if message == "object":
        return {"a": 1}
    if message == "nullproto":
        return NoText()
    if message == "symbol":
        return b"\x00bytes"
    if message == "nothing":
        return None
    if message == "huge":
        return "x" * (16 << 20)
    if message == "negative-usage":
        session.usage(prompt_tokens=-5, completion_tokens=1)
        return "ok"
    if message == "never":
        time.sleep(3600)
    return "ok"


serve(reply)
