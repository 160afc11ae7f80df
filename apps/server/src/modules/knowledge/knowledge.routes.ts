import type { FastifyRequest } from 'fastify';
import { DOCUMENT_MAX_BYTES, MESSAGES, ZApplicationList, ZApplicationReadersBody, ZApplicationParams, ZDeleteApplicationResponse, ZApplicationResponse, ZApplicationsOfMspParams, ZKnowledgeArticle, ZKnowledgeArticleList, ZKnowledgeArticleParams, ZKnowledgeArticlesParams, ZRagSearchBody, ZRagSearchResponse, ZUploadApplicationFields, hasControlCharacters, plainIssueMessage } from '@switchboard/contracts';
import type { TModule } from '../../app-deps';
import { AppError, notFound } from '../../lib/app-error';
import { actorOf, mspUserOf } from '../../plugins/access';
import { createKnowledgeService, knowledgeScopeOf, sourceOf, type TUploadedFile } from './knowledge.service';

const DOCUMENT_READERS = { principal: 'user', tenant: 'session', anyPermission: ['mspDocuments', 'clientDocuments'] } as const;

function isFileTooLarge(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'FST_REQ_FILE_TOO_LARGE';
}
function isClientError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('statusCode' in error)) return false;
  return typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500;
}

/** `attachment` with the file's own name: an ASCII fallback and the exact UTF-8 name (RFC 6266). */
export function attachmentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^A-Za-z0-9._ -]/g, '_') || 'document';
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** Reads the A-065 form: `file`, `mspCustomDomain`, `description`; the size limit applies while the file arrives. */
async function readUploadForm(request: FastifyRequest): Promise<{ file: TUploadedFile | null; fields: Record<string, string> }> {
  if (!request.isMultipart()) throw new AppError('file_missing', MESSAGES.documents.fileMissing, { flags: { fileMissing: true } });
  const fields: Record<string, string> = {};
  let file: TUploadedFile | null = null;
  try {
    for await (const part of request.parts({ limits: { fileSize: DOCUMENT_MAX_BYTES, files: 1, fields: 10 } })) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.fieldname === 'file') file = { fileName: part.filename, bytes };
        continue;
      }
      if (typeof part.value !== 'string') continue;
      if (hasControlCharacters(part.value)) throw new AppError('validation', MESSAGES.controlCharacters);
      fields[part.fieldname] = part.value;
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (isFileTooLarge(error)) throw new AppError('file_size', MESSAGES.documents.fileSize, { flags: { fileSize: true } });
    if (isClientError(error)) throw error;
    request.log.info({ err: error }, 'unreadable multipart body');
    throw new AppError('validation', MESSAGES.multipartBroken);
  }
  return { file, fields };
}

/** Tools/documents and knowledge search; document chat is in the assistant module. */
export const registerKnowledgeRoutes: TModule = (app, deps) => {
  const knowledge = createKnowledgeService(deps, (message, error) => app.log.warn({ err: error }, message));
  if (!deps.database.vectorSearch.isAvailable) {
    app.log.warn(`knowledge: pgvector is not available (${deps.database.vectorSearch.reason}); Jarvis searches by words alone (decision 026)`);
  }

  app.get(
    '/db/applications/msp/:id',
    {
      schema: {
        tags: ['knowledge'],
        operationId: 'applicationsOfMsp',
        summary: 'A-022 The uploaded tools/documents the caller may read ({id}: the MSP custom domain or id; a client sees the shared ones and their company’s)',
        params: ZApplicationsOfMspParams,
        response: { 200: ZApplicationList },
      },
      config: { access: DOCUMENT_READERS },
    },
    async (request) => {
      const user = mspUserOf(request);
      const id = request.params.id.toLowerCase();
      if (id !== user.mspCustomDomain && id !== user.mspId) throw notFound();
      return { applications: await knowledge.listDocuments(actorOf(request), knowledgeScopeOf(user)) };
    },
  );

  app.post(
    '/db/applications/upload',
    {
      schema: {
        tags: ['knowledge'],
        operationId: 'applicationsUpload',
        summary: 'A-065 Upload a tool/document (multipart file, mspCustomDomain, description): PDF, .docx, Markdown or text up to 10 MB; its text becomes searchable',
        consumes: ['multipart/form-data'],
        response: { 201: ZApplicationResponse },
      },
      config: { access: DOCUMENT_READERS },
    },
    async (request, reply) => {
      const user = mspUserOf(request);
      const { file, fields } = await readUploadForm(request);
      const parsed = ZUploadApplicationFields.safeParse(fields);
      if (!parsed.success) {
        const invalidParams = parsed.error.issues.map((issue) => ({ name: issue.path.join('.'), reason: plainIssueMessage(issue) }));
        throw new AppError('validation', invalidParams[0]?.reason ?? MESSAGES.requestUnreadable, { invalidParams });
      }
      if (parsed.data.mspCustomDomain !== undefined && parsed.data.mspCustomDomain !== user.mspCustomDomain) throw notFound();
      const application = await knowledge.upload(actorOf(request), knowledgeScopeOf(user), file, parsed.data.description, parsed.data.audience);
      return reply.status(201).send({ application });
    },
  );

  app.get(
    '/db/:mspCustomDomain/applications/:applicationId/file',
    {
      schema: {
        tags: ['knowledge'],
        operationId: 'applicationDownload',
        summary: 'Download an uploaded tool/document as it was uploaded (ours; a client only the shared ones and their company’s)',
        params: ZApplicationParams,
      },
      config: { access: { ...DOCUMENT_READERS, tenant: 'path' } },
    },
    async (request, reply) => {
      const file = await knowledge.downloadDocument(knowledgeScopeOf(mspUserOf(request)), request.params.applicationId);
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', attachmentDisposition(file.fileName))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(file.bytes);
    },
  );

  app.put(
    '/db/:mspCustomDomain/applications/:applicationId/readers',
    {
      schema: {
        tags: ['knowledge'],
        operationId: 'applicationReaders',
        summary: 'Change who may read an uploaded tool/document: technicians only, or technicians and client users (ours; decision 034)',
        params: ZApplicationParams,
        body: ZApplicationReadersBody,
        response: { 200: ZApplicationResponse },
      },
      config: { access: { principal: 'technician', tenant: 'path', anyPermission: ['mspDocuments'] } },
    },
    async (request) => ({ application: await knowledge.setReaders(actorOf(request), knowledgeScopeOf(mspUserOf(request)), request.params.applicationId, request.body.audience) }),
  );

  app.delete(
    '/db/:mspCustomDomain/applications/:applicationId',
    {
      schema: {
        tags: ['knowledge'],
        operationId: 'applicationDelete',
        summary: 'Delete an uploaded tool/document, its file and its searchable passages (ours; a client only their company’s)',
        params: ZApplicationParams,
        response: { 200: ZDeleteApplicationResponse },
      },
      config: { access: { ...DOCUMENT_READERS, tenant: 'path' } },
    },
    async (request) => {
      const user = mspUserOf(request);
      return { deleted: true as const, application: await knowledge.deleteDocument(actorOf(request), knowledgeScopeOf(user), request.params.applicationId) };
    },
  );

  // Any signed-in user of the MSP reads the articles the knowledge search may show them (docs/api-additions.md).
  app.get(
    '/db/:mspCustomDomain/knowledge/articles',
    {
      schema: {
        tags: ['knowledge'],
        operationId: 'knowledgeArticles',
        summary: 'Ours: the knowledge-base articles the caller may read, by category then title (a client user: the shared ones and their company’s that are meant for everyone)',
        params: ZKnowledgeArticlesParams,
        response: { 200: ZKnowledgeArticleList },
      },
      config: { access: { principal: 'user', tenant: 'path' } },
    },
    async (request) => ({ articles: await knowledge.listArticles(knowledgeScopeOf(mspUserOf(request))) }),
  );

  app.get(
    '/db/:mspCustomDomain/knowledge/articles/:articleId',
    {
      schema: {
        tags: ['knowledge'],
        operationId: 'knowledgeArticle',
        summary: 'Ours: one knowledge-base article to read, its text as markdown; 404 for one the caller may not read',
        params: ZKnowledgeArticleParams,
        response: { 200: ZKnowledgeArticle },
      },
      config: { access: { principal: 'user', tenant: 'path' } },
    },
    async (request) => knowledge.readArticle(knowledgeScopeOf(mspUserOf(request)), request.params.articleId),
  );

  app.post(
    '/gpt/rag/search',
    {
      schema: {
        tags: ['knowledge'],
        operationId: 'ragSearch',
        summary: 'A-100 Search the MSP’s knowledge and past resolutions ({query, mspCustomDomain, limit 5, mode near, sources all|resolutions}); each result cites its source',
        body: ZRagSearchBody,
        response: { 200: ZRagSearchResponse },
      },
      config: { access: { principal: 'user', tenant: 'session' } },
    },
    async (request) => {
      const user = mspUserOf(request);
      const { query, limit, mode, ticketId, sources } = request.body;
      const results = await knowledge.retrieve(knowledgeScopeOf(user), query, { limit, mode, resolutionsOnly: sources === 'resolutions' });
      return { ticketId: ticketId ?? null, query, results: results.map((result) => ({ ...sourceOf(result), snippet: result.snippet, score: result.score })) };
    },
  );
};
