/**
 * A product's additional-fields form is attached by reference (structuredContent.additionalFieldsFormId,
 * set in /config): wherever the storefront reads a product, the form is read from the forms table and put
 * on structuredContent.additionalFieldsForm, so the lightbox renders the owner's form as it is now and the
 * cart validates answers against it. A form with no fields, or an id
 * naming no form, leaves structuredContent as stored (an inline copy, if any, stays the fallback).
 */

/** SQL text of a structured_content expression with its referenced form merged in (jsonb). */
export function withReferencedForm(scExpr: string, websiteExpr?: string): string {
  return `(${scExpr} || coalesce((select jsonb_build_object('additionalFieldsForm', jsonb_build_object('id', f.id, 'name', f.name, 'fields', f.fields))
    from forms f where f.id = (${scExpr}) ->> 'additionalFieldsFormId'${websiteExpr ? ` and f.website_id = ${websiteExpr}` : ''}
      and jsonb_typeof(f.fields) = 'array' and jsonb_array_length(f.fields) > 0 limit 1), '{}'::jsonb))`;
}
