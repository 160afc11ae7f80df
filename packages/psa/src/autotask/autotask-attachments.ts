import { z } from 'zod';
import { sameAttachmentIn } from '../attachments';
import { lookUpFirst } from '../http/create-options';
import { parsePsaPayload } from '../http/parse';
import type { TAddPsaAttachment, TPsaAttachment } from '../psa-client';
import { checkId } from '../record-id';
import type { AutotaskApi } from './autotask-api';

// Ticket attachments are the child entity `Tickets/{parentId}/Attachments` (TicketAttachmentModel in the REST swagger):
// a create is JSON with the bytes in `data` (base64); a file may be 6–7 MB at most and an API user 10,000,000 bytes per
// 5 minutes (Autotask's REST thresholds, psa-apis.md). The GET of the child collection answers `{items, pageDetails}`
// like the other child collections; a ticket's files fit in one page.

const ZAttachmentRow = z.object({
  id: z.number().int(),
  title: z.string().nullish(),
  fullPath: z.string().nullish(),
  fileSize: z.number().nullish(),
});
const ZAttachmentPage = z.object({ items: z.array(ZAttachmentRow) });

/** A FILE_ATTACHMENT's `fullPath` is its file name (a URL attachment's is the link); `fileSize` is in bytes. */
const toAttachment = (row: z.infer<typeof ZAttachmentRow>): TPsaAttachment => ({ id: row.id, fileName: row.fullPath ?? row.title ?? '', size: row.fileSize ?? 0 });

/** The ticket's attachments, oldest first. */
export async function listAttachments(api: AutotaskApi, ticketId: number): Promise<TPsaAttachment[]> {
  const page = await api.get(`/Tickets/${checkId(ticketId)}/Attachments`, (body) => parsePsaPayload(ZAttachmentPage, body, 'attachment list'));
  return page.items.map(toAttachment).sort((a, b) => a.id - b.id);
}

/** `POST Tickets/{id}/Attachments`, published to all Autotask users (publish 1); an unknown outcome is found by name and size. */
export async function addAttachment(api: AutotaskApi, ticketId: number, input: TAddPsaAttachment): Promise<TPsaAttachment> {
  const id = checkId(ticketId);
  const body = {
    id: 0,
    parentID: id,
    attachmentType: 'FILE_ATTACHMENT',
    fullPath: input.fileName,
    title: input.fileName,
    data: Buffer.from(input.data.buffer, input.data.byteOffset, input.data.byteLength).toString('base64'),
    publish: 1,
  };
  const attachmentId = await api.create(`/Tickets/${id}/Attachments`, body, async () => sameAttachmentIn(await listAttachments(api, id), input)?.id ?? null, lookUpFirst);
  return { id: attachmentId, fileName: input.fileName, size: input.data.byteLength };
}
