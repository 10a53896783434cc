import { reportedThreadStatus } from '../../../../src/core/threads/thread-status';

describe('reportedThreadStatus (docs/spec/protocol.md §8.1): the first row that applies', () => {
  it.each([
    [{ closed: true, archived: true, running: true }, 'closed'],
    [{ closed: true, archived: false, running: false }, 'closed'],
    [{ closed: false, archived: true, running: true }, 'archived'],
    [{ closed: false, archived: true, running: false }, 'archived'],
    [{ closed: false, archived: false, running: true }, 'running'],
    [{ closed: false, archived: false, running: false }, 'idle'],
  ] as const)('%j → %s', (facts, status) => {
    expect(reportedThreadStatus(facts)).toBe(status);
  });
});
