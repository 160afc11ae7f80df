/**
 * The email connector (R-195, R-199, decision 036): the help-desk mailbox whose new mail becomes
 * tickets. The plain constants and rules both sides share; the zod schemas are in
 * schemas/email-connector.ts.
 */

export const EMAIL_CONNECTOR_PASSWORD_MAX = 200;
export const EMAIL_CONNECTOR_HOST_MAX = 253;
export const IMAPS_PORT = 993;

/** The big providers' IMAP servers, found from the address's domain (anything else needs the server typed in). */
const KNOWN_IMAP_HOSTS: { domains: RegExp; host: string }[] = [
  { domains: /^(outlook\.com|hotmail\.com|live\.com|msn\.com|office365\.com|[a-z0-9-]+\.onmicrosoft\.com)$/, host: 'outlook.office365.com' },
  { domains: /^(gmail\.com|googlemail\.com)$/, host: 'imap.gmail.com' },
];

/** The IMAP server and port of a big provider's address (Microsoft 365, Outlook.com, Gmail), or null for any other. */
export function defaultImapServerOf(address: string): { host: string; port: number } | null {
  const domain = address.trim().toLowerCase().split('@')[1] ?? '';
  const known = KNOWN_IMAP_HOSTS.find((entry) => entry.domains.test(domain));
  return known ? { host: known.host, port: IMAPS_PORT } : null;
}

export const EMAIL_CONNECTOR_MESSAGES = {
  addressRequired: 'Enter the address of the help-desk mailbox.',
  addressInvalid: 'Enter a full email address, such as help@yourmsp.com.',
  passwordRequired: 'Enter the app password of the mailbox.',
  /** A saved password goes only to the server it was saved with: a new IMAP server or port needs it typed again. */
  passwordRequiredForNewServer: 'Enter the app password again: it is only sent to the mail server it was saved for.',
  hostRequired: 'Enter the IMAP server of this mailbox: it is found by itself only for Microsoft 365, Outlook.com and Gmail addresses.',
  hostInvalid: 'Enter the IMAP server as a host name, such as imap.yourmsp.com (no https:// and no port).',
  portInvalid: 'The IMAP port is a number from 1 to 65535 (993 for most mailboxes).',
  signInRefused: 'The mailbox refused the sign-in. Check the address and the app password (an app password, not the normal password, when the mailbox has two-step sign-in).',
  unreachable: 'The mail server could not be reached. Check the IMAP server and port, then try again.',
  notSecure: 'The mail server does not offer an encrypted connection, so the password was not sent. Use the server’s TLS port (usually 993).',
  /** The server's TLS certificate cannot be trusted (expired, self-signed, for another name): not a server that is not there. */
  certificateInvalid: "The mail server's certificate is not valid (expired, self-signed or for another name), so the password was not sent. Ask your mail provider, or check the server name.",
  notConfigured: 'No email connector is set up for this MSP.',
  /** The mail the mailbox already holds is left alone (review s29): only what arrives from now on is read. */
  saved: 'Email connector saved: mail that arrives at this address from now on becomes tickets; the mail already in the mailbox is left as it is.',
  removed: 'Email connector removed. Mail is no longer turned into tickets.',
  keepPassword: 'Leave empty to keep the saved app password.',
} as const;

/** What became of a message read from the mailbox (the "Recent mail" list). */
export const EMAIL_MAIL_OUTCOMES = ['ticket', 'note', 'waiting', 'skipped', 'ignored'] as const;
export type TEmailMailOutcome = (typeof EMAIL_MAIL_OUTCOMES)[number];
export const EMAIL_MAIL_LIST_DEFAULT = 20;
export const EMAIL_MAIL_LIST_MAX = 100;

/** How the reasons of a mail whose ticket was not made (refused by the PSA, or overtaken by another PSA) begin. */
const NOT_MADE = 'Not made:';

/** The "Recent mail" list of the email connector card. */
export const EMAIL_MAIL_MESSAGES = {
  title: 'Recent mail',
  intro: `The last ${EMAIL_MAIL_LIST_DEFAULT} messages read from the mailbox and what became of each.`,
  listLabel: 'Mail read from the mailbox',
  loading: 'Loading the recent mail',
  loadFailed: 'The recent mail could not be loaded',
  empty: 'No mail has been read from the mailbox yet. New mail is read every few minutes.',
  outcome: {
    ticket: 'Ticket',
    note: 'Note',
    waiting: 'Waiting',
    skipped: 'Not a ticket',
    ignored: 'Ignored',
  } satisfies Record<TEmailMailOutcome, string>,
  ticketCreated: (number: string) => `Ticket #${number} created in the PSA.`,
  noteAdded: (number: string) => `Added to ticket #${number} as a note.`,
  noteWaiting: 'A note on its ticket, waiting for the PSA.',
  ticketWaiting: 'The ticket is waiting for the PSA; it is sent again by itself.',
  /** Whether a skipped mail's reason is one of the "Not made:" ones (its ticket was refused or overtaken), not an unknown sender's. */
  isNotMade: (reason: string | null) => reason !== null && reason.startsWith(NOT_MADE),
  skippedHint: 'It stays unread in the mailbox. Set a default company on the Board screen, or import the sender as a contact of their company: it then becomes a ticket at the next reading.',
  from: (address: string, when: string) => `From ${address} · ${when}`,
  noSubject: '(no subject)',
  /** A mail whose ticket was still waiting for the PSA when the MSP connected another PSA (decision 042). */
  psaChanged: `${NOT_MADE} another PSA was connected before its ticket was sent. Use “Make a ticket…” to file it in the PSA connected now.`,
  /** A mail whose ticket the PSA refused for good (review s29): the PSA's own words, and what can be done. */
  ticketRefused: (reason: string) =>
    `${NOT_MADE} the PSA refused its ticket (${reason.trim().replace(/\.$/, '')}). Use “Make a ticket…” to file it again, or send it again from the PSA writes once the cause is fixed.`,
  /** "Make a ticket…": a person files one skipped mail under a company of their choosing (decision 036, 2026-11-29). */
  fileUnder: {
    button: 'Make a ticket…',
    buttonLabel: (subject: string) => `Make a ticket… of “${subject}”`,
    title: 'Make a ticket of this mail',
    intro: 'Choose the client company this mail is for. Only this mail is filed there: the default company and the PSA’s contacts stay as they are.',
    companyLabel: 'Company',
    companyPlaceholder: 'Type to find a company',
    companiesLoading: 'Loading companies…',
    companiesFailed: 'The companies could not be loaded. Try again in a moment.',
    noCompanyFound: 'No active company has that name.',
    moreCompanies: 'More companies match: type more of the name to find one that is not listed.',
    contactLabel: 'Contact (optional)',
    contactPlaceholder: 'No contact: the company only',
    contactNeedsCompany: 'Choose a company first',
    contactsLoading: 'Loading contacts…',
    noContactFound: 'No active contact of this company has that name.',
    moreContacts: 'More contacts match: type more of the name to find one that is not listed.',
    save: 'Save',
    cancel: 'Cancel',
    companyRequired: 'Choose the company this mail is for.',
    willBeFiled: (company: string, contact: string | null) =>
      contact ? `Will be filed under ${company}, for ${contact}, at the next reading.` : `Will be filed under ${company} at the next reading.`,
    saved: (company: string) => `The mail will be filed under ${company} at the next reading of the mailbox.`,
    mailNotFound: 'This mail is not among the mail read from the mailbox.',
    notSkipped: 'This mail is no longer waiting for a company: it is already a ticket, a note on a ticket, or ignored. The list shows what became of it.',
    companyNotFound: 'Choose a company from the list: this one is not among the active companies synchronized from the PSA.',
    contactNotOfCompany: 'Choose a contact of the chosen company, or none: this one is not an active contact of that company.',
    chosenCompanyGone:
      'The company chosen for this mail is no longer among the active companies synchronized from the PSA. Choose another with “Make a ticket…”, set a default company, or import the sender as a contact.',
    /** The mail a person chose a company for is no longer in the inbox the connector reads (moved, deleted, or another mailbox connected). */
    notInInbox: 'No longer in the help-desk mailbox’s inbox, so no ticket was made. Make the ticket in the PSA by hand if it is needed.',
  },
} as const;

/** The status line of a connected mailbox (the integrations screen). */
export const emailConnectorStatus = (address: string): string => `Connected: tickets are created from mail to ${address}`;
