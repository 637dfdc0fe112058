import { useRef, useState } from 'react';

export interface AlbumTrack {
  title: string;
  src: string;
}

export interface AlbumPlayerProps {
  id: string;
  title: string;
  artist: string;
  tracks: AlbumTrack[];
}

/**
 * The album block (block type 60, at most 60 tracks): an audio playlist. One native audio player plays the
 * chosen track; the ordered list under it names every track, marks the one in the player with
 * aria-current, and plays the next one when a track ends. Without JavaScript the player holds the first
 * track and each track is a link to its file.
 */
export function AlbumPlayer({ id, title, artist, tracks }: AlbumPlayerProps) {
  const [current, setCurrent] = useState(0);
  const audio = useRef<HTMLAudioElement>(null);
  const play = (i: number) => {
    setCurrent(i);
    const a = audio.current;
    if (!a) return;
    a.src = tracks[i]!.src;
    a.play().catch(() => {
      /* the browser refused to start playing (no user gesture, or an unplayable file): the player shows it */
    });
  };
  const track = tracks[current] ?? tracks[0]!;
  const listId = `${id}-tracks`;
  return (
    <figure className="sqs-block audio-block album-block">
      <figcaption className="album-block__title">
        {title}
        {artist ? ` — ${artist}` : ''}
      </figcaption>
      <audio
        ref={audio}
        controls
        preload="none"
        src={track.src}
        aria-label={`${title}: ${track.title}`}
        onEnded={() => {
          if (current + 1 < tracks.length) play(current + 1);
        }}
      />
      <ol className="album-block__tracks" id={listId} aria-label={`${title} tracks`}>
        {tracks.map((t, i) => (
          <li key={i} className={i === current ? 'album-block__track album-block__track--current' : 'album-block__track'}>
            <a
              href={t.src}
              aria-current={i === current ? 'true' : undefined}
              onClick={(e) => {
                e.preventDefault();
                play(i);
              }}
            >
              {t.title}
            </a>
          </li>
        ))}
      </ol>
    </figure>
  );
}
