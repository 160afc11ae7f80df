import { z } from 'zod';
import { ZCustomDomain, ZDiagnosticQuestionList, ZDiagnosticQuestionsQuery, ZSaveDiagnosticQuestionsBody } from '@switchboard/contracts';
import type { TModule } from '../../app-deps';
import { actorOf } from '../../plugins/access';
import { BOARD_ADMIN_BY_PATH } from '../boards/boards.policy';
import { createDiagnosticQuestionsService } from './diagnostic-questions.service';

const ZMspPathParams = z.object({ mspCustomDomain: ZCustomDomain });

/** A subcategory's diagnostic questions in the board editor (issue #9; docs/api-additions.md): the board's own access. */
export const registerDiagnosticQuestionsRoutes: TModule = (app, deps) => {
  const questions = createDiagnosticQuestionsService(deps);

  app.get(
    '/db/:mspCustomDomain/diagnosticQuestions',
    {
      schema: {
        tags: ['boards'],
        operationId: 'getDiagnosticQuestions',
        summary: 'Ours: the diagnostic questions Jarvis may ask for a subcategory (the seed defaults until the MSP saves its own). Needs boardView or mspIntegrations',
        params: ZMspPathParams,
        querystring: ZDiagnosticQuestionsQuery,
        response: { 200: ZDiagnosticQuestionList },
      },
      config: { access: BOARD_ADMIN_BY_PATH },
    },
    async (request) => questions.list(actorOf(request), request.query.typeId, request.query.subTypeId),
  );

  app.post(
    '/db/:mspCustomDomain/diagnosticQuestions',
    {
      schema: {
        tags: ['boards'],
        operationId: 'saveDiagnosticQuestions',
        summary: 'Ours: replaces a subcategory’s diagnostic questions (1–200 characters each, at most 10). Needs boardView or mspIntegrations',
        params: ZMspPathParams,
        body: ZSaveDiagnosticQuestionsBody,
        response: { 200: ZDiagnosticQuestionList },
      },
      config: { access: BOARD_ADMIN_BY_PATH },
    },
    async (request) => questions.replace(actorOf(request), request.body),
  );
};
