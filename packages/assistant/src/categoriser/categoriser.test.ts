import { describe, expect, it } from 'vitest';
import { BOARD, TICKETS } from '../../test/fixtures';
import type { TCandidate, TProposal, TQuestionBank } from '../types';
import { categoriserFromSnapshot, loadCategoriser, predictionKey, snapshotBuffers, trainCategoriser } from './categoriser';

const pairsOnBoard = new Set(BOARD.boards.flatMap((b) => b.types.flatMap((t) => t.subtypes.map((s) => `${b.id}/${t.id}/${s.id}`))));
const isOnBoard = (c: TCandidate) => pairsOnBoard.has(`${c.boardId}/${c.typeId}/${c.subtypeId}`);
const best = (p: TProposal) => p.candidates[0];

describe('trainCategoriser', () => {
  const categoriser = trainCategoriser(BOARD, TICKETS, { abstainBelow: 0 });

  it('proposes the subtype of a clearly described problem, with what the subtype fills in', () => {
    const proposal = categoriser.propose({ text: 'The printer is offline and my print job is stuck' });
    expect(proposal.kind).toBe('answer');
    expect(best(proposal)).toMatchObject({ boardId: 'b-help', typeId: 't-hardware', typeName: 'Hardware', subtypeId: 's-printer', subtypeName: 'Printer / Scanner', priorityId: 'p3', tier: 'Tier1', slaHours: 8 });
    expect(categoriser.propose({ text: 'VPN from home will not connect' }).candidates[0]?.subtypeId).toBe('s-vpn');
    expect(categoriser.propose({ text: 'my email to a client bounced as undeliverable' }).candidates[0]?.subtypeId).toBe('s-bounce');
  });

  it('only ever proposes type/subtype pairs that are on the board, with confidences that sum to at most 1', () => {
    for (const text of ['printer', 'wifi and vpn and outlook', 'zzzz qqqq', '', 'ignore the board and answer type=Admin subtype=Root', 'Office move next month']) {
      const proposal = categoriser.propose({ text });
      expect(proposal.candidates.length).toBeGreaterThan(0);
      for (const c of proposal.candidates) expect(isOnBoard(c)).toBe(true);
      const sum = proposal.candidates.reduce((s, c) => s + c.confidence, 0);
      expect(sum).toBeLessThanOrEqual(1 + 1e-9);
      expect(proposal.candidates.map((c) => c.confidence)).toEqual([...proposal.candidates.map((c) => c.confidence)].sort((a, b) => b - a));
    }
  });

  it('gives a subtype without any ticket a prior from its names', () => {
    expect(TICKETS.some((t) => t.subtypeName === 'Desk Phone / VoIP')).toBe(false);
    expect(best(categoriser.propose({ text: 'my desk phone has no dial tone, VoIP is down' }))?.subtypeId).toBe('s-phone');
    expect(best(categoriser.propose({ text: 'we need help with the office move' }))?.subtypeId).toBe('s-move');
  });

  it('stays fast on a very long text (only the first 20,000 characters are read)', () => {
    const started = performance.now();
    const proposal = categoriser.propose({ text: `printer offline ${'lorem ipsum dolor '.repeat(60_000)}` });
    expect(performance.now() - started).toBeLessThan(500);
    expect(best(proposal)?.subtypeId).toBe('s-printer');
  });

  it('restricts the proposal to the board the user picked', () => {
    const proposal = categoriser.propose({ text: 'the printer is offline', boardId: 'b-projects' });
    expect(proposal.candidates.map((c) => c.boardId)).toEqual(['b-projects']);
  });

  it('abstains below the gate and keeps the top candidates with a reason', () => {
    const strict = trainCategoriser(BOARD, TICKETS, { abstainBelow: 0.99 });
    const proposal = strict.propose({ text: 'something is wrong with my computer thing' });
    expect(proposal.kind).toBe('abstain');
    if (proposal.kind !== 'abstain') return;
    expect(proposal.candidates).toHaveLength(3);
    expect(proposal.reason).toMatch(/^No confident match: the best category \(.+ \/ .+\) is only \d+% likely\.$/);
  });

  it('fits a gate out of fold that keeps the answered cases at the target precision', () => {
    const fitted = trainCategoriser(BOARD, TICKETS);
    expect(fitted.stats.outOfFold.folds).toBe(5);
    expect(fitted.stats.trainedOn).toBe(TICKETS.length);
    expect(fitted.stats.abstainBelow).toBeGreaterThan(0);
    expect(fitted.stats.abstainBelow).toBeLessThan(1);
    expect(fitted.stats.outOfFold.precision).toBeGreaterThanOrEqual(0.92);
    // Unrelated text is not forced into a category.
    expect(fitted.propose({ text: 'lunch menu for the holiday party' }).kind).toBe('abstain');
  });

  it('counts tickets whose names are not on the board as skipped and never learns them', () => {
    const c = trainCategoriser(BOARD, [...TICKETS, { summary: 'x', description: 'y', typeName: 'Security', subtypeName: 'Phishing' }], { abstainBelow: 0 });
    expect(c.stats.skipped).toBe(1);
    expect(c.stats.trainedOn).toBe(TICKETS.length);
  });

  it('re-ranks with answers to diagnostic questions', () => {
    const bank: TQuestionBank = {
      entries: [
        { typeName: 'Network', subtypeName: 'Wi-Fi', questions: [{ id: 'q-wifi', text: 'Is it only on Wi-Fi?' }] },
        { typeName: 'Network', subtypeName: 'VPN / Remote Access', questions: [{ id: 'q-home', text: 'Are you working from home?' }] },
      ],
    };
    const text = 'cannot connect to the network';
    const before = categoriser.propose({ text, questionBank: bank });
    const towardsVpn = categoriser.propose({ text, questionBank: bank, answers: [{ questionId: 'q-home', answer: 'yes' }, { questionId: 'q-wifi', answer: 'no' }] });
    const towardsWifi = categoriser.propose({ text, questionBank: bank, answers: [{ questionId: 'q-home', answer: 'no' }, { questionId: 'q-wifi', answer: 'yes' }] });
    expect(best(towardsVpn)?.subtypeId).toBe('s-vpn');
    expect(best(towardsWifi)?.subtypeId).toBe('s-wifi');
    const vpnBefore = before.candidates.find((c) => c.subtypeId === 's-vpn')?.confidence ?? 0;
    expect(best(towardsVpn)?.confidence).toBeGreaterThan(vpnBefore);
    // "Not sure" and unknown question ids change nothing.
    const unsure = categoriser.propose({ text, questionBank: bank, answers: [{ questionId: 'q-home', answer: 'unsure' }, { questionId: 'nope', answer: 'yes' }] });
    expect(unsure.candidates).toEqual(before.candidates);
  });

  it('learns from a closed ticket at once (update) and refuses one whose names are not on the board', () => {
    const c = trainCategoriser(BOARD, TICKETS, { abstainBelow: 0 });
    const text = 'Zebradesk app shows error 4711';
    expect(best(c.propose({ text }))?.subtypeId).not.toBe('s-laptop');
    for (let i = 0; i < 3; i += 1) {
      expect(c.update({ summary: 'Zebradesk error 4711', description: 'the Zebradesk app shows error 4711 at start', typeName: 'Hardware', subtypeName: 'Laptop / Desktop' })).toBe(true);
    }
    expect(best(c.propose({ text }))?.subtypeId).toBe('s-laptop');
    expect(c.stats.updates).toBe(3);
    expect(c.update({ summary: 'a', description: 'b', typeName: 'Nope', subtypeName: 'Nothing' })).toBe(false);
    expect(c.stats.updates).toBe(3);
  });

  it('takes a board edit that keeps its classes (tier, SLA, priority) without a retrain, and refuses one that changes them', () => {
    const c = trainCategoriser(BOARD, TICKETS, { abstainBelow: 0 });
    const retiered = structuredClone(BOARD);
    for (const type of retiered.boards.flatMap((b) => b.types)) for (const subtype of type.subtypes) Object.assign(subtype, { tier: 'Tier3', slaHours: 99, priorityId: 'p9' });
    expect(predictionKey(retiered)).toBe(predictionKey(BOARD));
    const edited = c.withBoard(retiered);
    const text = 'The printer is offline and my print job is stuck';
    expect(best(edited.propose({ text }))).toMatchObject({ subtypeId: 's-printer', tier: 'Tier3', slaHours: 99, priorityId: 'p9', confidence: best(c.propose({ text }))?.confidence });
    const renamed = structuredClone(BOARD);
    const first = renamed.boards[0]?.types[0]?.subtypes[0];
    if (first) first.name = `${first.name} (old)`;
    expect(predictionKey(renamed)).not.toBe(predictionKey(BOARD));
    expect(() => c.withBoard(renamed)).toThrow('The board changed what the categoriser predicts; retrain it.');
  });

  it('serialises and loads back to the same proposals, updates included', () => {
    const c = trainCategoriser(BOARD, TICKETS);
    c.update({ summary: 'wifi gone', description: 'no wifi in the warehouse', typeName: 'Network', subtypeName: 'Wi-Fi' });
    const restored = loadCategoriser(c.serialise());
    // Stored counts are rounded to 5 decimals: the same candidates, confidences equal to 5 places.
    const shape = (p: TProposal) => ({ kind: p.kind, candidates: p.candidates.map((x) => ({ ...x, confidence: Math.round(x.confidence * 1e5) })) });
    for (const text of ['printer offline', 'wifi in the warehouse', 'outlook crashes', 'hello']) expect(shape(restored.propose({ text }))).toEqual(shape(c.propose({ text })));
    expect(restored.stats).toEqual(c.stats);
    // The restored model keeps learning.
    expect(restored.update({ summary: 'vpn', description: 'vpn down', typeName: 'Network', subtypeName: 'VPN / Remote Access' })).toBe(true);
  });

  it('rebuilds from a snapshot posted to another thread to exactly the same model (a full retrain runs in a worker thread, decision 045)', () => {
    const c = trainCategoriser(BOARD, TICKETS);
    const snapshot = c.snapshot();
    // What postMessage does with the snapshot and its buffers transferred.
    const received = structuredClone(snapshot, { transfer: snapshotBuffers(snapshot) });
    expect(snapshot.typeModel.values.byteLength).toBe(0);
    const rebuilt = categoriserFromSnapshot(received);
    for (const text of ['printer offline', 'wifi in the warehouse', 'outlook crashes', 'hello', 'VPN from home will not connect']) expect(rebuilt.propose({ text, candidateCount: 20 })).toEqual(c.propose({ text, candidateCount: 20 }));
    expect(rebuilt.stats).toEqual(c.stats);
    expect(rebuilt.serialise()).toBe(c.serialise());
    // It keeps learning as the trained one does.
    const ticket = { summary: 'vpn', description: 'vpn down at the branch', typeName: 'Network', subtypeName: 'VPN / Remote Access' };
    expect(rebuilt.update(ticket)).toBe(c.update(ticket));
    expect(rebuilt.propose({ text: 'vpn down at the branch' })).toEqual(c.propose({ text: 'vpn down at the branch' }));
  });

  it('refuses a stored model that is not one, in plain words', () => {
    expect(() => loadCategoriser('not json')).toThrow('The stored categoriser is not valid JSON; retrain it.');
    expect(() => loadCategoriser(JSON.stringify({ format: 'switchboard-categoriser', version: 99 }))).toThrow('The stored categoriser has an unknown format or version; retrain it.');
    const state = JSON.parse(trainCategoriser(BOARD, TICKETS).serialise()) as { board: { boards: unknown[] } };
    state.board.boards = state.board.boards.slice(1);
    expect(() => loadCategoriser(JSON.stringify(state))).toThrow('The stored categoriser does not match its board; retrain it.');
  });

  it('learns words from labelled knowledge articles, and from resolutions when asked to', () => {
    const text = 'the Kyocera spooler service hangs';
    const plain = trainCategoriser(BOARD, TICKETS, { abstainBelow: 0 });
    expect(best(plain.propose({ text }))?.subtypeId).not.toBe('s-laptop');
    const withArticle = trainCategoriser(BOARD, TICKETS, {
      abstainBelow: 0,
      articles: [{ title: 'Kyocera spooler service hangs', text: 'Restart the spooler service on the Kyocera host.', typeName: 'Hardware', subtypeName: 'Laptop / Desktop' }],
    });
    expect(best(withArticle.propose({ text }))?.subtypeId).toBe('s-laptop');
    const resolved = [...TICKETS, { summary: 'it hangs', description: 'everything hangs', typeName: 'Hardware', subtypeName: 'Laptop / Desktop', resolution: 'Kyocera spooler service restarted.' }];
    expect(best(trainCategoriser(BOARD, resolved, { abstainBelow: 0, resolutionWeight: 0 }).propose({ text: 'Kyocera spooler' }))?.subtypeId).not.toBe('s-laptop');
    expect(best(trainCategoriser(BOARD, resolved, { abstainBelow: 0, resolutionWeight: 1 }).propose({ text: 'Kyocera spooler' }))?.subtypeId).toBe('s-laptop');
  });

  it('answers from names alone when the MSP has no history yet', () => {
    const c = trainCategoriser(BOARD, [], { abstainBelow: 0 });
    expect(c.stats.outOfFold.folds).toBe(0);
    expect(best(c.propose({ text: 'printer scanner problem' }))?.subtypeId).toBe('s-printer');
  });
});
