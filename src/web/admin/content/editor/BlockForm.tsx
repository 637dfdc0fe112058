/** The side panel: a form for the selected block's content, one layout per block type. */
import { useEffect, useId, useRef, useState, useSyncExternalStore, type ReactElement } from 'react';
import { BlockType } from '../../../../core/enums.js';
import {
  blockKind,
  blockLabel,
  chartDataset,
  isRenderedBlock,
  MAX_DONATION_AMOUNTS,
  variantName,
  type Block,
} from '../../../../core/layout.js';
import { contentLimits, editor as editorMessages, pageEditor } from '../../../../core/messages.js';
import { MAX_ALBUM_TRACKS } from '../../../../core/constants.js';
import { formatMoney, toMinorUnits } from '../../../../core/money.js';
import { formatFileSize } from '../../../../core/time.js';
import { htmlText, readTextBlock, richTextStore, setRichText, writeTextBlock, kindName } from './blocks.js';
import { CodeEditingUnavailable, useAndroid } from '../../ui/code-editing.js';
import { AreaField, CheckField, Fieldset, SelectField, TextField } from './fields.js';
import { ApiError, listUploads, uploadFile, type PagesList, type Upload } from './api.js';

export interface BlockFormProps {
  block: Block;
  /** Problems of this block's data, by path under `data` ('link', 'plans.0.name'). */
  errors: Record<string, string>;
  warnings: string[];
  lists: Pick<PagesList, 'products' | 'forms' | 'collections'>;
  /** The lists could not be loaded: the pickers say so and offer Try again (onReloadLists). */
  listsFailed?: boolean;
  onReloadLists?: () => void;
  /** A change of the block's data (and variant); `key` groups keystrokes of one field into one undo step. */
  onChange: (data: Record<string, unknown>, key: string, variant?: number | null) => void;
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
type Obj = Record<string, unknown>;
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);
const s = (v: unknown) => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));

/** A file input that uploads at once and reports the upload messages of core/messages.ts. */
export function UploadField({
  label,
  accept,
  onUploaded,
  multiple,
}: {
  label: string;
  accept: string;
  onUploaded: (u: Upload) => void;
  multiple?: boolean;
}) {
  const [state, setState] = useState<{ busy: boolean; error: string; done: string }>({ busy: false, error: '', done: '' });
  const id = useId();
  // The upload under way, so the owner can cancel it ('File processing cancelled').
  const running = useRef<AbortController | null>(null);
  return (
    <div className="ed-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="file"
        accept={accept}
        multiple={multiple}
        onChange={async (e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = '';
          if (!files.length) return;
          setState({ busy: true, error: '', done: '' });
          const controller = new AbortController();
          running.current = controller;
          let error = '';
          let done = '';
          for (const f of files) {
            if (controller.signal.aborted) break;
            try {
              const u = await uploadFile(f, controller.signal);
              onUploaded(u);
              done = `Uploaded ${u.name}`;
            } catch (err) {
              if (controller.signal.aborted) break;
              // The call's own words (the server's, or the upload's and its job's failures); anything else is 'Error uploading'.
              const m = err instanceof ApiError && err.message ? err.message : editorMessages.ERROR_UPLOADING;
              error = `${editorMessages.UPLOAD_TITLE}: ${m}`;
            }
          }
          running.current = null;
          setState({ busy: false, error, done: controller.signal.aborted ? editorMessages.FILE_PROCESSING_CANCELLED : done });
        }}
      />
      {state.busy ? (
        <>
          <small role="status">Uploading…</small>{' '}
          <button type="button" onClick={() => running.current?.abort()}>
            Cancel upload
          </button>
        </>
      ) : null}
      {!state.busy && state.done && !state.error ? <small role="status">{state.done}</small> : null}
      {state.error ? (
        <small role="alert" className="ed-error">
          {state.error}
        </small>
      ) : null}
    </div>
  );
}

/** A picker of images uploaded before (the site's file library). */
function UploadedImages({ value, onPick }: { value: string; onPick: (u: Upload) => void }) {
  const [images, setImages] = useState<Upload[] | null>(null);
  const [failed, setFailed] = useState(false);
  const load = () => {
    setFailed(false);
    listUploads().then(
      (r) => setImages(r.uploads.filter((u) => u.kind === 'image' && u.status === 'ready')),
      () => setFailed(true),
    );
  };
  useEffect(load, []);
  if (failed) {
    return (
      <p className="ed-error">
        {editorMessages.UNABLE_TO_LOAD_RESULTS}{' '}
        <button type="button" onClick={load}>
          {editorMessages.TRY_AGAIN}
        </button>
      </p>
    );
  }
  if (!images || images.length === 0) return null;
  return (
    <SelectField
      label="Or choose an uploaded image"
      value={images.some((u) => u.url === value) ? value : ''}
      onChange={(url) => {
        const u = images.find((x) => x.url === url);
        if (u) onPick(u);
      }}
      options={[
        { value: '', label: 'Choose an image' },
        ...images.map((u) => ({ value: u.url, label: `${u.name} (${formatFileSize(u.bytes)})` })),
      ]}
    />
  );
}

export function BlockForm({ block, errors, warnings, lists, listsFailed = false, onReloadLists, onChange }: BlockFormProps) {
  const d = block.data;
  const android = useAndroid();
  /** A picker whose list did not load: the message and Try again in place of the choices. */
  const listFailed = (message: string) => (
    <p role="alert" className="ed-error">
      {message}{' '}
      <button type="button" onClick={onReloadLists}>
        {editorMessages.TRY_AGAIN}
      </button>
    </p>
  );
  const set = (k: string, v: unknown) => onChange({ ...d, [k]: v }, k);
  const text = (k: string, label: string, opts: { required?: boolean; hint?: string; type?: string } = {}) => (
    <TextField
      label={label}
      value={s(d[k])}
      onChange={(v) => set(k, v)}
      error={errors[k]}
      required={opts.required}
      hint={opts.hint}
      type={opts.type}
    />
  );
  const area = (k: string, label: string, rows = 4) => (
    <AreaField label={label} value={s(d[k])} onChange={(v) => set(k, v)} error={errors[k]} rows={rows} />
  );
  const check = (k: string, label: string) => <CheckField label={label} checked={d[k] === true} onChange={(v) => set(k, v)} />;
  const choose = (k: string, label: string, options: ReadonlyArray<{ value: string; label: string }>) => (
    <SelectField label={label} value={s(d[k])} onChange={(v) => set(k, v)} options={options} error={errors[k]} />
  );
  const words = (...xs: string[]) => xs.map((x) => ({ value: x, label: cap(x) }));
  const listEdit = (k: string, i: number, patch: Obj) => {
    const items = arr(d[k]).slice();
    items[i] = { ...items[i], ...patch };
    onChange({ ...d, [k]: items }, `${k}.${i}.${Object.keys(patch).join(',')}`);
  };
  const listRemove = (k: string, i: number) => onChange({ ...d, [k]: arr(d[k]).filter((_, n) => n !== i) }, `${k}.remove`);
  const listAdd = (k: string, item: Obj) => onChange({ ...d, [k]: [...arr(d[k]), item] }, `${k}.add`);

  const kind = blockKind(block.type);
  const variantSelect =
    kind && kind.variants.length > 0 ? (
      <SelectField
        label="Design"
        value={String(block.variant ?? kind.variants[0])}
        onChange={(v) => onChange(d, 'variant', Number(v))}
        options={kind.variants.map((c) => ({ value: String(c), label: cap(variantName(c) ?? blockLabel(c)) }))}
      />
    ) : null;

  let body: ReactElement;
  switch (block.type) {
    case BlockType.HTML:
      body = (
        <TextBlockForm blockId={block.id} html={s(d.html)} error={errors.html} onChange={(html, key) => onChange({ ...d, html }, key)} />
      );
      break;
    case BlockType.MARKDOWN:
      body = area('markdown', 'Markdown', 8);
      break;
    case BlockType.IMAGE:
      body = (
        <>
          {variantSelect}
          <UploadField
            label="Upload image"
            accept="image/jpeg,image/png,image/webp,image/gif"
            onUploaded={(u) =>
              onChange(
                { ...d, assetUrl: u.url, originalSize: u.originalSize ?? '', altText: s(d.altText) || u.name.replace(/\.[a-z0-9]+$/i, '') },
                'upload',
              )
            }
          />
          <UploadedImages
            value={s(d.assetUrl)}
            onPick={(u) =>
              onChange(
                { ...d, assetUrl: u.url, originalSize: u.originalSize ?? '', altText: s(d.altText) || u.name.replace(/\.[a-z0-9]+$/i, '') },
                'upload',
              )
            }
          />
          {text('assetUrl', 'Image address', { hint: 'An uploaded image, or an https:// address.' })}
          {text('altText', 'Alt text', { hint: 'Describes the image for people who cannot see it.' })}
          {text('title', 'Title')}
          {area('body', 'Caption', 3)}
          {text('link', 'Image link', { hint: 'Such as /shop or https://www.example.com' })}
          {text('linkLabel', 'Link label')}
        </>
      );
      break;
    case BlockType.GALLERY:
      body = (
        <>
          {variantSelect}
          <UploadField
            label="Add images"
            multiple
            accept="image/jpeg,image/png,image/webp,image/gif"
            onUploaded={(u) =>
              listAdd('images', {
                assetUrl: u.url,
                altText: u.name.replace(/\.[a-z0-9]+$/i, ''),
                originalSize: u.originalSize ?? '',
                title: '',
              })
            }
          />
          {arr(d.images).map((im, i) => (
            <Fieldset key={i} legend={`Image ${i + 1}`}>
              <TextField
                label="Alt text"
                value={s(im.altText)}
                onChange={(v) => listEdit('images', i, { altText: v })}
                error={errors[`images.${i}.altText`]}
              />
              <TextField label="Title" value={s(im.title)} onChange={(v) => listEdit('images', i, { title: v })} />
              <button type="button" onClick={() => listRemove('images', i)}>
                Remove image {i + 1}
              </button>
            </Fieldset>
          ))}
          {check('lightbox', 'Open images in a lightbox')}
          {check('autoplay', 'Play the slideshow automatically')}
        </>
      );
      break;
    case BlockType.BUTTON:
      body = (
        <>
          {text('label', 'Button label', { required: true })}
          {text('link', 'Button link', { hint: 'A page such as /shop, or https://www.example.com' })}
          {choose('style', 'Style', words('primary', 'secondary', 'tertiary'))}
          {choose('size', 'Size', words('small', 'medium', 'large'))}
          {choose('align', 'Alignment', words('left', 'center', 'right'))}
          {check('newWindow', 'Open the link in a new window')}
        </>
      );
      break;
    case BlockType.QUOTE:
      body = (
        <>
          {area('text', 'Quote')}
          {text('source', 'Source')}
        </>
      );
      break;
    case BlockType.CODE:
      body = (
        <>
          {android ? <CodeEditingUnavailable /> : area('code', 'Code', 8)}
          {text('language', 'Language')}
          {check('raw', 'Use as raw HTML on the site (otherwise shown as code)')}
        </>
      );
      break;
    case BlockType.EMBED:
      body = (
        <>
          {text('url', 'Embed address')}
          {text('title', 'Title')}
        </>
      );
      break;
    case BlockType.VIDEO:
    case BlockType.AUDIO:
      body = (
        <>
          <UploadField
            label={block.type === BlockType.VIDEO ? 'Upload video' : 'Upload audio'}
            accept={block.type === BlockType.VIDEO ? 'video/mp4,video/webm,video/quicktime' : 'audio/mpeg,audio/mp4,audio/wav,audio/ogg'}
            onUploaded={(u) => onChange({ ...d, url: u.url }, 'upload')}
          />
          {text('url', block.type === BlockType.VIDEO ? 'Video address (a file, YouTube or Vimeo)' : 'Audio address')}
          {text('title', 'Title')}
          {block.type === BlockType.VIDEO ? text('caption', 'Caption') : text('artist', 'Artist')}
        </>
      );
      break;
    case BlockType.ALBUM: {
      // An audio playlist of at most MAX_ALBUM_TRACKS tracks (the server refuses more with the same words).
      const tracks = arr(d.tracks);
      const full = tracks.length >= MAX_ALBUM_TRACKS;
      body = (
        <>
          {text('title', 'Album title')}
          {text('artist', 'Artist')}
          {errors.tracks ? (
            <p role="alert" className="ed-error">
              {errors.tracks}
            </p>
          ) : null}
          {tracks.map((t, i) => (
            <Fieldset key={i} legend={`Track ${i + 1}`}>
              <TextField
                label={`Track ${i + 1} title`}
                value={s(t.title)}
                onChange={(v) => listEdit('tracks', i, { title: v })}
                error={errors[`tracks.${i}.title`]}
                required
              />
              <UploadField
                label={`Upload audio for track ${i + 1}`}
                accept="audio/mpeg,audio/mp4,audio/wav,audio/ogg"
                onUploaded={(u) => listEdit('tracks', i, { url: u.url })}
              />
              <TextField
                label={`Track ${i + 1} audio address`}
                value={s(t.url)}
                onChange={(v) => listEdit('tracks', i, { url: v })}
                error={errors[`tracks.${i}.url`]}
                required
              />
              <button type="button" onClick={() => listRemove('tracks', i)}>
                Remove track {i + 1}
              </button>
            </Fieldset>
          ))}
          <button type="button" disabled={full} onClick={() => listAdd('tracks', { title: `Track ${tracks.length + 1}`, url: '' })}>
            Add track
          </button>
          {full ? <p role="status">{contentLimits.albumTrackLimit(MAX_ALBUM_TRACKS)}</p> : null}
        </>
      );
      break;
    }
    case BlockType.MAP:
      body = (
        <>
          {text('title', 'Title')}
          {area('address', 'Address', 3)}
          {text('lat', 'Latitude')}
          {text('lng', 'Longitude')}
          {text('zoom', 'Zoom (1 to 20)')}
        </>
      );
      break;
    case BlockType.FORM:
      body = listsFailed
        ? listFailed(editorMessages.UNABLE_TO_LOAD_RESULTS)
        : choose('formId', 'Form', [{ value: '', label: 'Choose a form' }, ...lists.forms.map((f) => ({ value: f.id, label: f.name }))]);
      break;
    case BlockType.NEWSLETTER:
      body = (
        <>
          {text('title', 'Title')}
          {area('description', 'Description', 3)}
          {text('buttonLabel', 'Button label')}
          {/* The mailing list is chosen through its newsletter form; none chosen: 'A List must be selected'. */}
          {listsFailed
            ? listFailed(editorMessages.UNABLE_TO_LOAD_RESULTS)
            : choose('formId', 'Mailing list', [
                { value: '', label: 'Choose a list' },
                ...lists.forms.filter((f) => f.kind === 'newsletter' || f.id === d.formId).map((f) => ({ value: f.id, label: f.name })),
              ])}
          {/* Without a mailing list the block has nothing to sign visitors up to. */}
          {listsFailed || lists.forms.some((f) => f.kind === 'newsletter') ? null : <p role="alert">{editorMessages.NO_MAILING_LISTS}</p>}
        </>
      );
      break;
    case BlockType.PRODUCT:
      // The products come with the site's collections (stores): the same list load.
      body = listsFailed
        ? listFailed(editorMessages.UNABLE_TO_LOAD_COLLECTIONS)
        : choose('productId', 'Product', [
            { value: '', label: 'Choose a product' },
            ...lists.products.map((p) => ({ value: p.id, label: p.title })),
          ]);
      break;
    case BlockType.SUMMARY_V2:
      body = (
        <>
          {variantSelect}
          {listsFailed
            ? listFailed(editorMessages.UNABLE_TO_LOAD_COLLECTIONS)
            : choose('collectionId', 'Collection', [
                { value: '', label: 'Choose a collection' },
                ...lists.collections.map((c) => ({ value: c.id, label: c.title })),
              ])}
          {text('title', 'Title')}
          {text('limit', 'Number of items (1 to 30)')}
          {check('showExcerpt', 'Show excerpts')}
        </>
      );
      break;
    case BlockType.ACCORDION:
      body = (
        <>
          {arr(d.items).map((it, i) => (
            <Fieldset key={i} legend={`Item ${i + 1}`}>
              <TextField
                label="Title"
                value={s(it.title)}
                onChange={(v) => listEdit('items', i, { title: v })}
                error={errors[`items.${i}.title`]}
                required
              />
              <AreaField
                label="Text"
                value={s(it.body)}
                onChange={(v) => listEdit('items', i, { body: v })}
                error={errors[`items.${i}.body`]}
                rows={3}
              />
              <button type="button" onClick={() => listRemove('items', i)}>
                Remove item {i + 1}
              </button>
            </Fieldset>
          ))}
          <button type="button" onClick={() => listAdd('items', { title: 'Question', body: '<p>Answer</p>' })}>
            Add item
          </button>
        </>
      );
      break;
    case BlockType.SOCIAL_LINKS:
      body = (
        <>
          {arr(d.links).map((l, i) => (
            <Fieldset key={i} legend={`Link ${i + 1}`}>
              <TextField
                label="Service"
                value={s(l.service)}
                onChange={(v) => listEdit('links', i, { service: v })}
                error={errors[`links.${i}.service`]}
                required
              />
              <TextField
                label="Address"
                value={s(l.url)}
                onChange={(v) => listEdit('links', i, { url: v })}
                error={errors[`links.${i}.url`]}
              />
              <button type="button" onClick={() => listRemove('links', i)}>
                Remove link {i + 1}
              </button>
            </Fieldset>
          ))}
          <button type="button" onClick={() => listAdd('links', { service: 'instagram', url: '' })}>
            Add link
          </button>
        </>
      );
      break;
    case BlockType.SEARCH:
      body = text('placeholder', 'Placeholder');
      break;
    case BlockType.CHART:
      body = <ChartForm block={block} errors={errors} onChange={onChange} variantSelect={variantSelect} />;
      break;
    case BlockType.PRICING_PLAN:
      body = (
        <>
          {arr(d.plans).map((p, i) => (
            <Fieldset key={i} legend={`Plan ${i + 1}`}>
              <TextField
                label="Name"
                value={s(p.name)}
                onChange={(v) => listEdit('plans', i, { name: v })}
                error={errors[`plans.${i}.name`]}
                required
              />
              <PriceField
                value={typeof p.price === 'number' ? p.price : 0}
                onChange={(v) => listEdit('plans', i, { price: v })}
                error={errors[`plans.${i}.price`]}
              />
              <SelectField
                label="Billed"
                value={s(p.period) || 'month'}
                onChange={(v) => listEdit('plans', i, { period: v })}
                options={words('once', 'week', 'month', 'year')}
              />
              <AreaField label="Description" value={s(p.description)} onChange={(v) => listEdit('plans', i, { description: v })} rows={2} />
              <AreaField
                label="Features (one per line)"
                value={(Array.isArray(p.features) ? (p.features as string[]) : []).join('\n')}
                onChange={(v) => listEdit('plans', i, { features: v.split('\n') })}
                rows={3}
              />
              <TextField label="Button label" value={s(p.buttonLabel)} onChange={(v) => listEdit('plans', i, { buttonLabel: v })} />
              <TextField
                label="Button link"
                value={s(p.buttonLink)}
                onChange={(v) => listEdit('plans', i, { buttonLink: v })}
                error={errors[`plans.${i}.buttonLink`]}
              />
              <CheckField label="Featured" checked={p.featured === true} onChange={(v) => listEdit('plans', i, { featured: v })} />
              <button type="button" onClick={() => listRemove('plans', i)}>
                Remove plan {i + 1}
              </button>
            </Fieldset>
          ))}
          {errors.plans ? <p className="ed-error">{errors.plans}</p> : null}
          <button
            type="button"
            onClick={() =>
              listAdd('plans', {
                name: 'Plan',
                price: 0,
                currency: 'USD',
                period: 'month',
                description: '',
                features: [],
                buttonLabel: 'Choose',
                buttonLink: '/',
                featured: false,
              })
            }
          >
            Add plan
          </button>
        </>
      );
      break;
    case BlockType.DONATION: {
      const amounts = Array.isArray(d.amounts) ? (d.amounts as unknown[]) : [];
      const setAmounts = (next: unknown[], key: string) => onChange({ ...d, amounts: next }, key);
      body = (
        <>
          {text('title', 'Title')}
          {area('text', 'Short text', 3)}
          <Fieldset legend="Suggested amounts">
            {amounts.map((a, i) => (
              <div key={i}>
                <PriceField
                  label={`Amount ${i + 1}`}
                  value={typeof a === 'number' ? a : 0}
                  onChange={(v) =>
                    setAmounts(
                      amounts.map((x, n) => (n === i ? v : x)),
                      `amounts.${i}`,
                    )
                  }
                  error={errors[`amounts.${i}`]}
                />
                <button
                  type="button"
                  onClick={() =>
                    setAmounts(
                      amounts.filter((_, n) => n !== i),
                      'amounts.remove',
                    )
                  }
                  disabled={amounts.length <= 1}
                >
                  Remove amount {i + 1}
                </button>
              </div>
            ))}
            {errors.amounts ? <p className="ed-error">{errors.amounts}</p> : null}
            <button
              type="button"
              onClick={() => setAmounts([...amounts, 1000], 'amounts.add')}
              disabled={amounts.length >= MAX_DONATION_AMOUNTS}
            >
              Add amount
            </button>
          </Fieldset>
          <CheckField label="Allow a custom amount" checked={d.allowCustom !== false} onChange={(v) => set('allowCustom', v)} />
        </>
      );
      break;
    }
    case BlockType.SPACER:
    case BlockType.HORIZONTAL_RULE:
      body = <p>This block has no settings; change its size on the page.</p>;
      break;
    default:
      body = <p className="ed-placeholder">{pageEditor.PLACEHOLDER(blockLabel(block.type))}</p>;
  }

  return (
    <div>
      <h2 id="ed-panel-title">{isRenderedBlock(block.type) ? `${kindName(block)} block` : `${blockLabel(block.type)} block`}</h2>
      {body}
      {warnings.length ? (
        <ul aria-label="Warnings">
          {warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function PriceField({
  value,
  onChange,
  error,
  label = 'Price',
}: {
  value: number;
  onChange: (v: number) => void;
  error?: string;
  label?: string;
}) {
  const [textValue, setText] = useState<string | null>(null);
  const [bad, setBad] = useState('');
  return (
    <TextField
      label={label}
      value={textValue ?? (value / 100).toFixed(2)}
      hint={`Shown as ${formatMoney(value)}`}
      error={bad || error}
      onChange={(v) => {
        setText(v);
        try {
          onChange(toMinorUnits(v.trim() || '0'));
          setBad('');
        } catch {
          setBad('Enter an amount such as 10.00');
        }
      }}
    />
  );
}

function ChartForm({
  block,
  errors,
  onChange,
  variantSelect,
}: {
  block: Block;
  errors: Record<string, string>;
  onChange: BlockFormProps['onChange'];
  variantSelect: ReactElement | null;
}) {
  const d = block.data;
  const columns = Array.isArray(d.columns) ? (d.columns as string[]) : [];
  const rows = Array.isArray(d.rows) ? (d.rows as Array<{ label: string; values: Array<number | null> }>) : [];
  const [rowsText, setRowsText] = useState(() =>
    rows.map((r) => [r.label, ...r.values.map((v) => (v === null ? '' : String(v)))].join(', ')).join('\n'),
  );
  const ds = chartDataset(d);
  return (
    <>
      {variantSelect}
      <TextField label="Title" value={s(d.title)} onChange={(v) => onChange({ ...d, title: v }, 'title')} />
      <TextField
        label="Columns (comma separated)"
        value={columns.join(', ')}
        onChange={(v) =>
          onChange(
            {
              ...d,
              columns: v
                .split(',')
                .map((c) => c.trim())
                .filter(Boolean),
            },
            'columns',
          )
        }
        error={errors.columns}
      />
      <AreaField
        label="Rows (one per line: label, then values)"
        value={rowsText}
        rows={5}
        error={errors.rows}
        onChange={(v) => {
          setRowsText(v);
          const parsed = v
            .split('\n')
            .filter((l) => l.trim())
            .map((l) => {
              const [label, ...vals] = l.split(',').map((x) => x.trim());
              return { label: label ?? '', values: vals.map((x) => (x === '' || !Number.isFinite(Number(x)) ? null : Number(x))) };
            });
          onChange({ ...d, rows: parsed }, 'rows');
        }}
      />
      <CheckField label="Show legend" checked={d.showLegend !== false} onChange={(v) => onChange({ ...d, showLegend: v }, 'showLegend')} />
      {ds.error ? <p className="ed-error">{ds.error.message}</p> : null}
      {ds.warnings.map((w) => (
        <p key={w}>{w}</p>
      ))}
    </>
  );
}

/**
 * A text block: a one-line heading (Heading 1 to 3, the palette's Heading block), or rich text edited in
 * the formatting field. A block that holds one plain heading opens as a heading; once the owner picks
 * Text, it stays rich text while selected, even when its content becomes a single heading.
 */
function TextBlockForm({
  blockId,
  html,
  error,
  onChange,
}: {
  blockId: string;
  html: string;
  error?: string;
  onChange: (html: string, key: string) => void;
}) {
  useSyncExternalStore(richTextStore.subscribe, richTextStore.version);
  const rich = richTextStore.has(blockId);
  const t = readTextBlock(html);
  const heading = !rich && (t.format === 'h1' || t.format === 'h2' || t.format === 'h3') ? t.format : null;
  return (
    <>
      <SelectField
        label="Format"
        value={heading ?? 'text'}
        onChange={(v) => {
          if (v === 'text') {
            setRichText(blockId, true);
            if (heading) onChange(writeTextBlock('p', t.text), 'html.format');
            return;
          }
          setRichText(blockId, false);
          onChange(writeTextBlock(v as 'h1' | 'h2' | 'h3', heading ? t.text : htmlText(html)), 'html.format');
        }}
        options={[
          { value: 'h1', label: 'Heading 1' },
          { value: 'h2', label: 'Heading 2' },
          { value: 'h3', label: 'Heading 3' },
          { value: 'text', label: 'Text' },
        ]}
      />
      {heading ? (
        <TextField label="Heading text" value={t.text} onChange={(v) => onChange(writeTextBlock(heading, v), 'html')} error={error} />
      ) : (
        <>
          <p>Edit the text on the canvas, where it shows as on the site; the formatting toolbar sits above it.</p>
          {error ? <p className="ed-error">{error}</p> : null}
        </>
      )}
    </>
  );
}
