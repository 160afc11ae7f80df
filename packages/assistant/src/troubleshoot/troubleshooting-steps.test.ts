import { describe, expect, it } from 'vitest';
import type { TRetrievedSource } from '../types';
import { extractSteps, troubleshootingSteps } from './troubleshooting-steps';

const ARTICLE: TRetrievedSource = {
  kind: 'article',
  id: '6',
  title: 'MFA prompts not arriving',
  text: [
    'Symptoms: the sign-in screen says "approve the request" but nothing shows up.',
    '',
    '## Steps',
    '1. Have the user open the **Authenticator** app directly.',
    '2. **iPhone:** Settings > Notifications > Authenticator: Allow Notifications on.',
    '   - Check that a Focus mode is not silencing it.',
    '3. Set the phone\'s date and time to **automatic**.',
    '',
    '## Escalate to Tier 2 when',
    '1. Several users stop receiving prompts at once.',
    '- Prompts arrive that the user did not request.',
  ].join('\n'),
};

const RESOLUTION: TRetrievedSource = {
  kind: 'resolution',
  id: '100231',
  title: 'MFA codes rejected',
  text: 'Phone clock was 6 minutes off. Set date and time to automatic. Re-registered the Authenticator app and the user signed in.',
};

describe('extractSteps', () => {
  it('takes the numbered steps, folds sub-bullets into their step, strips Markdown and skips escalation sections', () => {
    expect(extractSteps(ARTICLE.text)).toEqual([
      'Have the user open the Authenticator app directly.',
      'iPhone: Settings > Notifications > Authenticator: Allow Notifications on. Check that a Focus mode is not silencing it.',
      "Set the phone's date and time to automatic.",
    ]);
  });

  it('gives no step from a passage that is only an escalation section, and no escalation line from prose around it', () => {
    expect(extractSteps('## Escalate to Tier 2 when\n- The print server spooler keeps crashing.\n- The printer cannot be reached.')).toEqual([]);
    expect(extractSteps('Restart the printer first. Then print a test page.\n## Escalate to Tier 2 when\nThe spooler keeps crashing on the server.')).toEqual([
      'Restart the printer first.',
      'Then print a test page.',
    ]);
  });

  it("leaves out a resolution's closing outcome, which is no step", () => {
    expect(extractSteps('Scanner TWAIN driver was dropped by a Windows update. Reinstalled the fi-series TWAIN driver. Scanning works. Tested with the user.')).toEqual([
      'Scanner TWAIN driver was dropped by a Windows update.',
      'Reinstalled the fi-series TWAIN driver.',
    ]);
  });

  it('splits a past resolution written as prose into its sentences', () => {
    expect(extractSteps(RESOLUTION.text)).toEqual([
      'Phone clock was 6 minutes off.',
      'Set date and time to automatic.',
      'Re-registered the Authenticator app and the user signed in.',
    ]);
  });
});

describe('troubleshootingSteps', () => {
  it('takes no prose from a knowledge article (its introduction and symptoms read as steps: "Use this when…", "Symptoms: …"), but does from a past resolution', () => {
    const intro: TRetrievedSource = { kind: 'article', id: '5', title: 'MFA re-registration', text: "Use this when a user can't approve sign-ins because their phone changed. Symptoms: codes are rejected." };
    const texts = troubleshootingSteps([intro, ARTICLE, RESOLUTION], { query: 'authenticator phone changed' }).map((step) => step.text);
    expect(texts).not.toContain("Use this when a user can't approve sign-ins because their phone changed.");
    expect(texts.some((text) => text.startsWith('Symptoms'))).toBe(false);
    expect(texts).toContain('Have the user open the Authenticator app directly.');
    expect(texts).toContain('Set date and time to automatic.');
  });

  it('with onTopicOf, takes steps only from sources about what the person wrote: named with their words, or filed under the category', () => {
    const ticketTips: TRetrievedSource = { kind: 'article', id: '40', title: 'How to submit a good ticket — What to include', text: '1. What you were trying to do: "print the statements" is better than "printer broken".\n2. One issue per ticket.', score: 0.9 };
    const printer: TRetrievedSource = { kind: 'article', id: '13', title: 'Printer shows offline or jobs stuck in the queue', text: '1. Check the printer display for errors.\n2. Restart the printer.', score: 0.4 };
    const filed: TRetrievedSource = { kind: 'resolution', id: '100077', title: 'plotter eats paper', text: 'Lowered the roll tension lever before loading.', score: 0.2, isOfCategory: true };
    const query = 'the printer upstairs says offline Hardware Printer / Scanner';
    const onTopic = troubleshootingSteps([ticketTips, printer, filed], { query, onTopicOf: 'the printer upstairs says offline' });
    expect(onTopic.map((step) => step.source.id)).toEqual(['13', '13', '100077']);
    // A word of the category's name is not the person's: "Accounts & Access" does not make a Wi-Fi article a step for a locked account.
    const guest: TRetrievedSource = { kind: 'article', id: '29', title: 'Guest Wi-Fi access for visitors', text: '1. Join the guest SSID.', score: 0.5 };
    expect(troubleshootingSteps([guest], { query: 'account locked Accounts & Access Account Locked Out', onTopicOf: 'account locked' })).toEqual([]);
    // Beside sources filed under the category, one common word is not enough: "office" does not make an Office 365 sign-in a printer step.
    const signIn: TRetrievedSource = { kind: 'resolution', id: '100301', title: 'Cant sign into office 365', text: 'Restarted the ADSync service.', score: 0.6 };
    const pdfs: TRetrievedSource = { kind: 'resolution', id: '100302', title: 'only pdfs won’t print from the office printer', text: 'Disabled Protected Mode in Acrobat.', score: 0.3 };
    const ids = troubleshootingSteps([signIn, pdfs, filed], { query, onTopicOf: 'the office printer shows offline' }).map((step) => step.source.id);
    expect(ids).not.toContain('100301');
    expect(ids).toEqual(expect.arrayContaining(['100302', '100077']));
    // A word any request says is not the person's topic: "new" and "laptop" made a new starter's set-up two shared words,
    // enough beside a source filed under the category, for a laptop that freezes.
    const starter: TRetrievedSource = { kind: 'article', id: '31', title: 'New starter laptop setup', text: '1. Enrol the laptop in Intune.\n2. Sign in as the new starter.', score: 0.7 };
    const freezes: TRetrievedSource = { kind: 'resolution', id: '100150', title: 'laptop freezes after lunch', text: 'Updated the graphics driver and the BIOS.', score: 0.3, isOfCategory: true };
    const frozen = troubleshootingSteps([starter, freezes], { query: 'my new laptop keeps freezing', onTopicOf: 'my new laptop keeps freezing' }).map((step) => step.source.id);
    expect(frozen).toEqual(['100150']);
    // Without the option (the chat's answers) the passing mention still counts.
    expect(troubleshootingSteps([ticketTips, printer, filed], { query }).map((step) => step.source.id)).toContain('40');
  });

  it("does not make a step of a past resolution's summary, which its text repeats on the first line and which is already its citation", () => {
    const vpn: TRetrievedSource = { kind: 'resolution', id: '100412', title: 'VPN keeps asking for password', text: "VPN keeps asking for password\nFortiClient's embedded browser had a stale SAML session. Enabled the external browser for SAML login." };
    expect(troubleshootingSteps([vpn], { query: 'vpn password' }).map((step) => step.text)).toEqual([
      "FortiClient's embedded browser had a stale SAML session.",
      'Enabled the external browser for SAML login.',
    ]);
  });

  it('numbers the steps from 1, cites each step\'s source and leaves out near-duplicates', () => {
    const steps = troubleshootingSteps([{ ...RESOLUTION, score: 0.8 }, { ...ARTICLE, score: 1 }], { query: 'authenticator notifications not arriving' });
    expect(steps.map((s) => s.n)).toEqual(steps.map((_, i) => i + 1));
    // The article matches the query best, so it leads with its steps in order.
    expect(steps.slice(0, 3).map((s) => s.source)).toEqual([
      { kind: 'article', id: '6', title: 'MFA prompts not arriving' },
      { kind: 'article', id: '6', title: 'MFA prompts not arriving' },
      { kind: 'article', id: '6', title: 'MFA prompts not arriving' },
    ]);
    const texts = steps.map((s) => s.text);
    expect(texts).toContain('Re-registered the Authenticator app and the user signed in.');
    // "Set date and time to automatic." repeats the article's step 3.
    expect(texts).not.toContain('Set date and time to automatic.');
    for (const step of steps) expect([ARTICLE.id, RESOLUTION.id]).toContain(step.source.id);
  });

  it('returns at most the limit (10 by default) and nothing without sources', () => {
    const actions = ['Restart the router', 'Check the cable', 'Update the driver', 'Clear the cache', 'Reset the password', 'Reinstall Teams', 'Repair Office', 'Remove the profile', 'Flush DNS', 'Renew the lease', 'Rejoin the domain', 'Replace the toner'];
    const long: TRetrievedSource = { kind: 'article', id: 'a', title: 'Long', text: actions.map((a, i) => `${i + 1}. ${a}.`).join('\n') };
    expect(troubleshootingSteps([long])).toHaveLength(10);
    expect(troubleshootingSteps([long], { limit: 4 }).map((s) => s.text)).toEqual(['Restart the router.', 'Check the cable.', 'Update the driver.', 'Clear the cache.']);
    expect(troubleshootingSteps([])).toEqual([]);
  });

  it('takes no step from a source ranked far below the best one, unless it is filed under the category', () => {
    const vpn: TRetrievedSource = { kind: 'article', id: '21', title: 'Password expired while working remotely', text: '1. Click the network sign-in icon to use pre-logon VPN.', score: 0.3 };
    const browser: TRetrievedSource = { kind: 'resolution', id: '100516', title: 'browser hijacked by an extension', text: 'Removed the extension from Chrome and reset the browser settings.', score: 1 };
    const filed: TRetrievedSource = { kind: 'resolution', id: '100517', title: 'pop-ups on a home PC', text: 'Ran a full scan with Defender.', score: 0.2, isOfCategory: true };
    const ids = troubleshootingSteps([vpn, browser, filed], { query: 'chrome opening gambling sites' }).map((step) => step.source.id);
    expect(ids).not.toContain('21');
    expect(ids).toEqual(['100516', '100517']);
  });

  it('follows the caller\'s retrieval score before its own word overlap', () => {
    const steps = troubleshootingSteps([{ ...ARTICLE, score: 0 }, { ...RESOLUTION, score: 5 }], { query: 'authenticator notifications' });
    expect(steps[0]?.source.id).toBe('100231');
  });
});
