import type { TPsaNote, TPsaTicket } from '@switchboard/psa';
import type { TAuthContext } from '../../plugins/auth-context';
import { notFound } from '../../lib/app-error';

type TUserContext = Extract<TAuthContext, { principal: 'user' }>;

/** Technicians read any ticket of their MSP; a client user only tickets of their own PSA company (else 404). */
export function assertMayReadTicket(auth: TUserContext, ticket: TPsaTicket): void {
  if (auth.userKind === 'technician') return;
  if (auth.psaCompanyId === null || ticket.companyId === null || String(ticket.companyId) !== auth.psaCompanyId) throw notFound();
}

/** Client users never see internal notes: by the PSA's internal mark, which a resolution note can carry too, not by kind alone. */
export function visibleNotes(auth: TUserContext, notes: TPsaNote[]): TPsaNote[] {
  return auth.userKind === 'technician' ? notes : notes.filter((note) => !note.isInternal && note.kind !== 'internal');
}
