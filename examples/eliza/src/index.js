// A small ElizaOS agent: Skye answers weather questions with its one custom
// action, GET_WEATHER, which asks its weather service for a forecast.
//
// The service would call a real weather API; the scenarios mock its
// forecast method (setup.mocks), so the tests need no network. The file
// imports nothing: ElizaOS takes plugins, actions and services as plain
// objects and classes, so the example runs from agenteval's own ElizaOS
// packages as well as after `npm install` here.

/** The weather service: runtime.getService('weather').forecast({ city }). */
class WeatherService {
  static serviceType = 'weather';
  capabilityDescription = 'Weather forecasts by city';

  static async start(runtime) {
    return new WeatherService(runtime);
  }

  constructor(runtime) {
    this.runtime = runtime;
  }

  async forecast({ city }) {
    const key = this.runtime.getSetting('WEATHER_API_KEY');
    if (!key) throw new Error(`no WEATHER_API_KEY: cannot ask the weather API about ${city}`);
    const res = await fetch(`https://api.example.com/forecast?city=${encodeURIComponent(city)}&key=${key}`);
    return res.json();
  }

  async stop() {}
}

/** Picks the city a message asks about ("... in Paris?"). */
function cityOf(text) {
  const m = /\b(?:in|for|at)\s+([A-Z][\p{L}-]+(?:\s+[A-Z][\p{L}-]+)*)/u.exec(text ?? '');
  return m ? m[1] : 'London';
}

const getWeather = {
  name: 'GET_WEATHER',
  similes: ['WEATHER', 'FORECAST'],
  description: 'Looks up the weather forecast for a city the user asks about.',
  validate: async () => true,
  handler: async (runtime, message, _state, _options, callback) => {
    const city = cityOf(message.content?.text);
    try {
      const f = await runtime.getService('weather').forecast({ city });
      const text = `The weather in ${city}: ${f.condition}, ${f.temperature}°C.`;
      await callback?.({ text, actions: ['GET_WEATHER'] });
      return { success: true, text, data: { city, forecast: f } };
    } catch (e) {
      const text = `I could not get the weather for ${city}: ${e.message}`;
      await callback?.({ text, actions: ['GET_WEATHER'] });
      return { success: false, text, error: e.message };
    }
  },
  examples: [],
};

export const weatherPlugin = {
  name: 'weather',
  description: 'Weather forecasts',
  actions: [getWeather],
  services: [WeatherService],
};

export const character = {
  name: 'Skye',
  bio: ['Skye tells people the weather, briefly and exactly.'],
  system: 'You are Skye. When asked about the weather, use the GET_WEATHER action.',
  plugins: ['@elizaos/plugin-sql', '@elizaos/plugin-bootstrap', '@elizaos/plugin-openai'],
};

export default {
  agents: [{ character, plugins: [weatherPlugin] }],
};
