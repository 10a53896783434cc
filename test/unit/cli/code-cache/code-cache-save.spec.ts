import {
  CODE_CACHE_SAVE_DELAY_MS,
  offerCodeCacheSave,
  saveCodeCacheAfterStartup,
} from '../../../../src/cli/code-cache/code-cache-save';

describe('code cache save timing', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  type Listener = (...args: unknown[]) => void;

  function newExitListeners(before: Listener[]): Listener[] {
    return (process.listeners('exit') as Listener[]).filter((listener) => !before.includes(listener));
  }

  it('saves once, after the start-up delay, and no longer at exit', () => {
    const save = jest.fn();
    offerCodeCacheSave(save);
    const before = process.listeners('exit') as Listener[];
    saveCodeCacheAfterStartup();
    expect(newExitListeners(before)).toHaveLength(1);
    jest.advanceTimersByTime(CODE_CACHE_SAVE_DELAY_MS - 1);
    expect(save).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(save).toHaveBeenCalledTimes(1);
    expect(newExitListeners(before)).toEqual([]);
    jest.advanceTimersByTime(10 * CODE_CACHE_SAVE_DELAY_MS);
    expect(save).toHaveBeenCalledTimes(1);
  });

  it('a process that exits before the delay saves at exit, once', () => {
    const save = jest.fn();
    offerCodeCacheSave(save);
    const before = process.listeners('exit') as Listener[];
    saveCodeCacheAfterStartup();
    const [atExit] = newExitListeners(before);
    (atExit as () => void)();
    expect(save).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(CODE_CACHE_SAVE_DELAY_MS);
    expect(save).toHaveBeenCalledTimes(1);
    expect(newExitListeners(before)).toEqual([]);
  });

  it('without an offer (no bundle, or its cache was accepted) nothing is scheduled; an offer is used once', () => {
    const before = process.listeners('exit') as Listener[];
    saveCodeCacheAfterStartup();
    expect(newExitListeners(before)).toEqual([]);
    expect(jest.getTimerCount()).toBe(0);

    const save = jest.fn();
    offerCodeCacheSave(save);
    saveCodeCacheAfterStartup();
    saveCodeCacheAfterStartup();
    jest.advanceTimersByTime(CODE_CACHE_SAVE_DELAY_MS);
    expect(save).toHaveBeenCalledTimes(1);
  });
});
