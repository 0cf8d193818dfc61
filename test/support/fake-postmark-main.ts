// The test run's transactional email provider (scripts/test-services.sh starts it and
// points POSTMARK_API_URL at it, so the onboarding worker tries it before SMTP). It fails
// on purpose for recipients whose address carries `+provider-down` (503), so a test can
// watch the chain fall through to the SMTP catcher; every other message is accepted and
// written to POSTMARK_SINK_DIR.
import { startFakePostmark } from './fake-postmark';

async function main() {
  const dir = process.env.POSTMARK_SINK_DIR;
  const serverToken = process.env.POSTMARK_SERVER_TOKEN;
  if (!dir || !serverToken) throw new Error('POSTMARK_SINK_DIR and POSTMARK_SERVER_TOKEN must be set');
  const fake = await startFakePostmark({
    serverToken,
    dir,
    answerFor: (body) => (typeof body?.To === 'string' && body.To.includes('+provider-down') ? { status: 503 } : 'ok'),
  });
  process.stdout.write(`fake postmark on ${fake.url}\n`);
  const stop = () => void fake.stop().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err) => {
  process.stderr.write(`${err?.stack ?? err}\n`);
  process.exit(1);
});
