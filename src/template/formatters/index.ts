/** Every formatter, by name, grouped by domain. */
import type { FormatterFn } from '../types';
import { CORE_FORMATTERS } from './core';
import { DATE_FORMATTERS } from './date';
import { COMMERCE_FORMATTERS } from './commerce';
import { I18N_FORMATTERS } from './i18n';
import { CONTENT_FORMATTERS } from './content';
import { SOCIAL_FORMATTERS } from './social';

/** Names the platform reserves but does not implement: they leave the value unchanged. */
const NOOP: FormatterFn = (v) => v;
const NOT_IMPLEMENTED = ['datetimefield', 'i18n-money-format', 'money-format', 'money-string', 'moneyFormat', 'unit'];

export const FORMATTERS: Record<string, FormatterFn> = Object.assign(
  Object.create(null),
  COMMERCE_FORMATTERS,
  CONTENT_FORMATTERS,
  CORE_FORMATTERS,
  DATE_FORMATTERS,
  I18N_FORMATTERS,
  Object.fromEntries(NOT_IMPLEMENTED.map((n) => [n, NOOP])),
  SOCIAL_FORMATTERS,
);
