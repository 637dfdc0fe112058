import { useRef, useState } from 'react';
import { api } from '../client/api.js';

export interface LessonVideoProps {
  itemId: string;
  src: string;
  label: string;
  /** Said (politely) when the server marks the lesson complete while the video plays. */
  completedText: string;
}

/** How often, in seconds of playback, the position is sent while the video plays. */
const EVERY_SECONDS = 15;

/**
 * A lesson's uploaded video. While it plays it sends the member's position (every 15 seconds, on pause
 * and at the end) to /api/members/progress; the server marks the lesson complete at the end or once
 * 90% has been watched. Without JavaScript the plain video and the "Mark lesson complete" form remain.
 */
export function LessonVideo(props: LessonVideoProps) {
  const lastSent = useRef(-1);
  const done = useRef(false);
  const [status, setStatus] = useState('');

  const send = (v: HTMLVideoElement, ended: boolean) => {
    const positionSeconds = Math.floor(v.currentTime);
    if (!ended && positionSeconds === lastSent.current) return;
    lastSent.current = positionSeconds;
    const durationSeconds = Number.isFinite(v.duration) ? Math.floor(v.duration) : undefined;
    api<{ completed: boolean }>('POST', '/api/members/progress', { itemId: props.itemId, positionSeconds, durationSeconds, ended })
      .then((r) => {
        if (r.completed && !done.current) {
          done.current = true;
          setStatus(props.completedText);
        }
      })
      .catch(() => {
        // Progress is a convenience: a failed send is retried with the next position.
        lastSent.current = -1;
      });
  };

  return (
    <>
      <video
        controls
        preload="metadata"
        src={props.src}
        aria-label={props.label}
        onTimeUpdate={(e) => {
          const v = e.currentTarget;
          if (Math.floor(v.currentTime) - Math.max(0, lastSent.current) >= EVERY_SECONDS) send(v, false);
        }}
        onPause={(e) => {
          if (!e.currentTarget.ended) send(e.currentTarget, false);
        }}
        onEnded={(e) => send(e.currentTarget, true)}
      />
      <span className="visually-hidden" role="status">
        {status}
      </span>
    </>
  );
}
