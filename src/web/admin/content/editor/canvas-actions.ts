/**
 * What the page editor's canvas and block palette do: select, edit text, move, resize, duplicate and delete blocks and
 * sections, each announced through the live region and followed by focus; one inline editor open at a time.
 */
import { BlockType } from '../../../../core/enums.js';
import {
  GRID_COLUMNS,
  addBlock,
  addSection,
  createBlock,
  deleteBlock,
  deleteSection,
  duplicateBlock,
  duplicateSection,
  moveBlock,
  moveBlockDown,
  moveBlockUp,
  moveSection,
  resizeBlock,
  styleSection,
  updateBlockData,
  type PageLayout,
} from '../../../../core/layout.js';
import { platform as platformMessages } from '../../../../core/messages.js';
import { blockName } from './blocks.js';
import { inlineEditor } from './inline-editor.js';
import type { CanvasActions } from './Canvas.js';
import { findBlock, type PageDocument } from './page-document.js';
import type { LayoutCommands } from './page-commands.js';

export interface CanvasContext {
  doc: PageDocument;
  commands: LayoutCommands;
  layout: PageLayout;
  bp: 'desktop' | 'mobile';
  palette: string | null;
  setPalette: (sectionId: string | null) => void;
}

export function canvasActions({ doc, commands, layout, bp, palette, setPalette }: CanvasContext) {
  const { selectedId, setSelectedId, setAnnouncement, lists, setNotice, oneTagNotice } = doc;
  const { commit, focusAfter } = commands;
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
      if (commit(resizeBlock(layout, blockId, bp, { w: width })))
        setAnnouncement(`Width ${width} of ${GRID_COLUMNS} columns${bp === 'mobile' ? ' on phones' : ''}.`);
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
        if (!neighbour)
          setTimeout(() => document.querySelector<HTMLElement>(`[aria-label="Add block to section ${at.si + 1}"]`)?.focus(), 0);
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
      if (commit(moveSection(layout, sectionId, toIndex)))
        setAnnouncement(`Section moved to position ${toIndex + 1} of ${layout.sections.length}.`);
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
    const block = createBlock(
      code,
      code === BlockType.NEWSLETTER && firstList && init.data?.formId === undefined
        ? { ...init, data: { ...init.data, formId: firstList.id } }
        : init,
    );
    const next = commit(addBlock(layout!, sectionId, block));
    if (next) {
      setSelectedId(block.id);
      focusAfter.current = block.id;
      setAnnouncement(`${blockName(block, lists.products)} added at ${where(next, block.id)}.`);
    }
  }

  return { actions, addFromPalette };
}
