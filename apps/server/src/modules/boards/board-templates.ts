import { readFileSync } from 'node:fs';
import { ZBoardTemplate, type TBoardTemplate } from '@switchboard/contracts';

/** The board templates A-023 serves, by name; 01 §7 names one: 'default-et7-board-template'. */
export const DEFAULT_BOARD_TEMPLATE_ID = 'default-et7-board-template';

export interface TBoardTemplateEntry extends TBoardTemplate {
  templateId: string;
  about: string;
}

function loadTemplate(templateId: string): TBoardTemplateEntry {
  const raw: unknown = JSON.parse(readFileSync(new URL(`./templates/${templateId}.json`, import.meta.url), 'utf8'));
  const about = typeof raw === 'object' && raw !== null && 'about' in raw && typeof raw.about === 'string' ? raw.about : '';
  return { ...ZBoardTemplate.parse(raw), templateId, about };
}

// Read and checked once at start-up: a broken template file stops the server instead of failing a request.
const TEMPLATES = new Map<string, TBoardTemplateEntry>([[DEFAULT_BOARD_TEMPLATE_ID, loadTemplate(DEFAULT_BOARD_TEMPLATE_ID)]]);

export function findBoardTemplate(templateId: string): TBoardTemplateEntry | undefined {
  return TEMPLATES.get(templateId.toLowerCase());
}
