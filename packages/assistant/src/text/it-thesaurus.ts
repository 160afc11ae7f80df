// A general IT help-desk thesaurus (issue #9, word forms): words, spellings and abbreviations that
// people use for the same thing when they describe a computer problem. It is MSP-independent and
// category-free — no entry names a board, a type or a subtype, and none points at an answer; it only
// lets "pw" meet "password" and "e-mail" meet "mail". Each group is a set of equals; the first entry is
// the group's canonical word. Entries are lower-case words of letters and digits (a multi-word entry is
// a phrase), never English stop words (they would vanish from a phrase). Ambiguous abbreviations
// ("ad", "vm", "kb", "it") are left out on purpose: a wrong expansion costs more than a missed one.

export const IT_THESAURUS: readonly (readonly string[])[] = [
  ['password', 'pw', 'pwd', 'passwd', 'passcode', 'passphrase'],
  ['mfa', '2fa', 'twofactor', 'two factor', 'multi factor', 'multifactor', '2 step', 'two step', 'authenticator'],
  ['vpn', 'virtual private network'],
  ['email', 'mail', 'e mail'],
  ['lockout', 'locked', 'lock', 'locks', 'locking'],
  ['login', 'logon', 'log on', 'signin', 'sign on'],
  ['wifi', 'wi fi', 'wireless', 'wlan'],
  ['computer', 'pc', 'laptop', 'desktop', 'workstation', 'notebook'],
  ['printer', 'printing', 'print', 'prints', 'printed'],
  ['scanner', 'scan', 'scanning', 'scanned'],
  ['copier', 'mfp', 'photocopier'],
  ['sync', 'synced', 'syncing', 'synchronise', 'synchronize', 'synchronised', 'synchronized', 'synchronisation', 'synchronization'],
  ['phone', 'mobile', 'cellphone', 'smartphone'],
  ['monitor', 'screen', 'display'],
  ['slow', 'sluggish', 'laggy', 'lag', 'lagging', 'performance'],
  ['crash', 'crashes', 'crashing', 'freeze', 'freezes', 'freezing', 'frozen', 'hang', 'hangs', 'hanging', 'unresponsive'],
  ['microsoft 365', 'm365', 'o365', 'office 365'],
  ['onedrive', 'one drive'],
  ['sharepoint', 'share point', 'spo'],
  ['malware', 'virus', 'ransomware', 'trojan', 'spyware', 'infected', 'infection'],
  ['phishing', 'phish', 'phishy', 'scam', 'spoofed', 'spoofing'],
  ['compromised', 'hacked', 'breached', 'takeover'],
  ['bounce', 'bounced', 'bounces', 'bouncing', 'ndr', 'undeliverable', 'non delivery'],
  ['onboarding', 'new hire', 'new starter', 'new employee', 'new user', 'joiner'],
  ['offboarding', 'leaver', 'terminated', 'termination', 'departing', 'resigned'],
  ['permission', 'permissions', 'rights', 'access rights', 'privileges'],
  ['restore', 'recover', 'recovery', 'undelete'],
  ['install', 'installation', 'installer', 'deploy', 'deployment'],
  ['update', 'updates', 'patch', 'patches', 'patching', 'upgrade'],
  ['license', 'licence', 'licenses', 'licences', 'licensing', 'licensed', 'unlicensed', 'activation', 'activate'],
  ['voicemail', 'voice mail', 'voice message'],
  ['voip', 'desk phone', 'sip', 'handset', 'softphone'],
  ['dock', 'docking', 'docking station', 'port replicator'],
  ['internet', 'broadband', 'isp'],
  ['purchase', 'buy', 'quote', 'quotation', 'procure'],
  ['calendar', 'meeting invite', 'invite'],
  ['distribution list', 'dl', 'distro', 'mailing list', 'group email'],
  ['alias', 'aliases', 'alternate address', 'proxy address'],
  ['mapped drive', 'network drive', 'shared drive', 'file share', 'drive mapping'],
  ['bitlocker', 'recovery key', 'encryption key'],
  ['keyboard', 'keyboards'],
  ['mouse', 'mice', 'trackpad', 'touchpad'],
  ['firewall', 'fw'],
];
