// How the `push` worker opens an app's transport for a platform: the credentials are
// opened from their sealed column (never passed through Temporal) and the transport goes
// to FCM_ENDPOINT / APNS_ENDPOINT when set (the local sink), else Google's and Apple's hosts.
import { openApnsCredentials, openFcmCredentials } from '../../lib/push/credential-box';
import { createApnsTransport, createFcmTransport } from '../../lib/push/transport';
import type { Config } from '../../lib/config';
import type { OpenTransport } from './send-page';

export function transportOpener(config: Config): OpenTransport {
  return (app, platform) => {
    if (platform === 'Android') {
      const sealed = app.fcmCredentials;
      return sealed ? { sealed, open: () => createFcmTransport(openFcmCredentials(config, app.id, sealed)) } : null;
    }
    const sealed = app.apnsCredentials;
    return sealed ? { sealed, open: () => createApnsTransport(openApnsCredentials(config, app.id, sealed)) } : null;
  };
}
