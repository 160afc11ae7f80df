import { sameAttachmentIn } from '../attachments';
import { lookUpFirst } from '../http/create-options';
import type { TAddPsaAttachment, TPsaAttachment } from '../psa-client';
import { checkId } from '../record-id';
import type { ConnectWiseApi } from './connectwise-api';
import * as map from './connectwise-mappers';

// ConnectWise keeps a ticket's files as documents of the record (`system/documents`, model DocumentInfo). The vendor
// reference in shared/reference does not cover this area; what the code relies on comes from public clients of the API:
// - the upload is a multipart/form-data POST to system/documents with the form fields recordType ("Ticket"), recordId,
//   title and the file part with its file name (the field names of the widely copied PowerShell examples of the documents
//   API; one client capitalises them — not checked against a live ConnectWise here, only against the simulator);
// - GET system/documents takes recordType and recordId as query parameters (ConnectWiseManageAPI issue #21);
// - a DocumentInfo carries id, title, fileName and size in bytes (the generated PHP and Python clients' models);
// - the documents endpoint answers 415 to a body that is not multipart (the vendor's list of status codes, psa-apis.md).
const documents = '/system/documents';

/** The ticket's documents, oldest first. */
export function listAttachments(api: ConnectWiseApi, ticketId: number): Promise<TPsaAttachment[]> {
  return api.list(documents, map.toAttachment, { params: { recordType: 'Ticket', recordId: checkId(ticketId) } });
}

/** Uploads the file as a document of the ticket, titled by its file name; an unknown outcome is found by name and size. */
export function addAttachment(api: ConnectWiseApi, ticketId: number, input: TAddPsaAttachment): Promise<TPsaAttachment> {
  const id = checkId(ticketId);
  const form = new FormData();
  form.set('recordType', 'Ticket');
  form.set('recordId', String(id));
  form.set('title', input.fileName);
  // A copy on an ArrayBuffer of its own: a Blob takes no view of a shared buffer.
  form.set('file', new Blob([new Uint8Array(input.data)], { type: input.contentType }), input.fileName);
  return api.create(documents, form, map.toAttachment, async () => sameAttachmentIn(await listAttachments(api, id), input), lookUpFirst);
}
