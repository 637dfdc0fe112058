/**
 * /config/pages/:id: the page editor; /config/posts/:id: the same editor for a journal post's body (issue 27),
 * with the post's fields in the side panel, Publish/Schedule on the site's clocks, and for admins the body as HTML. The layout lives in an undo history; every change is checked
 * with core's validateLayout and, when valid, saved as the draft after a short pause (autosave).
 * Saves carry the page version: when another owner saved in between, the server answers 409 and the
 * editor stops saving and offers 'Reload' (nothing is overwritten). Publish sends the layout and
 * makes it the visitors' page.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { BlockType, ContentStatus } from '../../../../core/enums.js';
import {
  BLOCK_BASE_CODES,
  BLOCK_KINDS,
  GRID_COLUMNS,
  MAX_ROW_SPAN,
  PAGE_STATUS_LABELS,
  addBlock,
  addSection,
  blockLabel,
  canonicalJson,
  countBlocks,
  layoutTextBlocksHtml,
  createBlock,
  deleteBlock,
  deleteSection,
  duplicateBlock,
  duplicateSection,
  isRenderedBlock,
  moveBlock,
  moveBlockDown,
  moveBlockUp,
  moveSection,
  resizeBlock,
  styleSection,
  updateBlockData,
  validateLayout,
  type Block,
  type OpResult,
  type PageLayout,
} from '../../../../core/layout.js';
import { MAX_BLOCKS_PER_LAYOUT } from '../../../../core/constants.js';
import { editor as editorMessages, forms as formMessages, platform as platformMessages } from '../../../../core/messages.js';
import { defaultSiteStyles, type ColourTheme } from '../../../../core/site-styles.js';
import { api } from '../../../client/api.js';
import { Modal } from '../../../islands/Modal.js';
import {
  listPages,
  loadPage,
  loadPost,
  publishPage,
  publishPost,
  saveDraft,
  savePostDraft,
  savePostFields,
  schedulePage,
  unschedulePage,
  unpublishPost,
  type PageSummary,
  type PagesList,
  type PostDoc,
  type PostFields,
} from './api.js';
import { PostPanel, type PostFieldValues } from './PostPanel.js';
import { formatDateTime, isoToZoned, zonedToIso } from './post-time.js';
import { blockName } from './blocks.js';
import { inlineEditor } from './inline-editor.js';
import { BlockForm } from './BlockForm.js';
import { Canvas, DEVICE_WIDTHS, breakpointOf, type CanvasActions, type Device } from './Canvas.js';
import { record, redo, startHistory, undo, type History } from './history.js';
import { LoadFailed, StatusBadge } from './PagesScreen.js';
import { EDITOR_CSS } from './styles.js';

/** Pause after the last change before the draft is saved. */
export const AUTOSAVE_DELAY_MS = 800;
/** Keystrokes in one field within this long make one undo step. */
const COALESCE_MS = 1500;

type SaveState = 'saved' | 'unsaved' | 'saving' | 'invalid' | 'error' | 'conflict';
type Lists = Pick<PagesList, 'products' | 'forms' | 'collections'>;

const DEVICES: ReadonlyArray<[Device, string]> = [
  ['desktop', 'Desktop'],
  ['tablet', 'Tablet'],
  ['phone', 'Phone'],
];

function findBlock(layout: PageLayout, id: string): { si: number; bi: number; block: Block } | null {
  for (const [si, s] of layout.sections.entries()) {
    const bi = s.blocks.findIndex((b) => b.id === id);
    if (bi >= 0) return { si, bi, block: s.blocks[bi]! };
  }
  return null;
}

const errorStatus = (e: unknown) => (e as { status?: number }).status ?? 0;
const errorMessage = (e: unknown) => (errorStatus(e) ? (e as Error).message : editorMessages.UNABLE_TO_CONNECT);

/**
 * The field errors of a 400 from the server (checks the browser cannot make: a newsletter block's list, a
 * Vimeo address), by block id and field, read against the layout that was sent.
 */
function serverFieldErrors(e: unknown, sent: PageLayout): Record<string, Record<string, string>> {
  const errs = errorStatus(e) === 400 ? (e as { data?: { errors?: unknown } }).data?.errors : undefined;
  const out: Record<string, Record<string, string>> = {};
  if (!errs || typeof errs !== 'object') return out;
  for (const [k, message] of Object.entries(errs as Record<string, unknown>)) {
    const m = /^sections\.(\d+)\.blocks\.(\d+)\.data\.(.+)$/.exec(k);
    const b = m ? sent.sections[Number(m[1])]?.blocks[Number(m[2])] : undefined;
    if (b && typeof message === 'string') (out[b.id] ??= {})[m![3]!] = message;
  }
  return out;
}

export function PageEditor({ id, kind = 'page' }: { id: string; kind?: 'page' | 'post' }) {
  const isPost = kind === 'post';
  const noun = isPost ? 'post' : 'page';
  const [page, setPage] = useState<PageSummary | null>(null);
  /** A post's own fields, the site's time zone and whether raw HTML mode is offered (posts only). */
  const [post, setPost] = useState<{ fields: PostFields; timeZone: string; canWriteHtml: boolean; loadedAt: number } | null>(null);
  const [htmlMode, setHtmlMode] = useState<string | null>(null);
  const [lists, setLists] = useState<Lists>({ products: [], forms: [], collections: [] });
  /** The pickers' lists (products, collections, forms) load apart from the page: a failure there leaves the page editable. */
  const [listsState, setListsState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [serverErrors, setServerErrors] = useState<Record<string, Record<string, string>>>({});
  const [loadError, setLoadError] = useState('');
  const [hist, setHist] = useState<History<PageLayout> | null>(null);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [device, setDevice] = useState<Device>('desktop');
  const [save, setSave] = useState<{ state: SaveState; message?: string }>({ state: 'saved' });
  const [conflict, setConflict] = useState('');
  const [notice, setNotice] = useState('');
  const [done, setDone] = useState('');
  const [announced, setAnnounced] = useState({ text: '', n: 0 });
  /** Says something through the live region; the same words twice are still read (the region's content changes). */
  const setAnnouncement = (text: string) => setAnnounced((a) => ({ text, n: a.n + 1 }));
  const [palette, setPalette] = useState<string | null>(null);
  const [preview, setPreview] = useState<number | null>(null);
  const [scheduling, setScheduling] = useState(false);
  const [busy, setBusy] = useState(false);
  const [themes, setThemes] = useState<readonly ColourTheme[]>(() => defaultSiteStyles().colors.themes);

  const version = useRef(0);
  const savedText = useRef('');
  const present = useRef<PageLayout | null>(null);
  const inflight = useRef<Promise<boolean> | null>(null);
  const lastKey = useRef<{ key: string; at: number } | null>(null);
  const focusAfter = useRef<string | null>(null);
  const stopped = useRef(false);
  /** The 'one at a time' words last shown (cleared with the open editor). */
  const oneTagNotice = useRef('');

  const loadLists = useCallback(() => {
    setListsState('loading');
    listPages().then(
      (all) => {
        setLists({ products: all.products, forms: all.forms, collections: all.collections });
        setListsState('ready');
      },
      () => setListsState('failed'),
    );
  }, []);
  const load = useCallback(() => {
    setLoadError('');
    setConflict('');
    setServerErrors({});
    stopped.current = false;
    loadLists();
    (isPost ? loadPost(id) : loadPage(id)).then(
      (doc) => {
        if ('post' in doc) {
          const d = doc as PostDoc;
          setPost({ fields: d.post, timeZone: d.timeZone, canWriteHtml: d.canWriteHtml, loadedAt: Date.now() });
        }
        const v = validateLayout(doc.layout);
        const layout = v.ok ? v.layout! : doc.layout;
        version.current = doc.page.version;
        savedText.current = canonicalJson(layout);
        present.current = layout;
        setPage(doc.page);
        setHist(startHistory(layout));
        setSelectedId(null);
        setSave({ state: 'saved' });
      },
      (e) => setLoadError(errorMessage(e)),
    );
  }, [id, isPost, loadLists]);
  useEffect(load, [load]);
  // The 'one at a time' notice goes once the open inline editor is applied or cancelled.
  useEffect(
    () =>
      inlineEditor.subscribe(() => {
        if (!inlineEditor.current()) setNotice((n) => (n === oneTagNotice.current ? '' : n));
      }),
    [],
  );
  useEffect(() => {
    // The section colours follow the site styles; without them the default themes stand in.
    api<{ styles: { colors: { themes: ColourTheme[] } } }>('GET', '/api/editor/styles').then(
      (r) => setThemes(r.styles.colors.themes),
      () => undefined,
    );
  }, []);

  const layout = hist?.present ?? null;
  present.current = layout;
  const validation = useMemo(() => (layout ? validateLayout(layout) : null), [layout]);

  const onConflict = (message: string) => {
    stopped.current = true;
    setConflict(message);
    setSave({ state: 'conflict' });
  };

  /** Saves the draft when it differs from the last saved copy; resolves false when it could not. */
  const persist = useCallback(async (): Promise<boolean> => {
    while (inflight.current) await inflight.current;
    if (stopped.current || !present.current) return false;
    const v = validateLayout(present.current);
    if (!v.ok) return false;
    const text = canonicalJson(v.layout);
    if (text === savedText.current) return true;
    setSave({ state: 'saving' });
    const run = (async () => {
      try {
        const r = isPost ? await savePostDraft(id, version.current, { layout: v.layout! }) : await saveDraft(id, version.current, v.layout!);
        setServerErrors({});
        version.current = r.page.version;
        savedText.current = canonicalJson(r.layout);
        setPage(r.page);
        const now = present.current ? validateLayout(present.current) : null;
        setSave(now?.ok && canonicalJson(now.layout) === savedText.current ? { state: 'saved' } : { state: 'unsaved' });
        return true;
      } catch (e) {
        if (errorStatus(e) === 409) onConflict((e as Error).message);
        else {
          setServerErrors(serverFieldErrors(e, v.layout!));
          setSave({ state: 'error', message: errorMessage(e) });
        }
        return false;
      } finally {
        inflight.current = null;
      }
    })();
    inflight.current = run;
    return run;
  }, [id, isPost]);

  // Autosave: a valid layout that differs from the saved one is saved after a pause.
  useEffect(() => {
    if (!layout || !validation || stopped.current) return;
    if (!validation.ok) {
      const m = Object.keys(validation.errors)[0]?.match(/^sections\.(\d+)\.blocks\.(\d+)\./);
      const b = m ? layout.sections[Number(m[1])]?.blocks[Number(m[2])] : undefined;
      setSave({ state: 'invalid', message: b ? `${blockName(b, lists.products)}: ${validation.message}` : validation.message });
      return;
    }
    if (canonicalJson(validation.layout) === savedText.current) {
      if (!inflight.current) setSave({ state: 'saved' });
      return;
    }
    setSave((s) => (s.state === 'saving' ? s : { state: 'unsaved' }));
    const t = setTimeout(() => void persist(), AUTOSAVE_DELAY_MS);
    return () => clearTimeout(t);
  }, [layout, validation, persist, lists.products]);

  // Focus follows a block that moved, was added or took the place of a deleted one.
  useEffect(() => {
    if (!focusAfter.current) return;
    document.getElementById(`ed-block-${focusAfter.current}`)?.focus();
    focusAfter.current = null;
  });

  /** Applies an operation: a refusal is shown to the owner, a new layout becomes an undo step. */
  const commit = (r: OpResult, key?: string): PageLayout | null => {
    if (!r.ok) {
      setNotice(r.message);
      return null;
    }
    setNotice('');
    setDone('');
    setServerErrors({});
    const now = Date.now();
    const coalesce = key !== undefined && lastKey.current?.key === key && now - lastKey.current.at < COALESCE_MS;
    lastKey.current = key ? { key, at: now } : null;
    setHist((h) => (h ? (coalesce ? { ...h, present: r.layout, future: [] } : record(h, r.layout)) : h));
    return r.layout;
  };

  const doUndo = () => {
    lastKey.current = null;
    setHist((h) => (h ? undo(h) : h));
    setAnnouncement('Undone.');
  };
  const doRedo = () => {
    lastKey.current = null;
    setHist((h) => (h ? redo(h) : h));
    setAnnouncement('Redone.');
  };

  // Ctrl+Z / Ctrl+Shift+Z (and Ctrl+Y) undo and redo, except inside a text field (its own undo).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
      const key = e.key.toLowerCase();
      if (key !== 'z' && key !== 'y') return;
      const t = e.target as HTMLElement | null;
      if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
      if (document.querySelector('[role="dialog"]')) return;
      e.preventDefault();
      if (key === 'y' || e.shiftKey) doRedo();
      else doUndo();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // Leaving with unsaved changes asks first.
  useEffect(() => {
    const onLeave = (e: BeforeUnloadEvent) => {
      if (save.state === 'unsaved' || save.state === 'saving' || save.state === 'invalid' || save.state === 'error') e.preventDefault();
    };
    window.addEventListener('beforeunload', onLeave);
    return () => window.removeEventListener('beforeunload', onLeave);
  }, [save.state]);

  if (loadError) {
    return (
      <>
        <style>{EDITOR_CSS}</style>
        <h1>{isPost ? 'Post editor' : 'Page editor'}</h1>
        <LoadFailed onRetry={load} detail={loadError} />
        <p>
          <a href={isPost ? '/config/posts' : '/config/pages'}>{isPost ? 'All posts' : 'All pages'}</a>
        </p>
      </>
    );
  }
  if (!page || !layout || !hist || !validation) {
    return (
      <>
        <style>{EDITOR_CSS}</style>
        <p>Loading…</p>
      </>
    );
  }

  const bp = breakpointOf(device);
  const legacyOnPage = BLOCK_BASE_CODES.filter((c) => !isRenderedBlock(c) && layout.sections.some((sec) => sec.blocks.some((bl) => bl.type === c)));
  const where = (l: PageLayout, blockId: string) => {
    const at = findBlock(l, blockId);
    if (!at) return '';
    return `position ${at.bi + 1} of ${l.sections[at.si]!.blocks.length} in section ${at.si + 1}`;
  };

  /** One inline editor at a time: while one is open (a link being edited), nothing else opens; says so and goes back to it. */
  const refusedForOpenEditor = (): boolean => {
    const open = inlineEditor.current();
    if (!open) return false;
    oneTagNotice.current = platformMessages.oneTagAtATime(open.tagType);
    setNotice(oneTagNotice.current);
    open.focus();
    return true;
  };

  const actions: CanvasActions = {
    select: (blockId) => {
      // An open link editor keeps its block selected until it is applied or cancelled.
      if (blockId !== selectedId && refusedForOpenEditor()) return;
      setSelectedId(blockId);
    },
    editText: (blockId, html, key) => {
      const b = findBlock(layout, blockId);
      if (b) void commit(updateBlockData(layout, blockId, { ...b.block.data, html }), `${blockId}:${key}`);
    },
    moveUp: (blockId) => {
      const next = commit(moveBlockUp(layout, blockId));
      if (next) {
        focusAfter.current = blockId;
        const b = findBlock(next, blockId);
        setAnnouncement(`${b ? blockName(b.block, lists.products) : 'Block'} moved to ${where(next, blockId)}.`);
      }
    },
    moveDown: (blockId) => {
      const next = commit(moveBlockDown(layout, blockId));
      if (next) {
        focusAfter.current = blockId;
        const b = findBlock(next, blockId);
        setAnnouncement(`${b ? blockName(b.block, lists.products) : 'Block'} moved to ${where(next, blockId)}.`);
      }
    },
    moveTo: (blockId, sectionId, index) => {
      const next = commit(moveBlock(layout, blockId, sectionId, index));
      if (next) {
        setSelectedId(blockId);
        focusAfter.current = blockId;
        const b = findBlock(next, blockId);
        setAnnouncement(`${b ? blockName(b.block, lists.products) : 'Block'} moved to ${where(next, blockId)}.`);
      }
    },
    resize: (blockId, w) => {
      const at = findBlock(layout, blockId);
      if (!at) return;
      const width = Math.max(1, Math.min(GRID_COLUMNS, w));
      if (width === at.block[bp].w) return;
      if (commit(resizeBlock(layout, blockId, bp, { w: width }))) setAnnouncement(`Width ${width} of ${GRID_COLUMNS} columns${bp === 'mobile' ? ' on phones' : ''}.`);
    },
    duplicate: (blockId) => {
      const next = commit(duplicateBlock(layout, blockId));
      if (next) {
        const at = findBlock(next, blockId)!;
        const copy = next.sections[at.si]!.blocks[at.bi + 1]!;
        setSelectedId(copy.id);
        focusAfter.current = copy.id;
        setAnnouncement(`Copy added at ${where(next, copy.id)}.`);
      }
    },
    remove: (blockId) => {
      const at = findBlock(layout, blockId);
      if (!at) return;
      const siblings = layout.sections[at.si]!.blocks;
      const neighbour = siblings[at.bi + 1] ?? siblings[at.bi - 1] ?? null;
      if (commit(deleteBlock(layout, blockId))) {
        setSelectedId(neighbour?.id ?? null);
        focusAfter.current = neighbour?.id ?? null;
        // With no block left in the section, focus goes to its Add block button.
        if (!neighbour) setTimeout(() => document.querySelector<HTMLElement>(`[aria-label="Add block to section ${at.si + 1}"]`)?.focus(), 0);
        setAnnouncement(`${blockName(at.block, lists.products)} deleted. Undo brings it back.`);
      }
    },
    openPalette: (sectionId) => {
      // A new block would take the selection (and close the open link editor).
      if (refusedForOpenEditor()) return;
      setPalette(sectionId);
    },
    addSection: (index) => {
      if (commit(addSection(layout, index))) setAnnouncement(`Section ${index + 1} added.`);
    },
    moveSection: (sectionId, toIndex) => {
      if (commit(moveSection(layout, sectionId, toIndex))) setAnnouncement(`Section moved to position ${toIndex + 1} of ${layout.sections.length}.`);
    },
    duplicateSection: (sectionId) => {
      if (commit(duplicateSection(layout, sectionId))) setAnnouncement('Section duplicated.');
    },
    deleteSection: (sectionId) => {
      const i = layout.sections.findIndex((s) => s.id === sectionId);
      if (commit(deleteSection(layout, sectionId))) {
        if (selectedId && layout.sections[i]?.blocks.some((b) => b.id === selectedId)) setSelectedId(null);
        setAnnouncement(`Section ${i + 1} deleted. Undo brings it back.`);
      }
    },
    styleSection: (sectionId, theme) => void commit(styleSection(layout, sectionId, { theme })),
  };

  function addFromPalette(code: number, init: Parameters<typeof createBlock>[1] = {}) {
    const sectionId = palette;
    setPalette(null);
    if (!sectionId) return;
    // A new newsletter block signs up to the site's first mailing list; without one it shows that a list must be chosen.
    const firstList = lists.forms.find((f) => f.kind === 'newsletter');
    const block = createBlock(code, code === BlockType.NEWSLETTER && firstList && init.data?.formId === undefined ? { ...init, data: { ...init.data, formId: firstList.id } } : init);
    const next = commit(addBlock(layout!, sectionId, block));
    if (next) {
      setSelectedId(block.id);
      focusAfter.current = block.id;
      setAnnouncement(`${blockName(block, lists.products)} added at ${where(next, block.id)}.`);
    }
  }

  /** Runs a page call after the pending save; a 409 turns into the conflict banner. */
  async function pageCall(run: (layout: PageLayout) => Promise<{ page: PageSummary; layout?: PageLayout }>, success: string) {
    setNotice('');
    setDone('');
    if (validation && !validation.ok) {
      setNotice(save.message ?? validation.message ?? '');
      return;
    }
    setBusy(true);
    while (inflight.current) await inflight.current;
    const v = validateLayout(present.current);
    try {
      const r = await run(v.layout!);
      version.current = r.page.version;
      if (r.layout) savedText.current = canonicalJson(r.layout);
      else savedText.current = canonicalJson(v.layout);
      setPage(r.page);
      setDone(success);
      setAnnouncement(success);
    } catch (e) {
      if (errorStatus(e) === 409) onConflict((e as Error).message);
      else {
        setServerErrors(serverFieldErrors(e, v.layout!));
        setNotice(errorMessage(e));
      }
    } finally {
      setBusy(false);
    }
  }

  const publish = () =>
    pageCall((l) => (isPost ? publishPost(id, version.current, l) : publishPage(id, version.current, l)), `Published. Visitors now see this ${noun} at ${page.fullUrl}.`).then(refreshPost);
  /** After a post call the fields' status and date follow the server's (the panel shows them). */
  function refreshPost() {
    if (isPost) loadPost(id).then((d) => setPost((p) => (p ? { ...p, fields: { ...p.fields, status: d.post.status, publishOn: d.post.publishOn } } : p)), () => undefined);
  }
  const unpublish = () => pageCall(async () => unpublishPost(id, version.current), 'Unpublished. The post is a draft again.').then(refreshPost);

  /** Saves the post's fields after any body save under way; answers per-field problems, or null. */
  async function saveFields(fields: PostFieldValues): Promise<Record<string, string> | null> {
    setNotice('');
    setDone('');
    setBusy(true);
    while (inflight.current) await inflight.current;
    try {
      const r = await savePostFields(id, version.current, fields);
      version.current = r.version;
      setPage((p) => (p ? { ...p, title: r.title, version: r.version } : p));
      setPost((p) => (p ? { ...p, fields: { ...p.fields, ...r } } : p));
      setDone('Post details saved.');
      setAnnouncement('Post details saved.');
      return null;
    } catch (e) {
      if (errorStatus(e) === 409) onConflict((e as Error).message);
      else setNotice(errorMessage(e));
      return ((e as { data?: { errors?: Record<string, string> } }).data?.errors as Record<string, string> | undefined) ?? null;
    } finally {
      setBusy(false);
    }
  }

  /** Raw HTML mode (admins): the whole body as HTML, saved as one text block cleaned with the site's allow-list. */
  async function applyHtml(html: string) {
    setNotice('');
    setBusy(true);
    while (inflight.current) await inflight.current;
    try {
      const r = await savePostDraft(id, version.current, { html });
      version.current = r.page.version;
      savedText.current = canonicalJson(r.layout);
      setPage(r.page);
      lastKey.current = null;
      setHist((h) => (h ? record(h, r.layout) : h));
      setSelectedId(null);
      setHtmlMode(null);
      setDone('Body saved from HTML.');
      setAnnouncement('Body saved from HTML.');
    } catch (e) {
      if (errorStatus(e) === 409) onConflict((e as Error).message);
      else setNotice(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }
  const setStatus = (status: 'draft' | 'needs-review' | 'private') =>
    pageCall(async (l) => {
      if (page.status === 'scheduled') {
        const u = await unschedulePage(id, version.current);
        version.current = u.page.version;
      }
      return saveDraft(id, version.current, l, status);
    }, `Status: ${PAGE_STATUS_LABELS[status]}.`);

  async function openPreview() {
    setNotice('');
    if (validation && !validation.ok) {
      setNotice(save.message ?? validation.message ?? '');
      return;
    }
    if (await persist()) setPreview(Date.now());
  }

  const selected = selectedId ? findBlock(layout, selectedId) : null;
  const prefix = selected ? `sections.${selected.si}.blocks.${selected.bi}.data.` : '';
  const pick = (src: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(src)
        .filter(([k]) => selected && k.startsWith(prefix))
        .map(([k, v]) => [k.slice(prefix.length), v]),
    );
  const invalidBlocks = new Set<string>();
  for (const k of Object.keys(validation.errors)) {
    const m = k.match(/^sections\.(\d+)\.blocks\.(\d+)\./);
    const b = m ? layout.sections[Number(m[1])]?.blocks[Number(m[2])] : undefined;
    if (b) invalidBlocks.add(b.id);
  }
  for (const blockId of Object.keys(serverErrors)) if (findBlock(layout, blockId)) invalidBlocks.add(blockId);
  const blocks = countBlocks(layout);
  const statusChoice = page.status === 'draft' || page.status === 'needs-review' || page.status === 'private' ? page.status : '';

  const saveText =
    save.state === 'saved'
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

  return (
    <>
      <style>{EDITOR_CSS}</style>
      <p>
        <a href={isPost ? '/config/posts' : '/config/pages'}>{isPost ? 'All posts' : 'All pages'}</a>
      </p>
      <h1>
        Edit {noun}: {page.title} <StatusBadge status={page.status} />
      </h1>
      {conflict ? (
        <div role="alert" className="ed-alert">
          <span>{conflict}</span>
          <button type="button" onClick={load}>
            Reload
          </button>
        </div>
      ) : null}
      {notice ? (
        <div role="alert" className="ed-alert">
          <span>{notice}</span>
        </div>
      ) : null}
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
          {saveText}
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
          <button type="button" aria-pressed={htmlMode !== null} onClick={() => setHtmlMode(htmlMode === null ? layoutTextBlocksHtml(layout) : null)} disabled={busy || !!conflict}>
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
          <select value={statusChoice} onChange={(e) => void setStatus(e.target.value as 'draft' | 'needs-review' | 'private')} disabled={busy || !!conflict}>
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
      {done ? <p role="status">{done}</p> : null}
      {page.status === 'scheduled' && page.publishAt ? <p>Publishes on {post ? `${formatDateTime(page.publishAt, post.timeZone)} (${post.timeZone})` : new Date(page.publishAt).toLocaleString()}.</p> : null}
      {isPost && page.status === 'published' && page.hasUnpublishedChanges ? <p>Visitors see the published body; these changes are not published yet.</p> : null}
      {page.publishedAt && page.status !== 'published' ? <p>Visitors see the version published {new Date(page.publishedAt).toLocaleString()}; these changes are not published yet.</p> : null}
      <div aria-live="polite" className="ed-visually-hidden">
        <span key={announced.n}>{announced.text}</span>
      </div>
      <div className="ed-shell">
        {htmlMode !== null ? (
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
            <textarea id="ed-html-body" aria-describedby="ed-html-hint" rows={18} value={htmlMode} onChange={(e) => setHtmlMode(e.target.value)} spellCheck={false} />
            <span>
              <button type="submit" disabled={busy}>
                Save HTML
              </button>{' '}
              <button type="button" onClick={() => setHtmlMode(null)}>
                Back to the visual editor
              </button>
            </span>
          </form>
        ) : (
        <Canvas target={{ kind, id }} layout={layout} device={device} selectedId={selectedId} products={lists.products} invalidBlocks={invalidBlocks} themes={themes} actions={actions} />
        )}
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
                onChange={(data, key, variant) => void commit(updateBlockData(layout, selected.block.id, data, variant), `${selected.block.id}:${key}`)}
              />
              <SizeFields block={selected.block} bp={bp} onResize={(size) => void commit(resizeBlock(layout, selected.block.id, bp, size), `${selected.block.id}:size`)} />
            </>
          ) : post ? (
            <PostPanel key={`${page.id}:${post.loadedAt}`} post={post.fields} timeZone={post.timeZone} busy={busy || !!conflict} onSave={saveFields} />
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
      </div>
      {palette ? (
        <Modal title="Add a block" titleId="ed-palette-title" onClose={() => setPalette(null)} className="ed-dialog">
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
      ) : null}
      {preview !== null ? (
        <Modal title="Preview" titleId="ed-preview-title" onClose={() => setPreview(null)} className="ed-dialog ed-preview">
          <div role="group" aria-label="Preview width">
            {DEVICES.map(([d, label]) => (
              <button key={d} type="button" aria-pressed={device === d} onClick={() => setDevice(d)}>
                {label} ({DEVICE_WIDTHS[d]} px)
              </button>
            ))}
          </div>
          <div style={{ overflow: 'auto', maxWidth: '92vw' }}>
            {/* Sandboxed without allow-same-origin: the draft's scripts cannot reach the admin's cookies or crumb. */}
            <iframe key={preview} title={`Page preview at ${device} width`} sandbox="allow-scripts allow-forms allow-popups" src={`${page.fullUrl}?preview=draft`} width={DEVICE_WIDTHS[device]} style={{ width: DEVICE_WIDTHS[device] }} />
          </div>
        </Modal>
      ) : null}
      {scheduling ? (
        <ScheduleDialog
          timeZone={post?.timeZone}
          initial={post && post.fields.status === 'scheduled' ? isoToZoned(post.fields.publishOn, post.timeZone) : ''}
          onClose={() => setScheduling(false)}
          onSchedule={async (when) => {
            setScheduling(false);
            if (isPost) await pageCall(async (l) => publishPost(id, version.current, l, when), `Scheduled for ${formatDateTime(when, post!.timeZone)} (${post!.timeZone}).`).then(refreshPost);
            else await pageCall(async (l) => schedulePage(id, version.current, when, l), `Scheduled for ${new Date(when).toLocaleString()}.`);
          }}
        />
      ) : null}
    </>
  );
}

function SizeFields({ block, bp, onResize }: { block: Block; bp: 'desktop' | 'mobile'; onResize: (size: { w?: number; h?: number }) => void }) {
  const p = block[bp];
  return (
    <fieldset style={{ border: '1px solid #ddd', borderRadius: 6, padding: 8 }}>
      <legend>Size {bp === 'mobile' ? 'on phones' : 'on desktops and tablets'}</legend>
      <label>
        Width (columns of {GRID_COLUMNS})
        <input type="number" min={1} max={GRID_COLUMNS} value={p.w} onChange={(e) => e.target.value && onResize({ w: Number(e.target.value) })} />
      </label>
      <label>
        Height (rows)
        <input type="number" min={1} max={MAX_ROW_SPAN} value={p.h} onChange={(e) => e.target.value && onResize({ h: Number(e.target.value) })} />
      </label>
    </fieldset>
  );
}

/** Asks when to publish; with `timeZone` (posts) the time is read on the site's clocks, else on the browser's. */
function ScheduleDialog({ onClose, onSchedule, timeZone, initial = '' }: { onClose: () => void; onSchedule: (iso: string) => Promise<void>; timeZone?: string; initial?: string }) {
  const [when, setWhen] = useState(initial);
  const [error, setError] = useState('');
  return (
    <Modal title="Schedule publishing" titleId="ed-schedule-title" onClose={onClose} className="ed-dialog">
      <form
        aria-label="Schedule publishing"
        onSubmit={(e) => {
          e.preventDefault();
          const iso = timeZone ? zonedToIso(when, timeZone) : when && !Number.isNaN(new Date(when).getTime()) ? new Date(when).toISOString() : null;
          if (!when || !iso) {
            setError('Choose a date and time.');
            return;
          }
          void onSchedule(iso);
        }}
      >
        <label>
          Publish on{timeZone ? ` (${timeZone})` : ''} <input type="datetime-local" value={when} onChange={(e) => setWhen(e.target.value)} required />
        </label>{' '}
        <button type="submit">Schedule</button>
        {error ? <p role="alert">{error}</p> : null}
      </form>
    </Modal>
  );
}
