// A weather agent written with the kit: node weather-agent.mjs (see README.md).
import { serve } from './agenteval-agent.mjs';

serve(async (message, session) => {
  const found = /\bin ([A-Z]\w+)/.exec(message);
  const city = (session.state.city = found ? found[1] : session.state.city ?? 'Paris');
  const forecast = await session.mock('weather', 'forecast', { city });
  session.action('GET_WEATHER', { city }, { result: forecast });
  session.usage({ prompt_tokens: message.split(/\s+/).length, completion_tokens: 8 });
  return `The weather in ${city}: ${forecast.condition}, ${forecast.temp_c}°C`;
});
