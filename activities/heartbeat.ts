// An activity step that beats every second while it works (an email through the chain,
// whose providers may take EMAIL_TIMEOUT_MS each): the workflow's heartbeat timeout then
// retries it on another worker seconds after its worker died, not after the whole
// start-to-close time.
import { Context } from '@temporalio/activity';

export async function heartbeating<T>(step: () => Promise<T>): Promise<T> {
  const beat = setInterval(() => Context.current().heartbeat(), 1000);
  try {
    return await step();
  } finally {
    clearInterval(beat);
  }
}
