// A kit agent whose reply function is hostile when asked: it throws what
// is not an Error, returns what is not a string (a number, an object, an
// object without a prototype, a Symbol, undefined), a huge string, reports
// impossible usage, or never resolves. Anything else is answered "ok".
import { serve } from '../../../examples/agents/node/agenteval-agent.mjs';

serve(async (message, session) => {
  switch (message) {
    case 'throw-null':
      throw null;
    case 'throw-nullproto':
      throw Object.create(null);
    case 'number':
      return 42;
    case 'object':
      return { a: 1 };
    case 'nullproto':
      return Object.create(null);
    case 'symbol':
      return Symbol('s');
    case 'nothing':
      return undefined;
    case 'huge':
      return 'x'.repeat(16 << 20);
    case 'negative-usage':
      session.usage({ prompt_tokens: -5, completion_tokens: 1 });
      return 'ok';
    case 'never':
      return new Promise(() => {});
  }
  return 'ok';
});
