import {
  isHiddenPath,
  isSensitivePath,
  isUnderIgnoredRoot,
} from '../../../../../src/runtime/tools/builtins/path-classification';

describe('isHiddenPath', () => {
  it.each([
    ['.env', true],
    ['src/.cache/x', true],
    ['.github/workflows/ci.yml', true],
    ['src/index.ts', false],
    ['docs/v1.2/readme.md', false],
    ['.', false],
  ])('%j → %s', (path, hidden) => expect(isHiddenPath(path)).toBe(hidden));
});

describe('isUnderIgnoredRoot', () => {
  it.each([
    ['node_modules/x/index.js', true],
    ['Node_Modules/x', true],
    ['.git/HEAD', true],
    ['dist/main.js', true],
    ['VENDOR/lib.go', true],
    ['src/node_modules/x.js', false],
    ['distribution/x', false],
    ['src/build/x', false],
  ])('%j → %s', (path, ignored) => expect(isUnderIgnoredRoot(path)).toBe(ignored));
});

describe('isSensitivePath', () => {
  it.each([
    ['.env', true],
    ['app/.ENV', true],
    ['.npmrc', true],
    ['.pypirc', true],
    ['.netrc', true],
    ['home/credentials', true],
    ['keys/id_rsa', true],
    ['id_dsa', true],
    ['id_ecdsa', true],
    ['id_ed25519', true],
    ['.env.local', true],
    ['.env.production', true],
    ['.env.example', false],
    ['.env.sample', false],
    ['.env.template', false],
    ['secrets.yaml', true],
    ['secret.json', true],
    ['tls/server.key', true],
    ['cert.PEM', true],
    ['apple.p8', true],
    ['store.p12', true],
    ['store.pfx', true],
    ['prod.env', true],
    ['config/api_token.txt', true],
    ['a/configs/db-credential.json', true],
    ['.aws/my_secret_stuff', true],
    ['.ssh/private_key_backup', true],
    ['.gcp/token', true],
    ['Config/Token.txt', true],
    ['src/token.ts', false],
    ['src/tokenizer.ts', false],
    ['docs/secret-handling.md', false],
    ['config/settings.json', false],
    ['id_rsa.pub', false],
    ['environment.ts', false],
  ])('%j → %s', (path, sensitive) => expect(isSensitivePath(path)).toBe(sensitive));
});
