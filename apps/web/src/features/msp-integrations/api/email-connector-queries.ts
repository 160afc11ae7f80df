import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TEmailConnectorMail, TEmailConnectorMailList, TEmailConnectorSettings, TFileEmailMailBody, TSaveEmailConnectorBody } from '@switchboard/contracts';
import { apiFetch } from '../../../lib/api-client';
import { mspIntegrationKeys } from './msp-integrations-queries';

export const emailConnectorKeys = {
  all: ['email-connector'] as const,
  byMsp: (mspCustomDomain: string) => [...emailConnectorKeys.all, mspCustomDomain] as const,
  mail: (mspCustomDomain: string) => [...emailConnectorKeys.byMsp(mspCustomDomain), 'mail'] as const,
};

const pathOf = (mspCustomDomain: string) => `/db/${encodeURIComponent(mspCustomDomain)}/integrations/email-connector`;

/** The mailbox is read every few minutes: the status and the list look again each minute while the screen is open. */
const MAIL_REFRESH_MS = 60_000;

/**
 * The help-desk mailbox whose mail becomes tickets (never the password, only its last four characters). While a mailbox is
 * connected it looks again each minute, like the list: a reading changes "last checked", the ticket count and the error
 * (the app does not refetch on window focus, so without this a failed first reading only showed after a reload).
 */
export function useEmailConnector(mspCustomDomain: string) {
  return useQuery({
    queryKey: emailConnectorKeys.byMsp(mspCustomDomain),
    queryFn: ({ signal }) => apiFetch(pathOf(mspCustomDomain), { schema: (s) => s.ZEmailConnectorSettings, signal }),
    refetchInterval: (query) => (query.state.data?.isConfigured ? MAIL_REFRESH_MS : false),
  });
}

/** The messages read from the mailbox, newest first, and what became of each. */
export function useEmailConnectorMail(mspCustomDomain: string) {
  return useQuery({
    queryKey: emailConnectorKeys.mail(mspCustomDomain),
    queryFn: ({ signal }) => apiFetch(`${pathOf(mspCustomDomain)}/mail`, { schema: (s) => s.ZEmailConnectorMailList, signal }),
    refetchInterval: MAIL_REFRESH_MS,
  });
}

/** Saving or removing the mailbox changes A-004's emailIntegrator too. */
function useStore(mspCustomDomain: string) {
  const queryClient = useQueryClient();
  return (settings: TEmailConnectorSettings) => {
    // A look started before the save must not put the old settings back when it answers.
    void queryClient.cancelQueries({ queryKey: emailConnectorKeys.byMsp(mspCustomDomain), exact: true });
    queryClient.setQueryData(emailConnectorKeys.byMsp(mspCustomDomain), settings);
    void queryClient.invalidateQueries({ queryKey: mspIntegrationKeys.summary(mspCustomDomain) });
  };
}

/** Signs in to the mailbox on the server, then saves it. */
export function useSaveEmailConnector(mspCustomDomain: string) {
  const store = useStore(mspCustomDomain);
  return useMutation({
    mutationFn: (body: TSaveEmailConnectorBody) => apiFetch(pathOf(mspCustomDomain), { method: 'PUT', body, schema: (s) => s.ZEmailConnectorSettings }),
    onSuccess: store,
  });
}

/** Removes the mailbox and its password: mail is no longer turned into tickets. */
export function useRemoveEmailConnector(mspCustomDomain: string) {
  const store = useStore(mspCustomDomain);
  return useMutation({
    mutationFn: () => apiFetch(pathOf(mspCustomDomain), { method: 'DELETE', schema: (s) => s.ZEmailConnectorSettings }),
    onSuccess: store,
  });
}

/**
 * "Make a ticket…": files one skipped mail under the chosen company (and contact) at the next reading. The list shows the
 * mail as the server answers it (waiting, with where it goes) without waiting for its next look.
 */
export function useFileEmailMail(mspCustomDomain: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: TFileEmailMailBody }) =>
      apiFetch(`${pathOf(mspCustomDomain)}/mail/${encodeURIComponent(id)}/file-under`, { method: 'POST', body, schema: (s) => s.ZEmailConnectorMail }),
    onSuccess: (answered: TEmailConnectorMail) => {
      queryClient.setQueryData<TEmailConnectorMailList>(emailConnectorKeys.mail(mspCustomDomain), (list) =>
        list ? { mail: list.mail.map((mail) => (mail.id === answered.id ? answered : mail)) } : list,
      );
    },
    // Refused (a reading or another person took the mail meanwhile, 409): the list looks again, so it shows what became of it.
    onError: () => queryClient.invalidateQueries({ queryKey: emailConnectorKeys.mail(mspCustomDomain) }),
  });
}
