import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TAddPsaContactBody } from '@switchboard/contracts';
import { apiFetch } from '../../../lib/api-client';

const base = (mspCustomDomain: string) => `/db/${encodeURIComponent(mspCustomDomain)}`;

export type TCompanyListParams = { page: number; search: string; clientType: string };
export type TCompanyContactsParams = { psaCompanyId: string; page: number; search: string; active: boolean };
export type TContactListParams = { page: number; search: string; active: boolean; psaOnly: boolean };
export type TTicketListParams = { psaCompanyId?: string | undefined; psaContactId?: string | undefined; page: number };

export const companiesKeys = {
  all: ['companies'] as const,
  msp: (mspCustomDomain: string) => [...companiesKeys.all, mspCustomDomain] as const,
  list: (mspCustomDomain: string, params: TCompanyListParams) => [...companiesKeys.msp(mspCustomDomain), 'list', params] as const,
  contacts: (mspCustomDomain: string, params: TCompanyContactsParams) => [...companiesKeys.msp(mspCustomDomain), 'contacts', params] as const,
  allContacts: (mspCustomDomain: string, params: TContactListParams) => [...companiesKeys.msp(mspCustomDomain), 'all-contacts', params] as const,
  tickets: (mspCustomDomain: string, params: TTicketListParams) => [...companiesKeys.msp(mspCustomDomain), 'tickets', params] as const,
  communicationTypes: (mspCustomDomain: string) => [...companiesKeys.msp(mspCustomDomain), 'communication-types'] as const,
};

/** one page of companies. */
export function useCompanies(mspCustomDomain: string, params: TCompanyListParams) {
  return useQuery({
    queryKey: companiesKeys.list(mspCustomDomain, params),
    queryFn: ({ signal }) => apiFetch(`${base(mspCustomDomain)}/psaClients`, { query: params, schema: (s) => s.ZCompanyPage, signal }),
    placeholderData: keepPreviousData,
  });
}

/** one page of a company's contacts, with its pending adds. */
export function useCompanyContacts(mspCustomDomain: string, params: TCompanyContactsParams) {
  return useQuery({
    queryKey: companiesKeys.contacts(mspCustomDomain, params),
    queryFn: ({ signal }) => apiFetch(`${base(mspCustomDomain)}/psaContactsByClientId`, { query: params, schema: (s) => s.ZContactPage, signal }),
    placeholderData: keepPreviousData,
    // While an add waits for the PSA, look again now and then so it turns into a contact by itself.
    refetchInterval: (query) => ((query.state.data?.pending ?? []).some((contact) => contact.status === 'pending') ? 10_000 : false),
  });
}

/** The Contacts view: every contact the user may see. */
export function useContacts(mspCustomDomain: string, params: TContactListParams) {
  return useQuery({
    queryKey: companiesKeys.allContacts(mspCustomDomain, params),
    queryFn: ({ signal }) => apiFetch(`${base(mspCustomDomain)}/psaContacts`, { query: params, schema: (s) => s.ZContactPage, signal }),
    placeholderData: keepPreviousData,
  });
}

/** The tickets views. */
export function useCompanyTickets(mspCustomDomain: string, params: TTicketListParams) {
  return useQuery({
    queryKey: companiesKeys.tickets(mspCustomDomain, params),
    queryFn: ({ signal }) => apiFetch(`${base(mspCustomDomain)}/psaTickets`, { query: params, schema: (s) => s.ZCompanyTicketPage, signal }),
    retry: false,
  });
}

/** the PSA's communication types for the e-mail and phone of a new contact (empty on Autotask). */
export function useCommunicationTypes(mspCustomDomain: string, enabled: boolean) {
  return useQuery({
    queryKey: companiesKeys.communicationTypes(mspCustomDomain),
    queryFn: () => apiFetch('/psa/getCommunicationTypes', { query: { mspCustomDomain }, schema: (s) => s.ZCommunicationTypes }),
    enabled,
    staleTime: 10 * 60_000,
    retry: false,
  });
}

/** adds a contact at the PSA; answers a pending contact (202) when the PSA is down. */
export function useAddContact(mspCustomDomain: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TAddPsaContactBody) =>
      apiFetch(`/psa/psa/${encodeURIComponent(mspCustomDomain)}/addPSAContact`, { method: 'POST', body, schema: (s) => s.ZAddContactResponse }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: companiesKeys.msp(mspCustomDomain) }),
  });
}
