// The email chain over real wire protocols: a fake Postmark on loopback (test/support/
// fake-postmark.ts) and the test run's SMTP sink (scripts/mail-sink.ts, SMTP_URL).
import assert from 'node:assert/strict';
import net from 'node:net';
import { randomUUID } from 'node:crypto';
import { loadConfig, type Config } from '../../lib/config';
import { createEmailChain } from '../../lib/email/chain';
import type { EmailMessage } from '../../lib/email/types';
import { capturedLogger } from '../support/captured-log';
import { startFakePostmark } from '../support/fake-postmark';
import { receivedMail } from '../support/mail';

const TOKEN = `server-token-${randomUUID()}`;
const TIMEOUT_MS = 400;
const smtpUrl = loadConfig().smtpUrl;
let postmark: Awaited<ReturnType<typeof startFakePostmark>>;
const closers: Array<() => void> = [];

beforeAll(async () => {
  assert.ok(smtpUrl, 'npm test runs an SMTP server on loopback and sets SMTP_URL');
  postmark = await startFakePostmark({ serverToken: TOKEN });
});
afterAll(async () => {
  for (const close of closers) close();
  await postmark?.stop();
});
beforeEach(() => postmark.answer('ok'));

function chainWith(over: Partial<Config> = {}) {
  const log = capturedLogger('info');
  const config = {
    env: 'test',
    mailFrom: 'Push Trials <trials@example.com>',
    emailTimeoutMs: TIMEOUT_MS,
    postmark: { apiUrl: postmark.url, serverToken: TOKEN, messageStream: 'outbound' },
    smtpUrl,
    ...over,
  };
  const chain = createEmailChain({ config, logger: log.logger });
  closers.push(chain.close);
  return { chain, log };
}

const message = (over: Partial<EmailMessage & { to: string }> = {}): EmailMessage & { to: string } => {
  const id = randomUUID();
  return {
    to: `owner-${id}@example.com`,
    subject: `Set your password ${id}`,
    text: `Open https://app.example.com/setup-password?token=secret-${id}`,
    html: `<p>Open <a href="https://app.example.com/setup-password?token=secret-${id}">the link</a></p>`,
    tag: 'setup-password',
    logText: `setup link: https://app.example.com/setup-password?token=secret-${id}`,
    ...over,
  };
};

/** A port with nothing listening: connections are refused. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

test('the provider accepts: postmark took it, with its MessageID; the request has Postmark’s documented shape', async () => {
  const { chain } = chainWith();
  assert.deepEqual(chain.providers, ['postmark', 'smtp', 'log']);
  const m = message();
  const outcome = await chain.send(m);
  const req = postmark.requests.find((r) => r.body?.To === m.to)!;
  assert.deepEqual(outcome, { delivered: true, provider: 'postmark', messageId: req.messageId, errors: [] });
  assert.equal(req.method, 'POST');
  assert.equal(req.path, '/email');
  assert.equal(req.headers['x-postmark-server-token'], TOKEN);
  assert.equal(req.headers.accept, 'application/json');
  assert.match(String(req.headers['content-type']), /^application\/json/);
  assert.deepEqual(req.body, {
    From: 'Push Trials <trials@example.com>',
    To: m.to,
    Subject: m.subject,
    TextBody: m.text,
    HtmlBody: m.html,
    Tag: 'setup-password',
    MessageStream: 'outbound',
  });
});

test('the provider answers 503: SMTP takes it, the 503 recorded', async () => {
  postmark.answer({ status: 503 });
  const { chain } = chainWith();
  const m = message();
  const outcome = await chain.send(m);
  assert.equal(outcome.provider, 'smtp');
  assert.equal(outcome.delivered, true);
  assert.deepEqual(outcome.errors, ['postmark: 503 Service Unavailable']);
  const mail = await receivedMail((x) => x.to.includes(m.to));
  assert.equal(mail.headers.subject, m.subject);
  assert.equal(mail.headers['message-id'], outcome.messageId);
  assert.match(mail.raw, new RegExp(m.text.split('token=')[1]));
});

test('the provider hangs: SMTP takes it after the time-out', async () => {
  postmark.answer('hang');
  const { chain } = chainWith();
  const m = message();
  const outcome = await chain.send(m);
  assert.equal(outcome.provider, 'smtp');
  assert.deepEqual(outcome.errors, [`postmark: timed out after ${TIMEOUT_MS} ms`]);
  await receivedMail((x) => x.to.includes(m.to));
});

test('an ErrorCode and a wrong server token are failures with Postmark’s reason', async () => {
  postmark.answer({ errorCode: 300, message: 'Invalid email request' });
  const first = await chainWith().chain.send(message());
  assert.deepEqual(first.errors, ['postmark: 422 ErrorCode 300 Invalid email request']);
  assert.equal(first.provider, 'smtp');
  const wrongToken = chainWith({ postmark: { apiUrl: postmark.url, serverToken: 'not-the-token', messageStream: 'outbound' } });
  const second = await wrongToken.chain.send(message());
  assert.equal(second.provider, 'smtp');
  assert.match(second.errors[0], /^postmark: 401 ErrorCode 10 /);
});

test('no provider and no SMTP: the log line carries logText outside production, never the message text', async () => {
  const { chain, log } = chainWith({ postmark: undefined, smtpUrl: undefined });
  assert.deepEqual(chain.providers, ['log']);
  const m = message();
  assert.deepEqual(await chain.send(m), { delivered: false, provider: 'log', messageId: null, errors: [] });
  const lines = log.lines().filter((l) => l.to === m.to);
  assert.equal(lines.length, 1);
  assert.equal(lines[0].level, 40);
  assert.equal(lines[0].subject, m.subject);
  assert.equal(lines[0].logText, m.logText);
  assert.ok(!log.text().includes(m.text) && !log.text().includes(m.html!));
});

test('in production the log line says the mail was not delivered, without logText or the text', async () => {
  const { chain, log } = chainWith({ env: 'production', postmark: undefined, smtpUrl: undefined });
  const m = message();
  const outcome = await chain.send(m);
  assert.equal(outcome.provider, 'log');
  const [line] = log.lines().filter((l) => l.to === m.to);
  assert.match(line.msg, /not delivered/);
  assert.match(line.msg, /operator page/);
  assert.equal(line.logText, undefined);
  const secret = m.text.split('token=')[1];
  assert.ok(!log.text().includes(secret), 'the token reaches no log line');
});

test('SMTP down (refused, or a server that never greets): the log takes it, every failure recorded', async () => {
  postmark.answer({ status: 500 });
  const refused = chainWith({ smtpUrl: `smtp://127.0.0.1:${await closedPort()}` });
  const one = await refused.chain.send(message());
  assert.equal(one.provider, 'log');
  assert.equal(one.delivered, false);
  assert.equal(one.errors.length, 2);
  assert.equal(one.errors[0], 'postmark: 500 Internal Server Error');
  assert.match(one.errors[1], /^smtp: ESOCKET .*ECONNREFUSED/);

  const sockets: net.Socket[] = [];
  const silent = net.createServer((s) => sockets.push(s)); // accepts, never says 220
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  try {
    const mute = chainWith({ postmark: undefined, smtpUrl: `smtp://127.0.0.1:${(silent.address() as net.AddressInfo).port}` });
    const two = await mute.chain.send(message());
    assert.equal(two.provider, 'log');
    assert.match(two.errors[0], /^smtp: ETIMEDOUT /);
  } finally {
    for (const s of sockets) s.destroy();
    silent.close();
  }
});
