/**
 * The product editor's media: upload several images (file picker or drop; each goes through the uploads route and
 * its sharp pipeline), reorder them by drag or by keyboard (@dnd-kit/sortable: focus an image's Move handle,
 * Space to pick it up, arrow keys to move, Space to drop; moves are announced), alt text, delete. The first image is
 * the product's main image.
 */
import { useId, useRef, useState, type DragEvent } from 'react';
import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
  type DragEndEvent,
  type Announcements,
} from '@dnd-kit/core';
import { SortableContext, arrayMove, rectSortingStrategy, sortableKeyboardCoordinates, useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { uploadFile } from '../content/editor/api.js';
import { parseOriginalSize } from '../../../core/image.js';

export interface ProductImage {
  assetUrl: string;
  altText: string;
  originalSize?: string;
  mediaFocalPoint?: { x: number; y: number };
}

const FOCAL_PRESETS: Array<[string, number, number]> = [
  ['Top left', 0, 0],
  ['Top', 0.5, 0],
  ['Top right', 1, 0],
  ['Left', 0, 0.5],
  ['Centre', 0.5, 0.5],
  ['Right', 1, 0.5],
  ['Bottom left', 0, 1],
  ['Bottom', 0.5, 1],
  ['Bottom right', 1, 1],
];
const round2 = (n: number) => Math.round(Math.min(1, Math.max(0, n)) * 100) / 100;

/** The main picture keeps its own shape; until it has loaded it holds the stored size's ratio (else a square), so the page does not move under the owner's click. */
function mainRatio(originalSize: string | undefined): string | undefined {
  if (!originalSize || originalSize.length > 24) return undefined;
  try {
    const { width, height } = parseOriginalSize(originalSize);
    return width > 0 && height > 0 ? `auto ${width} / ${height}` : undefined;
  } catch {
    return undefined;
  }
}

const ACCEPT = 'image/jpeg,image/png,image/webp,image/gif';

function name(images: ProductImage[], url: string | number): string {
  const i = images.findIndex((x) => x.assetUrl === url);
  return `image ${i + 1}${images[i]?.altText ? ` (${images[i]!.altText})` : ''}`;
}

function Tile({
  image,
  index,
  count,
  onAlt,
  onFocal,
  onRemove,
}: {
  image: ProductImage;
  index: number;
  count: number;
  onAlt: (s: string) => void;
  onFocal: (f: { x: number; y: number }) => void;
  onRemove: () => void;
}) {
  const focal = image.mediaFocalPoint ?? { x: 0.5, y: 0.5 };
  const preset = FOCAL_PRESETS.find(([, x, y]) => x === focal.x && y === focal.y)?.[0] ?? 'Custom';
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: image.assetUrl });
  const altId = useId();
  return (
    <li
      ref={setNodeRef}
      className={`cat-media__tile${isDragging ? ' is-dragging' : ''}${index === 0 ? ' cat-media__tile--main' : ''}`}
      style={{ transform: CSS.Transform.toString(transform), transition }}
    >
      {/* A click on the picture sets its focal point; the select below does the same by keyboard. */}
      <span className="cat-media__pic">
        <img
          src={image.assetUrl}
          alt=""
          width={160}
          height={160}
          loading="lazy"
          className="cat-media__focusable"
          style={{
            objectPosition: `${focal.x * 100}% ${focal.y * 100}%`,
            ...(index === 0 ? { aspectRatio: mainRatio(image.originalSize) } : {}),
          }}
          onClick={(e) => {
            const r = e.currentTarget.getBoundingClientRect();
            onFocal({ x: round2((e.clientX - r.left) / r.width), y: round2((e.clientY - r.top) / r.height) });
          }}
        />
        <span className="cat-media__dot" aria-hidden="true" style={{ left: `${focal.x * 100}%`, top: `${focal.y * 100}%` }} />
        {index === 0 ? <span className="cat-badge">Main</span> : null}
      </span>
      <button
        type="button"
        ref={setActivatorNodeRef}
        className="cat-media__handle"
        {...attributes}
        {...listeners}
        aria-label={`Move image ${index + 1} of ${count}`}
      >
        <span aria-hidden="true">⠿</span>
      </button>
      <label className="cat-media__alt" htmlFor={altId}>
        <span className="visually-hidden">Alt text for image {index + 1}</span>
        <input id={altId} value={image.altText} placeholder="Alt text" onChange={(e) => onAlt(e.target.value)} maxLength={500} />
      </label>
      <label className="cat-media__alt">
        <span className="visually-hidden">Focal point for image {index + 1}</span>
        <select
          value={preset}
          onChange={(e) => {
            const p = FOCAL_PRESETS.find(([n]) => n === e.target.value);
            if (p) onFocal({ x: p[1], y: p[2] });
          }}
        >
          {FOCAL_PRESETS.map(([n]) => (
            <option key={n} value={n}>
              Focus: {n.toLowerCase()}
            </option>
          ))}
          {preset === 'Custom' ? (
            <option value="Custom">
              Focus: {Math.round(focal.x * 100)}% across, {Math.round(focal.y * 100)}% down
            </option>
          ) : null}
        </select>
      </label>
      <button type="button" className="cat-media__remove" onClick={onRemove} aria-label={`Delete image ${index + 1}`}>
        <span aria-hidden="true">×</span>
      </button>
    </li>
  );
}

export function MediaGallery({ images, onChange }: { images: ProductImage[]; onChange: (images: ProductImage[]) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(0);
  const [error, setError] = useState('');
  const [over, setOver] = useState(false);
  const latest = useRef(images);
  latest.current = images;
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const upload = async (files: File[]) => {
    setError('');
    const list = files.filter((f) => f.type.startsWith('image/') || /\.(jpe?g|png|webp|gif)$/i.test(f.name));
    if (list.length < files.length) setError('Only JPEG, PNG, WebP and GIF images can be added.');
    setBusy((n) => n + list.length);
    // One at a time, in the order chosen: the gallery keeps that order.
    for (const f of list) {
      try {
        const u = await uploadFile(f);
        latest.current = [...latest.current, { assetUrl: u.url, altText: '', ...(u.originalSize ? { originalSize: u.originalSize } : {}) }];
        onChange(latest.current);
      } catch (e) {
        setError(`${f.name}: ${e instanceof Error ? e.message : String(e)}`);
      } finally {
        setBusy((n) => n - 1);
      }
    }
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    if (e.dataTransfer.files.length) void upload([...e.dataTransfer.files]);
  };

  const onDragEnd = (e: DragEndEvent) => {
    if (!e.over || e.active.id === e.over.id) return;
    const from = images.findIndex((x) => x.assetUrl === e.active.id);
    const to = images.findIndex((x) => x.assetUrl === e.over!.id);
    if (from >= 0 && to >= 0) onChange(arrayMove(images, from, to));
  };

  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${name(images, active.id)}. Use the arrow keys to move it, Space to drop it, Escape to cancel.`,
    onDragOver: ({ active, over }) =>
      over
        ? `${name(images, active.id)} is over position ${images.findIndex((x) => x.assetUrl === over.id) + 1} of ${images.length}.`
        : undefined,
    onDragEnd: ({ active, over }) =>
      over
        ? `Dropped ${name(images, active.id)} at position ${images.findIndex((x) => x.assetUrl === over.id) + 1} of ${images.length}.`
        : `Dropped ${name(images, active.id)}.`,
    onDragCancel: ({ active }) => `Moving ${name(images, active.id)} was cancelled.`,
  };

  return (
    <div className="cat-media">
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragEnd={onDragEnd}
        accessibility={{
          announcements,
          screenReaderInstructions: { draggable: 'To move an image, press Space, use the arrow keys, then press Space again to drop it.' },
        }}
      >
        <SortableContext items={images.map((i) => i.assetUrl)} strategy={rectSortingStrategy}>
          <ol className="cat-media__grid" aria-label="Product images">
            {images.map((img, i) => (
              <Tile
                key={img.assetUrl}
                image={img}
                index={i}
                count={images.length}
                onAlt={(altText) => onChange(images.map((x, j) => (j === i ? { ...x, altText } : x)))}
                onFocal={(mediaFocalPoint) => onChange(images.map((x, j) => (j === i ? { ...x, mediaFocalPoint } : x)))}
                onRemove={() => onChange(images.filter((_, j) => j !== i))}
              />
            ))}
            <li
              className={`cat-media__drop${over ? ' is-over' : ''}`}
              onDragOver={(e) => {
                e.preventDefault();
                setOver(true);
              }}
              onDragLeave={() => setOver(false)}
              onDrop={onDrop}
            >
              <button type="button" onClick={() => input.current?.click()}>
                Add images
              </button>
              <span className="a-muted">or drop images here</span>
              <input
                ref={input}
                type="file"
                multiple
                accept={ACCEPT}
                className="visually-hidden"
                aria-label="Choose images to upload"
                tabIndex={-1}
                onChange={(e) => {
                  const files = [...(e.target.files ?? [])];
                  e.target.value = '';
                  if (files.length) void upload(files);
                }}
              />
            </li>
          </ol>
        </SortableContext>
      </DndContext>
      <p role="status" className="a-muted">
        {busy > 0 ? `Uploading ${busy} image${busy === 1 ? '' : 's'}…` : ''}
      </p>
      {error ? <p role="alert">{error}</p> : null}
    </div>
  );
}
