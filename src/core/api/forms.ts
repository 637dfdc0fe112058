/**
 * Forms: the visitor's submission, the owner's form builder body and the form as the owner's list
 * answers it, the public view of a form the form island gets, and the save answer.
 */
import { z } from 'zod';
import { FormFieldType } from '../enums.js';
import { FORM_LIST_ID_MAX, type FormField } from '../forms.js';
import { engagement as em } from '../messages.js';

const str = (max: number) => z.string().max(max);

const pageFields = {
  pageTitle: str(500).optional(),
  pageId: str(64).optional(),
  contentSource: z.enum(['i', 'c']).optional(),
  pagePath: str(1000).optional(),
  pagePermissionTypeValue: z.union([z.string().max(20), z.number()]).optional(),
  language: str(35).optional(),
};

/** POST /api/form/SaveFormSubmission. */
export const formSubmissionIn = z.object(
  {
    formId: str(64).optional(),
    key: str(200).optional(),
    form: z.unknown().optional(),
    captchaKey: str(8000).optional(),
    honeypot: str(2000).optional(),
    visitorCookie: str(200).optional(),
    ...pageFields,
  },
  { error: 'The request body must be a JSON object.' },
);

const fieldTypes = Object.values(FormFieldType) as [string, ...string[]];
export const formFieldIn = z.object({
  id: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'Field ids may use letters, digits, - and _.'),
  type: z.enum(fieldTypes),
  title: str(300).optional(),
  description: str(2000).optional(),
  required: z.boolean().optional(),
  placeholder: str(300).optional(),
  maxLength: z.number().int().min(1).max(20_000).nullable().optional(),
  options: z.array(str(300)).max(100).optional(),
  key: str(100).optional(),
  value: str(2000).optional(),
  showCountryCode: z.boolean().optional(),
  underline: z.boolean().optional(),
  currencySymbol: str(8).optional(),
});

/** POST /api/config/forms and PUT /api/config/forms/:id. */
export const formIn = z.object(
  {
    id: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9_-]+$/)
      .optional(),
    name: z.string().trim().min(1, 'Name is required.').max(200),
    kind: z.enum(['form', 'newsletter']).default('form'),
    fields: z.array(formFieldIn).max(200),
    submitButtonText: str(100).default('Submit'),
    submissionMessage: str(5000).default('Thank you!'),
    postSubmissionHtml: str(20_000).default(''),
    successRedirect: z
      .string()
      .max(1000)
      .refine((v) => v === '' || /^(https?:\/\/|\/(?!\/))/.test(v), 'The success redirect must be a path or an http(s) address.')
      .default(''),
    disclaimer: str(5000).default(''),
    storage: z
      .object({
        email: z.union([z.email('Enter a valid notification email.'), z.literal('')]).optional(),
        notify: z.boolean().optional(),
        /** Newsletter forms: the mailing list sign-ups join (null or blank: the site's default list). */
        listId: z.string().trim().max(FORM_LIST_ID_MAX, em.LIST_NOT_FOUND).nullable().optional(),
      })
      .default({}),
    captcha: z.object({ enabled: z.boolean().optional() }).default({}),
    advanced: z.object({ lightbox: z.boolean().optional(), lightboxButtonText: str(100).optional() }).default({}),
  },
  { error: 'The request body must be a JSON object.' },
);
export type FormSubmissionInput = z.input<typeof formSubmissionIn>;
export type FormInput = z.input<typeof formIn>;

/** A form as the owner's builder lists and edits it (the counts only in the list). */
export type FormAdminRow = Omit<z.output<typeof formIn>, 'id' | 'fields'> & {
  id: string;
  fields: FormField[];
  inboxCount?: number;
  spamCount?: number;
};

/** The public view of a form (what the browser gets): no notification address. */
export interface PublicForm {
  id: string;
  name: string;
  kind: 'form' | 'newsletter';
  fields: FormField[];
  submitButtonText: string;
  submissionMessage: string;
  postSubmissionHtml: string;
  successRedirect: string;
  disclaimer: string;
  captcha: boolean;
  lightbox: boolean;
  lightboxButtonText: string;
}

/** The answer of a saved submission. */
export interface SaveOk {
  success: true;
  submissionId: string;
  submissionMessage?: string;
  successRedirect?: string;
}
