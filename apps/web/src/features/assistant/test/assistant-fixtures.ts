import { vi } from 'vitest';
import type { TChatMessage, TInteractiveElement, TTicketDraft, TTicketingConfiguration } from '@switchboard/contracts';

export const MSP = 'northwind';

const subType = (subTypeId: number, subTypeName: string, priority: string, tier: 'Tier1' | 'Tier2' | 'Tier3', sla: number) => ({
  subTypeId,
  subTypeName,
  priorityId: subTypeId + 1000,
  priority,
  priorityScore: 3,
  subTypeScore: 2,
  tier,
  slaDeadLineInHours: sla,
  isNew: false as const,
  typeAssociationIds: [],
});

/** Two boards: Service Desk (Email › Outlook, Network › VPN) and Alerts (no types). */
export const CONFIGURATION: TTicketingConfiguration = {
  mspCustomDomain: MSP,
  psaType: 'CONNECTWISE',
  isConfigured: true,
  connectWiseConfig: {
    defaultCompanyId: null,
    defaultCompanyName: null,
    boardTicketSync: [],
    syncClientsTypeId: null,
    boardDetails: [
      {
        boardId: 1,
        boardName: 'Service Desk',
        newCreatingTicketStatus: null,
        newCreatingTicketStatusId: null,
        closingTicketStatus: null,
        closingTicketStatusId: null,
        priorities: [],
        mspConnectWiseBoardTypes: [
          { typeId: 11, typeName: 'Email', isNew: false, mspConnectWiseBoardSubTypes: [subType(111, 'Outlook', 'Priority 2 - High', 'Tier2', 4)] },
          { typeId: 12, typeName: 'Network', isNew: false, mspConnectWiseBoardSubTypes: [subType(121, 'VPN', 'Priority 3 - Medium', 'Tier1', 8)] },
        ],
      },
      { boardId: 2, boardName: 'Alerts', newCreatingTicketStatus: null, newCreatingTicketStatusId: null, closingTicketStatus: null, closingTicketStatusId: null, priorities: [], mspConnectWiseBoardTypes: [] },
    ],
  },
};

export function element(id: string, kind: TInteractiveElement['kind'], label: string, questionId: string | null = null): TInteractiveElement {
  return { id, kind, label, value: kind === 'answer' ? label : null, questionId, sources: [] };
}

/** The buttons the server offers on every answer while a ticket is being described. */
export const FLOW_BUTTONS = [element('talk-to-technician', 'talkToTechnician', 'Talk to a technician'), element('confirm', 'confirm', 'Confirm'), element('cancel', 'cancel', 'Cancel')];

/** A troubleshooting step with its two follow-ups, as the server sends them. */
export function stepElements(id: string, text: string): TInteractiveElement[] {
  return [
    { ...element(id, 'step', text), value: id },
    { ...element(`${id}:helped`, 'helped', 'This helped'), value: id },
    { ...element(`${id}:didNotHelp`, 'didNotHelp', 'This did not help'), value: id },
  ];
}

export function assistantMessage(id: string, content: string, elements: TInteractiveElement[], type: TChatMessage['type'] = 'markdown'): TChatMessage {
  return {
    id,
    conversationId: '7c1e8a4e-7d7b-4a53-9a6f-2d1e0c7b9a99',
    content,
    role: 'assistant',
    timeStamp: '2026-11-23T16:00:00.000Z',
    elements,
    type,
    interactiveElements: elements,
    feedback: null,
    engine: 'local',
    sources: [],
  };
}

export const DRAFT_ID = '8d1e8a4e-7d7b-4a53-9a6f-2d1e0c7b9a01';

export function ticketDraft(overrides: Partial<TTicketDraft> = {}): TTicketDraft {
  return {
    id: DRAFT_ID,
    conversationId: '7c1e8a4e-7d7b-4a53-9a6f-2d1e0c7b9a99',
    stage: 'questions',
    mode: 'My Ticket',
    psaType: 'CONNECTWISE',
    title: 'Outlook keeps asking for my password',
    description: 'Outlook keeps asking for my password since this morning.',
    name: 'Casey Client',
    emailId: 'casey@contoso.example',
    phone: '3035550100',
    psaCompanyId: '19',
    psaContactId: '501',
    impact: 'Medium',
    impactScore: 2,
    severity: 'Medium',
    severityScore: 2,
    categorisation: {
      psaType: 'CONNECTWISE',
      engine: 'local',
      confidence: 0.93,
      abstained: false,
      slaHours: 4,
      connectWiseDetails: {
        boardId: 1,
        boardName: 'Service Desk',
        typeId: 11,
        typeName: 'Email',
        subTypeId: 111,
        subTypeName: 'Outlook',
        priority: 'Priority 2 - High',
        priorityId: 1111,
        priorityScore: 3,
        tier: 'Tier2',
        subTypeScore: 2,
        itemId: null,
        itemName: null,
      },
      autotaskDetails: null,
      alternatives: [],
      sources: [],
    },
    isOnboarding: false,
    onboarding: null,
    questions: [{ id: 'q1', question: 'Does it happen on your phone too?', options: ['Yes', 'No'] }],
    steps: [],
    didNotHelpCount: 0,
    offerTechnician: false,
    message: assistantMessage('m1', 'I think this is **Email › Outlook**. Does it happen on your phone too?', [element('a-yes', 'answer', 'Yes', 'q1'), element('a-no', 'answer', 'No', 'q1'), ...FLOW_BUTTONS]),
    ...overrides,
  };
}

export type TCall = { url: string; method: string; body: unknown };

/** Stubs fetch with a route table; unknown calls answer 404 problem+json. Returns the calls made. */
export function stubFetch(routes: Record<string, (call: TCall) => { status: number; body: unknown }>) {
  const calls: TCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : init.body;
      const call = { url, method, body };
      calls.push(call);
      const path = url.split('?')[0] ?? url;
      const handler = routes[`${method} ${path}`];
      const answer = handler ? handler(call) : { status: 404, body: { type: 'about:blank', title: 'Not Found', status: 404, detail: 'Not found.', code: 'not_found', requestId: 'r' } };
      return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } });
    }),
  );
  return calls;
}
