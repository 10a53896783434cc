import { copyJson } from '../../../../src/core/model/json-copy';

describe('copyJson', () => {
  it('copies plain objects and arrays deeply, with the same keys in the same order', () => {
    const value = { b: 1, a: [{ c: 'x', d: null }, true], e: { f: undefined, g: 'y' } };
    const copy = copyJson(value);
    expect(copy).toStrictEqual(value);
    expect(Object.keys(copy)).toEqual(['b', 'a', 'e']);
    expect(Object.keys(copy.e)).toEqual(['f', 'g']);
    expect(copy).not.toBe(value);
    expect(copy.a).not.toBe(value.a);
    expect(copy.a[0]).not.toBe(value.a[0]);
    copy.a.push(false);
    (copy.e as { g: string }).g = 'changed';
    expect(value.a).toHaveLength(2);
    expect(value.e.g).toBe('y');
  });

  it('leaves primitives as they are and copies other objects like structuredClone', () => {
    expect(copyJson('text')).toBe('text');
    expect(copyJson(null)).toBeNull();
    const date = new Date(1_780_000_000_000);
    const copied = copyJson({ when: date }).when;
    expect(copied).toEqual(date);
    expect(copied).not.toBe(date);
  });

  it('copies a parsed `__proto__` key as an own property, like structuredClone, without touching the prototype', () => {
    const value = JSON.parse('{"__proto__":{"polluted":true},"a":1}') as Record<string, unknown>;
    const copy = copyJson(value);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect((copy as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.keys(copy)).toEqual(['__proto__', 'a']);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(structuredClone(value)));
  });
});
