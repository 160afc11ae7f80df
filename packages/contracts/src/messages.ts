/**
 * Every user-facing string of the specification, character for character (requirements.md quotes
 * them, typos and double spaces included). Server `detail`s and web labels both come from here.
 */
export const MESSAGES = {
  validEmailRequired: 'A valid email is required.',
  passwordRequired: 'A password is required.',
  verificationCodeRequired: 'A valid verification code required.',
  passwordsDoNotMatch: 'Passwords do not match.',
  accountDoesNotExist: 'Account does not exists.  Please sign up.',
  providerAccount: 'Account was created with a provider sign in.  Please sign in with your provider.',
  invalidCredentials: 'Invalid username or password.',
  accountExists: 'Account exists.',
  signupError: 'Error occurred during sign up.',
  microsoftLoginError: 'Error with Microsoft Login.',
  // Ours: the spec words only the Microsoft failure; Google's mirrors it.
  googleLoginError: 'Error with Google Login.',
  providerSignupExpired: 'Your provider sign-in has expired. Please sign in with your provider again.',
  businessEmailMismatch: 'The business email must be the email your provider verified.',
  verificationCodeResent: 'Verification Code Resent!',
  ticketCreationCancelled: 'Ticket Creation Cancelled.',

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

  // New employee form (01 §5).
  employee: {
    names: 'First and last name are required.',
    email: 'Email is invalid.',
    phone: 'Phone number is invalid.',
    password:
      'Password must be at least 8 characters long, contain at least one uppercase letter, and one special character.',
  },

  profileSaveFailed: 'Failed to save changes',
  profileSaveException: 'An error occurred while saving changes.',
  techInitFailed: 'Failed to initialize tech information.',

  // Messages the spec does not word; ours, kept here so server and web agree.
  emptyFields: 'Please fill in all required fields.',
  fileSize: 'The logo must be 2 MB or smaller.',
  fileType: 'The logo must be a PNG, JPEG, GIF, SVG or WebP image.',
  fileMissing: 'Please choose a logo file.',
  customDomainInvalid:
    'The custom domain must be 3–63 lower-case letters, digits or hyphens, and must not start or end with a hyphen.',
  customDomainReserved: 'That custom domain is reserved. Please choose another.',
  customDomainTaken: 'That custom domain is already in use.',
  mspSignupClosed: 'New MSP sign-ups are closed on this server. Ask its operator for an account.',
  mspSignupInvitationRequired: 'MSP sign-up on this server is by invitation. Open the sign-up link from your invitation, or ask the operator for one.',
  invalidVerificationCode: 'The verification code is incorrect or has expired.',
  accountLocked: 'Too many failed attempts. Try again in 15 minutes.',
  tooManyRequests: 'Too many requests. Please wait a moment and try again.',
  sessionRequired: 'Please sign in.',
  forbidden: 'You do not have permission to do that.',
  notFound: 'Not found.',
  csrfRejected: 'The request was rejected because it did not come from the app.',
  bootstrapTokenInvalid: 'The sign-up link has expired. Please start the MSP sign-up again.',
  roleNameTaken: 'A role with that name already exists.',
  roleBuiltIn: 'Built-in roles cannot be changed or deleted.',
  roleInUse: 'This role is assigned to users. Move them to another role first.',
  resetTokenInvalid: 'The verification code is incorrect or has expired.',

  // Web app shell and roles screen (ours; the spec gives no wording).
  networkError: 'The server could not be reached. Check your connection and try again.',
  unexpectedResponse: 'The server sent an unexpected answer.',
  unexpectedError: 'Something went wrong. Please try again.',
  pageNotFound: 'This page does not exist.',
  profileSaved: 'Your changes were saved.',
  roles: {
    created: 'Role created.',
    updated: 'Role updated.',
    cloned: 'Role cloned.',
    deleted: 'Role deleted.',
    createFailed: 'The role could not be created.',
    updateFailed: 'The role could not be updated.',
    cloneFailed: 'The role could not be cloned.',
    deleteFailed: 'The role could not be deleted.',
    deleteConfirm: 'Delete this role? Users must first be moved to another role.',
  },

  // Sign-in, sign-up, activation and reset pages (ours; the spec gives no wording).
  auth: {
    chooseMsp: 'Your email belongs to more than one service provider. Choose where to sign in:',
    mspSignupDone: 'Your MSP is ready. Sign in as its first technician.',
    activationDone: 'Your account is active. Sign in with your new password.',
    passwordChanged: 'Your password was changed. Sign in with your new password.',
    resetCodeSent: 'If that email has an account, we sent it a 6-digit verification code.',
    resetStartOver: 'Start again from the email step.',
    chooseActivationRecord: 'Choose the record that is you:',
    providerSignupExpired: 'Your provider sign-in has expired. Please sign in with your provider again.',
  },

  // Board screen and board editing (01 §4, §5, §8). The three default-company strings are the spec's; the rest are ours.
  boards: {
    defaultCompanyUpdated: 'Default company updated successfully!',
    defaultCompanyFailed: 'Failed to set default company',
    defaultCompanyNetworkError: 'Network error while setting default company',
    noBoardSelected: 'Select a board before saving.',
    statusesRequired: 'Choose an open (new ticket) status and a closed status before saving.',
    openStatusUnknown: 'The open status is not a status of this board. Choose another or create it.',
    closedStatusUnknown: 'The closed status is not a status of this board. Choose another or create it.',
    typeNameRequired: 'Every type needs a name.',
    subTypeNameRequired: 'Every subtype needs a name.',
    duplicateTypeName: 'Two types on this board have the same name.',
    duplicateSubTypeName: 'Two subtypes of one type have the same name.',
    scoreRange: 'Scores are whole numbers from 0 to 100.',
    slaRange: 'SLA hours must be between 1 and 8760.',
    typeUnknown: 'A type of this board no longer exists in the PSA. Reload the board.',
    subTypeUnknown: 'A subtype of this board no longer exists in the PSA. Reload the board.',
    autotaskCreateNotAllowed: 'Autotask issue types, sub-issue types, statuses and queues cannot be created through its API: map to an existing value instead.',
    boardTitleRequired: 'A board title is required.',
    boardNameTaken: 'The PSA already has a board with that name.',
    boardUnknown: 'The PSA has no board with that id. Reload the boards.',
    priorityUnknown: 'A chosen priority no longer exists in the PSA. Choose another.',
    departmentUnknown: 'The PSA has no such department.',
    locationUnknown: 'The PSA has no such location.',
    duplicateBoard: 'The same board appears twice in the configuration.',
    departmentRequired: 'Choose a department for the new board.',
    locationRequired: 'Choose a location for the new board.',
    statusNameRequired: 'A status name is required.',
    categoryNameRequired: 'A category name is required.',
    subCategoryNameRequired: 'A subcategory name is required.',
    templateNotFound: 'There is no board template with that name.',
    companyUnknown: 'That company is not one of your synchronized PSA companies.',
    wrongPsaVariant: 'This configuration is for the other PSA: send connectWiseConfig for ConnectWise and autotaskConfigV2 for Autotask.',
    saved: 'Board saved.',
    saveFailed: 'The board could not be saved.',
    unsaved: 'Unsaved changes',
  },

  // Batch board sync (01 §5, §8; ). The last four are ours.
  batchSync: {
    datesRequired: 'Please select both start and end dates',
    startBeforeEnd: 'Start date must be before end date',
    rangeTooLong: 'Date range cannot exceed 90 days',
    boardRequired: 'Please select a board to sync',
    userConfigurationNotFound: 'User configuration not found',
    startFailed: 'Failed to start board sync',
    started: 'Board sync started successfully. Parent Run ID: {id}',
    statusFailed: 'Failed to fetch batch status',
    finished: 'Board sync finished.',
    runNotFound: 'There is no sync run with that id.',
    boardUnknown: 'A chosen board is not one of your PSA boards. Reload the boards.',
    syncedFailed: 'Board sync failed. Try again in a few minutes.',
  },

  // Clients and contacts import (01 §4 "Clients and contacts loading"; ours, the spec gives no wording).
  imports: {
    nothingSelected: 'Select at least one row to save.',
    tooManyRows: 'Save at most 1,000 rows at a time.',
    jobNotFound: 'That import is no longer known. Load the list again.',
    companyNotImported: 'Import the contact\'s company first (step 4).',
    loadFailed: 'The list could not be loaded from the PSA.',
    cancelled: 'Loading cancelled.',
    saved: '{count} saved.',
    clientTypeRequired: 'Choose a client type.',
  },

  // PSA connection problems (ours; the spec gives no wording).
  psa: {
    notConfigured: 'Connect your PSA first: save its keys under Integrations.',
    badKeys: 'The PSA rejected the saved keys. Check them under Integrations and save them again.',
    notFound: 'The PSA has no such record.',
    validation: 'The PSA refused the request.',
    rateLimited: 'The PSA is limiting requests right now. Try again shortly.',
    unavailable: 'The PSA is not answering right now. Try again shortly.',
    notSupported: 'Your PSA does not allow this through its API.',
    clientIdRequired: 'A ConnectWise clientId is required.',
  },
} as const;
