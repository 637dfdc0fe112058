/**
 * The post editor's side panel when no block is selected (issue 27): the post's own fields beside its body.
 * Title, cover image (uploaded through the editor's upload pipeline), excerpt, tags and categories (their
 * lengths checked with core's validators before the server checks them again), author and comments. They save
 * with the post's version, after any body save under way, through `onSave`.
 */
import { useState, type FormEvent } from 'react';
import { categoryListErrors, tagListErrors } from '../../../../core/content.js';
import { formatDateTime } from './post-time.js';
import { AreaField, CheckField, TextField } from './fields.js';
import { UploadField } from './BlockForm.js';
import type { PostFields } from './api.js';

export type PostFieldValues = Omit<PostFields, 'collectionId' | 'urlId'>;

const list = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

export function PostPanel({
  post,
  timeZone,
  busy,
  onSave,
}: {
  post: PostFields;
  timeZone: string;
  busy: boolean;
  onSave: (fields: PostFieldValues) => Promise<Record<string, string> | null>;
}) {
  const [title, setTitle] = useState(post.title);
  const [excerpt, setExcerpt] = useState(post.excerpt);
  const [author, setAuthor] = useState(post.author);
  const [tags, setTags] = useState(post.tags.join(', '));
  const [categories, setCategories] = useState(post.categories.join(', '));
  const [comments, setComments] = useState(post.commentState === 1);
  const [cover, setCover] = useState(post.cover);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const firstError = (prefix: string) => Object.entries(errors).find(([k]) => k === prefix || k.startsWith(`${prefix}.`))?.[1];

  async function submit(e: FormEvent) {
    e.preventDefault();
    const t = list(tags);
    const c = list(categories);
    const local = { ...(title.trim() ? {} : { title: 'Enter a title.' }), ...tagListErrors(t), ...categoryListErrors(c) };
    setErrors(local);
    if (Object.keys(local).length) return;
    const refused = await onSave({
      title: title.trim(),
      excerpt,
      author,
      tags: t,
      categories: c,
      status: post.status,
      publishOn: post.publishOn,
      commentState: comments ? 1 : 0,
      cover,
    });
    setErrors(refused ?? {});
  }

  return (
    <form onSubmit={submit} aria-labelledby="ed-panel-title" noValidate>
      <h2 id="ed-panel-title">Post</h2>
      <TextField label="Post title" value={title} onChange={setTitle} required error={firstError('title')} />
      <div className="ed-field">
        <span className="ed-rt__label">Cover image</span>
        {cover ? (
          <>
            <img src={`${cover.assetUrl}?format=300w`} alt="" className="ed-cover" />
            <TextField
              label="Cover image description (alt text)"
              value={cover.altText}
              onChange={(v) => setCover({ ...cover, altText: v })}
            />
            <button type="button" onClick={() => setCover(null)}>
              Remove cover image
            </button>
          </>
        ) : (
          <small>No cover image.</small>
        )}
        {firstError('cover') ? <small className="ed-error">{firstError('cover')}</small> : null}
      </div>
      <UploadField
        label={cover ? 'Replace cover image' : 'Upload a cover image'}
        accept="image/*"
        onUploaded={(u) => {
          if (u.kind === 'image' && u.status === 'ready')
            setCover({ assetUrl: u.url, altText: cover?.altText ?? '', originalSize: u.originalSize });
        }}
      />
      <AreaField
        label="Excerpt"
        value={excerpt}
        onChange={setExcerpt}
        rows={3}
        hint="Shown in the journal list and in search results."
        error={firstError('excerpt')}
      />
      <TextField label="Tags" value={tags} onChange={setTags} hint="Separate tags with commas." error={firstError('tags')} />
      <TextField
        label="Categories"
        value={categories}
        onChange={setCategories}
        hint="Separate categories with commas."
        error={firstError('categories')}
      />
      <TextField label="Author" value={author} onChange={setAuthor} error={firstError('author')} />
      <CheckField label="Allow comments" checked={comments} onChange={setComments} />
      <p>
        {post.status === 'scheduled' ? 'Publishes' : post.status === 'published' ? 'Published' : 'Publish date'}:{' '}
        {formatDateTime(post.publishOn, timeZone)} ({timeZone})
      </p>
      <button type="submit" disabled={busy}>
        Save post details
      </button>
    </form>
  );
}
