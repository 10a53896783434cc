import { refuseNativeCaller } from '../../../../src/transports/native-messaging/native-caller';

const ORIGIN = 'chrome-extension://knldjmfmopnpolahpmmgbagdohdnhkik/';

describe('refuseNativeCaller (docs/spec/native-messaging.md §1)', () => {
  it.each<[string | undefined, readonly string[] | undefined, string | null]>([
    [ORIGIN, [ORIGIN], null],
    ['agent@example.org', ['other@example.org', 'agent@example.org'], null],
    [
      'chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/',
      [ORIGIN],
      'native messaging caller not allowed: chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/',
    ],
    // Exact match only: no prefix, case or trailing-slash leniency.
    [ORIGIN.slice(0, -1), [ORIGIN], `native messaging caller not allowed: ${ORIGIN.slice(0, -1)}`],
    [ORIGIN.toUpperCase(), [ORIGIN], `native messaging caller not allowed: ${ORIGIN.toUpperCase()}`],
    [undefined, [ORIGIN], 'native messaging caller not allowed: '],
    // No allow-list: a host started by hand, not through an installed launcher.
    [ORIGIN, undefined, null],
    [undefined, undefined, null],
  ])('caller %j, allowed %j → %j', (caller, allowed, expected) => {
    expect(refuseNativeCaller(caller, allowed)).toBe(expected);
  });
});
