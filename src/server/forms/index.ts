import type { FastifyInstance } from 'fastify';
import { captchaRoutes } from '../captcha/index.js';
import { formRoutes } from './routes.js';

export { formHtml, formIslandProps } from './render.js';
export { configureForms } from './service.js';

/** The forms area: the captcha challenge, the form calls, the plain form post and the owner's form builder and inbox. */
export async function formsArea(app: FastifyInstance): Promise<void> {
  await captchaRoutes(app);
  await formRoutes(app);
}
export {
  type FormRow,
  type FormSaveCheck,
  formSaveChecks,
  type FormSubmittedHook,
  formSubmittedHooks,
  notificationMail,
} from './service.js';
