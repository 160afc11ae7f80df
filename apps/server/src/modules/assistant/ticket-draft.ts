import type { TCandidate, TEngineResult, TProposal, TQuestion, TStep } from '@switchboard/assistant';
import {
  SEVERITY_SCORES,
  type TAutotaskDetails,
  type TConnectWiseDetails,
  type TDiagnosticQuestion,
  type TInteractiveElement,
  type TProposedCategorisation,
  type TSource,
  type TTroubleshootingStep,
} from '@switchboard/contracts';
import type { TStoredBoard } from '../boards/boards.repository';
import type { TMspBoard } from './mspboard';

/** One chosen category with everything the board configuration fills in. */
export interface TResolvedCategory {
  board: TStoredBoard;
  typeId: number;
  typeName: string;
  subTypeId: number;
  subTypeName: string;
  priorityId: number | null;
  priority: string | null;
  priorityScore: number | null;
  subTypeScore: number;
  tier: 'Tier1' | 'Tier2' | 'Tier3';
  slaHours: number;
}

/** The board, type and subtype on the MSP's configuration, or null when any of them is not there. */
export function resolveCategory(board: TMspBoard, boardId: number, typeId: number, subTypeId: number): TResolvedCategory | null {
  const stored = board.stored.find((candidate) => candidate.board.boardId === boardId);
  const type = stored?.types.find((candidate) => candidate.typeId === typeId);
  const subtype = stored?.subtypes.find((candidate) => candidate.typeId === typeId && candidate.subtypeId === subTypeId);
  if (!stored || !type || !subtype) return null;
  const priority = stored.priorities.find((candidate) => candidate.priorityId === subtype.priorityId);
  return {
    board: stored,
    typeId: type.typeId,
    typeName: type.typeName,
    subTypeId: subtype.subtypeId,
    subTypeName: subtype.subtypeName,
    priorityId: subtype.priorityId,
    priority: subtype.priorityName ?? priority?.priorityName ?? null,
    priorityScore: priority?.priorityScore ?? subtype.priorityScore,
    subTypeScore: subtype.subtypeScore,
    tier: subtype.tier,
    slaHours: subtype.slaHours,
  };
}

export function connectWiseDetailsOf(category: TResolvedCategory): TConnectWiseDetails {
  return {
    boardId: category.board.board.boardId,
    boardName: category.board.board.boardName,
    typeId: category.typeId,
    typeName: category.typeName,
    subTypeId: category.subTypeId,
    subTypeName: category.subTypeName,
    priority: category.priority,
    priorityId: category.priorityId,
    priorityScore: category.priorityScore,
    tier: category.tier,
    subTypeScore: category.subTypeScore,
    itemId: null,
    itemName: null,
  };
}

export function autotaskDetailsOf(category: TResolvedCategory): TAutotaskDetails {
  return {
    queueId: category.board.board.boardId,
    queueName: category.board.board.boardName,
    issueTypeValue: category.typeId,
    issueTypeLabel: category.typeName,
    subIssueTypeValue: category.subTypeId,
    subIssueTypeLabel: category.subTypeName,
    priorityValue: category.priorityId,
    priorityLabel: category.priority,
    priorityScore: category.priorityScore,
    ticketTypeValue: category.board.board.ticketTypeId,
    ticketTypeLabel: category.board.board.ticketTypeLabel,
    tier: category.tier,
    subTypeScore: category.subTypeScore,
  };
}

const numberOf = (id: string) => Number.parseInt(id, 10);

export function resolveCandidate(board: TMspBoard, candidate: TCandidate): TResolvedCategory | null {
  return resolveCategory(board, numberOf(candidate.boardId), numberOf(candidate.typeId), numberOf(candidate.subtypeId));
}

/**
 * The proposal as the contracts show it. An engine answer becomes the details the form is filled
 * with; an abstention leaves them empty (the questions decide) but lists the candidates.
 */
export function presentCategorisation(board: TMspBoard, result: TEngineResult<TProposal>, sources: TSource[]): TProposedCategorisation {
  const proposal = result.value;
  const chosen = proposal.kind === 'answer' ? resolveCandidate(board, proposal.choice) : null;
  return {
    psaType: board.psaType,
    engine: result.engine,
    confidence: proposal.confidence,
    abstained: chosen === null,
    slaHours: chosen?.slaHours ?? null,
    connectWiseDetails: chosen && board.psaType === 'CONNECTWISE' ? connectWiseDetailsOf(chosen) : null,
    autotaskDetails: chosen && board.psaType === 'AUTOTASK' ? autotaskDetailsOf(chosen) : null,
    alternatives: proposal.candidates.map((candidate) => ({
      boardId: numberOf(candidate.boardId),
      typeId: numberOf(candidate.typeId),
      typeName: candidate.typeName,
      subTypeId: numberOf(candidate.subtypeId),
      subTypeName: candidate.subtypeName,
      confidence: candidate.confidence,
    })),
    sources,
  };
}

export function presentQuestions(questions: TQuestion[]): TDiagnosticQuestion[] {
  return questions.map((question) => ({ id: question.id, question: question.text, options: question.options.map((option) => option.label) }));
}

export function presentSteps(steps: TStep[]): TTroubleshootingStep[] {
  return steps.map((step) => ({ id: `step-${step.n}`, text: step.text, sources: [{ kind: step.source.kind, id: step.source.id, title: step.source.title, reference: null }] }));
}

const element = (id: string, kind: TInteractiveElement['kind'], label: string, value: string | null = null, questionId: string | null = null, sources: TSource[] = []): TInteractiveElement => ({
  id,
  kind,
  label,
  value,
  questionId,
  sources,
});

/** The buttons always offered while a ticket is being described (a human is one click away). */
export function flowButtons(talkLabel: string): TInteractiveElement[] {
  return [element('talk-to-technician', 'talkToTechnician', talkLabel), element('confirm', 'confirm', 'Confirm'), element('cancel', 'cancel', 'Cancel')];
}

export function answerButtons(questions: TQuestion[]): TInteractiveElement[] {
  return questions.flatMap((question) => question.options.map((option) => element(`${question.id}:${option.value}`, 'answer', option.label, option.value, question.id)));
}

export function stepButtons(steps: TTroubleshootingStep[]): TInteractiveElement[] {
  return steps.flatMap((step) => [element(step.id, 'step', step.text, step.id, null, step.sources), element(`${step.id}:helped`, 'helped', 'This helped', step.id), element(`${step.id}:didNotHelp`, 'didNotHelp', 'This did not help', step.id)]);
}

/** Impact and severity scores. */
export const scoreOf = (level: keyof typeof SEVERITY_SCORES) => SEVERITY_SCORES[level];

/** Plain-language name of the proposal for the chat ("Email / Outlook not syncing"). */
export function proposalLabel(categorisation: TProposedCategorisation): string | null {
  const cw = categorisation.connectWiseDetails;
  if (cw) return `${cw.typeName} / ${cw.subTypeName}`;
  const at = categorisation.autotaskDetails;
  if (at) return `${at.issueTypeLabel} / ${at.subIssueTypeLabel}`;
  return null;
}
