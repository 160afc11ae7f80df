/**
 * The messages the first load needs: the sign-in, sign-up, reset and activation pages, the shared error texts and
 * the form rules. They are part of MESSAGES too (`MESSAGES.auth` is `CORE_MESSAGES.auth`); code of the sign-in pages
 * and of what the app's entry loads with them (lib/, components/, app/) reads them from here, so the rest of MESSAGES
 * (every screen's strings) stays out of the sign-in file (bench:web, at most 150 KB gzip; issue #6).
 * Every user-facing string of the specification, character for character (requirements.md quotes
 * them, typos and double spaces included).
 */
export const CORE_MESSAGES = {
  validEmailRequired: 'A valid email is required.',
  passwordRequired: 'A password is required.',
  verificationCodeRequired: 'A valid verification code required.',
  passwordsDoNotMatch: 'Passwords do not match.',
  accountDoesNotExist: 'Account does not exists.  Please sign up.',
  providerAccount: 'Account was created with a provider sign in.  Please sign in with your provider.',
  microsoftLoginError: 'Error with Microsoft Login.',
  passwordRules: {
    length: 'Password needs to be at least 8 characters.',
    special: 'Password needs at least one special character.',
    uppercase: 'Password needs at least one uppercase character.',
  },

  techInitFailed: 'Failed to initialize tech information.',

  // Web app shell and roles screen (ours; the spec gives no wording).
  networkError: 'The server could not be reached. Check your connection and try again.',
  unexpectedResponse: 'The server sent an unexpected answer.',
  unexpectedError: 'Something went wrong. Please try again.',
  pageNotFound: 'This page does not exist.',

  // Sign-in, sign-up, activation and reset pages (ours; the spec gives no wording).
  auth: {
    chooseMsp: 'Your email belongs to more than one service provider. Choose where to sign in:',
    mspSignupDone: 'Your MSP is ready. Sign in as its first technician.',
    activationDone: 'Your account is active. Sign in with your new password.',
    passwordChanged: 'Your password was changed. Sign in with your new password.',
    /** The sign-in page after a call was refused because the session had ended (expired, signed out elsewhere, reset). */
    sessionEnded: 'Your session ended. Sign in again to carry on.',
    resetCodeSent: 'If that email has an account, we sent it a 6-digit verification code.',
    resetStartOver: 'Start again from the email step.',
    chooseActivationRecord: 'Choose the record that is you:',
    providerSignupExpired: 'Your provider sign-in has expired. Please sign in with your provider again.',
    /** The general sign-in for an email that belongs to MSP technicians or clients, not to a general account. */
    useMspPage: 'This email belongs to a service provider\'s technician or client. Sign in on the service provider\'s page instead:',
    /** A technician imported from the PSA who has no password yet (decision 019): only an invitation gives them one. */
    askForInvitation: 'Your administrator added you to Switchboard. Ask them to send you an invitation from the Employees screen.',
    /**
     * The MSP login page when the e-mail has no account of the chosen kind but one of the other kind at this MSP (the
     * first-run review: a technician on the Client side, R-049's default, got only "Account does not exists.").
     * Keyed by the kind the e-mail does belong to.
     */
    otherKindFound: {
      tech: 'This e-mail belongs to a technician account — choose Technician.',
      client: 'This e-mail belongs to a client account — choose Client.',
    },
    /** The button under `otherKindFound`: switches the toggle and keeps the e-mail. */
    switchToKind: { tech: 'Switch to Technician', client: 'Switch to Client' },
  },
} as const;
