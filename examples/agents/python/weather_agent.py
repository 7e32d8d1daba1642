"""A weather agent written with the kit: python3 weather_agent.py (see README.md)."""
import re

from agenteval_agent import serve


def reply(message, session):
    found = re.search(r"\bin ([A-Z]\w+)", message)
    city = session.state["city"] = found.group(1) if found else session.state.get("city", "Paris")
    forecast = session.mock("weather", "forecast", {"city": city})
    session.action("GET_WEATHER", {"city": city}, result=forecast)
    session.usage(prompt_tokens=len(message.split()), completion_tokens=8)
    return "The weather in %s: %s, %d°C" % (city, forecast["condition"], forecast["temp_c"])


serve(reply)
