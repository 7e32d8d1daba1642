// A kit agent that misbehaves when asked: "die" (SIGKILL to itself), "hang"
// (never answers), "garbage" (a line that is not the protocol), "raise" (an
// error); anything else is answered with the process id and the number of
// sessions it has served.
import { serve } from '../../../examples/agents/node/agenteval-agent.mjs';

let served = 0;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

serve(
  async (message, session) => {
    switch (message) {
      case 'die':
        session.log('dying as asked');
        await sleep(50);
        process.kill(process.pid, 'SIGKILL');
        break;
      case 'hang':
        session.log('hanging as asked');
        await sleep(3600e3);
        break;
      case 'garbage':
        session.log('writing garbage as asked');
        process.stdout.write('this is not the protocol\n');
        await sleep(3600e3);
        break;
      case 'raise':
        throw new RangeError('raising as asked');
    }
    return `ok from pid ${process.pid} session ${served}`;
  },
  { onStart: () => { served++; } },
);
