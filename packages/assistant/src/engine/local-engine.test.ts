import { describe, expect, it } from 'vitest';
import { BOARD, TICKETS } from '../../test/fixtures';
import { trainCategoriser } from '../categoriser/categoriser';
import type { TAnswerChunk, TQuestionBank } from '../types';
import { createLocalEngine, LOCAL_ANSWER_INTRO, LOCAL_ANSWER_NOTHING_FOUND } from './local-engine';

async function collect(chunks: AsyncIterable<TAnswerChunk>): Promise<TAnswerChunk[]> {
  const out: TAnswerChunk[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

const bank: TQuestionBank = {
  entries: [
    { typeName: 'Network', subtypeName: 'Wi-Fi', questions: [{ id: 'q-wifi', text: 'Is it only on Wi-Fi?' }] },
    { typeName: 'Network', subtypeName: 'VPN / Remote Access', questions: [{ id: 'q-home', text: 'Are you working from home?' }] },
  ],
};

describe('createLocalEngine', () => {
  const engine = createLocalEngine({ categoriser: trainCategoriser(BOARD, TICKETS, { abstainBelow: 0 }), questionBank: bank });

  it('runs the first two rounds of ticket creation by chat: propose, ask, re-rank with the answers', async () => {
    const first = await engine.categorise({ text: 'cannot connect to the network' });
    expect(first).toMatchObject({ engine: 'local', fallbackReason: null });
    const { value: questions } = await engine.questions({ proposal: first.value });
    expect(questions.map((q) => q.id)).toEqual(expect.arrayContaining(['q-home']));
    const vpnFirst = first.value.candidates.find((c) => c.subtypeName === 'VPN / Remote Access')?.confidence ?? 0;
    const oneAnswer = await engine.categorise({ text: 'cannot connect to the network', answers: [{ questionId: 'q-home', answer: 'yes' }] });
    expect(oneAnswer.value.candidates.find((c) => c.subtypeName === 'VPN / Remote Access')?.confidence).toBeGreaterThan(vpnFirst);
    const second = await engine.categorise({ text: 'cannot connect to the network', answers: [{ questionId: 'q-home', answer: 'yes' }, { questionId: 'q-wifi', answer: 'no' }] });
    expect(second.value.candidates[0]?.subtypeName).toBe('VPN / Remote Access');
  });

  it('troubleshoots from the retrieved texts about the problem only, ranking them by the text and the proposed category', async () => {
    const proposal = (await engine.categorise({ text: 'printer offline' })).value;
    const { value: steps } = await engine.troubleshoot({
      text: 'printer offline',
      proposal,
      sources: [
        { kind: 'article', id: 'wifi', title: 'Wi-Fi drops', text: '1. Forget the network.\n2. Reconnect.' },
        { kind: 'article', id: 'printer', title: 'Printer offline', text: '1. Power-cycle the printer.\n2. Re-add the printer queue.' },
      ],
    });
    expect(steps[0]).toEqual({ n: 1, text: 'Power-cycle the printer.', source: { kind: 'article', id: 'printer', title: 'Printer offline' } });
    // "Wi-Fi drops" is not about an offline printer: its steps are not offered as this problem's.
    expect(steps.map((s) => s.source.id)).not.toContain('wifi');
  });

  it('answers without a model by saying so and citing the knowledge it used', async () => {
    const chunks = await collect(engine.answer({ text: 'printer offline', sources: [{ kind: 'resolution', id: '100045', title: 'Printer offline on floor 2', text: 'Static IP changed after a firmware update. Reserved the IP in DHCP.' }] }));
    const text = chunks.map((c) => (c.type === 'delta' ? c.text : '')).join('');
    expect(text).toBe(
      `${LOCAL_ANSWER_INTRO}\n\n1. Static IP changed after a firmware update. [1]\n2. Reserved the IP in DHCP. [1]\n\nSources:\n[1] Past resolution: Printer offline on floor 2\n`,
    );
    expect(chunks.at(-1)).toEqual({ type: 'end', engine: 'local', fallbackReason: null, sources: [{ kind: 'resolution', id: '100045', title: 'Printer offline on floor 2' }] });
  });

  it('says plainly when nothing is known and points to a technician', async () => {
    const chunks = await collect(engine.answer({ text: 'printer offline', sources: [] }));
    expect(chunks).toEqual([
      { type: 'delta', text: LOCAL_ANSWER_NOTHING_FOUND },
      { type: 'end', engine: 'local', fallbackReason: null, sources: [] },
    ]);
  });

  it('suggests up to five prompts that point at the MSP\'s own knowledge, best match first, and none for blank input', async () => {
    const sources = [
      { kind: 'article' as const, id: 'wifi', title: 'Wi-Fi drops every few minutes', text: 'Forget the network.' },
      { kind: 'resolution' as const, id: '7', title: 'Printer offline on floor 2', text: 'Reserved the printer IP in DHCP.' },
      { kind: 'document' as const, id: 'd1', title: 'Printer fleet list', text: 'All printers by floor.' },
    ];
    const { value, engine: used } = await engine.suggestPrompts({ text: 'the printer is offline', sources });
    expect(used).toBe('local');
    expect(value).toEqual(['How was "Printer offline on floor 2" resolved?', 'What does "Printer fleet list" say?', 'Walk me through "Wi-Fi drops every few minutes"']);
    expect((await engine.suggestPrompts({ text: 'printer', sources, limit: 1 })).value).toHaveLength(1);
    expect((await engine.suggestPrompts({ text: '   ', sources })).value).toEqual([]);
  });
});
