import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  autotaskQueueFromBoard,
  QUEUE_PATHS,
  type TEditableBoard,
  type TPsaType,
  type TQueueSettings,
  type TSaveDiagnosticQuestionsBody,
  type TSaveTicketingConfigurationBody,
} from '@switchboard/contracts';
import { apiFetch } from '../../../lib/api-client';
import type { TPsaBoardListItem } from '../../../lib/schemas';

export type { TPsaBoardListItem };

export const boardsKeys = {
  all: ['boards'] as const,
  psaBoards: (msp: string) => [...boardsKeys.all, msp, 'psa-boards'] as const,
  configuration: (msp: string) => [...boardsKeys.all, msp, 'configuration'] as const,
  merged: (msp: string, boardId: number) => [...boardsKeys.all, msp, 'merged', boardId] as const,
  companyOptions: (msp: string, search: string) => [...boardsKeys.all, msp, 'company-options', search] as const,
  queueSettings: (msp: string) => [...boardsKeys.all, msp, 'queue-settings'] as const,
};

/** the PSA's boards (Autotask: queues). */
export function usePsaBoards(msp: string, options: { isReloadedOnMount?: boolean } = {}) {
  return useQuery({
    queryKey: boardsKeys.psaBoards(msp),
    queryFn: () => apiFetch('/psa/getConnectWiseBoards', { query: { mspCustomDomain: msp }, schema: (s) => s.ZPsaBoardList }),
    // The wizard's step 1 asks the PSA again on every entry, even within the cache's 30 s.
    ...(options.isReloadedOnMount ? { refetchOnMount: 'always' as const } : {}),
  });
}

/** the stored configuration (which boards are configured, the default company). */
export function useTicketingConfiguration(msp: string) {
  return useQuery({
    queryKey: boardsKeys.configuration(msp),
    queryFn: () => apiFetch(`/db/${encodeURIComponent(msp)}/getPSATicketingConfiguration`, { schema: (s) => s.ZTicketingConfiguration }),
  });
}

/** one board as the PSA has it, with the stored scores merged in. */
export function useMergedBoard(msp: string, boardId: number | null) {
  return useQuery({
    queryKey: boardsKeys.merged(msp, boardId ?? 0),
    enabled: boardId !== null,
    queryFn: () => apiFetch('/psa/getMergedConnectWiseCategorizationWithoutGPT', { query: { mspCustomDomain: msp, boardId }, schema: (s) => s.ZMergedCategorization }),
  });
}

/**
 * Reads one board again, so an editor without a working copy shows it as stored now: Discard changes, and
 * Reload board after a stale save (decision 012), on the Board screen and in the setup wizard's board step.
 */
export function useReloadMergedBoard(msp: string) {
  const queryClient = useQueryClient();
  return (boardId: number) => queryClient.invalidateQueries({ queryKey: boardsKeys.merged(msp, boardId) });
}

/** The A-034 body for one board in the MSP's PSA variant. */
export function boardSaveBody(msp: string, psaType: TPsaType, board: TEditableBoard): TSaveTicketingConfigurationBody {
  return psaType === 'CONNECTWISE'
    ? { mspCustomDomain: msp, psaType, connectWiseConfig: { boardDetails: [board] } }
    : { mspCustomDomain: msp, psaType, autotaskConfigV2: { ticketQueueDetails: [autotaskQueueFromBoard(board)] } };
}

/** A-034 for one board: new types and subtypes are created at the PSA and come back real. */
export function useSaveBoard(msp: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ psaType, board }: { psaType: TPsaType; board: TEditableBoard }) =>
      apiFetch(`/db/${encodeURIComponent(msp)}/addUpdatePSATicketingConfiguration`, { method: 'POST', body: boardSaveBody(msp, psaType, board), schema: (s) => s.ZTicketingConfiguration }),
    onSuccess: async (configuration, { board }) => {
      queryClient.setQueryData(boardsKeys.configuration(msp), configuration);
      if (board.boardId !== null) await queryClient.invalidateQueries({ queryKey: boardsKeys.merged(msp, board.boardId) });
    },
  });
}

/** A-034 with only the default company (01 §8: its own three messages). */
export function useSetDefaultCompany(msp: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ psaType, company }: { psaType: TPsaType; company: { id: number; name: string } | null }) => {
      const common = { defaultCompanyId: company?.id ?? null, defaultCompanyName: company?.name ?? null };
      const body: TSaveTicketingConfigurationBody = psaType === 'CONNECTWISE' ? { mspCustomDomain: msp, psaType, connectWiseConfig: common } : { mspCustomDomain: msp, psaType, autotaskConfigV2: common };
      return apiFetch(`/db/${encodeURIComponent(msp)}/addUpdatePSATicketingConfiguration`, { method: 'POST', body, schema: (s) => s.ZTicketingConfiguration });
    },
    onSuccess: (configuration) => queryClient.setQueryData(boardsKeys.configuration(msp), configuration),
  });
}

/** The synchronized companies the default company is chosen from. */
export function useDefaultCompanyOptions(msp: string, search: string) {
  return useQuery({
    queryKey: boardsKeys.companyOptions(msp, search),
    queryFn: () => apiFetch(`/db/${encodeURIComponent(msp)}/psaTicketingConfiguration/defaultCompanyOptions`, { query: { search }, schema: (s) => s.ZDefaultCompanyOptions }),
    placeholderData: (previous) => previous,
  });
}

/** suggested scores from the MSP's own ticket history, each with its source. */
export function useScoreBoard(msp: string) {
  return useMutation({
    mutationFn: (board: TEditableBoard) => apiFetch('/psa/applyGPTScoringToConnectWiseCategorization', { method: 'POST', body: { mspCustomDomain: msp, board }, schema: (s) => s.ZScoredBoard }),
  });
}

/** a missing open or closed status created on a ConnectWise board (01 §5). */
export function useCreateStatus(msp: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { boardId: number; statusName: string; isClosed: boolean }) =>
      apiFetch('/psa/createStatus', { method: 'POST', query: { mspCustomDomain: msp, boardId: input.boardId, statusName: input.statusName, isClosed: input.isClosed }, schema: (s) => s.ZCreatedStatusResponse }),
    onSuccess: (_status, input) => queryClient.invalidateQueries({ queryKey: boardsKeys.merged(msp, input.boardId) }),
  });
}

/** where a custom board can live. */
export function useDepartmentsAndLocations(msp: string, isEnabled: boolean) {
  const departments = useQuery({
    queryKey: [...boardsKeys.all, msp, 'departments'] as const,
    enabled: isEnabled,
    queryFn: () => apiFetch('/psa/getConnectWiseDepartments', { query: { mspCustomDomain: msp }, schema: (s) => s.ZNamedList }),
  });
  const locations = useQuery({
    queryKey: [...boardsKeys.all, msp, 'locations'] as const,
    enabled: isEnabled,
    queryFn: () => apiFetch('/psa/getConnectWiseLocations', { query: { mspCustomDomain: msp }, schema: (s) => s.ZNamedList }),
  });
  return { departments, locations };
}

export type TCreatedBoardRef = { boardId: number; boardName: string };

/** The board was made at the PSA but the template's categories were not added: retry that step alone. */
export class BoardTemplateStepError extends Error {
  constructor(
    readonly board: TCreatedBoardRef,
    readonly reason: unknown,
  ) {
    super('The board was created, but the template could not be applied.');
  }
}

/**
 * A-050, then (when asked) A-023 + A-051: a custom board at the PSA, optionally set up from the default template.
 * With `createdBoard` (the board an earlier try made before its template step failed) only the template step runs.
 */
export function useCreateBoard(msp: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { title: string; departmentId: number | null; locationId: number | null; useTemplate: boolean; createdBoard?: TCreatedBoardRef }) => {
      const board =
        input.createdBoard ??
        (await apiFetch('/psa/createConnectWiseBoard', {
          method: 'POST',
          query: { mspCustomDomain: msp },
          body: { name: input.title, department: input.departmentId === null ? null : { id: input.departmentId }, location: input.locationId === null ? null : { id: input.locationId } },
          schema: (s) => s.ZCreatedBoardResponse,
        }));
      if (input.useTemplate) {
        try {
          const template = await apiFetch('/db/default-et7-board-template/connectWiseManageDetails', { schema: (s) => s.ZBoardTemplate });
          await apiFetch('/psa/createDefaultBoardSetup', { method: 'POST', query: { mspCustomDomain: msp, boardId: board.boardId }, body: { statuses: template.statuses, priorities: template.priorities, types: template.types } });
        } catch (error) {
          throw new BoardTemplateStepError({ boardId: board.boardId, boardName: board.boardName }, error);
        }
      }
      return board;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: [...boardsKeys.all, msp] }),
  });
}

export const diagnosticQuestionsKey = (msp: string, typeId: number, subTypeId: number) => [...boardsKeys.all, msp, 'diagnostic-questions', typeId, subTypeId] as const;

/** A subcategory's diagnostic questions (issue #9): the MSP's own, or the seed defaults until saved. */
export function useDiagnosticQuestions(msp: string, typeId: number, subTypeId: number, isEnabled: boolean) {
  return useQuery({
    queryKey: diagnosticQuestionsKey(msp, typeId, subTypeId),
    enabled: isEnabled,
    queryFn: () => apiFetch(`/db/${encodeURIComponent(msp)}/diagnosticQuestions`, { query: { typeId, subTypeId }, schema: (s) => s.ZDiagnosticQuestionList }),
  });
}

/** Replaces a subcategory's diagnostic questions. */
export function useSaveDiagnosticQuestions(msp: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TSaveDiagnosticQuestionsBody) => apiFetch(`/db/${encodeURIComponent(msp)}/diagnosticQuestions`, { method: 'POST', body, schema: (s) => s.ZDiagnosticQuestionList }),
    onSuccess: (list) => queryClient.setQueryData(diagnosticQuestionsKey(msp, list.typeId, list.subTypeId), list),
  });
}

/** The queue's ordering weights and release rules (GET ticketQueue/weights, an addition; DESIGN §8). */
export function useQueueSettings(msp: string) {
  return useQuery({
    queryKey: boardsKeys.queueSettings(msp),
    queryFn: () => apiFetch(QUEUE_PATHS.weights, { query: { mspCustomDomain: msp }, schema: (s) => s.ZQueueSettingsResponse }),
  });
}

/** Saves them (PUT, adminPortal); the server re-ranks every open ticket. */
export function useSaveQueueSettings(msp: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: TQueueSettings) => apiFetch(QUEUE_PATHS.weights, { method: 'PUT', query: { mspCustomDomain: msp }, body: settings, schema: (s) => s.ZQueueSettingsResponse }),
    onSuccess: (saved) => queryClient.setQueryData(boardsKeys.queueSettings(msp), saved),
  });
}
