/**
 * The page editor's layout commands: an operation becomes an undo step (keystrokes in one field within a moment make
 * one step), Undo and Redo with their keys, focus following a moved block, and a question before leaving unsaved work.
 */
import { useEffect, useRef } from 'react';
import type { OpResult, PageLayout } from '../../../../core/layout.js';
import { record, redo, undo } from './history.js';
import type { PageDocument } from './page-document.js';

/** Keystrokes in one field within this long make one undo step. */
const COALESCE_MS = 1500;

export function useLayoutCommands(doc: PageDocument) {
  const { setNotice, setDone, setServerErrors, lastKey, setHist, setAnnouncement, save } = doc;
  const focusAfter = useRef<string | null>(null);
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

  return { commit, doUndo, doRedo, focusAfter };
}

export type LayoutCommands = ReturnType<typeof useLayoutCommands>;
