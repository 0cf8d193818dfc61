// Which of a send request's deviceIds the send goes to (domain/push/send.rules.ts).
import assert from 'node:assert/strict';
import { acceptDevices, candidateDeviceIds, type Platform } from '../../domain/push/send.rules';

const A = '0b8f5f4e-8c1e-4c39-9a55-3f4f2f0c1a01';
const B = '0b8f5f4e-8c1e-4c39-9a55-3f4f2f0c1a02';
const C = '0b8f5f4e-8c1e-4c39-9a55-3f4f2f0c1a03';

test('only well-formed ids are looked up, lower-cased, each once', () => {
  assert.deepEqual(candidateDeviceIds([A.toUpperCase(), 'not-a-uuid', A, B, '']), [A, B]);
});

test('accepted: sendable devices in request order, each once; anything else is rejected', () => {
  const sendable = new Map<string, Platform>([
    [A, 'Android'],
    [B, 'iOS'],
  ]);
  assert.deepEqual(acceptDevices([B, 'not-a-uuid', C, A.toUpperCase(), B], sendable), [
    { id: B, platform: 'iOS' },
    { id: A, platform: 'Android' },
  ]);
  assert.deepEqual(acceptDevices([C], sendable), []);
});
