import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../messages';
import { defaultConversationName, isOnboardingCategory, ticketDraftProblems } from '../assistant';
import { ZAgentForm, ZJarvisQandABody } from './assistant';

const complete = { title: 'Printer offline', description: 'The office printer shows offline.', name: 'Ann Lee', emailId: 'ann@example.com', phone: '', boardId: 1, typeId: 2, subTypeId: 3 };

describe('ticketDraftProblems (01 §5 ticket form, R-272, R-273)', () => {
  it('accepts a complete client draft without a company (clients create for their own company)', () => {
    expect(ticketDraftProblems(complete, 'client')).toEqual([]);
  });

  it('asks a technician for the company', () => {
    expect(ticketDraftProblems(complete, 'technician')).toEqual([{ name: 'psaCompanyId', reason: 'Company selection is required' }]);
    expect(ticketDraftProblems({ ...complete, psaCompanyId: '19' }, 'technician')).toEqual([]);
  });

  it('words every missing field with the spec message, in the form order', () => {
    const reasons = ticketDraftProblems({ phone: '12345' }, 'technician').map((problem) => problem.reason);
    expect(reasons).toEqual([
      'Ticket Title is required',
      'Description is required',
      'Valid Name is required',
      'Valid Email is required',
      'Phone number must be 9 or 10 digits',
      'Company selection is required',
      'Board selection is required',
      'Category selection is required',
      'SubCategory selection is required',
    ]);
  });

  it('refuses an email that is not one', () => {
    expect(ticketDraftProblems({ ...complete, emailId: 'ann@' }, 'client')).toEqual([{ name: 'emailId', reason: MESSAGES.ticketForm.emailRequired }]);
  });
});

describe('agent form (01 §5, R-244)', () => {
  it('gives the spec message for each missing field', () => {
    const result = ZAgentForm.safeParse({ agentName: ' ', role: '', description: '', objectives: ['  '] });
    expect(result.success).toBe(false);
    const messages = result.success ? [] : result.error.issues.map((issue) => issue.message);
    expect(messages).toEqual(expect.arrayContaining(['Agent Name is required', 'Role is required', 'Description is required', 'At least one objective is required']));
  });

  it('drops blank objectives and keeps the rest', () => {
    const parsed = ZAgentForm.parse({ agentName: 'Mailbox helper', role: 'Exchange expert', description: 'Helps with mailboxes', objectives: ['', 'Fix quotas'] });
    expect(parsed.objectives).toEqual(['Fix quotas']);
  });
});

describe('jarvisQandA body (A-096, R-252, R-336)', () => {
  const conversationId = '0b7f6d5e-1c2a-4b3c-8d9e-0f1a2b3c4d5e';
  it('takes the chat use with text or selected answers', () => {
    expect(ZJarvisQandABody.safeParse({ text: 'hello', conversationId }).success).toBe(true);
    expect(ZJarvisQandABody.safeParse({ text: '', conversationId, selectedAnswers: ['Yes'] }).success).toBe(true);
  });
  it('refuses an empty chat message and an empty troubleshoot question with their own words', () => {
    const chat = ZJarvisQandABody.safeParse({ text: '  ', conversationId });
    expect(chat.success ? null : chat.error.issues[0]?.message).toBe(MESSAGES.assistant.chatTextRequired);
    const troubleshoot = ZJarvisQandABody.safeParse({ text: '' });
    expect(troubleshoot.success ? null : troubleshoot.error.issues[0]?.message).toBe(MESSAGES.assistant.troubleshootQuestionRequired);
  });
});

describe('small rules', () => {
  it('names a conversation "Chat - {timestamp}" (R-249)', () => {
    expect(defaultConversationName(new Date('2026-11-23T16:05:09Z'))).toBe('Chat - 2026-11-23 16:05');
  });
  it('recognises the onboarding category of R-277', () => {
    expect(isOnboardingCategory('Training/Onboarding', 'New Employee Onboarding')).toBe(true);
    expect(isOnboardingCategory('Hardware', 'New Employee Onboarding')).toBe(false);
  });
});
