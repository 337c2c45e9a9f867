import * as oidc from 'openid-client';
import type { Config } from '../../config.js';

export type SsoConfig = NonNullable<Config['sso']>;

// The provider's metadata is discovered once per process and kept; a failed discovery is retried at
// the next sign-in rather than stopping the start.
let cached: { key: string; configuration: Promise<oidc.Configuration> } | undefined;

export function providerOf(sso: SsoConfig): Promise<oidc.Configuration> {
  const key = `${sso.issuerUrl}|${sso.clientId}`;
  if (cached?.key !== key) {
    const options = sso.allowHttp ? { execute: [oidc.allowInsecureRequests] } : undefined;
    const configuration = oidc.discovery(
      new URL(sso.issuerUrl),
      sso.clientId,
      sso.clientSecret,
      undefined,
      options,
    );
    cached = { key, configuration };
    configuration.catch(() => {
      if (cached?.configuration === configuration) cached = undefined;
    });
  }
  return cached.configuration;
}
