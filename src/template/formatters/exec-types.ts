import type { TemplateError } from '../errors';
export type { RootInst } from '../types';
export type TemplateErrorList = TemplateError[];
