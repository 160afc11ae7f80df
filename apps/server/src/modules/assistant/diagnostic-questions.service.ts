// The editable per-subcategory diagnostic question lists (issue #9): seeded with the engine's default question bank
// by names, edited by board admins in the board editor, read by the local engine when it chooses what to ask.
import { createHash } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { DEFAULT_QUESTION_BANK, type TBankQuestion, type TQuestionBank } from '@switchboard/assistant';
import { MESSAGES, type TDiagnosticQuestionList, type TPsaType } from '@switchboard/contracts';
import { diagnosticQuestionLists, type TDatabase } from '@switchboard/db';
import type { TAppDeps } from '../../app-deps';
import { AppError } from '../../lib/app-error';
import type { TActor } from '../../plugins/access';
import { loadMspBoard, type TMspBoard } from './mspboard';

const normalised = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();
const sameName = (a: string, b: string) => normalised(a) === normalised(b);

/** The seed questions for a subtype's names (empty when the default bank has none for them). */
function defaultQuestions(typeName: string, subtypeName: string): TBankQuestion[] {
  return DEFAULT_QUESTION_BANK.entries.find((entry) => sameName(entry.typeName, typeName) && sameName(entry.subtypeName, subtypeName))?.questions ?? [];
}

/** A seed question's id for the same wording: the engine then still knows it is shared by other subtypes. */
const seedIdByText = new Map(DEFAULT_QUESTION_BANK.entries.flatMap((entry) => entry.questions.map((question) => [normalised(question.text), question.id] as const)));

/** New questions get an id from their wording: the same question under two subtypes then does not tell them apart. */
const idOfWording = (text: string) => seedIdByText.get(normalised(text)) ?? `q-${createHash('sha256').update(normalised(text)).digest('hex').slice(0, 12)}`;

/** The MSP's saved lists in one order (type, then subtype id), so the bank is the same on every read. */
async function listRows(db: TDatabase, mspId: string, psaType: TPsaType) {
  return db
    .select()
    .from(diagnosticQuestionLists)
    .where(and(eq(diagnosticQuestionLists.mspId, mspId), eq(diagnosticQuestionLists.psaType, psaType)))
    .orderBy(asc(diagnosticQuestionLists.typeId), asc(diagnosticQuestionLists.subtypeId));
}

/**
 * The MSP's question bank for the engine: each list the MSP saved, as an entry of every board holding that subtype
 * (ConnectWise: its one board; Autotask: each queue mapping the picklist pair), first; then the seed bank, which a
 * board without its own list of a subtype still asks from. By board, because two ConnectWise boards may name a
 * subtype alike and keep different lists (review s29).
 */
export async function questionBankFor(db: TDatabase, mspId: string, board: TMspBoard): Promise<TQuestionBank> {
  const rows = await listRows(db, mspId, board.psaType);
  if (rows.length === 0) return DEFAULT_QUESTION_BANK;
  const edited: TQuestionBank['entries'] = rows.flatMap((row) =>
    boardsHolding(board, row.typeId, row.subtypeId).map((found) => ({ boardId: String(found.boardId), typeName: found.typeName, subtypeName: found.subtypeName, questions: row.questions })),
  );
  return { entries: [...edited, ...DEFAULT_QUESTION_BANK.entries] };
}

/** Every configured board holding the subtype under the type, with their names there. */
function boardsHolding(board: TMspBoard, typeId: number, subtypeId: number): { boardId: number; typeName: string; subtypeName: string }[] {
  return board.stored.flatMap((stored) => {
    const type = stored.types.find((candidate) => candidate.typeId === typeId);
    const subtype = stored.subtypes.find((candidate) => candidate.typeId === typeId && candidate.subtypeId === subtypeId);
    return type && subtype ? [{ boardId: stored.board.boardId, typeName: type.typeName, subtypeName: subtype.subtypeName }] : [];
  });
}

function findSubtype(board: TMspBoard, typeId: number, subtypeId: number): { typeName: string; subtypeName: string } | null {
  const [first] = boardsHolding(board, typeId, subtypeId);
  return first ? { typeName: first.typeName, subtypeName: first.subtypeName } : null;
}

export function createDiagnosticQuestionsService(deps: Pick<TAppDeps, 'database' | 'audit' | 'now'>) {
  const db = deps.database.db;

  /** The MSP's board and the named subtype on it; a subtype of no configured board (or another MSP's) is not found. */
  async function subtypeOf(mspId: string, typeId: number, subtypeId: number) {
    const board = await loadMspBoard(db, mspId);
    const found = board ? findSubtype(board, typeId, subtypeId) : null;
    if (!board || !found) throw new AppError('not_found', MESSAGES.diagnosticQuestions.subtypeNotFound);
    return { board, ...found };
  }

  async function read(mspId: string, psaType: TPsaType, typeId: number, subtypeId: number, names: { typeName: string; subtypeName: string }): Promise<TDiagnosticQuestionList> {
    const [row] = await db
      .select()
      .from(diagnosticQuestionLists)
      .where(and(eq(diagnosticQuestionLists.mspId, mspId), eq(diagnosticQuestionLists.psaType, psaType), eq(diagnosticQuestionLists.typeId, typeId), eq(diagnosticQuestionLists.subtypeId, subtypeId)));
    return {
      typeId,
      subTypeId: subtypeId,
      typeName: names.typeName,
      subTypeName: names.subtypeName,
      isDefault: !row,
      questions: row ? row.questions : defaultQuestions(names.typeName, names.subtypeName).map((question) => ({ id: question.id, text: question.text })),
    };
  }

  return {
    /** The subcategory's questions: the MSP's list, or the seed defaults until it saves one. */
    async list(actor: TActor, typeId: number, subtypeId: number): Promise<TDiagnosticQuestionList> {
      const { board, typeName, subtypeName } = await subtypeOf(actor.mspId, typeId, subtypeId);
      return read(actor.mspId, board.psaType, typeId, subtypeId, { typeName, subtypeName });
    },

    /** Replaces the subcategory's questions (order kept); an edited question keeps its id, a new one gets one from its wording (a fresh one when that is taken). */
    async replace(actor: TActor, input: { typeId: number; subTypeId: number; questions: { id?: string | undefined; text: string }[] }): Promise<TDiagnosticQuestionList> {
      const { board, typeName, subtypeName } = await subtypeOf(actor.mspId, input.typeId, input.subTypeId);
      const current = await read(actor.mspId, board.psaType, input.typeId, input.subTypeId, { typeName, subtypeName });
      const knownIds = new Set(current.questions.map((question) => question.id));
      const texts = input.questions.map((question) => question.text.trim().replace(/\s+/g, ' '));
      // Edited questions keep their ids (the first holder of one, should it be sent twice); then each new question gets
      // its wording's id, or a fresh one when that id is taken (a new question worded like one just rewritten).
      const used = new Set<string>();
      const keptIds = input.questions.map((question) => {
        if (!question.id || !knownIds.has(question.id) || used.has(question.id)) return null;
        used.add(question.id);
        return question.id;
      });
      const questions = texts.map((text, index) => {
        const keptId = keptIds[index] ?? null;
        if (keptId !== null) return { id: keptId, text };
        let id = idOfWording(text);
        for (let attempt = 1; used.has(id); attempt += 1) id = idOfWording(`${text} #${attempt}`);
        used.add(id);
        return { id, text };
      });
      const seen = new Set<string>();
      questions.forEach((question, index) => {
        const key = normalised(question.text);
        if (seen.has(key)) throw new AppError('validation', MESSAGES.diagnosticQuestions.duplicate, { invalidParams: [{ name: `questions.${index}.text`, reason: MESSAGES.diagnosticQuestions.duplicate }] });
        seen.add(key);
      });
      const values = { questions, updatedAt: deps.now() };
      await db.transaction(async (tx) => {
        await tx
          .insert(diagnosticQuestionLists)
          .values({ mspId: actor.mspId, psaType: board.psaType, typeId: input.typeId, subtypeId: input.subTypeId, ...values })
          .onConflictDoUpdate({ target: [diagnosticQuestionLists.mspId, diagnosticQuestionLists.psaType, diagnosticQuestionLists.typeId, diagnosticQuestionLists.subtypeId], set: values });
        await deps.audit.record(tx, {
          mspId: actor.mspId,
          actorKind: 'user',
          actorId: actor.userId,
          action: 'assistant.diagnostic-questions.replace',
          target: `${input.typeId}/${input.subTypeId}`,
          outcome: 'success',
          ip: actor.ip,
          requestId: actor.requestId,
          details: { typeName, subtypeName, questionCount: questions.length },
        });
      });
      return { typeId: input.typeId, subTypeId: input.subTypeId, typeName, subTypeName: subtypeName, isDefault: false, questions };
    },
  };
}
