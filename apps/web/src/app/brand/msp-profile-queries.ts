import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api-client';

export const mspProfileKeys = {
  all: ['msp-profile'] as const,
  byDomain: (customDomain: string) => [...mspProfileKeys.all, customDomain] as const,
};

/** A-020, public: the MSP's name, logo and brand colours. */
export function useMspProfile(customDomain: string | null) {
  return useQuery({
    queryKey: mspProfileKeys.byDomain(customDomain ?? ''),
    queryFn: () => apiFetch('/db/msp', { query: { customDomain }, schema: (s) => s.ZMspProfile }),
    enabled: customDomain !== null,
    staleTime: 5 * 60_000,
  });
}
