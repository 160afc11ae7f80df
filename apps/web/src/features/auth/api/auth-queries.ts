import { useQuery } from '@tanstack/react-query';
import { fetchOidcProviders, fetchOutbox } from './auth-api';

/** Query keys of the auth feature's reads. */
export const authKeys = {
  all: ['auth'] as const,
  oidcPending: () => [...authKeys.all, 'oidc-pending'] as const,
  oidcProviders: () => [...authKeys.all, 'oidc-providers'] as const,
  outbox: (to: string) => [...authKeys.all, 'outbox', to] as const,
};

export function useOidcProviders() {
  return useQuery({ queryKey: authKeys.oidcProviders(), queryFn: fetchOidcProviders, retry: false, staleTime: Infinity });
}

export function useOutbox(to: string) {
  return useQuery({ queryKey: authKeys.outbox(to), queryFn: () => fetchOutbox(to), refetchInterval: 5_000 });
}
