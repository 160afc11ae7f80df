import { describe, expect, it } from 'vitest';
import { actionLabel } from './action-labels';

describe('actionLabel', () => {
  it('says what a recorded action means', () => {
    expect(actionLabel('auth.sign_in.password')).toBe('Password checked, sign-in code sent');
    expect(actionLabel('msp.branding.save')).toBe('Branding saved');
    expect(actionLabel('msp.logo.save')).toBe('Logo changed');
  });

  // Regression (review s29 #4): a successful check read "PSA boards could not be read".
  it('names the integrator check without saying how it went (the outcome column does)', () => {
    expect(actionLabel('integrations.integrator.enable')).toBe('PSA boards checked to turn the integration on');
  });

  it('says a write the outbox made reached the PSA', () => {
    expect(actionLabel('psa_write.queue.close')).toBe('In the PSA: ticket closed');
    expect(actionLabel('psa_write.contact.create')).toBe('In the PSA: contact created');
    expect(actionLabel('psa_write.email.ticket.create')).toBe('In the PSA: ticket created from an email');
  });

  it('says what the outbox itself did', () => {
    expect(actionLabel('psa_write.retry')).toBe('PSA write sent again');
    expect(actionLabel('psa_write.connection_changed')).toBe('Waiting PSA writes not sent: the PSA connection changed');
  });

  it('shows the code of an action it has no words for', () => {
    expect(actionLabel('something.new')).toBe('something.new');
    expect(actionLabel('psa_write.something.new')).toBe('psa_write.something.new');
  });
});
