/**
 * The page editor's pieces around the canvas: the toolbar (undo, devices, save state, status, publish), the banners
 * and notes under it, the side panel (a block's fields, a post's details, or the page), the HTML body form, and the
 * dialogs (block palette, preview, schedule). PageEditor hands each the editor it composed.
 */
import { useState } from 'react';
import { BlockType, ContentStatus } from '../../../../core/enums.js';
import {
  BLOCK_BASE_CODES,
  BLOCK_KINDS,
  GRID_COLUMNS,
  MAX_ROW_SPAN,
  PAGE_STATUS_LABELS,
  blockLabel,
  countBlocks,
  isRenderedBlock,
  layoutTextBlocksHtml,
  resizeBlock,
  updateBlockData,
  type Block,
  type PageLayout,
} from '../../../../core/layout.js';
import { MAX_BLOCKS_PER_LAYOUT } from '../../../../core/constants.js';
import { editor as editorMessages, forms as formMessages } from '../../../../core/messages.js';
import type { History } from './history.js';
import { Modal } from '../../../islands/Modal.js';
import type { PageSummary } from './api.js';
import { PostPanel } from './PostPanel.js';
import { formatDateTime, isoToZoned, zonedToIso } from './post-time.js';
import { BlockForm } from './BlockForm.js';
import { ConflictBanner } from './PagesScreen.js';
import { DEVICE_WIDTHS, type Device } from './Canvas.js';
import { findBlock, type PageDocument } from './page-document.js';
import type { LayoutCommands } from './page-commands.js';
import type { PageCalls } from './page-calls.js';
import { formatWhen } from '../../ui/dates.js';

export const DEVICES: ReadonlyArray<[Device, string]> = [
  ['desktop', 'Desktop'],
  ['tablet', 'Tablet'],
  ['phone', 'Phone'],
];

/** The editor as the pieces see it: the document, its commands and calls, the open page and the screen's own state. */
export interface Editor {
  doc: PageDocument;
  commands: LayoutCommands;
  calls: PageCalls;
  isPost: boolean;
  page: PageSummary;
  layout: PageLayout;
  hist: History<PageLayout>;
  validation: NonNullable<PageDocument['validation']>;
  device: Device;
  setDevice: (d: Device) => void;
  htmlMode: string | null;
  setHtmlMode: (html: string | null) => void;
  setScheduling: (open: boolean) => void;
}

function saveText(save: PageDocument['save']): string {
  return save.state === 'saved'
    ? 'Saved'
    : save.state === 'saving'
      ? formMessages.SAVING
      : save.state === 'unsaved'
        ? 'Unsaved changes'
        : save.state === 'invalid'
          ? `Not saved. ${save.message ?? ''}`
          : save.state === 'error'
            ? `Not saved. ${save.message ?? ''}`
            : 'Not saved';
}

/** The conflict banner (with Reload) and the last refusal, both alerts. */
export function EditorBanners({ doc }: { doc: PageDocument }) {
  const { conflict, notice, load } = doc;
  return (
    <>
      {conflict ? <ConflictBanner message={conflict} onReload={load} /> : null}
      {notice ? (
        <div role="alert" className="ed-alert">
          <span>{notice}</span>
        </div>
      ) : null}
    </>
  );
}

export function EditorToolbar({ ed }: { ed: Editor }) {
  const { doc, commands, calls, isPost, page, layout, hist, device, setDevice, htmlMode, setHtmlMode, setScheduling } = ed;
  const { save, persist, setSelectedId, post, busy, conflict } = doc;
  const { doUndo, doRedo } = commands;
  const { unpublish, setStatus, openPreview, publish } = calls;
  const blocks = countBlocks(layout);
  const statusChoice = page.status === 'draft' || page.status === 'needs-review' || page.status === 'private' ? page.status : '';
  return (
    <div className="ed-toolbar" role="toolbar" aria-label={isPost ? 'Post editor' : 'Page editor'} aria-orientation="horizontal">
      <button type="button" onClick={doUndo} disabled={hist.past.length === 0} aria-keyshortcuts="Control+Z">
        Undo
      </button>
      <button type="button" onClick={doRedo} disabled={hist.future.length === 0} aria-keyshortcuts="Control+Shift+Z">
        Redo
      </button>
      <span role="group" aria-label="Device">
        {DEVICES.map(([d, label]) => (
          <button key={d} type="button" aria-pressed={device === d} onClick={() => setDevice(d)}>
            {label}
          </button>
        ))}
      </span>
      <span className="ed-save" role="status">
        {saveText(save)}
      </span>
      {save.state === 'error' ? (
        <button type="button" onClick={() => void persist()}>
          {editorMessages.RETRY}
        </button>
      ) : null}
      <span className="ed-toolbar__spacer" />
      <span>
        {blocks} of {MAX_BLOCKS_PER_LAYOUT} blocks
      </span>
      {isPost ? (
        <button type="button" onClick={() => setSelectedId(null)} disabled={htmlMode !== null}>
          Post details
        </button>
      ) : null}
      {isPost && post?.canWriteHtml ? (
        <button
          type="button"
          aria-pressed={htmlMode !== null}
          onClick={() => setHtmlMode(htmlMode === null ? layoutTextBlocksHtml(layout) : null)}
          disabled={busy || !!conflict}
        >
          Edit as HTML
        </button>
      ) : null}
      {isPost && (page.status === 'published' || page.status === 'scheduled') ? (
        <button type="button" onClick={() => void unpublish()} disabled={busy || !!conflict}>
          Unpublish
        </button>
      ) : null}
      {isPost ? null : (
        <label>
          Status{' '}
          <select
            value={statusChoice}
            onChange={(e) => void setStatus(e.target.value as 'draft' | 'needs-review' | 'private')}
            disabled={busy || !!conflict}
          >
            {statusChoice === '' ? (
              <option value="" disabled>
                {PAGE_STATUS_LABELS[page.status]}
              </option>
            ) : null}
            <option value={ContentStatus.DRAFT}>{PAGE_STATUS_LABELS.draft}</option>
            <option value={ContentStatus.NEEDS_REVIEW}>{PAGE_STATUS_LABELS['needs-review']}</option>
            <option value={ContentStatus.PRIVATE}>{PAGE_STATUS_LABELS.private}</option>
          </select>
        </label>
      )}
      {isPost ? null : (
        <button type="button" onClick={() => void openPreview()} disabled={!!conflict}>
          Preview
        </button>
      )}
      <button type="button" onClick={() => setScheduling(true)} disabled={busy || !!conflict}>
        Schedule
      </button>
      <button type="button" onClick={() => void publish()} disabled={busy || !!conflict}>
        Publish
      </button>
    </div>
  );
}

/** The notes under the toolbar: the last success, when a schedule publishes, and what visitors see meanwhile. */
export function EditorNotes({ doc, page, isPost }: { doc: PageDocument; page: PageSummary; isPost: boolean }) {
  const { done, post, announced } = doc;
  return (
    <>
      {done ? <p role="status">{done}</p> : null}
      {page.status === 'scheduled' && page.publishAt ? (
        <p>Publishes on {post ? `${formatDateTime(page.publishAt, post.timeZone)} (${post.timeZone})` : formatWhen(page.publishAt)}.</p>
      ) : null}
      {isPost && page.status === 'published' && page.hasUnpublishedChanges ? (
        <p>Visitors see the published body; these changes are not published yet.</p>
      ) : null}
      {page.publishedAt && page.status !== 'published' ? (
        <p>Visitors see the version published {formatWhen(page.publishedAt)}; these changes are not published yet.</p>
      ) : null}
      <div aria-live="polite" className="ed-visually-hidden">
        <span key={announced.n}>{announced.text}</span>
      </div>
    </>
  );
}

/** Raw HTML mode (admins): the post's whole body as HTML. */
export function HtmlBodyForm({ ed }: { ed: Editor }) {
  const { htmlMode, setHtmlMode, calls, doc } = ed;
  const { applyHtml } = calls;
  const { busy } = doc;
  if (htmlMode === null) return null;
  return (
    <form
      className="ed-html"
      aria-label="Post body as HTML"
      onSubmit={(e) => {
        e.preventDefault();
        void applyHtml(htmlMode);
      }}
    >
      <label htmlFor="ed-html-body">Post body (HTML)</label>
      <small id="ed-html-hint">Cleaned with the site's allow-list when saved; the body becomes one text block.</small>
      <textarea
        id="ed-html-body"
        aria-describedby="ed-html-hint"
        rows={18}
        value={htmlMode}
        onChange={(e) => setHtmlMode(e.target.value)}
        spellCheck={false}
      />
      <span>
        <button type="submit" disabled={busy}>
          Save HTML
        </button>{' '}
        <button type="button" onClick={() => setHtmlMode(null)}>
          Back to the visual editor
        </button>
      </span>
    </form>
  );
}

/** The side panel: the selected block's fields and size, else a post's details, else the page's address. */
export function SidePanel({ ed, bp }: { ed: Editor; bp: 'desktop' | 'mobile' }) {
  const { doc, commands, calls, page, layout, validation } = ed;
  const { selectedId, serverErrors, lists, listsState, loadLists, post, busy, conflict } = doc;
  const { commit } = commands;
  const { saveFields } = calls;
  const selected = selectedId ? findBlock(layout, selectedId) : null;
  const prefix = selected ? `sections.${selected.si}.blocks.${selected.bi}.data.` : '';
  const pick = (src: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(src)
        .filter(([k]) => selected && k.startsWith(prefix))
        .map(([k, v]) => [k.slice(prefix.length), v]),
    );
  return (
    <aside className="ed-panel" aria-labelledby="ed-panel-title">
      {selected ? (
        <>
          <BlockForm
            key={selected.block.id}
            block={selected.block}
            errors={{ ...pick(validation.errors), ...serverErrors[selected.block.id] }}
            warnings={Object.values(pick(validation.warnings))}
            lists={lists}
            listsFailed={listsState === 'failed'}
            onReloadLists={loadLists}
            onChange={(data, key, variant) =>
              void commit(updateBlockData(layout, selected.block.id, data, variant), `${selected.block.id}:${key}`)
            }
          />
          <SizeFields
            block={selected.block}
            bp={bp}
            onResize={(size) => void commit(resizeBlock(layout, selected.block.id, bp, size), `${selected.block.id}:size`)}
          />
        </>
      ) : post ? (
        <PostPanel
          key={`${page.id}:${post.loadedAt}`}
          post={post.fields}
          timeZone={post.timeZone}
          busy={busy || !!conflict}
          onSave={saveFields}
        />
      ) : (
        <>
          <h2 id="ed-panel-title">Page</h2>
          <p>Select a block to edit its content. Use Add block in a section to add one.</p>
          <p>
            Address: <a href={page.fullUrl}>{page.fullUrl}</a>
          </p>
        </>
      )}
    </aside>
  );
}

/** The Add a block dialog: every block kind, and the legacy kinds already on the page. */
export function BlockPalette({
  layout,
  onAdd,
  onClose,
}: {
  layout: PageLayout;
  onAdd: (code: number, init?: { data?: Record<string, unknown>; h?: number }) => void;
  onClose: () => void;
}) {
  const addFromPalette = onAdd;
  const legacyOnPage = BLOCK_BASE_CODES.filter(
    (c) => !isRenderedBlock(c) && layout.sections.some((sec) => sec.blocks.some((bl) => bl.type === c)),
  );
  return (
    <Modal title="Add a block" titleId="ed-palette-title" onClose={onClose} className="ed-dialog">
      <ul className="ed-palette" aria-label="Blocks">
        <li>
          <button type="button" onClick={() => addFromPalette(BlockType.HTML, { data: { html: '<h2>Heading</h2>' }, h: 1 })}>
            Heading
          </button>
        </li>
        {BLOCK_KINDS.map((k) => (
          <li key={k.type}>
            <button type="button" onClick={() => addFromPalette(k.type)}>
              {k.label}
            </button>
          </li>
        ))}
      </ul>
      {legacyOnPage.length ? (
        <>
          {/* Block types the site does not draw are offered only to a page that already holds one (issue 27). */}
          <h3>Legacy (already on this page; not shown on the site)</h3>
          <ul className="ed-palette" aria-label="Legacy blocks">
            {legacyOnPage.map((c) => (
              <li key={c}>
                <button type="button" onClick={() => addFromPalette(c)}>
                  {blockLabel(c)}
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </Modal>
  );
}

/** The draft in a sandboxed frame at the chosen device width. */
export function PreviewDialog({
  at,
  page,
  device,
  setDevice,
  onClose,
}: {
  at: number;
  page: PageSummary;
  device: Device;
  setDevice: (d: Device) => void;
  onClose: () => void;
}) {
  const preview = at;
  return (
    <Modal title="Preview" titleId="ed-preview-title" onClose={onClose} className="ed-dialog ed-preview">
      <div role="group" aria-label="Preview width">
        {DEVICES.map(([d, label]) => (
          <button key={d} type="button" aria-pressed={device === d} onClick={() => setDevice(d)}>
            {label} ({DEVICE_WIDTHS[d]} px)
          </button>
        ))}
      </div>
      <div style={{ overflow: 'auto', maxWidth: '92vw' }}>
        {/* Sandboxed without allow-same-origin: the draft's scripts cannot reach the admin's cookies or crumb. */}
        <iframe
          key={preview}
          title={`Page preview at ${device} width`}
          sandbox="allow-scripts allow-forms allow-popups"
          src={`${page.fullUrl}?preview=draft`}
          width={DEVICE_WIDTHS[device]}
          style={{ width: DEVICE_WIDTHS[device] }}
        />
      </div>
    </Modal>
  );
}

/** The schedule dialog with a post's current date on the site's clocks. */
export function ScheduleFor({ doc, calls, onClose }: { doc: PageDocument; calls: PageCalls; onClose: () => void }) {
  const { post } = doc;
  return (
    <ScheduleDialog
      timeZone={post?.timeZone}
      initial={post && post.fields.status === 'scheduled' ? isoToZoned(post.fields.publishOn, post.timeZone) : ''}
      onClose={onClose}
      onSchedule={async (when) => {
        onClose();
        await calls.schedule(when);
      }}
    />
  );
}

function SizeFields({
  block,
  bp,
  onResize,
}: {
  block: Block;
  bp: 'desktop' | 'mobile';
  onResize: (size: { w?: number; h?: number }) => void;
}) {
  const p = block[bp];
  return (
    <fieldset style={{ border: '1px solid #ddd', borderRadius: 6, padding: 8 }}>
      <legend>Size {bp === 'mobile' ? 'on phones' : 'on desktops and tablets'}</legend>
      <label>
        Width (columns of {GRID_COLUMNS})
        <input
          type="number"
          min={1}
          max={GRID_COLUMNS}
          value={p.w}
          onChange={(e) => e.target.value && onResize({ w: Number(e.target.value) })}
        />
      </label>
      <label>
        Height (rows)
        <input
          type="number"
          min={1}
          max={MAX_ROW_SPAN}
          value={p.h}
          onChange={(e) => e.target.value && onResize({ h: Number(e.target.value) })}
        />
      </label>
    </fieldset>
  );
}

/** Asks when to publish; with `timeZone` (posts) the time is read on the site's clocks, else on the browser's. */
function ScheduleDialog({
  onClose,
  onSchedule,
  timeZone,
  initial = '',
}: {
  onClose: () => void;
  onSchedule: (iso: string) => Promise<void>;
  timeZone?: string;
  initial?: string;
}) {
  const [when, setWhen] = useState(initial);
  const [error, setError] = useState('');
  return (
    <Modal title="Schedule publishing" titleId="ed-schedule-title" onClose={onClose} className="ed-dialog">
      <form
        aria-label="Schedule publishing"
        onSubmit={(e) => {
          e.preventDefault();
          const iso = timeZone
            ? zonedToIso(when, timeZone)
            : when && !Number.isNaN(new Date(when).getTime())
              ? new Date(when).toISOString()
              : null;
          if (!when || !iso) {
            setError('Choose a date and time.');
            return;
          }
          void onSchedule(iso);
        }}
      >
        <label>
          Publish on{timeZone ? ` (${timeZone})` : ''}{' '}
          <input type="datetime-local" value={when} onChange={(e) => setWhen(e.target.value)} required />
        </label>{' '}
        <button type="submit">Schedule</button>
        {error ? <p role="alert">{error}</p> : null}
      </form>
    </Modal>
  );
}
