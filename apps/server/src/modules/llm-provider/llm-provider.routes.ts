import { z } from 'zod';
import { ZCustomDomain, ZLlmProviderSettings, ZLlmProviderTestResult, ZSaveLlmProviderBody } from '@switchboard/contracts';
import type { TModule } from '../../app-deps';
import { actorOf } from '../../plugins/access';
import { createKnowledgeEmbeddings } from '../knowledge/knowledge-embeddings';
import { createLlmProviderService } from './llm-provider.service';

const ZMspPathParams = z.object({ mspCustomDomain: ZCustomDomain });

/** Same permission as the PSA keys: an AI model is another integration of the MSP (R-237's OpenAI and Claude cards). */
const MANAGE_LLM = { principal: 'technician', tenant: 'path', anyPermission: ['mspIntegrations'] } as const;

/**
 * The MSP's language-model provider for Jarvis (issue #9, decision 023). Additions: the spec lists the
 * OpenAI and Claude cards (R-237) but no call for them, so these paths follow the integrations' shape.
 */
export const registerLlmProviderRoutes: TModule = (app, deps) => {
  const service = createLlmProviderService(deps);
  const embeddings = createKnowledgeEmbeddings(deps, (message, error) => app.log.warn({ err: error }, message));

  app.get(
    '/db/:mspCustomDomain/llm-provider',
    {
      schema: { tags: ['llm-provider'], operationId: 'getLlmProvider', summary: 'The AI model Jarvis uses (provider, model, base URL, last 4 of the key); never the key', params: ZMspPathParams, response: { 200: ZLlmProviderSettings } },
      config: { access: MANAGE_LLM },
    },
    async (request) => service.get(actorOf(request).mspId),
  );

  app.put(
    '/db/:mspCustomDomain/llm-provider',
    {
      schema: {
        tags: ['llm-provider'],
        operationId: 'saveLlmProvider',
        summary: 'Save the AI model (openai: any OpenAI-compatible API, with an optional embedding model; anthropic). The key is encrypted at rest; leave it out to keep the stored one',
        params: ZMspPathParams,
        body: ZSaveLlmProviderBody,
        response: { 200: ZLlmProviderSettings },
      },
      config: { access: MANAGE_LLM },
    },
    async (request) => {
      const actor = actorOf(request);
      const saved = await service.save(actor, request.body);
      // The MSP's knowledge is embedded in the background (decision 026): searches use words until it is done.
      if (saved.embeddingModel !== null) void embeddings.embedPending(actor.mspId);
      return saved;
    },
  );

  app.delete(
    '/db/:mspCustomDomain/llm-provider',
    {
      schema: { tags: ['llm-provider'], operationId: 'deleteLlmProvider', summary: 'Remove the AI model and its key; Jarvis answers with the local engine again', params: ZMspPathParams, response: { 200: ZLlmProviderSettings } },
      config: { access: MANAGE_LLM },
    },
    async (request) => service.remove(actorOf(request)),
  );

  app.post(
    '/db/:mspCustomDomain/llm-provider/test',
    {
      schema: { tags: ['llm-provider'], operationId: 'testLlmProvider', summary: 'One short call to the saved AI model: ok and a plain message (a failed test is a result, not an error)', params: ZMspPathParams, response: { 200: ZLlmProviderTestResult } },
      config: { access: MANAGE_LLM },
    },
    async (request) => service.test(actorOf(request)),
  );
};
