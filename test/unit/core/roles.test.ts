import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Role } from '../../../src/core/enums.js';
import { ACCESS, AREAS, accessTableMarkdown, allows, can, describeRole, roleDescriptions, ROLE_NAMES } from '../../../src/core/roles.js';

describe('the roles table (core/roles.ts)', () => {
  it('gives every area a label, and its write roles are among its read roles', () => {
    for (const a of AREAS) {
      expect(ACCESS[a].label, a).not.toBe('');
      for (const r of ACCESS[a].write) expect(ACCESS[a].read, `${a}: role ${r} writes but does not read`).toContain(r);
    }
  });

  it('names every role of the enumeration an owner can give, once', () => {
    const given = Object.values(Role).filter((r) => r !== Role.NONE);
    expect(ROLE_NAMES.map((r) => r.role).sort((a, b) => a - b)).toEqual([...given].sort((a, b) => a - b));
    expect(roleDescriptions().map((r) => r.role)).toEqual(ROLE_NAMES.map((r) => r.role));
  });

  it('keeps subscriber lists (with their unsubscribe links) to admins and website managers', () => {
    expect([...can('mailing-lists', 'read').roles].sort((a, b) => a - b)).toEqual([Role.ADMIN, Role.WEBSITE_MANAGER]);
    // The roles of areas Tessera does not have reach nothing but their own account.
    for (const r of [Role.CAMPAIGNS_EDITOR, Role.COMMENTER, Role.SCHEDULING, Role.SCHEDULING_EDITOR, Role.SCHEDULING_VIEWER]) {
      expect(
        AREAS.filter((a) => allows(r, a, 'read')),
        `role ${r}`,
      ).toEqual(['account']);
      expect(describeRole(r)).toContain('Can sign in, but sees and changes nothing.');
    }
  });

  it('writes each role description from the table: every area it reads or changes is named, and no other', () => {
    for (const { role, description } of roleDescriptions()) {
      if (role === Role.ADMIN) {
        expect(description.startsWith('Everything.')).toBe(true);
        continue;
      }
      for (const a of AREAS.filter((x) => x !== 'account')) {
        const named = description.includes(ACCESS[a].label);
        // A label inside another label (uploads, in 'uploads that published content uses') is checked by its own row.
        const within = AREAS.some((b) => b !== a && ACCESS[b].label.includes(ACCESS[a].label) && description.includes(ACCESS[b].label));
        if (!within) expect(named, `role ${role}, area ${a}`).toBe(allows(role, a, 'read'));
      }
    }
    expect(describeRole(Role.VIEWER)).toMatch(/changes nothing\.$/);
    expect(describeRole(Role.DRAFT_EDITOR)).toContain('Changes drafts in the page editor and uploads.');
  });

  it('is shown as it is in docs/SECURITY.md', () => {
    const doc = readFileSync(new URL('../../../docs/SECURITY.md', import.meta.url), 'utf8');
    const m = /<!-- roles-table:start[^\n]*-->\n([\s\S]*?)\n<!-- roles-table:end -->/.exec(doc);
    expect(m, 'the roles-table markers in docs/SECURITY.md').not.toBeNull();
    // On a difference, paste accessTableMarkdown()'s text between the markers.
    expect(m![1]).toBe(accessTableMarkdown());
  });
});
