import { countCreate } from '../context';
import type { TSimContext } from '../context';
import { idParam, isRecord, json, route } from '../http';
import type { TRoute } from '../http';
import type { TSimAttachment } from '../store';
import { AT_API_PREFIX, atDate, atErrors } from './common';
import { API_USER_RESOURCE_ID } from './entities';
import type { TAtRecord } from './common';

// Ticket attachments (`Tickets/{parentId}/Attachments`, TicketAttachmentModel): JSON with the bytes in base64 `data`.
// The simulator takes FILE_ATTACHMENTs of at most 7 MB (Autotask's limit is 6–7 MB per file) and keeps their bytes;
// the collection's GET lists them without `data`, the GET of one carries it.

const MAX_ATTACHMENT_BYTES = 7 * 1024 * 1024;
const CONTENT_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', pdf: 'application/pdf', txt: 'text/plain' };

/** Autotask derives the content type from the file name. */
function contentTypeOf(fileName: string): string {
  return CONTENT_TYPES[/\.([^.]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? ''] ?? 'application/octet-stream';
}

function presentAtAttachment(attachment: TSimAttachment, withData: boolean): TAtRecord {
  const presented: TAtRecord = {
    id: attachment.id,
    parentID: attachment.ticketId,
    parentType: 4,
    attachmentType: 'FILE_ATTACHMENT',
    title: attachment.title,
    fullPath: attachment.fileName,
    contentType: attachment.contentType,
    fileSize: attachment.data.length,
    publish: 1,
    attachDate: atDate(attachment.createdAt),
    attachedByResourceID: API_USER_RESOURCE_ID,
    attachedByContactID: null,
    isTaskAttachment: false,
  };
  if (withData) presented.data = attachment.data.toString('base64');
  return presented;
}

export function autotaskAttachmentRoutes(context: TSimContext): TRoute[] {
  const attachments = `${AT_API_PREFIX}/Tickets/{id}/Attachments`;
  return [
    route('GET', attachments, (_request, params) => {
      const items = context.store.attachmentsOfTicket(idParam(params)).map((attachment) => presentAtAttachment(attachment, false));
      return json(200, { items, pageDetails: { count: items.length, requestCount: 500, prevPageUrl: null, nextPageUrl: null } });
    }),
    route('GET', `${attachments}/{id}`, (_request, params) => {
      const attachment = context.store.attachments.get(idParam(params, 1));
      return json(200, { item: attachment && attachment.ticketId === idParam(params) ? presentAtAttachment(attachment, true) : null });
    }),
    route('POST', attachments, (request, params) => {
      const ticket = context.store.tickets.get(idParam(params));
      if (!ticket) return atErrors(500, 'Value does not reference an existing entity for parentID .');
      const body = request.body;
      if (!isRecord(body)) return atErrors(500, 'The request body must be a JSON object.');
      const errors: string[] = [];
      if (body.id !== undefined && body.id !== null && body.id !== 0) errors.push('id must not be set when creating an Attachment.');
      if (body.parentID !== undefined && body.parentID !== null && body.parentID !== ticket.id) errors.push('parentID does not match the ticket in the URL.');
      if (body.attachmentType !== 'FILE_ATTACHMENT') errors.push('The simulator takes attachmentType FILE_ATTACHMENT only.');
      const title = typeof body.title === 'string' ? body.title.trim() : '';
      if (title === '') errors.push('Missing Required Field: title.');
      const fullPath = typeof body.fullPath === 'string' ? body.fullPath.trim() : '';
      if (fullPath === '') errors.push('Missing Required Field: fullPath.');
      const encoded = typeof body.data === 'string' ? body.data : '';
      const data = Buffer.from(encoded, 'base64');
      if (encoded === '' || !/^[A-Za-z0-9+/]*={0,2}$/.test(encoded)) errors.push('Missing Required Field: data (the file in base64).');
      else if (data.length > MAX_ATTACHMENT_BYTES) errors.push(`The attachment exceeds the maximum size of ${MAX_ATTACHMENT_BYTES} bytes.`);
      if (errors.length > 0) return atErrors(500, ...errors);
      const attachment = context.store.attachments.insert({ ticketId: ticket.id, title, fileName: fullPath, contentType: contentTypeOf(fullPath), data, createdAt: context.store.now(), via: 'autotask' });
      countCreate(context);
      return json(200, { itemId: attachment.id });
    }),
  ];
}
