import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TMspBrand, TMspProfile } from '@switchboard/contracts';
import { apiFetch } from '../../../lib/api-client';
import { mspProfileKeys } from '../../../app/brand/msp-profile-queries';

export const brandingKeys = {
  all: ['branding'] as const,
  byMsp: (mspCustomDomain: string) => [...brandingKeys.all, mspCustomDomain] as const,
};

/** The MSP's saved brand colours. */
export function useBranding(mspCustomDomain: string) {
  return useQuery({
    queryKey: brandingKeys.byMsp(mspCustomDomain),
    queryFn: () => apiFetch(`/db/${encodeURIComponent(mspCustomDomain)}/branding`, { schema: (s) => s.ZMspBrand }),
  });
}

/** saves the colours; the theme (read from the MSP profile) takes them at once. */
export function useSaveBranding(mspCustomDomain: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (brand: TMspBrand) => apiFetch(`/db/${encodeURIComponent(mspCustomDomain)}/branding`, { method: 'POST', body: brand, schema: (s) => s.ZMspBrand }),
    onSuccess: (brand) => {
      queryClient.setQueryData(brandingKeys.byMsp(mspCustomDomain), brand);
      // The cached profile was validated when it was read (ZMspProfile), so only its brand changes.
      queryClient.setQueryData<TMspProfile>(mspProfileKeys.byDomain(mspCustomDomain), (profile) => (profile ? { ...profile, brand } : profile));
      return queryClient.invalidateQueries({ queryKey: mspProfileKeys.byDomain(mspCustomDomain) });
    },
  });
}

/** Changes the brand logo (an addition to R-090); the header and sign-in page read the profile, which now names the new logo. */
export function useSaveLogo(mspCustomDomain: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.set('file', file);
      return apiFetch(`/db/${encodeURIComponent(mspCustomDomain)}/branding/logo`, { method: 'POST', body: form, schema: (s) => s.ZMspProfile });
    },
    onSuccess: (profile) => queryClient.setQueryData<TMspProfile>(mspProfileKeys.byDomain(mspCustomDomain), profile),
  });
}
