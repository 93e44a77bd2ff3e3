import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { baseContentType, publicMediaUrl } from './service.ts';

describe('publicMediaUrl', () => {
  it('keeps the signed URL when no MEDIA_PUBLIC_URL is set', () => {
    const signed = 'http://localhost:8080/storage/recordings/a/b.webm?expires=1&signature=x';
    assert.equal(publicMediaUrl(signed, 'http://localhost:8080/storage', null), signed);
  });

  it('puts MEDIA_PUBLIC_URL in place of the storage base, keeping the path and the signature', () => {
    assert.equal(
      publicMediaUrl(
        'http://localhost:8080/storage/recordings/a/b.webm?expires=1&signature=x',
        'http://localhost:8080/storage',
        'https://cdn.example.com/media/',
      ),
      'https://cdn.example.com/media/recordings/a/b.webm?expires=1&signature=x',
    );
    assert.equal(
      publicMediaUrl(
        'https://s3.example.com/bucket/recordings/a/b.webm?X-Amz-Signature=abc',
        'https://s3.example.com/bucket',
        'https://cdn.example.com',
      ),
      'https://cdn.example.com/recordings/a/b.webm?X-Amz-Signature=abc',
    );
  });
});

describe('baseContentType', () => {
  it('drops parameters and case', () => {
    assert.equal(baseContentType('Video/WebM; codecs="vp8, opus"'), 'video/webm');
    assert.equal(baseContentType(undefined), '');
  });
});
