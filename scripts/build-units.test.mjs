import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reachableFiles } from './build-units.mjs';
import { root } from './pnpm.mjs';

const inputsOf = (...dirs) => reachableFiles(dirs.map((dir) => join(root, dir))).map((file) => file.slice(root.length + 1));

describe('what each build is versioned by', () => {
  it('a remote hashes the shared files it imports, followed through the packages’ exports, and no others', () => {
    const vehicle = inputsOf('mf-vehicle/src');
    expect(vehicle).toContain('mf-vehicle/src/vehicle-detail-page.tsx');
    expect(vehicle).toContain('shared/rules/src/tags.ts');
    expect(vehicle).toContain('shared/ui/src/remote-slot.tsx');
    expect(vehicle).toContain('shared/rules/package.json');
    // The chat's rules are the chat remote's and the server's business: changing them leaves the vehicle remote's version alone.
    expect(vehicle).not.toContain('shared/rules/src/chat.ts');
    expect(inputsOf('mf-chat/src')).toContain('shared/rules/src/chat.ts');
    expect(vehicle.some((file) => file.startsWith('platform/') || file.startsWith('shell/') || file.startsWith('mf-chat/'))).toBe(false);
    expect(vehicle.some((file) => file.endsWith('.test.ts') || file.endsWith('.test.tsx'))).toBe(false);
  });

  it('the server hashes the platform packages and the shared contracts and rules they import, not browser code', () => {
    const server = inputsOf('platform/server', 'platform/db', 'platform/leads', 'platform/search-engine', 'platform/demo');
    expect(server).toContain('platform/search-engine/src/search-index.ts');
    expect(server).toContain('shared/contracts/src/site.ts');
    expect(server).toContain('shared/rules/src/content-pages.ts');
    expect(
      server.some(
        (file) => file.startsWith('shell/') || file.startsWith('mf-') || file.startsWith('shared/ui/') || file.startsWith('shared/state/'),
      ),
    ).toBe(false);
  });
});
