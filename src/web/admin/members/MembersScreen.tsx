/**
 * /config/members: the site password (lock screen), page passwords, member areas (free, paid once or by
 * subscription; their pages, collections and video courses), video courses and lessons, the members list
 * and the paywall events.
 */
import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { api } from '../../client/api.js';
import { moneyDecimalString, toMinorUnits } from '../../../core/money.js';
import { formatFileSize } from '../../../core/time.js';
import { ColumnHeads, ConfirmDialog, PageHeader, Skeleton } from '../ui/design.js';
import { useLoad } from '../ui/records.js';
import { formatDay } from '../ui/dates.js';

interface Area {
  id: string;
  name: string;
  description: string;
  access: 'free' | 'once' | 'subscription';
  priceCents: number;
  billingUnit: string;
  billingValue: number;
  collectionIds: string[];
  priceText: string;
}
interface Collection {
  id: string;
  title: string;
  urlId: string;
  typeName: string;
}
interface Settings {
  currency: string;
  sitePasswordSet: boolean;
  pagePasswords: Array<{ collectionId: string; title: string }>;
  areas: Area[];
  collections: Collection[];
  files: Array<{ id: string; name: string; url: string; size: number }>;
}
interface Member {
  areaId: string;
  email: string;
  displayName: string;
  status: string;
  joinedAt: string | null;
}

const EVENT_LABELS: Record<string, string> = {
  video_list_view: 'Video list page views',
  video_details_view: 'Video details page views',
  video_access_denied_view: 'Access-denied page views',
  video_join_click: 'Join button clicks',
  video_third_party_click: 'Third-party video clicks',
};

const emptyArea = {
  name: '',
  description: '',
  access: 'free' as Area['access'],
  price: '',
  billingUnit: 'MONTH',
  billingValue: '1',
  collectionIds: [] as string[],
};

/** What the screen reads: the settings (areas, passwords, courses, files), the members, the paywall events. */
const MEMBER_CALLS = ['/api/members/settings', '/api/members/members', '/api/members/analytics'] as const;

/** Runs an owner's change, says `done` when it worked (and reads the screen again), answers whether it did. */
type Run = (what: () => Promise<unknown>, done: string) => Promise<boolean>;

export function MembersScreen() {
  const client = useQueryClient();
  const [s, , settingsError] = useLoad<Settings>(MEMBER_CALLS[0]);
  const [list, , membersError] = useLoad<{ members: Member[] }>(MEMBER_CALLS[1]);
  const [ev, , eventsError] = useLoad<{ events: Array<{ name: string; count: number }> }>(MEMBER_CALLS[2]);
  const [failed, setError] = useState('');
  const error = failed || settingsError || membersError || eventsError;
  const [status, setStatus] = useState('');

  /** After a change: the settings, the members and the paywall events are read again. */
  const load = () => Promise.all(MEMBER_CALLS.map((url) => client.invalidateQueries({ queryKey: ['load', url] })));

  const run: Run = async (what, done) => {
    setError('');
    setStatus('');
    try {
      await what();
      setStatus(done);
      await load();
      return true;
    } catch (e) {
      setError(e instanceof RangeError || e instanceof TypeError ? 'Enter a price such as 25.00.' : (e as Error).message);
      return false;
    }
  };

  if (!s) return <>{error ? <p role="alert">{error}</p> : <Skeleton lines={5} label="Loading members" />}</>;
  return (
    <>
      <PageHeader
        title="Members"
        description="Lock the site or single pages with a password, sell access to member areas and courses, and see who has joined."
      />
      {status && <p role="status">{status}</p>}
      {error && <p role="alert">{error}</p>}
      <SitePasswordCard s={s} run={run} />
      <PagePasswordsCard s={s} run={run} />
      <AreasCard s={s} run={run} />
      <CoursesCard s={s} run={run} />
      <MembersCard s={s} members={list?.members ?? []} />
      <PaywallEventsCard events={ev?.events ?? []} />
    </>
  );
}

/** The password that locks the whole site. */
function SitePasswordCard({ s, run }: { s: Settings; run: Run }) {
  const [sitePassword, setSitePassword] = useState('');
  async function saveSitePassword(e: FormEvent) {
    e.preventDefault();
    if (await run(() => api('PUT', '/api/members/site-password', { password: sitePassword }), 'The site password is set.'))
      setSitePassword('');
  }

  return (
    <section className="a-card admin-card" aria-labelledby="m-lock">
      <h2 id="m-lock">Site password</h2>
      <p>{s.sitePasswordSet ? 'Visitors see the lock screen until they enter the site password.' : 'The site is open to everyone.'}</p>
      <form onSubmit={saveSitePassword} className="a-form" aria-label="Site password">
        <label>
          New site password{' '}
          <input
            type="password"
            value={sitePassword}
            autoComplete="new-password"
            onChange={(e) => setSitePassword(e.target.value)}
            required
            minLength={4}
          />
        </label>
        <button type="submit">Set site password</button>
        {s.sitePasswordSet && (
          <ConfirmDialog
            trigger={<button type="button">Remove site password</button>}
            title="Remove the site password?"
            description="Everyone will be able to see the site without a password."
            confirm="Remove site password"
            onConfirm={async () =>
              void (await run(() => api('PUT', '/api/members/site-password', { password: null }), 'The site is open again.'))
            }
          />
        )}
      </form>
    </section>
  );
}

/** Passwords of single pages and collections. */
function PagePasswordsCard({ s, run }: { s: Settings; run: Run }) {
  const [page, setPage] = useState({ collectionId: '', password: '' });
  async function savePagePassword(e: FormEvent) {
    e.preventDefault();
    if (
      await run(
        () => api('PUT', `/api/members/page-passwords/${page.collectionId}`, { password: page.password }),
        'The page password is set.',
      )
    )
      setPage({ collectionId: '', password: '' });
  }

  return (
    <section className="a-card admin-card" aria-labelledby="m-pages">
      <h2 id="m-pages">Page passwords</h2>
      {s.pagePasswords.length > 0 && (
        <ul>
          {s.pagePasswords.map((p) => (
            <li key={p.collectionId}>
              {p.title}{' '}
              <button
                type="button"
                aria-label={`Remove the password of ${p.title}`}
                onClick={() =>
                  void run(
                    () => api('PUT', `/api/members/page-passwords/${p.collectionId}`, { password: null }),
                    'The page password is removed.',
                  )
                }
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={savePagePassword} className="a-form" aria-label="Page password">
        <label>
          Page or collection{' '}
          <select value={page.collectionId} onChange={(e) => setPage({ ...page, collectionId: e.target.value })} required>
            <option value="">Choose…</option>
            {s.collections.map((c) => (
              <option key={c.id} value={c.id}>
                {c.title}
              </option>
            ))}
          </select>
        </label>
        <label>
          Password{' '}
          <input
            type="password"
            autoComplete="new-password"
            value={page.password}
            onChange={(e) => setPage({ ...page, password: e.target.value })}
            required
            minLength={4}
          />
        </label>
        <button type="submit">Set page password</button>
      </form>
    </section>
  );
}

/** The member areas, and the form that adds or edits one. */
function AreasCard({ s, run }: { s: Settings; run: Run }) {
  const [area, setArea] = useState(emptyArea);
  /** The id of the area being edited, or null when the form adds one. */
  const [editing, setEditing] = useState<string | null>(null);
  function edit(a: Area) {
    setEditing(a.id);
    setArea({
      name: a.name,
      description: a.description,
      access: a.access,
      price: a.access === 'free' ? '' : moneyDecimalString(a.priceCents, s?.currency),
      billingUnit: a.billingUnit,
      billingValue: String(a.billingValue),
      collectionIds: a.collectionIds,
    });
  }

  async function addArea(e: FormEvent) {
    e.preventDefault();
    const ok = await run(
      () =>
        api(editing ? 'PUT' : 'POST', editing ? `/api/members/areas/${editing}` : '/api/members/areas', {
          name: area.name,
          description: area.description,
          access: area.access,
          priceCents: area.access === 'free' ? 0 : toMinorUnits(area.price.trim() || '0', s?.currency),
          billingUnit: area.billingUnit,
          billingValue: Number(area.billingValue) || 1,
          collectionIds: area.collectionIds,
        }),
      editing ? 'The member area is saved.' : 'The member area is created.',
    );
    if (ok) {
      setArea(emptyArea);
      setEditing(null);
    }
  }

  return (
    <section className="a-card admin-card" aria-labelledby="m-areas">
      <h2 id="m-areas">Member areas</h2>
      {s.areas.length > 0 && <AreasTable s={s} run={run} onEdit={edit} />}
      <h3>{editing ? `Edit ${area.name || 'member area'}` : 'Add a member area'}</h3>
      <form onSubmit={addArea} className="a-form" aria-label={editing ? 'Edit a member area' : 'Add a member area'}>
        <label>
          Name <input value={area.name} onChange={(e) => setArea({ ...area, name: e.target.value })} required maxLength={100} />
        </label>
        <label>
          Join page text{' '}
          <textarea value={area.description} onChange={(e) => setArea({ ...area, description: e.target.value })} maxLength={2000} />
        </label>
        <label>
          Access{' '}
          <select value={area.access} onChange={(e) => setArea({ ...area, access: e.target.value as Area['access'] })}>
            <option value="free">Free</option>
            <option value="once">Paid once</option>
            <option value="subscription">Subscription</option>
          </select>
        </label>
        {area.access !== 'free' && (
          <label>
            Price ({s.currency}){' '}
            <input value={area.price} inputMode="decimal" onChange={(e) => setArea({ ...area, price: e.target.value })} required />
          </label>
        )}
        {area.access === 'subscription' && (
          <label>
            Billed every{' '}
            <input
              value={area.billingValue}
              inputMode="numeric"
              size={3}
              aria-label="Billing period count"
              onChange={(e) => setArea({ ...area, billingValue: e.target.value })}
            />{' '}
            <select
              value={area.billingUnit}
              aria-label="Billing period"
              onChange={(e) => setArea({ ...area, billingUnit: e.target.value })}
            >
              <option value="WEEK">week(s)</option>
              <option value="MONTH">month(s)</option>
              <option value="YEAR">year(s)</option>
            </select>
          </label>
        )}
        <fieldset>
          <legend>Pages, collections and video courses in the area</legend>
          {s.collections.map((c) => (
            <label key={c.id}>
              <input
                type="checkbox"
                checked={area.collectionIds.includes(c.id)}
                onChange={(e) =>
                  setArea({
                    ...area,
                    collectionIds: e.target.checked ? [...area.collectionIds, c.id] : area.collectionIds.filter((x) => x !== c.id),
                  })
                }
              />{' '}
              {c.title}
            </label>
          ))}
        </fieldset>
        <button type="submit">{editing ? 'Save member area' : 'Create member area'}</button>
        {editing && (
          <button
            type="button"
            onClick={() => {
              setEditing(null);
              setArea(emptyArea);
            }}
          >
            Cancel
          </button>
        )}
      </form>
    </section>
  );
}

/** The member areas with their edit and delete buttons. */
function AreasTable({ s, run, onEdit }: { s: Settings; run: Run; onEdit: (a: Area) => void }) {
  const title = (id: string) => s.collections.find((c) => c.id === id)?.title ?? id;
  return (
    <table className="admin-table" aria-label="Member areas">
      <ColumnHeads columns={['Area', 'Price', 'Contents', 'Join page']} actions />
      <tbody>
        {s.areas.map((a) => (
          <tr key={a.id}>
            <td>{a.name}</td>
            <td>{a.priceText}</td>
            <td>{a.collectionIds.map(title).join(', ') || '—'}</td>
            <td>
              <a href={`/members/join/${a.id}`}>/members/join/{a.id}</a>
            </td>
            <td>
              <button type="button" aria-label={`Edit ${a.name}`} onClick={() => onEdit(a)}>
                Edit
              </button>{' '}
              <ConfirmDialog
                trigger={
                  <button type="button" aria-label={`Delete ${a.name}`}>
                    Delete
                  </button>
                }
                title={`Delete ${a.name}?`}
                description="Its join page stops working. This cannot be undone."
                confirm="Delete member area"
                onConfirm={async () => void (await run(() => api('DELETE', `/api/members/areas/${a.id}`), 'The member area is deleted.'))}
              />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Video courses, their lessons and the files they play. */
function CoursesCard({ s, run }: { s: Settings; run: Run }) {
  const [course, setCourse] = useState({ title: '' });
  const [lesson, setLesson] = useState({ courseId: '', title: '', chapter: '', videoUrl: '', embedUrl: '' });
  const courses = s.collections.filter((c) => c.typeName === 'videos');
  async function addCourse(e: FormEvent) {
    e.preventDefault();
    if (await run(() => api('POST', '/api/members/courses', course), 'The video course is created.')) setCourse({ title: '' });
  }

  async function addLesson(e: FormEvent) {
    e.preventDefault();
    const body = {
      title: lesson.title,
      chapter: lesson.chapter,
      ...(lesson.videoUrl ? { videoUrl: lesson.videoUrl } : { embedUrl: lesson.embedUrl }),
    };
    if (await run(() => api('POST', `/api/members/courses/${lesson.courseId}/lessons`, body), 'The lesson is added.'))
      setLesson({ ...lesson, title: '', videoUrl: '', embedUrl: '' });
  }

  async function upload(file: File) {
    await run(async () => {
      const crumb =
        document.cookie
          .split('; ')
          .find((c) => c.startsWith('crumb='))
          ?.slice(6) ?? '';
      const res = await fetch('/api/members/files', {
        method: 'POST',
        headers: { 'content-type': file.type, 'x-file-name': file.name, 'x-csrf-token': decodeURIComponent(crumb) },
        body: file,
      });
      if (!res.ok) throw new Error(((await res.json().catch(() => ({}))) as { message?: string }).message ?? 'Error uploading');
    }, 'The file is uploaded.');
  }

  return (
    <section className="a-card admin-card" aria-labelledby="m-courses">
      <h2 id="m-courses">Video courses</h2>
      <form onSubmit={addCourse} className="a-form" aria-label="Add a video course">
        <label>
          Course title <input value={course.title} onChange={(e) => setCourse({ title: e.target.value })} required maxLength={200} />
        </label>
        <button type="submit">Create video course</button>
      </form>
      {courses.length > 0 && (
        <form onSubmit={addLesson} className="a-form" aria-label="Add a lesson">
          <label>
            Course{' '}
            <select value={lesson.courseId} onChange={(e) => setLesson({ ...lesson, courseId: e.target.value })} required>
              <option value="">Choose…</option>
              {courses.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.title}
                </option>
              ))}
            </select>
          </label>
          <label>
            Lesson title{' '}
            <input value={lesson.title} onChange={(e) => setLesson({ ...lesson, title: e.target.value })} required maxLength={200} />
          </label>
          <label>
            Chapter <input value={lesson.chapter} onChange={(e) => setLesson({ ...lesson, chapter: e.target.value })} maxLength={200} />
          </label>
          <label>
            Uploaded video{' '}
            <select value={lesson.videoUrl} onChange={(e) => setLesson({ ...lesson, videoUrl: e.target.value })}>
              <option value="">None (use an embed URL)</option>
              {s.files.map((f) => (
                <option key={f.id} value={f.url}>
                  {f.name} ({formatFileSize(f.size)})
                </option>
              ))}
            </select>
          </label>
          {!lesson.videoUrl && (
            <label>
              Embed URL{' '}
              <input
                type="url"
                value={lesson.embedUrl}
                placeholder="https://"
                onChange={(e) => setLesson({ ...lesson, embedUrl: e.target.value })}
              />
            </label>
          )}
          <button type="submit">Add lesson</button>
        </form>
      )}
      <label>
        Upload a video or file{' '}
        <input
          type="file"
          accept="video/*,audio/*,image/*,application/pdf"
          onChange={(e) => e.target.files?.[0] && void upload(e.target.files[0])}
        />
      </label>
    </section>
  );
}

/** Who has joined which area. */
function MembersCard({ s, members }: { s: Settings; members: Member[] }) {
  return (
    <section className="a-card admin-card" aria-labelledby="m-members">
      <h2 id="m-members">Members</h2>
      {members.length === 0 ? (
        <p>No members yet.</p>
      ) : (
        <table className="admin-table" aria-label="Members">
          <ColumnHeads columns={['Email', 'Name', 'Area', 'Status', 'Joined']} />
          <tbody>
            {members.map((m) => (
              <tr key={`${m.areaId}:${m.email}`}>
                <td>{m.email}</td>
                <td>{m.displayName || '—'}</td>
                <td>{s.areas.find((a) => a.id === m.areaId)?.name ?? m.areaId}</td>
                <td>{m.status}</td>
                <td>{m.joinedAt ? formatDay(m.joinedAt) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The paywall's events of the last 30 days. */
function PaywallEventsCard({ events }: { events: Array<{ name: string; count: number }> }) {
  return (
    <section className="a-card admin-card" aria-labelledby="m-events">
      <h2 id="m-events">Paywall analytics (last 30 days)</h2>
      <table className="admin-table" aria-label="Paywall events">
        <tbody>
          {events.map((e) => (
            <tr key={e.name}>
              <th scope="row">{EVENT_LABELS[e.name] ?? e.name}</th>
              <td>{e.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
