/**
 * The page editor's document (pages and journal posts): the page and its layout history, the pickers' lists, the
 * save state, and autosave. Saves carry the page version; a 409 stops saving and shows the conflict (nothing is
 * overwritten). PageEditor composes this with the layout commands (page-commands.ts) and the toolbar and panels.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type Dispatch, type RefObject, type SetStateAction } from 'react';
import { canonicalJson, validateLayout, type Block, type PageLayout } from '../../../../core/layout.js';
import { editor as editorMessages } from '../../../../core/messages.js';
import { defaultSiteStyles, type ColourTheme } from '../../../../core/site-styles.js';
import { api } from '../../../client/api.js';
import {
  listPages,
  loadPage,
  loadPost,
  saveDraft,
  savePostDraft,
  type PageSummary,
  type PagesList,
  type PostDoc,
  type PostFields,
} from './api.js';
import { blockName } from './blocks.js';
import { inlineEditor } from './inline-editor.js';
import { startHistory, type History } from './history.js';

/** Pause after the last change before the draft is saved. */
export const AUTOSAVE_DELAY_MS = 800;

export type SaveState = 'saved' | 'unsaved' | 'saving' | 'invalid' | 'error' | 'conflict';
export type Lists = Pick<PagesList, 'products' | 'forms' | 'collections'>;
/** A post's own fields, the site's time zone and whether raw HTML mode is offered (posts only). */
export type PostState = { fields: PostFields; timeZone: string; canWriteHtml: boolean; loadedAt: number };

export function findBlock(layout: PageLayout, id: string): { si: number; bi: number; block: Block } | null {
  for (const [si, s] of layout.sections.entries()) {
    const bi = s.blocks.findIndex((b) => b.id === id);
    if (bi >= 0) return { si, bi, block: s.blocks[bi]! };
  }
  return null;
}

export const errorStatus = (e: unknown) => (e as { status?: number }).status ?? 0;
export const errorMessage = (e: unknown) => (errorStatus(e) ? (e as Error).message : editorMessages.UNABLE_TO_CONNECT);

/**
 * The field errors of a 400 from the server (checks the browser cannot make: a newsletter block's list, a
 * Vimeo address), by block id and field, read against the layout that was sent.
 */
export function serverFieldErrors(e: unknown, sent: PageLayout): Record<string, Record<string, string>> {
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

/** The pickers' lists (products, collections, forms), loaded apart from the page: a failure there leaves the page editable. */
function usePickerLists() {
  const [lists, setLists] = useState<Lists>({ products: [], forms: [], collections: [] });
  const [listsState, setListsState] = useState<'loading' | 'ready' | 'failed'>('loading');
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
  return { lists, listsState, loadLists };
}

/** The site's colour themes for the section colours; the default themes stand in until (or unless) the styles load. */
function useSiteThemes(): readonly ColourTheme[] {
  const [themes, setThemes] = useState<readonly ColourTheme[]>(() => defaultSiteStyles().colors.themes);
  useEffect(() => {
    // The section colours follow the site styles; without them the default themes stand in.
    api<{ styles: { colors: { themes: ColourTheme[] } } }>('GET', '/api/editor/styles').then(
      (r) => setThemes(r.styles.colors.themes),
      () => undefined,
    );
  }, []);
  return themes;
}

/** Autosave: a valid layout that differs from the saved one is saved after a pause; an invalid one says why. */
function useAutosave({
  layout,
  validation,
  persist,
  products,
  savedText,
  inflight,
  stopped,
  setSave,
}: {
  layout: PageLayout | null;
  validation: ReturnType<typeof validateLayout> | null;
  persist: () => Promise<boolean>;
  products: Lists['products'];
  savedText: RefObject<string>;
  inflight: RefObject<Promise<boolean> | null>;
  stopped: RefObject<boolean>;
  setSave: Dispatch<SetStateAction<{ state: SaveState; message?: string }>>;
}) {
  useEffect(() => {
    if (!layout || !validation || stopped.current) return;
    if (!validation.ok) {
      const m = Object.keys(validation.errors)[0]?.match(/^sections\.(\d+)\.blocks\.(\d+)\./);
      const b = m ? layout.sections[Number(m[1])]?.blocks[Number(m[2])] : undefined;
      setSave({ state: 'invalid', message: b ? `${blockName(b, products)}: ${validation.message}` : validation.message });
      return;
    }
    if (canonicalJson(validation.layout) === savedText.current) {
      if (!inflight.current) setSave({ state: 'saved' });
      return;
    }
    setSave((s) => (s.state === 'saving' ? s : { state: 'unsaved' }));
    const t = setTimeout(() => void persist(), AUTOSAVE_DELAY_MS);
    return () => clearTimeout(t);
  }, [layout, validation, persist, products]);
}

export function usePageDocument(id: string, isPost: boolean) {
  const [page, setPage] = useState<PageSummary | null>(null);
  const [post, setPost] = useState<PostState | null>(null);
  const { lists, listsState, loadLists } = usePickerLists();
  const [serverErrors, setServerErrors] = useState<Record<string, Record<string, string>>>({});
  const [loadError, setLoadError] = useState('');
  const [hist, setHist] = useState<History<PageLayout> | null>(null);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [save, setSave] = useState<{ state: SaveState; message?: string }>({ state: 'saved' });
  const [conflict, setConflict] = useState('');
  const [notice, setNotice] = useState('');
  const [done, setDone] = useState('');
  const [announced, setAnnounced] = useState({ text: '', n: 0 });
  /** Says something through the live region; the same words twice are still read (the region's content changes). */
  const setAnnouncement = (text: string) => setAnnounced((a) => ({ text, n: a.n + 1 }));
  const [busy, setBusy] = useState(false);

  const version = useRef(0);
  const savedText = useRef('');
  const present = useRef<PageLayout | null>(null);
  const inflight = useRef<Promise<boolean> | null>(null);
  const lastKey = useRef<{ key: string; at: number } | null>(null);
  const stopped = useRef(false);
  /** The 'one at a time' words last shown (cleared with the open editor). */
  const oneTagNotice = useRef('');

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
  const themes = useSiteThemes();

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
        const r = isPost
          ? await savePostDraft(id, version.current, { layout: v.layout! })
          : await saveDraft(id, version.current, v.layout!);
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

  useAutosave({ layout, validation, persist, products: lists.products, savedText, inflight, stopped, setSave });

  return {
    page,
    setPage,
    post,
    setPost,
    lists,
    listsState,
    loadLists,
    serverErrors,
    setServerErrors,
    loadError,
    hist,
    setHist,
    selectedId,
    setSelectedId,
    save,
    setSave,
    conflict,
    notice,
    setNotice,
    done,
    setDone,
    announced,
    setAnnouncement,
    busy,
    setBusy,
    themes,
    version,
    savedText,
    present,
    inflight,
    lastKey,
    stopped,
    oneTagNotice,
    load,
    layout,
    validation,
    onConflict,
    persist,
  };
}

export type PageDocument = ReturnType<typeof usePageDocument>;
