import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** Claims a user of the local provider signs in with (keyed by the login typed into its form). */
export interface TLocalIdentity {
  email: string;
  email_verified: boolean;
  given_name: string;
  family_name: string;
}

export interface TLocalOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /**
   * Plays the browser at the provider: follows its redirects carrying its cookies, posts the
   * dev-interactions login form (as `login`) and consent form, and returns the final redirect to
   * the app (the URL starting with `appOrigin`).
   */
  signIn(authorizationUrl: string, login: string, appOrigin: string): Promise<URL>;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (oidc-provider with its development login and consent pages) on a random
 * 127.0.0.1 port, with one confidential client registered for the given redirect URIs.
 */
export async function startLocalOidcProvider(options: { redirectUris: string[]; identities: Record<string, TLocalIdentity> }): Promise<TLocalOidcProvider> {
  let handle: (request: IncomingMessage, response: ServerResponse) => void = (_request, response) => response.end();
  const server = createServer((request, response) => handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = 'switchboard-test';
  const clientSecret = 'local-provider-client-secret-0123456789';

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
    findAccount: (_context, accountId) => {
      const identity = options.identities[accountId];
      if (!identity) return undefined;
      return { accountId, claims: () => ({ sub: accountId, ...identity }) };
    },
    pkce: { required: () => true },
    // Explicit lifetimes keep the provider from printing a notice for each default it falls back to.
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
    cookies: { keys: ['local-provider-cookie-key-0123456789'] },
    features: { devInteractions: { enabled: true } },
  });
  const providerHandler = provider.callback();
  handle = (request, response) => {
    void providerHandler(request, response);
  };

  const signIn = async (authorizationUrl: string, login: string, appOrigin: string): Promise<URL> => {
    const jar = new Map<string, string>();
    let url = authorizationUrl;
    let form: URLSearchParams | undefined;
    for (let hop = 0; hop < 20; hop += 1) {
      const response = await fetch(url, {
        method: form ? 'POST' : 'GET',
        redirect: 'manual',
        headers: {
          cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
          ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        ...(form ? { body: form.toString() } : {}),
      });
      for (const setCookie of response.headers.getSetCookie()) {
        const [pair = ''] = setCookie.split(';');
        const separator = pair.indexOf('=');
        const name = pair.slice(0, separator);
        const value = pair.slice(separator + 1);
        if (value === '' || /expires=Thu, 01 Jan 1970/i.test(setCookie)) jar.delete(name);
        else jar.set(name, value);
      }
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        const next = new URL(location, url);
        if (next.href.startsWith(appOrigin)) return next;
        url = next.href;
        form = undefined;
        continue;
      }
      const html = await response.text();
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
      if (response.status !== 200 || !action || !prompt) throw new Error(`Unexpected provider page (${response.status}): ${html.slice(0, 300)}`);
      url = new URL(action.replaceAll('&amp;', '&'), url).href;
      form = prompt === 'login' ? new URLSearchParams({ prompt, login, password: 'any' }) : new URLSearchParams({ prompt });
    }
    throw new Error('The provider never redirected back to the app');
  };

  return {
    issuer,
    clientId,
    clientSecret,
    signIn,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
