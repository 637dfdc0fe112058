/**
 * The inline editor open on the canvas (today the rich-text field's link editor): one at a time. While one
 * holds something not yet applied, the page editor refuses to open another block's editor and says
 * 'You may only edit one {tagType} at a time', sending the owner back to it.
 */
export interface OpenEditor {
  /** The kind of thing being edited, as the message names it ('link'). */
  tagType: string;
  /** Brings the owner back to the open editor. */
  focus: () => void;
}

let open: OpenEditor | null = null;
const listeners = new Set<() => void>();

export const inlineEditor = {
  /** Marks an editor open; the answer closes it (only if it is still the open one). */
  claim(editor: OpenEditor): () => void {
    open = editor;
    for (const l of listeners) l();
    return () => {
      if (open !== editor) return;
      open = null;
      for (const l of listeners) l();
    };
  },
  current: (): OpenEditor | null => open,
  subscribe(l: () => void): () => void {
    listeners.add(l);
    return () => void listeners.delete(l);
  },
};
