import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ZBoardTemplateView,
  ZCreateBoardBody,
  ZCreateCategoryQuery,
  ZCreatedBoard,
  ZCreatedCategory,
  ZCreatedStatus,
  ZCreatedSubCategory,
  ZCreateStatusQuery,
  ZCreateSubCategoryQuery,
  ZCustomDomain,
  ZDefaultBoardSetupBody,
  ZDefaultBoardSetupQuery,
  ZDefaultBoardSetupResult,
  ZDefaultCompanyOptions,
  ZMergedCategorization,
  ZMergedCategorizationQuery,
  ZSaveTicketingConfigurationBody,
  ZScoredBoard,
  ZScoringBody,
  ZTicketingConfiguration,
} from '@switchboard/contracts';
import type { TModule } from '../../app-deps';
import { actorOf } from '../../plugins/access';
import { ANY_USER_OF_PATH_MSP, BOARD_ADMIN, BOARD_ADMIN_BY_PATH, BOARD_ADMIN_BY_SESSION } from './boards.policy';
import { createBoardsService } from './boards.service';

const ZMspPathParams = z.object({ mspCustomDomain: ZCustomDomain });
const ZMspQuery = z.object({ mspCustomDomain: ZCustomDomain });
/** A-023's first segment is a template name where other /db routes have the MSP, so it names no tenant (catalogue note). */
const ZTemplateParams = z.object({ board: z.string().trim().min(1).max(100) });

/** Board screen, board editor and board setup (catalogue group "Boards & categorisation"). */
export const registerBoardsRoutes: TModule = (app, deps) => {
  const boards = createBoardsService(deps);

  app.get(
    '/db/:mspCustomDomain/getPSATicketingConfiguration',
    {
      schema: {
        tags: ['boards'],
        operationId: 'getPSATicketingConfiguration',
        summary: 'A-011 The PSA ticketing configuration: connectWiseConfig or autotaskConfigV2 (boards, types, subtypes, scores, tiers, SLA, default company)',
        params: ZMspPathParams,
        response: { 200: ZTicketingConfiguration },
      },
      config: { access: ANY_USER_OF_PATH_MSP },
    },
    async (request) => boards.getConfiguration(actorOf(request)),
  );

  app.post(
    '/db/:mspCustomDomain/addUpdatePSATicketingConfiguration',
    {
      schema: {
        tags: ['boards'],
        operationId: 'addUpdatePSATicketingConfiguration',
        summary: 'A-034 Save the configuration; new types/subtypes (isNew) are created at the PSA first. Needs boardView or mspIntegrations',
        params: ZMspPathParams,
        body: ZSaveTicketingConfigurationBody,
        response: { 200: ZTicketingConfiguration },
      },
      config: { access: BOARD_ADMIN_BY_PATH },
    },
    async (request) => boards.saveConfiguration(actorOf(request), request.body),
  );

  app.get(
    '/db/:mspCustomDomain/psaTicketingConfiguration/defaultCompanyOptions',
    {
      schema: {
        tags: ['boards'],
        operationId: 'getDefaultCompanyOptions',
        summary: 'Ours: synchronized PSA companies (id, name) the default company is chosen from; `search` filters by name, 50 at most',
        params: ZMspPathParams,
        querystring: z.object({ search: z.string().trim().max(100).default('') }),
        response: { 200: ZDefaultCompanyOptions },
      },
      config: { access: BOARD_ADMIN_BY_PATH },
    },
    async (request) => boards.listDefaultCompanyOptions(actorOf(request), request.query.search),
  );

  app.get(
    '/db/:board/connectWiseManageDetails',
    {
      schema: {
        tags: ['boards'],
        operationId: 'getConnectWiseManageDetails',
        summary: "A-023 A board template by name (known: 'default-et7-board-template')",
        params: ZTemplateParams,
        response: { 200: ZBoardTemplateView },
      },
      config: { access: BOARD_ADMIN_BY_SESSION },
    },
    async (request) => boards.getTemplate(request.params.board),
  );

  // 01 §7: "a differently cased variant is also used" — both casings, one handler (decisions #1).
  const handleMerged = async (request: FastifyRequest<{ Querystring: z.output<typeof ZMergedCategorizationQuery> }>) =>
    boards.getMergedCategorization(actorOf(request), request.query.boardId);
  for (const [path, operationId] of [
    ['/psa/getMergedConnectWiseCategorizationWithoutGPT', 'getMergedConnectWiseCategorizationWithoutGPT'],
    ['/psa/getMergedConnectwiseCategorizationWithoutGPT', 'getMergedConnectwiseCategorizationWithoutGPT'],
  ] as const) {
    app.get(
      path,
      {
        schema: {
          tags: ['boards'],
          operationId,
          summary: 'A-030 A board\'s types and subtypes from the PSA merged with the stored scores, tiers and SLA (defaults elsewhere)',
          querystring: ZMergedCategorizationQuery,
          response: { 200: ZMergedCategorization },
        },
        config: { access: BOARD_ADMIN },
      },
      handleMerged,
    );
  }

  app.post(
    '/psa/createStatus',
    {
      schema: { tags: ['boards'], operationId: 'createStatus', summary: 'A-047 Create a status on a ConnectWise board (Autotask: 422, map instead)', querystring: ZCreateStatusQuery, response: { 200: ZCreatedStatus } },
      config: { access: BOARD_ADMIN },
    },
    async (request) => boards.createStatus(actorOf(request), { boardId: request.query.boardId, statusName: request.query.statusName, isClosed: request.query.isClosed === 'true' }),
  );

  app.post(
    '/psa/createCategory',
    {
      schema: { tags: ['boards'], operationId: 'createCategory', summary: 'A-048 Create a type (category) on a ConnectWise board', querystring: ZCreateCategoryQuery, response: { 200: ZCreatedCategory } },
      config: { access: BOARD_ADMIN },
    },
    async (request) => boards.createCategory(actorOf(request), request.query),
  );

  app.post(
    '/psa/createSubCategory',
    {
      schema: { tags: ['boards'], operationId: 'createSubCategory', summary: 'A-049 Create a subtype (subcategory) under a type of a ConnectWise board; one of that name already on the board is linked to the type (isExisting)', querystring: ZCreateSubCategoryQuery, response: { 200: ZCreatedSubCategory } },
      config: { access: BOARD_ADMIN },
    },
    async (request) => boards.createSubCategory(actorOf(request), request.query),
  );

  app.post(
    '/psa/createConnectWiseBoard',
    {
      schema: { tags: ['boards'], operationId: 'createConnectWiseBoard', summary: 'A-050 Create a custom board (title, department, location) at the PSA; a retry for a board this MSP created and has not set up answers that board (isExisting)', querystring: ZMspQuery, body: ZCreateBoardBody, response: { 200: ZCreatedBoard } },
      config: { access: BOARD_ADMIN },
    },
    async (request) => boards.createBoard(actorOf(request), request.body),
  );

  app.post(
    '/psa/createDefaultBoardSetup',
    {
      schema: {
        tags: ['boards'],
        operationId: 'createDefaultBoardSetup',
        summary: 'A-051 Apply categorisations (e.g. the A-023 template) to a board: found by name or created (Autotask: found only)',
        querystring: ZDefaultBoardSetupQuery,
        body: ZDefaultBoardSetupBody,
        response: { 200: ZDefaultBoardSetupResult },
      },
      config: { access: BOARD_ADMIN },
    },
    async (request) => boards.applyDefaultSetup(actorOf(request), request.query.boardId, request.body),
  );

  app.post(
    '/psa/applyGPTScoringToConnectWiseCategorization',
    {
      schema: {
        tags: ['boards'],
        operationId: 'applyGPTScoringToConnectWiseCategorization',
        summary: 'A-052 Suggested scores, tiers and SLA from the MSP\'s own closed tickets, the MSP\'s AI model filling what history cannot support (decision 024), each with its source',
        body: ZScoringBody,
        response: { 200: ZScoredBoard },
      },
      config: { access: BOARD_ADMIN_BY_SESSION },
    },
    async (request) => boards.scoreFromHistory(actorOf(request), request.body.board),
  );
};
