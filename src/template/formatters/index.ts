/** Every formatter, by name, grouped by domain. */
import type { FormatterFn } from '../types';
import { CORE_FORMATTERS } from './core';

export const FORMATTERS: Record<string, FormatterFn> = Object.assign(Object.create(null), {
  ...CORE_FORMATTERS,
});
