// The seed of every MSP's editable question bank: a few yes/no questions per subtype of the default
// board template, keyed by names so a board with the same names uses them as they are. This is data
// the MSP edits (the server stores its copy); the engine only reads which subtypes a question speaks
// for. A question id shared by two subtypes marks a question that does not tell them apart.
import type { TQuestionBank } from '../types';

type TSeed = [typeName: string, subtypeName: string, questions: [id: string, text: string][]];

const SEED: TSeed[] = [
  ['Accounts & Access', 'Password Reset', [
    ['forgot-password', 'Have you forgotten your password, or has it expired?'],
    ['password-expired-prompt', 'Are you being asked to change your password?'],
  ]],
  ['Accounts & Access', 'Account Locked Out', [
    ['locked-message', 'Does the sign-in screen say your account is locked or disabled?'],
    ['several-wrong-attempts', 'Did the problem start after several wrong password attempts?'],
  ]],
  ['Accounts & Access', 'MFA / Authenticator', [
    ['mfa-prompt', 'Is the problem with the sign-in approval, code or authenticator app on your phone?'],
    ['new-phone', 'Did you recently get a new phone or reinstall the authenticator app?'],
  ]],
  ['Accounts & Access', 'Permissions / Folder Access', [
    ['access-denied', 'Do you see "access denied" or "you need permission" on a folder, site or file?'],
    ['access-for-someone', 'Are you asking for access to be granted or changed for a person?'],
  ]],
  ['Email', 'Outlook Not Working', [
    ['outlook-app', 'Is the problem in the Outlook application itself (crashing, not opening, not syncing)?'],
    ['webmail-works', 'Does your email work in the browser (Outlook on the web) but not in the app?'],
  ]],
  ['Email', 'Shared Mailbox / Calendar', [
    ['shared-mailbox', 'Is it about a shared mailbox or somebody else\'s calendar?'],
    ['calendar-permissions', 'Is it about sharing or delegate access to a calendar?'],
  ]],
  ['Email', 'Mail Delivery / Bounce', [
    ['bounce-message', 'Did you get a bounce-back or "undeliverable" message?'],
    ['mail-not-arriving', 'Are emails from outside not arriving, or landing in junk or quarantine?'],
  ]],
  ['Email', 'Distribution List / Alias', [
    ['distribution-list', 'Is it about a distribution list, group address or email alias?'],
    ['access-for-someone', 'Are you asking for access to be granted or changed for a person?'],
  ]],
  ['Hardware', 'Laptop / Desktop', [
    ['computer-wont-start', 'Is the computer itself failing (not starting, overheating, slow, broken)?'],
    ['physical-damage', 'Has the device been dropped, spilled on or physically damaged?'],
  ]],
  ['Hardware', 'Printer / Scanner', [
    ['printer', 'Is it about printing, a printer or a scanner?'],
    ['paper-jam-or-offline', 'Does the printer show offline, an error or a paper jam?'],
  ]],
  ['Hardware', 'Monitor / Peripherals', [
    ['monitor-dock', 'Is it about a monitor, docking station, keyboard, mouse or headset?'],
    ['physical-damage', 'Has the device been dropped, spilled on or physically damaged?'],
  ]],
  ['Hardware', 'Mobile Device', [
    ['phone-tablet', 'Is it about a mobile phone or tablet?'],
    ['company-apps-on-phone', 'Is it about work email or company apps on a phone?'],
  ]],
  ['Hardware', 'Server Hardware', [
    ['server-down', 'Is a server or something everyone in the office relies on down or alarming?'],
    ['many-users', 'Is more than one person affected?'],
  ]],
  ['Network', 'Internet Outage', [
    ['no-internet-anyone', 'Is the internet down for everyone in the office?'],
    ['many-users', 'Is more than one person affected?'],
  ]],
  ['Network', 'Wi-Fi', [
    ['wifi', 'Is the problem only on Wi-Fi (a cable connection works)?'],
    ['wifi-drops', 'Does the Wi-Fi keep dropping or refuse the password?'],
  ]],
  ['Network', 'VPN / Remote Access', [
    ['working-remotely', 'Are you working from home or away from the office?'],
    ['vpn', 'Is it about the VPN or a remote desktop connection?'],
  ]],
  ['Network', 'Mapped Drive / File Share', [
    ['mapped-drive', 'Is a mapped drive (like S: or H:) or a shared network folder missing or unreachable?'],
    ['access-denied', 'Do you see "access denied" or "you need permission" on a folder, site or file?'],
  ]],
  ['Network', 'Firewall / Switch', [
    ['network-equipment', 'Is it about the firewall, a switch, a network port or blocked traffic?'],
    ['many-users', 'Is more than one person affected?'],
  ]],
  ['Phones', 'Desk Phone / VoIP', [
    ['desk-phone', 'Is it about your desk phone or the phone system (no dial tone, can\'t call)?'],
    ['call-quality', 'Are calls choppy, one-way or dropping?'],
  ]],
  ['Phones', 'Voicemail / Call Forwarding', [
    ['voicemail', 'Is it about voicemail, call forwarding or a greeting?'],
    ['call-routing', 'Are calls going to the wrong person or not ringing through?'],
  ]],
  ['Security', 'Phishing Report', [
    ['suspicious-email', 'Did you receive a suspicious email, text or message?'],
    ['clicked-link', 'Did you click a link, open an attachment or enter your password from it?'],
  ]],
  ['Security', 'Compromised Account', [
    ['account-misuse', 'Has someone sent email or made changes from your account that you did not?'],
    ['clicked-link', 'Did you click a link, open an attachment or enter your password from it?'],
  ]],
  ['Security', 'Malware / Virus', [
    ['malware-popups', 'Are you seeing pop-ups, ransom notes or antivirus warnings on the computer?'],
    ['files-encrypted', 'Have files been renamed, encrypted or deleted on their own?'],
  ]],
  ['Security', 'Security Alert', [
    ['security-alert', 'Did you get a security alert (unusual sign-in, new device, policy warning)?'],
    ['account-misuse', 'Has someone sent email or made changes from your account that you did not?'],
  ]],
  ['Software', 'Microsoft 365 Apps', [
    ['office-app', 'Is it about Word, Excel, PowerPoint or another Microsoft 365 app?'],
    ['licence-activation', 'Does the app say it is unlicensed or needs activation?'],
  ]],
  ['Software', 'Teams / Collaboration', [
    ['teams', 'Is it about Microsoft Teams, Zoom or another meeting or chat app?'],
    ['audio-video-meeting', 'Is it about audio, video or screen sharing in meetings?'],
  ]],
  ['Software', 'Line of Business Application', [
    ['business-app', 'Is it about a business application specific to your company (accounting, CRM, practice software)?'],
    ['vendor-app-error', 'Does that application show an error or refuse to connect to its database?'],
  ]],
  ['Software', 'Software Install Request', [
    ['install-request', 'Are you asking for a program to be installed or approved?'],
    ['admin-rights', 'Is the computer asking for an administrator password?'],
  ]],
  ['Software', 'Windows / Updates', [
    ['windows-update', 'Is it about Windows updates, restarts or the Windows system itself?'],
    ['computer-slow-after-update', 'Did the problem start after an update or a restart?'],
  ]],
  ['Backup & Storage', 'Backup Failure', [
    ['backup-alert', 'Is it about a failed or missed backup job or backup alert?'],
    ['server-down', 'Is a server or something everyone in the office relies on down or alarming?'],
  ]],
  ['Backup & Storage', 'File Restore Request', [
    ['file-lost', 'Do you need a deleted, overwritten or older version of a file back?'],
    ['files-encrypted', 'Have files been renamed, encrypted or deleted on their own?'],
  ]],
  ['Backup & Storage', 'OneDrive / SharePoint Sync', [
    ['onedrive-sync', 'Is it about OneDrive or SharePoint files not syncing?'],
    ['sync-conflict', 'Do you see sync errors, red crosses or duplicate conflict copies of files?'],
  ]],
  ['Training/Onboarding', 'New Employee Onboarding', [
    ['new-starter', 'Is a new person joining who needs an account, email and equipment?'],
    ['start-date', 'Is there a start date the setup must be ready by?'],
  ]],
  ['Training/Onboarding', 'Employee Offboarding', [
    ['leaver', 'Is someone leaving whose access must be removed?'],
    ['mailbox-handover', 'Should their mailbox or files be handed over to someone?'],
  ]],
  ['Training/Onboarding', 'User Training / How-To', [
    ['how-to', 'Are you asking how to do something rather than reporting something broken?'],
    ['training-session', 'Would a short training session or guide help?'],
  ]],
  ['General Request', 'General Question', [
    ['how-to', 'Are you asking how to do something rather than reporting something broken?'],
    ['general-question', 'Is this a general question that does not fit another category?'],
  ]],
  ['General Request', 'Purchase / Quote Request', [
    ['purchase', 'Are you asking for a quote or to buy new hardware, software or licences?'],
    ['install-request', 'Are you asking for a program to be installed or approved?'],
  ]],
];

/** The default question bank: seeds each MSP's editable copy. */
export const DEFAULT_QUESTION_BANK: TQuestionBank = {
  entries: SEED.map(([typeName, subtypeName, questions]) => ({
    typeName,
    subtypeName,
    questions: questions.map(([id, text]) => ({ id, text })),
  })),
};
