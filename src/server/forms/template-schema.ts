/**
 * GET /api/template/GetTemplateSchema?type=: the schema of the form block (and the newsletter
 * block), the properties an editor sets on the block and the form model it points at.
 */
import { FORM_FIELD_PROPERTIES } from '../../core/enums.js';

const FORM_BLOCK_TYPES = new Set(['form', 'form-block', 'custom-form', 'newsletter', 'newsletter-block']);

export function formSchema(type: string) {
  if (!FORM_BLOCK_TYPES.has(type)) return null;
  const newsletter = type.startsWith('newsletter');
  return {
    type: newsletter ? 'newsletter' : 'form',
    blockProperties: {
      formId: { type: 'string', required: true },
      lightbox: { type: 'boolean', default: false },
      lightboxButtonText: { type: 'string', default: 'Open form' },
    },
    form: {
      id: { type: 'string' },
      name: { type: 'string', required: true },
      fields: { type: 'array', of: 'field' },
      submissionMessage: { type: 'string' },
      postSubmissionHtml: { type: 'html' },
      submitButtonText: { type: 'string', default: newsletter ? 'Sign Up' : 'Submit' },
      disclaimer: { type: 'string' },
      captcha: { enabled: { type: 'boolean', default: true } },
      successRedirect: { type: 'string', default: '' },
    },
    /** Form model tabs: build 1, storage 2, advanced 3, captcha 4, disclaimer 5. */
    tabs: { build: 1, storage: 2, advanced: 3, captcha: 4, disclaimer: 5 },
    fieldTypes: FORM_FIELD_PROPERTIES,
  };
}
