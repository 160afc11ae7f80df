import { CORE_MESSAGES } from './messages-core';

/**
 * Every user-facing string of the specification, character for character (requirements.md quotes
 * them, typos and double spaces included). Server `detail`s and web labels both come from here.
 */
export const MESSAGES = {
  // What the first load reads (the sign-in pages and the app shell) is in messages-core.ts; the rest of the
  // app-wide messages follow, in their old order.
  ...CORE_MESSAGES,
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

  // Messages the spec does not word; ours, kept here so server and web agree.
  emptyFields: 'Please fill in all required fields.',
  fileSize: 'The logo must be 2 MB or smaller.',
  fileType: 'The logo must be a PNG, JPEG, GIF, SVG or WebP image.',
  /** An SVG logo refused for what it holds (decision 005), not for its type. */
  logoSvgRefused: 'This SVG contains scripts, links, styles or entity declarations. Export it as PNG, or as a plain SVG.',
  fileMissing: 'Please choose a logo file.',
  customDomainInvalid:
    'The custom domain must be 3–63 lower-case letters, digits or hyphens, and must not start or end with a hyphen.',
  customDomainReserved: 'That custom domain is reserved. Please choose another.',
  mspSignup: {
    nameTooLong: 'The MSP name is too long (at most 100 characters).',
    websiteInvalid: 'Enter the website as a web address, for example https://example.com.',
    phoneInvalid: 'Enter the company phone number with 9 or 10 digits, for example 206 555 0142.',
  },
  invalidCredentials: 'Invalid username or password.',
  accountExists: 'Account exists.',
  signupError: 'Error occurred during sign up.',
  // Ours: the spec words only the Microsoft failure; Google's mirrors it.
  googleLoginError: 'Error with Google Login.',
  providerSignupExpired: 'Your provider sign-in has expired. Please sign in with your provider again.',
  businessEmailMismatch: 'The business email must be the email your provider verified.',
  verificationCodeResent: 'Verification Code Resent!',
  ticketCreationCancelled: 'Ticket Creation Cancelled.',

  profileSaveFailed: 'Failed to save changes',
  profileSaveException: 'An error occurred while saving changes.',
  customDomainTaken: 'That custom domain is already in use.',
  // Ours: after step 2 failed, the MSP of step 1 exists already and sign-up has no call to change it.
  mspSignupDetailsSaved: 'Your MSP was created with these details, so they cannot be changed here. Go on to finish your admin account.',
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
  // Ours (the spec fixes no string): only active holders keep a role from being deleted; deleted employees holding it
  // are moved to the built-in Technician role (review s29 #3), so the count is of active people.
  roleInUse: (holders: number) => `This role is assigned to ${holders === 1 ? '1 person' : `${holders} people`}. Move them to another role first.`,
  roleLastRoleManager:
    'Nobody active could manage roles after this change. Keep Role management in this role, or first give another active employee a role that has it.',
  resetTokenInvalid: 'The verification code is incorrect or has expired.',
  controlCharacters: 'Remove the invisible control characters (such as NUL) from what you entered.',
  multipartBroken: 'The form upload was incomplete or damaged. Please send it again.',
  /** A form with more than one file part (every upload takes one file). */
  uploadOneFile: 'Upload one file at a time.',
  requestUnreadable: 'The request could not be read. Please check what was sent and try again.',
  payloadTooLarge: 'What was sent is too large.',
  uriTooLong: 'The address is too long.',
  unsupportedMediaType: 'This kind of content is not accepted here.',
  roleGrantTooBroad: 'You cannot give someone a role with permissions you do not have yourself.',
  // Ours: the person acted on (deleted, restored, given another role) holds a role richer than the actor's (review s26 #2).
  roleTargetTooBroad: 'You cannot change someone whose role has permissions you do not have yourself.',
  // Ours: the role being edited or deleted holds a permission the role manager lacks (review s29 #1, decision 044).
  roleChangeTooBroad: 'You cannot change or delete a role that has permissions you do not have yourself.',
  profileSaved: 'Your changes were saved.',
  // The profile dialog's authenticator app section (decisions #16; ours, the spec has none).
  authenticatorApp: {
    isOn: 'On. When you sign in, you can enter the code from your authenticator app instead of the mailed code.',
    isOff: 'Off. Sign-in codes arrive by mail.',
    setupSteps: 'In your authenticator app, add an account and scan this QR code, or type in the key below (or open the link on this device). Then enter the 6-digit code the app shows.',
    qrCodeLabel: 'QR code for your authenticator app',
    replaceNote: 'Your current app keeps working until you confirm the new one. To confirm, enter the code each app shows now.',
    currentCodeRequired: 'To replace your authenticator app, also enter the current code from the app you use now.',
    currentCodeWrong: 'The code from your current app is incorrect or has expired.',
    newCodeWrong: 'The code from the new app is incorrect or has expired.',
    codesAlreadyUsed: 'One of these codes was already used. Wait until both apps show new codes, then enter those.',
    turnOffSteps: 'Enter the current 6-digit code from your authenticator app to turn it off.',
    codeFormat: 'Enter the 6 digits your authenticator app shows.',
    turnedOn: 'Authenticator app turned on.',
    replaced: 'New authenticator app confirmed. Your previous app no longer works for signing in.',
    turnedOff: 'Authenticator app turned off. Sign-in codes arrive by mail.',
    loadFailed: 'Whether you use an authenticator app could not be loaded.',
    setupFailed: 'The authenticator app could not be set up.',
  },
  // A people manager removes someone's lost authenticator app (decision 047; ours, the spec has none).
  authenticatorAppRemoval: {
    action: 'Remove authenticator app',
    confirmTitle: (name: string) => `Remove the authenticator app of ${name}?`,
    confirmText:
      'Do this when they lost the phone or device with their authenticator app. Until they set up a new app from their profile, they sign in with the code that arrives by mail. They get a mail saying you removed it.',
    confirm: 'Remove app',
    removed: 'Authenticator app removed.',
    removedFor: (name: string) => `${name} signs in with the mailed code until they set up a new app. They were told by mail.`,
    notMailed: (name: string) => `${name} signs in with the mailed code until they set up a new app. The mail telling them could not be sent: let them know yourself.`,
    failed: 'The authenticator app could not be removed.',
    notForSelf: 'You cannot remove your own authenticator app here. To replace it or turn it off, open your profile and enter a code from it.',
    noneEnrolled: 'This person has no authenticator app to remove.',
    changedMeanwhile: 'Their authenticator app changed while you were removing it. Reload the list and try again.',
    mailSubject: 'Your Switchboard authenticator app was removed',
  },
  // Ours: the spec words only the missing-name case; a name with other characters needs its own words.
  profileNameInvalid: 'Names may contain only letters, digits, spaces, apostrophes, hyphens and periods.',

  // New employee form (01 §5).
  employee: {
    names: 'First and last name are required.',
    email: 'Email is invalid.',
    phone: 'Phone number is invalid.',
    password:
      'Password must be at least 8 characters long, contain at least one uppercase letter, and one special character.',
  },

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

  // Employees screen (the spec words only the form checks of 01 §5; the rest is ours).
  employees: {
    added: 'Employee added.',
    updated: 'Employee updated.',
    deleted: 'Employee deleted. They can no longer sign in.',
    imported: 'PSA members imported.',
    addFailed: 'The employee could not be added.',
    updateFailed: 'The employee could not be updated.',
    deleteFailed: 'The employee could not be deleted.',
    importFailed: 'The PSA members could not be imported.',
    deleteConfirm: 'Delete this employee? They will no longer be able to sign in; they stay in the Inactive list.',
    lastRoleManager:
      'This is the last active person who can manage roles in your MSP. Give another active employee a role with Role management first.',
    cannotDeleteSelf: 'You cannot delete your own account. Ask another administrator to do it.',
    roleBeyondOwn: 'You cannot give a role with permissions you do not have yourself.',
    alreadyInactive: 'This employee is already inactive.',
    alreadyActive: 'This employee is already active.',
    restored: 'Employee restored. They can sign in again.',
    restoreFailed: 'The employee could not be restored.',
    selectMembers: 'Select at least one PSA member to import.',
    memberWithoutEmail: 'A PSA member without an email address cannot be imported. Add an email in the PSA first.',
    memberAlreadyImported: 'This PSA member is already an employee.',
  },
  // Technician invitations (decision 019): ours, the spec has none.
  invitations: {
    sent: 'Invitation sent.',
    sendFailed: 'The invitation could not be sent.',
    sentAll: (count: number) => (count === 1 ? '1 invitation sent.' : `${count} invitations sent.`),
    /** Some links were not mailed: those invitations were not kept, so sending again later mails them. */
    notAllSent: (failed: number, total: number) => {
      const retry = 'Nothing was kept for them: send the invitation again once the mail server answers.';
      if (total === 1) return `The mail server did not accept the invitation mail. ${retry}`;
      if (failed === total) return `The mail server did not accept any of the ${total} invitation mails. ${retry}`;
      return `${total - failed} of ${total} invitations were sent; the mail server did not accept ${failed === 1 ? '1 mail' : `${failed} mails`}. ${retry}`;
    },
    noneToSend: 'Every active employee already has an account or an open invitation.',
    alreadyHasAccount: 'This employee already has an account. They can sign in or reset their password.',
    inactive: 'This employee is inactive. Restore them before inviting them.',
    invalid: 'This invitation link is invalid or has expired. Ask your administrator for a new one.',
    accepted: 'Your password is set. Sign in to continue.',
    mailSubject: 'You are invited to Switchboard',
    /** Forgot-password for a technician without a password: the answer stays the same for every address, the mail explains. */
    noPasswordYetMailSubject: 'Your Switchboard account has no password yet',
  },
  // The mail after an activation (A-089/A-090): ours, the spec has none. Activation proves no ownership of the mailbox, so
  // the mailbox is told and can take the account back with "Forgot password".
  activation: {
    mailSubject: (mspName: string) => `Your Switchboard account at ${mspName} is ready`,
  },
  // Team screen: the first two are the spec's (01 §5, §8); the rest are ours.
  teams: {
    tierRequired: 'Please select a tier level for all team members',
    tierSaveFailed: 'Failed to save tier changes. Please try again.',
    boardRequired: 'Please select a board.',
    nameRequired: 'Please enter a team name.',
    nameTaken: 'A team with that name already exists on this board.',
    selectMembers: 'Select at least one technician.',
    memberNeedsPsa: 'Only technicians linked to a PSA member can join a team.',
    alreadyMember: 'That technician is already on this team.',
    notMember: 'That person is not on this team.',
    created: 'Team created.',
    createFailed: 'The team could not be created.',
    membersAdded: 'Members added.',
    addFailed: 'The members could not be added.',
    tiersSaved: 'Tier changes saved.',
    removed: 'Member removed.',
    removeFailed: 'The member could not be removed.',
    removeConfirm: 'Remove this member from the team?',
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
    slaRange: 'SLA hours must be a whole number of hours between 1 and 8760.',
    typeUnknown: 'A type of this board no longer exists in the PSA. Reload the board.',
    subTypeUnknown: 'A subtype of this board no longer exists in the PSA. Reload the board.',
    autotaskCreateNotAllowed: 'Autotask issue types, sub-issue types, statuses and queues cannot be created through its API: map to an existing value instead.',
    boardTitleRequired: 'A board title is required.',
    boardNameTaken: 'The PSA already has a board with that name.',
    /** A-050 made the board but A-051 could not add the template's categories: the retry fills the same board. */
    templateStepFailed: (boardName: string, reason: string) =>
      `The board “${boardName}” was created in the PSA, but its statuses and categories could not be added: ${reason} Press Try again to add them to the same board.`,
    boardUnknown: 'The PSA has no board with that id. Reload the boards.',
    priorityUnknown: 'A chosen priority no longer exists in the PSA. Choose another.',
    departmentUnknown: 'The PSA has no such department.',
    locationUnknown: 'The PSA has no such location.',
    duplicateBoard: 'The same board appears twice in the configuration.',
    departmentRequired: 'Choose a department for the new board.',
    locationRequired: 'Choose a location for the new board.',
    statusNameRequired: 'A status name is required.',
    /** A-047: a same-named status is reused only when it is active and of the asked kind (review s27). */
    statusNameInactive: (name: string) => `This board already has an inactive status named “${name}”. Make it active in the PSA, or choose another name.`,
    statusNameOtherKind: (name: string, isClosed: boolean) =>
      `This board already has a status named “${name}”, and it ${isClosed ? 'closes' : 'does not close'} tickets. Choose that status from the list, or choose another name.`,
    /** A-034 with the version of an older read (decision 012). */
    staleSave: 'Someone else saved this board since you opened it. Reload the board to see their changes, then make yours again.',
    categoryNameRequired: 'A category name is required.',
    subCategoryNameRequired: 'A subcategory name is required.',
    templateNotFound: 'There is no board template with that name.',
    companyUnknown: 'That company is not one of your synchronized PSA companies.',
    wrongPsaVariant: 'This configuration is for the other PSA: send connectWiseConfig for ConnectWise and autotaskConfigV2 for Autotask.',
    saved: 'Board saved.',
    saveFailed: 'The board could not be saved.',
    unsaved: 'Unsaved changes',
    leaveTitle: 'Leave without saving?',
    leaveText: 'These changes on the Board screen are not saved. If you leave, they will be lost.',
  },

  // Batch board sync (01 §5, §8; R-212–R-219). The last four are ours.
  batchSync: {
    /** Ours: which days the dates mean (the server counts them in the queue settings' time zone). */
    daysIn: (timeZone: string) => `Each day runs from midnight to midnight, ${timeZone} time (the time zone set under Queue ordering on the Board screen).`,
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
    resuming: 'Connection lost — resuming…',
    resumeFailed: 'The connection was lost and loading could not be resumed. Load the list again.',
    /** After Cancel with rows held: where the load stopped and how to go on ({loaded}, {total} as the screen counts them). */
    stoppedAt: 'Stopped at {loaded} of {total}. Resume to load the rest.',
    stoppedAtNoTotal: 'Stopped at {loaded}. Resume to load the rest.',
    saveFailed: 'The selection could not be saved. Try again.',
    saved: '{count} saved.',
    /** A-057's `skipped` contacts, as the panel and the wizard's toast count them ({count}). */
    notSavedNoCompany: '{count} not saved: their company is not among your saved clients. Save the company in step 4 (Clients) first, then save these contacts again.',
    /** Skipped rows for any other reason the server gives ({reason}). */
    notSavedOther: '{count} not saved: {reason}',
    /** The wizard's toast as it moves on from step 4 or 5 (the panel with its own "{count} saved." is gone by then). */
    savedClientsTitle: 'Clients saved',
    savedContactsTitle: 'Contacts saved',
    clientTypeRequired: 'Choose a client type.',
    /** Decision 042: keys for another PSA were saved while the rows were loaded or saved. */
    connectionChanged: 'Another PSA was connected after this list was loaded, so it was not saved. Load it again from the PSA connected now.',
    /** The same, for someone activating their account (A-087–A-090) while their PSA record was being looked up. */
    activationConnectionChanged: 'Your service provider connected another PSA while your record was being looked up, so your account was not created. Enter your email again.',
  },

  // Ticket form (01 §5; R-272, R-273): the spec's strings, character for character.
  ticketForm: {
    titleRequired: 'Ticket Title is required',
    descriptionRequired: 'Description is required',
    nameRequired: 'Valid Name is required',
    emailRequired: 'Valid Email is required',
    phoneInvalid: 'Phone number must be 9 or 10 digits',
    companyRequired: 'Company selection is required',
    boardRequired: 'Board selection is required',
    categoryRequired: 'Category selection is required',
    subCategoryRequired: 'SubCategory selection is required',
  },
  // AI agent form (01 §5; R-244): the spec's strings.
  agentForm: {
    nameRequired: 'Agent Name is required',
    roleRequired: 'Role is required',
    descriptionRequired: 'Description is required',
    objectiveRequired: 'At least one objective is required',
  },
  // The board editor's diagnostic question list of a subcategory (issue #9; ours).
  diagnosticQuestions: {
    questionRequired: 'Type the question, or remove the empty one.',
    questionTooLong: 'A question can be at most 200 characters long.',
    tooMany: 'A subcategory can have at most 10 questions.',
    duplicate: 'This question is already in the list.',
    subtypeNotFound: 'That subcategory is not on your configured boards. Save the board first.',
    saved: 'Diagnostic questions saved.',
  },
  // Jarvis, conversations, tickets by chat and documents (the spec gives no wording; ours).
  assistant: {
    chatTextRequired: 'Type a message or choose an answer first.',
    promptInputRequired: 'Type something or pick a troubleshooting message first.',
    troubleshootQuestionRequired: 'Type a question first.',
    /** Under an AI model's answer that cites none of the retrieved sources (the cited ones are listed under "Sources:"). */
    answerCitesNoSource: 'This answer cites none of your knowledge base or past resolutions: check it before you rely on it.',
    agentNotFound: 'That agent does not exist or was deleted.',
    defaultAgentReadOnly: 'The built-in troubleshooting agent cannot be changed or deleted.',
    /** R-246 is a soft delete and no more: the agent's conversations leave History with it (an edit keeps them, under the new agent). */
    agentDeleteWarning: 'The agent and your conversations with it disappear from every list. To change the agent and keep its conversations, edit it instead.',
    conversationNotFound: 'That conversation does not exist or was deleted.',
    defaultConversationName: 'Chat - {timestamp}',
    localEngineNotice: 'No AI model is connected, so this answer comes from your MSP’s knowledge base and past ticket resolutions.',
    nothingFound: 'I found nothing in your MSP’s knowledge base or past resolutions that matches. Try other words, or talk to a technician.',
    /** Tickets by chat, second round, when no article or past ticket is about the problem (the person has said what is wrong: no "try other words"). */
    noStepsForTicket: 'I have no steps for this that you can try yourself. Confirm the ticket and a technician will take it, or talk to a technician now.',
    abstained: 'I am not sure which category this belongs to. Please answer the questions below so I can pick the right one.',
    abstainedAfterAnswers: 'I am still not sure which category this belongs to. Please choose the board, category and subcategory in the ticket below.',
    /** Tickets by chat, second round, when the first answers left the category open: one more round of questions. */
    stillUnsureAskMore: 'I am still not sure which category this belongs to. A few more questions:',
    feedbackSaved: 'Thanks for your feedback!',
    feedbackOnlyAnswers: 'Feedback can only be given on the assistant’s answers.',
    didNotHelpTwice: 'Sorry that did not help. Would you like to talk to a technician now?',
    talkToTechnician: 'Talk to a technician',
    ticketDraftNotFound: 'This ticket conversation has ended. Describe the problem again to start a new ticket.',
    ticketDraftClosed: 'This ticket was already created or cancelled.',
    ticketCreated: 'Your ticket {ticketNumber} was created on {boardName}: {typeName} / {subTypeName}, priority {priority}.',
    ticketCreatedWithoutPriority: 'Your ticket {ticketNumber} was created on {boardName}: {typeName} / {subTypeName}.',
    ticketPendingInPsa: 'Your ticket was saved and is pending in the PSA. It will appear there as soon as the PSA accepts it.',
    pendingInPsa: 'pending in the PSA',
    /** A ticket request the PSA refused for good (never got a ticket number): its one badge in the client's lists. */
    refusedInPsa: 'refused by the PSA',
    failedInPsa: 'The PSA refused this ticket. A technician will look at it.',
    boardNotConfigured: 'Your MSP has not set up a ticket board yet. Ask your service provider to configure one.',
    boardUnknown: 'That board is not one of your MSP’s configured boards.',
    typeUnknown: 'That category is not on the chosen board.',
    subTypeUnknown: 'That subcategory does not belong to the chosen category.',
    priorityUnknown: 'That priority is not one of the board’s priorities.',
    itemUnknown: 'That item is not one of the board’s items.',
    ticketTypeUnknown: 'That ticket type is not the queue’s ticket type.',
    reporterEmailNotOwn: 'You can only create a ticket with your own email address.',
    contactUnknown: 'That contact does not belong to the chosen company.',
    companyUnknown: 'That company is not one of your synchronized PSA companies.',
    clientNotLinked: 'Your account is not linked to a company and contact in the PSA yet. Ask your service provider to link it.',
    ticketNotFound: 'That ticket does not exist.',
    noTicketsFound: 'No tickets found in myQueueTickets',
  },
  documents: {
    fileMissing: 'Please choose a file to upload.',
    fileEmpty: 'The file is empty. Choose a file with something in it.',
    fileSize: 'The file must be 10 MB or smaller.',
    fileType: 'Upload a PDF, Word (.docx), Markdown or plain-text file.',
    descriptionTooLong: 'The description is too long (at most 1000 characters).',
    /** A PDF that opens but holds no text: most often a scan. */
    unreadable: 'No text could be read from this file. If it is a scanned PDF, upload a text version.',
    /** A file that is broken or not what its name says (any kind). */
    cannotRead: 'This file could not be read. Check that it opens, then upload it again.',
    /** A Word, Markdown or text file without any text. */
    noText: 'This file has no text in it. Add its text, then upload it again.',
    /** The title of a document whose file name is only an extension (".md"). */
    untitledDocument: 'Untitled document',
    mspDocumentsNeeded: 'Documents for the whole MSP need the MSP documents permission: ask an administrator to add it to your role.',
    notFound: 'That document does not exist.',
    uploaded: 'Document uploaded.',
    deleted: 'Document deleted.',
    sharedNotYours: 'Only your IT provider can delete a document shared with every company.',
    fileGone: 'The file of this document is no longer stored.',
    messageRequired: 'Type a question about the documents first.',
    companyUploadForEveryone: 'A client company’s own document is for its people: it cannot be limited to technicians.',
    articleNotFound: 'That article does not exist.',
    fileNameMissing: 'The file has no usable name. Rename it and upload it again.',
    unpackedTooLarge: 'This Word document is too large once unpacked (more than 20 MB of text and layout). Split it into smaller files.',
    packedTooTightly: 'This Word document unpacks to far more than its own size (over 100 times), so it was not read. Split it into smaller files.',
    tooManyPages: 'This PDF has too many pages (more than 2,000). Split it into smaller files.',
    textTooLong: 'This document has too much text (more than 2,000,000 characters). Split it into smaller files.',
    tooManyPassages: 'This document has too many sections to search (more than 5,000). Split it into smaller files.',
    tooComplex: 'This file took too long or needed too much memory to read. Split it into smaller files, or upload its text as a plain-text file.',
    busy: 'The server is reading other documents right now. Upload this one again in a minute.',
    /** The client's Documents screen (review s29 #4): whom their uploads are for, not the technicians' wording. */
    clientIntro: 'Documents you upload are shared with your colleagues at your company, and Jarvis uses them to help you.',
    clientNone: 'No documents yet.',
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
    /** Shown under Connect while the keys are checked (review s29): the check is bounded (PSA_KEY_CHECK_MS). */
    keyCheckWaiting: 'Checking the keys with your PSA — this can take up to 20 seconds.',
    /** The key check (A-041, or keys for another PSA) got no usable answer within its bound. */
    keyCheckUnavailable: 'Your PSA did not answer in time, so the keys could not be checked. Check the address, then press Connect again in a few minutes.',
    /** Another admin saved keys while these were being checked: the flag is not set on keys nobody checked. */
    keysChangedDuringCheck: 'The keys changed while they were being checked; connect again.',
    /** Keys for another PSA that PSA refused (decision 042): nothing was saved and the MSP's data was not touched. */
    otherPsaKeysRefused: 'These keys were not saved and nothing was removed: the PSA refused them.',
    /** The same when that PSA did not answer in time. */
    otherPsaUnanswered: 'These keys were not saved and nothing was removed: your PSA did not answer in time. Check the address, then try again in a few minutes.',
    /** The same PSA became another one while typed keys were checked (another admin saved keys meanwhile). */
    otherPsaSavedMeanwhile: 'Other keys were saved while these were being checked; look at the connection again and save once more.',
    /** The PSAs as an admin names them. */
    psaName: { CONNECTWISE: 'ConnectWise', AUTOTASK: 'Autotask' },
    /** Which PSA a connection reaches, as the failed writes' reason names it. */
    connectWiseSite: (host: string, companyId: string) => `ConnectWise at ${host}, company ${companyId}`,
    autotaskUser: (username: string) => `Autotask, API user ${username}`,
    /**
     * A write still waiting when the MSP connected another PSA (another site or company, another PSA) or disconnected
     * (decision 013): kept as failed, never sent to the PSA connected now. `meantFor` names the PSA it was meant for.
     */
    connectionChanged: (meantFor: string) => `Not sent: the PSA connection changed before this write was sent. It was meant for ${meantFor}.`,
    /** The same, for a write that was being sent at that moment: it may have reached the PSA it was meant for. */
    connectionChangedWhileSending: (meantFor: string) =>
      `Perhaps not sent: the PSA connection changed while this write was being sent to ${meantFor}. Check there whether it arrived.`,
    /**
     * The integrations form's warning before keys for another PSA are saved (decision 042): the data of the PSA
     * connected before is removed and the setup wizard starts again.
     */
    startOverTitle: 'Connect another PSA?',
    startOverText: (dataPsaLabel: string) =>
      `Switchboard holds the tickets, queue, technicians’ links, companies, contacts and board setup of ${dataPsaLabel}. Connecting another PSA removes them and starts the setup wizard again. Writes not yet sent stay listed as not sent.`,
    startOverConfirm: 'Connect and start over',
    startOverCancel: 'Cancel',
    /** `meantFor` when the keys had already been cleared (a write stored while no PSA was connected). */
    connectionUnknown: 'the PSA connected before, whose keys were cleared',
    /** The admin's Send again on such a write: it would go to the PSA connected now, which is not the one it was meant for. */
    sendAgainConnectionChanged: 'This change was meant for the PSA connected before, so it is not sent to the PSA connected now. Make it again in Switchboard if it is still needed.',
    /**
     * A write stored for another PSA connection than the MSP's current one (decision 013): one whose request committed
     * just after the admin connected another PSA. Kept as failed, never sent to the PSA connected now.
     */
    storedForOtherConnection:
      'Not sent: this change was stored for the PSA connected before, and another PSA is connected now. Make it again in Switchboard if it is still needed.',
    /** A write the PSA took whose follow-up here (e.g. keeping the PSA's id) failed: kept on the done write, not retried. */
    followUpFailed: (reason: string) => `The PSA has this change, but recording its answer here failed: ${reason}`,
    /** A stored write that names its PSA (a ticket or contact create) when another PSA is connected now. */
    otherPsa: (connected: string, meantFor: string) => `Not sent: the PSA connected now is ${connected}; this change was meant for ${meantFor}.`,
    /** An admin's Discard on a write that is not refused for good (still waiting, or already in the PSA). */
    discardOnlyFailed: 'Only a change the PSA refused can be discarded. This one is still being sent; wait until it lands or is refused.',
    discardAlreadyInPsa: 'This change is already in the PSA, so there is nothing to discard.',
  },

  // The technician queue (02 §5, §8; R-308–R-333). The spec's own strings first, then ours.
  queue: {
    settingsSaved: 'Queue ordering saved. Every open ticket is ranked by it now.',
    settingsFailed: 'The queue ordering could not be saved. Nothing was changed; try again.',
    noActiveTicketToRequeue: 'No active ticket to requeue',
    holdHoursRange: 'Enter a whole number of hours from 0 to 720 (30 days).',
    noTicketsInMyQueue: 'No tickets found in myQueueTickets',
    timer: {
      startFailed: 'Failed to start timer',
      pauseFailed: 'Failed to pause timer',
      resumeFailed: 'Failed to resume timer',
      completeFailed: 'Failed to complete timer',
      startNetwork: 'Network error starting timer',
      pauseNetwork: 'Network error pausing timer',
      resumeNetwork: 'Network error resuming timer',
      completeNetwork: 'Network error completing timer',
      noTimer: 'There is no timer on this ticket. Start one first.',
      notRunning: 'The timer on this ticket is not running.',
      alreadyRunning: 'The timer on this ticket is already running.',
      alreadyCompleted: 'The timer on this ticket is already completed. Start a new one to add time.',
      sessionNotFound: 'There is no such work session of yours.',
      endBeforeStart: 'The end time must be after the session started and not in the future.',
      badEndTime: 'Give the end time as a date and time, like 2026-11-23T17:30:00Z.',
      awaitsConfirmation: 'A work session ran past midnight or over 12 hours: confirm it, and the time entry is sent to the PSA.',
      stillRunning: 'This work session is still running. Pause the timer first, or give the time it really ended.',
      notFlagged: 'This work session did not run past midnight or over 12 hours, so there is nothing to confirm.',
      alreadyConfirmed: 'This work session is already confirmed.',
    },
    ownQueueOnly: 'You can only work your own queue.',
    badDate: 'Use a date like 2026-11-23.',
    technicianNotFound: 'There is no such technician in your MSP.',
    noTier: 'Technicians with no tier (No Dispatching) are not given tickets.',
    ticketNotFound: 'There is no such ticket in the queue.',
    notYourTicket: 'This ticket is not in your working list. Pick it first.',
    heldByOther: 'Another technician is already working this ticket.',
    tierTooHigh: 'This ticket needs a higher tier than yours.',
    onHold: 'This ticket is on hold until later.',
    ticketClosed: 'This ticket is closed.',
    alreadyCompleted: 'This ticket is already completed.',
    notCompleted: 'This ticket is not completed, so it cannot be marked incomplete.',
    emptyNote: 'Write a note before sending it.',
    rejectReasonRequired: 'Give a reason for handing the ticket back.',
    editNeedsBoard: 'This ticket has no board, so it cannot be edited.',
    nothingToUpdate: 'Change at least one field before saving.',
    noClosingStatus: 'The ticket’s board has no closing status. Set one in the board settings first.',
    boardMismatch: 'The ticket is not on that board.',
    completed: 'Ticket completed',
    requeued: 'Ticket requeued',
    closed: 'Ticket closed',
    psaPending: 'Saved here; the PSA has not confirmed it yet and it will be retried.',
    /** The ticket card's badge of writes the PSA refused for good (finding 2 of review s29), and its tooltip. */
    psaFailedBadge: (count: number) => (count === 1 ? 'Not in the PSA' : `${count} not in the PSA`),
    psaFailed: 'The PSA refused a change to this ticket, so it is not there. An admin must send it again or discard it under Integrations, “Changes waiting for the PSA”.',
    /** A completion, requeue, hand-back or timer whose time entry the PSA has not taken (finding 1 of review s29). */
    timeEntryNotRecordedTitle: (ticketId: number) => `The time worked on ticket #${ticketId} is not recorded in the PSA`,
    timeEntryFailed: 'The PSA refused the time entry, so your time is not recorded there. An admin can send it again from Integrations, “Changes waiting for the PSA”.',
    timeEntryPendingTitle: (ticketId: number) => `The time worked on ticket #${ticketId} is not in the PSA yet`,
    timeEntryPending: 'The PSA has not taken the time entry yet. It will be sent when the PSA answers.',
    dispatch: {
      notQueued: 'Only a ticket waiting in the queue can be assigned. Unassign it first.',
      notAssigned: 'This ticket is not with a technician.',
      noTierTechnician: 'This technician has no tier (No Dispatching), so tickets cannot be assigned to them.',
      inactiveTechnician: 'This technician has been deleted, so tickets cannot be assigned to them. Unassign the tickets they still hold.',
      reservationAboveTier: 'This technician is signed out, so the ticket would wait for them, but it needs a higher tier than theirs. Assign it while they are signed in, or to a technician of its tier.',
      assigned: 'Ticket assigned',
      reserved: 'Ticket reserved',
      reservedFor: (ticketId: number, name: string) => `Ticket #${ticketId} waits for ${name}, who is signed out: it is theirs when they next get tickets.`,
      unassigned: 'Ticket back in the queue',
    },
    dashboards: {
      /** A day of the Dashboards with no work recorded, named as "Sunday 29 November". */
      noWorkOn: (day: string) => `No work recorded on ${day}.`,
      /** The button that shows the latest earlier day with work (the server's previousDayWithWork). */
      showDay: (day: string) => `Show ${day}`,
    },
    sla: {
      noAlerts: 'No SLA alerts.',
      loadFailed: 'SLA alerts could not be loaded.',
      /** The list holds at most 50 alerts; when more are unread, the panel says how many it shows. */
      showingUnread: (shown: number, total: number) => `Showing ${shown} of ${total} unread ${total === 1 ? 'alert' : 'alerts'}.`,
    },
  },
} as const;
