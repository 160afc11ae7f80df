import * as oidc from 'openid-client';
import type { TOidcProvider } from '@switchboard/contracts';
import type { TConfig } from '../../config/env';

/**
 * The one place that knows how to reach an identity provider: discovery from the configured
 * issuer, cached per provider. Tests point it at a local oidc-provider through `config.oidc`.
 */
export interface TOidcClients {
  isConfigured(provider: TOidcProvider): boolean;
  /** The discovered client configuration; rejects when discovery fails (retried on the next call). */
  configurationFor(provider: TOidcProvider): Promise<oidc.Configuration>;
}

export function createOidcClients(config: Pick<TConfig, 'oidc' | 'isProduction'>): TOidcClients {
  const cache = new Map<TOidcProvider, Promise<oidc.Configuration>>();

  const discover = async (provider: TOidcProvider): Promise<oidc.Configuration> => {
    const settings = config.oidc[provider];
    if (!settings) throw new Error(`OIDC provider ${provider} is not configured`);
    const issuer = new URL(settings.issuer);
    // Plain-http issuers exist only for local providers in development and tests.
    const allowHttp = issuer.protocol === 'http:' && !config.isProduction;
    return oidc.discovery(issuer, settings.clientId, settings.clientSecret, undefined, allowHttp ? { execute: [oidc.allowInsecureRequests] } : {});
  };

  return {
    isConfigured: (provider) => config.oidc[provider] !== undefined,
    configurationFor: (provider) => {
      const cached = cache.get(provider);
      if (cached) return cached;
      const pending = discover(provider);
      cache.set(provider, pending);
      pending.catch(() => cache.delete(provider));
      return pending;
    },
  };
}
