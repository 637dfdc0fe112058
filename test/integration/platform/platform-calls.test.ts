/** Issue 30, platform items: the owner's comments control and a new post's default, commerce preferences; on both databases. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_KINDS } from '../../helpers/db.js';
import { OWNER, testApp, Visitor, type TestApp } from '../../helpers/app.js';

for (const kind of APP_KINDS) {
  describe(`issue 30 platform calls on ${kind}`, () => {
    let t: TestApp;
    let owner: Visitor;
    beforeAll(async () => {
      t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
      owner = new Visitor(t.app);
      expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    });
    afterAll(async () => {
      await t?.close();
    });

    it("comments: the site's comments-enabled setting is an owner control, and a new post's comment state follows it", async () => {
      const settings = (await owner.get('/api/admin/site-settings')).json().settings;
      expect(settings.commentsEnabled).toBe(true);
      const journalId = (await owner.get('/api/config/posts')).json().journals[0].id as string;
      expect((await owner.get('/api/config/posts')).json().commentsDefault).toBe(1);
      const open = await owner.send('POST', '/api/config/posts', {
        collectionId: journalId,
        title: 'Open thread',
        body: '<p>Talk.</p>',
        status: 'published',
      });
      expect(open.statusCode, open.body).toBe(201);
      expect(open.json().commentState).toBe(1);
      const v = new Visitor(t.app);
      expect((await v.get(`/journal/${open.json().urlId}`)).body).toContain('class="comments"');

      // Off: no comment area anywhere, and a new post starts closed.
      const off = await owner.send('PUT', '/api/admin/site-settings', { ...settings, commentsEnabled: false });
      expect(off.statusCode, off.body).toBe(200);
      expect(off.json().settings.commentsEnabled).toBe(false);
      t.app.pageCache.clear();
      expect((await v.get(`/journal/${open.json().urlId}?after=off`)).body).not.toContain('class="comments"');
      expect((await v.get('/journal/how-we-choose-our-linen?after=off')).body).not.toContain('class="comments"');
      expect((await owner.get('/api/config/posts')).json().commentsDefault).toBe(0);
      const closed = await owner.send('POST', '/api/config/posts', {
        collectionId: journalId,
        title: 'Quiet post',
        body: '<p>Shh.</p>',
        status: 'published',
      });
      expect(closed.json().commentState).toBe(0);
      // An owner can still open one post's comments explicitly; an edit that leaves the state out keeps it.
      const chosen = await owner.send('POST', '/api/config/posts', {
        collectionId: journalId,
        title: 'Chosen',
        status: 'draft',
        commentState: 1,
      });
      expect(chosen.json().commentState).toBe(1);
      const edited = await owner.send('PUT', `/api/config/posts/${chosen.json().id}`, {
        version: chosen.json().version,
        title: 'Chosen again',
        status: 'draft',
      });
      expect(edited.json().commentState).toBe(1);
      const bad = await owner.send('POST', '/api/config/posts', {
        collectionId: journalId,
        title: 'Bad',
        status: 'draft',
        commentState: 5,
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe('5 is not one of the expected options');
      const badSetting = await owner.send('PUT', '/api/admin/site-settings', { ...off.json().settings, commentsEnabled: 'maybe' });
      expect(badSetting.statusCode).toBe(400);

      // On again: the open post shows its comments, the closed one has none (commentState 0, no public comments).
      const on = await owner.send('PUT', '/api/admin/site-settings', { ...off.json().settings, commentsEnabled: true });
      expect(on.statusCode).toBe(200);
      t.app.pageCache.clear();
      expect((await v.get(`/journal/${open.json().urlId}?after=on`)).body).toContain('class="comments"');
      expect((await v.get(`/journal/${closed.json().urlId}?after=on`)).body).not.toContain('class="comments"');
    });
  });
}
