// The logger's redaction: secrets under their usual names never reach a line.
import assert from 'node:assert/strict';
import { demoCredentialsText } from '../../scripts/demo-credentials';
import { capturedLogger } from '../support/captured-log';

describe('secrets in logs', () => {
  it('redacts credentials, keys, tokens and secrets wherever a call site puts them', () => {
    const log = capturedLogger();
    const secrets = {
      apiKey: 'sk_live_AAAAaaaaBBBBbbbb1',
      token: 'eyJhbGciOi.payload.sig2',
      secret: 'whsec_cccc3',
      authorization: 'Bearer sk_live_DDDD4',
      password: 'hunter2hunter5',
      parameter: 'sk_live_param6',
      body: '{"apiKey":"sk_live_body7"}',
    };
    log.logger.info({ apiKey: secrets.apiKey, input: { token: secrets.token, secret: secrets.secret } }, 'one');
    log.logger.info({ req: { method: 'GET', headers: { authorization: secrets.authorization, 'user-agent': 'curl/8' } } }, 'two');
    log.logger.warn({ config: { password: secrets.password } }, 'three');
    const err = Object.assign(new Error('query failed'), { parameters: [secrets.parameter], body: secrets.body });
    log.logger.error({ err }, 'four');
    const text = log.text();
    for (const [name, value] of Object.entries(secrets)) assert.equal(text.includes(value), false, `${name} reached the log`);
    const [one, two, three, four] = log.lines();
    assert.equal(one.apiKey, '[redacted]');
    assert.equal(one.input.token, '[redacted]');
    assert.equal(two.req.headers.authorization, '[redacted]');
    assert.equal(two.req.headers['user-agent'], 'curl/8', 'the rest stays readable');
    assert.equal(three.config.password, '[redacted]');
    assert.equal(four.err.message, 'query failed');
  });

  it('npm start prints the demo API key in development only', () => {
    const json = JSON.stringify({ ticketing: { organizationId: 'org_1', apiKey: 'sk_test_demo123' } });
    assert.match(demoCredentialsText(json, false), /sk_test_demo123/);
    const prod = demoCredentialsText(json, true);
    assert.equal(prod.includes('sk_test_demo123'), false);
    assert.match(prod, /org_1/);
    assert.match(prod, /hidden: NODE_ENV=production; `npm run admin -- bootstrap` prints it/);
    assert.equal(demoCredentialsText('sk_test_notjson', true).includes('sk_test_notjson'), false);
    // the push block's password and key too
    const push = JSON.stringify({ push: { email: 'demo@push.example.com', password: 'pw-secret-1', appId: 'a', apiKey: 'pk_secret' } });
    const pushProd = demoCredentialsText(push, true);
    assert.equal(pushProd.includes('pw-secret-1') || pushProd.includes('pk_secret'), false);
    assert.match(pushProd, /demo@push\.example\.com/);
  });
});
