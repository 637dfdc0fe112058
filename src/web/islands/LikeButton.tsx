import { useState } from 'react';
import { api, ApiError } from '../client/api.js';
import type { LikeButtonProps } from '../../core/api/storefront.js';
export type { LikeButtonProps };

const likes = (n: number) => `${n} ${n === 1 ? 'like' : 'likes'}`;

/**
 * The like button of a journal post: a plain form post without JavaScript; hydrated, a JSON call. The
 * server counts one like per visitor, so the button shows pressed after a like and the count it answers.
 */
export function LikeButton({ action, count: initial, title }: LikeButtonProps) {
  const [count, setCount] = useState(initial);
  const [liked, setLiked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  return (
    <form
      className="sqs-simple-like like-button"
      method="post"
      action={action}
      onSubmit={async (e) => {
        e.preventDefault();
        if (busy) return;
        setBusy(true);
        setError('');
        try {
          const r = await api<{ liked: boolean; likeCount: number }>('POST', action, {});
          setLiked(r.liked);
          setCount(r.likeCount);
        } catch (err) {
          setError(err instanceof ApiError ? err.message : 'Network error');
        } finally {
          setBusy(false);
        }
      }}
    >
      <button type="submit" className="like-button__button" aria-pressed={liked} aria-label={`Like ${title} (${likes(count)})`}>
        <span className="like-icon" aria-hidden="true">
          ♥
        </span>{' '}
        <span className="like-count" data-like-count={count}>
          {count}
        </span>
      </button>
      <span role="status" className="like-button__status">
        {error || (liked ? 'Thanks for the like.' : '')}
      </span>
    </form>
  );
}
