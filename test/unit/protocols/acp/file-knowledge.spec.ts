import { FileKnowledge, type CompletedFileCall } from '../../../../src/protocols/acp/file-knowledge';

const FILE = '/w/a.txt';

function call(
  toolName: string,
  args: Record<string, unknown>,
  output?: string,
  outputTruncated = false,
): CompletedFileCall {
  return { toolName, path: FILE, args: { path: 'a.txt', ...args }, output, outputTruncated };
}

describe('write/edit diffs from what the session saw (docs/spec/acp.md §3)', () => {
  it('shows a write of a file no call has seen as a new file (oldText null)', () => {
    expect(new FileKnowledge().learn(call('write_file', { content: 'new\n' }))).toEqual({
      path: FILE,
      oldText: null,
      newText: 'new\n',
    });
  });

  it('shows an overwrite after a full read with the text that was read', () => {
    const files = new FileKnowledge();
    expect(files.learn(call('read_file', {}, 'old\n'))).toBeNull();
    expect(files.learn(call('write_file', { content: 'new\n' }))).toEqual({
      path: FILE,
      oldText: 'old\n',
      newText: 'new\n',
    });
    expect(files.learn(call('write_file', { content: 'newer\n' }))).toEqual({
      path: FILE,
      oldText: 'new\n',
      newText: 'newer\n',
    });
  });

  it('leaves the diff out of an overwrite when only part of the file was seen', () => {
    for (const read of [
      call('read_file', {}, 'cut', true),
      call('read_file', { start_line: 5 }, 'line 5\n'),
    ]) {
      const files = new FileKnowledge();
      files.learn(read);
      expect(files.learn(call('write_file', { content: 'new\n' }))).toBeNull();
    }
  });

  it('applies an edit to the known text, or shows the edited fragment when the text is not known', () => {
    const files = new FileKnowledge();
    files.learn(call('read_file', {}, 'a b a\n'));
    expect(files.learn(call('edit_file', { old_string: 'a', new_string: 'c' }))).toEqual({
      path: FILE,
      oldText: 'a b a\n',
      newText: 'c b a\n',
    });
    expect(files.learn(call('edit_file', { old_string: 'a', new_string: 'x', replace_all: true }))).toEqual({
      path: FILE,
      oldText: 'c b a\n',
      newText: 'c b x\n',
    });
    expect(new FileKnowledge().learn(call('edit_file', { old_string: 'foo', new_string: 'bar' }))).toEqual({
      path: FILE,
      oldText: 'foo',
      newText: 'bar',
    });
  });

  it('shows an append to a known file; an append to an unseen file has no diff', () => {
    const files = new FileKnowledge();
    files.learn(call('read_file', {}, 'one'));
    expect(files.learn(call('write_file', { content: 'two', append: true, leading_newline: true }))).toEqual({
      path: FILE,
      oldText: 'one',
      newText: 'one\ntwo',
    });
    expect(new FileKnowledge().learn(call('write_file', { content: 'x', append: true }))).toBeNull();
  });
});
