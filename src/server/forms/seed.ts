/** The demo forms: the Contact page's form, a newsletter form and a lightbox form. Safe to run twice. */
import type { Database, Db, Tx } from '../../db/index.js';
import { schema } from '../../db/index.js';
import type { FormField } from '../../core/forms.js';

export const CONTACT_FORM_ID = 'contact-form';
export const NEWSLETTER_FORM_ID = 'newsletter-form';
export const LIGHTBOX_FORM_ID = 'lightbox-form';

export const CONTACT_FIELDS: FormField[] = [
  { id: 'name', type: 'name', title: 'Name', required: true },
  { id: 'email', type: 'email', title: 'Email', required: true, placeholder: 'you@example.com' },
  { id: 'topic', type: 'select', title: 'Topic', options: ['Order', 'Product question', 'Something else'] },
  { id: 'message', type: 'textarea', title: 'Message', required: true, maxLength: 500, description: 'How can we help?' },
  { id: 'source', type: 'hidden', title: 'source', key: 'source', value: 'website' },
];

/** Takes the Database, or a db/transaction handle (so seedDemo can call it inside its transaction). */
export async function seedForms(database: Database | Db | Tx, websiteId: string): Promise<void> {
  const db = 'close' in database && 'kind' in database ? (database as Database).db : (database as Db | Tx);
  await db
    .insert(schema.forms)
    .values([
      {
        id: CONTACT_FORM_ID,
        websiteId,
        name: 'Contact us',
        kind: 'form',
        fields: CONTACT_FIELDS,
        submitButtonText: 'Send',
        submissionMessage: 'Thank you! We will get back to you soon.',
        disclaimer: 'We only use your details to answer your message.',
        captcha: { enabled: true },
      },
      {
        id: NEWSLETTER_FORM_ID,
        websiteId,
        name: 'Newsletter',
        kind: 'newsletter',
        fields: [{ id: 'email', type: 'email', title: 'Email Address', required: true, placeholder: 'Email Address' }],
        submitButtonText: 'Sign Up',
        submissionMessage: 'Thank you for signing up!',
        captcha: { enabled: true },
      },
      {
        id: LIGHTBOX_FORM_ID,
        websiteId,
        name: 'Request a callback',
        kind: 'form',
        fields: [
          { id: 'name', type: 'text', title: 'Your name', required: true },
          { id: 'phone', type: 'phone', title: 'Phone', required: true },
        ],
        submitButtonText: 'Call me back',
        submissionMessage: 'Thanks, we will call you shortly.',
        captcha: { enabled: true },
        advanced: { lightbox: true, lightboxButtonText: 'Request a callback' },
      },
    ])
    .onConflictDoNothing();
}
