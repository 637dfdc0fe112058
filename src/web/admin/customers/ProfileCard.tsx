/** The owner's own record of a customer: name, phone, tags and a note, checked by the server's schema. */
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { useQueryClient } from '@tanstack/react-query';
import { api } from '../../client/api.js';
import { useToast } from '../ui/design.js';
import { Field, FieldMessages, describedBy, errorOf, schemaResolver, serverErrorsOnFields } from '../ui/fields.js';
import { customerProfileBody, type CustomerDetail, type CustomerProfileBody } from '../../../core/api/customers.js';
import { customerMessages } from '../../../core/messages.js';

interface ProfileValues {
  name: string;
  phone: string;
  tags: string;
  note: string;
}

const NAMES = ['name', 'phone', 'tags', 'note'] as const;

/** Tags are typed as one comma-separated line. */
const tagsOf = (line: string) =>
  line
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t);

export function ProfileCard({ email, customer }: { email: string; customer: CustomerDetail }) {
  const id = useId();
  const client = useQueryClient();
  const toast = useToast();
  const form = useForm<ProfileValues, unknown, CustomerProfileBody>({
    defaultValues: { ...customer.profile, tags: customer.profile.tags.join(', ') },
    resolver: schemaResolver<ProfileValues, CustomerProfileBody>(
      customerProfileBody,
      () => (v) => ({ body: { email, name: v.name, phone: v.phone, note: v.note, tags: tagsOf(v.tags) }, errors: {} }),
      () => () => NAMES,
    ),
  });
  const submit = form.handleSubmit(async (body) => {
    try {
      await api('PUT', '/api/admin/customers/profile', body);
      form.reset({ name: body.name, phone: body.phone, note: body.note, tags: body.tags.join(', ') });
      toast(customerMessages.SAVED);
      await client.invalidateQueries({ queryKey: ['customer', email] });
    } catch (e) {
      serverErrorsOnFields(form, e, NAMES);
    }
  });
  const noteErr = errorOf(form, 'note');
  return (
    <section className="a-card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Details</h2>
      <form className="a-form" aria-labelledby={`${id}-h`} onSubmit={(e) => void submit(e)} noValidate>
        <Field form={form} name="name" label="Name" autoComplete="off" hint={customer.profile.name ? undefined : customer.name} />
        <Field form={form} name="phone" label="Phone" type="tel" autoComplete="off" />
        <Field form={form} name="tags" label="Tags" hint="Separate tags with commas, e.g. wholesale, VIP." />
        <div>
          <label htmlFor={`${id}-note`}>Note</label>
          <textarea
            id={`${id}-note`}
            rows={4}
            aria-invalid={noteErr ? true : undefined}
            aria-describedby={describedBy(`${id}-note`, undefined, noteErr)}
            {...form.register('note')}
          />
          <FieldMessages id={`${id}-note`} error={noteErr} />
        </div>
        {form.formState.errors.root ? <p role="alert">{form.formState.errors.root.message}</p> : null}
        <button type="submit" disabled={form.formState.isSubmitting}>
          Save customer
        </button>
      </form>
    </section>
  );
}
