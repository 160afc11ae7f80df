import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { TKnowledgeAudience } from '@switchboard/contracts';
import type { TDatabase } from '@switchboard/db';
import { chunkDocument } from './chunking';
import { insertDocument } from './knowledge.repository';

/** A knowledge-base article as the demo data holds it (data/kb-articles.jsonl, copied from the simulator's demo data). */
export const ZKbArticle = z.object({
  id: z.number().int(),
  title: z.string().min(1),
  type: z.string(),
  subType: z.string().nullable(),
  /** The PSA company the article is about, or null for every client. */
  companyId: z.number().int().nullable(),
  tags: z.array(z.string()),
  body: z.string().min(1),
});
export type TKbArticle = z.infer<typeof ZKbArticle>;

/**
 * Who an article is written for (decision 034): one that says it is for the clients' staff (an
 * "**Audience:** end users…" / "…all staff" line, or an "end user" / "self-service" tag) is read by
 * everyone; any other is a technician runbook, read by technicians only.
 */
export function audienceOfArticle(article: Pick<TKbArticle, 'body' | 'tags'>): TKnowledgeAudience {
  const audience = /\*\*Audience:\*\*([^\n]*)/i.exec(article.body)?.[1] ?? '';
  const isForStaff = /end users?|staff/i.test(audience) || article.tags.some((tag) => /^(end users?|self-service)$/i.test(tag.trim()));
  return isForStaff ? 'everyone' : 'technicians';
}

/** The demo knowledge base shipped with this module. */
export function loadDemoKbArticles(): TKbArticle[] {
  return readFileSync(new URL('./data/kb-articles.jsonl', import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => ZKbArticle.parse(JSON.parse(line)));
}

/**
 * Adds the articles to the MSP's knowledge base, each once (keyed by "kb:{id}"): a second run adds
 * nothing. Returns how many were added.
 */
export async function seedKbArticles(db: TDatabase, mspId: string, articles: readonly TKbArticle[]): Promise<number> {
  let added = 0;
  for (const article of articles) {
    const text = `${article.body}\n\nTags: ${article.tags.join(', ')}`;
    const id = await insertDocument(
      db,
      mspId,
      {
        kind: 'article',
        title: article.title,
        description: article.subType === null ? article.type : `${article.type} / ${article.subType}`,
        fileName: null,
        contentType: 'text/markdown',
        sizeBytes: Buffer.byteLength(article.body),
        uploadName: null,
        sourceRef: `kb:${article.id}`,
        typeName: article.type,
        subTypeName: article.subType,
        companyExternalId: article.companyId === null ? null : String(article.companyId),
        audience: audienceOfArticle(article),
        uploadedByUserId: null,
      },
      chunkDocument(text, article.title),
    );
    if (id) added += 1;
  }
  return added;
}
