import { countCreate } from '../context';
import type { TSimContext } from '../context';
import { headerValue, idParam, json, route } from '../http';
import type { TRoute, TSimRequest } from '../http';
import type { TSimAttachment } from '../store';
import { CW_API_PREFIX, cwError, cwInfo, cwInvalidObject, cwNotFound, itemResponse, listResponse } from './common';
import type { TCwRecord, TCwValidationError } from './common';

// Documents (`system/documents`, model DocumentInfo): files kept on a record. The simulator keeps them on tickets only
// (recordType Ticket), with their bytes. An upload is multipart/form-data with recordType, recordId, title and the file
// part (form field names bind without regard to case); anything else is 415, as ConnectWise answers on this endpoint.

export function presentDocument(attachment: TSimAttachment): TCwRecord {
  const guid = `00000000-0000-4000-8000-${attachment.id.toString(16).padStart(12, '0')}`;
  return {
    id: attachment.id,
    title: attachment.title,
    fileName: attachment.fileName,
    serverFileName: `${guid}${/\.[^.]+$/.exec(attachment.fileName)?.[0] ?? ''}`,
    owner: 'SimAPI',
    linkFlag: false,
    imageFlag: attachment.contentType.startsWith('image/'),
    publicFlag: false,
    htmlTemplateFlag: false,
    readOnlyFlag: false,
    size: attachment.data.length,
    urlFlag: false,
    guid,
    _info: { ...cwInfo(attachment.createdAt, attachment.createdAt), recordType: 'Ticket', recordId: String(attachment.ticketId) },
  };
}

/** The multipart form of an upload, or null when the body is not one. */
async function readForm(request: TSimRequest): Promise<FormData | null> {
  const contentType = headerValue(request.headers, 'content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType)) return null;
  try {
    return await new Response(new Uint8Array(request.rawBody), { headers: { 'content-type': contentType } }).formData();
  } catch {
    return null;
  }
}

/** A form field by name, whatever its case. */
function formField(form: FormData, name: string): string | File | undefined {
  for (const [key, value] of form.entries()) if (key.toLowerCase() === name.toLowerCase()) return value;
  return undefined;
}

export function connectWiseDocumentRoutes(context: TSimContext): TRoute[] {
  const base = `${CW_API_PREFIX}/system/documents`;
  const invalid = (field: string, message: string, code = 'InvalidField'): TCwValidationError => ({ code, message, resource: 'document', field });
  return [
    route('GET', base, (request) => {
      // recordType and recordId narrow the list to one record's documents (all of them: documents of tickets only here).
      const recordType = request.url.searchParams.get('recordType');
      const recordId = request.url.searchParams.get('recordId');
      const rows = [...context.store.attachments.all()].filter(
        (attachment) => (recordType === null || recordType.toLowerCase() === 'ticket') && (recordId === null || String(attachment.ticketId) === recordId.trim()),
      );
      return listResponse(request, rows.map(presentDocument));
    }),
    route('GET', `${base}/{id}`, (request, params) => {
      const attachment = context.store.attachments.get(idParam(params));
      return attachment ? itemResponse(request, presentDocument(attachment)) : cwNotFound('Document', idParam(params));
    }),
    route('POST', base, async (request) => {
      const form = await readForm(request);
      if (!form) return cwError(415, 'UnsupportedMediaType', 'A document is uploaded as multipart/form-data.');
      const errors: TCwValidationError[] = [];
      const recordType = formField(form, 'recordType');
      if (typeof recordType !== 'string' || recordType.toLowerCase() !== 'ticket') errors.push(invalid('recordType', 'The simulator keeps documents of tickets only (recordType Ticket).'));
      const recordId = formField(form, 'recordId');
      const ticket = typeof recordId === 'string' && /^\d+$/.test(recordId) ? context.store.tickets.get(Number(recordId)) : undefined;
      if (!ticket) errors.push(invalid('recordId', `Ticket ${JSON.stringify(recordId ?? null)} was not found.`, recordId === undefined ? 'MissingRequiredField' : 'InvalidObject'));
      const title = formField(form, 'title');
      if (typeof title !== 'string' || title.trim() === '') errors.push(invalid('title', 'title is required.', 'MissingRequiredField'));
      const file = formField(form, 'file');
      if (!(file instanceof File)) errors.push(invalid('file', 'file is required.', 'MissingRequiredField'));
      if (errors.length > 0 || !ticket || typeof title !== 'string' || !(file instanceof File)) return cwInvalidObject('document', errors);
      const attachment = context.store.attachments.insert({
        ticketId: ticket.id,
        title,
        fileName: file.name,
        contentType: file.type || 'application/octet-stream',
        data: Buffer.from(await file.arrayBuffer()),
        createdAt: context.store.now(),
        via: 'connectwise',
      });
      countCreate(context);
      return json(201, presentDocument(attachment));
    }),
  ];
}
