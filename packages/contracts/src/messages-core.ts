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

  // Account sign-up validator (01 §5), in check order.
  signup: {
    password: { required: 'A password is required.', invalid: 'Password should be at least 8 characters.' },
    phoneNumber: { required: 'A phone number is required.', invalid: 'Invalid phone number format.' },
    email: { required: 'An email is required.', invalid: 'Invalid email format.' },
    firstName: { required: 'First name is required.', invalid: 'First name is invalid.' },
    lastName: { required: 'Last name is required.', invalid: 'Last name is invalid.' },
    companyName: { required: 'Business name is required.', invalid: 'Business name is invalid.' },
    street: { required: 'Street name is required.', invalid: 'Street name is invalid.' },
    city: { required: 'City name is required.', invalid: 'City name is invalid.' },
    zipcode: { required: 'Zip code is required.', invalid: 'Invalid zip code.' },
    state: { required: 'State name is required.', invalid: 'State name is invalid.' },
  },
  passwordRules: {
    length: 'Password needs to be at least 8 characters.',
    special: 'Password needs at least one special character.',
    uppercase: 'Password needs at least one uppercase character.',
  },

  techInitFailed: 'Failed to initialize tech information.',

  // Messages the spec does not word; ours, kept here so server and web agree.
  emptyFields: 'Please fill in all required fields.',
  fileSize: 'The logo must be 2 MB or smaller.',
  fileType: 'The logo must be a PNG, JPEG, GIF, SVG or WebP image.',
  fileMissing: 'Please choose a logo file.',
  customDomainInvalid:
    'The custom domain must be 3–63 lower-case letters, digits or hyphens, and must not start or end with a hyphen.',
  customDomainReserved: 'That custom domain is reserved. Please choose another.',
  mspSignup: {
    nameTooLong: 'The MSP name is too long (at most 100 characters).',
    websiteInvalid: 'Enter the website as a web address, for example https://example.com.',
    phoneInvalid: 'Enter the company phone number with 9 or 10 digits, for example 206 555 0142.',
  },

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
  },
} as const;
