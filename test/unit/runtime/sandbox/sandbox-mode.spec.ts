/** Mode order (docs/spec/sandbox.md §1): a request may only tighten the server's mode. */
import { isLooserThan, strictestMode } from '../../../../src/runtime/sandbox/sandbox-mode';
import { sandboxReport } from '../../../../src/runtime/sandbox/run-sandbox';
import type { CommandSandbox } from '../../../../src/runtime/sandbox/command-sandbox';
import { UnavailableSandbox } from '../../../../src/runtime/sandbox/unavailable-sandbox';

describe('sandbox modes', () => {
  it('orders read-only < workspace-write < danger-full-access', () => {
    expect(isLooserThan('danger-full-access', 'workspace-write')).toBe(true);
    expect(isLooserThan('read-only', 'workspace-write')).toBe(false);
    expect(isLooserThan('workspace-write', 'workspace-write')).toBe(false);
    expect(strictestMode('workspace-write', undefined, 'danger-full-access')).toBe('workspace-write');
    expect(strictestMode('danger-full-access', 'workspace-write', 'read-only')).toBe('read-only');
  });

  it('reports the network only for workspace-write with --sandbox-network, or without a boundary', () => {
    const boundary = new UnavailableSandbox('test');
    // `--sandbox-network`: only the flag matters to the report.
    const withNetwork: CommandSandbox = {
      unavailableCause: null,
      networkAllowed: true,
      extraWritableRoots: [],
      prepare: () => ({ wrap: (program) => program, containsDescendants: false }),
    };
    expect(sandboxReport({ mode: 'read-only', boundary })).toEqual({ mode: 'read-only', network: false });
    expect(sandboxReport({ mode: 'workspace-write', boundary })).toEqual({
      mode: 'workspace-write',
      network: false,
    });
    expect(
      sandboxReport({
        mode: 'workspace-write',
        boundary: withNetwork,
      }),
    ).toEqual({
      mode: 'workspace-write',
      network: true,
    });
    expect(sandboxReport({ mode: 'danger-full-access', boundary: null })).toEqual({
      mode: 'danger-full-access',
      network: true,
    });
  });
});
