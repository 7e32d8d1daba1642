"""A kit agent that misbehaves when asked: "die" (SIGKILL to itself), "hang"
(never answers), "garbage" (a line that is not the protocol), "raise" (an
exception); anything else is answered with the process id and the number of
sessions it has served."""
import os
import signal
import sys
import time

from agenteval_agent import serve

served = 0


def start(session):
    global served
    served += 1


def reply(message, session):
    if message == "die":
        session.log("dying as asked")
        time.sleep(0.05)
        os.kill(os.getpid(), signal.SIGKILL)
    if message == "hang":
        session.log("hanging as asked")
        time.sleep(3600)
    if message == "garbage":
        session.log("writing garbage as asked")
        sys.stdout.write("this is not the protocol\n")
        sys.stdout.flush()
        time.sleep(3600)
    if message == "raise":
        raise ValueError("raising as asked")
    return "ok from pid %d session %d" % (os.getpid(), served)


serve(reply, on_start=start)
