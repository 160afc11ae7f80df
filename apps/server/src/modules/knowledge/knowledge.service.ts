import { randomUUID } from 'node:crypto';
import { DOCUMENT_MAX_BYTES, MESSAGES, type TApplication, type TKnowledgeArticle, type TKnowledgeArticleSummary, type TKnowledgeAudience, type TRagResult, type TSource } from '@switchboard/contracts';
import type { TAppDeps } from '../../app-deps';
import { AppError } from '../../lib/app-error';
import { userAuditFields } from '../../lib/audit';
import type { TActor } from '../../plugins/access';
import { chunkDocument, type TChunk } from './chunking';
import { createKnowledgeEmbeddings, type TEmbeddingWarn } from './knowledge-embeddings';
import { DOCUMENT_LIMITS, contentTypeOf, detectDocumentKind, documentFileNameOf, extractDocumentText } from './document-text';
import { deleteUploadedDocument, findArticle, findDocument, insertDocument, listArticles, setDocumentAudience, listUploadedDocuments, searchPassages, searchResolutions, type TDocumentRow, type TKnowledgeScope, type TPassageCategory } from './knowledge.repository';

export type { TKnowledgeScope } from './knowledge.repository';

/** The knowledge a user may read: technicians all of their MSP's, client users their company's and the shared (issue #9). */
export function knowledgeScopeOf(user: { mspId: string; userKind: 'technician' | 'client'; psaCompanyId: string | null }): TKnowledgeScope {
  return user.userKind === 'client' ? { mspId: user.mspId, clientCompanyExternalId: user.psaCompanyId } : { mspId: user.mspId };
}

export interface TUploadedFile {
  fileName: string;
  bytes: Buffer;
}

/** A retrieved text with its citation, for the engine and for A-100. */
export interface TRetrieved extends TRagResult {
  text: string;
  /** Filed under the category the caller asked about (`category`): an article's own, a past ticket's. */
  isOfCategory: boolean;
}

/**
 * An article's text put back together from its passages: the chunker took each heading off its passage
 * (the article's own title heads the first), so each new heading is written again above its text, one
 * level under the title the reader shows.
 */
export function articleBodyOf(title: string, passages: readonly TChunk[]): string {
  const parts: string[] = [];
  let heading = title;
  for (const passage of passages) {
    if (passage.heading !== heading && passage.heading !== '') parts.push(`### ${passage.heading}`);
    heading = passage.heading;
    parts.push(passage.content);
  }
  return parts.join('\n\n');
}

const presentArticleSummary = (row: { id: string; title: string; typeName: string | null; subTypeName: string | null }): TKnowledgeArticleSummary => ({ id: row.id, title: row.title, typeName: row.typeName, subTypeName: row.subTypeName });

/**
 * R-240 leaves open what the two document permissions gate; we read them by whose documents they are: the MSP's own
 * (no company: every technician upload) need `mspDocuments` held by a technician, a client company's need either
 * permission (the routes admit no one without one, and a client user reaches only their own company's).
 */
type TDocumentActor = Pick<TActor, 'userKind' | 'permissions'>;
const mayManageMspDocuments = (actor: TDocumentActor) => actor.userKind === 'technician' && actor.permissions.mspDocuments;

/** Whether the user may delete the document: a client company's, or the MSP's own with `mspDocuments`. */
const mayDelete = (actor: TDocumentActor, row: Pick<TDocumentRow, 'companyExternalId'>) => row.companyExternalId !== null || mayManageMspDocuments(actor);

const mspDocumentsNeeded = () => new AppError('forbidden', MESSAGES.documents.mspDocumentsNeeded);

function presentDocument(row: TDocumentRow, actor: Pick<TActor, 'userKind' | 'permissions' | 'mspCustomDomain'>): TApplication {
  return {
    id: row.id,
    fileName: row.fileName ?? row.title,
    contentType: row.contentType ?? 'text/markdown',
    sizeBytes: row.sizeBytes,
    description: row.description,
    mspCustomDomain: actor.mspCustomDomain,
    chunkCount: row.chunkCount,
    uploadedBy: row.uploadedByUserId,
    createdAt: row.createdAt.toISOString(),
    canDelete: mayDelete(actor, row),
    audience: row.audience,
  };
}

const snippetOf = (text: string, max = 300) => (text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`);

/** Documents and retrieval over the MSP's knowledge and past resolutions. */
export function createKnowledgeService(deps: Pick<TAppDeps, 'config' | 'database' | 'audit' | 'files'>, warn?: TEmbeddingWarn) {
  const db = deps.database.db;
  const embeddings = createKnowledgeEmbeddings(deps, warn);

  return {
    /** the documents the user may read. */
    async listDocuments(actor: TActor, scope: TKnowledgeScope): Promise<TApplication[]> {
      return (await listUploadedDocuments(db, scope)).map((row) => presentDocument(row, actor));
    },

    /** One document the user may read (404 otherwise: another company's document does not exist for them). */
    async getDocument(actor: TActor, scope: TKnowledgeScope, documentId: string): Promise<TApplication> {
      const row = await findDocument(db, scope, documentId);
      if (!row) throw new AppError('not_found', MESSAGES.documents.notFound);
      return presentDocument(row, actor);
    },

    /**
     * stores the file (in the uploads table, never under the web root), its text and its
     * passages. A technician's upload is for the whole MSP (so it needs `mspDocuments`), read by technicians
     * only unless `audience` says everyone; a client user's is for their company only, read by everyone there (decision 034).
     */
    async upload(actor: TActor, scope: TKnowledgeScope, file: TUploadedFile | null, description: string, audience?: TKnowledgeAudience): Promise<TApplication> {
      // A technician's upload is for the whole MSP, whichever readers it names: that takes mspDocuments.
      if (actor.userKind === 'technician' && !mayManageMspDocuments(actor)) throw mspDocumentsNeeded();
      if (!file) throw new AppError('file_missing', MESSAGES.documents.fileMissing, { flags: { fileMissing: true } });
      if (file.bytes.length === 0) throw new AppError('validation', MESSAGES.documents.fileEmpty, { invalidParams: [{ name: 'file', reason: MESSAGES.documents.fileEmpty }] });
      if (file.bytes.length > DOCUMENT_MAX_BYTES) throw new AppError('file_size', MESSAGES.documents.fileSize, { flags: { fileSize: true } });
      // The name as sent may hold a path, a NUL (PostgreSQL text refuses it: was a 500) or other control characters.
      const fileName = documentFileNameOf(file.fileName);
      if (fileName === '') throw new AppError('validation', MESSAGES.documents.fileNameMissing, { invalidParams: [{ name: 'file', reason: MESSAGES.documents.fileNameMissing }] });
      const kind = detectDocumentKind(file.bytes, fileName);
      if (!kind) throw new AppError('file_type', MESSAGES.documents.fileType);
      const companyExternalId = scope.clientCompanyExternalId === undefined ? null : scope.clientCompanyExternalId;
      if (scope.clientCompanyExternalId === null) throw new AppError('forbidden', MESSAGES.assistant.clientNotLinked);
      const readers: TKnowledgeAudience = scope.clientCompanyExternalId === undefined ? (audience ?? 'technicians') : 'everyone';
      // Extraction is CPU work on the file alone: done before the transaction opens.
      const text = await extractDocumentText(file.bytes, kind);
      // A name that is only an extension (".md") leaves no title; search results cite the title, so it is never empty.
      const title = fileName.replace(/\.[a-z0-9]+$/i, '').trim() || MESSAGES.documents.untitledDocument;
      const chunks = chunkDocument(text, title);
      // Text of markup alone ("# **") makes no passage: stored, it could never be found (review s29).
      if (chunks.length === 0) throw new AppError('validation', MESSAGES.documents.noText);
      if (chunks.length > DOCUMENT_LIMITS.passages) throw new AppError('file_size', MESSAGES.documents.tooManyPassages);
      const uploadName = `documents/${randomUUID()}`;
      // The bytes go to the file store (PostgreSQL or S3) with the document row, never to a server's disk.
      const stored = { mspId: actor.mspId, name: uploadName, contentType: contentTypeOf(kind), bytes: file.bytes };
      const documentId = await deps.files.storeWith(db, [stored], async (tx) => {
        const id = await insertDocument(
          tx,
          actor.mspId,
          {
            kind: 'document',
            title,
            description,
            fileName,
            contentType: contentTypeOf(kind),
            sizeBytes: file.bytes.length,
            uploadName,
            sourceRef: null,
            typeName: null,
            subTypeName: null,
            companyExternalId,
            audience: readers,
            uploadedByUserId: actor.userId,
          },
          chunks,
        );
        if (!id) throw new Error('document insert returned no row');
        await deps.audit.record(tx, {
          mspId: actor.mspId,
          actorKind: 'user',
          actorId: actor.userId,
          action: 'document.upload',
          target: id,
          outcome: 'success',
          ip: actor.ip,
          requestId: actor.requestId,
          details: { fileName, kind, sizeBytes: file.bytes.length, chunks: chunks.length, companyExternalId, audience: readers },
        });
        return id;
      });
      // After the commit and in the background (network calls; a long document takes several): the document is
      // searchable by words at once, by meaning once embedded. embedPending never rejects.
      void embeddings.embedPending(actor.mspId, { documentId });
      return this.getDocument(actor, scope, documentId);
    },

    /** The knowledge-base articles the user may read (a client user: the shared ones and their company's, meant for everyone). */
    async listArticles(scope: TKnowledgeScope): Promise<TKnowledgeArticleSummary[]> {
      return (await listArticles(db, scope)).map(presentArticleSummary);
    },

    /** One article to read, e.g. a source a search or Jarvis cited (404 for one the user may not read, as for one that does not exist). */
    async readArticle(scope: TKnowledgeScope, articleId: string): Promise<TKnowledgeArticle> {
      const found = await findArticle(db, scope, articleId);
      if (!found) throw new AppError('not_found', MESSAGES.documents.articleNotFound);
      return { ...presentArticleSummary(found.row), body: articleBodyOf(found.row.title, found.passages), createdAt: found.row.createdAt.toISOString() };
    },

    /** The stored file of an uploaded document the user may read (404 otherwise, as for another company's). */
    async downloadDocument(scope: TKnowledgeScope, documentId: string): Promise<{ fileName: string; contentType: string; bytes: Buffer }> {
      const row = await findDocument(db, scope, documentId);
      if (!row || row.kind !== 'document' || row.uploadName === null) throw new AppError('not_found', MESSAGES.documents.notFound);
      const file = await deps.files.get(db, scope.mspId, row.uploadName);
      if (!file) throw new AppError('not_found', MESSAGES.documents.fileGone);
      return { fileName: row.fileName ?? row.title, contentType: row.contentType ?? file.contentType, bytes: file.bytes };
    },

    /**
     * Deletes an uploaded document, its passages (so Jarvis no longer finds them) and its file,
     * with an audit event. A client user may delete their own company's documents only; the
     * documents shared with every company belong to the MSP.
     */
    async deleteDocument(actor: TActor, scope: TKnowledgeScope, documentId: string): Promise<TApplication> {
      const row = await findDocument(db, scope, documentId);
      if (!row || row.kind !== 'document') throw new AppError('not_found', MESSAGES.documents.notFound);
      if (!mayDelete(actor, row)) throw actor.userKind === 'client' ? new AppError('forbidden', MESSAGES.documents.sharedNotYours) : mspDocumentsNeeded();
      const files = row.uploadName === null ? [] : [{ mspId: actor.mspId, name: row.uploadName }];
      await deps.files.removeWith(db, files, async (tx) => {
        // A second delete racing this one finds nothing left: the same 404 as a document that never existed.
        if (!(await deleteUploadedDocument(tx, actor.mspId, documentId))) throw new AppError('not_found', MESSAGES.documents.notFound);
        await deps.audit.record(tx, {
          ...userAuditFields(actor),
          action: 'document.delete',
          target: documentId,
          outcome: 'success',
          details: { fileName: row.fileName, sizeBytes: row.sizeBytes, chunks: row.chunkCount, companyExternalId: row.companyExternalId },
        });
      });
      return presentDocument(row, actor);
    },

    /** Who may read an uploaded document (decision 034), changed by a technician; a client user's company upload stays for everyone there. */
    async setReaders(actor: TActor, scope: TKnowledgeScope, documentId: string, audience: TKnowledgeAudience): Promise<TApplication> {
      const row = await findDocument(db, scope, documentId);
      if (!row || row.kind !== 'document') throw new AppError('not_found', MESSAGES.documents.notFound);
      if (row.companyExternalId !== null && audience === 'technicians') throw new AppError('validation', MESSAGES.documents.companyUploadForEveryone, { invalidParams: [{ name: 'audience', reason: MESSAGES.documents.companyUploadForEveryone }] });
      if (row.audience !== audience) {
        await db.transaction(async (tx) => {
          if (!(await setDocumentAudience(tx, actor.mspId, documentId, audience))) throw new AppError('not_found', MESSAGES.documents.notFound);
          await deps.audit.record(tx, { ...userAuditFields(actor), action: 'document.readers', target: documentId, outcome: 'success', details: { fileName: row.fileName, from: row.audience, to: audience } });
        });
      }
      return presentDocument({ ...row, audience }, actor);
    },

    /**
     * The best passages and past resolutions for a query, merged by score (A-100 limit 5, mode
     * near), each with its source. Always within the scope's MSP and, for a client, company.
     */
    async retrieve(scope: TKnowledgeScope, query: string, options: { limit: number; mode: 'near' | 'exact'; documentId?: string; withResolutions?: boolean; resolutionsOnly?: boolean; category?: TPassageCategory }): Promise<TRetrieved[]> {
      // "near" searches mix in meaning when the MSP has embeddings (decision 026); "exact" stays with words.
      const queryVector = options.mode === 'near' ? await embeddings.queryVectorFor(scope.mspId, query) : undefined;
      const searchOptions = { ...options, queryVector };
      const wantsPassages = options.resolutionsOnly !== true;
      const wantsResolutions = options.documentId === undefined && options.withResolutions !== false;
      const passages = wantsPassages ? await searchPassages(db, scope, query, searchOptions) : [];
      const resolutions = wantsResolutions ? await searchResolutions(db, scope, query, searchOptions) : [];
      if (queryVector) {
        // Passages and resolutions close in meaning that share no word with the query; the same score, so duplicates are equal.
        const seenPassages = new Set(passages.map((hit) => hit.chunkId));
        if (wantsPassages) passages.push(...(await searchPassages(db, scope, query, { ...searchOptions, by: 'meaning' })).filter((hit) => !seenPassages.has(hit.chunkId)));
        const seenResolutions = new Set(resolutions.map((hit) => hit.id));
        if (wantsResolutions) resolutions.push(...(await searchResolutions(db, scope, query, { ...searchOptions, by: 'meaning' })).filter((hit) => !seenResolutions.has(hit.id)));
      }
      const category = options.category;
      const isOf = (typeName: string | null, subTypeName: string | null) => category !== undefined && typeName === category.typeName && subTypeName === category.subTypeName;
      const results: TRetrieved[] = [
        ...passages.map((hit) => ({
          kind: hit.kind,
          id: hit.documentId,
          title: hit.heading && hit.heading !== hit.title ? `${hit.title} — ${hit.heading}` : hit.title,
          reference: hit.kind === 'document' ? hit.fileName : null,
          snippet: snippetOf(hit.content),
          score: Number(hit.score),
          // The chunker keeps a passage's heading apart from its text; the engine reads the heading to
          // leave out sections such as "Escalate to Tier 2 when", so the text carries it again.
          text: hit.heading && hit.heading !== hit.title ? `## ${hit.heading}\n${hit.content}` : hit.content,
          isOfCategory: isOf(hit.typeName, hit.subTypeName),
        })),
        ...resolutions.map((hit) => ({
          kind: 'resolution' as const,
          id: hit.id,
          title: hit.summary,
          reference: hit.ticketNumber ?? hit.externalId,
          snippet: snippetOf(hit.resolution),
          score: Number(hit.score),
          text: `${hit.summary}\n${hit.resolution}`,
          isOfCategory: isOf(hit.typeName, hit.subtypeName),
        })),
      ];
      results.sort((a, b) => b.score - a.score);
      return results.slice(0, options.limit);
    },
  };
}

export type TKnowledgeService = ReturnType<typeof createKnowledgeService>;

/** A retrieved text as a citation. */
export function sourceOf(result: Pick<TRetrieved, 'kind' | 'id' | 'title' | 'reference'>): TSource {
  return { kind: result.kind, id: result.id, title: result.title, reference: result.reference };
}
