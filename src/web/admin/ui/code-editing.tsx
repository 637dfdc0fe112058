/**
 * Code editing (the code block, header and footer code) is not offered on Android: its on-screen keyboards
 * rewrite what is typed (autocorrect, smart quotes) and code comes out broken. There the screens show
 * 'Code editing is not available on Android' instead of the code fields.
 */
import { useSyncExternalStore } from 'react';
import { editor as editorMessages } from '../../../core/messages.js';

export const isAndroidAgent = (userAgent: string): boolean => /\bAndroid\b/i.test(userAgent);

const noSubscription = () => () => undefined;

/** Whether this browser is Android (false while the server renders, then the browser's answer). */
export function useAndroid(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => typeof navigator !== 'undefined' && isAndroidAgent(navigator.userAgent),
    () => false,
  );
}

export function CodeEditingUnavailable() {
  return (
    <p role="alert" className="ed-error">
      {editorMessages.NO_CODE_EDITING_ANDROID}
    </p>
  );
}
