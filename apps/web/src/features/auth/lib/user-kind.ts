/** The spec's "last active user type": which of an MSP's two user lists a login uses. */
export type TLoginUserKind = 'tech' | 'client';

export const LOGIN_USER_KINDS: readonly TLoginUserKind[] = ['tech', 'client'];

/** Path segment of the technician or client variant of each /db call. */
export type TUsersSegment = 'technicianUsers' | 'clientUsers';

export function usersSegment(kind: TLoginUserKind): TUsersSegment {
  return kind === 'tech' ? 'technicianUsers' : 'clientUsers';
}

export const USER_KIND_LABELS: Record<TLoginUserKind, string> = { tech: 'Technician', client: 'Client' };

export function isLoginUserKind(value: unknown): value is TLoginUserKind {
  return value === 'tech' || value === 'client';
}

/** The MSP login page's query parameter that opens it on the technician or the client side (`/{msp}?as=tech`). */
export const LOGIN_AS_PARAM = 'as';
