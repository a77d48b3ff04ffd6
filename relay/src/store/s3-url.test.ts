import { describe, expect, it } from 'vitest';
import { parseS3Url } from './s3-url';

const SECRET = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYzEXAMPLEKEY';
const ENCODED = encodeURIComponent(SECRET);

describe('TANDEM_S3_URL', () => {
  it('reads a MinIO URL: http endpoint, bucket, prefix, region', () => {
    expect(parseS3Url(`http://minio:${ENCODED}@minio.internal:9000/tandem/prod/eu?region=eu-west-3`)).toEqual({
      endpoint: 'http://minio.internal:9000',
      bucket: 'tandem',
      prefix: 'prod/eu/',
      region: 'eu-west-3',
      accessKeyId: 'minio',
      secretAccessKey: SECRET,
    });
  });

  it("takes AWS's region from its host, else us-east-1", () => {
    const aws = parseS3Url(`https://AKIAEXAMPLE:${ENCODED}@s3.eu-central-1.amazonaws.com/shots/`);
    expect(aws).toMatchObject({
      endpoint: 'https://s3.eu-central-1.amazonaws.com',
      region: 'eu-central-1',
      prefix: '',
    });
    expect(parseS3Url(`https://k:${ENCODED}@s3.amazonaws.com/shots`).region).toBe('us-east-1');
    expect(parseS3Url(`https://k:${ENCODED}@storage.example/shots`).region).toBe('us-east-1');
  });

  it.each([
    ['not a url', /must be a URL of the form https:\/\/ACCESS_KEY:SECRET_KEY@host/],
    [`s3://k:${ENCODED}@minio:9000/shots`, /must start with https:\/\/ or http:\/\/.*s3:\/\/ would not say which/],
    [`ftp://k:${ENCODED}@minio/shots`, /must start with https:\/\/ or http:\/\//],
    ['https://minio:9000/shots', /must carry the access key and the secret key/],
    ['https://k@minio:9000/shots', /must carry the access key and the secret key/],
    [`https://k:${ENCODED}@minio:9000`, /must name the bucket/],
    [`https://k:${ENCODED}@minio:9000/Shots_Bucket`, /bucket name must be 3-63 lowercase/],
    [`https://k:${ENCODED}@minio:9000/shots/a%20b`, /prefix after the bucket may hold only/],
    [`https://k:${ENCODED}@minio:9000/shots?regoin=eu-west-1`, /takes one query parameter, region/],
    [`https://k:${ENCODED}@minio:9000/shots?region=Mars%201`, /region must be a region name/],
    [`https://k:${ENCODED}@minio:9000/shots#x`, /must not have a #fragment/],
    ['https://k:%E0%A4%A@minio:9000/shots', /not validly percent-encoded/],
  ])('refuses %s, saying why and never repeating the secret', (value, message) => {
    let thrown: unknown;
    try {
      parseS3Url(value);
    } catch (error) {
      thrown = error;
    }
    expect((thrown as Error).message).toMatch(message);
    expect((thrown as Error).message).not.toContain(SECRET);
    expect((thrown as Error).message).not.toContain(ENCODED);
  });
});
